"""Replaying a record under a ruleset (复盘): record model → engine → positions, events, diagnostic.

>>> from gouji_record import parse
>>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
>>> head = f'[Event "x"][Site "y"][Date "2026.11.30"][Ruleset "charter"]{seats}[Result "*"]'
>>> deal = "deal 1: TTTTT?31 2: ? 3: ? 4: JJJJJ?31 5: ? 6: ?"
>>> r = replay(parse(head + deal + " play 1. 1:TTTTT 4:JJJJJ")[0])
>>> [e.kind.value for e in r.events], r.final.to_act, r.diagnostic
(['gouji', 'answer', 'gouji'], 1, None)
>>> r = replay(parse(head + deal + " play 1. 1:TTTTT 3:QQQQQ")[0])
>>> r.diagnostic.code, r.diagnostic.action
('gouji-not-opposite', 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import wrong_type
from ..model import Action, GameRecord
from .lead import first_leader
from ..rules.engine import Position, initial_position, skip_possible_turn, step
from ..rules.scoring import Score, final_places, scores
from ..rules.events import Diagnostic, Event, EventKind, IllegalAction
from ..rules.rulesets import Ruleset, get_ruleset, parse_options, with_options


@dataclass
class Replay:
    """The outcome of replaying one record.

    ``positions[0]`` is the position before the first action and
    ``positions[i + 1]`` the one after action ``i``; the list stops at the
    first illegal action, which ``diagnostic`` describes. ``events`` are all
    events derived, in order (``None`` for a replay made without them: ``replay(…, events=False)``).
    """

    record: GameRecord
    ruleset: Ruleset
    positions: list[Position]
    events: list[Event] | None = field(default_factory=list)
    diagnostic: Diagnostic | None = None
    play_start: Position | None = None

    def __post_init__(self) -> None:
        if self.play_start is None:  # (a Replay made by hand: the position after the pre-play section)
            self.play_start = self.positions[min(len(self.record.preplay), len(self.positions) - 1)]

    @property
    def final(self) -> Position:
        """The last legal position reached."""
        return self.positions[-1]

    @property
    def complete(self) -> bool:
        """Whether the hand was played to its end without an illegal action."""
        return self.diagnostic is None and self.final.over

    @property
    def places(self) -> tuple[int, ...]:
        """Seats in order of place (头科 first); only those placed at the top so far if the hand is not over."""
        return self.final.places

    @property
    def score(self) -> Score | None:
        """The hand's :class:`~gouji_record.rules.scoring.Score`, or ``None`` if it is not over."""
        return scores(self.ruleset, self.final) if self.final.over else None

    @property
    def scores(self) -> dict[int, int] | None:
        """Team scores ``{1: …, 0: …}`` (team 1 = seats 1 3 5), or ``None`` if the hand is not over."""
        score = self.score
        return score.teams if score else None

    def count(self, kind: EventKind) -> int:
        """How many events of ``kind`` were derived.

        Raises:
            ValueError: a replay made without events (``replay(…, events=False)``).
        """
        if self.events is None:
            raise ValueError("this replay derived no events: replay(record, events=False)")
        return sum(1 for e in self.events if e.kind is kind)

    def leads(self) -> dict[int, list[int]]:
        """The actions written at the lead (发牌) of each round the replay starts: ``{round:
        [index, …]}``, indexes into ``record.all_actions`` in order, the first being where the
        round is written to start (its ``N.``). A round has one lead, but more than one action
        may stand at it: an irregular action (``^``) that is ruled not made (错牌不出) before the
        lead that is made, ``2. ^5:66 4:3333``. Every output that numbers rounds (``fmt``, the
        replay page) reads this, so that a round is numbered once (docs/notation.md, section 4).
        Actions after the first problem, which the replay does not reach, are in no round here.

        >>> from gouji_record import parse
        >>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
        >>> [r] = parse(f'[Event "x"][Site "y"][Date "?"][Ruleset "charter"]{seats}[Result "*"]'
        ...             " play 1:33 2:- 3:- 4:- 5:- 6:- ^5:66 1:44")
        >>> replay(r).leads()  # ^5:66 is not made: seat 1 leads round 2 with 1:44
        {1: [0], 2: [6, 7]}
        """
        out: dict[int, list[int]] = {}
        actions = self.record.all_actions
        for i in range(len(self.record.preplay), min(len(actions), len(self.positions))):
            pos = self.positions[i]
            if pos.top is None and not pos.over:
                out.setdefault(pos.round, []).append(i)
        return out


