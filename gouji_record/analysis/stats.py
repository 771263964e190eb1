"""Counting over many hands (统计): per player, seat, team or ruleset, from the engine's replay.

Each seat of each hand read is one *appearance* of its player (its ``Seat`` tag), of its seat, of
its team and of the hand's ruleset; :class:`Tally` adds up what the engine derived for it: places
头科 … 大落 (finished, not void hands), the team's points, 开点, 够级 plays made and answered, burns
by outcome, smothers, revolutions, tribute cards paid and received, illegal actions. Hands stream
through one at a time: memory holds one tally per key, whatever the number of hands (and, for the
hands of a match, their team points: a few numbers a hand, :attr:`Stats.matches`).

:class:`Pairs` counts pairs of players instead, head to head (each player against each opposite
it faced, 对头) or with each team-mate: hands together, wins, points, places (:class:`PairTally`).

Counts add up: the :class:`Stats` (or :class:`Pairs`) of each hand (:func:`hand_stats`, done in worker processes by
``gouji stats --jobs``) merged (:meth:`Stats.merge`) in file order are the :class:`Stats` of all.

>>> from gouji_record import parse, replay
>>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
>>> head = f'[Event "x"][Site "y"][Date "2026.11.30"][Ruleset "charter"]{seats}[Result "*"]'
>>> t = Stats("seat")
>>> t.add(replay(parse(head + "deal 1: TTTTT?31 2: ? 3: ? 4: JJJJJ?31 5: ? 6: ? play 1. 1:TTTTT 4:JJJJJ")[0]))
>>> t.rows["seat 1"].gouji_made, t.rows["seat 4"].gouji_answered, t.rows["seat 4"].gouji_made
(1, 1, 1)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Literal, NamedTuple

from ..judging.replay import Replay, replay
from ..rules.engine import SEATS, opposite, team, team_name
from ..rules.events import PLACE_NAMES_EN, PLACE_NAMES_ZH, EventKind

if TYPE_CHECKING:
    from ..running.batch import Judged, ReadHand
    from ..rules.events import Diagnostic
    from ..rules.rulesets import Ruleset
    from ..matches.verdict import Verdict

By = Literal["player", "seat", "team", "ruleset"]
BY: tuple[By, ...] = ("player", "seat", "team", "ruleset")


@dataclass
class Tally:
    """What the appearances of one key add up to. ``hands`` counts hands (a team's or a ruleset's
    once per hand, a player's or a seat's per appearance), ``finished`` those that ended, not void;
    ``places[k]`` counts place ``k + 1`` (头科 first) of the key's seats over finished hands;
    ``points`` sums the team's score of each finished hand (计分) — for a ruleset, which has both
    teams, the points of the hand's winning team (the higher of the two teams' scores; in a tie,
    their common score), so that ``points_per_hand`` is what a hand under it was worth: 2 + 2 + 12
    over the three hands of examples/charter-match.gjn (002 §20: 4 2 0 0 -2 -4, a negative sum
    recorded as 0, a sweep 12); the seats' own extras in ``extras``; burns count by the burner; ``tribute_paid`` and
    ``tribute_received`` count cards of tribute (点贡, 落贡, 闷贡, 烧贡, 对头贡: not 还贡, its
    return), as the match check explains the transfers of a hand of a match
    (:meth:`Stats.add_tribute`); ``illegal`` the hands whose
    verdict's first problem is this seat's action (an illegal play, a wrong purchase, its match's
    tribute paid wrong …); ``invalid`` the hands (counted as ``hands`` counts them) whose verdict
    is not valid, for whatever reason, a Result tag or a Hand number included: over ``--by
    ruleset`` it is the number of hands ``gouji validate`` reads and finds invalid (a hand that
    cannot be read is not counted: it is reported instead)."""

    key: str
    hands: int = 0
    finished: int = 0
    places: list[int] = field(default_factory=lambda: [0] * 6)
    points: int = 0
    extras: int = 0
    opened: int = 0
    gouji_made: int = 0
    gouji_answered: int = 0
    burns: int = 0
    burns_succeeded: int = 0
    burns_failed: int = 0
    burns_broken: int = 0
    smothered: int = 0
    smothers_made: int = 0
    revolts: int = 0
    tribute_paid: int = 0
    tribute_received: int = 0
    illegal: int = 0
    invalid: int = 0
    decisions: int = 0
    missed: int = 0

    @property
    def opening_rate(self) -> float:
        """开点 per seat in a finished hand (0 with none): a team or ruleset has 3 or 6 a hand."""
        seats = sum(self.places)
        return self.opened / seats if seats else 0.0

    @property
    def points_per_hand(self) -> float:
        """Points per finished hand (0 with none)."""
        return self.points / self.finished if self.finished else 0.0

    def absorb(self, other: Tally) -> None:
        """Add ``other``'s counts (of the same key, or not) to this tally's."""
        for f in fields(self):
            if f.name == "key":
                continue
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if isinstance(mine, list):
                setattr(self, f.name, [a + b for a, b in zip(mine, theirs)])
            else:
                setattr(self, f.name, mine + theirs)

    @property
    def missed_per_100(self) -> float:
        """Chances missed (失机: review findings naming another action the rules allowed) per 100
        decisions (决策), counted with ``gouji stats --review``; 0 with no decision."""
        return 100 * self.missed / self.decisions if self.decisions else 0.0

    def as_dict(self) -> dict:
        """The tally as JSON-ready data, with the place shares and rates."""
        out = asdict(self)
        out["missed_per_100"] = round(self.missed_per_100, 2)
        out["place_shares"] = [round(n / self.finished, 4) if self.finished else 0.0 for n in self.places]
        out["opening_rate"] = round(self.opening_rate, 4)
        out["points_per_hand"] = round(self.points_per_hand, 4)
        return out


class MatchHand(NamedTuple):
    """A hand of a match (its ``Match`` tag: ``match``), as the points chart reads it: its ``Hand``
    tag (``None`` without one), and ``points``, the scores of team 1-3-5 and team 2-4-6
    (``None`` for a hand that did not finish, or is void)."""

    match: str
    hand: str | None
    points: tuple[int, int] | None


class MatchPoints(NamedTuple):
    """The team points of a match hand by hand (:meth:`Stats.match_points`): ``hands``, each hand's
    label (its ``Hand`` tag, or its number in the run), and the running totals ``team1`` (seats
    1 3 5) and ``team0`` (2 4 6) after each (a hand without a score adds nothing)."""

    match: str
    hands: list[str]
    team1: list[int]
    team0: list[int]


class Stats:
    """Tallies by ``by`` (``player``, ``seat``, ``team``, ``ruleset``), hand by hand (:meth:`add`),
    or merged from the :class:`Stats` of other hands (:meth:`merge`). ``rows`` maps each key to
    its :class:`Tally`; ``hands`` counts the hands added; ``matches`` lists the hands of matches
    in the order added (:class:`MatchHand`).

    Raises:
        ValueError: another ``by``.
    """

    def __init__(self, by: By = "player") -> None:
        if by not in BY:
            raise ValueError(f"by must be one of {', '.join(BY)}")
        self.by = by
        self.rows: dict[str, Tally] = {}
        self.hands = 0
        self.matches: list[MatchHand] = []

    def key(self, result: Replay, seat: int) -> str:
        """The row a seat of ``result`` counts in."""
        if self.by == "player":
            return result.record.player(seat)
        if self.by == "seat":
            return f"seat {seat}"
        if self.by == "team":
            return team_name(seat)
        return result.ruleset.name

    def add(self, result: Replay) -> None:
        """Count the hand ``result`` replayed (up to its illegal action, if any)."""
        final, record = result.final, result.record
        done = result.complete and not final.void
        places = result.places if done else ()
        score = result.score if done else None
        offender = None
        if result.diagnostic is not None and result.diagnostic.action is not None:
            offender = record.all_actions[result.diagnostic.action].seat
        counts = {kind: dict.fromkeys(SEATS, 0) for kind in (EventKind.GOUJI, EventKind.ANSWER)}
        for e in result.events:
            if e.kind in counts and e.seats:
                counts[e.kind][e.seats[0]] += 1
        counted: set[str] = set()  # a team's or a ruleset's hand and points count once per hand
        for seat in SEATS:
            key = self.key(result, seat)
            row = self.rows.setdefault(key, Tally(key))
            once = key not in counted
            counted.add(key)
            if once or self.by in ("player", "seat"):
                row.hands += 1
                row.invalid += result.diagnostic is not None
                row.finished += done
                if done and score is not None:
                    row.points += max(score.teams.values()) if self.by == "ruleset" else score.teams[team(seat)]
            if done:
                row.places[places.index(seat)] += 1
                row.extras += score.seats[seat] if score is not None else 0
                row.opened += seat in final.opened
            row.gouji_made += counts[EventKind.GOUJI][seat]
            row.gouji_answered += counts[EventKind.ANSWER][seat]
            for burner, _, outcome in final.burns:
                if burner == seat:
                    row.burns += 1
                    row.burns_succeeded += outcome == "success"
                    row.burns_failed += outcome == "failed"
                    row.burns_broken += outcome == "broken"
            row.smothered += sum(1 for _, s in final.smothers if s == seat)
            row.smothers_made += sum(1 for by, _ in final.smothers if by == seat)
            row.revolts += seat in final.revolted
            row.illegal += offender == seat
        self.hands += 1
        if name := record.tags.get("Match"):
            points = (score.teams[1], score.teams[0]) if score is not None else None
            self.matches.append(MatchHand(name, record.tags.get("Hand"), points))

    def add_review(self, result: Replay) -> None:
        """Count the review of the hand ``result`` (replayed with every position): each seat's
        decisions (决策) and chances missed (失机), as ``gouji review``'s per-seat lines give them
        (:func:`~gouji_record.analysis.review.hand_tally`), in the seat's row."""
        from .review import hand_tally, review

        for t in hand_tally(review(result)):
            row = self.rows[self.key(result, t.seat)]
            row.decisions += t.decisions
            row.missed += t.missed

    def hand_keys(self, result: Replay) -> list[str]:
        """The rows that count the hand ``result`` among their ``hands``: a player's or a seat's
        per appearance, a team's or a ruleset's once."""
        keys = [self.key(result, seat) for seat in SEATS]
        return keys if self.by in ("player", "seat") else list(dict.fromkeys(keys))

    def add_tribute(self, result: Replay, kinds: dict[int, str]) -> None:
        """Count the tribute of the hand ``result`` already added: ``kinds`` maps each pre-play
        action the match check explains as tribute to its kind (a key of
        :data:`~gouji_record.matches.match.KIND_NAMES`); a return (还贡) is not tribute paid, nor a
        refusal (拒绝: no card moves)."""
        for i, kind in kinds.items():
            if kind in ("return", "refused", "return-refused"):
                continue
            a = result.record.preplay[i]
            self.rows[self.key(result, a.seat)].tribute_paid += len(a.cards)
            self.rows[self.key(result, a.to)].tribute_received += len(a.cards)

    def add_offence(self, result: Replay, diagnostic: Diagnostic) -> None:
        """Count ``diagnostic``, a problem of the hand ``result`` already added (valid on its own)
        that is its match's: the hand is invalid, and illegal for the seat of the action it names
        (none for a problem of the hand as a whole, such as its Hand number)."""
        for key in self.hand_keys(result):
            self.rows[key].invalid += 1
        if diagnostic.action is None or diagnostic.action >= len(result.record.all_actions):
            return
        seat = result.record.all_actions[diagnostic.action].seat
        self.rows[self.key(result, seat)].illegal += 1

    def merge(self, other: Stats) -> None:
        """Add the counts of ``other`` (the same ``by``; the hands after this one's) to this one's:
        adding hands one by one or merging their :class:`Stats` in the same order gives the same
        tallies.

        Raises:
            ValueError: ``other`` counts by another key.
        """
        if other.by != self.by:
            raise ValueError(f"cannot merge counts by {other.by} into counts by {self.by}")
        for key, tally in other.rows.items():
            self.rows.setdefault(key, Tally(key)).absorb(tally)
        self.hands += other.hands
        self.matches += other.matches

    def match_points(self) -> list[MatchPoints]:
        """Each match's running team points, hand by hand: one :class:`MatchPoints` per run of
        match hands with the same ``Match`` tag, in the order added (hands of no match in
        between do not cut a run). A hand is labelled by its ``Hand`` tag, else by its number
        in the run."""
        runs: list[MatchPoints] = []
        for m in self.matches:
            if not runs or runs[-1].match != m.match:
                runs.append(MatchPoints(m.match, [], [], []))
            run = runs[-1]
            before = (run.team1[-1], run.team0[-1]) if run.hands else (0, 0)
            got = m.points or (0, 0)
            label = (m.hand or "").strip() or str(len(run.hands) + 1)
            run.hands.append(label)
            run.team1.append(before[0] + got[0])
            run.team0.append(before[1] + got[1])
        return runs

    def table(self) -> list[Tally]:
        """The rows, most appearances first, then by key."""
        return sorted(self.rows.values(), key=lambda t: (-t.hands, t.key))


