"""The notation's versions (docs/notation.md, section 8): the Notation tag read, refused and written,
files of version 1 read as they were meant (bare purchases), the schema's name, the media type."""

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from pydantic import ValidationError

from gouji_record import GameRecord, parse, write, write_all
from gouji_record.cli.main import main
from gouji_record.judging.legacy import read_as_written
from gouji_record.notation import NotationError, parse_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
NOTATION_MD = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
MIME_XML = ROOT / "data" / "gouji-record-gjn.xml"
SEATS = "\n".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))


def hand(ruleset: str, preplay: str, head: str = "", options: str = "") -> str:
    """A hand with nothing known of the deal and no play: tags on lines 1-12, a blank line,
    ``preplay`` on line 14 and its items on line 15 (each a line further with ``head``, a line
    before the tags)."""
    tags = f'[Event "x"]\n[Site "?"]\n[Date "?"]\n[Round "?"]\n[Ruleset "{ruleset}"]\n{SEATS}\n[Result "*"]\n'
    if options:
        tags += f'[Options "{options}"]\n'
    return (head + "\n" if head else "") + tags + f"\npreplay\n{preplay}\n\nplay\n"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def given(preplay) -> list[tuple[str, str | None]]:
    return [(a.text, a.purpose) for a in preplay]


# --- the marker ------------------------------------------------------------------------------


def test_the_writer_writes_the_version_first_in_every_hand():
    records = parse((EXAMPLES / "charter-match.gjn").read_text(encoding="utf-8"))
    text = write_all(records)
    hands = text.split("\n\n[")
    assert len(hands) == len(records) == 3
    assert all(h.removeprefix("[").startswith('Notation "gjn 2.4"]\n[Event "') for h in hands)
    assert text.count('[Notation "gjn 2.4"]') == 3


def test_the_reader_reads_the_version_and_keeps_it_out_of_the_record():
    text = hand("fours", "1:natural", head='[Notation "gjn 2.3"]')
    (record, where), = parse_text(text)
    assert "Notation" not in record.tags and where.version == (2, 3) and where.tags["Notation"] == (1, 2)
    assert parse(write(record)) == [record]
    # anywhere among the tags, as any tag
    (record2, where2), = parse_text(text.replace('[Notation "gjn 2.3"]\n', "").replace('[Result "*"]', '[Result "*"]\n[Notation "gjn 2.0"]'))
    assert record2 == record and where2.version == (2, 0)


def test_a_major_version_not_known_is_refused_in_one_located_line(tmp_path):
    path = tmp_path / "future.gjn"
    path.write_text(hand("fours", "1:natural", head='[Notation "gjn 3.0"]'), encoding="utf-8")
    r = run("validate", str(path))
    assert r.exit_code == 2 and "Traceback" not in r.output
    first = r.output.splitlines()[0]
    assert first.startswith(f"{path}:1:2: error[notation-version]: ")
    assert 'expected "gjn 1.N" or "gjn 2.N"' in first and "gjn 3" in first
    # a version 1 and a version 2 both read
    for value in ("gjn 1.0", "gjn 1.3", "gjn 2.0", "gjn 2.3"):
        assert parse(hand("fours", "1:natural", head=f'[Notation "{value}"]'))


@pytest.mark.parametrize("value", ["2.3", "gjn 2", "GJN 2.3", "gjn 2.3.1", "gjn two", ""])
def test_a_version_not_written_major_dot_minor_is_a_bad_tag(value):
    with pytest.raises(NotationError) as e:
        parse_text(hand("fours", "1:natural", head=f'[Notation "{value}"]'))
    assert (e.value.code, e.value.line, e.value.column) == ("bad-tag", 1, 2)
    assert 'expected "gjn MAJOR.MINOR"' in e.value.message


def test_the_version_given_twice_is_a_duplicate_tag():
    text = hand("fours", "1:natural", head='[Notation "gjn 2.3"]').replace('[Result "*"]', '[Result "*"]\n[Notation "gjn 2.3"]')
    with pytest.raises(NotationError) as e:
        parse_text(text)
    assert (e.value.code, e.value.line) == ("duplicate-tag", 14)


