"""``gouji events``: who did what (谁做了什么), every event of each hand, located in its file.

Each hand is judged once (:func:`verdict`), and its events listed as the engine derived them
(:class:`~gouji_record.rules.events.Event`): 够级, 打点, 烧牌 and how it ended, 开点, 闷, 接风, 无头,
四户乱缠, 走科 / 定科 / 出局 with places, 革命, the rulings on ``^`` actions, and the cards that change
hands before play, a match's tribute named by its kind (落贡, 还贡, 点贡 …) as
:func:`gouji_record.matches.match.transfer_kinds` explains the transfers, as the replay page names them.
Each event comes with its hand, the number of the action that caused it (from 1) and where that
action stands in the file (``FILE:LINE:COL``), its round (一轮; none before play), its seats and
their players (Seat tags), cards, place, rule key, the rule's source, and note. A hand that stops
at an illegal action (or whose Result tag disagrees with the play) lists its events up to there,
then the diagnostic.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import click

from ..judging.buying import trade_names
from ..judging.replay import Replay, RulesetOverride
from ..judging.report import Problem, printable
from ..matches.match import KIND_NAMES
from ..matches.verdict import REFUSED_AT, MatchJudge, Verdict
from ..model import GameRecord
from ..rules.events import PLACE_NAMES_EN, PLACE_NAMES_ZH, EventKind
from ..running.batch import ReadHand
from .common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    EXIT_UNREADABLE,
    check_hand_count,
    encoding_opt,
    hand_opt,
    kind_opt,
    ruleset_opt,
)
from .common import (
    _fail as fail,
)
from .common import (
    _records as records,
)

#: The keys of every object of ``--format json`` and the columns of ``--format csv``, in order.
COLUMNS = (
    "file",
    "hand",
    "action",
    "line",
    "column",
    "round",
    "kind",
    "en",
    "zh",
    "seats",
    "players",
    "cards",
    "place",
    "tribute",
    "rule",
    "source",
    "note",
    "note_zh",
    "code",
)
#: The ``kind`` of the row that ends an illegal hand: its diagnostic (违规诊断).
DIAGNOSTIC = "diagnostic"


def _names(record: GameRecord, kinds: list[str | None] | None) -> list[tuple[str, str] | None]:
    """Per pre-play action, the name of the cards it gives, in Chinese and English: a purchase
    or a gift (买三, 赠与: :func:`gouji_record.judging.buying.trade_names`), a tribute by its kind
    (``kinds``, from :func:`gouji_record.matches.match.transfer_kinds`: 落贡, 还贡 …), else ``None``:
    as the replay page names them."""
    names = trade_names(record.preplay)
    for i, kind in enumerate(kinds or ()):
        if kind is not None:
            names[i] = KIND_NAMES[kind]
    return names


def event_rows(read: ReadHand, result: Replay, kinds: list[str | None] | None = None) -> list[dict[str, Any]]:
    """One row per event of ``result`` (the verdict on the hand ``read``), in the order derived,
    each with the keys of :data:`COLUMNS`: ``action`` numbered from 1, ``line`` and ``column``
    where that action is written (``None`` for an event after the last action), ``round``
    (``None`` before play), ``kind`` (an :class:`~gouji_record.rules.events.EventKind` value) and
    its names ``en`` and ``zh`` — for cards given before play, the purchase's or the tribute's
    (``kinds``: per pre-play action, the kind of tribute it pays, or ``None``), that kind in
    ``tribute`` — ``seats`` as the engine gives them (the acting seat first; a burn: burner, then
    the seat burned) and their ``players``, ``place`` (1–6) for ``finish``, ``placed`` and
    ``out``, ``rule`` (a key of ``gouji rules``) and its ``source``, ``note`` in English and
    ``note_zh`` in Chinese (``""`` for none); ``code`` is ``None`` (a diagnostic's row has one)."""
    record, where = result.record, read.where
    names = _names(record, kinds)
    rows = []
    for e in result.events:
        at = where.actions[e.action] if e.action < len(where.actions) else None
        named = names[e.action] if e.kind is EventKind.GIVE and e.action < len(names) else None
        tribute = kinds[e.action] if e.kind is EventKind.GIVE and kinds and e.action < len(kinds) else None
        rows.append(
            {
                "file": read.hand.path,
                "hand": read.hand.index,
                "action": e.number,
                "line": at[0] if at else None,
                "column": at[1] if at else None,
                "round": e.round,
                "kind": e.kind.value,
                "en": named[1] if named else e.kind.en,
                "zh": named[0] if named else e.kind.zh,
                "seats": list(e.seats),
                "players": [record.player(s) for s in e.seats],
                "cards": e.cards,
                "place": e.place,
                "tribute": tribute,
                "rule": e.rule,
                "source": e.source,
                "note": e.note,
                "note_zh": e.note_zh,
                "code": None,
            }
        )
    return rows


def problem_row(p: Problem, record: GameRecord | None = None, round_: int | None = None) -> dict[str, Any]:
    """The row of a problem ``p`` (located: :meth:`~gouji_record.matches.verdict.Verdict.problems`,
    or a hand that cannot be read), with the keys of :data:`COLUMNS` filled from the one shape of
    a problem (:meth:`~gouji_record.judging.report.Problem.as_dict`): ``kind`` :data:`DIAGNOSTIC`,
    its file, hand, action, line and column, rule, source and ``code``, the message as ``note``
    (in Chinese as ``note_zh``); with ``record`` (the hand's), the action's seat, player and cards
    where there is an action, and ``round_``, its round."""
    data = p.as_dict()
    action = None
    if record is not None and p.action is not None and p.action <= len(record.all_actions):
        action = record.all_actions[p.action - 1]
    return {
        "file": data["file"],
        "hand": data["hand"],
        "action": data["action"],
        "line": data["line"],
        "column": data["column"],
        "round": round_ if action is not None and not action.kind.preplay else None,
        "kind": DIAGNOSTIC,
        "en": "illegal" if action is not None else "unreadable" if record is None else "not judged" if p.code in REFUSED_AT else "inconsistent",
        "zh": "无法读取" if record is None else "无法裁定" if p.code in REFUSED_AT else "违规",
        "seats": [action.seat] if action is not None else [],
        "players": [record.player(action.seat)] if action is not None and record is not None else [],
        "cards": action.cards if action is not None else "",
        "place": None,
        "tribute": None,
        "rule": data["rule"],
        "source": data["source"],
        "note": data["message"],
        "note_zh": data["message_zh"] or "",
        "code": data["code"],
    }


def diagnostic_rows(read: ReadHand, verdict: Verdict) -> list[dict[str, Any]]:
    """The rows of the problems of the hand ``read``'s verdict (its replay's own, its match's, or
    why it cannot be judged: :attr:`~gouji_record.matches.verdict.Verdict.diagnostics`), located
    as ``gouji validate`` locates them (:meth:`~gouji_record.matches.verdict.Verdict.problems`):
    :func:`problem_row` of each, the round that of the position the replay stops at."""
    round_ = verdict.replay.final.round if verdict.replay is not None else None  # (the replay stops before the action)
    problems = verdict.problems(read.hand.path, read.where, read.hand.index)
    return [problem_row(p, verdict.record, round_) for p in problems]


def text_line(row: dict[str, Any]) -> str:
    """One row as ``gouji events`` prints it, on one line (printable on a terminal): where, when,
    what, the seats with their players, the cards; a place as ``place 6 大落 (6th)``; the rule and
    its source; a note after ``;``. A diagnostic's row reads ``FILE:LINE:COL: hand 1, action 2,
    round 1: error[CODE]: message — rule: source``.

    >>> row = dict.fromkeys(COLUMNS) | {"file": "h.gjn", "hand": 1, "action": 17, "line": 30, "column": 56,
    ...     "round": 3, "kind": "burn", "en": "burn", "zh": "烧牌", "seats": [5, 4], "players": ["Liu", "Zhao"],
    ...     "cards": "XXKK", "rule": "burn", "source": "002 §10", "note": ""}
    >>> print(text_line(row))
    h.gjn:30:56: hand 1, action 17, round 3: burn (烧牌), seat 5 Liu, seat 4 Zhao: XXKK — burn: 002 §10
    >>> print(text_line(row | {"kind": "placed", "en": "placed", "zh": "定科", "seats": [2], "players": ["Wang"],
    ...     "cards": "", "place": 6, "rule": "hand-end", "source": "002 §3"}))
    h.gjn:30:56: hand 1, action 17, round 3: placed (定科), seat 2 Wang, place 6 大落 (6th) — hand-end: 002 §3
    """
    where = row["file"] + "".join(f":{row[k]}" for k in ("line", "column") if row[k] is not None)
    when = f"hand {row['hand']}"
    if row["action"] is not None:
        when += f", action {row['action']}"
    when += f", round {row['round']}" if row["round"] is not None else ", before play" if row["action"] else ""
    rule = f"{row['rule']}: {row['source']}"
    if row["kind"] == DIAGNOSTIC:
        return printable(f"{where}: {when}: error[{row['code']}]: {row['note']} — {rule}")
    what = f"{row['en']} ({row['zh']})" if row["en"] != row["zh"] else row["en"]
    seats = ", ".join(f"seat {s} {p}" for s, p in zip(row["seats"], row["players"]))
    line = f"{where}: {when}: {what}" + (f", {seats}" if seats else "") + (f": {row['cards']}" if row["cards"] else "")
    if row["place"] is not None:
        line += f", place {row['place']} {PLACE_NAMES_ZH[row['place'] - 1]} ({PLACE_NAMES_EN[row['place'] - 1]})"
    line += f" — {rule}" + (f"; {row['note']}" if row["note"] else "")
    return printable(line)


def _cell(value: Any) -> str:
    """A CSV cell: nothing for ``None``, a list as JSON (``[5, 4]``), else the value as text."""
    if value is None:
        return ""
    if isinstance(value, list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


class _Echo:
    """A text stream for :mod:`csv` that writes through ``click.echo``."""

    def write(self, text: str) -> None:
        click.echo(text, nl=False)


def _judged(
    files: tuple[str, ...], encoding: str | None, override: RulesetOverride | None
) -> Iterator[tuple[ReadHand, Verdict, list[str | None] | None] | Problem]:
    """``(read hand, verdict, tribute kinds)`` for each hand of ``files``, in file order, judged as
    ``gouji validate`` judges it (:class:`~gouji_record.matches.verdict.MatchJudge`; a hand that
    names a ruleset that is not is a verdict too, not judged: :func:`~gouji_record.matches.verdict.unjudged`);
    in its place, the located problem of a hand (or a file) that cannot be read. The tribute kinds
    are those of the hand before it in the file when that is the hand before it in its match (same
    Match tag) and was played to its end."""
    for path in files:
        judge = MatchJudge()
        for read in records(path, encoding=encoding):
            if read.problem is not None:
                judge.interrupt()
                index = read.hand.index if read.hand is not None else None
                yield replace(read.problem, hand=index).quoting(read.lines())
                continue
            judged = judge.verdict(read.record, override, every_position=False)
            yield read, judged, judged.match.kinds if judged.match is not None else None




@click.command(name="events", short_help="Who did what: every event of each hand, where its action is written.")
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option(
    "--format",
    "fmt_",
    type=click.Choice(["text", "json", "csv"]),
    default="text",
    show_default=True,
    help="text: one line per event; json: one JSON object per event (JSON Lines); csv: a header, then one row "
    "per event. json and csv have the same keys, in the same order.",
)
@kind_opt("--kind", "kinds", "Only events of this kind; repeat for several.")
@click.option("--seat", type=click.IntRange(1, 6), help="Only events that concern this seat (among their seats).")
@hand_opt
@click.option("--all", "every", is_flag=True, help="In text, list the round-end events (扣牌) too.")
@ruleset_opt
@encoding_opt
def events(
    files: tuple[str, ...],
    fmt_: str,
    kinds: tuple[str, ...],
    seat: int | None,
    hand_number: int | None,
    every: bool,
    override: RulesetOverride | None,
    encoding: str | None,
) -> None:
    """List who did what in each hand of FILES: every event the engine derives, in order.

    够级 plays, answers (打点), burns (烧牌) and how they ended, 开点 (open, open-qualified,
    open-given-up, natural-opening), 闷 (smother), 接风 (take-the-wind), 无头 (headless), the
    four-way melee, places (finish 走科: played its last card; placed 定科: held cards when the hand
    ended, or sat it out after a revolution; out 出局: smothered or a failed burn), revolutions,
    rulings on ^ actions, and the cards given before play: a match's tribute named by its kind
    (落贡 place tribute, 还贡 return, 点贡 point tribute …).

    Each event comes with its hand, the number of the action that caused it (from 1, pre-play
    declarations included) and where that action is written (FILE:LINE:COL), its round (一轮;
    none before play), the seats concerned as the engine gives them (the acting seat first; a
    burn: burner, then the seat burned) with their players, cards, place, the rule and its source,
    and a note.

    \b
    json and csv keys: file hand action line column round kind en zh seats
    players cards place tribute rule source note note_zh code. In csv, seats
    and players are JSON lists ([5, 4]) and null is an empty cell.

    Text leaves out the round-end events (扣牌: one a round); --all or --kind round-end lists them,
    and json and csv always have them. A hand that stops at an illegal action (or whose Result tag
    disagrees with the play) lists its events up to there, then the diagnostic (kind diagnostic,
    with its code), whatever --kind and --seat ask. FILE - reads standard input. Exit 0; 1 if a
    hand breaks the rules; 2 if a hand or a file cannot be read (said on standard error, located).
    """
    wanted = set(kinds)
    bad: list[bool] = []
    status = EXIT_OK
    counts: dict[str, int] = dict.fromkeys(files, 0)
    writer = csv.writer(_Echo(), lineterminator="\n") if fmt_ == "csv" else None
    if writer is not None:
        writer.writerow(COLUMNS)
    for item in _judged(files, encoding, override):
        if isinstance(item, Problem):
            bad.append(True)
            if item.hand is not None:
                counts[item.path] = max(counts.get(item.path, 0), item.hand)
            if hand_number is not None and item.hand not in (None, hand_number):
                continue
            fail(item)
            rows = [problem_row(item)] if fmt_ != "text" else []
        else:
            read, judged, tribute = item
            counts[read.hand.path] = max(counts.get(read.hand.path, 0), read.hand.index)
            if hand_number is not None and read.hand.index != hand_number:
                continue
            rows = [
                row
                for row in (event_rows(read, judged.replay, tribute) if judged.replay is not None else [])
                if (not wanted or row["kind"] in wanted)
                and (seat is None or seat in row["seats"])
                and (fmt_ != "text" or every or wanted or row["kind"] != EventKind.ROUND_END.value)
            ]
            rows += diagnostic_rows(read, judged)
            if not judged.judged:  # said on standard error too, as a hand that cannot be read
                bad.append(True)
                fail(judged.problems(read.hand.path, read.where, read.hand.index)[0], read.lines())
                rows = rows if fmt_ != "text" else []
            elif not judged.valid:
                status = max(status, EXIT_ILLEGAL)
        for row in rows:
            if writer is not None:
                writer.writerow([_cell(row[k]) for k in COLUMNS])
            elif fmt_ == "json":
                click.echo(json.dumps(row, ensure_ascii=False))
            else:
                click.echo(text_line(row))
    check_hand_count(counts, hand_number)
    sys.exit(EXIT_UNREADABLE if bad else status)


__all__ = ["COLUMNS", "DIAGNOSTIC", "diagnostic_rows", "event_rows", "events", "problem_row", "text_line"]
