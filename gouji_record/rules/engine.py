"""The rules engine (规则引擎): a position plus an action gives a new position and events.

Pure: :func:`step` reads an immutable :class:`~gouji_record.rules.position.Position` and an
:class:`~gouji_record.model.Action` and returns the next position and the
events the action caused, or raises :class:`~gouji_record.rules.events.IllegalAction`
carrying a :class:`~gouji_record.rules.events.Diagnostic`. No I/O, no globals.
Everything that differs between rule texts is read from the position's
:class:`~gouji_record.rules.rulesets.Ruleset`. The position and the seats around the
table are :mod:`~gouji_record.rules.position`'s (imported from here too).

A hand starts in the pre-play phase, where seats may declare (革命, 要头/无头,
自然开点); the first play ends it. How each rule reads in the engine, and every
point the texts leave open, is in docs/rules.md.
"""

from __future__ import annotations

from functools import cache
from operator import sub

from pydantic import ValidationError

from ..model import Action, ActionKind
from ..cards import (
    COPIES,
    FOUR,
    RANK_LETTERS,
    THREE,
    Counts,
    add,
    format_cards,
    parse_cards,
    short_of,
    subtract,
)
from ..bilingual import cards_short, zh_of
from ..errors import BadArgument, wrong_type
from .burning import burn_condition_holds, burn_condition_possible, burns_after, set_burn
from .events import ACTION_KIND_ZH, Event, EventKind, IllegalAction
from .leaving import begin_melee, finish, go_out, melee_due, smother
from .plays import Play, PlayError, PlayFacts, beats, judge, parse_play, play_facts
from .position import (
    OPPOSITE,
    SEATS,
    SEATS_AFTER,
    Burn,
    Call,
    Drawn,
    MaybeSmothered,
    Position,
    Show,
    Smother,
    Step,
    Top,
    initial_position,
    made,
    next_seat,
    opposite,
    replace,
    seats_after,
    team,
    team_name,
)
from .preplay import KEPT_HEAD_PLAYS, begin_play, declare, draw, give, play_begins, show
from .rulesets import Ruleset, get_ruleset  # noqa: F401  (doctests)
from .turns import (
    burn_turn_only,
    headless_answers,
    may_follow,
    next_active,
    pass_bars,
    possible_turn,
)

#: The kinds :func:`step` tells apart, read once: on Python 3.11 each ``ActionKind.X`` goes through
#: the enum metaclass's ``__getattr__`` hook.
_PLAY, _PASS, _YIELD, _WIND, _CLAIM, _GIVE = (
    ActionKind.PLAY,
    ActionKind.PASS,
    ActionKind.YIELD,
    ActionKind.WIND,
    ActionKind.CLAIM,
    ActionKind.GIVE,
)
_tuple_new = tuple.__new__

#: The kinds of action made in play, in a round (一轮): the round their events belong to.
_IN_PLAY = frozenset((_PLAY, _PASS, _YIELD, _WIND, _CLAIM))


def _held_zh(hand: Counts, unknown: int) -> str:
    """What a seat holds, in Chinese: its cards and how many the record does not give."""
    cards = format_cards(hand)
    if not unknown:
        return cards or "无牌"
    return f"{cards}及{unknown}张未知牌" if cards else f"{unknown}张未知牌"


_NO_SEATS: frozenset[int] = frozenset()  # no seat has passed: one object for every new round


@cache
def _with_seat(seats: frozenset[int], seat: int) -> frozenset[int]:
    """``seats | {seat}``, one object for each of the 64 sets of seats (fewer objects to keep per position)."""
    return seats | {seat}


def skip_possible_turn(pos: Position, *, events: bool = True) -> tuple[Position, list[Event]] | None:
    """The position where the seat to act had no turn, when its turn rests only on cards the record
    does not give, with the events of getting there (the round may close); ``None`` when its turn
    is certain. Its turn rests on them when they may be two big jokers (see :func:`~gouji_record.rules.turns.possible_turn`),
    or when they may all be 3s and its play was beaten: then it was smothered (闷) and left the
    hand (``maybe_smothered``; 003 §被闷, 004 §20). :func:`step` takes this way when another seat acts.
    ``events=False``: as :func:`step`'s."""
    seat = pos.to_act
    if seat is None:
        return None
    if possible_turn(pos):
        s = Step(pos, not events)
        return _advance(s, replace(pos), seat)
    by = next((b for m, b in pos.maybe_smothered if m == seat), None)
    if by is None or not pos.active(seat):
        return None
    s = Step(pos, not events)
    after = replace(pos, maybe_smothered=tuple(m for m in pos.maybe_smothered if m[0] != seat))
    after = smother(s, after, seat, by)
    return _advance(s, after, seat)


