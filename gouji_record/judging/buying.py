"""Buying 3s and 4s (买三, 买四) and gifts (赠与) before play, checked per ruleset.

Under threes held (憋三) a seat without 3s cannot finish, and where opening is completed
by leading 4s (开点发4) a seat without 4s cannot open; the texts let such a seat get one
before play. The notation writes a purchase as ``buy 1>4:2 4>1:3`` (the price, then the
card bought back) and a gift as ``gift 4>1:3`` (docs/notation.md); they are not tribute
(:mod:`gouji_record.matches.match` leaves them aside), and they are checked in every hand, in a
match or not (:func:`check_buying`). The options are the ruleset's ``buy-*``,
``team-gives-free``, ``seller-keeps-one``, ``threes-before-fours``, ``buy-before-tribute``
and ``gift-from`` (docs/rules.md, "Buying 3s and 4s"):

- 000 §买三: with threes held, a seat without 3s must buy one with a 2 (a joker when it has
  no 2) from its opposite; if the opposite has no 3 to spare, from the opposite's team; if
  no enemy can sell, from its own team; before tribute (the phase list).
- 001 §61-§65: the same, with a 2 or a joker; from its own team it asks (要三), free.
- 002 §26(2): from the opposite, else the opposite's team, with a 2 (a joker without 2s).
- 003 §开点: 3s and 4s, with a 2 between opponents, free between team-mates; the opposite
  first, then the others.
- 004 §23-§28: 3s and 4s, one of each, only between opposites, if both want (自愿), with a
  2 or a joker the seat was dealt, 3s before 4s, before tribute (§35); a seat without the
  rank and without 2s and jokers is given one (§24 赠与): by its opposite, else a team-mate,
  else a neighbour.

>>> from gouji_record.rules.rulesets import get_ruleset
>>> buyable(get_ruleset("tournament")), buyable(get_ruleset("online"))
((0, 1), ())
"""

from __future__ import annotations

from ..bilingual import Bilingual, zh_seats
from .transfers import Holdings, transfers
from ..model import Action, ActionKind, GameRecord, preplay_items
from ..cards import BIG_JOKER, FOUR, SMALL_JOKER, THREE, TWO, Counts, format_cards, parse_cards
from ..rules.engine import SEATS, opposite, team
from ..rules.events import Diagnostic
from ..rules.rulesets import Ruleset

#: What buying a rank is called, in Chinese and English.
BUY_NAMES = {THREE: ("买三", "buying a 3"), FOUR: ("买四", "buying a 4")}
GIFT_NAMES = {THREE: ("赠与", "gift of a 3"), FOUR: ("赠与", "gift of a 4")}
_RANK_WORD = {THREE: "3", FOUR: "4"}
_TIER_WORDS = {
    "opposite": "its opposite",
    "opposite-team": "its opposite's team-mates",
    "team": "its team-mates",
    "others": "any other seat",
}
_TIER_ZH = {"opposite": "对头", "opposite-team": "对头的联邦", "team": "本联邦", "others": "其他任何一家"}


def trade_names(preplay) -> list[tuple[str, str] | None]:
    """Per pre-play action, what its purchase or gift is called, in Chinese and English (``买三``,
    ``buying a 3``; ``赠与``, ``gift of a 4``; a refusal ``拒绝``, ``refused``), or ``None`` for any other action."""
    out: list[tuple[str, str] | None] = []
    for purpose, items in preplay_items(tuple(preplay)):
        if purpose is None:
            out += [None] * len(items)
            continue
        cards = parse_cards(items[-1].cards)  # the card bought or given
        rank = THREE if cards[THREE] else FOUR if cards[FOUR] else None
        if purpose == "refuse":  # (a refusal, 拒绝: a tribute or a returned card, not a trade of 3s)
            names = ("拒绝", "refused")
        elif purpose == "buy":
            names = BUY_NAMES[rank] if rank is not None else ("买", "buying")
        else:
            names = GIFT_NAMES[rank] if rank is not None else ("赠与", "gift")
        out += [names] * len(items)
    return out


