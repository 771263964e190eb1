"""Text for people in both languages (中文 / English).

The command line and the Python API speak English: a diagnostic's ``message``, a tribute note, the
reason a play does not beat another are English strings, unchanged. The replay page speaks one
language at a time, so each such text also carries its Chinese form. Where a text is built from
parts (the reason a play does not beat, why a seat may not revolt, a tribute note), the part is a
:class:`Bilingual`: a ``str`` whose value is the English, with ``zh`` (and, where the English
mixes in Chinese terms, ``en``: the English a page shows) kept beside it.

>>> note = Bilingual("落贡 paid: 1>3:22", "落贡已进：1>3:22", en="place tribute paid: 1>3:22")
>>> note == "落贡 paid: 1>3:22", note.zh, note.en
(True, '落贡已进：1>3:22', 'place tribute paid: 1>3:22')
>>> english_only("TTTTT by seat 1 is a gouji play (够级): only its opposite may answer")
'TTTTT by seat 1 is a gouji play: only its opposite may answer'
>>> zh_seats([2, 4, 6])
'2、4、6号位'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Chinese characters and Chinese punctuation (、，：；（）「」…): what the English page leaves out.
CJK = re.compile("[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


class Bilingual(str):
    """An English text (the string itself: what the CLI prints) with its Chinese form ``zh``, and
    ``en``, the English a page shows: the string unless it mixes in Chinese terms."""

    zh: str
    en: str

    def __new__(cls, text: str, zh: str, en: str | None = None) -> Bilingual:
        self = super().__new__(cls, text)
        self.zh = zh
        self.en = text if en is None else en
        return self

    def __reduce__(self):  # copied and pickled whole (validate --jobs runs workers)
        return Bilingual, (str(self), self.zh, self.en)

    def forms(self) -> dict[str, str]:
        """``{"zh": …, "en": …}``, as the page takes a text."""
        return {"zh": self.zh, "en": self.en}


def zh_of(text: str) -> str:
    """The Chinese form of ``text`` if it has one, else ``text``."""
    return getattr(text, "zh", text)


def zh_seats(seats: Iterable[int]) -> str:
    """Seats as Chinese writes them: ``2、4号位``."""
    return "、".join(map(str, seats)) + "号位"


#: Chinese terms an English message uses bare (not as a gloss in parentheses), with the glossary's
#: English name (shared RULES.md): the English page shows the name.
_TERMS = {
    "上班": "showing",
    "闷贡": "smother tribute",
    "烧贡": "burn tribute",
    "点贡": "point tribute",
    "落贡": "place tribute",
    "对头贡": "sweep tribute",
    "还贡": "return",
    "买三": "buying a 3",
    "买四": "buying a 4",
    "赠与": "gift",
    "宣点": "call",
    "预点": "precall",
    "明点": "call",
}
_TERM = re.compile("|".join(map(re.escape, sorted(_TERMS, key=len, reverse=True))))
#: A Chinese term followed by its English name in parentheses: ``落贡 (place tribute)``.
_NAMED = re.compile(r"[\u4e00-\u9fff]+ \(([^()\u3000-\u9fff]+)\)")
_GLOSS = re.compile(r" ?\(([^()]*)\)")


def english_only(text: str) -> str:
    """``text`` (English, the CLI's) as the English page shows it: its Chinese glosses in parentheses
    left out (``a gouji play (够级)``: ``a gouji play``; ``(憋三, option threes-held)``: ``(option
    threes-held)``), a Chinese term named in English after it left out (``落贡 (place tribute)``:
    ``place tribute``) and the few Chinese terms it uses bare named in English (``上班``: showing)."""
    if not CJK.search(text):
        return text

    def gloss(m: re.Match[str]) -> str:
        items = [i for i in re.split(r"[,;] ", m.group(1)) if not CJK.search(i)]
        if len(items) == len(re.split(r"[,;] ", m.group(1))):
            return m.group(0)
        return f" ({', '.join(items)})" if items else ""

    text = _NAMED.sub(lambda m: m.group(1), text)
    text = _GLOSS.sub(gloss, text)
    return _TERM.sub(lambda m: _TERMS[m.group(0)], text)


#: Counts in words, 0 to 16 (a play holds at most 16 cards of a rank): English before a noun, Chinese
#: before 张 (两张, not 二张). Larger counts are written in digits.
_EN_COUNTS = "no one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen".split()
_ZH_COUNTS = "零 一 两 三 四 五 六 七 八 九 十 十一 十二 十三 十四 十五 十六".split()
#: The jokers' names (cards.py: X small, D big); any other rank is named by its letter (3s, Ks).
_JOKERS = {"X": ("small joker", "小王"), "D": ("big joker", "大王")}
#: What a seat cannot do with cards it does not hold, per act: the verb and the noun, in each language.
_ACTS = {"play": ("play", "the play", "出", "这手牌要"), "give": ("give", "the transfer", "交出", "要交")}


def _cards_en(n: int, rank: str) -> str:
    """``n`` cards of ``rank`` in English: ``eight 3s``, ``one K``, ``no big jokers``."""
    count = _EN_COUNTS[n] if n < len(_EN_COUNTS) else str(n)
    name = _JOKERS[rank][0] if rank in _JOKERS else rank
    return f"{count} {name}" if n == 1 else f"{count} {name}s"


def _count_zh(n: int) -> str:
    return _ZH_COUNTS[n] if n < len(_ZH_COUNTS) else str(n)


def _listed(items: list[str], word: str) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" {word} " + items[-1]


def cards_short(seat: int, act: str, cards: str, short: list[tuple[str, int, int]], unknown: int = 0) -> Bilingual:
    """Why ``seat`` cannot ``act`` (``play`` or ``give``) ``cards`` (as the notation writes them): the
    ranks it is short of, each ``(rank letter, cards of it needed, cards of it held)``, strongest
    first, and the ``unknown`` cards of its hand, too few to make up the difference.

    >>> m = cards_short(3, "play", "33333333", [("3", 8, 4)])
    >>> str(m), m.zh
    ('seat 3 cannot play 33333333: the play needs eight 3s; seat 3 holds four', '3号位不能出33333333：这手牌要八张3，3号位只有四张')
    >>> m = cards_short(1, "give", "DD2", [("D", 2, 1), ("2", 1, 0)], unknown=0)
    >>> str(m), m.zh
    ('seat 1 cannot give DD2: the transfer needs two big jokers and one 2; seat 1 holds one big joker and no 2s', '1号位不能交出DD2：要交两张大王和一张2，1号位只有一张大王，没有2')
    >>> cards_short(2, "play", "AA", [("A", 2, 0)], unknown=1).zh
    '2号位不能出AA：这手牌要两张A，2号位一张也没有（另有1张未知牌）'
    """
    verb, noun, verb_zh, needs_zh = _ACTS[act]
    need = _listed([_cards_en(n, r) for r, n, _ in short], "and")
    need_zh = "和".join(f"{_count_zh(n)}张{_JOKERS[r][1] if r in _JOKERS else r}" for r, n, _ in short)
    if len(short) == 1:
        n = short[0][2]
        held = "none" if n == 0 else _EN_COUNTS[n] if n < len(_EN_COUNTS) else str(n)
        held_zh = "一张也没有" if n == 0 else f"只有{_count_zh(n)}张"
    else:
        held = _listed([_cards_en(h, r) for r, _, h in short] + [f"{unknown} unknown"] * bool(unknown), "and")
        held_zh = "，".join(
            f"只有{_count_zh(h)}张{_JOKERS[r][1] if r in _JOKERS else r}" if h else f"没有{_JOKERS[r][1] if r in _JOKERS else r}"
            for r, _, h in short
        )
    if unknown:
        cards_word = "card" if unknown == 1 else "cards"
        held += f" and {unknown} unknown {cards_word}" if len(short) == 1 else f" {cards_word}"
        held_zh += f"（另有{unknown}张未知牌）"
    return Bilingual(
        f"seat {seat} cannot {verb} {cards}: {noun} needs {need}; seat {seat} holds {held}",
        f"{seat}号位不能{verb_zh}{cards}：{needs_zh}{need_zh}，{seat}号位{held_zh}",
    )


__all__ = ["CJK", "Bilingual", "cards_short", "english_only", "zh_of", "zh_seats"]
