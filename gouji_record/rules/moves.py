"""Legal actions (可行动作): what each seat may do in a position.

Candidates are generated from the cards held and then checked by the engine
itself (:func:`~gouji_record.rules.engine.step`), so this module can never
disagree with the rules: it only proposes.

Cards the record does not give (``?N`` in the deal) are possible cards, here as
in the engine. A play that needs some of them is listed by its kind, not card by
card (a seat holding ``?36`` could lead thousands of plays): a
:class:`HiddenPlays` — seat, burn or not, number of cards — written ``5:*?2``
("seat 5 burns with two cards, some of them not written in the deal"), ``4:?3``
(a follow of three) or ``1:?`` (a lead of any size), with one such play the
engine accepts as its example. It is listed only when such a play exists, and
it stands for every play of that kind the engine accepts. Plays of the written
cards alone are listed one by one, as ever.

When the seat to act has its turn only because its hidden cards may be two big
jokers (a pass, then 大王二杀一: 004 §10), the engine also accepts the actions of
the position where it had no turn
(:func:`~gouji_record.rules.engine.skip_possible_turn`); they are listed after
its own.

>>> from gouji_record.rules.engine import initial_position
>>> from gouji_record.rules.rulesets import get_ruleset
>>> pos = initial_position(get_ruleset("charter"), ("55",) + ("X33",) * 4 + ("D33",), leader=1)
>>> [a.text for a in legal_actions(pos) if not a.text.endswith("call")]  # no joker and no 2: it may revolt
['1:revolt', '1:55', '1:5', '1:claim']
>>> sorted({a.text.split(":")[1] for a in legal_actions(pos) if a.text.endswith("call")})  # 宣点, 预点 by any seat
['call', 'precall']
>>> pos = initial_position(get_ruleset("charter"), ("?2",) + ("X33",) * 4 + ("D33",), leader=1)
>>> [(a.text, a.example.text) for a in legal_actions(pos) if isinstance(a, HiddenPlays)]
[('1:?', '1:2')]
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..model import DECLARATION_KINDS, Action, ActionKind, constructed_action
from ..cards import BIG_JOKER, COPIES, FOUR, N_RANKS, RANK_LETTERS, SMALL_JOKER, THREE, TWO, Counts, format_cards, parse_cards, subtract
from .engine import Position, begin_play, opposite, seats_after, skip_possible_turn, step, team
from .burning import burn_condition_possible
from .events import IllegalAction
from .plays import classify, excluded_from_opening, is_gouji, judge, shape_error

__all__ = ["HiddenPlays", "burn_claimants", "first_play", "gouji_plays", "has_play", "legal_actions", "legal_burns", "legal_plays", "plays_of_size", "proposed_plays"]

#: Diagnostic codes that depend on the cards played. Any other code refuses every play of that
#: seat in that position alike (whose turn it is, a pass, a burn with nothing to burn …).
CARD_CODES = frozenset(
    {
        "does-not-beat",
        "not-in-hand",
        "too-many-cards",
        "bad-play",
        "cannot-attach",
        "threes-split",
        "threes-early",
        "fours-split",
        "burn-condition",
    }
)


@dataclass(frozen=True)
class HiddenPlays:
    """Plays of ``seat`` that need cards the record does not give it (``?N``).

    ``size`` is their number of cards (``None``: a lead, of any size);
    ``burn`` whether they are burns; ``known`` the seat's written cards in the
    position; ``example`` one such play the engine accepts. The entry stands
    for every play of this kind that the engine accepts (:meth:`covers`).
    """

    seat: int
    size: int | None
    burn: bool
    known: Counts
    example: Action

    @property
    def text(self) -> str:
        """``5:*?2``: seat, ``*`` for a burn, ``?`` and the number of cards (none for a lead)."""
        return f"{self.seat}:{'*' if self.burn else ''}?{self.size or ''}"

    def covers(self, action: Action) -> bool:
        """Whether ``action`` is of this kind: a play (or burn) of ``seat``, of ``size`` cards,
        some of which the record does not give the seat."""
        if action.kind is not ActionKind.PLAY or action.seat != self.seat or action.burn != self.burn:
            return False
        cards = parse_cards(action.cards)
        if self.size is not None and sum(cards) != self.size:
            return False
        return subtract(self.known, cards) is None


Listed = Action | HiddenPlays


def plays_of_size(hand: Counts, size: int) -> Iterator[Counts]:
    """Every play of exactly ``size`` cards that ``hand`` holds: one rank with
    any 2s and jokers attached, 2s with jokers, or jokers alone. Strongest
    rank first, fewest attached cards first."""
    twos, small, big = hand[TWO], hand[SMALL_JOKER], hand[BIG_JOKER]
    for rank in range(TWO, -1, -1):
        have = hand[rank]
        if not have:
            continue
        for count in range(min(have, size), 0, -1):
            rest = size - count
            extra_twos = 0 if rank == TWO else min(twos, rest)
            for t in range(extra_twos + 1):
                for x in range(min(small, rest - t) + 1):
                    d = rest - t - x
                    if d <= big:
                        cards = [0] * N_RANKS
                        cards[rank] = count
                        if rank != TWO:
                            cards[TWO] = t
                        cards[SMALL_JOKER], cards[BIG_JOKER] = x, d
                        yield tuple(cards)
    for x in range(min(small, size), -1, -1):
        d = size - x
        if d <= big and size:
            cards = [0] * N_RANKS
            cards[SMALL_JOKER], cards[BIG_JOKER] = x, d
            yield tuple(cards)


def _verdict(pos: Position, action: Action) -> str | None:
    """``None`` when the engine accepts ``action``, else the code of its diagnostic."""
    try:
        step(pos, action)
    except IllegalAction as e:
        return e.diagnostic.code
    return None


def _accepted(pos: Position, action: Action) -> bool:
    return _verdict(pos, action) is None


#: The engine's answers :func:`stepped` keeps, by the position's ``id`` and the action's text, each
#: with its position (the same object: an ``id`` is not taken again while it is kept).
_STEPPED: dict[tuple[int, str], tuple[Position, object]] = {}
#: Answers kept in :data:`_STEPPED` before it is emptied (memory stays bounded).
STEPPED_KEPT = 256


def stepped(pos: Position, action: Action, keep: bool = True) -> tuple[Position, list] | str:
    """What :func:`~gouji_record.rules.engine.step` gives for ``action`` from ``pos``: the next
    position and the events (not to be changed: they may be given again), or the code of the
    diagnostic when the engine refuses it. An answer for the same position (the same object) and
    an action of the same text (the engine reads no annotation: round number, glyph, comments)
    is given again as it was, when it was kept: with ``keep``, this one is (a bounded number are,
    the latest), for the same question asked again of the same position by another question
    of a review (the plays an answer lists, then those of them that might open)."""
    key = (id(pos), action.text)
    hit = _STEPPED.get(key)
    if hit is not None and hit[0] is pos:
        return hit[1]
    try:
        out = step(pos, action)
    except IllegalAction as e:
        out = e.diagnostic.code
    if keep:
        if len(_STEPPED) >= STEPPED_KEPT:
            _STEPPED.clear()
        _STEPPED[key] = (pos, out)
    return out


def _play_action(seat: int, cards: Counts, burn: bool) -> Action:
    """The play (or burn) of ``cards`` by ``seat``: the :class:`~gouji_record.model.Action` the
    model's validation would make (the card string :func:`~gouji_record.cards.format_cards` writes
    is canonical), made without it (:func:`~gouji_record.model.constructed_action`)."""
    return constructed_action(seat=seat, kind=_PLAY, cards=format_cards(cards), burn=burn)


_PLAY = ActionKind.PLAY


class _Plays:
    """Tries the plays of one seat (burns or not) against the engine, cheapest checks first.
    ``certain``: whether the seat to act's turn is certain (:func:`~gouji_record.rules.engine.skip_possible_turn`
    gives ``None`` for ``pos``), when the caller knows it."""

    def __init__(self, pos: Position, play_pos: Position, seat: int, burn: bool, certain: bool | None = None) -> None:
        self.pos, self.seat, self.burn = pos, seat, burn
        top = play_pos.top
        self.top = None if top is None else top.play
        self.rules = pos.ruleset
        # a refusal that does not depend on the cards refuses them all, unless the engine may take
        # the way where the seat to act had no turn (then a later attempt may be refused otherwise)
        self.certain = skip_possible_turn(pos) is None if certain is None else certain
        self.closed = False

    def accepts(self, cards: Counts) -> Action | None:
        """The play of ``cards`` if the engine accepts it (``None`` if not, or once closed)."""
        if self.closed:
            return None
        try:
            play = classify(cards)
        except ValueError:
            return None
        beaten = self.top is None or judge(self.top, play, self.rules)[0]
        if not beaten or shape_error(play, self.rules) is not None:
            return None  # the engine refuses these whatever else holds: no need to ask it
        return self.asked(cards)

    def asked(self, cards: Counts) -> Action | None:
        """:meth:`accepts` for cards :func:`_shaped` has kept: the engine alone is asked."""
        a = _play_action(self.seat, cards, self.burn)
        code = stepped(self.pos, a)
        if type(code) is not str:  # (accepted: the next position and events)
            return a
        if self.certain and code not in CARD_CODES:
            self.closed = True
        return None


#: ``gouji`` of :func:`_shaped`: 够级 plays only (:data:`GOUJI`), only those that may open
#: (:data:`OPENING`), or the plays of a rank of 4s holding all the hand's 4s (:data:`FOURS`).
GOUJI, OPENING, FOURS = 1, 2, 3


def _shaped(rules, hand: Counts, sizes: tuple[int, ...], top, gouji: int) -> tuple[Counts, ...]:
    """The plays of ``hand`` of ``sizes`` cards (in :func:`plays_of_size`'s order, size by size)
    that the engine could accept whatever else holds (:func:`_shaping`), all of them. (Not cached:
    in a review the same hand seldom meets the same top twice, about one time in fifty.)"""
    return tuple(_shaping(rules, hand, sizes, top, gouji))


def _shaping(rules, hand: Counts, sizes: tuple[int, ...], top, gouji: int) -> Iterator[Counts]:
    """The plays of ``hand`` of ``sizes`` cards, in :func:`plays_of_size`'s order, size by size,
    that form a play, beat ``top`` (a :class:`~gouji_record.rules.plays.Play`, or ``None`` for a
    lead) and have a shape the ruleset allows (what the engine refuses whatever else holds); with
    ``gouji`` :data:`GOUJI`, only 够级 plays, :data:`OPENING` only those not excluded from opening
    (:func:`~gouji_record.rules.plays.excluded_from_opening`), :data:`FOURS` only those that
    hold all the hand's 4s. A pure function of its arguments, made one by one."""
    for cards in _candidates(rules, hand, sizes, top, gouji):
        try:
            play = classify(cards)
        except ValueError:
            continue
        if top is not None and not judge(top, play, rules)[0]:
            continue
        if shape_error(play, rules) is None and (
            not gouji
            or (gouji == FOURS and cards[FOUR] == hand[FOUR])
            or (gouji < FOURS and is_gouji(play, rules) and (gouji < OPENING or not excluded_from_opening(play, rules)))
        ):
            yield cards


def _candidates(rules, hand: Counts, sizes: tuple[int, ...], top, gouji: int) -> Iterator[Counts]:
    """:func:`plays_of_size` for each of ``sizes``, in its order, less plays that surely fail
    :func:`_shaped`'s tests (which are still made on the rest): on a play of a rank (``top.count``),
    plays of another size or of a rank not higher (:func:`~gouji_record.rules.plays.judge`: same
    count, higher rank; jokers alone rank above any), unless the ruleset lets a big joker beat
    anything; with ``gouji``, plays without jokers below their rank's 够级 minimum (002 §9), and
    those carrying a big joker where it makes no 够级 play (004 §12); with :data:`OPENING`, those
    holding the 2s or jokers the ruleset's ``opening_excludes`` bars; with :data:`FOURS`, all
    but the plays of the hand's every 4. Ranks, and sizes, that no such play fills are skipped."""
    if gouji == FOURS and not hand[FOUR]:
        gouji = 0  # (every play holds all of no 4s)
    floor = -1
    if top is not None and top.count and not rules.big_joker_beats_any:
        sizes = tuple(n for n in sizes if n == top.size)
        floor = top.rank
    twos, small, big = hand[TWO], hand[SMALL_JOKER], hand[BIG_JOKER]
    least = _least(rules) if gouji == GOUJI or gouji == OPENING else None
    if least is not None and not rules.big_joker_plays_gouji:
        big = 0  # a play carrying a big joker is no 够级 play (004 §12)
    no_twos = False
    if gouji == OPENING:  # nor one the ruleset bars from opening (excluded_from_opening)
        ex = rules.opening_excludes
        if ex:
            no_twos = "twos" in ex
            twos, small, big = (0 if no_twos else twos), (0 if "small-joker" in ex else small), (0 if "big-joker" in ex else big)
    jokers = small + big
    ranks = []  # (rank, held, cards it may carry, its 够级 minimum), strongest first
    for rank in range(TWO, floor, -1):
        have = hand[rank]
        if not have or (gouji == FOURS and rank != FOUR):
            continue
        carried = jokers if rank == TWO else twos + jokers
        need = 0 if least is None else least[rank]
        if need and not jokers and have + carried < need:
            continue  # (no joker, and too few to be a 够级 play whatever the size)
        if rank == TWO and no_twos:
            continue
        ranks.append((rank, have, carried, need))
    if not ranks and (gouji == FOURS or not jokers):
        return
    most = max((have + carried for _, have, carried, _ in ranks), default=0)
    for size in sizes:
        if size <= most:
            for rank, have, carried, need in ranks:  # plays_of_size's loop, pruned
                if have + carried < size:
                    continue
                extra = 0 if rank == TWO else twos
                for count in range(min(have, size), 0, -1):
                    if gouji == FOURS and count != have:
                        continue
                    rest = size - count
                    if rest > carried:
                        break  # (fewer of the rank need more attached than the hand has)
                    extra_twos = min(extra, rest)
                    for t in range(extra_twos + 1):
                        for x in range(min(small, rest - t) + 1):
                            d = rest - t - x
                            if d <= big:
                                if count + t < need and not (x or d):
                                    continue  # no joker, and too few to be a 够级 play
                                cards = [0] * N_RANKS
                                cards[rank] = count
                                if rank != TWO:
                                    cards[TWO] = t
                                cards[SMALL_JOKER], cards[BIG_JOKER] = x, d
                                yield tuple(cards)
        if gouji == FOURS or size > jokers:
            continue
        for x in range(min(small, size), -1, -1):
            d = size - x
            if d <= big and size:
                cards = [0] * N_RANKS
                cards[SMALL_JOKER], cards[BIG_JOKER] = x, d
                yield tuple(cards)


#: Each ruleset's 够级 minimum by rank (:func:`_least`), by ``id``, with the ruleset itself.
_LEAST: dict[int, tuple[object, tuple[int, ...]]] = {}


def _least(rules) -> tuple[int, ...]:
    """The fewest cards of each rank (by index) that make a 够级 play under ``rules`` without a
    joker (its ``gouji_minimum``; a rank it does not name needs more than any hand holds)."""
    hit = _LEAST.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_LEAST) >= 64:
        _LEAST.clear()
    least = tuple(rules.gouji_minimum.get(letter, N_RANKS * 8) for letter in RANK_LETTERS)
    _LEAST[id(rules)] = (rules, least)
    return least