@dataclass(frozen=True)
class RulesetOverride:
    """What a command line says of the ruleset to replay records under: ``ruleset`` instead of
    each record's ``Ruleset`` tag (``None``: the tag's), and ``options`` (``{name: value}`` as
    an ``Options`` tag writes them, e.g. ``{"big-joker-beaten-by": "two"}``) over the record's
    own ``Options`` tag: "would this hand be valid if 大王二杀一 held?". The one way
    ``--ruleset`` and ``--option`` are carried to every command (picklable, for workers).

    >>> RulesetOverride(options=(("threes-held", "yes"),)).options
    (('threes-held', 'yes'),)

    Options are checked when a record's ruleset is made (:func:`ruleset_of`), not here."""

    ruleset: Ruleset | None = None
    options: tuple[tuple[str, str], ...] = ()


def ruleset_of(record: GameRecord, override: str | Ruleset | RulesetOverride | None = None) -> Ruleset:
    """The ruleset to replay ``record`` under: ``override`` (a preset name or a
    ruleset) or else its ``Ruleset`` tag, with its ``Options`` tag's overrides; a
    :class:`RulesetOverride` also sets options over the record's own.

    >>> from gouji_record import parse
    >>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
    >>> [record] = parse(f'[Event "x"][Site "y"][Date "?"][Ruleset "charter"]{seats}[Result "*"]'
    ...                  '[Options "threes-held=yes"] play')
    >>> rules = ruleset_of(record)
    >>> rules.name, rules.threes_held, ruleset_of(record, "online").name
    ('charter', True, 'online')

    Raises:
        UnknownRuleset: the Ruleset tag (or ``override``) names no preset
            (:class:`~gouji_record.rules.rulesets.UnknownRuleset`, a ``KeyError``).
        BadOption: the Options tag or an override names an unknown option or a value it does
            not take (:class:`~gouji_record.rules.rulesets.BadOption`, a ``ValueError``).
        BadArgument: ``record`` is not a :class:`~gouji_record.model.GameRecord`.
    """
    if not isinstance(record, GameRecord):
        raise wrong_type("record", record, "a GameRecord (read(path), parse(text))")
    extra: tuple[tuple[str, str], ...] = ()
    if isinstance(override, RulesetOverride):
        override, extra = override.ruleset, override.options
    if isinstance(override, Ruleset):
        rules = override
    else:
        rules = get_ruleset(override or record.ruleset_name)
    options = record.tags.get("Options", "").strip()
    rules = with_options(rules, parse_options(options)) if options else rules
    return with_options(rules, dict(extra)) if extra else rules


