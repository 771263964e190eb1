"""The worked example hands, replayed; every expected value was worked out by hand
while writing examples/charter-hand.gjn (its comments walk through the moments)."""

from gouji_record import read, replay
from gouji_record.rules.events import EventKind

from conftest import EXAMPLES


def events_of(result, kind):
    return [(e.action, e.seats) for e in result.events if e.kind is kind]


def test_charter_hand_places_and_scores():
    result = replay(read(EXAMPLES / "charter-hand.gjn")[0])
    assert result.diagnostic is None and result.complete
    assert result.places == (5, 6, 1, 4, 3, 2)
    # team 1-3-5: 4 (1st) + 0 (3rd) - 2 (5th) = 2; team 2-4-6: 2 + 0 - 4 = -2, recorded as 0 (002 §20)
    assert result.scores == {1: 2, 0: 0}


def test_charter_hand_events():
    result = replay(read(EXAMPLES / "charter-hand.gjn")[0])
    # round 1 (actions 0-2): 1:TTTTT 4:JJJJJ 1:- — a gouji exchange, then seat 4 opens
    assert events_of(result, EventKind.ANSWER) == [(1, (4, 1))]
    # round 3 (actions 15-17): 4:QQQQ 5:*XXKK 2:-; the burn succeeds with seat 5's last play (action 21)
    assert events_of(result, EventKind.BURN) == [(16, (5, 4))]
    assert events_of(result, EventKind.BURN_SUCCESS) == [(21, (5, 4))]
    assert result.count(EventKind.BURN_BROKEN) == 0
    # opened: seat 4 (round 1), seat 5 (round 3, its burn), seat 6 (round 7, AAA)
    assert events_of(result, EventKind.OPEN) == [(2, (4,)), (17, (5,)), (29, (6,))]
    # the wind: after seats 5 (1st), 1 (3rd) and 4 (4th) played out unbeaten
    assert events_of(result, EventKind.TAKE_THE_WIND) == [(26, (6, 5)), (56, (2, 1)), (64, (2, 4))]
    assert [s for _, (s,) in events_of(result, EventKind.HEADLESS)] == [2, 3, 4]
    # seat 6 takes 2nd at action 44; the melee begins with the next round (002 §16: the round of a
    # 二科's last play is played out under the 够级 rules), as seat 1 leads round 12 (action 48)
    assert events_of(result, EventKind.MELEE) == [(48, (1, 2, 3, 4))]
    # gouji plays: TTTTT JJJJJ QQQQ XXKK X77777777 D88888888 AAA T×11, and KKKKKK in round 11, after
    # 2nd place but before the melee (it cannot open: opening is judged before 二科, 002 §24)
    assert [result.record.actions[a].cards for a, _ in events_of(result, EventKind.GOUJI)] == [
        "TTTTT",
        "JJJJJ",
        "QQQQ",
        "XXKK",
        "X77777777",
        "D88888888",
        "AAA",
        "TTTTTTTTTTT",
        "KKKKKK",
    ]
    # seats 5 6 1 4 3 play out (走科); seat 2, left holding cards when seat 3 plays out, is placed 6th
    # (定科), not finished (002 §3 "最后手中余牌未发者为败")
    assert [e.place for e in result.events if e.kind is EventKind.FINISH] == [1, 2, 3, 4, 5]
    assert [(e.seats, e.place) for e in result.events if e.kind is EventKind.PLACED] == [((2,), 6)]


def test_every_event_cites_the_charter():
    result = replay(read(EXAMPLES / "charter-hand.gjn")[0])
    assert all(e.source.startswith("够级大纲 §") for e in result.events)


def test_illegal_copy_stops_at_its_illegal_action():
    result = replay(read(EXAMPLES / "charter-hand-illegal.gjn")[0])
    d = result.diagnostic
    assert (d.code, d.action, d.rule) == ("gouji-not-opposite", 1, "gouji-opposite-only")
    assert d.source == "够级大纲 §9 (第九条 只有对头才有资格上牌)"
    assert len(result.positions) == 2


def test_replay_for_validation_keeps_only_the_last_position():
    """``every_position=False`` (what validate uses) keeps one position and derives the same."""
    record = read(EXAMPLES / "charter-hand.gjn")[0]
    full, lean = replay(record), replay(record, every_position=False)
    assert lean.positions == [full.final] and len(full.positions) == len(record.all_actions) + 1
    assert (lean.events, lean.diagnostic, lean.places) == (full.events, None, (5, 6, 1, 4, 3, 2))
    assert lean.score == full.score
    illegal = replay(read(EXAMPLES / "charter-hand-illegal.gjn")[0], every_position=False)
    assert illegal.diagnostic.action == 1 and illegal.positions == [
        replay(read(EXAMPLES / "charter-hand-illegal.gjn")[0]).final
    ]
