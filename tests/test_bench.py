"""The benchmark script runs (it prints figures; it is never timed here).

Its measurements run as code in fresh interpreters, which no import check sees: a missing
``import time`` once broke every one of them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from conftest import EXAMPLES, ROOT, self_played

sys.path.insert(0, str(ROOT / "bench"))

import bench  # noqa: E402

from gouji_record.notation import parse_text  # noqa: E402


def test_our_measurements_run_on_a_small_corpus():
    corpus = EXAMPLES / "charter-match.gjn"  # three hands
    parsed = bench.ours(corpus, validate=False)
    validated = bench.ours(corpus, validate=True)
    assert parsed["hands"] == validated["hands"] == 3
    actions = sum(len(record.all_actions) for record, _ in parse_text(corpus.read_text(encoding="utf-8")))
    assert parsed["actions"] == validated["actions"] == actions
    assert validated["rss_mb"] > 0


def test_rendering_one_hand_is_measured():
    r = bench.render_one(EXAMPLES / "charter-hand.gjn")
    assert r["kb"] > 10 and r["actions"] > 0


def test_the_streamed_commands_are_measured(capsys):
    bench.streamed(EXAMPLES / "charter-match.gjn", "corpus")
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" of ")[0] for line in lines] == [
        "  corpus: gouji validate --jobs 2",
        "  corpus: gouji export",
        "  corpus: gouji fmt",
        "  corpus: gouji export --format parquet --jobs 2",
    ]
    assert all(", exit 0, peak RSS " in line for line in lines)  # each command ran and read the file


def test_the_corpus_generator_runs(tmp_path):
    # the failing input: bench/corpus.py imported gouji_record.cli.write_atomic, gone since outputs go
    # through gouji_record.running.sink: the generator could not start
    out = self_played(tmp_path / "hands.gjn", 5, jobs=1)
    assert out.read_text(encoding="utf-8").count("[Event ") == 5


def test_validate_stats_and_filter_are_measured_side_by_side(capsys):
    corpus = EXAMPLES / "charter-match.gjn"  # three valid hands
    actions = sum(len(record.all_actions) for record, _ in parse_text(corpus.read_text(encoding="utf-8")))
    runs = bench.side_by_side(corpus, actions)
    assert sorted(runs) == [(name, j) for name in ("filter", "stats", "validate") for j in (1, 2)]
    assert all(r["status"] == 0 for r in runs.values())  # each command ran and read the file
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        "  gouji validate --jobs 1", "  gouji stats --jobs 1", "  gouji filter --jobs 1",
        "  gouji validate --jobs 2", "  gouji stats --jobs 2", "  gouji filter --jobs 2",
        "  speed-up --jobs 1 to --jobs 2",
    ]  # fmt: skip
    assert "% of validate's actions/s at --jobs 2" in lines[4]


@pytest.mark.cluster  # (a LocalCluster of 2 worker processes)
def test_the_archives_are_measured(capsys):
    import pytest

    pytest.importorskip("distributed")
    pytest.importorskip("pyarrow")
    corpus = EXAMPLES / "charter-match.gjn"  # three hands
    actions = sum(len(record.all_actions) for record, _ in parse_text(corpus.read_text(encoding="utf-8")))
    bench.archives(corpus, actions)
    export, dask, cpu, client = capsys.readouterr().out.splitlines()
    assert export.startswith("  gouji export --format parquet: ") and "exit 0" in export
    assert dask.startswith("  gouji validate --dask (LocalCluster, 2 worker processes): ") and "exit 0" in dask
    assert "ratio dask/jobs = " in dask and "workers " in dask
    assert cpu.startswith("  CPU seconds: --dask ") and "workers " in cpu
    assert client.startswith("  the --dask command's own CPU ") and "for 3 hands" in client


def test_review_is_measured_against_validate_pair_by_pair(capsys):
    out = bench.review_speed(EXAMPLES / "charter-match.gjn", hands=3, pairs=1, sizes=(1, 3))
    assert all(len(out[j]["ratio"]) == 1 and out[j]["ratio"][0] > 0 for j in (1, 2))
    assert sorted(out["rss"]) == [1, 3]
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("  gouji review against validate --jobs 1 (3 hands, ") and "exit [0]" in lines[0]
    assert "pair by pair" in lines[1] and lines[2].startswith("  peak RSS, review (validate): 1 hands ")


def test_validate_is_measured_against_python_chess_pair_by_pair(tmp_path, capsys):
    import shutil

    import pytest

    pytest.importorskip("chess")  # the bench extra
    corpus = shutil.copy(EXAMPLES / "charter-match.gjn", tmp_path / "matches.gjn")  # three hands
    out = bench.versus({"matches": Path(corpus)}, pairs=1)
    assert len(out["matches"]["ratio"]) == 1 and out["matches"]["ratio"][0] > 0
    assert len(out["start"]) == 1 and out["start"][0] > 0
    assert list(tmp_path.glob("matches.*.pgn"))  # the PGN of the same size, made once beside the corpus
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("machine: ") and "load " in lines[0]
    assert lines[1].startswith("matches: matches.gjn ") and "3 hands, " in lines[1] and "exit [0]" in lines[1]
    assert lines[2].startswith("  gouji validate -q   CPU s ")
    assert lines[3].startswith("  python-chess        CPU s ")
    assert lines[4].startswith("  ratio pair by pair: per CPU s ")
    assert lines[5].startswith("  --jobs 2 against --jobs 1, pair by pair: ")
    assert lines[6].startswith("start-up (one hand, one game): gouji validate -q CPU s ") and lines[6].endswith("exit [0]")
    assert lines[7].startswith("load after: ")
    assert (tmp_path / "matches.first.gjn").read_text(encoding="utf-8").count("[Event ") == 1  # one hand


def test_the_bot_protocols_overhead_is_measured():
    """bench/bots.py's two sides play the same hand: the same decisions, in process and over the
    protocol (whose bot processes' CPU is counted, once reaped)."""
    import bots

    inproc, protocol = bots.run("inproc", "charter", 1), bots.run("protocol", "charter", 1)
    assert inproc["decisions"] == protocol["decisions"] > 100 and inproc["actions"] == protocol["actions"]
    assert inproc["children"] == 0 and protocol["children"] > 0