def test_a_later_minor_version_reads_silently_and_is_named_under_an_error():
    plain = hand("tournament", "buy 1>4:2 4>1:3")
    later = hand("tournament", "buy 1>4:2 4>1:3", head='[Notation "gjn 2.9"]')
    assert parse(later) == parse(plain)
    r = CliRunner().invoke(main, ["validate", "-"], input=later)
    assert r.exit_code == 0 and "gjn 2.9" not in r.output  # no warning
    with pytest.raises(NotationError) as e:
        parse_text(later.replace("\nplay\n", "\nplay\n1:33 newthing\n"))
    assert (e.value.code, e.value.line, e.value.column) == ("syntax", 19, 6)
    assert e.value.message.endswith("; the hand follows gjn 2.9, later than this reader's gjn 2.4: a later gouji-record may read it")
    with pytest.raises(NotationError) as e:  # the reader's own version: no such note
        parse_text(later.replace("gjn 2.9", "gjn 2.3").replace("\nplay\n", "\nplay\n1:33 newthing\n"))
    assert "later than" not in e.value.message


def test_a_record_never_holds_the_version_tag():
    tags = {"Event": "x", "Site": "?", "Date": "?", "Ruleset": "fours", "Result": "*", "Notation": "gjn 2.3"}
    tags |= {f"Seat{s}": f"p{s}" for s in range(1, 7)}
    with pytest.raises(ValidationError, match="Notation"):
        GameRecord(tags=tags)


# --- version 1: purchases without a word -------------------------------------------------------


def test_a_bare_purchase_of_version_1_is_a_purchase_the_card_written_first():
    # fours buys 3s with a 2 (buy-price=two) and returns no tribute: 4>1:3 1>4:2 is seat 1 buying a 3
    (record, where), = parse_text(hand("fours", "4>1:3 1>4:2"), reading=read_as_written)
    assert given(record.preplay) == [("buy 1>4:2", "buy"), ("buy 4>1:3", "buy")]
    assert where.actions == [(15, 7), (15, 1)]  # each transfer where it is written
    # the price first: the same purchase
    assert parse(hand("fours", "1>4:2 4>1:3"))[0].preplay == record.preplay
    # fmt writes the word, and the version
    r = CliRunner().invoke(main, ["fmt", "-"], input=hand("fours", "4>1:3 1>4:2"))
    assert r.exit_code == 0 and r.output.startswith('[Notation "gjn 2.4"]\n') and "\nbuy 1>4:2 4>1:3\n" in r.output
    assert parse(r.output) == [record]


def test_a_bare_purchase_is_judged_by_the_rules_of_buying(tmp_path):
    # under fours the price is a 2 (003 §开点 "对手之间要用2买"): a joker is a wrong price; read as tribute
    # in a hand on its own, the same text went unchecked
    path = tmp_path / "old.gjn"
    path.write_text(hand("fours", "4>1:3 1>4:X"), encoding="utf-8")
    r = run("validate", str(path))
    assert r.exit_code == 1
    assert r.output.splitlines()[0] == f"{path}:15:7: error[buy-wrong]: buying a 3 (买三) costs one 2, not 1>4:X"
    path.write_text(hand("fours", "4>1:3 1>4:X", head='[Notation "gjn 2.3"]'), encoding="utf-8")
    assert run("validate", str(path)).exit_code == 0


def test_an_old_match_reads_as_the_same_match_with_buy_written():
    # the example match with each purchase written as version 1 wrote it: no word, the card first
    text = (EXAMPLES / "fours-match.gjn").read_text(encoding="utf-8")
    assert text.count("\nbuy ") == 2
    old = re.sub(r"^buy (\d)>(\d):(\S+) (\d)>(\d):(\S+)$", r"\4>\5:\6 \1>\2:\3", text, flags=re.M)
    old = old.replace('[Notation "gjn 2.4"]\n', "")
    assert "\n4>1:3 1>4:2\n" in old and "\n2>1:4 1>2:2\n" in old and "buy" not in old
    assert parse(old) == parse(text)
    stdin = CliRunner().invoke(main, ["validate", "-"], input=old)
    assert stdin.exit_code == 0
    # marked as version 2, the same transfers are tribute, and no tribute is owed before them
    marked = old.replace("[Event ", '[Notation "gjn 2.3"]\n[Event ')
    r = CliRunner().invoke(main, ["validate", "-"], input=marked)
    assert r.exit_code == 1
    assert "-:84:1: error[tribute-extra]: 4>1:3 is not owed by the last hand" in r.output
    assert "-:146:1: error[tribute-extra]: 2>1:4 is not owed by the last hand" in r.output


def test_concatenated_files_keep_each_hands_version():
    old = hand("fours", "4>1:3 1>4:2")
    new = hand("fours", "4>1:3 1>4:2", head='[Notation "gjn 2.3"]')
    first, second = parse(new + "\n" + old)
    assert given(first.preplay) == [("4>1:3", None), ("1>4:2", None)]  # tribute, as 2.3 reads it
    assert given(second.preplay) == [("buy 1>4:2", "buy"), ("buy 4>1:3", "buy")]


