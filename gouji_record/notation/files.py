"""Reading ``.gjn`` files hand by hand (读文件): bytes → lines → hands.

Every command reads records through this module, so that all of them cut a
file into hands the same way, and the same way as the grammar does:

- :func:`read_lines` decodes a byte stream line by line (LF, CRLF and a lone
  CR all end a line, as in :func:`~gouji_record.notation.parser.normalize_newlines`;
  no other character does, unlike ``str.splitlines``). A line that is not
  UTF-8 is decoded with U+FFFD in place of the bad bytes and carries a located
  ``encoding`` error, so that the hands around it are still read; the error
  quotes the line as GB18030 when it reads as GB18030 (:data:`LIKELY_ENCODING`)
  and names the ``--encoding`` option. Files in another encoding are read with
  ``encoding`` (:func:`text_encoding` checks the name): GB18030, GBK, Big5,
  Latin-1, any codec that writes ASCII as ASCII, so that lines still end at the
  same bytes.
- :func:`split_lines` cuts the lines into hands without parsing them, at the rule of
  docs/notation.md §3 ("Where a hand ends"): a hand starts at a tag head, a ``[``, a tag name and
  the ``"`` of its value (:data:`_HEAD`). In the body of a hand (the deal, pre-play and play
  sections, which hold a ``[`` only inside a comment) a head outside a ``{…}`` or ``;`` comment
  starts the next hand, wherever it stands on its line (``… 2:44 [Event "b"]``); a ``[`` that opens
  no head is a stray mark of the hand (the grammar reports it). The tag section (tag values
  skipped whole) ends where the body starts: at ``deal``, ``preplay``, ``play``, a seat or a round
  number at a line's start or after a ``]``; something stray in it does not end it, and after
  something stray (a tag left open too) a tag the hand already holds, given again, starts the
  next hand.
- :func:`read_hands` puts the two together for a file or a stream.

A hand may start inside a line; parsing it on its own with its line and
column (``parse_text(hand.text, hand.line, hand.column)``) gives every token
the line and column it has in the file. The hands' texts put together give
back the file's text with its line ends made LF (and a leading byte-order
mark dropped). Where the grammar reads the whole file, the hands are the ones it
reads; where it does not, the damage stays in its hand: nothing left open (a
``[``, a tag, a value, a comment) runs on past the next hand's head.

Memory is bounded by the largest hand: a file is read in 64 KiB pieces and a
hand is kept only until the next one starts. A ``{`` comment that is not
closed (another ``{`` comes first, or the file ends) is a syntax error the
grammar reports at the ``{``; one longer than :data:`MAX_COMMENT` characters
is refused at its ``{`` (a documented limit, so that one slip cannot make a
hand of the rest of a large file); so is one whose ``}`` is followed on its line
by a ``"`` before any ``[``, ``{`` or ``;`` (:data:`_QUOTE_AFTER`: that ``}``
stood in a tag's value). Either way the splitter reads on after the ``{`` as if
it were not there, so that it does not swallow the hands that follow.

>>> text = '[Event "a"] play 1:33 [Event "b"] play\\r1:44 {[x]} 2:55'
>>> [(h.line, h.column, h.text.strip()) for h in split_lines(iter(text.replace("\\r", "\\n").splitlines(True)))]
[(1, 1, '[Event "a"] play 1:33'), (1, 23, '[Event "b"] play\\n1:44 {[x]} 2:55')]
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import compress, count, islice
from pathlib import Path
from typing import BinaryIO

from ..errors import GoujiError
from .build import NotationError

#: Characters a ``{…}`` comment may run to before the splitter takes it as not closed (1 MiB).
MAX_COMMENT = 1 << 20
#: Bytes read from a file at a time.
CHUNK = 1 << 16

_LINE_END = re.compile(rb"\r\n|\r|\n")
#: White space between the tokens of a tag, as the grammar reads it (line ends too).
_WS = "[ \\t\\f\\n\\ufeff]"
#: The head of a tag, ``[Name "``: a hand starts at one (docs/notation.md §3, "Where a hand ends").
_HEAD = re.compile(rf'\[{_WS}*(?P<name>[A-Za-z][A-Za-z0-9_]*){_WS}*"')
#: What may still become a head when the lines read so far end after it.
_HEAD_SO_FAR = re.compile(rf"\[{_WS}*(?:(?P<name>[A-Za-z][A-Za-z0-9_]*){_WS}*)?")
#: A tag's value, from its opening quote to the closing one or, not closed, to the end of its line.
_VALUE = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"?')
#: A whole line that is one tag (the usual layout): the tag section goes on.
_TAG_LINE = re.compile(r'[ \t\f\ufeff]*\[[ \t\f]*(?P<name>[A-Za-z][A-Za-z0-9_]*)[ \t\f]*"[^"\\\n]*(?:\\.[^"\\\n]*)*"[ \t\f]*\][ \t\f]*\n?')
#: What the splitter tells apart in a tag section. ``body`` (a section's word, a seat and colon, a
#: round number) starts the body where it stands at a line's start or after a ``]``; ``space`` holds
#: the characters other text takes for line ends; ``other`` is anything else (something stray).
_TAG_TOKEN = re.compile(
    r"(?P<space>[ \t\f\ufeff\v\x1c-\x1e\x85\u2028\u2029]+)|(?P<end>\n)|(?P<open>\[)|(?P<close>\])"
    r"|(?P<body>deal|preplay|play|\^?[1-6][:：]|[0-9]+\.)|(?P<comment>\{)|(?P<semi>;)|(?P<value>\")"
    r"|(?P<other>[A-Za-z0-9_]+|.)"
)
_BODY_MARK = re.compile(r"[\[{;]")
_COMMENT_MARK = re.compile(r"[{}]")
#: After a comment's ``}``, a ``"`` before any ``[``, ``{`` or ``;`` of its line: a quote is never
#: valid in the body, so that ``}`` stood in the value of a tag, not at the end of a comment.
_QUOTE_AFTER = re.compile(r'[^\[{;"\n]*"')
_TAGS, _BODY, _COMMENT = range(3)


@dataclass
class HandText:
    """One hand cut out of a file, not yet parsed.

    ``index`` is the hand's number in the file (1 is the first); ``line`` and
    ``column`` (1-based) are where its first character stands (parse it with
    ``parse_text(text, line, column)`` to locate everything in the file);
    ``text`` is its text with LF line ends; ``problem`` is the first bad byte
    of the hand (code ``encoding``) or a comment too long to read (``syntax``),
    else ``None``; ``head`` is the whole first line as it stands in the file
    when the hand starts inside it (else empty), to show under an error.
    """

    path: str
    index: int
    line: int
    column: int
    text: str
    problem: NotationError | None = None
    head: str = ""

    def display_lines(self) -> LinesFrom:
        """The hand's lines indexed by file line, for :meth:`~gouji_record.judging.report.Problem.format`."""
        lines = self.text.split("\n")
        if self.head:
            lines[0] = self.head
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