def step(pos: Position, action: Action, *, events: bool = True) -> tuple[Position, list[Event]]:
    """Apply ``action`` to ``pos``.

    Returns the next position and the events the action caused, in order; with ``events=False``
    no event is derived (the list is empty) and the position and any diagnostic are the same: for
    a caller that wants only the verdict (``gouji validate -q``), as event objects are most of the
    cost of a step that makes some.
    When the seat to act has its turn only because its cards not written in
    the deal may hold two big jokers (:func:`skip_possible_turn`), an action
    of another seat is taken as coming after that seat had no turn.

    >>> pos = initial_position(get_ruleset("charter"), ("KK?34",) + ("?36",) * 5, leader=1)
    >>> pos, events = step(pos, Action(seat=1, kind="play", cards="KK"))
    >>> [e.kind.value for e in events], pos.to_act, pos.top.restricted  # KK is 够级: seat 4 answers
    (['gouji'], 4, True)

    Raises:
        IllegalAction: the ruleset forbids the action; its diagnostic names the code, the seats
            and cards, and the rule's source.
        BadArgument: ``pos`` is not a :class:`Position` or ``action`` not an :class:`Action` (code
            ``bad-argument``), or ``action`` is one made without validation
            (``Action.model_construct``) that the model refuses: a seat or a taker not 1–6
            (``bad-seat``) …
    """
    try:
        if not pos.maybe_smothered:  # (nearly always: no smother to take back, the step's answer as it is)
            return _step(pos, action, not events)
        after, made = _step(pos, action, not events)
    except IllegalAction:
        refused = _refused(pos, action)  # (a seat 7 is "out of the hand": say what it is)
        if refused is not None:
            raise refused from None
        skipped = None if action.seat == pos.to_act else skip_possible_turn(pos, events=events)
        if skipped is None:
            raise
    except (AttributeError, TypeError, IndexError, KeyError, ValueError):
        refused = _refused(pos, action, thorough=True)  # (checked only once something broke: no cost)
        if refused is not None:
            raise refused from None
        raise
    else:
        if any(m[0] == action.seat for m in pos.maybe_smothered):
            after = replace(after, maybe_smothered=tuple(m for m in after.maybe_smothered if m[0] != action.seat))
        return after, made
    after, made = skipped
    after, more = step(after, action, events=events)
    return after, made + more


def _refused(pos: object, action: object, thorough: bool = False) -> BadArgument | None:
    """The :class:`BadArgument` for a step from what is not a position, or of what is not an action the
    model allows (one made without validation: ``Action.model_construct(seat=7, …)``); ``None`` when
    both are what :func:`step` takes. ``thorough``: the action is validated whole, not only its seats."""
    if not isinstance(pos, Position):
        return wrong_type("position", pos, "a Position (initial_position(…))")
    if not isinstance(action, Action):
        return wrong_type("action", action, "an Action (Action.from_text('1:33'))")
    for name, seat in (("seat", action.seat), ("taker", action.to)):
        if (seat is not None or name == "seat") and (type(seat) is not int or seat not in SEATS):
            return BadArgument(f"action {name} {seat!r}: expected a seat 1-6", code="bad-seat")
    if type(action.kind) is not ActionKind:
        return wrong_type(f"action kind {action.kind!r}", action.kind, "an ActionKind")
    if thorough:
        try:
            valid = Action.model_validate(action.__dict__)
        except ValidationError as e:
            error = e.errors()[0]
            where = ".".join(map(str, error["loc"])) or "action"
            return BadArgument(f"action {where}: {error['msg']}")
        for name, value in action.__dict__.items():  # ("play" for ActionKind.PLAY: the model reads it so)
            if type(value) is not type(getattr(valid, name)):
                return wrong_type(f"action {name} {value!r}", value, f"{type(getattr(valid, name)).__name__}")
    return None


