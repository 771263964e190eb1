"""The exit statuses of the ``gouji`` command (退出码), the same for every sub-command
(docs/notation.md), in a module of their own: the command's first modules
(:mod:`~gouji_record.cli.launch`, :mod:`~gouji_record.cli.main`) need them before any of the
package is imported."""

from __future__ import annotations

import signal

#: Valid; a rule broken (or ``fmt --check``: not canonical); a file or hand unreadable, or a bad command line.
EXIT_OK, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2
#: After SIGTERM, as shells give it (128 + SIGTERM).
EXIT_TERMINATED = 128 + signal.SIGTERM
#: After Ctrl-C, as shells give it (128 + SIGINT).
EXIT_INTERRUPTED = 128 + signal.SIGINT
#: The reader of an output went away (a closed pipe: ``gouji fmt F | head -1``), as shells give a
#: command that SIGPIPE ended (128 + SIGPIPE), ``seq`` or ``cat`` there.
EXIT_CLOSED_PIPE = 128 + signal.SIGPIPE
