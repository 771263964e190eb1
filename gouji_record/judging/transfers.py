"""Cards changing hands before play (交牌): the transfers of a pre-play section and the six
hands as they move, for tribute (:mod:`gouji_record.matches.match`) and for purchases and gifts of 3s
and 4s (:mod:`gouji_record.judging.buying`) alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Counts, parse_cards, ranks_held
from ..model import Action, ActionKind, GameRecord, preplay_items
from ..rules.rulesets import Ruleset


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
        """The holdings as ``deal`` (six card strings, seat 1 first, ``?N`` ending one with N cards
        not known) deals them, nothing received yet. The last deal asked about (a tuple: it cannot
        change) is answered again without reading it: the buying check and then the match check
        ask of each record's."""
        global _last_dealt
        last, held = _last_dealt  # (one tuple, replaced whole: threads never see half of it)
        if deal is not last:
            hands = tuple(parse_cards(h.partition("?")[0]) for h in deal)
            held = cls(hands, hands)
            if type(deal) is tuple:
                _last_dealt = (deal, held)
        return held

    def payable(self, rules: Ruleset, seat: int) -> Counts:
        """What ``seat`` may pay tribute or a price with: its dealt cards, or its whole hand."""
        return self.own[seat - 1] if rules.pay_from == "dealt" else self.hands[seat - 1]

    def move(self, giver: int, taker: int, cards: Counts, payment: bool = False) -> Holdings:
        """The holdings after ``giver`` gives ``taker`` ``cards``; ``payment``: dealt cards first.
        Only the ranks ``cards`` holds change (a transfer is one to a few cards, not fifteen ranks);
        no count goes below 0."""
        hands, own = list(self.hands), list(self.own)
        have, mine = list(hands[giver - 1]), list(own[giver - 1])
        got = have if taker == giver else list(hands[taker - 1])
        for rank, n in ranks_held(cards):
            h, m = have[rank], mine[rank]
            have[rank] = h - n if h > n else 0
            # the dealt cards kept: a payment gives them first, any other transfer the h - m received
            kept = m - n if payment else m if m < h - n else h - n
            mine[rank] = kept if kept > 0 else 0
            got[rank] += n
        hands[giver - 1], own[giver - 1] = tuple(have), tuple(mine)
        hands[taker - 1] = tuple(got)
        return Holdings(tuple(hands), tuple(own))


#: The last deal :meth:`Holdings.dealt` read, and its holdings.
_last_dealt: tuple[tuple[str, ...] | None, Holdings | None] = (None, None)
#: The last pre-play section :func:`transfers` read, and its transfers.
_last_transfers: tuple[tuple[Action, ...] | None, tuple[tuple[int, Action, str], ...]] = (None, ())


def transfers(record: GameRecord) -> tuple[tuple[int, Action, str], ...]:
    """The transfers of ``record``'s pre-play section, each with its index among the pre-play
    actions and its role: ``tribute`` (a transfer alone: tribute or a return), ``price`` and
    ``bought`` (the two transfers of a purchase, 买三/买四), ``gift`` (赠与), ``refused`` (a tribute
    or a returned card offered and refused, 拒绝: no card moves). The last section asked about
    is answered again without reading it (a record cannot change: the buying check, then the
    match check, ask of each)."""
    global _last_transfers
    last, out = _last_transfers  # (one tuple, replaced whole: threads never see half of it)
    if record.preplay is not last:
        out = _transfers(record.preplay)
        _last_transfers = (record.preplay, out)
    return out


def _transfers(preplay: tuple[Action, ...]) -> tuple[tuple[int, Action, str], ...]:
    out: list[tuple[int, Action, str]] = []
    i = 0
    for purpose, items in preplay_items(preplay):
        for n, a in enumerate(items):
            if a.kind is ActionKind.GIVE:
                role = {None: "tribute", "gift": "gift", "refuse": "refused"}.get(purpose) or (
                    "price" if n == 0 else "bought"
                )
                out.append((i, a, role))
            i += 1
    return tuple(out)


def tribute_transfers(record: GameRecord) -> list[tuple[int, Action]]:
    """The transfers of ``record``'s pre-play section that tribute may explain (not purchases and
    gifts; refusals, 拒绝, too), with their index among the pre-play actions."""
    return [(i, a) for i, a, role in transfers(record) if role in ("tribute", "refused")]


__all__ = ["Holdings", "transfers", "tribute_transfers"]
