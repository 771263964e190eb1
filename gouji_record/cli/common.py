"""The command line's shared parts (命令行公用): exit codes, reading hands, the options every
command reading a record takes, and one-line errors.

Every command group's module (``checking``, ``pages``, ``table``, ``formats``, ``hands``,
``bots``, ``show``, ``events``) imports these; ``main`` registers the commands in the ``gouji``
group. Nothing here imports a command module, so there is no circle of imports
(tests/test_layers.py).
"""

from __future__ import annotations

import errno
import functools
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import BinaryIO, TypeVar

import click

from ..judging.replay import Replay, RulesetOverride, replay, ruleset_of
from ..judging.report import Problem, printable
from ..notation.files import UnknownEncoding, text_encoding
from ..rules.rulesets import PRESETS, BadOption, Ruleset, UnknownRuleset, get_ruleset, parse_options, with_options
from ..running.batch import MAX_JOBS, ReadHand, map_hands, read_records, ruleset_problem
from ..running.sink import same_file
from .exits import EXIT_ILLEGAL, EXIT_INTERRUPTED, EXIT_OK, EXIT_UNREADABLE  # noqa: F401  (every command's)

T = TypeVar("T")


def _stdin() -> BinaryIO:
    """Standard input as bytes; exit 2 with a one-line error when it is closed."""
    if sys.stdin is None or sys.stdin.closed:
        _fail(Problem("-", 0, 0, "unreadable", "standard input is closed"))
        sys.exit(EXIT_UNREADABLE)
    return sys.stdin.buffer


def _records(path: str, stream: BinaryIO | None = None, encoding: str | None = None) -> Iterator[ReadHand]:
    """The hands of ``path`` (``-``: standard input) read in ``encoding`` (``None``: UTF-8) and
    parsed, one at a time, each with its problem if it cannot be read (see
    :func:`gouji_record.running.batch.read_records`)."""
    if path == "-" and stream is None:
        stream = _stdin()
    return read_records(path, stream, encoding)


def _ruleset_for(hand: ReadHand, override: Ruleset | RulesetOverride | None) -> Ruleset | Problem:
    """The ruleset to replay ``hand`` under (``override`` or its Ruleset tag, with its Options
    tag), or the located problem with those tags."""
    try:
        return ruleset_of(hand.record, override)
    except (UnknownRuleset, BadOption) as e:
        return ruleset_problem(hand, e)


def _fail(problem: Problem, lines: list[str] | None = None) -> None:
    """Say ``problem`` on standard error, in one line (``lines``: the file's, to quote). Standard
    error that cannot be written (a full device) drops it (:class:`gouji_record.cli.launch._Unfailing`):
    the exit status still says what happened."""
    click.secho(printable(problem.format(lines)), fg="red", err=True)


def _ruleset_option(value: str | None, hint: str = "--ruleset") -> Ruleset | None:
    if value is None:
        return None
    try:
        return get_ruleset(value)
    except UnknownRuleset as e:
        raise click.BadParameter(str(e), param_hint=hint) from None


class _CommandLineError(click.ClickException):
    """A wrong option value said in one line (``Error: …``), exit status 2 as for every command
    line that is wrong."""

    exit_code = EXIT_UNREADABLE


class _EncodingType(click.ParamType):
    """``--encoding NAME``: a text encoding that writes ASCII as ASCII, checked when the command
    line is read; UTF-8 is ``None`` (the notation's own, read with located errors)."""

    name = "encoding"

    def get_metavar(self, param, ctx=None) -> str:  # click < 8.2 passes no ctx
        return "NAME"

    def convert(self, value, param, ctx):
        try:
            return text_encoding(value)
        except UnknownEncoding as e:
            raise _CommandLineError(f"Invalid value for '--encoding': {e}") from None


encoding_opt = click.option(
    "--encoding",
    type=_EncodingType(),
    default=None,
    help="Read the input in this encoding (e.g. gb18030, gbk, big5) instead of UTF-8, the notation's own; "
    "what is written is UTF-8.",
)
option_opt = click.option(
    "--option",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="Override an option of the ruleset, as an Options tag does (repeat for more): --option threes-held=yes.",
)


def _with_options(rules: Ruleset, options: tuple[str, ...]) -> Ruleset:
    """``rules`` with the ``--option`` overrides, or a usage error naming what is wrong."""
    if not options:
        return rules
    try:
        return with_options(rules, parse_options(",".join(options)))
    except BadOption as e:
        raise click.BadParameter(str(e), param_hint="--option") from None


def ruleset_opt(command: Callable) -> Callable:
    """``--ruleset NAME`` and ``--option NAME=VALUE`` (repeatable) for a command that replays
    records, given to it as one ``override``: a :class:`~gouji_record.judging.replay.RulesetOverride`
    (the options over each record's own ``Options`` tag: "would this hand be valid if 大王二杀一
    held?"), or ``None`` when neither is given. A ruleset or option that is not is a usage error
    (exit 2), before any file is read."""

    @functools.wraps(command)
    def with_override(*args, ruleset_name: str | None, options: tuple[str, ...], **kwargs):
        return command(*args, override=_override(ruleset_name, options), **kwargs)

    with_override = option_opt(with_override)
    return click.option(
        "--ruleset",
        "ruleset_name",
        metavar="NAME",
        help=f"Replay under this ruleset instead of the record's Ruleset tag ({', '.join(PRESETS)}).",
    )(with_override)


