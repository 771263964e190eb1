"""The ``gouji`` command line (命令行).

Exit codes, the same for every sub-command: 0 all is well; 1 a record is
readable but breaks the rules (an illegal action, a Result that disagrees
with the play) or ``fmt --check`` found a file not in canonical form; 2 a
file cannot be read (missing, not UTF-8, bad syntax, bad deal, unknown
ruleset) or the command line is wrong. After Ctrl-C 130, SIGTERM 143, and 141
when the reader of the output went away (a closed pipe), as shells give a
command those signals end.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import importlib
import io
import os
import sys
from collections.abc import Iterator

import click

from ..errors import GoujiError
from ..running.sink import OutputError
from .exits import EXIT_CLOSED_PIPE, EXIT_ILLEGAL, EXIT_INTERRUPTED, EXIT_UNREADABLE

#: Every sub-command, by name: the module of ``gouji_record.cli`` that defines it and its name
#: there. A command's module is imported only when the command runs (or ``gouji --help`` lists
#: them all), so ``gouji validate`` does not pay at start-up for the analyzer, the pages, the
#: bots or the archives (click's lazily loaded sub-commands; docs/performance.md).
COMMANDS = {
    "validate": ("checking", "validate"),
    "bot": ("bots", "bot"),
    "fmt": ("checking", "fmt"),
    "render": ("pages", "render"),
    "rules": ("table", "rules"),
    "beats": ("table", "beats"),
    "moves": ("table", "moves"),
    "export": ("formats", "export"),
    "import": ("formats", "import_"),
    "schema": ("formats", "schema"),
    "stats": ("hands", "stats"),
    "filter": ("hands", "filter_"),
    "review": ("hands", "review"),
    "split": ("hands", "split"),
    "selfplay": ("bots", "selfplay"),
    "events": ("events", "events"),
    "show": ("show", "show"),
    "conformance": ("conformance", "conformance"),
    "edit": ("edit", "edit"),
}


class _Group(click.Group):
    """The ``gouji`` group: Ctrl-C exits 130 as shells expect, a closed pipe 141, and an output
    that cannot be written (a full disk) is one line on standard error, never a traceback
    (:func:`_ending`). Its sub-commands are those of :data:`COMMANDS`, each imported when it is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in COMMANDS and name not in self.commands:
            module, attr = COMMANDS[name]
            self.add_command(getattr(importlib.import_module(f"{__package__}.{module}"), attr), name)
            gc.freeze()  # what the command's module imported lives as long as the process (run)
        return super().get_command(ctx, name)

    def make_context(self, info_name, args, parent=None, **extra) -> click.Context:
        with _ending():  # (`gouji --help` and `gouji --version` are written here)
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context):
        if sys.stdout is None:  # the shell closed it (`gouji … >&-`): writing to it is an error
            sys.stdout = _ClosedOutput()
        with _ending():
            try:
                result = super().invoke(ctx)
                sys.stdout.flush()
                return result
            except GoujiError as e:
                # a bot program of review's rollouts (selfplay keeps its hands: cli.bots); only a
                # command that ran a bot has imported the module whose error it is
                process = sys.modules.get(f"{__package__.rpartition('.')[0]}.bots.process")
                if process is None or not isinstance(e, process.BotError):
                    raise
                click.secho(f"error[bot]: {e.message}", fg="red", err=True)
                raise click.exceptions.Exit(EXIT_ILLEGAL) from None


@contextlib.contextmanager
def _ending() -> Iterator[None]:
    """How the command ends when what it does inside the block does not: Ctrl-C exits 130; the
    reader of an output gone away (a closed pipe: ``gouji fmt f | head -1``) exits 141 saying
    nothing, as a command SIGPIPE ends does (``seq``, ``cat``); an output that cannot be written
    (a full disk, standard output closed) is one line on standard error and exit 2, never a
    traceback. Each by a :class:`click.exceptions.Exit`, which click's own handling of these
    (``Aborted!`` and 1, a closed pipe 1) does not see."""
    try:
        yield
    except KeyboardInterrupt:
        raise click.exceptions.Exit(EXIT_INTERRUPTED) from None
    except BrokenPipeError:  # (the sink lets it through: an output's temporary is removed on its way)
        _quiet_stdout()
        raise click.exceptions.Exit(EXIT_CLOSED_PIPE) from None
    except OutputError as e:
        _quiet_stdout()
        _unwritable(e.path, e.message)
        raise click.exceptions.Exit(EXIT_UNREADABLE) from None
    except OSError as e:
        if e.errno not in (errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF):
            raise
        _quiet_stdout()
        _unwritable("-", f"cannot write to standard output: {e.strerror}")
        raise click.exceptions.Exit(EXIT_UNREADABLE) from None


def _unwritable(path: str, message: str) -> None:
    """Say in one line, as every command says a problem, that ``path`` (``-``: standard output)
    cannot be written. What says it is imported here, when it is needed: the package's reports
    and the commands' shared parts are not, before a command runs (``gouji --version``)."""
    from ..judging.report import Problem
    from .common import _fail

    _fail(Problem(path, 0, 0, "unwritable", message))


class _ClosedOutput(io.TextIOBase):
    """Standard output when the shell closed it: every write fails as writing to a closed
    descriptor does."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "it is closed")

    def flush(self) -> None:
        pass


#: Objects made (and not yet freed) between two collections of the youngest generation (Python's
#: default is 700): see :func:`run`.
GC_YOUNG = 10_000


def run() -> None:
    """The ``gouji`` console script: :func:`main`, with help and version text that cannot be
    written (``gouji --help >/dev/full``) said in one line, exit 2, as every command does.

    What is imported by then (click), and again once the command's module is imported (the
    package, pydantic's models: :meth:`_Group.get_command`), objects that live as long as the
    process, is frozen out of the cyclic garbage collector (:func:`gc.freeze`): its full
    collections then go over what the command makes, not over them too. And the collector
    runs after :data:`GC_YOUNG` objects made and kept, not Python's 700: a command that keeps a
    hand's every position while it works on it (``gouji review``) would otherwise have them all
    gone over by a collection once or twice before the hand is done with and they are freed (a
    hand's objects are freed as it is: the collector finds no garbage among them)."""
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
    try:
        main()
    except KeyboardInterrupt:  # Ctrl-C before or after a command runs (within it: _Group)
        sys.exit(EXIT_INTERRUPTED)
    except OSError as e:
        _quiet_stdout()
        _unwritable("-", f"cannot write to standard output: {e.strerror or e}")
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
    file cannot be read or the command line is wrong; 130 Ctrl-C, 143
    SIGTERM, 141 a closed pipe (`gouji fmt F | head -1`).
    """


if __name__ == "__main__":  # python -m gouji_record.cli
    run()