def _step(pos: Position, action: Action, quiet: bool) -> tuple[Position, list[Event]]:
    s = Step(pos, quiet)
    seat, kind = action.seat, action.kind
    if pos.preplay and kind in _IN_PLAY:  # (in play, Step took the round already)
        s.round = pos.round
    if action.irregular:
        return _rule_on(s, action)
    if pos.to_act is None:  # the hand is over
        raise s.illegal(
            "hand-over",
            "void-hand" if pos.void else "hand-end",
            f"the hand is over; seat {seat} cannot act",
            f"这一局已经结束，{seat}号位不能再行动",
        )
    if kind is not _PLAY and kind is not _PASS:
        refused = _refused(pos, action)  # (a play or a pass of no seat is refused as no seat in play: checked then)
        if refused is not None:
            raise refused
        if kind is _GIVE:
            return give(s, action)
        if action.suit is not None:
            return show(s, action) if kind is ActionKind.SHOW else draw(s, action)
        if kind.preplay:
            return declare(s, seat, kind)
    if pos.preplay:
        pos = s.pos = play_begins(s, seat)
    if seat not in pos.playing:
        if pos.gone(seat) and seat not in pos.finished:
            raise s.illegal("seat-out", "places", f"seat {seat} is out of the hand", f"{seat}号位已出局")
        raise s.illegal(
            "seat-finished", "places", f"seat {seat} has played all its cards", f"{seat}号位的牌已经出完（走科）"
        )
    if kind is _PLAY:
        return _play(s, seat, action)
    if kind is _CLAIM:
        return _claim(s, seat)
    top = pos.top
    if top is None:
        if seat != pos.to_act:
            raise _out_of_turn(s, seat)
        raise s.illegal(
            "must-lead",
            "round-end",
            f"seat {seat} leads round {pos.round} and must play, not {kind.value}",
            f"第{pos.round}轮由{seat}号位发牌，必须出牌，不能{ACTION_KIND_ZH.get(kind.value, kind.value)}",
        )
    if seat != pos.to_act:
        if kind is _PASS and (top.restricted or top.burn_only) and not headless_answers(pos, seat):
            raise _pass_not_written(s, seat, top)
        raise _not_its_turn(s, seat, top)
    if kind is _YIELD:
        return _yield(s, seat, top)
    if kind is _WIND:
        return _wind(s, seat, top)
    return _pass(s, seat)


def _rule_on(s: Step, action: Action) -> tuple[Position, list[Event]]:
    """An action marked irregular (^): legal, it stands; illegal, the engine rules on it. The wrong
    play is not made (错牌不出, 002 §8(1), 004 §9); a seat whose turn it was loses it (a pass)."""
    pos = s.pos
    try:
        return step(pos, action.model_copy(update={"irregular": False}), events=not s.quiet)
    except IllegalAction as e:
        d = e.diagnostic
        if not s.quiet:
            s.events.append(
                Event(
                    kind=EventKind.RULING,
                    action=s.index,
                    seats=(action.seat,),
                    cards=action.cards,
                    rule=d.rule,
                    source=d.source,
                    note=f"{d.code}: {d.message}",
                    note_zh=f"{d.code}: {d.message_zh}",
                    round=s.round,
                )
            )
    if not pos.over and not pos.preplay and action.seat == pos.to_act and pos.top is not None:
        s.event(EventKind.RULING, "irregular", (action.seat,))
        return _pass(s, action.seat)
    return replace(pos, actions=pos.actions + 1), s.events


def _claim(s: Step, seat: int) -> tuple[Position, list[Event]]:
    """挑牌 (002 §15): a seat whose turn it is claims it can play out the rest; play goes on as recorded."""
    pos, rules = s.pos, s.pos.ruleset
    if not rules.may_claim:
        raise s.illegal("claim-not-allowed", "claim", "these rules have no claim of the rest (挑牌)", "本规则没有挑牌")
    if seat != pos.to_act:
        raise _out_of_turn(s, seat)
    s.event(EventKind.CLAIM, "claim", (seat,))
    return replace(pos, actions=pos.actions + 1), s.events


def _wind(s: Step, seat: int, top: Top) -> tuple[Position, list[Event]]:
    """申请接风 (000 §接风, 002 §19): on a finisher's last play, the next seat asks to lead; the others
    agree by passing; if one plays, the request fails and the asker may still play."""
    pos, rules = s.pos, s.pos.ruleset
    if not rules.wind_request:
        raise s.illegal(
            "wind-not-allowed",
            "wind-request",
            "these rules have no request to take the wind (申请接风)",
            "本规则没有申请接风",
        )
    if pos.active(top.seat) or next_active(pos, top.seat) != seat:
        raise s.illegal(
            "wind-not-allowed",
            "wind-request",
            f"seat {seat} may ask to take the wind only on the last play of the seat just before it",
            f"{seat}号位只有在紧挨着的上家出最后一手牌时才能申请接风",
        )
    s.event(EventKind.WIND_REQUEST, "wind-request", (seat, top.seat))
    return _advance(s, replace(pos, actions=pos.actions + 1), seat)


# -- passing and yielding -----------------------------------------------------------------