def _may_burn(hand: Counts, rules) -> bool:
    """Whether a seat holding ``hand`` (all known) may keep the burn condition after some burn: a
    necessary condition of :func:`~gouji_record.rules.burning.burn_condition_holds` on what any play
    leaves. A play takes at most one rank besides 2s and jokers, so with ``k`` ranks held (3s
    apart when held to the last) and ``j`` jokers, what is left holds at least ``k - 1`` ranks and
    at most ``j`` jokers, and the condition needs ranks ≤ jokers + 1 (002 §10); the tournament
    rules want a 3 kept too (004 §16)."""
    if rules.burn_needs_three and not hand[THREE]:
        return False
    threes = rules.threes_held and hand[THREE] > 0
    ranks = TWO - hand[:TWO].count(0) - (1 if threes else 0)  # (the ranks below 2 held, 3s apart)
    return ranks <= hand[SMALL_JOKER] + hand[BIG_JOKER] + 2


def _plays(
    pos: Position,
    play_pos: Position,
    seat: int,
    sizes: list[int],
    burn: bool,
    lead: bool,
    *,
    gouji: int = 0,
    first: bool = False,
    certain: bool | None = None,
) -> list[Listed]:
    """The plays of ``seat`` the engine accepts: those of its written cards one by one, then one
    :class:`HiddenPlays` per size (one for all sizes of a lead) where its hidden cards allow some.
    With ``gouji`` (:data:`GOUJI`, :data:`OPENING`), only its 够级 plays of its written cards, or
    those that may open (no :class:`HiddenPlays`); with
    ``first``, at most one entry: the first of the list (whether there is any play). ``certain``:
    :class:`_Plays`' (``None``: found out here)."""
    hand, unknown = play_pos.hands[seat - 1], play_pos.unknown[seat - 1]
    if certain is None:
        certain = skip_possible_turn(pos) is None
    out: list[Listed] = []
    # a burn from cards all known, on the engine's one way: what it keeps must allow the burn
    # condition (002 §10), or the engine refuses it (burn-condition, a refusal of these cards only)
    kept = burn and not unknown and certain and not pos.preplay
    if kept and not _may_burn(hand, pos.ruleset):
        return out
    trial = _Plays(pos, play_pos, seat, burn, certain)
    for cards in _shaping(pos.ruleset, hand, tuple(sizes), trial.top, gouji):  # (made one by one)
        if kept and not burn_condition_possible(subtract(hand, cards), 0, pos.seen, pos.ruleset):
            continue
        a = trial.asked(cards)
        if a is not None:
            out.append(a)
            if first:
                return out
        elif trial.closed:
            return out
    if not unknown or trial.closed or gouji:
        return out
    possible = tuple(h + min(unknown, max(0, c - n)) for h, c, n in zip(hand, COPIES, play_pos.seen))
    for size in sorted(sizes):  # a lead's example: its fewest cards
        example = _hidden_example(trial, hand, unknown, possible, size)
        if example is not None:
            out.append(HiddenPlays(seat, None if lead else size, burn, hand, example))
            if lead or first:
                break
    return out


