"""The rules engine (规则引擎): a position plus an action gives a new position and events.

Pure: :func:`step` reads an immutable :class:`Position` and an
:class:`~gouji_record.model.Action` and returns the next position and the
events the action caused, or raises :class:`~gouji_record.rules.events.IllegalAction`
carrying a :class:`~gouji_record.rules.events.Diagnostic`. No I/O, no globals.

Seats are numbered 1–6 counterclockwise in playing order: seat ``s % 6 + 1``
acts after seat ``s``, the opposite (对头) of ``s`` is three seats away, and
team-mates are two apart (RULES.md "Table"; 002 §2).

How each rule reads in the engine, and every point the texts leave open, is
in docs/rules.md.

>>> from gouji_record.rules.rulesets import get_ruleset
>>> opposite(1), opposite(5), next_seat(6), team(3)
(4, 2, 1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..model import Action, ActionKind
from .cards import BIG_JOKER, SMALL_JOKER, TWO, Counts, format_cards, parse_cards, subtract
from .events import Diagnostic, Event, EventKind, IllegalAction
from .plays import Play, PlayError, beats, classify, is_dead, is_gouji
from .rulesets import Ruleset

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


@dataclass(frozen=True, slots=True)
class Top:
    """The play currently on top of the round.

    ``restricted``: a 够级 play only the opposite (or a headless seat, or a
    burn) may answer. ``burn_only``: a 够死级 play only a burn may answer.
    ``dead``: nothing may answer. ``can_open``: winning the round with it
    opens (开点) its seat.
    """

    seat: int
    play: Play
    restricted: bool
    burn_only: bool
    dead: bool
    can_open: bool


@dataclass(frozen=True, slots=True)
class Position:
    """The state of a hand between two actions.

    ``hands[s - 1]``: cards held by seat ``s``. ``to_act``: the seat whose turn
    it is (``None`` once the hand is over). ``top``: the play to beat, ``None``
    when ``to_act`` must lead. ``barred``: seats that passed this round.
    ``yielder``/``yield_back``: a pending yield (让牌) and whether the yielder
    has been given the turn back. ``burner``: the seat whose burn is running.
    ``finished``: seats in order of place. ``opened``: seats that opened
    (开点). ``melee``: the four-way melee is on. ``round``: the round number
    (1-based). ``actions``: how many actions were applied.
    """

    ruleset: Ruleset
    hands: tuple[Counts, ...]
    to_act: int | None
    top: Top | None = None
    barred: frozenset[int] = frozenset()
    yielder: int | None = None
    yield_back: bool = False
    burner: int | None = None
    finished: tuple[int, ...] = ()
    opened: frozenset[int] = frozenset()
    melee: bool = False
    round: int = 1
    actions: int = 0

    @property
    def over(self) -> bool:
        """Whether the hand has ended."""
        return self.to_act is None

    def holds(self, seat: int) -> int:
        """Number of cards ``seat`` holds."""
        return sum(self.hands[seat - 1])

    def headless(self, seat: int) -> bool:
        """Whether ``seat`` is headless (无头): its opposite has finished (002 §17)."""
        return opposite(seat) in self.finished


def initial_position(ruleset: Ruleset, deal: tuple[str, ...] | tuple[Counts, ...], leader: int) -> Position:
    """The position before the first action: ``deal`` holds the six hands
    (card strings or counts, seat 1 first) and ``leader`` leads round 1."""
    hands = tuple(parse_cards(h) if isinstance(h, str) else tuple(h) for h in deal)
    return Position(ruleset=ruleset, hands=hands, to_act=leader)


class _Step:
    """Builds one step's events and diagnostics for position ``pos`` and action number ``index``."""

    __slots__ = ("pos", "index", "events")

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.index = pos.actions
        self.events: list[Event] = []

    def event(
        self, kind: EventKind, rule: str, seats: tuple[int, ...], cards: str = "", place: int | None = None
    ) -> None:
        self.events.append(
            Event(
                kind=kind,
                action=self.index,
                seats=seats,
                cards=cards,
                place=place,
                rule=rule,
                source=self.pos.ruleset.cite(rule),
            )
        )

    def illegal(self, code: str, rule: str, message: str) -> IllegalAction:
        return IllegalAction(
            Diagnostic(code=code, message=message, action=self.index, rule=rule, source=self.pos.ruleset.cite(rule))
        )


def _barred(pos: Position, seat: int, top: Top) -> bool:
    """A seat that passed this round may not play again, except on its opposite's play (002 §11)."""
    return seat in pos.barred and not pos.melee and opposite(seat) != top.seat


