"""Matches (多局): hands in a row, the tribute between them, the first lead, the match score.

A match is a run of records with the same ``Match`` tag, numbered by their
``Hand`` tags. What one hand owes the next — 闷贡, 烧贡/捎贡, 点贡 by the calls
made, 落贡 or after a sweep 对头贡, and the returns (还贡) — is derived from
the previous hand's final position under the ruleset (:func:`tribute_due`),
then checked against the transfers recorded in the next hand's pre-play
section (:func:`check_transfers`). Tribute is paid with the giver's highest
big jokers, small jokers and 2s, from the new deal; a giver without them owes
nothing more (免贡). Sources are cited per rule key in the rulesets.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import partial
from typing import NamedTuple

from ..bilingual import Bilingual
from ..model import ActionKind, GameRecord
from ..judging.lead import first_leader
from ..judging.replay import Replay
from ..judging.transfers import Holdings, transfers, tribute_transfers
from ..cards import BIG_JOKER, RANK_LETTERS, SMALL_JOKER, TWO, Counts, format_cards, parse_cards
from ..rules.engine import SEATS, Position, begin_play, opposite, team
from ..rules.events import Diagnostic
from ..rules.rulesets import Ruleset
from ..rules.scoring import final_places

#: What each kind of tribute is called, in Chinese and English.
KIND_NAMES = {
    "smother": ("闷贡", "smother tribute"),
    "burn": ("烧贡", "burn tribute"),
    "point": ("点贡", "point tribute"),
    "place": ("落贡", "place tribute"),
    "sweep": ("对头贡", "sweep tribute"),
    "return": ("还贡", "return"),
    "refused": ("拒贡", "tribute refused"),
    "return-refused": ("拒收还贡", "return refused"),
}
_RULE = {
    "smother": "smother-tribute",
    "burn": "burn-tribute",
    "point": "point-tribute",
    "place": "place-tribute",
    "sweep": "place-tribute",
    "return": "return-tribute",
    "refused": "tribute-refusal",
    "return-refused": "tribute-refusal",
}


@dataclass(frozen=True)
class Due:
    """One tribute owed: ``giver`` pays ``taker`` ``count`` cards of ``kind``.

    ``optional``: the text lets the seats agree not to pay it (between
    team-mates, or mutual point tribute in 004 §31, where the two directions
    are one decision: :class:`_Search` pays both or neither).
    """

    kind: str
    giver: int
    taker: int
    count: int
    optional: bool = False

    def __str__(self) -> str:
        zh, en = KIND_NAMES[self.kind]
        return f"{zh} ({en}): seat {self.giver} to seat {self.taker}, {self.count} card(s)"

    @property
    def en(self) -> str:
        """The due in English alone: ``place tribute: seat 1 to seat 3, 2 card(s)``."""
        return f"{KIND_NAMES[self.kind][1]}: seat {self.giver} to seat {self.taker}, {self.count} card(s)"

    @property
    def zh(self) -> str:
        """The due in Chinese: ``落贡：1号位给3号位2张``."""
        return f"{KIND_NAMES[self.kind][0]}：{self.giver}号位给{self.taker}号位{self.count}张"


def _calls(prev: Position) -> dict[int, str]:
    return dict(prev.calls)


def _point_dues(rules: Ruleset, prev: Position) -> list[Due]:
    """点贡 for each pair of opposites, by who opened and what was called, from the ruleset's
    table (option ``point-table``: :data:`POINT_TABLES`)."""
    opened, calls = prev.opened, _calls(prev)
    table = POINT_TABLES[rules.point_table]
    dues: list[Due] = []
    for a in SEATS:  # what seat a owes its opposite b
        b = opposite(a)
        a_open, b_open = a in opened, b in opened
        n = table(a_open, b_open, calls.get(a), calls.get(b))
        if n:
            mutual = rules.mutual_point_optional and not a_open and not b_open
            dues.append(Due("point", a, b, n, optional=mutual))
    return dues


Call = str | None  # "call" (宣点, 明点), "precall" (预点) or None


def _by_calls(fail: dict[str, int], a_open: bool, b_open: bool, a_call: Call, b_call: Call) -> int:
    """000 §点贡, 002 §24: a seat that did not open pays its opposite 1 card, 2 if the opposite
    called (明点), 4 if it precalled (预点); a seat whose own call failed (the opposite opened:
    吹牛上税, 翻车) pays ``fail[call]`` instead."""
    if a_call is not None and b_open:
        return fail[a_call]
    return 0 if a_open else {None: 1, "call": 2, "precall": 4}[b_call]


def _classic_point(a_open: bool, b_open: bool, a_call: Call, b_call: Call) -> int:
    """Cards a pays its opposite b under 001 §32-§34 (宣點 by either side)."""
    a_called, b_called = a_call is not None, b_call is not None
    if a_called and b_called:
        return 4 if (b_open and not a_open) else 2 if a_open == b_open else 0
    if not a_called and not b_called:
        return 1 if not a_open else 0
    if a_called:  # a called, b did not: from a's side of §34
        if a_open and b_open:
            return 2
        if not a_open and not b_open:
            return 1
        return 3 if not a_open else 0
    # b called, a did not: §34 from b's side
    if not a_open and not b_open:
        return 2
    return 3 if (b_open and not a_open) else 0


def _one_card(a_open: bool, b_open: bool, a_call: Call, b_call: Call) -> int:
    """004 §31: a seat that did not open pays its opposite one card; there are no calls."""
    return 0 if a_open else 1


#: The tables of point tribute (点贡), by the name option ``point-table`` gives them: cards seat a
#: pays its opposite b, from whether each opened and what each called.
POINT_TABLES = {
    "calls-fail-4-8": partial(_by_calls, {"call": 4, "precall": 8}),  # 000 §点贡
    "calls-fail-2-4": partial(_by_calls, {"call": 2, "precall": 4}),  # 002 §24
    "who-called": _classic_point,  # 001 §32-§34
    "one-card": _one_card,  # 004 §31
}


class Payment(Bilingual):
    """The note of a transfer the tribute check explains (``落贡 paid: 1>3:22``), with the ``kind``
    it pays (a key of :data:`KIND_NAMES`) and the pre-play ``action`` it is."""

    kind: str
    action: int


def tribute_due(rules: Ruleset, prev: Position) -> list[Due]:
    """What the hand that ended at ``prev`` owes before the next, kind by kind in the ruleset's order.

    Nothing after a void hand, nothing when the ruleset has no tribute. After a sweep the place
    tribute is not paid: each swept seat pays its opposite one card (对头贡) where the text has it
    (``sweep-tribute``), and the other kinds are paid as after any hand where the text keeps them
    (``sweep-keeps-tribute``: 004 §30 changes only 落贡); under the other texts a sweep ends the
    tribute (000 §串三户, 001 §72, 002 §21(7)).

    Raises:
        ValueError: ``prev`` is not over.
    """
    if not prev.over:
        raise ValueError("tribute follows a finished hand")
    if prev.void or not rules.tribute_order:
        return []
    places = final_places(prev)
    swept = len({team(s) for s in places[:3]}) == 1
    dues: list[Due] = []
    for kind in rules.tribute_order:
        if swept and kind != "place" and not rules.sweep_keeps_tribute:
            continue
        if kind == "smother":
            dues += [Due("smother", seat, by, 1) for by, seat in prev.smothers]
        elif kind == "burn":
            dues += [Due("burn", target, burner, 1) for burner, target, outcome in prev.burns if rules.burn_counts(outcome)]
        elif kind == "point":
            dues += _point_dues(rules, prev)
        elif swept:
            if rules.sweep_tribute:
                dues += [Due("sweep", s, opposite(s), 1) for s in SEATS if team(s) != team(places[0])]
        else:
            for giver, taker, n in ((places[5], places[0], 2), (places[4], places[1], 1)):
                dues.append(Due("place", giver, taker, n, optional=team(giver) == team(taker)))
    return dues


def tribute_cards(hand: Counts, count: int) -> Counts:
    """The highest ``count`` legal tribute cards of ``hand``: big jokers, then small jokers, then 2s
    (002 §21(1)); fewer if the hand has fewer (免贡 for the rest)."""
    out = [0] * len(hand)
    for rank in (BIG_JOKER, SMALL_JOKER, TWO):
        take = min(hand[rank], count)
        out[rank], count = take, count - take
    return tuple(out)


def exempt(rules: Ruleset, deal: list[Counts], seat: int) -> bool:
    """抗贡 (004 §37): four big jokers exempt the seat's team, four small jokers the seat."""
    if not rules.tribute_exemption:
        return False
    return deal[seat - 1][SMALL_JOKER] >= 4 or any(deal[m - 1][BIG_JOKER] >= 4 for m in _MATES[seat])


