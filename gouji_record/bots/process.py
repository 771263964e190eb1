"""A bot in its own process (外部机器人): a command started once, spoken to in the protocol's lines.

:class:`BotProcess` starts the command (split as a POSIX shell splits words: ``"python3 bot.py
--fast"``), writes each message as a line on its standard input and reads its answers from its
standard output, each within a time limit. Whatever goes wrong — a line that is not a message or
longer than :data:`MAX_LINE`, an answer to the wrong question, silence past the limit, the process
gone — is a :class:`BotError` naming the bot, its seat and its line, quoted as it wrote it; the
process is then ended and reaped with what it started (:meth:`BotProcess.close`, always called:
the class is a context manager).

Whatever the bot does, the referee holds a bounded amount of it: the line being read (at most
:data:`MAX_LINE` bytes and one read more) and the end of its standard error (:data:`STDERR_TAIL`
bytes, read as it comes so that a bot writing there never blocks), each read in time linear in
what the bot wrote.
"""

from __future__ import annotations

import os
import selectors
import shlex
import signal
import subprocess
import time

from pydantic import ValidationError

from ..errors import GoujiError
from ..judging.report import printable
from .protocol import FROM_BOT, VERSION, Answer, Bye, Decision, Hello, _Message, dump

#: Seconds a bot has, by default, to answer a message (``--bot-timeout``).
DEFAULT_TIMEOUT = 10.0
#: Seconds a bot has to exit after ``bye`` before it is killed.
GRACE = 1.0
#: The longest line a bot may write, in bytes, its newline not counted (docs/bots.md §1): a
#: bot's messages are a few dozen bytes; a longer line stops it.
MAX_LINE = 1 << 16
#: Bytes of a bot's standard error the referee keeps: the last ones, whose last line is quoted
#: when the bot fails.
STDERR_TAIL = 1 << 12
#: Bytes of a line quoted in an error: its first ones.
QUOTED = 200
#: Bytes read from a pipe at a time.
_CHUNK = 1 << 16


def quoted(raw: bytes, limit: int = QUOTED) -> str:
    r"""``raw``, a line a bot wrote, as one line of text between quotes: its first ``limit``
    bytes (then ``…``), bytes that are not UTF-8 as ``\xff``, a backslash as ``\\``, control
    characters escaped (gouji_record.judging.report.printable; a tab as ``\t``, a line end
    as ``\n``).

    >>> print(quoted(b'{"id":1}\xff\x00\xe2\x80\xa8\\'), quoted(b"x" * 300, 4))
    '{"id":1}\xff\x00\u2028\\' 'xxxx…'
    """
    end = min(len(raw), limit)
    while 0 < end < len(raw) and end > limit - 3 and 0x80 <= raw[end] < 0xC0:
        end -= 1  # not in the middle of a character
    text = "".join(
        f"\\x{ord(c) - 0xDC00:02x}" if "\udc80" <= c <= "\udcff" else "\\\\" if c == "\\" else c
        for c in raw[:end].decode("utf-8", "surrogateescape")  # a byte not UTF-8: a lone surrogate
    )
    shown = printable(text).replace("\t", "\\t").replace("\n", "\\n")
    return f"'{shown}{'…' if end < len(raw) else ''}'"


