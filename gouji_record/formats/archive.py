"""Archives as columns (归档): hands, actions and events written as three Parquet tables.

``gouji export --format parquet OUT_DIR FILES…`` replays every hand of FILES and writes, in a new
directory OUT_DIR, ``hands.parquet`` (one row per hand), ``actions.parquet`` (one row per action)
and ``events.parquet`` (one row per event the engine derives), joined on ``file`` and ``hand``
(and ``action``). Every column is listed in :data:`TABLES` with its type and meaning, and in
docs/archives.md, with queries in DuckDB. The layout is versioned: :data:`SCHEMA_VERSION` is in
each file's metadata (key ``schema_version``) and changes with any change of a column.

Hands stream through: the rows of a few thousand hands are held, then written as a row group, so
memory does not grow with the input. Hands are replayed where ``jobs`` or a runner says (worker
processes, a Dask cluster: :mod:`gouji_record.running.cluster`), the tables written here, in file order,
the same whatever ran them. pyarrow is needed (``pip install 'gouji-record[archives]'``);
it is imported only when a table is written.

>>> [c.name for c in TABLES["events"]][:7]
['file', 'hand', 'event', 'action', 'round', 'kind', 'seat']
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any, BinaryIO, NamedTuple

from ..cards import parse_cards
from ..errors import NotationError
from ..judging.replay import Replay, RulesetOverride
from ..judging.report import Problem
from ..model import GameRecord
from ..notation.files import HandText, json_kind
from ..rules.engine import SEATS, team_name
from ..rules.events import EventKind
from ..rules.rulesets import Ruleset, options_tag
from ..running.batch import UNREADABLE, HandReport, Runner, check_file, check_hand, file_report, with_matches
from ..running.extras import EXTRA, MissingExtra, need  # noqa: F401  (MissingExtra: what export_parquet raises)
from ..running.sink import OutputDirectory

#: The version of the tables' layout, in each file's metadata as ``schema_version``: it changes
#: with any change of a column (name, type or meaning), so a reader can tell what it holds.
SCHEMA_VERSION = 2
#: The extra that brings pyarrow, DuckDB and Dask, as ``pip`` names it.
class Column(NamedTuple):
    """One column: ``name``; ``type`` as docs/archives.md writes it (``string``, ``int32``,
    ``uint8``, ``int16``, ``bool``, ``list<uint8>``, ``list<int16>``, ``list<string>``,
    ``map<string, string>``); ``null`` whether it may be null; ``meaning`` in English;
    ``zh`` the Chinese term where there is one."""

    name: str
    type: str
    null: bool
    meaning: str
    zh: str = ""


_KEYS = (
    Column(
        "file",
        "string",
        False,
        "The file the hand was read from, as given on the command line (`-`: standard input).",
        "文件",
    ),
    Column(
        "hand",
        "int32",
        False,
        "The hand's number in its file, 1 for the first (as `gouji validate` counts them).",
        "局",
    ),
)
_CARDS = (
    Column(
        "cards",
        "string",
        False,
        "The cards, canonical: strongest first, `T` for ten (`XXKK`); empty when none.",
        "牌",
    ),
    Column(
        "rank_counts",
        "list<uint8>",
        False,
        "How many of each rank `cards` holds: 15 counts in the order of ranks, weakest first: "
        "3 4 5 6 7 8 9 T J Q K A 2 X D (`rank_counts[15]` is big jokers in DuckDB, whose lists start at 1).",
        "点数",
    ),
)

#: The three tables: their columns, in order.
TABLES: dict[str, tuple[Column, ...]] = {
    "hands": (
        *_KEYS,
        Column("line", "int32", False, "The line of the file where the hand starts.", "行"),
        Column("event", "string", False, "The Event tag.", "赛事"),
        Column("site", "string", False, "The Site tag.", "地点"),
        Column("date", "string", False, "The Date tag, `YYYY.MM.DD` with `?` for what is not known.", "日期"),
        Column(
            "tags",
            "map<string, string>",
            False,
            "Every tag pair of the record, in file order (`tags['Annotator']`).",
            "标签",
        ),
        Column(
            "ruleset",
            "string",
            False,
            "The ruleset the hand was replayed under: its Ruleset tag, a preset's name.",
            "规则",
        ),
        Column(
            "options",
            "string",
            True,
            "The options changed from the preset, as an Options tag gives them; null for none.",
            "选项",
        ),
        Column("match", "string", True, "The Match tag: the hands of one match share it; null outside a match.", "比赛"),
        Column(
            "match_hand",
            "int32",
            True,
            "The hand's number in its match (1 for the first); null outside a match.",
            "局号",
        ),
        Column(
            "players",
            "list<string>",
            False,
            "The players of seats 1–6 (Seat1 … Seat6 tags): `players[s]` is seat s's.",
            "玩家",
        ),
        Column(
            "deal",
            "list<string>",
            False,
            "The cards dealt to seats 1–6, canonical; `?N` ends a hand with N cards not known.",
            "发牌",
        ),
        Column(
            "actions",
            "int32",
            False,
            "How many actions the record holds, the declarations before play included.",
            "动作",
        ),
        Column(
            "replayed",
            "int32",
            False,
            "How many of them come before the illegal action (all of them when none is).",
        ),
        Column("complete", "bool", False, "Whether the hand was played to its end without an illegal action.", "打完"),
        Column("void", "bool", False, "Whether the hand is void (two revolutions).", "该局作废"),
        Column(
            "places",
            "list<uint8>",
            False,
            "Seats in order of place, 1st (头科) first; only the places taken when the hand stops before its end.",
            "头科 二科 三科 四科 二落 大落",
        ),
        Column("score_135", "int32", True, "Team 1-3-5's score for the hand; null when it is not over.", "计分"),
        Column("score_246", "int32", True, "Team 2-4-6's score for the hand; null when it is not over.", "计分"),
        Column(
            "extras",
            "list<int16>",
            True,
            "Each seat's own extras (opening, burns, smothers), seats 1–6, as the ruleset scores them; "
            "null when not over.",
            "个人分",
        ),
        Column(
            "valid",
            "bool",
            False,
            "Whether `gouji validate` finds nothing wrong: no illegal action, no match error.",
            "合法",
        ),
        Column(
            "code",
            "string",
            True,
            "The first problem's code (`gouji-not-opposite`, `result-mismatch`, a match's `tribute-…`); "
            "null when valid.",
            "违规",
        ),
        Column(
            "message",
            "string",
            True,
            "The first problem, in English, as `gouji validate` says it; null when valid.",
        ),
        Column("error_line", "int32", True, "The line of the file where the first problem is; null when valid."),
        Column("error_column", "int32", True, "Its column; null when valid."),
        Column(
            "error_action",
            "int32",
            True,
            "The number of the illegal action (`actions.action`); null when there is none.",
        ),
    ),
    "actions": (
        *_KEYS,
        Column(
            "action",
            "int32",
            False,
            "The action's number in the hand, 1 for the first, the declarations before play included.",
            "动作",
        ),
        Column("phase", "string", False, "`preplay` (declarations and transfers before play) or `play`."),
        Column(
            "round",
            "int32",
            True,
            "The round it is played in, 1 for the first; null before play and when not replayed.",
            "轮",
        ),
        Column("seat", "uint8", False, "The seat that acts, 1–6.", "座位"),
        Column("player", "string", False, "That seat's player (its Seat tag).", "玩家"),
        Column("team", "string", False, "That seat's team: `1-3-5` or `2-4-6`.", "联邦"),
        Column(
            "kind",
            "string",
            False,
            "play, pass (过牌), yield (让牌), wind (申请接风), claim (挑牌); before play: revolt (革命), keep-head (要头), "
            "no-head (无头), natural (自然开点), call (宣点), precall (预点), give (交牌: tribute, return, purchase), "
            "show (上班), draw (抽签).",
            "动作",
        ),
        Column("burn", "bool", False, "Whether the play is a burn (`*`).", "烧牌"),
        Column("to", "uint8", True, "The seat a `give` goes to; null for other kinds."),
        Column(
            "purpose",
            "string",
            True,
            "`buy` or `gift` for a purchase (买三) or gift of a 3 or a 4, `refuse` for cards offered and refused (拒绝); "
            "null for tribute and other kinds.",
        ),
        Column("suit", "string", True, "The suit of a `show` or a `draw` (s, h, c, d); null for other kinds.", "花色"),
        *_CARDS,
        Column(
            "glyph",
            "string",
            True,
            "The annotation glyph written after it (`!`, `?`, `!!`, `??`, `!?`, `?!`), or null.",
        ),
        Column(
            "irregular",
            "bool",
            False,
            "Whether it is marked `^`: recorded as it happened, for the engine to rule on.",
            "裁定",
        ),
        Column(
            "legal",
            "bool",
            True,
            "true: replayed; false: the illegal action the replay stops at; null: after it, not replayed.",
            "合法",
        ),
    ),
    "events": (
        *_KEYS,
        Column("event", "int32", False, "The event's number in the hand, 1 for the first, in the order derived."),
        Column("action", "int32", False, "The number of the action that caused it (`actions.action`).", "动作"),
        Column(
            "round",
            "int32",
            True,
            "The round (一轮) of that action, 1 for the first; null for an action before play.",
            "轮",
        ),
        Column("kind", "string", False, "What happened: one of the kinds in the table below.", "事件"),
        Column(
            "seat",
            "uint8",
            True,
            "The seat concerned, the acting one first (a burn's burner); null for none.",
            "座位",
        ),
        Column("player", "string", True, "That seat's player; null for none.", "玩家"),
        Column("team", "string", True, "That seat's team: `1-3-5` or `2-4-6`; null for none.", "联邦"),
        Column("seats", "list<uint8>", False, "Every seat concerned, in order: a burn's burner, then the seat burned."),
        *_CARDS,
        Column(
            "place",
            "uint8",
            True,
            "The place taken (1–6) by a `finish`, a `placed` or an `out`; null for other kinds.",
            "名次",
        ),
        Column(
            "outcome",
            "string",
            True,
            "For a `burn` or `counter-burn`: how that burn ended, `success` (烧成功), `failed` (烧失败), `broken` (解烧), "
            "or `running` when the hand stops first; null for other kinds.",
            "结果",
        ),
        Column("rule", "string", False, "The rule the event comes from: a key of `gouji rules`.", "规则"),
        Column(
            "note",
            "string",
            True,
            "More about it (a ruling's diagnostic, who leads after a show), in English; null for none.",
        ),
    ),
}


def arrow_schema(table: str):
    """The pyarrow schema of ``table`` (a key of :data:`TABLES`), each field described in its
    metadata, ``schema_version`` and ``table`` in the schema's (which Parquet keeps). Raises
    ``ImportError`` without pyarrow."""
    import pyarrow as pa

    simple = {"string": pa.string(), "int32": pa.int32(), "int16": pa.int16(), "uint8": pa.uint8(), "bool": pa.bool_()}

    def arrow(text: str):
        if text.startswith("list<"):
            return pa.list_(simple[text[5:-1]])
        if text.startswith("map<"):
            return pa.map_(pa.string(), pa.string())
        return simple[text]

    fields = [pa.field(c.name, arrow(c.type), c.null, metadata={"description": c.meaning}) for c in TABLES[table]]
    metadata = {"schema_version": str(SCHEMA_VERSION), "table": table, "generator": "gouji-record"}
    return pa.schema(fields, metadata=metadata)


#: The team of each seat, as the tables write it (index 0 unused).
_TEAMS = ("",) + tuple(team_name(s) for s in SEATS)


def _columns(table: str) -> dict[str, list]:
    return {c.name: [] for c in TABLES[table]}


@dataclass
class HandRows:
    """The rows one record gives: ``hand`` the hands row without what the report says (valid, the
    problem, the match), ``events`` the events table's columns, each a list of values, and what the
    actions table's rows are made from (:meth:`action_columns` makes them, a run at a time: a hand
    may have 400,000 actions, and their columns whole would take hundreds of MB)."""

    hand: dict[str, Any]
    events: dict[str, list]
    record: GameRecord
    #: The number of the action that closes each round (its round-end event's), then the count of actions.
    round_ends: list[int]
    #: How many actions the engine replayed (all, or up to the illegal one).
    replayed: int

    def action_columns(self, size: int) -> Iterator[dict[str, list]]:
        """The actions table's columns for this record's actions, ``size`` rows at a time."""
        record, path, index = self.record, self.hand["file"], self.hand["hand"]
        players = self.hand["players"]
        every = record.all_actions
        n, preplay, replayed = len(every), len(record.preplay), self.replayed
        ends = iter(self.round_ends)
        number, closes = 1, next(ends)
        for start in range(0, n, size):
            stop = min(start + size, n)
            # column by column (a list comprehension each): several times faster than row by row
            rounds: list[int | None] = []
            for i in range(start, stop):  # the round of each action replayed, and the illegal one
                if i < preplay or i > replayed:
                    rounds.append(None)
                    continue
                while closes < i:  # a round-end event comes with the action that closes the round
                    number, closes = number + 1, next(ends)
                rounds.append(number)
            run = every[start:stop]
            seats = [x.seat for x in run]
            cards = [x.cards for x in run]
            yield {
                "file": [path] * len(run),
                "hand": [index] * len(run),
                "action": list(range(start + 1, stop + 1)),
                "phase": ["preplay" if i < preplay else "play" for i in range(start, stop)],
                "round": rounds,
                "seat": seats,
                "player": [players[s - 1] for s in seats],
                "team": [_TEAMS[s] for s in seats],
                "kind": [x.kind._value_ for x in run],
                "burn": [x.burn for x in run],
                "to": [x.to for x in run],
                "purpose": [x.purpose for x in run],
                "suit": [x.suit for x in run],
                "cards": cards,
                "rank_counts": [parse_cards(c) for c in cards],
                "glyph": [x.glyph for x in run],
                "irregular": [x.irregular for x in run],
                "legal": [True if i < replayed else False if i == replayed else None for i in range(start, stop)],
            }


def hand_rows(hand: HandText, result: Replay) -> HandRows:
    """The rows of one record, read from ``hand`` and replayed as ``result`` (its final position
    kept at least)."""
    record, rules, final = result.record, result.ruleset, result.final
    path, index = hand.path, hand.index
    players = [record.player(s) for s in range(1, 7)]
    every = record.all_actions
    stop = result.diagnostic.action if result.diagnostic is not None else None
    replayed = stop if stop is not None else len(every)
    score = result.score
    row = {
        "file": path,
        "hand": index,
        "line": hand.line,
        "event": record.tags["Event"],
        "site": record.tags["Site"],
        "date": record.tags["Date"],
        "tags": list(record.tags.items()),
        "ruleset": rules.name,
        "options": options_tag(rules) or None,
        "match": record.tags.get("Match"),
        "players": players,
        "deal": list(record.deal),
        "actions": len(every),
        "replayed": replayed,
        "complete": result.complete,
        "void": final.void,
        "places": list(final.places),
        "score_135": score.teams[1] if score else None,
        "score_246": score.teams[0] if score else None,
        "extras": [score.seats[s] for s in range(1, 7)] if score else None,
        "error_action": stop + 1 if stop is not None else None,
    }
    round_ends = [e.action for e in result.events if e.kind is EventKind.ROUND_END] + [len(every)]
    events = result.events
    m = len(events)
    outcomes = iter([outcome for _, _, outcome in final.burns])  # one per burn and counter-burn, in order
    first = [ev.seats[0] if ev.seats else None for ev in events]
    event_cards = [ev.cards for ev in events]
    e = {
        "file": [path] * m,
        "hand": [index] * m,
        "event": list(range(1, m + 1)),
        "action": [ev.action + 1 for ev in events],
        "round": [ev.round for ev in events],
        "kind": [ev.kind._value_ for ev in events],
        "seat": first,
        "player": [players[s - 1] if s else None for s in first],
        "team": [_TEAMS[s] if s else None for s in first],
        "seats": [ev.seats for ev in events],
        "cards": event_cards,
        "rank_counts": [parse_cards(c) for c in event_cards],
        "place": [ev.place for ev in events],
        "outcome": [next(outcomes) if ev.kind in _BURNS else None for ev in events],
        "rule": [ev.rule for ev in events],
        "note": [ev.note or None for ev in events],
    }
    return HandRows(row, e, record, round_ends, replayed)


_BURNS = (EventKind.BURN, EventKind.COUNTER_BURN)


@dataclass
class ExportedReport(HandReport):
    """A hand's report (:class:`~gouji_record.running.batch.HandReport`) with its rows (one
    :class:`HandRows` per record; none for a hand that cannot be read)."""

    rows: list[HandRows] = field(default_factory=list)


def export_hand(hand: HandText, ruleset_name: str | Ruleset | RulesetOverride | None = None) -> ExportedReport:
    """Check one hand as ``gouji validate -q`` does and make its rows (picklable: the job of
    worker processes and Dask workers)."""
    replays: list[Replay] = []
    report = check_hand(hand, ruleset_name, quiet=True, replays=replays)
    rows = [hand_rows(hand, r) for r in replays] if report.status != UNREADABLE else []
    return ExportedReport(**vars(report), rows=rows)


#: Rows held per table before they are written as a row group: hands are about 180 times fewer
#: than actions, and each holds more. Together about 15 MB of Python objects at most, which keeps
#: the export within 150 MB (docs/performance.md: its peak RSS).
ROW_GROUP = {"hands": 256, "actions": 8_192, "events": 8_192}


class _TableWriter:
    """One table's ParquetWriter and the rows not yet written."""

    def __init__(self, directory: str, table: str) -> None:
        import pyarrow.parquet as pq

        self.schema = arrow_schema(table)
        self.limit = ROW_GROUP[table]
        self.writer = pq.ParquetWriter(os.path.join(directory, f"{table}.parquet"), self.schema, compression="zstd")
        self.columns = _columns(table)
        self.held = 0
        self.rows = 0

    def extend(self, columns: dict[str, list]) -> None:
        for name, values in columns.items():
            self.columns[name].extend(values)
        self.held += len(columns["file"])
        if self.held >= self.limit:
            self.flush()

    def append(self, row: dict[str, Any]) -> None:
        for name, values in self.columns.items():
            values.append(row[name])
        self.held += 1
        if self.held >= self.limit:
            self.flush()

    def flush(self) -> None:
        import pyarrow as pa

        if not self.held:
            return
        arrays = [pa.array(self.columns[f.name], type=f.type) for f in self.schema]
        self.writer.write_batch(pa.record_batch(arrays, schema=self.schema))
        self.rows += self.held
        self.columns = {name: [] for name in self.columns}
        self.held = 0

    def close(self) -> None:
        self.flush()
        self.writer.close()


