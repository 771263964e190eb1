"""Reading ``.gjn`` files hand by hand (读文件): bytes → lines → hands.

Every command reads records through this module, so that all of them cut a
file into hands the same way, and the same way as the grammar does:

- :func:`read_lines` decodes a byte stream line by line (LF, CRLF and a lone
  CR all end a line, as in :func:`~gouji_record.notation.parser.normalize_newlines`;
  no other character does, unlike ``str.splitlines``). A line that is not
  UTF-8 is decoded with U+FFFD in place of the bad bytes and carries a located
  ``encoding`` error, so that the hands around it are still read.
- :func:`split_lines` cuts the lines into hands without parsing them. The
  grammar (``hand: tag+ deal? preplay? play``) lets a ``[`` stand in the body
  of a hand (the deal, pre-play and play sections) only inside a comment, so
  a ``[`` in a hand's body, outside a ``{…}`` or ``;`` comment, starts the next
  hand, wherever it stands on its line (``… 2:44 [Event "b"]``). In the tag
  section a ``[`` opens the next tag; tag values (``"…"``) are skipped whole.
- :func:`read_hands` puts the two together for a file or a stream.

A hand that starts inside a line is padded with spaces up to its column, so
that parsing it on its own (``parse_text(hand.text, hand.line)``) gives every
token the line and column it has in the file. The hands' texts, without that
padding, put together give back the file's text with its line ends made LF.

Memory is bounded by the largest hand: a file is read in 64 KiB pieces and a
hand is kept only until the next one starts. A ``{`` comment that is not
closed (another ``{`` comes first, the file ends, or it runs past
:data:`MAX_COMMENT` characters) is a syntax error the grammar reports at the
``{``; the splitter then reads on after the ``{`` as if it were not there, so
that it does not swallow the hands that follow.

>>> text = '[Event "a"] play 1:33 [Event "b"] play\\r1:44 {[x]} 2:55'
>>> [(h.line, h.column, h.text.strip()) for h in split_lines(iter(text.replace("\\r", "\\n").splitlines(True)))]
[(1, 1, '[Event "a"] play 1:33'), (1, 23, '[Event "b"] play\\n1:44 {[x]} 2:55')]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .parser import NotationError

#: Characters a ``{…}`` comment may run to before the splitter takes it as not closed (1 MiB).
MAX_COMMENT = 1 << 20
#: Bytes read from a file at a time.
CHUNK = 1 << 16

_LINE_END = re.compile(rb"\r\n|\r|\n")
#: A whole line that is one tag (the usual layout): the tag section goes on.
_TAG_LINE = re.compile(r'[ \t\f\ufeff]*\[[ \t\f]*[A-Za-z][A-Za-z0-9_]*[ \t\f]*"[^"\\\n]*(?:\\.[^"\\\n]*)*"[ \t\f]*\][ \t\f]*\n?')
#: The tokens of the tag section; anything else starts the body of the hand.
_TAG_TOKEN = re.compile(
    r'(?P<space>[ \t\f\n\ufeff]+)|(?P<open>\[)|(?P<close>\])|(?P<name>[A-Za-z][A-Za-z0-9_]*)'
    r'|(?P<value>"[^"\\\n]*(?:\\.[^"\\\n]*)*"?)'  # a value not closed ends with its line (an error)
)
_BODY_MARK = re.compile(r"[\[{;]")
_COMMENT_MARK = re.compile(r"[{}]")
_TAGS, _BODY, _COMMENT = range(3)


@dataclass
class HandText:
    """One hand cut out of a file, not yet parsed.

    ``index`` is the hand's number in the file (1 is the first); ``line`` and
    ``column`` (1-based) are where its first character stands; ``text`` is its
    text with LF line ends, padded with ``column - 1`` spaces so that columns
    hold; ``problem`` is the first line of the hand that could not be decoded
    (code ``encoding``), else ``None``; ``head`` is the whole first line as it
    stands in the file, to show under an error.
    """

    path: str
    index: int
    line: int
    column: int
    text: str
    problem: NotationError | None = None
    head: str = ""

    def display_lines(self) -> "LinesFrom":
        """The hand's lines indexed by file line, for :meth:`~gouji_record.report.Problem.format`."""
        lines = self.text.split("\n")
        if self.head:
            lines[0] = self.head
        if self.line == 1:  # columns on the first line are counted after a byte-order mark
            lines[0] = lines[0].removeprefix("\ufeff")
        return LinesFrom(self.line, lines)