def _may_follow(pos: Position, seat: int, top: Top) -> bool:
    """Whether ``seat`` has a turn to follow ``top`` (without burning)."""
    if seat == top.seat or not pos.holds(seat) or top.dead:
        return False
    if top.burn_only:  # 够死级: seats that may burn it get a turn, to burn or pass
        return seat not in pos.barred and not pos.headless(seat)
    if _barred(pos, seat, top):
        return False
    if top.restricted:
        return seat == opposite(top.seat) or (pos.headless(seat) and pos.holds(top.seat) > 0)
    return True


def _next_to_act(pos: Position, after: int) -> int | None:
    """The next seat after ``after`` with a turn, or ``None`` when the round is over."""
    top = pos.top
    assert top is not None
    seat = after
    for _ in range(6):
        seat = next_seat(seat)
        if seat == top.seat:
            break
        if seat == pos.yielder:
            continue
        if _may_follow(pos, seat, top):
            return seat
    if pos.yielder is not None and not pos.yield_back:
        return pos.yielder
    return None


def step(pos: Position, action: Action) -> tuple[Position, list[Event]]:
    """Apply ``action`` to ``pos``.

    Returns the next position and the events the action caused, in order.
    Raises :class:`IllegalAction` when the ruleset forbids the action; its
    diagnostic names the code, the seats and cards, and the rule's source.
    """
    s = _Step(pos)
    seat = action.seat
    if pos.over:
        raise s.illegal("hand-over", "hand-end", f"the hand is over; seat {seat} cannot act")
    if not pos.holds(seat):
        raise s.illegal("seat-finished", "places", f"seat {seat} has played all its cards")
    if action.kind is ActionKind.PLAY:
        return _play(s, seat, action)
    top = pos.top
    if top is None:
        raise s.illegal(
            "must-lead", "round-end", f"seat {seat} leads this round and must play, not {action.kind.value}"
        )
    _check_turn(s, seat, top)
    if action.kind is ActionKind.YIELD:
        return _yield(s, seat, top)
    return _pass(s, seat)


def _check_turn(s: _Step, seat: int, top: Top) -> None:
    """Raise the most precise diagnostic when ``seat`` may not act now (not a burn)."""
    pos = s.pos
    if seat == pos.to_act:
        return
    if top.dead:
        raise s.illegal(
            "does-not-beat", "big-joker-dead", f"{top.play} by seat {top.seat} is dead: nobody may answer it"
        )
    if top.burn_only:
        raise s.illegal(
            "gouji-not-opposite",
            "dead-gouji",
            f"{top.play} by seat {top.seat} is a dead gouji (够死级): only a burn (*) may answer it",
        )
    if top.restricted and seat != opposite(top.seat) and not (pos.headless(seat) and pos.holds(top.seat)):
        raise s.illegal(
            "gouji-not-opposite",
            "gouji-opposite-only",
            f"{top.play} by seat {top.seat} is a gouji play (够级): only its opposite, seat "
            f"{opposite(top.seat)}, may answer; seat {seat} may only burn it (write {seat}:*cards)",
        )
    if _barred(pos, seat, top) or seat == pos.yielder:
        raise s.illegal("passed-this-round", "pass-bars", f"seat {seat} passed this round and may not play again")
    raise s.illegal("not-your-turn", "turn-order", f"it is seat {pos.to_act}'s turn, not seat {seat}'s")


def _pass(s: _Step, seat: int) -> tuple[Position, list[Event]]:
    pos = s.pos
    yield_over = seat == pos.yielder
    pos = replace(
        pos,
        barred=pos.barred | {seat},
        actions=pos.actions + 1,
        yielder=None if yield_over else pos.yielder,
        yield_back=False if yield_over else pos.yield_back,
    )
    return _advance(s, pos, seat)


def _yield(s: _Step, seat: int, top: Top) -> tuple[Position, list[Event]]:
    """让牌 (002 §12): on the opposite's play passed by the two seats upstream."""
    pos = s.pos
    if pos.melee:
        raise s.illegal("yield-not-allowed", "melee", "no yielding in the four-way melee (四户乱缠)")
    if top.seat != opposite(seat) or top.restricted:
        raise s.illegal(
            "yield-not-allowed",
            "yield",
            f"seat {seat} may yield only on its opposite's (seat {opposite(seat)}) non-gouji play",
        )
    if pos.yielder == seat:
        raise s.illegal("yield-not-allowed", "yield", f"seat {seat} has yielded once already on this play")
    pos = replace(pos, yielder=seat, yield_back=False, actions=pos.actions + 1)
    return _advance(s, pos, seat)


def _advance(s: _Step, pos: Position, after: int) -> tuple[Position, list[Event]]:
    """Give the turn to the next seat after ``after``, or close the round."""
    nxt = _next_to_act(pos, after)
    if nxt is None:
        return _close_round(s, pos), s.events
    if nxt == pos.yielder:
        pos = replace(pos, yield_back=True)
    return replace(pos, to_act=nxt), s.events


