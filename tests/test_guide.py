"""docs/guide.md runs as written.

The guide is read top to bottom, in an empty directory:

- a ```gjn block is saved as the file named (in backticks, `name.gjn`) in the paragraph just before
  it; a ```diff block edits that file: its ' ' and '-' lines, in order, must stand in the file once,
  and are replaced by its ' ' and '+' lines;
- each line of a ```sh block is one `gouji …` command (nothing else is allowed), run as the installed
  command is (`python -m gouji_record.cli`); it must exit with the status its `# exit N` comment
  gives (0 without one), and a `# writes NAME` comment names a file it must write;
- a ```text block is the output of the last command of the ```sh block just before it: standard
  output and standard error as a terminal shows them, line for line (spaces at the ends of lines,
  which no reader sees and editors strip, left out), where a line `…` stands for any number of
  lines (none included).

A change of the command line that breaks the guide fails here. Where the guide's deep links
(`name.html#a=…`) are, a browser (when /usr/bin/chromium is there) opens the pages it rendered at
them and checks the page opens where the link says.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import ROOT

GUIDE = ROOT / "docs" / "guide.md"
ELLIPSIS = "…"
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.M | re.S)
FILE_NAME = re.compile(r"`([\w.-]+\.gjn)`")


@dataclass
class Block:
    kind: str  # the fence's language: gjn, diff, sh, text …
    body: str
    line: int  # of the opening fence, 1-based
    before: str  # the paragraph just before the block


@dataclass
class Run:
    """What running a guide gave: one problem per line that is not as the guide says."""

    directory: Path
    commands: list[tuple[int, list[str]]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def blocks(text: str) -> list[Block]:
    out, end = [], 0
    for m in FENCE.finditer(text):
        between = text[end : m.start()].strip()
        paragraph = re.split(r"\n\s*\n", between)[-1] if between else ""
        out.append(Block(m.group(1).strip().split(" ")[0], m.group(2), text.count("\n", 0, m.start()) + 1, paragraph))
        end = m.end()
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """``actual`` is ``expected`` line for line, a line ``…`` standing for any number of lines."""
    parts, part = [], []
    for line in expected:
        if line == ELLIPSIS:
            parts.append(part)
            part = []
        else:
            part.append(line)
    parts.append(part)
    if len(parts) == 1:
        return expected == actual
    first, *middle, last = parts
    if actual[: len(first)] != first or len(actual) < len(first) + len(last):
        return False
    at, stop = len(first), len(actual) - len(last)
    if last and actual[stop:] != last:
        return False
    for piece in middle:
        while at + len(piece) <= stop and actual[at : at + len(piece)] != piece:
            at += 1
        if at + len(piece) > stop:
            return False
        at += len(piece)
    return True


def _gouji(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "gouji_record.cli", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,  # as a terminal shows them, in the order written
        text=True,
        encoding="utf-8",
        timeout=120,
    )


def _edit(path: Path, diff: str) -> str | None:
    """Apply a ```diff block to ``path``; a problem, or None."""
    old, new = [], []
    for line in diff.splitlines():
        mark, rest = (line[:1], line[1:]) if line else (" ", "")  # a context line stripped of its space
        if mark in (" ", "-"):
            old.append(rest)
        if mark in (" ", "+"):
            new.append(rest)
        if mark not in (" ", "-", "+"):
            return f"a diff line must start with ' ', '-' or '+': {line!r}"
    text = path.read_text(encoding="utf-8")
    was = "\n".join(old) + "\n"
    if text.count(was) != 1:
        return f"{path.name} does not hold these lines once:\n{was}"
    path.write_text(text.replace(was, "\n".join(new) + "\n"), encoding="utf-8")
    return None


def run_guide(text: str, directory: Path) -> Run:
    run = Run(directory)
    last: tuple[int, str] | None = None  # the last command's guide line and output
    previous = None
    for b in blocks(text):
        where = f"docs/guide.md:{b.line}"
        if b.kind in ("gjn", "diff"):
            names = FILE_NAME.findall(b.before)
            if not names:
                run.problems.append(f"{where}: a ```{b.kind} block needs a `name.gjn` in the paragraph before it")
            elif b.kind == "gjn":
                (directory / names[-1]).write_text(b.body, encoding="utf-8")
            elif not (directory / names[-1]).exists():
                run.problems.append(f"{where}: {names[-1]} is edited before it is written")
            elif problem := _edit(directory / names[-1], b.body):
                run.problems.append(f"{where}: {problem}")
        elif b.kind == "sh":
            last = None
            for k, line in enumerate(b.body.splitlines(), b.line + 1):
                if not line.strip():
                    continue
                args = shlex.split(line, comments=True)
                comment = line.partition(" #")[2]
                if not args or args[0] != "gouji":
                    run.problems.append(f"docs/guide.md:{k}: not a gouji command: {line}")
                    continue
                want = int(m.group(1)) if (m := re.search(r"\bexit (\d+)", comment)) else 0
                written = re.findall(r"\bwrites (\S+)", comment)
                for name in written:
                    (directory / name).unlink(missing_ok=True)
                r = _gouji(args[1:], directory)
                run.commands.append((k, args))
                if r.returncode != want:
                    run.problems.append(
                        f"docs/guide.md:{k}: {line.strip()}\n  exit {r.returncode}, the guide says {want}\n{r.stdout}"
                    )
                for name in written:
                    if not (directory / name).is_file():
                        run.problems.append(f"docs/guide.md:{k}: {line.strip()}\n  did not write {name}")
                last = (k, r.stdout)
        elif b.kind == "text":
            if previous is None or previous.kind != "sh" or last is None:
                run.problems.append(f"{where}: a ```text block must follow a ```sh block: it shows its output")
            else:
                expected = [line.rstrip() for line in b.body.splitlines()]
                actual = [line.rstrip() for line in last[1].splitlines()]
                if not matches(expected, actual):
                    run.problems.append(
                        f"{where}: the output of docs/guide.md:{last[0]} is not as shown\n"
                        f"--- the guide\n{b.body}--- the command\n{last[1]}"
                    )
        previous = b
    return run


