"""docs/api.md runs as written: each ```python block in the repository's root, in a process of its
own (so that it imports what it says, and nothing else), and prints what the ```text block under
it shows (spaces at the ends of lines left out, a line ``…`` for any number of lines). Its two
whole examples, a converter and a random bot, import the package root only."""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import pytest
from conftest import ROOT
from test_guide import blocks, matches

API = ROOT / "docs" / "api.md"
TEXT = API.read_text(encoding="utf-8")
BLOCKS = blocks(TEXT)
PYTHON = [(i, b) for i, b in enumerate(BLOCKS) if b.kind == "python"]


def _run(code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONHASHSEED="0")
    return subprocess.run(
        [sys.executable, "-"], input=code, cwd=ROOT, env=env, capture_output=True, text=True, encoding="utf-8",
        timeout=300, check=False,
    )  # fmt: skip


@pytest.mark.parametrize("i, block", PYTHON, ids=[f"line {b.line}" for _, b in PYTHON])
def test_each_block_runs_and_prints_what_the_page_shows(i, block):
    r = _run(block.body)
    assert r.returncode == 0, f"docs/api.md:{block.line}\n{r.stderr}"
    shown = BLOCKS[i + 1] if i + 1 < len(BLOCKS) and BLOCKS[i + 1].kind == "text" else None
    if shown is None:
        assert r.stdout == "", f"docs/api.md:{block.line} prints, but no ```text block shows it:\n{r.stdout}"
        return
    expected = [line.rstrip() for line in shown.body.splitlines()]
    actual = [line.rstrip() for line in r.stdout.splitlines()]
    assert matches(expected, actual), f"docs/api.md:{block.line}\n--- the page\n{shown.body}--- printed\n{r.stdout}"


def _section(title: str) -> str:
    start = TEXT.index(f"\n## {title}")
    end = TEXT.find("\n## ", start + 1)
    return TEXT[start : end if end >= 0 else len(TEXT)]


def _imports(code: str) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            out.add(node.module or "")
    return out


@pytest.mark.parametrize(
    "title, allowed", [("A converter: a platform's log to `.gjn`", {"gouji_record"}), ("A random bot", {"gouji_record", "random"})]
)
def test_the_two_whole_examples_import_the_package_root_only(title, allowed):
    [block] = [b for b in blocks(_section(title)) if b.kind == "python"]
    assert _imports(block.body) == allowed
    assert "gj.step(" in block.body or "gj.verdict(" in block.body


def test_the_page_covers_the_api_and_the_readme_links_it():
    for heading in ("Reading and writing", "The record model", "Replaying and the verdict", "The engine", "Rulesets",
                    "Cards", "Events", "Errors"):  # fmt: skip
        assert f"\n## {heading}\n" in TEXT, heading
    import gouji_record as gj

    named = {name for name in gj.__all__ if f"`gj.{name}" in TEXT or f"gj.{name}(" in TEXT}
    missing = set(gj.__all__) - named - {"render_html", "write_all"} - {"PRESETS"}
    assert missing == set() and "`gj.PRESETS`" in TEXT
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    python_api = readme.split("## Python API", 1)[1].split("\n## ", 1)[0]
    assert "(docs/api.md)" in python_api
