"""Burning (烧牌, 捎牌): the burn condition, and the course of a burn.

A seat that is not a gouji play's opposite may pre-empt the opposite and beat it (002 §10,
000 §烧牌): it burns. It must then meet the burn condition (:func:`burn_condition_holds`;
:func:`burn_condition_possible` where the record does not give all its cards) until it finishes
(烧成功), unless its opposite beats one of its plays or another seat burns it (解烧, and under
004 a counter-burn, 反捎牌). The engine (:func:`~gouji_record.rules.engine.step`) checks the
burn as it is played; here are the condition it checks and how a position records each burn
(:class:`~gouji_record.rules.position.Burn`).

>>> from gouji_record.cards import parse_cards
>>> burn_condition_holds(parse_cards("XX99JJ"), get_ruleset("charter"))  # two jokers for two ranks
True
>>> burn_condition_holds(parse_cards("X99JJKK"), get_ruleset("charter"))  # one joker, three ranks
False
"""

from __future__ import annotations

from ..cards import BIG_JOKER, COPIES, FOUR, RANK_LETTERS, SMALL_JOKER, THREE, TWO, Counts
from .events import EventKind
from .plays import Play
from .position import Burn, Step
from .rulesets import Ruleset, get_ruleset  # noqa: F401  (doctests)


def burn_condition_holds(left: Counts, rules: Ruleset) -> bool:
    """Whether a burner left holding ``left`` can meet the burn condition.

    Every later play carries a joker except the last, or one play is left
    (002 §10, 000 §烧牌). A rank that may carry nothing (3s, 4s in the 4s
    rules) can only be the last play; with 3s held the 3s are that last play
    (003 §番外篇1). The tournament rules also want a 3 and no 4 (004 §16).
    With ``k`` ranks needing a joker (2s attach to another rank, or are one
    rank when alone) and ``j`` jokers: ``k <= j``, plus one for a free last play.
    """
    threes = rules.threes_held and left[THREE] > 0
    if rules.burn_needs_three and (not left[THREE] or left[FOUR]):
        return False
    ranks = [r for r in range(TWO) if left[r] and not (threes and r == THREE)]
    if not ranks and left[TWO]:
        ranks = [TWO]
    carry_nothing = [r for r in ranks if rules.carries_nothing(r)]
    free_last = 0 if threes else 1
    jokers = left[SMALL_JOKER] + left[BIG_JOKER]
    if carry_nothing:  # it can only be the single last play; every play before it carries a joker
        if len(carry_nothing) > 1 or not free_last:
            return False
        plain = len(ranks) - 1
        return plain + (1 if left[TWO] and not plain else 0) <= jokers  # 2s with no rank to go on: X22
    return len(ranks) <= jokers + free_last


def burn_condition_possible(left: Counts, unknown: int, seen: Counts, rules: Ruleset) -> bool:
    """Whether a burner holding ``left`` and ``unknown`` cards the record does not give may meet the
    burn condition (:func:`burn_condition_holds`): hidden cards are possible cards, so some ``unknown``
    cards that four decks still hold (``COPIES - seen``) must complete ``left`` into a hand that meets it.

    The condition reads only which ranks are held and how many jokers, so the completions tried are:
    every number of jokers, with or without a 3, the other cards on ranks already held, then on 2s
    and on as few new ranks as hold them (most copies left first, ranks that carry nothing first or last).
    """
    if not unknown:
        return burn_condition_holds(left, rules)
    room = [max(0, c - n) for c, n in zip(COPIES, seen)]
    forbidden = {RANK_LETTERS.index(r) for r in rules.attach_forbidden}
    for jokers in range(min(unknown, room[SMALL_JOKER] + room[BIG_JOKER]) + 1):
        big = min(jokers, room[BIG_JOKER])
        for three in (0, 1) if room[THREE] and not left[THREE] else (0,):
            rest = unknown - jokers - three
            if rest < 0:
                continue
            base = list(left)
            base[BIG_JOKER] += big
            base[SMALL_JOKER] += jokers - big
            base[THREE] += three
            free = sum(room[r] - (three if r == THREE else 0) for r in range(TWO + 1) if base[r])
            new = sorted((r for r in range(TWO + 1) if not base[r] and room[r]), key=lambda r: -room[r])
            new.sort(key=lambda r: r != TWO)  # 2s first: they add no rank beside another
            plain, carry_nothing = [r for r in new if r not in forbidden], [r for r in new if r in forbidden]
            for order in (plain + carry_nothing, carry_nothing + plain):
                hand, fits = list(base), free
                for r in order:
                    if fits >= rest:
                        break
                    hand[r] += 1
                    fits += room[r]
                if fits >= rest and burn_condition_holds(tuple(hand), rules):
                    return True
    return False


def set_burn(burns: tuple[Burn, ...], burner: int, outcome: str) -> tuple[Burn, ...]:
    """``burns`` with the running burn of ``burner`` given its outcome."""
    for i in range(len(burns) - 1, -1, -1):
        seat, target, was = burns[i]
        if seat == burner and was == "running":
            return burns[:i] + (Burn(burner, target, outcome),) + burns[i + 1 :]
    return burns


def burns_after(
    s: Step, seat: int, play: Play, burn: bool
) -> tuple[int | None, int | None, tuple[Burn, ...]]:
    """The burner, its target and the burns after ``seat`` plays: a running burn broken (解烧), a burn
    or counter-burn begun."""
    pos, rules = s.pos, s.pos.ruleset
    old = pos.top
    burner, target, burns = pos.burner, pos.burn_target, pos.burns
    if old is not None and burner == old.seat and seat != burner:
        if not (burn and seat == target and rules.counter_burn):
            s.event(EventKind.BURN_BROKEN, "counter-burn" if burn else "burn", (seat, burner), str(play))
        burns = set_burn(burns, burner, "broken")
        burner = target = None
    if burn:
        countered = rules.counter_burn and pos.burn_target == seat and pos.burner == old.seat
        s.event(
            EventKind.COUNTER_BURN if countered else EventKind.BURN,
            "counter-burn" if countered else "burn",
            (seat, old.seat),
            str(play),
        )
        burner, target = seat, old.seat
        burns = burns + (Burn(seat, old.seat, "running"),)
    return burner, target, burns


__all__ = [
    "burn_condition_holds",
    "burn_condition_possible",
    "burns_after",
    "set_burn",
]
