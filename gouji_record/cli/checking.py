"""Checking records (校验): ``gouji validate`` and ``gouji fmt``."""

from __future__ import annotations

import difflib
import errno
import hashlib
import io
import json
import os
import sys
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import BinaryIO

import click

from ..judging.canonical import canonical
from ..judging.replay import RulesetOverride
from ..judging.report import Problem, printable
from ..notation.writer import write
from ..running.batch import ReadHand, read_records
from ..running.cluster import close as close_client
from ..running.sink import Sink, spool
from .common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    EXIT_UNREADABLE,
    _cluster_runner,
    _fail,
    _no_overwrite,
    _ruleset_for,
    _stdin,
    check_hand_count,
    dask_opt,
    encoding_opt,
    force_opt,
    hand_opt,
    jobs_opt,
    output_opt,
    ruleset_opt,
)


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@ruleset_opt
@click.option("-q", "--quiet", is_flag=True, help="Print only problems.")
@jobs_opt("Check")
@dask_opt
@click.option(
    "--format",
    "fmt_",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: one JSON object per hand on standard output (JSON Lines).",
)
@encoding_opt
@click.option(
    "-r",
    "--recursive",
    is_flag=True,
    help="A FILE that is a directory: check every *.gjn file under it, in its subdirectories too, in path order.",
)
@hand_opt
def validate(
    files: tuple[str, ...],
    override: RulesetOverride | None,
    quiet: bool,
    jobs: int,
    dask_address: str | None,
    fmt_: str,
    encoding: str | None,
    recursive: bool,
    hand_number: int | None,
) -> None:
    """Replay each hand in FILES and check every action against the rules.

    Prints, for a valid hand, the ruleset, places 头科…大落, team scores and
    counts of 够级 plays, 开点 and burns; for the first illegal action of a
    hand, FILE:LINE:COL: error[CODE] with the line, a caret and the rule's
    source. A bad hand does not stop the others. Large files are read hand
    by hand; a progress bar shows on a terminal. FILE - reads standard input;
    with -r a FILE may be a directory. Exit 0 if all is valid, 1 if a rule is
    broken, 2 if a file or a hand cannot be read (the worst over all hands).
    With --dask the hands are checked on a Dask cluster, with the same output.

    --hand N reports only the Nth hand of each FILE (and any hand that cannot be read), and the
    exit status is its own; a hand of a match is still judged within its match, the hands before
    it read and checked, not shown. A FILE with fewer hands is an error (exit 2).
    """
    runner, client = _cluster_runner(dask_address, jobs)
    try:
        status = _validate(files, override, quiet, jobs, runner, fmt_, encoding, recursive, hand_number)
    finally:
        if client is not None:
            close_client(client)
    sys.exit(status)


def _validate(files, override, quiet, jobs, runner, fmt_, encoding, recursive, hand_number=None) -> int:
    """``gouji validate``: print the reports (of hand ``hand_number`` of each file only, if given,
    and of what cannot be read), return the exit status."""
    from ..running.batch import OK, UNREADABLE, check_file, file_report, with_matches
    from ..running.cluster import ClusterError

    status = EXIT_OK
    counts: dict[str, int] = {}  # the hands of each file read, for --hand

    def show(report) -> None:
        nonlocal status
        if report.index:
            counts[report.path] = max(counts.get(report.path, 0), report.index)
        if hand_number is not None and report.index != hand_number and report.status != UNREADABLE:
            return  # another hand: checked (its match's next hand reads it), not shown
        status = max(status, report.status)
        if fmt_ == "json":
            click.echo(json.dumps(report.data, ensure_ascii=False))
        elif report.status != OK:
            click.secho(printable(report.text), fg="red", err=True)
        elif report.text:
            click.echo(printable(report.text))

    for path in _gjn_files(files, recursive):
        if isinstance(path, Problem):
            show(file_report(path))
            continue
        size = 0 if path == "-" else _size(path)
        shown = size > 1 << 20 and sys.stderr.isatty()  # a library's bar, on a terminal only
        bar_context = click.progressbar(length=size, file=sys.stderr, label=Path(path).name) if shown else nullcontext()
        with bar_context as bar:
            reports = with_matches(
                check_file(
                    path,
                    override,
                    jobs=jobs,
                    quiet=quiet,
                    stream=_stdin() if path == "-" else None,
                    progress=bar.update if bar else None,
                    encoding=encoding,
                    runner=runner,
                    details=fmt_ == "json",  # the text output prints none of a valid hand's data
                )
            )
            try:
                for report in reports:
                    show(report)
            except OSError as e:
                if e.errno not in (errno.EAGAIN, errno.ENOMEM):
                    raise
                _fail(Problem(path, 0, 0, "workers", f"cannot start {jobs} worker processes: {e.strerror or e}"))
                status = EXIT_UNREADABLE
            except ClusterError as e:  # only with --dask
                _fail(Problem(path, 0, 0, "cluster", str(e)))
                return EXIT_UNREADABLE
    check_hand_count(counts, hand_number)
    return status


