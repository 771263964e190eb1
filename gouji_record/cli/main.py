"""The ``gouji`` command line (命令行).

Exit codes, the same for every sub-command: 0 all is well; 1 a record is
readable but breaks the rules (an illegal action, a Result that disagrees
with the play) or ``fmt --check`` found a file not in canonical form; 2 a
file cannot be read (missing, not UTF-8, bad syntax, bad deal, unknown
ruleset) or the command line is wrong.
"""

from __future__ import annotations

import difflib
import errno
import hashlib
import io
import json
import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import BinaryIO, Callable, TypeVar

import click
from pydantic import BaseModel

from ..running.batch import MAX_JOBS, ReadHand, located, map_hands, read_records
from ..judging.canonical import canonical
from .common import (
    EXIT_ILLEGAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_UNREADABLE,
    _CommandLineError,
    _fail,
    _json,
    _one_hand,
    _records,
    _ruleset_for,
    _ruleset_option,
    _stdin,
    encoding_opt,
    file_arg,
    format_opt,
    _with_options,
    option_opt,
    ruleset_opt,
)
from .events import events
from ..matches.verdict import MatchJudge
from .show import show
from ..model import GameRecord
from ..notation.files import decode
from ..notation.build import NotationError
from ..notation.writer import write, write_all
from ..judging.replay import Replay, RulesetOverride, replay
from ..width import columns
from ..judging.report import Problem, diagnostic_problem, printable
from ..cards import CardError
from ..rules.plays import PlayError, parse_play
from ..running.sink import OutputError, Sink, same_file, spool
from ..rules.rulesets import (
    OPTION_NAMES,
    PRESETS,
    RULES,
    Ruleset,
    get_ruleset,
    option_rule,
    option_text,
    options_tag,
)

T = TypeVar("T")


def _each_hand(
    work: Callable[[ReadHand, Ruleset], T],
    files: Iterable[str],
    encoding: str | None,
    override: Ruleset | None,
    jobs: int,
    bad: list[bool],
    runner=None,
    settle=None,
) -> Iterator[T]:
    """``work`` on each hand of ``files`` that can be read, in file order, done in ``jobs`` worker
    processes when more than 1, or by ``runner`` on a Dask cluster
    (:func:`gouji_record.running.batch.map_hands`, which ``settle`` completes with each match hand's
    verdict); a hand that cannot be read, or names a ruleset that is not, is reported and marked
    in ``bad``. Exit 2 when the workers cannot be started, or the
    cluster fails."""
    from ..running.cluster import ClusterError

    try:
        for out in map_hands(
            work, files, ruleset=override, jobs=jobs, encoding=encoding, stdin=_stdin, runner=runner, settle=settle
        ):
            if isinstance(out, Problem):
                _fail(out)
                bad.append(True)
                continue
            yield out
    except ClusterError as e:  # only with --dask
        _fail(Problem(next(iter(files), "-"), 0, 0, "cluster", str(e)))
        sys.exit(EXIT_UNREADABLE)
    except OSError as e:
        if e.errno not in (errno.EAGAIN, errno.ENOMEM):
            raise
        where = next(iter(files), "-")
        _fail(Problem(where, 0, 0, "workers", f"cannot start {jobs} worker processes: {e.strerror or e}"))
        sys.exit(EXIT_UNREADABLE)


class _Group(click.Group):
    """The ``gouji`` group: Ctrl-C exits 130 as shells expect, and an output that cannot be
    written (a full disk, a closed pipe) is one line on standard error, never a traceback."""

    def invoke(self, ctx: click.Context):
        if sys.stdout is None:  # the shell closed it (`gouji … >&-`): writing to it is an error
            sys.stdout = _ClosedOutput()
        try:
            result = super().invoke(ctx)
            sys.stdout.flush()
            return result
        except KeyboardInterrupt:
            raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
        except OutputError as e:
            _quiet_stdout()
            _fail(Problem(e.path, 0, 0, "unwritable", e.message))
            raise click.exceptions.Exit(EXIT_UNREADABLE) from None
        except BrokenPipeError:  # the reader went away (`gouji fmt f | head`): nothing more to say
            _quiet_stdout()
            raise click.exceptions.Exit(EXIT_UNREADABLE) from None
        except OSError as e:
            if e.errno not in (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF):
                raise
            _quiet_stdout()
            _fail(Problem("-", 0, 0, "unwritable", f"cannot write to standard output: {e.strerror}"))
            raise click.exceptions.Exit(EXIT_UNREADABLE) from None