def _hidden_example(trial: _Plays, hand: Counts, unknown: int, possible: Counts, size: int) -> Action | None:
    """A play of ``size`` cards that needs some of the seat's hidden cards and that the engine accepts."""
    for cards in plays_of_size(possible, size):
        missing = sum(max(0, c - h) for c, h in zip(cards, hand))
        if 0 < missing <= unknown:
            a = trial.accepts(cards)
            if a is not None or trial.closed:
                return a
    return None


def burn_claimants(pos: Position) -> list[int]:
    """Seats that could claim a burn now, in the ruleset's claim order: the
    gouji player's team first, then play order (000, 002 §10), or play order
    only (003, 004 §15)."""
    top = pos.top
    if top is None:
        return []
    order = _CLAIM_ORDER[pos.ruleset.burn_claim_order == "team-first", top.seat]
    return [s for s in order if pos.active(s)]


def _claim_order(seat: int, team_first: bool) -> tuple[int, ...]:
    """The seats that may burn ``seat``'s play, if they still play, in claim order: its opposite
    left out, the others in play order after it, its team-mates first with ``team_first``."""
    order = list(seats_after(seat))
    if team_first:
        order.sort(key=lambda s: team(s) != team(seat))
    return tuple(s for s in order if s != opposite(seat))


#: :func:`_claim_order` of each seat, by (team first, seat), made once.
_CLAIM_ORDER = {(first, seat): _claim_order(seat, first) for first in (False, True) for seat in range(1, 7)}