def _raw_blocks(stream: BinaryIO) -> Iterator[tuple[list[bytes], bool]]:
    """The lines of ``stream`` without their ends, a chunk's worth at a time: ``(lines, ended)``,
    every line but the last of a block having had an end, the last one if ``ended``."""
    pending = b""
    while chunk := stream.read(CHUNK):
        data = pending + chunk
        hold = b""
        if data.endswith(b"\r"):  # perhaps half of a CRLF: wait for the next chunk
            data, hold = data[:-1], b"\r"
        parts = data.split(b"\n") if b"\r" not in data else _LINE_END.split(data)
        pending = parts.pop() + hold
        if parts:
            yield parts, True
    if pending:
        ends = pending.endswith(b"\r")
        yield [pending[:-1] if ends else pending], ends


#: The encoding a line that is not UTF-8 is most likely in (records from Chinese platforms and
#: editors): the error quotes the line decoded in it, and names ``--encoding gb18030``. (Big5 is not
#: tried after it: every Big5 byte pair is also a GB18030 one, so it could never be chosen.)
LIKELY_ENCODING = "gb18030"
#: Its name in messages.
_LIKELY_NAME = "GB18030"
#: Text every encoding a file may be read in must write as ASCII does: the line ends the reader cuts
#: at, and the notation's own symbols.
_ASCII = bytes(range(128))