@pytest.fixture(scope="module")
def guide_run(tmp_path_factory) -> Run:
    return run_guide(GUIDE.read_text(encoding="utf-8"), tmp_path_factory.mktemp("guide"))


def test_the_guide_runs_as_written(guide_run):
    assert guide_run.commands, "no commands found in docs/guide.md"
    if guide_run.problems:
        pytest.fail("\n\n".join(guide_run.problems), pytrace=False)


def test_the_guide_shows_what_users_come_for(guide_run):
    used = {args[1] for _, args in guide_run.commands}
    assert {"validate", "fmt", "moves", "beats", "rules", "render", "stats", "filter", "events"} <= used
    options = {a for _, args in guide_run.commands for a in args}
    assert {"--at", "--ruleset", "--lang", "--seat", "--diff", "--in-place", "--jobs", "--format", "--has"} <= options
    text = GUIDE.read_text(encoding="utf-8")
    assert "^2:" in text and '[Result "*"]' in text and " ?31" in text and ": -\n" in text


def test_the_readme_links_the_guide():
    assert "(docs/guide.md)" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "expected, actual, ok",
    [
        (["a", "b"], ["a", "b"], True),
        (["a", "b"], ["a", "b", "c"], False),
        (["a", ELLIPSIS], ["a", "b", "c"], True),
        ([ELLIPSIS, "c"], ["a", "b", "c"], True),
        (["a", ELLIPSIS, "c"], ["a", "c"], True),
        (["a", ELLIPSIS, "b", ELLIPSIS], ["a", "x", "b", "y"], True),
        (["a", ELLIPSIS, "b", ELLIPSIS], ["a", "x", "y"], False),
        (["a", ELLIPSIS, "a"], ["a"], False),
        (["b", ELLIPSIS], ["a", "b"], False),
    ],
)
def test_an_ellipsis_stands_for_lines_left_out(expected, actual, ok):
    assert matches(expected, actual) is ok


def test_a_guide_that_says_otherwise_fails(tmp_path):
    guide = (
        "Save this as `x.gjn`:\n\n```gjn\nnot a record\n```\n\n"
        "```sh\ngouji validate x.gjn   # exit 2\ngouji validate x.gjn\n```\n\n"
        "```text\nx.gjn: fine\n```\n\n```sh\nls\n```\n\n```text\norphan\n```\n"
    )
    problems = run_guide(guide, tmp_path).problems
    assert len(problems) == 4, problems
    assert "exit 2, the guide says 0" in problems[0]
    assert "is not as shown" in problems[1]
    assert "not a gouji command: ls" in problems[2]
    assert "must follow a ```sh block" in problems[3]


# The deep links: the pages the guide rendered, opened where its links say.

DEEP_LINK = re.compile(r"`([\w-]+\.html)#([^`\s]+)`")


def test_the_guide_has_deep_links():
    links = DEEP_LINK.findall(GUIDE.read_text(encoding="utf-8"))
    keys = {kv.split("=")[0] for _, fragment in links for kv in fragment.split("&")}
    assert {"a", "h", "lang", "seat"} <= keys, links


@pytest.mark.browser
def test_the_deep_links_open_where_the_guide_says(guide_run):
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.skip("no /usr/bin/chromium (scripts/test installs it, as root)")
    from playwright.sync_api import expect, sync_playwright

    links = DEEP_LINK.findall(GUIDE.read_text(encoding="utf-8"))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(chromium), headless=True, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            for name, fragment in links:
                want = dict(kv.split("=", 1) for kv in fragment.split("&"))
                path = guide_run.directory / name
                assert path.is_file(), f"{name}: the guide links to a page it did not render"
                page.goto("about:blank")
                page.goto(path.as_uri() + "#" + fragment)
                app = page.locator("#app")
                expect(app).to_have_attribute("data-step", want.get("a", "0"))
                if "lang" in want:
                    expect(app).to_have_attribute("data-lang", want["lang"])
                if "seat" in want:
                    expect(app).to_have_attribute("data-view", want["seat"])
                if "h" in want:
                    expect(page.locator("#hand")).to_have_value(str(int(want["h"]) - 1))
            assert errors == []
        finally:
            browser.close()
