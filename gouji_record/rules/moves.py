"""Legal actions (可行动作): what each seat may do in a position.

Candidates are generated from the cards held and then checked by the engine
itself (:func:`~gouji_record.rules.engine.step`), so this module can never
disagree with the rules: it only proposes.

>>> from gouji_record.rules.engine import initial_position
>>> from gouji_record.rules.rulesets import get_ruleset
>>> pos = initial_position(get_ruleset("charter"), ("55",) + ("X33",) * 5, leader=1)
>>> [a.text for a in legal_actions(pos)]  # seat 1 has no joker and no 2: it may revolt
['1:revolt', '1:55', '1:5']
"""

from __future__ import annotations

from collections.abc import Iterator

from ..model import Action, ActionKind
from .cards import BIG_JOKER, N_RANKS, SMALL_JOKER, TWO, Counts, format_cards
from .engine import Position, opposite, seats_after, step, team
from .events import IllegalAction


def plays_of_size(hand: Counts, size: int) -> Iterator[Counts]:
    """Every play of exactly ``size`` cards that ``hand`` holds: one rank with
    any 2s and jokers attached, 2s with jokers, or jokers alone. Strongest
    rank first, fewest attached cards first."""
    twos, small, big = hand[TWO], hand[SMALL_JOKER], hand[BIG_JOKER]
    for rank in range(TWO, -1, -1):
        have = hand[rank]
        if not have:
            continue
        for count in range(min(have, size), 0, -1):
            rest = size - count
            extra_twos = 0 if rank == TWO else min(twos, rest)
            for t in range(extra_twos + 1):
                for x in range(min(small, rest - t) + 1):
                    d = rest - t - x
                    if d <= big:
                        cards = [0] * N_RANKS
                        cards[rank] = count
                        if rank != TWO:
                            cards[TWO] = t
                        cards[SMALL_JOKER], cards[BIG_JOKER] = x, d
                        yield tuple(cards)
    for x in range(min(small, size), -1, -1):
        d = size - x
        if d <= big and size:
            cards = [0] * N_RANKS
            cards[SMALL_JOKER], cards[BIG_JOKER] = x, d
            yield tuple(cards)


def _accepted(pos: Position, action: Action) -> bool:
    try:
        step(pos, action)
    except IllegalAction:
        return False
    return True


def _plays(pos: Position, seat: int, sizes: list[int], burn: bool) -> list[Action]:
    hand = pos.hands[seat - 1]
    out = []
    for size in sizes:
        for cards in plays_of_size(hand, size):
            a = Action(seat=seat, kind=ActionKind.PLAY, cards=format_cards(cards), burn=burn)
            if _accepted(pos, a):
                out.append(a)
    return out


def burn_claimants(pos: Position) -> list[int]:
    """Seats that could claim a burn now, in the ruleset's claim order: the
    gouji player's team first, then play order (000, 002 §10), or play order
    only (003, 004 §15)."""
    top = pos.top
    if top is None:
        return []
    order = list(seats_after(top.seat))
    if pos.ruleset.burn_claim_order == "team-first":
        order.sort(key=lambda s: team(s) != team(top.seat))
    return [s for s in order if s != opposite(top.seat) and pos.active(s)]


def legal_actions(pos: Position, seat: int | None = None) -> list[Action]:
    """The legal actions now: the seat to act's plays, pass and yield, then
    burns by other seats (in claim order). With ``seat``, only that seat's.

    In the pre-play phase, each seat's declarations come first. Empty once
    the hand is over.
    """
    if pos.over:
        return []
    out: list[Action] = []
    seats = [seat] if seat is not None else [1, 2, 3, 4, 5, 6]
    if pos.preplay:
        for s in seats:
            for kind in (ActionKind.REVOLT, ActionKind.KEEP_HEAD, ActionKind.NO_HEAD, ActionKind.NATURAL):
                a = Action(seat=s, kind=kind)
                if _accepted(pos, a):
                    out.append(a)
    actor = pos.to_act
    if actor is not None and actor in seats:
        top, held = pos.top, pos.holds(actor)
        sizes = range(held, 0, -1) if top is None else sorted({top.play.size, 2, 3} & set(range(1, held + 1)))
        out += _plays(pos, actor, list(sizes), False)
        for kind in (ActionKind.PASS, ActionKind.YIELD):
            a = Action(seat=actor, kind=kind)
            if _accepted(pos, a):
                out.append(a)
    if pos.top is not None:
        for s in burn_claimants(pos):
            if s in seats and s != actor:
                out += _plays(pos, s, [pos.top.play.size], True)
    return out
