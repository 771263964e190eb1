"""The bot protocol (机器人协议): the messages between the referee and a bot, one JSON object a line.

A bot is a program that reads lines on its standard input and writes lines on its standard output,
as a chess engine speaks UCI and a Mahjong bot mjai. This module holds the messages as pydantic
models (their JSON Schema is :func:`protocol_schema`, generated from them), what one seat is told
(:func:`seat_view`, :func:`action_seen`: never another seat's cards not yet played), and the
built-in bots as agents that decide from those messages alone (:class:`Agent`), which
``gouji bot NAME`` serves over standard input and output (:func:`serve`). The specification, with
the order of the messages, is docs/bots.md.

>>> Answer.model_validate_json('{"type": "answer", "id": 3, "action": "2:QQQ"}').action
'2:QQQ'
>>> VERSION
'gouji-bot 1'
"""

from __future__ import annotations

import json
import random
import sys
from typing import IO, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from ..cards import BIG_JOKER, SMALL_JOKER, parse_cards
from ..errors import GoujiError
from ..model import Action, ActionKind
from ..rules.engine import Position, team
from ..rules.events import Event
from ..rules.options import parse_options, with_options
from ..rules.plays import classify, is_gouji
from ..rules.rulesets import Ruleset, get_ruleset
from ..rules.table import describe
from .selfplay import _leads, _strength  # the in-process bots' own measures, shared

#: The protocol's name and version, in ``hello``: a bot may refuse a version it does not know.
VERSION = "gouji-bot 1"

Seat = Annotated[int, Field(ge=1, le=6)]


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Hello(_Message):
    """Referee → bot, first: the protocol's version and the seat the bot sits at (1–6, for every
    hand of the match). The bot answers with its own :class:`Hello` (``name``)."""

    type: Literal["hello"] = "hello"
    protocol: str = VERSION
    seat: Seat | None = None
    name: str | None = None


class RulesetMessage(_Message):
    """Referee → bot, after ``hello``: the ruleset the hands are played under: ``name`` (a preset
    of ``gouji rules``) and ``options``, the options changed from it as the record's ``Options``
    tag writes them (``""``: none)."""

    type: Literal["ruleset"] = "ruleset"
    name: str
    options: str = ""


class Due(_Message):
    """A tribute owed before the hand (进贡): ``giver`` pays ``taker`` ``count`` cards of ``kind``
    (``smother`` 闷贡, ``burn`` 烧贡, ``point`` 点贡, ``place`` 落贡 …)."""

    kind: str
    giver: Seat
    taker: Seat
    count: int


class HandStart(_Message):
    """Referee → bot, at each hand: its number in the match (from 1), the match's name (``None``
    for a hand alone), the bot's ``seat``, its ``cards`` as dealt (canonical, strongest first),
    the seat that leads round 1 (首发), the ``tribute`` owed from the hand before, and
    ``standings``: each team's points so far (``"1"``: seats 1 3 5, ``"0"``: seats 2 4 6).

    A rollout (``gouji review --rollouts``) starts in the middle of a hand: ``position`` is then
    the table as the seat sees it (:func:`seat_view`), and ``cards`` what it holds now."""

    type: Literal["hand"] = "hand"
    hand: int = 1
    match: str | None = None
    seat: Seat
    cards: str
    leader: Seat | None = None
    tribute: list[Due] = []
    standings: dict[str, int] = {}
    position: dict[str, Any] | None = None


class SeenEvent(_Message):
    """An event of the engine as the seat sees it: ``kind`` (``gouji``, ``burn``, ``open``,
    ``finish`` …: the event kinds of docs/notation.md), ``seats`` (the acting seat first),
    ``cards`` (the play concerned; empty when hidden), ``place`` (1–6)."""

    kind: str
    seats: list[Seat] = []
    cards: str = ""
    place: int | None = None


class ActionMessage(_Message):
    """Referee → bot, for each action at the table, the bot's own included, as it happens:
    ``number`` (from 1, as ``gouji events`` counts them), ``seat``, ``kind`` (``play``, ``pass``,
    ``give`` …), ``action`` its text in the notation (``"3:QQQ"``, ``"buy 1>4:2"``) — ``None``
    for a transfer between two other seats, whose cards the seat does not see (then ``to`` and
    ``count`` say who gave how many to whom) — and the engine's ``events`` it caused."""

    type: Literal["action"] = "action"
    number: int
    seat: Seat
    kind: str
    action: str | None
    to: Seat | None = None
    count: int = 0
    events: list[SeenEvent] = []