def _not_its_turn(s: Step, seat: int, top: Top) -> IllegalAction:
    """The most precise diagnostic when it is not ``seat``'s turn to follow ``top`` (not a burn)."""
    pos = s.pos
    if top.unbeatable:
        return s.illegal(
            "does-not-beat",
            "big-joker-dead",
            f"{top.play} by seat {top.seat} is dead: nobody may answer it",
            f"{top.seat}号位的{top.play}是死牌，谁也不能上",
        )
    if top.burn_only:
        return _only_a_burn(s, top)
    if top.restricted and seat != opposite(top.seat) and not headless_answers(pos, seat):
        opp = opposite(top.seat)
        who = (
            f"only its opposite, seat {opp}, may answer"
            if pos.active(opp)
            else f"its opposite, seat {opp}, is out of play and seat {top.seat} is not headless: only a burn answers"
        )
        who_zh = (
            f"只有其对头{opp}号位可以上牌"
            if pos.active(opp)
            else f"其对头{opp}号位已离场，而{top.seat}号位不是无头：只有烧牌可以上"
        )
        return s.illegal(
            "gouji-not-opposite",
            "gouji-opposite-only",
            f"{top.play} by seat {top.seat} is a gouji play (够级): {who}; seat {seat} may only burn it "
            f"(write {seat}:*cards)",
            f"{top.seat}号位的{top.play}是够级牌：{who_zh}；{seat}号位只能烧牌（写作 {seat}:*牌）",
        )
    if seat == pos.yielder:
        return s.illegal(
            "passed-this-round",
            "yield",
            f"seat {seat} yielded: it acts again only if the next two seats pass",
            f"{seat}号位已让牌：下两家都过牌后才再轮到它",
        )
    if pass_bars(pos, seat, top):
        return s.illegal(
            "passed-this-round",
            "pass-bars",
            f"seat {seat} passed this round and may not play again",
            f"{seat}号位这一轮已过牌，不能再出牌",
        )
    return _out_of_turn(s, seat)


def _out_of_turn(s: Step, seat: int) -> IllegalAction:
    """``seat`` acts when it is another seat's turn: the diagnostic names the seat to act (or to lead)."""
    pos = s.pos
    if pos.top is None:
        return s.illegal(
            "not-your-turn",
            "turn-order",
            f"seat {pos.to_act} leads round {pos.round}, not seat {seat}",
            f"第{pos.round}轮由{pos.to_act}号位发牌，不是{seat}号位",
        )
    return s.illegal(
        "not-your-turn",
        "turn-order",
        f"it is seat {pos.to_act}'s turn, not seat {seat}'s",
        f"现在轮到{pos.to_act}号位，不是{seat}号位",
    )


def _pass_not_written(s: Step, seat: int, top: Top) -> IllegalAction:
    """A pass written by a seat that has no turn on a 够级 play (or a 够死级): only the seat that
    may answer it passes, and the others write nothing; they may burn it (docs/notation.md, "Who
    writes a pass")."""
    what = "a dead gouji (够死级)" if top.burn_only else "a gouji play (够级)"
    what_zh = "够死级" if top.burn_only else "够级牌"
    return s.illegal(
        "dead-gouji" if top.burn_only else "gouji-not-opposite",
        "dead-gouji" if top.burn_only else "gouji-opposite-only",
        f"{top.play} by seat {top.seat} is {what}: seat {seat} has no turn on it, so it writes no pass: "
        f"remove {seat}:- (to burn it, write {seat}:*cards)",
        f"{top.seat}号位的{top.play}是{what_zh}：{seat}号位不轮到上牌，不写过牌：删去 {seat}:-"
        f"（要烧牌，写作 {seat}:*牌）",
    )


def _only_a_burn(s: Step, top: Top) -> IllegalAction:
    """Only a burn answers a dead gouji play (够死级, 002 §16)."""
    return s.illegal(
        "dead-gouji",
        "dead-gouji",
        f"{top.play} by seat {top.seat} is a dead gouji (够死级): only a burn (*) may answer it",
        f"{top.seat}号位的{top.play}是够死级：只有烧牌（*）可以上",
    )


def _pass(s: Step, seat: int) -> tuple[Position, list[Event]]:
    pos = s.pos
    fields = pos.__dict__.copy()
    fields["barred"] = _with_seat(pos.barred, seat)
    fields["actions"] = pos.actions + 1
    if seat == pos.yielder:  # the yield is over
        fields["yielder"], fields["yield_back"] = None, False
    return _advance(s, made(fields), seat)


