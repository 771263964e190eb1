"""Building records from the notation's tokens (建谱): the one place both readers, the grammar's
transformer (:mod:`~gouji_record.notation.grammar`) and the fast scanner
(:mod:`~gouji_record.notation.scanner`), turn tags, deal entries and actions into a
:class:`~gouji_record.model.GameRecord` with its :class:`SourceMap`, and the error they raise,
:class:`NotationError`.

>>> unescape(r'"say \\"hi\\""')
'say "hi"'
>>> action_from_token("^3:*qqq").text
'^3:*QQQ'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from operator import gt
from typing import TYPE_CHECKING


from ..cards import COPIES, HAND_SIZE, RANK_LETTERS, CardError, format_cards, parse_cards
from ..errors import NotationError
from ..model import (
    DEFAULT_TAGS,
    MAX_NAG,
    MAX_ROUND,
    NOT_IN_COMMENT,
    CHINESE_WORDS,
    REQUIRED_TAGS,
    SUIT_WORDS,
    Action,
    ActionKind,
    GameRecord,
    comment_problem,
    constructed_action,
    date_ok,
    parse_result,
    score_ok,
    suited_problem,
    tag_value_problem,
    updated_action,
)
from ..width import fold_comment
from .version import EMPTY_PREPLAY, VERSION_TAG, parse_version

if TYPE_CHECKING:  # (a type only: reading in the usual layout imports no Lark)
    from lark import Token

#: A line and a column, both 1-based.
Location = tuple[int, int]


@dataclass
class SourceMap:
    """Where each part of one hand stands in the file (1-based line, column)."""

    start: Location
    tags: dict[str, Location] = field(default_factory=dict)
    deal: dict[int, Location] = field(default_factory=dict)
    actions: list[Location] = field(default_factory=list)
    #: Round markers: index of the action each stands before → location.
    rounds: dict[int, Location] = field(default_factory=dict)
    #: The version of the notation the hand says it follows (its ``Notation`` tag, which the record
    #: does not hold: docs/notation.md, "Versions"), ``None`` when it says none.
    version: tuple[int, int] | None = None

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


def loc(tok: Token | Located) -> Location:
    return (tok.line, tok.column)


class Located(str):
    """A token's text and where it stands (``line``, ``column``, 1-based): all this module reads
    of a lark ``Token``, which the scanner makes in a fifth of the time (and, in slots, without a
    dictionary for the two)."""

    __slots__ = ("column", "line")
    line: int
    column: int

    def __new__(cls, text: str, line: int, column: int):
        token = str.__new__(cls, text)
        token.line, token.column = line, column
        return token


_ESCAPE = re.compile(r'\\(["\\])')


def unescape(value: str) -> str:
    """The text of a quoted tag value: quotes removed, ``\\"`` and ``\\\\`` undone; any other
    backslash is kept as it is."""
    return _ESCAPE.sub(r"\1", value[1:-1]) if "\\" in value else value[1:-1]


class BadComment(ValueError):
    """A comment holding what a comment may not (``offset``: where in the raw comment)."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset


def comment_text(raw: str) -> str:
    """The text of a ``{…}`` or ``;`` comment token.

    Raises:
        BadComment: a control character (:func:`~gouji_record.model.comment_problem`).
    """
    if NOT_IN_COMMENT.search(raw):
        offset, message = comment_problem(raw)  # type: ignore[misc]
        raise BadComment(offset, "comment " + message.replace(f"character {offset + 1}", f"character {offset}"))
    return fold_comment(raw[1:-1] if raw.startswith("{") else raw[1:])


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
    if kind is None and (body in CHINESE_WORDS or body in ("wind", "claim")):
        kind = ActionKind(CHINESE_WORDS.get(body, body))
    elif kind is None:
        kind, cards = ActionKind.PLAY, format_cards(parse_cards(body))
    return constructed_action(seat=int(seat), kind=kind, cards=cards, burn=bool(burn), irregular=bool(irregular))