class UnknownEncoding(GoujiError, ValueError):
    """An ``encoding`` name that names no text encoding the reader can use, or is not text (code
    ``unknown-encoding``); ``str()`` says why and what is expected, in one line."""

    default_code = "unknown-encoding"


def text_encoding(name: str | None) -> str | None:
    """The codec ``name`` stands for, checked: ``None`` for UTF-8 (the notation's own encoding,
    read with located errors at bad bytes) or no name; else the codec's name (``"gbk"`` → ``"gbk"``,
    ``"GB-18030"`` → ``"gb18030"``).

    Raises:
        UnknownEncoding: ``name`` is not text, a name Python does not know, a codec that is not a
            text encoding (``rot13``, ``base64``), or one that does not write ASCII as ASCII
            (UTF-16, UTF-32, UTF-7): the reader finds line ends byte by byte.

    >>> text_encoding("GBK"), text_encoding("utf8"), text_encoding("Latin-1")
    ('gbk', None, 'iso8859-1')
    >>> text_encoding("utf-16")
    Traceback (most recent call last):
      ...
    gouji_record.notation.files.UnknownEncoding: encoding 'utf-16' writes ASCII characters as other bytes: expected an encoding like gb18030, gbk, big5 or latin-1, which keeps line ends and ASCII as they are
    """
    if name is None:
        return None
    if not isinstance(name, str):
        raise UnknownEncoding(
            f"encoding {name!r}: expected the name of a text encoding, like gb18030, gbk, big5 or utf-8"
        )
    try:
        codec = codecs.lookup(name)
        decoded = _ASCII.decode(codec.name)
    except (LookupError, ValueError):  # (ValueError: a NUL in the name)
        raise UnknownEncoding(
            f"unknown encoding {name!r}: expected the name of a text encoding, like gb18030, gbk, big5 or utf-8"
        ) from None
    except UnicodeDecodeError:
        decoded = None
    if codec.name == "utf-8":
        return None
    if decoded != _ASCII.decode("ascii") or _ASCII.decode("ascii").encode(codec.name) != _ASCII:
        raise UnknownEncoding(
            f"encoding {name!r} writes ASCII characters as other bytes: expected an encoding like gb18030, gbk, "
            "big5 or latin-1, which keeps line ends and ASCII as they are"
        )
    return codec.name


def _decode(raw: bytes, number: int, encoding: str | None = None) -> tuple[str, tuple[NotationError, ...]]:
    """One line's text, with U+FFFD for each bad sequence of bytes, and an ``encoding`` problem
    located at each (so that a second hand on the line is told of its own bad bytes).

    ``encoding`` is the codec the file is read in (``None``: UTF-8). A line that is not UTF-8
    is quoted under its first problem (``source_line``) as the rest of it reads in
    :data:`LIKELY_ENCODING`, when it does; the column stays that of the first bad byte."""
    codec = encoding or "utf-8"
    try:
        return raw.decode(codec), ()
    except UnicodeDecodeError:
        pass
    pieces: list[str] = []
    problems: list[NotationError] = []
    column, start = 1, 0
    while True:
        try:
            text = raw[start:].decode(codec)
        except UnicodeDecodeError as e:
            good = raw[start : start + e.start].decode(codec)
            column += len(good)
            byte = raw[start + e.start]
            if encoding is not None:
                message = f"not {encoding} text: byte 0x{byte:02x} ({e.reason}); is the file in another encoding?"
                problems.append(NotationError("encoding", message, number, column))
            else:
                problems.append(_not_utf8(raw, start + e.start, byte, number, column, "".join(pieces) + good))
            pieces += [good, "\ufffd"]
            column += 1
            start += e.end
        else:
            pieces.append(text)
            return "".join(pieces), tuple(problems)


