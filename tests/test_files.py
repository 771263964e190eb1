"""Reading files hand by hand: one splitter for every command, equal to the grammar's reading.

The splitter (gouji_record.notation.files) is checked against the grammar on every layout that
broke it before (issue: records in, records out) and on mutated files: where the grammar reads
the whole text, the hands the splitter cuts read to the same records and source maps; where the
grammar refuses it, some hand is refused too.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gouji_record.cli.main import main
from gouji_record.notation.files import MAX_COMMENT, read_hands, split_lines
from gouji_record.notation.build import NotationError
from gouji_record.notation.parser import normalize_newlines, parse_text

from conftest import EXAMPLES

CASES = Path(__file__).parent / "cases"
HAND = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
MATCH = (EXAMPLES / "charter-match.gjn").read_text(encoding="utf-8")

SMALL = """[Event "{n}"]
[Site "?"]
[Date "?"]
[Round "?"]
[Ruleset "charter"]
[Seat1 "a"]
[Seat2 "b"]
[Seat3 "c"]
[Seat4 "d"]
[Seat5 "e"]
[Seat6 "f"]
[Result "*"]

play
1. 1:33 {{c [x] ; y}} 2:44
"""
#: The same with a line comment, which joining lines makes swallow the rest (the grammar agrees).
SMALL_SEMI = SMALL.replace("2:44\n", "2:44 ; line [comment]\n")


def grammar(text: str):
    """The grammar's reading of the whole text: the hands, or the error."""
    try:
        return parse_text(text)
    except NotationError as e:
        return e


def split(data: bytes):
    """The splitter's reading: each hand cut out and parsed on its own."""
    out = []
    for hand in read_hands("f.gjn", io.BytesIO(data)):
        if hand.problem is not None:
            return hand.problem
        try:
            out += parse_text(hand.text, hand.line, hand.column)
        except NotationError as e:
            return e
    return out


def agree(text: str) -> int:
    """Assert that the splitter reads ``text`` as the grammar does; the number of hands."""
    whole, pieces = grammar(text), split(text.encode("utf-8"))
    if isinstance(whole, NotationError):
        assert isinstance(pieces, NotationError), f"the grammar refuses ({whole}), the splitter reads it"
        return 0
    assert not isinstance(pieces, NotationError), f"the grammar reads it, the splitter refuses: {pieces}"
    assert [r for r, _ in pieces] == [r for r, _ in whole]
    assert [w for _, w in pieces] == [w for _, w in whole]  # every line and column the same
    return len(whole)


def one_line_per_hand(text: str) -> str:
    hands = text.strip().split("\n\n[")
    return "\n".join(h.replace("\n", " ") if i == 0 else "[" + h.replace("\n", " ") for i, h in enumerate(hands)) + "\n"


