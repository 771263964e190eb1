"""Who leads round 1 (首发): one function, ``first_leader``, for a record (the replay starts from
it), for the hand after another (what the match check holds the next hand to), and for a bot's
fresh deal. Values read off the example matches by hand."""

from __future__ import annotations

from itertools import pairwise

import pytest
from conftest import EXAMPLES, PLAIN_TAGS

import gouji_record as gj
from gouji_record.bots.selfplay import play_match


def _match(name: str) -> list[gj.GameRecord]:
    return gj.read(EXAMPLES / f"{name}-match.gjn")


def test_a_record_is_led_by_the_seat_of_its_first_action_of_play():
    # examples/charter-match.gjn hand 1: "1. 5:…" (docs/notation.md §3.4: the first action of play
    # leads the first round); hand 2 has four transfers before play, then "1. 1:…"
    hands = _match("charter")
    assert [gj.first_leader(r) for r in hands] == [5, 1, 1]
    assert len(hands[1].preplay) == 4 and hands[1].actions[0].seat == 1


def test_a_record_with_no_action_of_play_starts_at_seat_1():
    record = gj.GameRecord(tags=PLAIN_TAGS)
    assert gj.first_leader(record) == 1 and gj.replay(record).positions[0].to_act == 1


def test_the_replay_starts_from_the_first_leader():
    for name in ("charter", "online", "tournament"):
        for record in _match(name):
            assert gj.replay(record).positions[0].to_act == gj.first_leader(record)


@pytest.mark.parametrize(
    "name, leaders",
    [
        # charter (002 §6): the hand before's 大落 leads. Hand 1 "3-5-2-4-6-1": seat 1; hand 2
        # "4-3-5-6-2-1": seat 1
        ("charter", [None, 1, 1]),
        # online (000 §发牌): the seat after the hand before's first leader. Hand 1 led by 5: 6;
        # hand 2 led by 6: 1
        ("online", [None, 6, 1]),
        # tournament (004 §8): the 大落. Hand 1 "4-3-5-6-1-2": 2; hand 2 "6-1-4-3-2-5": 5
        ("tournament", [None, 2, 5]),
        # classic: nobody is named (first-lead=any)
        ("classic", [None, None, None]),
    ],
)
def test_the_hand_before_names_who_leads_the_next(name, leaders):
    hands = _match(name)
    named = [gj.first_leader()] + [gj.first_leader(before=gj.replay(prev)) for prev in hands[:-1]]
    assert named == leaders
    # and the match's own hands were led so (gouji validate finds them valid)
    assert [gj.first_leader(r) for r, want in zip(hands, leaders) if want is not None] == [w for w in leaders if w]
    assert all(v.valid for v in gj.verdicts(hands))


def test_the_match_check_holds_the_next_hand_to_it():
    """A charter match's hand 2 led by another seat than hand 1's 大落: a first-lead diagnostic
    naming both seats (002 §6), at the first action of play."""
    first, second, _ = _match("charter")
    wrong = second.model_copy(update={"actions": (gj.Action.from_text("2:33"),)})
    [_, v] = gj.verdicts([first, wrong])
    problem = next(d for d in v.diagnostics if d.code == "first-lead")
    assert problem.message == "seat 1 leads this hand, not seat 2" and problem.action == len(second.preplay)


def test_a_hand_cut_short_names_nobody():
    first, _, _ = _match("charter")
    cut = first.model_copy(update={"actions": first.actions[:3], "tags": first.tags | {"Result": "*"}})
    assert gj.first_leader(before=gj.replay(cut)) is None


def test_self_play_leads_each_hand_after_the_first_as_it_names():
    """Self-play asks first_leader who leads each hand after the first; the match check, which asks
    it too, finds no first-lead problem (a leader who revolts hands the lead to the next seat)."""
    named = 0
    for name in ("charter", "online", "tournament"):
        hands = play_match(gj.get_ruleset(name), 3, 3)
        for prev, record in pairwise(hands):
            want = gj.first_leader(before=gj.replay(prev))
            revolt = any(a.kind is gj.ActionKind.REVOLT for a in record.preplay)
            if want is not None and not revolt:
                named += 1
                assert gj.first_leader(record) == want
        assert [d.code for v in gj.verdicts(hands) for d in v.diagnostics] == []
    assert named >= 4


def test_a_record_and_a_hand_before_together_are_refused():
    first, second, _ = _match("charter")
    with pytest.raises(TypeError, match="not both"):
        gj.first_leader(second, before=gj.replay(first))
