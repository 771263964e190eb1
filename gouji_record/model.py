"""The record model (牌谱): what a ``.gjn`` file says, as pydantic records.

A :class:`GameRecord` is one hand: tag pairs, the deal and the actions. It
holds exactly what the notation holds, no derived state; the engine derives
the rest. Cards are kept as canonical card strings (strongest first, ``T``
for ten), so two records of the same hand compare equal.

>>> a = Action(seat=3, kind="play", cards="qqq")
>>> a.cards, a.text
('QQQ', '3:QQQ')
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from enum import Enum
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, field_validator, model_validator

from .cards import COPIES, HAND_SIZE, RANK_LETTERS, CardError, format_cards, parse_cards
from .errors import NotationError
from .width import fold_comment

#: A seat number, 1–6 counterclockwise in playing order (seat i+1 acts after seat i). Strict: a
#: seat is an integer, never ``true`` or ``"3"``.
Seat = Annotated[int, Field(ge=1, le=6, strict=True)]
#: The largest round number (four digits: a hand has at most 216 plays, so at most 216 rounds).
MAX_ROUND = 9_999
#: Numeric annotations ``$0`` … ``$255``, as in PGN.
MAX_NAG = 255
#: The annotation glyphs an action may carry.
GLYPHS = ("!", "?", "!!", "??", "!?", "?!")
#: What a tag name may be: letters, digits and ``_``, starting with a letter (the grammar's TAG_NAME).
TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")

#: Tags every record carries, in export order (docs/notation.md).
REQUIRED_TAGS = (
    "Event",
    "Site",
    "Date",
    "Round",
    "Ruleset",
    "Seat1",
    "Seat2",
    "Seat3",
    "Seat4",
    "Seat5",
    "Seat6",
    "Result",
)
#: Optional tags with a meaning, written after the required ones in this order (docs/notation.md).
KNOWN_TAGS = ("Score", "Options", "Match", "Hand", "Annotator")
#: Required tags a reader fills in when a record leaves them out, and the value it gives.
DEFAULT_TAGS = {"Round": "?"}
#: The tag that says which version of the notation a text follows (``notation.version``): a reader
#: reads it, the writer writes it, and a record never holds it.
NOTATION_TAG = "Notation"

_SCORE = re.compile(r"-?\d+ -?\d+")
_DATE = re.compile(r"\?|(\d{4}|\?{4})\.(\d{2}|\?\?)\.(\d{2}|\?\?)")


def date_ok(value: str) -> bool:
    """Whether ``value`` is a Date tag value: ``YYYY.MM.DD`` with ``?`` for unknown parts, or ``?``.

    >>> date_ok("2026.11.??"), date_ok("2026.13.01"), date_ok("?")
    (True, False, True)
    """
    m = _DATE.fullmatch(value)
    if not m:
        return False
    if value == "?":
        return True
    _, month, day = m.groups()
    return (month == "??" or 1 <= int(month) <= 12) and (day == "??" or 1 <= int(day) <= 31)


def score_ok(value: str) -> bool:
    """Whether ``value`` is a Score tag value: two whole numbers, team 1-3-5's first (``"2 0"``)."""
    return bool(_SCORE.fullmatch(value.strip()))


def _code(c: str) -> str:
    return f"U+{ord(c):04X}"


#: Control characters that end a line (str.splitlines breaks there).
_LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85")
#: What a tag value may not hold: the control characters (Unicode Cc) and surrogates.
_NOT_IN_TAG = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
#: What a comment may not hold: control characters other than white space (ESC starts the
#: terminal's escape sequences), and surrogates; white space is folded to one space.
NOT_IN_COMMENT = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\ud800-\udfff]")


def tag_value_problem(value: str) -> str | None:
    r"""Why ``value`` cannot be a tag value, or ``None``: a tag value is one line of printable
    text, so it holds no control character (Unicode category Cc: line breaks, tab, NUL,
    escape) and no lone surrogate (UTF-8 cannot encode one).

    >>> tag_value_problem("Zhang Wei \u2028 \\n") is None
    True
    >>> tag_value_problem("a\nb")
    'holds a line break (U+000A) at character 2: a tag value is one line of text'
    """
    m = _NOT_IN_TAG.search(value)
    if m is None:
        return None
    c, i = m.group(), m.start() + 1
    if c in _LINE_BREAKS:
        return f"holds a line break ({_code(c)}) at character {i}: a tag value is one line of text"
    if unicodedata.category(c) == "Cs":
        return f"holds a lone surrogate ({_code(c)}) at character {i}: UTF-8 cannot encode it"
    return f"holds a control character ({_code(c)}) at character {i}: a tag value is printable text"


