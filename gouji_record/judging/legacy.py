"""Files of the notation before ``buy`` and ``gift`` (gjn 1), read as they were written.

Until gjn 2.0 a purchase of a 3 or a 4 had no word: docs/notation.md said "Cards that change
hands before play — tribute, its return, a bought 3 — are written ``giver>taker:cards``", so a
purchase was two bare transfers between the same two seats, the card one way and its price the
other (``5>2:3 2>5:2``, in either order). Since 2.0 a bare transfer is tribute or its return, and
such a pair read as tribute (``tribute-extra`` in a match's first hand). A hand of major version 1
(its ``Notation`` tag says so, or it has none and writes no ``buy`` or ``gift``:
:func:`~gouji_record.notation.version.legacy`) is read here as gjn 1 meant it, under the hand's own
rules (its Ruleset and Options tags), where the rules have no return of tribute (no tribute is
ever paid with a 3 or a 4, so a 3 or a 4 going one way can then be nothing else):

- two bare transfers in a row between the same two seats, one of them one 3 or one 4 of a rank the
  rules buy (:func:`~gouji_record.judging.buying.buyable`) and the other one 2 or one joker, are a
  purchase: ``buy`` with the price first, then the card bought (``5>2:3 2>5:2`` reads as
  ``buy 2>5:2 5>2:3``; the two swap places, their comments with them);
- a bare transfer of one 3 or one 4 alone, where the rules have gifts (``gift-from``), is a gift.

Where the rules return tribute (``online``, ``charter``) a pair is read as written, tribute and
its return: there the same text may be either. A hand whose Ruleset or Options tag cannot be read
is read as written too (its error is reported when it is judged).

:func:`read_as_written` is the :data:`~gouji_record.notation.version.Reading` that every reader
above the rules passes to :func:`~gouji_record.notation.parser.parse_text` (the API's
``read``, ``parse`` and ``read_headers``, every command, the editor), so that they read old
files alike; the notation layer alone refuses such a hand rather than read it otherwise.
"""

from __future__ import annotations

from ..cards import BIG_JOKER, FOUR, SMALL_JOKER, THREE, TWO, parse_cards
from ..model import Action, ActionKind, GameRecord
from ..notation.build import SourceMap
from ..rules.rulesets import BadOption, UnknownRuleset
from .buying import buyable
from .replay import ruleset_of

_PRICES = (TWO, SMALL_JOKER, BIG_JOKER)


def _single(cards: str, ranks: tuple[int, ...]) -> int | None:
    """The rank of ``cards`` when they are one card of one of ``ranks``, else ``None``."""
    counts = parse_cards(cards)
    if sum(counts) != 1:
        return None
    return next((r for r in ranks if counts[r]), None)


def _bare(a: Action) -> bool:
    return a.kind is ActionKind.GIVE and a.purpose is None


def read_as_written(record: GameRecord, where: SourceMap) -> tuple[GameRecord, SourceMap]:
    """``record`` (a hand of gjn 1, as parsed) and its source map, its bare purchases and gifts
    marked ``buy`` and ``gift`` as the module says; unchanged when there are none or the rules
    return tribute. Never raises: a hand whose rules cannot be read is returned as it is."""
    if not any(_bare(a) for a in record.preplay):
        return record, where
    try:
        rules = ruleset_of(record)  # (the replay's own reading of the Ruleset and Options tags)
    except (UnknownRuleset, BadOption):
        return record, where
    ranks = buyable(rules)
    gifts = bool(rules.gift_from) and (THREE, FOUR)
    if rules.return_tribute or not (ranks or gifts):
        return record, where
    pre = list(record.preplay)
    spots = where.actions[: len(pre)]
    changed = False
    i = 0
    while i < len(pre):
        a = pre[i]
        b = pre[i + 1] if i + 1 < len(pre) else None
        if _bare(a) and b is not None and _bare(b) and (b.seat, b.to) == (a.to, a.seat):
            if _single(a.cards, _PRICES) is not None and _single(b.cards, ranks) is not None:
                pre[i : i + 2] = [a.model_copy(update={"purpose": "buy"}), b.model_copy(update={"purpose": "buy"})]
                changed, i = True, i + 2
                continue
            if _single(b.cards, _PRICES) is not None and _single(a.cards, ranks) is not None:  # the card first
                pre[i : i + 2] = [b.model_copy(update={"purpose": "buy"}), a.model_copy(update={"purpose": "buy"})]
                spots[i : i + 2] = [spots[i + 1], spots[i]]
                changed, i = True, i + 2
                continue
        if _bare(a) and gifts and _single(a.cards, gifts) is not None:
            pre[i] = a.model_copy(update={"purpose": "gift"})
            changed = True
        i += 1
    if not changed:
        return record, where
    where.actions[: len(pre)] = spots
    return record.model_copy(update={"preplay": tuple(pre)}), where

__all__ = ["read_as_written"]