#: Each seat's team (联邦), itself among them.
_MATES = {seat: tuple(s for s in SEATS if team(s) == team(seat)) for seat in SEATS}


@dataclass
class HandInMatch:
    """One hand's place in its match: its tribute checked, its first lead checked, the running score.
    ``kinds``: per pre-play action, the kind of tribute its transfer pays as the check explained
    it (:func:`transfer_kinds`'s list, not worked out again), or ``None`` when the hand before is
    not there to judge it by (the match's first hand, an excerpt's, one after an unfinished hand).
    ``notes`` are English (as ``gouji validate`` prints them), each with ``.zh`` and ``.en`` (the
    English alone) for the replay page (:class:`~gouji_record.bilingual.Bilingual`)."""

    number: int
    replay: Replay
    dues: list[Due] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    standings: dict[int, int] = field(default_factory=dict)
    seat_totals: dict[int, int] = field(default_factory=dict)
    kinds: list[str | None] | None = None


def _diag(rules: Ruleset, code: str, rule: str, message: str, zh: str, action: int | None) -> Diagnostic:
    """The diagnostic ``code`` under ``rule``: ``message`` in English, ``zh`` the same in Chinese."""
    return Diagnostic(code=code, message=message, message_zh=zh, action=action, rule=rule, source=rules.cite(rule))


