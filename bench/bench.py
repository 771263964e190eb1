"""gouji-record benchmark: prints figures, asserts nothing (speed is measured here, never in tests).

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/corpus.py --hands 2000 -o bench/corpus/hands.gjn                  # once
    .venv/bin/python bench/corpus.py --matches 100 --match-hands 20 -o bench/corpus/matches.gjn  # once
    .venv/bin/python bench/bench.py --versus            # validate against python-chess, pair by pair
    .venv/bin/python bench/bench.py                     # all figures
    .venv/bin/python bench/bench.py --big-mb 1024       # validate, export and fmt a 1 GB file
    .venv/bin/python bench/bench.py --review            # review against validate only

Measures, on this machine:
- `gouji validate -q` against python-chess 1.11 reading a PGN file of the same byte size
  (`read_game` parses every move and checks it legal), on single hands and on matches
  (``--versus``): whole processes run in turn, A B A B …, after a warm-up pair; each side's CPU
  seconds (user and system, its child processes included) and wall seconds, min / median / max,
  and the ratio of our actions per CPU second to its moves per CPU second taken pair by pair; the
  start-up of each (`gouji validate -q` of one hand against `read_game` of one game); `--jobs 2` against `--jobs 1`
  (CPU in all and wall, pair by pair); the load average before and after;
- parse only and parse+validate throughput of the corpus in one process (hands/s, actions/s);
- `gouji validate`, `stats` and `filter` side by side on the corpus, at `--jobs 1` and `--jobs 2`:
  actions/s, stats and filter against validate, the speed-up of each;
- `gouji review` against `gouji validate` on the corpus's first 300 hands, run in turn (`--review`
  alone): CPU µs per action, the ratio pair by pair, and peak RSS on 40, 160 and 640 hands;
- time and peak RSS of `gouji validate`, `export` and `fmt` reading hand by hand: the corpus, or with
  `--big-mb` a large file (the corpus repeated);
- time and size of rendering one hand as HTML;
- with the archives extra: `gouji export --format parquet` actions/s against `gouji validate`'s (one
  process each), and `gouji validate --dask` on a LocalCluster of two worker processes against
  `--jobs 2` (the cluster's overhead as a ratio of times), with the peak RSS of each process.
Each measurement runs in a fresh process, so peak RSS belongs to it alone.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PY = sys.executable


def child(code: str) -> dict:
    """Run ``code`` in a fresh interpreter; it prints one JSON object, to which peak RSS is added."""
    wrapped = (
        code + "\nimport resource, json as _j; print(_j.dumps({**RESULT, 'rss_mb': "
        "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))"
    )
    out = subprocess.run([PY, "-c", wrapped], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def ours(corpus: Path, validate: bool) -> dict:
    return child(f"""
import time
from gouji_record.notation.files import read_hands
from gouji_record.notation.parser import parse_text
from gouji_record.judging.replay import replay
path = {str(corpus)!r}
t = time.perf_counter(); hands = actions = 0
for hand in read_hands(path):
    for rec, _ in parse_text(hand.text, hand.line, hand.column):
        hands += 1; actions += len(rec.all_actions)
        if {validate!r}:
            r = replay(rec, every_position=False)  # as gouji validate does
            assert r.diagnostic is None, r.diagnostic