def _close_round(s: _Step, pos: Position) -> Position:
    """Everyone with a turn has passed: the top play wins the round (002 §13)."""
    top = pos.top
    assert top is not None
    winner = top.seat
    s.event(EventKind.ROUND_END, "round-end", (winner,), str(top.play))
    opened = pos.opened
    if top.can_open and winner not in opened:
        opened = opened | {winner}
        s.event(EventKind.OPEN, "opening", (winner,), str(top.play))
    leader = winner
    if not pos.holds(winner):
        leader = next(t for t in _seats_after(winner) if pos.holds(t))
        s.event(EventKind.TAKE_THE_WIND, "take-the-wind", (leader, winner))
    return replace(
        pos,
        top=None,
        barred=frozenset(),
        yielder=None,
        yield_back=False,
        opened=opened,
        round=pos.round + 1,
        to_act=leader,
    )


def _seats_after(seat: int) -> tuple[int, ...]:
    """The five other seats in playing order after ``seat``."""
    return tuple((seat + k - 1) % 6 + 1 for k in range(1, 6))


def _classify(s: _Step, cards: Counts) -> Play:
    try:
        return classify(cards)
    except PlayError as e:
        raise s.illegal("bad-play", "play-shape", str(e)) from None


def _play(s: _Step, seat: int, action: Action) -> tuple[Position, list[Event]]:
    pos, rules = s.pos, s.pos.ruleset
    top = pos.top
    if not action.burn:
        if top is None and seat != pos.to_act:
            raise s.illegal(
                "not-your-turn", "turn-order", f"seat {pos.to_act} leads round {pos.round}, not seat {seat}"
            )
        if top is not None:
            _check_turn(s, seat, top)
            if top.burn_only:
                raise s.illegal(
                    "gouji-not-opposite",
                    "dead-gouji",
                    f"{top.play} by seat {top.seat} is a dead gouji (够死级): only a burn (*) may answer it",
                )
    cards = parse_cards(action.cards)
    left = subtract(pos.hands[seat - 1], cards)
    if left is None:
        missing = format_cards(tuple(max(0, c - h) for c, h in zip(cards, pos.hands[seat - 1])))
        raise s.illegal(
            "not-in-hand", "deal", f"seat {seat} does not hold {missing} (holds {format_cards(pos.hands[seat - 1])})"
        )
    play = _classify(s, cards)
    if action.burn:
        _check_burn(s, seat, play, left)
    if top is not None:
        verdict = beats(top.play, play, rules)
        if not verdict.ok:
            raise s.illegal(
                "does-not-beat", verdict.rule, f"seat {seat}: {play} does not beat {top.play}: {verdict.reason}"
            )
    if pos.burner == seat and not action.burn and play.jokers == 0 and any(left):
        raise s.illegal(
            "burn-condition",
            "burn-condition",
            f"seat {seat} is burning: every play but the last must carry a joker, and {play} carries none",
        )
    return _apply_play(s, seat, play, left, action.burn)


def _check_burn(s: _Step, seat: int, play: Play, left: Counts) -> None:
    """烧牌 (002 §10): pre-empt the opposite and beat a gouji play, under the burn condition."""
    pos = s.pos
    top = pos.top
    if top is None or top.dead or not (top.restricted or top.burn_only):
        raise s.illegal("not-a-burn", "burn", f"seat {seat}: a burn (*) beats a gouji play on top, and there is none")
    if seat in (top.seat, opposite(top.seat)):
        who = "its own play" if seat == top.seat else "its opposite's play: answer it without *"
        raise s.illegal("not-a-burn", "burn", f"seat {seat} cannot burn {who}")
    if pos.headless(seat):
        raise s.illegal("not-a-burn", "headless", f"seat {seat} is headless (无头): it beats any play without burning")
    if seat in pos.barred:
        raise s.illegal("passed-this-round", "burn-pass-bars", f"seat {seat} passed this round and may not burn")
    if not burn_condition_holds(left):
        raise s.illegal(
            "burn-condition",
            "burn-condition",
            f"seat {seat} cannot burn with {play}: left with {format_cards(left)}, it could not carry a joker "
            "in every play but the last",
        )


def burn_condition_holds(left: Counts) -> bool:
    """Whether a burner left holding ``left`` can meet the burn condition (002 §10).

    Every later play must carry a joker except the last, or one rank is left:
    with ``k`` ranks to play (2s attach to another rank, or are one rank when
    alone) and ``j`` jokers, that is ``k <= j + 1``.
    """
    k = sum(1 for r in range(TWO) if left[r])
    if k == 0 and left[TWO]:
        k = 1
    return k <= left[SMALL_JOKER] + left[BIG_JOKER] + 1


