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

from enum import Enum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .rules.cards import CardError, format_cards, parse_cards

#: A seat number, 1–6 counterclockwise in playing order (seat i+1 acts after seat i).
Seat = Annotated[int, Field(ge=1, le=6)]

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


def join_hand(known: str, unknown: int) -> str:
    """The stored form of a hand with ``unknown`` cards not known: ``"DXX22?31"``."""
    return known + (f"?{unknown}" if unknown else "")


class ActionKind(str, Enum):
    """Kinds of action: a play (出牌/顺牌), a pass (过牌), a yield (让牌), a
    request to take the wind (申请接风), a claim of the rest (挑牌); and the
    declarations before play: revolution (革命), keeping a head (要头) or not
    (无头), natural opening (自然开点), a call that the opposite will not open
    (宣点/明点: ``call``; 预点: ``precall``), and a transfer of cards (``give``:
    tribute, its return, buying a 3 or a 4)."""

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

    @property
    def preplay(self) -> bool:
        """Whether this is a declaration made before play."""
        return self in _PREPLAY


_PREPLAY = frozenset(
    {
        ActionKind.REVOLT,
        ActionKind.KEEP_HEAD,
        ActionKind.NO_HEAD,
        ActionKind.NATURAL,
        ActionKind.CALL,
        ActionKind.PRECALL,
        ActionKind.GIVE,
    }
)


class Action(BaseModel):
    """One action at the table, attributed to its seat.

    ``cards`` is the canonical card string of a play (empty for pass and
    yield); ``burn`` marks a play as a burn claim (烧牌, written ``*``).
    ``round`` is the round number written before the action, if any;
    ``glyph`` an annotation (``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``);
    ``nags`` numeric annotations (``$12``); ``irregular`` marks an action
    recorded as it happened at the table though it may break the rules
    (``^``), for the engine to rule on; ``comments`` the comments written
    after the action.
    """

    model_config = ConfigDict(frozen=True)

    seat: Seat
    kind: ActionKind
    to: Seat | None = None
    cards: str = ""
    burn: bool = False
    round: int | None = Field(default=None, ge=1, le=9999)  # four digits at most (docs/notation.md)
    glyph: str | None = None
    nags: tuple[int, ...] = ()
    irregular: bool = False
    comments: tuple[str, ...] = ()

    @field_validator("cards")
    @classmethod
    def _canonical(cls, v: str) -> str:
        return canonical_cards(v) if v else v

    @model_validator(mode="after")
    def _shape(self) -> Action:
        if (self.kind in (ActionKind.PLAY, ActionKind.GIVE)) != bool(self.cards):
            raise ValueError("a play or a transfer has cards; other actions have none")
        if (self.kind is ActionKind.GIVE) != (self.to is not None) or self.to == self.seat:
            raise ValueError("a transfer (give) goes from its seat to another seat")
        if self.burn and self.kind is not ActionKind.PLAY:
            raise ValueError("only a play can be a burn")
        return self

    @property
    def text(self) -> str:
        """The action as written in the notation, without round, glyph or comments."""
        if self.kind is ActionKind.PLAY:
            return f"{self.seat}:{'*' if self.burn else ''}{self.cards}"
        if self.kind is ActionKind.GIVE:
            return f"{self.seat}>{self.to}:{self.cards}"
        body = {ActionKind.PASS: "-", ActionKind.YIELD: "~"}.get(self.kind, self.kind.value)
        return f"{self.seat}:{body}"


class GameRecord(BaseModel):
    """One hand (一局) as recorded.

    ``tags`` keeps every tag pair in file order (unknown tags included);
    ``deal`` the cards of seats 1–6, canonical, ``?N`` ending a hand with N
    cards not known (``"?36"``: nothing known); ``preplay`` the declarations
    before play (革命, 要头/无头, 自然开点); ``comment`` the comments written
    before the first action; ``actions`` every action of play in order.
    """

    model_config = ConfigDict(frozen=True)

    tags: dict[str, str]
    deal: tuple[str, str, str, str, str, str]
    preplay: tuple[Action, ...] = ()
    comment: tuple[str, ...] = ()
    actions: tuple[Action, ...] = ()

    @field_validator("preplay")
    @classmethod
    def _declarations(cls, v: tuple[Action, ...]) -> tuple[Action, ...]:
        if any(not a.kind.preplay or a.round is not None or a.irregular or a.nags for a in v):
            raise ValueError("the pre-play section holds declarations and transfers, without round numbers, ^ or $n")
        return v

    @property
    def all_actions(self) -> tuple[Action, ...]:
        """Pre-play declarations, then the actions of play: the sequence the engine replays."""
        return self.preplay + self.actions

    @field_validator("deal")
    @classmethod
    def _canonical_deal(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(join_hand(*split_hand(h)) for h in v)

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


def parse_result(value: str) -> tuple[int, ...] | None:
    """Read a Result value: seats in order of place joined by ``-``; ``*`` for
    unfinished or unknown (``None``); ``void`` for a void hand (``()``).

    >>> parse_result("3-6-1-4-5-2")
    (3, 6, 1, 4, 5, 2)

    Raises ``ValueError`` unless it names each seat 1–6 once.
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
    "GameRecord",
    "REQUIRED_TAGS",
    "Seat",
    "canonical_cards",
    "parse_result",
]
