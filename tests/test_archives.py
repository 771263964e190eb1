"""gouji export --format parquet: three tables, their keys, streaming, --jobs, atomic output.

Values worked out by hand from the example records:

examples/charter-hand.gjn (one hand, 69 actions, no declarations before play): round 1 is actions
1–3 (1:TTTTT 4:JJJJJ 1:-), round 2 actions 4–15 (4:3333 … 3:-, twelve actions), round 3 starts
with action 16, 4:QQQQ, and action 17 is seat 5's burn 5:*XXKK (Liu Yang, seat 4 burned): two
small jokers and two kings, rank counts K 2 and X 2. The burn succeeds when seat 5 plays out,
5:5555555555 in round 6: after round 3's three actions (16–18), round 4's two (5:X77777777 2:-:
19–20) and round 5's one (5:D88888888: 21), that is action 22. Places 5-6-1-4-3-2, team 1-3-5
scores 2 and team 2-4-6 0 (002 §20, as tests/test_stats.py works out). Seats 4, 5 and 6 open (开点):
seat 4 with JJJJJ in round 1, seat 5 with its burn in round 3, seat 6 with AAA in round 7.

examples/charter-hand-illegal.gjn: the same deal; its second action, 3:QQQQQ on seat 1's TTTTT
(line 26, column 30), is illegal (gouji-not-opposite, 002 §9): one action replayed, the hand not
complete, its 70 actions exported with action 1 legal, action 2 not, the rest not replayed.

examples/online-match.gjn: three hands of match "Online room 8", hands 1, 2, 3 of it; hand 2 pays
six cards' worth of tribute before play in six transfers (2>5:D 3>6:X 1>3:22 6>5:D 3>1:33 5>6:3,
tests/test_stats.py), hand 3 five (6>3:X 3>2:D2 1>4:X 2>3:33 4>1:3).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import BAD_CARD_HAND, EXAMPLES, self_played

from gouji_record.formats import archive
from gouji_record.cli.main import main

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def run(*args):
    return CliRunner().invoke(main, [*map(str, args)])


@contextmanager
def cwd(path: Path):
    before = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def read(directory: Path, table: str) -> list[dict]:
    return pq.read_table(directory / f"{table}.parquet").to_pylist()


@pytest.fixture(scope="module")
def examples_export(tmp_path_factory) -> Path:
    """The examples exported as the docs do it: `gouji export --format parquet archive examples/*.gjn`,
    in a directory holding a copy of examples/, so that the file column reads examples/NAME.gjn."""
    top = tmp_path_factory.mktemp("archive")
    shutil.copytree(EXAMPLES, top / "examples")
    with cwd(top):
        names = sorted(f"examples/{p.name}" for p in EXAMPLES.glob("*.gjn"))
        r = run("export", "--format", "parquet", "archive", *names)
    assert r.exit_code == 0, r.output
    return top / "archive"


def test_three_tables_with_the_documented_columns_and_the_schema_version(examples_export):
    assert sorted(os.listdir(examples_export)) == ["actions.parquet", "events.parquet", "hands.parquet"]
    for table, columns in archive.TABLES.items():
        schema = pq.read_schema(examples_export / f"{table}.parquet")
        assert schema.names == [c.name for c in columns]
        assert schema.metadata[b"schema_version"] == b"2" and schema.metadata[b"table"] == table.encode()
        assert schema == archive.arrow_schema(table)


def test_a_hand_its_actions_and_events_worked_by_hand(examples_export):
    hands = {(h["file"], h["hand"]): h for h in read(examples_export, "hands")}
    one = hands[("examples/charter-hand.gjn", 1)]
    assert one["players"][4] == "Liu Yang" and one["ruleset"] == "charter" and one["options"] is None
    assert (one["actions"], one["replayed"], one["complete"], one["valid"], one["code"]) == (69, 69, True, True, None)
    assert one["places"] == [5, 6, 1, 4, 3, 2] and (one["score_135"], one["score_246"]) == (2, 0)
    assert dict(one["tags"])["Annotator"] == "gouji-record developers"

    actions = [a for a in read(examples_export, "actions") if a["file"] == "examples/charter-hand.gjn"]
    assert [a["action"] for a in actions] == list(range(1, 70))
    assert [a["round"] for a in actions[:17]] == [1] * 3 + [2] * 12 + [3] * 2
    burn = actions[16]
    assert (burn["seat"], burn["player"], burn["team"], burn["kind"], burn["burn"], burn["cards"]) == (
        5, "Liu Yang", "1-3-5", "play", True, "XXKK"
    )  # fmt: skip
    assert burn["rank_counts"] == [0] * 10 + [2, 0, 0, 2, 0]  # 3 4 5 6 7 8 9 T J Q | K A 2 X D
    assert all(a["legal"] and a["phase"] == "play" for a in actions)

    events = [e for e in read(examples_export, "events") if e["file"] == "examples/charter-hand.gjn"]
    burns = [
        (e["action"], e["round"], e["kind"], e["seats"], e["cards"], e["outcome"]) for e in events if "burn" in e["kind"]
    ]
    assert burns == [(17, 3, "burn", [5, 4], "XXKK", "success"), (22, 6, "burn-success", [5, 4], "", None)]
    assert sorted((e["seat"], e["round"]) for e in events if e["kind"] == "open") == [(4, 1), (5, 3), (6, 7)]
    # seat 3 plays out in round 17 (action 69): 5th; seat 2, left holding cards, is placed 6th (定科)
    places = [(e["kind"], e["seat"], e["place"]) for e in events if e["kind"] in ("finish", "placed", "out")]
    assert places == [("finish", 5, 1), ("finish", 6, 2), ("finish", 1, 3), ("finish", 4, 4), ("finish", 3, 5),
                      ("placed", 2, 6)]  # fmt: skip
    assert [e["event"] for e in events] == list(range(1, len(events) + 1))


def test_an_illegal_hand_is_exported_with_its_problem(examples_export):
    h = next(h for h in read(examples_export, "hands") if h["file"] == "examples/charter-hand-illegal.gjn")
    assert (h["valid"], h["complete"], h["code"], h["error_line"], h["error_column"]) == (
        False, False, "gouji-not-opposite", 27, 30
    )  # fmt: skip
    assert (h["actions"], h["replayed"], h["error_action"], h["score_135"], h["places"]) == (70, 1, 2, None, [])
    legal = [a["legal"] for a in read(examples_export, "actions") if a["file"] == "examples/charter-hand-illegal.gjn"]
    assert legal == [True, False] + [None] * 68


def test_a_match_its_hand_numbers_and_tribute(examples_export):
    match = [h for h in read(examples_export, "hands") if h["file"] == "examples/online-match.gjn"]
    assert [(h["match"], h["match_hand"], h["valid"]) for h in match] == [("Online room 8", n, True) for n in (1, 2, 3)]
    gives = [
        (a["hand"], f"{a['seat']}>{a['to']}:{a['cards']}")
        for a in read(examples_export, "actions")
        if a["file"] == "examples/online-match.gjn" and a["kind"] == "give"
    ]
    assert gives == [(2, t) for t in "2>5:D 3>6:X 1>3:22 6>5:D 3>1:33 5>6:3".split()] + [
        (3, t) for t in "6>3:X 3>2:D2 1>4:X 2>3:33 4>1:3".split()
    ]
    outside = next(h for h in read(examples_export, "hands") if h["file"] == "examples/charter-hand.gjn")
    assert (outside["match"], outside["match_hand"]) == (None, None)


def test_rounds_are_the_engines(examples_export):
    """The round column, counted from the round-end events, is the round of the engine's position
    before each action, on every example."""
    from gouji_record.running.batch import read_records
    from gouji_record.judging.replay import replay

    exported = {(a["file"], a["hand"], a["action"]): a["round"] for a in read(examples_export, "actions")}
    checked = 0
    for path in sorted(EXAMPLES.glob("*.gjn")):
        for hand in read_records(str(path)):
            result = replay(hand.record)
            for i, a in enumerate(hand.record.all_actions[: len(result.positions) - 1]):
                if not a.kind.preplay:
                    assert exported[(f"examples/{path.name}", hand.hand.index, i + 1)] == result.positions[i].round
                    checked += 1
    assert checked > 2500


def test_an_events_round_is_its_actions(examples_export):
    """Every event's round is the round column of the action that caused it (null before play)."""
    rounds = {(a["file"], a["hand"], a["action"]): a["round"] for a in read(examples_export, "actions")}
    events = read(examples_export, "events")
    assert [e["round"] for e in events] == [rounds[(e["file"], e["hand"], e["action"])] for e in events]
    assert {e["kind"] for e in events if e["round"] is None} == {"give"}  # the examples' transfers before play


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """A small self-played corpus (bench/corpus.py: the five presets in turn), with one hand that
    cannot be read (a card Z) and one with an illegal action (the example's) among them."""
    top = tmp_path_factory.mktemp("corpus")
    good = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
    illegal = (EXAMPLES / "charter-hand-illegal.gjn").read_text(encoding="utf-8")
    text = self_played(top / "hands.gjn", 60).read_text(encoding="utf-8")
    mixed = top / "mixed.gjn"
    mixed.write_text(good + "\n" + BAD_CARD_HAND + "\n" + illegal + "\n" + text, encoding="utf-8")
    return mixed


