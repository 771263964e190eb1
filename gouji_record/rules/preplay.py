"""Before play (出牌之前): the pre-play phase of a hand, from the deal to the first play.

Seats draw for the teams (抽签组邦, 002 §5), show cards of one suit for the first lead (上班,
000 §回合, 002 §7), give cards (tribute 进贡 and its return, a 3 or 4 bought 买三/买四 or given
赠与: what is owed is the match's to check), and declare: 革命 (a revolution), 要头/无头 (the
revolter's opposite's choice), 自然开点, 宣点/明点/预点 (calls). The first play ends the phase
(:func:`play_begins`, :func:`begin_play`): revolutions take effect, and with 3s held a seat
without one leaves. The engine (:func:`~gouji_record.rules.engine.step`) hands each such action here.
"""

from __future__ import annotations

from ..bilingual import Bilingual, cards_short, zh_of, zh_seats
from ..cards import COPIES, RANK_LETTERS, TWO, add, parse_cards, short_of, subtract
from ..model import DECKS, RED_SUITS, SUITS, Action, ActionKind
from .events import ACTION_KIND_ZH, Event, EventKind
from .leaving import begin_melee, go_out, maybe_end, melee_due
from .position import SEATS, Call, Drawn, Position, Show, Step, opposite, replace, seats_in_play, team
from .turns import next_active

#: Dead gouji plays (够死级) a revolter's opposite gets when it keeps a head (要头).
KEPT_HEAD_PLAYS = 3
#: The suits (for 上班) in Chinese.
_SUIT_ZH = {"s": "黑桃", "h": "红心", "c": "梅花", "d": "方块"}
#: The rule a transfer comes under, by its purpose: a purchase, a gift, a refusal; tribute otherwise.
_TRANSFER_RULES = {"buy": "buying", "gift": "gift", "refuse": "tribute-refusal"}


def declare(s: Step, seat: int, kind: ActionKind) -> tuple[Position, list[Event]]:
    """A declaration before play (000 §革命, 002 §23-§24, 004 §17): 革命, 要头 or 无头, 自然开点, or a
    call (宣点/明点/预点).

    Raises:
        IllegalAction: the declaration is one the ruleset or the position forbids (its diagnostic says which rule).
    """
    pos, rules = s.pos, s.pos.ruleset
    if not pos.preplay:
        raise s.illegal(
            "preplay-late",
            "revolution",
            f"{kind.value} is declared before the first play",
            f"{ACTION_KIND_ZH[kind.value]}须在第一手牌之前声明",
        )
    hand = pos.hands[seat - 1]
    if kind in (ActionKind.CALL, ActionKind.PRECALL):
        return _call(s, seat, kind)
    if kind is ActionKind.REVOLT:
        refusal = rules.revolt_refusal(hand)
        if refusal is None and seat in pos.revolted:
            refusal = Bilingual("has revolted already", "已经革命过了")
        if refusal is not None:
            message = refusal if not rules.revolution else f"seat {seat} {refusal}"
            zh = zh_of(refusal) if not rules.revolution else f"{seat}号位{zh_of(refusal)}"
            raise s.illegal("revolution-not-allowed", "revolution", message, zh)
        return replace(_revolt(s, pos, seat), actions=pos.actions + 1), s.events
    if kind in (ActionKind.KEEP_HEAD, ActionKind.NO_HEAD):
        if opposite(seat) not in pos.revolted:
            raise s.illegal(
                "head-choice-not-allowed",
                "keep-head",
                f"seat {seat}'s opposite did not revolt: there is no head to keep",
                f"{seat}号位的对头没有革命，无头可要",
            )
        kept = list(pos.kept_head)
        kept[seat - 1] = KEPT_HEAD_PLAYS if kind is ActionKind.KEEP_HEAD else 0
        if kind is ActionKind.NO_HEAD:
            s.event(EventKind.HEADLESS, "keep-head", (seat,))
        else:
            s.event(EventKind.KEEP_HEAD, "keep-head", (seat,))
        return replace(pos, kept_head=tuple(kept), actions=pos.actions + 1), s.events
    # 自然开点 (004 §17): only a hand with no pure gouji play
    if not rules.natural_opening:
        raise s.illegal(
            "natural-not-allowed",
            "natural-opening",
            "these rules have no natural opening (自然开点)",
            "本规则没有自然开点",
        )
    # a pure gouji play (no 2, no joker) is enough cards of one rank below 2
    pure = any(
        hand[RANK_LETTERS.index(letter)] >= n
        for letter, n in rules.gouji_minimum.items()
        if RANK_LETTERS.index(letter) < TWO
    )
    if pure or seat in pos.natural:
        raise s.illegal(
            "natural-not-allowed",
            "natural-opening",
            f"seat {seat} holds a pure gouji play: no natural opening",
            f"{seat}号位持有纯够级牌，不能自然开点",
        )
    s.event(EventKind.NATURAL_OPENING, "natural-opening", (seat,))
    return replace(pos, natural=pos.natural | {seat}, actions=pos.actions + 1), s.events