def _yield(s: Step, seat: int, top: Top) -> tuple[Position, list[Event]]:
    """让牌 (002 §12): on the opposite's play passed by the two seats upstream."""
    pos = s.pos
    if pos.melee:
        raise s.illegal(
            "yield-not-allowed", "melee", "no yielding in the four-way melee (四户乱缠)", "四户乱缠时不能让牌"
        )
    if top.seat != opposite(seat) or top.restricted:
        raise s.illegal(
            "yield-not-allowed",
            "yield",
            f"seat {seat} may yield only on its opposite's (seat {opposite(seat)}) non-gouji play",
            f"{seat}号位只能在对头（{opposite(seat)}号位）出的非够级牌上让牌",
        )
    if pos.yielder == seat:
        raise s.illegal(
            "yield-not-allowed",
            "yield",
            f"seat {seat} has yielded once already on this play",
            f"{seat}号位在这手牌上已经让过一次",
        )
    if not pos.ruleset.yield_to_passed and not any(may_follow(pos, t, top) for t in SEATS_AFTER[seat][:2]):
        raise s.illegal(  # 003 §让牌: 如果你的下家和下联都过了，你就不能让牌了
            "yield-not-allowed",
            "yield",
            f"seat {seat} may not yield: its downstream neighbour and partner (seats {next_seat(seat)} and "
            f"{next_seat(next_seat(seat))}) have no turn on this play",
            f"{seat}号位不能让牌：其下家和下联（{next_seat(seat)}号位和{next_seat(next_seat(seat))}号位）"
            "在这手牌上都无权出牌",
        )
    pos = replace(pos, yielder=seat, yield_back=False, actions=pos.actions + 1)
    return _advance(s, pos, seat)


def _advance(s: Step, pos: Position, after: int) -> tuple[Position, list[Event]]:
    """Give the turn to the next seat after ``after`` that may follow the top play, else back to
    a seat that yielded (让牌), else close the round.

    ``pos`` is always a position made during this step (by :func:`replace`) and not yet returned:
    whose turn it is (or the round's end), worked out from it, is written into it rather than into
    one more copy, which would cost as much as the rest of a pass. Positions never change once
    :func:`step` has returned them.
    """
    assert pos is not s.pos
    if pos.to_act is None:  # the hand is over
        return pos, s.events
    top = pos.top
    if top is None:  # the leader left the hand: the next seat leads
        if not pos.melee and melee_due(pos):  # melee_begins=next-round: it begins with this lead
            pos = begin_melee(s, pos)
        return replace(pos, to_act=next_active(pos, after)), s.events
    fields = pos.__dict__
    plain = not (top.unbeatable or top.burn_only or top.restricted)  # any seat still playing may follow it
    for seat in SEATS_AFTER[after]:
        if seat == top.seat:
            break
        if seat == pos.yielder:
            continue
        if plain:  # may_follow's reading of a plain play, without its calls: in play, and not barred by a pass
            if seat in pos.playing and (seat not in pos.barred or not pass_bars(pos, seat, top)):
                fields["to_act"] = seat
                return pos, s.events
        elif may_follow(pos, seat, top):
            fields["to_act"] = seat
            return pos, s.events
    if pos.yielder is not None and not pos.yield_back:
        fields["to_act"] = pos.yielder
        fields["yield_back"] = True
    else:
        fields.update(_close_round(s, pos))
    return pos, s.events


def _close_round(s: Step, pos: Position) -> dict[str, object]:
    """Everyone with a turn has passed: the top play wins the round (002 §13). Returns the changes."""
    top = pos.top
    assert top is not None
    winner = top.seat
    s.event(EventKind.ROUND_END, "round-end", (winner,), top.play.text)
    opened, qualified = pos.opened, pos.qualified
    if top.can_open and winner not in opened and winner not in pos.given_up:
        if pos.ruleset.opening_by_fours:
            if (pos.hands[winner - 1][FOUR] or pos.unknown[winner - 1]) and pos.active(winner):
                qualified = qualified | {winner}
                s.event(EventKind.OPEN_QUALIFIED, "opening-fours", (winner,), top.play.text)
        else:
            opened = opened | {winner}
            s.event(EventKind.OPEN, "opening", (winner,), top.play.text)
    leader = winner
    if winner not in pos.playing:
        leader = next_active(pos, winner)
        s.event(EventKind.TAKE_THE_WIND, "take-the-wind", (leader, winner))
    melee = pos.melee
    if not melee and melee_due(pos):  # melee_begins=next-round: it begins with this lead
        s.event(EventKind.MELEE, "melee", tuple(sorted(pos.playing)))
        melee = True
    return {
        "melee": melee,
        "top": None,
        "barred": _NO_SEATS,
        "yielder": None,
        "yield_back": False,
        "opened": opened,
        "qualified": qualified,
        "round": pos.round + 1,
        "to_act": leader,
    }


# -- plays --------------------------------------------------------------------------------