PairBy = Literal["opposite", "partner"]
PAIR_BY: tuple[PairBy, ...] = ("opposite", "partner")


@dataclass
class PairTally:
    """What the hands a player sat with ``other`` add up to, from ``player``'s side: ``other`` its
    opposite (对头, three seats away: seats 1-4, 2-5, 3-6) or one of its team-mates (上联/下联,
    two seats away, on its team 1-3-5 or 2-4-6), as the Seat tags name them. ``hands`` counts the
    hands together, ``finished`` those that ended, not void; over finished hands, ``points`` sums
    the score of ``player``'s team (计分), ``wins`` the hands its team scored more than the other
    team, ``losses`` fewer (the rest, ``ties``, as many: under the charter both teams may score 0);
    ``places[k]`` counts ``player``'s place ``k + 1`` (头科 first), ``ahead`` the hands it took a
    better place than ``other``. The row ``(other, player)`` holds the same hands from the other
    side."""

    player: str
    other: str
    hands: int = 0
    finished: int = 0
    wins: int = 0
    losses: int = 0
    points: int = 0
    places: list[int] = field(default_factory=lambda: [0] * 6)
    ahead: int = 0

    @property
    def ties(self) -> int:
        """Finished hands neither team won (both scored the same)."""
        return self.finished - self.wins - self.losses

    @property
    def points_per_hand(self) -> float:
        """The team's points per finished hand (0 with none)."""
        return self.points / self.finished if self.finished else 0.0

    @property
    def win_rate(self) -> float:
        """Wins per finished hand, 0 … 1 (0 with none)."""
        return self.wins / self.finished if self.finished else 0.0

    def absorb(self, other: PairTally) -> None:
        """Add ``other``'s counts (of the same pair, or not) to this tally's."""
        for f in fields(self):
            if f.name in ("player", "other"):
                continue
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            setattr(self, f.name, [a + b for a, b in zip(mine, theirs)] if isinstance(mine, list) else mine + theirs)

    def as_dict(self, by: PairBy) -> dict:
        """The tally as JSON-ready data: ``player``, ``other`` named ``by`` (``opposite`` or
        ``partner``), the counts, ``ties`` and the rates."""
        out = asdict(self)
        out[by] = out.pop("other")
        out["ties"] = self.ties
        out["win_rate"] = round(self.win_rate, 4)
        out["points_per_hand"] = round(self.points_per_hand, 4)
        return out


