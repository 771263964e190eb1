"""The notation's version (记谱法版本): the ``[Notation "gjn 2.4"]`` tag a hand carries, what a reader
makes of it, and what the writer writes (docs/notation.md, "Versions").

A version is ``MAJOR.MINOR``. A minor version only adds to the notation: a text that reads under
two minor versions of one major means the same under both, so a reader reads a file of a minor
version above its own (what it does not know is a located error, as any text it cannot read). A
major version may give a text another meaning (2.0: a transfer written alone is no longer a
purchase), so a reader refuses a major version it does not know.

>>> parse_version("gjn 2.4", (1, 1))
(2, 4)
>>> parse_version("gjn 9.0", (4, 2))
Traceback (most recent call last):
  ...
gouji_record.errors.NotationError: [Notation "gjn 9.0"]: expected "gjn 1.N" or "gjn 2.N" (this reader follows gjn 2.4); gjn 9 is a notation it does not know: read the file with a gouji-record that knows gjn 9
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ..errors import NotationError
from ..model import NOTATION_TAG, ActionKind, GameRecord

#: The tag that says which version of the notation a hand follows.
VERSION_TAG = NOTATION_TAG
#: The version this reader and writer follow.
CURRENT = (2, 4)
#: The version from which a ``preplay`` section written empty says nothing happened before play.
EMPTY_PREPLAY = (2, 4)
#: The major versions this reader reads (1: before ``buy`` and ``gift``; docs/notation.md, "Versions").
KNOWN_MAJORS = (1, 2)
#: What the writer writes as the first line of every hand.
VERSION_LINE = f'[{VERSION_TAG} "gjn {CURRENT[0]}.{CURRENT[1]}"]'

#: How a hand of major version 1 reads where its meaning needs the rules (bare transfers that may be
#: a purchase or a gift: docs/notation.md §8.2): ``(record, source map) → (record, source map)``
#: (a :class:`~gouji_record.notation.build.SourceMap`, the hand's places in the file).
#: The rules are a layer above the notation, so a caller that reads such hands passes one:
#: :func:`gouji_record.judging.legacy.read_as_written`, as :func:`gouji_record.read`,
#: :func:`gouji_record.parse` and every command do. Nothing here holds one.
Reading = Callable[[GameRecord, Any], tuple[GameRecord, Any]]


_VALUE = re.compile(r"gjn ([0-9]{1,4})\.([0-9]{1,4})")


def version_text(version: tuple[int, int] = CURRENT) -> str:
    """A version as the tag writes it: ``(2, 3)`` → ``"gjn 2.3"``."""
    return f"gjn {version[0]}.{version[1]}"


def parse_version(value: str, where: tuple[int, int]) -> tuple[int, int]:
    """The ``(major, minor)`` of a ``Notation`` tag's value (``"gjn 2.3"``).

    A minor version above :data:`CURRENT`'s is read without a word (docs/notation.md, "Versions":
    it only adds).

    Raises:
        NotationError: at ``where`` (the tag's line and column): code ``bad-tag`` for a value not of
            the form ``gjn MAJOR.MINOR``, ``notation-version`` for a major version this reader does
            not know (:data:`KNOWN_MAJORS`).
    """
    m = _VALUE.fullmatch(value)
    if m is None:
        shown = value if len(value) <= 24 else value[:20] + "…"
        raise NotationError(
            "bad-tag",
            f'tag {VERSION_TAG} {shown!r}: expected "gjn MAJOR.MINOR", like "{version_text()}"',
            *where,
        )
    major, minor = int(m.group(1)), int(m.group(2))
    if major not in KNOWN_MAJORS:
        known = " or ".join(f'"gjn {n}.N"' for n in KNOWN_MAJORS)
        raise NotationError(
            "notation-version",
            f"[{VERSION_TAG} \"{value}\"]: expected {known} (this reader follows {version_text()}); "
            f"gjn {major} is a notation it does not know: read the file with a gouji-record that knows gjn {major}",
            *where,
        )
    return major, minor


_TAG_IN_TEXT = re.compile(r'\[[ \t]*' + VERSION_TAG + r'[ \t]*"gjn ([0-9]{1,4})\.([0-9]{1,4})"')


def newer_note(text: str) -> str:
    """What to add to an error in ``text`` that says it follows a minor version above
    :data:`CURRENT` (``"; the hand follows gjn 2.5, …"``), else ``""``: a later minor version may
    add what this reader cannot read, and the note says so where it matters, at the error."""
    m = _TAG_IN_TEXT.search(text)
    if m is None:
        return ""
    version = (int(m.group(1)), int(m.group(2)))
    if version[0] != CURRENT[0] or version <= CURRENT:
        return ""
    return f"; the hand follows {version_text(version)}, later than this reader's {version_text()}: a later gouji-record may read it"


def legacy(record, version: tuple[int, int] | None) -> bool:
    """Whether a hand follows the notation before ``buy`` and ``gift`` (major version 1): it says
    so (``[Notation "gjn 1.3"]``), or it says no version and writes no ``buy``, no ``gift`` and no
    ``refuse`` (a file that writes them is of version 2, whatever it omits)."""
    if version is not None:
        return version[0] == 1
    return not any(a.purpose for a in record.preplay)


def unchanged(record: GameRecord, where: Any) -> tuple[GameRecord, Any]:
    """A :data:`Reading` that leaves a hand as parsed, its bare transfers tribute whatever its
    version: for a reader that wants only a hand's tags (they read alike in every version)."""
    return record, where


def as_written(hands: list, reading: Reading | None) -> list:
    """The ``(record, source map)`` pairs of parsed hands, each read as the version it follows
    says: ``reading`` applied to each hand of major version 1 (:func:`legacy`) with a bare
    transfer, the others as parsed.

    Raises:
        NotationError: code ``notation-version``, at its first bare transfer, for such a hand when
            ``reading`` is ``None``: what it records depends on its rules, which this layer does not
            read, and it is never guessed.
    """
    out = []
    for record, where in hands:
        bare = next((i for i, a in enumerate(record.preplay) if a.kind is ActionKind.GIVE and a.purpose is None), None)
        if bare is not None and legacy(record, where.version):
            if reading is None:
                raise NotationError(
                    "notation-version",
                    f"transfer {record.preplay[bare].plain_text}: a hand of gjn 1 (no {VERSION_TAG} tag, no buy or gift) "
                    "writes purchases and gifts as bare transfers, which read under its rules (docs/notation.md §8.2): "
                    "read it with gouji_record.read or parse, or give parse_text the reading "
                    "gouji_record.judging.legacy.read_as_written",
                    *where.actions[bare],
                )
            record, where = reading(record, where)
        out.append((record, where))
    return out


__all__ = [
    "CURRENT",
    "EMPTY_PREPLAY",
    "KNOWN_MAJORS",
    "VERSION_LINE",
    "VERSION_TAG",
    "Reading",
    "as_written",
    "legacy",
    "newer_note",
    "parse_version",
    "unchanged",
    "version_text",
]