LAYOUTS = {
    "as written": lambda t: t,
    "CRLF": lambda t: t.replace("\n", "\r\n"),
    "CR only (old Mac)": lambda t: t.replace("\n", "\r"),
    "one hand per line": one_line_per_hand,
    "all on one line": lambda t: t.replace("\n", " "),
    "next tag after the last action": lambda t: t.replace("\n\n[Notation", " [Notation"),
    "no space before the next tag": lambda t: t.replace("\n\n[Notation", "[Notation"),
    "a glyph on the line of the next tag": lambda t: t.replace("\n\n[Notation", "\n! [Notation"),
    "tags in one line": lambda t: t.replace("]\n[", "] ["),
    "a byte-order mark": lambda t: "\ufeff" + t,
    "comments that hold tags": lambda t: t.replace("play\n", 'play\n{\n[Event "x"]\n} ; [Event "y"]\n'),
    "a tag named play": lambda t: t.replace('[Round "?"]', '[play "deal [x] {y} ;"]'),
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("text", [HAND, MATCH, "\n".join(SMALL.format(n=n) for n in range(3))], ids=["hand", "match", "small"])
def test_every_layout_splits_as_the_grammar_reads(layout, text):
    changed = LAYOUTS[layout](text)
    expected = len(grammar(text))
    assert agree(changed) == expected, "the layout should still read"


@st.composite
def mutated(draw):
    text = "\n".join(SMALL_SEMI.format(n=n) for n in range(draw(st.integers(1, 3))))
    for _ in range(draw(st.integers(1, 6))):
        pos = draw(st.integers(0, len(text)))
        if draw(st.booleans()):
            text = text[:pos] + draw(st.sampled_from(list('[]{};"\n\r !\\') + ["play", "[Event "])) + text[pos:]
        else:
            text = text[:pos] + text[pos + draw(st.integers(1, 4)) :]
    return text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_files_split_as_the_grammar_reads(text):
    agree(text)


def test_the_hands_put_together_give_back_the_file():
    text = LAYOUTS["next tag after the last action"](MATCH).replace("\n", "\r\n")
    hands = list(read_hands("m.gjn", io.BytesIO(text.encode("utf-8"))))
    assert len(hands) == 3
    assert "".join(h.text for h in hands) == normalize_newlines(text)
    second = hands[1]
    assert second.text.startswith("[Notation") and second.column > 1 and second.head.endswith(second.text.split("\n")[0])


def test_a_comment_never_closed_does_not_swallow_the_hands_after_it():
    text = SMALL.format(n=1).replace("2:44", "2:44 {oops") + SMALL.format(n=2)
    hands = list(split_lines(text.splitlines(True)))
    assert [h.line for h in hands] == [1, 16]
    with pytest.raises(NotationError, match="comment not closed"):
        parse_text(hands[0].text, hands[0].line)
    assert parse_text(hands[1].text, hands[1].line)[0][0].tags["Event"] == "2"


def test_a_comment_longer_than_the_limit_is_taken_as_not_closed():
    text = SMALL.format(n=1).replace("2:44", "2:44 {" + "x" * (MAX_COMMENT + 10)) + "}\n" + SMALL.format(n=2)
    hands = list(split_lines(text.splitlines(True)))
    assert len(hands) == 2  # without the limit the comment would run on to the '}' and hold hand 2


def validate(*args, input=None):
    r = CliRunner().invoke(main, ["validate", "--format", "json", *map(str, args)], input=input)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    return r.exit_code, [json.loads(line) for line in r.stdout.splitlines()]


def summary(rows):
    return [(d["hand"], d["line"], d["valid"], (d.get("error") or {}).get("code"), (d.get("error") or {}).get("line")) for d in rows]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_bad_byte_hides_no_other_hand(jobs):
    # hand 3's Event holds 0xff (GB18030 text): hands 1 and 2 are still checked, hand 2's
    # illegal action (26:30 in the example, 62 lines further down) is still reported
    code, rows = validate("--jobs", jobs, CASES / "jobs-drops-reports-before-bad-byte.gjn")
    assert code == 2
    assert summary(rows) == [
        (1, 1, True, None, None),
        (2, 63, False, "gouji-not-opposite", 88),
        (3, 126, False, "encoding", 126),
    ]
    code, rows = validate("--jobs", jobs, CASES / "bad-byte-drops-previous-hand.gjn")
    assert code == 2 and summary(rows) == [(1, 1, True, None, None), (2, 63, True, None, None), (3, 125, False, "encoding", 125)]


def test_a_bad_byte_in_the_middle_hand_leaves_the_illegal_last_hand_reported(tmp_path):
    illegal = (EXAMPLES / "charter-hand-illegal.gjn").read_bytes()
    bad = SMALL.format(n="\xff").encode("utf-8").replace("\xc3\xbf".encode("latin-1"), b"\xff")
    f = tmp_path / "three.gjn"
    f.write_bytes(HAND.encode("utf-8") + b"\n" + bad + b"\n" + illegal)
    code, rows = validate(f)
    assert code == 2  # the worst of all hands
    assert [r["hand"] for r in rows] == [1, 2, 3]
    assert [r["valid"] for r in rows] == [True, False, False]
    assert rows[1]["error"]["code"] == "encoding" and rows[1]["error"]["column"] == 9
    assert rows[2]["error"]["code"] == "gouji-not-opposite"


@pytest.mark.parametrize("layout", ["CR only (old Mac)", "one hand per line", "next tag after the last action"])
def test_each_hand_is_reported_once_with_its_own_number(tmp_path, layout):
    text = "\n".join(SMALL.format(n=n) for n in range(3)).replace("2:44", "2:44 3:55")
    text = text.replace('"2"]', '"2"]\n[Match "m"]').replace('"1"]', '"1"]\n[Match "m"]')  # hands 2 and 3: a match
    bad = LAYOUTS[layout](text.replace("1. 1:33 {c [x] ; y} 2:44 3:55", "1. 1:33 2:44 3:5Z", 1))
    f = tmp_path / "f.gjn"
    f.write_bytes(bad.encode("utf-8"))
    code, rows = validate(f)
    assert code == 2
    assert [r["hand"] for r in rows] == [1, 2, 3]
    assert [r["valid"] for r in rows] == [False, True, True]
    assert rows[0]["error"]["code"] == "bad-card"
    whole = grammar(bad)
    assert isinstance(whole, NotationError)  # the grammar finds the same error at the same place
    assert (rows[0]["error"]["line"], rows[0]["error"]["column"]) == (whole.line, whole.column)
    assert [r.get("match_hand") for r in rows] == [None, 1, 2]


def test_samples_of_layouts_other_commands_read():
    for name, lines in (("two-match-hands-one-line", [1, 16]), ("glyph-before-next-hand", [1, 16])):
        code, rows = validate(CASES / f"{name}.gjn")
        assert code == 0 and [(r["hand"], r["line"]) for r in rows] == [(1, lines[0]), (2, lines[1])]
    code, rows = validate(CASES / "lone-cr-shifts-validate-lines.gjn")
    whole = grammar((CASES / "lone-cr-shifts-validate-lines.gjn").read_bytes().decode("utf-8"))
    assert (rows[1]["error"]["line"], rows[1]["error"]["column"]) == (whole.line, whole.column) == (32, 7)


def test_fmt_and_validate_read_the_same_hands():
    r = CliRunner().invoke(main, ["fmt", str(CASES / "glyph-before-next-hand.gjn")])
    assert r.exit_code == 0
    assert r.stdout.count("[Event") == 2 and "1. 1:33!\n" in r.stdout  # the glyph stays with its action


def test_a_match_excerpt_is_checked_without_its_earlier_hands(tmp_path):
    # hand 2 of the example match, alone: its tribute follows hand 1, which is not in the file
    text = MATCH.split('\n[Notation')
    second = "[Notation" + text[1]
    assert '[Hand "2"]' in second and "preplay" in second
    f = tmp_path / "h2.gjn"
    f.write_text(second, encoding="utf-8")
    code, rows = validate(f)
    assert code == 0, rows
    assert rows[0]["match_hand"] == 2 and rows[0]["tribute"] == ["not checked: the hand before it is not in the file"]
    # the same hand as hand 1 of its match is still told that a first hand owes no tribute
    f.write_text(second.replace('[Hand "2"]', '[Hand "1"]'), encoding="utf-8")
    code, rows = validate(f)
    assert code == 1 and rows[0]["match_errors"][0]["code"] == "tribute-extra"


@pytest.mark.parametrize(
    "name, code, where",
    [
        ("bigint-nag.gjn", "syntax", (15, 9)),
        ("bigint-unknown-count.gjn", "deal-size", (15, 4)),
    ],
)
def test_numbers_of_thousands_of_digits_are_located_errors(tmp_path, name, code, where):
    # exit 2 (unreadable), and the next file is still checked
    status, rows = validate(CASES / name, EXAMPLES / "charter-hand.gjn")
    assert status == 2
    assert (rows[0]["error"]["code"], rows[0]["error"]["line"], rows[0]["error"]["column"]) == (code, *where)
    assert rows[1]["valid"] is True


def test_a_round_number_of_thousands_of_digits(tmp_path):
    f = tmp_path / "r.gjn"
    f.write_text(SMALL.format(n=1).replace("1. 1:33", "1" * 5000 + ". 1:33"), encoding="utf-8")
    status, rows = validate(f)
    assert status == 2 and rows[0]["error"]["code"] == "syntax" and (rows[0]["error"]["line"], rows[0]["error"]["column"]) == (15, 1)
    assert "round numbers run from 1 to 9999" in rows[0]["error"]["message"]


def test_an_action_after_the_end_is_hand_over_with_or_without_its_round_number(tmp_path):
    for extra in ("18. 2:3333", "2:3333"):
        f = tmp_path / "over.gjn"
        f.write_text(HAND.rstrip("\n") + f" {extra}\n", encoding="utf-8")
        status, rows = validate(f)
        assert status == 1 and rows[0]["error"]["code"] == "hand-over", (extra, rows[0]["error"])


def test_fmt_keeps_every_wrong_round_number(tmp_path):
    f = tmp_path / "rounds.gjn"
    # rounds 2, 3 and 4 written as 7, 8 and 9: fmt keeps them (it never changes a verdict: issue 25),
    # the file is in canonical form, and validate still says round-mismatch at the 7.
    text = HAND.replace("\n2. 4:3333", "\n7. 4:3333").replace("\n3. 4:QQQQ", "\n8. 4:QQQQ").replace("\n4. 5:X7", "\n9. 5:X7")
    assert text != HAND
    f.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["fmt", "--in-place", str(f)])
    assert r.exit_code == 0
    assert f.read_text(encoding="utf-8") == text
    assert CliRunner().invoke(main, ["fmt", "--check", str(f)]).exit_code == 0
    status, rows = validate(f)
    assert status == 1 and rows[0]["error"]["code"] == "round-mismatch"
    assert rows[0]["error"]["message"] == "round number 7. does not fit: this is round 2"


