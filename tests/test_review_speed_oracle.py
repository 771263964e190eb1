"""The review's findings do not change with its speed work (issue 24, "Speed").

tests/review_oracle.py keeps the walk of gouji_record/analysis/review.py and the legal-action
listing as they were before it (the oracle, slow: it lists every legal action at each decision).
The review of the package must give exactly its findings (kind, action, seat, text in both
languages, alternatives and their number, cost, score cost, rule, source, and every choice offered
to rollouts) on self-played hands of every preset (by both bots), on matches, on the examples and
on hands with cards hidden (``?N``). No timing here: speed is measured in bench/.
"""

from __future__ import annotations

import random

import pytest
from conftest import EXAMPLES
from review_oracle import SlowWalk

from gouji_record.analysis.review import _Walk
from gouji_record.bots.selfplay import play_hand, play_match
from gouji_record.judging.replay import replay
from gouji_record.notation.files import read_hands
from gouji_record.notation.parser import parse_text
from gouji_record.rules.rulesets import PRESETS, get_ruleset


def _facts(findings) -> list[tuple]:
    return [
        (
            f.kind,
            f.action,
            f.seat,
            f.text.en,
            f.text.zh,
            f.alternatives,
            f.more,
            f.cost,
            f.score_cost,
            f.rule,
            f.source,
            tuple(a.text for a in f.choices),
        )
        for f in findings
    ]


def _same(result, label) -> int:
    fast, slow = _facts(_Walk(result).run()), _facts(SlowWalk(result).run())
    assert fast == slow, label
    return len(slow)


def _half_known(cards: str, rng: random.Random) -> str:
    """``cards`` with each card kept written at even odds, the rest unknown (``?N``), as in
    tests/test_review.py."""
    kept = "".join(c for c in cards if rng.random() < 0.5)
    return kept + f"?{len(cards) - len(kept)}"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_self_played_hands_of_every_preset(preset):
    rules = get_ruleset(preset)
    found = 0
    for seed, bot in [(seed, "person") for seed in range(11, 16)] + [(seed, "random") for seed in range(16, 19)]:
        found += _same(replay(play_hand(rules, seed, bot=bot), rules), (preset, seed, bot))
    assert found > 0


@pytest.mark.parametrize("preset", list(PRESETS))
def test_hands_with_cards_hidden(preset):
    rules = get_ruleset(preset)
    for seed, bot in ((21, "person"), (22, "person"), (23, "person"), (24, "random"), (25, "random")):
        full = play_hand(rules, seed, bot=bot)
        rng = random.Random(seed)
        seats = set(rng.sample(range(1, 7), rng.choice((1, 3))))
        deal = tuple(_half_known(c, rng) if s in seats else c for s, c in enumerate(full.deal, start=1))
        result = replay(full.model_copy(update={"deal": deal}), rules)  # (illegal at times: reviewed up to there)
        _same(result, (preset, seed, sorted(seats)))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_match(preset):
    rules = get_ruleset(preset)
    for n, record in enumerate(play_match(rules, 31, 4), start=1):
        _same(replay(record, rules), (preset, n))


def _revolutionary(rng: random.Random, revolter: int) -> tuple[str, ...]:
    """A seeded deal where ``revolter`` holds no 2 and no joker (it may revolt, 革命): the next
    seat takes them, for its lowest other cards."""
    from gouji_record.bots.selfplay import deal
    from gouji_record.cards import BIG_JOKER, SMALL_JOKER, TWO, format_cards, parse_cards

    hands = [list(parse_cards(h)) for h in deal(rng)]
    mine, other = hands[revolter - 1], hands[revolter % 6]
    for rank in (TWO, SMALL_JOKER, BIG_JOKER):
        while mine[rank]:
            low = next(r for r in range(TWO) if other[r])
            mine[rank], other[rank], other[low], mine[low] = mine[rank] - 1, other[rank] + 1, other[low] - 1, mine[low] + 1
    return tuple(format_cards(tuple(h)) for h in hands)