def test_jobs_and_row_groups_give_the_same_tables(corpus, tmp_path, monkeypatch):
    monkeypatch.setattr(archive, "ROW_GROUP", {"hands": 1_024, "actions": 32_768, "events": 32_768})  # one group here
    one = run("export", "--format", "parquet", tmp_path / "one", corpus)
    monkeypatch.setattr(archive, "ROW_GROUP", {"hands": 7, "actions": 500, "events": 300})
    two = run("export", "--format", "parquet", "--jobs", "2", tmp_path / "two", corpus)
    for r in (one, two):
        assert r.exit_code == 2 and re.fullmatch(r".*: 62 hands, \d+ actions, \d+ events; 1 unreadable, left out\n", r.stdout)
        assert r.stderr.startswith(f"{corpus}:96:8: error[bad-card]: ")  # located, as validate says it
    assert pq.ParquetFile(tmp_path / "one" / "actions.parquet").num_row_groups == 1
    assert pq.ParquetFile(tmp_path / "two" / "actions.parquet").num_row_groups > 10  # written as it streams
    for table in archive.TABLES:
        a, b = (pq.read_table(tmp_path / d / f"{table}.parquet") for d in ("one", "two"))
        assert a.equals(b), table
    hands = read(tmp_path / "one", "hands")
    assert [h["hand"] for h in hands[:3]] == [1, 3, 4]  # hand 2 cannot be read: left out
    assert [h["valid"] for h in hands[:3]] == [True, False, True]