def _follow_sizes(top, held: int) -> list[int]:
    """The sizes of the plays that may follow ``top`` from ``held`` cards: its own, and 2 and 3
    (jokers alone beating fewer: 大王二杀一, 004 §5)."""
    size = top.play.size
    sizes = [2, 3] if held >= 3 else [2] if held == 2 else []
    if size <= held and size != 2 and size != 3:  # (a play holds a card at least)
        sizes.insert(0 if size < 2 else len(sizes), size)
    return sizes


def _sizes(play_pos: Position) -> list[int]:
    actor, top = play_pos.to_act, play_pos.top
    if not actor:
        return []
    return list(range(play_pos.holds(actor), 0, -1)) if top is None else _follow_sizes(top, play_pos.holds(actor))


def legal_actions(pos: Position, seat: int | None = None) -> list[Listed]:
    """The legal actions now: the seat to act's plays, pass, yield, request to
    take the wind and claim; then burns, in claim order. With ``seat``, only
    that seat's. Plays that need cards the record does not give are
    :class:`HiddenPlays`; every other entry is an :class:`Action` the engine
    accepts. Transfers (``give``) and ``^`` rulings are not listed.

    In the pre-play phase, each seat's declarations come first. Empty once
    the hand is over.
    """
    if pos.over:
        return []
    out: list[Listed] = []
    seats = [seat] if seat is not None else [1, 2, 3, 4, 5, 6]
    if pos.preplay:
        for s in seats:
            for kind in DECLARATION_KINDS:
                a = Action(seat=s, kind=kind)
                if _accepted(pos, a):
                    out.append(a)
    play_pos = begin_play(pos)[0]  # the first play ends the pre-play phase: the leader may change
    if play_pos.over:
        return out
    actor, top = play_pos.to_act, play_pos.top
    skipped = skip_possible_turn(pos)
    certain = skipped is None
    if actor is not None and actor in seats:
        out += _plays(pos, play_pos, actor, _sizes(play_pos), False, top is None, certain=certain)
        for kind in (ActionKind.PASS, ActionKind.YIELD, ActionKind.WIND, ActionKind.CLAIM):
            a = Action(seat=actor, kind=kind)
            if _accepted(pos, a):
                out.append(a)
    if top is not None:
        for s in burn_claimants(play_pos):
            if s in seats:
                out += _plays(pos, play_pos, s, _follow_sizes(top, play_pos.holds(s)), True, False, certain=certain)
    if skipped is not None:  # the engine also takes the way where the seat to act had no turn
        listed = {a.text for a in out}
        out += [a for a in legal_actions(skipped[0], seat) if a.text not in listed]
    return out


