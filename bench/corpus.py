"""Generate a corpus of self-played hands for the benchmarks (bench/bench.py).

    python bench/corpus.py --hands 10000 -o bench/corpus/hands.gjn

Hands are played by the `person` bot under the five presets in turn, seeded, in worker
processes; the file is written atomically in canonical form. Regenerating with the same
arguments gives the same bytes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

from gouji_record.notation.writer import write
from gouji_record.rules.rulesets import PRESETS
from gouji_record.bots.selfplay import play_hand
from gouji_record.running.sink import Sink

NAMES = list(PRESETS)


def _hand(n: int) -> str:
    return write(play_hand(PRESETS[NAMES[n % len(NAMES)]], seed=n, bot="person"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    ap.add_argument("-o", "--output", default="bench/corpus/hands.gjn")
    args = ap.parse_args()
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        texts = pool.map(_hand, range(args.hands), chunksize=50)
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    with Sink(str(out)) as sink:  # written whole or not at all
        sink.write("\n".join(texts))
    took = time.perf_counter() - start
    print(f"{args.hands} hands, {out.stat().st_size / 1e6:.1f} MB in {took:.1f} s -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