def tag_problem(name: str, value: str) -> str | None:
    """Why ``[name "value"]`` cannot be a tag pair, or ``None``: the name is not a tag name,
    the value is not one line of printable text (:func:`tag_value_problem`), or a Date,
    Score or Result value is malformed.

    >>> tag_problem("White Elo", "2400")
    "tag name 'White Elo': expected letters, digits and _, starting with a letter"
    """
    if not TAG_NAME.fullmatch(name):
        return f"tag name {name!r}: expected letters, digits and _, starting with a letter"
    problem = tag_value_problem(value)
    if problem is not None:
        return f"tag {name} {problem}"
    if name == "Date" and not date_ok(value):
        return f'Date {value!r}: expected YYYY.MM.DD, with ? for unknown parts ("2026.11.??"), or "?"'
    if name == "Score" and not score_ok(value):
        return f'Score {value!r}: expected the scores of team 1-3-5 and team 2-4-6, like "2 0"'
    if name == "Result":
        try:
            parse_result(value)
        except ValueError as e:
            return str(e)
    return None


def _tag_name(name: str) -> str:
    if not TAG_NAME.fullmatch(name):
        raise ValueError(f"tag name {name!r}: expected letters, digits and _, starting with a letter")
    return name


def _tag_value(value: str) -> str:
    problem = tag_value_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


#: A tag name (letters, digits and ``_``, starting with a letter) and a tag value (one line of
#: printable text), checked one by one so that an error names its tag (``tags.Event``).
TagName = Annotated[str, AfterValidator(_tag_name)]
TagValue = Annotated[str, AfterValidator(_tag_value)]


def comment_text(text: str) -> str:
    r"""A comment as the notation holds it, white space folded as the reader folds it
    (:func:`~gouji_record.width.fold_comment`).

    >>> comment_text("  two\n words } ")
    'two words }'

    Raises:
        ValueError: what a ``.gjn`` file cannot hold: lone surrogates, and control characters other
            than white space (:func:`comment_problem`).
    """
    problem = comment_problem(text)
    if problem is not None:
        raise ValueError(problem[1])
    return fold_comment(text)


def comment_problem(text: str) -> tuple[int, str] | None:
    """Where (0-based) and why ``text`` cannot be a comment, or ``None``.

    >>> comment_problem("ok \x1b[31m red")
    (3, 'holds a control character (U+001B) at character 4: a comment is printable text')
    """
    m = NOT_IN_COMMENT.search(text)
    if m is None:
        return None
    c, i = m.group(), m.start()
    if unicodedata.category(c) == "Cs":
        return i, f"holds a lone surrogate ({_code(c)}) at character {i + 1}: a .gjn file cannot hold it"
    return i, f"holds a control character ({_code(c)}) at character {i + 1}: a comment is printable text"


#: A comment: folded when the record is made (:func:`comment_text`), so an error names its index.
Comment = Annotated[str, AfterValidator(comment_text)]


def canonical_cards(text: str) -> str:
    """Canonical form of a card string (raises :class:`CardError` if not cards)."""
    return format_cards(parse_cards(text))


def split_hand(text: str) -> tuple[str, int]:
    """A dealt hand as ``(known cards, number of unknown cards)``: ``"DXX22?31"`` → ``("DXX22", 31)``.

    >>> split_hand("dxx22?31"), split_hand("?36"), split_hand("33")
    (('DXX22', 31), ('', 36), ('33', 0))
    """
    known, mark, unknown = text.partition("?")
    return canonical_cards(known), int(unknown or 1) if mark else 0


#: A stored hand: cards (any spelling the card reader takes), then ``?N`` (N of one or two digits).
_HAND = re.compile(r"[^?]*(?:\?[0-9]{0,2})?", re.DOTALL)


def join_hand(known: str, unknown: int) -> str:
    """The stored form of a hand with ``unknown`` cards not known: ``"DXX22?31"``."""
    return known + (f"?{unknown}" if unknown else "")


class ActionKind(str, Enum):
    """Kinds of action: a play (出牌/顺牌), a pass (过牌), a yield (让牌), a
    request to take the wind (申请接风), a claim of the rest (挑牌); and the
    declarations before play: revolution (革命), keeping a head (要头) or not
    (无头), natural opening (自然开点), a call that the opposite will not open
    (宣点/明点: ``call``; 预点: ``precall``), and a transfer of cards (``give``:
    tribute, its return, and with a ``purpose`` the two transfers of a purchase of a
    3 or a 4 and a gift of one); and the suited steps before play: showing cards of one
    suit to lead the first hand (``show``, 上班: 亮3, 顶班) and drawing a card for the
    teams (``draw``, 抽签组邦)."""

    PLAY = "play"
    PASS = "pass"
    YIELD = "yield"
    WIND = "wind"
    CLAIM = "claim"
    REVOLT = "revolt"
    KEEP_HEAD = "keep-head"
    NO_HEAD = "no-head"
    NATURAL = "natural"
    CALL = "call"
    PRECALL = "precall"
    GIVE = "give"
    SHOW = "show"
    DRAW = "draw"

    @property
    def preplay(self) -> bool:
        """Whether this is a declaration made before play."""
        return self in _PREPLAY