def test_many_comments_on_one_action_are_kept_in_order():
    text = SMALL_SEMI.format(n=1).replace("2:44", "2:44 " + " ".join(f"{{c{i}}}" for i in range(3000)))
    (record, _), = parse_text(text)
    assert record.actions[1].comments == tuple(f"c{i}" for i in range(3000)) + ("line [comment]",)
    assert record.actions[0].comments == ("c [x] ; y",)


def test_fmt_and_export_leave_out_a_file_with_a_bad_hand(tmp_path):
    bad = tmp_path / "bad.gjn"
    bad.write_text(HAND + "\n" + SMALL.format(n=2).replace("2:44", "2:4Z"), encoding="utf-8")
    for command in (["fmt"], ["export"]):
        r = CliRunner().invoke(main, [*command, str(EXAMPLES / "charter-hand.gjn"), str(bad)])
        assert r.exit_code == 2
        line = (HAND + "\n").count("\n") + 15  # the second hand's play line
        assert r.stderr.startswith(f"{bad}:{line}:24: error[bad-card]: 'Z' is not a card")
        written = r.stdout
        assert written.count("Worked example: one hand under the charter") == 1  # the good file only


# Found by a tester trying to break the splitter (each a sample of its kind).


def test_a_byte_order_mark_does_not_move_the_columns_of_later_hands_on_line_1():
    data = (CASES / "bom-then-two-hands-one-line.gjn").read_bytes()
    whole = grammar(data.decode("utf-8"))
    assert isinstance(whole, NotationError) and (whole.line, whole.column) == (1, 277)
    code, rows = validate(CASES / "bom-then-two-hands-one-line.gjn")
    assert [(r["hand"], r["line"], r["valid"]) for r in rows] == [(1, 1, True), (2, 1, False)]
    assert (rows[1]["error"]["line"], rows[1]["error"]["column"]) == (1, 277)
    # and a bad byte on line 1 is counted after the mark too: 0xb9 is character 9 of [Event "…
    r = CliRunner().invoke(main, ["validate", "-"], input=b'\xef\xbb\xbf[Event "\xb9"]')
    assert r.exit_code == 2 and r.stderr.startswith("-:1:9: error[encoding]")