#: How bad a failure to explain a transfer is, to report the most telling one.
_WRONG, _ORDER, _RETURN, _EXTRA = 4, 3, 2, 1


@dataclass(frozen=True)
class _Fail:
    depth: int  # transfers explained before it
    weight: int
    diagnostic: Diagnostic


class _State(NamedTuple):
    """Where a reading of the section stands."""

    k: int  # next transfer
    status: tuple[str, ...]  # per due: u unpaid, p paid, s not paid (optional), w waived (免贡), r refused
    owed: tuple[int, ...]  # per due: cards of its return still owed (-1: returned)
    returning: bool  # a return was made: under return-after=all-tribute no tribute follows
    held: Holdings


class _Search:
    """Explain the transfers of one pre-play section as the tribute ``dues`` and their returns.

    The texts fix the order of the kinds (``tribute-order``) and when the returns come
    (``return-after``), not the order of the pairs within one kind: every order that keeps to the
    kinds' order is accepted. A transfer may fit several dues (a seat owing its opposite point
    tribute and burn tribute, a payment that is a due or a return), so the search tries each
    reading and keeps one that explains every transfer and settles every due; failing that, the
    reading that went furthest names the problem.
    """

    def __init__(self, rules: Ruleset, dues: list[Due], record: GameRecord, payments) -> None:
        self.rules, self.dues, self.record = rules, dues, record
        self.transfers = payments
        order = rules.tribute_order
        self.rank = [order.index("place" if d.kind == "sweep" else d.kind) for d in dues]
        # 互进点贡 where the text makes it optional (004 §31) is one decision for both directions:
        # each optional point due's partner, the one going back between the same two seats
        mutual = [(j, d) for j, d in enumerate(dues) if d.optional and d.kind == "point"]
        self.partner = {j: i for j, d in mutual for i, e in mutual if (e.giver, e.taker) == (d.taker, d.giver)}
        # the dues between each giver and taker, in order, and of each due the ones alike before it:
        # a transfer is read only as the dues of its two seats
        self.between: dict[tuple[int, int], list[int]] = {}
        self.alike: list[list[int] | tuple[()]] = []
        for j, d in enumerate(dues):
            seats = self.between.setdefault((d.giver, d.taker), [])
            self.alike.append([i for i in seats if dues[i] == d] if seats else ())
            seats.append(j)
        # what each state reached leads to, by all of it but the holdings (the readings that reach one
        # transfer with the same dues settled are few), then the holdings it was reached with: most
        # sections are read one way, and their states are never compared
        self.memo: dict[tuple, list[tuple[Holdings, list[str] | _Fail]]] = {}

    # -- the steps ---------------------------------------------------------------------------

    def settle(self, st: _State, below: int) -> tuple[list[str], list[str], int | None]:
        """Dues of a kind before ``below`` that are still unpaid: optional ones are left unpaid,
        those whose giver holds no tribute card are waived (免贡); any other blocks (its index)."""
        status, notes = list(st.status), []
        for j, d in enumerate(self.dues):
            if status[j] != "u" or self.rank[j] >= below:
                continue
            zh, en = KIND_NAMES[d.kind]
            if d.optional and status[self.partner.get(j, j)] != "p":  # (once one of 互进点贡 is paid, both are)
                status[j] = "s"
                notes.append(
                    Bilingual(
                        f"{zh} not paid: {d} (the text lets them agree)",
                        f"{zh}未进：{d.zh}（规则允许双方商定不进）",
                        en=f"{en} not paid: {d.en} (the text lets them agree)",
                    )
                )
            elif not any(tribute_cards(st.held.payable(self.rules, d.giver), d.count)):
                status[j] = "w"
                dealt = self.rules.pay_from == "dealt"
                notes.append(
                    Bilingual(
                        f"{zh} waived: seat {d.giver} holds no big joker, small joker or 2 {self.whose()}(免贡)",
                        f"{zh}免贡：{d.giver}号位{'摸到的牌中' if dealt else ''}没有大王、小王或钱",
                        en=f"{en} waived: seat {d.giver} holds no big joker, small joker or 2"
                        + (" it was dealt" if dealt else ""),
                    )
                )
            else:
                return status, notes, j
        return status, notes, None

    def bound(self, status, j: int) -> tuple[str, str]:
        """Why due ``j`` is owed although optional, as a clause in English and Chinese (``("", "")``
        when it is not): its partner in 互进点贡 was paid, and the two are one decision (004 §31
        "由走牌顺序靠后的玩家…决定双方是否互进点贡")."""
        i = self.partner.get(j)
        if i is None or status[i] != "p":
            return "", ""
        d = self.dues[i]
        en = (
            f" (seat {d.giver} paid seat {d.taker} its point tribute, and whether the two pay each other is one "
            "decision: both pay or neither does)"
        )
        return en, f"（{d.giver}号位已向{d.taker}号位进点贡，是否互进点贡是一个决定：双方都进，或都不进）"

    def whose(self) -> str:
        return "it was dealt " if self.rules.pay_from == "dealt" else ""

    def expected(self, st: _State, j: int) -> Counts:
        d = self.dues[j]
        return tribute_cards(st.held.payable(self.rules, d.giver), d.count)

    def run(self, st: _State) -> list[str] | _Fail:
        key = st[:4]
        seen = self.memo.get(key)
        if seen is None:
            seen = self.memo[key] = []
        for held, out in seen:
            if held == st.held:
                return out
        out = self._run(st)  # (every state it reaches is further on: ``seen`` is not changed meanwhile)
        seen.append((st.held, out))
        return out

    def _run(self, st: _State) -> list[str] | _Fail:
        rules = self.rules
        k, held = st.k, st.held
        while k < len(self.transfers) and self.transfers[k][2] not in ("tribute", "refused"):
            _, a, role = self.transfers[k]  # buying (买三, 买四) and gifts (赠与) move cards, and owe nothing
            held, k = held.move(a.seat, a.to, parse_cards(a.cards), payment=role == "price"), k + 1
        if k != st.k:
            st = _State(k, st.status, st.owed, st.returning, held)
        if st.k == len(self.transfers):
            return self.finish(st)
        a = self.transfers[st.k][1]
        if self.transfers[st.k][2] == "refused":
            return self.refusal(st, a)
        cards = parse_cards(a.cards)
        at = self.at(st)
        fails: list[_Fail] = []
        # a return (还贡) of a place tribute paid before
        for j in self.between.get((a.to, a.seat), ()):
            if st.owed[j] <= 0 or self.alike[j] and any(st.owed[i] == st.owed[j] for i in self.alike[j]):
                continue
            d = self.dues[j]
            status, notes = st.status, []
            if rules.return_after == "all-tribute" and not st.returning:
                settled, notes, blocker = self.settle(st, len(rules.tribute_order))
                status = tuple(settled)
                if blocker is not None:
                    message = (
                        f"the returns (还贡) follow once all tribute is paid: {self.dues[blocker]} is owed first: "
                        f"expected {self.text(st, blocker)}"
                    )
                    zh = f"所有贡都进完才还贡：须先进{self.dues[blocker].zh}：应为{self.text(st, blocker)}"
                    diag = _diag(rules, "tribute-missing", "return-tribute", message, zh, at)
                    fails.append(_Fail(st.k, _ORDER, diag))
                    continue
            if sum(cards) != st.owed[j]:
                returned = self.returned(d, st.owed[j])
                message, zh = f"{returned}, not {a.text}", f"{returned.zh}，而不是{a.text}"
                fails.append(_Fail(st.k, _RETURN, _diag(rules, "tribute-missing", "return-tribute", message, zh, at)))
                continue
            owed = st.owed[:j] + (-1,) + st.owed[j + 1 :]
            rest = self.run(_State(st.k + 1, status, owed, True, st.held.move(a.seat, a.to, cards)))
            if isinstance(rest, list):
                text = a.text
                paid = Payment(f"还贡 paid: {text}", f"已还贡：{text}", en=f"returned: {text}")
                paid.kind, paid.action = "return", at
                return [*notes, paid, *rest]
            fails.append(rest)
        # a tribute due (of dues alike, the first unpaid: which one is paid makes no difference)
        for j in self.between.get((a.seat, a.to), ()):
            if st.status[j] != "u" or self.alike[j] and any(st.status[i] == "u" for i in self.alike[j]):
                continue
            d = self.dues[j]
            zh, en = KIND_NAMES[d.kind]
            if st.returning and rules.return_after == "all-tribute":
                message = f"{a.text}: the returns (还贡) come once all tribute is paid, and no tribute after them"
                zh = f"{a.text}：还贡在所有贡都进完之后，还贡之后不再进贡"
                fails.append(_Fail(st.k, _EXTRA, _diag(rules, "tribute-extra", "return-tribute", message, zh, at)))
                continue
            settled, notes, blocker = self.settle(st, self.rank[j])
            if blocker is not None:
                why, why_zh = self.bound(st.status, blocker)
                message = (
                    f"{self.dues[blocker]} is owed before {zh}{why} (the order is {self.order()}): "
                    f"expected {self.text(st, blocker)} before {a.text}"
                )
                message_zh = (
                    f"{zh}之前须先进{self.dues[blocker].zh}{why_zh}（顺序是{self.order()}）："
                    f"{a.text}之前应为{self.text(st, blocker)}"
                )
                diag = _diag(rules, "tribute-missing", "tribute", message, message_zh, at)
                fails.append(_Fail(st.k, _ORDER, diag))
                continue
            want = self.expected(st, j)
            if not any(want):  # nothing to pay it with (免贡): this transfer pays something else
                continue
            if cards != want:
                dealt = rules.pay_from == "dealt"
                which = "the seat was dealt (not those it received)" if dealt else "of its hand"
                expected = f"{d.giver}>{d.taker}:{format_cards(want)}"
                message = (
                    f"{en} ({zh}) is paid with the highest big jokers, small jokers and 2s {which}: "
                    f"expected {expected}, not {a.text}"
                )
                which_zh = "摸到的牌（不是收到的牌）中" if dealt else "手中"
                message_zh = f"{zh}须用{which_zh}最大的大王、小王和钱来进：应为{expected}，而不是{a.text}"
                diag = _diag(rules, "tribute-wrong", "tribute-cards", message, message_zh, at)
                fails.append(_Fail(st.k, _WRONG, diag))
                continue
            settled[j] = "p"
            owed = st.owed
            if d.kind == "place" and rules.return_tribute:
                owed = owed[:j] + (sum(cards),) + owed[j + 1 :]
            held = st.held.move(a.seat, a.to, cards, payment=True)
            rest = self.run(_State(st.k + 1, tuple(settled), owed, st.returning, held))
            if isinstance(rest, list):
                text = a.text
                paid = Payment(f"{zh} paid: {text}", f"{zh}已进：{text}", en=f"{en} paid: {text}")
                paid.kind, paid.action = d.kind, at
                return [*notes, paid, *rest]
            fails.append(rest)
        if not fails:
            message, zh = f"{a.text} is not owed by the last hand", f"上一局并不欠{a.text}"
            fails.append(_Fail(st.k, _EXTRA, _diag(rules, "tribute-extra", "tribute", message, zh, at)))
        return max(fails, key=lambda f: (f.depth, f.weight))

    def refusal(self, st: _State, a) -> list[str] | _Fail:
        """A refusal (``refuse G>T:cards``, 拒绝): a tribute its taker refuses (000 §进贡 "所有吃贡者可
        拒绝吃贡": offered as owed, then not owed, and nothing comes back for it), or a returned
        card its receiver refuses (002 §21(4) "若进贡一方没有与还贡牌点数相同的牌，可拒绝此张还贡牌请
        吃贡方换": a seat holding no card of that rank; the return is still owed). No card moves.
        Where the rules allow neither (``refuse-tribute``, ``refuse-return``), ``refusal-not-allowed``."""
        rules, cards, at = self.rules, parse_cards(a.cards), self.at(st)
        said = f"拒绝 {a.plain_text}"  # (the item in Chinese, for the messages in Chinese)
        fails: list[_Fail] = []

        def not_allowed(what: str, what_zh: str, weight: int) -> None:
            message = f"{a.text}: the rules give no refusal of {what}; it is owed"
            zh = f"{said}：规则没有{what_zh}，仍须照付"
            fails.append(_Fail(st.k, weight, _diag(rules, "refusal-not-allowed", "tribute-refusal", message, zh, at)))

        for j, d in enumerate(self.dues):  # a returned card refused: the seat that paid refuses it
            if st.owed[j] <= 0 or (d.taker, d.giver) != (a.seat, a.to):
                continue
            if not rules.refuse_return:
                not_allowed("a returned card (还贡)", "拒绝还贡牌", _WRONG)
                continue
            held = st.held.hands[a.to - 1]
            have = [RANK_LETTERS[r] for r, n in enumerate(cards) if n and held[r]]
            if sum(cards) > st.owed[j] or have:
                why = f"seat {a.to} holds {'/'.join(have)}" if have else f"only {st.owed[j]} card(s) are owed back"
                why_zh = f"{a.to}号位有{'/'.join(have)}" if have else f"只欠还{st.owed[j]}张"
                message = (
                    f"{a.text}: a returned card is refused only by a seat that holds no card of its rank, "
                    f"to have it changed: {why}"
                )
                zh = f"{said}：只有手中没有与还贡牌点数相同的牌才可拒绝此张还贡牌：{why_zh}"
                fails.append(_Fail(st.k, _WRONG, _diag(rules, "refusal-not-allowed", "tribute-refusal", message, zh, at)))
                continue
            rest = self.run(_State(st.k + 1, st.status, st.owed, st.returning, st.held))
            if isinstance(rest, list):
                note = Payment(f"还贡 refused: {a.text}", f"拒收还贡：{said}", en=f"return refused: {a.text}")
                note.kind, note.action = "return-refused", at
                return [note, *rest]
            fails.append(rest)
        for j, d in enumerate(self.dues):  # a tribute refused by its taker
            if st.status[j] != "u" or (d.giver, d.taker) != (a.seat, a.to):
                continue
            if any(st.status[i] == "u" and self.dues[i] == d for i in range(j)):
                continue
            zh, en = KIND_NAMES[d.kind]
            if not rules.refuse_tribute:
                not_allowed(f"{en} ({zh})", f"拒绝吃{zh}", _WRONG)
                continue
            settled, notes, blocker = self.settle(st, self.rank[j])
            if blocker is not None:
                message = f"{self.dues[blocker]} is owed before {zh} (the order is {self.order()}): before {a.text}"
                message_zh = f"{zh}之前须先进{self.dues[blocker].zh}（顺序是{self.order()}）：在{said}之前"
                fails.append(_Fail(st.k, _ORDER, _diag(rules, "tribute-missing", "tribute", message, message_zh, at)))
                continue
            want = self.expected(st, j)
            if not any(want):  # nothing to pay it with (免贡): nothing to refuse
                continue
            if cards != want:
                expected = f"{d.giver}>{d.taker}:{format_cards(want)}"
                message = f"a refused {en} ({zh}) is the tribute as owed: expected refuse {expected}, not {a.text}"
                message_zh = f"拒绝的{zh}就是应进的贡：应为拒绝 {expected}，而不是{said}"
                fails.append(_Fail(st.k, _WRONG, _diag(rules, "tribute-wrong", "tribute-cards", message, message_zh, at)))
                continue
            settled[j] = "r"
            rest = self.run(_State(st.k + 1, tuple(settled), st.owed, st.returning, st.held))
            if isinstance(rest, list):
                note = Payment(f"{zh} refused: {a.text}", f"{zh}被拒：{said}", en=f"{en} refused: {a.text}")
                note.kind, note.action = "refused", at
                return [*notes, note, *rest]
            fails.append(rest)
        if not fails:
            message = f"{a.text}: seat {a.seat} owes seat {a.to} no tribute and no return to refuse"
            zh = f"{said}：{a.seat}号位并不欠{a.to}号位贡或还贡，无可拒绝"
            fails.append(_Fail(st.k, _EXTRA, _diag(rules, "tribute-extra", "tribute-refusal", message, zh, at)))
        return max(fails, key=lambda f: (f.depth, f.weight))

    def finish(self, st: _State) -> list[str] | _Fail:
        """Every transfer is explained: what is still owed?"""
        rules, at = self.rules, self.at(st)
        _, notes, blocker = self.settle(st, len(rules.tribute_order))
        if blocker is not None:
            d = self.dues[blocker]
            why, why_zh = self.bound(st.status, blocker)
            message = f"{d} is owed{why}: expected {self.text(st, blocker)}"
            zh = f"欠{d.zh}{why_zh}：应为{self.text(st, blocker)}"
            return _Fail(st.k, 0, _diag(rules, "tribute-missing", _RULE[d.kind], message, zh, at))
        for j, n in enumerate(st.owed):
            if n > 0:
                returned = self.returned(self.dues[j], n)
                return _Fail(st.k, 0, _diag(rules, "tribute-missing", "return-tribute", returned, returned.zh, at))
        return notes

    def returned(self, d: Due, n: int) -> Bilingual:
        return Bilingual(
            f"the return (还贡) of 落贡 {d.giver}>{d.taker}: seat {d.taker} gives seat {d.giver} {n} card(s) back",
            f"落贡{d.giver}>{d.taker}的还贡：{d.taker}号位还给{d.giver}号位{n}张",
        )

    def order(self) -> str:
        swept = any(d.kind == "sweep" for d in self.dues)
        return "、".join(KIND_NAMES["sweep" if k == "place" and swept else k][0] for k in self.rules.tribute_order)

    def at(self, st: _State) -> int:
        """Where a problem found at ``st`` stands: its transfer, or after the last pre-play action."""
        return self.transfers[st.k][0] if st.k < len(self.transfers) else len(self.record.preplay)

    def text(self, st: _State, j: int) -> str:
        d = self.dues[j]
        return f"{d.giver}>{d.taker}:{format_cards(self.expected(st, j))}"



