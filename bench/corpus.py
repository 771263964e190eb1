"""Generate corpora of self-played hands for the benchmarks (bench/bench.py).

    python bench/corpus.py --hands 10000 -o bench/corpus/hands.gjn
    python bench/corpus.py --matches 100 --match-hands 20 -o bench/corpus/matches.gjn

Hands are played by the `person` bot under the five presets in turn, seeded, in worker
processes; with ``--matches`` each match is a row of hands with the tribute between them
(比赛: ``gouji selfplay --match``), the presets again in turn. The file is written atomically in
canonical form. Regenerating with the same arguments gives the same bytes.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path

from gouji_record.judging.canonical import canonical
from gouji_record.notation.writer import write
from gouji_record.rules.rulesets import PRESETS
from gouji_record.bots.selfplay import play_hand, play_match
from gouji_record.running.sink import Sink

NAMES = list(PRESETS)


def _hand(n: int) -> str:
    """The ``n``-th single hand: preset ``n mod 5``, seed ``n``."""
    return write(play_hand(PRESETS[NAMES[n % len(NAMES)]], seed=n, bot="person"))


def _match(job: tuple[int, int]) -> str:
    """The ``n``-th match of ``hands`` hands: preset ``n mod 5``, seed ``n``; its hands' text."""
    n, hands = job
    records = play_match(PRESETS[NAMES[n % len(NAMES)]], seed=n, hands=hands, bot="person", name=f"Bench match {n}")
    return "\n".join(write(canonical(record)) for record in records)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000, help="single hands (without --matches)")
    ap.add_argument("--matches", type=int, default=0, help="write this many matches instead of single hands")
    ap.add_argument("--match-hands", type=int, default=20, help="hands in each match")
    ap.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    ap.add_argument("-o", "--output", default="bench/corpus/hands.gjn")
    args = ap.parse_args()
    start = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        if args.matches:
            texts = pool.map(_match, [(n, args.match_hands) for n in range(args.matches)], chunksize=1)
        else:
            texts = pool.map(_hand, range(args.hands), chunksize=50)
    out = Path(args.output)
    out.parent.mkdir(parents=True, exist_ok=True)
    with Sink(str(out)) as sink:  # written whole or not at all
        sink.write("\n".join(texts))
    took = time.perf_counter() - start
    what = f"{args.matches} matches of {args.match_hands} hands" if args.matches else f"{args.hands} hands"
    print(f"{what}, {out.stat().st_size / 1e6:.1f} MB in {took:.1f} s -> {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
