"""Reading ``.gjn`` text into records (读谱).

The grammar is ``grammar/gjn.lark`` (LALR, contextual lexer), loaded once per
process. A Lark transformer builds :class:`~gouji_record.model.GameRecord`
objects while parsing, with a :class:`SourceMap` per hand that keeps the line
and column of every tag, deal line and action for diagnostics.

>>> unescape(r'"say \\"hi\\""')
'say "hi"'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ..model import (
    DEFAULT_TAGS,
    NOT_IN_COMMENT,
    comment_problem,
    MAX_NAG,
    MAX_ROUND,
    REQUIRED_TAGS,
    Action,
    ActionKind,
    GameRecord,
    date_ok,
    SUITS,
    suited_problem,
    parse_result,
    score_ok,
    tag_value_problem,
)
from ..rules.cards import COPIES, HAND_SIZE, RANK_LETTERS, CardError, format_cards, parse_cards
from .width import fold_comment

#: A line and a column, both 1-based.
Location = tuple[int, int]


class NotationError(ValueError):
    """A record that cannot be read: bad syntax, a missing tag, a bad deal.

    ``code`` is stable (docs/notation.md, "Errors"); ``line`` and ``column``
    are 1-based and point at the offending text.
    """

    def __init__(self, code: str, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line
        self.column = column

    def __reduce__(self):  # pickled whole, for worker processes (validate --jobs)
        return type(self), (self.code, self.message, self.line, self.column)


@dataclass
class SourceMap:
    """Where each part of one hand stands in the file (1-based line, column)."""

    start: Location
    tags: dict[str, Location] = field(default_factory=dict)
    deal: dict[int, Location] = field(default_factory=dict)
    actions: list[Location] = field(default_factory=list)
    #: Round markers: index of the action each stands before → location.
    rounds: dict[int, Location] = field(default_factory=dict)

    def shift(self, lines: int, columns: int = 0) -> None:
        """Move every location down by ``lines`` lines, and those on the first line right by
        ``columns`` (for a hand that starts inside a line of its file)."""

        def move(loc: Location) -> Location:
            return (loc[0] + lines, loc[1] + columns if loc[0] == 1 else loc[1])

        self.start = move(self.start)
        self.tags = {k: move(v) for k, v in self.tags.items()}
        self.deal = {k: move(v) for k, v in self.deal.items()}
        self.actions = [move(v) for v in self.actions]
        self.rounds = {k: move(v) for k, v in self.rounds.items()}


@lru_cache(maxsize=1)
def grammar_text() -> str:
    """The grammar, from the installed package or from the source tree's ``grammar/``."""
    packaged = resources.files("gouji_record").joinpath("grammar/gjn.lark")
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return (Path(__file__).resolve().parents[2] / "grammar" / "gjn.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", lexer="contextual", transformer=_Build(), maybe_placeholders=False)


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


def parse_text(text: str, first_line: int = 1, first_column: int = 1) -> list[tuple[GameRecord, SourceMap]]:
    """Parse every hand in ``text``.

    Returns ``(record, source map)`` pairs in file order. ``first_line`` and ``first_column``
    are where ``text`` starts in its file (for a hand cut out of a larger file by
    :func:`~gouji_record.notation.files.read_hands`): every location is given in the file.
    Raises :class:`NotationError` for the first syntax error, missing tag or bad deal.
    """
    text = normalize_newlines(text)
    shift, right = first_line - 1, first_column - 1

    def moved(e: NotationError) -> NotationError:
        e.column += right if e.line == 1 else 0
        e.line += shift
        return e

    nul = text.find("\x00")
    if nul >= 0:
        raise moved(NotationError("encoding", "byte 0x00 (NUL): this is not a text file", *_line_col(text, nul)))
    from .scanner import scan  # the scanner builds on this module

    try:
        hands = scan(text, first_line, first_column)
    except NotationError:
        hands = None  # the grammar's reader gives the authoritative error
    if hands is not None:
        return hands
    try:
        hands = _parser().parse(text)
    except UnexpectedInput as e:
        raise moved(_syntax_error(e, text)) from None
    except NotationError as e:
        raise moved(e) from None
    if shift or right:
        for _, where in hands:
            where.shift(shift, right)
    return hands


_CARD_CHARS = frozenset("23456789TJQKAXDtjqkaxd10")