def _override(ruleset_name: str | None, options: tuple[str, ...]) -> RulesetOverride | None:
    """What ``--ruleset`` and ``--option`` say, checked: the options against the ruleset named
    (or, without one, against every preset a record may name)."""
    rules = _ruleset_option(ruleset_name)
    if rules is None and not options:
        return None
    try:
        parsed = parse_options(",".join(options))
    except BadOption as e:
        raise click.BadParameter(str(e), param_hint="--option") from None
    for base in [rules] if rules is not None else PRESETS.values():
        _with_options(base, options)
    return RulesetOverride(rules, tuple(parsed.items()))


file_arg = click.argument("file", type=click.Path(allow_dash=True))


def _one_hand(
    file: str, hand_number: int, override: Ruleset | None, encoding: str | None = None
) -> tuple[ReadHand, Replay]:
    """Read ``file`` (in ``encoding``; ``None``: UTF-8) up to its hand number ``hand_number``
    (1-based, counted as ``validate`` counts them) and replay it; exit 2 if it cannot be read."""
    count = 0
    for hand in _records(file, encoding=encoding):
        if hand.hand is None or hand.hand.index == hand_number:
            if hand.problem is not None:
                _fail(hand.problem, hand.lines())
                sys.exit(EXIT_UNREADABLE)
            rules = _ruleset_for(hand, override)
            if isinstance(rules, Problem):
                _fail(rules, hand.lines())
                sys.exit(EXIT_UNREADABLE)
            return hand, replay(hand.record, rules)
        count = hand.hand.index
    raise click.BadParameter(f"{file} has {count} hand(s)", param_hint="--hand")


def _json(data: object) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


format_opt = click.option(
    "--format", "fmt_", type=click.Choice(["text", "json"]), default="text", show_default=True, help="Output format."
)


def _each_hand(
    work: Callable[[ReadHand, Ruleset], T],
    files: Iterable[str],
    encoding: str | None,
    override: Ruleset | None,
    jobs: int,
    bad: list[bool],
    runner=None,
    settle=None,
    told: Callable[[Problem], None] | None = None,
) -> Iterator[T]:
    """``work`` on each hand of ``files`` that can be read, in file order, done in ``jobs`` worker
    processes when more than 1, or by ``runner`` on a Dask cluster
    (:func:`gouji_record.running.batch.map_hands`, which ``settle`` completes with each match hand's
    verdict); a hand that cannot be read, or names a ruleset that is not, is reported and marked
    in ``bad`` (and given to ``told``, if given, in its place). Exit 2 when the workers cannot be
    started, or the cluster fails."""
    from ..running.cluster import ClusterError

    try:
        for out in map_hands(
            work, files, ruleset=override, jobs=jobs, encoding=encoding, stdin=_stdin, runner=runner, settle=settle
        ):
            if isinstance(out, Problem):
                _fail(out)
                bad.append(True)
                if told is not None:
                    told(out)
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


class EventKindName(click.ParamType):
    """An event kind as the engine names it (:data:`~gouji_record.analysis.selection.KINDS`), or one
    of ``also`` (``filter --has``'s role names); a spelling taken before the kinds were one
    vocabulary (:data:`~gouji_record.analysis.selection.OLD_KIND_NAMES`: ``burn-failed``,
    ``revolt``, ``smothered``) is read as its kind, with a one-line note on standard error."""

    name = "kind"

    def __init__(self, also: tuple[str, ...] = ()) -> None:
        from ..analysis.selection import KINDS

        self.choices = KINDS + also

    def convert(self, value, param, ctx):
        from ..analysis.selection import OLD_KIND_NAMES

        if value in self.choices:
            return value
        option = param.opts[0] if param is not None else "KIND"
        if value in OLD_KIND_NAMES:
            kind = OLD_KIND_NAMES[value]
            click.echo(f"note: {option} {value} is now spelled {kind} (the event kind's name)", err=True)
            return kind
        self.fail(f"{value!r} is not an event kind: expected one of {', '.join(self.choices)}", param, ctx)


def kind_opt(name: str, dest: str, help: str, also: tuple[str, ...] = ()) -> Callable:
    """``name KIND`` (repeatable, into ``dest``): an event kind (:class:`EventKindName`), or one of
    ``also``; ``help`` says what it selects, and the kinds it takes are listed after it."""
    from ..analysis.selection import KINDS

    listed = ", ".join(KINDS + also)
    return click.option(name, dest, multiple=True, type=EventKindName(also), metavar="KIND", help=f"{help} KIND: {listed}.")


def hand_opt(command: Callable) -> Callable:
    """``--hand N``: only the Nth hand of each FILE (1 is the first), ``hand_number`` (``None``:
    every hand). A hand of a match is still judged within its match: the hands before it are read
    and judged, only not shown. A FILE with fewer hands is a usage error (:func:`check_hand_count`)."""
    return click.option(
        "--hand", "hand_number", type=click.IntRange(min=1), help="Only this hand of each FILE (1 is the first)."
    )(command)


def check_hand_count(counts: dict[str, int], hand_number: int | None) -> None:
    """Refuse ``--hand`` for the first FILE of ``counts`` (each FILE's number of hands) that has
    fewer than ``hand_number`` hands.

    Raises:
        click.BadParameter: that FILE and its number of hands (a usage error: exit 2).
    """
    if hand_number is None:
        return
    for path, n in counts.items():
        if n < hand_number:
            raise click.BadParameter(f"{path} has {n} hand(s)", param_hint="--hand")


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


def _no_overwrite(inputs: tuple[str, ...], output: str | None) -> None:
    if output and any(same_file(i, output) for i in inputs):
        raise click.UsageError(f"-o {output} is an input file: it would be overwritten")


force_opt = click.option("--force", is_flag=True, help="Replace an output file even if it is read-only.")
output_opt = click.option(
    "-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), help="Write to this file, not standard output."
)
