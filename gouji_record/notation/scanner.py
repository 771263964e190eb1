"""A fast reader for hands in the usual layout (快速读谱), for large files.

Lark's LALR parser costs about 25 µs per action; most files are machine-written
in the canonical layout, where one regular expression per section does the
same work in about 2 µs. This scanner reads that layout: each tag on its own
line, ``deal``, ``preplay`` and ``play`` each alone on its line, one deal entry
per line, and in the pre-play and play sections any sequence of actions (with
their annotations written against them), round numbers and comments. Every
token is matched with the grammar's own terminal pattern (as Lark compiles
it: :mod:`~gouji_record.notation.terminals`, made from the grammar, which a
test compares with it), each in an atomic group so that it matches exactly
what Lark's lexer matches, and the hands are built by the same
:func:`~gouji_record.notation.build.build_hand` as the grammar's.

It returns ``None`` at the first thing outside that layout — a syntax error
or merely an unusual layout — and the caller then parses the text with the
grammar, which gives the result, or the diagnostic, that is authoritative.
``tests/test_scanner.py`` checks that the two readers agree.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .build import (
    Located,
    Section,
    action_from_token,
    build_hand,
    comment_text,
    declaration_item,
    labelled,
    purchase_items,
    section,
    transfer_item,
    unescape,
    with_marks,
)
from .terminals import TERMINALS

_WS = r"[ \t\f]*"  # white space within a line (the grammar's WS without the newline)


def _terminals() -> dict[str, str]:
    """Each terminal's pattern from the grammar, as an atomic group."""
    return {name: f"(?>{pattern})" for name, pattern in TERMINALS.items()}


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern, ...]:
    t = _terminals()
    end = rf"{_WS}(?:\n|\Z)"
    tag = re.compile(rf"{_WS}\[{_WS}(?P<name>{t['TAG_NAME']}){_WS}(?P<value>{t['STRING']}){_WS}\]{end}")
    blank = re.compile(rf"{_WS}\n")
    keyword = re.compile(rf"{_WS}(?P<word>deal|preplay|play){end}")
    entry = re.compile(
        rf"{_WS}(?P<seat>{t['SEAT']}){_WS}"
        rf"(?:(?P<cards>{t['DEAL_CARDS']}){_WS}(?P<unknown>{t['UNKNOWN']})?|(?P<only>{t['UNKNOWN']}|{t['PASS']})){end}"
    )
    comment = rf"(?P<comment>{t['COMMENT']}|{t['LINE_COMMENT']})"
    preplay = re.compile(
        rf"{_WS}(?:(?P<nl>\n)|(?P<give>{t['GIVE']}){_WS}(?P<cards>{t['CARDS']})(?:{_WS}(?P<glyph>{t['GLYPH']}))?"
        rf"|(?P<seat>{t['SEAT']}){_WS}(?P<word>{t['DECLARATION']})(?:{_WS}(?P<glyph2>{t['GLYPH']}))?|{comment}"
        rf"|(?P<buy>{t['BUY']})|(?P<gift>{t['GIFT']})|(?P<refuse>{t['REFUSE']})"
        rf"|(?P<play>play)|(?P<other>.))"
    )
    # groups, for findall: white space, action, newline, round number, comment, glyph, numeric
    # annotation, other (an action's annotations are tokens of their own: trying them after every
    # action cost a fifth of the matching)
    play = re.compile(
        rf"({_WS})(?:({t['ACTION']})|(\n)|({t['ROUND_NUMBER']})|({t['COMMENT']}|{t['LINE_COMMENT']})"
        rf"|({t['GLYPH']})|({t['NAG']})|(.))"
    )
    assert play.groups == 8, "a terminal pattern has a capturing group"
    return tag, blank, keyword, entry, preplay, play


_END = re.compile(rf"{_WS}\Z")
_NEXT_HAND = re.compile(rf"\n{_WS}\[")  # a line that starts a hand


class _Decline(Exception):
    """The text is not in the usual layout: leave it to the grammar."""


class _Cursor:
    """A position in the text and the line it is on."""

    __slots__ = ("line", "line_start", "pos", "text")

    def __init__(self, text: str, first_line: int, first_column: int = 1) -> None:
        # columns on the first line count from first_column: as if the line started before the text
        self.text, self.pos, self.line, self.line_start = text, 0, first_line, 1 - first_column

    def token(self, m: re.Match, group: str) -> Located:
        """The text of ``group`` (a token of the grammar) and where it stands."""
        return Located(m.group(group), self.line, m.start(group) - self.line_start + 1)

    def newline(self, end: int) -> None:
        self.line += 1
        self.line_start = end

    def skip_comment(self, m: re.Match) -> str:
        raw = m.group("comment")
        lines = raw.count("\n")
        if lines:
            self.line += lines
            self.line_start = m.start("comment") + raw.rfind("\n") + 1
        return _comment(raw)


def _comment(raw: str) -> str:
    """A comment's text; one the grammar's reader must refuse (a control character in it) is
    left to that reader, which locates the error."""
    try:
        return comment_text(raw)
    except ValueError:
        raise _Decline from None


def scan(text: str, first_line: int = 1, first_column: int = 1) -> list | None:
    """The ``(record, source map)`` pairs of every hand in ``text`` (newlines already
    normalised), or ``None`` if some part of it is not in the usual layout.

    Raises :class:`~gouji_record.notation.build.NotationError` as the grammar's
    reader would for a hand that reads but does not check (a missing tag, a bad
    deal); callers that want the grammar's error in every case parse again.
    """
    try:
        return _scan(_Cursor(text, first_line, first_column))
    except _Decline:
        return None


