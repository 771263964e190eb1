"""Cards, ranks and hands (牌、点数、手牌).

Suits never matter for play (RULES.md "Table"), so a card is just its rank and
a hand is a multiset of ranks, stored as a tuple of 15 counts indexed by rank.

The card alphabet is fixed by the notation (docs/notation.md): ranks
``3 4 5 6 7 8 9 T J Q K A 2``, ``X`` small joker 小王, ``D`` big joker 大王.
``10`` and lower case are accepted on input; output is upper case, ``T``.

>>> parse_cards("D X 2 2 10 10 t")
(0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 2, 1, 1)
>>> format_cards(parse_cards("3TD2t"))
'D2TT3'
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from operator import add as _plus

from .errors import BadArgument, GoujiError, wrong_type

#: Rank letters in ascending order of strength: 3 < 4 < ... < A < 2 < X < D.
RANK_LETTERS = "3456789TJQKA2XD"
#: Number of distinct ranks (13 suited ranks plus two jokers).
N_RANKS = len(RANK_LETTERS)

THREE, FOUR, TEN, JACK, QUEEN, KING, ACE, TWO, SMALL_JOKER, BIG_JOKER = (RANK_LETTERS.index(c) for c in "34TJQKA2XD")
#: Copies of each rank in four decks: 16 of each suited rank, 4 of each joker.
COPIES = tuple(4 if r >= SMALL_JOKER else 16 for r in range(N_RANKS))
#: Cards in the four decks (四副牌): 216.
DECK_SIZE = sum(COPIES)
#: Cards dealt to each of the six seats: 36.
HAND_SIZE = DECK_SIZE // 6

#: Counts of each rank, indexed by rank; the representation of hands and plays.
Counts = tuple[int, ...]
EMPTY: Counts = (0,) * N_RANKS

_LETTER_TO_RANK = {c: i for i, c in enumerate(RANK_LETTERS)}
_LETTER_TO_RANK.update({c.lower(): i for c, i in list(_LETTER_TO_RANK.items())})
#: Chinese names of the jokers accepted on input (RULES.md glossary).
JOKER_NAMES = {"大王": "D", "大花": "D", "大鬼": "D", "大虎": "D", "小王": "X", "小花": "X", "小鬼": "X", "小虎": "X"}


class CardError(GoujiError, ValueError):
    """A card string that is not in the card alphabet (code ``bad-card``).

    ``offset`` is the 0-based index in the string of the first bad character.
    """

    default_code = "bad-card"

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


def parse_cards(text: str) -> Counts:
    """Read a card string into rank counts: a tuple of 15 counts, one per rank from ``3``
    (index 0) to the big joker ``D`` (index 14), in :data:`RANK_LETTERS` order.

    Accepts the letters of :data:`RANK_LETTERS` in either case, ``10`` for ``T``, the Chinese
    joker names (大王, 小王, 大花, 小花 …), and spaces, in any order. Never more than four
    decks are checked for: ``"3" * 20`` reads as twenty 3s.

    >>> parse_cards("XQQQ")
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1, 0)
    >>> parse_cards("10 10 大王") == parse_cards("TTD")
    True
    >>> parse_cards("QQZ")
    Traceback (most recent call last):
      ...
    gouji_record.cards.CardError: 'Z' is not a card: expected one of 3-9 T J Q K A 2 X D (or 10)

    Raises:
        CardError: at the first character that is not a card (code ``bad-card``; its
            ``offset`` is that character's 0-based index in ``text``).
        BadArgument: ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise wrong_type("cards", text, "a str of card letters ('XQQQ')")
    return _parsed(text)


@lru_cache(maxsize=65536)
def _parsed(text: str) -> Counts:
    """:func:`parse_cards` of a ``str``, kept for the next time."""
    if not text.strip(RANK_LETTERS):  # upper-case letters only, as canonical text has them
        return tuple(map(text.count, RANK_LETTERS))
    counts = [0] * N_RANKS
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == " ":
            i += 1
            continue
        if c == "1" and text.startswith("10", i):
            counts[TEN] += 1
            i += 2
            continue
        alias = JOKER_NAMES.get(text[i : i + 2])
        if alias:
            counts[_LETTER_TO_RANK[alias]] += 1
            i += 2
            continue
        rank = _LETTER_TO_RANK.get(c)
        if rank is None:
            raise CardError(f"{c!r} is not a card: expected one of 3-9 T J Q K A 2 X D (or 10)", i)
        counts[rank] += 1
        i += 1
    return tuple(counts)


def format_cards(counts: Counts) -> str:
    """Write rank counts (15 of them, as :func:`parse_cards` gives) as the canonical card
    string: strongest first (``D X 2 A K … 4 3``), ``T`` for ten, no spaces; ``""`` for no card.
    The inverse of :func:`parse_cards` on canonical strings.

    >>> format_cards(parse_cards("3 q x q 10 q"))
    'XQQQT3'
    >>> format_cards(EMPTY)
    ''

    Raises:
        BadArgument: ``counts`` is not a tuple of 15 whole numbers (a list: results are kept by
            counts); a negative count writes nothing for its rank.
    """
    if type(counts) is not tuple:
        raise wrong_type("counts", counts, f"a tuple of {N_RANKS} counts, 3 first")
    if len(counts) != N_RANKS:
        raise BadArgument(f"counts {str(counts)[:60]}: {len(counts)} of them: expected {N_RANKS}, 3 first")
    try:
        return _formatted(counts)
    except TypeError:  # (a count that is no whole number: "D" * 1.5)
        raise wrong_type(f"counts {str(counts)[:60]}", counts, f"a tuple of {N_RANKS} whole numbers") from None


@lru_cache(maxsize=65536)
def _formatted(counts: Counts) -> str:
    """:func:`format_cards` of a tuple of 15 counts, kept for the next time."""
    return "".join(RANK_LETTERS[r] * counts[r] for r in range(N_RANKS - 1, -1, -1))


def size(counts: Counts) -> int:
    """Number of cards in ``counts``."""
    return sum(counts)


def add(a: Counts, b: Counts) -> Counts:
    """Multiset sum of two card counts."""
    return tuple(map(_plus, a, b))


@lru_cache(maxsize=4096)
def ranks_held(counts: Counts) -> tuple[tuple[int, int], ...]:
    """The ranks ``counts`` holds, each with how many: ``((rank, n), …)``, lowest rank first
    (a play or a transfer holds one to a few, so that a loop over them is short; kept per counts).

    >>> ranks_held(parse_cards("QQQ3"))
    ((0, 1), (9, 3))"""
    return tuple((rank, n) for rank, n in enumerate(counts) if n)


def subtract(hand: Counts, cards: Counts) -> Counts | None:
    """``hand`` minus ``cards``, or ``None`` if ``hand`` does not hold them all.

    Only the ranks of ``cards`` are visited (a play holds one to three), not all fifteen.
    """
    left = list(hand)
    for rank, n in ranks_held(cards):
        left[rank] -= n
        if left[rank] < 0:
            return None
    return tuple(left)


def short_of(cards: Counts, hand: Counts) -> list[tuple[str, int, int]]:
    """The ranks of ``cards`` that ``hand`` holds too few of, strongest first: ``(rank letter,
    cards of it in cards, cards of it in hand)`` each.

    >>> short_of(parse_cards("KKKK33"), parse_cards("KK3333"))
    [('K', 4, 2)]
    """
    return [(RANK_LETTERS[r], cards[r], hand[r]) for r in reversed(range(N_RANKS)) if cards[r] > hand[r]]


def total(hands: Iterable[Counts]) -> Counts:
    """Multiset sum of several card counts."""
    return tuple(map(sum, zip(*hands))) or EMPTY


def full_deck() -> Counts:
    """The 216 cards of four decks with jokers, as counts."""
    return COPIES