def legal_plays(pos: Position, seat: int) -> list[Listed]:
    """The plays (not burns) among :func:`legal_actions` ``(pos, seat)``, in its order, those of
    its written cards and :class:`HiddenPlays`, without asking the engine about its other actions."""
    return _seat_plays(pos, seat, 0)


def _seat_plays(pos: Position, seat: int, gouji: int) -> list[Listed]:
    """``seat``'s plays (not burns) of :func:`_plays` with ``gouji`` (0: all), in the position and,
    where a turn rests only on hidden cards, in the one where it has none (``skip_possible_turn``)."""
    if pos.over:
        return []
    play_pos = begin_play(pos)[0]
    if play_pos.over:
        return []
    out: list[Listed] = []
    skipped = skip_possible_turn(pos)
    if play_pos.to_act == seat:
        out += _plays(pos, play_pos, seat, _sizes(play_pos), False, play_pos.top is None, gouji=gouji, certain=skipped is None)
    if skipped is not None:
        listed = {a.text for a in out}
        out += [a for a in _seat_plays(skipped[0], seat, gouji) if a.text not in listed]
    return out


def legal_burns(pos: Position) -> list[Listed]:
    """The burns (烧牌) among :func:`legal_actions` ``(pos)``, in its order (claim order), without
    listing the rest: each seat's burns of the play on top, :class:`HiddenPlays` for those that
    need cards the record does not give. Empty when no 够级 play is on top (002 §10)."""
    if pos.over:
        return []
    play_pos = begin_play(pos)[0]
    if play_pos.over:
        return []
    out: list[Listed] = []
    top = play_pos.top
    skipped = skip_possible_turn(pos)
    if top is not None:
        rules, hands, unknown = pos.ruleset, play_pos.hands, play_pos.unknown
        kept = skipped is None and not pos.preplay  # (_plays' test of the burn condition, made first)
        for s in burn_claimants(play_pos):
            if kept and not unknown[s - 1] and not _may_burn(hands[s - 1], rules):
                continue  # (_plays lists none)
            out += _plays(pos, play_pos, s, _follow_sizes(top, play_pos.holds(s)), True, False, certain=skipped is None)
    if skipped is not None:
        listed = {a.text for a in out}
        out += [a for a in legal_burns(skipped[0]) if a.text not in listed]
    return out


