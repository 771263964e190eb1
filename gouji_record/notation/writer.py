"""Writing records as canonical ``.gjn`` text (写谱).

The export form is fixed so that two programs writing the same hand write the
same bytes: required tags first in :data:`~gouji_record.model.REQUIRED_TAGS`
order, other tags after them in record order; the deal with cards strongest
first; each round on a new line, lines at most 80 columns, LF line ends.
``parse_text(write(record))`` gives back ``record``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import HAND_SIZE
from ..errors import wrong_type
from ..model import KNOWN_TAGS, REQUIRED_TAGS, Action, GameRecord, preplay_items, split_hand
from ..width import columns, is_wide, wide_chunks
from .version import VERSION_LINE

#: Longest line the writer produces (a single long token may exceed it).
WIDTH = 80
_INDENT = "   "
#: Marks a token that follows the previous one with no space (a piece of Chinese text).
_GLUE = "\0"


def escape(value: str) -> str:
    """A tag value quoted, with ``"`` and ``\\`` escaped."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tag_order(tags: dict[str, str]) -> list[str]:
    first = REQUIRED_TAGS + KNOWN_TAGS
    return [t for t in first if t in tags] + [t for t in tags if t not in first]


def _deal_line(seat: int, hand: str) -> str:
    known, unknown = split_hand(hand)
    if not known:
        return f"{seat}: -" if unknown == HAND_SIZE else f"{seat}: ?{unknown}"
    return f"{seat}: {known}" + (f" ?{unknown}" if unknown else "")


def _action_tokens(action: Action) -> list[str]:
    tokens = []
    if action.round is not None:
        tokens.append(f"{action.round}.")
    nags = "".join(f" ${n}" for n in action.nags)
    tokens.append(action.text + (action.glyph or "") + nags)
    tokens.extend(_comment_tokens(action.comments))
    return tokens


def _preplay_tokens(preplay: tuple[Action, ...]) -> list[str]:
    """The pre-play items: a purchase as ``buy`` and its two transfers, a gift as ``gift`` and its
    transfer, any other action alone."""
    tokens: list[str] = []
    for purpose, items in preplay_items(preplay):
        for n, a in enumerate(items):  # the word once, on the line of the first transfer (its text)
            tokens.extend(_action_tokens(a if n == 0 else a.model_copy(update={"purpose": None})))
    return tokens


def _comment_tokens(comments: Iterable[str]) -> list[str]:
    """Comments as words, so that long ones wrap; the parser folds white space back."""
    out: list[str] = []
    for c in comments:
        if "}" in c or "{" in c:  # cannot stand in braces: a line comment, which ends its line
            out.append("; " + c)
            continue
        groups: list[list[str]] = []  # a space between wide characters must not become a line break
        for word in c.split() or [""]:
            if groups and is_wide(groups[-1][-1][-1:]) and is_wide(word[:1]):
                groups[-1].append(word)
            else:
                groups.append([word])
        words = [" ".join(group) for group in groups]
        words[0] = "{" + words[0]
        words[-1] = words[-1] + "}"
        for word in words:
            first, *rest = wide_chunks(word, WIDTH // 4)
            out.append(first)
            out.extend(_GLUE + piece for piece in rest)
    return out


def _fill(lines: list[str], tokens: list[str]) -> None:
    """Append ``tokens`` as lines of at most :data:`WIDTH` columns."""
    line, width, ended = "", 0, False  # width: columns(line), kept as tokens are added
    for tok in tokens:
        glued = tok.startswith(_GLUE)
        tok = tok.removeprefix(_GLUE)
        size = columns(tok)
        if line and (ended or width + (0 if glued else 1) + size > WIDTH):
            lines.append(line)
            line, width = _INDENT + tok, len(_INDENT) + size
        else:
            space = not glued and bool(line)
            line, width = line + (" " if space else "") + tok, width + space + size
        ended = tok.startswith("; ")  # a line comment runs to the end of its line
    if line:
        lines.append(line)


def write(record: GameRecord) -> str:
    """The canonical text of one hand, ending with a newline: first the version of the notation
    (:data:`~gouji_record.notation.version.VERSION_LINE`), then the tags.

    Raises:
        BadArgument: ``record`` is not a :class:`~gouji_record.model.GameRecord`.
    """
    if not isinstance(record, GameRecord):
        raise wrong_type("record", record, "a GameRecord")
    lines = [VERSION_LINE] + [f"[{name} {escape(record.tags[name])}]" for name in _tag_order(record.tags)]
    lines.append("")
    lines.append("deal")
    lines.extend(_deal_line(seat, hand) for seat, hand in enumerate(record.deal, start=1))
    lines.append("")
    if record.preplay or record.empty_preplay:  # (gjn 2.4: written empty, nothing happened before play)
        lines.append("preplay")
        _fill(lines, _comment_tokens(record.comment))
        _fill(lines, _preplay_tokens(record.preplay))
        lines.append("")
        lines.append("play")
    else:
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
    """Several hands, separated by one blank line.

    Raises:
        BadArgument: one of ``records`` is not a :class:`~gouji_record.model.GameRecord`.
    """
    return "\n".join(write(r) for r in records)
