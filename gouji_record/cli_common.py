"""What the commands of the ``gouji`` command line share (命令行公用): exit codes, reading the
hands of a file, saying a problem, and the options every reading command takes.

:mod:`gouji_record.cli` holds the ``gouji`` group and most commands; a command in a module of its
own (:mod:`gouji_record.cli_events`) takes these from here, and ``cli`` registers it: the
modules of the command line import in one direction, never in a circle.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import BinaryIO

import click

from .batch import ReadHand, read_records, ruleset_problem
from .notation.files import UnknownEncoding, text_encoding
from .replay import ruleset_of
from .report import Problem, printable
from .rules.rulesets import PRESETS, BadOption, Ruleset, UnknownRuleset, get_ruleset

#: Exit statuses, the same for every command: all is well; a record breaks the rules; a file
#: cannot be read or the command line is wrong.
EXIT_OK, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


def stdin() -> BinaryIO:
    """Standard input as bytes; exit 2 with a one-line error when it is closed."""
    if sys.stdin is None or sys.stdin.closed:
        fail(Problem("-", 0, 0, "unreadable", "standard input is closed"))
        sys.exit(EXIT_UNREADABLE)
    return sys.stdin.buffer


def records(path: str, stream: BinaryIO | None = None, encoding: str | None = None) -> Iterator[ReadHand]:
    """The hands of ``path`` (``-``: standard input) read in ``encoding`` (``None``: UTF-8) and
    parsed, one at a time, each with its problem if it cannot be read (see
    :func:`gouji_record.batch.read_records`)."""
    if path == "-" and stream is None:
        stream = stdin()
    return read_records(path, stream, encoding)


def ruleset_for(hand: ReadHand, override: Ruleset | None) -> Ruleset | Problem:
    """The ruleset to replay ``hand`` under (``override`` or its Ruleset tag, with its Options
    tag), or the located problem with those tags."""
    try:
        return ruleset_of(hand.record, override)
    except (UnknownRuleset, BadOption) as e:
        return ruleset_problem(hand.hand.path, e, hand.where)


def fail(problem: Problem, lines: list[str] | None = None) -> None:
    """Say ``problem`` on standard error, in red: located, with its line (from ``lines``) and a caret."""
    click.secho(printable(problem.format(lines)), fg="red", err=True)


def ruleset_option(value: str | None, hint: str = "--ruleset") -> Ruleset | None:
    """The preset an option names (``None`` for none); a usage error (exit 2) for an unknown name."""
    if value is None:
        return None
    try:
        return get_ruleset(value)
    except UnknownRuleset as e:
        raise click.BadParameter(str(e), param_hint=hint) from None


class CommandLineError(click.ClickException):
    """A wrong option value said in one line (``Error: …``), exit status 2 as for every command
    line that is wrong."""

    exit_code = EXIT_UNREADABLE


class EncodingType(click.ParamType):
    """``--encoding NAME``: a text encoding that writes ASCII as ASCII, checked when the command
    line is read; UTF-8 is ``None`` (the notation's own, read with located errors)."""

    name = "encoding"

    def get_metavar(self, param, ctx=None) -> str:  # click < 8.2 passes no ctx
        return "NAME"

    def convert(self, value, param, ctx):
        try:
            return text_encoding(value)
        except UnknownEncoding as e:
            raise CommandLineError(f"Invalid value for '--encoding': {e}") from None


encoding_opt = click.option(
    "--encoding",
    type=EncodingType(),
    default=None,
    help="Read the input in this encoding (e.g. gb18030, gbk, big5) instead of UTF-8, the notation's own; "
    "what is written is UTF-8.",
)
ruleset_opt = click.option(
    "--ruleset",
    "ruleset_name",
    metavar="NAME",
    help=f"Replay under this ruleset instead of the record's Ruleset tag ({', '.join(PRESETS)}).",
)