class _ClosedOutput(io.TextIOBase):
    """Standard output when the shell closed it: every write fails as writing to a closed
    descriptor does."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "it is closed")

    def flush(self) -> None:
        pass


def run() -> None:
    """The ``gouji`` console script: :func:`main`, with help and version text that cannot be
    written (``gouji --help >/dev/full``) said in one line, exit 2, as every command does."""
    try:
        main()
    except OSError as e:
        _quiet_stdout()
        _fail(Problem("-", 0, 0, "unwritable", f"cannot write to standard output: {e.strerror or e}"))
        sys.exit(EXIT_UNREADABLE)


def _quiet_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last flush cannot fail again."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gouji-record")
def main() -> None:
    """Record, check and replay hands of 够级 (Gouji).

    Records are .gjn files (docs/notation.md), UTF-8 text: --encoding NAME
    reads one saved in another encoding (gb18030, gbk, big5 …), and a FILE
    named - is standard input. Exit codes: 0 valid, 1 a rule is broken, 2 a
    file cannot be read or the command line is wrong.
    """


def preset_opt(what: str) -> Callable:
    """``--ruleset NAME`` for a command that reads no record: ``what`` it is used for."""
    return click.option(
        "--ruleset", "ruleset_name", metavar="NAME", help=f"{what} ({', '.join(PRESETS)}; default charter)."
    )


def jobs_opt(verb: str) -> Callable:
    """``-j N``/``--jobs N``: ``verb`` (Check, Count, Pick) hands in N worker processes."""
    return click.option(
        "-j",
        "--jobs",
        type=click.IntRange(1, MAX_JOBS),
        default=1,
        show_default=True,
        help=f"{verb} hands in this many worker processes (at most {MAX_JOBS}); the output is the same, in file order.",
    )


dask_opt = click.option(
    "--dask",
    "dask_address",
    metavar="ADDRESS",
    help="Replay hands on the workers of the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786), "
    "in batches: the same output as --jobs. Needs the archives extra (docs/archives.md).",
)


def _extra(what: str, *modules: str) -> None:
    """Exit 2 with one line naming the extra to install when ``modules`` cannot be imported."""
    from ..running.extras import EXTRA, MissingExtra, need

    try:
        need(*modules)
    except MissingExtra as e:
        raise _CommandLineError(f"{what} needs {e.module}, which is not installed: {EXTRA}") from None


def _cluster_runner(address: str | None, jobs: int):
    """The runner of the Dask cluster at ``address`` (``None``: no cluster), and its client to
    close; exit 2 with one line when the extra is missing, ``--jobs`` is given too, or no
    scheduler answers."""
    if address is None:
        return None, None
    if jobs > 1:
        raise click.UsageError("--dask and --jobs go one at a time: the cluster's workers check the hands")
    _extra("--dask", "distributed")
    from ..running.cluster import ClusterError, connect, on_cluster

    try:
        client = connect(address)
    except ClusterError as e:
        _fail(Problem(address, 0, 0, "cluster", str(e)))
        sys.exit(EXIT_UNREADABLE)
    return on_cluster(client), client


@main.command()
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
def validate(
    files: tuple[str, ...],
    override: RulesetOverride | None,
    quiet: bool,
    jobs: int,
    dask_address: str | None,
    fmt_: str,
    encoding: str | None,
    recursive: bool,
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
    """
    runner, client = _cluster_runner(dask_address, jobs)
    try:
        status = _validate(files, override, quiet, jobs, runner, fmt_, encoding, recursive)
    finally:
        if client is not None:
            client.close()
    sys.exit(status)


def _validate(files, override, quiet, jobs, runner, fmt_, encoding, recursive) -> int:
    """``gouji validate``: print the reports, return the exit status."""
    from ..running.batch import OK, check_file, file_report, with_matches
    from ..running.cluster import ClusterError

    status = EXIT_OK

    def show(report) -> None:
        nonlocal status
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


def _no_overwrite(inputs: tuple[str, ...], output: str | None) -> None:
    if output and any(same_file(i, output) for i in inputs):
        raise click.UsageError(f"-o {output} is an input file: it would be overwritten")


force_opt = click.option("--force", is_flag=True, help="Replace an output file even if it is read-only.")
output_opt = click.option(
    "-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), help="Write to this file, not standard output."
)


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


@main.command()
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


