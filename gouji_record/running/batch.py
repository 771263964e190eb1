"""Checking many hands (批量校验): stream a file hand by hand, in parallel if asked.

A file is cut into hands without parsing (:func:`~gouji_record.notation.files.read_hands`),
so memory stays bounded by the largest hand, one bad hand is reported while
the others are still checked, and hands can be checked in worker processes
(``jobs``) while the reports come back in file order. :func:`map_hands` is the same loop
for any work done on each hand (``gouji stats`` and ``gouji filter`` count and pick with it).
"""

from __future__ import annotations

import signal
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from itertools import islice
from typing import Any, BinaryIO, Generic, TypeVar

from ..model import GameRecord
from ..notation.files import HandText, LinesFrom, read_hands
from ..notation.build import NotationError, SourceMap
from ..notation.parser import parse_text
from ..judging.legacy import read_as_written
from ..judging.replay import Replay, RulesetOverride, replay, ruleset_of
from ..judging.report import Problem, rulings, summary
from ..rules.rulesets import BadOption, Ruleset, UnknownRuleset
from ..matches.verdict import MatchJudge, Verdict, trimmed, unjudged

#: Exit statuses (docs/notation.md): valid, a rule broken, unreadable.
OK, ILLEGAL, UNREADABLE = 0, 1, 2
#: Hands handed to the workers at a time; bounds memory with ``jobs`` > 1.
BATCH = 256
#: The most worker processes ``jobs`` may ask for.
MAX_JOBS = 64
A, B, T = TypeVar("A"), TypeVar("B"), TypeVar("T")
#: What an empty file or stretch of white space is told.
NO_HAND = 'no hand in the file: expected tags like [Event "…"]'


@dataclass
class HandReport:
    """The outcome for one hand (or one unreadable stretch of a file).

    ``status`` is :data:`OK`, :data:`ILLEGAL` or :data:`UNREADABLE`; ``text``
    is what a person reads (a summary, or a located error); ``data`` is the
    same as JSON-ready data; ``replay`` is the hand's replay, trimmed to what the match
    checks read (:func:`~gouji_record.matches.verdict.trimmed`), when it belongs to a match, else
    ``None``; ``where`` and ``source`` (the hand's text) locate its actions and quote them then.
    """

    path: str
    index: int
    line: int
    status: int
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    replay: Replay | None = None
    where: SourceMap | None = None
    source: HandText | None = None


def parse_hand(hand: HandText) -> tuple[list[tuple[GameRecord, SourceMap]], Problem | None]:
    """Parse one hand cut out of a file: its ``(record, source map)`` pairs (one, unless the hand
    is empty), or the located problem that stops it being read (a bad byte, bad syntax, a bad deal)."""
    error = hand.problem
    if error is None:
        try:
            hands = parse_text(hand.text, hand.line, hand.column, read_as_written)
        except NotationError as e:
            error = e
        else:
            if hands:
                return hands, None
            return [], Problem(hand.path, hand.line, hand.column, "empty", NO_HAND)
    return [], located(hand.path, error)


def located(path: str, error: NotationError) -> Problem:
    """The problem ``error`` reports in ``path``, with the line it quotes, if it has one (a line
    that is not UTF-8, as it reads in the likely encoding)."""
    return Problem(path, error.line, error.column, error.code, error.message, source_line=getattr(error, "source_line", None))


@dataclass
class ReadHand:
    """One hand of a file, read and parsed (or not).

    ``hand`` is the hand's text and place in the file (``None`` for a file that cannot be
    opened or has no hand); ``record`` and ``where`` its record and source map, or ``None``
    with ``problem`` saying, located, why it cannot be read.
    """

    hand: HandText | None
    record: GameRecord | None = None
    where: SourceMap | None = None
    problem: Problem | None = None

    def lines(self) -> LinesFrom | None:
        """The hand's lines by file line number, to quote under a problem."""
        return self.hand.display_lines() if self.hand is not None else None


def _file_items(path: str, stream: BinaryIO | None, encoding: str | None) -> Iterator[HandText | Problem]:
    """The hands of ``path`` (or ``stream``) cut out in file order, not parsed; then, in their
    place, the problem that the file cannot be read on (``unreadable``) or holds no hand
    (``empty``). The one reading of a file that :func:`read_records` and :func:`map_hands` share."""
    any_hand = False
    try:
        for hand in read_hands(path, stream, encoding):
            any_hand = True
            yield hand
    except NotationError as e:
        yield Problem(path, e.line, e.column, e.code, e.message)
        return
    if not any_hand:
        yield Problem(path, 1, 1, "empty", NO_HAND)


