"""Writing records as canonical ``.gjn`` text (写谱).

The export form is fixed so that two programs writing the same hand write the
same bytes: required tags first in :data:`~gouji_record.model.REQUIRED_TAGS`
order, other tags after them in record order; the deal with cards strongest
first; each round on a new line, lines at most 80 columns, LF line ends.
``parse_text(write(record))`` gives back ``record``.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from ..model import REQUIRED_TAGS, Action, GameRecord

#: Longest line the writer produces (a single long token may exceed it).
WIDTH = 80
_INDENT = "   "


def escape(value: str) -> str:
    """A tag value quoted, with ``"`` and ``\\`` escaped."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tag_order(tags: dict[str, str]) -> list[str]:
    return [t for t in REQUIRED_TAGS if t in tags] + [t for t in tags if t not in REQUIRED_TAGS]


def _action_tokens(action: Action) -> list[str]:
    tokens = []
    if action.round is not None:
        tokens.append(f"{action.round}.")
    tokens.append(action.text + (action.glyph or ""))
    tokens.extend(_comment_tokens(action.comments))
    return tokens


def _comment_tokens(comments: Iterable[str]) -> list[str]:
    """Comments as words, so that long ones wrap; the parser folds white space back."""
    out: list[str] = []
    for c in comments:
        if "}" in c:  # cannot stand in braces: a line comment, which ends its line
            out.append("; " + c)
            continue
        words = c.split() or [""]
        words[0] = "{" + words[0]
        words[-1] = words[-1] + "}"
        out.extend(words)
    return out


def columns(text: str) -> int:
    """Display width of ``text``: wide (CJK) characters take two columns."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _fill(lines: list[str], tokens: list[str]) -> None:
    """Append ``tokens`` as lines of at most :data:`WIDTH` columns."""
    line, ended = "", False
    for tok in tokens:
        if line and (ended or columns(line) + 1 + columns(tok) > WIDTH):
            lines.append(line)
            line = _INDENT + tok
        else:
            line = f"{line} {tok}" if line else tok
        ended = tok.startswith("; ")  # a line comment runs to the end of its line
    if line:
        lines.append(line)


def write(record: GameRecord) -> str:
    """The canonical text of one hand, ending with a newline."""
    lines = [f"[{name} {escape(record.tags[name])}]" for name in _tag_order(record.tags)]
    lines.append("")
    lines.append("deal")
    lines.extend(f"{seat}: {cards}" for seat, cards in enumerate(record.deal, start=1))
    lines.append("")
    lines.append("play")
    _fill(lines, _comment_tokens(record.comment))
    tokens: list[str] = []
    for action in record.actions:
        if action.round is not None and tokens:
            _fill(lines, tokens)
            tokens = []
        tokens.extend(_action_tokens(action))
    _fill(lines, tokens)
    return "\n".join(lines) + "\n"


def write_all(records: Iterable[GameRecord]) -> str:
    """Several hands, separated by one blank line."""
    return "\n".join(write(r) for r in records)