class Pairs:
    """Head-to-head (``by="opposite"``: each player against each of its opposites, 对头) or partner
    (``by="partner"``: with each of its team-mates) tables, hand by hand (:meth:`add`) or merged
    (:meth:`merge`) as :class:`Stats` are: ``rows`` maps ``(player, other)`` to its
    :class:`PairTally`, one row per pair of players that sat so (memory grows with the players,
    not the hands); ``hands`` counts the hands added.

    >>> from gouji_record import parse, replay
    >>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
    >>> head = f'[Event "x"][Site "y"][Date "2026.11.30"][Ruleset "charter"]{seats}[Result "*"]'
    >>> t = Pairs("opposite")
    >>> t.add(replay(parse(head + "deal 1: TTTTT?31 2: ? 3: ? 4: JJJJJ?31 5: ? 6: ? play 1. 1:TTTTT 4:JJJJJ")[0]))
    >>> sorted(t.rows)[:2], t.rows["p1", "p4"].hands, t.rows["p1", "p4"].finished
    ([('p1', 'p4'), ('p2', 'p5')], 1, 0)

    Raises:
        ValueError: another ``by``.
    """

    def __init__(self, by: PairBy = "opposite") -> None:
        if by not in PAIR_BY:
            raise ValueError(f"by must be one of {', '.join(PAIR_BY)}")
        self.by = by
        self.rows: dict[tuple[str, str], PairTally] = {}
        self.hands = 0

    def others(self, seat: int) -> tuple[int, ...]:
        """The seats ``seat`` is paired with: its opposite, or its two team-mates."""
        if self.by == "opposite":
            return (opposite(seat),)
        return tuple(s for s in SEATS if s != seat and team(s) == team(seat))

    def add(self, result: Replay) -> None:
        """Count the hand ``result`` replayed (a hand that stopped at an illegal action, or void,
        counts among ``hands`` only)."""
        final, record = result.final, result.record
        done = result.complete and not final.void and result.score is not None
        places = result.places if done else ()
        for seat in SEATS:
            for other in self.others(seat):
                key = (record.player(seat), record.player(other))
                row = self.rows.setdefault(key, PairTally(*key))
                row.hands += 1
                if not done:
                    continue
                mine, theirs = result.score.teams[team(seat)], result.score.teams[1 - team(seat)]
                row.finished += 1
                row.points += mine
                row.wins += mine > theirs
                row.losses += mine < theirs
                row.places[places.index(seat)] += 1
                row.ahead += places.index(seat) < places.index(other)
        self.hands += 1

    def merge(self, other: Pairs) -> None:
        """Add the counts of ``other`` (the same ``by``) to this one's: adding hands one by one or
        merging their :class:`Pairs` gives the same tallies.

        Raises:
            ValueError: ``other`` pairs by another relation.
        """
        if other.by != self.by:
            raise ValueError(f"cannot merge counts by {other.by} into counts by {self.by}")
        for key, tally in other.rows.items():
            self.rows.setdefault(key, PairTally(*key)).absorb(tally)
        self.hands += other.hands

    def table(self) -> list[PairTally]:
        """The rows by player, and for each player most hands together first, then by name."""
        return sorted(self.rows.values(), key=lambda t: (t.player, -t.hands, t.other))