#: The declarations made before play (革命, 要头, 无头, 自然开点, 宣点, 预点), in notation order.
DECLARATION_KINDS = (
    ActionKind.REVOLT,
    ActionKind.KEEP_HEAD,
    ActionKind.NO_HEAD,
    ActionKind.NATURAL,
    ActionKind.CALL,
    ActionKind.PRECALL,
)
#: The steps before play that show suited cards: 上班 (亮3, 顶班) and 抽签组邦.
SUITED_KINDS = (ActionKind.SHOW, ActionKind.DRAW)
_PREPLAY = frozenset({*DECLARATION_KINDS, ActionKind.GIVE, *SUITED_KINDS})

#: The Chinese words the notation reads (docs/notation.md §3.3, §3.4), and the word each stands
#: for: the writer writes that one.
CHINESE_WORDS = {
    "革命": "revolt",
    "要头": "keep-head",
    "无头": "no-head",
    "自然开点": "natural",
    "宣点": "call",
    "明点": "call",
    "预点": "precall",
    "接风": "wind",
    "挑牌": "claim",
    "买": "buy",
    "赠与": "gift",
    "赠": "gift",
    "拒绝": "refuse",
    "拒": "refuse",
    "亮": "show",
    "抽签": "draw",
}
#: Suits, as the notation writes them: spades (黑桃), hearts (红桃), clubs (梅花), diamonds (方块).
SUITS = ("s", "h", "c", "d")
#: The red suits (hearts, diamonds), for the teams drawn by colour (抽签组邦).
RED_SUITS = frozenset({"h", "d"})
Suit = Literal["s", "h", "c", "d"]
#: Suits as they may be written (the letter, a capital, the symbol, the Chinese word), and the
#: notation's letter for each (黑桃, 红桃, 梅花, 方块).
SUIT_WORDS = {
    **{c: c for c in SUITS},
    **{c.upper(): c for c in SUITS},
    **dict(zip("♠♥♣♦", SUITS)),
    **dict(zip(("黑桃", "红桃", "梅花", "方块"), SUITS)),
}
#: Decks in play: each card (suit and rank) is there this many times.
DECKS = 4


def suited_problem(kind: ActionKind, cards: str) -> None:
    """Check the cards of a ``show`` or a ``draw`` (canonical): one rank, no joker; a show
    of at most four cards (four decks hold four cards of each suit and rank), a draw of one.

    >>> suited_problem(ActionKind.SHOW, "444")
    >>> suited_problem(ActionKind.SHOW, "44444")
    Traceback (most recent call last):
    ValueError: a show is cards of one suit: at most 4 of a rank (four decks), not 5

    Raises:
        ValueError: naming what is wrong.
    """
    if len(set(cards)) != 1 or cards[0] in "XD":
        raise ValueError(f"the cards of a {kind.value} are of one suit and one rank, without jokers: not {cards}")
    if kind is ActionKind.DRAW and len(cards) != 1:
        raise ValueError(f"a draw is one card, not {len(cards)}")
    if len(cards) > DECKS:
        raise ValueError(f"a show is cards of one suit: at most {DECKS} of a rank (four decks), not {len(cards)}")


