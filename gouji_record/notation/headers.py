"""Reading only the tags of each hand (读标签), as python-chess's ``read_headers``: for big files.

:func:`read_headers` cuts a file into hands as every command does
(:func:`~gouji_record.notation.files.read_hands`, which does not parse) and reads of each hand
only its tag section, with the grammar's own patterns for a tag name and a quoted value and the
checks every reader makes of tags (:func:`~gouji_record.notation.build.check_tags`). The deal,
the pre-play section and the play are not parsed, nor is anything replayed: a caller picks the
hands it wants by their tags and reads those whole (:meth:`Headers.record`).

>>> import io
>>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
>>> text = "\\n".join(f'[Event "{e}"][Site "?"][Date "?"][Ruleset "charter"]{seats}[Result "*"] play 1:55' for e in "ab")
>>> [(h.index, h.line, h.column, h.tags["Event"]) for h in read_headers("-", io.BytesIO(text.encode()))]
[(1, 1, 1, 'a'), (2, 2, 1, 'b')]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import BinaryIO


from ..model import GameRecord
from .build import NotationError, check_tags, unescape
from .files import HandText, read_hands
from .grammar import lalr
from .parser import parse_text
from .version import Reading, unchanged

#: What the grammar ignores between tokens: white space and a byte-order mark.
_SKIP = re.compile(r"[ \t\f\r\n\ufeff]*")
#: Where the body of a hand starts: the first word of its deal, pre-play or play section.
_BODY = re.compile(r"(?:deal|preplay|play)(?![A-Za-z_-])")


@lru_cache(maxsize=1)
def _tag_pattern() -> re.Pattern:
    """One tag pair, ``[Name "value"]``, with the grammar's TAG_NAME and STRING terminals."""
    terminals = {t.name: t.pattern.to_regexp() for t in lalr().terminals}
    ws = _SKIP.pattern
    return re.compile(rf"\[{ws}(?P<name>{terminals['TAG_NAME']}){ws}(?P<value>{terminals['STRING']}){ws}\]")


@dataclass(frozen=True)
class Headers:
    """The tag pairs of one hand of a file, read without its deal and play.

    ``tags`` is ``{name: value}`` in file order, as :attr:`GameRecord.tags
    <gouji_record.model.GameRecord.tags>` of the hand would be (values unescaped, ``Round``
    filled in with ``?`` when missing); ``hand`` is the hand's text and place in the file, not
    parsed (``hand.path``; ``hand.index``, 1 for the first hand; ``hand.line`` and
    ``hand.column``, 1-based, where its first ``[`` stands). ``problem`` is why the tag section
    cannot be read (a tag not closed, given twice, a required one missing, a bad Date, Score or
    Result, a byte that is not UTF-8 among the tags), located in the file, or ``None``; ``tags``
    is then empty. A hand whose tags read but whose deal or play does not has no ``problem``
    here: :meth:`record` says so.

    >>> import io
    >>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
    >>> text = f'[Event "a"][Site "?"][Date "?"][Ruleset "charter"]{seats}[Result "*"]\\nplay 1:55 1:Z\\n'
    >>> [h] = read_headers("a.gjn", io.BytesIO(text.encode()))
    >>> h.tags["Round"], h.problem, h.line
    ('?', None, 1)
    >>> try:
    ...     h.record()
    ... except NotationError as e:
    ...     print(e.code, e.where(), e.hand)
    bad-card a.gjn:2:13 1
    """

    tags: dict[str, str]
    hand: HandText
    problem: NotationError | None = None
    #: How :meth:`record` reads a hand of gjn 1 with bare transfers (:func:`parse_text`'s ``reading``).
    reading: Reading | None = None

    @property
    def index(self) -> int:
        """The hand's number in its file, from 1."""
        return self.hand.index

    @property
    def line(self) -> int:
        """The line (from 1) where the hand starts in its file."""
        return self.hand.line

    @property
    def column(self) -> int:
        """The column (from 1) where the hand starts on its line."""
        return self.hand.column

    def record(self) -> GameRecord:
        """The whole hand read: the deal, the pre-play section and the play parsed (not replayed).

        Raises:
            NotationError: a hand that cannot be read, located in the file (``file``, ``hand``,
                ``line``, ``column``): the same error as :func:`gouji_record.read` gives for it.
        """
        records = hand_records(self.hand, self.reading)
        if not records:
            raise NotationError("empty", 'no hand here: expected tags like [Event "…"]', self.line, self.column)
        return records[0]