#: The place columns of both tables, 头科 … 大落: heading, and the tally's place count (:func:`cell`).
PLACE_COLUMNS: tuple[tuple[str, str], ...] = tuple(
    (f"{en} {zh}", f"p{place}") for place, (en, zh) in enumerate(zip(PLACE_NAMES_EN, PLACE_NAMES_ZH), start=1)
)

#: The columns of the pair tables (after the player and the other): heading, and how to read it off a tally.
PAIR_COLUMNS: tuple[tuple[str, str], ...] = (
    ("hands", "hands"),
    ("finished", "finished"),
    ("wins 胜", "wins"),
    ("losses 负", "losses"),
    ("ties 平", "ties"),
    ("win rate", "win_rate"),
    ("points", "points"),
    ("pts/hand", "points_per_hand"),
    *PLACE_COLUMNS,
    ("ahead 领先", "ahead"),
)


def hand_stats(hand: ReadHand, rules: Ruleset, by: By | PairBy, reviewed: bool = False) -> Stats | Pairs | Judged[Stats]:
    """The counts of one hand read (:class:`~gouji_record.running.batch.ReadHand`) replayed under ``rules``
    (the final position kept only): a :class:`Stats` by ``by`` of that hand alone, small and
    picklable, to :meth:`~Stats.merge` with the others; for a hand of a match, a
    :class:`~gouji_record.running.batch.Judged` that :func:`settle` completes with the match's verdict.
    The work ``gouji stats`` gives :func:`~gouji_record.running.batch.map_hands`
    (``partial(hand_stats, by=by)``, ``settle=settle``). By ``opposite`` or ``partner``, the
    :class:`Pairs` of that hand: nothing in them needs the match's verdict. With ``reviewed``, the
    hand is also reviewed (:func:`~gouji_record.analysis.review.review`, the whole table's view)
    and each seat's decisions and chances missed are counted (:meth:`Stats.add_review`)."""
    from ..running.batch import judged

    result = replay(hand.record, rules, every_position=reviewed and by not in PAIR_BY)
    if by in PAIR_BY:
        pairs = Pairs(by)  # type: ignore[arg-type]
        pairs.add(result)
        return pairs
    counts = Stats(by)  # type: ignore[arg-type]
    counts.add(result)
    if reviewed:
        counts.add_review(result)
    return judged(counts, result, settle)


