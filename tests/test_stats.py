"""gouji stats: counts over many hands, worked out by hand from the example records.

examples/charter-hand.gjn ends 5-6-1-4-3-2 (seat 5 Liu Yang 头科 … seat 2 Wang Fang 大落), team 1-3-5
scoring 2 and team 2-4-6 0 (002 §20); seats 4, 5 and 6 open (开点); seat 5 burns seat 4's play and the
burn succeeds; seat 4 answers seat 1's opening TTTTT with JJJJJ (打点).

examples/online-match.gjn: three hands, results 3-5-2-4-6-1, 2-4-5-6-1-3, 3-6-5-1-2-4, team scores
1/-1, -3/3, 2/-2. Tribute (overview): hand 2 pays 2>5:D 3>6:X 1>3:22 6>5:D 3>1:33 5>6:3, hand 3 pays
6>3:X 3>2:D2 1>4:X 2>3:33 4>1:3.
"""

from __future__ import annotations

import csv
import io
import json

from click.testing import CliRunner
from conftest import EXAMPLES

from gouji_record.cli import main


def run(*args):
    return CliRunner().invoke(main, ["stats", *map(str, args)])


def rows(*args):
    r = run(*args, "--format", "json")
    assert r.exit_code == 0, r.output
    return {row["key"]: row for row in json.loads(r.output)}


def test_one_hand_per_player():
    got = rows(EXAMPLES / "charter-hand.gjn")
    places = {name: row["places"].index(1) + 1 for name, row in got.items()}
    assert places == {"Liu Yang": 1, "Chen Jing": 2, "Zhang Wei": 3, "Zhao Lei": 4, "Li Na": 5, "Wang Fang": 6}
    assert {name: row["points"] for name, row in got.items()} == {
        "Zhang Wei": 2, "Li Na": 2, "Liu Yang": 2, "Wang Fang": 0, "Zhao Lei": 0, "Chen Jing": 0
    }  # fmt: skip
    assert sorted(name for name, row in got.items() if row["opened"]) == ["Chen Jing", "Liu Yang", "Zhao Lei"]
    liu = got["Liu Yang"]
    assert (liu["burns"], liu["burns_succeeded"], liu["burns_failed"], liu["burns_broken"]) == (1, 1, 0, 0)
    assert got["Zhao Lei"]["gouji_answered"] == 1 and got["Zhang Wei"]["gouji_answered"] == 0
    assert all(row["hands"] == row["finished"] == 1 and row["illegal"] == 0 for row in got.values())
    assert liu["place_shares"] == [1.0, 0, 0, 0, 0, 0]


def test_a_three_hand_match_per_team():
    got = rows(EXAMPLES / "online-match.gjn", "--by", "team")
    odd, even = got["1-3-5"], got["2-4-6"]
    assert odd["hands"] == even["hands"] == 3
    # seats 1, 3, 5 took: hand 1: 3 first, 5 second, 1 sixth; hand 2: 5 third, 1 fifth, 3 sixth;
    # hand 3: 3 first, 5 third, 1 fourth
    assert odd["places"] == [2, 1, 2, 1, 1, 2] and even["places"] == [1, 2, 1, 2, 2, 1]
    assert odd["points"] == 1 - 3 + 2 == 0 and even["points"] == -1 + 3 - 2 == 0
    # cards of tribute and returns: 1-3-5 paid 3>6:X 1>3:22 3>1:33 5>6:3 (hand 2), 3>2:D2 1>4:X (hand 3)
    assert (odd["tribute_paid"], odd["tribute_received"]) == (1 + 2 + 2 + 1 + 2 + 1, 2 + 1 + 2 + 1 + 1 + 2 + 1)
    assert (even["tribute_paid"], even["tribute_received"]) == (1 + 1 + 1 + 2 + 1, 1 + 1 + 2 + 1)


def test_an_illegal_action_counts_against_its_seat_and_the_hand_counts_up_to_it():
    # examples/charter-hand-illegal.gjn stops at seat 3's QQQQQ on seat 1's 够级 TTTTT (002 §9)
    got = rows(EXAMPLES / "charter-hand-illegal.gjn", "--by", "seat")
    assert got["seat 3"]["illegal"] == 1 and sum(row["illegal"] for row in got.values()) == 1
    assert all(row["finished"] == 0 and row["places"] == [0] * 6 for row in got.values())
    assert got["seat 1"]["gouji_made"] == 1  # TTTTT was made before the illegal action


def test_text_and_csv_tables(tmp_path):
    text = run(EXAMPLES / "charter-hand.gjn", "--by", "seat").output.splitlines()
    assert text[0].split()[:3] == ["seat", "hands", "1st"]
    assert len(text) == 7 and all(line.startswith("seat ") for line in text[1:])
    table = list(csv.reader(io.StringIO(run(EXAMPLES / "online-match.gjn", "--by", "ruleset", "--format", "csv").output)))
    assert table[0][:3] == ["ruleset", "hands", "p1"] and table[1][:8] == ["online", "3", "3", "3", "3", "3", "3", "3"]
    out = tmp_path / "s.json"
    assert run(EXAMPLES / "charter-hand.gjn", "--format", "json", "-o", out).exit_code == 0
    assert len(json.loads(out.read_text(encoding="utf-8"))) == 6


def test_a_hand_that_cannot_be_read_is_reported_and_the_rest_counted(tmp_path):
    good = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
    f = tmp_path / "two.gjn"
    f.write_text(good + "\n" + good.replace("2. 4:3333", "2. 4:33Z3"), encoding="utf-8")
    r = run(f, "--by", "seat", "--format", "json")
    assert r.exit_code == 2 and "error[bad-card]" in r.stderr
    counted = json.loads(r.stdout)
    assert {row["hands"] for row in counted} == {1}


def test_hands_counted_apart_and_merged_count_as_together():
    # what --dask does: each hand counted on a worker (count_hand), the tallies added up here
    from gouji_record.notation.files import read_hands
    from gouji_record.stats import Stats, count_hand

    paths = [EXAMPLES / "online-match.gjn", EXAMPLES / "charter-hand-illegal.gjn", EXAMPLES / "charter-hand.gjn"]
    for by in ("player", "team", "ruleset"):
        merged = Stats(by)
        for path in paths:
            for hand in read_hands(str(path)):
                merged.merge(count_hand(hand, by).rows)
        together = rows(*paths, "--by", by)
        assert [t.as_dict() for t in merged.table()] == list(together.values())