@main.command()
@file_arg
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="The HTML file to write (- for standard output). Default: FILE's name with .html for its "
    "suffix, beside it (hand.gjn: hand.html); standard output when FILE is -.",
)
@ruleset_opt
@click.option(
    "--hand",
    "hand_number",
    type=click.IntRange(min=1),
    default=None,
    help="Render only this hand of FILE (1 is the first). Default: every hand.",
)
@click.option(
    "--lang",
    type=click.Choice(["zh", "en"]),
    default="zh",
    show_default=True,
    help="The page's language at opening (中文 or English); the page has a toggle.",
)
@click.option(
    "--seat",
    type=click.IntRange(0, 6),
    default=0,
    show_default=True,
    help="The view at opening: 0 shows every hand face up, 1-6 only that seat's own hand.",
)
@click.option(
    "--review",
    "reviewed",
    is_flag=True,
    help="Add a timeline lane with the findings of gouji review: burns not taken, answers not made, "
    "openings missed, yields, 3s and 闷 (点评).",
)
@force_opt
@encoding_opt
def render(
    file: str,
    output: str | None,
    override: RulesetOverride | None,
    hand_number: int | None,
    lang: str,
    seat: int,
    reviewed: bool,
    force: bool,
    encoding: str | None,
) -> None:
    """Render FILE as one self-contained HTML replay page.

    Every hand of FILE goes into the one page, with a hand selector at the
    top when there are several (--hand N renders only hand N). The page
    inlines its style and script and makes no network request: open it from
    disk, on a phone or a desktop. It shows the table, the current round, the
    actions with their comments, a timeline of events citing their rules and
    a chart of cards left; 中文 / English and the seat view are toggles.

    Keys: ← → step, Home/End, space autoplays, n/p jump to the next/previous
    event. Deep links: hand.html#a=57 opens at action 57 (#h=2&a=57 in hand 2
    of several); the address follows as you step.

    A hand with an illegal action replays up to it, marks it and shows the
    diagnostic with its rule's source; the command says so on standard error
    (exit status 0: the page was written). FILE - reads standard input.
    """
    from ..render.html import render_replays

    if output is None:
        output = "-" if file == "-" else str(_html_beside(file))
        if file != "-" and same_file(file, output):  # hand.html given as FILE: never written over
            raise click.UsageError(f"{file} ends in .html: the page would overwrite it; give -o")
    _no_overwrite((file,), output)

    unreadable = []

    def hands() -> Iterator[tuple[Replay, Problem | None]]:
        """Each hand replayed as it is read: the page holds one hand at a time. A hand that
        cannot be read is reported and left out (the page is then not written)."""
        count = 0
        for hand in _records(file, encoding=encoding):
            if hand.hand is not None:
                count = hand.hand.index
            if hand_number is not None and hand.hand is not None and count != hand_number:
                continue
            rules = hand.problem or _ruleset_for(hand, override)
            if isinstance(rules, Problem):
                _fail(rules, hand.lines())
                unreadable.append(rules)
                continue
            result = replay(hand.record, rules)
            problem = None
            if result.diagnostic is not None:
                lines = hand.lines()
                problem = diagnostic_problem(Path(file).name, result.diagnostic, hand.where, lines).quoting(lines)
                click.secho(printable(f"note: the replay stops at an illegal action\n{problem.format()}"), err=True)
            yield result, problem
        if hand_number is not None and count < hand_number:
            raise click.BadParameter(f"{file} has {count} hand(s)", param_hint="--hand")

    with Sink(output, force=force) as out:
        try:
            render_replays(hands(), lang=lang, seat=seat, review=reviewed, out=out)
        except ValueError:
            if not unreadable:
                raise
            # nothing to render: every hand was unreadable, and each was reported
        if unreadable:
            out.abandon()
    if unreadable:
        sys.exit(EXIT_UNREADABLE)


def _html_beside(file: str) -> Path:
    """The page ``render`` writes for ``file`` when no ``-o`` is given: beside it, its suffix
    made ``.html`` (``a/hand.gjn`` → ``a/hand.html``, ``hand`` → ``hand.html``)."""
    path = Path(file)
    return path.with_suffix(".html") if path.suffix else path.with_name(path.name + ".html")


@main.command()
@click.argument("name", required=False)
@format_opt
def rules(name: str | None, fmt_: str) -> None:
    """Show the rulesets: every option with its value in each preset and its source.

    With NAME, only that preset. Options are overridden in a record with a
    tag like [Options "threes-held=yes, hand-end=one-left"] (docs/rules.md).
    """
    presets = [_ruleset_option(name, hint="NAME")] if name else list(PRESETS.values())
    assert all(presets)
    if fmt_ == "json":
        _json(
            [
                {
                    "name": r.name,
                    "title": r.title,
                    "text": r.text_name,
                    "options": {
                        o.replace("_", "-"): {
                            "value": getattr(r, o).model_dump() if o == "scoring" else getattr(r, o),
                            "rule": option_rule(o),
                            "source": r.cite(option_rule(o)),
                        }
                        for o in OPTION_NAMES
                    },
                    "sources": {k: r.cite(k) for k in r.sources},
                }
                for r in presets
            ]
        )
        return
    for r in presets:
        click.echo(f"{r.name}: {r.title}")
    click.echo("")
    width = max(len(o) for o in OPTION_NAMES) + 1
    for o in OPTION_NAMES:
        desc = Ruleset.model_fields[o].description or ""
        click.secho(f"{o.replace('_', '-'):<{width}} {desc}", bold=True)
        for r in presets:
            value = getattr(r, o)
            shown = _show_value(value)
            click.echo(f"  {r.name:<11} {shown:<28} {r.cite(option_rule(o))}")


def _show_value(value: object) -> str:
    if not isinstance(value, BaseModel):
        return option_text(value)  # as an Options tag writes it
    d = value.model_dump()  # scoring
    extras = {k: v for k, v in d.items() if k not in {"places", "sweep", "positive_only"} and v}
    text = f"{'/'.join(map(str, d['places']))} sweep {d['sweep'][0]}/{d['sweep'][1]}"
    text += " positive-only" if d["positive_only"] else ""
    return text + "".join(
        f" {k}{v:+d}" if isinstance(v, int) and not isinstance(v, bool) else f" {k}" for k, v in extras.items()
    )