def _play(s: Step, seat: int, action: Action) -> tuple[Position, list[Event]]:
    pos, rules = s.pos, s.pos.ruleset
    top, burn = pos.top, action.burn
    if not burn:
        if seat != pos.to_act:
            if top is None:
                raise _out_of_turn(s, seat)
            raise _not_its_turn(s, seat, top)
        if top is not None and (top.burn_only or (top.restricted and burn_turn_only(pos, seat, top))):
            raise _not_its_turn(s, seat, top)  # a turn to burn or pass: only a burn may answer
    hand, unknown = pos.hands[seat - 1], pos.unknown[seat - 1]
    cards = parse_cards(action.cards)
    left = subtract(hand, cards)
    left_unknown, seen = unknown, pos.seen
    if left is None:  # cards the seat is not known to hold: they must come from its unknown cards
        left = tuple(map(sub, hand, cards))
        missing = tuple(max(0, -n) for n in left)
        if sum(missing) > unknown:
            message = cards_short(seat, "play", action.cards, short_of(cards, hand), unknown)
            raise s.illegal("not-in-hand", "deal", message, message.zh)
        left = tuple(max(0, n) for n in left)
        left_unknown = unknown - sum(missing)
        seen = add(seen, missing)  # only cards from unknown hands are newly seen
        over = [r for r, m in enumerate(missing) if m and seen[r] > COPIES[r]]
        if over:
            rank = over[0]
            raise s.illegal(
                "too-many-cards",
                "deal",
                f"seat {seat} plays {RANK_LETTERS[rank]}: four decks hold {COPIES[rank]}, and all are accounted for",
                f"{seat}号位出了{RANK_LETTERS[rank]}：四副牌只有{COPIES[rank]}张{RANK_LETTERS[rank]}，都已有着落",
            )
    try:
        play = parse_play(action.cards)
    except PlayError as e:
        raise s.illegal("bad-play", "play-shape", str(e), zh_of(e.message)) from None
    facts = play_facts(play, rules)
    _check_shape(s, seat, play, facts, left, left_unknown)
    if burn:
        _check_burn(s, seat, play, left, left_unknown, seen)
    if top is not None and not judge(top.play, play, rules)[0]:
        verdict = beats(top.play, play, rules)
        raise s.illegal(
            "does-not-beat",
            verdict.rule,
            f"seat {seat}: {play} does not beat {top.play}: {verdict.reason}",
            f"{seat}号位：{play}管不上{top.play}：{zh_of(verdict.reason)}",
        )
    if pos.burner == seat and not burn and (any(left) or left_unknown):
        if play.jokers == 0:
            why = f"every play but the last must carry a joker, and {play} carries none"
            why_zh = f"除最后一手外每手牌都须挂王，而{play}没有挂王"
        elif not burn_condition_possible(left, left_unknown, seen, rules):
            why = f"after {play} it could not carry a joker in every play but the last ({format_cards(left)} left)"
            why_zh = f"出{play}后剩{format_cards(left)}，无法做到除最后一手外每手都挂王"
        else:
            why = why_zh = ""
        if why:
            if rules.burn_failure == "illegal":
                raise s.illegal(
                    "burn-condition",
                    "burn-condition",
                    f"seat {seat} is burning: {why}",
                    f"{seat}号位正在烧牌：{why_zh}",
                )
            return _burn_failure(s, seat)
    if left_unknown != unknown:
        unknowns = pos.unknown[: seat - 1] + (left_unknown,) + pos.unknown[seat:]
        s.pos = replace(pos, unknown=unknowns, seen=seen)
    return _apply_play(s, seat, play, facts, left, burn)


def _check_shape(s: Step, seat: int, play: Play, facts: PlayFacts, left: Counts, left_unknown: int = 0) -> None:
    """3s last and whole (憋三), 4s whole, and ranks that carry nothing (003; 004 §5, §6; 002 §26(3))."""
    rules = s.pos.ruleset
    shape = facts.shape_error
    if shape is not None:
        code, rule, message = shape
        raise s.illegal(code, rule, message, zh_of(message))
    if play.cards[THREE] and rules.threes_held:
        if left[THREE]:
            raise s.illegal(
                "threes-split",
                "threes-held",
                f"seat {seat}: 3s are played all at once, last",
                f"{seat}号位：3须在最后一次全部出完",
            )
        if any(left) or left_unknown:
            rest = " and ".join(
                part for part in (format_cards(left), f"{left_unknown} unknown" if left_unknown else "") if part
            )
            raise s.illegal(
                "threes-early",
                "threes-held",
                f"seat {seat}: 3s are the last play; {rest} are left",
                f"{seat}号位：3须作为最后一手出，手中还剩{_held_zh(left, left_unknown)}",
            )
    if play.cards[FOUR] and left[FOUR] and rules.fours_whole:
        raise s.illegal(
            "fours-split", "fours", f"seat {seat}: 4s are played all at once", f"{seat}号位：4须一次全部出完"
        )


