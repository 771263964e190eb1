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
from ..judging.replay import Replay, RulesetOverride, replay, ruleset_of
from ..judging.report import Problem, diagnostic_problem
from ..notation.build import SourceMap
from ..rules.events import Diagnostic, Event, EventKind
from ..rules.rulesets import BadOption, Ruleset, UnknownRuleset


@dataclass
class Verdict:
    """The whole verdict on one hand.

    ``replay`` is the hand replayed under its ruleset (positions, events, and its own first
    problem as ``replay.diagnostic``); ``match`` the hand's place in its match (``None`` for a
    hand without a ``Match`` tag): tribute notes, standings and the match's problems, in
    ``match.diagnostics``. A hand is valid when neither has a problem.

    A hand that cannot be judged (its Ruleset tag names no ruleset, its Options tag an option
    that is not, or an override does: :func:`unjudged`) is a verdict too, never an exception:
    ``refused`` says why (code ``unknown-ruleset`` or ``bad-option``, at its tag:
    :attr:`problem_tag`), ``replay`` is ``None``, ``given`` is the record, and the hand is not
    valid. So is a hand of a file that cannot be read (bad syntax, a bad deal, an unknown
    version of the notation …: :func:`~gouji_record.api.read_verdicts`): ``unread`` is its located problem,
    ``refused`` the same as a diagnostic, and it has no record. :meth:`problems` locates every
    problem in the hand's file, in the one shape every command writes
    (:meth:`~gouji_record.judging.report.Problem.as_dict`); ``path``, ``hand`` (its number in
    the file, from 1) and ``where`` (its source map) say where the hand is when it was read from
    a file (:func:`~gouji_record.api.read_verdicts`), and are what :meth:`problems` locates by default.
    """

    replay: Replay | None
    match: HandInMatch | None = None
    refused: Diagnostic | None = None
    given: GameRecord | None = None
    path: str = ""
    hand: int | None = None
    where: SourceMap | None = None
    unread: Problem | None = None

    @property
    def record(self) -> GameRecord | None:
        """The record judged (``None`` for a hand that could not be read)."""
        return self.replay.record if self.replay is not None else self.given

    @property
    def judged(self) -> bool:
        """Whether the hand could be judged (replayed under a ruleset): ``refused`` is ``None``."""
        return self.replay is not None

    @property
    def events(self) -> list[Event]:
        """The events the engine derived, in order (up to the first illegal action; none for a
        hand not judged)."""
        return self.replay.events if self.replay is not None and self.replay.events is not None else []

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Every problem, the hand's own first (at most one: the replay stops there), then its
        match's (tribute, first lead, numbering), in the order found; for a hand that cannot be
        judged, why (:attr:`refused`) alone."""
        if self.replay is None:
            return [self.refused] if self.refused is not None else []
        own = [self.replay.diagnostic] if self.replay.diagnostic is not None else []
        return own + (list(self.match.diagnostics) if self.match is not None else [])

    @property
    def diagnostic(self) -> Diagnostic | None:
        """The first problem, or ``None``: what a one-line verdict names."""
        problems = self.diagnostics
        return problems[0] if problems else None

    @property
    def valid(self) -> bool:
        """Whether the hand breaks no rule, within its match too (a hand not judged is not)."""
        return self.replay is not None and not self.diagnostics

    @property
    def rulings(self) -> list[Event]:
        """The engine's rulings (裁定) on the actions marked irregular (``^``), in order."""
        return [e for e in self.events if e.kind is EventKind.RULING]

    def problem_tag(self, d: Diagnostic) -> str | None:
        """The tag a problem ``d`` of this verdict about the hand as a whole stands at: its
        Ruleset or Options tag for a hand not judged, its Hand tag for its match's, its Score
        tag for ``score-mismatch``, else its Result tag; ``None`` for a problem at an action."""
        if d.action is not None or self.unread is not None:
            return None if self.unread is None else self.unread.tag
        if d is self.refused:
            return REFUSED_AT.get(d.code, "Ruleset")
        if self.match is not None and any(d is m for m in self.match.diagnostics):
            return "Hand"
        return "Score" if d.code == "score-mismatch" else "Result"

    def problems(
        self,
        path: str | None = None,
        where: SourceMap | None = None,
        hand: int | None = None,
        lines: list[str] | None = None,
    ) -> list[Problem]:
        """Every problem of the verdict (:attr:`diagnostics`, in order) located in the file
        ``path``: at its action, or at its tag (:attr:`problem_tag`; where the hand starts when
        that tag is not written) as ``where`` (the hand's source map) places them, line and
        column 0 without one; ``hand`` is the hand's number in its file, ``lines`` the file's
        lines (indexed from line 1 at 0) to size the caret. ``path``, ``where`` and ``hand``
        default to the verdict's own; a hand that could not be read has its problem as read
        (:attr:`unread`). The one place a verdict's problems are located: ``gouji validate``,
        ``events``, ``review``, ``export --with-verdict`` and the editor all write these."""
        if self.unread is not None:
            return [self.unread]
        path = self.path if path is None else path
        where = self.where if where is None else where
        hand = self.hand if hand is None else hand
        return [
            diagnostic_problem(path, d, where, lines, hand=hand, tag=self.problem_tag(d)) for d in self.diagnostics
        ]


