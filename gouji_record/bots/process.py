"""A bot in its own process (外部机器人): a command started once, spoken to in the protocol's lines.

:class:`BotProcess` starts the command (split as a POSIX shell splits words: ``"python3 bot.py
--fast"``), writes each message as a line on its standard input and reads its answers from its
standard output, each within a time limit. Whatever goes wrong — a line that is not a message, an
answer to the wrong question, silence past the limit, the process gone — is a :class:`BotError`
naming the bot, its seat and the line; the process is then ended and reaped
(:meth:`BotProcess.close`, always called: the class is a context manager).
"""

from __future__ import annotations

import os
import selectors
import shlex
import signal
import subprocess
import tempfile
import time

from pydantic import ValidationError

from ..errors import GoujiError
from .protocol import FROM_BOT, VERSION, Answer, Bye, Decision, Hello, _Message, dump

#: Seconds a bot has, by default, to answer a message (``--bot-timeout``).
DEFAULT_TIMEOUT = 10.0
#: Seconds a bot has to exit after ``bye`` before it is killed.
GRACE = 1.0


class BotError(GoujiError):
    """A bot that broke the protocol or the rules (code ``bot``): ``bot`` (its command), ``seat``,
    ``line`` (the number of its line of output concerned, from 1; ``None`` when it wrote none),
    ``text`` (that line; ``None`` when the bot failed after it: silent, exited) and a one-line ``message`` that says all of them."""

    default_code = "bot"

    def __init__(self, bot: str, seat: int | None, line: int | None, text: str | None, problem: str) -> None:
        where = f"bot {bot!r}" + (f" at seat {seat}" if seat else "")
        said = (f", its line {line} {text!r}" if text is not None else f", after its line {line}") if line else ""
        super().__init__(f"{where}{said}: {problem}")
        self.bot, self.seat, self.line_number, self.text, self.problem = bot, seat, line, text, problem