@dataclass
class ExportSummary:
    """What an export wrote: rows of each table, and how many hands (or files) could not be read."""

    hands: int = 0
    actions: int = 0
    events: int = 0
    unreadable: int = 0


def _first_problem(report: HandReport) -> dict[str, Any] | None:
    """The first problem a hand's report names: its own, else its match's; ``None`` when valid."""
    data = report.data
    return data.get("error") or next(iter(data.get("match_errors") or ()), None)


def _finish_row(row: dict[str, Any], report: HandReport) -> dict[str, Any]:
    """The hands row completed with what the report says after the match checks."""
    data = report.data
    problem = _first_problem(report)
    return row | {
        "match_hand": data.get("match_hand"),
        "valid": bool(data.get("valid")),
        "code": problem["code"] if problem else None,
        "message": problem["message"] if problem else None,
        "error_line": problem["line"] if problem else None,
        "error_column": problem["column"] if problem else None,
    }


def export_parquet(
    out_dir: str,
    paths: Iterable[str],
    *,
    jobs: int = 1,
    runner: Runner | None = None,
    force: bool = False,
    encoding: str | None = None,
    stream=None,
    on_problem: Callable[[HandReport], None] | None = None,
) -> ExportSummary:
    """Write the hands of ``paths`` as three Parquet tables in the new directory ``out_dir``
    (hands.parquet, actions.parquet, events.parquet; :data:`TABLES`), atomically: in a temporary
    directory beside it, renamed when all is written. Hands are checked in ``jobs`` worker
    processes, or by ``runner`` (:mod:`gouji_record.running.cluster`); the tables are the same whatever
    checked them. A hand (or file) that cannot be read is left out and given to ``on_problem``
    (its report's ``text`` is the located error); the rest is written. ``stream`` is read for the
    path ``-``; ``encoding`` is the files' (``None``: UTF-8).

    Raises :class:`~gouji_record.running.sink.OutputError` when ``out_dir`` exists (unless ``force``: a
    directory there is replaced) or cannot be written, :class:`MissingExtra` without pyarrow, and
    ``OSError`` when worker processes cannot start (nothing is written then).
    """
    need("pyarrow")
    summary = ExportSummary()
    job = partial(export_hand, ruleset_name=None)
    with OutputDirectory(out_dir, force=force) as out:
        writers = {name: _TableWriter(out.path, name) for name in TABLES}
        try:
            for path in paths:
                source, read_as, log_lines = (stream if path == "-" else None), encoding, None
                if path != "-" and json_kind(path) == "events":  # a platform's log: read as it is
                    source, problem, log_lines = _log_as_gjn(path, encoding)
                    if problem is not None:
                        summary.unreadable += 1
                        if on_problem is not None:
                            on_problem(file_report(problem))
                        continue
                    read_as = None
                reports = check_file(path, jobs=jobs, stream=source, encoding=read_as, job=job, runner=runner)
                for report in with_matches(reports):
                    if report.status == UNREADABLE:
                        summary.unreadable += 1
                        if on_problem is not None:
                            on_problem(report)
                        continue
                    for rows in getattr(report, "rows", ()):
                        row = _finish_row(rows.hand, report)
                        if log_lines is not None:  # where the log says it, not the text converted from it
                            row = _in_log(row, log_lines[report.index - 1], report)
                        writers["hands"].append(row)
                        for columns in rows.action_columns(ROW_GROUP["actions"]):
                            writers["actions"].extend(columns)
                        writers["events"].extend(rows.events)
        finally:
            for writer in writers.values():
                writer.close()
        summary.hands, summary.actions, summary.events = (writers[t].rows for t in TABLES)
    return summary