def _check_burn(s: Step, seat: int, play: Play, left: Counts, left_unknown: int, seen: Counts) -> None:
    """烧牌 (002 §10): pre-empt the opposite and beat a gouji play, under the burn condition."""
    pos = s.pos
    top = pos.top
    if top is None or top.unbeatable or not (top.restricted or top.burn_only):
        raise s.illegal(
            "not-a-burn",
            "burn",
            f"seat {seat}: a burn (*) beats a gouji play on top, and there is none",
            f"{seat}号位：烧牌（*）是管桌面上的够级牌，而桌面上没有够级牌",
        )
    if seat in (top.seat, opposite(top.seat)):
        who = "its own play" if seat == top.seat else "its opposite's play: answer it without *"
        who_zh = "自己的牌" if seat == top.seat else "对头的牌：不加 * 直接上牌即可"
        raise s.illegal("not-a-burn", "burn", f"seat {seat} cannot burn {who}", f"{seat}号位不能烧{who_zh}")
    if headless_answers(pos, seat):
        raise s.illegal(
            "not-a-burn",
            "headless",
            f"seat {seat} is headless (无头): it beats any play without burning",
            f"{seat}号位是无头：它不用烧牌就能管任何牌",
        )
    if seat in pos.barred:
        raise s.illegal(
            "passed-this-round",
            "burn-pass-bars",
            f"seat {seat} passed this round and may not burn",
            f"{seat}号位这一轮已过牌，不能烧牌",
        )
    if not burn_condition_possible(left, left_unknown, seen, pos.ruleset):
        raise s.illegal(
            "burn-condition",
            "burn-condition",
            f"seat {seat} cannot burn with {play}: left with {format_cards(left)}"
            + (f" and {left_unknown} unknown" if left_unknown else "")
            + ", it could not carry a joker in every play but the last",
            f"{seat}号位不能用{play}烧牌：出牌后剩{_held_zh(left, left_unknown)}，"
            "无法做到除最后一手外每手都挂王",
        )


def _apply_play(
    s: Step, seat: int, play: Play, facts: PlayFacts, left: Counts, burn: bool
) -> tuple[Position, list[Event]]:
    pos, rules = s.pos, s.pos.ruleset
    old = pos.top
    burning = burn or pos.burner is not None  # a burn begun, or one running (rare)
    if burning:
        burner, target, burns = burns_after(s, seat, play, burn)
    answers = old is not None and not burn and seat == OPPOSITE[old.seat]  # the opposite follows
    if answers and old.restricted:
        s.event(EventKind.ANSWER, "gouji-opposite-only", (seat, old.seat), play.text)
    gouji = facts.gouji and not pos.melee and not pos.headless(seat)
    last_play_dead_gouji = (
        answers
        and old.seat in pos.finished
        and pos.finished.index(old.seat) < 2
        and rules.last_play_answer_is_dead(old.restricted)
    )
    head_dead_gouji = gouji and pos.kept_head[seat - 1] > 0  # 要头: the revolter's opposite's first gouji plays
    dead_gouji = last_play_dead_gouji or head_dead_gouji
    if dead_gouji:
        s.event(EventKind.DEAD_GOUJI, "dead-gouji" if last_play_dead_gouji else "keep-head", (seat,), play.text)
    elif gouji:
        s.event(EventKind.GOUJI, "gouji-play", (seat, OPPOSITE[seat]), play.text)
    restricted = gouji and not dead_gouji
    if rules.opening_in_melee:  # 001 §38: any 够级 play nobody answers opens, in the melee too
        melee_gouji = pos.melee and not dead_gouji and facts.gouji and not pos.headless(seat)
        can_open = (restricted or melee_gouji) and not facts.opening_excluded
    else:
        can_open = restricted and len(pos.finished) < 2 and not facts.opening_excluded
    barred = pos.barred
    if pos.yielder is not None and pos.yielder != seat:
        barred = _with_seat(barred, pos.yielder)  # a play after a yield makes the yield a pass (002 §12)
    smother_risk = (
        rules.threes_held
        and not pos.unknown[seat - 1]
        and any(left)
        and left[THREE] == sum(left)
        and not play.cards[THREE]
    )
    unbeatable = facts.unbeatable
    if unbeatable:  # 死牌: nobody may answer, so the round is over with it
        s.event(
            EventKind.UNBEATABLE,
            "big-joker-dead",
            (seat,),
            play.text,
            note="nobody may beat it: the round ends",
            note_zh="无人能管，本轮结束",
        )
    smother_possible = (
        rules.threes_held
        and rules.smother == "last-place"  # (otherwise the smothered seat plays on: nothing to skip)
        and 0 < pos.unknown[seat - 1] <= COPIES[THREE] - pos.seen[THREE]
        and left[THREE] == sum(left)
        and not play.cards[THREE]
    )
    fields = pos.__dict__.copy()
    fields["hands"] = pos.hands[: seat - 1] + (left,) + pos.hands[seat:]
    # (a Top made as namedtuple's own _make makes it, without the generated __new__'s call)
    top = (seat, play, restricted, dead_gouji, unbeatable, can_open, smother_risk, smother_possible)
    fields["top"] = _tuple_new(Top, top)
    fields["barred"], fields["yielder"], fields["yield_back"] = barred, None, False
    fields["actions"] = pos.actions + 1
    if burning:
        fields["burner"], fields["burn_target"], fields["burns"] = burner, target, burns
    pos = made(fields)
    if head_dead_gouji:
        pos = _spend_kept_head(s, pos, seat)
    if rules.opening_by_fours:
        pos = _fours(s, pos, seat, play, old is None)
    if not (any(left) or pos.unknown[seat - 1]):  # its last card
        pos = finish(s, pos, seat)
    if old is not None and old.smother_risk and pos.active(old.seat) and not pos.over:
        pos = smother(s, pos, old.seat, seat)
    elif old is not None and old.smother_possible and pos.active(old.seat) and not pos.over:
        pos = replace(pos, maybe_smothered=pos.maybe_smothered + (MaybeSmothered(old.seat, seat),))
    return _advance(s, pos, seat)