class Action(BaseModel):
    """One action at the table, attributed to its seat.

    ``cards`` is the canonical card string of a play (empty for pass and
    yield); ``burn`` marks a play as a burn claim (烧牌, written ``*``).
    ``round`` is the round number written before the action, if any;
    ``glyph`` an annotation (``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``);
    ``nags`` numeric annotations (``$12``); ``irregular`` marks an action
    recorded as it happened at the table though it may break the rules
    (``^``), for the engine to rule on; ``comments`` the comments written
    after the action. ``purpose`` marks a transfer (``give``) that is not
    tribute: ``buy``, one of the two transfers of a purchase of a 3 or a 4
    (买三, 买四: the price, then the card bought back the other way), or
    ``gift``, a 3 or a 4 given (赠与), or ``refuse``, a transfer offered and refused, which moves
    no card: a tribute its taker refuses (拒绝吃贡) or a returned card its receiver refuses
    (拒绝还贡牌, to be replaced); see :func:`preplay_items`. ``suit`` is the suit
    of the cards of a ``show`` (2 to 4 cards of one rank, 上班) or a ``draw`` (one card,
    抽签组邦), written before them: ``1:show h444``, ``2:draw s7``; plays carry no suits.
    """

    # Its validator is built when first used, not as the class is defined (pydantic's
    # ``defer_build``): ``gouji validate`` makes its records, rulesets and events from trusted
    # values (``model_construct``) and never validates one in a valid file, so it builds none.
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    seat: Seat
    kind: ActionKind
    to: Seat | None = None
    cards: str = ""
    burn: StrictBool = False
    round: Annotated[int, Field(ge=1, le=MAX_ROUND, strict=True)] | None = None
    glyph: Literal["!", "?", "!!", "??", "!?", "?!"] | None = None
    nags: tuple[Annotated[int, Field(ge=0, le=MAX_NAG, strict=True)], ...] = ()
    irregular: StrictBool = False
    comments: tuple[Comment, ...] = ()
    purpose: Literal["buy", "gift", "refuse"] | None = None
    suit: Suit | None = None

    @field_validator("cards")
    @classmethod
    def _canonical(cls, v: str) -> str:
        return canonical_cards(v) if v else v

    @model_validator(mode="after")
    def _shape(self) -> Action:
        if (self.kind in (ActionKind.PLAY, ActionKind.GIVE, *SUITED_KINDS)) != bool(self.cards):
            raise ValueError("a play, a transfer, a show or a draw has cards; other actions have none")
        if (self.kind in SUITED_KINDS) != (self.suit is not None):
            raise ValueError("a show or a draw has a suit (s, h, c, d); other actions have none")
        if self.kind in SUITED_KINDS:
            suited_problem(self.kind, self.cards)
        if (self.kind is ActionKind.GIVE) != (self.to is not None) or self.to == self.seat:
            raise ValueError("a transfer (give) goes from its seat to another seat")
        if self.burn and self.kind is not ActionKind.PLAY:
            raise ValueError("only a play can be a burn")
        if self.purpose is not None and self.kind is not ActionKind.GIVE:
            raise ValueError("only a transfer (give) has a purpose (buy, gift, refuse)")
        return self

    @property
    def text(self) -> str:
        """The action as the notation writes it, without its annotations (round number, glyph,
        ``$n``, comments): everything else that makes it this action, ``^`` first for an
        irregular one and the word of a purchase or a gift before a transfer. The exact inverse
        of :meth:`from_text`: ``Action.from_text(a.text) == a`` for every action ``a`` without
        annotations.

        >>> Action(seat=3, kind="play", cards="qqq").text, Action(seat=5, kind="play", cards="KKXX", burn=True).text
        ('3:QQQ', '5:*XXKK')
        >>> Action(seat=2, kind="pass", irregular=True).text, Action(seat=1, kind="give", to=4, cards="2", purpose="buy").text
        ('^2:-', 'buy 1>4:2')
        """
        return ("^" if self.irregular else "") + (f"{self.purpose} " if self.purpose else "") + self.plain_text

    @property
    def plain_text(self) -> str:
        """The seat and what it does, without the ``^`` of an irregular action or the word of a
        purchase or a gift: ``"5:*XXKK"``, ``"1>4:2"``, ``"1:show h444"`` (what a message quotes
        of an action, and what the writer puts after an item's word).

        >>> Action(seat=1, kind="give", to=4, cards="2", purpose="buy").plain_text
        '1>4:2'
        """
        if self.kind is ActionKind.PLAY:
            return f"{self.seat}:{'*' if self.burn else ''}{self.cards}"
        if self.kind is ActionKind.GIVE:
            return f"{self.seat}>{self.to}:{self.cards}"
        if self.suit is not None:
            return f"{self.seat}:{self.kind.value} {self.suit}{self.cards}"
        body = _BODIES.get(self.kind, self.kind.value)
        return f"{self.seat}:{body}"

    @classmethod
    def from_text(cls, text: str) -> Action:
        """The action ``text`` writes, as :attr:`text` writes it: the exact inverse of :attr:`text`.

        A seat 1–6, a colon and what it does: cards (a play, ``3:QQQ``), ``*`` and cards (a burn,
        ``5:*XXKK``), ``-`` (a pass), ``~`` (a yield), a word (``wind``, ``claim``, ``revolt``,
        ``keep-head``, ``no-head``, ``natural``, ``call``, ``precall``), or ``show`` or ``draw``, a
        suit ``s h c d`` and cards (``1:show h444``); or a transfer of cards ``5>2:3``, after
        ``buy``, ``gift`` or ``refuse`` for a purchase's, a gift's or a refusal's (``buy 1>4:2``).
        ``^`` before any of them marks it irregular. One action is read exactly as a ``.gjn`` file
        reads it (docs/notation.md §3.3, §3.4; ``tests/test_one_reading.py`` checks the two agree):
        cards as :func:`~gouji_record.cards.parse_cards` reads them (``10``, lower case, 大王 …),
        kept canonical; ``：`` for ``:``; the Chinese words (革命, 接风, 买, 亮 …:
        :data:`CHINESE_WORDS`), a suit's capital, symbol or Chinese name (:data:`SUIT_WORDS`); and
        white space where the notation lets it stand between an action's parts (after the colon and
        the ``*``, after ``buy``, ``gift``, ``refuse``, ``show`` and ``draw``). Nothing else is taken:
        no annotations (glyph, ``$n``, round number, comment), no white space before or after the
        action or inside its cards.

        >>> Action.from_text("3:QQQ") == Action(seat=3, kind="play", cards="QQQ")
        True
        >>> [(a.seat, a.kind.value, a.to, a.cards, a.purpose) for a in map(Action.from_text, ["^6:-", "buy 1>4:2"])]
        [(6, 'pass', None, '', None), (1, 'give', 4, '2', 'buy')]
        >>> Action.from_text("2:革命").text, Action.from_text("赠 4>1:3").text, Action.from_text("5: *大王KK").text
        ('2:revolt', 'gift 4>1:3', '5:*DKK')
        >>> Action.from_text("3:QQZ")
        Traceback (most recent call last):
          ...
        gouji_record.errors.NotationError: action '3:QQZ', character 5: 'Z' is not a card: expected one of 3-9 T J Q K A 2 X D (or 10)

        Raises:
            NotationError: text that is not an action (a ``ValueError``), naming what was expected; its
                ``column`` is the character (from 1) where the text goes wrong, its ``code``
                ``bad-card`` for a character that is not a card, else ``syntax``.
        """
        m = _ACTION_TEXT.fullmatch(text) if isinstance(text, str) else None
        if m is None:
            _refuse(text)
        irregular, purpose, giver, taker, seat, body = m.groups()
        fields: dict = {"irregular": bool(irregular)}
        if giver is not None:
            fields |= {"seat": int(giver), "kind": ActionKind.GIVE, "to": int(taker)}
            fields["purpose"] = _READ_AS.get(purpose, purpose)
            fields["cards"] = _text_cards(text, m.start(6), body)
        else:
            fields["seat"] = int(seat)
            if word := _DECLARED.fullmatch(body) or _PLAY_WORD.fullmatch(body):
                fields["kind"] = ActionKind(_READ_AS.get(word[1], word[1]))
            elif suited := _SUITED_TEXT.fullmatch(body):
                fields |= {"kind": ActionKind(_READ_AS.get(suited[1], suited[1])), "suit": SUIT_WORDS[suited[2]]}
                fields["cards"] = _text_cards(text, m.start(6) + suited.start(3), suited[3])
            else:
                played = _PLAYED.fullmatch(body)
                burn = bool(played[1])
                fields |= {"kind": ActionKind.PLAY, "burn": burn}
                fields["cards"] = _text_cards(text, m.start(6) + played.start(2), played[2], words=not burn)
        try:
            return cls(**fields)
        except ValueError as e:  # pydantic's ValidationError: a shape the model refuses
            reason = "; ".join(err["msg"].removeprefix("Value error, ") for err in e.errors())  # type: ignore[attr-defined]
            raise NotationError("syntax", f"action {text!r}: {reason}", 1, 1) from None


