"""Peak memory of every command on large inputs (issue 38): prints figures, asserts nothing.

    .venv/bin/python bench/peak_memory.py                        # builds the inputs in a temporary folder
    .venv/bin/python bench/peak_memory.py --dir /tmp/big --keep  # builds them there, once, and keeps them
    .venv/bin/python bench/peak_memory.py --only render --only export

The inputs are made from self-played hands (the ``person`` bot, the five presets in turn, as
bench/corpus.py plays them), as the tester's ``make-big.py`` makes them:

- ``big.gjn``: 11,000 hands (about 33 MB), each with a comment of about 1.2 kB after ``play``;
- ``tag4m.gjn``: one hand whose Site tag is 4 MiB long;
- ``line400k.gjn``: one hand whose play is 400,000 passes on one line (illegal at its first: the
  leader may not pass, so the engine replays almost nothing; the reader, the exporters and the
  page still carry every action).

Each command runs as its own process (``python -m gouji_record.cli``), its output thrown away or
written to a file in the folder; the figure is that process's peak resident set (``ru_maxrss`` of
the finished child, :func:`os.wait4`), in MB, with its exit status and the bytes it wrote. The
interpreter alone (``python -c pass`` importing the package) is the first row, for scale. Run it
from another checkout with ``PYTHONPATH=that/checkout`` to compare before and after.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: Hands played for the base the inputs repeat (the base's hands are cycled).
BASE_HANDS = 50
#: What make-big.py writes: hands of big.gjn, the Site tag's length in tag4m.gjn, the passes of line400k.gjn.
BIG_HANDS, TAG_CHARS, LINE_ACTIONS = 11_000, 4 << 20, 400_000
#: The commands measured on each input: a name, then the arguments after ``gouji`` (``{in}`` the
#: input, ``{out}`` a file or folder in the working folder).
COMMANDS: list[tuple[str, list[str]]] = [
    ("validate", ["validate", "-q", "{in}"]),
    ("fmt", ["fmt", "{in}"]),
    ("stats", ["stats", "{in}"]),
    ("filter", ["filter", "--has", "burn", "--count", "{in}"]),
    ("review", ["review", "--summary", "{in}"]),
    ("events", ["events", "{in}"]),
    ("export json", ["export", "--with-verdict", "{in}"]),
    ("export parquet", ["export", "--format", "parquet", "{out}", "{in}"]),
    ("render", ["render", "{in}", "-o", "{out}.html"]),
    ("show", ["show", "--at", "2", "{in}"]),
    ("moves", ["moves", "--at", "1", "{in}"]),
]


def build(folder: Path) -> list[Path]:
    """The three inputs in ``folder``, made unless there already (the base self-played first)."""
    from gouji_record.bots.selfplay import play_hand
    from gouji_record.notation.writer import write
    from gouji_record.rules.rulesets import PRESETS

    names = list(PRESETS)
    paths = [folder / "big.gjn", folder / "tag4m.gjn", folder / "line400k.gjn"]
    if all(p.exists() for p in paths):
        return paths
    hands = [write(play_hand(PRESETS[names[n % len(names)]], seed=n, bot="person")).strip("\n") for n in range(BASE_HANDS)]
    pad = "{" + "注释 comment padding " * 64 + "}\n"
    big = (hands[i % len(hands)].replace("\nplay\n", "\nplay\n" + pad, 1) for i in range(BIG_HANDS))
    paths[0].write_text("\n\n".join(big) + "\n", encoding="utf-8")
    first = hands[0]
    paths[1].write_text(first.replace('[Site "', '[Site "' + "S" * TAG_CHARS, 1) + "\n", encoding="utf-8")
    head = first.split("\nplay\n")[0]
    leader = int(re.search(r"play\n1\. (\d):", first).group(1))
    passes = " ".join(f"{(leader - 1 + k) % 6 + 1}:-" for k in range(LINE_ACTIONS))
    paths[2].write_text(head.replace('[Result "', '[Result "*"] [X "', 1) + "\nplay\n" + passes + "\n", encoding="utf-8")
    return paths


def peak(args: list[str], cwd: Path) -> tuple[float, int, int]:
    """Run ``args`` in ``cwd``: its peak RSS in MB, its exit status, the bytes it wrote on standard output."""
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(args, cwd=cwd, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        return usage.ru_maxrss / 1024, child.returncode, out.seek(0, os.SEEK_END)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", type=Path, help="Build (or find) the inputs here, not in a temporary folder.")
    parser.add_argument("--keep", action="store_true", help="Keep the inputs and outputs in --dir.")
    parser.add_argument("--only", action="append", help="Only this command (repeat for more): " + ", ".join(c for c, _ in COMMANDS))
    args = parser.parse_args(argv)
    folder = args.dir or Path(tempfile.mkdtemp(prefix="gouji-peak-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        inputs = build(folder)
        gouji = [sys.executable, "-m", "gouji_record.cli"]
        base, _, _ = peak([sys.executable, "-c", "import gouji_record.cli.main"], folder)
        print(f"{'command':<16}" + "".join(f"{p.name:>22}" for p in inputs))
        print(f"{'(interpreter)':<16}" + f"{base:>19.0f} MB" * len(inputs))
        for name, command in COMMANDS:
            if args.only and name not in args.only:
                continue
            cells = []
            for path in inputs:
                out = folder / f"out-{path.stem}-{name.replace(' ', '-')}"
                shutil.rmtree(out, ignore_errors=True)
                mb, status, wrote = peak(gouji + [a.format(**{"in": path.name, "out": out.name}) for a in command], folder)
                written = wrote + sum(f.stat().st_size for f in folder.glob(f"{out.name}*") if f.is_file())
                written += sum(f.stat().st_size for f in out.glob("*")) if out.is_dir() else 0
                cells.append(f"{mb:5.0f} MB ({status}, {written / 1e6:6.1f} MB)")
            print(f"{name:<16}" + "".join(f"{c:>22}" for c in cells))
        print("each cell: peak RSS (exit status, MB written)")
    finally:
        if not (args.dir and args.keep):
            for f in folder.glob("out-*"):
                shutil.rmtree(f) if f.is_dir() else f.unlink()
        if args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