def _log_as_gjn(path: str, encoding: str | None) -> tuple[BinaryIO | None, Problem | None, list | None]:
    """The event log ``path`` (docs/events-log.md) converted to ``.gjn`` text, as ``gouji import``
    converts it, to read as the file's hands, with where each hand stands in the log
    (:class:`~gouji_record.formats.eventlog.LogLines`, hand by hand); or the problem, at the log's
    line, that stops it being converted."""
    from ..notation import write_all
    from ..notation.files import decode
    from .eventlog import EventLogError, records_with_lines

    try:
        with open(path, "rb") as f:
            text = decode(f.read(), encoding)
    except OSError as e:
        return None, Problem(path, 0, 0, "unreadable", f"cannot read the file: {e.strerror or e}"), None
    except NotationError as e:
        return None, Problem(path, e.line, e.column, e.code, e.message), None
    try:
        read = records_with_lines(text, path)
    except EventLogError as e:
        return None, Problem(path, e.line, 1, "bad-log", e.message), None
    text = write_all([record for record, _ in read])
    return io.BytesIO(text.encode("utf-8")), None, [where for _, where in read]


def _in_log(row: dict[str, Any], where, report: HandReport) -> dict[str, Any]:
    """A hands row of a hand read from an event log, located in the log (``where``: its
    :class:`~gouji_record.formats.eventlog.LogLines`): ``line`` its ``start_hand``, and the
    problem's ``error_line`` the event of the action it is about (column 1: the event's line
    starts it), or for a problem of the hand as a whole (its Result, its place in the match) the
    ``end_hand`` whose ``result`` the Result comes from, or the ``start_hand`` that gives the tags."""
    row = row | {"line": where.start}
    if row["error_line"] is not None:
        action = (_first_problem(report) or {}).get("action")  # (from 1, as the row's error_action counts)
        if action is not None and action <= len(where.actions):
            row["error_line"] = where.actions[action - 1]
        else:
            row["error_line"] = where.end if row.get("code") in _RESULT_CODES else where.start
        row["error_column"] = 1
    return row


#: Codes of a problem with the hand's Result (or Score) tag, which a log gives by ``end_hand``.
_RESULT_CODES = frozenset({"result-mismatch", "hand-incomplete", "score-mismatch"})


def table_rows(directory: str) -> Iterator[tuple[str, int]]:
    """``(table, rows)`` for each table of an export in ``directory``, from the files' metadata."""
    import pyarrow.parquet as pq

    for name in TABLES:
        yield name, pq.read_metadata(os.path.join(directory, f"{name}.parquet")).num_rows


def export_to_parquet(client, out_dir: str, paths: Iterable[str], **options) -> ExportSummary:
    """:func:`export_parquet` with the hands checked on the workers of ``client`` (a
    ``dask.distributed.Client``: :func:`~gouji_record.running.cluster.on_cluster`): the same tables.
    ``options`` are that function's (``force``, ``encoding``, ``on_problem``). Raises as it does,
    and :class:`~gouji_record.running.cluster.ClusterError` when a task fails (nothing is written then)."""
    from ..running.cluster import on_cluster

    return export_parquet(out_dir, paths, runner=on_cluster(client), **options)
