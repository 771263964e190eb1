"""The conformance suite's runner (一致性测试): ``gouji conformance``.

The suite is ``conformance/`` (its README says how to run it and add cases): files that are
valid, invalid (a rule broken) and not well-formed, and ``manifest.json``, which says what each
file expects under each ruleset. The manifest's shape is :class:`Manifest`; its JSON Schema,
``conformance/manifest.schema.json``, is ``Manifest.model_json_schema()``.

An implementation is run on each file (and ruleset) and must print, one JSON object a line and
one line per hand, what ``gouji validate --format json`` prints. The fields read are ``valid``;
then, for a hand that is not valid, the first problem: ``error`` (or else the first of
``match_errors``) with its ``code``, and ``action`` (an invalid file) or ``line`` and
``column`` (a file that is not well-formed).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Literal

import click
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .common import EXIT_ILLEGAL, EXIT_OK, EXIT_UNREADABLE

#: Where the suite's manifest is, in a checkout of the project.
DEFAULT_MANIFEST = Path(__file__).resolve().parents[2] / "conformance" / "manifest.json"

Preset = Literal["online", "classic", "charter", "fours", "tournament"]


class Verdict(BaseModel):
    """What one hand is expected to give: ``valid``; or the first problem's ``code``, with the
    ``action`` it is about (from 1, declarations and transfers counted; ``None`` for a problem
    about the hand as a whole: its Result, Score or Hand tag) for an invalid file, or its
    ``line`` and ``column`` (from 1) for a file that is not well-formed."""

    model_config = ConfigDict(extra="forbid")
    valid: bool
    code: str | None = None
    action: int | None = None
    line: int | None = None
    column: int | None = None


class Run(BaseModel):
    """A file judged under one preset (``--ruleset``; the file's Options tag still applies), or
    under its own Ruleset and Options tags (``ruleset`` null): one verdict per hand, in file order."""

    model_config = ConfigDict(extra="forbid")
    ruleset: Preset | None
    hands: list[Verdict] = Field(min_length=1)


class Source(BaseModel):
    """The rule text and section, as docs/rules.md cites them (``002`` and ``§10``)."""

    model_config = ConfigDict(extra="forbid")
    text: Literal["000", "001", "002", "003", "004"]
    section: str


class Case(BaseModel):
    """One file of the suite and what it expects."""

    model_config = ConfigDict(extra="forbid")
    id: str
    path: str = Field(description="the file, relative to the manifest (or absolute)")
    kind: Literal["valid", "invalid", "not-well-formed"]
    rule: str = Field(description="a rule key of docs/rules.md")
    source: Source
    runs: list[Run] = Field(min_length=1)


class Manifest(BaseModel):
    """The suite: its cases, and the diagnostic codes of docs/rules.md it does not cover, each
    with the reason."""

    model_config = ConfigDict(extra="forbid")
    version: int
    cases: list[Case]
    uncovered: dict[str, str] = {}


def schema_text() -> str:
    """The manifest's JSON Schema, as ``conformance/manifest.schema.json`` holds it: pydantic's
    ``Manifest.model_json_schema()``, indented, with a final newline."""
    return json.dumps(Manifest.model_json_schema(), ensure_ascii=False, indent=2) + "\n"


class ManifestError(ValueError):
    """A manifest that cannot be read or is not a :class:`Manifest`: ``line`` and ``column``
    (from 1) locate it, as far as JSON says."""

    def __init__(self, message: str, line: int = 1, column: int = 1):
        super().__init__(message)
        self.line, self.column = line, column


def load_manifest(path: Path) -> Manifest:
    """Read and check a manifest.

    Raises:
        ManifestError: a file that cannot be read or is not UTF-8, JSON that does not parse (at its
            line and column), a field that is not as :class:`Manifest` says (named by its path).
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ManifestError(f"cannot read it: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise ManifestError(f"not UTF-8: {e.reason}") from None
    except json.JSONDecodeError as e:
        raise ManifestError(e.msg, e.lineno, e.colno) from None
    try:
        return Manifest.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        raise ManifestError(f"{'.'.join(map(str, first['loc'])) or 'manifest'}: {first['msg']}") from None


def _gouji_verdicts(path: Path, ruleset: str | None) -> list[dict]:
    """What ``gouji validate --format json [--ruleset RULESET] FILE`` prints, in process."""
    from ..running.batch import check_file, with_matches

    return [report.data for report in with_matches(check_file(str(path), ruleset))]


def command_args(template: str, path: Path, ruleset: str | None) -> list[str]:
    """``template``'s words with ``{file}`` and ``{ruleset}`` filled in. For a run under the
    file's own tags (``ruleset`` ``None``) the word holding ``{ruleset}`` is left out, and so is
    the option just before it when it stands alone (``--ruleset {ruleset}``).

    >>> command_args("impl --ruleset {ruleset} {file}", Path("a.gjn"), None)
    ['impl', 'a.gjn']
    >>> command_args("impl --rules={ruleset} {file}", Path("a.gjn"), "fours")
    ['impl', '--rules=fours', 'a.gjn']
    """
    words = shlex.split(template)
    out: list[str] = []
    for w in words:
        if "{ruleset}" in w and ruleset is None:
            if out and out[-1].startswith("-") and out[-1] in words and "{" not in out[-1]:
                out.pop()
            continue
        out.append(w.replace("{file}", str(path)).replace("{ruleset}", ruleset or ""))
    return out


def _command_verdicts(template: str, path: Path, ruleset: str | None) -> list[dict]:
    """Run the command ``template`` names on ``path``; the JSON objects it prints, one a line."""
    args = command_args(template, path, ruleset)
    out = subprocess.run(args, capture_output=True, text=True, check=False).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def first_problem(verdict: dict) -> dict:
    """The problem a hand's verdict is judged by: of its ``error`` and its ``match_errors`` (what
    the hand before owes, checked in a match), the one about the earliest action; one about no
    action (``action`` null: the Result, Score or Hand tag) comes after all others, and
    ``error`` before a match error about the same action. ``{}`` when there is none."""
    problems = [p for p in [verdict.get("error"), *(verdict.get("match_errors") or [])] if isinstance(p, dict)]
    if not problems:
        return {}
    return min(problems, key=lambda p: p.get("action") if isinstance(p.get("action"), int) else float("inf"))


def compare(expected: list[Verdict], actual: list[dict], kind: str) -> list[str]:
    """What differs between the expected verdicts and the JSON objects printed (empty: a pass)."""
    if len(actual) != len(expected):
        return [f"{len(actual)} verdicts printed, {len(expected)} hands expected"]
    out = []
    for n, (want, got) in enumerate(zip(expected, actual), 1):
        if not isinstance(got, dict):
            out.append(f"hand {n}: not a JSON object")
            continue
        problem = first_problem(got)
        if want.valid:
            if got.get("valid") is not True:
                out.append(f"hand {n}: expected valid, got {problem.get('code', 'not valid')}")
            continue
        if got.get("valid") is not False:
            out.append(f"hand {n}: expected {want.code}, got valid")
            continue
        fields = ("code", "line", "column") if kind == "not-well-formed" else ("code", "action")
        for f in fields:
            if problem.get(f) != getattr(want, f):
                out.append(f"hand {n}: {f} {problem.get(f)!r}, expected {getattr(want, f)!r}")
    return out


@click.command()
@click.option(
    "--command",
    "template",
    metavar="'CMD {file}'",
    help="Run this command on each file instead of gouji itself: {file} is the file, {ruleset} the preset "
    "to judge it under (left out, with the option before it, for a case judged under the file's own tags). "
    "It prints one JSON object per hand, as gouji validate --format json does.",
)
@click.option(
    "--manifest",
    "manifest_path",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=DEFAULT_MANIFEST,
    show_default="conformance/manifest.json",
    help="The suite's manifest.",
)
@click.option("--schema", is_flag=True, help="Print the manifest's JSON Schema (conformance/manifest.schema.json) and exit.")
def conformance(template: str | None, manifest_path: Path, schema: bool) -> None:
    """Run the conformance suite (conformance/) against gouji, or against another
    implementation given by --command.

    Prints one line per case and ruleset, PASS or FAIL with what differed, then
    the total. Exit 0 if every case passes, 1 if one fails, 2 if the manifest
    cannot be read.
    """
    if schema:
        click.echo(schema_text(), nl=False)
        return
    try:
        manifest = load_manifest(manifest_path)
    except ManifestError as e:
        click.echo(f"{manifest_path}:{e.line}:{e.column}: error[bad-manifest]: {e}", err=True)
        sys.exit(EXIT_UNREADABLE)
    passed = failed = 0
    for case in manifest.cases:
        path = manifest_path.parent / case.path
        for run in case.runs:
            try:
                if template is None:
                    actual = _gouji_verdicts(path, run.ruleset)
                else:
                    actual = _command_verdicts(template, path, run.ruleset)
                diffs = compare(run.hands, actual, case.kind)
            except (OSError, ValueError) as e:
                diffs = [f"cannot run: {e}"]
            if diffs:
                failed += 1
                click.echo(f"FAIL {case.id} [{run.ruleset or 'tags'}] {case.path}: " + "; ".join(diffs))
            else:
                passed += 1
                click.echo(f"PASS {case.id} [{run.ruleset or 'tags'}] {case.path}")
    click.echo(f"{passed} passed, {failed} failed, {passed + failed} in all")
    sys.exit(EXIT_ILLEGAL if failed else EXIT_OK)
