"""The referee (裁判): bots of any kind at one table, spoken to in the protocol, judged by the engine.

A :class:`Table` seats six players — built-in bots (:class:`BuiltIn`, in this process) or bot
programs (:class:`External`, each in its own process: gouji_record.bots.process) — tells each what
its seat sees (gouji_record.bots.protocol), asks the seat whose decision it is, checks the answer
against the legal actions (gouji_record.rules.moves.legal_actions: the engine's own) and applies it
with the engine. Transfers before play (buying 3s and 4s, gifts, tribute and its return) are made
by the referee as the rules have them (gouji_record.judging.buying.plan_buying,
gouji_record.bots.selfplay.pay_tribute), and every seat is told of them; the declarations before
play (革命, 要头, 宣点 …), every play and every burn are the bots' decisions.

A bot that fails (:class:`~gouji_record.bots.process.BotError`) stops the table: the error is
raised as a :class:`TableError` carrying the hands played so far as records, the hand in progress
cut at the failure with Result ``*`` (they validate: every action in them the engine accepted).

:func:`duplicate` plays the same deals with the seats rotated (复式), so that the luck of the deal
cancels, and gives each bot's mean points per hand with a confidence interval.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field

from ..errors import GoujiError
from ..judging.buying import plan_buying
from ..judging.lead import first_leader
from ..judging.replay import replay
from ..matches.match import tribute_due
from ..model import DECLARATION_KINDS, Action, GameRecord, tag_value_problem
from ..rules.engine import Position, begin_play, initial_position, step, team
from ..rules.events import IllegalAction
from ..rules.moves import legal_actions, legal_burns
from ..rules.options import options_tag
from ..rules.rulesets import Ruleset
from ..rules.scoring import scores
from .process import DEFAULT_TIMEOUT, BotError, BotProcess
from .protocol import (
    Agent,
    Decision,
    Due,
    HandEnd,
    HandStart,
    Hello,
    RulesetMessage,
    _Message,
    action_seen,
    seat_view,
)
from .selfplay import MAX_ACTIONS, _tags, deal, pay_tribute


class Player:
    """One seat's bot, as the referee speaks to it: :meth:`tell` a message, :meth:`decide` a
    decision (the answer's text, ``None`` to decline), :meth:`close`. ``label`` names the bot in
    errors and tables."""

    label = "?"
    name = "?"

    def tell(self, msg: _Message) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def decide(self, d: Decision) -> str | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def fail(self, problem: str) -> BotError:
        """A :class:`~gouji_record.bots.process.BotError` of this bot, about its last answer (a
        bot program's line quoted as it wrote it)."""
        return BotError(self.label, self.seat, None, None, problem)

    def close(self, reason: str = "") -> None:
        """End the bot (a process is reaped). Never raises."""

    seat: int | None = None


class BuiltIn(Player):
    """A built-in bot (``person``, ``random``: :class:`~gouji_record.bots.protocol.Agent`) called
    in this process with the same messages a bot program gets. ``seed`` seeds its choices."""

    def __init__(self, name: str, seed: int = 1) -> None:
        self.agent = Agent(name, seed)
        self.label = self.name = name
        self.seed = seed

    def tell(self, msg: _Message) -> None:
        """Send ``msg`` to the bot, started (and greeted) at the ``hello``.

        Raises:
            BotError: the bot cannot be started, does not answer its hello as the protocol says,
                gives a name that cannot be a SeatN tag, or does not read (:class:`BotProcess`).
        """
        if isinstance(msg, Hello):
            self.seat = msg.seat
            self.agent.rng = random.Random(self.seed * 7 + (msg.seat or 0))
        elif isinstance(msg, RulesetMessage):
            self.agent.learn(msg)

    def decide(self, d: Decision) -> str | None:
        return self.agent.decide(d)


class External(Player):
    """The bot program ``command`` (gouji_record.bots.process.BotProcess), started at the first
    ``hello``; ``timeout`` seconds for each answer."""

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.label = self.name = command
        self.timeout = timeout
        self.proc: BotProcess | None = None

    def tell(self, msg: _Message) -> None:
        """Send ``msg`` to the bot, started (and greeted) at the ``hello``.

        Raises:
            BotError: the bot cannot be started, does not answer its hello as the protocol says,
                gives a name that cannot be a SeatN tag, or does not read (:class:`BotProcess`).
        """
        if isinstance(msg, Hello):
            self.seat = msg.seat
            self.proc = BotProcess(self.label, msg.seat, self.timeout)
            hello = self.proc.greet(msg)
            if hello.name is not None and (problem := tag_value_problem(hello.name)):
                raise self.proc.fail(f"its name cannot be a record's SeatN tag: {problem}", said=True)
            self.name = hello.name or self.label
        else:
            assert self.proc is not None
            self.proc.send(msg)

    def decide(self, d: Decision) -> str | None:
        assert self.proc is not None
        return self.proc.ask(d)

    def fail(self, problem: str) -> BotError:
        return self.proc.fail(problem, said=True) if self.proc else super().fail(problem)

    def close(self, reason: str = "") -> None:
        if self.proc is not None:
            self.proc.close(reason)


def player(spec: str, seed: int = 1, timeout: float = DEFAULT_TIMEOUT) -> Player:
    """The player a ``--bot`` value names: a built-in bot's name (``person``, ``random``) or else
    a command that starts a bot program."""
    return BuiltIn(spec, seed) if spec in Agent.NAMES else External(spec, timeout)


class TableError(GoujiError):
    """A bot failed at the table (code ``bot``): ``error`` (the
    :class:`~gouji_record.bots.process.BotError`, whose message this is) and ``records``, the
    hands played so far, the last one cut where the bot failed (Result ``*``)."""

    default_code = "bot"

    def __init__(self, error: BotError, records: list[GameRecord]) -> None:
        super().__init__(error.message)
        self.error, self.records = error, records


@dataclass
class Table:
    """Six players (``players[s - 1]`` at seat ``s``) under ``rules``. Use as a context manager:
    :meth:`open` greets them, leaving closes them all (processes reaped) whatever happened."""

    rules: Ruleset
    players: list[Player]
    standings: dict[str, int] = field(default_factory=lambda: {"1": 0, "0": 0})
    decisions: int = 0
    _stack: ExitStack = field(default_factory=ExitStack)

    def __enter__(self) -> Table:
        for p in self.players:
            self._stack.callback(p.close)
        return self

    def __exit__(self, *exc) -> None:
        self._stack.close()

    def open(self) -> None:
        """Greet each seat (``hello``, ``ruleset``). Raises :class:`~gouji_record.bots.process.BotError`."""
        for s, p in enumerate(self.players, start=1):
            p.tell(Hello(seat=s))
            p.tell(RulesetMessage(name=self.rules.name, options=options_tag(self.rules) or ""))

    def _tell_all(self, number: int, action: Action, events) -> None:
        for s, p in enumerate(self.players, start=1):
            p.tell(action_seen(number, action, events, s))

    def _ask(self, pos: Position, seat: int, step_: str, legal: list[Action]) -> Action | None:
        """Ask ``seat`` to choose among ``legal``; its answer as an action (``None``: declined)."""
        self.decisions += 1
        p = self.players[seat - 1]
        d = Decision(
            id=self.decisions,
            seat=seat,
            step=step_,  # type: ignore[arg-type]
            position=seat_view(pos, seat),
            legal=[a.text for a in legal],
            may_decline=step_ != "play",
        )
        text = p.decide(d)
        if text is None:
            if d.may_decline:
                return None
            raise p.fail(f"declined decision {d.id}, where it must act (one of {', '.join(d.legal[:6])} …)")
        by_text = {a.text: a for a in legal}
        if text in by_text:
            return by_text[text]
        try:
            action = Action.from_text(text)
        except (ValueError, GoujiError) as e:
            raise p.fail(f"not an action in the notation: {getattr(e, 'message', e)}") from None
        if action.text in by_text:  # written another way the notation reads (2:qqq)
            return by_text[action.text]
        try:
            step(pos, action)
            why = f"not among the legal actions of decision {d.id} ({step_})"
        except IllegalAction as e:
            why = e.message
        raise p.fail(f"illegal action {text}: {why}")

    def play_from(self, pos: Position, done: list[Action], number: int) -> Iterator[tuple[Action, Position]]:
        """Play from ``pos`` (in play, or before play after the transfers) to the end of the hand,
        asking the bots: each action made with the position after it. ``number`` is the number of
        the next action (from 1); ``done`` receives each action as it is made."""
        declined: set[tuple] = set()
        for _ in range(6 if pos.preplay else 0):  # declarations, seat by seat, until none is made
            made = False
            for seat in range(1, 7):
                legal = [a for a in legal_actions(pos, seat) if a.kind in DECLARATION_KINDS]
                if not legal or (seat, len(done)) in declined:
                    continue
                a = self._ask(pos, seat, "declare", legal)
                if a is None:
                    declined.add((seat, len(done)))
                    continue
                pos, events = step(pos, a)
                done.append(a)
                self._tell_all(number, a, events)
                number += 1
                made = True
                yield a, pos
            if not made:
                break
        pos = begin_play(pos)[0]
        for _ in range(MAX_ACTIONS):
            if pos.over:
                return
            a = None
            top = pos.top
            if top is not None and (top.restricted or top.burn_only):
                burns: dict[int, list[Action]] = {}
                for b in legal_burns(pos):
                    burns.setdefault(b.seat, []).append(b)  # type: ignore[arg-type]
                for seat, legal in burns.items():
                    key = (pos.round, top.seat, str(top.play), seat)
                    if key in declined:
                        continue
                    a = self._ask(pos, seat, "burn", legal)
                    if a is not None:
                        break
                    declined.add(key)
            if a is None:
                seat = pos.to_act
                assert seat is not None
                legal = [x for x in legal_actions(pos, seat) if isinstance(x, Action) and not x.burn]
                a = self._ask(pos, seat, "play", legal)
                assert a is not None
            pos, events = step(pos, a)
            done.append(a)
            self._tell_all(number, a, events)
            number += 1
            yield a, pos

    def play_hand(
        self,
        dealt: tuple[str, ...],
        preplay: tuple[Action, ...],
        leader: int,
        tags: dict[str, str],
        hand: int = 1,
        match: str | None = None,
        dues: tuple | list = (),
    ) -> GameRecord:
        """One hand from the deal ``dealt``, led by ``leader``: the transfers ``preplay`` made and
        told (``dues``: the tribute they pay, gouji_record.matches.match.Due), then the bots'
        declarations and play. Returns its record (``tags`` added to the self-play tags; ``Seed``
        among them is written last). Raises :class:`~gouji_record.bots.process.BotError` with
        ``partial``, the record cut there."""
        rules = self.rules
        names = {f"Seat{s}": p.name for s, p in enumerate(self.players, start=1)}
        made: list[Action] = []
        done: list[Action] = []
        tags = dict(tags)
        seed = tags.pop("Seed", "?")

        def record(result: str) -> GameRecord:
            t = _tags(rules, 0, result, tags) | names | {"Seed": seed}
            declared = tuple(a for a in done if a.kind.preplay)
            played = tuple(a for a in done if not a.kind.preplay)
            return GameRecord(tags=t, deal=dealt, preplay=tuple(made) + declared, actions=played)

        try:
            tribute = [Due(kind=d.kind, giver=d.giver, taker=d.taker, count=d.count) for d in dues]
            for s, p in enumerate(self.players, start=1):
                p.tell(
                    HandStart(
                        hand=hand, match=match, seat=s, cards=dealt[s - 1], leader=leader, tribute=tribute,
                        standings=dict(self.standings),
                    )
                )
            pos = initial_position(rules, dealt, leader)
            for n, a in enumerate(preplay, start=1):
                pos, events = step(pos, a)
                made.append(a)
                self._tell_all(n, a, events)
            final = pos
            for _, final in self.play_from(pos, done, len(preplay) + 1):
                pass
            rec = record("*")
            result = replay(rec, rules)
            over = result.final.over
            text = ("void" if result.final.void else "-".join(map(str, result.places))) if over else "*"
            rec = rec.model_copy(update={"tags": rec.tags | {"Result": text}})
            if over:
                points = scores(rules, result.final).teams
                for k, v in points.items():
                    self.standings[str(k)] += v
                for p in self.players:
                    p.tell(HandEnd(hand=hand, result=text, points={str(k): v for k, v in points.items()}, standings=dict(self.standings)))
            return rec
        except BotError as e:
            e.partial = record("*")  # type: ignore[attr-defined]
            raise


def hand_deal(seed: int) -> tuple[tuple[str, ...], int]:
    """The deal and the first leader of a hand alone from ``seed``, as
    :func:`~gouji_record.bots.selfplay.play_hand` draws them (the same seed, the same deal)."""
    rng = random.Random(seed)
    dealt = deal(rng)
    return dealt, rng.randint(1, 6)


def play_hands(table: Table, seeds: list[int], extra: dict[str, str] | None = None) -> list[GameRecord]:
    """Hands alone (no tribute between them), one per seed of ``seeds``, dealt as
    :func:`hand_deal` deals them, the seats buying and giving 3s and 4s as the rules have them.

    Raises:
        TableError: a bot failed; it holds the records so far.
    """
    out: list[GameRecord] = []
    with table:
        try:
            table.open()
            for seed in seeds:
                dealt, leader = hand_deal(seed)
                out.append(table.play_hand(dealt, plan_buying(table.rules, dealt), leader, {"Seed": str(seed), **(extra or {})}))
        except BotError as e:
            raise TableError(e, out + [p] if (p := getattr(e, "partial", None)) else out) from None
    return out


def play_table_match(table: Table, seed: int, hands: int, name: str | None = None) -> list[GameRecord]:
    """``hands`` hands as one match (as :func:`~gouji_record.bots.selfplay.play_match` deals and
    pays tribute), played by ``table``'s bots.

    Raises:
        TableError: a bot failed; it holds the records so far.
    """
    rules = table.rules
    rng = random.Random(seed)
    match = name or f"selfplay-{rules.name}-{seed}"
    out: list[GameRecord] = []
    with table:
        try:
            table.open()
            for n in range(1, hands + 1):
                dealt = deal(rng)
                preplay = plan_buying(rules, dealt)
                dues: list = []
                hand_seed = rng.randrange(1 << 30)
                leader = random.Random(hand_seed).randint(1, 6)
                if out:
                    prev = replay(out[-1], rules)
                    dues = tribute_due(rules, prev.final)
                    preplay += pay_tribute(rules, dues, dealt, before=preplay)
                    leader = first_leader(before=prev, ruleset=rules) or leader
                tags = {"Match": match, "Hand": str(n), "Seed": str(hand_seed)}
                out.append(table.play_hand(dealt, preplay, leader, tags, hand=n, match=match, dues=dues))
        except BotError as e:
            raise TableError(e, out + [p] if (p := getattr(e, "partial", None)) else out) from None
    return out


@dataclass(frozen=True)
class Rating:
    """One bot's result in duplicate play: ``bot`` (its ``--bot`` value), ``deals`` (deals it
    played, each at every seat it was given, rotated round the table), ``mean`` (its team's points
    per hand, averaged over its seats and the rotations of a deal, then over the deals), ``low``
    and ``high`` (the confidence interval of ``mean`` at ``level``; ``None`` under two deals)."""

    bot: str
    deals: int
    mean: float
    low: float | None
    high: float | None
    level: float


def interval(values: list[float], level: float = 0.95) -> tuple[float, float | None, float | None]:
    """Mean and confidence interval of ``values`` (one per deal: the deals are independent, the
    rotations of one deal are not, which is why a deal's rotations are averaged first).

    The interval is the normal one, mean ± z·s/√n with z the normal quantile of ``level``
    (``statistics.NormalDist``) and s the sample standard deviation (``statistics.stdev``): by the
    central limit theorem the mean of n independent deals is about normal, the points of a hand
    being bounded (the scoring tables: a few points). Under about 30 deals it is somewhat too
    narrow (Student's t would widen it: ×1.05 at 30 deals, ×1.24 at 5). ``None`` bounds under two
    values. Raises ``statistics.StatisticsError`` for no value.

    >>> [round(x, 4) for x in interval([1.0, 3.0])]  # s = √2, s/√2 = 1: mean ± 1.96
    [2.0, 0.04, 3.96]
    """
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, None, None
    half = statistics.NormalDist().inv_cdf(0.5 + level / 2) * statistics.stdev(values) / len(values) ** 0.5
    return mean, mean - half, mean + half


def duplicate(
    rules: Ruleset, specs: list[str], seeds: list[int], timeout: float = DEFAULT_TIMEOUT, level: float = 0.95
) -> tuple[list[GameRecord], list[Rating]]:
    """Duplicate play (复式): each deal of ``seeds`` (dealt as :func:`hand_deal` deals) played six
    times, the bots of ``specs`` (``specs[s - 1]`` at seat ``s`` first) moved one seat on each time,
    so that every bot plays every seat's cards of every deal. Returns the records (tags ``Deal``
    and ``Rotation``) and a :class:`Rating` per distinct bot, best first.

    Raises:
        TableError: a bot failed; it holds the records so far.
    """
    records: list[GameRecord] = []
    points: dict[str, dict[int, list[int]]] = {spec: {} for spec in specs}
    for k in range(6):
        seated = [specs[(s - 1 - k) % 6] for s in range(1, 7)]
        table = Table(rules, [player(spec, seed=1000 * k + s, timeout=timeout) for s, spec in enumerate(seated, start=1)])
        try:
            done = play_hands(table, seeds, extra={"Rotation": str(k)})
        except TableError as e:
            raise TableError(e.error, records + e.records) from None
        for d, rec in enumerate(done, start=1):
            records.append(rec.model_copy(update={"tags": rec.tags | {"Deal": str(d)}}))
            final = replay(rec, rules).final
            teams = scores(rules, final).teams if final.over else {1: 0, 0: 0}
            for s, spec in enumerate(seated, start=1):
                points[spec].setdefault(d, []).append(teams[team(s)])
    ratings = []
    for spec, by_deal in points.items():
        per_deal = [statistics.fmean(v) for _, v in sorted(by_deal.items())]
        mean, low, high = interval(per_deal, level)
        ratings.append(Rating(spec, len(per_deal), mean, low, high, level))
    return records, sorted(ratings, key=lambda r: -r.mean)


class Rollouts:
    """A bot program at every seat for rollouts (``gouji review --rollouts N --bot COMMAND``):
    :meth:`finish` plays a hand out from a position, each seat told its view of it (``hand`` with
    ``position``). The six processes start at the first rollout and end with :meth:`close`.
    ``command`` may name a built-in bot (``random``): it then decides in process from the same
    messages, seeded with ``seed`` as ``gouji bot random --seed SEED`` is."""

    def __init__(self, command: str, rules: Ruleset, timeout: float = DEFAULT_TIMEOUT, seed: int = 1) -> None:
        self.table = Table(rules, [player(command, seed=seed, timeout=timeout) for _ in range(1, 7)])
        self.opened = False
        self.hands = 0

    def finish(self, pos: Position) -> Position:
        """The position at the end of the hand the bots play out from ``pos`` (every card known).
        Raises :class:`~gouji_record.bots.process.BotError`."""
        if not self.opened:
            self.table.__enter__()
            self.opened = True
            self.table.open()
        self.hands += 1
        for s, p in enumerate(self.table.players, start=1):
            view = seat_view(pos, s)
            p.tell(HandStart(hand=self.hands, seat=s, cards=view["seats"][s - 1]["cards"] or "", leader=pos.to_act, position=view))
        final = pos
        for _, final in self.table.play_from(pos, [], pos.actions + 1):
            pass
        return final

    def close(self) -> None:
        """End the bots (processes reaped)."""
        if self.opened:
            self.table.__exit__(None, None, None)


__all__ = [
    "BuiltIn",
    "External",
    "Player",
    "Rating",
    "Rollouts",
    "Table",
    "TableError",
    "duplicate",
    "hand_deal",
    "interval",
    "play_hands",
    "play_table_match",
    "player",
]