def _call(s: Step, seat: int, kind: ActionKind) -> tuple[Position, list[Event]]:
    """宣点 / 明点 (call) and 预点 (precall): the seat says its opposite will not open (002 §24)."""
    pos, rules = s.pos, s.pos.ruleset
    word = kind.value
    if word not in rules.calls:
        raise s.illegal(
            "call-not-allowed", "calls", f"these rules have no {word} (宣点/明点/预点)", f"本规则没有{ACTION_KIND_ZH[word]}"
        )
    if any(caller == seat for caller, _ in pos.calls):
        raise s.illegal("call-not-allowed", "calls", f"seat {seat} has called already", f"{seat}号位已经宣过点了")
    s.event(EventKind.CALL, "calls", (seat, opposite(seat)), note=word, note_zh=ACTION_KIND_ZH[word])
    return replace(pos, calls=pos.calls + (Call(seat, word),), actions=pos.actions + 1), s.events


def _revolt(s: Step, pos: Position, seat: int) -> Position:
    """革命: ``seat`` sits the hand out; its opposite keeps a head (要头) unless it declares 无头;
    a second revolution voids the hand (002 §23)."""
    s.event(EventKind.REVOLUTION, "revolution", (seat, opposite(seat)))
    kept = list(pos.kept_head)
    kept[opposite(seat) - 1] = KEPT_HEAD_PLAYS
    pos = replace(pos, revolted=pos.revolted + (seat,), kept_head=tuple(kept), playing=pos.playing - {seat})
    if len(pos.revolted) >= 2:
        s.event(EventKind.VOID_HAND, "void-hand", pos.revolted)
        pos = replace(pos, void=True, to_act=None, preplay=False)
    return pos


def give(s: Step, action: Action) -> tuple[Position, list[Event]]:
    """A transfer before play (tribute, its return, a bought 3): cards move from one hand to another.
    What is owed is the match's to check (gouji_record.matches.match); the engine checks the cards are held.
    A purchase's transfers come under the rule ``buying`` (买三, 买四), a gift's under ``gift`` (赠与).
    A refusal (``refuse``: 拒绝吃贡, 拒绝还贡牌) is cards offered and refused: the giver must hold
    them, and none moves (event ``refuse``); whether the text allows it is the match's to check.

    Raises:
        IllegalAction: a transfer after the first play, or of cards the giver does not hold.
    """
    pos = s.pos
    rule = _TRANSFER_RULES.get(action.purpose, "tribute")
    if not pos.preplay:
        raise s.illegal("preplay-late", rule, "cards change hands before the first play", "交牌须在第一手牌之前")
    giver, taker = action.seat, action.to
    assert taker is not None
    cards = parse_cards(action.cards)
    hand, unknowns, seen = pos.hands[giver - 1], pos.unknown, pos.seen
    left = subtract(hand, cards)
    if left is None:  # cards the seat is not known to hold: they must come from its unknown cards
        missing = tuple(max(0, c - h) for c, h in zip(cards, hand))
        if sum(missing) > unknowns[giver - 1]:
            message = cards_short(giver, "give", action.cards, short_of(cards, hand), unknowns[giver - 1])
            raise s.illegal("not-in-hand", rule, message, message.zh)
        left = tuple(max(0, h - c) for h, c in zip(hand, cards))
        unknowns = unknowns[: giver - 1] + (unknowns[giver - 1] - sum(missing),) + unknowns[giver:]
        seen = add(seen, missing)  # only cards from unknown hands are newly seen
    if action.purpose == "refuse":
        s.event(EventKind.REFUSE, rule, (giver, taker), action.cards)
        return replace(pos, actions=pos.actions + 1), s.events
    hands = list(pos.hands)
    hands[giver - 1] = left
    hands[taker - 1] = add(hands[taker - 1], cards)
    s.event(EventKind.GIVE, rule, (giver, taker), action.cards)
    hands = tuple(hands)
    playing = pos.playing  # (it changes only if the giver is left with nothing, or the taker was out of play)
    if taker not in playing or not (any(left) or unknowns[giver - 1]):
        playing = seats_in_play(hands, unknowns, pos.out, pos.revolted)
    return replace(
        pos, hands=hands, unknown=unknowns, seen=seen, actions=pos.actions + 1, playing=playing
    ), s.events