class BotProcess:
    """The bot ``command`` at ``seat``, started now; ``timeout``: seconds it has for each answer.

    :meth:`send` writes a message; :meth:`ask` writes one and reads the answer; :meth:`close` says
    ``bye``, waits :data:`GRACE` seconds and kills the process if it is still there, then reaps
    it.

    Raises:
        BotError: a command that cannot be started.
        ValueError: an empty command.
    """

    def __init__(self, command: str, seat: int | None = None, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.command, self.seat, self.timeout = command, seat, timeout
        self.lines = 0  # lines read from the bot
        self._buffer = b""
        self._stderr = tempfile.TemporaryFile()
        try:
            argv = shlex.split(command)
            if not argv:
                raise ValueError("an empty command")
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, start_new_session=True
            )
        except (OSError, ValueError) as e:
            self._stderr.close()
            raise BotError(command, seat, None, None, f"cannot start it: {e}") from None
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.proc.stdout, selectors.EVENT_READ)
        self._stdin = self.proc.stdin.fileno()  # type: ignore[union-attr]
        os.set_blocking(self._stdin, False)
        self._writable = selectors.DefaultSelector()
        self._writable.register(self._stdin, selectors.EVENT_WRITE)

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def fail(self, problem: str, line: int | None = None, text: str | None = None) -> BotError:
        """A :class:`BotError` of this bot (at ``line`` of its output, ``text``), with the last
        line it wrote on standard error when it left one."""
        tail = self._last_stderr()
        return BotError(self.command, self.seat, line, text, problem + (f" (its standard error: {tail!r})" if tail else ""))

    def _last_stderr(self) -> str:
        try:
            self._stderr.seek(0)
            lines = self._stderr.read().decode("utf-8", "replace").strip().splitlines()
        except (OSError, ValueError):
            return ""
        return lines[-1][:200] if lines else ""

    def send(self, msg: _Message) -> None:
        """Write ``msg`` as one line, within :attr:`timeout` seconds (a bot that stops reading its
        input would otherwise hold the referee once the pipe is full).

        Raises:
            BotError: the bot has closed its input, exited, or does not read.
        """
        view = memoryview((dump(msg) + "\n").encode("utf-8"))
        deadline = time.monotonic() + self.timeout
        while view:
            try:
                view = view[os.write(self._stdin, view) :]
            except BlockingIOError:
                left = deadline - time.monotonic()
                if left <= 0 or not self._writable.select(left):
                    raise self.fail(f"it stopped reading its input: nothing read for {self.timeout:g} s (--bot-timeout)", self.lines or None) from None
            except (BrokenPipeError, OSError, ValueError):
                raise self._gone() from None

    def _gone(self) -> BotError:
        code = self.proc.poll()
        if code is None:
            try:
                code = self.proc.wait(GRACE)
            except subprocess.TimeoutExpired:
                return self.fail("it closed its standard input")
        return self.fail(f"it exited (status {code})", self.lines or None)

    def _readline(self) -> str:
        """The next line of the bot's output, within :attr:`timeout` seconds."""
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not self._selector.select(left):
                raise self.fail(f"no answer within {self.timeout:g} s (--bot-timeout)", self.lines or None)
            chunk = os.read(self.proc.stdout.fileno(), 65536)  # type: ignore[union-attr]
            if not chunk:
                if self._buffer:
                    break  # a last line without its newline
                raise self._gone()
            self._buffer += chunk
        raw, _, self._buffer = self._buffer.partition(b"\n")
        self.lines += 1
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise self.fail("a line that is not UTF-8", self.lines, raw.decode("utf-8", "replace")) from None

    def read(self) -> Hello | Answer:
        """The next message of the bot.

        Raises:
            BotError: no line within :attr:`timeout` seconds, the bot gone, or a line that is not UTF-8
                or not a message of the protocol.
        """
        text = self._readline()
        try:
            return FROM_BOT.validate_json(text)
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(map(str, first["loc"]))
            problem = f"{first['msg']}" + (f" at {where}" if where else "")
            raise self.fail(f"not a message of {VERSION}: {problem}", self.lines, text) from None

    def greet(self, hello: Hello) -> Hello:
        """Send ``hello`` and read the bot's, within :attr:`timeout` seconds but never less than
        :data:`DEFAULT_TIMEOUT` (a program starting up: an interpreter, its imports).

        Raises:
            BotError: another answer than a ``hello`` of this protocol.
        """
        self.send(hello)
        timeout, self.timeout = self.timeout, max(self.timeout, DEFAULT_TIMEOUT)
        try:
            answer = self.read()
        finally:
            self.timeout = timeout
        if not isinstance(answer, Hello):
            raise self.fail("expected its hello first", self.lines, dump(answer))
        if answer.protocol != VERSION:
            raise self.fail(f"it speaks {answer.protocol!r}, not {VERSION!r}", self.lines, dump(answer))
        return answer

    def ask(self, decision: Decision) -> tuple[str | None, int]:
        """Send ``decision`` and read its answer: the action (``None``: declined) and the number
        of the bot's line that gave it.

        Raises:
            BotError: another answer than one to ``decision``.
        """
        self.send(decision)
        answer = self.read()
        if not isinstance(answer, Answer) or answer.id != decision.id:
            raise self.fail(f"expected the answer to decision {decision.id}", self.lines, dump(answer))
        return answer.action, self.lines

    def close(self, reason: str = "") -> None:
        """Say ``bye`` (when it can still hear), give it :data:`GRACE` seconds to exit, kill it
        otherwise, and reap it. Never raises."""
        proc = getattr(self, "proc", None)
        if proc is None:
            return
        if proc.poll() is None:
            try:
                self.send(Bye(reason=reason))
            except BotError:
                pass
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass
        try:
            proc.wait(GRACE)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        try:  # what it started in its session (a shell's commands) goes with it
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        self._selector.close()
        self._writable.close()
        self._stderr.close()


__all__ = ["DEFAULT_TIMEOUT", "BotError", "BotProcess"]
