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


__all__ = ["CJK", "Bilingual", "english_only", "zh_of", "zh_seats"]
