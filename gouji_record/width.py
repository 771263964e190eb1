"""Display width of text, and where wide (CJK) text may wrap.

Chinese text has no spaces between words, so the writer may break a comment
between two wide characters; the parser then joins such a line break with no
space (:func:`fold_comment`), and a long Chinese comment survives the trip.
"""

from __future__ import annotations

import re
import unicodedata


def is_wide(char: str) -> bool:
    """Whether ``char`` takes two columns (East Asian wide or full-width)."""
    return bool(char) and unicodedata.east_asian_width(char) in "WF"


def columns(text: str) -> int:
    """Display width of ``text``: wide (CJK) characters take two columns."""
    if text.isascii():
        return len(text)
    return sum(2 if is_wide(c) else 1 for c in text)


_SPACES = re.compile(r"\s+")
_SPACES_WITH_A_BREAK = re.compile(r"\s*\n\s*")


def fold_comment(body: str) -> str:
    """The text of a comment: white space folded to single spaces, except that
    a line break between two wide characters is removed.

    >>> fold_comment("开点\\n   烧牌  and\\n  more")
    '开点烧牌 and more'
    """

    def joined(m: re.Match) -> str:
        wide = is_wide(body[m.start() - 1 : m.start()]) and is_wide(body[m.end() : m.end() + 1])
        return "" if wide else " "

    if "\n" in body:
        body = _SPACES_WITH_A_BREAK.sub(joined, body)
    return _SPACES.sub(" ", body).strip()


def wide_chunks(word: str, width: int) -> list[str]:
    """``word`` cut between two wide characters into pieces of at most ``width`` columns where it can be."""
    chunks, start, used = [], 0, 0
    for i, c in enumerate(word):
        if i > start and used + columns(c) > width and is_wide(word[i - 1]) and is_wide(c):
            chunks.append(word[start:i])
            start, used = i, 0
        used += columns(c)
    chunks.append(word[start:])
    return chunks