def replay(
    record: GameRecord,
    ruleset: str | Ruleset | RulesetOverride | None = None,
    *,
    every_position: bool = True,
    events: bool = True,
) -> Replay:
    """Replay ``record`` under ``ruleset`` (default: its ``Ruleset`` tag; a preset name or a
    :class:`RulesetOverride` as :func:`ruleset_of` takes them).

    With ``every_position=False`` only the last position is kept
    (``positions == [final]``): what validation needs, and much less garbage
    for the collector on large files (docs/performance.md). With ``events=False`` no event is
    derived (:attr:`Replay.events` is ``None``): the verdict, the positions and the diagnostic are
    the same, for a caller that wants only them (``gouji validate -q``; events are about a tenth
    of a replay's cost).

    Never raises for an illegal action: the first one ends the replay and is
    reported in :attr:`Replay.diagnostic`, as is a round number or Result tag
    that disagrees with the engine and, when the play is legal, the first wrong
    purchase or gift of a 3 or 4 (买三, 买四, 赠与:
    :func:`~gouji_record.judging.buying.check_buying`): the hand's own verdict, the one
    ``gouji validate`` gives. What only the hand before can tell (tribute, the
    first lead of a match) is :func:`gouji_record.matches.verdict.verdicts`'.

    Raises:
        UnknownRuleset, BadOption: as :func:`ruleset_of`, for a ruleset or an option that is none.
        BadArgument: ``record`` is not a :class:`~gouji_record.model.GameRecord`.
    """
    if not isinstance(record, GameRecord):
        raise wrong_type("record", record, "a GameRecord (read(path), parse(text))")
    rules = ruleset if isinstance(ruleset, Ruleset) else ruleset_of(record, ruleset)
    pos = initial_position(rules, record.deal, first_leader(record))
    out = Replay(record, rules, [pos], [] if events else None, play_start=pos)
    positions, derived = out.positions, out.events if events else []
    play_from = len(record.preplay)
    wrong_buy = _wrong_purchase(rules, record)
    actions = record.all_actions
    stop_at = wrong_buy.action if wrong_buy is not None else None
    stopped = stop_at is not None and stop_at < len(actions)
    if stopped:  # a purchase or gift the rules refuse: the replay stops there, as at a play
        actions = actions[:stop_at]
    diagnostic = None
    for i, action in enumerate(actions):
        if (
            action.round is not None
            and not (action.round == pos.round and pos.top is None)  # (the most common case, without a call)
            and not pos.over
            and not _round_fits(pos, action)
        ):
            # (after the end of the hand the engine says so: hand-over, with or without a number)
            expected = "no new round starts here" if pos.top is not None else f"this is round {pos.round}"
            expected_zh = "这里没有开始新的一轮" if pos.top is not None else f"这是第{pos.round}轮"
            diagnostic = Diagnostic(
                code="round-mismatch",
                action=i,
                rule="round-end",
                source=rules.cite("round-end"),
                message=f"round number {action.round}. does not fit: {expected}",
                message_zh=f"轮次编号{action.round}.不对：{expected_zh}",
            )
            break
        try:
            pos, new_events = step(pos, action, events=events)
        except IllegalAction as e:
            diagnostic = e.diagnostic
            break
        if i < play_from:
            out.play_start = pos
        if every_position:
            positions.append(pos)
        derived += new_events
    if not every_position:  # (the last position reached, written once)
        positions[0] = pos
    if diagnostic is not None or stopped:
        out.diagnostic = diagnostic if diagnostic is not None else wrong_buy
        return out
    if not pos.over and record.result_places:  # a Result with places: turns hidden cards made possible not taken
        ended = _skipped_to_end(pos, events)
        if ended is not None and ended[0].places == record.result_places:
            pos = ended[0]
            if every_position:
                positions.append(pos)
            else:
                positions[0] = pos
            derived += ended[1]
    out.diagnostic = _check_result(record, rules, pos) or wrong_buy
    return out


def _wrong_purchase(rules: Ruleset, record: GameRecord) -> Diagnostic | None:
    """The first purchase or gift of a 3 or a 4 (买三, 买四, 赠与) that ``rules`` refuse, or
    ``None`` (:func:`~gouji_record.judging.buying.check_buying`). A record that says nothing of
    what happened before play (no ``preplay`` section, gjn 2.3 and before any section left
    empty) is not checked: only a section written, empty (gjn 2.4) or not, says what happened
    (docs/notation.md §3.3, docs/rules.md "Buying 3s and 4s")."""
    if not record.preplay and not record.empty_preplay:
        return None
    from .buying import check_buying  # (buying is below the replay in its folder; only needed here)

    return next(iter(check_buying(rules, record)[1]), None)