@main.command(short_help="Whether PLAY beats TOP, and why: gouji beats X77 D88.")
@click.argument("top")
@click.argument("play")
@preset_opt("The ruleset to compare the plays under")
@option_opt
@format_opt
def beats(top: str, play: str, ruleset_name: str | None, options: tuple[str, ...], fmt_: str) -> None:
    """Whether PLAY beats TOP (e.g. `gouji beats X77 D88`), and why.

    Says which rule decides and its source, and whether each play is a 够级
    play (and a pure one). A play the engine would refuse whatever the hand
    (2s or jokers on 3s or 4s where they carry nothing) cannot be played: the
    answer is no, with that rule. Exit 0 when PLAY beats TOP, 1 when not, 2
    when a play is malformed. The ruleset defaults to charter.
    """
    from ..rules.plays import beats as beats_, is_gouji, is_pure_gouji, shape_error

    rules = _with_options(_ruleset_option(ruleset_name) or get_ruleset("charter"), options)
    parsed = []
    for label, text in (("TOP", top), ("PLAY", play)):
        try:
            parsed.append(parse_play(text))
        except (CardError, PlayError) as e:
            click.secho(f"{label} {text!r}: {e}", fg="red", err=True)
            sys.exit(EXIT_UNREADABLE)
    a, b = parsed
    faults = {key: shape_error(p, rules) for key, p in (("top", a), ("play", b))}
    fault = faults["top"] or faults["play"]
    if fault is not None:  # the engine's own shape check: such a play is never made
        which = a if faults["top"] else b
        ok, rule, reason = False, fault[1], f"{which} cannot be played: {fault[2]}"
    else:
        verdict = beats_(a, b, rules)
        ok, rule, reason = verdict.ok, verdict.rule, verdict.reason

    def about(p, key: str) -> dict[str, object]:
        playable = faults[key] is None
        return {
            "cards": str(p),
            "playable": playable,
            "gouji": playable and is_gouji(p, rules),
            "pure": playable and is_pure_gouji(p, rules),
        }

    info = {
        "ruleset": rules.name,
        "options": options_tag(rules),
        "top": about(a, "top"),
        "play": about(b, "play"),
        "beats": ok,
        "rule": rule,
        "reason": reason,
        "source": rules.cite(rule),
    }
    if fmt_ == "json":
        _json(info)
    else:
        changed = options_tag(rules)
        click.echo(f"{'yes' if ok else 'no'}: {reason} ({rules.name}{' with ' + changed if changed else ''})")
        click.echo(f"  rule: {RULES[rule][0]} ({RULES[rule][1]}) — {info['source']}")
        for key in ("top", "play"):
            p = info[key]
            if not p["playable"]:
                kind = "cannot be played"
            else:
                kind = "pure 够级 play" if p["pure"] else "够级 play" if p["gouji"] else "not a 够级 play"
            click.echo(f"  {p['cards']}: {kind}")
    sys.exit(EXIT_OK if ok else EXIT_ILLEGAL)


