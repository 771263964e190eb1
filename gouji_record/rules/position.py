"""The position (局面): the state of a hand between two actions, and the seats around the table.

Seats are numbered 1–6 counterclockwise in playing order: seat ``s % 6 + 1``
acts after seat ``s``, the opposite (对头) of ``s`` is three seats away, and
team-mates are two apart (RULES.md "Table"; 002 §2).

A :class:`Position` never changes: :func:`initial_position` makes the first of a
hand, :func:`~gouji_record.rules.engine.step` each next one (through :func:`replace`).
What a position records of the hand so far (burns, smothers, calls, shows, cards
drawn) are named tuples. A :class:`Step` is one step under way from a position: the
events it causes, or the diagnostic it makes.

>>> opposite(1), opposite(5), next_seat(6), team(3)
(4, 2, 1, 1)
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field
from dataclasses import fields as dataclass_fields
from typing import Literal, NamedTuple

from ..cards import COPIES, DECK_SIZE, EMPTY, N_RANKS, RANK_LETTERS, CardError, Counts, parse_cards, total
from ..errors import BadArgument, wrong_type
from .events import Diagnostic, Event, EventKind, IllegalAction, trusted_event
from .plays import Play
from .rulesets import Ruleset, get_ruleset  # noqa: F401  (doctests)

SEATS = (1, 2, 3, 4, 5, 6)


def opposite(seat: int) -> int:
    """The opposite (对头) of ``seat``: three seats away."""
    return (seat + 2) % 6 + 1


def next_seat(seat: int) -> int:
    """The seat that acts after ``seat`` (下家, counterclockwise)."""
    return seat % 6 + 1


def team(seat: int) -> int:
    """The team (联邦) of ``seat``: ``seat % 2`` (1 for seats 1 3 5, 0 for 2 4 6)."""
    return seat % 2


def team_name(seat: int) -> str:
    """The name of ``seat``'s team as records, reports and tables write it: ``1-3-5`` or ``2-4-6``."""
    return "1-3-5" if seat % 2 else "2-4-6"


def seats_after(seat: int) -> tuple[int, ...]:
    """The five other seats in playing order after ``seat``."""
    return tuple((seat + k - 1) % 6 + 1 for k in range(1, 6))


#: The five other seats in playing order after each seat (:func:`seats_after`, read once).
SEATS_AFTER = {seat: seats_after(seat) for seat in SEATS}
#: The opposite of each seat, ``OPPOSITE[seat]`` (:func:`opposite`, read once: the engine asks for every play).
OPPOSITE = (None, *(opposite(seat) for seat in SEATS))


class Top(NamedTuple):
    """The play currently on top of the round (a named tuple: made for every play, it is built fast).

    ``restricted``: a 够级 play only the opposite (or a headless seat, or a
    burn) may answer. ``burn_only``: a 够死级 play only a burn may answer.
    ``unbeatable``: nothing may answer (死牌: it carries a big joker, 002 §8(3)). ``can_open``: winning the round with it
    opens (开点) its seat, or qualifies it to open by leading its 4s.
    ``smother_risk``: its seat holds only 3s now; beating it smothers (闷).
    ``smother_possible``: its seat holds no card the record gives but 3s, and its cards the record
    does not give (``?N``) may all be 3s: beating it may have smothered it (the record says, by
    skipping the seat: :func:`~gouji_record.rules.engine.skip_possible_turn`).
    """

    seat: int
    play: Play
    restricted: bool
    burn_only: bool
    unbeatable: bool
    can_open: bool
    smother_risk: bool = False
    smother_possible: bool = False


class Burn(NamedTuple):
    """A burn (烧牌) of ``target``'s play by ``burner``, and how it went: ``running`` (under way),
    ``success`` (烧成功), ``broken`` (解烧) or ``failed`` (烧失败). A counter-burn (反捎牌) is a burn
    of its own."""

    burner: int
    target: int
    outcome: Literal["running", "success", "broken", "failed"]