def _syntax_error(e: UnexpectedInput, text: str) -> NotationError:
    pos = e.token.start_pos if isinstance(e, UnexpectedToken) else getattr(e, "pos_in_stream", None)
    if isinstance(e, UnexpectedToken) and e.token.type == "$END":
        pos = None  # nothing left to point at: the message says what was expected
    expected = set(getattr(e, "allowed", None) or getattr(e, "expected", None) or ())
    if pos is not None and "ACTION" in expected:
        problem = _action_problem(text, pos)
        if problem is not None:
            return problem
    special = _special_syntax_error(text, pos)
    if special is not None:
        return special
    if pos is not None and pos < len(text) and "CARDS" in expected and text[pos] in "{;":
        return NotationError("syntax", "expected cards (3-9 T J Q K A 2 X D) before the comment", *_line_col(text, pos))
    if pos is not None and pos < len(text) and "CARDS" in expected and not text[pos].isspace():
        return NotationError(
            "bad-card", f"{text[pos]!r} is not a card: expected 3-9 T J Q K A 2 X D (or 10)", *_line_col(text, pos)
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
    prev_line_start = text.rfind("\n", 0, max(line_start - 1, 0)) + 1
    prev_line = text[prev_line_start : max(line_start - 1, 0)]
    if (
        pos == line_start + len(text[line_start:pos]) - len(text[line_start:pos].lstrip())
        and prev_line.lstrip().startswith("[")
        and "]" not in prev_line
    ):
        return NotationError(
            "syntax",
            "tag not closed: expected ']' closing the tag at the end of the line",
            *_line_col(text, line_start - 1),
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


def _loc(tok: Token) -> Location:
    return (tok.line, tok.column)


_ESCAPE = re.compile(r'\\(["\\])')


def unescape(value: str) -> str:
    """The text of a quoted tag value: quotes removed, ``\\"`` and ``\\\\`` undone; any other
    backslash is kept as it is."""
    return _ESCAPE.sub(r"\1", value[1:-1])


class _BadComment(ValueError):
    """A comment holding what a comment may not (``offset``: where in the raw comment)."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset


def _comment_text(raw: str) -> str:
    """The text of a ``{…}`` or ``;`` comment token; raises :class:`_BadComment` for a control
    character (:func:`~gouji_record.model.comment_problem`)."""
    if NOT_IN_COMMENT.search(raw):
        offset, message = comment_problem(raw)  # type: ignore[misc]
        raise _BadComment(offset, "comment " + message.replace(f"character {offset + 1}", f"character {offset}"))
    return fold_comment(raw[1:-1] if raw.startswith("{") else raw[1:])


class _Build(Transformer):
    """Builds records while the LALR parser reduces (an inline transformer)."""

    def start(self, hands):
        return list(hands)

    def tag(self, children):
        name, value = children
        return name, unescape(str(value))

    def deal_entry(self, children):
        seat, *rest = children
        cards = next((c for c in rest if c.type == "CARDS"), None)
        unknown = next((c for c in rest if c.type in ("UNKNOWN", "PASS")), None)
        return seat, cards, unknown

    def deal(self, entries):
        return ("deal", entries)

    def round_number(self, children):
        (tok,) = children
        return ("round", tok)

    def comment(self, children):
        (tok,) = children
        try:
            return ("comment", _comment_text(str(tok)))
        except _BadComment as e:
            before = str(tok)[: e.offset]
            line = tok.line + before.count("\n")
            column = e.offset - before.rfind("\n") if "\n" in before else tok.column + e.offset
            raise NotationError("bad-comment", str(e), line, column) from None

    pre_comment = comment

    def action(self, children):
        tok, *marks = children
        glyph = next((str(c) for c in marks if c.type == "GLYPH"), None)
        for c in marks:
            if c.type == "NAG":
                nag_number(str(c)[1:], _loc(c))
        nags = "".join(str(c) for c in marks if c.type == "NAG")
        action = action_from_token(str(tok))
        return (
            "action",
            with_marks(action, glyph, nags) if marks else action,
            (tok.line, tok.column + (tok[0] == "^")),
        )

    def transfer(self, children):
        give, cards, *glyph = children
        return transfer_item(give, cards, str(glyph[0]) if glyph else None)

    def declaration(self, children):
        seat, word, *glyph = children
        return declaration_item(seat, str(word), str(glyph[0]) if glyph else None)

    def suited(self, children):
        seat, step, cards, *glyph = children
        return suited_item(seat, str(step), cards, str(glyph[0]) if glyph else None)

    def purchase(self, children):
        return ("group", purchase_items(children[1:]))

    def gift(self, children):
        return ("group", [labelled(children[1], "gift")])

    def preplay(self, items):
        flat = []
        for item in items:
            if item[0] == "group":
                flat.extend(item[1])
            else:
                flat.append(item)
        return ("preplay", flat)

    def play(self, items):
        return ("play", items)

    def hand(self, children):
        tags = [c for c in children if isinstance(c[0], Token)]
        sections = dict(c for c in children[len(tags) :])
        return build_hand(tags, sections.get("deal"), sections.get("preplay", []), sections["play"])


_ACTION = re.compile(r"(\^?)([1-6])[:：]\s*(\*?)\s*(.*)", re.DOTALL)
_BODY_KINDS = {"-": ActionKind.PASS, "~": ActionKind.YIELD}
_NAG = re.compile(r"\$(\d+)")


@lru_cache(maxsize=65536)
def action_from_token(token: str) -> Action:
    """The action an ``ACTION`` token writes, without annotations: ``"^3:*qqq"`` → an
    irregular burn of ``QQQ`` by seat 3. Actions are immutable, so equal tokens share one."""
    irregular, seat, burn, body = _ACTION.fullmatch(token).groups()
    kind = _BODY_KINDS.get(body)
    cards = ""
    if kind is None and (body in DECLARATIONS or body in ("wind", "claim")):
        kind = ActionKind(DECLARATIONS.get(body, body))
    elif kind is None:
        kind, cards = ActionKind.PLAY, format_cards(parse_cards(body))
    return Action.model_construct(seat=int(seat), kind=kind, cards=cards, burn=bool(burn), irregular=bool(irregular))


def with_marks(action: Action, glyph: str | None, nags: str, where: Location = (0, 0)) -> Action:
    """``action`` with a glyph (``"!?"``) and numeric annotations written ``"$1$12"``.

    Raises :class:`NotationError` at ``where`` for a number above ``$255``."""
    numbers = tuple(nag_number(n, where) for n in _NAG.findall(nags))
    return action.model_copy(update={"glyph": glyph, "nags": numbers})


def nag_number(digits: str, where: Location) -> int:
    """The number of a numeric annotation, ``$0`` … ``$255`` (as in PGN); a larger one is an
    error at ``where`` (never converted: Python refuses ``int()`` of a 5000-digit string)."""
    if len(digits) > len(str(MAX_NAG)) or int(digits) > MAX_NAG:
        shown = digits if len(digits) <= 12 else digits[:8] + f"… ({len(digits)} digits)"
        raise NotationError("syntax", f"numeric annotation ${shown}: expected $0 to ${MAX_NAG}", *where)
    return int(digits)


def transfer_item(give: Token, cards: Token, glyph: str | None) -> tuple:
    """The parsed item of a transfer ``6>1:DX``: the action and where it stands."""
    action = Action.model_construct(
        seat=int(give[0]), kind=ActionKind.GIVE, to=int(give[2]), cards=format_cards(_cards(cards)), glyph=glyph
    )
    return ("action", action, _loc(give))


def purchase_items(items: list[tuple]) -> list[tuple]:
    """The parsed items of a purchase ``buy 1>4:2 4>1:3`` (its two transfers, and any comments
    between them), the transfers marked ``buy``. Raises :class:`NotationError` at the second
    transfer unless it goes back between the same two seats."""
    first, second = (item for item in items if item[0] == "action")
    a, b = first[1], second[1]
    if (b.seat, b.to) != (a.to, a.seat):
        raise NotationError(
            "syntax",
            f"a purchase is the price and the card bought back between the same two seats: "
            f"expected {a.to}>{a.seat}:… after buy {a.text}, not {b.text}",
            *second[2],
        )
    return [labelled(item, "buy") for item in items]


def labelled(item: tuple, purpose: str) -> tuple:
    """A parsed transfer item of a purchase (``buy``) or a gift (``gift``), marked so; comments
    between a purchase's two transfers are left as they are."""
    if item[0] != "action":
        return item
    action = item[1].model_copy(update={"purpose": purpose})
    return ("action", action, item[2])


#: Suits as they may be written, and the notation's letter for each (黑桃, 红桃, 梅花, 方块).
SUIT_WORDS = {
    **{c: c for c in SUITS},
    **{c.upper(): c for c in SUITS},
    **dict(zip("♠♥♣♦", SUITS)),
    **dict(zip(("黑桃", "红桃", "梅花", "方块"), SUITS)),
}
_SUITED = re.compile(r"(黑桃|红桃|梅花|方块|.)(.*)", re.DOTALL)


def suited_item(seat: Token, step: str, cards: Token, glyph: str | None) -> tuple:
    """The parsed item of a show ``1:show h444`` (上班: 亮3, 顶班) or a draw ``2:draw s7``
    (抽签组邦): the action and where it stands. Raises :class:`NotationError` (``bad-card``)
    at the cards for more than four of one suit, a joker, mixed ranks, or a draw of more
    than one card."""
    suit, ranks = _SUITED.fullmatch(str(cards)).groups()
    kind = ActionKind.SHOW if step in ("show", "亮") else ActionKind.DRAW
    text = format_cards(parse_cards(ranks))
    try:
        suited_problem(kind, text)
    except ValueError as e:
        raise NotationError("bad-card", str(e), cards.line, cards.column + len(suit)) from None
    action = Action.model_construct(seat=int(seat[0]), kind=kind, cards=text, suit=SUIT_WORDS[suit], glyph=glyph)
    return ("action", action, _loc(seat))


def declaration_item(seat: Token, word: str, glyph: str | None) -> tuple:
    """The parsed item of a declaration ``2:revolt`` (or ``2:革命``): the action and where it stands."""
    action = Action.model_construct(seat=int(seat[0]), kind=ActionKind(DECLARATIONS.get(word, word)), glyph=glyph)
    return ("action", action, _loc(seat))


#: Chinese words for declarations and requests, and their notation names.
DECLARATIONS = {
    "革命": "revolt",
    "要头": "keep-head",
    "无头": "no-head",
    "自然开点": "natural",
    "接风": "wind",
    "挑牌": "claim",
    "宣点": "call",
    "明点": "call",
    "预点": "precall",
}


def build_hand(tags, deal, preplay_items, items) -> tuple[GameRecord, SourceMap]:
    """Check one parsed hand and build its record and source map.

    Raises :class:`NotationError` for a repeated or missing tag, a bad deal
    (a seat given twice or not at all, not 36 cards, more of a rank than four
    decks hold, a card not in the alphabet) or a malformed Result.
    """
    first = tags[0][0]
    where = SourceMap(start=_loc(first))
    tag_values: dict[str, str] = {}
    for name_tok, value in tags:
        name = str(name_tok)
        if name in tag_values:
            raise NotationError("duplicate-tag", f"tag {name} is given twice", *_loc(name_tok))
        problem = tag_value_problem(value)
        if problem is not None:
            raise NotationError("bad-tag", f"tag {name} {problem}", *_loc(name_tok))
        tag_values[name] = value
        where.tags[name] = _loc(name_tok)
    for name, value in DEFAULT_TAGS.items():
        tag_values.setdefault(name, value)
    for name in REQUIRED_TAGS:
        if name not in tag_values:
            raise NotationError(
                "missing-tag", f'missing tag [{name} "…"]: every hand needs ' + ", ".join(REQUIRED_TAGS), *where.start
            )
    if not date_ok(tag_values["Date"]):
        raise NotationError(
            "bad-date",
            f'Date {tag_values["Date"]!r}: expected YYYY.MM.DD, with ? for unknown parts ("2026.11.??"), or "?"',
            *where.tags["Date"],
        )
    if "Score" in tag_values and not score_ok(tag_values["Score"]):
        raise NotationError(
            "bad-score",
            f'Score {tag_values["Score"]!r}: expected the scores of team 1-3-5 and team 2-4-6, like "2 0"',
            *where.tags["Score"],
        )
    try:
        parse_result(tag_values["Result"])
    except ValueError as e:
        raise NotationError("bad-result", str(e), *where.tags["Result"]) from None

    hands: dict[int, str] = {}
    if deal is None:  # no deal section: nothing is known of the hands
        deal = []
        hands = {s: f"?{HAND_SIZE}" for s in range(1, 7)}
    known_cards: list = []
    for seat_tok, cards_tok, unknown_tok in deal:
        seat = int(str(seat_tok)[0])
        if seat in hands:
            raise NotationError("deal-seat", f"seat {seat} is dealt twice", *_loc(seat_tok))
        counts = _cards(cards_tok) if cards_tok is not None else parse_cards("")
        unknown = _unknown(unknown_tok, HAND_SIZE - sum(counts))
        if sum(counts) + unknown != HAND_SIZE:
            where_tok = cards_tok or unknown_tok
            raise NotationError(
                "deal-size",
                f"seat {seat} is dealt {sum(counts) + unknown} cards: expected {HAND_SIZE}",
                *_loc(where_tok),
            )
        hands[seat] = format_cards(counts) + (f"?{unknown}" if unknown else "")
        known_cards.append(counts)
        where.deal[seat] = _loc(seat_tok)
    missing = [s for s in range(1, 7) if s not in hands]
    if missing:
        raise NotationError(
            "deal-seat",
            f"the deal gives no cards to seat {missing[0]}: expected a line '{missing[0]}: …' for each seat 1-6",
            *_loc(deal[-1][0]),
        )
    running = parse_cards("")
    for (seat_tok, _, _), counts in zip(deal, known_cards):
        running = tuple(a + b for a, b in zip(running, counts))
        for r, (n, cap) in enumerate(zip(running, COPIES)):
            if n > cap:
                raise NotationError(
                    "deal-cards",
                    f"the deal has {n} cards {RANK_LETTERS[r]}: four decks hold {cap} "
                    f"(seat {str(seat_tok)[0]} brings them over)",
                    *_loc(seat_tok),
                )

    comment: list[str] = []
    preplay: list[Action] = []
    actions: list[Action] = []
    section = preplay
    pending_round: int | None = None
    notes: list[str] = []  # comments on the last action, attached to it once (not one copy each)

    def attach() -> None:
        owner = actions or preplay
        owner[-1] = owner[-1].model_copy(update={"comments": (*owner[-1].comments, *notes)})
        notes.clear()

    for item in [*preplay_items, ("play",), *items]:
        kind = item[0]
        if kind == "action":
            if notes:
                attach()
            action = item[1]
            if pending_round is not None:
                action = action.model_copy(update={"round": pending_round})
                pending_round = None
            section.append(action)
            where.actions.append(item[2])
        elif kind == "play":
            section = actions
        elif kind == "comment":  # a comment belongs to the action before it, else to the hand
            if actions or preplay:
                notes.append(item[1])
            else:
                comment.append(item[1])
        else:
            tok = item[1]
            if pending_round is not None:
                raise NotationError(
                    "syntax", "a round number must stand before an action", *where.rounds[len(where.actions)]
                )
            digits = str(tok)[:-1]
            if len(digits) > len(str(MAX_ROUND)):
                what = f"round number of {len(digits)} digits: round numbers run from 1 to {MAX_ROUND}"
                raise NotationError("syntax", what, *_loc(tok))
            pending_round = int(digits)
            if pending_round < 1:
                raise NotationError("syntax", "round numbers start at 1", *_loc(tok))
            where.rounds[len(where.actions)] = _loc(tok)
    if notes:
        attach()
    if pending_round is not None:
        line, col = where.rounds.pop(len(where.actions))
        raise NotationError("syntax", "a round number must stand before an action", line, col)
    # Built without validating again: the grammar admits only valid shapes (declarations and
    # transfers alone before play, canonical cards and deal), and validating a record also
    # re-runs every action's model validator.
    record = GameRecord.model_construct(
        tags=tag_values,
        deal=tuple(hands[s] for s in range(1, 7)),
        preplay=tuple(preplay),
        comment=tuple(comment),
        actions=tuple(actions),
    )
    return record, where


def _unknown(tok: Token | None, rest: int) -> int:
    """How many cards ``?N`` (or ``?`` alone: the rest of the hand; ``-``: the whole hand) stands for."""
    if tok is None:
        return 0
    text = str(tok)
    if text in ("?", "-"):
        return rest
    if len(text) > 4:  # more than a hand in any case (and int() refuses thousands of digits)
        raise NotationError(
            "deal-size", f"{text[:8]}… stands for more cards than a hand holds ({HAND_SIZE})", tok.line, tok.column
        )
    return int(text[1:])


def _cards(tok: Token):
    try:
        return parse_cards(str(tok))
    except CardError as e:
        raise NotationError("bad-card", str(e), tok.line, tok.column + e.offset) from None
