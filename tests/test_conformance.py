"""The conformance suite (conformance/): gouji passes it, its manifest is as its schema says, each
file's comments state what the manifest expects, and it covers every diagnostic code of
docs/rules.md (or says why not)."""

from __future__ import annotations

import json
import re
import shlex
import sys

import pytest
from click.testing import CliRunner

from conftest import ROOT
from gouji_record.cli.conformance import (
    Manifest,
    Verdict,
    command_args,
    compare,
    conformance,
    first_problem,
    load_manifest,
    schema_text,
)
from gouji_record.rules.rulesets import RULES

SUITE = ROOT / "conformance"
MANIFEST = load_manifest(SUITE / "manifest.json")
EXPECTED = re.compile(r"\{Expected under ([a-z ]+): ([^}]*)\}")


def _said(v: Verdict) -> str:
    """A verdict as the files' comments write it."""
    if v.valid:
        return "valid"
    if v.line is not None:
        return f"{v.code} at {v.line}:{v.column}"
    return f"{v.code} at action {'none' if v.action is None else v.action}"


def test_the_schema_file_is_pydantics_schema_of_the_manifest():
    assert (SUITE / "manifest.schema.json").read_text(encoding="utf-8") == schema_text()
    assert json.loads(schema_text())["title"] == "Manifest"


def test_the_manifest_is_as_its_schema_says():
    data = json.loads((SUITE / "manifest.json").read_text(encoding="utf-8"))
    assert Manifest.model_validate(data) == MANIFEST
    ids = [c.id for c in MANIFEST.cases]
    assert len(ids) == len(set(ids))
    for case in MANIFEST.cases:
        assert (SUITE / case.path).is_file(), case.path
        assert case.path.startswith(case.kind + "/"), case.path
        assert case.rule in RULES, (case.id, case.rule)
        hands = [v for run in case.runs for v in run.hands]
        if case.kind == "valid":
            assert all(v.valid for v in hands), case.id
        elif case.kind == "not-well-formed":
            assert all(v.code and v.line and v.column and v.action is None for v in hands), case.id
        else:
            assert any(not v.valid for v in hands) and all(v.line is None for v in hands), case.id
    # every file of the suite is in the manifest
    assert {p.relative_to(SUITE).as_posix() for p in SUITE.rglob("*.gjn")} == {c.path for c in MANIFEST.cases}


@pytest.mark.parametrize("case", MANIFEST.cases, ids=lambda c: c.id)
def test_each_file_states_what_the_manifest_expects(case):
    text = (SUITE / case.path).read_bytes().decode("utf-8", errors="replace")
    said = EXPECTED.findall(text)
    if not said:  # a file that cannot hold a comment (white space only)
        assert case.id == "empty"
        return
    for run in case.runs:
        under = run.ruleset or "its tags"
        assert [v for p, v in said if p == under] == [_said(v) for v in run.hands], (case.id, under)
    assert {p for p, _ in said} == {run.ruleset or "its tags" for run in case.runs}, case.id


def test_gouji_passes_the_suite():
    r = CliRunner().invoke(conformance, [])
    lines = r.output.splitlines()
    assert [line for line in lines if not line.startswith("PASS ")] == [lines[-1]], r.output
    runs = sum(len(c.runs) for c in MANIFEST.cases)
    assert r.exit_code == 0 and lines[-1] == f"{runs} passed, 0 failed, {runs} in all"


def test_every_diagnostic_code_of_the_rules_is_covered_or_says_why_not():
    table = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8").split("## Diagnostic codes", 1)[1]
    codes = set(re.findall(r"^\| `([a-z-]+)` \|", table, re.M))
    assert {"tribute-missing", "result-mismatch", "dead-gouji"} <= codes and len(codes) >= 40
    covered = {v.code for c in MANIFEST.cases for run in c.runs for v in run.hands if not v.valid}
    assert codes - covered == set(MANIFEST.uncovered), codes - covered
    assert all(len(why) > 40 for why in MANIFEST.uncovered.values())
    # each preset judges valid files and invalid ones
    for preset in ("online", "classic", "charter", "fours", "tournament"):
        for kind in ("valid", "invalid"):
            assert any(c.kind == kind and any(r.ruleset == preset for r in c.runs) for c in MANIFEST.cases)


