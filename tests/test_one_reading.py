"""One reading of an action (issue 38): the ``.gjn`` reader (the fast scanner and the grammar),
``Action.from_text`` and the importers (record JSON, event logs) accept exactly the same actions
and make the same :class:`~gouji_record.model.Action` of each.

Action texts are generated from their parts, valid and not: plays, burns, passes, yields, wind and
claim, declarations, transfers with and without their word, shows and draws, in every spelling the
notation has (docs/notation.md §3.3, §3.4: Chinese words, ``：``, suit symbols, white space between
the parts) and some it does not (seat 7, ``pass``, ``Z``, ``Gift``), with and without ``^``, a
glyph, ``$n``, a round number and a comment. Each is put in a hand, in the pre-play and in the play
section, and read; and read by ``Action.from_text``, its annotations added, as a record's section
(:class:`~gouji_record.model.GameRecord` checks what each section may hold). Both must accept it or
both refuse it, and give equal records; every record read must come back whole from ``gouji
export``'s JSON and from an event log, and each action from its ``text``.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from test_properties import PROPERTY

from gouji_record.errors import NotationError
from gouji_record.formats.eventlog import records_from_events, write_events
from gouji_record.formats.interchange import read_records, records_from_json
from gouji_record.model import Action, GameRecord
from gouji_record.notation import parse_text, write
from gouji_record.notation.grammar import lalr
from gouji_record.notation.scanner import scan

SEATS = "".join(f'[Seat{s} "p{s}"]\n' for s in range(1, 7))
#: A hand's tags, gjn 2.4 (so that no transfer is read as version 1 reads it: docs/notation.md §8.2).
HEAD = f'[Notation "gjn 2.4"]\n[Event "x"]\n[Site "?"]\n[Date "?"]\n[Ruleset "charter"]\n{SEATS}[Result "*"]\n'
TAGS = {"Event": "x", "Site": "?", "Date": "?", "Round": "?", "Ruleset": "charter", "Result": "*"} | {
    f"Seat{s}": f"p{s}" for s in range(1, 7)
}

# -- action texts, from their parts ---------------------------------------------------------

#: White space between the parts of an action: none, what the grammar skips between tokens, and
#: what it does not (an ideographic space).
spaces = st.sampled_from(["", "", "", " ", "\t", "  ", "\n", "\u3000"])
seats = st.sampled_from(["1", "2", "3", "4", "5", "6", "6", "0", "7"])
colons = st.sampled_from([":", ":", ":", "：", ""])
card_texts = st.lists(
    st.sampled_from([*"3456789TJQKA2XDtjqkaxd", "10", "大王", "小鬼", "Z", "1", " "]), max_size=5
).map("".join)
words = st.sampled_from(
    ["-", "~", "wind", "claim", "接风", "挑牌", "revolt", "keep-head", "no-head", "natural", "call", "precall"]
    + ["革命", "要头", "无头", "自然开点", "宣点", "明点", "预点", "pass", "Revolt", "wind-"]
)
transfer_words = st.sampled_from(["", "", "buy", "gift", "refuse", "买", "赠与", "赠", "拒绝", "拒", "Gift"])
steps = st.sampled_from(["show", "draw", "亮", "抽签", "Show"])
suits = st.sampled_from(["s", "h", "c", "d", "H", "♠", "♦", "黑桃", "方块", "x", ""])


@st.composite
def seat_bodies(draw) -> str:
    """What follows ``S:``: a word, cards, ``*`` and cards, or a show or a draw."""
    form = draw(st.sampled_from(["word", "cards", "burn", "suited"]))
    if form == "word":
        return draw(spaces) + draw(words)
    if form == "cards":
        return draw(spaces) + draw(card_texts)
    if form == "burn":
        return draw(spaces) + "*" + draw(spaces) + draw(card_texts)
    return draw(spaces) + draw(steps) + draw(spaces) + draw(suits) + draw(card_texts)


@st.composite
def transfers(draw, word: str = "") -> str:
    """``giver>taker:cards``, the two seats sometimes one (``1>1:K``: issue 38), after ``word``."""
    giver = draw(seats)
    taker = draw(st.one_of(st.just(giver), seats))
    return word + f"{giver}>{taker}" + draw(colons) + draw(spaces) + draw(card_texts)


@st.composite
def _items(draw) -> tuple[str, list[str]]:
    mark = draw(st.sampled_from(["", "", "", "^"]))
    form = draw(st.sampled_from(["seat", "seat", "transfer", "purchase"]))
    if form == "seat":
        text = mark + draw(seats) + draw(colons) + draw(seat_bodies())
        return text, [text]
    word = draw(transfer_words)
    word += draw(spaces) if word else ""
    first = mark + draw(transfers(word))
    if form == "transfer":
        return first, [first]
    second = draw(transfers())
    # after buy the second transfer is the purchase's; after gift or refuse, one of its own
    return f"{first} {second}", [first, (word if word.strip() in ("buy", "买") else "") + second]


#: One item of a section: its text in a file, and the text of each of its actions, one by one. A
#: purchase is two transfers after one ``buy``: ``buy 1>4:2 4>1:3`` is ``buy 1>4:2`` and ``buy 4>1:3``.
#: No text ends in white space: in a file that separates it from what follows (``3:QQ !``).
items = _items().filter(lambda item: all(text == text.rstrip() for text in (item[0], *item[1])))

#: Annotations after an action (a glyph, then any ``$n``) and a comment; a round number before it.
annotations = st.tuples(
    st.sampled_from([None, "!", "?", "!?"]),
    st.lists(st.integers(0, 255), max_size=2),
    st.sampled_from([None, None, 1, 12]),
    st.sampled_from([None, None, "a note"]),
)


def hand_text(section: str, item: str, marks: tuple) -> str:
    glyph, nags, number, comment = marks
    text = f"{number}. " if number is not None else ""
    text += item + (glyph or "") + "".join(f"${n}" for n in nags) + (f" {{{comment}}}" if comment else "")
    return HEAD + (f"preplay\n{text}\nplay\n" if section == "preplay" else f"play\n{text}\n")


def read_file(text: str) -> GameRecord | None:
    """The record the ``.gjn`` reader makes of ``text``, or ``None`` if it refuses it; the fast
    scanner, when it reads the text, reads it as the grammar does."""
    try:
        [(record, _)] = parse_text(text)
    except NotationError:
        record = None
    try:
        [(by_grammar, _)] = lalr().parse(text)
    except Exception:  # noqa: BLE001 - lark's errors, and NotationError: refused
        by_grammar = None
    assert by_grammar == record
    try:
        fast = scan(text)
    except NotationError:
        fast = None
    assert fast is None or [r for r, _ in fast] == [record]
    return record


def read_actions(section: str, texts: list[str], marks: tuple) -> GameRecord | None:
    """The record of one hand whose ``section`` holds the actions ``texts``, each read by
    ``Action.from_text`` and the annotations ``marks`` given to the last, or ``None`` if
    ``from_text`` refuses a text or the record model refuses the section."""
    glyph, nags, number, comment = marks
    try:
        actions = [Action.from_text(text) for text in texts]
    except NotationError:
        return None
    last = {"glyph": glyph, "nags": tuple(nags), "comments": (comment,) if comment else ()}
    actions[-1] = actions[-1].model_copy(update=last)
    if number is not None:
        actions[0] = actions[0].model_copy(update={"round": number})
    try:
        return GameRecord(tags=TAGS, **{("preplay" if section == "preplay" else "actions"): tuple(actions)})
    except ValueError:
        return None


def check(section: str, item: tuple[str, list[str]], marks: tuple) -> GameRecord | None:
    text, texts = item
    record, expected = read_file(hand_text(section, text, marks)), read_actions(section, texts, marks)
    assert record == expected, f"{text!r} in {section}: the reader gives {record}, from_text {expected}"
    if record is None:
        return None
    exported = json.dumps(record.model_dump(mode="json"), ensure_ascii=False)
    assert records_from_json(exported) == [record] and read_records(exported) == [record]
    logged = records_from_events("".join(write_events([record])).splitlines())
    assert [r.all_actions for r in logged] == [record.all_actions]
    for a in record.all_actions:
        bare = a.model_copy(update={"round": None, "glyph": None, "nags": (), "comments": ()})
        assert Action.from_text(a.text) == bare
    assert [r for r, _ in parse_text(write(record))] == [record]
    return record


@PROPERTY
@given(items, annotations)
@example(("1>1:K", ["1>1:K"]), (None, [], None, None))  # ../shared/cases/integrity/self-transfer-export-import.gjn
@example(("2:革命", ["2:革命"]), ("!", [], None, None))
@example(("买 1>4:2 4>1:3", ["买 1>4:2", "买 4>1:3"]), (None, [], None, None))
@example(("3:亮 ♥444", ["3:亮 ♥444"]), (None, [], None, None))
@example(("5: * 大王KK", ["5: * 大王KK"]), (None, [3], 7, "burn"))
def test_the_reader_and_from_text_accept_the_same_actions(item, marks):
    for section in ("preplay", "play"):
        check(section, item, marks)


@pytest.mark.parametrize(
    "item, section, expected",
    [
        # docs/notation.md §3.3: the Chinese word is accepted too, read as the English one
        ("2:革命", "preplay", "2:revolt"),
        ("4:明点", "preplay", "4:call"),
        ("6:挑牌", "play", "6:claim"),
        ("赠与 4>1:3", "preplay", "gift 4>1:3"),
        ("拒 2>5:D", "preplay", "refuse 2>5:D"),
        ("1:抽签 黑桃7", "preplay", "1:draw s7"),
        ("1:showH444", "preplay", "1:show h444"),
        # white space between an action's parts, where the grammar skips it
        ("3: *\tQQQ", "play", "3:*QQQ"),
        ("gift  1>4:\t3", "preplay", "gift 1>4:3"),
    ],
)
def test_each_spelling_reads_as_the_file_reads_it(item, section, expected):
    record = check(section, (item, [item]), (None, [], None, None))
    assert record is not None and [a.text for a in record.all_actions] == [expected]


def test_a_transfer_to_the_giving_seat_is_refused_where_it_stands():
    """``1>1:K`` validated, and export then import refused it (issue 38): it moves no card, so the
    reader refuses it as ``Action.from_text`` and both importers do, at the transfer."""
    text = hand_text("preplay", "6>1:DX 1>1:K", (None, [], None, None))
    with pytest.raises(NotationError) as e:
        parse_text(text)
    line = text.split("\n").index("6>1:DX 1>1:K") + 1
    assert (e.value.code, e.value.line, e.value.column) == ("syntax", line, 8)
    assert "a transfer goes from one seat to another, not from seat 1 to itself" in e.value.message
    for item in ("gift 3>3:4", "refuse 3>3:4", "buy 3>3:2 3>3:4"):
        with pytest.raises(NotationError, match="not from seat 3 to itself"):
            parse_text(hand_text("preplay", item, (None, [], None, None)))