class BotError(GoujiError):
    """A bot that broke the protocol or the rules (code ``bot``): ``bot`` (its command), ``seat``,
    ``line`` (the number of its line of output concerned, from 1; ``None`` when it wrote none),
    ``text`` (that line as it wrote it, bytes without the newline; ``None`` when the bot failed
    after it: silent, exited), ``problem``, ``stderr`` (the last line it wrote on standard error,
    ``b""``: none) and a one-line ``message`` that says all of them: the lines :func:`quoted`,
    the problem cut after :data:`QUOTED` × 2 characters (it may repeat what the bot wrote)."""

    default_code = "bot"

    def __init__(
        self, bot: str, seat: int | None, line: int | None, text: bytes | None, problem: str, stderr: bytes = b""
    ) -> None:
        where = f"bot {bot!r}" + (f" at seat {seat}" if seat else "")
        said = (f", its line {line} {quoted(text)}" if text is not None else f", after its line {line}") if line else ""
        cut = problem if len(problem) <= 2 * QUOTED else problem[: 2 * QUOTED] + "…"
        super().__init__(f"{where}{said}: {cut}" + (f" (its standard error: {quoted(stderr)})" if stderr else ""))
        self.bot, self.seat, self.line_number, self.text = bot, seat, line, text
        self.problem, self.stderr = problem, stderr


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
        self.line = b""  # the last of them, as it wrote it
        self._buffer = bytearray()  # what it wrote after that line
        self._scanned = 0  # bytes of the buffer known to hold no newline
        self._stderr = b""  # the end of its standard error
        try:
            argv = shlex.split(command)
            if not argv:
                raise ValueError("an empty command")
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
            )
        except (OSError, ValueError) as e:
            raise BotError(command, seat, None, None, f"cannot start it: {e}") from None
        pipes = (self.proc.stdin, self.proc.stdout, self.proc.stderr)
        self._stdin, self._stdout, self._err = (s.fileno() for s in pipes)  # type: ignore[union-attr]
        for fd in (self._stdin, self._stdout, self._err):
            os.set_blocking(fd, False)
        try:  # readable once the process has exited (Linux); elsewhere the end of its output says it
            self._pidfd: int | None = os.pidfd_open(self.proc.pid)  # type: ignore[attr-defined]
        except (AttributeError, OSError):
            self._pidfd = None
        # what the referee waits for: to read its answer, to write to it, for it to exit; its
        # standard error is read in all three
        self._reading, self._writing, self._dying = (selectors.DefaultSelector() for _ in range(3))
        self._reading.register(self._stdout, selectors.EVENT_READ, "out")
        self._writing.register(self._stdin, selectors.EVENT_WRITE, "in")
        for sel in (self._reading, self._writing, self._dying):
            sel.register(self._err, selectors.EVENT_READ, "err")
            if self._pidfd is not None:
                sel.register(self._pidfd, selectors.EVENT_READ, "exit")

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def fail(self, problem: str, said: bool = False) -> BotError:
        """A :class:`BotError` of this bot: about its last line (``said``: quoted) or after it,
        with the last line it wrote on standard error when it left one."""
        self._read_stderr(64)  # what it said before failing, as far as it is there (a bound)
        tail = self._stderr.rstrip().rpartition(b"\n")[2]
        return BotError(self.command, self.seat, self.lines or None, self.line if said else None, problem, tail)

    def _read_stderr(self, reads: int = 1) -> None:
        """Read what the bot wrote on standard error (at most ``reads`` reads), keeping the last
        :data:`STDERR_TAIL` bytes; at its end, stop waiting for it."""
        for _ in range(reads):
            try:
                chunk = os.read(self._err, _CHUNK)
            except BlockingIOError:
                return
            except OSError:
                chunk = b""
            if not chunk:
                for sel in (self._reading, self._writing, self._dying):
                    if self._err in sel.get_map():
                        sel.unregister(self._err)
                return
            self._stderr = (self._stderr + chunk)[-STDERR_TAIL:]

    def _wait(self, selector: selectors.BaseSelector, deadline: float) -> set[str]:
        """What of ``selector``'s is ready (``out``, ``in``, ``exit``) before ``deadline``
        (``time.monotonic``), its standard error read meanwhile; nothing at the deadline."""
        while (left := deadline - time.monotonic()) > 0:
            ready = {key.data for key, _ in selector.select(left)}
            if "err" in ready:
                self._read_stderr()
                ready.discard("err")
            if ready:
                return ready
        return set()

    def _exit_status(self, seconds: float) -> int | None:
        """The bot's exit status, waiting up to ``seconds`` for it; ``None`` if it is still there."""
        if self._pidfd is None:
            try:
                return self.proc.wait(seconds)
            except subprocess.TimeoutExpired:
                return None
        deadline = time.monotonic() + seconds
        while self.proc.poll() is None:
            if not self._wait(self._dying, deadline):
                return None
        return self.proc.returncode

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
                continue
            except BlockingIOError:
                pass
            except (OSError, ValueError):
                raise self._gone("input") from None
            ready = self._wait(self._writing, deadline)
            if not ready:
                raise self.fail(f"it stopped reading its input: nothing read for {self.timeout:g} s (--bot-timeout)")
            if "exit" in ready:
                raise self._gone("input")

    def _gone(self, stream: str) -> BotError:
        """The error of a bot whose standard ``stream`` (``input``, ``output``) is closed."""
        code = self._exit_status(GRACE)
        return self.fail(f"it closed its standard {stream}" if code is None else f"it exited (status {code})")

    def _readline(self) -> bytes:
        """The next line of the bot's output (without its newline), within :attr:`timeout`
        seconds. Raises :class:`BotError` for silence, a line longer than :data:`MAX_LINE`, the
        bot gone."""
        deadline = time.monotonic() + self.timeout
        while (end := self._buffer.find(b"\n", self._scanned)) < 0 and len(self._buffer) <= MAX_LINE:
            self._scanned = len(self._buffer)
            ready = self._wait(self._reading, deadline)
            if not ready:
                raise self.fail(f"no answer within {self.timeout:g} s (--bot-timeout)")
            try:
                chunk = os.read(self._stdout, _CHUNK)
            except BlockingIOError:
                if "exit" not in ready:
                    continue
                chunk = b""  # it exited, and what it started keeps the pipe open
            except OSError:
                chunk = b""
            if chunk:
                self._buffer += chunk
            elif self._buffer:
                end = len(self._buffer)  # a last line without its newline
                break
            else:
                raise self._gone("output")
        self.lines += 1
        self.line = bytes(self._buffer[: min(end, MAX_LINE + 1) if end >= 0 else MAX_LINE + 1])
        if len(self.line) > MAX_LINE:
            raise self.fail(f"a line longer than {MAX_LINE} bytes (docs/bots.md §1)", said=True)
        del self._buffer[: end + 1]
        self._scanned = 0
        return self.line

    def read(self) -> Hello | Answer:
        """The next message of the bot.

        Raises:
            BotError: no line within :attr:`timeout` seconds, the bot gone, or a line that is not UTF-8
                or not a message of the protocol.
        """
        raw = self._readline()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise self.fail(f"a line that is not UTF-8 (byte {e.start + 1})", said=True) from None
        try:
            return FROM_BOT.validate_json(text)
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(map(str, first["loc"]))
            problem = f"{first['msg']}" + (f" at {where}" if where else "")
            raise self.fail(f"not a message of {VERSION}: {problem}", said=True) from None

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
            raise self.fail("expected its hello first", said=True)
        if answer.protocol != VERSION:
            raise self.fail(f"it speaks {answer.protocol!r}, not {VERSION!r}", said=True)
        return answer

    def ask(self, decision: Decision) -> str | None:
        """Send ``decision`` and read its answer: the action (``None``: declined).

        Raises:
            BotError: another answer than one to ``decision``.
        """
        self.send(decision)
        answer = self.read()
        if not isinstance(answer, Answer) or answer.id != decision.id:
            raise self.fail(f"expected the answer to decision {decision.id}", said=True)
        return answer.action

    def close(self, reason: str = "") -> None:
        """Say ``bye`` (when it can still hear, and there is room for it in the pipe), give it
        :data:`GRACE` seconds to exit, kill it otherwise, and reap it; then kill what it started
        in its session. Never raises."""
        proc = getattr(self, "proc", None)
        if proc is None:
            return
        if proc.poll() is None:
            try:  # once: a bot that does not read is not waited for
                os.write(self._stdin, (dump(Bye(reason=reason)) + "\n").encode("utf-8"))
            except (OSError, ValueError):
                pass
        for stream in (proc.stdin, proc.stdout):
            try:
                stream.close()  # type: ignore[union-attr]
            except OSError:
                pass
        if self._exit_status(GRACE) is None:
            proc.kill()
            proc.wait()
        try:  # what it started in its session (a shell's commands) goes with it
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        for sel in (self._reading, self._writing, self._dying):
            sel.close()
        proc.stderr.close()  # type: ignore[union-attr]
        if self._pidfd is not None:
            os.close(self._pidfd)


__all__ = ["DEFAULT_TIMEOUT", "MAX_LINE", "STDERR_TAIL", "BotError", "BotProcess", "quoted"]
