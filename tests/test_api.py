"""The package root is the API (docs/api.md): what a bot or a converter needs is there, documented
as python-chess documents its own (shapes, units, errors, an example), and does what it says.
Values worked by hand from the rule texts."""

from __future__ import annotations

import inspect

import pytest
from conftest import EXAMPLES

import gouji_record as gj
from gouji_record.rules import moves

#: What a converter (platform log → records → .gjn) and a bot (a hand through the engine) import.
NEEDED = {
    "read", "parse", "read_headers", "Headers", "write", "write_all",
    "GameRecord", "Action", "ActionKind",
    "replay", "Replay", "verdicts", "verdict", "Verdict", "MatchJudge",
    "initial_position", "step", "Position", "legal_actions", "HiddenPlays", "first_leader",
    "IllegalAction", "Diagnostic", "Event", "EventKind",
    "get_ruleset", "with_options", "ruleset_of", "RulesetOverride", "Ruleset", "PRESETS",
    "parse_cards", "format_cards",
    "GoujiError", "NotationError", "CardError", "BadOption", "UnknownRuleset",
}  # fmt: skip
#: The root's own functions and what it gathers for a bot or a converter: each documented with an
#: example (a doctest) and, where it raises on purpose, a Raises section.
DOCUMENTED = ["legal_actions", "parse_cards", "format_cards", "ruleset_of", "first_leader", "read_headers"]


def test_the_root_exports_what_a_bot_or_a_converter_needs():
    assert NEEDED <= set(gj.__all__)
    assert [name for name in gj.__all__ if not hasattr(gj, name)] == []


@pytest.mark.parametrize("name", DOCUMENTED + ["Action.from_text", "Action.text", "RulesetOverride", "Headers"])
def test_each_is_documented_with_an_example(name):
    obj = gj
    for part in name.split("."):
        obj = getattr(obj, part)
    doc = inspect.getdoc(obj.fget if isinstance(obj, property) else obj) or ""
    assert ">>> " in doc, name
    if name in DOCUMENTED + ["Action.from_text"]:
        assert "Raises" in doc, name


# -- legal_actions: the engine's legal actions, easy to find ------------------------------------

#: A small charter table: seat 1 holds five 10s (a 够级 play, 5×10 being the least: RULES.md), its
#: opposite seat 4 five jacks; nobody else holds five cards, so nobody can burn.
SMALL = ("TTTTT33", "X55", "66", "JJJJJ4", "77", "88")


def test_legal_actions_before_play_the_declarations_then_the_leaders_plays():
    pos = gj.initial_position(gj.get_ruleset("charter"), SMALL, leader=1)
    listed = [a.text for a in gj.legal_actions(pos)]
    # 革命 for each seat holding no joker and no 2 (all but seat 2, which holds X; 002 §23); 宣点 and
    # 预点 for every seat (002 §24); then seat 1's leads, each rank whole or split (no threes-held
    # in the charter's preset), longest first; and 挑牌 (002 claim)
    declarations = [f"{s}:{w}" for s in range(1, 7) for w in ("revolt", "call", "precall") if (s, w) != (2, "revolt")]
    assert listed == declarations + ["1:TTTTT", "1:TTTT", "1:TTT", "1:TT", "1:33", "1:T", "1:3", "1:claim"]


def test_legal_actions_on_a_gouji_play_only_the_opposite_answers():
    rules = gj.get_ruleset("charter")
    pos, _ = gj.step(gj.initial_position(rules, SMALL, leader=1), gj.Action.from_text("1:TTTTT"))
    assert [a.text for a in gj.legal_actions(pos)] == ["4:JJJJJ", "4:-", "4:claim"]
    assert gj.legal_actions(pos, seat=2) == []  # seat 2 has no turn, and cannot burn with 3 cards
    pos, _ = gj.step(pos, gj.Action.from_text("4:-"))  # the 够级 play stands: seat 1 opens, leads
    assert pos.to_act == 1 and [a.text for a in gj.legal_actions(pos)] == ["1:33", "1:3", "1:claim"]


def test_legal_actions_is_the_engines_listing():
    pos = gj.initial_position(gj.get_ruleset("charter"), SMALL, leader=1)
    assert gj.legal_actions(pos) == moves.legal_actions(pos) and gj.legal_actions(pos, 4) == moves.legal_actions(pos, 4)


@pytest.mark.parametrize("seat", [0, 7, "1"])
def test_legal_actions_of_no_seat_is_refused(seat):
    pos = gj.initial_position(gj.get_ruleset("charter"), SMALL, leader=1)
    with pytest.raises(ValueError, match="expected a seat 1-6, or None for every seat"):
        gj.legal_actions(pos, seat)


def test_legal_actions_once_the_hand_is_over_is_empty():
    [record] = gj.read(EXAMPLES / "charter-hand.gjn")
    final = gj.replay(record).final
    assert final.over and gj.legal_actions(final) == []


# -- cards -------------------------------------------------------------------------------------


def test_cards_are_15_counts_3_first_and_written_strongest_first():
    counts = gj.parse_cards("D X 2 A K Q J 10 9 8 7 6 5 4 3")
    assert counts == (1,) * 15 and len(counts) == 15
    assert gj.format_cards(counts) == "DX2AKQJT9876543"
    with pytest.raises(gj.CardError) as e:
        gj.parse_cards("QQ1")
    assert e.value.offset == 2 and e.value.code == "bad-card"


# -- ruleset_of --------------------------------------------------------------------------------


def test_ruleset_of_reads_the_ruleset_and_options_tags_and_an_override_over_them():
    tags = {"Event": "?", "Site": "?", "Date": "?", "Ruleset": "charter", "Result": "*"}
    tags |= {f"Seat{s}": "abcdef"[s - 1] for s in range(1, 7)}
    record = gj.GameRecord(tags=tags | {"Options": "threes-held=yes"})
    assert gj.ruleset_of(record).threes_held and not gj.get_ruleset("charter").threes_held
    override = gj.RulesetOverride(options=(("threes-held", "no"),))
    assert not gj.ruleset_of(record, override).threes_held
    with pytest.raises(gj.UnknownRuleset):
        gj.ruleset_of(gj.GameRecord(tags=tags | {"Ruleset": "chess"}))
    with pytest.raises(gj.BadOption):
        gj.ruleset_of(gj.GameRecord(tags=tags | {"Options": "threes-held=maybe"}))