def read_records(path: str, stream: BinaryIO | None = None, encoding: str | None = None) -> Iterator[ReadHand]:
    """Read ``path`` (or ``stream``) hand by hand: a :class:`ReadHand` per hand in file order,
    whatever is wrong with the others; one with only a problem for a file that cannot be read
    on (``unreadable``) or holds no hand (``empty``). Memory is bounded by the largest hand.
    ``encoding`` is the file's (``None``: UTF-8; see :func:`~gouji_record.notation.files.read_lines`)."""
    for item in _file_items(path, stream, encoding):
        if isinstance(item, Problem):
            yield ReadHand(None, problem=item)
            continue
        hands, problem = parse_hand(item)
        if problem is not None:
            yield ReadHand(item, problem=problem)
        for record, where in hands:
            yield ReadHand(item, record, where)


def ruleset_problem(read: ReadHand, e: UnknownRuleset | BadOption) -> Problem:
    """The problem of the hand ``read`` whose ruleset is not (``e``: an unknown ruleset or a bad
    option), located at its tag, as its verdict says it (:func:`~gouji_record.matches.verdict.unjudged`)."""
    assert read.hand is not None and read.record is not None
    [p] = unjudged(read.record, e).problems(read.hand.path, read.where, read.hand.index)
    return p


def _unreadable(hand: HandText, p: Problem) -> HandReport:
    p = replace(p, hand=hand.index)
    data = {"file": hand.path, "hand": hand.index, "line": hand.line, "valid": False, "error": p.as_dict()}
    return HandReport(hand.path, hand.index, hand.line, UNREADABLE, p.format(hand.display_lines()), data)


def check_hand(
    hand: HandText,
    ruleset_name: str | Ruleset | RulesetOverride | None = None,
    quiet: bool = False,
    replays: list[Replay] | None = None,
    details: bool = True,
) -> HandReport:
    """Parse and replay one hand cut out of a file, under ``ruleset_name`` (a preset's name, a
    ruleset, or what ``--ruleset`` and ``--option`` say: :func:`~gouji_record.judging.replay.ruleset_of`)
    or else its Ruleset and Options tags.

    Never raises for bad input: the report says what was wrong, located in the file. ``replays``,
    if given, receives the replay of each record read (none for a hand that cannot be read), for
    a caller that wants more of it than the report says (:mod:`gouji_record.formats.archive`).
    Without ``details`` the report's data of a valid hand says only that it is valid, not its
    places, scores, event counts and rulings (``gouji validate`` in text: the verdict is the
    same, and nothing is computed that would not be printed); with ``quiet`` too, no event is
    derived (``replay(…, events=False)``).
    """
    path, index, first_line = hand.path, hand.index, hand.line
    hands, problem = parse_hand(hand)
    if problem is not None:
        return _unreadable(hand, problem)
    base = {"file": path, "hand": index, "line": first_line}
    reports = []
    for record, where in hands:
        try:
            rules = ruleset_of(record, ruleset_name)
        except (UnknownRuleset, BadOption) as e:
            reports.append(_unreadable(hand, ruleset_problem(ReadHand(hand, record, where), e)))
            continue
        # the events only for what is printed of them, or a caller that keeps the replay
        events = details or not quiet or replays is not None
        result = replay(record, rules, every_position=False, events=events)
        if replays is not None:
            replays.append(result)
        data = base | {"event": record.tags.get("Event"), "ruleset": rules.name}
        kept = where_kept = None
        if record.tags.get("Match"):  # for the match checks (with_matches), in file order
            data["match"], kept, where_kept = record.tags["Match"], trimmed(result), where
        if result.diagnostic is not None:
            lines = hand.display_lines()  # (the hand's lines, split only to quote one)
            [p] = Verdict(result).problems(path, where, index, lines)
            reports.append(
                HandReport(
                    path,
                    index,
                    first_line,
                    ILLEGAL,
                    p.format(lines),
                    data
                    | {
                        "valid": False,
                        "error": p.as_dict(),
                    },
                    kept,
                    where_kept,
                    hand if kept else None,
                )
            )
            continue
        if not details:
            data["valid"] = True
            text_out = "" if quiet else summary(path, index, result, where)
            reports.append(HandReport(path, index, first_line, OK, text_out, data, kept, where_kept, hand if kept else None))
            continue
        score = result.score
        data |= {
            "valid": True,
            "complete": result.final.over,
            "void": result.final.void,
            "places": list(result.places),
            "scores": {"1-3-5": score.teams[1], "2-4-6": score.teams[0]} if score else None,
            "extras": {str(s): v for s, v in score.seats.items() if v} if score else None,
            "events": _event_counts(result),
            "rulings": rulings(result, where),
        }
        text_out = "" if quiet else summary(path, index, result, where)
        reports.append(HandReport(path, index, first_line, OK, text_out, data, kept, where_kept, hand if kept else None))
    if len(reports) == 1:
        return reports[0]
    worst = max(reports, key=lambda r: r.status)  # the splitter cuts one hand at a time: never here
    return HandReport(path, index, first_line, worst.status, "\n".join(r.text for r in reports if r.text), worst.data)