class Smother(NamedTuple):
    """A smother (闷): ``smotherer`` beat the last play before ``smothered``'s 3s."""

    smotherer: int
    smothered: int


class Call(NamedTuple):
    """A call made before play that the seat's opposite will not open: ``word`` is ``call``
    (宣点/明点) or ``precall`` (预点)."""

    seat: int
    word: Literal["call", "precall"]


class Show(NamedTuple):
    """A show (上班): ``seat`` showed ``cards`` cards (how many) of the shown rank in ``suit``."""

    seat: int
    suit: str
    cards: int


class Drawn(NamedTuple):
    """A card drawn for the teams (抽签组邦): ``seat`` drew a card of ``suit``; its colour gives the team."""

    seat: int
    suit: str


class MaybeSmothered(NamedTuple):
    """A seat whose play ``by`` beat while the cards the record does not give it may all be 3s:
    smothered (闷) if the record skips its turn; if it acts, it was not."""

    seat: int
    by: int


@dataclass(frozen=True)
class Position:
    """The state of a hand between two actions.

    ``hands[s - 1]``: cards held by seat ``s`` that are known; ``unknown[s - 1]``:
    how many more it holds that the record does not give; ``seen``: every card
    known so far (dealt or played), which four decks bound. ``preplay``: still in the
    pre-play phase. ``to_act``: the seat whose turn it is (``None`` once the
    hand is over). ``top``: the play to beat, ``None`` when ``to_act`` must
    lead. ``barred``: seats that passed this round. ``yielder``/``yield_back``:
    a pending yield (让牌). ``burner``/``burn_target``: the running burn.
    ``finished``: seats in order of finishing (头科 first). ``out``: seats that
    left the hand (smothered, failed burn), first out = last place.
    ``revolted``: seats that revolted (革命). ``kept_head``: dead gouji plays
    left per seat (要头). ``opened``, ``given_up``, ``qualified``, ``natural``:
    seats that opened (开点), gave it up, must lead their 4s to open, declared
    自然开点. ``melee``: the four-way melee is on. ``void``: the hand is void.
    ``burns``: a :class:`Burn` ``(burner, target, outcome)`` per burn; ``smothers``: a
    :class:`Smother` ``(smotherer, smothered)`` each; ``calls``: a :class:`Call` ``(seat, word)``
    per call made before play; ``shows``: a :class:`Show` ``(seat, suit, cards)`` per show of one
    suit (上班), in order; ``drawn``: a :class:`Drawn` ``(seat, suit)`` per card drawn for the teams
    (抽签组邦). ``maybe_smothered``: a :class:`MaybeSmothered` ``(seat, by)`` for a seat whose play
    ``by`` beat while its cards the record does not give may all be 3s: smothered if the record
    skips its turn (it acts: it was not). These are named tuples: they unpack, index and compare
    as plain tuples do, and a position built with plain tuples reads the same.
    ``round``: round number; ``actions``: actions applied. ``playing``: the seats still in play
    (:meth:`active`), derived from the other fields when a position is made, not given.
    """

    ruleset: Ruleset
    hands: tuple[Counts, ...]
    to_act: int | None
    unknown: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    seen: Counts = EMPTY
    preplay: bool = True
    top: Top | None = None
    barred: frozenset[int] = frozenset()
    yielder: int | None = None
    yield_back: bool = False
    burner: int | None = None
    burn_target: int | None = None
    finished: tuple[int, ...] = ()
    out: tuple[int, ...] = ()
    revolted: tuple[int, ...] = ()
    kept_head: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    opened: frozenset[int] = frozenset()
    given_up: frozenset[int] = frozenset()
    qualified: frozenset[int] = frozenset()
    natural: frozenset[int] = frozenset()
    melee: bool = False
    void: bool = False
    burns: tuple[Burn, ...] = ()
    smothers: tuple[Smother, ...] = ()
    calls: tuple[Call, ...] = ()
    shows: tuple[Show, ...] = ()
    drawn: tuple[Drawn, ...] = ()
    maybe_smothered: tuple[MaybeSmothered, ...] = ()
    round: int = 1
    actions: int = 0
    playing: frozenset[int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "playing", seats_in_play(self.hands, self.unknown, self.out, self.revolted))

    @property
    def over(self) -> bool:
        """Whether the hand has ended."""
        return self.to_act is None

    def holds(self, seat: int) -> int:
        """Number of cards ``seat`` holds, known or not."""
        return sum(self.hands[seat - 1]) + self.unknown[seat - 1]

    def active(self, seat: int) -> bool:
        """Whether ``seat`` still plays: it holds cards, is not out and did not revolt
        (``seat in playing``)."""
        return seat in self.playing

    def gone(self, seat: int) -> bool:
        """Whether ``seat`` has left play: finished, out or revolted."""
        return seat in self.finished or seat in self.out or seat in self.revolted

    def headless(self, seat: int) -> bool:
        """Whether ``seat`` is headless (无头): its opposite revolted and no kept head (要头) is
        left, or its opposite left play in a way the ruleset's ``headless_after`` names (finished,
        002 §17; smothered, 003 §被闷; …). Under 001 only a revolution makes a seat headless."""
        opp = OPPOSITE[seat]
        if opp in self.revolted:
            return self.kept_head[seat - 1] == 0
        if opp in self.finished:
            return "finish" in self.ruleset.headless_after
        if opp in self.out:
            return self.departure(opp) in self.ruleset.headless_after
        return False

    def departure(self, seat: int) -> str:
        """How ``seat``, out of the hand, left it: ``burn-failure`` (烧失败), ``smother`` (闷) or
        ``no-threes`` (no 3 when play began, under 憋三) — the values of option ``headless_after``."""
        if any(burner == seat and outcome == "failed" for burner, _, outcome in self.burns):
            return "burn-failure"  # (a seat smothered under smother=tribute may later fail a burn)
        return "smother" if any(smothered == seat for _, smothered in self.smothers) else "no-threes"

    @property
    def places(self) -> tuple[int, ...]:
        """Seats in order of place, 头科 first, once the hand is over (else those placed so far, top first)."""
        return _places(self)

    def __str__(self) -> str:
        """The table as lines of text, every hand face up (:func:`gouji_record.rules.table.describe_text`;
        its ``seat`` gives one seat's view)."""
        from .table import describe_text

        return describe_text(self)