def check_transfers(rules: Ruleset, dues: list[Due], record: GameRecord) -> tuple[list[str], list[Diagnostic]]:
    """Check the transfers in ``record``'s pre-play section against ``dues``.

    Each due is paid with the giver's highest tribute cards (``tribute-cards``) as it holds them
    then: those it was dealt under ``pay-from=dealt``, its hand under ``pay-from=hand``; a giver
    without them owes nothing more (免贡), a seat that 抗贡 exempts nothing at all. Kinds come in
    the ruleset's order, the pairs of one kind in any order; a place tribute is followed by its
    return where the text has one (any cards, as many), after all tribute or after its own
    (``return-after``). Returns notes for people (paid, waived, exempt) and the diagnostic of the
    first transfer no reading explains (``tribute-missing``, ``tribute-wrong``,
    ``tribute-extra``), located at the pre-play action (or after the last, for one never paid).
    """
    held = Holdings.dealt(record.deal)
    notes: list[str] = []
    owing: list[Due] = []
    dealt = list(held.hands)
    for due in dues:
        if exempt(rules, dealt, due.giver):
            zh, en = KIND_NAMES[due.kind]
            notes.append(
                Bilingual(
                    f"{zh} waived: seat {due.giver} refuses tribute (抗贡)",
                    f"{zh}免进：{due.giver}号位抗贡",
                    en=f"{en} waived: seat {due.giver} refuses tribute",
                )
            )
        else:
            owing.append(due)
    search = _Search(rules, owing, record, transfers(record))
    out = search.run(_State(0, ("u",) * len(owing), (0,) * len(owing), False, held))
    if isinstance(out, list):
        return notes + out, []
    return notes, [out.diagnostic]