def _scan(c: _Cursor) -> list:
    tag_re, blank_re, keyword_re, entry_re, preplay_re, play_re = _patterns()
    end_re = _END
    text, hands = c.text, []
    while True:
        while m := blank_re.match(text, c.pos):
            c.pos = m.end()
            c.newline(c.pos)
        if end_re.match(text, c.pos):
            return hands
        tags = []  # (name, value, location), as build_hand takes them
        pos, line, line_start = c.pos, c.line, c.line_start
        while True:
            if m := tag_re.match(text, pos):
                name, value = m.group("name", "value")
                tags.append((name, unescape(value), (line, m.start("name") - line_start + 1)))
            elif not (m := blank_re.match(text, pos)):
                break
            pos = line_start = m.end()  # each tag on its own line
            line += 1
        c.pos, c.line, c.line_start = pos, line, line_start
        m = keyword_re.match(text, c.pos)
        if not tags or not m:
            raise _Decline
        deal = preplay = None
        if m.group("word") == "deal":
            deal, m = _deal(c, m, entry_re, blank_re, keyword_re)
        if m.group("word") == "preplay":
            c.pos = m.end()
            c.newline(c.pos)
            preplay = _preplay(c, preplay_re)
        elif m.group("word") == "play":
            c.pos = m.end()
            c.newline(c.pos)
        else:
            raise _Decline
        items = _play(c, play_re)
        hands.append(build_hand(tags, deal, preplay, items))


def _deal(c: _Cursor, m: re.Match, entry_re, blank_re, keyword_re):
    text, entries = c.text, []
    c.pos = m.end()
    c.newline(c.pos)
    while True:
        if m := entry_re.match(text, c.pos):
            seat = c.token(m, "seat")
            if m.group("only"):
                entries.append((seat, None, c.token(m, "only")))
            else:
                unknown = c.token(m, "unknown") if m.group("unknown") is not None else None
                entries.append((seat, c.token(m, "cards"), unknown))
        elif m := keyword_re.match(text, c.pos):
            if not entries or m.group("word") == "deal":
                raise _Decline
            return entries, m
        elif not (m := blank_re.match(text, c.pos)):
            raise _Decline
        c.pos = m.end()
        c.newline(c.pos)


def _preplay(c: _Cursor, preplay_re) -> Section:
    items: list = []
    group: list | None = None  # the items of a purchase, a gift or a refusal being read
    purpose = ""
    for m in preplay_re.finditer(c.text, c.pos):
        if m.group("nl") is not None:
            c.newline(m.end())
        elif m.group("give") is not None:
            item = transfer_item(c.token(m, "give"), c.token(m, "cards"), m.group("glyph"))
            if group is None:
                items.append(item)
                continue
            group.append(item)
            if purpose != "buy":  # a gift, a refusal: one transfer
                items.append(labelled(item, purpose))
                group = None
            elif sum(1 for g in group if g[0] == "action") == 2:
                items.extend(purchase_items(group))
                group = None
        elif m.group("buy") is not None or m.group("gift") is not None or m.group("refuse") is not None:
            if group is not None:
                raise _Decline
            group, purpose = [], next(word for word in ("buy", "gift", "refuse") if m.group(word) is not None)
        elif group is not None and (not group or m.group("comment") is None):
            raise _Decline  # inside a purchase or gift only a comment between its two transfers
        elif m.group("seat") is not None:
            items.append(declaration_item(c.token(m, "seat"), m.group("word"), m.group("glyph2")))
        elif m.group("comment") is not None:
            (group if group is not None else items).append(("comment", c.skip_comment(m)))
        elif m.group("play") is not None:
            c.pos = m.end()
            return section(items)
        else:
            raise _Decline
    raise _Decline


def _play(c: _Cursor, play_re) -> Section:
    """The play section up to the next hand: the hot loop, one ``findall`` (no match objects)."""
    text, pos, line, line_start = c.text, c.pos, c.line, c.line_start
    following = _NEXT_HAND.search(text, pos)
    end = following.start() + 1 if following else len(text)
    play = Section()
    actions, where, rounds, comments = play.actions, play.where, play.rounds, play.comments
    append, locate = actions.append, where.append
    written = ""  # the last action's token
    annotated: str | None = None  # its annotations so far; None: the last token was no action's
    for space, action, newline, number, comment, glyph, nag, other in play_re.findall(text, pos, end):
        pos += len(space)
        if action:
            if "\n" in action:
                raise _Decline
            append(action_from_token(action))
            locate((line, pos - line_start + 1))  # the action's first character, its ^ included
            pos += len(action)
            written, annotated = action, ""
            continue
        if glyph or nag:  # after an action on its line, as the grammar has them: a glyph first, then any $n
            if annotated is None or (glyph and annotated):
                raise _Decline
            annotated += space + glyph + nag
            glyphs = "".join(ch for ch in annotated if ch in "!?") or None
            actions[-1] = with_marks(action_from_token(written), glyphs, annotated)
            pos += len(glyph) + len(nag)
            continue
        annotated = None
        if newline:
            pos += 1
            line, line_start = line + 1, pos
        elif comment:
            comments.append((len(actions), _comment(comment)))
            if "\n" in comment:
                line += comment.count("\n")
                line_start = pos + comment.rfind("\n") + 1
            pos += len(comment)
        elif number:
            rounds.append((len(actions), number, (line, pos - line_start + 1)))
            pos += len(number)
        else:
            raise _Decline
    c.pos, c.line, c.line_start = end, line, line_start
    return play