class Decision(_Message):
    """Referee → bot: the bot must act. ``id`` (answer with it), ``step``: ``play`` (its turn:
    a play, a pass, a yield …), ``burn`` (烧牌: it may burn the 够级 play on top, or decline) or
    ``declare`` (before play: 革命, 要头, 宣点 …, or decline); ``position``: the table as the seat
    sees it (:func:`seat_view`); ``legal``: every action the rules allow it here, in the notation;
    ``may_decline``: whether ``null`` is an answer (a burn or a declaration not made)."""

    type: Literal["decision"] = "decision"
    id: int
    seat: Seat
    step: Literal["play", "burn", "declare"]
    position: dict[str, Any]
    legal: list[str]
    may_decline: bool = False


class HandEnd(_Message):
    """Referee → bot, when a hand is over: ``result`` as the record's Result tag writes it
    (places ``"1-3-4-5-6-2"`` 头科 first, or ``"void"``), each team's ``points`` in the hand
    and the ``standings`` after it."""

    type: Literal["hand_end"] = "hand_end"
    hand: int = 1
    result: str
    points: dict[str, int]
    standings: dict[str, int] = {}


class Bye(_Message):
    """Referee → bot, last: the match is over (or stopped: ``reason``); the bot exits."""

    type: Literal["bye"] = "bye"
    reason: str = ""


class Answer(_Message):
    """Bot → referee, to a :class:`Decision`: its ``id`` and ``action`` in the notation
    (``"2:QQQ"``, ``"2:-"``, ``"4:*XKK"``), one of ``legal``; ``None`` (JSON ``null``) declines
    where ``may_decline``."""

    type: Literal["answer"] = "answer"
    id: int
    action: str | None


#: Every message the referee sends.
ToBot = Annotated[Hello | RulesetMessage | HandStart | ActionMessage | Decision | HandEnd | Bye, Field(discriminator="type")]
#: Every message a bot sends.
FromBot = Annotated[Hello | Answer, Field(discriminator="type")]
TO_BOT: TypeAdapter = TypeAdapter(ToBot)
FROM_BOT: TypeAdapter = TypeAdapter(FromBot)

#: The schema's name: of the protocol's version. A URN: a name, nothing to fetch.
SCHEMA_ID = "urn:gouji-record:schema:bot-protocol:1"


def protocol_schema() -> dict:
    """The JSON Schema of the protocol's messages, generated from the models: ``to_bot`` (what the
    referee sends) and ``from_bot`` (what a bot answers), under ``$defs``."""
    schemas, defs = TypeAdapter.json_schemas([("to_bot", "validation", TO_BOT), ("from_bot", "validation", FROM_BOT)])
    to_bot, from_bot = schemas[("to_bot", "validation")], schemas[("from_bot", "validation")]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "version": VERSION,
        "oneOf": [{"$ref": "#/$defs/ToBot"}, {"$ref": "#/$defs/FromBot"}],
        "$defs": {**defs["$defs"], "ToBot": to_bot, "FromBot": from_bot},
    }


def seat_view(pos: Position, seat: int) -> dict[str, Any]:
    """The table of ``pos`` as ``seat`` sees it (:func:`~gouji_record.rules.table.describe` with
    ``seat``): its own cards, of the others only how many they hold, and what is in the open."""
    return describe(pos, seat)


def action_seen(number: int, action: Action, events: list[Event], seat: int) -> ActionMessage:
    """What ``seat`` is told of ``action`` (the ``number``-th, from 1) and its ``events``: all of
    it, but for a transfer (``give``) between two other seats only who gave how many cards to whom
    (the cards go from hand to hand face down)."""
    hidden = action.kind is ActionKind.GIVE and seat not in (action.seat, action.to)
    return ActionMessage(
        number=number,
        seat=action.seat,
        kind=action.kind.value,
        action=None if hidden else action.text,
        to=action.to,
        count=sum(parse_cards(action.cards)) if action.cards else 0,
        events=[
            SeenEvent(kind=e.kind.value, seats=list(e.seats), cards="" if hidden else e.cards, place=e.place)
            for e in events
        ],
    )


# --- the built-in bots, deciding from the messages alone --------------------------------------


def _cards_of(text: str) -> tuple[int, ...] | None:
    """The cards of a play's text (``"3:*XKK"`` → counts), ``None`` for another action."""
    body = text.split(":", 1)[1].lstrip("*")
    if not body or not body[0].isalnum() or body in ("revolt", "claim", "call", "precall", "natural", "keep-head", "no-head"):
        return None
    try:
        return parse_cards(body)
    except ValueError:
        return None