#: The bodies of a pass and a yield; other actions without cards write their kind's name.
_BODIES = {ActionKind.PASS: "-", ActionKind.YIELD: "~"}
#: What a body or a word stands for, where it is not its own name: ``-`` a pass, 革命 ``revolt`` …
_READ_AS = {**{body: kind.value for kind, body in _BODIES.items()}, **CHINESE_WORDS}
_NOT_WORDS = ("play", "give", "show", "draw")
#: The words that may follow ``S:`` alone (a pass, a yield, a word), as the message lists them.
_WORDS = [*_BODIES.values(), *(k.value for k in ActionKind if k not in _BODIES and k.value not in _NOT_WORDS)]
#: White space between two of the notation's tokens, which the grammar skips (its ``WS``).
_SPACE = "[ \t\f\r\n]*+"
#: The words before a transfer, as the grammar's BUY, GIFT and REFUSE read them.
_TRANSFER_WORDS = "buy|gift|refuse|买|赠与|赠|拒绝|拒"
#: An action's text: ``^``, then a transfer (``buy 1>4:2``, groups 2–4, its cards 6) or a seat and a body (5, 6).
#: White space stands where the grammar lets it stand between tokens (after ``buy``, after the
#: transfer's colon; in the body, as below), never before ``^`` or the seat, nor after the action.
_ACTION_TEXT = re.compile(
    rf"(\^?)(?:(?:({_TRANSFER_WORDS}){_SPACE})?([1-6])>([1-6])[:：]{_SPACE}|([1-6])[:：])(.+)", re.DOTALL
)
#: Bodies after ``S:``: a declaration (the grammar's SEAT, then DECLARATION); a pass, a yield, a
#: request or a play (its ACTION token, which takes any white space after the colon and the ``*``);
#: a show or a draw (SEAT, SUITED_STEP, then SUITED_CARDS: the suit first).
_DECLARED = re.compile(rf"{_SPACE}(revolt|keep-head|no-head|natural|call|precall|革命|要头|无头|自然开点|宣点|明点|预点)")
_PLAY_WORD = re.compile(r"\s*(-|~|wind|claim|接风|挑牌)")
_PLAYED = re.compile(r"\s*(\*?)\s*(.*)", re.DOTALL)
_SUITED_TEXT = re.compile(rf"{_SPACE}(show|draw|亮|抽签){_SPACE}(黑桃|红桃|梅花|方块|[♠♥♣♦shcdSHCD])(.+)", re.DOTALL)
_EXPECTED_BODY = (
    "expected cards (3:QQQ), * and cards (a burn, 5:*XXKK), - (a pass), ~ (a yield), a word ("
    + ", ".join(word for word in _WORDS if word not in "-~")
    + ") or show/draw, a space and a suit s h c d with cards (1:show h444)"
)


