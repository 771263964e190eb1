"""``Action.from_text`` and ``Action.text``, a pair of inverses as python-chess's ``Move.from_uci``
and ``Move.uci()``: every kind of action, the ``^`` of an irregular one and the word of a purchase
or a gift included (docs/notation.md §3.3, §3.4); annotations (round number, glyph, ``$n``,
comments) are not part of the text. Over actions generated for every kind, and over every action
of self-played hands and matches and of the examples; and text that is no action is refused,
saying what was expected, where."""

from __future__ import annotations

import pytest
from conftest import CASES, EXAMPLES
from hypothesis import given
from hypothesis import strategies as st
from test_properties import PROPERTY, cards, comment_texts, glyphs, rounds

import gouji_record as gj
from gouji_record.bots.selfplay import play_hand, play_match
from gouji_record.model import DECLARATION_KINDS, SUITS, Action, ActionKind

ANNOTATIONS = {"round": None, "glyph": None, "nags": (), "comments": ()}


def bare(a: Action) -> Action:
    """``a`` without its annotations: what its text says."""
    return a.model_copy(update=ANNOTATIONS)


#: One rank of 3 … A, 2 (no jokers), for a show (2–4 cards) or a draw (one card).
suited_ranks = st.sampled_from(list("3456789TJQKA2"))


@st.composite
def any_action(draw) -> Action:
    """An action of any kind, with any fields its kind may have, annotations included."""
    kind = draw(st.sampled_from(list(ActionKind)))
    seat = draw(st.integers(1, 6))
    fields: dict = {"seat": seat, "kind": kind, "irregular": draw(st.booleans())}
    if kind is ActionKind.PLAY:
        fields |= {"cards": draw(cards), "burn": draw(st.booleans())}
    elif kind is ActionKind.GIVE:
        fields |= {
            "to": draw(st.integers(1, 6).filter(lambda s: s != seat)),
            "cards": draw(cards),
            "purpose": draw(st.sampled_from([None, "buy", "gift", "refuse"])),
        }
    elif kind in (ActionKind.SHOW, ActionKind.DRAW):
        n = 1 if kind is ActionKind.DRAW else draw(st.integers(2, 4))
        fields |= {"suit": draw(st.sampled_from(SUITS)), "cards": draw(suited_ranks) * n}
    fields |= {
        "round": draw(rounds),
        "glyph": draw(glyphs),
        "nags": tuple(draw(st.lists(st.integers(0, 255), max_size=2))),
        "comments": tuple(draw(st.lists(comment_texts(), max_size=1))),
    }
    return Action(**fields)


@PROPERTY
@given(any_action())
def test_from_text_reads_back_what_text_writes(a):
    assert Action.from_text(a.text) == bare(a)
    assert Action.from_text(bare(a).text) == bare(a) and bare(a).text == a.text


@PROPERTY
@given(any_action())
def test_text_tells_apart_actions_that_differ_other_than_in_annotations(a):
    """The text carries everything but annotations: flipping ``irregular``, a play's ``burn`` or a
    transfer's purpose changes it, and reads back as the flipped action."""
    changes = [{"irregular": not a.irregular}]
    if a.kind is ActionKind.PLAY:
        changes.append({"burn": not a.burn})
    if a.kind is ActionKind.GIVE:
        changes.append({"purpose": {None: "buy", "buy": "gift", "gift": "refuse", "refuse": None}[a.purpose]})
    for change in changes:
        other = a.model_copy(update=change)
        assert other.text != a.text and Action.from_text(other.text) == bare(other)


def _self_played() -> list[Action]:
    """Every action of self-played hands of each preset (plays, passes, yields, burns, claims, wind,
    revolts and calls where the bots make them), and of self-played matches (purchases, gifts and
    tribute transfers)."""
    out: list[Action] = []
    for name in gj.PRESETS:
        rules = gj.get_ruleset(name)
        for seed in range(3):
            out += play_hand(rules, seed, bot="random").all_actions
        for record in play_match(rules, 5, 3):
            out += record.all_actions
    return out


SELF_PLAYED = _self_played()


def test_every_action_of_self_played_hands_and_matches_reads_back():
    kinds = {a.kind for a in SELF_PLAYED}
    purposes = {a.purpose for a in SELF_PLAYED}
    # what the bots make: plays, passes and burns in every hand; tribute and purchases in matches
    # (fours and tournament buy 3s and 4s; a gift is in tests/cases, below)
    assert {ActionKind.PLAY, ActionKind.PASS, ActionKind.GIVE} <= kinds and {None, "buy"} <= purposes
    wrong = [a.text for a in SELF_PLAYED if Action.from_text(a.text) != bare(a)]
    assert wrong == []


def _readable(path) -> list[gj.GameRecord]:
    try:
        return gj.read(path)
    except gj.NotationError:  # (the cases of files that do not read)
        return []


def test_every_action_of_the_examples_and_the_cases_reads_back():
    paths = sorted(EXAMPLES.glob("*.gjn")) + sorted(CASES.glob("*.gjn"))
    actions = [a for path in paths for r in _readable(path) for a in r.all_actions]
    assert any(a.kind is ActionKind.YIELD for a in actions) and any(a.burn for a in actions)
    assert any(a.purpose == "gift" for a in actions)
    assert [a.text for a in actions if Action.from_text(a.text) != bare(a)] == []


