"""gouji events: who did what, every event of each hand located in its file (issue 22).

Values worked out by hand from the records:

examples/charter-hand.gjn (Result 5-6-1-4-3-2; seats 1 Zhang Wei, 2 Wang Fang, 3 Li Na, 4 Zhao Lei,
5 Liu Yang, 6 Chen Jing). Line 25 is ``1. 1:TTTTT {Five tens…``: action 1, seat 1's five tens at
column 4, the smallest 够级 play (002 §9), aimed at seat 4, its opposite. Round 2 is actions 4–15;
round 3 starts at action 16, 4:QQQQ, and action 17 is ``5:*XXKK`` (line 30, column 56): seat 5
burns seat 4's QQQQ (烧牌, 002 §10). Seat 5 plays out at action 22 (round 6), seat 6 at action
45 (round 11), seat 1 at 54 (round 13), seat 4 at 63 (round 15), seat 3 at 69 (round 17), and
seat 2, left holding cards, is placed 6th by that action: the places are the Result tag's. Rounds
1–16 each end with a round-end event (扣牌); round 17 ends with the hand: 16 in all.

examples/charter-hand-illegal.gjn: action 2, ``3:QQQQQ`` on seat 1's TTTTT (line 26, column 30),
is illegal (gouji-not-opposite): the only event before it is action 1's 够级 play.

examples/online-match.gjn, match "Online room 8". Hand 1 ends 3-5-2-4-6-1 and seats 5, 4, 1 and
6 open (tests/test_archive_doc.py lists the rounds): seats 2 and 3 did not, and their opposites
5 and 6 did. Under 000 the tribute is paid smother, burn, point, place (§进贡), so hand 2's six
transfers are: 点贡 2>5:D and 3>6:X (a seat that did not open pays its opposite one card, 000
§点贡), 落贡 1>3:22 (6th pays 1st two cards) and 6>5:D (5th pays 2nd one), then 还贡 3>1:33 and
5>6:3 (the takers give back as many of their lowest cards).
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil

import pytest
from click.testing import CliRunner
from conftest import BAD_CARD_HAND, EXAMPLES

from gouji_record.running.batch import read_records
from gouji_record import replay as judge  # the hand's own verdict: the engine, the Result tag, the purchases
from gouji_record.cli.main import main

HAND = EXAMPLES / "charter-hand.gjn"
ILLEGAL = EXAMPLES / "charter-hand-illegal.gjn"
MATCH = EXAMPLES / "online-match.gjn"
PLACING = ("finish", "placed", "out")


def run(*args):
    return CliRunner().invoke(main, ["events", *map(str, args)])


def rows(*args) -> list[dict]:
    r = run(*args, "--format", "json")
    assert r.exit_code in (0, 1), r.output
    return [json.loads(line) for line in r.stdout.splitlines()]


def at(path, line: int, column: int) -> str:
    """The text of ``path`` from ``line``:``column`` to the end of the token."""
    return path.read_text(encoding="utf-8").splitlines()[line - 1][column - 1 :].split()[0]


def test_the_first_event_is_seat_1s_gouji_play_where_it_is_written():
    first = rows(HAND)[0]
    assert first == {
        "file": str(HAND),
        "hand": 1,
        "action": 1,
        "line": 26,
        "column": 4,
        "round": 1,
        "kind": "gouji",
        "en": "gouji play",
        "zh": "够级",
        "seats": [1, 4],
        "players": ["Zhang Wei", "Zhao Lei"],
        "cards": "TTTTT",
        "place": None,
        "tribute": None,
        "rule": "gouji-play",
        "source": "够级大纲 §9 (第九条 够级牌)",
        "note": "",
        "note_zh": "",
        "code": None,
    }
    assert at(HAND, 26, 4) == "1:TTTTT"
    r = run(HAND)
    assert r.exit_code == 0
    assert r.stdout.splitlines()[0] == (
        f"{HAND}:26:4: hand 1, action 1, round 1: gouji play (够级), seat 1 Zhang Wei, seat 4 Zhao Lei: TTTTT"
        " — gouji-play: 够级大纲 §9 (第九条 够级牌)"
    )


def test_the_places_are_the_result_tags():
    placing = [
        (e["kind"], e["seats"][0], e["place"], e["action"], e["round"]) for e in rows(HAND) if e["kind"] in PLACING
    ]
    assert placing == [
        ("finish", 5, 1, 22, 6),
        ("finish", 6, 2, 45, 11),
        ("finish", 1, 3, 54, 13),
        ("finish", 4, 4, 63, 15),
        ("finish", 3, 5, 69, 17),
        ("placed", 2, 6, 69, 17),
    ]
    result = [s for _, s, *_ in sorted(placing, key=lambda p: p[2])]
    assert "-".join(map(str, result)) == "5-6-1-4-3-2"  # [Result "5-6-1-4-3-2"]
    text = run(HAND).stdout
    placed = "placed at the hand's end (定科), seat 2 Wang Fang, place 6 大落 (6th)"
    assert f"{HAND}:64:5: hand 1, action 69, round 17: {placed} — hand-end: 够级大纲 §3" in text


def test_a_burn_is_listed_with_burner_and_burned_seat_and_kind_filters():
    (burn,) = rows(HAND, "--kind", "burn")
    assert (burn["action"], burn["round"], burn["line"], burn["column"]) == (17, 3, 31, 56)
    assert at(HAND, 31, 56) == "5:*XXKK"
    assert (burn["seats"], burn["players"], burn["cards"]) == ([5, 4], ["Liu Yang", "Zhao Lei"], "XXKK")
    assert burn["rule"] == "burn" and burn["source"].startswith("够级大纲 §10")
    kinds = {e["kind"] for e in rows(HAND, "--kind", "burn", "--kind", "burn-success")}
    assert kinds == {"burn", "burn-success"}
    r = run(HAND, "--kind", "burn")
    assert r.exit_code == 0 and r.stdout == (
        f"{HAND}:31:56: hand 1, action 17, round 3: burn (烧牌), seat 5 Liu Yang, seat 4 Zhao Lei: XXKK"
        " — burn: 够级大纲 §10 (第十条 烧牌)\n"
    )
    # --seat: the events that concern seat 5 include its burn, and none leaves it out
    assert all(5 in e["seats"] for e in rows(HAND, "--seat", "5"))
    assert burn in rows(HAND, "--seat", "4")  # seat 4 was burned


def test_round_end_events_are_in_json_and_csv_and_in_text_on_demand():
    assert sum(e["kind"] == "round-end" for e in rows(HAND)) == 16
    text = run(HAND).stdout
    assert "round won (扣牌)" not in text
    assert run(HAND, "--all").stdout.count("round won (扣牌)") == 16
    assert run(HAND, "--kind", "round-end").stdout.count("\n") == 16


def test_csv_has_the_header_and_the_rows_of_json():
    r = run(HAND, "--format", "csv")
    assert r.exit_code == 0
    table = list(csv.reader(io.StringIO(r.stdout)))
    header = "file hand action line column round kind en zh seats players cards place tribute rule source note note_zh"
    header += " code"
    assert table[0] == header.split()

    def cell(v) -> str:
        return "" if v is None else json.dumps(v, ensure_ascii=False) if isinstance(v, list) else str(v)

    assert table[1:] == [[cell(e[k]) for k in table[0]] for e in rows(HAND)]
    assert table[1][9:11] == ["[1, 4]", '["Zhang Wei", "Zhao Lei"]']


def test_a_matchs_tribute_is_named_by_its_kind():
    gives = [
        (e["hand"], f"{e['seats'][0]}>{e['seats'][1]}:{e['cards']}", e["tribute"], e["zh"], e["round"])
        for e in rows(MATCH, "--kind", "give")
    ]
    hand2 = [g for g in gives if g[0] == 2]
    assert hand2 == [
        (2, "2>5:D", "point", "点贡", None),
        (2, "3>6:X", "point", "点贡", None),
        (2, "1>3:22", "place", "落贡", None),
        (2, "6>5:D", "place", "落贡", None),
        (2, "3>1:33", "return", "还贡", None),
        (2, "5>6:3", "return", "还贡", None),
    ]
    assert not [g for g in gives if g[0] == 1]  # the first hand of a match pays none
    text = run(MATCH, "--kind", "give", "--hand", "2").stdout.splitlines()
    assert len(text) == 6
    assert text[2] == (
        f"{MATCH}:82:13: hand 2, action 3, before play: place tribute (落贡), seat 1 Bot 1, seat 3 Bot 3: 22"
        " — tribute: 联众够级规则 §进贡 (按照闷贡、烧贡、点贡、落贡顺序进贡; 第一回合没有进贡;"
        " 串三户不再进贡)"
    )
    assert at(MATCH, 82, 13) == "1>3:22"


def test_an_illegal_hand_ends_with_its_diagnostic():
    r = run(ILLEGAL, "--format", "json")
    assert r.exit_code == 1
    got = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(e["kind"], e["action"]) for e in got] == [("gouji", 1), ("diagnostic", 2)]
    d = got[-1]
    assert (d["line"], d["column"], d["round"], d["code"], d["seats"], d["players"], d["cards"]) == (
        27, 30, 1, "gouji-not-opposite", [3], ["Li Na"], "QQQQQ"
    )  # fmt: skip
    assert at(ILLEGAL, 27, 30) == "3:QQQQQ" and d["rule"] == "gouji-opposite-only"
    text = run(ILLEGAL)
    assert text.exit_code == 1
    last = text.stdout.splitlines()[-1]
    assert last.startswith(f"{ILLEGAL}:27:30: hand 1, action 2, round 1: error[gouji-not-opposite]: TTTTT by seat 1")
    assert last.endswith(" — gouji-opposite-only: 够级大纲 §9 (第九条 只有对头才有资格上牌)")
    assert run(ILLEGAL, "--kind", "burn").stdout.splitlines() == [last]  # whatever the filters


def test_unreadable_input_is_one_located_error_and_exit_2(tmp_path):
    bad = tmp_path / "bad.gjn"
    bad.write_text(BAD_CARD_HAND, encoding="utf-8")
    r = run(bad, HAND)
    assert r.exit_code == 2 and isinstance(r.exception, SystemExit)
    assert r.stderr.splitlines()[0].startswith(f"{bad}:30:8: error[bad-card]: ")
    assert "Traceback" not in r.output
    assert r.stdout.splitlines()[0].startswith(f"{HAND}:26:4: ")  # the other file is listed
    missing = run(tmp_path / "none.gjn")
    assert missing.exit_code == 2 and missing.stderr.startswith(f"{tmp_path / 'none.gjn'}: error[unreadable]: ")
    assert run(HAND, "--hand", "2").exit_code == 2  # the file has one hand


def test_standard_input_and_another_encoding():
    text = HAND.read_text(encoding="utf-8")
    r = CliRunner().invoke(main, ["events", "-", "--kind", "burn"], input=text.encode("gb18030"))
    assert r.exit_code == 2  # not UTF-8: said, located
    args = ["events", "-", "--kind", "burn", "--encoding", "gb18030"]
    r = CliRunner().invoke(main, args, input=text.encode("gb18030"))
    assert r.exit_code == 0 and r.stdout.startswith("-:31:56: hand 1, action 17, round 3: burn (烧牌)")


# -- every output says the same: the API, the Parquet table, gouji events, the replay page -------


def _same(action, round_, kind, seats, cards, place, rule, note):
    return (action, round_, kind, tuple(seats), cards, place, rule, note or "")


def test_the_api_the_archive_the_command_and_the_page_agree(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    names = sorted(p.name for p in EXAMPLES.glob("*.gjn"))
    paths = [str(tmp_path / "examples" / n) for n in names]
    r = CliRunner().invoke(main, ["export", "--format", "parquet", str(tmp_path / "archive"), *paths])
    assert r.exit_code == 0, r.output
    archived = pq.read_table(tmp_path / "archive" / "events.parquet").to_pylist()
    checked = 0
    for path in paths:
        api = {}
        for read in read_records(path):
            result = judge(read.record)
            api[read.hand.index] = [
                _same(e.number, e.round, e.kind.value, e.seats, e.cards, e.place, e.rule, e.note) for e in result.events
            ]
        table = {
            n: [
                _same(e["action"], e["round"], e["kind"], e["seats"], e["cards"], e["place"], e["rule"], e["note"])
                for e in archived
                if e["file"] == path and e["hand"] == n
            ]
            for n in api
        }
        listed = [e for e in rows(path) if e["kind"] != "diagnostic"]
        command = {
            n: [
                _same(e["action"], e["round"], e["kind"], e["seats"], e["cards"], e["place"], e["rule"], e["note"])
                for e in listed
                if e["hand"] == n
            ]
            for n in api
        }
        page_file = tmp_path / "page.html"
        assert CliRunner().invoke(main, ["render", path, "-o", str(page_file)]).exit_code == 0
        html = page_file.read_text(encoding="utf-8")
        data = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.DOTALL)
        page = {
            n: [
                _same(
                    # the page names each rule by its key, and an event's place and note only when it has one
                    e["action"] + 1, e["round"], e["kind"], e["seats"], e["cards"], e.get("place"), e["rule"],
                    e["note"]["en"] if e.get("note") else "",
                )
                for e in hand["events"]
            ]
            for n, hand in enumerate(json.loads(data.group(1))["hands"], start=1)
        }
        exported = CliRunner().invoke(main, ["export", "--with-verdict", path]).stdout.splitlines()
        export = {
            n: [
                _same(e["action"], e["round"], e["kind"], e["seats"], e["cards"], e["place"], e["rule"], e["note"])
                for e in json.loads(line)["events"]
            ]
            for n, line in enumerate(exported, start=1)
        }
        assert table == api == command == export, path
        drawn = {n: [e for e in evs if e[2] != "round-end"] for n, evs in api.items()}  # the page draws no 扣牌
        assert page == drawn, path
        checked += sum(map(len, api.values()))
    assert checked > 1000


def test_the_json_export_carries_the_verdict_and_import_reads_past_it(tmp_path):
    """export --with-verdict: each hand's verdict as validate gives it (the illegal example: its
    diagnostic at 26:30; a match hand: places and scores) and events, which import ignores: the
    records come back the same."""
    for name in ("charter-hand-illegal.gjn", "charter-match.gjn"):
        path = str(EXAMPLES / name)
        r = CliRunner().invoke(main, ["export", "--with-verdict", path])
        assert r.exit_code == 0
        lines = [json.loads(line) for line in r.stdout.splitlines()]
        checked = [json.loads(line) for line in CliRunner().invoke(main, ["validate", "--format", "json", path]).stdout.splitlines()]
        assert [h["verdict"]["valid"] for h in lines] == [c["valid"] for c in checked]
        for h, c in zip(lines, checked):
            if not c["valid"]:
                assert [(p["code"], p["line"], p["column"]) for p in h["verdict"]["problems"]][0] == (
                    c["error"]["code"], c["error"]["line"], c["error"]["column"]
                )
            else:
                assert h["verdict"]["places"] == c["places"] and h["verdict"]["scores"] == c["scores"]
        out = tmp_path / (name + ".jsonl")
        out.write_text(r.stdout, encoding="utf-8")
        back = CliRunner().invoke(main, ["import", str(out)])
        assert back.exit_code == 0 and back.stdout == CliRunner().invoke(main, ["fmt", path]).stdout
    illegal = json.loads(CliRunner().invoke(main, ["export", "--with-verdict", str(EXAMPLES / "charter-hand-illegal.gjn")]).stdout)
    assert illegal["verdict"]["problems"][0]["code"] == "gouji-not-opposite"  # 3:QQQQQ on seat 1's TTTTT (002 §9)


def test_kind_takes_the_old_spellings_of_filter_with_a_note(tmp_path):
    # issue 38: events --kind and filter --has take one vocabulary, the engine's kinds; seat 2
    # (A down to 6: no joker, no 2, no 3) revolts before play (002 §23), and its opposite seat 5 opens
    f = tmp_path / "revolution.gjn"
    seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
    f.write_text(
        f'[Event "x"][Site "y"][Date "?"][Ruleset "charter"]{seats}[Result "*"]\n'
        "deal 1: ? 2: AAAAKKKKQQQQJJJJTTTT9999888877776666 3: ? 4: ? 5: ? 6: ?\npreplay 2:revolt\nplay\n",
        encoding="utf-8",
    )
    (row,) = rows(f, "--kind", "revolution")
    assert (row["kind"], row["seats"], row["line"], row["column"]) == ("revolution", [2, 5], 3, 9)
    r = run(f, "--format", "json", "--kind", "revolt")
    assert r.exit_code == 0 and [json.loads(line) for line in r.stdout.splitlines()] == [row]
    assert r.stderr == "note: --kind revolt is now spelled revolution (the event kind's name)\n"
    r = run(f, "--kind", "revolted")
    assert r.exit_code == 2 and "'revolted' is not an event kind: expected one of gouji, answer," in r.stderr
