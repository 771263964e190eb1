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

from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from ..cards import (
    BIG_JOKER,
    RANK_LETTERS,
    SMALL_JOKER,
    TWO,
    Counts,
    format_cards,
    parse_cards,
)
from ..bilingual import Bilingual
from ..errors import GoujiError
from .rulesets import Ruleset, get_ruleset  # noqa: F401  (doctests)

__all__ = [
    "Play",
    "PlayError",
    "PlayFacts",
    "Verdict",
    "beats",
    "classify",
    "excluded_from_opening",
    "is_unbeatable",
    "is_gouji",
    "is_pure_gouji",
    "judge",
    "parse_play",
    "play_facts",
    "shape_error",
]


class PlayError(GoujiError, ValueError):
    """Cards that do not form a play (empty, or two ranks besides 2s and jokers); code ``bad-play``.
    Its ``message`` is English, with ``message.zh`` in Chinese."""

    default_code = "bad-play"


@dataclass(frozen=True, slots=True)
class Play:
    """One play, classified.

    ``rank`` is the index in :data:`RANK_LETTERS` of the play's rank: the one
    suited rank it holds, ``TWO`` for 2s alone, and for jokers alone ``BIG_JOKER``
    when there is a big one, else ``SMALL_JOKER``. ``count`` is the number of
    cards that count as the rank (attached 2s included; 0 for jokers alone);
    ``small`` and ``big`` count the jokers. ``size`` is the number of cards
    in the play, ``jokers`` the number of jokers (挂花) and ``text`` its canonical card string
    (``str(play)``), all derived (stored, not computed on each read: the engine reads them for
    every play, and equal cards are classified once, :func:`parse_play`).
    """

    cards: Counts
    rank: int
    count: int
    small: int
    big: int
    size: int = field(init=False, repr=False, compare=False)
    jokers: int = field(init=False, repr=False, compare=False)
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", self.count + self.small + self.big)
        object.__setattr__(self, "jokers", self.small + self.big)
        object.__setattr__(self, "text", format_cards(self.cards))

    def __str__(self) -> str:
        return self.text


@lru_cache(maxsize=4096)
def classify(cards: Counts) -> Play:
    """Classify rank counts as a :class:`Play`.

    Raises:
        PlayError: no cards, or two or more ranks other than 2s and jokers (002 §8(4)).
    """
    small, big, twos = cards[SMALL_JOKER], cards[BIG_JOKER], cards[TWO]
    ranks = [r for r in range(TWO) if cards[r]]
    if len(ranks) > 1:
        shown = " ".join(RANK_LETTERS[r] for r in ranks)
        raise PlayError(
            Bilingual(
                f"a play holds one rank (plus 2s and jokers), not {shown}",
                f"一手牌只能是同一点数（可贴钱、挂王），不能是{shown}",
            )
        )
    if ranks:
        return Play(cards, ranks[0], cards[ranks[0]] + twos, small, big)
    if twos:
        return Play(cards, TWO, twos, small, big)
    if small or big:
        return Play(cards, BIG_JOKER if big else SMALL_JOKER, 0, small, big)
    raise PlayError(Bilingual("a play needs at least one card", "一手牌至少要有一张牌"))


def is_gouji(play: Play, ruleset: Ruleset) -> bool:
    """Whether ``play`` is a 够级 play under ``ruleset``.

    A play carrying a joker is one (in the tournament rules, not when it
    carries a big joker: 004 §12); otherwise its count must reach the minimum
    for its rank, e.g. 5×10, 4×J, 3×Q, 2×K, 2×A, 1×2, attached 2s counting
    (002 §9). A higher rank with the same count also qualifies.
    """
    if play.big and not ruleset.big_joker_plays_gouji:
        return False
    if play.jokers:
        return True
    minimum = ruleset.gouji_minimum.get(RANK_LETTERS[play.rank])
    return minimum is not None and play.count >= minimum


def is_pure_gouji(play: Play, ruleset: Ruleset) -> bool:
    """A 纯够级牌: a 够级 play with no 2 and no joker (003 §开点; 004 §12)."""
    return is_gouji(play, ruleset) and play.jokers == 0 and play.cards[TWO] == 0


def is_unbeatable(play: Play, ruleset: Ruleset) -> bool:
    """Whether nothing can beat ``play`` (死牌: carries a big joker, 002 §8(3), 003)."""
    return play.big > 0 and ruleset.big_joker_play_dead


