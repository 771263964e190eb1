"""The command line's shared parts (命令行公用): exit codes, reading hands, the options every
command reading a record takes, and one-line errors.

``gouji_record.cli.main`` imports these, and so does every command kept in a module of its own
(``gouji_record.cli.show``): cli.py registers those commands, so importing them from cli.py would
be a circle of imports, which tests/test_layers.py forbids (and ``python -m gouji_record.cli.main``,
which runs cli.py as ``__main__``, could not start). They keep the names they had in cli.py.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterator
from typing import BinaryIO

import click

from ..running.batch import ReadHand, read_records, ruleset_problem
from ..notation.files import UnknownEncoding, text_encoding
from ..judging.replay import Replay, RulesetOverride, replay, ruleset_of
from ..judging.report import Problem, printable
from ..rules.rulesets import PRESETS, BadOption, Ruleset, UnknownRuleset, get_ruleset, parse_options, with_options

EXIT_OK, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2
#: The exit status after Ctrl-C, as shells give it (128 + SIGINT).
EXIT_INTERRUPTED = 130


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
        return ruleset_problem(hand.hand.path, e, hand.where)


def _fail(problem: Problem, lines: list[str] | None = None) -> None:
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