def test_another_implementation_is_run_by_its_command(tmp_path):
    # two cases, with gouji itself standing for another program: one kept, one expecting what it is not
    picked = [c for c in MANIFEST.cases if c.id in ("gouji-not-opposite", "syntax")]
    wrong = picked[0].model_copy(deep=True)
    wrong.id = "wrongly-expected"
    wrong.runs = [wrong.runs[0]]
    wrong.runs[0].hands = [Verdict(valid=False, code="does-not-beat", action=2)]
    manifest = Manifest(version=1, cases=[*picked, wrong])
    for case in manifest.cases:  # paths are the manifest's, or absolute
        case.path = str(SUITE / case.path)
    path = tmp_path / "subset.json"
    path.write_text(manifest.model_dump_json(), encoding="utf-8")
    command = f"{shlex.quote(sys.executable)} -m gouji_record.cli validate --format json --ruleset {{ruleset}} {{file}}"
    r = CliRunner().invoke(conformance, ["--command", command, "--manifest", str(path)])
    lines = r.output.splitlines()
    assert r.exit_code == 1, r.output
    assert lines[-1] == f"{len(lines) - 2} passed, 1 failed, {len(lines) - 1} in all"
    expected = f"FAIL wrongly-expected [online] {SUITE}/invalid/gouji-not-opposite.gjn: hand 1: code 'gouji-not-opposite', expected 'does-not-beat'"
    assert expected in lines
    assert f"PASS syntax [tags] {SUITE}/not-well-formed/syntax.gjn" in lines


def test_command_words():
    assert command_args("impl --ruleset {ruleset} {file}", SUITE / "a.gjn", None) == ["impl", str(SUITE / "a.gjn")]
    assert command_args("impl -r {ruleset} {file}", SUITE / "a.gjn", "fours") == ["impl", "-r", "fours", str(SUITE / "a.gjn")]


def test_the_first_problem_is_the_earliest():
    verdict = {
        "valid": False,
        "error": {"code": "not-in-hand", "action": 40},
        "match_errors": [{"code": "hand-missing", "action": None}, {"code": "tribute-missing", "action": 3}],
    }
    assert first_problem(verdict)["code"] == "tribute-missing"
    assert first_problem({"valid": True}) == {}
    assert compare([Verdict(valid=True)], [], "valid") == ["0 verdicts printed, 1 hands expected"]


def test_a_bad_manifest_is_one_located_line(tmp_path):
    bad = tmp_path / "m.json"
    bad.write_text('{"version": 1,\n "cases": [}', encoding="utf-8")
    r = CliRunner().invoke(conformance, ["--manifest", str(bad)])
    assert r.exit_code == 2 and r.output.startswith(f"{bad}:2:12: error[bad-manifest]: ") and r.output.count("\n") == 1
    bad.write_text('{"version": 1, "cases": [{"id": "x"}]}', encoding="utf-8")
    r = CliRunner().invoke(conformance, ["--manifest", str(bad)])
    assert r.exit_code == 2 and "cases.0.path: Field required" in r.output


def test_each_source_is_cited_as_docs_rules_cites_it():
    from gouji_record.rules.rulesets import PRESETS

    rules_md = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    preset_of = {"000": "online", "001": "classic", "002": "charter", "003": "fours", "004": "tournament"}
    for case in MANIFEST.cases:
        text, section = case.source.text, case.source.section
        cited = PRESETS[preset_of[text]].sources[case.rule]
        assert section in cited or f"{text} {section}" in rules_md, (case.id, text, section, cited)
