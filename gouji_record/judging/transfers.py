"""Cards changing hands before play (交牌): the transfers of a pre-play section and the six
hands as they move, for tribute (:mod:`gouji_record.matches.match`) and for purchases and gifts of 3s
and 4s (:mod:`gouji_record.judging.buying`) alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Counts, parse_cards
from ..model import Action, ActionKind, GameRecord, preplay_items
from ..rules.rulesets import Ruleset


def _add(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b))


@dataclass(frozen=True)
class Holdings:
    """The six hands while cards change hands before play, and of each the cards it was dealt and
    still holds (``own``): what pays tribute and buys a 3 or a 4 where the text wants cards the
    seat drew (``pay-from=dealt``: 000 §进贡 "没有摸到法定贡牌", 002 §21(2), 004 §23, §36
    "非摸牌获得的法定进贡牌不得用于进贡").

    A payment (tribute, a price) gives dealt cards; any other transfer (a return, a 3 sold, a
    gift) gives the cards the seat received first, so that it never uses up dealt ones it may
    still have to pay with. Only known cards are counted.
    """

    hands: tuple[Counts, ...]
    own: tuple[Counts, ...]

    @classmethod
    def dealt(cls, deal: tuple[str, ...] | list[str]) -> Holdings:
        hands = tuple(parse_cards(h.partition("?")[0]) for h in deal)
        return cls(hands, hands)

    def payable(self, rules: Ruleset, seat: int) -> Counts:
        """What ``seat`` may pay tribute or a price with: its dealt cards, or its whole hand."""
        return self.own[seat - 1] if rules.pay_from == "dealt" else self.hands[seat - 1]

    def move(self, giver: int, taker: int, cards: Counts, payment: bool = False) -> Holdings:
        """The holdings after ``giver`` gives ``taker`` ``cards``; ``payment``: dealt cards first."""
        hands, own = list(self.hands), list(self.own)
        have, mine = hands[giver - 1], own[giver - 1]
        if payment:
            used = tuple(min(m, c) for m, c in zip(mine, cards))
        else:  # received cards first
            used = tuple(max(0, c - (h - m)) for h, m, c in zip(have, mine, cards))
        hands[giver - 1] = tuple(max(0, h - c) for h, c in zip(have, cards))
        own[giver - 1] = tuple(max(0, m - u) for m, u in zip(mine, used))
        hands[taker - 1] = _add(hands[taker - 1], cards)
        return Holdings(tuple(hands), tuple(own))


def transfers(record: GameRecord) -> list[tuple[int, Action, str]]:
    """The transfers of ``record``'s pre-play section, each with its index among the pre-play
    actions and its role: ``tribute`` (a transfer alone: tribute or a return), ``price`` and
    ``bought`` (the two transfers of a purchase, 买三/买四), ``gift`` (赠与), ``refused`` (a tribute
    or a returned card offered and refused, 拒绝: no card moves)."""
    out: list[tuple[int, Action, str]] = []
    i = 0
    for purpose, items in preplay_items(record.preplay):
        for n, a in enumerate(items):
            if a.kind is ActionKind.GIVE:
                role = {None: "tribute", "gift": "gift", "refuse": "refused"}.get(purpose) or (
                    "price" if n == 0 else "bought"
                )
                out.append((i, a, role))
            i += 1
    return out


def tribute_transfers(record: GameRecord) -> list[tuple[int, Action]]:
    """The transfers of ``record``'s pre-play section that tribute may explain (not purchases and
    gifts; refusals, 拒绝, too), with their index among the pre-play actions."""
    return [(i, a) for i, a, role in transfers(record) if role in ("tribute", "refused")]


__all__ = ["Holdings", "transfers", "tribute_transfers"]