def hand_records(hand: HandText, reading: Reading | None = None) -> list[GameRecord]:
    """The records of one hand cut out of a file (one; none for white space only), parsed with
    their places in the file, a hand of gjn 1 read by ``reading`` (:func:`parse_text`).

    Raises:
        NotationError: a hand that cannot be read, located in the file (``file`` and ``hand`` set).
    """
    try:
        if hand.problem is not None:
            raise hand.problem
        return [record for record, _ in parse_text(hand.text, hand.line, hand.column, reading)]
    except NotationError as e:
        e.file, e.hand = hand.path, hand.index
        raise


def hand_tags(hand: HandText) -> dict[str, str]:
    """The tags of one hand cut out of a file, reading its tag section only.

    A tag section in a form the tag patterns do not take (a tag not closed, no tag at all,
    something else than a tag before ``deal``, ``preplay`` or ``play``) is left to the grammar,
    which reads the hand whole and says what is wrong, where (the only case that parses more
    than the tags).

    Raises:
        NotationError: located in the file, for a tag section that does not read: code ``syntax``
            (as the grammar says it), ``encoding`` (a bad byte among the tags), or what
            :func:`~gouji_record.notation.build.check_tags` raises.
    """
    text, pattern = hand.text, _tag_pattern()
    pos = _SKIP.match(text).end()
    tags: list[tuple[str, str, tuple[int, int]]] = []
    while m := pattern.match(text, pos):
        tags.append((m["name"], unescape(m["value"]), _where(hand, m.start("name"))))
        pos = _SKIP.match(text, m.end()).end()
    end = _where(hand, pos)
    if hand.problem is not None and (hand.problem.line, hand.problem.column) < end:
        raise hand.problem
    if not tags or not _BODY.match(text, pos):  # not a tag section: the grammar says why, located
        records = parse_text(text, hand.line, hand.column, unchanged)  # (tags read alike in every version)
        if not records:
            raise NotationError("syntax", 'expected a tag like [Event "…"]', *end)
        return records[0][0].tags
    return check_tags(tags)[0]


def _where(hand: HandText, pos: int) -> tuple[int, int]:
    """The file line and column of character ``pos`` of ``hand.text``."""
    line = hand.text.count("\n", 0, pos)
    start = hand.text.rfind("\n", 0, pos) + 1
    return hand.line + line, pos - start + 1 + (hand.column - 1 if line == 0 else 0)


def read_headers(
    path: str, stream: BinaryIO | None = None, encoding: str | None = None, reading: Reading | None = None
) -> Iterator[Headers]:
    """The tags of each hand of the file ``path`` (or of ``stream``, e.g. standard input, named
    ``path``), in file order, as :class:`Headers`, without parsing the deal and play or
    replaying anything. Memory is bounded by the largest hand; a hand whose tags do not read
    is yielded with its ``problem``, and the hands after it are still read. White space
    alone is no hand. ``encoding`` reads a file that is not UTF-8 (``"gb18030"``; see
    :func:`~gouji_record.notation.files.read_lines`); ``reading`` is how :meth:`Headers.record`
    reads a hand of gjn 1 with bare transfers (:func:`~gouji_record.notation.parser.parse_text`;
    :func:`gouji_record.read_headers` gives the rules' reading).

    >>> import io
    >>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
    >>> good = f'[Event "a"][Site "?"][Date "?"][Ruleset "charter"]{seats}[Result "*"] play 1:55 1:Z'
    >>> bad = f'[Event "b"][Event "c"] play 1:55'
    >>> for h in read_headers("two.gjn", io.BytesIO(f"{good}\\n{bad}\\n".encode())):
    ...     print(h.index, h.tags.get("Event"), h.problem and f"{h.problem.where()}: {h.problem}")
    1 a None
    2 None two.gjn:2:13: tag Event is given twice

    The first hand's tags read though its play does not (``1:Z``: its :meth:`Headers.record`
    raises).

    Raises:
        NotationError: code ``unreadable`` (``file`` set) when the file cannot be opened or
            read on (:class:`~gouji_record.notation.build.NotationError`).
    """
    try:
        for hand in read_hands(str(path), stream, encoding):
            if not hand.text.strip() and hand.problem is None:
                continue
            try:
                yield Headers(hand_tags(hand), hand, reading=reading)
            except NotationError as e:
                e.file, e.hand = hand.path, hand.index
                yield Headers({}, hand, e, reading)
    except NotationError as e:
        if e.code != "unreadable":
            raise
        e.file = str(path)
        raise


__all__ = ["Headers", "hand_records", "hand_tags", "read_headers"]