def gouji_plays(pos: Position, seat: int, opening: bool = False) -> list[Action]:
    """The 够级 plays (002 §9) of ``seat``'s written cards among :func:`legal_actions` ``(pos,
    seat)``, burns left out, in its order: what ``seat`` could play now that is a 够级 play. With
    ``opening``, only those not excluded from opening (a play with 2s or jokers, as the ruleset's
    ``opening_excludes`` says: :func:`~gouji_record.rules.plays.excluded_from_opening`)."""
    return _seat_plays(pos, seat, OPENING if opening else GOUJI)  # type: ignore[return-value]


def proposed_plays(pos: Position, seat: int, which: int = GOUJI) -> list[Action] | None:
    """The plays of ``seat``'s written cards that :func:`gouji_plays` (``which`` :data:`GOUJI`, or
    :data:`OPENING` for ``opening``) would put to the engine, in its order, before the engine is
    asked: it lists those of them that :func:`~gouji_record.rules.engine.step` accepts; with
    :data:`FOURS`, the same of its plays that hold all its 4s (in the pre-play phase, those of the
    position its first play is made from: :func:`~gouji_record.rules.engine.begin_play`). ``None``
    where the listing takes more than that: the hand is over, not ``seat``'s turn, or a turn that
    rests on cards the record does not give (:func:`~gouji_record.rules.engine.skip_possible_turn`)."""
    if pos.over or skip_possible_turn(pos) is not None:
        return None
    play_pos = begin_play(pos)[0] if pos.preplay else pos
    if play_pos.over or play_pos.to_act != seat:
        return None
    top = play_pos.top
    return [
        _play_action(seat, cards, False)
        for cards in _shaping(pos.ruleset, play_pos.hands[seat - 1], tuple(_sizes(play_pos)), None if top is None else top.play, which)
    ]