def _event_counts(result) -> dict[str, int]:
    counts: dict[str, int] = {}
    for e in result.events:
        counts[e.kind.value] = counts.get(e.kind.value, 0) + 1
    counts.pop("round-end", None)
    return counts


def with_matches(reports: Iterable[HandReport]) -> Iterator[HandReport]:
    """Add the match checks to the reports of hands that belong to a match (a ``Match`` tag):
    tribute owed by the hand before and paid in this one, first lead, numbering, running score
    (:class:`~gouji_record.matches.verdict.MatchJudge`, on the replay each report keeps: no hand is
    read or replayed twice). Keeps only the previous hand of the current match in memory."""
    judge = MatchJudge()
    for report in reports:
        if report.replay is None or report.status == UNREADABLE:
            judge.interrupt()
            yield report
            continue
        judged = judge.judge(report.replay)
        entry = judged.match
        assert entry is not None and report.where is not None
        name, number = report.data["match"], entry.number
        lines = report.source.display_lines() if report.source is not None and entry.diagnostics else None
        own = 0 if report.replay.diagnostic is None else 1
        problems = judged.problems(report.path, report.where, report.index, lines)[own:]
        if problems:
            report.status = max(report.status, ILLEGAL)
            report.text = "\n".join(p.format(lines) for p in problems) + ("\n" + report.text if report.text else "")
            report.data["valid"] = False
            report.data["match_errors"] = [p.as_dict() for p in problems]
        totals = entry.standings
        if report.text and report.status == OK:
            extra = ["  tribute: " + "; ".join(entry.notes)] if entry.notes else []
            extra.append(f"  match {name!r} after hand {number}: team 1-3-5 {totals[1]}, team 2-4-6 {totals[0]}")
            report.text = "\n".join([report.text, *extra])
        report.data |= {
            "tribute": entry.notes,
            "match_hand": number,
            "standings": {"1-3-5": totals[1], "2-4-6": totals[0]},
        }
        report.replay = report.where = report.source = None  # (the judge keeps what it needs)
        yield report


#: Runs a job (a picklable function of one item: a hand, or a hand and what to do with it) on
#: batches of items and yields each batch's results in batch order, whatever order they were
#: computed in: :func:`gouji_record.running.cluster.on_cluster`, for the workers of a Dask cluster.
#: Without one, :func:`in_order` works here or in worker processes (``jobs``).
Runner = Callable[[Callable[[Any], Any], Iterator[list[Any]]], Iterator[list[Any]]]


def batches(items: Iterable[A], size: int = BATCH) -> Iterator[list[A]]:
    """``items`` in lists of ``size`` (the last one shorter), read as they are asked for.

    >>> [len(b) for b in batches(iter(range(600)))]
    [256, 256, 88]
    """
    items = iter(items)
    while batch := list(islice(items, size)):
        yield batch