def buyable(rules: Ruleset) -> tuple[int, ...]:
    """The ranks a seat holding none may buy under ``rules``: 3s where 3s are held for last
    (``threes-held``), 4s where opening is completed by leading 4s (``opening-by-fours``)."""
    out = []
    if "3" in rules.buy_ranks and rules.threes_held:
        out.append(THREE)
    if "4" in rules.buy_ranks and rules.opening_by_fours:
        out.append(FOUR)
    return tuple(out)


def price_ranks(rules: Ruleset, payable: Counts) -> tuple[int, ...]:
    """The ranks that may pay for a card, for a seat that may pay with ``payable`` (``buy-price``)."""
    if rules.buy_price == "two":
        return (TWO,)
    if rules.buy_price == "two-first" and payable[TWO]:
        return (TWO,)
    if rules.buy_price == "two-first":
        return (SMALL_JOKER, BIG_JOKER)
    return (TWO, SMALL_JOKER, BIG_JOKER)


def can_pay(rules: Ruleset, payable: Counts) -> bool:
    """Whether a seat holding ``payable`` (what it may pay with) has a price."""
    return any(payable[r] for r in price_ranks(rules, payable))


def tier_seats(word: str, buyer: int) -> list[int]:
    """The seats a word of ``buy-from`` or ``gift-from`` names, for ``buyer``."""
    opp = opposite(buyer)
    if word == "opposite":
        return [opp]
    if word == "opposite-team":
        return [s for s in SEATS if team(s) == team(opp) and s != opp]
    if word == "team":
        return [s for s in SEATS if team(s) == team(buyer) and s != buyer]
    return [s for s in SEATS if s not in (buyer, opp)]  # others


def _able(rules: Ruleset, hand: Counts, rank: int) -> bool:
    return hand[rank] >= (2 if rules.seller_keeps_one else 1)


def suppliers(
    rules: Ruleset, tiers: tuple[str, ...], held: Holdings, known: list[bool], buyer: int, rank: int
) -> list[int]:
    """The seats that may sell (or give) ``buyer`` a card of ``rank`` now: those that can in the
    first of ``tiers`` where one can; a seat whose hand is not wholly known may always be the one
    (and then the tiers after it stay open)."""
    out: list[int] = []
    for word in tiers:
        seats = tier_seats(word, buyer)
        able = [s for s in seats if known[s - 1] and _able(rules, held.hands[s - 1], rank)]
        out += [s for s in seats if s in able or not known[s - 1]]
        if able:
            break
    return out


def sure_suppliers(
    rules: Ruleset, tiers: tuple[str, ...], held: Holdings, known: list[bool], buyer: int, rank: int
) -> list[int]:
    """The seats that certainly can sell (or give) ``buyer`` a card of ``rank``: those whose hands
    are known and can, in the first of ``tiers`` that has one."""
    for word in tiers:
        able = [s for s in tier_seats(word, buyer) if known[s - 1] and _able(rules, held.hands[s - 1], rank)]
        if able:
            return able
    return []


def _diag(rules: Ruleset, code: str, rule: str, message: str, zh: str, action: int | None) -> Diagnostic:
    """The diagnostic ``code`` under ``rule``: ``message`` in English, ``zh`` the same in Chinese."""
    return Diagnostic(code=code, message=message, message_zh=zh, action=action, rule=rule, source=rules.cite(rule))


def _order(tiers: tuple[str, ...]) -> str:
    words = [_TIER_WORDS[t] for t in tiers]
    return words[0] + "".join(f", else {w}" for w in words[1:])


def _price_words(rules: Ruleset) -> str:
    return {
        "two": "one 2",
        "two-first": "one 2, or one joker when it has no 2",
        "two-or-joker": "one 2, small joker or big joker",
    }[rules.buy_price]