def transfer_kinds(rules: Ruleset, dues: list[Due], record: GameRecord) -> list[str | None]:
    """Per pre-play action of ``record``, the kind of tribute its transfer pays as
    :func:`check_transfers` explains the section (a key of :data:`KIND_NAMES`: ``place``,
    ``return`` …), or ``None`` (a declaration, a purchase, a gift, a transfer not explained)."""
    return _kinds(check_transfers(rules, dues, record)[0], record)


def _kinds(notes: list, record: GameRecord) -> list[str | None]:
    """Per pre-play action of ``record``, the kind of tribute the :class:`Payment` among ``notes``
    says its transfer pays, or ``None``."""
    out: list[str | None] = [None] * len(record.preplay)
    for note in notes:
        if isinstance(note, Payment):
            out[note.action] = note.kind
    return out


def _suited_later(rules: Ruleset, record: GameRecord, led: bool) -> list[Diagnostic]:
    """A draw for the teams (抽签组邦) in a hand after a match's first, or a show (上班) where
    the hand before names the leader: the first of them, as a diagnostic (002 §5-§7)."""
    for i, a in enumerate(record.preplay):  # (rules without draws or shows: the engine says so)
        if a.kind is ActionKind.DRAW and rules.team_draw:
            message, zh = "teams are drawn before a match's first hand", "只在比赛的第一局之前抽签组邦"
            return [_diag(rules, "draw-not-allowed", "team-draw", message, zh, i)]
        if a.kind is ActionKind.SHOW and led and rules.showing != "none":
            return [
                _diag(
                    rules,
                    "show-not-allowed",
                    "first-lead",
                    "the hand before names who leads this one: showing (上班) decides only where nobody is named",
                    "上一局已定出本局由谁首发：只有在无人指定时才以上班决定",
                    i,
                )
            ]
    return []


