"""Readings of the rule texts where a sentence reads two honest ways (issue 25): the tool must not
reject a record for one of them. Each case is worked by hand from the text's sentence."""

from __future__ import annotations

from click.testing import CliRunner
from conftest import ROOT

from gouji_record.cli.main import main

CASES = ROOT / "tests" / "cases"


def test_online_accepts_each_return_after_its_own_place_tribute():
    # 000 §进贡 "进完贡，落贡必须还贡". examples/online-match.gjn's hand 2 pays 点贡 2>5:D and 3>6:X,
    # 落贡 1>3:22 (大落 seat 1 to 头科 seat 3, two cards) and 6>5:D (二落 to 二科, one), then the returns
    # 3>1:33 and 5>6:3: the returns once all tribute is paid. The case writes 3>1:33 right after the
    # 落贡 it returns (1>3:22), before 6>5:D: "a 落贡 paid, it must be returned". Both are readings of
    # the sentence: the match is valid (exit 0); held to the first reading alone
    # (return-after=all-tribute) the early return is tribute-missing at line 80, column 20, where
    # 6>5:D was owed first.
    case = str(CASES / "online-return-after-own-tribute.gjn")
    r = CliRunner().invoke(main, ["validate", "-q", case])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["validate", "-q", case, "--option", "return-after=all-tribute"])
    assert r.exit_code == 1
    assert f"{case}:80:20: error[tribute-missing]" in r.output and "expected 6>5:D" in r.output
    r = CliRunner().invoke(main, ["validate", "-q", str(ROOT / "examples" / "online-match.gjn"), "--option", "return-after=all-tribute"])
    assert r.exit_code == 0  # the example's own order is valid under both
