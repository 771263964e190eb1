"""The ``gouji`` console script's first module (启动): signals handled before anything else.

It imports nothing of the package but this and the exit statuses (:mod:`~gouji_record.cli.exits`),
so that it runs within moments of the interpreter:

- SIGTERM (``kill``, a supervisor stopping the command) is handled as Ctrl-C is: an exception
  raised where the command is, so that an output written whole or not at all
  (:mod:`gouji_record.running.sink`) removes its temporary file or directory on the way out;
  the exit status is 143 (128 + SIGTERM), as shells give it.
- Ctrl-C while the command's modules are still being imported exits 130 (128 + SIGINT) with
  nothing said, as it does later (:class:`gouji_record.cli.main._Group`).
"""

from __future__ import annotations

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


def _terminated(signum, frame) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM ends the process at once
    raise Terminated()


def run() -> None:
    """The ``gouji`` console script: SIGTERM handled (:class:`Terminated`), then
    :func:`gouji_record.cli.main.run`, imported here so that Ctrl-C while it is imported exits 130
    without a traceback."""
    signal.signal(signal.SIGTERM, _terminated)
    try:
        from .main import run as main
    except KeyboardInterrupt:
        _quiet_exit(EXIT_INTERRUPTED)
    main()


def _quiet_exit(status: int) -> None:
    """Exit with ``status`` at once: what the interpreter would flush at exit is not needed (the
    command has not started) and a second Ctrl-C cannot interrupt it."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        pass
    os._exit(status)
