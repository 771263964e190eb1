"""Checking many hands (批量校验): stream a file hand by hand, in parallel if asked.

A file is cut into hands without parsing (:func:`~gouji_record.notation.parser.split_hands`),
so memory stays bounded by the largest hand, one bad hand is reported while
the others are still checked, and hands can be checked in worker processes
(``jobs``) while the reports come back in file order.
"""

from __future__ import annotations

import multiprocessing
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from .notation.parser import NotationError, normalize_newlines, parse_text, split_hands
from .replay import replay, ruleset_of
from .report import Problem, diagnostic_problem, summary
from .rules.events import Diagnostic
from .rules.rulesets import BadOption, UnknownRuleset

#: Exit statuses (docs/notation.md): valid, a rule broken, unreadable.
OK, ILLEGAL, UNREADABLE = 0, 1, 2
#: Hands handed to the workers at a time; bounds memory with ``jobs`` > 1.
BATCH = 256


class LinesFrom(list):
    """The lines of a hand cut out of a file, indexed by their line numbers in the file (0-based):
    ``lines[n - 1]`` is file line ``n``. Lines before the hand read as empty."""

    def __init__(self, first_line: int, lines: list[str]) -> None:
        super().__init__(lines)
        self.offset = first_line - 1

    def __len__(self) -> int:
        return self.offset + super().__len__()

    def __getitem__(self, index):  # type: ignore[override]
        i = index - self.offset
        return super().__getitem__(i) if i >= 0 else ""


@dataclass
class HandReport:
    """The outcome for one hand (or one unreadable stretch of a file).

    ``status`` is :data:`OK`, :data:`ILLEGAL` or :data:`UNREADABLE`; ``text``
    is what a person reads (a summary, or a located error); ``data`` is the
    same as JSON-ready data.
    """

    path: str
    index: int
    line: int
    status: int
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    source: str = ""


def _problem_data(p: Problem) -> dict[str, Any]:
    return {
        "code": p.code,
        "message": p.message,
        "line": p.line or None,
        "column": p.column or None,
        "rule": p.rule or None,
    }


def check_hand(
    path: str, index: int, first_line: int, text: str, ruleset_name: str | None, quiet: bool = False
) -> HandReport:
    """Parse and replay the hand ``text`` (which starts at ``first_line`` of ``path``).

    Never raises for bad input: the report says what was wrong, located in the file.
    """
    lines = LinesFrom(first_line, normalize_newlines(text).split("\n"))
    base = {"file": path, "hand": index, "line": first_line}
    try:
        hands = parse_text(text, first_line)
    except NotationError as e:
        p = Problem(path, e.line, e.column, e.code, e.message)
        return HandReport(
            path, index, first_line, UNREADABLE, p.format(lines), base | {"valid": False, "error": _problem_data(p)}
        )
    reports = []
    for record, where in hands:
        try:
            rules = ruleset_of(record, ruleset_name)
        except (UnknownRuleset, BadOption) as e:
            tag = "Ruleset" if isinstance(e, UnknownRuleset) else "Options"
            code = "unknown-ruleset" if tag == "Ruleset" else "bad-option"
            p = Problem(path, *where.tags[tag], code, str(e))
            reports.append(
                HandReport(
                    path,
                    index,
                    first_line,
                    UNREADABLE,
                    p.format(lines),
                    base | {"valid": False, "error": _problem_data(p)},
                )
            )
            continue
        result = replay(record, rules, every_position=False)
        data = base | {"event": record.tags.get("Event"), "ruleset": rules.name}
        source = ""
        if record.tags.get("Match"):  # the match checks (with_matches) read the hand again
            data["match"], source = record.tags["Match"], text
        if result.diagnostic is not None:
            p = diagnostic_problem(path, result.diagnostic, where, lines)
            reports.append(
                HandReport(
                    path,
                    index,
                    first_line,
                    ILLEGAL,
                    p.format(lines),
                    data | {"valid": False, "error": _problem_data(p) | {"source": result.diagnostic.source}},
                    source,
                )
            )
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
        }
        text_out = "" if quiet else summary(path, index, result)
        reports.append(HandReport(path, index, first_line, OK, text_out, data, source))

    if not reports:
        p = Problem(path, first_line, 1, "empty", 'no hand in the file: expected tags like [Event "…"]')
        return HandReport(
            path, index, first_line, UNREADABLE, p.format(lines), base | {"valid": False, "error": _problem_data(p)}
        )
    if len(reports) == 1:
        return reports[0]
    worst = max(reports, key=lambda r: r.status)  # a stretch that parsed as several hands (rare)
    return HandReport(path, index, first_line, worst.status, "\n".join(r.text for r in reports if r.text), worst.data)


