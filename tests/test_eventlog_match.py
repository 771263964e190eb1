"""Event logs for whole matches (issue 28): tribute and its return, purchases and gifts, 宣点/预点,
上班 and 抽签组邦, wind requests, claims, ``^``, glyphs, ``$n`` and round numbers come in as events,
and ``.gjn`` → log → ``.gjn`` is the identity on the examples, the conformance suite and
self-played matches of every preset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import EXAMPLES, ROOT

import gouji_record as gj
from gouji_record.bots.selfplay import play_match
from gouji_record.formats.eventlog import EventLogError, events_from_record, records_from_events, write_events
from gouji_record.rules.rulesets import PRESETS, get_ruleset


def through_a_log(records: list[gj.GameRecord]) -> list[gj.GameRecord]:
    return records_from_events("".join(write_events(records)), source="log")


def gjn(records) -> str:
    return "".join(gj.write(r) for r in records)


def readable(paths) -> list[Path]:
    """The files of ``paths`` that read, with a known ruleset and options (a log's start_hand
    refuses the others, as docs/events-log.md §4 says)."""
    out = []
    for path in paths:
        try:
            records = gj.read(path)
            for r in records:
                gj.ruleset_of(r)
        except (gj.NotationError, gj.UnknownRuleset, gj.BadOption):
            continue
        out.append(path)
    return out


@pytest.mark.parametrize(
    "path",
    readable(sorted(EXAMPLES.glob("*.gjn")) + sorted((ROOT / "conformance").glob("*/*.gjn"))),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_gjn_to_log_to_gjn_is_the_identity(path):
    records = gj.read(path)
    assert gjn(through_a_log(records)) == gjn(records)


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("bot", ["person", "random"])
def test_self_played_matches_go_through_a_log_unchanged(preset, bot):
    records = play_match(get_ruleset(preset), seed=11, hands=3, bot=bot)  # as gouji selfplay --match
    back = through_a_log(records)
    assert gjn(back) == gjn(records)
    assert [v.valid for v in gj.verdicts(back)] == [True, True, True]  # hand 2 on: its tribute came too


def test_the_tribute_of_a_match_comes_as_give_events():
    # examples/online-match.gjn, hand 2, line 82: "2>5:D 3>6:X 1>3:22 6>5:D 3>1:33 5>6:3" — three
    # payments and three returns (S0, 进贡/还贡), each one give event in that order
    hand2 = gj.read(EXAMPLES / "online-match.gjn")[1]
    gives = [e for e in events_from_record(hand2) if e["type"] == "give"]
    assert [(e["seat"], e["to"], e["cards"]) for e in gives] == [
        (2, 5, "D"), (3, 6, "X"), (1, 3, "22"), (6, 5, "D"), (3, 1, "33"), (5, 6, "3"),
    ]  # fmt: skip
    assert all("purpose" not in e for e in gives)
    # before: a log could not give them, and hand 2 came in without tribute (tribute-missing)
    back = through_a_log(gj.read(EXAMPLES / "online-match.gjn"))
    assert [v.valid for v in gj.verdicts(back)] == [True, True, True]


NAMES = ["A", "B", "C", "D", "E", "F"]


def log(*events: dict) -> str:
    start = {"type": "start_hand", "ruleset": "tournament", "names": NAMES}
    return "\n".join(json.dumps(e, ensure_ascii=False) for e in (start, *events))


def test_every_kind_of_event_and_annotation_is_read():
    (record,) = records_from_events(
        log(
            {"type": "call", "seat": 1, "glyph": "!"},
            {"type": "precall", "seat": 2, "comment": "预点"},
            {"type": "give", "seat": 1, "to": 4, "cards": "2", "purpose": "buy"},
            {"type": "give", "seat": 4, "to": 1, "cards": "3", "purpose": "buy"},
            {"type": "give", "seat": 2, "to": 5, "cards": "4", "purpose": "gift"},
            {"type": "show", "seat": 3, "suit": "h", "cards": "333"},
            {"type": "draw", "seat": 6, "suit": "s", "cards": "7"},
            {"type": "play", "seat": 3, "cards": "333", "round": 1, "glyph": "?!", "nags": [12, 3]},
            {"type": "wind", "seat": 4, "irregular": True},
            {"type": "claim", "seat": 5, "comment": ["挑牌", "the rest"]},
        )
    )
    assert [a.text for a in record.preplay] == [
        "1:call", "2:precall", "buy 1>4:2", "buy 4>1:3", "gift 2>5:4", "3:show h333", "6:draw s7",
    ]  # fmt: skip
    assert [a.text for a in record.actions] == ["3:333", "^4:wind", "5:claim"]
    play = record.actions[0]
    assert (play.round, play.glyph, play.nags) == (1, "?!", (12, 3))
    assert record.preplay[0].glyph == "!" and record.actions[2].comments == ("挑牌", "the rest")


@pytest.mark.parametrize(
    "events, line, message",
    [
        ([{"type": "give", "seat": 1, "to": 1, "cards": "3"}], 2, '"to" is the giving seat 1'),
        ([{"type": "give", "seat": 1, "to": 7, "cards": "3"}], 2, 'bad "to" 7: expected a seat number 1-6'),
        ([{"type": "give", "seat": 1, "to": 4, "cards": "3", "purpose": "sell"}], 2, '"purpose" is a string ("sell")'),
        ([{"type": "show", "seat": 1, "suit": "x", "cards": "333"}], 2, '"suit" is a string ("x")'),
        ([{"type": "show", "seat": 1, "suit": "h", "cards": "33333"}], 2, "at most 4 of a rank"),
        ([{"type": "pass", "seat": 1, "glyph": "!!!"}], 2, '"glyph" is a string ("!!!")'),
        ([{"type": "pass", "seat": 1, "round": 0}], 2, '"round" is a number (0)'),
        ([{"type": "pass", "seat": 1, "nags": [256]}], 2, '"nags" is an array ([256])'),
        ([{"type": "call", "seat": 1, "irregular": True}], 2, 'unknown field "irregular" in call'),
        (
            [{"type": "give", "seat": 1, "to": 4, "cards": "2", "purpose": "buy"}, {"type": "pass", "seat": 1}],
            3,
            "a purchase (买三, 买四) is two give events with purpose buy: the price 1>4:2, then the card back",
        ),
        (
            [{"type": "pass", "seat": 1}, {"type": "give", "seat": 1, "to": 4, "cards": "3"}],
            3,
            "give after play has begun",
        ),
    ],
)
def test_errors_in_the_new_events_name_the_line_and_field(events, line, message):
    with pytest.raises(EventLogError) as caught:
        records_from_events(log(*events), source="m.jsonl")
    assert caught.value.line == line and message in caught.value.message, caught.value.message


def test_export_format_events_then_import_gives_the_canonical_file(tmp_path):
    from click.testing import CliRunner

    from gouji_record.cli.main import main

    match = EXAMPLES / "online-match.gjn"
    log_file = tmp_path / "match.jsonl"
    r = CliRunner().invoke(main, ["export", "--format", "events", str(match), "-o", str(log_file)])
    assert r.exit_code == 0, r.output
    assert log_file.read_text(encoding="utf-8").count('"type":"start_hand"') == 3
    r = CliRunner().invoke(main, ["import", str(log_file)])
    assert r.exit_code == 0 and r.stdout == CliRunner().invoke(main, ["fmt", str(match)]).stdout


def test_reading_commands_given_a_log_or_json_records_say_what_it_is(tmp_path):
    # before: "error[syntax]: comment not closed" and more, the '{' taken for a .gjn comment
    from click.testing import CliRunner

    from gouji_record.cli.main import main

    hand = EXAMPLES / "charter-hand.gjn"
    log_file, json_file = tmp_path / "h.jsonl", tmp_path / "h.json"
    log_file.write_text("".join(write_events(gj.read(hand))), encoding="utf-8")
    CliRunner().invoke(main, ["export", str(hand), "-o", str(json_file)])
    for command in ("validate", "render", "stats", "review", "fmt", "events"):
        r = CliRunner().invoke(main, [command, str(log_file)])
        assert r.exit_code == 2 and r.stderr.splitlines() == [
            (
                f"{log_file}:1:1: error[not-gjn]: an event log (JSON Lines, docs/events-log.md), not a .gjn record: "
                f"gouji import {log_file} -o FILE.gjn converts it (gouji export --format parquet reads it as it is)"
            )
        ], (command, r.stderr)
    r = CliRunner().invoke(main, ["validate", str(json_file)])
    assert r.exit_code == 2 and r.stderr.splitlines() == [
        (
            f"{json_file}:1:1: error[not-gjn]: records as JSON (gouji export), not a .gjn record: "
            f"gouji import {json_file} -o FILE.gjn converts it"
        )
    ]


def test_the_parquet_export_reads_a_log_as_it_is(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    from click.testing import CliRunner

    from gouji_record.cli.main import main

    match = EXAMPLES / "online-match.gjn"
    log_file = tmp_path / "m.jsonl"
    log_file.write_text("".join(write_events(gj.read(match))), encoding="utf-8")
    for out, source in (("from-log", log_file), ("from-gjn", match)):
        r = CliRunner().invoke(main, ["export", "--format", "parquet", str(tmp_path / out), str(source)])
        assert r.exit_code == 0, r.output
    for table in ("hands", "actions", "events"):  # the same rows but the file's name, and the hand's line: the log's
        drop = ["file", "line"] if table == "hands" else ["file"]
        a, b = (pq.read_table(tmp_path / d / f"{table}.parquet").drop(drop) for d in ("from-log", "from-gjn"))
        assert a.num_rows > 0 and a.equals(b), table
    starts = [n for n, text in enumerate(log_file.read_text(encoding="utf-8").split("\n"), 1) if '"start_hand"' in text]
    assert pq.read_table(tmp_path / "from-log" / "hands.parquet").column("line").to_pylist() == starts
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type":"start_hand","ruleset":"charter"}\n', encoding="utf-8")
    r = CliRunner().invoke(main, ["export", "--format", "parquet", str(tmp_path / "bad"), str(bad)])
    assert r.exit_code == 2
    assert f'{bad}:1:1: error[bad-log]: missing field "names" in start_hand' in r.stderr


def test_import_replaces_a_read_only_file_only_with_force(tmp_path):
    from click.testing import CliRunner

    from gouji_record.cli.main import main

    log_file, out = tmp_path / "m.jsonl", tmp_path / "m.gjn"
    log_file.write_text("".join(write_events(gj.read(EXAMPLES / "charter-hand.gjn"))), encoding="utf-8")
    out.write_text("old\n", encoding="utf-8")
    out.chmod(0o444)
    r = CliRunner().invoke(main, ["import", str(log_file), "-o", str(out)])
    assert r.exit_code == 2 and out.read_text(encoding="utf-8") == "old\n"
    assert r.stderr == f"{out}: error[unwritable]: the file is read-only: give --force to replace it\n"
    r = CliRunner().invoke(main, ["import", "--force", str(log_file), "-o", str(out)])  # before: no such option
    assert r.exit_code == 0 and out.read_text(encoding="utf-8") == (EXAMPLES / "charter-hand.gjn").read_text(
        encoding="utf-8"
    )


def test_an_unterminated_string_is_said_with_one_at():
    # json says "Unterminated string starting at"; the message added " at column 26" after it
    with pytest.raises(EventLogError) as caught:
        records_from_events('{"type": "pass", "seat": "1}', source="l.jsonl")
    assert str(caught.value) == (
        "l.jsonl:1: not JSON (Unterminated string starting at column 26): expected one JSON object per line"
    )


def test_a_log_says_nothing_happened_before_play_and_refuses_an_event_before_play_then():
    # the failing input: a gjn 2.4 hand with its preplay section written empty (conformance
    # invalid/buy-missing-empty-preplay.gjn) came back from its log without the section, so a
    # buy-missing hand read as valid; and a log saying so cannot hold an event before play
    from gouji_record.formats.eventlog import EventLogError, events_from_record, records_from_events

    text = (ROOT / "conformance" / "invalid" / "buy-missing-empty-preplay.gjn").read_text(encoding="utf-8")
    [record] = gj.parse(text)
    assert record.empty_preplay
    start = next(events_from_record(record))
    assert start["empty_preplay"] is True
    lines = [json.dumps(start), '{"type":"give","seat":1,"to":4,"cards":"2"}', '{"type":"end_hand","result":"*"}']
    with pytest.raises(EventLogError, match=r'^log:2: give before play, but start_hand \(line 1\) says "empty_preplay": true'):
        records_from_events(lines, "log")


def test_a_problem_of_a_hand_read_from_a_log_is_located_in_the_log(tmp_path):
    # the failing input (issue 28): examples/charter-hand-illegal.gjn as a log, exported to Parquet
    # as it is: the hands table named the log's file with the line and column of the .gjn text it
    # was converted to (27:30, where 3:QQQQQ stands in the example), a line of the log that is
    # another event. Now the hand starts at its start_hand (line 1) and the problem is the line of
    # the event it is about: start_hand, deal, then action N at line N + 2, here seat 3's QQQQQ
    # (README: seat 3 answers seat 1's gouji play TTTTT, which only seat 4 may).
    pq = pytest.importorskip("pyarrow.parquet")
    from click.testing import CliRunner

    from gouji_record.cli.main import main

    log_file = tmp_path / "illegal.jsonl"
    log_file.write_text("".join(write_events(gj.read(EXAMPLES / "charter-hand-illegal.gjn"))), encoding="utf-8")
    r = CliRunner().invoke(main, ["export", "--format", "parquet", str(tmp_path / "out"), str(log_file)])
    assert r.exit_code == 0, r.output
    [hand] = pq.read_table(tmp_path / "out" / "hands.parquet").to_pylist()
    assert (hand["file"], hand["line"], hand["valid"], hand["code"]) == (str(log_file), 1, False, "gouji-not-opposite")
    assert (hand["error_line"], hand["error_column"]) == (hand["error_action"] + 2, 1)
    event = json.loads(log_file.read_text(encoding="utf-8").split("\n")[hand["error_line"] - 1])
    assert (event["type"], event["seat"], event["cards"]) == ("play", 3, "QQQQQ")
