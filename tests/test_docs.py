"""docs/ stays in step with the code: every rule cited, every code documented."""

import re

from gouji_record.rules.rulesets import OPTION_NAMES, PRESETS, RULES

from conftest import ROOT

RULES_MD = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
NOTATION_MD = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
SOURCES = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "gouji_record").rglob("*.py"))


def test_every_rule_key_has_a_source_in_every_preset_and_in_the_docs():
    for key in RULES:
        assert f"`{key}`" in RULES_MD or key in {"deal", "turn-order"}, key
        for preset in PRESETS.values():
            assert key in preset.sources, (preset.name, key)


def test_every_seed_citation_names_a_section():
    for preset in PRESETS.values():
        for key, where in preset.sources.items():
            assert re.match(r"(§|preamble)", where), (key, where)


def test_every_diagnostic_code_is_documented():
    engine_codes = (
        set(re.findall(r'illegal\(\s*"([a-z-]+)"', SOURCES))
        | set(re.findall(r'Diagnostic\(code="([a-z-]+)"', SOURCES))
        | set(re.findall(r'_problem\(\s*rules,\s*"([a-z-]+)"', SOURCES))
        | set(re.findall(r'_diag\(\s*rules,\s*"([a-z-]+)"', SOURCES))
    )
    assert {"result-mismatch", "tribute-missing", "first-lead", "not-your-turn"} <= engine_codes
    assert engine_codes, "found no codes: the pattern is stale"
    for code in engine_codes:
        assert f"`{code}`" in RULES_MD, code


def test_every_notation_error_code_is_documented():
    codes = set(re.findall(r'NotationError\(\s*"([a-z-]+)"', SOURCES)) | set(
        re.findall(r'Problem\([^)]*?"([a-z-]+)", f?"', SOURCES)
    )
    assert {"syntax", "missing-tag", "deal-size", "bad-card"} <= codes
    for code in codes - {"unwritable"}:
        assert f"`{code}`" in NOTATION_MD, code


def test_readme_shows_the_real_error_output(monkeypatch):
    from click.testing import CliRunner

    from gouji_record.cli.main import main

    monkeypatch.chdir(ROOT)
    r = CliRunner().invoke(main, ["validate", "examples/charter-hand-illegal.gjn"])
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert r.exit_code == 1 and r.output.strip() in readme


def test_every_option_is_in_the_docs_option_table_with_its_preset_values():
    from gouji_record.cli.table import _show_value

    for option in OPTION_NAMES:
        name = option.replace("_", "-")
        row = next((line for line in RULES_MD.splitlines() if line.startswith(f"| `{name}` |")), None)
        assert row is not None, name
        if option not in {"scoring", "gouji_minimum"}:
            cells = [c.strip() for c in row.split("|")[3:8]]
            assert cells == [_show_value(getattr(p, option)) for p in PRESETS.values()], name


def test_the_readme_gives_the_suites_time_and_a_quick_run_that_leaves_out_browser_and_cluster():
    # issue 31: the README said nothing of how long ./scripts/test runs and named no quick subset.
    # The markers it names are registered (pyproject.toml, --strict-markers) and carried by the
    # browser and cluster tests, so that the quick run leaves out exactly those.
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "./scripts/test -m \"not browser and not cluster\"" in readme
    assert re.search(r"whole suite \(about [\d,]+ tests\) takes \d+ to \d+ minutes", readme)
    assert re.search(r"and `cluster`: about \d+ minutes", readme)
    ini = (ROOT / "pyproject.toml").read_text(encoding="utf-8").split("[tool.pytest.ini_options]")[1]
    assert '\n    "browser: ' in ini and '\n    "cluster: ' in ini and "--strict-markers" in ini.split("\n[")[0]
    for name, mark in [("test_browser", "browser"), ("test_browser_page", "browser"),
                       ("test_browser_stats", "browser"), ("test_browser_editor", "browser"),
                       ("test_browser_use", "browser"), ("test_cluster", "cluster")]:
        text = (ROOT / "tests" / f"{name}.py").read_text(encoding="utf-8")
        assert f"\npytestmark = pytest.mark.{mark}" in text, name