def with_marks(action: Action, glyph: str | None, nags: str, where: Location = (0, 0)) -> Action:
    """``action`` with a glyph (``"!?"``) and numeric annotations written ``"$1$12"``.

    Raises :class:`NotationError` at ``where`` for a number above ``$255``."""
    numbers = tuple(nag_number(n, where) for n in _NAG.findall(nags))
    return action.model_copy(update={"glyph": glyph, "nags": numbers})


def nag_number(digits: str, where: Location) -> int:
    """The number of a numeric annotation, ``$0`` … ``$255`` (as in PGN); a larger one is an
    error at ``where`` (never converted: Python refuses ``int()`` of a 5000-digit string).

    Raises:
        NotationError: a number above 255 (``syntax``), at ``where``.
    """
    if len(digits) > len(str(MAX_NAG)) or int(digits) > MAX_NAG:
        shown = digits if len(digits) <= 12 else digits[:8] + f"… ({len(digits)} digits)"
        raise NotationError("syntax", f"numeric annotation ${shown}: expected $0 to ${MAX_NAG}", *where)
    return int(digits)


def transfer_item(give: Token, cards: Token, glyph: str | None) -> tuple:
    """The parsed item of a transfer ``6>1:DX``: the action and where it stands. A transfer from
    a seat to itself moves no card: cards change hands from one seat to another (docs/notation.md
    §3.3), as the record model has it.

    Raises:
        NotationError: at the card that is not one (``bad-card``); at the transfer (``syntax``)
            for one from a seat to itself.
    """
    if give[0] == give[2]:
        what = f"transfer {give[:3]}: a transfer goes from one seat to another, not from seat {give[0]} to itself"
        raise NotationError("syntax", what, *loc(give))
    try:
        action = _transfer(str(give), str(cards), glyph)
    except CardError as e:
        raise NotationError("bad-card", str(e), cards.line, cards.column + e.offset) from None
    return ("action", action, loc(give))


@lru_cache(maxsize=4096)
def _transfer(give: str, cards: str, glyph: str | None) -> Action:
    """The transfer ``give`` (``"6>1:"``) of ``cards`` as written: one shared instance for each
    (actions are immutable; making one and reading the cards cost microseconds a call).
    Raises :class:`~gouji_record.cards.CardError` as :func:`~gouji_record.cards.parse_cards`."""
    counts = parse_cards(cards.replace("\t", " "))
    return constructed_action(
        seat=int(give[0]), kind=ActionKind.GIVE, to=int(give[2]), cards=format_cards(counts), glyph=glyph
    )


def purchase_items(items: list[tuple]) -> list[tuple]:
    """The parsed items of a purchase ``buy 1>4:2 4>1:3`` (its two transfers, and any comments
    between them), the transfers marked ``buy``.

    Raises:
        NotationError: at the second transfer, unless it goes back between the same two seats.
    """
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
    """A parsed transfer item of a purchase (``buy``), a gift (``gift``) or a refusal (``refuse``), marked so; comments
    between a purchase's two transfers are left as they are."""
    if item[0] != "action":
        return item
    return ("action", _updated(item[1], "purpose", purpose), item[2])


_SUITED = re.compile(r"(黑桃|红桃|梅花|方块|.)(.*)", re.DOTALL)


def suited_item(seat: Token, step: str, cards: Token, glyph: str | None) -> tuple:
    """The parsed item of a show ``1:show h444`` (上班: 亮3, 顶班) or a draw ``2:draw s7``
    (抽签组邦): the action and where it stands.

    Raises:
        NotationError: at the cards (``bad-card``), for more than four of one suit, a joker, mixed
            ranks, or a draw of more than one card.
    """
    suit, ranks = _SUITED.fullmatch(str(cards)).groups()
    kind = ActionKind(CHINESE_WORDS.get(step, step))
    text = format_cards(parse_cards(ranks))
    try:
        suited_problem(kind, text)
    except ValueError as e:
        raise NotationError("bad-card", str(e), cards.line, cards.column + len(suit)) from None
    action = constructed_action(seat=int(seat[0]), kind=kind, cards=text, suit=SUIT_WORDS[suit], glyph=glyph)
    return ("action", action, loc(seat))