@pytest.mark.parametrize(
    "text, fields",
    [
        # docs/notation.md §3.4: a play, a burn, a pass, a yield, wind, claim; ^ an irregularity
        ("3:QQQ", {"seat": 3, "kind": "play", "cards": "QQQ"}),
        ("5:*XXKK", {"seat": 5, "kind": "play", "cards": "XXKK", "burn": True}),
        ("1:-", {"seat": 1, "kind": "pass"}),
        ("4:~", {"seat": 4, "kind": "yield"}),
        ("2:wind", {"seat": 2, "kind": "wind"}),
        ("6:claim", {"seat": 6, "kind": "claim"}),
        ("^2:JJJJJ", {"seat": 2, "kind": "play", "cards": "JJJJJ", "irregular": True}),
        # §3.3: declarations, a transfer, a purchase's two transfers and a gift, a show and a draw
        ("2:revolt", {"seat": 2, "kind": "revolt"}),
        ("5:keep-head", {"seat": 5, "kind": "keep-head"}),
        ("3:no-head", {"seat": 3, "kind": "no-head"}),
        ("1:natural", {"seat": 1, "kind": "natural"}),
        ("4:call", {"seat": 4, "kind": "call"}),
        ("4:precall", {"seat": 4, "kind": "precall"}),
        ("6>1:DX", {"seat": 6, "kind": "give", "to": 1, "cards": "DX"}),
        ("buy 1>4:2", {"seat": 1, "kind": "give", "to": 4, "cards": "2", "purpose": "buy"}),
        ("buy 4>1:3", {"seat": 4, "kind": "give", "to": 1, "cards": "3", "purpose": "buy"}),
        ("gift 4>1:3", {"seat": 4, "kind": "give", "to": 1, "cards": "3", "purpose": "gift"}),
        ("refuse 2>5:D", {"seat": 2, "kind": "give", "to": 5, "cards": "D", "purpose": "refuse"}),
        ("1:show h444", {"seat": 1, "kind": "show", "suit": "h", "cards": "444"}),
        ("2:draw s7", {"seat": 2, "kind": "draw", "suit": "s", "cards": "7"}),
    ],
)
def test_each_form_of_the_notation(text, fields):
    a = Action.from_text(text)
    assert a == Action(**fields) and a.text == text


def test_cards_are_read_in_any_spelling_and_kept_canonical():
    # docs/notation.md §2: lower case, 10 for T, the Chinese joker names; §3.4: a full-width colon
    assert Action.from_text("3:q10q10xq").text == "3:XQQQTT"
    assert Action.from_text("5：*大王小王KK").text == "5:*DXKK"


@pytest.mark.parametrize(
    "text, code, column, says",
    [
        ("", "syntax", 1, "expected a seat 1-6 and a colon (3:QQQ), or a transfer from seat to seat (5>2:3)"),
        ("7:QQ", "syntax", 1, "expected a seat 1-6 and a colon"),
        (" 3:QQ", "syntax", 1, "expected a seat 1-6 and a colon"),
        ("3QQ", "syntax", 2, "expected a colon after the seat (3:QQQ)"),
        ("3:", "syntax", 3, "expected cards (3:QQQ), * and cards (a burn, 5:*XXKK), - (a pass), ~ (a yield), a word ("),
        ("3:pass", "syntax", 3, "a word (wind, claim, revolt, keep-head, no-head, natural, call, precall)"),
        ("3:*", "syntax", 4, "expected cards"),
        ("3:QQZ", "bad-card", 5, "'Z' is not a card: expected one of 3-9 T J Q K A 2 X D (or 10)"),
        ("3:QQQ!", "bad-card", 6, "annotations (! ? $n) and comments are not part of an action"),
        ("3:QQ Q", "syntax", 5, "expected no white space inside cards"),
        ("1>:3", "syntax", 3, "expected the seat 1-6 given to"),
        ("1>4", "syntax", 4, "expected a colon and the cards given (5>2:3)"),
        ("1>4:", "syntax", 5, "expected the cards given (5>2:3)"),
        ("buy 1:3", "syntax", 6, "expected > and the seat given to (buy 1>4:2)"),
        ("gift x", "syntax", 6, "expected a transfer from seat to seat after the word (buy 1>4:2)"),
        # well formed, but a shape the record model refuses (docs/notation.md §3.5)
        ("1>1:3", "syntax", 1, "a transfer (give) goes from its seat to another seat"),
        ("1:show h44444", "syntax", 1, "a show is cards of one suit: at most 4 of a rank (four decks), not 5"),
        ("2:draw s77", "syntax", 1, "a draw is one card, not 2"),
    ],
)
def test_text_that_is_no_action_is_refused_saying_what_was_expected(text, code, column, says):
    with pytest.raises(gj.NotationError) as e:
        Action.from_text(text)
    assert (e.value.code, e.value.column, e.value.line) == (code, column, 1)
    assert says in str(e.value) and str(e.value).startswith(f"action {text!r}")
    assert isinstance(e.value, ValueError) and isinstance(e.value, gj.GoujiError)


def test_the_writer_and_the_messages_keep_their_forms():
    """``text`` now carries ``^`` and a purchase's word; what the writer writes is as before (the
    word once per purchase, on its first transfer) and messages quote the plain transfer."""
    buy = (Action.from_text("buy 1>4:2"), Action.from_text("buy 4>1:3"))
    assert [a.plain_text for a in buy] == ["1>4:2", "4>1:3"]
    record = gj.GameRecord(
        tags={"Event": "?", "Site": "?", "Date": "?", "Ruleset": "fours", "Result": "*"}
        | {f"Seat{s}": "abcdef"[s - 1] for s in range(1, 7)},
        preplay=buy,
        actions=(Action.from_text("^2:JJJJJ"),),
    )
    text = gj.write(record)
    assert "preplay\nbuy 1>4:2 4>1:3\n" in text and "play\n^2:JJJJJ\n" in text
    assert gj.parse(text) == [record]


def test_declaration_kinds_are_the_words():
    assert {Action.from_text(f"1:{k.value}").kind for k in DECLARATION_KINDS} == set(DECLARATION_KINDS)