def check_file(
    path: str,
    ruleset_name: str | Ruleset | RulesetOverride | None = None,
    jobs: int = 1,
    quiet: bool = False,
    stream: BinaryIO | None = None,
    progress=None,
    encoding: str | None = None,
    *,
    job: Callable[[HandText], HandReport] | None = None,
    runner: Runner | None = None,
    details: bool = True,
) -> Iterator[HandReport]:
    """Check every hand of ``path`` (or of ``stream``, e.g. standard input), in file order.

    ``jobs`` > 1 checks hands in that many worker processes (at most :data:`MAX_JOBS`);
    ``runner``, if given, checks them instead in batches of :data:`BATCH` hands where it says
    (:data:`Runner`: a Dask cluster). ``job`` is what is done to each hand (default:
    :func:`check_hand` with ``ruleset_name``, ``quiet`` and ``details``; another must be picklable, and return
    a :class:`HandReport`, or a kind of one). ``progress``, if given, is called with the number of
    characters of each hand read; ``encoding`` is the file's (``None``: UTF-8), decoded here,
    before the workers. Yields one :class:`HandReport` per hand, whatever is wrong with the others
    (a hand that cannot be decoded or parsed is reported on its own), then one for a file that
    cannot be read on, or one for a file with no hand.
    """
    failure: list[Problem] = []

    def hands() -> Iterator[HandText]:
        try:
            for hand in read_hands(path, stream, encoding):
                if progress is not None:
                    progress(len(hand.text))
                yield hand
        except NotationError as e:  # the file cannot be opened, or read on
            failure.append(Problem(path, e.line, e.column, e.code, e.message))

    if job is None:
        job = partial(check_hand, ruleset_name=ruleset_name, quiet=quiet, details=details)
    any_hand = False
    for report in in_order(job, hands(), jobs, runner):
        any_hand = True
        yield report
    if failure:
        yield file_report(failure[0])
    elif not any_hand:
        yield file_report(Problem(path, 1, 1, "empty", NO_HAND))


def _worker_signals() -> None:
    """A worker process's signals as the system sets them: the pool ends its workers with SIGTERM
    when it closes, and a worker forked from the ``gouji`` command (whose SIGTERM raises an
    exception, to remove its outputs' temporaries: :mod:`gouji_record.cli.launch`) must end then,
    not raise wherever it is and wait on a lock it held."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def in_order(job: Callable[[A], B], items: Iterable[A], jobs: int = 1, runner: Runner | None = None) -> Iterator[B]:
    """``job(item)`` for each of ``items``, in their order: here (``jobs`` <= 1), in ``jobs``
    worker processes (at most :data:`MAX_JOBS`), or by ``runner`` (:data:`Runner`: a Dask
    cluster), which ``jobs`` then does not concern. ``items`` are taken :data:`BATCH` at a time, a
    batch queued while the one before is worked on, so memory is bounded however many there
    are. With workers, ``job`` and each item and result must pickle (``job`` a module-level
    function, or a :func:`functools.partial` of one). Raises :class:`OSError` when the workers
    cannot be started (``EAGAIN``, ``ENOMEM``), what ``runner`` raises, and whatever ``job``
    raises."""
    if runner is not None:
        for results in runner(job, batches(items)):
            yield from results
        return
    if jobs <= 1:
        yield from map(job, items)
        return
    import multiprocessing  # (only here: a command on one process does without it)

    stream = iter(items)
    with multiprocessing.Pool(min(jobs, MAX_JOBS), initializer=_worker_signals) as pool:
        pending: deque = deque()  # batches in flight: the next is queued while one is read
        while True:
            while len(pending) < 2 and (batch := list(islice(stream, BATCH))):
                pending.append(pool.map_async(job, batch, chunksize=max(1, len(batch) // (4 * jobs))))
            if not pending:
                break
            yield from pending.popleft().get()


@dataclass
class Judged(Generic[T]):
    """What a work of :func:`map_hands` gives back for a hand of a match, whose verdict only the
    hand before can complete: ``result``, its work so far, and ``replay``, the hand replayed and
    :func:`~gouji_record.matches.verdict.trimmed`. :func:`map_hands` judges it within its match, in file
    order (:class:`~gouji_record.matches.verdict.MatchJudge`), and yields ``settle(result, verdict)``.
    ``path`` is the file the hand is in (set by :func:`map_hands`): a match is judged within one
    file, as ``gouji validate`` judges it."""

    result: T
    replay: Replay
    path: str = ""


def judged(result: T, replayed: Replay, settle: Callable[[T, Verdict], T]) -> T | Judged[T]:
    """What a work of :func:`map_hands` returns for a hand ``replayed``: ``result`` settled with
    the hand's verdict here (``settle(result, verdict)``) when it is not in a match, or a
    :class:`Judged` for :func:`map_hands` to settle with its match's verdict."""
    if replayed.record.tags.get("Match"):
        return Judged(result, trimmed(replayed))
    return settle(result, Verdict(replayed))