class LinesFrom(list):
    """The lines of a hand cut out of a file, indexed by their line numbers in the file (0-based):
    ``lines[n - 1]`` is file line ``n``. Lines before the hand read as empty."""

    def __init__(self, first_line: int, lines: list[str]) -> None:
        super().__init__(lines)
        self.offset = first_line - 1

    def __len__(self) -> int:
        return self.offset + super().__len__()

    def __getitem__(self, index):  # type: ignore[override]
        i = index - self.offset
        return super().__getitem__(i) if i >= 0 else ""


def _raw_lines(stream: BinaryIO) -> Iterator[tuple[bytes, bool]]:
    """``(line without its end, whether it had one)`` for every line of ``stream``."""
    pending = b""
    while chunk := stream.read(CHUNK):
        data = pending + chunk
        hold = b""
        if data.endswith(b"\r"):  # perhaps half of a CRLF: wait for the next chunk
            data, hold = data[:-1], b"\r"
        parts = data.split(b"\n") if b"\r" not in data else _LINE_END.split(data)
        pending = parts.pop() + hold
        for part in parts:
            yield part, True
    if pending:
        ends = pending.endswith(b"\r")
        yield (pending[:-1] if ends else pending), ends


def read_lines(stream: BinaryIO, path: str = "-") -> Iterator[tuple[str, NotationError | None]]:
    """Decode ``stream`` line by line: ``(text, problem)`` for each line, the text ending in
    ``"\\n"`` when the line had an end (LF, CRLF or CR).

    ``problem`` is ``None`` for a UTF-8 line; otherwise a :class:`NotationError` with code
    ``encoding`` and the line and column of the first bad byte, and the text has U+FFFD in
    place of the bad bytes. A file that starts with a UTF-16 byte-order mark is one such line,
    and nothing more is read of it.
    """
    for number, (raw, ended) in enumerate(_raw_lines(stream), start=1):
        problem = None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            text = raw.decode("utf-8", errors="replace")
            column = len(raw[: e.start].decode("utf-8", errors="replace")) + 1
            message = (
                f"not UTF-8 text: byte 0x{raw[e.start]:02x} cannot start a UTF-8 character "
                "(is the file GB18030/GBK? save it as UTF-8)"
            )
            problem = NotationError("encoding", message, number, column)
        if number == 1 and raw[:2] in (b"\xff\xfe", b"\xfe\xff"):  # no line of it is text: one error
            yield "", NotationError("encoding", "UTF-16 text: save the file as UTF-8", 1, 1)
            return
        yield (text + "\n" if ended else text), problem


