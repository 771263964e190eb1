"""Reports for people: located error messages and hand summaries (报告).

Turns what the parser and the engine say into text: ``FILE:LINE:COL:
error[CODE]: message``, the offending line with a caret under it, and the
rule with its source; and the summary ``gouji validate`` prints.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from typing import Any

from ..model import GameRecord
from ..notation.build import SourceMap
from ..width import columns
from .replay import Replay
from ..rules.events import PLACE_NAMES_EN, PLACE_NAMES_ZH, Diagnostic, EventKind
from ..rules.rulesets import RULES, BadOption, Ruleset, options_tag


def printable(text: str) -> str:
    r"""``text`` safe to print on a terminal: control characters (ANSI and OSC escape sequences
    start with one), other than line ends and tabs, shown escaped as ``\x1b``, ``\u2028``.

    >>> print(printable("Event \x1b]0;pwned\x07 ok"))
    Event \x1b]0;pwned\x07 ok
    """
    if text.replace("\n", "").replace("\t", "").isprintable():  # (the common case, at C speed)
        return text
    return "".join(
        c if c.isprintable() or c in "\n\t" or unicodedata.category(c) in ("Zs", "Co") else repr(c)[1:-1]
        for c in text
    )


#: How many characters of a long source line are shown on each side of the column.
_CONTEXT = 100


@dataclass(frozen=True)
class Problem:
    """One located problem: why a hand is not valid, or cannot be read or judged. ``line`` and
    ``column`` are 1-based (0 when not known); ``width`` is how many characters the caret marks;
    ``rule`` is the rule's key (``gouji rules``; empty when no rule is concerned: a syntax error)
    and ``source`` its citation; ``message_zh`` the message in Chinese (empty when there is none);
    ``hand`` the hand's number in its file (from 1; ``None`` for a file as a whole) and ``action``
    the action's number (from 1, pre-play actions first: ``None`` for the hand as a whole, or
    ``tag``, the tag the problem is at). :meth:`as_dict` is the one JSON shape every command
    writes (docs/notation.md, "Errors")."""

    path: str
    line: int
    column: int
    code: str
    message: str
    width: int = 1
    rule: str = ""
    #: The text of line ``line``, kept with the problem (see :meth:`quoting`), or ``None``.
    source_line: str | None = None
    source: str = ""
    message_zh: str = ""
    hand: int | None = None
    action: int | None = None
    tag: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """The problem as JSON-ready data, the shape ``validate --format json`` (``error``,
        ``match_errors``), ``export --with-verdict``, ``review`` and ``events`` all write:
        ``code``, ``message``, ``message_zh``, ``rule`` (its key) and ``rule_name``, ``source``,
        ``file``, ``hand``, ``line``, ``column``, ``action`` and ``tag``, ``None`` for what is not
        known or does not apply.

        >>> Problem("a.gjn", 3, 7, "syntax", "expected a seat", hand=2).as_dict()["line"]
        3
        """
        return {
            "code": self.code,
            "message": self.message,
            "message_zh": self.message_zh or None,
            "rule": self.rule or None,
            "rule_name": RULES.get(self.rule, (self.rule, ""))[0] if self.rule else None,
            "source": self.source or None,
            "file": self.path or None,
            "hand": self.hand,
            "line": self.line or None,
            "column": self.column or None,
            "action": self.action,
            "tag": self.tag,
        }

    def quoting(self, text_lines: list[str] | None) -> Problem:
        """This problem with its line taken from ``text_lines`` (indexed from line 1 at 0), so that
        it can be formatted once the file's lines are gone."""
        if text_lines is None or not 0 < self.line <= len(text_lines):
            return self
        return replace(self, source_line=text_lines[self.line - 1])

    def format(self, text_lines: list[str] | None = None) -> str:
        """The problem as text: the one-line error, then the line and a caret, then the rule."""
        where = f"{self.line}:{self.column}:" if self.line > 0 else ""
        out = [printable(f"{self.path}:{where} error[{self.code}]: {self.message}")]
        src = self.source_line
        if src is None and text_lines is not None and 0 < self.line <= len(text_lines):
            src = text_lines[self.line - 1]
        if src is not None:
            src = src.rstrip("\n")
            start = max(0, self.column - 1 - _CONTEXT)  # a very long line is shown around the column
            before = ("…" if start else "") + printable(src[start : self.column - 1].expandtabs())
            after = printable(src[self.column - 1 : self.column - 1 + _CONTEXT].expandtabs())
            gutter = f"{self.line:>5} | "
            out.append(gutter + before + after + ("…" if len(src) > self.column - 1 + _CONTEXT else ""))
            out.append(" " * (len(gutter) - 2) + "| " + " " * columns(before) + "^" * max(1, min(self.width, 40)))
        if self.rule:
            en, zh = RULES.get(self.rule, (self.rule, ""))
            out.append(f"  rule: {en}{f' ({zh})' if zh else ''} — {self.source}")
        return "\n".join(out)


def _token_width(text_lines: list[str], line: int, column: int) -> int:
    if not 0 < line <= len(text_lines):
        return 1
    rest = text_lines[line - 1][column - 1 :]
    return len(rest.split(None, 1)[0]) if rest.strip() else 1


