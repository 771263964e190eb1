"""Reading ``.gjn`` text into records (读谱), and the syntax errors people read.

:func:`parse_text` tries the fast scanner (:mod:`~gouji_record.notation.scanner`) on the usual
layout and otherwise the grammar (:mod:`~gouji_record.notation.grammar`); both build records
with :mod:`~gouji_record.notation.build`, which also gives every hand a
:class:`~gouji_record.notation.build.SourceMap` (the line and column of every tag, deal line
and action, for diagnostics). The grammar's errors are turned into one located line each.

>>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
>>> text = f'[Event "x"][Site "y"][Date "2026.11.30"][Ruleset "charter"]{seats}[Result "*"]\\nplay\\n1. 1:33'
>>> record, where = parse_text(text)[0]
>>> record.actions[0].text, where.actions[0]
('1:33', (3, 4))
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..model import GameRecord
from .build import Location, NotationError, SourceMap
from .scanner import scan
from .version import Reading, as_written, newer_note

if TYPE_CHECKING:
    from lark.exceptions import UnexpectedInput

#: What each terminal means, in words, for "expected …" in syntax errors.
EXPECTED_WORDS = {
    "LSQB": 'a tag like [Event "…"]',
    "RSQB": "']' closing the tag",
    "TAG_NAME": "a tag name",
    "STRING": 'a quoted value like "…"',
    "DEAL": "the deal section ('deal')",
    "PLAY": "the play section ('play')",
    "SEAT": "a seat 1-6 and a colon, like '3:'",
    "CARDS": "cards (3-9 T J Q K A 2 X D)",
    "DEAL_CARDS": "cards (3-9 T J Q K A 2 X D)",
    "BURN": "'*' (burn)",
    "PASS": "'-' (pass)",
    "YIELD": "'~' (yield)",
    "ROUND_NUMBER": "a round number like '12.'",
    "GLYPH": "an annotation like '!' or '?'",
    "PREPLAY": "the declarations before play ('preplay')",
    "UNKNOWN": "unknown cards like '?30'",
    "IRREGULAR": "'^' (an irregular action)",
    "NAG": "a numeric annotation like '$3'",
    "WORD": "'wind' or 'claim'",
    "DECLARATION": "a declaration: revolt, keep-head, no-head, natural, call or precall",
    "GIVE": "a transfer like '6>1:DX'",
    "BUY": "a purchase like 'buy 1>4:2 4>1:3'",
    "GIFT": "a gift like 'gift 4>1:3'",
    "REFUSE": "a refusal like 'refuse 2>5:D'",
    "SUITED_STEP": "'show' (上班) or 'draw' (抽签组邦)",
    "SUITED_CARDS": "a suit (s h c d, or ♠ ♥ ♣ ♦) and cards of one rank, like 'h444'",
    "ACTION": "an action: a seat 1-6 and a colon, then cards, '-' or '~', like '3:QQQ'",
    "COMMENT": "a {comment}",
    "LINE_COMMENT": "a ; comment",
    "$END": "the end of the file",
}


def _expected(names: set[str]) -> str:
    hidden = {"COMMENT", "LINE_COMMENT", "GLYPH", "NAG", "IRREGULAR"}
    words = sorted({EXPECTED_WORDS.get(n, n.lower()) for n in names if n not in hidden})
    if not words:
        return "something else"
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]


def normalize_newlines(text: str) -> str:
    """``text`` without a leading byte-order mark, with CRLF and lone CR made LF."""
    text = text.removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_text(
    text: str, first_line: int = 1, first_column: int = 1, reading: Reading | None = None
) -> list[tuple[GameRecord, SourceMap]]:
    """Parse every hand in ``text``.

    Returns ``(record, source map)`` pairs in file order. ``first_line`` and ``first_column``
    are where ``text`` starts in its file (for a hand cut out of a larger file by
    :func:`~gouji_record.notation.files.read_hands`): every location is given in the file.
    A hand of major version 1 with bare transfers (docs/notation.md §8.2: a purchase written
    without its word) is read by ``reading`` (:data:`~gouji_record.notation.version.Reading`),
    which the rules give (:func:`gouji_record.judging.legacy.read_as_written`, which
    :func:`gouji_record.parse` and :func:`gouji_record.read` pass): the same text reads the same
    whatever has been imported.

    Raises:
        NotationError: the first syntax error, missing tag or bad deal, a NUL byte (``encoding``),
            a ``Notation`` tag that names a major version this reader does not know
            (``notation-version``), and (``notation-version`` too) a hand of major version 1 with
            bare transfers when ``reading`` is ``None``.
    """
    text = normalize_newlines(text)
    shift, right = first_line - 1, first_column - 1

    def moved(e: NotationError) -> NotationError:
        e.column += right if e.line == 1 else 0
        e.line += shift
        if e.code != "notation-version" and (note := newer_note(text)):
            e.message += note
            e.args = (e.message,)
        return e

    nul = text.find("\x00")
    if nul >= 0:
        raise moved(NotationError("encoding", "byte 0x00 (NUL): this is not a text file", *_line_col(text, nul)))
    try:
        hands = scan(text, first_line, first_column)
    except NotationError:
        hands = None  # the grammar's reader gives the authoritative error
    if hands is not None:
        return as_written(hands, reading)
    # the grammar, loaded when a hand first needs it (a file in the usual layout never does)
    from lark.exceptions import UnexpectedInput

    from .grammar import lalr

    try:
        hands = lalr().parse(text)
    except UnexpectedInput as e:
        raise moved(_syntax_error(e, text)) from None
    except NotationError as e:
        raise moved(e) from None
    if shift or right:
        for _, where in hands:
            where.shift(shift, right)
    return as_written(hands, reading)


_CARD_CHARS = frozenset("23456789TJQKAXDtjqkaxd10")
#: Characters other text takes for line ends, which do not end a line of ``.gjn`` (docs/notation.md §1).
ODD_LINE_ENDS = {
    "\x0b": "VT, line tabulation",
    "\x1c": "file separator",
    "\x1d": "group separator",
    "\x1e": "record separator",
    "\x85": "NEL, next line",
    "\u2028": "line separator",
    "\u2029": "paragraph separator",
}


def _syntax_error(e: UnexpectedInput, text: str) -> NotationError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    pos = e.token.start_pos if isinstance(e, UnexpectedToken) else getattr(e, "pos_in_stream", None)
    if isinstance(e, UnexpectedToken) and e.token.type == "$END":
        pos = None  # nothing left to point at: the message says what was expected
    if pos is not None and pos < len(text) and text[pos] in ODD_LINE_ENDS:
        return NotationError(
            "syntax",
            f"U+{ord(text[pos]):04X} ({ODD_LINE_ENDS[text[pos]]}) is not a line end: "
            "lines of a .gjn file end at LF or CRLF",
            *_line_col(text, pos),
        )
    expected = set(getattr(e, "allowed", None) or getattr(e, "expected", None) or ())
    stray = _stray_bracket(text, len(text) if pos is None else pos, expected)
    if stray is None and pos is not None and text[pos : pos + 1] == "[" and not expected & {"LSQB", "RSQB"}:
        stray = pos  # where no tag may stand (a deal, before 'play')
    if stray is not None:
        return NotationError(
            "syntax", """'[' opens no tag: expected a tag name and its value after it, like [Event "…"]""",
            *_line_col(text, stray),
        )
    cards_expected = bool(expected & {"CARDS", "DEAL_CARDS"})
    if pos is not None and "ACTION" in expected:
        problem = _action_problem(text, pos)
        if problem is not None:
            return problem
    special = _special_syntax_error(text, pos)
    if special is not None:
        return special
    if pos is not None and pos < len(text) and cards_expected and text[pos] in "{;":
        return NotationError("syntax", "expected cards (3-9 T J Q K A 2 X D) before the comment", *_line_col(text, pos))
    if pos is not None and pos < len(text) and cards_expected and not text[pos].isspace():
        return NotationError(
            "bad-card", f"{text[pos]!r} is not a card: expected 3-9 T J Q K A 2 X D (or 10)", *_line_col(text, pos)
        )
    unknown = None
    if pos and pos < len(text) and text[pos] in _CARD_CHARS and "SEAT" in expected and "ACTION" not in expected:
        unknown = re.search(r"\?\d*(?=[ \t]*\Z)", text[:pos])  # cards after '?N' in a deal
    if unknown is not None:
        return NotationError(
            "syntax",
            f"cards after the unknown cards '{unknown.group()}': a seat's known cards come first, like '1: KK ?34'",
            *_line_col(text, unknown.start()),
        )
    if pos and pos < len(text) and text[pos - 1] in _CARD_CHARS and not text[pos].isspace() and text[pos] not in "{;!?":
        return NotationError(
            "bad-card", f"{text[pos]!r} is not a card: expected 3-9 T J Q K A 2 X D (or 10)", e.line, e.column
        )
    if isinstance(e, UnexpectedCharacters):
        char = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
        expected = _expected(set(e.allowed or ()))
        return NotationError("syntax", f"unexpected {char!r}: expected {expected}", e.line, e.column)
    if isinstance(e, UnexpectedEOF):
        lines = text.split("\n")
        return NotationError(
            "syntax", f"unexpected end of file: expected {_expected(set(e.expected))}", len(lines), len(lines[-1]) + 1
        )
    assert isinstance(e, UnexpectedToken)
    tok = e.token
    word = str(tok)
    if tok.type in ("COMMENT", "LINE_COMMENT"):
        word = "a comment"
    elif len(word) > 24:
        word = repr(word[:20] + "…")
    else:
        word = repr(word)
    shown = "end of file" if tok.type == "$END" else word
    line = tok.line if tok.line is not None else e.line
    column = tok.column if tok.column is not None else e.column
    if tok.type == "$END":
        lines = text.rstrip("\n").split("\n")
        line, column = len(lines), len(lines[-1]) + 1
    return NotationError("syntax", f"unexpected {shown}: expected {_expected(set(e.expected))}", line, column)


_TAG_SO_FAR = re.compile(r"\[[ \t\f\n]*(?:[A-Za-z][A-Za-z0-9_]*[ \t\f\n]*)?\Z")


def _stray_bracket(text: str, pos: int, expected: set[str]) -> int | None:
    """Where the ``[`` stands that the error at ``pos`` follows, when it opens no tag: no tag
    name and value after it on its line, or a ``[`` in the body (where a hand's tags do not
    stand: after something that is not a tag's ``]``). In the tag section, the error stays where
    the grammar finds it (``[1Site``: at the ``1``)."""
    m = _TAG_SO_FAR.search(text, 0, pos) if expected & {"TAG_NAME", "STRING"} else None
    if m is None:
        return None
    before = text[: m.start()].rstrip()
    if "\n" in m.group() or before and not before.endswith("]"):
        return m.start()
    return None


def _line_col(text: str, pos: int) -> Location:
    return text.count("\n", 0, pos) + 1, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _special_syntax_error(text: str, pos: int | None) -> NotationError | None:
    """Clearer messages for the usual slips: a value or comment not closed, cards left out."""
    if pos is None or pos >= len(text):
        return None
    char = text[pos]
    if char == '"' and '"' not in text[pos + 1 :].split("\n", 1)[0].replace('\\"', ""):
        return NotationError(
            "syntax", "tag value not closed: expected '\"' before the end of the line", *_line_col(text, pos)
        )
    if char == "{":
        close, reopen = text.find("}", pos), text.find("{", pos + 1)
        if close < 0:
            return NotationError("syntax", "comment not closed: expected '}'", *_line_col(text, pos))
        if 0 <= reopen < close:
            return NotationError(
                "syntax", "comment not closed: expected '}' before the next '{'", *_line_col(text, pos)
            )
    line_start = text.rfind("\n", 0, pos) + 1
    prev_end = len(text[:line_start].rstrip())  # the end of the last line before that is not blank
    prev_line = text[text.rfind("\n", 0, prev_end) + 1 : prev_end]
    if (
        pos == line_start + len(text[line_start:pos]) - len(text[line_start:pos].lstrip())
        and prev_line.lstrip().startswith("[")
        and "]" not in prev_line
    ):
        return NotationError(
            "syntax", "tag not closed: expected ']' closing the tag at the end of the line", *_line_col(text, prev_end)
        )
    if char == "." and pos >= 1 and text[pos - 1].isdigit():
        start = pos - 1
        while start > 0 and text[start - 1].isdigit():
            start -= 1
        if start > 0 and not text[start - 1].isspace() or _after_seat(text, start):
            return NotationError(
                "syntax",
                f"expected cards (3-9 T J Q K A 2 X D) before the round number '{text[start : pos + 1]}'",
                *_line_col(text, start),
            )
    if char in ":：" and pos >= 1 and text[pos - 1] in "123456":
        start = pos - 1
        return NotationError(
            "syntax",
            f"expected cards (3-9 T J Q K A 2 X D) before the next seat '{text[start : pos + 1]}'",
            *_line_col(text, start),
        )
    return None


_SEAT_AT = re.compile(r"\^?[1-6][:：](\*?)")
_CARD_RUN = re.compile(r"(?:10|大王|小王|大花|小花|大鬼|小鬼|大虎|小虎|[2-9TJQKAXDtjqkaxd])+")


def _action_problem(text: str, pos: int) -> NotationError | None:
    """What is wrong with an action that does not read as one token: ``3:`` with nothing, or
    something else, after it."""
    m = _SEAT_AT.match(text, pos)
    if not m:
        return None
    q = m.end()
    if not m.group(1):
        run = _CARD_RUN.match(text, q)
        if run and run.end() < len(text) and not text[run.end()].isspace():
            q = run.end()  # cards, then something that is not: point at it
            return NotationError(
                "bad-card", f"{text[q]!r} is not a card: expected 3-9 T J Q K A 2 X D (or 10)", *_line_col(text, q)
            )
    rest = text[q:]
    q += len(rest) - len(rest.lstrip())
    what = "cards (3-9 T J Q K A 2 X D)" if m.group(1) else "cards (3-9 T J Q K A 2 X D), '-' (pass) or '~' (yield)"
    if q >= len(text):
        return NotationError("syntax", f"unexpected end of file: expected {what}", *_line_col(text, len(text.rstrip())))
    nxt = text[q]
    seat = _SEAT_AT.match(text, q)
    if seat and q > m.end():
        return NotationError("syntax", f"expected {what} before the next seat '{text[q : q + 2]}'", *_line_col(text, q))
    if nxt in "{;":
        return NotationError("syntax", f"expected {what} before the comment", *_line_col(text, q))
    number = re.match(r"\d+\.", text[q:])
    if number and q > m.end():
        return NotationError(
            "syntax", f"expected {what} before the round number '{number.group(0)}'", *_line_col(text, q)
        )
    return NotationError(
        "bad-card", f"{nxt!r} is not a card: expected 3-9 T J Q K A 2 X D (or 10)", *_line_col(text, q)
    )


def _after_seat(text: str, pos: int) -> bool:
    """Whether the last thing before ``pos`` (skipping white space) is a seat and colon, like '3:'."""
    before = text[:pos].rstrip()
    return len(before) >= 2 and before[-1] in ":：" and before[-2] in "123456"