def shape_error(play: Play, ruleset: Ruleset) -> tuple[str, str, str] | None:
    """Why ``play`` can never be played under ``ruleset``, whatever the hand, as
    ``(code, rule, message)`` (the message English, with ``.zh``); ``None`` when its shape is playable.

    2s and jokers attached to a rank that carries nothing: 3s and 4s under
    ``attach_forbidden`` (003 §牌张大小, 004 §6), 3s when threes are held
    (002 §26(3)). The engine refuses such a play with this diagnostic, and
    ``gouji beats`` says it cannot be played.

    >>> shape_error(parse_play("X44"), get_ruleset("tournament"))[:2]
    ('cannot-attach', 'attach')
    >>> shape_error(parse_play("X44"), get_ruleset("charter")) is None
    True
    """
    if play.count and (play.jokers or play.cards[TWO]):
        if ruleset.carries_nothing(play.rank):
            rank = RANK_LETTERS[play.rank]
            message = Bilingual(f"{rank}s carry no 2s and no jokers: {play}", f"{rank}不能贴钱或挂王：{play}")
            return "cannot-attach", "attach", message
    return None


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether a play beats the top play, and the rule that decides it.

    ``rule`` is a key of :data:`~gouji_record.rules.rulesets.RULES`; ``reason``
    says why in English, and ``reason.zh`` in Chinese (a :class:`~gouji_record.bilingual.Bilingual`).
    """

    ok: bool
    rule: str
    reason: Bilingual


def _two_beat_one(top: Play, new: Play, ruleset: Ruleset) -> bool:
    """大王二杀一 (004 §5) or the online option (000 一手牌的大小 1): more jokers alone beat fewer."""
    if ruleset.two_beat_one == "no" or top.count or new.count:
        return False
    if ruleset.two_beat_one == "big-jokers":
        return top.cards[BIG_JOKER] == 1 and top.size == 1 and new.big == 2 and new.size == 2
    pairs = {((0, 1), (0, 2)), ((1, 0), (2, 0)), ((0, 1), (3, 0))}  # (small, big): D<DD, X<XX, D<XXX
    return ((top.small, top.big), (new.small, new.big)) in pairs


def _jokers_suffice(top: Play, new: Play, ruleset: Ruleset) -> str | None:
    """Why ``new``'s jokers cannot beat ``top``'s under the ruleset's joker comparison, as a key of
    :func:`_joker_reason`, or ``None``."""
    how = ruleset.joker_comparison
    if how == "big-over-small":  # 002 §8(3)
        if top.small and new.big < top.small:
            return "small-takes-big"
    elif how == "both-sides":  # 000, 001 §24: bigger on both sides; big mixed with small counts as small (001 §16)
        if top.jokers:
            if top.small and ruleset.outnumber_small_jokers and new.jokers > top.jokers:
                return None  # 001 §24 "也可以用3個花帶2個9大過", read as any three jokers
            if new.small and new.big:
                return "mixed-counts-small"
            if new.small or not new.big:
                return "big-only"
            if top.small and new.big < top.jokers:
                return "as-many-big"
            if not top.small and new.big <= top.big:
                return "more-big"
    elif how == "isolated":  # 003 王是孤立计算的: each joker on top met by a stronger one
        if top.big:
            return "big-on-top"
        if new.big < top.small:  # (then the follow also carries no fewer jokers: 王数不能少)
            return "each-small-takes-big"
    elif how == "no-fewer-jokers":  # 张数必须对，王数不能少, jokers of any kind
        if new.jokers < top.jokers:
            return "no-fewer"
    elif how == "own-level":  # 004 §6: jokers keep their own level
        if new.big < top.big or new.jokers < top.jokers:
            return "own-level"
    return None


def _joker_reason(key: str, top: Play, new: Play) -> Bilingual:
    """The reason :func:`_jokers_suffice` names by ``key``, in English and Chinese."""
    if key == "small-takes-big":
        return Bilingual(
            f"{top} carries {top.small} small joker(s): it takes at least {top.small} big joker(s)",
            f"{top}挂{top.small}张小王：至少要{top.small}张大王才能管上",
        )
    if key == "mixed-counts-small":
        return Bilingual(
            f"{top} carries jokers: it takes big jokers only, and {new}'s big jokers count as small",
            f"{top}挂王：只有挂大王的牌能管上，而{new}的大王与小王同挂，按小王算",
        )
    if key == "big-only":
        return Bilingual(
            f"{top} carries jokers: it takes a play carrying big jokers only",
            f"{top}挂王：只有只挂大王的牌能管上",
        )
    if key == "as-many-big":
        return Bilingual(
            f"{top} carries {top.jokers} joker(s): it takes at least {top.jokers} big joker(s)",
            f"{top}挂{top.jokers}张王：至少要{top.jokers}张大王才能管上",
        )
    if key == "more-big":
        return Bilingual(
            f"{top} carries {top.big} big joker(s): it takes more big jokers",
            f"{top}挂{top.big}张大王：要更多的大王才能管上",
        )
    if key == "big-on-top":
        return Bilingual(f"{top} carries a big joker: no joker is stronger", f"{top}挂大王：没有比它更大的王")
    if key == "each-small-takes-big":
        carried = new.big or "none"
        carried_zh = f"只挂了{new.big}张大王" if new.big else "没有挂大王"
        return Bilingual(
            f"{top} carries {top.small} small joker(s): each takes a big joker, and {new} carries {carried}",
            f"{top}挂{top.small}张小王：每张小王都要一张大王来管，而{new}{carried_zh}",
        )
    if key == "no-fewer":
        return Bilingual(
            f"{top} carries {top.jokers} joker(s): it takes at least as many",
            f"{top}挂{top.jokers}张王：王数不能少",
        )
    return Bilingual(  # own-level
        f"{top} carries {top.big} big and {top.small} small joker(s): it takes at least as many, as strong",
        f"{top}挂{top.big}张大王、{top.small}张小王：王须一样多、一样大",
    )


def judge(top: Play, new: Play, ruleset: Ruleset) -> tuple[bool, str]:
    """Whether ``new`` beats ``top`` under ``ruleset``, and the rule that decides it:
    :func:`beats` without the reason (the engine needs one only for a play that does not beat).

    Same number of cards (same-count), except two-beat-one; nothing beats a
    dead play; with ``big_joker_beaten_by="two"`` each big joker on top takes
    two big jokers (大王二杀一); the jokers must suffice under
    ``ruleset.joker_comparison``; the rank must be higher (步步高). A play of
    jokers alone ranks as its strongest joker; when both plays are jokers
    alone, the jokers decide: the follow needs more big jokers.
    """
    if not (top.count or new.count) and _two_beat_one(top, new, ruleset):  # jokers alone
        return True, "two-beat-one"
    if new.size != top.size:
        return False, "same-count"
    if top.big and is_unbeatable(top, ruleset):  # (only a big joker makes a play dead)
        return False, "big-joker-dead"
    if new.big and ruleset.big_joker_beats_any:  # an option no preset takes (see docs/rules.md)
        return True, "big-joker-dead"
    if top.big and new.big < 2 * top.big and ruleset.big_joker_beaten_by == "two":  # 004 §5
        return False, "two-beat-one"
    if top.jokers and _jokers_suffice(top, new, ruleset):  # only jokers on top need matching
        return False, "joker-comparison"
    if not (top.count or new.count):  # jokers alone on both sides (DD on DX): no rank, stronger jokers
        return new.big > top.big, "joker-comparison"
    if new.rank <= top.rank:  # on a play carrying jokers, the comparison's own sentence may name the rank
        named = top.jokers and ruleset.joker_comparison in _RANK_IN_COMPARISON
        return False, "joker-comparison" if named else "higher-rank"
    return True, "joker-comparison" if top.jokers else "higher-rank"


#: The joker comparisons whose sentence decides the rank too, so that it is cited when the rank of a
#: follow on a play carrying jokers is not higher: 000 §一手牌的大小 and 001 §24 "在两个方面都大过此牌"
#: (jokers and rank), 002 §8(3) "须由大花挂高于小花所挂牌一点以上的牌", 003 "至少需要大王+88才可以大过小王+77".
#: 004 §6 (``own-level``) and ``no-fewer-jokers`` speak of the jokers only: 步步高 decides the rank.
_RANK_IN_COMPARISON = frozenset({"both-sides", "big-over-small", "isolated"})


def beats(top: Play, new: Play, ruleset: Ruleset) -> Verdict:
    """Whether ``new`` beats ``top`` under ``ruleset`` (see :func:`judge`), the rule that decides it, and why."""
    ok, rule = judge(top, new, ruleset)
    if rule == "two-beat-one":
        if ok:
            reason = Bilingual(f"{new} beats {top}: more jokers beat fewer", f"{new}管上{top}：王多者大")
        else:
            reason = Bilingual(
                f"{top} carries {top.big} big joker(s): only {2 * top.big} big jokers beat it (大王二杀一)",
                f"{top}挂{top.big}张大王：只有{2 * top.big}张大王才能管上（大王二杀一）",
            )
    elif rule == "same-count":
        reason = Bilingual(
            f"{new.size} cards cannot follow {top.size}", f"{new.size}张牌不能管{top.size}张牌：张数须相同"
        )
    elif rule == "big-joker-dead":
        if ok:
            reason = Bilingual(f"{new} carries a big joker: it is the largest", f"{new}挂大王，是最大的牌")
        else:
            reason = Bilingual(f"{top} carries a big joker: it is dead", f"{top}挂大王，是死牌")
    elif ok:
        reason = Bilingual(f"{new} beats {top}", f"{new}管上{top}")
    elif rule == "joker-comparison":
        key = _jokers_suffice(top, new, ruleset)
        if key is not None:
            reason = _joker_reason(key, top, new)
        elif top.count and new.count:  # the jokers suffice; the rank is not higher
            hi, lo = RANK_LETTERS[new.rank], RANK_LETTERS[top.rank]
            reason = Bilingual(
                f"{top} carries jokers: it takes a higher rank too, and {hi} is not higher than {lo}",
                f"{top}挂王：牌点也须更大，而{hi}不比{lo}大",
            )
        else:
            reason = Bilingual(
                f"{new}: jokers alone, and no more big jokers than {top}", f"{new}：单出王，而大王不比{top}多"
            )
    else:
        hi, lo = RANK_LETTERS[new.rank], RANK_LETTERS[top.rank]
        reason = Bilingual(f"{hi} is not higher than {lo}", f"{hi}不比{lo}大")
    return Verdict(ok, rule, reason)


def excluded_from_opening(play: Play, rules: Ruleset) -> bool:
    """Whether ``play`` (a 够级 play) is one that does not open (开点) under ``rules``: carrying a big
    or small joker, 2s, a single 2, or 2s alone, as ``rules.opening_excludes`` says (002 §24,
    003 §开点, 004 §17 纯够级牌).

    >>> charter, online = get_ruleset("charter"), get_ruleset("online")
    >>> [excluded_from_opening(parse_play(p), charter) for p in ("D888", "X888", "KK")]
    [True, False, False]
    >>> excluded_from_opening(parse_play("X888"), online)
    True"""
    ex = rules.opening_excludes
    return (
        ("big-joker" in ex and play.big > 0)
        or ("small-joker" in ex and play.small > 0)
        or ("twos" in ex and play.cards[TWO] > 0)
        or ("single-two" in ex and play.size == 1 and play.cards[TWO] == 1)
        or ("twos-alone" in ex and play.cards[TWO] == play.size)
    )


class PlayFacts(NamedTuple):
    """What a play is under a ruleset, whatever the table: :func:`shape_error`, :func:`is_gouji`,
    :func:`is_unbeatable` and :func:`excluded_from_opening` of it, read by the engine for every play
    (:func:`play_facts` works them out once for each play and ruleset)."""

    shape_error: tuple[str, str, str] | None
    gouji: bool
    unbeatable: bool
    opening_excluded: bool


_FACTS: dict[tuple[int, str], tuple[Ruleset, PlayFacts]] = {}


def play_facts(play: Play, ruleset: Ruleset) -> PlayFacts:
    """The :class:`PlayFacts` of ``play`` under ``ruleset``, worked out once (kept by the ruleset's
    identity and the play's cards: the engine asks 10^5 times a second).

    >>> play_facts(parse_play("QQQ"), get_ruleset("charter"))
    PlayFacts(shape_error=None, gouji=True, unbeatable=False, opening_excluded=False)
    """
    known = _FACTS.get((id(ruleset), play.text))
    if known is not None and known[0] is ruleset:
        return known[1]
    if len(_FACTS) > 16384:
        _FACTS.clear()
    facts = PlayFacts(
        shape_error(play, ruleset),
        is_gouji(play, ruleset),
        is_unbeatable(play, ruleset),
        excluded_from_opening(play, ruleset),
    )
    _FACTS[(id(ruleset), play.text)] = (ruleset, facts)
    return facts


@lru_cache(maxsize=65536)
def parse_play(text: str) -> Play:
    """Parse and classify a play written in the card alphabet, e.g. ``"D88"`` (equal strings give
    one :class:`Play`: the engine reads every play's cards with it).

    Raises :class:`~gouji_record.cards.CardError` or :class:`PlayError`.
    """
    return classify(parse_cards(text))