def _not_utf8(raw: bytes, at: int, byte: int, number: int, column: int, before: str) -> NotationError:
    """The error for a byte at ``raw[at]`` that is not UTF-8: with the line quoted as it reads in
    the likely encoding (``before`` is the text up to it), and the option that reads it so."""
    message = f"not UTF-8 text: byte 0x{byte:02x} cannot start a UTF-8 character"
    try:
        rest = raw[at:].decode(LIKELY_ENCODING)
    except UnicodeDecodeError:
        error = NotationError(
            "encoding",
            message + "; save the file as UTF-8, or read it with --encoding and its encoding (gb18030, big5 …)",
            number,
            column,
        )
    else:
        error = NotationError(
            "encoding",
            message + f"; if the file is {_LIKELY_NAME}, read it with --encoding {LIKELY_ENCODING}",
            number,
            column,
        )
        error.source_line = before + rest
    return error


def decode(data: bytes, encoding: str | None = None) -> str:
    """``data`` as text in ``encoding`` (``None``: UTF-8, a name :func:`text_encoding` has
    checked), or the error every reader gives at its first bad byte (for inputs read whole, like
    JSON Lines).

    Raises:
        NotationError: located at the first bad byte (code ``encoding``).
    """
    codec = encoding or "utf-8"
    try:
        return data.decode(codec)
    except UnicodeDecodeError as e:
        start = data.rfind(b"\n", 0, e.start) + 1
        end = data.find(b"\n", e.start)
        _, problems = _decode(data[start : end if end >= 0 else len(data)], data.count(b"\n", 0, e.start) + 1, encoding)
        raise problems[0] from None


def read_lines(
    stream: BinaryIO, path: str = "-", encoding: str | None = None
) -> Iterator[tuple[str, tuple[NotationError, ...]]]:
    """Decode ``stream`` line by line: ``(text, problems)`` for each line, the text ending in
    ``"\\n"`` when the line had an end (LF, CRLF or CR).

    ``encoding`` is the codec to read in (``None``: UTF-8; else a name :func:`text_encoding`
    has checked). ``problems`` is empty for a line that decodes; otherwise it holds a
    :class:`NotationError` with code ``encoding`` and the line and column of each bad sequence
    of bytes, and the text has U+FFFD in their place. A byte-order mark at the start is
    dropped (columns on line 1 count after it, as the grammar's reader counts them). A file
    read as UTF-8 that starts with a UTF-16 byte-order mark is one such line, and nothing more
    is read of it.
    """
    for texts, problems in _read_blocks(stream, encoding):
        yield from zip(texts, problems)


def _read_blocks(
    stream: BinaryIO, encoding: str | None = None
) -> Iterator[tuple[list[str], list[tuple[NotationError, ...]]]]:
    """:func:`read_lines`'s lines a chunk's worth at a time: ``(texts, problems)``, a list of each.
    A block of UTF-8 is decoded in one piece (lines end at the same bytes: a byte of a line end is
    never part of a UTF-8 character); a block with a bad byte, or in another encoding (which may
    keep a state from line to line), line by line."""
    number = 0  # lines before the block
    for raws, ended in _raw_blocks(stream):
        if not number:
            first = raws[0]
            if encoding is None and first[:2] in (b"\xff\xfe", b"\xfe\xff"):  # no line of it is text: one error
                yield [""], [(NotationError("encoding", "UTF-16 text: save the file as UTF-8", 1, 1),)]
                return
            if encoding is None:
                raws[0] = first.removeprefix(b"\xef\xbb\xbf")
        texts: list[str] | None = None
        if encoding is None:
            try:
                texts = b"\n".join(raws).decode().split("\n")
            except UnicodeDecodeError:
                pass
        if texts is not None:
            problems: list[tuple[NotationError, ...]] = [()] * len(texts)
        else:
            decoded = [_decode(raw, n, encoding) for n, raw in enumerate(raws, start=number + 1)]
            texts, problems = [text for text, _ in decoded], [found for _, found in decoded]
        if not number and encoding is not None:
            texts[0] = texts[0].removeprefix("\ufeff")  # GB18030's mark (84 31 95 33), or the codec's own
        last = texts.pop()
        texts = [text + "\n" for text in texts]
        texts.append(last + "\n" if ended else last)
        number += len(texts)
        yield texts, problems


