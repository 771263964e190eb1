"""Plays (一手牌), their comparison and 够级 plays.

A play is N ≥ 1 cards of one rank plus any number of attached 2s (贴钱) and
jokers (挂花); 2s attached count as the play's rank, jokers keep their own
identity (RULES.md "Plays and their comparison"; 002 §8(3), §8(4)).

>>> p = classify(parse_cards("X22QQ"))
>>> (RANK_LETTERS[p.rank], p.count, p.small, p.big, p.size)
('Q', 4, 1, 0, 5)
>>> beats(classify(parse_cards("X77")), classify(parse_cards("D88")), get_ruleset("charter")).ok
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .cards import (
    BIG_JOKER,
    RANK_LETTERS,
    SMALL_JOKER,
    TWO,
    Counts,
    format_cards,
    parse_cards,
)
from .rulesets import Ruleset, get_ruleset  # noqa: F401  (doctests)

__all__ = ["Play", "PlayError", "Verdict", "beats", "classify", "is_dead", "is_gouji", "parse_play"]


class PlayError(ValueError):
    """Cards that do not form a play (empty, or two ranks besides 2s and jokers)."""


@dataclass(frozen=True, slots=True)
class Play:
    """One play, classified.

    ``rank`` is the index in :data:`RANK_LETTERS` of the play's rank: the one
    suited rank it holds, ``TWO`` for 2s alone, and for jokers alone ``BIG_JOKER``
    when there is a big one, else ``SMALL_JOKER``. ``count`` is the number of
    cards that count as the rank (attached 2s included; 0 for jokers alone);
    ``small`` and ``big`` count the jokers.
    """

    cards: Counts
    rank: int
    count: int
    small: int
    big: int

    @property
    def size(self) -> int:
        """Number of cards in the play."""
        return self.count + self.small + self.big

    @property
    def jokers(self) -> int:
        """Number of jokers in the play (挂花)."""
        return self.small + self.big

    def __str__(self) -> str:
        return format_cards(self.cards)


@lru_cache(maxsize=4096)
def classify(cards: Counts) -> Play:
    """Classify rank counts as a :class:`Play`.

    Raises :class:`PlayError` for no cards, or for two or more ranks other
    than 2s and jokers (002 §8(4)).
    """
    small, big, twos = cards[SMALL_JOKER], cards[BIG_JOKER], cards[TWO]
    ranks = [r for r in range(TWO) if cards[r]]
    if len(ranks) > 1:
        shown = " ".join(RANK_LETTERS[r] for r in ranks)
        raise PlayError(f"a play holds one rank (plus 2s and jokers), not {shown}")
    if ranks:
        return Play(cards, ranks[0], cards[ranks[0]] + twos, small, big)
    if twos:
        return Play(cards, TWO, twos, small, big)
    if small or big:
        return Play(cards, BIG_JOKER if big else SMALL_JOKER, 0, small, big)
    raise PlayError("a play needs at least one card")


def is_gouji(play: Play, ruleset: Ruleset) -> bool:
    """Whether ``play`` is a 够级 play under ``ruleset``.

    A play carrying a joker is one (when ``joker_play_is_gouji``); otherwise
    its count must reach the minimum for its rank: 5×10, 4×J, 3×Q, 2×K, 2×A,
    1×2 in the charter, more cards or a higher rank also qualifying (002 §9).
    """
    if play.jokers and ruleset.joker_play_is_gouji:
        return True
    minimum = ruleset.gouji_minimum.get(RANK_LETTERS[play.rank])
    return minimum is not None and play.count >= minimum


def is_dead(play: Play, ruleset: Ruleset) -> bool:
    """Whether nothing can beat ``play`` (死牌: carries a big joker, 002 §8(3))."""
    return ruleset.big_joker_play_dead and play.big > 0


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a play beats the top play, and the rule that decides it.

    ``rule`` is a key of :data:`~gouji_record.rules.rulesets.RULES`; ``reason``
    says why in English.
    """

    ok: bool
    rule: str
    reason: str


def beats(top: Play, new: Play, ruleset: Ruleset) -> Verdict:
    """Whether ``new`` beats ``top`` under ``ruleset``.

    Same number of cards (same-count); nothing beats a dead play (big joker,
    002 §8(3)); a small-joker play needs at least as many big jokers and a
    higher rank (002 §8(3)); otherwise a higher rank (002 §8(6)). A play of
    jokers alone ranks as its strongest joker.
    """
    if new.size != top.size:
        return Verdict(False, "same-count", f"{new.size} cards cannot follow {top.size}")
    if is_dead(top, ruleset):
        return Verdict(False, "big-joker-dead", f"{top} carries a big joker: it is dead")
    if top.small and ruleset.big_joker_play_dead:
        if new.big < top.small:
            return Verdict(
                False,
                "small-joker-beaten",
                f"{top} carries {top.small} small joker(s): it takes at least {top.small} big joker(s)",
            )
    if new.rank <= top.rank:
        return Verdict(
            False,
            "higher-rank",
            f"{RANK_LETTERS[new.rank]} is not higher than {RANK_LETTERS[top.rank]}",
        )
    rule = "small-joker-beaten" if top.small else "higher-rank"
    return Verdict(True, rule, f"{new} beats {top}")


def parse_play(text: str) -> Play:
    """Parse and classify a play written in the card alphabet, e.g. ``"D88"``.

    Raises :class:`~gouji_record.rules.cards.CardError` or :class:`PlayError`.
    """
    return classify(parse_cards(text))