def declaration_item(seat: Token, word: str, glyph: str | None) -> tuple:
    """The parsed item of a declaration ``2:revolt`` (or ``2:革命``): the action and where it stands."""
    return ("action", _declaration(int(seat[0]), CHINESE_WORDS.get(word, word), glyph), loc(seat))


@lru_cache(maxsize=1024)
def _declaration(seat: int, kind: str, glyph: str | None) -> Action:
    """The declaration ``kind`` by ``seat``: one shared instance for each (actions are immutable)."""
    return constructed_action(seat=seat, kind=ActionKind(kind), glyph=glyph)


def check_tags(tags: list[tuple[str, str, Location]]) -> tuple[dict[str, str], dict[str, Location]]:
    """A hand's tags (each name, its value unescaped and where the name stands), in file order, checked
    as every reader checks them: the tags ``{name: value}`` in file order (``Round`` filled in
    with ``?`` when missing) and where each name stands. The ``Notation`` tag (the version of the
    notation) is checked and located but not among the tags: it is the text's, not the hand's.

    Raises:
        NotationError: a tag given twice (``duplicate-tag``), a value holding a control character
            (``bad-tag``), a required tag missing (``missing-tag``, at the first tag), a malformed
            Date, Score or Result (``bad-date``, ``bad-score``, ``bad-result``) and a ``Notation``
            tag that is not ``gjn MAJOR.MINOR`` (``bad-tag``) or names a major version this reader
            does not know (``notation-version``: :func:`~gouji_record.notation.version.parse_version`).
    """
    values: dict[str, str] = {}
    where: dict[str, Location] = {}
    for name, value, at in tags:
        if name in where:
            raise NotationError("duplicate-tag", f"tag {name} is given twice", *at)
        problem = tag_value_problem(value)
        if problem is not None:
            raise NotationError("bad-tag", f"tag {name} {problem}", *at)
        where[name] = at
        if name == VERSION_TAG:
            parse_version(value, at)
            continue
        values[name] = value
    for name, value in DEFAULT_TAGS.items():
        values.setdefault(name, value)
    for name in REQUIRED_TAGS:
        if name not in values:
            raise NotationError(
                "missing-tag", f'missing tag [{name} "…"]: every hand needs ' + ", ".join(REQUIRED_TAGS), *tags[0][2]
            )
    if not date_ok(values["Date"]):
        raise NotationError(
            "bad-date",
            f'Date {values["Date"]!r}: expected YYYY.MM.DD, with ? for unknown parts ("2026.11.??"), or "?"',
            *where["Date"],
        )
    if "Score" in values and not score_ok(values["Score"]):
        raise NotationError(
            "bad-score",
            f'Score {values["Score"]!r}: expected the scores of team 1-3-5 and team 2-4-6, like "2 0"',
            *where["Score"],
        )
    try:
        parse_result(values["Result"])
    except ValueError as e:
        raise NotationError("bad-result", str(e), *where["Result"]) from None
    return values, where


@dataclass
class Section:
    """A pre-play or play section as read, for :func:`build_hand`: its actions in order, where
    each stands, and the round numbers and comments written among them, each with the number of
    the section's actions before it: ``rounds`` as ``(at, "12.", location)``, ``comments`` as
    ``(at, text)``. The scanner fills one in as it reads (one append an action);
    :func:`section` makes one of the grammar's items."""

    actions: list[Action] = field(default_factory=list)
    where: list[Location] = field(default_factory=list)
    rounds: list[tuple[int, str, Location]] = field(default_factory=list)
    comments: list[tuple[int, str]] = field(default_factory=list)


def section(items: list[tuple]) -> Section:
    """The :class:`Section` of parsed items in file order: ``("action", action, location)``,
    ``("round", "12.", location)`` and ``("comment", text)``."""
    out = Section()
    for item in items:
        if item[0] == "action":
            out.actions.append(item[1])
            out.where.append(item[2])
        elif item[0] == "round":
            out.rounds.append((len(out.actions), item[1], item[2]))
        else:
            out.comments.append((len(out.actions), item[1]))
    return out