def _suited_first(s: Step, kind: str, rule: str, before: int) -> None:
    """A show or a draw comes before every other step before play but ``before`` of its own
    kind and the draws (teams are drawn, then the lead is shown, then 3s bought, tribute paid)."""
    pos = s.pos
    kind_zh = "抽签组邦" if rule == "team-draw" else "上班亮牌"
    if not pos.preplay:
        raise s.illegal("preplay-late", rule, f"a {kind} comes before the first play", f"{kind_zh}须在第一手牌之前")
    if pos.actions > before:
        raise s.illegal(
            "preplay-order",
            rule,
            f"a {kind} comes before buying, tribute and the declarations"
            + (", and the draws before the shows" if rule == "team-draw" else ""),
            f"{kind_zh}须在买牌、进贡和各项声明之前" + ("，且抽签在上班亮牌之前" if rule == "team-draw" else ""),
        )


def show(s: Step, action: Action) -> tuple[Position, list[Event]]:
    """上班 (000 §回合, 001 §40-§42, 002 §7): a seat shows 2 or more cards of one rank and one
    suit (3s; 4s under 000/001 with threes-held); the seat showing the most leads round 1, the
    first of equal shows keeping the lead (先亮者; 顶班 takes it only with more).

    Shown cards are cards held: a seat's shows of one suit need the longest of them, its shows
    of different suits need them all, and no more than four of a suit and rank are in the decks.
    Cards not written in the deal become known as shown.

    Raises:
        IllegalAction: a show the rules or the cards held do not allow (its diagnostic says which rule).
    """
    pos, rules, seat, suit = s.pos, s.pos.ruleset, action.seat, action.suit
    _suited_first(s, "show (上班)", "showing", len(pos.drawn) + len(pos.shows))
    if rules.showing == "none":
        raise s.illegal(
            "show-not-allowed",
            "showing",
            "these rules have no 上班: showing cards does not decide the lead",
            "本规则没有上班：亮牌不决定首发",
        )
    rank, n = rules.shown_rank, len(action.cards)
    if action.cards[0] != rank or n < 2:
        raise s.illegal(
            "show-wrong",
            "showing",
            f"seat {seat} shows {action.cards}: 上班 is two or more {rank}s of one suit",
            f"{seat}号位亮出{action.cards}：上班须亮出两张以上同花色的{rank}",
        )
    shows = pos.shows + (Show(seat, suit, n),)
    in_suit = sum(_longest(shows, other, suit) for other in SEATS)
    if in_suit > DECKS:
        raise s.illegal(
            "too-many-cards",
            "showing",
            f"{in_suit} {rank}s of suit {suit} shown: four decks hold {DECKS}",
            f"亮出了{in_suit}张{_SUIT_ZH.get(suit or '', suit)}{rank}：四副牌只有{DECKS}张",
        )
    index = RANK_LETTERS.index(rank)
    need = sum(_longest(shows, seat, each) for each in SUITS)  # this seat's shown cards of the rank
    hand, unknown = pos.hands[seat - 1], pos.unknown[seat - 1]
    missing = max(0, need - hand[index])
    if missing > unknown:
        raise s.illegal(
            "not-in-hand",
            "showing",
            f"seat {seat} does not hold {need} {rank}s to show",
            f"{seat}号位手中没有{need}张{rank}可亮",
        )
    if pos.seen[index] + missing > COPIES[index]:
        raise s.illegal(
            "too-many-cards",
            "showing",
            f"seat {seat} cannot hold {need} {rank}s: four decks hold {COPIES[index]}",
            f"{seat}号位不可能持有{need}张{rank}：四副牌只有{COPIES[index]}张",
        )
    if missing:  # cards not written in the deal, known now
        hands, unknowns = list(pos.hands), list(pos.unknown)
        hands[seat - 1] = tuple(c + missing if r == index else c for r, c in enumerate(hand))
        unknowns[seat - 1] -= missing
        seen = tuple(c + missing if r == index else c for r, c in enumerate(pos.seen))
        pos = replace(pos, hands=tuple(hands), unknown=tuple(unknowns), seen=seen)  # (the seat plays on)
    leader = _first_longest(shows)
    s.event(
        EventKind.SHOW, "showing", (seat, leader), action.cards, note=f"seat {leader} leads", note_zh=f"{leader}号位首发"
    )
    return replace(pos, shows=shows, to_act=leader, actions=pos.actions + 1), s.events