def constructed_action(**fields: object) -> Action:
    """``Action.model_construct(**fields)``: the same instance (``seat`` and ``kind`` given, the
    other fields their defaults, ``fields`` as the fields set), made without pydantic's loop over
    the defaults (about 1 µs, not 5: a file's readers make one for each new token). Trusted
    values, never validated, as ``model_construct``.

    Raises:
        KeyError: a field the model lacks.
    """
    values = _ACTION_DEFAULTS.copy()
    for name, value in fields.items():
        if name not in values:
            raise KeyError(name)
        values[name] = value
    return _assembled(Action, values, set(fields))


def updated_action(action: Action, name: str, value: object) -> Action:
    """``action.model_copy(update={name: value})``: the same instance (its fields, ``name`` set to
    ``value`` and added to the fields set), made without pydantic's copying (under 1 µs, not 2: a
    file of matches numbers 60,000 actions, each a copy of an action with its round)."""
    values = action.__dict__.copy()
    values[name] = value
    return _assembled(Action, values, action.__pydantic_fields_set__ | {name})


def _assembled(cls: type[BaseModel], values: dict, fields_set: set[str]) -> BaseModel:
    """An instance of ``cls`` holding ``values`` (every field, in the class's order) and
    ``fields_set``, as ``model_construct`` leaves it (no extra fields, no private attributes)."""
    instance = _new(cls)
    _setattr(instance, "__dict__", values)
    _setattr(instance, "__pydantic_fields_set__", fields_set)
    _setattr(instance, "__pydantic_extra__", None)
    _setattr(instance, "__pydantic_private__", None)
    return instance


_new, _setattr = object.__new__, object.__setattr__
#: Every field of an action and its default (``seat`` and ``kind`` have none: always given).
_ACTION_DEFAULTS = {name: None if field.is_required() else field.default for name, field in Action.model_fields.items()}


def _text_cards(text: str, at: int, cards: str, words: bool = False) -> str:
    """The canonical form of ``cards``, which stand at ``at`` (0-based) in the action ``text``;
    with ``words``, text that is no card from its first character is said to be no action body."""
    try:
        counts = parse_cards(cards)
    except CardError as e:
        column = at + e.offset + 1
        if words and e.offset == 0:
            raise NotationError("syntax", f"action {text!r}, character {column}: {_EXPECTED_BODY}", 1, column) from None
        hint = "; annotations (! ? $n) and comments are not part of an action" if cards[e.offset] in "!?${;" else ""
        raise NotationError("bad-card", f"action {text!r}, character {column}: {e}{hint}", 1, column) from None
    space = re.search(r"\s", cards)
    if space is not None or not any(counts):
        column = at + (space.start() if space else 0) + 1
        what = "no white space inside cards" if space is not None else "cards"
        raise NotationError("syntax", f"action {text!r}, character {column}: expected {what}", 1, column)
    return format_cards(counts)