def round_number(text: str, where: Location) -> int:
    """The number a round number ``"12."`` writes, 1 … :data:`~gouji_record.model.MAX_ROUND`;
    kept in :data:`_ROUND_NUMBERS` (a file of matches numbers every round).

    Raises:
        NotationError: at ``where``, for a number out of that range (``syntax``).
    """
    number = _ROUND_NUMBERS.get(text)
    if number is None:
        digits = text[:-1]
        if len(digits) > len(str(MAX_ROUND)):
            what = f"round number of {len(digits)} digits: round numbers run from 1 to {MAX_ROUND}"
            raise NotationError("syntax", what, *where)
        number = int(digits)
        if number < 1:
            raise NotationError("syntax", "round numbers start at 1", *where)
        _ROUND_NUMBERS[text] = number  # at most 10**4 texts of 1 to 4 digits ("0001." among them)
    return number


#: :func:`round_number`'s numbers of the texts read so far: ``"12."`` → 12.
_ROUND_NUMBERS: dict[str, int] = {}


def _updated(action: Action, name: str, value: object) -> Action:
    """``action`` with the field ``name`` set to ``value`` (a round number, a purpose), made once
    for each instance and value (:func:`~gouji_record.model.updated_action`, under 1 µs a copy):
    a file of matches numbers 60,000 actions, nearly all of them instances :func:`action_from_token`
    shares. Keyed by the instance's ``id`` (an Action's own hash is a Python function over its
    fields); the entry holds the instance, so that no other object can take its ``id`` while it is
    there."""
    key = (id(action), name, value)
    hit = _UPDATED.get(key)
    if hit is None:
        if len(_UPDATED) >= _UPDATED_KEPT:
            _UPDATED.clear()
        hit = _UPDATED[key] = (action, updated_action(action, name, value))
    return hit[1]


#: :func:`_updated`'s instances: (id of the action, field, value) → (the action, the updated action).
_UPDATED: dict[tuple[int, str, object], tuple[Action, Action]] = {}
_UPDATED_KEPT = 65536


def _commented(action: Action, notes: list[str]) -> Action:
    """``action`` with ``notes`` added to its comments."""
    return updated_action(action, "comments", (*action.comments, *notes))