def _longest(shows: tuple[Show, ...], seat: int, suit: str) -> int:
    """The most cards ``seat`` showed of ``suit`` (0 if none)."""
    return max((n for who, what, n in shows if who == seat and what == suit), default=0)


def _first_longest(shows: tuple[Show, ...]) -> int:
    """The seat that leads round 1 on ``shows``: the first to show the most cards (先亮者)."""
    return max(shows, key=lambda show: show[2])[0]


def draw(s: Step, action: Action) -> tuple[Position, list[Event]]:
    """抽签组邦 (002 §5): each seat draws one of 3 red and 3 black cards; the seats that draw one
    colour are a team, so they sit two apart (seats 1-3-5 or 2-4-6).

    Raises:
        IllegalAction: a draw the rules do not allow: none under the ruleset, a seat's second, colours
            that do not make the teams (1-3-5 and 2-4-6), a draw after a play, a transfer or a declaration.
    """
    pos, rules, seat = s.pos, s.pos.ruleset, action.seat
    _suited_first(s, "draw (抽签组邦)", "team-draw", len(pos.drawn))
    if not rules.team_draw:
        raise s.illegal(
            "draw-not-allowed",
            "team-draw",
            "these rules do not draw the teams by colour (抽签组邦)",
            "本规则不按花色红黑抽签组邦",
        )
    red = action.suit in RED_SUITS
    for other, suit in pos.drawn:
        if other == seat:
            raise s.illegal("draw-wrong", "team-draw", f"seat {seat} has drawn already", f"{seat}号位已经抽过签了")
        if (suit in RED_SUITS) == red and team(other) != team(seat):
            colour = "red" if red else "black"
            raise s.illegal(
                "draw-teams",
                "team-draw",
                f"seats {other} and {seat} both drew {colour}: the seats of one colour are a team, "
                f"and sit two apart (1-3-5 or 2-4-6)",
                f"{other}号位和{seat}号位都抽到{'红' if red else '黑'}色：同色者为一个联邦，"
                "座位相隔一家（1-3-5或2-4-6）",
            )
        if (suit in RED_SUITS) != red and team(other) == team(seat):
            raise s.illegal(
                "draw-teams",
                "team-draw",
                f"seats {other} and {seat} drew different colours: team-mates (two apart) draw one colour",
                f"{other}号位和{seat}号位抽到的颜色不同：同一联邦（相隔一家）的应抽到同一颜色",
            )
    s.event(
        EventKind.DRAW,
        "team-draw",
        (seat,),
        action.cards,
        note="red" if red else "black",
        note_zh="红" if red else "黑",
    )
    return replace(pos, drawn=pos.drawn + (Drawn(seat, action.suit or ""),), actions=pos.actions + 1), s.events


