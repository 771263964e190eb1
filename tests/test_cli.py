"""The gouji command: exit codes, located one-line errors, no tracebacks, no lost files."""

import json
import re

import pytest
from click.testing import CliRunner

from gouji_record.cli import main

from conftest import EXAMPLES

HAND = EXAMPLES / "charter-hand.gjn"
ILLEGAL = EXAMPLES / "charter-hand-illegal.gjn"


def run(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def test_validate_summary():
    r = run("validate", HAND)
    assert r.exit_code == 0
    out = r.output
    assert "valid under charter" in out
    assert re.search(r"头科 1st\s+seat 5\s+Liu Yang", out)
    assert re.search(r"大落 6th\s+seat 2\s+Wang Fang", out)
    assert "score: team 1-3-5 2, team 2-4-6 0" in out
    assert "够级 gouji plays 9, 开点 opened 3, 烧牌 burns 1 (success 1, broken 0)" in out


def test_validate_illegal_points_at_the_action():
    r = run("validate", ILLEGAL)
    assert r.exit_code == 1
    lines = r.output.splitlines()
    assert lines[0].startswith(f"{ILLEGAL}:26:30: error[gouji-not-opposite]: ")
    assert lines[1].endswith("opposite, may answer it.} 3:QQQQQ {Illegal: seat 3 is seat 1's team-mate, not")
    assert lines[2].index("^^^^^^^") == lines[1].index("3:QQQQQ")
    assert "够级大纲 §9" in lines[3]


def test_ruleset_override_must_exist():
    r = run("validate", "--ruleset", "nonesuch", HAND)
    assert r.exit_code == 2 and "expected one of online, classic, charter, fours, tournament" in r.output


@pytest.mark.parametrize(
    "content, code, where",
    [
        (b"\xb9\xbb\xbc\xb6", "encoding", ":1:1:"),  # GB18030 for 够级
        (b'[Event "x"]\n', "syntax", ":1:12:"),
        (b"", "empty", ":1:1:"),
    ],
)
def test_unreadable_files_exit_2(tmp_path, content, code, where):
    f = tmp_path / "bad.gjn"
    f.write_bytes(content)
    r = run("validate", f)
    assert r.exit_code == 2
    first = r.output.splitlines()[0]
    assert f"error[{code}]" in first and where in first


def test_missing_file_and_directory_exit_2(tmp_path):
    r = run("validate", tmp_path / "nope.gjn")
    assert r.exit_code == 2 and r.output.startswith(f"{tmp_path / 'nope.gjn'}: error[unreadable]")
    r = run("validate", tmp_path)
    assert r.exit_code == 2 and "error[unreadable]: is a directory" in r.output


def test_encoding_error_column_counts_characters(tmp_path):
    f = tmp_path / "gb.gjn"
    f.write_bytes('[Event "够级"]\n[Site "'.encode() + "青岛".encode("gb18030") + b'"]\n')
    r = run("validate", f)
    assert r.exit_code == 2 and ":2:8: error[encoding]" in r.output


def test_outputs_never_overwrite_inputs(tmp_path):
    f = tmp_path / "hand.gjn"
    f.write_bytes(HAND.read_bytes())
    for args in (("render", f, "-o", f), ("fmt", f, "-o", f)):
        r = run(*args)
        assert r.exit_code == 2 and "would be overwritten" in r.output
    assert f.read_bytes() == HAND.read_bytes()
    assert run("fmt", "--check", "--in-place", f).exit_code == 2


def test_fmt_in_place_follows_a_symlink(tmp_path):
    real = tmp_path / "real.gjn"
    real.write_text(HAND.read_text(encoding="utf-8").replace("\n2. ", "\n "), encoding="utf-8")
    link = tmp_path / "link.gjn"
    link.symlink_to(real)
    assert run("fmt", "--in-place", link).exit_code == 0
    assert link.is_symlink() and real.read_text(encoding="utf-8") == HAND.read_text(encoding="utf-8")


def test_fmt_check_many_files_and_line_ends(tmp_path):
    crlf = tmp_path / "crlf.gjn"
    crlf.write_bytes(HAND.read_bytes().replace(b"\n", b"\r\n"))
    r = run("fmt", "--check", HAND, ILLEGAL, crlf)
    assert r.exit_code == 1 and r.output.strip() == f"{crlf}: not in canonical form"
    assert run("fmt", "--check", HAND, ILLEGAL).exit_code == 0


def test_render_of_an_illegal_record_says_so(tmp_path):
    out = tmp_path / "x.html"
    r = run("render", ILLEGAL, "-o", out)
    assert r.exit_code == 0 and "note: the replay stops at an illegal action" in r.output
    assert str(ILLEGAL.parent) not in out.read_text(encoding="utf-8")


def test_unknown_ruleset_tag_located(tmp_path):
    f = tmp_path / "x.gjn"
    f.write_text(HAND.read_text(encoding="utf-8").replace('"charter"', '"moon"'), encoding="utf-8")
    r = run("validate", f)
    assert r.exit_code == 2 and ":5:2: error[unknown-ruleset]" in r.output


def test_result_mismatch_is_illegal(tmp_path):
    f = tmp_path / "x.gjn"
    f.write_text(HAND.read_text(encoding="utf-8").replace("5-6-1-4-3-2", "6-5-1-4-3-2"), encoding="utf-8")
    r = run("validate", f)
    assert r.exit_code == 1 and "error[result-mismatch]" in r.output and ":12:2:" in r.output


def test_unfinished_record_with_a_result_is_incomplete(tmp_path):
    text = HAND.read_text(encoding="utf-8")
    f = tmp_path / "x.gjn"
    f.write_text(text[: text.index("2. 4:3333")], encoding="utf-8")
    r = run("validate", f)
    assert r.exit_code == 1 and "error[hand-incomplete]" in r.output
    f.write_text(text[: text.index("2. 4:3333")].replace("5-6-1-4-3-2", "*"), encoding="utf-8")
    r = run("validate", f)
    assert r.exit_code == 0 and "unfinished after 3 actions" in r.output


def test_round_number_must_fit(tmp_path):
    f = tmp_path / "x.gjn"
    f.write_text(HAND.read_text(encoding="utf-8").replace("2. 4:3333", "3. 4:3333"), encoding="utf-8")
    r = run("validate", f)
    assert r.exit_code == 1 and "error[round-mismatch]" in r.output and "this is round 2" in r.output


def test_fmt_check_and_in_place(tmp_path):
    assert run("fmt", "--check", HAND).exit_code == 0
    messy = HAND.read_text(encoding="utf-8").replace("\n2. ", "\n ").replace("1:-", "1:-   ")
    f = tmp_path / "messy.gjn"
    f.write_text(messy, encoding="utf-8")
    assert run("fmt", "--check", f).exit_code == 1
    r = run("fmt", f)
    assert r.exit_code == 0 and r.output == HAND.read_text(encoding="utf-8")
    assert f.read_text(encoding="utf-8") == messy  # never overwritten unless asked
    assert run("fmt", "--in-place", f).exit_code == 0
    assert f.read_text(encoding="utf-8") == HAND.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["messy.gjn"]  # no temporary file left


def test_render_writes_a_self_contained_page(tmp_path):
    out = tmp_path / "hand.html"
    r = run("render", HAND, "-o", out)
    assert r.exit_code == 0
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "Liu Yang" in html


def test_help_explains_every_command():
    assert "validate" in run("--help").output
    for cmd in ("validate", "fmt", "render"):
        r = run(cmd, "--help")
        assert r.exit_code == 0 and "Usage" in r.output


def test_options_tag_changes_the_rules_and_bad_options_are_listed(tmp_path):
    text = HAND.read_text(encoding="utf-8").replace("[Annotator", '[Options "threes-held=yes"]\n[Annotator')
    f = tmp_path / "x.gjn"
    f.write_text(text, encoding="utf-8")
    # with 3s held, seat 1 (no 3 in its hand) is placed last when play starts (004 §26), so it cannot lead
    r = run("validate", f)
    assert r.exit_code == 1 and "error[seat-out]" in r.output
    f.write_text(text.replace("threes-held=yes", "threes-lats=yes"), encoding="utf-8")
    r = run("validate", f)
    assert r.exit_code == 2 and ":13:2: error[bad-option]: unknown option 'threes-lats'" in r.output
    assert "threes-held" in r.output
    f.write_text(text.replace("threes-held=yes", "hand-end=sometimes"), encoding="utf-8")
    r = run("validate", f)
    assert r.exit_code == 2 and "error[bad-option]: option hand-end" in r.output and "one-team-left" in r.output


def _three_hands(tmp_path):
    good = HAND.read_text(encoding="utf-8")
    bad = good.replace("2. 4:3333", "2. 4:33Z3")  # unreadable: a bad card in hand 2
    f = tmp_path / "three.gjn"
    f.write_text(good + "\n" + bad + "\n" + ILLEGAL.read_text(encoding="utf-8"), encoding="utf-8")
    return f, good.count("\n") + 1


def test_one_bad_hand_does_not_stop_the_others(tmp_path):
    f, offset = _three_hands(tmp_path)
    r = run("validate", f)
    assert r.exit_code == 2
    assert r.output.count("valid under charter") == 1
    assert f"{f}:{29 + offset}:8: error[bad-card]" in r.output  # hand 2, its round 2 line
    assert f"{f}:{26 + 2 * offset}:30: error[gouji-not-opposite]" in r.output  # hand 3


def test_validate_json_lines_and_jobs_keep_order(tmp_path):
    f, offset = _three_hands(tmp_path)
    one = run("validate", "--format", "json", f)
    rows = [json.loads(line) for line in one.output.splitlines()]
    assert [(r["hand"], r["valid"]) for r in rows] == [(1, True), (2, False), (3, False)]
    assert rows[0]["places"] == [5, 6, 1, 4, 3, 2] and rows[0]["scores"] == {"1-3-5": 2, "2-4-6": 0}
    assert rows[1]["error"]["code"] == "bad-card" and rows[1]["line"] == offset + 1
    error = rows[2]["error"]  # hand 3: seat 3 answers seat 1's TTTTT, which only seat 4 may (002 §9)
    assert (error["code"], error["line"], error["column"]) == ("gouji-not-opposite", 26 + 2 * offset, 30)
    assert error["message"].startswith("TTTTT by seat 1 is a gouji play (够级): only its opposite, seat 4, may answer")
    assert rows[2]["error"]["source"].startswith("够级大纲 §9")
    two = run("validate", "--format", "json", "--jobs", "2", f)
    assert two.output == one.output and two.exit_code == one.exit_code == 2


def test_validate_shows_each_ruling_in_text_and_in_full_in_json(tmp_path):
    # a disputed action marked ^ passed as "valid" with only a count in the JSON. examples/charter-hand-
    # illegal.gjn with ^ on seat 3's QQQQQ: seat 3 (a team-mate of seat 1) may not answer 1:TTTTT (002 §9);
    # it was not its turn, so the play is simply not made and the hand goes on as recorded
    f = tmp_path / "ruling.gjn"
    f.write_text(ILLEGAL.read_text(encoding="utf-8").replace(" 3:QQQQQ ", " ^3:QQQQQ ", 1), encoding="utf-8")
    r = run("validate", f)
    assert r.exit_code == 0
    assert f"  {f}:26:31: ruling (裁定) on action 2 ^3:QQQQQ: not made (错牌不出)\n" in r.output
    assert "    gouji-not-opposite: TTTTT by seat 1 is a gouji play (够级): only its opposite, seat 4" in r.output
    assert "    rule: only the opposite may answer a gouji play (够级牌只有对头可上) — 够级大纲 §9" in r.output
    ruling = json.loads(run("validate", "--format", "json", f).output)["rulings"]
    assert ruling == [
        {
            "action": 2,
            "text": "^3:QQQQQ",
            "line": 26,
            "column": 31,
            "code": "gouji-not-opposite",
            "message": "TTTTT by seat 1 is a gouji play (够级): only its opposite, seat 4, may answer; "
            "seat 3 may only burn it (write 3:*cards)",
            "message_zh": "1号位的TTTTT是够级牌：只有其对头4号位可以上牌；3号位只能烧牌（写作 3:*牌）",
            "rule": "gouji-opposite-only",
            "rule_name": "only the opposite may answer a gouji play",
            "source": "够级大纲 §9 (第九条 只有对头才有资格上牌)",
            "turn_lost": False,
        }
    ]
    # seat 4's turn: ^4:JJJJ (four jacks on five tens) is not made and counts as its pass (002 §8(1))
    g = tmp_path / "turn.gjn"
    text = HAND.read_text(encoding="utf-8").replace('[Result "5-6-1-4-3-2"]', '[Result "*"]')
    head = text[: text.index("1. 1:TTTTT")]
    g.write_text(head + "1. 1:TTTTT ^4:JJJJ\n", encoding="utf-8")
    r = run("validate", "--format", "json", g)
    (ruled,) = json.loads(r.output)["rulings"]
    assert (ruled["action"], ruled["code"], ruled["turn_lost"]) == (2, "does-not-beat", True)
    assert "not made, and the seat loses its turn (错牌不出)" in run("validate", g).output


def test_an_extra_pass_after_a_gouji_play_says_to_remove_it(tmp_path):
    # the failing input: "1:TTTTT 2:- 4:JJJJJ" got "seat 2 may only burn it (write 2:*cards)", which points
    # the wrong way: seat 2 has no turn on a 够级 play and writes nothing (docs/notation.md, Who writes a pass)
    text = HAND.read_text(encoding="utf-8").replace('[Result "5-6-1-4-3-2"]', '[Result "*"]')
    f = tmp_path / "pass.gjn"
    f.write_text(text[: text.index("1. 1:TTTTT")] + "1. 1:TTTTT 2:- 4:JJJJJ\n", encoding="utf-8")
    r = run("validate", f)
    assert r.exit_code == 1
    assert (
        "error[gouji-not-opposite]: TTTTT by seat 1 is a gouji play (够级): seat 2 has no turn on it, "
        "so it writes no pass: remove 2:- (to burn it, write 2:*cards)"
    ) in r.output
    # without the pass the hand reads on
    f.write_text(text[: text.index("1. 1:TTTTT")] + "1. 1:TTTTT 4:JJJJJ\n", encoding="utf-8")
    assert run("validate", f).exit_code == 0
