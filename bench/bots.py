"""The bot protocol's overhead per decision: prints figures, asserts nothing (docs/bots.md).

    .venv/bin/python bench/bots.py                  # 5 pairs of 4 hands, charter
    .venv/bin/python bench/bots.py --pairs 3 --hands 2 --ruleset tournament

The same hands are played twice in turn, each time in a fresh interpreter: by the built-in bot
``person`` called in process at all six seats (gouji_record.bots.referee.BuiltIn), and by the same
bot over the protocol, ``gouji bot person`` in its own process at all six seats
(gouji_record.bots.referee.External). The two make the same decisions (tests/test_bots.py checks
that a bot over the protocol plays as it does in process), so the hands and the number of
decisions are the same. CPU seconds are user + system of the referee's process and of its bot
processes (``RUSAGE_CHILDREN``, once reaped); the start-up of six bot processes (a table greeted
and closed, no hand) is measured in the same turns and taken off. Printed: the CPU µs per decision
of each side (min / median / max over the pairs), the protocol's overhead per decision, and the
ratio protocol / in process pair by pair.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable

#: One side's run, in a fresh interpreter: prints CPU seconds (this process and its reaped
#: children) and the number of decisions, as JSON.
RUN = """
import json, resource, sys
from gouji_record.bots.referee import BuiltIn, External, Table, play_hands
from gouji_record.rules.rulesets import get_ruleset

mode, ruleset, hands = sys.argv[1], sys.argv[2], int(sys.argv[3])
def cpu():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return s.ru_utime + s.ru_stime, c.ru_utime + c.ru_stime
command = f"{sys.executable} -m gouji_record.cli bot person --seed 5"
players = [BuiltIn("person", 5) if mode == "inproc" else External(command) for _ in range(6)]
table = Table(get_ruleset(ruleset), players)
before = cpu()
records = play_hands(table, [1000 + n for n in range(hands)])
after = cpu()
print(json.dumps({"self": after[0] - before[0], "children": after[1] - before[1], "decisions": table.decisions,
                  "actions": sum(len(r.actions) for r in records)}))
"""


def run(mode: str, ruleset: str, hands: int) -> dict:
    """One side (``inproc`` or ``protocol``; ``hands`` 0: the start-up alone), in a fresh process."""
    out = subprocess.run([PY, "-c", RUN, mode, ruleset, str(hands)], capture_output=True, text=True, check=True, cwd=ROOT)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    data["cpu"] = data["self"] + data["children"]
    return data


def _spread(values: list[float], fmt: str = "{:.2f}") -> str:
    values = sorted(values)
    return " / ".join(fmt.format(v) for v in (values[0], statistics.median(values), values[-1]))


def overhead(ruleset: str = "charter", hands: int = 4, pairs: int = 5) -> dict:
    """In process against over the protocol, ``pairs`` times in turn after one warm-up pair.
    Returns the figures (lists, one value per pair) and prints them."""
    runs: dict[str, list[dict]] = {"inproc": [], "protocol": [], "start": []}
    for turn in range(pairs + 1):
        a, b, st = run("inproc", ruleset, hands), run("protocol", ruleset, hands), run("protocol", ruleset, 0)
        if turn:
            runs["inproc"].append(a)
            runs["protocol"].append(b)
            runs["start"].append(st)
    decisions = {x["decisions"] for k in ("inproc", "protocol") for x in runs[k]}
    assert len(decisions) == 1, f"the two sides made different numbers of decisions: {decisions}"
    n = decisions.pop()
    inproc = [1e6 * a["cpu"] / n for a in runs["inproc"]]
    proto = [1e6 * (b["cpu"] - st["cpu"]) / n for b, st in zip(runs["protocol"], runs["start"])]
    extra = [p - i for p, i in zip(proto, inproc)]
    ratio = [p / i for p, i in zip(proto, inproc)]
    print(
        f"  bot protocol, {ruleset}, {hands} hands, {n} decisions, {pairs} pairs in turn: CPU µs per decision "
        f"(min / median / max) in process {_spread(inproc, '{:.0f}')}, over the protocol (six `gouji bot person` "
        f"processes, their start-up of {_spread([st['cpu'] for st in runs['start']])} CPU s taken off) "
        f"{_spread(proto, '{:.0f}')}; overhead {_spread(extra, '{:.0f}')} µs per decision; "
        f"protocol / in process pair by pair {_spread(ratio)}"
    )
    return {"decisions": n, "inproc": inproc, "protocol": proto, "overhead": extra, "ratio": ratio}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ruleset", default="charter")
    ap.add_argument("--hands", type=int, default=4)
    ap.add_argument("--pairs", type=int, default=5)
    args = ap.parse_args()
    overhead(args.ruleset, args.hands, args.pairs)


if __name__ == "__main__":
    main()