@main.command()
@file_arg
@click.option(
    "--at",
    "at",
    type=click.IntRange(min=0),
    required=True,
    help="After this many actions (pre-play declarations count; 0 = before the first).",
)
@click.option(
    "--hand", "hand_number", type=click.IntRange(min=1), default=1, show_default=True, help="Which hand of FILE."
)
@click.option("--seat", type=click.IntRange(1, 6), help="Only this seat's actions.")
@ruleset_opt
@format_opt
@encoding_opt
def moves(
    file: str, at: int, hand_number: int, seat: int | None, override: RulesetOverride | None, fmt_: str, encoding: str | None
) -> None:
    """List the legal actions after action N of a hand: the seat to act's
    plays, pass and yield, and the burns other seats could claim, in claim
    order — "could seat 4 have burned here?" answered by the rules.

    Plays that need cards the deal does not give (?N) are listed by kind:
    `5:*?2` is any burn of two cards by seat 5 that uses some of them, `4:?3`
    any follow of three, `1:?` any lead, each with an example the engine
    accepts. FILE - reads standard input.
    """
    from ..model import Action
    from ..rules.moves import HiddenPlays, legal_actions

    hand, result = _one_hand(file, hand_number, override, encoding)
    total = len(hand.record.all_actions)
    if at > total:
        raise click.BadParameter(f"the hand has {total} actions", param_hint="--at")
    if at >= len(result.positions):
        lines = hand.lines()
        problem = diagnostic_problem(file, result.diagnostic, hand.where, lines) if result.diagnostic else None
        click.secho(f"action {len(result.positions)} is illegal: the replay stops there", fg="red", err=True)
        if problem:
            _fail(problem, lines)
        sys.exit(EXIT_ILLEGAL)
    pos = result.positions[at]
    actions = legal_actions(pos, seat)
    examples = {a.text: a.example.text for a in actions if isinstance(a, HiddenPlays)}
    if fmt_ == "json":
        _json(
            {
                "after": at,
                "to_act": pos.to_act,
                "round": pos.round,
                "top": None if pos.top is None else {"seat": pos.top.seat, "cards": str(pos.top.play)},
                "actions": [a.text for a in actions],
                "examples": examples,
            }
        )
        return
    if pos.over:
        click.echo(f"after action {at}: the hand is over")
        return
    top = f"top {pos.top.play} by seat {pos.top.seat}" if pos.top else "a new round: the seat to act leads"
    click.echo(f"after action {at}: round {pos.round}, {top}; seat {pos.to_act} to act")

    def shown(a: object) -> str:
        text = a.text  # type: ignore[attr-defined]
        return f"{text} (e.g. {examples[text]})" if text in examples else text

    declared = [shown(a) for a in actions if isinstance(a, Action) and a.kind.preplay]
    if declared:
        click.echo("  before play: " + " ".join(declared))
    own: dict[int, list[str]] = {pos.to_act if seat is None else seat: []}  # type: ignore[dict-item]
    by_seat: dict[int, list[str]] = {}
    for a in actions:
        if not (isinstance(a, Action) and a.kind.preplay):
            (by_seat if a.burn else own).setdefault(a.seat, []).append(shown(a))
    for n, (s, texts) in enumerate(own.items()):
        smothered = any(m == pos.to_act for m, _ in pos.maybe_smothered)
        why = "it was smothered: its hidden cards may all be 3s" if smothered else "its hidden cards may hold no two big jokers"
        if_none = f", if seat {pos.to_act} has no turn ({why})" if n else ""
        click.echo(f"  seat {s}{if_none}: " + (" ".join(texts) or "nothing"))
    for s, texts in by_seat.items():
        click.echo(f"  burn by seat {s}: " + " ".join(texts))
    if pos.top is not None and not by_seat and seat is None:
        click.echo("  no seat can burn")


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option(
    "--format",
    "fmt_",
    type=click.Choice(["json", "parquet"]),
    default="json",
    show_default=True,
    help="json: one object per hand (JSON Lines), the record model; `gouji schema` describes it. "
    "parquet: OUT_DIR FILES…: three tables (hands, actions, events) in the new directory OUT_DIR "
    "(docs/archives.md; needs the archives extra).",
)
@output_opt
@click.option(
    "--force",
    is_flag=True,
    help="Replace an output file even if it is read-only; with --format parquet, replace OUT_DIR if it exists.",
)
@click.option(
    "--with-verdict",
    "with_verdict",
    is_flag=True,
    help="json: add to each hand its verdict (valid, problems, places, scores) and its events, as `gouji "
    "validate` and `gouji events --format json` give them: derived data, which `gouji import` ignores.",
)
@encoding_opt
@jobs_opt("Replay")
@dask_opt
def export(
    files: tuple[str, ...],
    fmt_: str,
    output: str | None,
    force: bool,
    with_verdict: bool,
    encoding: str | None,
    jobs: int,
    dask_address: str | None,
) -> None:
    """Export the hands of FILES as JSON, one object per hand; `gouji import` reads it back with no loss.

    Reads hand by hand (memory bounded by the largest hand). A FILE with a hand that cannot be
    read is reported (every such hand, located) and left out; the exit status is then 2, and an
    -o file is not written. FILE - reads standard input.

    \b
    --format parquet OUT_DIR FILES… replays every hand and writes three Parquet tables in the new
    directory OUT_DIR: hands.parquet, actions.parquet, events.parquet (docs/archives.md), written
    whole or not at all, in row groups as hands stream through; --jobs or --dask replay them
    elsewhere, the tables the same. A hand that cannot be read is reported, located, and left
    out, the rest written, exit status 2; a hand with an illegal action is written (valid false).
    """
    if fmt_ == "parquet":
        if with_verdict:
            raise click.UsageError("--with-verdict goes with --format json (the Parquet tables hold the verdict)")
        _export_parquet(files, output, force, encoding, jobs, dask_address)
    if jobs > 1 or dask_address is not None:
        raise click.UsageError("--jobs and --dask go with --format parquet")
    _no_overwrite(files, output)
    status = EXIT_OK
    with Sink(output, force=force) as out:
        for path in files:
            with spool() as text:
                bad = False
                judge = MatchJudge()
                for hand in _records(path, encoding=encoding):
                    problem = hand.problem or _ruleset_for(hand, None)  # as import will ask
                    if isinstance(problem, Problem):
                        _fail(problem, hand.lines())
                        bad = True
                        judge.interrupt()
                    elif not bad:
                        data = hand.record.model_dump(mode="json")
                        if with_verdict:
                            data |= _verdict_data(hand, judge, problem)
                        text.write(json.dumps(data, ensure_ascii=False) + "\n")
                if bad:
                    status = EXIT_UNREADABLE
                else:
                    out.copy_from(text)
        if status == EXIT_UNREADABLE:
            out.abandon()  # an output file is written only when every input could be read
    sys.exit(status)