@pytest.mark.parametrize("name", ["unclosed-tag-before-hands", "unclosed-value-before-hands"])
def test_a_tag_left_open_does_not_swallow_the_hand_after_it(name):
    code, rows = validate(CASES / f"{name}.gjn")
    assert code == 2
    assert [(r["hand"], r["line"], r["valid"]) for r in rows] == [(1, 1, False), (2, 2, True), (3, 3, True)]


def test_each_hand_on_a_line_is_told_of_its_own_bad_bytes():
    code, rows = validate(CASES / "two-bad-byte-hands-one-line.gjn")
    assert code == 2
    assert [(r["hand"], r["error"]["code"], r["error"]["line"], r["error"]["column"]) for r in rows] == [
        (1, "encoding", 1, 19),
        (2, "encoding", 1, 159),  # hand 2 starts at column 141: [Event "a"][Site " then the byte
    ]


def test_a_comment_past_the_limit_is_refused_whatever_it_holds():
    for inside in ("", ' [Event "q"] '):
        text = SMALL.format(n=1).replace("2:44", "2:44 {" + "x" * (MAX_COMMENT + 10) + inside + "} 3:55")
        hands = list(split_lines(text.splitlines(True)))
        assert hands[0].problem is not None and hands[0].problem.message.startswith("comment longer than")
        assert (hands[0].problem.line, hands[0].problem.column) == (15, 26)  # the {