def _price_zh(rules: Ruleset) -> str:
    return {"two": "一张钱", "two-first": "一张钱，没有钱时一张王", "two-or-joker": "一张钱、小王或大王"}[rules.buy_price]


class _Check:
    """The purchases and gifts of one record, in order, against ``rules``."""

    def __init__(self, rules: Ruleset, record: GameRecord) -> None:
        self.rules, self.record = rules, record
        self.held = Holdings.dealt(record.deal)
        self.known = ["?" not in h for h in record.deal]
        self.ranks = buyable(rules)
        self.notes: list[str] = []

    def lacks(self, seat: int, rank: int) -> bool:
        return self.known[seat - 1] and not self.held.hands[seat - 1][rank]

    def goods(
        self, cards: Counts, what: str, text: str, i: int, rule: str, at: int
    ) -> tuple[int | None, Diagnostic | None]:
        """The rank of the card a purchase or gift hands over (at pre-play action ``at``; the item
        starts at ``i``), or the problem with it."""
        rules = self.rules
        rank = THREE if cards[THREE] else FOUR if cards[FOUR] else None
        if sum(cards) != 1 or rank is None:
            hint = " (a purchase is written price first: buy 1>4:2 4>1:3)" if what == "purchase" else ""
            message = f"a {what} hands over one 3 or one 4, not {text}{hint}"
            hint_zh = "（买牌先写付出的牌，再写买到的牌）" if what == "purchase" else ""
            zh = f"{'买牌' if what == 'purchase' else '赠与'}只交一张3或一张4，不能是{text}{hint_zh}"
            return None, _diag(rules, "buy-wrong", rule, message, zh, at)
        if rank not in self.ranks:
            word = _RANK_WORD[rank]
            if word not in rules.buy_ranks:
                message = f"these rules have no buying or giving of {word}s ({BUY_NAMES[rank][0]})"
                zh = f"本规则不买卖、也不赠与{word}（没有{BUY_NAMES[rank][0]}）"
            elif rank == THREE:
                message = "a 3 is bought only where 3s are held for last (憋三, option threes-held)"
                zh = "只有憋三打法（3须留到最后出）才买3"
            else:
                message = "a 4 is bought only where opening is completed by leading 4s (开点发4, option opening-by-fours)"
                zh = "只有开点发4的打法才买4"
            return None, _diag(rules, "buy-not-allowed", "buying", message, zh, i)
        return rank, None

    def purchase(self, i: int, price, j: int, bought) -> Diagnostic | None:
        rules, held = self.rules, self.held
        buyer, seller = price.seat, price.to
        paid, cards = parse_cards(price.cards), parse_cards(bought.cards)
        rank, problem = self.goods(cards, "purchase", bought.plain_text, i, "buying", j)
        if problem is not None:
            return problem
        zh, en = BUY_NAMES[rank]
        word = _RANK_WORD[rank]
        if held.hands[buyer - 1][rank]:
            message = f"seat {buyer} holds a {word}: only a seat without {word}s buys one ({zh})"
            message_zh = f"{buyer}号位有{word}：只有手中没有{word}的才买（{zh}）"
            return _diag(rules, "buy-wrong", "buying", message, message_zh, i)
        payable = held.payable(rules, buyer)
        ranks = price_ranks(rules, payable)
        if sum(paid) != 1 or not any(paid[r] for r in ranks):
            message = f"{en} ({zh}) costs {_price_words(rules)}, not {price.plain_text}"
            message_zh = f"{zh}的价钱是{_price_zh(rules)}，而不是{price.plain_text}"
            return _diag(rules, "buy-wrong", "buying", message, message_zh, i)
        if self.known[buyer - 1] and rules.pay_from == "dealt" and not any(paid[r] and payable[r] for r in ranks):
            message = f"{en} ({zh}) is paid with a card seat {buyer} was dealt, not one it received: not {price.plain_text}"
            message_zh = f"{zh}须用{buyer}号位摸到的牌来付，不能用收到的牌：不能是{price.plain_text}"
            return _diag(rules, "buy-wrong", "buying", message, message_zh, i)
        allowed = suppliers(rules, rules.buy_from, held, self.known, buyer, rank)
        if seller not in allowed:
            message = f"seat {buyer} buys a {word} from {self.order(rules.buy_from, word)}: {self.who(allowed, seller)}"
            message_zh = (
                f"{buyer}号位买{word}的次序：{self.order_zh(rules.buy_from, word)}：{self.who_zh(allowed, seller)}"
            )
            return _diag(rules, "buy-wrong", "buying", message, message_zh, i)
        self.notes.append(
            Bilingual(
                f"{zh} ({en}): seat {buyer} buys a {word} from seat {seller}: {price.plain_text} {bought.plain_text}",
                f"{zh}：{buyer}号位向{seller}号位买一张{word}：{price.plain_text} {bought.plain_text}",
                en=f"{en}: seat {buyer} buys a {word} from seat {seller}: {price.plain_text} {bought.plain_text}",
            )
        )
        return None

    def gift(self, i: int, given) -> Diagnostic | None:
        rules, held = self.rules, self.held
        giver, taker = given.seat, given.to
        rank, problem = self.goods(parse_cards(given.cards), "gift", given.plain_text, i, "gift", i)
        if problem is not None:
            return problem
        zh, en = GIFT_NAMES[rank]
        word = _RANK_WORD[rank]
        if not rules.gift_from and not rules.team_gives_free:
            message = f"these rules have no gifts (赠与): a seat without {word}s buys one"
            message_zh = f"本规则没有赠与：没有{word}的一方要买"
            return _diag(rules, "buy-not-allowed", "gift", message, message_zh, i)
        if held.hands[taker - 1][rank]:
            message = f"seat {taker} holds a {word}: only a seat without {word}s is given one (赠与)"
            message_zh = f"{taker}号位有{word}：只有手中没有{word}的才获赠与"
            return _diag(rules, "buy-wrong", "gift", message, message_zh, i)
        allowed: list[int] = []
        if rules.gift_from and not (self.known[taker - 1] and can_pay(rules, held.payable(rules, taker))):
            allowed += suppliers(rules, rules.gift_from, held, self.known, taker, rank)
        if rules.team_gives_free:  # a team-mate's card costs nothing where its turn to sell comes
            sellers = suppliers(rules, rules.buy_from, held, self.known, taker, rank)
            allowed += [s for s in sellers if team(s) == team(taker)]
        if giver not in allowed:
            if rules.gift_from:
                why = (
                    f"a seat without {word}s and without a 2 or a joker it may pay with is given one by "
                    f"{self.order(rules.gift_from, word)}"
                )
                why_zh = f"既没有{word}、也没有可付的钱或王的一方，由以下各家赠与：{self.order_zh(rules.gift_from, word)}"
            else:
                why = f"a team-mate gives a {word} where it may sell one: {self.order(rules.buy_from, word)}"
                why_zh = f"队友在轮到它卖{word}时赠与：{self.order_zh(rules.buy_from, word)}"
            rule = "gift" if rules.gift_from else "buying"
            message, message_zh = f"{why}: {self.who(allowed, giver)}", f"{why_zh}：{self.who_zh(allowed, giver)}"
            return _diag(rules, "buy-wrong", rule, message, message_zh, i)
        self.notes.append(
            Bilingual(
                f"{zh} ({en}): seat {giver} gives seat {taker} a {word}: {given.plain_text}",
                f"{zh}：{giver}号位给{taker}号位一张{word}：{given.plain_text}",
                en=f"{en}: seat {giver} gives seat {taker} a {word}: {given.plain_text}",
            )
        )
        return None

    def order(self, tiers: tuple[str, ...], word: str) -> str:
        need = "two or more" if self.rules.seller_keeps_one else "one"
        if len(tiers) == 1:
            return f"{_TIER_WORDS[tiers[0]]} only, when it holds {need}"
        return f"{_order(tiers)}, the next only when no seat before holds {need} {word}s"

    def order_zh(self, tiers: tuple[str, ...], word: str) -> str:
        need = "两张以上" if self.rules.seller_keeps_one else "一张"
        if len(tiers) == 1:
            return f"只有{_TIER_ZH[tiers[0]]}，且须持有{need}{word}"
        return f"依次为{'、'.join(_TIER_ZH[t] for t in tiers)}，前面都没有{need}{word}时才轮到后面"

    @staticmethod
    def who(allowed: list[int], seat: int) -> str:
        if not allowed:
            return f"here no seat can, not seat {seat}"
        return f"here seat {', '.join(map(str, allowed))}, not seat {seat}"

    @staticmethod
    def who_zh(allowed: list[int], seat: int) -> str:
        if not allowed:
            return f"此时没有一家可以，不是{seat}号位"
        return f"此时应是{zh_seats(allowed)}，不是{seat}号位"

    def missing(self, at: int, revolted: set[int]) -> Diagnostic | None:
        """A seat that had to buy a card, or be given one, and was not."""
        rules, held = self.rules, self.held
        for rank in self.ranks:
            word = _RANK_WORD[rank]
            for seat in SEATS:
                if seat in revolted or not self.lacks(seat, rank):
                    continue
                if rules.buy_required and can_pay(rules, held.payable(rules, seat)):
                    sellers = sure_suppliers(rules, rules.buy_from, held, self.known, seat, rank)
                    if sellers:
                        message = (
                            f"seat {seat} holds no {word} and must buy one ({BUY_NAMES[rank][0]}): seat "
                            f"{', '.join(map(str, sellers))} can sell it"
                        )
                        zh = f"{seat}号位没有{word}，必须{BUY_NAMES[rank][0]}：{zh_seats(sellers)}可以卖"
                        return _diag(rules, "buy-missing", "buying", message, zh, at)
                elif rules.gift_from and not can_pay(rules, held.payable(rules, seat)):
                    givers = sure_suppliers(rules, rules.gift_from, held, self.known, seat, rank)
                    if givers:
                        message = (
                            f"seat {seat} holds no {word} and no 2 or joker to buy one: seat "
                            f"{', '.join(map(str, givers))} gives it one (赠与)"
                        )
                        zh = f"{seat}号位没有{word}，也没有钱或王可买：应由{zh_seats(givers)}赠与"
                        return _diag(rules, "buy-missing", "gift", message, zh, at)
        return None