def _skipped_to_end(pos: Position, events: bool = True) -> tuple[Position, list[Event]] | None:
    """The end of the hand reached from ``pos`` by not taking the turns that only cards the record
    does not give made possible (:func:`~gouji_record.rules.engine.skip_possible_turn`: a seat
    smothered, 闷, when its hidden cards may all be 3s), with the events; ``None`` if there is none."""
    derived: list[Event] = []
    for _ in range(len(pos.hands)):
        skipped = skip_possible_turn(pos, events=events)
        if skipped is None:
            return None
        pos, more = skipped
        derived += more
        if pos.over:
            return pos, derived
    return None


def _round_fits(pos: Position, action: Action) -> bool:
    """Whether ``action``'s written round number starts the round due at ``pos``: a new round
    whose number is ``pos.round``, also after a turn that unknown cards made possible was not
    taken (:func:`~gouji_record.rules.engine.skip_possible_turn`: that turn closes the round)."""
    if pos.top is None and pos.round == action.round:
        return True
    # (only the position reached is looked at: its events are not wanted)
    skipped = skip_possible_turn(pos, events=False) if action.seat != pos.to_act else None
    return skipped is not None and _round_fits(skipped[0], action)


def _check_score(record: GameRecord, rules: Ruleset, pos: Position, rule: str) -> Diagnostic | None:
    """``score-mismatch`` under ``rule`` when the Score tag disagrees with the scores of the hand over
    at ``pos``: a void hand's are 0 and 0 (该局作废, rule ``void-hand``), any other's its places'
    and extras' (``scoring``); ``None`` when it agrees or there is no Score tag."""
    score_tag = record.tags.get("Score")
    if score_tag is None:
        return None
    teams = scores(rules, pos).teams
    derived_score = f"{teams[1]} {teams[0]}"
    if score_tag.split() == derived_score.split():
        return None
    gives, gives_zh = ("a void hand scores", "该局作废，得分") if pos.void else ("the play gives", "按出牌")
    return _problem(
        rules,
        "score-mismatch",
        rule,
        f"Score says {score_tag!r} (team 1-3-5, team 2-4-6) but {gives} {derived_score!r}",
        f"得分标签写的是“{score_tag}”（1·3·5联邦、2·4·6联邦），而{gives_zh}应为“{derived_score}”",
    )


def _problem(rules: Ruleset, code: str, rule: str, message: str, zh: str) -> Diagnostic:
    """A diagnostic about the record as a whole (its Result or Score tag), not one action;
    ``message`` in English, ``zh`` the same in Chinese."""
    return Diagnostic(code=code, action=None, rule=rule, source=rules.cite(rule), message=message, message_zh=zh)


def _check_result(record: GameRecord, rules: Ruleset, pos: Position) -> Diagnostic | None:
    claimed = record.result_places
    if claimed is None:
        return None
    if pos.void or claimed == ():
        if pos.void and claimed == ():  # 该局作废 (000 §革命, 002 §23, 003): it scores nothing, "0 0"
            return _check_score(record, rules, pos, "void-hand")
        derived = "void" if pos.void else "-".join(map(str, pos.places)) or "*"
        return _problem(
            rules,
            "result-mismatch",
            "void-hand",
            f"Result says {record.tags['Result']!r} but the play gives {derived!r}",
            f"结果标签写的是“{record.tags['Result']}”，而按出牌{'该局作废' if pos.void else f'应为“{derived}”'}",
        )
    if not pos.over:
        return _problem(
            rules,
            "hand-incomplete",
            "hand-end",
            f"the record stops before the hand is over, but Result says "
            f'{record.tags["Result"]!r}: write "*" for an unfinished hand',
            f"记录在这一局结束之前就停了，但结果标签写的是“{record.tags['Result']}”：未打完的一局应写“*”",
        )
    places = final_places(pos)  # (worked out once: the match check asks for them again)
    if claimed == places:
        return _check_score(record, rules, pos, "scoring")
    derived = "-".join(map(str, places))
    return _problem(
        rules,
        "result-mismatch",
        "places",
        f"Result says {record.tags['Result']!r} but the play gives {derived!r}",
        f"结果标签写的是“{record.tags['Result']}”，而按出牌应为“{derived}”",
    )