def _event_counts(result) -> dict[str, int]:
    counts: dict[str, int] = {}
    for e in result.events:
        counts[e.kind.value] = counts.get(e.kind.value, 0) + 1
    counts.pop("round-end", None)
    return counts


def _read_lines(path: str, stdin_bytes: Iterable[bytes] | None = None) -> Iterator[str]:
    """The file's lines, decoded; raises :class:`EncodingProblem` at the first byte that is not UTF-8."""
    source = stdin_bytes if stdin_bytes is not None else Path(path).open("rb")
    try:
        for number, raw in enumerate(source, start=1):
            try:
                line: str | None = raw.decode("utf-8")
            except UnicodeDecodeError:  # a UTF-16 byte-order mark is not UTF-8 either
                line = None
            if line is None or "\x00" in line:  # decoded once; encoding_problem says what is wrong
                raise EncodingProblem(encoding_problem(path, raw, number))  # type: ignore[arg-type]
            yield line
    finally:
        if stdin_bytes is None:
            source.close()  # type: ignore[union-attr]


def encoding_problem(path: str, raw: bytes, line: int = 1) -> Problem | None:
    """Why ``raw`` (a line, or a whole file) is not UTF-8 text, located; ``None`` if it is."""
    if line == 1 and raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return Problem(path, 1, 1, "encoding", "UTF-16 text: save the file as UTF-8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        head = raw[: e.start]
        at_line = line + head.count(b"\n")
        column = len(head[head.rfind(b"\n") + 1 :].decode("utf-8", errors="replace")) + 1
        return Problem(
            path,
            at_line,
            column,
            "encoding",
            f"not UTF-8 text: byte 0x{raw[e.start]:02x} cannot start a UTF-8 character "
            "(is the file GB18030/GBK? save it as UTF-8)",
        )
    nul = text.find("\x00")
    if nul >= 0:
        head = text[:nul]
        return Problem(
            path,
            line + head.count("\n"),
            nul - (head.rfind("\n") + 1) + 1,
            "encoding",
            "byte 0x00 (NUL): this is not a text file",
        )
    return None


class EncodingProblem(Exception):
    """A file that is not UTF-8; carries the located :class:`~gouji_record.report.Problem`."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.message)
        self.problem = problem


def with_matches(reports: Iterable[HandReport]) -> Iterator[HandReport]:
    """Add the match checks to the reports of hands that belong to a match (a ``Match`` tag):
    tribute owed by the hand before and paid in this one, first lead, running score. Keeps only
    the previous hand of the current match in memory."""
    from .match import check_match

    current: str | None = None
    previous = None
    number, totals = 0, {1: 0, 0: 0}
    for report in reports:
        name = report.data.get("match")
        if not name or report.status == UNREADABLE:
            current, previous = None, None
            yield report
            continue
        record, where = parse_text(report.source, report.line)[0]
        replayed = replay(record, ruleset_of(record))
        if current != name:
            number, totals, previous = 0, {1: 0, 0: 0}, None
        number += 1
        entry = check_match([previous, replayed] if previous is not None else [replayed])[-1]
        if replayed.score is not None:
            totals = {t: totals[t] + replayed.score.teams[t] for t in totals}
        tag = record.tags.get("Hand")
        if tag is not None and tag.strip() != str(number):
            entry.diagnostics.append(
                Diagnostic(
                    code="hand-missing",
                    action=None,
                    rule="match-score",
                    source=replayed.ruleset.cite("match-score"),
                    message=f'[Hand "{tag}"] is hand {number} of match {name!r}: a hand is missing or out of order',
                )
            )
        lines = LinesFrom(report.line, normalize_newlines(report.source).split("\n"))
        problems = [
            diagnostic_problem(report.path, d, where, lines)
            if d.action is not None
            else Problem(
                report.path, *where.tags.get("Hand", where.start), d.code, d.message, rule=f"{d.rule} — {d.source}"
            )
            for d in entry.diagnostics
        ]
        if problems:
            report.status = max(report.status, ILLEGAL)
            report.text = "\n".join(p.format(lines) for p in problems) + ("\n" + report.text if report.text else "")
            report.data["valid"] = False
            report.data["match_errors"] = [_problem_data(p) for p in problems]
        if report.text and report.status == OK:
            extra = ["  tribute: " + "; ".join(entry.notes)] if entry.notes else []
            extra.append(f"  match {name!r} after hand {number}: team 1-3-5 {totals[1]}, team 2-4-6 {totals[0]}")
            report.text = "\n".join([report.text, *extra])
        report.data |= {
            "tribute": entry.notes,
            "match_hand": number,
            "standings": {"1-3-5": totals[1], "2-4-6": totals[0]},
        }
        current, previous = name, replayed
        yield report


def _line_for_caret(path: str, line: int, from_stdin: bool) -> list[str] | None:
    """The file's lines up to ``line``, decoded leniently, to show under an encoding error."""
    if from_stdin:
        return None
    try:
        with Path(path).open("rb") as f:
            return [raw.decode("utf-8", errors="replace").rstrip("\r\n") for raw in islice(f, line)]
    except OSError:
        return None


def _job(args: tuple) -> HandReport:
    return check_hand(*args)


def check_file(
    path: str,
    ruleset_name: str | None = None,
    jobs: int = 1,
    quiet: bool = False,
    stdin_bytes: Iterable[bytes] | None = None,
    progress=None,
) -> Iterator[HandReport]:
    """Check every hand of ``path`` (``-`` with ``stdin_bytes`` for standard input), in file order.

    ``jobs`` > 1 checks hands in that many worker processes. ``progress``, if
    given, is called with the number of bytes of each hand read. Yields one
    :class:`HandReport` per hand, and one for an unreadable file.
    """

    def hands() -> Iterator[tuple]:
        for index, (first, text) in enumerate(split_hands(_read_lines(path, stdin_bytes)), start=1):
            if progress is not None:
                progress(len(text.encode("utf-8")))
            yield (path, index, first, text, ruleset_name, quiet)

    try:
        any_hand = False
        if jobs <= 1:
            for args in hands():
                any_hand = True
                yield check_hand(*args)
        else:
            with multiprocessing.Pool(jobs) as pool:
                stream = hands()
                pending: deque = deque()  # batches in flight: the next is queued while one is read
                while True:
                    while len(pending) < 2 and (batch := list(islice(stream, BATCH))):
                        pending.append(pool.map_async(_job, batch, chunksize=max(1, len(batch) // (4 * jobs))))
                    if not pending:
                        break
                    any_hand = True
                    yield from pending.popleft().get()
        if not any_hand:
            p = Problem(path, 1, 1, "empty", 'no hand in the file: expected tags like [Event "…"]')
            yield HandReport(
                path, 0, 1, UNREADABLE, p.format(), {"file": path, "valid": False, "error": _problem_data(p)}
            )
    except OSError as e:
        what = (
            "is a directory, not a .gjn file"
            if isinstance(e, IsADirectoryError)
            else f"cannot read the file: {e.strerror or e}"
        )
        p = Problem(path, 0, 0, "unreadable", what)
        yield HandReport(path, 0, 0, UNREADABLE, p.format(), {"file": path, "valid": False, "error": _problem_data(p)})
    except EncodingProblem as e:
        shown = _line_for_caret(path, e.problem.line, stdin_bytes is not None)
        yield HandReport(
            path,
            0,
            e.problem.line,
            UNREADABLE,
            e.problem.format(shown),
            {"file": path, "valid": False, "error": _problem_data(e.problem)},
        )