class Agent:
    """A built-in bot (``person`` or ``random``) that decides from the protocol's messages alone:
    the :class:`Decision`'s position and legal actions, nothing else of the table. ``seed`` makes
    its choices reproducible. Its ways are those of gouji_record.bots.selfplay's bots of the same
    name, which look at the engine's position in process (``gouji selfplay`` without a bot
    program); choosing from the listed actions, and asked about a burn once per play on top
    rather than at every action, it does not play the same hands as they do from a seed.

    ``person`` leads its 够级 plays without jokers first (to open, 开点), then its smallest rank;
    follows with the cheapest play that beats, but not over a team-mate and keeping jokers for the
    opposite's 够级 plays until it holds 8 cards or fewer; burns half the time it may, with its
    cheapest burn; declares nothing. ``random`` picks among the plays and the pass, never burns.
    Which plays are 够级 plays it reads from the ruleset of the ``ruleset`` message
    (:meth:`learn`; charter until then).

    Raises:
        KeyError: another name than ``person`` or ``random``.
    """

    NAMES = ("person", "random")

    def __init__(self, name: str, seed: int = 1) -> None:
        if name not in self.NAMES:
            raise KeyError(name)
        self.name = name
        self.rng = random.Random(seed)
        self.rules: Ruleset = get_ruleset("charter")

    def learn(self, msg: RulesetMessage) -> None:
        """Take the ruleset ``msg`` names.

        Raises:
            UnknownRuleset, BadOption: a ruleset it does not know
                (:class:`~gouji_record.rules.rulesets.UnknownRuleset`, :class:`~gouji_record.rules.rulesets.BadOption`).
        """
        rules = get_ruleset(msg.name)
        self.rules = with_options(rules, parse_options(msg.options)) if msg.options else rules

    def decide(self, d: Decision) -> str | None:
        """The answer to ``d``: one of ``d.legal``, or ``None`` where ``d.may_decline``."""
        if d.step != "play":
            if d.step == "burn" and self.name == "person" and self.rng.random() < 0.5:
                return min(d.legal, key=lambda t: _strength(_cards_of(t)))
            return None
        plays = [(t, c) for t in d.legal if (c := _cards_of(t)) is not None]
        passes = [t for t in d.legal if t.endswith(":-")]
        if self.name == "random":
            return self.rng.choice([t for t, _ in plays] + passes or d.legal)
        me = d.position["seats"][d.seat - 1]
        hand = parse_cards(me["cards"] or "")
        top = d.position["top"]
        if top is None:
            texts = {c: t for t, c in plays}
            leads = _leads(hand)
            gouji = sorted((c for c in leads if c in texts and classify(c).jokers == 0 and is_gouji(classify(c), self.rules)), key=_strength)
            for c in gouji + leads:
                if c in texts:
                    return texts[c]
            return plays[0][0] if plays else d.legal[0]
        if team(top["seat"]) == team(d.seat) and passes:
            return passes[0]
        if plays:
            text, cards = min(plays, key=lambda p: _strength(p[1]))
            if not (cards[SMALL_JOKER] or cards[BIG_JOKER]) or top["gouji"] or me["held"] <= 8:
                return text
        return passes[0] if passes else d.legal[0]


def serve(name: str, stdin: IO[str] | None = None, stdout: IO[str] | None = None, seed: int = 1) -> int:
    """Play the built-in bot ``name`` over the protocol: read messages from ``stdin``, answer
    ``hello`` and each ``decision`` on ``stdout``, until ``bye`` or the end of input. Returns the
    exit status: 0, or 2 for a line that is not a message or a ruleset it does not know (said on
    standard error, with its number). Raises ``KeyError`` for an unknown bot."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    agent = Agent(name, seed)
    for number, line in enumerate(stdin, start=1):
        if not line.strip():
            continue
        try:
            msg = TO_BOT.validate_json(line)
        except ValueError as e:
            first = str(e).splitlines()[0]
            print(f"<stdin>:{number}:1: error[bad-message]: not a message of {VERSION}: {first}", file=sys.stderr)
            return 2
        if isinstance(msg, Hello):
            agent.rng = random.Random(seed * 7 + (msg.seat or 0))
            out: _Message | None = Hello(name=name)
        elif isinstance(msg, RulesetMessage):
            try:
                agent.learn(msg)
            except GoujiError as e:
                print(f"<stdin>:{number}:1: error[{e.code}]: {e.message}", file=sys.stderr)
                return 2
            out = None
        elif isinstance(msg, Decision):
            out = Answer(id=msg.id, action=agent.decide(msg))
        elif isinstance(msg, Bye):
            return 0
        else:
            out = None
        if out is not None:
            stdout.write(out.model_dump_json() + "\n")
            stdout.flush()
    return 0


def dump(msg: _Message) -> str:
    """``msg`` as one line of JSON (no newline)."""
    return json.dumps(msg.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))


__all__ = [
    "FROM_BOT",
    "SCHEMA_ID",
    "TO_BOT",
    "VERSION",
    "ActionMessage",
    "Agent",
    "Answer",
    "Bye",
    "Decision",
    "Due",
    "HandEnd",
    "HandStart",
    "Hello",
    "RulesetMessage",
    "SeenEvent",
    "action_seen",
    "protocol_schema",
    "seat_view",
    "serve",
]
