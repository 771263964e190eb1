"""Property tests of the writer/parser pair (hypothesis).

Random records — tags with awkward text, deals that are shuffles of the 216-card deck, actions
with glyphs, round numbers and comments (CJK, emoji, ``}``) — must survive
``parse(write(record))``; ``write`` must be idempotent and keep its layout promises (lines of
at most 80 columns unless one token is longer, LF only, one final newline). And the lenient
reader must read the canonical example the same however it is spaced, line-ended, BOM-marked
or lower-cased.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from gouji_record.model import REQUIRED_TAGS, Action, ActionKind, GameRecord
from gouji_record.notation import parse_text, write, write_all
from gouji_record.width import columns, is_wide
from gouji_record.cards import COPIES, HAND_SIZE, RANK_LETTERS

from conftest import EXAMPLES

settings.register_profile(
    "gjn", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
PROPERTY = settings(settings.get_profile("gjn"))
#: For a property known to fail: find a counter-example, do not spend time shrinking it.
KNOWN_BUG = settings(PROPERTY, phases=[Phase.explicit, Phase.reuse, Phase.generate])

#: The four decks, one letter a card: 216 cards.
DECK = "".join(letter * n for letter, n in zip(RANK_LETTERS, COPIES))
assert len(DECK) == 6 * HAND_SIZE


def parse(text: str) -> list[GameRecord]:
    return [record for record, _ in parse_text(text)]


# -- strategies ------------------------------------------------------------------------------

#: Any assigned, non-private character that is not a control character, a surrogate or a
#: line/paragraph separator (those cannot stand in a one-line tag value).
_ANY_CHAR = st.characters(blacklist_categories=("Cc", "Cs", "Co", "Cn", "Zl", "Zp"))
_AWKWARD = st.sampled_from(list('"\\[]{};:*~-!?^$ 　够级烧牌开点头科大落王小二😀🀄👍🏽é\u200b\ufeff'))
_CJK = st.sampled_from(list("够级烧牌开点头科二落大王小鬼的了是在让接风无要革命自然"))

tag_values = st.text(st.one_of(_ANY_CHAR, _AWKWARD), max_size=24)
tag_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,11}", fullmatch=True).filter(
    lambda n: n not in REQUIRED_TAGS and n not in {"Score"}
)
dates = st.one_of(
    st.just("?"),
    st.builds(
        "{}.{}.{}".format,
        st.one_of(st.integers(1900, 2100).map(str), st.just("????")),
        st.one_of(st.integers(1, 12).map("{:02d}".format), st.just("??")),
        st.one_of(st.integers(1, 28).map("{:02d}".format), st.just("??")),
    ),
)
results = st.one_of(st.sampled_from(["*", "void"]), st.permutations(range(1, 7)).map(lambda p: "-".join(map(str, p))))


@st.composite
def tags(draw) -> dict[str, str]:
    values = {name: draw(tag_values) for name in REQUIRED_TAGS}
    values["Date"] = draw(dates)
    values["Result"] = draw(results)
    values["Ruleset"] = draw(
        st.one_of(st.sampled_from(["online", "classic", "charter", "fours", "tournament"]), tag_values)
    )
    if draw(st.booleans()):
        values["Score"] = "{} {}".format(*draw(st.tuples(st.integers(-99, 99), st.integers(-99, 99))))
    extra = draw(st.dictionaries(tag_names, tag_values, max_size=4))
    order = draw(st.permutations(list(values) + list(extra)))  # any order: the writer sorts
    merged = {**values, **extra}
    return {name: merged[name] for name in order}


def _deal(rng) -> tuple[str, ...]:
    cards = list(DECK)
    rng.shuffle(cards)
    return tuple("".join(cards[i : i + HAND_SIZE]) for i in range(0, len(cards), HAND_SIZE))


#: Six hands that together are the four decks, shuffled (one draw, not 216: keeps examples fast).
deals = st.randoms(use_true_random=False).map(_deal)


def comment_texts(braces: str = "}") -> st.SearchStrategy[str]:
    """Comments as the reader gives them back: words joined by single spaces, no other white
    space; ``braces`` says which of ``{`` ``}`` may appear."""
    other = st.characters(
        blacklist_categories=("Cc", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"),  # no white space at all
        blacklist_characters="{}",
    )
    char = st.one_of(
        other, _AWKWARD.filter(lambda c: not c.isspace() and c not in "{}"), _CJK, st.sampled_from(braces or "x")
    )
    word = st.one_of(
        st.text(char, min_size=1, max_size=8),
        st.text(_CJK, min_size=1, max_size=60),  # long Chinese text wraps between characters
        st.text(char, min_size=30, max_size=90),  # a token longer than a line
    )
    return st.lists(word, max_size=5).map(" ".join)


def forced(text: st.SearchStrategy[str], chars: str) -> st.SearchStrategy[str]:
    """``text`` with one of ``chars`` put in at some place."""
    return st.tuples(text, st.sampled_from(list(chars)), st.integers(0, 200)).map(
        lambda t: t[0][: t[2]] + t[1] + t[0][t[2] :]
    )


glyphs = st.sampled_from([None, "!", "?", "!!", "??", "!?", "?!"])
cards = st.text(st.sampled_from(list(RANK_LETTERS + RANK_LETTERS.lower())), min_size=1, max_size=24)
rounds = st.one_of(st.none(), st.integers(1, 9999))  # four digits at most (docs/notation.md)


@st.composite
def actions(draw, comments=comment_texts(), extended: bool = False) -> Action:
    kinds = [ActionKind.PLAY, ActionKind.PASS, ActionKind.YIELD]
    if extended:
        kinds += [ActionKind.WIND, ActionKind.CLAIM]
    kind = draw(st.sampled_from(kinds))
    fields = dict(
        seat=draw(st.integers(1, 6)),
        kind=kind,
        round=draw(rounds),
        glyph=draw(glyphs),
        comments=tuple(draw(st.lists(comments, max_size=2))),
    )
    if kind is ActionKind.PLAY:
        fields |= dict(cards=draw(cards), burn=draw(st.booleans()))
    if extended:
        fields |= dict(nags=tuple(draw(st.lists(st.integers(0, 255), max_size=3))), irregular=draw(st.booleans()))
    return Action(**fields)


@st.composite
def declarations(draw, comments=comment_texts()) -> Action:
    return Action(
        seat=draw(st.integers(1, 6)),
        kind=draw(st.sampled_from([ActionKind.REVOLT, ActionKind.KEEP_HEAD, ActionKind.NO_HEAD, ActionKind.NATURAL])),
        glyph=draw(glyphs),  # no $n before play: the pre-play section takes a glyph only
        comments=tuple(draw(st.lists(comments, max_size=2))),
    )


@st.composite
def preplay_item(draw, comments=comment_texts()) -> tuple[Action, ...]:
    """One item of the pre-play section: a declaration, a transfer, a gift (one transfer) or a
    purchase (two transfers, back and forth between two seats)."""
    kind = draw(st.sampled_from(["declaration", "transfer", "gift", "buy"]))
    if kind == "declaration":
        return (draw(declarations(comments)),)
    giver, taker = draw(st.permutations(range(1, 7)))[:2]

    def give(seat, to, purpose):
        return Action(
            seat=seat,
            kind=ActionKind.GIVE,
            to=to,
            cards=draw(cards),
            glyph=draw(glyphs),
            comments=tuple(draw(st.lists(comments, max_size=2))),
            purpose=purpose,
        )

    if kind == "buy":
        return (give(giver, taker, "buy"), give(taker, giver, "buy"))
    return (give(giver, taker, "gift" if kind == "gift" else None),)


@st.composite
def partly_known(draw, deal: tuple[str, ...]) -> tuple[str, ...]:
    """``deal`` with some hands partly or wholly unknown (``?N``)."""
    out = []
    for hand in deal:
        known = draw(st.sampled_from([HAND_SIZE, HAND_SIZE, draw(st.integers(0, HAND_SIZE))]))
        out.append(hand[:known] + (f"?{HAND_SIZE - known}" if known < HAND_SIZE else ""))
    return tuple(out)


@st.composite
def records(draw, comments=comment_texts(), extended: bool = False) -> GameRecord:
    deal = draw(deals)
    if extended:
        deal = draw(partly_known(deal))
    return GameRecord(
        tags=draw(tags()),
        deal=deal,
        preplay=tuple(a for item in draw(st.lists(preplay_item(comments), max_size=3)) for a in item)
        if extended
        else (),
        comment=tuple(draw(st.lists(comments, max_size=2))),
        actions=tuple(draw(st.lists(actions(comments, extended), max_size=20))),
    )


# -- layout checks ---------------------------------------------------------------------------


def _breakable(body: str) -> bool:
    """Whether ``body`` has a place a line could be broken without changing what it says: a
    space that does not stand between two wide characters (a line break there would be read
    back as no space at all)."""
    return any(c == " " and not (is_wide(body[i - 1 : i]) and is_wide(body[i + 1 : i + 2])) for i, c in enumerate(body))


def check_layout(text: str) -> None:
    assert "\r" not in text
    assert text.endswith("\n") and not text.endswith("\n\n")
    for line in text.split("\n")[:-1]:
        if columns(line) <= 80:
            continue
        body = line.removeprefix("   ")
        # a tag, a ; comment (it runs to the end of its line) or one unbreakable token
        assert line.startswith("[") or body.startswith(";") or not _breakable(body), (
            f"{columns(line)} columns: {line!r}"
        )


# -- properties ------------------------------------------------------------------------------


@PROPERTY
@given(records())
def test_parse_of_write_gives_the_record_back(record):
    assert parse(write(record)) == [record]


@PROPERTY
@given(records())
def test_write_is_idempotent(record):
    text = write(record)
    assert write(parse(text)[0]) == text


@PROPERTY
@given(records())
def test_written_lines_fit_80_columns_lf_and_one_final_newline(record):
    check_layout(write(record))


@PROPERTY
@given(records(extended=True))
def test_round_trip_with_preplay_unknown_cards_nags_irregular_and_requests(record):
    text = write(record)
    assert parse(text) == [record]
    assert write(parse(text)[0]) == text
    check_layout(text)


@settings(PROPERTY, max_examples=40)
@given(st.lists(records(), min_size=2, max_size=3))
def test_several_hands_round_trip(recs):
    text = write_all(recs)
    assert parse(text) == recs
    assert "\n\n\n" not in text


@PROPERTY
@given(records(comments=forced(comment_texts(), "}")))
def test_comments_with_a_closing_brace_round_trip(record):
    assert parse(write(record)) == [record]


@PROPERTY
@given(
    records(comments=forced(comment_texts("{"), "{")).filter(lambda r: any(a.comments for a in r.actions) or r.comment)
)
def test_comments_with_an_opening_brace_round_trip(record):
    assert parse(write(record)) == [record]


@PROPERTY
@given(
    records(extended=True),
    st.lists(
        st.tuples(declarations(), st.one_of(st.integers(1, 99), st.none()), st.booleans()), min_size=1, max_size=3
    ).filter(lambda ds: any(n is not None or mark for _, n, mark in ds)),
)
def test_declarations_with_a_round_number_or_irregular_mark_are_refused(record, marked):
    # the pre-play section has no round numbers and no ^: the model refuses such a record
    preplay = tuple(d.model_copy(update={"round": n, "irregular": mark}) for d, n, mark in marked)
    with pytest.raises(ValueError):
        GameRecord.model_validate(record.model_dump() | {"preplay": [a.model_dump() for a in preplay]})


# -- the lenient reader ----------------------------------------------------------------------

HAND = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")

_PIECES = re.compile(
    r"""(?P<comment>\{[^{}]*\})
      | (?P<string>"(?:[^"\\\n]|\\.)*")
      | (?P<round>\d+\.)
      | (?P<action>(?P<seat>[1-6]):(?P<gap>\ ?)(?P<burn>\*?)(?P<cards>(?:10|[2-9TJQKAXD])+))
      | (?P<seatonly>[1-6]:)
      | (?P<ws>\s+)
      | (?P<bracket>[\[\]])
      | (?P<other>.)""",
    re.X | re.S,
)
_SPACE = [" ", "  ", "\t", "\n", " \n\t ", "\n\n", "\t \n   "]
_INLINE_SPACE = [" ", "  ", "\t", " \t "]
_NEWLINE_SPACE = ["\n", "\n   ", " \n\t", "\n\n"]
_GAP = ["", "", " ", "\t", "\n   "]
_CARD_SPELLINGS = {
    "T": ["T", "t", "10"],
    "D": ["D", "d", "大王", "大花", "大鬼", "大虎"],
    "X": ["X", "x", "小王", "小花", "小鬼", "小虎"],
}


def _comment(rng, raw: str) -> str:
    out = []
    for m in re.finditer(r"\s+|\S+", raw):
        run = m.group()
        if not run.isspace():
            out.append(run)
            continue
        before, after = raw[m.start() - 1], raw[m.end()]
        if is_wide(before) and is_wide(after):  # a line break here means "no space": keep its kind
            out.append(rng.choice(_NEWLINE_SPACE if "\n" in run else _INLINE_SPACE))
        else:
            out.append(rng.choice(_SPACE + _INLINE_SPACE))
    return "".join(out)


def mutate(rng) -> str:
    """The example respaced, line-ended, BOM-marked and re-spelled at random (``rng``: a Random)."""
    out = []
    for m in _PIECES.finditer(HAND):
        kind = "action" if m.group("action") else m.lastgroup
        if kind == "comment":
            out.append(_comment(rng, m.group()))
        elif kind == "ws":
            out.append(rng.choice(_SPACE))
        elif kind == "bracket":
            text = m.group()
            out.append(text + rng.choice(_GAP) if text == "[" else rng.choice(_GAP) + text)
        elif kind in ("action", "seatonly"):
            seat_colon = m.group("seatonly") or m.group("seat") + ":"
            out.append(seat_colon[0] + rng.choice([":", "："]))
            if kind == "action":
                out.append(rng.choice(_GAP))
                if m.group("burn"):
                    out.append("*" + rng.choice(_GAP))
                for c in m.group("cards"):
                    out.append(rng.choice(_CARD_SPELLINGS.get(c, [c, c.lower()])))
        else:
            out.append(m.group())
    ends = rng.choice([["\n"], ["\r\n"], ["\r"], ["\n", "\r\n", "\r"]])
    pieces = "".join(out).split("\n")
    text = pieces[0] + "".join(rng.choice(ends) + p for p in pieces[1:])
    return ("\ufeff" if rng.random() < 0.5 else "") + text


#: One draw per example (a seeded Random), so that the many small choices stay cheap.
mutated_example = st.randoms(use_true_random=False).map(mutate)


def test_the_mutation_tokenizer_covers_the_example():
    assert "".join(m.group() for m in _PIECES.finditer(HAND)) == HAND
    assert sum(1 for m in _PIECES.finditer(HAND) if m.group("action")) >= 30  # plays and the deal
    assert sum(1 for m in _PIECES.finditer(HAND) if m.group("seatonly")) >= 35  # passes and yields


@PROPERTY
@given(mutated_example)
def test_lenient_input_reads_as_the_canonical_example(text):
    base = parse(HAND)
    assert parse(text) == base
    assert write(parse(text)[0]) == write(base[0])