def test_where_version_1_reads_bare_transfers_as_written():
    # online returns tribute (还贡): a 2 paid and a 3 returned reads as tribute and its return, even
    # where its rules buy 3s (threes-held); so under charter
    for ruleset, options in (("online", ""), ("online", "threes-held=yes"), ("charter", "threes-held=yes")):
        record = parse(hand(ruleset, "5>2:2 2>5:3", options=options))[0]
        assert given(record.preplay) == [("5>2:2", None), ("2>5:3", None)]
    # a hand that writes buy is of version 2: its bare transfers are tribute
    record = parse(hand("fours", "buy 2>5:2 5>2:3 4>1:3 1>4:2"))[0]
    assert given(record.preplay)[2:] == [("4>1:3", None), ("1>4:2", None)]
    # marked version 1, a pair reads as a purchase all the same
    record = parse(hand("fours", "4>1:3 1>4:2", head='[Notation "gjn 1.3"]'))[0]
    assert [p for _, p in given(record.preplay)] == ["buy", "buy"]
    # not the shape of a purchase: two cards, a price that is no 2 or joker, two seats not the same
    for preplay in ("4>1:33 1>4:2", "4>1:3 1>4:A", "4>1:3 2>4:2", "4>1:3 1>4:22"):
        assert all(p is None for _, p in given(parse(hand("fours", preplay))[0].preplay))
    # 4s are bought only where 4s open (fours, tournament); classic buys no 4
    assert all(p is None for _, p in given(parse(hand("classic", "4>1:4 1>4:2", options="threes-held=yes"))[0].preplay))
    assert [p for _, p in given(parse(hand("classic", "4>1:3 1>4:2", options="threes-held=yes"))[0].preplay)] == ["buy", "buy"]


def test_a_lone_3_or_4_of_version_1_is_a_gift_where_the_rules_give():
    # tournament gives a 3 or a 4 (赠与, 004 §24); fours has no gifts
    assert given(parse(hand("tournament", "4>1:3"))[0].preplay) == [("gift 4>1:3", "gift")]
    assert given(parse(hand("fours", "4>1:3"))[0].preplay) == [("4>1:3", None)]
    # tribute paid with a 2 stays tribute
    assert given(parse(hand("tournament", "4>1:2"))[0].preplay) == [("4>1:2", None)]


def test_a_hand_whose_ruleset_does_not_read_is_read_as_written():
    record = parse(hand("nosuch", "4>1:3 1>4:2"))[0]
    assert given(record.preplay) == [("4>1:3", None), ("1>4:2", None)]



#: What a fresh interpreter makes of a hand of gjn 1 with a bare purchase (fours: 4>1:3 1>4:2,
#: seat 1 buying a 3), first with the notation layer alone imported, then with the rules too.
FRESH = """
import json, sys
from gouji_record.notation import NotationError, parse_text
out = {"imported": sorted(m for m in sys.modules if m.startswith(("gouji_record.judging", "gouji_record.rules")))}
def read(**kw):
    try:
        return [a.text for a in parse_text(sys.argv[1], **kw)[0][0].preplay]
    except NotationError as e:
        return [e.code, e.line, e.column]
out["alone"] = read()
import gouji_record.judging.legacy, gouji_record as gj
out["after judging"] = read()
out["given the reading"] = read(reading=gouji_record.judging.legacy.read_as_written)
out["gj.parse"] = [a.text for a in gj.parse(sys.argv[1])[0].preplay]
print(json.dumps(out))
"""