def _gjn_files(paths: tuple[str, ...], recursive: bool) -> Iterator[str | Problem]:
    """``paths`` with each directory among them replaced, when ``recursive``, by the ``*.gjn``
    files under it (symbolic links to directories are not followed), sorted by their paths
    compared name by name; or by the problem that it holds none, or that a directory under
    it cannot be read."""
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            yield path
            continue
        if not recursive:
            yield Problem(path, 0, 0, "unreadable", "is a directory, not a .gjn file: -r checks the .gjn files under it")
            continue
        found: list[tuple[list[str], str | Problem]] = []

        def unreadable(e: OSError) -> None:
            name = e.filename or path
            message = f"cannot read the directory: {e.strerror or e}"
            found.append((name.split(os.sep), Problem(name, 0, 0, "unreadable", message)))

        for root, _, names in os.walk(path, onerror=unreadable):
            found += [((p := os.path.join(root, n)).split(os.sep), p) for n in names if n.endswith(".gjn")]
        if not found:
            yield Problem(path, 0, 0, "empty", "no .gjn file in the directory or under it")
        yield from (item for _, item in sorted(found, key=lambda f: f[0]))


def _size(path: str) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0


def _canonical_text(hand: ReadHand) -> str | Problem:
    """The canonical text of one hand read from a file, or why it has none."""
    if hand.problem is not None:
        return hand.problem
    rules = _ruleset_for(hand, None)
    if isinstance(rules, Problem):
        return rules
    return write(canonical(hand.record, rules))


class _Digest(io.RawIOBase):
    """A byte stream read through, hashing what is read (to compare a file with its canonical form),
    and keeping it when ``keep`` (to show the difference)."""

    def __init__(self, raw: BinaryIO, keep: bool = False) -> None:
        self.raw, self.hash = raw, hashlib.sha256()
        self.kept: bytearray | None = bytearray() if keep else None

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self.hash.update(data)
        if self.kept is not None:
            self.kept += data
        return data


def _print_diff(path: str, old: str, new: str) -> None:
    """A unified diff (difflib's) from ``old``, the text of ``path``, to ``new``, its canonical
    form, on standard output. Lines end where the reader ends them (LF, CRLF or CR); a line end
    that changes shows as the escaped CR left at the end of the old line."""
    lines = difflib.unified_diff(
        list(io.StringIO(old, newline="")),
        list(io.StringIO(new, newline="")),
        fromfile=path,
        tofile=f"{path} (canonical)",
    )
    for line in lines:
        text = line[:-1] if line.endswith("\n") else line
        click.echo(printable(text))
        if not line.endswith("\n"):
            click.echo("\\ No newline at end of file")


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option(
    "--check",
    is_flag=True,
    help="Write no formatted output: name each FILE not in canonical form, and exit 1 if there is one.",
)
@click.option(
    "--diff",
    is_flag=True,
    help="As --check, and print a unified diff of each FILE not in canonical form against that form.",
)
@click.option("--in-place", is_flag=True, help="Rewrite each FILE in canonical form (atomically).")
@output_opt
@force_opt
@encoding_opt
def fmt(
    files: tuple[str, ...],
    check: bool,
    diff: bool,
    in_place: bool,
    output: str | None,
    force: bool,
    encoding: str | None,
) -> None:
    """Print FILES in canonical form: tags in export order, cards sorted
    strongest first, one numbered round per line, lines of at most 80 columns,
    LF line ends. FILE - reads standard input.

    A FILE is never changed unless --in-place is given. A FILE with a hand that
    cannot be read is reported (every such hand, located) and left out of the
    output; the exit status is then 2, and an -o file is not written.

    --diff (with or without --check) writes no file: it prints on standard
    output, for each FILE not in canonical form, a unified diff from the FILE
    to its canonical form (control characters, a CR among them, escaped as
    \x0d), and exits as --check does.
    """
    check = check or diff
    if sum((check, in_place, output is not None)) > 1:
        raise click.UsageError("--check (or --diff), --in-place and --output go one at a time")
    if in_place and "-" in files:
        raise click.UsageError("--in-place rewrites files: standard input (-) cannot be rewritten")
    _no_overwrite(files, output)
    status = EXIT_OK
    with Sink(None if check or in_place else output, force=force) as out:
        first_file = True
        for path in files:
            try:
                raw = _stdin() if path == "-" else open(path, "rb")  # noqa: SIM115
            except OSError:
                raw = None  # read_records says why
            source = _Digest(raw, keep=diff) if raw is not None else None
            digest = hashlib.sha256()
            with spool() as text:
                bad = False
                for n, hand in enumerate(read_records(path, source, encoding)):
                    canon = _canonical_text(hand)
                    if isinstance(canon, Problem):
                        _fail(canon, hand.lines())
                        bad = True
                        continue
                    chunk = ("\n" if n else "") + canon
                    text.write(chunk)
                    digest.update(chunk.encode("utf-8"))
                if raw is not None and path != "-":
                    raw.close()
                if bad:
                    status = EXIT_UNREADABLE
                    continue
                changed = source is None or source.hash.digest() != digest.digest()
                if check:
                    if changed:
                        click.echo(f"{printable(path)}: not in canonical form", err=True)
                        status = max(status, EXIT_ILLEGAL)
                    if changed and diff and source is not None:
                        text.seek(0)
                        _print_diff(path, bytes(source.kept).decode(encoding or "utf-8", "replace"), text.read())
                elif in_place:
                    if changed:
                        with Sink(path, force=force) as rewrite:
                            rewrite.copy_from(text)
                else:
                    if not first_file:
                        out.write("\n")
                    out.copy_from(text)
                    first_file = False
        if status == EXIT_UNREADABLE:
            out.abandon()  # an output file is written only when every input could be read
    sys.exit(status)
