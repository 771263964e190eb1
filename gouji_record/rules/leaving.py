"""Leaving the hand (走科, 出局) and what follows: headless seats, the four-way melee, the hand's end.

A seat leaves by playing its last card (:func:`finish`: the next place from the top), or
holding cards (:func:`go_out`: the lowest free place) when it is smothered (:func:`smother`,
闷), fails a burn, or holds no 3 where 3s are held. Each time, its opposite may become
headless, the four-way melee (四户乱缠) may begin (:func:`melee_due`, :func:`begin_melee`)
and the hand may end: on a sweep (串三户), or when one seat or one team is left
(:func:`maybe_end`).
"""

from __future__ import annotations

from .burning import set_burn
from .events import EventKind
from .position import Position, Smother, Step, opposite, replace, team, top_places


def smother(s: Step, pos: Position, seat: int, by: int) -> Position:
    """闷 (003 §被闷, 004 §20): the last play before a seat's 3s is beaten."""
    s.event(EventKind.SMOTHER, "smother", (seat, by))
    pos = replace(pos, smothers=pos.smothers + (Smother(by, seat),))
    if pos.ruleset.smother == "last-place":
        pos = go_out(s, pos, seat, "smother")
    return pos


def go_out(s: Step, pos: Position, seat: int, rule: str) -> Position:
    """``seat`` leaves the hand holding its cards and takes the lowest free place."""
    place = 6 - len(pos.out)
    s.event(EventKind.OUT, rule, (seat,), place=place)
    pos = replace(pos, out=pos.out + (seat,), playing=pos.playing - {seat})
    if pos.yielder == seat:
        pos = replace(pos, yielder=None, yield_back=False)
    return _after_leaving(s, pos, seat)


def finish(s: Step, pos: Position, seat: int) -> Position:
    """``seat`` played its last card: it takes the next place (走科, 002 §3)."""
    finished = pos.finished + (seat,)
    place = len(finished) + (1 if pos.revolted and len(finished) >= 4 else 0)
    s.event(EventKind.FINISH, "places", (seat,), place=place)
    pos = replace(pos, finished=finished, playing=pos.playing - {seat})
    if pos.burner == seat:
        s.event(EventKind.BURN_SUCCESS, "burn-condition", (seat, pos.burn_target or seat))
        pos = replace(pos, burner=None, burn_target=None, burns=set_burn(pos.burns, seat, "success"))
    return _after_leaving(s, pos, seat)


def _after_leaving(s: Step, pos: Position, seat: int) -> Position:
    """What follows a seat's leaving: its opposite may become headless (无头), the melee may begin,
    the hand may end."""
    opp = opposite(seat)
    if pos.active(opp) and pos.headless(opp):
        s.event(EventKind.HEADLESS, "headless", (opp,))
    begins = pos.ruleset.melee_begins
    if not pos.melee and begins != "next-round" and melee_due(pos):
        if begins == "at-once" or not dead_gouji_chance(pos, seat):
            pos = begin_melee(s, pos)
    return maybe_end(s, pos)


def dead_gouji_chance(pos: Position, seat: int) -> bool:
    """Whether ``seat``, just finished, left its opposite a 够死级 chance on its last play: it took
    1st or 2nd place with the play on top, its opposite is still in play, and the ruleset makes an
    answer to that play a 够死级 (``dead-gouji-on-last-play``: 000 "头科、二科的底牌，如果是'够级牌'
    其对头分别有一次无对头勾击机会，称'够死级'", 001 §79-§80, 002 §16). Under
    ``melee-begins=after-dead-gouji`` the melee then waits for the next round (000 §四人乱缠 "并不是
    出现四人打牌马上就开始'四人乱缠'，因为'头科'或'二科'的底牌其'对头'还有一次'够死级'的机会")."""
    top = pos.top
    return (
        top is not None
        and top.seat == seat
        and seat in pos.finished[:2]
        and pos.active(opposite(seat))
        and pos.ruleset.last_play_answer_is_dead(top.restricted)
    )


def melee_due(pos: Position) -> bool:
    """四户乱缠 is due with four seats or fewer left (000, 003), or at 2nd place (004 §10, §12).
    It begins at once, or with the next round (``melee_begins``: 000 §四人乱缠 "并不是…马上就开始",
    002 §16 "过牌者在此轮中均不可再出牌")."""
    if pos.ruleset.melee_when == "second-place":
        return len(pos.finished) >= 2
    return len(pos.playing) <= 4


def begin_melee(s: Step, pos: Position) -> Position:
    """四户乱缠 begins (002 §18): from now no play is a 够级 play, no seat yields, and a pass no longer bars."""
    s.event(EventKind.MELEE, "melee", tuple(sorted(pos.playing)))
    return replace(pos, melee=True)


def _sweeping_team(pos: Position) -> int | None:
    top3 = top_places(pos)[:3]
    if len(top3) == 3 and len({team(t) for t in top3}) == 1:
        return team(top3[0])
    return None


def maybe_end(s: Step, pos: Position) -> Position:
    """End the hand on a sweep, or when one seat (or one team, as the ruleset says) is left."""
    if pos.over or pos.preplay:
        return pos
    active = sorted(pos.playing)
    sweep = _sweeping_team(pos)
    one_team = len({team(t) for t in active}) <= 1 and pos.ruleset.hand_end == "one-team-left"
    if sweep is None and len(active) > 1 and not one_team:
        return pos
    if sweep is not None:
        s.event(EventKind.SWEEP, "sweep", tuple(top_places(pos)[:3]))
    pos = replace(pos, to_act=None, top=None)
    if s.quiet:  # (the places are only the events')
        return pos
    places = pos.places
    for t in places:
        if t not in pos.finished and t not in pos.out:
            s.event(EventKind.PLACED, "hand-end", (t,), place=places.index(t) + 1)
    s.event(EventKind.HAND_END, "hand-end", places)
    return pos


__all__ = [
    "begin_melee",
    "dead_gouji_chance",
    "finish",
    "go_out",
    "maybe_end",
    "melee_due",
    "smother",
]