def has_play(pos: Position) -> bool:
    """Whether :func:`legal_actions` ``(pos)`` lists a play: of the seat to act, or a burn, of
    written cards or a :class:`HiddenPlays`. Stops at the first one found."""
    return first_play(pos) is not None


def first_play(pos: Position, hints: Iterable[Action] = ()) -> Listed | None:
    """A play :func:`legal_actions` ``(pos)`` lists (of the seat to act, or a burn, of written
    cards or a :class:`HiddenPlays`): its first, or ``None`` when it lists none (:func:`has_play`).

    With ``hints``, plays of the seat to act's written cards (ones this gave before, for positions
    like ``pos``), the engine is asked about them first, in turn, those it surely refuses left out
    (as :func:`legal_actions` leaves them out): the first it accepts is the play given (one
    :func:`legal_actions` lists, though not always its first); if none, the search goes on as
    without them."""
    if pos.over:
        return None
    play_pos = begin_play(pos)[0]
    if play_pos.over:
        return None
    actor, top = play_pos.to_act, play_pos.top
    skipped = skip_possible_turn(pos)
    certain = skipped is None
    if actor is not None:
        if certain:
            for hint in hints:
                if _hinted(pos, play_pos, actor, hint):
                    return hint
        found = _plays(pos, play_pos, actor, _sizes(play_pos), False, top is None, first=True, certain=certain)
        if found:
            return found[0]
    if top is not None:
        rules, hands, unknown = pos.ruleset, play_pos.hands, play_pos.unknown
        kept = certain and not pos.preplay  # (_plays' test of the burn condition, made first)
        for s in burn_claimants(play_pos):
            if kept and not unknown[s - 1] and not _may_burn(hands[s - 1], rules):
                continue  # (_plays lists none)
            found = _plays(pos, play_pos, s, _follow_sizes(top, play_pos.holds(s)), True, False, first=True, certain=certain)
            if found:
                return found[0]
    return None if skipped is None else first_play(skipped[0])


def _hinted(pos: Position, play_pos: Position, actor: int, hint: Action) -> bool:
    """Whether ``hint`` is a play of ``actor``'s written cards, not a burn, of a size
    :func:`_sizes` tries, in play (on the engine's one way: the caller knows), and the engine
    accepts it: then :func:`_plays` lists it. Not asked about one :func:`_shaping` leaves out
    (the engine refuses it whatever else holds)."""
    if hint.seat != actor or hint.kind is not _PLAY or hint.burn or pos is not play_pos:
        return False
    cards = parse_cards(hint.cards)
    if sum(cards) not in _sizes(play_pos) or subtract(play_pos.hands[actor - 1], cards) is None:
        return False
    top, rules = play_pos.top, pos.ruleset
    play = classify(cards)
    if (top is not None and not judge(top.play, play, rules)[0]) or shape_error(play, rules) is not None:
        return False
    return _verdict(pos, hint) is None