def begin_play(pos: Position) -> tuple[Position, list[Event]]:
    """End the pre-play phase of ``pos`` (revolutions take effect, seats without 3s leave when 3s
    are held) and return the position the first play is made from, with its events. A position
    already in play is returned as it is."""
    if not pos.preplay:
        return pos, []
    s = Step(pos)
    return _start_play(s, pos), s.events


def _start_play(s: Step, pos: Position) -> Position:
    """The first play ends the pre-play phase: revolutions take effect (000 §革命)."""
    rules = pos.ruleset
    opened = pos.opened
    for seat in pos.revolted:
        if rules.revolution_opening == "at-once":
            opened = opened | {opposite(seat)}
            s.event(EventKind.OPEN, "keep-head", (opposite(seat),))
    pos = replace(pos, opened=opened)
    for seat in SEATS:  # with 3s held, a seat without one cannot finish
        if pos.void:  # a second revolution voided the hand: nobody else revolts or leaves
            break
        if pos.active(seat) and not pos.unknown[seat - 1]:
            fate = rules.fate_without_threes(pos.hands[seat - 1])
            if fate == "revolt":
                pos = _revolt(s, pos, seat)
            elif fate == "out":
                pos = go_out(s, pos, seat, "threes-held")
    if pos.void:
        return pos
    # every seat without a 3 has left (still before play, so the hand did not end on the way): the
    # hand may end now, else the melee may begin and the next seat lead for a leader that left
    pos = maybe_end(s, replace(pos, preplay=False))
    if pos.over:
        return pos
    if not pos.melee and melee_due(pos):
        pos = begin_melee(s, pos)
    if not pos.active(pos.to_act):
        pos = replace(pos, to_act=next_active(pos, pos.to_act))  # the leader left the hand: the next seat leads
    return pos


def play_begins(s: Step, seat: int) -> Position:
    """The first action in play, by ``seat``, ends the pre-play phase (:func:`begin_play`): every
    seat has drawn for the teams if any did (002 §5), the hand has not ended before play, and the
    seat that leads is the one the shows (上班) chose. Returns the position play begins from.

    Raises:
        IllegalAction: a seat has not drawn for the teams, the hand ended before play, or the wrong seat leads.
    """
    pos = s.pos
    if pos.drawn and len(pos.drawn) < len(SEATS):  # 002 §5: each of the six draws a card
        absent = [seat for seat in SEATS if seat not in {drawer for drawer, _ in pos.drawn}]
        missing = ", ".join(map(str, absent))
        raise s.illegal(
            "draw-wrong",
            "team-draw",
            f"every seat draws a card for the teams: seats {missing} did not",
            f"抽签组邦须六人各抽一张：{zh_seats(absent)}没有抽",
        )
    pos = s.pos = _start_play(s, pos)
    if pos.over:
        raise s.illegal(
            "hand-over",
            "hand-end",
            f"the hand ended before play; seat {seat} cannot act",
            f"这一局在出牌之前已经结束，{seat}号位不能行动",
        )
    if pos.shows and seat != pos.to_act:
        shower = _first_longest(pos.shows)
        why = (
            f"seat {shower} showed the most cards of one suit (上班)"
            if shower == pos.to_act
            else f"seat {shower} showed the most cards of one suit (上班) and left the hand: the next seat, "
            f"seat {pos.to_act},"
        )
        why_zh = (
            f"{shower}号位上班亮出的同花色牌最多，由{shower}号位首发"
            if shower == pos.to_act
            else f"{shower}号位上班亮出的同花色牌最多，但已离开本局：由下一家{pos.to_act}号位首发"
        )
        raise s.illegal("first-lead", "showing", f"{why} leads, not seat {seat}", f"{why_zh}，不是{seat}号位")
    return pos


__all__ = [
    "KEPT_HEAD_PLAYS",
    "begin_play",
    "declare",
    "draw",
    "give",
    "play_begins",
    "show",
]