def test_hands_numbered_alike_by_render_moves_and_validate(tmp_path):
    # hand 2 of 4 is bad: --hand 3 is the third hand (Event "third") for every command
    f = CASES / "second-of-four-bad.gjn"
    code, rows = validate(f)
    assert [r["valid"] for r in rows] == [True, False, True, True]
    out = tmp_path / "3.html"
    r = CliRunner().invoke(main, ["render", str(f), "--hand", "3", "-o", str(out)])
    assert r.exit_code == 0 and '"title":"third"' in out.read_text(encoding="utf-8")
    r = CliRunner().invoke(main, ["moves", str(f), "--hand", "3", "--at", "0", "--format", "json"])
    assert r.exit_code == 0
    r = CliRunner().invoke(main, ["render", str(f), "--hand", "2", "-o", str(out)])
    assert r.exit_code == 2 and r.stderr.startswith(f"{f}:2:")


def test_render_reports_every_bad_hand_and_writes_no_page(tmp_path):
    out = tmp_path / "x.html"
    r = CliRunner().invoke(main, ["render", str(CASES / "two-bad-hands.gjn"), "-o", str(out)])
    assert r.exit_code == 2 and not out.exists()
    assert [line.split(": error")[0].rsplit(":", 2)[1] for line in r.stderr.splitlines() if ": error[" in line] == ["2", "3"]


@pytest.mark.parametrize("name, code", [("unknown-ruleset", "unknown-ruleset"), ("bad-options", "bad-option")])
def test_export_refuses_what_import_would_refuse(name, code):
    r = CliRunner().invoke(main, ["export", str(CASES / f"{name}.gjn")])
    assert r.exit_code == 2 and f"error[{code}]" in r.stderr and r.stdout == ""


def test_one_line_of_many_hands_is_read_hand_by_hand():
    text = "".join(SMALL.format(n=n).replace("\n", " ") for n in range(300))
    hands = list(read_hands("one-line.gjn", io.BytesIO(text.encode("utf-8"))))
    assert len(hands) == 300 and all(h.line == 1 for h in hands)
    assert sum(len(h.text) for h in hands) == len(text)  # no padding: each hand holds its own text only
    assert hands[299].column == 1 + len(text) - len(hands[299].text)


def test_the_python_read_reads_as_the_commands_read(tmp_path):
    # gouji_record.read went through Path.read_text: a GB18030 file raised UnicodeDecodeError, not a
    # located error, and a file with CR line ends read differently from the commands
    import gouji_record as gj

    text = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
    cr = tmp_path / "cr.gjn"
    cr.write_bytes(("\ufeff" + text).replace("\n", "\r").encode("utf-8"))
    assert gj.read(cr) == gj.parse(text)
    bad = tmp_path / "gbk.gjn"
    bad.write_bytes(text.replace("Zhang Wei", "张伟").encode("gb18030"))
    with pytest.raises(gj.NotationError) as e:
        gj.read(bad)
    line = text.splitlines().index('[Seat1 "Zhang Wei"]') + 1
    assert (e.value.code, e.value.file, e.value.hand, e.value.line, e.value.column) == ("encoding", str(bad), 1, line, 9)


# -- Files in other encodings (issue 15): GB18030 records from Chinese platforms and editors -------

#: The example with a Chinese name, as a Chinese editor saves it: GB18030.
CHINESE = HAND.replace("Zhang Wei", "张伟")
GB = CHINESE.encode("gb18030")


def cli(*args, input=None):
    r = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output
    return r


def test_every_reading_command_reads_gb18030_with_encoding(tmp_path):
    f = tmp_path / "gb.gjn"
    f.write_bytes(GB)
    r = cli("validate", "--encoding", "gb18030", f)
    assert r.exit_code == 0 and "三科 3rd  seat 1  张伟" in r.stdout
    r = cli("fmt", "--encoding", "gb18030", f)  # fmt writes UTF-8 whatever it reads
    assert r.exit_code == 0 and r.stdout_bytes == CHINESE.encode("utf-8")
    r = cli("export", "--encoding", "GBK", f)  # GBK is a subset of GB18030: these bytes read the same
    assert r.exit_code == 0 and json.loads(r.stdout)["tags"]["Seat1"] == "张伟"
    r = cli("moves", "--encoding", "gb18030", f, "--at", "0")
    assert r.exit_code == 0 and r.stdout.startswith("after action 0: round 1, a new round: the seat to act leads")
    out = tmp_path / "gb.html"
    r = cli("render", "--encoding", "gb18030", f, "-o", out)
    assert r.exit_code == 0 and "张伟" in out.read_text(encoding="utf-8")
    r = cli("validate", "--encoding", "gb18030", "-", input=GB)  # standard input too
    assert r.exit_code == 0 and "-: hand 1" in r.stdout
    r = cli("validate", "--jobs", "2", "--format", "json", "--encoding", "gb18030", f)  # decoded before the workers
    assert r.exit_code == 0 and json.loads(r.stdout)["valid"] is True
    assert f.read_bytes() == GB  # the input is never changed unless asked


