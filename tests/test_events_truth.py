"""Events that are true (issue 22): what the events say happened is what the replay's final
position and the record say.

- 走科 (``finish``) is "a seat played its last card" (docs/rules.md `places`, 002 §3): a seat has a
  ``finish`` event iff it ends the hand holding no card and among the finishers.
- 定科 (``placed``) is a seat placed when the hand ends while it still holds cards, or a revolter
  sitting the hand out; 出局 (``out``) a seat that left the hand (smothered, a failed burn). Every
  seat of a hand played to its end (not void) takes exactly one of the three, and their places
  are the hand's places.
- Every event of an action in play carries the round (一轮) of that action: round k + 1 starts
  with the action after the one whose events close round k (扣牌, ``round-end``; 002 §13), and
  the record's own round numbers, written where a round starts, say the same. Events before play
  carry none.

The corpus is self-played (``gouji selfplay``, both bots, single hands and a match, under every
preset), plus hands with one revolution (革命) and with two (a void hand, 该局作废), which the
bots never declare.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES, Table

from gouji_record.running.batch import read_records
from gouji_record import replay as judge  # the hand's own verdict
from gouji_record.judging.buying import plan_buying
from gouji_record.judging.canonical import canonical
from gouji_record.cards import BIG_JOKER, SMALL_JOKER, THREE, TWO, format_cards, parse_cards
from gouji_record.cli.main import main
from gouji_record.model import Action, ActionKind
from gouji_record.notation.writer import write_all
from gouji_record.judging.replay import Replay
from gouji_record.rules.events import EventKind
from gouji_record.rules.rulesets import PRESETS
from gouji_record.bots.selfplay import deal, play_hand

#: Hands per preset, per bot; and the hands of one match per preset.
HANDS, MATCH_HANDS = 10, 4
PLACING = (EventKind.FINISH, EventKind.PLACED, EventKind.OUT)


def _revolting(dealt: tuple[str, ...], seats: tuple[int, ...], rng: random.Random) -> tuple[str, ...]:
    """``dealt`` with every 2 and joker of ``seats`` swapped for a card of rank 4 … A of another
    seat: hands that may revolt (革命: no big joker, no small joker, no 2)."""
    hands = [list(parse_cards(h)) for h in dealt]
    plain = range(THREE + 1, TWO)
    for s in seats:
        mine = hands[s - 1]
        for r in (TWO, SMALL_JOKER, BIG_JOKER):
            while mine[r]:
                t = rng.choice([t for t in range(6) if t + 1 not in seats and any(hands[t][q] for q in plain)])
                q = rng.choice([q for q in plain if hands[t][q]])
                mine[r], hands[t][r], hands[t][q], mine[q] = mine[r] - 1, hands[t][r] + 1, hands[t][q] - 1, mine[q] + 1
    return tuple(format_cards(tuple(h)) for h in hands)


def _revolution_hands() -> list:
    """Per preset with revolutions, two hands with one revolter and one with two (void)."""
    out = []
    for rules in PRESETS.values():
        if not rules.revolution:
            continue
        for seed in range(3):
            rng = random.Random(seed)
            seats = tuple(rng.sample(range(1, 7), 2 if seed == 2 else 1))
            dealt = _revolting(deal(rng), seats, rng)
            revolts = tuple(Action(seat=s, kind=ActionKind.REVOLT) for s in seats)
            preplay = revolts + (plan_buying(rules, dealt) if len(seats) == 1 else ())
            leader = next(s for s in range(1, 7) if s not in seats)
            out.append(canonical(play_hand(rules, seed, hands=dealt, preplay=preplay, leader=leader)))
    return out


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> list:
    """``(read hand, verdict)`` for every hand of the corpus, read back from the files written."""
    top = tmp_path_factory.mktemp("truth")
    files = []
    runner = CliRunner()
    for name in PRESETS:
        for extra in (["--bot", "person"], ["--bot", "random"], ["--match"]):
            out = top / f"{name}-{extra[-1].strip('-')}.gjn"
            count = MATCH_HANDS if extra == ["--match"] else HANDS
            args = ["selfplay", "--ruleset", name, "--seed", "7", "--hands", str(count), *extra, "-o", str(out)]
            r = runner.invoke(main, args)
            assert r.exit_code == 0, r.output
            files.append(out)
    revolutions = top / "revolutions.gjn"
    revolutions.write_text(write_all(_revolution_hands()), encoding="utf-8")
    files.append(revolutions)
    hands = []
    for path in files:
        for hand in read_records(str(path)):
            assert hand.problem is None, hand.problem
            hands.append((hand, judge(hand.record)))
    return hands


def _complete(corpus) -> list[Replay]:
    return [result for _, result in corpus if result.complete]


def test_the_corpus_holds_what_the_properties_are_about(corpus):
    results = _complete(corpus)
    assert {r.ruleset.name for r in results} == set(PRESETS)
    kinds = Counter(e.kind for r in results for e in r.events)
    for kind in (*PLACING, EventKind.SWEEP, EventKind.REVOLUTION, EventKind.VOID_HAND, EventKind.GIVE):
        assert kinds[kind] > 0, kind  # else a property below would hold of nothing
    assert any(r.final.revolted and not r.final.void for r in results)  # a revolter placed 4th or 3rd


def test_a_seat_finishes_iff_it_played_its_last_card(corpus):
    for result in _complete(corpus):
        pos = result.final
        finished = [e.seats[0] for e in result.events if e.kind is EventKind.FINISH]
        assert len(finished) == len(set(finished))  # at most once each
        played_out = {s for s in range(1, 7) if pos.holds(s) == 0 and s in pos.finished}
        assert set(finished) == played_out, result.record.tags
        assert finished == list(pos.finished)  # in the order they finished


def test_every_seat_of_a_hand_played_out_is_placed_once(corpus):
    for result in _complete(corpus):
        pos = result.final
        if pos.void:
            assert not any(e.kind in PLACING for e in result.events)  # nobody takes a place
            continue
        placing = [e for e in result.events if e.kind in PLACING]
        assert len(placing) == 6, result.record.tags
        assert sorted(e.seats[0] for e in placing) == [1, 2, 3, 4, 5, 6]
        assert sorted(e.place for e in placing) == [1, 2, 3, 4, 5, 6]
        assert {e.place: e.seats[0] for e in placing} == dict(enumerate(pos.places, start=1))
        for e in placing:
            seat = e.seats[0]
            if e.kind is EventKind.FINISH:
                assert pos.holds(seat) == 0 and seat in pos.finished
            elif e.kind is EventKind.OUT:
                assert seat in pos.out
            else:  # placed: still holding cards, or a revolter sitting it out
                assert seat not in pos.finished and seat not in pos.out
                assert pos.holds(seat) > 0 or seat in pos.revolted


def _rounds(result: Replay) -> list[int | None]:
    """The round of each action (``None`` before play), counted from the round-end events: round
    k + 1 starts after the action whose events close round k. One more entry, for events made
    after the last action."""
    record = result.record
    closes = Counter(e.action for e in result.events if e.kind is EventKind.ROUND_END)
    rounds: list[int | None] = [None] * len(record.preplay)
    number = 1
    for i in range(len(record.preplay), len(record.all_actions) + 1):
        rounds.append(number)
        number += closes[i]
    return rounds


def test_every_event_in_play_carries_the_round_of_its_action(corpus):
    checked = 0
    for hand, result in corpus:
        record = result.record
        rounds = _rounds(result)
        written = {len(record.preplay) + i: a.round for i, a in enumerate(record.actions) if a.round is not None}
        assert written or not record.actions  # canonical records number every round they start
        for i, number in written.items():  # the count agrees with the record
            assert rounds[i] == number, (hand.hand.path, i)
        for e in result.events:
            assert e.round == rounds[e.action], (hand.hand.path, e)
            checked += 1
    assert checked > 10_000


# -- worked by hand ---------------------------------------------------------------------------


def test_a_sweeps_losers_are_placed_fewest_cards_first_then_in_playing_order():
    # docs/rules.md, open points: seats still holding cards when the hand ends early take the places
    # after the finishers, "fewest cards first; ties in playing order after the last finisher".
    # Seats 1, 3, 5 play out 5, 6, 7 in one round: 1st, 2nd, 3rd for team 1-3-5, a sweep (串三户,
    # 002 §21), and the hand ends at once. Seat 4 holds one card (3): 4th. Seats 6 and 2 hold two
    # each (33); after seat 5, the last finisher, the playing order is 6, 1, 2: seat 6 is 5th,
    # seat 2 6th (大落).
    t = Table({1: "5", 2: "33", 3: "6", 4: "3", 5: "7", 6: "33"})
    t.play("1:5 2:- 3:6 4:- 5:7")
    ends = [(e.kind.value, e.seats, e.place) for e in t.events if e.action == 4 and e.kind.value != "headless"]
    assert ends == [
        ("finish", (5,), 3),
        ("sweep", (1, 3, 5), None),
        ("placed", (4,), 4),
        ("placed", (6,), 5),
        ("placed", (2,), 6),
        ("hand-end", (1, 3, 5, 4, 6, 2), None),
    ]
    assert [e.kind.value for e in t.events].count("finish") == 3  # the losers never played out
    assert {e.round for e in t.events} == {1}  # all in the one round


def test_the_last_seat_of_a_hand_is_placed_sixth_not_finished():
    # charter, hand-end one-left (002 §3 "最后手中余牌未发者为败"): seats 1-5 play out a single each,
    # in turn; the hand ends with seat 6 alone, holding TT: 大落, placed, not 走科.
    t = Table({1: "5", 2: "6", 3: "7", 4: "8", 5: "9", 6: "TT"})
    pos = t.play("1:5 2:6 3:7 4:8 5:9")
    assert pos.over and pos.places == (1, 2, 3, 4, 5, 6)
    placing = [(e.kind.value, e.seats[0], e.place) for e in t.events if e.kind in PLACING]
    assert placing == [("finish", s, s) for s in range(1, 6)] + [("placed", 6, 6)]


def test_the_worked_example_places_its_last_seat():
    # examples/charter-hand.gjn, round 17: seat 3 plays out DDDX222222222222QQQQQQ (action 69) and
    # takes 5th; seat 2, left holding cards, is 6th (大落) by the same action. Result 5-6-1-4-3-2.
    (hand,) = list(read_records(str(EXAMPLES / "charter-hand.gjn")))
    result = judge(hand.record)
    placing = [(e.kind.value, e.seats[0], e.place, e.number, e.round) for e in result.events if e.kind in PLACING]
    assert placing == [
        ("finish", 5, 1, 22, 6),
        ("finish", 6, 2, 45, 11),
        ("finish", 1, 3, 54, 13),
        ("finish", 4, 4, 63, 15),
        ("finish", 3, 5, 69, 17),
        ("placed", 2, 6, 69, 17),
    ]
