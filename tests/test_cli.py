"""The gouji command: exit codes, located one-line errors, no tracebacks, no lost files."""

import json
import re

import pytest
from click.testing import CliRunner

from gouji_record.cli.main import main

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
    assert lines[0].startswith(f"{ILLEGAL}:27:30: error[gouji-not-opposite]: ")
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
    assert r.exit_code == 2 and ":6:2: error[unknown-ruleset]" in r.output


def test_result_mismatch_is_illegal(tmp_path):
    f = tmp_path / "x.gjn"
    f.write_text(HAND.read_text(encoding="utf-8").replace("5-6-1-4-3-2", "6-5-1-4-3-2"), encoding="utf-8")
    r = run("validate", f)
    assert r.exit_code == 1 and "error[result-mismatch]" in r.output and ":13:2:" in r.output


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
    assert r.exit_code == 2 and ":14:2: error[bad-option]: unknown option 'threes-lats'" in r.output
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
    assert f"{f}:{30 + offset}:8: error[bad-card]" in r.output  # hand 2, its round 2 line
    assert f"{f}:{27 + 2 * offset}:30: error[gouji-not-opposite]" in r.output  # hand 3


def test_validate_json_lines_and_jobs_keep_order(tmp_path):
    f, offset = _three_hands(tmp_path)
    one = run("validate", "--format", "json", f)
    rows = [json.loads(line) for line in one.output.splitlines()]
    assert [(r["hand"], r["valid"]) for r in rows] == [(1, True), (2, False), (3, False)]
    assert rows[0]["places"] == [5, 6, 1, 4, 3, 2] and rows[0]["scores"] == {"1-3-5": 2, "2-4-6": 0}
    assert rows[1]["error"]["code"] == "bad-card" and rows[1]["line"] == offset + 1
    error = rows[2]["error"]  # hand 3: seat 3 answers seat 1's TTTTT, which only seat 4 may (002 §9)
    assert (error["code"], error["line"], error["column"]) == ("gouji-not-opposite", 27 + 2 * offset, 30)
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
    assert f"  {f}:27:30: ruling (裁定) on action 2 ^3:QQQQQ: not made (错牌不出)\n" in r.output
    assert "    gouji-not-opposite: TTTTT by seat 1 is a gouji play (够级): only its opposite, seat 4" in r.output
    assert "    rule: only the opposite may answer a gouji play (够级牌只有对头可上) — 够级大纲 §9" in r.output
    ruling = json.loads(run("validate", "--format", "json", f).output)["rulings"]
    assert ruling == [
        {
            "action": 2,
            "text": "^3:QQQQQ",
            "line": 27,
            "column": 30,  # the ^ (issue 31: it was 31, one past it)
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


# -- validate -r, and - in every reading command's help (issue 15) ------------------------------


def _tree(tmp_path):
    d = tmp_path / "d"
    for sub in ("sub/deeper", "a-b", "empty"):
        (d / sub).mkdir(parents=True)
    (d / "z.gjn").write_bytes(HAND.read_bytes())
    (d / "sub" / "b.gjn").write_bytes(ILLEGAL.read_bytes())
    (d / "sub" / "deeper" / "a.gjn").write_bytes((EXAMPLES / "charter-match.gjn").read_bytes())
    (d / "a-b" / "c.gjn").write_text("bad", encoding="utf-8")
    (d / "a-b" / "notes.txt").write_text("not a record", encoding="utf-8")
    (d / "sub" / "hand.GJN.bak").write_bytes(HAND.read_bytes())  # not *.gjn
    return d


def test_validate_recursive_walks_for_gjn_files_in_path_order(tmp_path):
    d = _tree(tmp_path)
    r = run("validate", "-r", "--format", "json", d)
    rows = [json.loads(line) for line in r.output.splitlines()]
    # paths compared name by name: a-b < sub < z.gjn, and in sub, b.gjn < deeper
    assert [(row["file"], row["hand"], row["valid"]) for row in rows] == [
        (f"{d}/a-b/c.gjn", 1, False),
        (f"{d}/sub/b.gjn", 1, False),
        (f"{d}/sub/deeper/a.gjn", 1, True),
        (f"{d}/sub/deeper/a.gjn", 2, True),
        (f"{d}/sub/deeper/a.gjn", 3, True),
        (f"{d}/z.gjn", 1, True),
    ]
    assert r.exit_code == 2  # the worst: c.gjn cannot be read
    # reported as for files named one by one, and a file named beside the directory is checked too
    r = run("validate", "--recursive", d / "sub", HAND)
    assert r.exit_code == 1
    assert r.output.splitlines()[0].startswith(f"{d}/sub/b.gjn:27:30: error[gouji-not-opposite]")
    assert r.output.count("valid under charter") == 4  # the match's three hands, then HAND


def test_validate_a_directory_needs_r_and_an_empty_one_is_said(tmp_path):
    d = _tree(tmp_path)
    r = run("validate", d)
    assert r.exit_code == 2
    assert r.output == f"{d}: error[unreadable]: is a directory, not a .gjn file: -r checks the .gjn files under it\n"
    r = run("validate", "-r", d / "empty")
    assert r.exit_code == 2
    assert r.output == f"{d / 'empty'}: error[empty]: no .gjn file in the directory or under it\n"


def test_validate_recursive_says_which_directory_cannot_be_read(tmp_path, monkeypatch):
    import os

    d = _tree(tmp_path)
    real_walk = os.walk

    def walk(top, onerror=None, **kwargs):  # as os.walk does for a directory it may not list
        onerror(PermissionError(13, "Permission denied", str(d / "sub")))
        yield from ((root, dirs, names) for root, dirs, names in real_walk(top, **kwargs) if "sub" not in root)

    monkeypatch.setattr(os, "walk", walk)
    r = run("validate", "-r", "-q", d)
    assert r.exit_code == 2
    assert f"{d / 'sub'}: error[unreadable]: cannot read the directory: Permission denied" in r.output
    assert "sub/b.gjn" not in r.output


@pytest.mark.parametrize("command", ["validate", "fmt", "export", "render", "moves", "import"])
def test_every_reading_command_says_dash_reads_standard_input(command):
    text = " ".join(run(command, "--help").output.split())
    assert "FILE - reads standard input" in text
    assert "--encoding NAME Read the input in this encoding (e.g. gb18030, gbk, big5)" in text


# -- render's default output, fmt --diff (issue 15) -----------------------------------------------


def test_render_without_o_writes_the_page_beside_the_input(tmp_path):
    f = tmp_path / "hand.gjn"
    f.write_bytes(HAND.read_bytes())
    r = run("render", f)
    assert r.exit_code == 0 and r.output == ""
    assert (tmp_path / "hand.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert f.read_bytes() == HAND.read_bytes()
    bare = tmp_path / "sub" / "record"  # no suffix: .html is added
    bare.parent.mkdir()
    bare.write_bytes(HAND.read_bytes())
    assert run("render", bare).exit_code == 0 and (tmp_path / "sub" / "record.html").is_file()
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["hand.gjn", "hand.html", "record", "record.html", "sub"]


def test_render_never_writes_over_its_input_and_dash_goes_to_standard_output(tmp_path):
    page = tmp_path / "hand.html"  # a record named .html: its page would be itself
    page.write_bytes(HAND.read_bytes())
    r = run("render", page)
    assert r.exit_code == 2 and f"Error: {page} ends in .html: the page would overwrite it; give -o" in r.output
    assert page.read_bytes() == HAND.read_bytes()
    r = run("render", "-", input=HAND.read_bytes())
    assert r.exit_code == 0 and r.stdout.startswith("<!DOCTYPE html>") and "Liu Yang" in r.stdout
    assert [p.name for p in tmp_path.iterdir()] == ["hand.html"]


def test_fmt_diff_prints_a_unified_diff_against_the_canonical_form(tmp_path):
    text = HAND.read_text(encoding="utf-8")
    f = tmp_path / "messy.gjn"
    f.write_text(text.replace("\n2. 4:3333", "\n2.  4:3333"), encoding="utf-8")  # line 30, one space more
    lines = text.splitlines()
    r = run("fmt", "--diff", f, HAND)  # HAND is canonical: no diff for it
    assert r.exit_code == 1
    assert r.stdout.splitlines() == [
        f"--- {f}",
        f"+++ {f} (canonical)",
        "@@ -27,7 +27,7 @@",  # three lines of context each side of line 30
        " " + lines[26],
        " " + lines[27],
        " " + lines[28],
        "-2.  4:3333 5:4444 6:5555 1:6666 2:7777 3:8888 4:9999 5:- 6:- 1:- 2:- 3:-",
        "+2. 4:3333 5:4444 6:5555 1:6666 2:7777 3:8888 4:9999 5:- 6:- 1:- 2:- 3:-",
        " " + lines[30],
        " " + lines[31],
        " " + lines[32],
    ]
    assert r.stderr == f"{f}: not in canonical form\n"  # as --check says it
    assert run("fmt", "--check", "--diff", f).stdout == r.stdout  # --diff with --check: the same
    assert f.read_text(encoding="utf-8") != text  # nothing is written
    assert run("fmt", "--diff", HAND).output == ""


def test_fmt_diff_shows_line_ends_and_a_missing_final_newline(tmp_path):
    text = HAND.read_text(encoding="utf-8")
    f = tmp_path / "crlf.gjn"
    f.write_bytes(text.rstrip("\n").replace("\n", "\r\n").encode("utf-8"))  # CRLF, and no final line end
    r = run("fmt", "--diff", f)
    out = r.stdout.splitlines()
    assert r.exit_code == 1 and out[2] == "@@ -1,65 +1,65 @@"  # every line differs
    assert out[3] == '-[Notation "gjn 2.4"]\\r' and out[4] == '-[Event "Worked example: one hand under the charter"]\\r'
    assert out[67] == "-   2 is left holding cards: 6th place (大落).}" and out[68] == "\\ No newline at end of file"
    assert out[69] == '+[Notation "gjn 2.4"]' and len(out) == 3 + 65 + 1 + 65


def test_fmt_diff_reads_standard_input_and_goes_one_at_a_time(tmp_path):
    messy = HAND.read_text(encoding="utf-8").replace("\n2. 4:3333", "\n2.  4:3333")
    r = run("fmt", "--diff", "-", input=messy.encode("utf-8"))
    assert r.exit_code == 1 and r.stdout.startswith("--- -\n+++ - (canonical)\n@@ -27,7 +27,7 @@\n")
    r = run("fmt", "--diff", "--in-place", HAND)
    assert r.exit_code == 2 and "--check (or --diff), --in-place and --output go one at a time" in r.output
    bad = tmp_path / "bad.gjn"
    bad.write_text(messy.replace("4:3333", "4:33Z3"), encoding="utf-8")
    r = run("fmt", "--diff", bad)  # a hand that cannot be read: reported, no diff, exit 2
    assert r.exit_code == 2 and r.stdout == "" and f"{bad}:30:9: error[bad-card]" in r.stderr


def test_validate_hand_reports_one_hand_judged_within_its_match(tmp_path):
    # issue 38: validate --hand N, as show, review and events take it. examples/online-match.gjn's
    # hands 1 and 3, hand 2 left out: alone, its hand 3 is valid (the hand before is not in the
    # file); after hand 1 it is hand 2 of the match, numbered 3 (hand-missing), with tribute not owed
    import re as _re

    hands = _re.split(r"\n\n(?=\[)", (EXAMPLES / "online-match.gjn").read_text(encoding="utf-8").strip("\n"))
    f = tmp_path / "m13.gjn"
    f.write_text(hands[0] + "\n\n" + hands[2] + "\n", encoding="utf-8")
    alone = tmp_path / "m3.gjn"
    alone.write_text(hands[2] + "\n", encoding="utf-8")
    assert run("validate", "-q", alone).exit_code == 0
    r = run("validate", "--hand", "2", f)
    assert r.exit_code == 1
    assert 'error[hand-missing]: [Hand "3"] is hand 2 of match \'Online room 8\'' in r.stderr
    assert r.stdout == "" and f"{f}: hand 2 (Self-play, online)" in r.stderr and f"{f}: hand 1 " not in r.stderr
    r = run("validate", "--hand", "1", f)
    assert r.exit_code == 0 and r.stderr == "" and r.stdout.startswith(f"{f}: hand 1 (Self-play, online): valid")
    assert "hand 2" not in r.stdout
    r = run("validate", "--hand", "2", "--format", "json", f)
    (line,) = r.stdout.splitlines()
    data = json.loads(line)
    assert (r.exit_code, data["hand"], data["line"], data["valid"]) == (1, 2, 56, False)
    r = run("validate", "--hand", "3", f)
    assert r.exit_code == 2 and f"{f} has 2 hand(s)" in r.stderr