@pytest.mark.parametrize("preset", [p for p in PRESETS if PRESETS[p].revolution])
def test_hands_with_a_revolution(preset):
    # a revolution (革命), its opposite keeping its head (要头: its first 够级 plays are 够死级),
    # declaring itself headless (无头) or neither: the opening questions of a kept head's seat
    from gouji_record.cards import format_cards
    from gouji_record.model import Action, ActionKind

    rules = get_ruleset(preset)
    for seed in range(41, 45):
        rng = random.Random(seed)
        revolter = rng.randint(1, 6)
        hands, opp = _revolutionary(rng, revolter), (revolter + 2) % 6 + 1
        for declared in ((), (ActionKind.KEEP_HEAD,), (ActionKind.NO_HEAD,)):
            preplay = (Action(seat=revolter, kind=ActionKind.REVOLT),) + tuple(Action(seat=opp, kind=k) for k in declared)
            record = play_hand(rules, seed, hands=hands, preplay=preplay, leader=opp)
            _same(replay(record, rules), (preset, seed, declared))
            # the record cut at each of the opposite's first leads, made a single of its lowest
            # card instead: it has not opened, and is asked whether a (dead) 够级 play would have
            positions = replay(record, rules).positions
            start = len(record.preplay)
            reached = record.actions[: len(positions) - 1 - start]  # (fours: a purchase missing stops it)
            leads = [i for i, a in enumerate(reached) if a.seat == opp and positions[start + i].top is None][:4]
            for i in leads:
                hand = positions[start + i].hands[opp - 1]
                low = tuple(int(r == next(r for r, n in enumerate(hand) if n)) for r in range(len(hand)))
                single = Action(seat=opp, kind=ActionKind.PLAY, cards=format_cards(low))
                actions = record.actions[:i] + (single,)
                cut = record.model_copy(update={"actions": actions, "tags": record.tags | {"Result": "*"}})
                _same(replay(cut, rules), (preset, seed, declared, i))


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.gjn")), ids=lambda p: p.name)
def test_the_examples(path):
    for hand in read_hands(str(path)):
        for record, _ in parse_text(hand.text, hand.line, hand.column):
            _same(replay(record), (path.name, hand.index))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_plays_tried_are_those_every_play_filtered_gives(preset):
    # moves._shaped prunes its enumeration (sizes, ranks, attachments); it must keep exactly the
    # plays of plays_of_size, in its order, that form a play, beat the top, have a shape the
    # ruleset allows, and are of the kind asked (够级, may open, all the hand's 4s)
    from gouji_record.bots.selfplay import deal
    from gouji_record.cards import FOUR, parse_cards
    from gouji_record.rules.plays import excluded_from_opening
    from gouji_record.rules.moves import FOURS, GOUJI, OPENING, _shaped, plays_of_size
    from gouji_record.rules.plays import classify, is_gouji, judge, shape_error

    rules = get_ruleset(preset)

    def kind_ok(cards, play, hand, which):
        if which == FOURS:
            return cards[FOUR] == hand[FOUR]
        return not which or (is_gouji(play, rules) and (which == GOUJI or not excluded_from_opening(play, rules)))

    rng = random.Random(preset)
    for n in range(60):
        hands = [parse_cards(h) for h in deal(rng)]
        kept = (0.3, 0.6, 0.9)[n % 3]  # (hands of few ranks, and of many)
        hand = tuple(n if rng.random() < kept else 0 for n in hands[0])
        follows = [c for n in (1, 2, 3, 4, 5, 6) for c in plays_of_size(hands[1], n)]
        for top_cards in [None] + [rng.choice(follows) for _ in range(2)]:
            top = None if top_cards is None else classify(top_cards)
            sizes = tuple(range(sum(hand), 0, -1)) if top is None else tuple(sorted({top.size, 2, 3}))
            for which in (0, GOUJI, OPENING, FOURS):
                want = []
                for size in sizes:
                    for cards in plays_of_size(hand, size):
                        play = classify(cards)
                        if (top is None or judge(top, play, rules)[0]) and shape_error(play, rules) is None and kind_ok(cards, play, hand, which):
                            want.append(cards)
                assert list(_shaped(rules, hand, sizes, top, which)) == want, (hand, top_cards, which)