def test_fmt_turns_a_gb18030_file_into_utf8(tmp_path):
    f = tmp_path / "gb.gjn"
    f.write_bytes(GB)
    assert cli("fmt", "--check", "--encoding", "gb18030", f).exit_code == 1  # canonical form is UTF-8
    out = tmp_path / "utf8.gjn"
    assert cli("fmt", "--encoding", "gb18030", f, "-o", out).exit_code == 0
    assert out.read_bytes() == CHINESE.encode("utf-8") and f.read_bytes() == GB
    assert cli("fmt", "--in-place", "--encoding", "gb18030", f).exit_code == 0
    assert f.read_bytes() == CHINESE.encode("utf-8")
    assert cli("fmt", "--check", f).exit_code == 0
    assert cli("validate", "--encoding", "utf-8", f).exit_code == 0  # UTF-8 named is the default


def test_a_gb18030_line_is_quoted_as_gb18030_and_the_option_named(tmp_path):
    f = tmp_path / "gb.gjn"
    f.write_bytes(GB)
    r = cli("validate", f)
    line = HAND.splitlines().index('[Seat1 "Zhang Wei"]') + 1  # 6; the first bad byte is that of 张, column 9
    assert r.exit_code == 2
    assert r.stderr.splitlines() == [
        f"{f}:{line}:9: error[encoding]: not UTF-8 text: byte 0xd5 cannot start a UTF-8 character; "
        "if the file is GB18030, read it with --encoding gb18030",
        f"{line:>5} | [Seat1 \"张伟\"]",
        "      |         ^",
    ]
    # a line that does not read as GB18030 either is quoted as before, with U+FFFD, and no guess
    latin = tmp_path / "latin.gjn"
    latin.write_bytes(SMALL.format(n=1).replace('[Site "?"]', '[Site "café"]').encode("latin-1"))
    r = cli("validate", latin)
    assert r.exit_code == 2 and r.stderr.splitlines()[:2] == [
        f"{latin}:2:11: error[encoding]: not UTF-8 text: byte 0xe9 cannot start a UTF-8 character; save the "
        "file as UTF-8, or read it with --encoding and its encoding (gb18030, big5 …)",
        '    2 | [Site "caf\ufffd"]',
    ]
    assert cli("validate", "-q", "--encoding", "latin-1", latin).exit_code == 0


def test_the_quote_keeps_the_utf8_before_the_bad_byte(tmp_path):
    # a line that is UTF-8 up to a GB18030 word: the caret stands under the first GB18030 character
    f = tmp_path / "mixed.gjn"
    f.write_bytes(HAND.encode("utf-8").replace(b"Zhang Wei", "张伟 ".encode("utf-8") + "王".encode("gb18030")))
    r = cli("validate", f)
    # the caret counts display columns: [Seat1 " 8, 张伟 4 (wide), the space 1
    assert r.stderr.splitlines()[1:3] == ['    7 | [Seat1 "张伟 王"]', "      | " + " " * 13 + "^"]
    assert r.stderr.startswith(f"{f}:7:12: error[encoding]")  # [Seat1 " is 8 characters, 张伟 and a space 3


def test_bytes_that_are_not_in_the_named_encoding_are_located(tmp_path):
    f = tmp_path / "bad.gjn"
    f.write_bytes(GB.replace("张伟".encode("gb18030"), "张伟".encode("gb18030") + b"\xff"))
    r = cli("validate", "--encoding", "gb18030", f)
    assert r.exit_code == 2
    # [Seat1 " is 8 characters, 张伟 2 more: the byte 0xff is character 11
    assert r.stderr.splitlines()[0] == (
        f"{f}:7:11: error[encoding]: not gb18030 text: byte 0xff (illegal multibyte sequence); "
        "is the file in another encoding?"
    )