def seats_in_play(
    hands: tuple[Counts, ...], unknown: tuple[int, ...], out: tuple[int, ...], revolted: tuple[int, ...]
) -> frozenset[int]:
    """The seats that still play (:attr:`Position.playing`): holding cards, known or not, neither
    out nor revolted. The engine keeps it as seats leave (:func:`~gouji_record.rules.leaving.finish`,
    :func:`~gouji_record.rules.leaving.go_out`, a revolution) and works it out again when cards change
    hands before play."""
    return frozenset(
        seat
        for seat in SEATS
        if (any(hands[seat - 1]) or unknown[seat - 1] > 0) and seat not in out and seat not in revolted
    )


_new, _setattr = object.__new__, object.__setattr__
#: The default of every field of :class:`Position` that has one, by name (:func:`initial_position`).
_DEFAULTS = {f.name: f.default for f in dataclass_fields(Position) if f.default is not MISSING}


def replace(pos: Position, **changes) -> Position:
    """``pos`` with ``changes``: a faster ``dataclasses.replace`` for the engine's hot path."""
    fields = pos.__dict__.copy()  # faster than {**pos.__dict__, **changes}
    fields.update(changes)
    return made(fields)


def made(fields: dict) -> Position:
    """The position of ``fields``: a copy of a position's ``__dict__`` with the changes written into
    it. :func:`replace` without its keyword arguments (building them costs as much as the copy), for
    the engine's two hottest steps, a play and a pass. ``playing`` is the caller's to keep."""
    new = _new(Position)
    _setattr(new, "__dict__", fields)
    return new