def _refuse(text: object) -> None:
    """Raise the error for ``text`` that :data:`_ACTION_TEXT` does not match, saying what was expected."""
    if not isinstance(text, str):
        raise NotationError("syntax", f"an action's text is a str, not {type(text).__name__}", 1, 1)
    head = re.match(rf"\^?(?:(?:{_TRANSFER_WORDS}){_SPACE})?", text)
    rest, at = text[head.end() :], head.end() + 1  # type: ignore[union-attr]
    if not rest[:1] or rest[0] not in "123456":
        what = "a seat 1-6 and a colon (3:QQQ), or a transfer from seat to seat (5>2:3)"
        if head.group().rstrip("^"):  # type: ignore[union-attr]
            what = "a transfer from seat to seat after the word (buy 1>4:2)"
        raise NotationError("syntax", f"action {text!r}, character {at}: expected {what}", 1, at)
    if rest[1:2] == ">":
        if rest[2:3] not in tuple("123456"):
            raise NotationError("syntax", f"action {text!r}, character {at + 2}: expected the seat 1-6 given to", 1, at + 2)
        at += 3
        what = "a colon and the cards given (5>2:3)"
    elif head.group().rstrip("^"):  # type: ignore[union-attr]
        raise NotationError("syntax", f"action {text!r}, character {at + 1}: expected > and the seat given to (buy 1>4:2)", 1, at + 1)
    else:
        at += 1
        what = "a colon after the seat (3:QQQ)"
    if rest[at - head.end() - 1 : at - head.end()] not in (":", "："):
        raise NotationError("syntax", f"action {text!r}, character {at}: expected {what}", 1, at)
    if rest[1:2] == ">":
        raise NotationError("syntax", f"action {text!r}, character {at + 1}: expected the cards given (5>2:3)", 1, at + 1)
    raise NotationError("syntax", f"action {text!r}, character {at + 1}: {_EXPECTED_BODY}", 1, at + 1)


class GameRecord(BaseModel):
    """One hand (一局) as recorded.

    ``tags`` keeps every tag pair in file order (unknown tags included);
    ``deal`` the cards of seats 1–6, canonical, ``?N`` ending a hand with N
    cards not known (``"?36"``: nothing known; ``?`` alone on input: the rest
    of the hand; no deal given: nothing known of any hand); ``preplay`` the declarations
    before play (革命, 要头/无头, 自然开点); ``comment`` the comments written
    before the first action; ``actions`` every action of play in order.

    Validation keeps to what a ``.gjn`` file can hold, so that
    ``parse_text(write(record))`` gives the record back (docs/notation.md, "What each field
    may hold"): tag names and values as :func:`tag_problem` checks them, the required tags
    (``Round`` filled in with ``?`` when missing), six hands of 36 cards within four decks,
    comments folded as the reader folds them. Unknown fields are refused.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)  # (see Action)

    tags: dict[TagName, TagValue]
    #: Not given: nothing is known of any hand, as a file without a ``deal`` section.
    deal: tuple[str, str, str, str, str, str] = (f"?{HAND_SIZE}",) * 6
    preplay: tuple[Action, ...] = ()
    #: The record says nothing at all happened before play (gjn 2.4: a ``preplay`` section written
    #: empty), so what the rules require then (a purchase, 买三) is checked as not made; ``False``
    #: with no pre-play actions: the record does not say (no section; docs/notation.md §3.3).
    empty_preplay: StrictBool = False
    comment: tuple[Comment, ...] = ()
    actions: tuple[Action, ...] = ()

    @model_validator(mode="after")
    def _empty_preplay(self) -> GameRecord:
        if self.empty_preplay and self.preplay:
            raise ValueError("empty_preplay says nothing happened before play: the preplay actions must be empty")
        return self

    @field_validator("tags")
    @classmethod
    def _tags(cls, v: dict[str, str]) -> dict[str, str]:
        for name, value in v.items():
            problem = tag_problem(name, value)
            if problem is not None:
                raise ValueError(problem)
        if NOTATION_TAG in v:
            raise ValueError(
                f"tag {NOTATION_TAG} is the version of the notation a text follows, not a tag of the hand: "
                "the writer writes it (docs/notation.md, Versions)"
            )
        v = {**v, **{name: value for name, value in DEFAULT_TAGS.items() if name not in v}}
        missing = [name for name in REQUIRED_TAGS if name not in v]
        if missing:
            raise ValueError(f"missing tag {missing[0]}: every hand needs " + ", ".join(REQUIRED_TAGS))
        return v

    @field_validator("preplay")
    @classmethod
    def _declarations(cls, v: tuple[Action, ...]) -> tuple[Action, ...]:
        if any(not a.kind.preplay or a.round is not None or a.irregular or a.nags for a in v):
            raise ValueError("the pre-play section holds declarations and transfers, without round numbers, ^ or $n")
        preplay_items(v)  # purchases come as two transfers
        return v

    @field_validator("actions")
    @classmethod
    def _plays(cls, v: tuple[Action, ...]) -> tuple[Action, ...]:
        for i, a in enumerate(v):
            if a.kind.preplay:
                raise ValueError(
                    f"action {i} is a {a.kind.value}: the play section holds plays, passes, yields, "
                    "wind and claim; declarations and transfers go in preplay"
                )
        return v

    @property
    def all_actions(self) -> tuple[Action, ...]:
        """Pre-play declarations, then the actions of play: the sequence the engine replays."""
        return self.preplay + self.actions

    @field_validator("deal")
    @classmethod
    def _canonical_deal(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        out, totals = [], [0] * len(COPIES)
        for seat, hand in enumerate(v, start=1):
            if not _HAND.fullmatch(hand):
                raise ValueError(f"seat {seat}: {hand[:40]!r}: expected cards, then ?N for N cards not known")
            known, unknown = split_hand(hand)
            counts = parse_cards(known)
            if hand.endswith("?"):  # ? alone: the rest of the hand, as in a file's deal
                unknown = max(0, HAND_SIZE - sum(counts))
            if sum(counts) + unknown != HAND_SIZE:
                raise ValueError(f"seat {seat} is dealt {sum(counts) + unknown} cards: expected {HAND_SIZE}")
            totals = [t + n for t, n in zip(totals, counts)]
            out.append(join_hand(known, unknown))
        for rank, (n, cap) in enumerate(zip(totals, COPIES)):
            if n > cap:
                raise ValueError(f"the deal has {n} cards {RANK_LETTERS[rank]}: four decks hold {cap}")
        return tuple(out)

    @property
    def ruleset_name(self) -> str:
        """The ``Ruleset`` tag's value."""
        return self.tags.get("Ruleset", "")

    def player(self, seat: int) -> str:
        """The name of the player in ``seat`` (``Seat1`` … ``Seat6`` tags)."""
        return self.tags.get(f"Seat{seat}", "?")

    @property
    def result_places(self) -> tuple[int, ...] | None:
        """Seats in order of place from the ``Result`` tag (``"3-6-1-4-5-2"``), or ``None`` for ``*``.

        Raises ``ValueError`` for a malformed value.
        """
        return parse_result(self.tags.get("Result", "*"))