@pytest.mark.parametrize(
    "name, says",
    [
        ("nope", "unknown encoding 'nope': expected the name of a text encoding, like gb18030, gbk, big5 or utf-8"),
        ("rot13", "unknown encoding 'rot13'"),  # a codec, not a text encoding
        ("utf-16", "encoding 'utf-16' writes ASCII characters as other bytes"),  # lines could not be cut
    ],
)
@pytest.mark.parametrize("command", ["validate", "fmt", "export", "render", "moves", "import"])
def test_an_unknown_encoding_is_one_line_and_exit_2(tmp_path, name, says, command):
    r = cli(command, "--encoding", name, EXAMPLES / "charter-hand.gjn")
    assert r.exit_code == 2
    assert r.stderr == f"Error: Invalid value for '--encoding': {says}" + r.stderr.split(says, 1)[1]
    assert len(r.stderr.splitlines()) == 1


def test_the_python_read_takes_an_encoding(tmp_path):
    import gouji_record as gj

    f = tmp_path / "gb.gjn"
    f.write_bytes(GB)
    assert gj.read(f, encoding="gb18030") == gj.parse(CHINESE)
    with pytest.raises(ValueError, match="unknown encoding 'nope'"):
        gj.read(f, encoding="nope")


# Reading in blocks (issue 29): read_lines and read_hands decode a chunk's lines at once and cut
# hands in them, instead of line by line. The reading must be the one the line-by-line rule gives:
# lines end at LF, CRLF or a lone CR (a CRLF cut by a chunk's end included), each line is decoded
# on its own (files._decode: U+FFFD and a located error at each bad byte), a UTF-8 byte-order mark
# is dropped at the start only, and a UTF-16 one makes the file one line with one error. Chunks of
# a few bytes put block ends everywhere: inside a CRLF, inside a UTF-8 character, inside a tag.
_PIECES = [b"a", b"1:33 ", b"\n", b"\r", b"\r\n", b"[", b"]", b'"', b"{", b"}", b";", b" ", "够".encode(), b"\xff",
           b"\xe5\xa4", b"\xef\xbb\xbf", b"\xff\xfe", b'[Event "x"]\n', b"play\n"]


def _lines_one_by_one(data: bytes):
    """read_lines's rule applied to each line of ``data`` alone: (text, problems) per line."""
    from gouji_record.notation.files import _decode

    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return [("", [("encoding", 1, 1, "UTF-16 text: save the file as UTF-8")])]
    parts = re.split(rb"\r\n|\r|\n", data)
    out = []
    for number, raw in enumerate(parts, start=1):
        if number == len(parts) and not raw:
            break  # the file ended with a line end
        text, problems = _decode(raw.removeprefix(b"\xef\xbb\xbf") if number == 1 else raw, number)
        out.append((text + ("\n" if number < len(parts) else ""), [(p.code, p.line, p.column, p.message) for p in problems]))
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40), st.sampled_from([1, 2, 3, 7, 64, 1 << 16]))
def test_lines_read_in_blocks_read_as_one_by_one(pieces, chunk):
    from gouji_record.notation import files

    data = b"".join(pieces)
    saved, files.CHUNK = files.CHUNK, chunk
    try:
        read = [(t, [(p.code, p.line, p.column, p.message) for p in ps]) for t, ps in files.read_lines(io.BytesIO(data))]
    finally:
        files.CHUNK = saved
    assert read == _lines_one_by_one(data)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40), st.sampled_from([1, 2, 3, 7, 64, 1 << 16]))
def test_hands_cut_in_blocks_are_cut_as_line_by_line(pieces, chunk):
    # the splitter given a block of lines at a time cuts the hands it cuts given one line at a time
    from gouji_record.notation import files

    data = b"[" + b"".join(pieces)  # a first line that is no JSON (a file of JSON is refused first)

    def shown(hands):
        return [(h.index, h.line, h.column, h.text, h.head, h.problem and (h.problem.code, h.problem.line, h.problem.column))
                for h in hands]

    splitter = files._Splitter("f")
    one_by_one = []
    for text, problems in files.read_lines(io.BytesIO(data)):
        one_by_one += splitter.push([text], [problems])
    one_by_one += splitter.finish()
    saved, files.CHUNK = files.CHUNK, chunk
    try:
        blocks = list(read_hands("f", io.BytesIO(data)))
    finally:
        files.CHUNK = saved
    assert shown(blocks) == shown(one_by_one)