def _verdict_data(hand: ReadHand, judge, rules: Ruleset) -> dict:
    """``{"verdict": …, "events": […]}`` of ``hand`` for ``export --with-verdict``: the verdict
    as ``validate --format json`` gives it and the events as ``events --format json`` lists
    them (the same rows: :func:`~gouji_record.cli.events.event_rows`)."""
    from .events import diagnostic_row, event_rows, tribute_kinds

    kinds = tribute_kinds(judge, hand.record, rules)
    judged = judge.judge(replay(hand.record, rules, every_position=False))
    result = judged.replay
    score = result.score
    verdict = {
        "valid": judged.valid,
        "problems": [diagnostic_row(hand, result, d) for d in judged.diagnostics],
        "complete": result.complete,
        "places": list(result.places) if result.final.over else None,
        "scores": {"1-3-5": score.teams[1], "2-4-6": score.teams[0]} if score else None,
    }
    return {"verdict": verdict, "events": event_rows(hand, result, kinds)}


def _export_parquet(
    args: tuple[str, ...], output: str | None, force: bool, encoding: str | None, jobs: int, dask_address: str | None
) -> None:
    """``gouji export --format parquet OUT_DIR FILES…``: exits."""
    if output is not None:
        raise click.UsageError("--format parquet writes the directory given first (OUT_DIR FILES…), not -o")
    if len(args) < 2:
        raise click.UsageError("--format parquet takes OUT_DIR, then the FILES to export")
    out_dir, files = args[0], args[1:]
    if out_dir == "-":
        raise click.UsageError("--format parquet writes a directory: OUT_DIR cannot be - (standard output)")
    inside = [f for f in files if f != "-" and _within(f, out_dir)]
    if inside:
        raise click.UsageError(f"{inside[0]} is in OUT_DIR {out_dir}: replacing the directory would remove it")
    _extra("--format parquet", "pyarrow")
    from ..formats.archive import export_parquet
    from ..running.cluster import ClusterError

    runner, client = _cluster_runner(dask_address, jobs)
    stream = _stdin() if "-" in files else None

    def problem(report) -> None:
        click.secho(printable(report.text), fg="red", err=True)

    try:
        summary = export_parquet(
            out_dir, files, jobs=jobs, runner=runner, force=force, encoding=encoding, stream=stream, on_problem=problem
        )
    except ClusterError as e:
        _fail(Problem(out_dir, 0, 0, "cluster", f"{e}; nothing written"))
        sys.exit(EXIT_UNREADABLE)
    except OSError as e:
        if e.errno not in (errno.EAGAIN, errno.ENOMEM):
            raise
        _fail(Problem(out_dir, 0, 0, "workers", f"cannot start {jobs} worker processes: {e.strerror or e}"))
        sys.exit(EXIT_UNREADABLE)
    finally:
        if client is not None:
            client.close()
    counts = ", ".join(f"{n} {what}{'' if n == 1 else 's'}" for n, what in (
        (summary.hands, "hand"), (summary.actions, "action"), (summary.events, "event")
    ))  # fmt: skip
    left_out = f"; {summary.unreadable} unreadable, left out" if summary.unreadable else ""
    click.echo(f"{printable(out_dir)}: {counts}{left_out}")
    sys.exit(EXIT_UNREADABLE if summary.unreadable else EXIT_OK)


def _within(path: str, directory: str) -> bool:
    """Whether ``path`` is in ``directory`` or under it (links followed)."""
    real, top = os.path.realpath(path), os.path.realpath(directory)
    return real.startswith(top.rstrip(os.sep) + os.sep)


