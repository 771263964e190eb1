"""The one verdict (裁定) on a hand and its match: what every command and the API report.

A hand's verdict has two parts. The hand's own, from its record alone
(:func:`~gouji_record.judging.replay.replay`): the first illegal action, a round number,
Result or Score tag the play contradicts, a wrong purchase or gift of a 3 or 4, and
the rulings on actions marked irregular (``^``). And its place in its match
(:class:`~gouji_record.matches.match.HandInMatch`), which only the hand before can tell:
the tribute owed and paid, the first lead, the hand's number, the standings.
:func:`verdicts` gives both for the records of a file, in order; ``gouji validate``,
``stats``, ``filter``, ``review``, ``render``, ``events``, ``show`` and ``export
--format parquet`` all read them from here (through :class:`MatchJudge` when the hands
are replayed in worker processes), so that no two doors say different things.

>>> from gouji_record import parse
>>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
>>> head = f'[Event "x"][Site "y"][Date "2026.11.30"][Ruleset "charter"]{seats}[Result "*"]'
>>> deal = "deal 1: TTTTT?31 2: ? 3: ? 4: JJJJJ?31 5: ? 6: ?"
>>> [v] = verdicts(parse(head + deal + " play 1. 1:TTTTT 3:QQQQQ"))
>>> v.valid, v.diagnostic.code, v.diagnostic.number
(False, 'gouji-not-opposite', 2)
>>> [v] = verdicts(parse(head + '[Match "m"][Hand "1"]' + deal + " preplay 1>4:2 play 1. 1:TTTTT"))
>>> [d.code for d in v.diagnostics]  # the first hand of a match owes no tribute (000, 002 §20)
['tribute-extra']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from .match import HandInMatch, hand_in_match
from ..model import GameRecord
from ..judging.replay import Replay, replay, ruleset_of
from ..rules.events import Diagnostic, Event, EventKind
from ..rules.rulesets import Ruleset


@dataclass
class Verdict:
    """The whole verdict on one hand.

    ``replay`` is the hand replayed under its ruleset (positions, events, and its own first
    problem as ``replay.diagnostic``); ``match`` the hand's place in its match (``None`` for a
    hand without a ``Match`` tag): tribute notes, standings and the match's problems, in
    ``match.diagnostics``. A hand is valid when neither has a problem.
    """

    replay: Replay
    match: HandInMatch | None = None

    @property
    def record(self) -> GameRecord:
        """The record judged."""
        return self.replay.record

    @property
    def events(self) -> list[Event]:
        """The events the engine derived, in order (up to the first illegal action)."""
        return self.replay.events

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Every problem, the hand's own first (at most one: the replay stops there), then its
        match's (tribute, first lead, numbering), in the order found."""
        own = [self.replay.diagnostic] if self.replay.diagnostic is not None else []
        return own + (list(self.match.diagnostics) if self.match is not None else [])

    @property
    def diagnostic(self) -> Diagnostic | None:
        """The first problem, or ``None``: what a one-line verdict names."""
        problems = self.diagnostics
        return problems[0] if problems else None

    @property
    def valid(self) -> bool:
        """Whether the hand breaks no rule, within its match too."""
        return not self.diagnostics

    @property
    def rulings(self) -> list[Event]:
        """The engine's rulings (裁定) on the actions marked irregular (``^``), in order."""
        return [e for e in self.replay.events if e.kind is EventKind.RULING]


def trimmed(result: Replay) -> Replay:
    """``result`` with only what the match checks read of a hand (its record, ruleset, the
    position play starts from, the final position, its own diagnostic), small to keep for the
    next hand or to send back from a worker process."""
    if len(result.positions) <= 1 and not result.events:
        return result
    return Replay(result.record, result.ruleset, [result.final], [], result.diagnostic, result.play_start)


def _hand_number(tag: str | None) -> int:
    """The number a ``Hand`` tag gives (1 when it gives none).

    >>> _hand_number("3"), _hand_number(None), _hand_number("x")
    (3, 1, 1)
    """
    value = (tag or "").strip()
    return int(value) if value.isdecimal() and value.isascii() and 0 < len(value) < 10 and int(value) > 0 else 1


class MatchJudge:
    """Gives hands, in file order, their place in their match (:func:`judge`), keeping only the
    hand before of the current match: a match is a run of hands with the same ``Match`` tag;
    one that starts at a ``Hand`` tag other than 1 is an excerpt, whose first hand's tribute
    cannot be judged. A hand that breaks the run (no ``Match`` tag, another one, a hand that
    could not be read: :meth:`interrupt`) ends it."""

    def __init__(self) -> None:
        self.name: str | None = None
        self.number = 0
        self.previous: Replay | None = None
        self.last: HandInMatch | None = None

    def interrupt(self) -> None:
        """A hand that could not be read: the run of the current match is broken."""
        self.name, self.previous, self.last = None, None, None

    def judge(self, result: Replay) -> Verdict:
        """The verdict of the hand ``result`` replayed (:func:`~gouji_record.judging.replay.replay`,
        with every position or not), the hand after the one judged before."""
        record = result.record
        name = record.tags.get("Match") or None
        if name is None:
            self.interrupt()
            return Verdict(result)
        tag = record.tags.get("Hand")
        if name != self.name:  # a match starts; an excerpt starts at its Hand tag
            self.number, self.previous, self.last = _hand_number(tag) - 1, None, None
        self.number += 1
        entry = hand_in_match(result, self.previous, self.number, self.number == 1, self.last)
        if tag is not None and tag.strip() != str(self.number):
            entry.diagnostics.append(
                Diagnostic(
                    code="hand-missing",
                    action=None,
                    rule="match-score",
                    source=result.ruleset.cite("match-score"),
                    message=f'[Hand "{tag}"] is hand {self.number} of match {name!r}: a hand is missing or out of order',
                    message_zh=f"局号“{tag}”实为比赛“{name}”的第{self.number}局：缺了一局，或次序不对",
                )
            )
        kept = trimmed(result)
        self.name, self.previous, self.last = name, kept, entry if kept is result else replace(entry, replay=kept)
        return Verdict(result, entry)


def verdicts(
    records: Iterable[GameRecord], ruleset: Ruleset | None = None, *, every_position: bool = True
) -> Iterator[Verdict]:
    """The verdict of each of ``records`` (the hands of a file, in file order): each replayed
    under ``ruleset`` (default: its ``Ruleset`` tag), with its ``Options`` tag's overrides
    (:func:`~gouji_record.judging.replay.ruleset_of`), then judged within its match. With ``every_position=False`` each replay keeps only its last position (less
    memory, as for validation).

    Raises:
        UnknownRuleset, BadOption: a ruleset or an option that is none (an illegal action never
            raises: it is in the verdict).
        BadArgument: one of ``records`` is not a :class:`~gouji_record.model.GameRecord`.
    """
    judge = MatchJudge()
    for record in records:
        yield judge.judge(replay(record, ruleset_of(record, ruleset), every_position=every_position))


def verdict(record: GameRecord, ruleset: Ruleset | None = None) -> Verdict:
    """The verdict of one hand read alone (:func:`verdicts` of ``[record]``): a hand of a
    match other than its first is then an excerpt, its tribute not judged.

    Raises:
        UnknownRuleset, BadOption, BadArgument: as :func:`verdicts`.
    """
    return next(verdicts([record], ruleset))


__all__ = ["MatchJudge", "Verdict", "trimmed", "verdict", "verdicts"]