def test_a_hand_of_version_1_reads_the_same_whatever_is_imported():
    """notation/version.LEGACY_READING was a list that importing ``judging`` filled, so this hand
    read as tribute before that import and as a purchase after it (issue 38). The reading is an
    argument now: without it the notation layer refuses the hand, located at its first bare
    transfer (line 15, column 1), before and after the import alike; with it, and through the API,
    the hand is seat 1 buying a 3 (docs/notation.md §8.2)."""
    r = subprocess.run([sys.executable, "-c", FRESH, hand("fours", "4>1:3 1>4:2")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {
        "imported": [],
        "alone": ["notation-version", 15, 1],
        "after judging": ["notation-version", 15, 1],
        "given the reading": ["buy 1>4:2", "buy 4>1:3"],
        "gj.parse": ["buy 1>4:2", "buy 4>1:3"],
    }


def test_without_the_reading_a_hand_of_version_1_is_refused_saying_how_to_read_it():
    with pytest.raises(NotationError) as e:
        parse_text(hand("tournament", "1:natural 4>1:3"))
    assert (e.value.code, e.value.line, e.value.column) == ("notation-version", 15, 11)
    assert e.value.message.startswith("transfer 4>1:3: a hand of gjn 1 (no Notation tag, no buy or gift)")
    assert "gouji_record.judging.legacy.read_as_written" in e.value.message
    # a hand of version 2, or of version 1 without a bare transfer, needs no reading
    assert parse_text(hand("tournament", "4>1:3", head='[Notation "gjn 2.4"]'))[0][0].preplay[0].purpose is None
    assert parse_text(hand("tournament", "gift 4>1:3 1:natural"))[0][0].preplay[0].purpose == "gift"
    assert parse_text(hand("tournament", "1:natural"))[0][0].preplay[0].kind.value == "natural"

# --- the schema, the docs, the media type ------------------------------------------------------


def test_the_schema_names_itself_and_the_version():
    schema = json.loads(run("schema").output)
    assert schema["$id"] == "urn:gouji-record:schema:record:gjn-2.4"
    assert schema["version"] == "gjn 2.4"
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] == "GameRecord"
    assert f'`"$id": "{schema["$id"]}"`' in NOTATION_MD


def test_the_docs_give_the_version_its_changelog_and_promise():
    assert NOTATION_MD.startswith("# The 够级 game notation (`.gjn`), version 2.4\n")
    versions = NOTATION_MD.split("## 8. Versions", 1)[1].split("## 9.", 1)[0]
    rows = re.findall(r"^\| \**(\d+\.\d+)\** \| (\d{4}-\d\d-\d\d) \|", versions, flags=re.M)
    assert [v for v, _ in rows] == ["1.0", "1.1", "1.2", "1.3", "2.0", "2.1", "2.2", "2.3", "2.4"]
    assert [d for _, d in rows] == sorted(d for _, d in rows)
    assert "### 8.4 The promise" in versions and "`buy` and `gift`" in versions


def _mime_type_in_docs() -> str:
    section = NOTATION_MD.split("## 9. Media type and file association", 1)[1]
    return re.search(r"\*\*`([a-z]+/[a-z.+-]+)`\*\*", section).group(1)


def test_the_shared_mime_info_entry_names_the_glob_and_the_type_the_docs_name():
    ns = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    root = ET.parse(MIME_XML).getroot()  # well-formed, or this raises
    assert root.tag == "{http://www.freedesktop.org/standards/shared-mime-info}mime-info"
    [entry] = root.findall("m:mime-type", ns)
    assert entry.get("type") == _mime_type_in_docs() == "application/vnd.gouji-gjn"
    assert [g.get("pattern") for g in entry.findall("m:glob", ns)] == ["*.gjn"]
    assert entry.find("m:sub-class-of", ns).get("type") == "text/plain"
    values = [m.get("value") for m in entry.findall("m:magic/m:match", ns)]
    assert values == ['[Notation "gjn ', r'\357\273\277[Notation "gjn ']
    # the magic matches the first bytes the writer writes
    record = parse((EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8"))[0]
    assert write(record).startswith(values[0])
    assert "xdg-mime install --mode user data/gouji-record-gjn.xml" in NOTATION_MD


@pytest.mark.skipif(not (shutil.which("update-mime-database") and shutil.which("xdg-mime")), reason="no shared-mime-info")
def test_a_desktop_that_installs_the_entry_knows_gjn_files_by_name_and_by_their_first_line(tmp_path):
    data = tmp_path / "share"
    (data / "mime" / "packages").mkdir(parents=True)
    shutil.copy(MIME_XML, data / "mime" / "packages")
    subprocess.run(["update-mime-database", str(data / "mime")], check=True, capture_output=True)
    named = tmp_path / "a.gjn"
    named.write_text("anything\n", encoding="utf-8")
    unnamed = tmp_path / "record"
    shutil.copy(EXAMPLES / "charter-hand.gjn", unnamed)
    env = {"PATH": "/usr/bin:/bin", "XDG_DATA_DIRS": str(data), "XDG_DATA_HOME": str(data), "HOME": str(tmp_path)}
    for path in (named, unnamed):
        out = subprocess.run(["xdg-mime", "query", "filetype", str(path)], env=env, capture_output=True, text=True)
        assert out.stdout.strip() == "application/vnd.gouji-gjn", out.stderr


# -- gjn 2.4: an empty preplay section, and refusals -------------------------------------------

BUY_MISSING = (ROOT / "conformance" / "invalid" / "buy-missing.gjn").read_text(encoding="utf-8")


def _validate_and_roundtrip(tmp_path, text):
    """validate's verdict of ``text``, of ``fmt``'s output and of ``export`` then ``import``: the codes
    of the first problem of each hand (None for a valid hand)."""
    src = tmp_path / "in.gjn"
    src.write_text(text, encoding="utf-8")

    def verdict(path):
        r = run("validate", "--format", "json", str(path))
        rows = [json.loads(line) for line in r.output.splitlines() if line.startswith("{")]
        return [(row.get("error") or (row.get("match_errors") or [{}])[0]).get("code") for row in rows]

    assert run("fmt", str(src), "-o", str(tmp_path / "fmt.gjn")).exit_code == 0
    assert run("export", str(src), "-o", str(tmp_path / "x.jsonl")).exit_code == 0
    back = run("import", str(tmp_path / "x.jsonl"))
    (tmp_path / "back.gjn").write_text(back.output, encoding="utf-8")
    return verdict(src), verdict(tmp_path / "fmt.gjn"), verdict(tmp_path / "back.gjn"), back.output


def test_an_empty_preplay_section_says_nothing_happened_from_2_4_on(tmp_path):
    # 000 §买三 "如果所持牌中無3者必须无条件用钱…向对头买1张3": seat 1 (no 3, a 2) must buy from seat 4
    # (33 and more). Written with a preplay section that has no purchase, the record says it made none:
    # buy-missing (conformance buy-missing: after 5:call, action 2)
    without_call = BUY_MISSING.replace("preplay\n5:call\n", "preplay\n")
    assert without_call != BUY_MISSING
    # gjn 2.4, the section written empty: nothing happened before play, so buy-missing at action 1
    assert _validate_and_roundtrip(tmp_path, without_call)[:3] == (["buy-missing"],) * 3
    # no section at all: the record does not say (as every version before 2.4 read it): valid
    no_section = BUY_MISSING.replace("\npreplay\n5:call\n", "")
    verdicts = _validate_and_roundtrip(tmp_path, no_section)
    assert verdicts[:3] == ([None],) * 3 and "\npreplay\n" not in verdicts[3]
    # gjn 2.3 with the section written empty: read as it was, as none; fmt and export keep that
    # (they write 2.4 with no section, which means the same), so the verdict is kept
    old = without_call.replace('[Notation "gjn 2.4"]', '[Notation "gjn 2.3"]')
    verdicts = _validate_and_roundtrip(tmp_path, old)
    assert verdicts[:3] == ([None],) * 3 and '[Notation "gjn 2.4"]' in verdicts[3] and "\npreplay\n" not in verdicts[3]
    # the 2.4 empty section is kept by the writer and in JSON
    records = parse(without_call)
    assert records[0].empty_preplay and "\npreplay\n" in write(records[0]) and parse(write(records[0])) == records
    assert GameRecord.model_validate_json(records[0].model_dump_json()) == records[0]
    with pytest.raises(ValidationError, match="empty_preplay"):  # "nothing happened" and a declaration
        GameRecord.model_validate({**records[0].model_dump(), "preplay": [{"seat": 5, "kind": "call"}]})


def test_a_refusal_keeps_its_verdict_through_fmt_and_json(tmp_path):
    # conformance valid/refuse-return (002 §21(4)) and invalid/refuse-tribute: fmt and export→import
    # keep the refusal and the verdict
    for name, want in (("valid/refuse-return.gjn", [None, None]), ("invalid/refuse-tribute.gjn", [None, "refusal-not-allowed"])):
        text = (ROOT / "conformance" / name).read_text(encoding="utf-8")
        src, fmt, back, output = _validate_and_roundtrip(tmp_path, text)
        assert src == fmt == back == want, name
        assert "refuse " in output


def test_a_hand_without_a_marker_that_writes_refuse_is_of_version_2():
    # §8.1: with no marker, a hand that writes a word of 2.x (buy, gift, refuse) is of version 2, so its
    # bare pair 4>1:3 1>4:2 is tribute and its return, not the purchase gjn 1 would read (§8.2)
    (record, _), = parse_text(hand("fours", "4>1:3 1>4:2 refuse 2>5:D"), reading=read_as_written)
    assert [(a.plain_text, a.purpose) for a in record.preplay] == [("4>1:3", None), ("1>4:2", None), ("2>5:D", "refuse")]
    (old, _), = parse_text(hand("fours", "4>1:3 1>4:2"), reading=read_as_written)
    assert [a.purpose for a in old.preplay] == ["buy", "buy"]