def _spend_kept_head(s: Step, pos: Position, seat: int) -> Position:
    """One of the three dead gouji plays of a kept head (要头) is used; after the third, headless."""
    kept = list(pos.kept_head)
    kept[seat - 1] -= 1
    pos = replace(pos, kept_head=tuple(kept))
    if kept[seat - 1] == 0:
        s.event(EventKind.HEADLESS, "keep-head", (seat,))
        rules = pos.ruleset
        if rules.revolution_opening == "three-dead-gouji" and len(pos.finished) < 2 and seat not in pos.opened:
            s.event(EventKind.OPEN, "keep-head", (seat,))
            pos = replace(pos, opened=pos.opened | {seat})
    return pos


def _fours(s: Step, pos: Position, seat: int, play: Play, lead: bool) -> Position:
    """开点发4 (003 §开点; 004 §17, §18), under ``opening_by_fours``: lead all 4s to complete an
    opening; other 4s give it up."""
    if play.cards[FOUR] and seat not in pos.opened and seat not in pos.given_up:
        qualified = pos.qualified - {seat}
        all_fours = lead and not pos.hands[seat - 1][FOUR]
        eligible = seat in pos.qualified or seat in pos.natural
        in_time = not pos.melee and not pos.headless(seat)
        if all_fours and eligible and in_time:
            s.event(EventKind.OPEN, "opening-fours" if seat in pos.qualified else "natural-opening", (seat,), play.text)
            return replace(pos, opened=pos.opened | {seat}, qualified=qualified)
        s.event(EventKind.OPEN_GIVEN_UP, "open-given-up", (seat,), play.text)
        return replace(pos, given_up=pos.given_up | {seat}, qualified=qualified)
    return replace(pos, qualified=pos.qualified - {seat}) if lead and seat in pos.qualified else pos


def _burn_failure(s: Step, seat: int) -> tuple[Position, list[Event]]:
    """烧失败 (000 §烧牌, 001 §59, 003 §番外篇1): the play is not made; the burner is out, placed last."""
    pos = s.pos
    s.event(EventKind.BURN_FAILURE, "burn-failure", (seat,))
    pos = replace(
        pos, burner=None, burn_target=None, burns=set_burn(pos.burns, seat, "failed"), actions=pos.actions + 1
    )
    pos = go_out(s, pos, seat, "burn-failure")
    return _advance(s, pos, seat)


__all__ = [
    "KEPT_HEAD_PLAYS",
    "SEATS",
    "Burn",
    "Call",
    "Drawn",
    "MaybeSmothered",
    "Position",
    "Show",
    "Smother",
    "Top",
    "begin_play",
    "burn_condition_holds",
    "burn_condition_possible",
    "initial_position",
    "next_seat",
    "opposite",
    "seats_after",
    "skip_possible_turn",
    "team_name",
    "step",
    "team",
]
