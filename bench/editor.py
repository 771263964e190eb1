"""gouji edit, measured: prints figures, asserts nothing (tests/test_browser_editor.py checks the
typing itself).

    .venv/bin/python bench/editor.py                 # examples/charter-hand.gjn, 3 runs
    .venv/bin/python bench/editor.py --runs 5 FILE.gjn

Enters the first hand of FILE into the editor by keyboard alone, in Chromium (/usr/bin/chromium,
Playwright), as a user would: the tags, the deal, then each action, waiting for its verdict before
typing the next. Prints:

- the time from an action entered (its Enter) to its verdict shown on the page (the next frame
  after the table, the problems and the events are drawn), in ms: median, 95th percentile and
  maximum over the hand, per run (goal: under 50 ms at the 95th percentile); of it, the server's
  answer (the request sent to the answer read) and the server's own work in that (its
  ``Server-Timing``: the body read, the hands judged, the answer made); and to the legal actions of the position listed
  under the entry (asked for once the verdict is shown);
- keystrokes to enter the play section, against the characters of the play section as ``gouji fmt``
  writes it; both with completion (Tab from the shortest prefix whose first suggestion is the
  action) and without (each action typed whole, without its seat when the page can tell it).

The server is ``gouji edit --no-browser --port 0`` in its own process, the browser in its own;
both share this machine's cores with this script (the load average is printed), so the figures are
an upper bound for one user at one table.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"]


def _wait(page) -> None:
    page.wait_for_function("() => window.gouji.shown === window.gouji.entered && window.gouji.checks > 0")


def _entry(action) -> tuple[str, str]:
    """The action's text as the page's entry writes it (``text``, glyph, ``$n``, ``{comments}``),
    split as (the action, what follows it)."""
    after = (
        (action.glyph or "") + "".join(f" ${n}" for n in action.nags) + "".join(f" {{{c}}}" for c in action.comments)
    )
    return action.text, after


def typed_for(page, action, complete: bool) -> list[str]:
    """What to press for ``action`` on ``page``, as the keys of Playwright's keyboard: text to type
    or a named key (``"Tab"``). Without its seat when the page would give it that seat (the one
    legal action written so, else the seat to act), and with ``complete`` the shortest prefix
    whose first suggestion is the action, then Tab."""
    state = page.evaluate("window.gouji.state()")
    text, after = _entry(action)
    mark = "^" if text.startswith("^") else ""
    seat, _, body = text[len(mark) :].partition(":")
    legal = state["legal"]
    same = next((t for t in legal if t.split(":", 1)[1] == body), None) if not mark else None
    given = same.split(":", 1)[0] if same else str(state["to_act"])  # the seat the page gives it
    short = mark + body if given == seat else text
    if complete and not mark and text in legal:
        for n in range(1, len(body)):
            first = next((t for t in legal if t.split(":", 1)[1].startswith(body[:n])), None)
            if first == text and n + 1 < len(short):  # a prefix and Tab: fewer keys than the whole
                return [body[:n], "Tab"] + ([after] if after else [])
    return [short + after]


def enter_hand(page, record, complete: bool = True) -> dict:
    """Type ``record`` (a :class:`~gouji_record.model.GameRecord`) into the editor open on
    ``page`` at a new file, by keyboard alone: tags (Tab from field to field; the Result is the
    page's, filled in when the hand ends), deal, the comment before play and each action, each
    entered once the verdict before it is shown; then Ctrl+S. Returns the keys pressed for the
    play section (``play_keys``) and for all (``keys``)."""
    kb = page.keyboard
    standard = ["Event", "Site", "Date", "Round", "Ruleset", "Options", *(f"Seat{s}" for s in range(1, 7)), "Result"]
    page.wait_for_function("() => document.activeElement.dataset.tag === 'Event'")  # where a new file starts
    for name in standard:
        value = record.tags.get(name, "")
        if name not in ("Ruleset", "Result") and value:
            kb.type(value)
        kb.press("Tab")
    more = [f"{k}: {v}" for k, v in record.tags.items() if k not in standard]
    for i, line in enumerate(more):
        kb.type(line)
        if i < len(more) - 1:
            kb.press("Enter")
    kb.press("Tab")  # to the deal's summary
    for line in record.deal:
        kb.press("Tab")
        if line != "?36":
            kb.type(line)
    kb.press("Tab")  # pre-play
    if record.preplay:
        kb.type(" ".join(a.text + _entry(a)[1] for a in record.preplay))
    kb.press("Tab")
    assert page.evaluate("document.activeElement.id") == "entry"
    _wait(page)
    before = page.evaluate("window.gouji.keys")
    for comment in record.comment:
        kb.type(f"{{{comment}}}")
        kb.press("Enter")
        _wait(page)
    for action in record.actions:
        for key in typed_for(page, action, complete):
            if key == "Tab":
                kb.press("Tab")
            else:
                kb.type(key)
        kb.press("Enter")
        _wait(page)
    play_keys = page.evaluate("window.gouji.keys") - before
    kb.press("Control+s")
    page.wait_for_function("() => document.getElementById('status').textContent.startsWith('saved')")
    return {"play_keys": play_keys, "keys": page.evaluate("window.gouji.keys")}


@contextlib.contextmanager
def served(path: Path):
    """``gouji edit PATH --no-browser --port 0`` in its own process, as a user runs it: gives its
    address; stopped with Ctrl-C (SIGINT) when the block ends."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "gouji_record.cli", "edit", str(path), "--no-browser", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        line = proc.stdout.readline()
        match = re.search(r"http://\S+", line)
        if not match:
            raise SystemExit(f"gouji edit did not start: {line!r}")
        yield match.group(0)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(10)


def play_section(text: str) -> str:
    """The play section of a hand's canonical text: from the line after ``play`` to the end."""
    return text.split("\nplay\n", 1)[1]


def main() -> None:
    ap = argparse.ArgumentParser(description="gouji edit: action to verdict, keystrokes")
    ap.add_argument("file", nargs="?", default=str(ROOT / "examples" / "charter-hand.gjn"))
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    import gouji_record as gj
    from gouji_record.judging.canonical import canonical as canon

    record = gj.read(args.file)[0]
    canonical = gj.write(canon(record))
    chars = len(play_section(canonical).rstrip("\n"))
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{args.file}: {len(record.actions)} actions, play section {chars} characters (as gouji fmt writes it)")
    with tempfile.TemporaryDirectory() as d, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for run in range(args.runs):
            for complete in (True, False):
                name = f"run{run}-{int(complete)}.gjn"
                with served(Path(d, name)) as url:
                    context = browser.new_context(bypass_csp=True)
                    page = context.new_page()
                    page.goto(url)
                    page.wait_for_function("() => window.gouji.checks > 0")
                    keys = enter_hand(page, record, complete)
                    times = page.evaluate("window.gouji.timings")
                    answers = page.evaluate("window.gouji.answers")
                    completions = page.evaluate("window.gouji.completions")
                    engine = page.evaluate("window.gouji.engine")
                    context.close()
                same = Path(d, name).read_text(encoding="utf-8") == canonical
                if not complete:
                    print(
                        f"  run {run + 1} without completion: {keys['play_keys']} keys for the play section "
                        f"({keys['play_keys'] / chars:.2f} per character), saved == fmt: {same}"
                    )
                    continue
                q = statistics.quantiles(times, n=20)
                print(
                    f"  run {run + 1}: action → verdict shown over {len(times)} actions: median {statistics.median(times):.1f} ms, "
                    f"p95 {q[18]:.1f} ms, max {max(times):.1f} ms (of which the server's answer: median "
                    f"{statistics.median(answers):.1f} ms, p95 {statistics.quantiles(answers, n=20)[18]:.1f} ms; "
                    f"the server's own work in it: median {statistics.median(engine):.1f} ms, "
                    f"p95 {statistics.quantiles(engine, n=20)[18]:.1f} ms); "
                    f"to the legal actions listed: median {statistics.median(completions):.1f} ms, "
                    f"p95 {statistics.quantiles(completions, n=20)[18]:.1f} ms; {keys['play_keys']} keys for the play section "
                    f"({keys['play_keys'] / chars:.2f} per character), {keys['keys']} in all; saved == fmt: {same}"
                )
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