class _Splitter:
    """The state of :func:`split_lines`: the lines of the hand being read and a cursor in them.

    ``lines[0]`` is what is left of the hand's first line after ``offset`` characters that
    belong to the hands before it; ``origin`` is that whole line, to quote under an error.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.lines: list[str] = []
        self.problems: list[tuple[NotationError, ...]] = []  # each line's bad bytes, by file column
        self.line, self.offset, self.origin = 1, 0, ""  # where the current hand starts
        self.index = 0
        self.at, self.pos = 0, 0  # cursor: line (in self.lines) and character
        self.ended = False  # whether the last line has been pushed
        self.waiting = False  # whether a '[' waits for the next lines to tell whether it opens a tag
        self.comment_at: tuple[int, int] = (0, 0)
        self.comment_size = 0
        self._new_hand()

    def _new_hand(self) -> None:
        self.mode = self.resume = _TAGS  # resume: the section an open comment stands in
        self.names: set[str] = set()  # the tags of this hand, so far
        self.stray = False  # whether the tag section holds something that is no tag (it is damaged)
        self.open = False  # whether the last tag's ']' is still to come
        self.fresh = True  # at a line's start or after a ']': where the body may start

    def push(self, texts: list[str], problems: list[tuple[NotationError, ...]]) -> Iterator[HandText]:
        """Read on through the lines ``texts`` (each line's bad bytes in ``problems``)."""
        if not self.lines and texts:
            self.origin = texts[0].rstrip("\n")
        self.lines += texts
        self.problems += problems
        yield from self._scan()

    def finish(self) -> Iterator[HandText]:
        self.ended = True
        yield from self._scan()  # a '[' the last lines left undecided opens no tag
        if self.mode == _COMMENT:  # never closed: read on after the '{'
            self._reopen()
            yield from self._scan()
        if self.lines:  # a hand after a cut starts with '['; only a blank file is all white space
            yield self._hand(len(self.lines), 0)

    def _comment(self, pos: int) -> None:
        """Open a ``{`` comment at character ``pos`` of the current line."""
        self.resume, self.mode = self.mode, _COMMENT
        self.comment_at, self.comment_size = (self.at, pos), 0
        self.pos = pos + 1

    def _reopen(self, problem: NotationError | None = None) -> None:
        """Take the open comment's '{' as not opening one (the grammar reports it, or ``problem``
        does); read on after it."""
        self.at, self.pos = self.comment_at
        if problem is not None:
            self.problems[self.at] = (*self.problems[self.at], problem)
        self.pos += 1
        self.mode = self.resume

    def _head(self, at: int, pos: int) -> tuple[str, int, int] | bool | None:
        """Whether the ``[`` at character ``pos`` of ``lines[at]`` opens a tag head (``[Name "``):
        ``(name, line, character)`` of the quote that opens its value; ``False`` if not; ``None``
        when the lines pushed so far end before it can be told."""
        text, last = self.lines[at][pos:], at
        while (m := _HEAD.match(text)) is None:
            so_far = _HEAD_SO_FAR.fullmatch(text)
            if so_far is None:
                return False
            last += 1
            if last >= len(self.lines):
                return False if self.ended else None
            name = so_far["name"]
            text = ("[" + name + " " if name else "[") + self.lines[last]  # only the last line can hold the quote
        return m["name"], last, self.lines[last].index('"', pos if last == at else 0)

    def _scan(self) -> Iterator[HandText]:
        lines = self.lines
        while self.at < len(lines):
            line, pos = lines[self.at], self.pos
            if self.mode == _BODY:
                m = _BODY_MARK.search(line, pos)
                if m is None:  # on to the next line holding a mark (most lines of a body hold none):
                    # the numbers of the lines after this one, kept where a mark is found (no Python step a line)
                    after = self.at + 1
                    marked = compress(count(after), map(_BODY_MARK.search, islice(lines, after, None)))
                    self.at = next(marked, len(lines))
                    self.pos = 0
                    continue
                mark, pos = m.group(), m.start()
                if mark == "[":  # the next hand starts here, if it opens a tag
                    head = self._head(self.at, pos)
                    if head is None:
                        self.pos = pos
                        return
                    if head:
                        yield self._cut(self.at, pos)
                        lines = self.lines
                    else:  # a stray '[' of this hand (the grammar reports it)
                        self.pos = pos + 1
                elif mark == "{":
                    self._comment(pos)
                else:  # ';' comments out the rest of the line
                    self.at, self.pos = self.at + 1, 0
            elif self.mode == _COMMENT:
                m = _COMMENT_MARK.search(line, pos)
                self.comment_size += (m.start() if m else len(line)) - pos
                if self.comment_size > MAX_COMMENT:
                    line_number, column = self._where(*self.comment_at)
                    self._reopen(
                        NotationError(
                            "syntax", f"comment longer than {MAX_COMMENT} characters: close it sooner with '}}'",
                            line_number, column,
                        )
                    )
                elif m is not None and m.group() == "}" and not _QUOTE_AFTER.match(line, m.end()):
                    self.mode, self.pos = self.resume, m.end()
                elif m is not None:  # a '{' inside, or a '}' inside a tag's value: the first was not closed
                    self._reopen()
                else:
                    self.at, self.pos = self.at + 1, 0
            else:
                yield from self._tag_section(line, pos)
                lines = self.lines
                if self.waiting:
                    self.waiting = False
                    return

    def _tag_section(self, line: str, pos: int) -> Iterator[HandText]:
        """One step of reading a hand's tag section at character ``pos`` of ``line``, the current line."""
        if pos == 0 and (t := _TAG_LINE.fullmatch(line)) and t["name"] not in self.names:
            self.names.add(t["name"])
            self.at += 1
            return
        m = _TAG_TOKEN.match(line, pos)
        if m is None:  # the end of the last line
            self.at, self.pos = self.at + 1, 0
            return
        kind, end = m.lastgroup, m.end()
        if kind == "body" and self.fresh:
            self.mode = _BODY  # the deal, preplay or play section
            return
        if kind == "open":
            head = self._head(self.at, pos)
            if head is None:  # wait for the next lines
                self.pos, self.waiting = pos, True
                return
            if head:
                name, at, quote = head
                self.stray = self.stray or self.open  # the tag before was left open
                if name in self.names and self.stray:  # the section is damaged: a tag given again
                    yield self._cut(self.at, pos)  # opens the next hand
                    return
                self.names.add(name)
                self.at, self.pos, self.fresh, self.open = at, _VALUE.match(self.lines[at], quote).end(), False, True
                return
        if kind == "end":
            self.at, self.pos, self.fresh = self.at + 1, 0, True
            return
        if kind == "semi":
            self.stray, self.at, self.pos, self.fresh = True, self.at + 1, 0, True
            return
        if kind == "comment":
            self.stray = True
            self._comment(pos)
            return
        if kind == "value":
            end = _VALUE.match(line, pos).end()
        if kind != "space":
            self.stray = self.stray or kind != "close" or not self.open
            self.fresh, self.open = kind == "close", False
        self.pos = end

    def _where(self, at: int, pos: int) -> tuple[int, int]:
        """The file line and column of character ``pos`` of ``lines[at]``."""
        return self.line + at, pos + 1 + (self.offset if at == 0 else 0)

    def _hand(self, at: int, pos: int) -> HandText:
        """The hand that ends at line ``at``, character ``pos`` of the current lines."""
        taken = self.lines[:at] + ([self.lines[at][:pos]] if pos else [])
        start, end = (self.line, self.offset + 1), self._where(at, pos)
        problems = [p for ps in self.problems[: at + 1] for p in ps if start <= (p.line, p.column) < end]
        self.index += 1
        return HandText(
            self.path,
            self.index,
            self.line,
            self.offset + 1,
            "".join(taken),
            problems[0] if problems else None,
            self.origin if self.offset else "",
        )

    def _cut(self, at: int, pos: int) -> HandText:
        """End the current hand at line ``at``, character ``pos``: the next one starts there."""
        hand = self._hand(at, pos)
        if at:
            self.origin, self.offset = self.lines[at].rstrip("\n"), pos
        else:
            self.offset += pos
        self.line += at
        self.lines = [self.lines[at][pos:], *self.lines[at + 1 :]]
        self.problems = self.problems[at:]
        self.at, self.pos = 0, 0  # read on from the '[' that starts it
        self._new_hand()
        return hand


def split_lines(lines: Iterable[str], path: str = "-") -> Iterator[HandText]:
    """Cut lines of text (each with its ``"\\n"``, as :func:`read_lines` gives them) into hands:
    a :class:`HandText` per hand in file order; only a text with no line yields none."""
    splitter = _Splitter(path)
    for text in lines:
        yield from splitter.push([text], [()])
    yield from splitter.finish()


#: What a reading command says of a file of JSON Lines given for a ``.gjn`` file, by what its
#: first object is: a platform's event log (an object with ``type``), or records as ``gouji
#: export`` writes them (an object with ``tags``). ``{path}`` is the file.
JSON_FILES = {
    "type": "an event log (JSON Lines, docs/events-log.md), not a .gjn record: "
    "gouji import {path} -o FILE.gjn converts it (gouji export --format parquet reads it as it is)",
    "tags": "records as JSON (gouji export), not a .gjn record: gouji import {path} -o FILE.gjn converts it",
}


def _not_json(line: str, path: str, number: int) -> None:
    """Raise :class:`NotationError` (code ``not-gjn``, at ``number``) when ``line``, a file's first
    line that is not blank, is a JSON object that opens an event log or a record of ``gouji
    export`` (:data:`JSON_FILES`): a ``.gjn`` reader would take it for a comment and fail on."""
    text = line.strip().removeprefix("\ufeff")
    if not text.startswith("{"):
        return
    try:
        first = json.loads(text)
    except (ValueError, RecursionError):
        return  # a comment of a .gjn file, as {Seats 1 3 5 play against 2 4 6}
    if isinstance(first, dict):
        key = next((k for k in JSON_FILES if k in first), None)
        if key is not None:
            raise NotationError("not-gjn", JSON_FILES[key].format(path=path or "-"), number, 1)


def json_kind(path: str, stream: BinaryIO | None = None) -> str | None:
    """``"events"`` when the file ``path`` (or ``stream``, read from where it is and put back)
    starts with an event log's first object, ``"records"`` with a record of ``gouji export``,
    else ``None``: the reading commands' test of :data:`JSON_FILES`. A file that cannot be read
    is ``None`` (its reader says why)."""
    try:
        source = stream if stream is not None else Path(path).open("rb")  # noqa: SIM115 - closed below, or a stream of the caller's
    except OSError:
        return None
    try:
        for number, (text, _) in enumerate(read_lines(source, path, None), start=1):
            if text.strip():
                try:
                    _not_json(text, path, number)
                except NotationError as e:
                    return "events" if "event log" in e.message else "records"
                return None
    except (OSError, NotationError):
        return None
    finally:
        if stream is None:
            source.close()
    return None


def read_hands(path: str, stream: BinaryIO | None = None, encoding: str | None = None) -> Iterator[HandText]:
    """The hands of the file ``path`` (or of ``stream``, e.g. standard input, named ``path``),
    read in ``encoding`` (``None``: UTF-8; see :func:`read_lines`).

    Raises:
        NotationError: the file cannot be opened or read, or its name is empty (code
            ``unreadable``, line 0).
    """
    if stream is None and not path:
        raise NotationError("unreadable", "an empty file name: give a file name, or - for standard input", 0, 0)
    try:
        source = stream if stream is not None else Path(path).open("rb")
    except IsADirectoryError:
        raise NotationError("unreadable", "is a directory, not a .gjn file", 0, 0) from None
    except OSError as e:
        raise NotationError("unreadable", f"cannot read the file: {e.strerror or e}", 0, 0) from None
    try:
        splitter = _Splitter(path)
        number = 1  # of the block's first line, until the first line that is not blank is looked at
        try:
            for texts, problems in _read_blocks(source, encoding):
                if number:
                    first = next((i for i, text in enumerate(texts) if text.strip()), None)
                    if first is not None:
                        _not_json(texts[first], path, number + first)
                    number = 0 if first is not None else number + len(texts)
                yield from splitter.push(texts, problems)
        except OSError as e:
            raise NotationError("unreadable", f"cannot read the file: {e.strerror or e}", 0, 0) from None
        yield from splitter.finish()
    finally:
        if stream is None:
            source.close()