def check_match(replays: list[Replay], from_start: bool = True) -> list[HandInMatch]:
    """Check a match: the tribute and first lead of each hand after the first, the calls of the
    hand before (won or lost), and the running match score (per team, and per seat for the
    extras). Returns one entry per hand (:func:`hand_in_match` of each with the one before);
    hand numbering is checked by :class:`gouji_record.matches.verdict.MatchJudge`, which gives a file's
    hands their whole verdict.

    ``from_start=False`` says ``replays`` is an excerpt that starts after the match's first hand:
    the hands before it are unknown, so the first hand's tribute cannot be judged (a note says so,
    no diagnostic)."""
    out: list[HandInMatch] = []
    for n, rep in enumerate(replays, start=1):
        before = out[-1] if out else None
        out.append(hand_in_match(rep, replays[n - 2] if n > 1 else None, n, from_start, before))
    return out


def hand_in_match(
    rep: Replay, prev: Replay | None, number: int, from_start: bool = True, before: HandInMatch | None = None
) -> HandInMatch:
    """Hand ``number`` of a match (``rep``) after ``prev``, the hand before it (``None``: it is the
    match's first, or, with ``from_start=False``, the first of an excerpt), with the standings
    ``before`` it left (``None``: none yet). Reads of ``prev`` its final position and first lead
    and of ``rep`` its record, its :attr:`~gouji_record.judging.replay.Replay.play_start` and score."""
    rules, record = rep.ruleset, rep.record
    entry = HandInMatch(number, rep)
    if prev is not None and prev.complete:
        entry.dues = tribute_due(rules, prev.final)
        entry.notes, problems = check_transfers(rules, entry.dues, record)
        entry.kinds = _kinds(entry.notes, record)
        for seat, word in prev.final.calls:  # a call is won when the opposite did not open (002 §24)
            won = opposite(seat) not in prev.final.opened
            called = "预点" if word == "precall" else "宣点"
            entry.notes.insert(
                0,
                Bilingual(
                    f"{called} by seat {seat}: {'won' if won else 'lost'}",
                    f"{seat}号位{called}：{'成功' if won else '失败'}",
                    en=f"{'precall' if word == 'precall' else 'call'} by seat {seat}: {'won' if won else 'lost'}",
                ),
            )
        entry.diagnostics += problems
        want = first_leader(before=prev, ruleset=rules)
        entry.diagnostics += _suited_later(rules, record, want is not None)
        if want is not None:  # a leader who leaves the hand as play starts hands the lead on
            start = rep.play_start  # (the replay starts from the seat that led: most often, the one wanted)
            want = begin_play(start if start.to_act == want else replace(start, to_act=want))[0].to_act
        lead = first_leader(record)
        if want is not None and record.actions and lead != want:
            entry.diagnostics.append(
                _diag(
                    rules,
                    "first-lead",
                    "first-lead",
                    f"seat {want} leads this hand, not seat {lead}",
                    f"本局由{want}号位首发，不是{lead}号位",
                    len(record.preplay),
                )
            )
    elif prev is None and not from_start:
        entry.notes.append(Bilingual("not checked: the hand before it is not in the file", "未检查：上一局不在此文件中"))
    elif prev is None and tribute_transfers(record):
        i = tribute_transfers(record)[0][0]
        entry.diagnostics.append(
            _diag(rules, "tribute-extra", "tribute", "the first hand of a match has no tribute", "比赛的第一局没有进贡", i)
        )
    entry.standings = dict(before.standings) if before is not None else {1: 0, 0: 0}
    entry.seat_totals = dict(before.seat_totals) if before is not None else dict.fromkeys(SEATS, 0)
    score = rep.score
    if score is not None:
        for t in entry.standings:
            entry.standings[t] += score.teams[t]
        for s in SEATS:
            entry.seat_totals[s] += score.seats[s]
    return entry
