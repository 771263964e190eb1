"""gouji filter: hands picked by tag, event and verdict, written exactly as read. Values by hand:
examples/charter-hand.gjn (dated 2026.11.29, Zhang Wei at seat 1) is valid and has a burn that
succeeds (seat 5's XXKK, 002 §10) and no revolution; examples/charter-hand-illegal.gjn (same date and
players, Event "Worked example with one illegal action") stops at its second action, before any burn.
"""

from __future__ import annotations

from click.testing import CliRunner
from conftest import BAD_CARD_HAND, EXAMPLES

from gouji_record.cli.main import main

HAND = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
ILLEGAL = (EXAMPLES / "charter-hand-illegal.gjn").read_text(encoding="utf-8")


def run(*args):
    return CliRunner().invoke(main, ["filter", *map(str, args)])


def both(tmp_path):
    f = tmp_path / "both.gjn"
    f.write_text(HAND + "\n" + ILLEGAL, encoding="utf-8")
    return f


def count(*args) -> int:
    r = run(*args, "--count")
    assert r.exit_code == 0, r.output
    return int(r.output)


def test_tests_combine_with_and(tmp_path):
    f = both(tmp_path)
    assert count(f) == 2
    assert count(f, "--valid") == 1 and count(f, "--invalid") == 1
    assert count(f, "--has", "burn") == 1 and count(f, "--has", "burn-success") == 1
    assert count(f, "--has", "burn-failed") == 0 and count(f, "--has", "revolt") == 0
    assert count(f, "--has", "burn", "--invalid") == 0  # AND: the illegal hand has no burn
    assert count(f, "--player", "Zhang Wei") == 2 and count(f, "--player", "Nobody") == 0
    assert count(f, "--player", "Nobody", "--player", "Li Na") == 2  # a repeated --player: any of them
    assert count(f, "--event", "ILLEGAL") == 1
    assert count(f, "--ruleset", "charter") == 2 and count(f, "--ruleset", "online") == 0
    assert count(f, "--from", "2026.11.30") == 0 and count(f, "--to", "2026.11.29") == 2


def test_a_selected_hand_is_written_exactly_as_read(tmp_path):
    f = both(tmp_path)
    assert run(f, "--valid").output == HAND  # comments, layout and all
    out = tmp_path / "bad.gjn"
    assert run(f, "--invalid", "-o", out).exit_code == 0
    assert out.read_text(encoding="utf-8") == ILLEGAL
    two = run(f).output
    assert two == HAND + "\n" + ILLEGAL


def test_bad_input_and_bad_options(tmp_path):
    f = tmp_path / "two.gjn"
    f.write_text(HAND + "\n" + BAD_CARD_HAND, encoding="utf-8")
    r = CliRunner().invoke(main, ["filter", str(f), "--count"])
    assert r.exit_code == 2 and r.stdout == "1\n" and "error[bad-card]" in r.stderr
    r = run(f, "--has", "nosuch")
    assert r.exit_code == 2 and "Invalid value for --has: 'nosuch'" in r.output
    r = run(f, "--ruleset", "nosuch")
    assert r.exit_code == 2 and "unknown ruleset 'nosuch'" in r.output


def test_jobs_pick_the_same_hands_in_the_same_order(tmp_path, monkeypatch):
    """Five hands, two of them in tests/cases/unknown-ruleset.gjn, and a file that does not exist:
    charter-hand (valid, with a burn), the same with a bad card (cannot be read), charter-hand-illegal,
    charter-hand again; --valid keeps the two charter-hands, in file order, whatever the workers."""
    import gouji_record.running.batch as batch

    from conftest import CASES

    monkeypatch.setattr(batch, "BATCH", 2)  # several batches in flight
    f = tmp_path / "four.gjn"
    f.write_text("\n".join([HAND, BAD_CARD_HAND, ILLEGAL, HAND]), encoding="utf-8")
    inputs = [f, CASES / "unknown-ruleset.gjn", tmp_path / "missing.gjn"]
    for options in ([], ["--valid"], ["--invalid", "--count"], ["--has", "burn"]):
        one, two = run(*inputs, *options, "--jobs", "1"), run(*inputs, *options, "-j", "2")
        assert (one.exit_code, one.stdout, one.stderr) == (two.exit_code, two.stdout, two.stderr), options
        assert one.exit_code == 2 and "error[bad-card]" in one.stderr and "error[unknown-ruleset]" in one.stderr
    assert run(*inputs, "--valid", "-j", "2").stdout == HAND + "\n" + HAND
    examples = sorted(EXAMPLES.glob("*.gjn"))
    one, two = run(*examples, "--has", "gouji", "--jobs", "1"), run(*examples, "--has", "gouji", "--jobs", "2")
    assert (one.exit_code, one.stdout, one.stderr) == (two.exit_code, two.stdout, two.stderr) and one.exit_code == 0