dt = time.perf_counter() - t
RESULT = dict(hands=hands, actions=actions, seconds=dt)
""")


def chess_corpus(size: int, path: Path, seed: int = 1) -> None:
    """Random legal games written by python-chess until ``size`` bytes of PGN."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    written = 0
    with path.open("w", encoding="utf-8") as f:
        while written < size:
            board, game = chess.Board(), chess.pgn.Game()
            node = game
            for _ in range(rng.randint(40, 160)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                move = rng.choice(moves)
                node = node.add_variation(move)
                board.push(move)
            game.headers["Result"] = board.result() if board.is_game_over() else "*"
            text = str(game) + "\n\n"
            f.write(text)
            written += len(text.encode("utf-8"))


def cli_run(path: Path | None, *command: str) -> dict:
    """Time `gouji COMMAND PATH` (no PATH when ``None``) as a user runs it, output thrown away; peak
    RSS is the largest of its processes (workers too), CPU time the sum over them (user and system)."""
    args = [*command] + ([] if path is None else [str(path)])
    wrapper = (
        "import resource, subprocess, sys, time; t = time.perf_counter(); "
        f"p = subprocess.run([{PY!r}, '-m', 'gouji_record.cli', *{args!r}], "
        "stdout=subprocess.DEVNULL); u = resource.getrusage(resource.RUSAGE_CHILDREN); "
        "print(time.perf_counter() - t, p.returncode, u.ru_maxrss, u.ru_utime + u.ru_stime)"
    )
    out = subprocess.run([PY, "-c", wrapper], capture_output=True, text=True, cwd=ROOT, check=True)
    seconds, status, rss_kb, cpu = out.stdout.split()
    return {"seconds": float(seconds), "status": int(status), "rss_mb": int(rss_kb) / 1024, "cpu": float(cpu)}


def cli_validate(path: Path, jobs: int) -> dict:
    """Time `gouji validate -q --jobs JOBS` (see :func:`cli_run`)."""
    return cli_run(path, "validate", "-q", "--jobs", str(jobs))


#: The commands that read hand by hand; OUT is a new directory (the Parquet export's, when pyarrow is there).
STREAMED = {
    "validate --jobs 2": ("validate", "-q", "--jobs", "2"),
    "export": ("export",),
    "fmt": ("fmt",),
    "export --format parquet --jobs 2": ("export", "--format", "parquet", "--jobs", "2", "OUT"),
}


def streamed(path: Path, label: str) -> None:
    """Print time and peak RSS of validate, export, fmt and the Parquet export (with the archives
    extra) on ``path``: all read hand by hand."""
    size = path.stat().st_size / 1e6
    for name, command in STREAMED.items():
        if "parquet" in command and importlib.util.find_spec("pyarrow") is None:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            r = cli_run(path, *(str(Path(tmp) / "archive") if word == "OUT" else word for word in command))
        print(
            f"  {label}: gouji {name} of {size:.0f} MB in {r['seconds']:.0f} s ({size / r['seconds']:.2f} MB/s), "
            f"exit {r['status']}, peak RSS {r['rss_mb']:.0f} MB (target <= 150 MB)"
        )


#: The commands that go over every hand, timed side by side (the issue's target: stats and filter at
#: no less than 80 % of validate's actions/s).
SIDE_BY_SIDE = {
    "validate": ("validate", "-q"),
    "stats": ("stats", "--by", "player", "--format", "json"),
    "filter": ("filter", "--valid", "--count"),
}


def side_by_side(path: Path, actions: int, jobs: tuple[int, ...] = (1, 2)) -> dict[tuple[str, int], dict]:
    """Time `gouji validate`, `stats` and `filter` on ``path`` (which holds ``actions`` actions) with
    each of ``jobs`` worker processes, in one run; print each one's actions/s, its ratio to
    validate's with as many processes, and each one's speed-up from the first ``jobs`` to the others."""
    runs: dict[tuple[str, int], dict] = {}
    for j in jobs:
        for name, command in SIDE_BY_SIDE.items():
            r = runs[name, j] = cli_run(path, *command, "--jobs", str(j))
            rate = actions / r["seconds"]
            line = f"  gouji {name} --jobs {j}: {r['seconds']:.2f} s = {rate:,.0f} actions/s, exit {r['status']}, peak RSS {r['rss_mb']:.0f} MB"
            if name != "validate":
                ratio = runs["validate", j]["seconds"] / r["seconds"]
                line += f"; {100 * ratio:.0f} % of validate's actions/s at --jobs {j} (target >= 80 %)"
            print(line)
    for j in jobs[1:]:
        print(
            f"  speed-up --jobs {jobs[0]} to --jobs {j}: "
            + ", ".join(f"{name} {runs[name, jobs[0]]['seconds'] / runs[name, j]['seconds']:.2f}x" for name in SIDE_BY_SIDE)
            + " (validate's target >= 1.7x)"
        )
    return runs


def _sample(corpus: Path, hands: int, path: Path) -> tuple[int, int]:
    """Write the first ``hands`` hands of ``corpus`` to ``path``; their number and actions."""
    from gouji_record.notation.files import read_hands
    from gouji_record.notation.parser import parse_text

    actions, texts = 0, []
    for hand in read_hands(str(corpus)):
        texts.append(hand.text.strip("\n"))
        actions += sum(len(rec.all_actions) for rec, _ in parse_text(hand.text))
        if len(texts) == hands:
            break
    path.write_text("\n\n".join(texts) + "\n", encoding="utf-8")
    return len(texts), actions


def _spread(values: list[float], fmt: str = "{:.2f}") -> str:
    """min / median / max of ``values``."""
    values = sorted(values)
    return " / ".join(fmt.format(v) for v in (values[0], statistics.median(values), values[-1]))


def review_speed(corpus: Path, hands: int = 300, pairs: int = 5, sizes: tuple[int, ...] = (40, 160, 640)) -> dict:
    """`gouji review` (no rollouts, JSON out) against `gouji validate -q` on the first ``hands``
    hands of the corpus, at --jobs 1 and 2: the two run in turn, review then validate, ``pairs``
    times after one warm-up pair, each a fresh process; printed: each side's CPU seconds (user and
    system, its workers' too) per action in µs, min / median / max, and the ratio review/validate
    taken pair by pair (min / median / max), as a whole process and less the start-up (the CPU of
    `gouji --version`, run in the same turns). The issue's target (24): review at most 2x validate
    per action. Then the peak RSS of each, one run, on the first ``sizes`` hands: flat in the
    number of hands. Returns the figures."""
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        sample = Path(tmp) / "sample.gjn"
        n, actions = _sample(corpus, hands, sample)
        for j in (1, 2):
            runs: dict[str, list[dict]] = {"review": [], "validate": [], "start": []}
            for turn in range(pairs + 1):
                r = cli_run(sample, "review", "--format", "json", "--jobs", str(j))
                v = cli_run(sample, "validate", "-q", "--jobs", str(j))
                st = cli_run(None, "--version")
                if turn:  # the first pair warms the caches of the machine
                    runs["review"].append(r)
                    runs["validate"].append(v)
                    runs["start"].append(st)
            ratios = [r["cpu"] / v["cpu"] for r, v in zip(runs["review"], runs["validate"])]
            net = [
                (r["cpu"] - st["cpu"]) / (v["cpu"] - st["cpu"])
                for r, v, st in zip(runs["review"], runs["validate"], runs["start"])
            ]
            per = {k: [1e6 * x["cpu"] / actions for x in runs[k]] for k in ("review", "validate")}
            out[j] = {"ratio": ratios, "net": net, **per, "start": [x["cpu"] for x in runs["start"]]}
            status = {x["status"] for k in ("review", "validate") for x in runs[k]}
            print(
                f"  gouji review against validate --jobs {j} ({n} hands, {actions} actions, {pairs} pairs in turn, "
                f"exit {sorted(status)}): CPU µs per action (min / median / max) review {_spread(per['review'], '{:.1f}')}, "
                f"validate {_spread(per['validate'], '{:.1f}')}; review/validate pair by pair {_spread(ratios)}, "
                f"less the start-up ({_spread(out[j]['start'])} CPU s) {_spread(net)} (target <= 2)"
            )
        rss = {}
        for size in sizes:
            got, _ = _sample(corpus, size, sample)
            if got < size:
                break
            rss[size] = (cli_run(sample, "review", "--format", "json")["rss_mb"], cli_run(sample, "validate", "-q")["rss_mb"])
        out["rss"] = rss
        print(
            "  peak RSS, review (validate): "
            + (", ".join(f"{size} hands {a:.0f} MB ({b:.0f} MB)" for size, (a, b) in rss.items()) or f"the corpus has fewer than {sizes[0]} hands")
            + " (flat in the number of hands)"
        )
    return out


def measure(argv: list[str]) -> dict:
    """Run ``argv`` as a whole process, output thrown away; its CPU seconds (user and system, the
    processes it waited for included: `--jobs` workers), wall seconds, peak RSS (MB, its largest
    process) and exit status, from the kernel's own accounting (``wait4``)."""
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return {
        "cpu": usage.ru_utime + usage.ru_stime,
        "wall": time.perf_counter() - start,
        "rss_mb": usage.ru_maxrss / 1024,
        "status": p.returncode,
    }


def in_turn(a: list[str], b: list[str], pairs: int, warmup: int = 1) -> tuple[list[dict], list[dict]]:
    """Run ``a`` then ``b``, ``warmup`` + ``pairs`` times, each a fresh process (:func:`measure`);
    the runs of each after the warm-up pairs. A load spike then lands on both sides of a pair, so
    ratios are taken pair by pair."""
    runs_a: list[dict] = []
    runs_b: list[dict] = []
    for turn in range(warmup + pairs):
        ra, rb = measure(a), measure(b)
        if turn >= warmup:
            runs_a.append(ra)
            runs_b.append(rb)
    return runs_a, runs_b


def _load() -> str:
    """The machine's load average over 1, 5 and 15 minutes, as text."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


#: python-chess reading a PGN file game by game: ``read_game`` parses each SAN move against the
#: legal moves of its position, so every move is checked; a game with errors stops the run.
CHESS_READ = """
import sys, chess.pgn
with open(sys.argv[1], encoding="utf-8") as f:
    while (game := chess.pgn.read_game(f)) is not None:
        if game.errors:
            sys.exit(f"{game.errors}")
"""


def _pgn_like(gjn: Path) -> tuple[Path, int, int]:
    """A PGN file of random legal games as large as ``gjn`` (made once, kept beside it), its games
    and moves."""
    import chess.pgn

    pgn = gjn.with_suffix(f".{gjn.stat().st_size}.pgn")
    if not pgn.exists():
        chess_corpus(gjn.stat().st_size, pgn)
    games = moves = 0
    with pgn.open(encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            games += 1
            moves += sum(1 for _ in game.mainline_moves())
    return pgn, games, moves


def _count(gjn: Path) -> tuple[int, int]:
    """Hands and actions (declarations and transfers included) of ``gjn``."""
    from gouji_record.notation.files import read_hands
    from gouji_record.notation.parser import parse_text

    hands = actions = 0
    for hand in read_hands(str(gjn)):
        for rec, _ in parse_text(hand.text, hand.line, hand.column):
            hands += 1
            actions += len(rec.all_actions)
    return hands, actions


def _first_of(gjn: Path) -> tuple[Path, Path]:
    """The first hand of ``gjn`` and the first game of its PGN twin, each in a file of its own beside
    them: what each side's start-up is measured on (a whole job, not ``--version``)."""
    from gouji_record.notation.files import read_hands

    pgn = _pgn_like(gjn)[0]
    hand, game = gjn.with_suffix(".first.gjn"), pgn.with_suffix(".first.pgn")
    first = next(iter(read_hands(str(gjn))))
    hand.write_text(first.text, encoding="utf-8")
    game.write_text(pgn.read_text(encoding="utf-8").split("\n\n[", 1)[0] + "\n", encoding="utf-8")
    return hand, game


def versus(corpora: dict[str, Path], pairs: int = 7) -> dict:
    """`gouji validate -q` against python-chess `read_game` on a PGN file of the same size, for
    each of ``corpora`` (label → .gjn file), ``pairs`` pairs in turn after a warm-up pair; then
    start-up (`gouji validate -q` of one hand against `read_game` of one game) and `--jobs 2` against
    `--jobs 1`. Prints each side's CPU and wall seconds (min / median / max) and the ratios pair by
    pair; the issue's target (29): actions per CPU second at least 2.0 times python-chess's moves
    per CPU second, as the median of the pairs. Returns the figures."""
    gouji = [PY, "-m", "gouji_record.cli"]
    out: dict = {}
    # Both sides start from bytecode, as an installed package does: pip compiled python-chess's
    # modules when it installed them, while an editable install of ours compiles them at every
    # start when PYTHONDONTWRITEBYTECODE is set (about 0.1 CPU s a process).
    subprocess.run([PY, "-m", "compileall", "-q", str(ROOT / "gouji_record")], check=True, stdout=subprocess.DEVNULL)
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load {_load()}")
    for label, gjn in corpora.items():
        hands, actions = _count(gjn)
        pgn, games, moves = _pgn_like(gjn)
        ours_runs, chess_runs = in_turn([*gouji, "validate", "-q", str(gjn)], [PY, "-c", CHESS_READ, str(pgn)], pairs)
        ratios = [(actions / o["cpu"]) / (moves / c["cpu"]) for o, c in zip(ours_runs, chess_runs)]
        walls = [(actions / o["wall"]) / (moves / c["wall"]) for o, c in zip(ours_runs, chess_runs)]
        status = sorted({r["status"] for r in ours_runs + chess_runs})
        print(
            f"{label}: {gjn.name} {gjn.stat().st_size / 1e6:.1f} MB, {hands} hands, {actions:,} actions; "
            f"PGN {pgn.stat().st_size / 1e6:.1f} MB, {games} games, {moves:,} moves; {pairs} pairs in turn, exit {status}"
        )
        print(
            f"  gouji validate -q   CPU s {_spread([r['cpu'] for r in ours_runs])}   wall s "
            f"{_spread([r['wall'] for r in ours_runs])}   actions per CPU s {_spread([actions / r['cpu'] for r in ours_runs], '{:,.0f}')}"
        )
        print(
            f"  python-chess        CPU s {_spread([r['cpu'] for r in chess_runs])}   wall s "
            f"{_spread([r['wall'] for r in chess_runs])}   moves per CPU s {_spread([moves / r['cpu'] for r in chess_runs], '{:,.0f}')}"
        )
        print(f"  ratio pair by pair: per CPU s {_spread(ratios)} (target: median >= 2.0); per wall s {_spread(walls)}")
        j1, j2 = in_turn([*gouji, "validate", "-q", "--jobs", "1", str(gjn)], [*gouji, "validate", "-q", "--jobs", "2", str(gjn)], max(3, pairs // 2))
        cpu_more = [b["cpu"] / a["cpu"] for a, b in zip(j1, j2)]
        faster = [a["wall"] / b["wall"] for a, b in zip(j1, j2)]
        print(
            f"  --jobs 2 against --jobs 1, pair by pair: CPU in all {_spread(cpu_more)}x, "
            f"wall speed-up {_spread(faster)}x (both cores shared with whatever else runs)"
        )
        out[label] = {"ratio": ratios, "wall_ratio": walls, "jobs_cpu": cpu_more, "jobs_speedup": faster}
    one_hand, one_game = _first_of(next(iter(corpora.values())))
    ours_start, chess_start = in_turn([*gouji, "validate", "-q", str(one_hand)], [PY, "-c", CHESS_READ, str(one_game)], pairs)
    start_ratio = [o["cpu"] / c["cpu"] for o, c in zip(ours_start, chess_start)]
    print(
        f"start-up (one hand, one game): gouji validate -q CPU s {_spread([r['cpu'] for r in ours_start], '{:.3f}')}, "
        f"python-chess read_game {_spread([r['cpu'] for r in chess_start], '{:.3f}')}; ours/theirs pair by pair {_spread(start_ratio)}, "
        f"exit {sorted({r['status'] for r in ours_start + chess_start})}"
    )
    print(f"load after: {_load()}")
    out["start"] = start_ratio
    return out


#: A LocalCluster of two worker processes, one thread each, in its own process: prints its address,
#: then, for each line on its standard input, the peak RSS and CPU seconds (user and system) of its
#: workers and of its own process (the scheduler's), as JSON.
CLUSTER = """
import json, resource, sys
from distributed import Client, LocalCluster

def usage():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_maxrss / 1024, u.ru_utime + u.ru_stime

if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        print(cluster.scheduler_address, flush=True)
        with Client(cluster) as client:
            for _ in sys.stdin:
                workers = sorted(client.run(usage).values())
                rss, cpu = usage()
                print(json.dumps({"workers_mb": [w[0] for w in workers], "workers_cpu": sum(w[1] for w in workers),
                                  "scheduler_mb": rss, "scheduler_cpu": cpu}), flush=True)
"""


def exported(corpus: Path) -> dict:
    """Time `gouji export --format parquet` of ``corpus`` (one process) into a new directory."""
    with tempfile.TemporaryDirectory() as tmp:
        return cli_run(corpus, "export", "--format", "parquet", str(Path(tmp) / "archive"))


def on_cluster(corpus: Path) -> dict:
    """Time `gouji validate -q --dask` of ``corpus`` on a LocalCluster of two worker processes (one
    thread each) started beforehand, its workers warmed by one small run first (a cluster is started
    once and kept); with the peak RSS of the command, each worker and the scheduler's process, and
    the CPU seconds each spent on the run."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "cluster.py"
        script.write_text(CLUSTER, encoding="utf-8")
        host = subprocess.Popen([PY, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)

        def usage() -> dict:
            host.stdin.write("\n")
            host.stdin.flush()
            return json.loads(host.stdout.readline())

        try:
            address = host.stdout.readline().strip()
            cli_run(ROOT / "examples" / "charter-match.gjn", "validate", "-q", "--dask", address)  # warm-up
            before = usage()
            run = cli_run(corpus, "validate", "-q", "--dask", address)
            after = usage()
        finally:
            host.stdin.close()
            host.wait(timeout=60)
    run |= {k: after[k] for k in ("workers_mb", "scheduler_mb")}
    run |= {k: after[k] - before[k] for k in ("workers_cpu", "scheduler_cpu")}
    return run


def archives(corpus: Path, actions: int) -> None:
    """Print the Parquet export's actions/s against validate's, and validate --dask on a LocalCluster
    of two workers against --jobs 2, with peak RSS (needs the archives extra)."""
    try:
        import distributed  # noqa: F401
        import pyarrow  # noqa: F401
    except ImportError:
        print("  archives: not measured: pip install -e '.[archives]'")
        return
    plain = cli_run(corpus, "validate", "-q")
    parquet = exported(corpus)
    print(
        f"  gouji export --format parquet: {parquet['seconds']:.2f} s, {actions / parquet['seconds']:,.0f} actions/s "
        f"(RSS {parquet['rss_mb']:.0f} MB), exit {parquet['status']}; validate: {plain['seconds']:.2f} s, "
        f"{actions / plain['seconds']:,.0f} actions/s (RSS {plain['rss_mb']:.0f} MB); export at "
        f"{100 * plain['seconds'] / parquet['seconds']:.0f} % of validate's actions/s"
    )
    jobs = cli_validate(corpus, 2)
    dask = on_cluster(corpus)
    workers = ", ".join(f"{mb:.0f}" for mb in dask["workers_mb"])
    print(
        f"  gouji validate --dask (LocalCluster, 2 worker processes): {dask['seconds']:.2f} s, "
        f"{actions / dask['seconds']:,.0f} actions/s, exit {dask['status']}; --jobs 2: {jobs['seconds']:.2f} s, "
        f"{actions / jobs['seconds']:,.0f} actions/s; ratio dask/jobs = {dask['seconds'] / jobs['seconds']:.2f}; "
        f"peak RSS: command {dask['rss_mb']:.0f} MB, workers {workers} MB, scheduler's process "
        f"{dask['scheduler_mb']:.0f} MB (--jobs 2: {jobs['rss_mb']:.0f} MB, its largest process)"
    )
    hands = sum(1 for line in corpus.open(encoding="utf-8") if line.startswith("[Event "))
    total = dask["cpu"] + dask["workers_cpu"] + dask["scheduler_cpu"]
    print(
        f"  CPU seconds: --dask {total:.2f} (command {dask['cpu']:.2f}, workers {dask['workers_cpu']:.2f}, scheduler "
        f"{dask['scheduler_cpu']:.2f}); --jobs 2 {jobs['cpu']:.2f} (command and its workers); ratio {total / jobs['cpu']:.2f}"
    )
    print(
        f"  the --dask command's own CPU (reading, cutting into batches, sending, printing): {dask['cpu']:.2f} s "
        f"for {hands} hands = {hands / dask['cpu']:,.0f} hands/s at most from one command; one worker process "
        f"(validate -q): {hands / plain['seconds']:,.0f} hands/s ({hands / plain['cpu']:,.0f} per CPU second)"
    )


def render_one(corpus: Path) -> dict:
    return child(f"""
import time
from gouji_record.notation.files import read_hands
from gouji_record.notation.parser import parse_text
from gouji_record.judging.replay import replay
from gouji_record.render.html import render_replay
hand = next(iter(read_hands({str(corpus)!r})))
rec = parse_text(hand.text, hand.line, hand.column)[0][0]
render_replay(replay(rec))  # templates loaded once, as in a long-running server
t = time.perf_counter(); html = render_replay(replay(rec)); dt = time.perf_counter() - t
t0 = time.perf_counter(); html = render_replay(replay(rec)); dt0 = time.perf_counter() - t0
RESULT = dict(seconds=min(dt, dt0), kb=len(html.encode('utf-8')) / 1024, actions=len(rec.actions))
""")


def main() -> None:
    ap = argparse.ArgumentParser(description="gouji-record benchmark")
    ap.add_argument("--corpus", default=str(HERE / "corpus" / "hands.gjn"))
    ap.add_argument("--big-mb", type=int, default=0, help="validate, export and fmt a file of this many MB (default: the corpus itself)")
    ap.add_argument("--review", action="store_true", help="only review against validate (per action, pair by pair, and peak RSS)")
    ap.add_argument("--versus", action="store_true", help="only validate against python-chess, single hands and matches, pair by pair")
    ap.add_argument("--matches", default=str(HERE / "corpus" / "matches.gjn"), help="the corpus of matches (bench/corpus.py --matches)")
    ap.add_argument("--pairs", type=int, default=7, help="pairs run in turn for each comparison")
    args = ap.parse_args()
    corpus = Path(args.corpus)
    if not corpus.exists():
        sys.exit(f"no corpus at {corpus}: run  python bench/corpus.py --hands 10000  first")
    if args.review:
        review_speed(corpus)
        return
    corpora = {"single hands": corpus} | ({"matches": Path(args.matches)} if Path(args.matches).exists() else {})
    if args.versus:
        versus(corpora, args.pairs)
        return
    mb = corpus.stat().st_size / 1e6
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}; corpus {corpus} ({mb:.1f} MB)")

    parse = ours(corpus, validate=False)
    full = ours(corpus, validate=True)
    for label, r in (("parse only", parse), ("parse+validate", full)):
        print(
            f"{label:>15}: {r['hands']} hands in {r['seconds']:.2f} s = {r['hands'] / r['seconds']:,.0f} hands/s, "
            f"{r['actions'] / r['seconds']:,.0f} actions/s, {mb / r['seconds']:.2f} MB/s, peak RSS {r['rss_mb']:.0f} MB"
        )

    versus(corpora, args.pairs)

    side_by_side(corpus, full["actions"])
    review_speed(corpus)

    if args.big_mb:
        with tempfile.TemporaryDirectory() as tmp:
            big = Path(tmp) / "big.gjn"
            text = corpus.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
            with big.open("w", encoding="utf-8") as f:
                while f.tell() < args.big_mb * 1_000_000:
                    f.write(text)
            streamed(big, "stream")
    else:
        streamed(corpus, "corpus")

    archives(corpus, full["actions"])

    rend = render_one(corpus)
    print(
        f"  render one hand ({rend['actions']} actions): {rend['seconds'] * 1000:.0f} ms, {rend['kb']:.0f} KB "
        f"(targets <= 200 ms, <= 300 KB)"
    )


if __name__ == "__main__":
    main()