class _Splitter:
    """The state of :func:`split_lines`: the lines of the hand being read and a cursor in them."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.lines: list[str] = []  # the current hand's lines, the first padded to its column
        self.problems: list[NotationError | None] = []
        self.line, self.column, self.head = 1, 1, ""  # where the current hand starts
        self.index = 0
        self.at, self.pos = 0, 0  # cursor: line (in self.lines) and character
        self.mode, self.after_open = _TAGS, False  # after_open: between a tag's '[' and its ']'
        self.comment_at: tuple[int, int] = (0, 0)
        self.comment_size = 0

    def push(self, text: str, problem: NotationError | None) -> Iterator[HandText]:
        self.lines.append(text)
        self.problems.append(problem)
        yield from self._scan()

    def finish(self) -> Iterator[HandText]:
        if self.mode == _COMMENT:  # never closed: read on after the '{'
            self._reopen()
            yield from self._scan()
        if self.lines:  # a hand after a cut starts with '['; only a blank file is all white space
            yield self._hand(len(self.lines), 0)

    def _reopen(self) -> None:
        """Take the open comment's '{' as not opening one: the grammar reports it; read on after it."""
        self.at, self.pos = self.comment_at
        self.pos += 1
        self.mode = _BODY

    def _scan(self) -> Iterator[HandText]:
        lines = self.lines
        while self.at < len(lines):
            line, pos = lines[self.at], self.pos
            if self.mode == _BODY:
                m = _BODY_MARK.search(line, pos)
                if m is None:
                    self.at, self.pos = self.at + 1, 0
                    continue
                mark, pos = m.group(), m.start()
                if mark == "[":  # the next hand starts here
                    yield self._cut(self.at, pos)
                    lines = self.lines
                    self.mode, self.after_open = _TAGS, False  # after_open: between a tag's '[' and its ']'
                elif mark == "{":
                    self.mode, self.comment_at, self.comment_size = _COMMENT, (self.at, pos), 0
                    self.pos = pos + 1
                else:  # ';' comments out the rest of the line
                    self.at, self.pos = self.at + 1, 0
            elif self.mode == _COMMENT:
                m = _COMMENT_MARK.search(line, pos)
                if m is not None and m.group() == "}":
                    self.mode, self.pos = _BODY, m.end()
                    continue
                self.comment_size += (m.start() if m else len(line)) - pos
                if m is not None or self.comment_size > MAX_COMMENT:  # a '{' inside: the first was not closed
                    self._reopen()
                    continue
                self.at, self.pos = self.at + 1, 0
            else:
                if pos == 0 and not self.after_open and _TAG_LINE.fullmatch(line):
                    self.at += 1
                    continue
                m = _TAG_TOKEN.match(line, pos)
                if not self.after_open and (m is None or m.lastgroup == "name"):
                    self.mode = _BODY  # the deal, preplay or play section (or a syntax error)
                    continue
                # inside a tag's brackets anything goes until the ']' (a broken tag is one error)
                if m is not None and m.lastgroup in ("open", "close"):
                    self.after_open = m.lastgroup == "open"
                self.pos = m.end() if m is not None else pos + 1
                if self.pos >= len(line):
                    self.at, self.pos = self.at + 1, 0

    def _hand(self, at: int, pos: int) -> HandText:
        """The hand that ends at line ``at``, character ``pos`` of the current lines."""
        taken = self.lines[:at] + ([self.lines[at][:pos]] if pos else [])
        problems = [p for p in self.problems[: at + (1 if pos else 0)] if p is not None]
        if pos and problems and problems[-1] is self.problems[at] and problems[-1].column > pos:
            problems.pop()  # the bad byte is in the next hand, on the same line
        self.index += 1
        return HandText(
            self.path, self.index, self.line, self.column, "".join(taken), problems[0] if problems else None, self.head
        )

    def _cut(self, at: int, pos: int) -> HandText:
        hand = self._hand(at, pos)
        first = self.lines[at]
        self.head = first.rstrip("\n") if pos else ""
        self.line, self.column = self.line + at, pos + 1
        self.lines = [" " * pos + first[pos:], *self.lines[at + 1 :]]
        self.problems = self.problems[at:]
        if self.problems[0] is not None and self.problems[0].column <= pos:
            self.problems[0] = None  # that bad byte was in the hand before
        self.at -= at
        return hand


def split_lines(lines: Iterable[str], path: str = "-", problems: Iterable | None = None) -> Iterator[HandText]:
    """Cut lines (each with its ``"\\n"``, as :func:`read_lines` gives them) into hands.

    ``problems``, if given, runs beside ``lines``: each line's decoding problem or ``None``.
    Yields a :class:`HandText` per hand in file order; only a file with no text yields none.
    """
    splitter = _Splitter(path)
    if problems is None:
        for text in lines:
            yield from splitter.push(text, None)
    else:
        for text, problem in zip(lines, problems):
            yield from splitter.push(text, problem)
    yield from splitter.finish()


def read_hands(path: str, stream: BinaryIO | None = None) -> Iterator[HandText]:
    """The hands of the file ``path`` (or of ``stream``, e.g. standard input, named ``path``).

    Raises :class:`~gouji_record.notation.parser.NotationError` with code
    ``unreadable`` (line 0) when the file cannot be opened or read.
    """
    try:
        source = stream if stream is not None else Path(path).open("rb")
    except IsADirectoryError:
        raise NotationError("unreadable", "is a directory, not a .gjn file", 0, 0) from None
    except OSError as e:
        raise NotationError("unreadable", f"cannot read the file: {e.strerror or e}", 0, 0) from None
    try:
        splitter = _Splitter(path)
        try:
            for text, problem in read_lines(source, path):
                yield from splitter.push(text, problem)
        except OSError as e:
            raise NotationError("unreadable", f"cannot read the file: {e.strerror or e}", 0, 0) from None
        yield from splitter.finish()
    finally:
        if stream is None:
            source.close()