def check_buying(rules: Ruleset, record: GameRecord) -> tuple[list[str], list[Diagnostic]]:
    """Check the purchases and gifts in ``record``'s pre-play section under ``rules``.

    Returns notes for people and the first problem: ``buy-not-allowed`` (a purchase or gift the
    rules do not have), ``buy-wrong`` (a card other than one 3 or one 4, a buyer that holds the
    rank, a wrong price, a seller whose turn has not come), ``buy-late`` (after tribute, or a 3
    after a 4, where the text orders them), ``buy-missing`` (a seat that had to buy, or be given,
    a card and was not: only where every hand concerned is known). Problems are located at the
    pre-play action (``buy-missing`` after buying: at the first tribute, or after the last
    pre-play action).
    """
    moves = transfers(record)
    if not buyable(rules) and all(role in ("tribute", "refused") for _, _, role in moves):
        return [], []  # no purchase or gift, and none the rules could require (half of the presets)
    check = _Check(rules, record)
    revolted = {a.seat for a in record.preplay if a.kind is ActionKind.REVOLT}
    end = len(record.preplay)
    tribute_seen = four_bought = False
    price = None
    before_tribute = None  # the holdings when buying ends, where it comes before tribute
    for i, a, role in moves:
        cards = parse_cards(a.cards)
        if role in ("tribute", "refused"):  # (a refusal is part of tribute, and moves no card)
            if not tribute_seen and rules.buy_before_tribute:
                end, before_tribute = i, check.held
            tribute_seen = True
            if role == "tribute" and before_tribute is None:  # (else buying is over: held is not read)
                check.held = check.held.move(a.seat, a.to, cards, payment=True)
            continue
        if role == "price":
            price = (i, a)
            continue
        first = price[0] if role == "bought" and price is not None else i
        if tribute_seen and rules.buy_before_tribute:
            message = f"buying and gifts (买三, 买四, 赠与) come before tribute: {a.plain_text} after it"
            zh = f"买三、买四和赠与须在进贡之前：{a.plain_text}却在进贡之后"
            return check.notes, [_diag(rules, "buy-late", "buying", message, zh, first)]
        if role == "bought" and price is not None:
            problem = check.purchase(price[0], price[1], i, a)
            if problem is None and rules.threes_before_fours and cards[THREE] and four_bought:
                message = "买三 comes before 买四: every 3 is bought before any 4"
                problem = _diag(rules, "buy-late", "buying", message, "先买三后买四：所有3都须在4之前买", first)
            if problem is not None:
                return check.notes, [problem]
            four_bought = four_bought or bool(cards[FOUR])
            check.held = check.held.move(price[1].seat, price[1].to, parse_cards(price[1].cards), payment=True)
            price = None
        else:
            problem = check.gift(i, a)
            if problem is not None:
                return check.notes, [problem]
        check.held = check.held.move(a.seat, a.to, cards)
    if before_tribute is not None:
        check.held = before_tribute
    problem = check.missing(end, revolted)
    return check.notes, [problem] if problem is not None else []


