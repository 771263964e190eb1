"""--dask: hands checked on the workers of a Dask cluster give what --jobs 2 gives, byte for byte.

One dask.distributed.LocalCluster (two worker processes, one thread each) serves the module; the
commands run as a user runs them (`python -m gouji_record.cli`), once with --jobs 2 and once with
--dask and the cluster's address, on a self-played sample of the five presets with a hand that
cannot be read and one with an illegal action among them, and on a match (its tribute and standings
are checked here, on the reports in order, as with --jobs).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import BAD_CARD_HAND, EXAMPLES, ROOT, self_played

pytest.importorskip("distributed")
pq = pytest.importorskip("pyarrow.parquet")

from gouji_record.formats import archive  # noqa: E402
from gouji_record.running import cluster  # noqa: E402
from gouji_record.running.batch import check_file, with_matches  # noqa: E402
from gouji_record.notation.files import read_hands  # noqa: E402

pytestmark = pytest.mark.cluster  # starts a Dask cluster: left out of the quick run (-m "not cluster")


@pytest.fixture(scope="module")
def address():
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as local:
        yield local.scheduler_address


@pytest.fixture(scope="module")
def client(address):
    from distributed import Client

    with Client(address, set_as_default=False) as c:
        yield c


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> list[str]:
    """bench/corpus.py's first 80 hands (16 under each preset), a hand with a card Z, the
    example with an illegal action, and a three-hand match."""
    top = tmp_path_factory.mktemp("sample")
    corpus = self_played(top / "hands.gjn", 80)
    bad = top / "bad.gjn"
    bad.write_text(BAD_CARD_HAND + "\n" + (EXAMPLES / "charter-hand-illegal.gjn").read_text(encoding="utf-8"), encoding="utf-8")
    return [str(corpus), str(bad), str(EXAMPLES / "online-match.gjn"), str(top / "missing.gjn")]


def gouji(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    return subprocess.run([sys.executable, "-m", "gouji_record.cli", *args], capture_output=True, cwd=ROOT, env=env)


@pytest.mark.parametrize("options", [[], ["--format", "json"], ["-q"]])
def test_validate_on_the_cluster_says_what_jobs_say(address, sample, options):
    jobs = gouji("validate", *options, "--jobs", "2", *sample)
    dask = gouji("validate", *options, "--dask", address, *sample)
    assert jobs.returncode == 2  # the hand with a card Z, the missing file
    assert (dask.returncode, dask.stdout, dask.stderr) == (jobs.returncode, jobs.stdout, jobs.stderr)
    assert jobs.stdout.count(b"\n") > 80 or options == ["-q"]


@pytest.mark.parametrize("options", [["--format", "json"], ["--by", "ruleset"], ["--by", "team", "--format", "csv"]])
def test_stats_on_the_cluster_count_what_jobs_count(address, sample, options):
    here = gouji("stats", *options, "--jobs", "2", *sample)
    there = gouji("stats", *options, "--dask", address, *sample)
    assert here.returncode == 2 and b"error[bad-card]" in here.stderr
    assert (there.returncode, there.stdout, there.stderr) == (here.returncode, here.stdout, here.stderr)


def test_the_python_api_takes_a_client(client, sample):
    here = [(r.path, r.index, r.status, r.text, r.data) for p in sample for r in with_matches(check_file(p))]
    there = [(r.path, r.index, r.status, r.text, r.data) for r in cluster.check_files(client, sample)]
    assert there == here
    assert [d["match_hand"] for p, _, _, _, d in there if p.endswith("online-match.gjn")] == [1, 2, 3]


def test_export_on_the_cluster_writes_the_same_tables(address, client, sample, tmp_path):
    jobs = gouji("export", "--format", "parquet", "--jobs", "2", str(tmp_path / "jobs"), *sample)
    dask = gouji("export", "--format", "parquet", "--dask", address, str(tmp_path / "dask"), *sample)
    assert jobs.returncode == 2 and (dask.returncode, dask.stderr) == (jobs.returncode, jobs.stderr)
    assert dask.stdout.replace(b"dask", b"jobs") == jobs.stdout
    summary = archive.export_to_parquet(client, str(tmp_path / "api"), sample)
    assert summary.unreadable == 2 and summary.hands == 80 + 1 + 3
    for table in ("hands", "actions", "events"):
        tables = [pq.read_table(tmp_path / d / f"{table}.parquet") for d in ("jobs", "dask", "api")]
        assert tables[0].equals(tables[1]) and tables[0].equals(tables[2]), table


def test_a_scheduler_that_does_not_answer_is_one_line(monkeypatch):
    from click.testing import CliRunner

    from gouji_record.cli.main import main

    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 1)  # 10 s for a user
    r = CliRunner().invoke(main, ["validate", "--dask", "tcp://127.0.0.1:9", str(EXAMPLES / "charter-hand.gjn")])
    assert r.exit_code == 2 and r.stdout == ""
    (line,) = r.stderr.splitlines()
    assert line.startswith("tcp://127.0.0.1:9: error[cluster]: cannot reach a Dask scheduler at tcp://127.0.0.1:9: ")


def test_a_task_that_fails_is_one_error(client):
    hands = list(read_hands(str(EXAMPLES / "charter-match.gjn")))
    run = cluster.on_cluster(client)
    with pytest.raises(cluster.ClusterError, match="^a task failed on the Dask cluster: TypeError: "):
        list(run(int, iter([hands])))  # int() of a hand: the worker raises
    assert list(run(bool, iter([hands[:2], hands[2:]]))) == [[True, True], [True]]  # the runner goes on
