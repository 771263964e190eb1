"""gouji import: what it reads becomes a record that `gouji validate` reads, or it fails with one
located line (exit 2) naming the line of the JSON Lines file and the field; never a traceback."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from gouji_record import parse
from gouji_record.cli.main import main
from gouji_record.formats.interchange import RecordJSONError, json_lines, read_records, records_from_json

from conftest import CASES, EXAMPLES, PLAIN_TAGS as TAGS
from test_eventlog_input import SAMPLES as EVENT_SAMPLES
#: The record of a hand that says nothing but one play, as `gouji export` writes it.
ROW = {"tags": TAGS, "deal": ["?36"] * 6, "preplay": [], "comment": [], "actions": [
    {"seat": 1, "kind": "play", "to": None, "cards": "33", "burn": False, "round": 1, "glyph": None, "nags": [],
     "irregular": False, "comments": []}
]}  # fmt: skip
#: What `gouji import` writes for it.
HAND = '[Notation "gjn 2.4"]\n' + "".join(f'[{k} "{v}"]\n' for k, v in TAGS.items()) + "\ndeal\n" + "".join(
    f"{s}: -\n" for s in range(1, 7)
) + "\nplay\n1. 1:33\n"


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception  # no traceback
    return r


def row(**changes) -> str:
    data = json.loads(json.dumps(ROW))
    for path, value in changes.items():
        *parents, last = path.split("__")
        target = data
        for p in parents:
            target = target[int(p)] if p.isdigit() else target[p]
        target[int(last) if last.isdigit() else last] = value
    return json.dumps(data, ensure_ascii=False)


def imported(tmp_path, text: str, name: str = "in.jsonl"):
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return f, run("import", f)


def assert_refused(tmp_path, text: str, line: int, message: str) -> None:
    f, r = imported(tmp_path, text)
    assert r.exit_code == 2
    assert r.output == f"{f}:{line}:1: error[bad-log]: {message}\n"


def assert_validates(tmp_path, gjn: str) -> None:
    out = tmp_path / "out.gjn"
    out.write_text(gjn, encoding="utf-8")
    assert run("validate", "-q", out).exit_code == 0


# -- the sample inputs ---------------------------------------------------------------------------

SAMPLES = {
    "import-bad-deal.jsonl": (1, "deal: seat 1 is dealt 2 cards: expected 36"),
    "import-bad-glyph-nag.jsonl": (
        1,
        "actions[0].glyph: Input should be '!', '?', '!!', '??', '!?' or '?!', not \"<b>\"",
    ),
    "import-bad-result.jsonl": (
        1,
        'tags: Result \'garbage\': expected the six seats in order of place, like "3-6-1-4-5-2", "*" or "void"',
    ),
    "import-coerced-seat-extra-field.jsonl": (1, "actions[0].seat: Input should be a valid integer, not true"),
    "import-missing-tags.jsonl": (
        1,
        "tags: missing tag Event: every hand needs Event, Site, Date, Round, Ruleset, Seat1, Seat2, Seat3, Seat4, "
        "Seat5, Seat6, Result",
    ),
    "import-tag-newline.jsonl": (
        1,
        "tags.Event: holds a line break (U+000A) at character 2: a tag value is one line of text",
    ),
    **EVENT_SAMPLES,  # the event-log samples: refused by gouji import as by the library
}


@pytest.mark.parametrize("name", list(SAMPLES))
def test_a_sample_is_refused_with_its_line_and_field(name):
    line, message = SAMPLES[name]
    r = run("import", CASES / name)
    assert r.exit_code == 2
    assert r.output == f"{CASES / name}:{line}:1: error[bad-log]: {message}\n"


def test_a_comment_with_a_brace_and_a_line_break_adds_no_action(tmp_path):
    r = run("import", CASES / "import-comment-injection.jsonl")
    assert r.exit_code == 0
    assert r.output == HAND.replace("1. 1:33\n", "1. 1:33 ; } 2:-\n")
    (rec,) = parse(r.output)
    assert len(rec.actions) == 1 and rec.actions[0].comments == ("} 2:-",)
    assert_validates(tmp_path, r.output)


def test_a_raw_u2028_inside_a_json_string_is_kept(tmp_path):
    r = run("import", CASES / "events-raw-u2028-in-string.jsonl")
    assert r.exit_code == 0
    (rec,) = parse(r.output)
    assert rec.tags["Seat1"] == "a\u2028b" and rec.tags["Seat2"] == "Wang Fang"
    assert rec.tags["Result"] == "*" and rec.tags["Options"] == "threes-held=no"
    assert rec.comment == ("Seats 1 3 5 play against seats 2 4 6.",) and rec.actions == ()
    assert_validates(tmp_path, r.output)


@pytest.mark.parametrize("name", ["tag-named-type-export-import.gjn", "tag-u2028-export-import.gjn"])
def test_export_then_import_gives_the_record_back(tmp_path, name):
    out = tmp_path / "hands.jsonl"
    assert run("export", CASES / name, "-o", out).exit_code == 0
    r = run("import", out)
    assert r.exit_code == 0
    assert parse(r.output) == parse((CASES / name).read_text(encoding="utf-8"))


def test_a_tag_value_with_nel_is_refused_before_export():
    name = CASES / "tag-nel-export-import.gjn"
    r = run("export", name)
    assert r.exit_code == 2
    assert r.output.startswith(
        f"{name}:6:2: error[bad-tag]: tag Seat1 holds a line break (U+0085) at character 2: "
        "a tag value is one line of text\n"
    )



def test_a_transfer_to_the_giving_seat_is_refused_before_export():
    """``1>1:K`` (line 26) validated, then export wrote what import refused (issue 38): every reader
    refuses it now, as the record model does (tests/test_one_reading.py has the kind)."""
    name = CASES / "self-transfer-export-import.gjn"
    message = f"{name}:26:1: error[syntax]: transfer 1>1: a transfer goes from one seat to another, not from seat 1 to itself"
    for command in ("validate", "export"):
        r = run(command, name)
        assert r.exit_code == 2 and r.output.startswith(message + "\n")

# -- record JSON: strict, located ------------------------------------------------------------------


def test_a_record_imports(tmp_path):
    f, r = imported(tmp_path, "\n" + row() + "\n\n")
    assert r.exit_code == 0 and r.output == HAND


GLYPHS = "Input should be '!', '?', '!!', '??', '!?' or '?!'"
BAD_RECORDS = [
    (row(actions__0__seat=True), "actions[0].seat: Input should be a valid integer, not true"),
    (row(actions__0__seat="1"), 'actions[0].seat: Input should be a valid integer, not "1"'),
    (row(actions__0__seat=1.0), "actions[0].seat: Input should be a valid integer, not 1.0"),
    (row(actions__0__burn=0), "actions[0].burn: Input should be a valid boolean, not 0"),
    (row(actions__0__nags=[-1]), "actions[0].nags[0]: Input should be greater than or equal to 0, not -1"),
    (row(actions__0__nags=[256]), "actions[0].nags[0]: Input should be less than or equal to 255, not 256"),
    (row(actions__0__glyph="!!!"), f'actions[0].glyph: {GLYPHS}, not "!!!"'),
    (row(actions__0__glyph=" {x} 2:55"), f'actions[0].glyph: {GLYPHS}, not " {{x}} 2:55"'),
    (row(actions__0__round=0), "actions[0].round: Input should be greater than or equal to 1, not 0"),
    (
        row(actions__0__kind="revolt", actions__0__cards=""),
        "actions: action 0 is a revolt: the play section holds plays, passes, yields, wind and claim; "
        "declarations and transfers go in preplay",
    ),
    (row(actions__0__bogus=1), "actions[0].bogus: Extra inputs are not permitted"),
    (row(extra_field="x"), "extra_field: Extra inputs are not permitted"),
    (
        row(tags__White_Elo="1").replace("White_Elo", "White Elo"),
        "tags.White Elo (the name): tag name 'White Elo': expected letters, digits and _, starting with a letter",
    ),
    (
        row(tags__Site="Qing\u0085dao"),
        "tags.Site: holds a line break (U+0085) at character 5: a tag value is one line of text",
    ),
    (
        row(tags__Date="2026.13.01"),
        'tags: Date \'2026.13.01\': expected YYYY.MM.DD, with ? for unknown parts ("2026.11.??"), or "?"',
    ),
    (
        row(tags__Ruleset="chess"),
        "tags.Ruleset: unknown ruleset 'chess': expected one of online, classic, charter, fours, tournament",
    ),
    (row(comment=["ok", "a\u0000"]), "comment[1]: holds a control character (U+0000) at character 2: a comment is printable text"),
    (
        row(actions__0__comments=["\ud800"]).replace("\ud800", "\\ud800"),
        "actions[0].comments[0]: holds a lone surrogate (U+D800) at character 1: a .gjn file cannot hold it",
    ),
    ('{"tags": {"Event": "a", "Event": "b"}}', "key 'Event' is given twice: expected each key once"),
    ("[" * 100_000 + "]" * 100_000, "JSON nested too deeply to read: expected one flat JSON object per line"),
    ('{"tags": ' + "7" * 5000 + "}", "a number of more than 4300 digits: expected one JSON object per line"),
    ('"tags"', 'a JSON string, not an object: expected a record like {"tags": …, "deal": …}'),
    (
        "{tags}",
        "not JSON (Expecting property name enclosed in double quotes at column 2): expected one JSON object per line",
    ),
]


@pytest.mark.parametrize(("line", "message"), BAD_RECORDS)
def test_a_bad_record_is_refused_with_its_line_and_field(tmp_path, line, message):
    # the bad record on line 3, after a good one and a blank line
    assert_refused(tmp_path, row() + "\n\n" + line + "\n", 3, message)


def test_bad_options_are_refused(tmp_path):
    f, r = imported(tmp_path, row(tags__Options="threes-held") + "\n")
    assert r.exit_code == 2 and r.output.startswith(f"{f}:1:1: error[bad-log]: tags.Options: ")


def test_json_lines_are_split_at_newline_only(tmp_path):
    # U+0085 in a comment is white space: folded to a space, as the reader folds it
    text = row(tags__Seat1="a\u2028b\u2029c", actions__0__comments=["x\x85y"])
    assert len(text.splitlines()) == 4  # where str.splitlines would cut the line
    f, r = imported(tmp_path, text + "\r\n")
    assert r.exit_code == 0
    (rec,) = parse(r.output)
    assert rec.tags["Seat1"] == "a\u2028b\u2029c" and rec.actions[0].comments == ("x y",)
    assert json_lines("a\u2028b\r\nc\x85d\n") == ["a\u2028b", "c\x85d", ""]


def test_the_format_is_told_by_the_first_objects_keys(tmp_path):
    # a player or tag named "type" used to make a record look like an event log
    text = row(tags__Seat1="type", tags__type='"type"')
    f, r = imported(tmp_path, text + "\n")
    assert r.exit_code == 0
    (rec,) = parse(r.output)
    assert rec.tags["Seat1"] == "type" and rec.tags["type"] == '"type"'
    # and an event log whose first event spells its keys in another order is still one
    start = {"names": list("abcdef"), "ruleset": "charter", "type": "start_hand"}
    events = [json.dumps(start), json.dumps({"hands": ["Z"] * 6, "type": "deal"})]
    f, r = imported(tmp_path, "\n".join(events) + "\n")
    assert r.exit_code == 2
    assert r.output == (
        f"{f}:2:1: error[bad-log]: \"hands\"[0] (seat 1) 'Z', at character 1: "
        "'Z' is not a card: expected one of 3-9 T J Q K A 2 X D (or 10)\n"
    )


def test_read_records_and_records_from_json_as_a_library():
    assert read_records("") == [] and read_records("\n  \n") == []
    (rec,) = records_from_json(row(), source="x.jsonl")
    assert rec.tags == TAGS and rec.actions[0].cards == "33"
    with pytest.raises(RecordJSONError) as e:
        read_records("\n" + row(deal=["33"] * 6), "x.jsonl")
    assert str(e.value) == "x.jsonl:2: deal: seat 1 is dealt 2 cards: expected 36"
    assert isinstance(e.value, ValueError) and e.value.line == 2
    with pytest.raises(RecordJSONError) as e:  # the first object, read to tell the format, is not JSON
        read_records("\n\n{tags", "x.jsonl")
    assert str(e.value).startswith("x.jsonl:3: not JSON (")


def test_a_gjn_file_given_to_import_is_named_as_such(tmp_path):
    # the failing input: gouji import examples/charter-hand.gjn said "not JSON (Expecting value …)"
    r = CliRunner().invoke(main, ["import", str(EXAMPLES / "charter-hand.gjn")])
    assert r.exit_code == 2
    assert "1:1: error[bad-log]: this is a .gjn record (it starts with a tag), not JSON: gouji validate" in r.output


def test_a_gb18030_log_is_located_quoted_and_read_with_encoding(tmp_path):
    # issue 15: a log saved by a Chinese platform in GB18030; the bad byte is the first of 张 on line 1
    f = tmp_path / "gb.jsonl"
    f.write_bytes(row(tags__Seat1="张伟").encode("gb18030") + b"\n")
    r = run("import", f)
    assert r.exit_code == 2
    column = row(tags__Seat1="张伟").index("张") + 1
    assert r.stderr.splitlines()[0] == (
        f"{f}:1:{column}: error[encoding]: not UTF-8 text: byte 0xd5 cannot start a UTF-8 character; "
        "if the file is GB18030, read it with --encoding gb18030"
    )
    assert "张伟" in r.stderr.splitlines()[1]  # the line quoted as GB18030, not as U+FFFD
    r = run("import", "--encoding", "gb18030", f)
    assert r.exit_code == 0 and r.output == HAND.replace('[Seat1 "a"]', '[Seat1 "张伟"]')


# -- hands not known (issue 15): "a platform log that gives only the plays" ---------------------------


def test_an_event_log_of_plays_only_imports_and_validates(tmp_path):
    start = {"type": "start_hand", "ruleset": "charter", "names": list("abcdef")}
    events = [start, {"type": "play", "seat": 1, "cards": "33"}]
    f, r = imported(tmp_path, "\n".join(json.dumps(e) for e in events) + "\n")
    assert r.exit_code == 0 and r.output == HAND  # the same hand as the record JSON above: six "-" hands
    assert_validates(tmp_path, r.output)


def test_an_event_log_with_partly_known_hands_imports_and_validates(tmp_path):
    start = {"type": "start_hand", "ruleset": "charter", "names": list("abcdef")}
    deal = {"type": "deal", "hands": ["33 KK ?", None, "", "-", "?", "?36"]}
    events = [start, deal, {"type": "play", "seat": 1, "cards": "33"}, {"type": "end_hand", "result": "*"}]
    f, r = imported(tmp_path, "\n".join(json.dumps(e) for e in events) + "\n")
    assert r.exit_code == 0
    assert r.output == HAND.replace("1: -\n", "1: KK33 ?32\n")  # strongest first; 4 known, 32 not
    assert_validates(tmp_path, r.output)


def test_record_json_without_a_deal_or_with_the_rest_unknown_imports(tmp_path):
    data = json.loads(row())
    del data["deal"]
    f, r = imported(tmp_path, json.dumps(data) + "\n")
    assert r.exit_code == 0 and r.output == HAND
    f, r = imported(tmp_path, row(deal__0="33KK?") + "\n")  # ? alone: the rest, as in a file's deal
    assert r.exit_code == 0 and r.output == HAND.replace("1: -\n", "1: KK33 ?32\n")
    assert_validates(tmp_path, r.output)
    # a short hand without ? is still refused: record JSON says what it means
    assert_refused(tmp_path, row(deal__0="33KK") + "\n", 1, "deal: seat 1 is dealt 4 cards: expected 36")