def settle(counts: Stats, verdict: Verdict) -> Stats:
    """``counts`` of one hand (:func:`hand_stats`) with what its match's verdict adds: the
    tribute paid and received, as the match check explains its transfers; a hand
    whose own play is legal but whose tribute or first lead is not (``gouji validate``'s
    ``tribute-wrong``, ``first-lead`` …) counts as illegal for the seat that acted wrongly."""
    result = verdict.replay
    if verdict.match is not None and verdict.match.kinds is not None:
        counts.add_tribute(result, {i: kind for i, kind in enumerate(verdict.match.kinds) if kind is not None})
    if result.diagnostic is None and verdict.diagnostic is not None:
        counts.add_offence(result, verdict.diagnostic)
    return counts


#: The columns of the text and CSV tables: heading, and how to read it off a tally.
COLUMNS: tuple[tuple[str, str], ...] = (
    ("hands", "hands"),
    *PLACE_COLUMNS,
    ("points", "points"),
    ("pts/hand", "points_per_hand"),
    ("开点 opened", "opened"),
    ("够级 made", "gouji_made"),
    ("够级 answered", "gouji_answered"),
    ("烧牌 burns", "burns"),
    ("succeeded", "burns_succeeded"),
    ("failed", "burns_failed"),
    ("broken", "burns_broken"),
    ("闷 smothered", "smothered"),
    ("革命 revolts", "revolts"),
    ("贡 paid", "tribute_paid"),
    ("贡 received", "tribute_received"),
    ("illegal", "illegal"),
    ("invalid", "invalid"),
)


#: The columns ``gouji stats --review`` adds: decisions (决策), chances missed (失机), missed per 100.
REVIEW_COLUMNS: tuple[tuple[str, str], ...] = (
    ("decisions 决策", "decisions"),
    ("missed 失机", "missed"),
    ("missed/100", "missed_per_100"),
)


def cell(t: Tally | PairTally, name: str) -> str:
    """One cell of the tables (:data:`COLUMNS`, :data:`PAIR_COLUMNS`): a count, or a rate with two decimals."""
    if name.startswith("p") and name[1:].isdigit():
        return str(t.places[int(name[1:]) - 1])
    value = getattr(t, name)
    return f"{value:.2f}" if isinstance(value, float) else str(value)