@main.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), help="Write to this file.")
@encoding_opt
def import_(file: str, output: str | None, encoding: str | None) -> None:
    """Convert FILE to canonical .gjn: JSON Lines of records (from `gouji export`), or a
    platform's event log (docs/events-log.md), told apart by their first object.
    FILE - reads standard input; the .gjn goes to standard output unless -o is given.
    """
    from ..formats.interchange import EventLogError, read_records

    _no_overwrite((file,), output)
    try:
        text = decode(_stdin().read() if file == "-" else Path(file).read_bytes(), encoding)
    except OSError as e:
        _fail(Problem(file, 0, 0, "unreadable", f"cannot read the file: {e.strerror or e}"))
        sys.exit(EXIT_UNREADABLE)
    except NotationError as e:  # not UTF-8 (or not in --encoding): located as every reader locates it
        _fail(located(file, e))
        sys.exit(EXIT_UNREADABLE)
    try:
        records = read_records(text, file)
    except EventLogError as e:  # RecordJSONError too
        _fail(Problem(file, e.line, 1, "bad-log", e.message))
        sys.exit(EXIT_UNREADABLE)
    if not records:
        _fail(Problem(file, 1, 1, "empty", "no hand in the file"))
        sys.exit(EXIT_UNREADABLE)
    with Sink(output) as out:
        out.write(write_all(canonical(rec) for rec in records))


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option(
    "--by",
    type=click.Choice(["player", "seat", "team", "ruleset"]),
    default="player",
    show_default=True,
    help="One row per player (Seat tags), seat, team or ruleset.",
)
@click.option(
    "--format",
    "fmt_",
    type=click.Choice(["text", "json", "csv", "html"]),
    default="text",
    show_default=True,
    help="Output format; html: one self-contained page with the table and charts.",
)
@click.option(
    "--lang",
    type=click.Choice(["zh", "en"]),
    default="zh",
    show_default=True,
    help="The language of the html page (中文 or English).",
)
@ruleset_opt
@jobs_opt("Count")
@output_opt
@force_opt
@encoding_opt
@dask_opt
def stats(
    files: tuple[str, ...],
    by: str,
    fmt_: str,
    lang: str,
    override: RulesetOverride | None,
    jobs: int,
    output: str | None,
    force: bool,
    encoding: str | None,
    dask_address: str | None,
) -> None:
    """Count over the hands of FILES, per player, seat, team or ruleset: places 头科 … 大落, points,
    开点, 够级 plays made and answered, burns by outcome, 闷, revolutions, tribute, illegal actions.

    Every hand is replayed by the engine; one that stops at an illegal action counts up to it (and
    counts the illegal action against its seat). Hands are read one at a time, and counted in
    --jobs worker processes if asked. A hand that cannot be read is reported and left out; the
    exit status is then 2. --format html writes one self-contained page (in --lang): the table,
    and charts of places per row, of the team points over the hands of each match (Match tag)
    and of burns by outcome. FILE - reads standard input.
    With --dask the hands are counted on a Dask cluster: the same table.
    """
    import csv
    from functools import partial

    from ..analysis.stats import COLUMNS, Stats, cell, hand_stats, settle

    _no_overwrite(files, output)
    table, bad = Stats(by), []  # type: ignore[arg-type]
    runner, client = _cluster_runner(dask_address, jobs)
    try:
        for counted in _each_hand(partial(hand_stats, by=by), files, encoding, override, jobs, bad, runner, settle):
            table.merge(counted)
    finally:
        if client is not None:
            client.close()
    status = EXIT_UNREADABLE if bad else EXIT_OK
    rows = table.table()
    with Sink(output, force=force) as out:
        if fmt_ == "html":
            from ..render.stats_page import render_stats

            out.write(render_stats(table, lang=lang))
        elif fmt_ == "json":
            out.write(json.dumps([t.as_dict() for t in rows], ensure_ascii=False, indent=2) + "\n")
        elif fmt_ == "csv":
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow([by] + [name for _, name in COLUMNS])
            for t in rows:
                writer.writerow([t.key] + [cell(t, name) for _, name in COLUMNS])
            out.write(buffer.getvalue())
        else:
            head = [by] + [title for title, _ in COLUMNS]
            body = [[printable(t.key)] + [cell(t, name) for _, name in COLUMNS] for t in rows]
            widths = [max(columns(r[i]) for r in [head, *body]) for i in range(len(head))]
            for r in [head, *body]:
                out.write(
                    "  ".join(
                        (c + " " * (w - columns(c))) if i == 0 else (" " * (w - columns(c)) + c)
                        for i, (c, w) in enumerate(zip(r, widths))
                    ).rstrip()
                    + "\n"
                )
    sys.exit(status)