def _apply_play(s: _Step, seat: int, play: Play, left: Counts, burn: bool) -> tuple[Position, list[Event]]:
    pos, rules = s.pos, s.pos.ruleset
    old = pos.top
    text = str(play)
    burner = pos.burner
    if old is not None and burner == old.seat and seat != burner:
        s.event(EventKind.BURN_BROKEN, "burn", (seat, burner), text)
        burner = None
    if burn:
        s.event(EventKind.BURN, "burn", (seat, old.seat), text)
        burner = seat
    elif old is not None and old.restricted and seat == opposite(old.seat):
        s.event(EventKind.ANSWER, "gouji-opposite-only", (seat, old.seat), text)
    dead_gouji = (
        old is not None
        and not burn
        and seat == opposite(old.seat)
        and not pos.holds(old.seat)
        and pos.finished.index(old.seat) < 2
        and (old.restricted or rules.dead_gouji_on_any_last_play)
    )
    restricted = not dead_gouji and not pos.melee and not pos.headless(seat) and is_gouji(play, rules)
    if dead_gouji:
        s.event(EventKind.DEAD_GOUJI, "dead-gouji", (seat,), text)
    elif restricted:
        s.event(EventKind.GOUJI, "gouji-play", (seat, opposite(seat)), text)
    can_open = restricted and len(pos.finished) < 2 and not (rules.opening_excludes_big_joker and play.big > 0)
    top = Top(seat, play, restricted, dead_gouji, is_dead(play, rules), can_open)
    hands = pos.hands[: seat - 1] + (left,) + pos.hands[seat:]
    barred = pos.barred
    if pos.yielder is not None and pos.yielder != seat:
        barred = barred | {pos.yielder}  # a play after a yield makes the yield a pass (002 §12)
    pos = replace(
        pos, hands=hands, top=top, barred=barred, yielder=None, yield_back=False, burner=burner, actions=pos.actions + 1
    )
    if not any(left):
        pos = _finish(s, pos, seat)
        if pos.over:
            return pos, s.events
    return _advance(s, pos, seat)


def _finish(s: _Step, pos: Position, seat: int) -> Position:
    """``seat`` played its last card: it takes the next place (走科, 002 §3)."""
    finished = pos.finished + (seat,)
    place = len(finished)
    s.event(EventKind.FINISH, "places", (seat,), place=place)
    burner = pos.burner
    if burner == seat:
        s.event(EventKind.BURN_SUCCESS, "burn-condition", (seat,))
        burner = None
    pos = replace(pos, finished=finished, burner=burner)
    if pos.holds(opposite(seat)):
        s.event(EventKind.HEADLESS, "headless", (opposite(seat),))
    if not pos.melee and sum(1 for t in SEATS if pos.holds(t)) <= 4:
        pos = replace(pos, melee=True)
        s.event(EventKind.MELEE, "melee", tuple(t for t in SEATS if pos.holds(t)))
    if place == 3 and len({team(t) for t in finished}) == 1:
        s.event(EventKind.SWEEP, "sweep", finished)
        return _end(s, pos)
    if sum(1 for t in SEATS if pos.holds(t)) == 1:
        return _end(s, pos)
    return pos


def _end(s: _Step, pos: Position) -> Position:
    """The hand is over: seats still holding cards take the last places,
    fewest cards first, ties in playing order from the last finisher (docs/rules.md)."""
    last = pos.finished[-1]
    rest = sorted((t for t in _seats_after(last) if pos.holds(t)), key=pos.holds)
    finished = pos.finished
    for t in rest:
        finished = finished + (t,)
        s.event(EventKind.FINISH, "hand-end", (t,), place=len(finished))
    s.event(EventKind.HAND_END, "hand-end", finished)
    return replace(pos, finished=finished, to_act=None, top=None)


def scores(ruleset: Ruleset, places: tuple[int, ...]) -> dict[int, int]:
    """Team scores (计分) from seats in order of place: ``{team: score}``, teams 1 and 0.

    Each place scores ``ruleset.scoring.places``; a team scores the sum over
    its seats; a sweep (1st–3rd on one team) scores ``scoring.sweep`` for the
    winners and 0 for the others; with ``positive_only`` a negative sum is 0
    (002 §20). Raises ``ValueError`` unless ``places`` names six seats.
    """
    if len(places) != 6:
        raise ValueError("scores need all six places")
    sc = ruleset.scoring
    if len({team(t) for t in places[:3]}) == 1:
        winner = team(places[0])
        return {1: sc.sweep if winner == 1 else 0, 0: sc.sweep if winner == 0 else 0}
    out = {1: 0, 0: 0}
    for place, t in enumerate(places):
        out[team(t)] += sc.places[place]
    if sc.positive_only:
        out = {k: max(0, v) for k, v in out.items()}
    return out


__all__ = [
    "SEATS",
    "Position",
    "Top",
    "burn_condition_holds",
    "initial_position",
    "next_seat",
    "opposite",
    "scores",
    "step",
    "team",
]
