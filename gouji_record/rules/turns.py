"""Whose turn (轮到谁): which seats may act on the play on top of the round.

A seat that passed is barred for the round, with the exceptions the texts give
(:func:`pass_bars`); a 够级 play may be answered only by its opposite or a headless seat,
the other seats having a turn only to burn it (:func:`may_follow`, :func:`burn_turn_only`);
a 够死级 only by a burn (:func:`burn_turn`). A turn may rest on cards the record does not
give (:func:`possible_turn`). The engine (:func:`~gouji_record.rules.engine.step`) gives the
turn with these and says why a seat has none.
"""

from __future__ import annotations

from ..cards import BIG_JOKER, COPIES
from .position import OPPOSITE, SEATS_AFTER, Position, Top, opposite


def pass_bars(pos: Position, seat: int, top: Top) -> bool:
    """A seat that passed may not play again this round, except on its opposite's play (002 §11),
    in the melee (002 §18), or with two big jokers on one (004 §10): two it holds, or may hold among
    cards the record does not give."""
    if seat not in pos.barred or pos.melee or OPPOSITE[seat] == top.seat:
        return False
    return not (two_kill(pos, top) and big_jokers_possible(pos, seat) >= 2)


def two_kill(pos: Position, top: Top) -> bool:
    """``top`` is one big joker alone, under 大王二杀一 (004 §5, §10)."""
    return top.play.size == 1 and top.play.big == 1 and pos.ruleset.two_beat_one == "big-jokers"


def big_jokers_possible(pos: Position, seat: int) -> int:
    """How many big jokers ``seat`` may hold: those the record gives it, and as many of its cards the
    record does not give (``?N``) as four decks leave unaccounted for. Hidden cards are possible cards."""
    unseen = COPIES[BIG_JOKER] - pos.seen[BIG_JOKER]
    return pos.hands[seat - 1][BIG_JOKER] + min(pos.unknown[seat - 1], max(0, unseen))


def possible_turn(pos: Position) -> bool:
    """Whether the seat to act has its turn only because cards the record does not give may be two
    big jokers (a pass, then 大王二杀一, 004 §10): then it may also have had no turn at all."""
    seat, top = pos.to_act, pos.top
    if seat is None or top is None or pos.preplay or seat not in pos.barred:
        return False
    return not pos.melee and opposite(seat) != top.seat and two_kill(pos, top) and pos.hands[seat - 1][BIG_JOKER] < 2


def may_follow(pos: Position, seat: int, top: Top) -> bool:
    """Whether ``seat`` has a turn to follow ``top`` (without burning)."""
    if top.unbeatable or seat == top.seat:
        return False
    if top.burn_only:  # 够死级: seats that may burn it get a turn, to burn or pass
        return burn_turn(pos, seat)
    if (seat in pos.barred and pass_bars(pos, seat, top)) or seat not in pos.playing:
        return False
    if top.restricted:
        if seat == OPPOSITE[top.seat] or headless_answers(pos, seat):
            return True
        # the opposite left play and the player is not headless (001: only 革命 makes a seat
        # headless): only a burn answers, so the seats that may burn get a turn, as on a 够死级
        return OPPOSITE[top.seat] not in pos.playing and burn_turn(pos, seat)
    return True


def burn_turn_only(pos: Position, seat: int, top: Top) -> bool:
    """Whether ``seat``'s turn on the 够级 play ``top`` is only to burn or pass: it is neither the
    opposite nor a headless seat that answers (the opposite having left play, see may_follow)."""
    return seat != OPPOSITE[top.seat] and not headless_answers(pos, seat)


def burn_turn(pos: Position, seat: int) -> bool:
    """A turn to burn or pass, on a play only a burn may answer: the seat has not passed this round,
    is in play and is not headless (a headless seat answers in its turn and does not burn)."""
    return (
        seat not in pos.barred and seat in pos.playing and not headless_answers(pos, seat)
    )


def headless_answers(pos: Position, seat: int) -> bool:
    """A headless seat answers any 够级 play in its turn, a finisher's last play included (002 §16,
    §17 "无头者对其他持牌者亦行使同样的职权"), but not under 004 §14, where beating it is a burn."""
    return pos.ruleset.headless_answers_gouji and pos.headless(seat)


def next_active(pos: Position, after: int) -> int | None:
    playing = pos.playing
    return next((t for t in SEATS_AFTER[after] if t in playing), None)


__all__ = [
    "big_jokers_possible",
    "burn_turn",
    "burn_turn_only",
    "headless_answers",
    "may_follow",
    "next_active",
    "pass_bars",
    "possible_turn",
    "two_kill",
]