def test_the_output_directory_is_never_clobbered(tmp_path):
    hand = EXAMPLES / "charter-hand.gjn"
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("mine", encoding="utf-8")
    r = run("export", "--format", "parquet", out, hand)
    assert r.exit_code == 2 and r.stderr.strip() == f"{out}: error[unwritable]: exists: give --force to replace it"
    assert os.listdir(out) == ["keep.txt"]
    r = run("export", "--format", "parquet", "--force", out, hand)
    assert r.exit_code == 0 and sorted(os.listdir(out)) == ["actions.parquet", "events.parquet", "hands.parquet"]
    assert sorted(os.listdir(tmp_path)) == ["out"]  # nothing left beside it
    inside = out / "hands.gjn"
    shutil.copy(hand, inside)
    r = run("export", "--format", "parquet", "--force", out, inside)
    assert r.exit_code == 2 and "is in OUT_DIR" in r.output and inside.exists()
    file_out = tmp_path / "file"
    file_out.write_text("x", encoding="utf-8")
    r = run("export", "--format", "parquet", "--force", file_out, hand)
    assert r.exit_code == 2 and "is a file, not a directory" in r.stderr and file_out.read_text(encoding="utf-8") == "x"


def test_a_failed_export_leaves_nothing(tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(archive, "_finish_row", broken)
    r = run("export", "--format", "parquet", tmp_path / "out", EXAMPLES / "charter-hand.gjn")
    assert r.exit_code == 130 and os.listdir(tmp_path) == []


def test_command_line_mistakes_are_one_line(tmp_path):
    hand = str(EXAMPLES / "charter-hand.gjn")
    for args, said in (
        (["export", "--format", "parquet", hand], "takes OUT_DIR, then the FILES"),
        (["export", "--format", "parquet", "-o", "x", str(tmp_path / "o"), hand], "not -o"),
        (["export", "--jobs", "2", hand], "--jobs and --dask go with --format parquet"),
        (["export", "--format", "parquet", "--jobs", "2", "--dask", "tcp://127.0.0.1:1", str(tmp_path / "o"), hand],
         "--dask and --jobs go one at a time"),
    ):  # fmt: skip
        r = run(*args)
        assert r.exit_code == 2 and said in r.output and "Traceback" not in r.output, args


@pytest.mark.parametrize(
    "args, said",
    [
        (["export", "--format", "parquet", "OUT", str(EXAMPLES / "charter-hand.gjn")], "--format parquet needs pyarrow"),
        (["validate", "--dask", "tcp://127.0.0.1:1", str(EXAMPLES / "charter-hand.gjn")], "--dask needs distributed"),
        (["stats", "--dask", "tcp://127.0.0.1:1", str(EXAMPLES / "charter-hand.gjn")], "--dask needs distributed"),
    ],
)
def test_without_the_extra_the_command_says_what_to_install(args, said, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow fails, as when not installed
    monkeypatch.setitem(sys.modules, "distributed", None)
    r = run(*[str(tmp_path / "out") if a == "OUT" else a for a in args])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == f"Error: {said}, which is not installed: pip install 'gouji-record[archives]'\n"
    assert not (tmp_path / "out").exists()


def test_an_output_directory_name_near_the_limit(tmp_path):
    # The kind of tests/test_outputs.py's long page name, found again on reading the change: an
    # OUT_DIR named with 84 Chinese characters (252 bytes, a valid name) was refused ("File name
    # too long"): its temporary directory, "." + the name + a random part + ".tmp", had over 255.
    # The temporary name is the target's cut to 32 characters, for files and directories alike.
    out = tmp_path / ("档" * 84)
    r = run("export", "--format", "parquet", out, EXAMPLES / "charter-hand.gjn")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in out.iterdir()) == ["actions.parquet", "events.parquet", "hands.parquet"]
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # no temporary left
    r = run("export", "--format", "parquet", "--force", out, EXAMPLES / "charter-hand.gjn")  # replaced: ".old" too
    assert r.exit_code == 0, r.output
    assert [p.name for p in tmp_path.iterdir()] == [out.name]