def initial_position(ruleset: Ruleset, deal: tuple[str, ...] | tuple[Counts, ...], leader: int) -> Position:
    """The position before the first action: ``deal`` holds the six hands
    (card strings, ``?N`` ending one with N cards not known, or counts; seat
    1 first) and ``leader`` leads round 1. A hand may hold any number of cards (a table made up
    for a test or a puzzle), but the six together no more than four decks: 16 of each rank from
    3 to 2, 4 of each joker, 216 cards in all (RULES.md "Table").

    >>> pos = initial_position(get_ruleset("charter"), ("KK?34",) + ("?36",) * 5, leader=1)
    >>> pos.holds(1), pos.unknown[0], pos.to_act, pos.preplay
    (36, 34, 1, True)
    >>> initial_position(get_ruleset("charter"), ("D" * 5,) + ("?36",) * 5, leader=1)
    Traceback (most recent call last):
      ...
    gouji_record.errors.BadArgument: deal: 5 cards D: four decks hold 4

    Raises:
        BadArgument: ``ruleset`` is not a :class:`Ruleset` (code ``bad-argument``); ``leader`` is
            not a seat 1–6 (``bad-seat``); ``deal`` is not six hands (``deal-seat``), a hand is
            neither cards with ``?N`` nor 15 counts from 0 (``deal-hand``), or the hands hold more
            than four decks (``deal-cards``).
    """
    if not isinstance(ruleset, Ruleset):
        raise wrong_type("ruleset", ruleset, "a Ruleset (get_ruleset('charter'))")
    if type(leader) is not int or leader not in SEATS:
        raise BadArgument(f"leader {leader!r}: expected the seat 1-6 that leads round 1", code="bad-seat")
    hands, unknown = _dealt(deal)
    # Position(...) would set its 32 fields one by one (a frozen dataclass's __init__ goes through
    # object.__setattr__ for each): the defaults copied, the rest written in, as made() takes them
    fields = _DEFAULTS.copy()
    fields["ruleset"], fields["hands"], fields["unknown"] = ruleset, hands, unknown
    fields["seen"], fields["to_act"] = total(hands), leader
    fields["playing"] = seats_in_play(fields["hands"], fields["unknown"], (), ())
    return made(fields)


def _dealt(deal: object) -> tuple[tuple[Counts, ...], tuple[int, ...]]:
    """The known cards (counts) and the number not known of each of the six hands of ``deal``, each
    checked, and all of them within four decks (:func:`initial_position`)."""
    if isinstance(deal, (str, bytes)) or not isinstance(deal, (tuple, list)):
        raise wrong_type("deal", deal, "six hands, seat 1 first (a tuple)")
    if len(deal) != len(SEATS):
        raise BadArgument(f"deal: {len(deal)} hands: expected six, seat 1 first", code="deal-seat")
    hands, unknown = [], []
    for seat, hand in enumerate(deal, start=1):
        known, n = _hand(seat, hand)
        hands.append(known)
        unknown.append(n)
    seen = total(hands)
    for rank, (n, copies) in enumerate(zip(seen, COPIES)):
        if n > copies:
            raise BadArgument(f"deal: {n} cards {RANK_LETTERS[rank]}: four decks hold {copies}", code="deal-cards")
    if sum(seen) + sum(unknown) > DECK_SIZE:
        held = sum(seen) + sum(unknown)
        raise BadArgument(f"deal: {held} cards in all: four decks hold {DECK_SIZE}", code="deal-cards")
    return tuple(hands), tuple(unknown)


def _hand(seat: int, hand: object) -> tuple[Counts, int]:
    """Seat ``seat``'s hand of a deal: its known cards as counts, and how many it holds not known."""
    if isinstance(hand, str):
        known, mark, rest = hand.partition("?")
        if mark and not (rest.isascii() and rest.isdigit()):
            raise BadArgument(
                f"seat {seat}: {hand[:40]!r}: expected cards, then ?N for N cards not known (KK?34)", code="deal-hand"
            )
        try:
            return parse_cards(known), int(rest) if mark else 0
        except CardError as e:
            raise BadArgument(f"seat {seat}: {e}", code="deal-hand") from None
    if isinstance(hand, (tuple, list)) and len(hand) == N_RANKS and all(type(n) is int and n >= 0 for n in hand):
        return tuple(hand), 0
    raise BadArgument(
        f"seat {seat}: {str(hand)[:40]}: expected cards (KK?34) or {N_RANKS} counts from 0, 3 first", code="deal-hand"
    )