def build_hand(tags, deal, preplay: Section | None, play: Section) -> tuple[GameRecord, SourceMap]:
    """Check one parsed hand and build its record and source map. ``preplay``: ``None`` when
    the hand has no ``preplay`` section. A comment belongs to the action before it (in either
    section), else to the hand; a round number to the action after it.

    Raises:
        NotationError: a tag :func:`check_tags` refuses, a round number that stands before no
            action, a bad deal (a seat given twice or not at all, not 36 cards, more of a rank than
            four decks hold, a card not in the alphabet) or a malformed Result.
    """
    where = SourceMap(start=tags[0][2])
    tag_values, where.tags = check_tags(tags)
    if VERSION_TAG in where.tags:
        where.version = parse_version(next(v for name, v, _ in tags if name == VERSION_TAG), where.tags[VERSION_TAG])
    # gjn 2.4: a preplay section written empty says nothing happened before play (no section: not said)
    empty = preplay is not None and where.version is not None and where.version >= EMPTY_PREPLAY
    empty = empty and not preplay.actions

    hands: dict[int, str] = {}
    if deal is None:  # no deal section: nothing is known of the hands
        deal = []
        hands = {s: f"?{HAND_SIZE}" for s in range(1, 7)}
    known_cards: list = []
    for seat_tok, cards_tok, unknown_tok in deal:
        seat = int(str(seat_tok)[0])
        if seat in hands:
            raise NotationError("deal-seat", f"seat {seat} is dealt twice", *loc(seat_tok))
        counts = _cards(cards_tok) if cards_tok is not None else parse_cards("")
        unknown = _unknown(unknown_tok, HAND_SIZE - sum(counts))
        if sum(counts) + unknown != HAND_SIZE:
            where_tok = cards_tok or unknown_tok
            raise NotationError(
                "deal-size",
                f"seat {seat} is dealt {sum(counts) + unknown} cards: expected {HAND_SIZE}",
                *loc(where_tok),
            )
        written = str(cards_tok) if cards_tok is not None else ""
        canonical = written if _CANONICAL.fullmatch(written) else format_cards(counts)
        hands[seat] = canonical + (f"?{unknown}" if unknown else "")
        known_cards.append(counts)
        where.deal[seat] = loc(seat_tok)
    missing = [s for s in range(1, 7) if s not in hands]
    if missing:
        raise NotationError(
            "deal-seat",
            f"the deal gives no cards to seat {missing[0]}: expected a line '{missing[0]}: …' for each seat 1-6",
            *loc(deal[-1][0]),
        )
    if any(map(gt, map(sum, zip(*known_cards)), COPIES)):  # a rank over its count: the seat that brings it over
        running = parse_cards("")
        for (seat_tok, _, _), counts in zip(deal, known_cards):
            running = tuple(a + b for a, b in zip(running, counts))
            for r, (n, cap) in enumerate(zip(running, COPIES)):
                if n > cap:
                    raise NotationError(
                        "deal-cards",
                        f"the deal has {n} cards {RANK_LETTERS[r]}: four decks hold {cap} "
                        f"(seat {str(seat_tok)[0]} brings them over)",
                        *loc(seat_tok),
                    )

    comment: list[str] = []
    pre = preplay if preplay is not None else Section()
    before = len(pre.actions)  # the pre-play actions come first, then those of play
    actions = [*pre.actions, *play.actions]
    where.actions = [*pre.where, *play.where]
    round_at = -1  # the action the last round number stands before
    for first, rounds in ((0, pre.rounds), (before, play.rounds)):
        for at, text, location in rounds:
            at += first
            if round_at == at:
                raise NotationError("syntax", "a round number must stand before an action", *where.rounds[at])
            number = round_number(text, location)
            where.rounds[at] = location
            round_at = at
            if at < len(actions):
                actions[at] = _updated(actions[at], "round", number)
    if round_at == len(actions):
        raise NotationError("syntax", "a round number must stand before an action", *where.rounds[round_at])
    # comments after the round numbers: an action's round number stands before it, its comments after
    notes: list[str] = []  # the comments on one action, attached to it at once (not one copy each)
    notes_at = 0
    for first, comments in ((0, pre.comments), (before, play.comments)):
        for at, text in comments:
            at += first
            if not at:  # a comment belongs to the action before it, else to the hand
                comment.append(text)
                continue
            if notes and notes_at != at:
                actions[notes_at - 1] = _commented(actions[notes_at - 1], notes)
                notes = []
            notes_at = at
            notes.append(text)
    if notes:
        actions[notes_at - 1] = _commented(actions[notes_at - 1], notes)
    preplay_actions, actions = actions[:before], actions[before:]
    # Built without validating again: the grammar admits only valid shapes (declarations and
    # transfers alone before play, canonical cards and deal), and validating a record also
    # re-runs every action's model validator.
    record = GameRecord.model_construct(
        tags=tag_values,
        deal=tuple(hands[s] for s in range(1, 7)),
        preplay=tuple(preplay_actions),
        empty_preplay=empty,
        comment=tuple(comment),
        actions=tuple(actions),
    )
    return record, where


#: Card text as :func:`~gouji_record.cards.format_cards` writes it (each rank's letter repeated,
#: strongest first): a deal written so is kept as written, not written again (checking 36 cards
#: costs a fifth of writing them, and each seat's deal is a new string, never in a cache).
_CANONICAL = re.compile("".join(f"{letter}*" for letter in reversed(RANK_LETTERS)))


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
    """A deal entry's cards; spaces and tabs may stand between them (``X TT 55``)."""
    try:
        return parse_cards(str(tok).replace("\t", " "))
    except CardError as e:
        raise NotationError("bad-card", str(e), tok.line, tok.column + e.offset) from None
