"""The ``gouji`` console script's first module (启动): signals handled before anything else.

It imports nothing of the package but this and the exit statuses (:mod:`~gouji_record.cli.exits`),
so that it runs within moments of the interpreter. What comes before :func:`run` (the
interpreter's own start, the console script's first imports: docs/notation.md, section 5, says
how long that is) is the interpreter's: Ctrl-C there ends the process as Python does.

- SIGTERM (``kill``, a supervisor stopping the command) is handled as Ctrl-C is: an exception
  raised where the command is, so that an output written whole or not at all
  (:mod:`gouji_record.running.sink`) removes its temporary file or directory on the way out;
  the exit status is 143 (128 + SIGTERM), as shells give it.
- Ctrl-C while the command's modules are still being imported exits 130 (128 + SIGINT) with
  nothing said, as it does later (:class:`gouji_record.cli.main._Group`).
- Once either signal has come, whatever exception reaches the top is its doing, and the exit is
  still 143 or 130 with nothing said. The interpreter can put another exception in place of the
  one a signal handler raised: SIGTERM while ``ssl`` was being imported, inside ``from _ssl
  import RAND_egd``, came out as ``TypeError: expected a message argument`` and a traceback.
- Standard error that cannot be written (``2>/dev/full``, a closed pipe) changes nothing else:
  what is said there once a write to it has failed is dropped (:class:`_Unfailing`), so that no
  command takes the error for its output's and no exit status changes.
"""

from __future__ import annotations

import atexit
import io
import os
import signal
import sys

from .exits import EXIT_INTERRUPTED, EXIT_TERMINATED


class Terminated(SystemExit):
    """SIGTERM received: raised where the main thread is, so that every ``with`` block and
    ``finally`` on the way out runs (an output's temporary is removed), then the process exits
    with :data:`EXIT_TERMINATED` and says nothing, as a ``SystemExit`` does."""

    def __init__(self) -> None:
        super().__init__(EXIT_TERMINATED)


#: The exit status owed to the signals received so far (SIGTERM, SIGINT), the first one's: the
#: process's own state, as the signal handlers are.
_owed: list[int] = []


def _terminated(signum, frame) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the process at once
    _owed.append(EXIT_TERMINATED)
    raise Terminated()


def _interrupted(signum, frame) -> None:
    """Ctrl-C: :class:`KeyboardInterrupt`, as Python's own handler raises, remembered."""
    _owed.append(EXIT_INTERRUPTED)
    raise KeyboardInterrupt


def run() -> None:
    """The ``gouji`` console script: SIGTERM handled (:class:`Terminated`) and Ctrl-C remembered,
    standard error made one that cannot fail (:class:`_Unfailing`), then
    :func:`gouji_record.cli.main.run`, imported here so that Ctrl-C while it is imported exits
    130 without a traceback. Exits 143 or 130, saying nothing, when an exception other than theirs
    comes out after either signal (see the module's docstring)."""
    signal.signal(signal.SIGTERM, _terminated)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not ignored (`nohup`, `&`)
        signal.signal(signal.SIGINT, _interrupted)
    if sys.stderr is not None:
        sys.stderr = _Unfailing.around(sys.stderr)
    try:
        from .main import run as main

        main()
    except SystemExit as e:  # (click ends every command with one)
        _exit_now(e.code)
        raise
    except Exception:
        if not _owed:
            raise
        sys.exit(_owed[0])  # the `with` blocks and `finally` clauses on its way here have run
    except KeyboardInterrupt:  # while the command's modules were imported (later: main.run)
        _quiet_exit(EXIT_INTERRUPTED)


def _exit_now(code: object) -> None:
    """End the process with a :class:`SystemExit`'s ``code`` as the interpreter would, without
    first freeing every object the command made, one by one (about 0.04 CPU s after a file of
    2,000 hands: its caches of actions, cards and plays): the :mod:`atexit` functions run (worker
    pools, clusters), standard output and error are flushed, then :func:`os._exit`. Returns,
    leaving the exit to the interpreter, when a thread other than this one still runs (the
    interpreter waits for it), when a tracer or profiler watches the process (``python -m
    cProfile -m gouji_record.cli …`` writes its figures once the command has returned), when
    ``code`` is a message rather than a number, or when a flush fails (the interpreter says so as
    it always does)."""
    threading = sys.modules.get("threading")
    if code is None:
        code = 0
    if not isinstance(code, int) or (threading is not None and threading.active_count() > 1):
        return
    if sys.gettrace() is not None or sys.getprofile() is not None:
        return  # a tracer or profiler runs the command (coverage, cProfile): it writes when it returns
    atexit._run_exitfuncs()  # (and cleared: they do not run again if the interpreter exits after all)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


def _quiet_exit(status: int) -> None:
    """Exit with ``status`` at once: what the interpreter would flush at exit is not needed (the
    command has not started) and a second Ctrl-C cannot interrupt it."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        pass
    os._exit(status)


class _Unfailing(io.RawIOBase):
    """Standard error's file descriptor ``fd`` written as long as it can be: once a write fails
    (a full device, a closed pipe), it and every write after it are dropped, as if written."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd
        self.failed = False

    @classmethod
    def around(cls, stream: io.TextIOBase) -> io.TextIOWrapper:
        """A text stream like ``stream`` (its descriptor, encoding and error handler; written
        through, flushed at each line) that cannot fail. Returns ``stream`` itself when it has
        no descriptor (a test's buffer)."""
        try:
            fd = stream.fileno()
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            return stream
        return io.TextIOWrapper(
            io.BufferedWriter(cls(fd)),
            encoding=stream.encoding,
            errors=stream.errors,
            line_buffering=True,
            write_through=True,
        )

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data) -> int:
        if not self.failed:
            try:
                return os.write(self._fd, data)
            except OSError:
                self.failed = True
        return len(data)