def plan_buying(rules: Ruleset, dealt: tuple[str, ...], voluntary: bool = True) -> tuple:
    """The purchases and gifts a table makes from the deal ``dealt``, as the bots make them:
    every one the rules require, and with ``voluntary`` those they allow (004 §23), seat by
    seat, 3s before 4s, until nobody buys (under ``pay-from=hand`` a 2 received for a card sold
    may pay for the next); the seller is the first that can in the rules' order, a team-mate
    gives where ``team-gives-free``, the price is the cheapest card allowed (a 2 before a small
    joker before a big joker). Returns the pre-play actions (:class:`~gouji_record.model.Action`),
    which :func:`check_buying` accepts."""
    held = Holdings.dealt(dealt)
    known = [True] * 6
    out: list = []

    def give(giver: int, taker: int, rank: int, purpose: str, payment: bool = False) -> None:
        nonlocal held
        cards = tuple(1 if r == rank else 0 for r in range(len(held.hands[0])))
        out.append(Action(seat=giver, kind=ActionKind.GIVE, to=taker, cards=format_cards(cards), purpose=purpose))
        held = held.move(giver, taker, cards, payment=payment)

    def get(seat: int, rank: int) -> None:
        payable = held.payable(rules, seat)
        if can_pay(rules, payable) and (rules.buy_required or voluntary):
            sellers = sure_suppliers(rules, rules.buy_from, held, known, seat, rank)
            if not sellers:
                return
            if rules.team_gives_free and team(sellers[0]) == team(seat):
                give(sellers[0], seat, rank, "gift")
                return
            price = next(r for r in (TWO, SMALL_JOKER, BIG_JOKER) if r in price_ranks(rules, payable) and payable[r])
            give(seat, sellers[0], price, "buy", payment=True)
            give(sellers[0], seat, rank, "buy")
        elif rules.gift_from and not can_pay(rules, payable):
            givers = sure_suppliers(rules, rules.gift_from, held, known, seat, rank)
            if givers:
                give(givers[0], seat, rank, "gift")

    done = -1
    while done != len(out):
        done = len(out)
        for rank in buyable(rules):
            for seat in SEATS:
                if not held.hands[seat - 1][rank]:
                    get(seat, rank)
    return tuple(out)


__all__ = [
    "BUY_NAMES",
    "GIFT_NAMES",
    "buyable",
    "check_buying",
    "plan_buying",
    "price_ranks",
    "suppliers",
    "trade_names",
]