#: The Chinese message of a hand not judged, by the code of its problem (:func:`unjudged`).
_UNJUDGED_ZH = {
    "unknown-ruleset": "无法裁定：规则集标签所写的规则集不存在",
    "bad-option": "无法裁定：选项标签所写的选项不存在或取值不对",
}

#: The tag a ruleset that is not stands at, by the code of the problem (:func:`unjudged`).
REFUSED_AT = {"unknown-ruleset": "Ruleset", "bad-option": "Options"}


def unjudged(record: GameRecord, error: UnknownRuleset | BadOption) -> Verdict:
    """The verdict of ``record`` when no ruleset can be made for it (:func:`~gouji_record.judging.replay.ruleset_of`
    raised ``error``): not valid, its problem ``unknown-ruleset`` (at the Ruleset tag) or
    ``bad-option`` (at the Options tag), with ``error``'s message.

    >>> from gouji_record import parse
    >>> from gouji_record.rules.rulesets import get_ruleset
    >>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
    >>> [record] = parse(f'[Event "x"][Site "y"][Date "?"][Ruleset "nosuch"]{seats}[Result "*"] play')
    >>> try:
    ...     get_ruleset("nosuch")
    ... except UnknownRuleset as e:
    ...     v = unjudged(record, e)
    >>> v.valid, v.diagnostic.code, v.problem_tag(v.diagnostic)
    (False, 'unknown-ruleset', 'Ruleset')
    """
    code = "unknown-ruleset" if isinstance(error, UnknownRuleset) else "bad-option"
    rule = Diagnostic(code=code, message=error.message, action=None, rule="", source="", message_zh=_UNJUDGED_ZH[code])
    return Verdict(None, refused=rule, given=record)


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

    def verdict(
        self, record: GameRecord, ruleset: Ruleset | RulesetOverride | None = None, *, every_position: bool = True
    ) -> Verdict:
        """The verdict of ``record``, the hand after the one judged before: replayed under
        ``ruleset`` (default: its Ruleset tag; :func:`~gouji_record.judging.replay.ruleset_of`, with
        its Options tag) and judged (:meth:`judge`), or, when no ruleset can be made for it, not
        judged (:func:`unjudged`). Never raises for a record."""
        try:
            rules = ruleset_of(record, ruleset)
        except (UnknownRuleset, BadOption) as e:
            return self.judge(unjudged(record, e))
        return self.judge(replay(record, rules, every_position=every_position))

    def judge(self, result: Replay | Verdict) -> Verdict:
        """The verdict of the hand ``result`` replayed (:func:`~gouji_record.judging.replay.replay`,
        with every position or not), the hand after the one judged before; a hand that could not
        be judged (a :class:`Verdict` of :func:`unjudged`) breaks the run of its match, as one
        that could not be read (:meth:`interrupt`), and is its own verdict."""
        if isinstance(result, Verdict):
            self.interrupt()
            return result
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
    records: Iterable[GameRecord], ruleset: Ruleset | RulesetOverride | None = None, *, every_position: bool = True
) -> Iterator[Verdict]:
    """The verdict of each of ``records`` (the hands of a file, in file order): each replayed
    under ``ruleset`` (default: its ``Ruleset`` tag; a :class:`~gouji_record.judging.replay.RulesetOverride`
    as ``--ruleset`` and ``--option`` give it), with its ``Options`` tag's overrides
    (:func:`~gouji_record.judging.replay.ruleset_of`), then judged within its match. With
    ``every_position=False`` each replay keeps only its last position (less memory, as for
    validation). Never raises for a record: an illegal action is in its verdict, and so is a
    ruleset that is not (an unknown ``Ruleset`` tag, a bad ``Options`` tag: :func:`unjudged`),
    the hands after it judged as they would be without it (its match's run broken there).

    Raises:
        BadArgument: one of ``records`` is not a :class:`~gouji_record.model.GameRecord`.
    """
    judge = MatchJudge()
    for record in records:
        yield judge.verdict(record, ruleset, every_position=every_position)


def verdict(record: GameRecord, ruleset: Ruleset | None = None) -> Verdict:
    """The verdict of one hand read alone (:func:`verdicts` of ``[record]``): a hand of a
    match other than its first is then an excerpt, its tribute not judged.

    Raises:
        BadArgument: as :func:`verdicts`.
    """
    return next(verdicts([record], ruleset))


__all__ = ["REFUSED_AT", "MatchJudge", "Verdict", "trimmed", "unjudged", "verdict", "verdicts"]