@main.command(name="filter")
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--player", "players", multiple=True, metavar="NAME", help="A player at some seat (Seat tags); repeat for any of several.")
@click.option("--ruleset", "rulesets", multiple=True, metavar="NAME", help="The hand's ruleset; repeat for any of several.")
@click.option("--event", metavar="TEXT", help="The Event tag contains TEXT (any case).")
@click.option("--from", "date_from", metavar="YYYY.MM.DD", help="Dated on or after (Date tag).")
@click.option("--to", "date_to", metavar="YYYY.MM.DD", help="Dated on or before (Date tag).")
@click.option(
    "--has", multiple=True, metavar="KIND", help="The hand has an event of KIND (burn-failed, smother, revolt, sweep, …); repeat: all of them."
)
@click.option("--valid/--invalid", "valid", default=None, help="Only hands that replay without (with) an illegal action.")
@click.option("--count", is_flag=True, help="Print how many hands are selected, not the hands.")
@jobs_opt("Pick")
@output_opt
@force_opt
@encoding_opt
def filter_(
    files: tuple[str, ...],
    players: tuple[str, ...],
    rulesets: tuple[str, ...],
    event: str | None,
    date_from: str | None,
    date_to: str | None,
    has: tuple[str, ...],
    valid: bool | None,
    count: bool,
    jobs: int,
    output: str | None,
    force: bool,
    encoding: str | None,
) -> None:
    """Pick the hands of FILES that match every test given (as pgn-extract picks games), and write
    each exactly as read, comments kept; or --count them.

    Each hand is replayed under its Ruleset and Options tags, in --jobs worker processes if
    asked (the hands come out in file order all the same). A hand that cannot be read is
    reported and not selected; the exit status is then 2. FILE - reads standard input.
    """
    from ..analysis.selection import HAS_CHOICES, Selection

    for kind in has:
        if kind not in HAS_CHOICES:
            raise click.BadParameter(f"{kind!r}: expected one of {', '.join(HAS_CHOICES)}", param_hint="--has")
    for name in rulesets:
        _ruleset_option(name)
    chosen = Selection(players, tuple(r.lower() for r in rulesets), event, date_from, date_to, has, valid)
    _no_overwrite(files, output)
    kept, bad = 0, []
    with Sink(output, force=force) as out:
        for text in _each_hand(chosen.pick, files, encoding, None, jobs, bad, settle=chosen.settle):
            if text is not None:
                if not count:
                    out.write(("\n" if kept else "") + text.strip("\n") + "\n")
                kept += 1
        if count:
            out.write(f"{kept}\n")
    sys.exit(EXIT_UNREADABLE if bad else EXIT_OK)


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--hand", "hand_number", type=click.IntRange(min=1), help="Only this hand of each FILE (1 is the first).")
@click.option("--seat", type=click.IntRange(1, 6), help="Only this seat's decisions.")
@click.option(
    "--rollouts",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="An estimate: play the rest of the hand this many times with a bot after the action made and "
    "after each alternative (up to 3), and give each one's mean team points. Needs the whole deal.",
)
@click.option("--bot", type=click.Choice(["person", "random"]), default="person", show_default=True, help="The bot of --rollouts.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of --rollouts: the same seed gives the same estimates.")
@ruleset_opt
@format_opt
@jobs_opt("Review")
@output_opt
@force_opt
@encoding_opt
def review(
    files: tuple[str, ...],
    hand_number: int | None,
    seat: int | None,
    rollouts: int,
    bot: str,
    seed: int,
    override: RulesetOverride | None,
    fmt_: str,
    jobs: int,
    output: str | None,
    force: bool,
    encoding: str | None,
) -> None:
    """Review every decision of the hands in FILES, with what else the rules allowed (复盘点评):
    burns not taken (烧牌), 够级 plays the opposite could have answered (打点), moments a play would
    have opened (开点) and the 点贡 not opening costs, yields taken or not (让牌), and when a seat's
    3s could no longer be played (憋三, 闷).

    One line per finding: FILE:LINE:COL of the action made at the decision, its number, the seat,
    the kind and what the rules allowed. Facts only: where cards the deal does not give (?N)
    decide a question, the finding says so. --rollouts N adds an estimate, clearly marked, from
    hands played out by a self-play bot. --format json: one JSON object per hand (JSON Lines).
    Exit 0; 1 if a hand stops at an illegal action (it is reviewed up to it); 2 if a hand cannot
    be read. FILE - reads standard input.
    """
    from functools import partial

    from ..analysis.review import review_read, settle

    _no_overwrite(files, output)
    status, bad = EXIT_OK, []
    work = partial(review_read, only=hand_number, seat=seat, fmt=fmt_, rollouts=rollouts, bot=bot, seed=seed)
    count: dict[str, int] = dict.fromkeys(files, 0)
    with Sink(output, force=force) as out:
        for done in _each_hand(work, files, encoding, override, jobs, bad, settle=settle):
            count[done.path] = max(count.get(done.path, 0), done.index)
            if done.text is not None:
                out.write(printable(done.text) + "\n")
                status = max(status, EXIT_ILLEGAL if done.illegal else EXIT_OK)
        if hand_number is not None:
            for path, n in count.items():
                if n < hand_number:
                    raise click.BadParameter(f"{path} has {n} hand(s)", param_hint="--hand")
    if bad:
        status = EXIT_UNREADABLE
    sys.exit(status)


@main.command()
def schema() -> None:
    """Print the JSON Schema of the records `gouji export` writes and `gouji import` reads."""
    _json(GameRecord.model_json_schema())


@main.command()
@preset_opt("The ruleset the bots play under")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed: the same seed gives the same hands.")
@click.option("--hands", "count", type=click.IntRange(min=1), default=1, show_default=True, help="How many hands.")
@click.option("--match", "as_match", is_flag=True, help="Play the hands as one match, paying tribute between them.")
@click.option(
    "--bot",
    type=click.Choice(["person", "random"]),
    default="person",
    show_default=True,
    help="person: plays like a person (keeps gouji plays, burns, opens); random: any legal action.",
)
@option_opt
@output_opt
@force_opt
def selfplay(
    ruleset_name: str | None,
    seed: int,
    count: int,
    as_match: bool,
    bot: str,
    options: tuple[str, ...],
    output: str | None,
    force: bool,
) -> None:
    """Deal and play whole hands with bots, reproducibly, and write them as canonical .gjn.

    Every hand is legal under its ruleset (the bots choose among the engine's legal actions), so the
    output validates. With --match the hands form a match: tribute and first lead follow the rules.
    With --option the bots play a variant, written in each record's Options tag.
    """
    from ..bots.selfplay import play_hand, play_match

    rules = _with_options(_ruleset_option(ruleset_name) or get_ruleset("charter"), options)
    if as_match:
        records = play_match(rules, seed, count, bot)
    else:
        records = (play_hand(rules, seed * 100_003 + n, bot) for n in range(count))
    with Sink(output, force=force) as out:
        for n, record in enumerate(records):
            out.write(("\n" if n else "") + write(canonical(record)))


main.add_command(events)
main.add_command(show)


if __name__ == "__main__":  # python -m gouji_record.cli.main
    run()