def top_places(pos: Position) -> list[int]:
    """Finishers in order, with a revolter in 4th place, or 3rd when its team-mates took 1st and 2nd."""
    order = list(pos.finished)
    for r in pos.revolted:
        if len(order) >= 2 and team(order[0]) == team(order[1]) == team(r):
            order.insert(2, r)
        elif len(order) >= 3:
            order.insert(3, r)
    return order


def _places(pos: Position) -> tuple[int, ...]:
    """Seats in order of place. Seats still holding cards when the hand ends take the places
    between the finishers and the seats out: fewest cards first, ties in playing order after
    the last seat to finish (docs/rules.md)."""
    order = top_places(pos)
    if pos.over and not pos.void:
        last = pos.finished[-1] if pos.finished else 1
        rest = sorted((t for t in seats_after(last) + (last,) if pos.active(t)), key=pos.holds)
        unplaced_revolters = [r for r in pos.revolted if r not in order]
        order += rest
        for r in unplaced_revolters:
            order.insert(min(3, len(order)), r)
        order += list(reversed(pos.out))
    return tuple(order)


class Step:
    """One step from a position under way: the position it starts from (``pos``, the one the step
    has reached so far), the index of its action, its round, the events it has caused so far, and
    the diagnostic it makes when the action is illegal. A ``quiet`` step derives no events (its
    caller does not want them: the positions and diagnostics are the same)."""

    __slots__ = ("pos", "origin", "events", "quiet", "_round")

    def __init__(self, pos: Position, quiet: bool = False) -> None:
        self.pos = self.origin = pos  # (the index and round are read from ``origin`` when asked for)
        self.events: list[Event] = []
        self.quiet = quiet

    @property
    def index(self) -> int:
        """The index of the step's action among the hand's actions (pre-play ones first)."""
        return self.origin.actions

    @property
    def round(self) -> int | None:
        """The round the step's action belongs to: the position's, or ``None`` before play (the
        first play sets it: :func:`~gouji_record.rules.engine.step`)."""
        try:
            return self._round
        except AttributeError:
            return None if self.origin.preplay else self.origin.round

    @round.setter
    def round(self, value: int | None) -> None:
        self._round = value

    def event(
        self,
        kind: EventKind,
        rule: str,
        seats: tuple[int, ...],
        cards: str = "",
        place: int | None = None,
        note: str = "",
        note_zh: str = "",
    ) -> None:
        if self.quiet:  # (the engine reads no event back: it only hands them on)
            return
        self.events.append(
            trusted_event(
                kind, self.index, seats, cards, place, note, rule, self.pos.ruleset.cite(rule), note_zh, self.round
            )
        )

    def illegal(self, code: str, rule: str, message: str, zh: str) -> IllegalAction:
        """The diagnostic ``code`` under ``rule``: ``message`` in English, ``zh`` the same in Chinese."""
        return IllegalAction(
            Diagnostic(
                code=code,
                message=message,
                message_zh=zh,
                action=self.index,
                rule=rule,
                source=self.pos.ruleset.cite(rule),
            )
        )


__all__ = [
    "OPPOSITE",
    "SEATS",
    "SEATS_AFTER",
    "Burn",
    "Call",
    "Drawn",
    "MaybeSmothered",
    "Position",
    "Show",
    "Smother",
    "Step",
    "Top",
    "initial_position",
    "made",
    "next_seat",
    "opposite",
    "replace",
    "seats_after",
    "seats_in_play",
    "team",
    "team_name",
    "top_places",
]
