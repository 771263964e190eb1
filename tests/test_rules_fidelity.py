"""Rules fidelity, round two: who is headless, when the melee begins, who leads, what opens, yields.

Every expected value is worked out by hand from the seed texts cited (shared/seeds/: 000 ``online``,
001 ``classic``, 002 ``charter``, 003 ``fours``, 004 ``tournament``). Seats 1–6 act in order;
opposites 1-4, 2-5, 3-6. Each bug fixed here keeps its failing input as a test.
"""

from __future__ import annotations

import pytest
from test_presets import Hand, spare

from gouji_record.model import Action, ActionKind
from gouji_record.rules.engine import step
from gouji_record.rules.events import IllegalAction
from gouji_record.rules.rulesets import get_ruleset, with_options

PRESETS = ("online", "classic", "charter", "fours", "tournament")


def illegal(hand: Hand, action: Action):
    with pytest.raises(IllegalAction) as e:
        step(hand.pos, action)
    return e.value.diagnostic


# =============================================================================================
# The seat named when a round must be led (bug: the diagnostic named the seat that acted)
# =============================================================================================


@pytest.mark.parametrize("preset", PRESETS)
def test_a_pass_where_another_seat_leads_names_the_leader(preset):
    # failing input: seat 1 leads round 1, seat 2 passes — "seat 2 leads this round and must play"
    d = Hand(spare(s1="55"), preset).illegal("2:-")
    assert (d.code, d.rule, d.message) == ("not-your-turn", "turn-order", "seat 1 leads round 1, not seat 2")


@pytest.mark.parametrize("kind", [ActionKind.PASS, ActionKind.YIELD, ActionKind.WIND, ActionKind.CLAIM])
def test_every_action_out_of_turn_at_a_lead_names_the_leader(kind):
    # failing input: 1:DKK 4:- under the charter. D KK carries a big joker: dead (002 §8(3)), the
    # round closes at once and seat 1 leads round 2 — not seat 4.
    t = Hand(spare(s1="DKK55"), "charter")
    t.play("1:DKK")
    assert t.pos.top is None and t.pos.to_act == 1
    d = illegal(t, Action(seat=4, kind=kind))
    assert (d.code, d.message) == ("not-your-turn", "seat 1 leads round 2, not seat 4")
    if kind is not ActionKind.CLAIM:  # the leader itself may not pass, yield or ask for the wind
        d = illegal(t, Action(seat=1, kind=kind))
        assert (d.code, d.rule) == ("must-lead", "round-end")
        assert d.message == f"seat 1 leads round 2 and must play, not {kind.value}"


def test_a_yielder_acting_early_is_told_it_yielded():
    # 002 §12: seat 4 yields on its opposite's 5; it acts again only when seats 5 and 6 have passed
    t = Hand(spare(s1="5", s4="6", s5="7"), "charter")
    d = t.illegal("1:5 2:- 3:- 4:~ 4:6")
    assert (d.code, d.rule) == ("passed-this-round", "yield")


# =============================================================================================
# 000 开点: the list of exceptions wins over the general sentence
# =============================================================================================
#
# 000 §开点 "用除大花以外的够级牌…取得一次发牌权时称为开点"; then "以下够级牌不能算是开点：1 有大花、小花
# 不开点，单张不开点 2 大花、小花、钱不开点". The test_presets OPENING table has the rows per preset.


@pytest.mark.parametrize(
    "lead, opens",
    [("X55", False), ("X", False), ("2", False), ("22", False), ("222", False), ("2QQ", True), ("KK", True)],
)
def test_online_opening_exceptions(lead, opens):
    t = Hand(spare(s1=lead + "4455"), "online")
    t.play(f"1:{lead}")
    assert t.close_round().to_act == 1
    assert (1 in t.pos.opened) is opens


def test_online_general_sentence_as_an_option():
    # a club reading only "除大花以外": a small-joker play and 2s alone open
    rules = with_options(get_ruleset("online"), {"opening-excludes": "big-joker"})
    for lead in ("X55", "22"):
        t = Hand(spare(s1=lead + "4455"), rules)
        t.play(f"1:{lead}")
        t.close_round()
        assert t.pos.opened == {1}, lead