def diagnostic_problem(
    path: str, diag: Diagnostic, where: SourceMap | None, text_lines: list[str] | None = None,
    *, hand: int | None = None, tag: str | None = None,
) -> Problem:
    """Locate an engine diagnostic in the file: at its action, or, for the hand as a whole, at
    ``tag`` (default: the Score tag for ``score-mismatch``, else the Result tag), or where the
    hand starts when that tag is not written; line and column 0 without ``where`` (a record
    made in Python)."""
    if diag.action is not None:
        tag = None
    elif tag is None:
        tag = "Score" if diag.code == "score-mismatch" else "Result"
    line = column = 0
    if where is not None and diag.action is not None and diag.action < len(where.actions):
        marker = where.rounds.get(diag.action) if diag.code == "round-mismatch" else None
        line, column = marker or where.actions[diag.action]
    elif where is not None:
        line, column = where.tags.get(tag or "Result", where.start)
    return Problem(
        path,
        line,
        column,
        diag.code,
        diag.message,
        _token_width(text_lines or [], line, column),
        diag.rule,
        source=diag.source,
        message_zh=diag.message_zh,
        hand=hand,
        action=diag.number,
        tag=tag,
    )


def place_lines(record: GameRecord, places: tuple[int, ...]) -> list[str]:
    """``头科 1st  seat 5  Liu Yang`` for each place taken."""
    return [
        f"{PLACE_NAMES_ZH[i]} {PLACE_NAMES_EN[i]:>3}  seat {seat}  {record.player(seat)}"
        for i, seat in enumerate(places)
    ]


def _changed(rules: Ruleset) -> str:
    """The options an ``Options`` tag changed, as ``" with threes-held=yes, …"`` (``""`` for none)."""
    try:
        changed = options_tag(rules)
    except BadOption:  # a variant made in Python (scoring): say so without the detail
        changed = "options changed in Python"
    return f" with {changed}" if changed else ""


def rulings(result: Replay, where: SourceMap | None = None) -> list[dict]:
    """The rulings (裁定) on the actions a record marks irregular (``^``): per ruled action, its
    number (1-based, as the command line counts), its text, its line and column when ``where`` is
    given, the diagnostic the engine ruled (code, message in English and Chinese, rule, source)
    and whether the seat lost its turn (错牌不出: it was its turn, so the wrong play counts as a pass).
    An irregular action that is legal stands, and gets no ruling."""
    actions = result.record.all_actions
    out: list[dict] = []
    for e in result.events:
        if e.kind is not EventKind.RULING:
            continue
        if not e.note:  # the second event of a ruling: the turn is lost
            if out and out[-1]["action"] == e.action + 1:
                out[-1]["turn_lost"] = True
            continue
        code, _, message = e.note.partition(": ")
        loc = where.actions[e.action] if where is not None and e.action < len(where.actions) else None
        out.append(
            {
                "action": e.action + 1,
                "text": actions[e.action].text,
                "line": loc[0] if loc else None,
                "column": loc[1] if loc else None,
                "code": code,
                "message": message,
                "message_zh": e.note_zh.partition(": ")[2],
                "rule": e.rule,
                "rule_name": RULES.get(e.rule, (e.rule, ""))[0],
                "source": e.source,
                "turn_lost": False,
            }
        )
    return out


def summary(path: str, index: int, result: Replay, where: SourceMap | None = None) -> str:
    """What ``gouji validate`` prints for one valid hand, with each ruling on an action marked
    irregular (``^``): where it stands, what the engine ruled, the rule and its source."""
    record, rules = result.record, result.ruleset
    title = record.tags.get("Event", "")
    lines = [
        f"{path}: hand {index}{' (' + title + ')' if title else ''}: valid under {rules.name}"
        f"{_changed(rules)} ({rules.title})"
    ]
    score = result.score
    if result.final.void:
        lines.append("  void hand (该局作废): two or more revolutions")
    elif score is not None:
        lines += ["  " + p for p in place_lines(record, result.places)]
        lines.append(f"  score: team 1-3-5 {score.teams[1]}, team 2-4-6 {score.teams[0]}")
        extras = [f"seat {s} {v:+d}" for s, v in score.seats.items() if v]
        if extras:
            counted = "in the team scores" if rules.scoring.extras_count_for_team else "personal"
            lines.append(f"  extras ({counted}): " + ", ".join(extras))
    else:
        lines.append(f'  unfinished after {len(record.actions)} actions (Result "*")')
        lines += ["  " + p for p in place_lines(record, result.places)]
    burns = result.count(EventKind.BURN)
    lines.append(
        f"  够级 gouji plays {result.count(EventKind.GOUJI)}, 开点 opened {result.count(EventKind.OPEN)}, "
        f"烧牌 burns {burns} (success {result.count(EventKind.BURN_SUCCESS)}, "
        f"broken {result.count(EventKind.BURN_BROKEN)}), 接风 {result.count(EventKind.TAKE_THE_WIND)}"
    )
    others = [
        (EventKind.SMOTHER, "闷 smothered"),
        (EventKind.REVOLUTION, "革命 revolutions"),
        (EventKind.COUNTER_BURN, "反捎牌 counter-burns"),
        (EventKind.BURN_FAILURE, "烧失败 burn failures"),
    ]
    shown = [f"{label} {result.count(kind)}" for kind, label in others if result.count(kind)]
    if shown:
        lines.append("  " + ", ".join(shown))
    for r in rulings(result, where):
        at = f"{path}:{r['line']}:{r['column']}: " if r["line"] else ""
        outcome = "not made, and the seat loses its turn (错牌不出)" if r["turn_lost"] else "not made (错牌不出)"
        lines.append(f"  {at}ruling (裁定) on action {r['action']} {r['text']}: {outcome}")
        lines.append(f"    {r['code']}: {r['message']}")
        zh = RULES.get(r["rule"], ("", ""))[1]
        lines.append(f"    rule: {r['rule_name']}{f' ({zh})' if zh else ''} — {r['source']}")
    return "\n".join(lines)
