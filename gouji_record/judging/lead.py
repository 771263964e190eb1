"""Who leads round 1 (首发): the one rule the replay, the match check and the bots share.

A record says who led: the seat of its first action of play (docs/notation.md §3.4, "The
first action of play is taken to lead the first round"); the engine then checks that seat
against what decides the lead (上班 shows, a leader who leaves the hand as play starts). A hand
not yet played is led by the seat the ruleset names after the hand before it in its match, or
by anyone where it names nobody.

>>> from gouji_record import parse
>>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
>>> head = f'[Event "x"][Site "y"][Date "2026.11.30"][Ruleset "charter"]{seats}[Result "*"]'
>>> first_leader(parse(head + "deal 1: ? 2: ? 3: ? 4: ? 5: ? 6: ? play 1. 4:33 5:-")[0])
4
"""

from __future__ import annotations

from typing import Protocol

from ..errors import BadArgument, wrong_type
from ..model import GameRecord
from ..rules.engine import Position, team
from ..rules.rulesets import Ruleset
from ..rules.scoring import final_places


class Played(Protocol):
    """A hand played, as :func:`first_leader` reads the hand before: a
    :class:`~gouji_record.judging.replay.Replay` (its record, its ruleset, its final position)."""

    @property
    def record(self) -> GameRecord: ...

    @property
    def ruleset(self) -> Ruleset: ...

    @property
    def final(self) -> Position: ...


def first_leader(
    record: GameRecord | None = None, *, before: Played | None = None, ruleset: Ruleset | None = None
) -> int | None:
    """The seat (1–6) that leads round 1 (首发) of a hand.

    Of a ``record``: the seat of its first action of play, the seat the replay starts from
    (:func:`~gouji_record.judging.replay.replay`), and that the engine then checks against what
    decides the lead; seat 1 for a record with no action of play (nobody is recorded leading:
    the replay starts at seat 1, and a show of 上班 in the pre-play section still moves the lead).

    Of a hand not yet played (no ``record``): the seat that must lead the hand after ``before``
    (the hand before it in its match, replayed) under ``ruleset`` (default: ``before``'s) —
    its 6th place (大落) where the rules say so (002 §6, 004 §8: ``first-lead=last-sixth``), else
    the seat after its first leader (000 §发牌) — or ``None`` where anyone may lead: the first
    hand of a match (no ``before``: 上班 shows decide, 000 and 002 §7, or a lot, 004 §8; self-play
    draws a seat), a hand after a sweep (串三户), a void hand or one not played to its end, or
    rules that name nobody (``first-lead=any``). This is what the match check holds the next hand's first play to.

    >>> first_leader() is None  # a match's first hand: the ruleset names nobody
    True

    Raises:
        BadArgument: both ``record`` and ``before`` are given (a ``TypeError``: the first is a
            record's own leader, the second the leader the hand before names; compare the two as
            the match check does, :func:`~gouji_record.matches.match.hand_in_match`), or
            ``record`` is not a :class:`~gouji_record.model.GameRecord`.
    """
    if record is not None:
        if before is not None:
            raise BadArgument("first_leader takes a record (who led it) or before= (who must lead next), not both")
        if not isinstance(getattr(record, "actions", None), tuple):  # (what it reads of a record)
            raise wrong_type("record", record, "a GameRecord")
        return record.actions[0].seat if record.actions else 1
    if before is None:
        return None
    rules, final = ruleset or before.ruleset, before.final
    if rules.first_lead == "any" or not final.over or final.void:
        return None
    places = final_places(final)
    if len({team(s) for s in places[:3]}) == 1:
        return None
    if rules.first_lead == "last-sixth":  # 002 §6, 004 §8
        return places[5]
    if not before.record.actions:  # (a hand played to its end has a first play)
        return None
    return first_leader(before.record) % 6 + 1  # 000 §发牌: the next seat after the last hand's first leader


__all__ = ["Played", "first_leader"]
