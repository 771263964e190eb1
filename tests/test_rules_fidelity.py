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