def map_hands(
    work: Callable[[ReadHand, Ruleset], T | Judged[T]],
    paths: Iterable[str],
    *,
    ruleset: Ruleset | None = None,
    jobs: int = 1,
    encoding: str | None = None,
    stdin: Callable[[], BinaryIO] | None = None,
    runner: Runner | None = None,
    settle: Callable[[T, Verdict], T] | None = None,
) -> Iterator[T | Problem]:
    """``work(hand, rules)`` for every hand of the files ``paths`` that can be read, in file order,
    and in its place a :class:`~gouji_record.judging.report.Problem` for every one that cannot: the
    shared loop of the commands that go over many hands (``gouji stats``, ``gouji filter``).

    Each file is cut into hands here (:func:`~gouji_record.notation.files.read_hands`, in
    ``encoding``; ``None``: UTF-8); each hand is parsed, its ruleset chosen (``ruleset``, or
    its Ruleset tag, with its Options tag) and ``work`` called, here or, with ``jobs`` > 1, in
    worker processes, or by ``runner`` on a Dask cluster (:func:`in_order`): results come back in
    file order either way, and the same. ``work`` gets the :class:`ReadHand` (record, source map, the hand's text) and the
    :class:`~gouji_record.rules.rulesets.Ruleset`, replays the hand as it needs, and returns
    small picklable data (not a :class:`~gouji_record.judging.replay.Replay`: it is large to send back);
    for a hand of a match, a :class:`Judged` (:func:`judged`), which is settled here, in file
    order, with the hand's whole verdict by ``settle``: every command gives the verdict
    ``gouji validate`` gives (:mod:`gouji_record.matches.verdict`). With workers it must itself pickle (a module-level function or a
    :func:`functools.partial` of one), and it must not return a ``Problem``.

    A problem is what stops a hand or a file being read: bad bytes, bad syntax, a bad deal, an
    unknown ruleset or a bad option (at its tag), a file that cannot be opened or holds no hand;
    it quotes its line (``problem.format()`` shows it with a caret). ``stdin`` gives the stream
    read for a path ``-`` (called when that path is reached; without it, ``-`` names a file). Raises :class:`OSError` when the
    workers cannot be started, and whatever ``work`` raises; bad input never raises::

        for out in map_hands(partial(hand_stats, by="seat"), ["a.gjn", "b.gjn"], jobs=2, settle=settle):
            ...  # a Stats, or a Problem
    """

    def items() -> Iterator[HandText | Problem]:
        for path in paths:
            yield from _file_items(path, stdin() if path == "-" and stdin is not None else None, encoding)

    judge, current = MatchJudge(), None
    for results in in_order(partial(_work_on, work, ruleset), items(), jobs, runner):
        for out in results:
            if isinstance(out, Judged):
                assert settle is not None, "a work that returns Judged needs a settle"
                if out.path != current:  # a match goes on in the file it began in only
                    judge.interrupt()
                    current = out.path
                yield settle(out.result, judge.judge(out.replay))
                continue
            judge.interrupt()
            yield out


def _work_on(work: Callable[[ReadHand, Ruleset], T], override: Ruleset | None, item: HandText | Problem) -> list[T | Problem]:
    """:func:`map_hands`' job: one hand cut out of a file parsed, and ``work`` done on each record
    in it (one, unless it cannot be read); or the problem with it, quoting its line."""
    if isinstance(item, Problem):
        return [item]
    hands, problem = parse_hand(item)
    if problem is not None:
        return [_quoted(problem, item)]
    out: list[T | Problem] = []
    for record, where in hands:
        try:
            rules = ruleset_of(record, override)
        except (UnknownRuleset, BadOption) as e:
            out.append(_quoted(ruleset_problem(ReadHand(item, record, where), e), item))
            continue
        done = work(ReadHand(item, record, where), rules)
        if isinstance(done, Judged):
            done.path = item.path
        out.append(done)
    return out


def _quoted(p: Problem, hand: HandText) -> Problem:
    """``p`` with the number of ``hand`` and the line of it ``p`` stands on, to be formatted
    without the hand's text."""
    p = replace(p, hand=hand.index)
    return p if p.source_line is not None else p.quoting(hand.display_lines())


def file_report(p: Problem) -> HandReport:
    """The report of a file (or directory) that cannot be read as a whole, or holds no hand."""
    return HandReport(p.path, 0, p.line, UNREADABLE, p.format(), {"file": p.path, "valid": False, "error": p.as_dict()})