def preplay_items(preplay: tuple[Action, ...]) -> list[tuple[str | None, tuple[Action, ...]]]:
    """The pre-play actions as the notation writes them: ``(purpose, actions)`` per item.

    A purchase (``buy``, 买三/买四) is two transfers in a row: the buyer's price to the seller,
    then the card bought, from the seller to the buyer (``buy 1>4:2 4>1:3``); a gift (``gift``,
    赠与) is one transfer, and so is a refusal (``refuse``, 拒绝: offered, refused, not moved);
    any other action is an item of its own (purpose ``None``).

    >>> [(p, [a.plain_text for a in acts]) for p, acts in preplay_items((
    ...     Action(seat=1, kind="give", to=4, cards="2", purpose="buy"),
    ...     Action(seat=4, kind="give", to=1, cards="3", purpose="buy"),
    ...     Action(seat=2, kind="revolt")))]
    [('buy', ['1>4:2', '4>1:3']), (None, ['2:revolt'])]

    Raises:
        ValueError: a ``buy`` transfer not followed by the transfer back between the same two seats.
    """
    out: list[tuple[str | None, tuple[Action, ...]]] = []
    i = 0
    while i < len(preplay):
        a = preplay[i]
        if a.purpose == "buy":
            b = preplay[i + 1] if i + 1 < len(preplay) else None
            if b is None or b.purpose != "buy" or (b.seat, b.to) != (a.to, a.seat):
                raise ValueError(
                    f"preplay[{i}]: a purchase is two transfers, the price and the card back "
                    f"({a.plain_text} then {a.to}>{a.seat}:…), both with purpose buy"
                )
            out.append(("buy", (a, b)))
            i += 2
        else:
            out.append((a.purpose, (a,)))
            i += 1
    return out


@lru_cache(maxsize=1024)
def parse_result(value: str) -> tuple[int, ...] | None:
    """Read a Result value: seats in order of place joined by ``-``; ``*`` for
    unfinished or unknown (``None``); ``void`` for a void hand (``()``). Kept for the values read
    (720 orders of six seats: each hand's is read by its reader and again by its replay).

    >>> parse_result("3-6-1-4-5-2")
    (3, 6, 1, 4, 5, 2)

    Raises:
        ValueError: unless it names each seat 1–6 once.
    """
    value = value.strip()
    if value == "*":
        return None
    if value == "void":
        return ()
    parts = value.split("-")
    if sorted(parts) != list("123456"):
        raise ValueError(
            f'Result {value!r}: expected the six seats in order of place, like "3-6-1-4-5-2", "*" or "void"'
        )
    return tuple(int(p) for p in parts)


__all__ = [
    "Action",
    "ActionKind",
    "CardError",
    "GLYPHS",
    "GameRecord",
    "MAX_NAG",
    "MAX_ROUND",
    "REQUIRED_TAGS",
    "Seat",
    "TAG_NAME",
    "canonical_cards",
    "comment_text",
    "constructed_action",
    "date_ok",
    "parse_result",
    "preplay_items",
    "score_ok",
    "tag_problem",
    "tag_value_problem",
    "updated_action",
]
