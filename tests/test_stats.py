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
from conftest import BAD_CARD_HAND, EXAMPLES

from gouji_record.cli.main import main


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
    # cards of tribute, not its returns (还贡): 1-3-5 paid 3>6:X 1>3:22 (hand 2), 3>2:D2 1>4:X (hand 3)
    # and received 2>5:D 1>3:22 6>5:D (hand 2), 6>3:X (hand 3); 2-4-6 paid 2>5:D 6>5:D, 6>3:X and
    # received 3>6:X, 3>2:D2 1>4:X (the returns 3>1:33 5>6:3 3>2:33 4>1:3 were counted before)
    assert (odd["tribute_paid"], odd["tribute_received"]) == (1 + 2 + 2 + 1, 1 + 2 + 1 + 1)
    assert (even["tribute_paid"], even["tribute_received"]) == (1 + 1 + 1, 1 + 2 + 1)


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
    f.write_text(good + "\n" + BAD_CARD_HAND, encoding="utf-8")
    r = run(f, "--by", "seat", "--format", "json")
    assert r.exit_code == 2 and "error[bad-card]" in r.stderr
    counted = json.loads(r.stdout)
    assert {row["hands"] for row in counted} == {1}


def mixed(tmp_path):
    """charter-hand, the same with a bad card (``4:33Z3``: cannot be read), charter-hand-illegal and
    a file that does not exist: by seat, each seat counts the two hands read, one finished; seat 3
    has the illegal action (its QQQQQ on seat 1's 够级 TTTTT), seat 5 the one burn, which succeeds."""
    good = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
    f = tmp_path / "mixed.gjn"
    f.write_text(
        good + "\n" + BAD_CARD_HAND + "\n" + (EXAMPLES / "charter-hand-illegal.gjn").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    return [f, tmp_path / "missing.gjn"]


def test_jobs_count_the_same_as_one_process(tmp_path, monkeypatch):
    import gouji_record.running.batch as batch

    monkeypatch.setattr(batch, "BATCH", 2)  # several batches in flight, even on a few hands
    inputs = [sorted(EXAMPLES.glob("*.gjn")), mixed(tmp_path)]
    for files in inputs:
        for options in (["--by", "seat"], ["--format", "json"], ["--by", "team", "--format", "csv"], ["--format", "html", "--lang", "en"]):
            one, two = run(*files, *options, "--jobs", "1"), run(*files, *options, "-j", "2")
            assert (one.exit_code, one.stdout, one.stderr) == (two.exit_code, two.stdout, two.stderr), options
    r = run(*mixed(tmp_path), "--by", "seat", "--format", "json", "--jobs", "2")
    assert r.exit_code == 2
    # charter-hand.gjn has 65 lines; a blank line, then the second hand, whose line 30 is "2. 4:33Z3": Z at 65 + 1 + 30, column 8
    assert [line.split(": error")[0] for line in r.stderr.splitlines() if ": error[" in line] == [
        f"{tmp_path / 'mixed.gjn'}:96:8",
        f"{tmp_path / 'missing.gjn'}",
    ]
    got = {row["key"]: row for row in json.loads(r.stdout)}
    assert {k: (row["hands"], row["finished"], row["illegal"]) for k, row in got.items()} == {
        f"seat {s}": (2, 1, s == 3) for s in range(1, 7)
    }
    assert (got["seat 5"]["burns"], got["seat 5"]["burns_succeeded"]) == (1, 1)


def test_counts_merge_as_they_add(tmp_path):
    """Merging the counts of each hand of examples/online-match.gjn is adding the hands one by one;
    the match's team points hand by hand (1/-1, -3/3, 2/-2) run 1, -2, 0 for 1-3-5."""
    from gouji_record import read, replay
    from gouji_record.analysis.stats import Stats

    records = read(EXAMPLES / "online-match.gjn")
    added, merged = Stats("team"), Stats("team")
    for record in records:
        added.add(replay(record, every_position=False))
        one = Stats("team")
        one.add(replay(record, every_position=False))
        merged.merge(one)
    assert {k: t.as_dict() for k, t in added.rows.items()} == {k: t.as_dict() for k, t in merged.rows.items()}
    assert added.hands == merged.hands == 3 and added.matches == merged.matches
    (points,) = merged.match_points()
    assert (points.match, points.hands, points.team1, points.team0) == ("Online room 8", ["1", "2", "3"], [1, -2, 0], [-1, 2, 0])
    try:
        merged.merge(Stats("seat"))
    except ValueError as e:
        assert "by seat" in str(e)
    else:
        raise AssertionError("merged counts by another key")


def test_workers_that_cannot_start_are_said_so_in_one_line(monkeypatch):
    import multiprocessing  # (what running/batch.py starts its workers with)

    def no_fork(*args, **kwargs):
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(multiprocessing, "Pool", no_fork)
    hand = EXAMPLES / "charter-hand.gjn"
    for command in (["stats", hand, "-j", "2"], ["filter", hand, "-j", "2"]):
        r = CliRunner().invoke(main, list(map(str, command)))
        assert r.exit_code == 2 and r.stdout == "", command
        assert r.stderr == f"{hand}: error[workers]: cannot start 2 worker processes: Resource temporarily unavailable\n"


# -- the page: gouji stats --format html ----------------------------------------------------------


def svgs(page: str) -> dict:
    """The page's charts, parsed (the template writes them as well-formed XML), by the id of their
    section (places, burns) or, for the points of a match, ``points:`` and the match's name."""
    import re
    import xml.etree.ElementTree as ET

    out = {}
    for section in re.finditer(r'<section class="card" id="(\w+)">(.*?)</section>', page, re.S):
        for i, svg in enumerate(re.findall(r"<svg.*?</svg>", section.group(2), re.S)):
            root = ET.fromstring(svg)
            name = section.group(1) if section.group(1) != "points" else "points:" + root.get("aria-label").split(": ", 1)[1]
            out[name] = root
    return out


def titles(root, cls: str) -> list[tuple[str, str]]:
    """``(data-value, title)`` of each ``g`` of class ``cls`` (a bar's segment, a dot), in order."""
    return [
        (g.get("data-value"), next(t.text for t in g.iter("title")))
        for g in root.iter("g")
        if cls in (g.get("class") or "").split()
    ]


def test_the_page_of_a_three_hand_match_draws_the_tallies(tmp_path):
    """examples/online-match.gjn by team (module docstring): 1-3-5 took places [2, 1, 2, 1, 1, 2] (9
    seats in 3 finished hands), 2-4-6 [1, 2, 1, 2, 2, 1]; team points 1/-1, -3/3, 2/-2 run, for 1-3-5,
    1, 1 - 3 = -2, -2 + 2 = 0 and for 2-4-6 -1, 2, 0; nobody burns."""
    out = tmp_path / "stats.html"
    r = run(EXAMPLES / "online-match.gjn", "--by", "team", "--format", "html", "-o", out)
    assert r.exit_code == 0 and r.output == ""
    page = out.read_text(encoding="utf-8")
    charts = svgs(page)
    assert sorted(charts) == ["places", "points:Online room 8"]  # no burn to draw
    assert "没有烧牌。" in page
    places = titles(charts["places"], "segment")
    assert places == [
        ("2", "1-3-5 · 头科：2"), ("1", "1-3-5 · 二科：1"), ("2", "1-3-5 · 三科：2"),
        ("1", "1-3-5 · 四科：1"), ("1", "1-3-5 · 二落：1"), ("2", "1-3-5 · 大落：2"),
        ("1", "2-4-6 · 头科：1"), ("2", "2-4-6 · 二科：2"), ("1", "2-4-6 · 三科：1"),
        ("2", "2-4-6 · 四科：2"), ("2", "2-4-6 · 二落：2"), ("1", "2-4-6 · 大落：1"),
    ]  # fmt: skip
    totals = [t.text for t in charts["places"].iter() if t.get("class") == "total"]
    assert totals == ["9", "9"]
    points = titles(charts["points:Online room 8"], "dot")
    assert points == [
        ("1", "联邦 1-3-5 · 第1局：1"), ("-2", "联邦 1-3-5 · 第2局：-2"), ("0", "联邦 1-3-5 · 第3局：0"),
        ("-1", "联邦 2-4-6 · 第1局：-1"), ("2", "联邦 2-4-6 · 第2局：2"), ("0", "联邦 2-4-6 · 第3局：0"),
    ]  # fmt: skip
    # the dots stand where their values say: 1 above 0, -2 below -1
    ys = {c.find("title").text: float(c.get("cy")) for c in charts["points:Online room 8"].iter("circle")}
    assert ys["联邦 1-3-5 · 第1局：1"] < ys["联邦 1-3-5 · 第3局：0"] < ys["联邦 2-4-6 · 第1局：-1"] < ys["联邦 1-3-5 · 第2局：-2"]
    # the table: every column, each cell as the CSV writes it
    table = list(csv.reader(io.StringIO(run(EXAMPLES / "online-match.gjn", "--by", "team", "--format", "csv").output)))
    import re

    cells = [re.findall(r"<td>([^<]*)</td>", row) for row in re.findall(r"<tr><th scope=\"row\".*?</tr>", page)]
    assert cells == [row[1:] for row in table[1:]]
    headings = re.findall(r'<th scope="col">([^<]*)</th>', page)
    assert headings[:8] == ["联邦", "局数", "头科", "二科", "三科", "四科", "二落", "大落"] and len(headings) == len(table[0])


def test_the_english_page_draws_burns_and_names_seats_in_english(tmp_path):
    """examples/charter-hand.gjn by seat: seat 5's burn succeeds (the module docstring), nobody else burns."""
    r = run(EXAMPLES / "charter-hand.gjn", "--by", "seat", "--format", "html", "--lang", "en")
    assert r.exit_code == 0
    charts = svgs(r.stdout)
    assert titles(charts["burns"], "segment") == [("1", "seat 5 · succeeded: 1")]
    assert "points:" not in " ".join(charts) and "No hands of a match (Match tag)." in r.stdout
    assert '<html lang="en">' in r.stdout and "<title>Gouji statistics</title>" in r.stdout
    zh = run(EXAMPLES / "charter-hand.gjn", "--by", "seat", "--format", "html").stdout
    assert titles(svgs(zh)["burns"], "segment") == [("1", "5号位 · 烧成功：1")]


def test_the_page_escapes_what_a_record_says_and_asks_for_nothing(tmp_path):
    f = tmp_path / "evil.gjn"
    f.write_text(
        (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8").replace('"Zhang Wei"', '"<script>alert(1)</script>&"'),
        encoding="utf-8",
    )
    page = run(f, "--format", "html").stdout
    assert "<script" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;&amp;" in page
    assert "://" not in page and "<a " not in page  # no request, no link out
    assert "default-src 'none'" in page


def test_the_page_and_bad_options(tmp_path):
    out = tmp_path / "s.html"
    r = run(EXAMPLES / "online-match.gjn", "--format", "html", "-o", out)
    assert r.exit_code == 0 and out.read_text(encoding="utf-8") == run(EXAMPLES / "online-match.gjn", "--format", "html").stdout
    r = run(EXAMPLES / "online-match.gjn", "--format", "html", "--lang", "fr")
    assert r.exit_code == 2 and "Invalid value for '--lang'" in r.output and "Traceback" not in r.output
    empty = tmp_path / "empty.gjn"
    empty.write_text("", encoding="utf-8")
    r = run(empty, "--format", "html", "--lang", "en")
    assert r.exit_code == 2 and "No hand was read." in r.stdout and "error[empty]" in r.stderr


def test_a_long_name_is_cut_on_the_chart_and_whole_in_its_tooltip_and_the_table(tmp_path):
    """A 200-character player name: the chart shows what fits left of the bars, its first 12
    characters and …, its tooltip and the table the whole name."""
    long = "Li Na " * 33 + "Li"
    f = tmp_path / "long.gjn"
    f.write_text((EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8").replace('"Li Na"', f'"{long}"'), encoding="utf-8")
    page = run(f, "--format", "html", "--lang", "en").stdout
    names = {t.find("title").text: t.text for t in svgs(page)["places"].iter("text") if t.get("class") == "name"}
    assert names[long] == "Li Na Li Na …" and names["Zhang Wei"] == "Zhang Wei"
    assert f'<th scope="row" title="{long}">{long}</th>' in page


def test_tribute_paid_and_received_leave_the_returns_out():
    """examples/charter-match.gjn, as the match check explains its transfers (002 §20-§21):
    hand 2: 落贡 1>3:22 and 6>5:D, returned 3>1:33 and 5>6:3 (还贡); hand 3: 点贡 5>2:D, 落贡 1>4:X2
    and 2>3:D, returned 4>1:33 and 3>2:3. Tribute only, by team: 1-3-5 pays 2 + 2 + 1 = 5 and
    receives 2 + 1 + 1 = 4; 2-4-6 pays 1 + 1 = 2 and receives 1 + 2 = 3 (the returns, 6 cards, were
    counted as tribute paid before)."""
    r = CliRunner().invoke(main, ["stats", "--by", "team", "--format", "json", str(EXAMPLES / "charter-match.gjn")])
    rows = {row["key"]: (row["tribute_paid"], row["tribute_received"]) for row in json.loads(r.output)}
    assert rows == {"1-3-5": (5, 4), "2-4-6": (2, 3)}


def test_a_ruleset_row_counts_the_points_of_each_hands_winning_team():
    """Over a ruleset (both teams in one row) points are the winning team's, the higher of the two
    teams' scores. examples/charter-hand.gjn ends 5-6-1-4-3-2: 1-3-5 takes 1st, 3rd and 5th, 4 + 0 - 2
    = 2; 2-4-6 2 + 0 - 4 = -2, recorded as 0 (002 §20: 4 2 0 0 -2 -4, only positive scores): 2.
    examples/charter-match.gjn: 3-5-2-4-6-1: 1-3-5 4 + 2 - 4 = 2, 2-4-6 0 + 0 - 2 → 0: 2;
    4-3-5-6-2-1: 1-3-5 2 + 0 - 4 → 0, 2-4-6 4 + 0 - 2 = 2: 2; 5-1-3-4-2-6: seats 5, 1, 3 take 1st,
    2nd and 3rd, a sweep (串三户): 12 to 0: 12. charter-hand-illegal stops at an illegal action:
    not finished, no points. Charter: 2 + 2 + 2 + 12 = 18 over 4 finished hands, 4.50 a hand.
    examples/online-match.gjn (2 1 0 0 -1 -2, 000 §计分): 3-5-2-4-6-1 1-3-5 2 + 1 - 2 = 1 against -1;
    2-4-5-6-1-3 2-4-6 2 + 1 + 0 = 3 against -3; 3-6-5-1-2-4 1-3-5 2 + 0 + 0 = 2 against -2: 1 + 3
    + 2 = 6. examples/fours-match.gjn (003: 4 2 0 0 -2 -4, the seats' penalties apart): 2-1-6-4-5-3
    2-4-6 4 + 0 + 0 = 4 against 2 - 2 - 4 = -4; 4-3-1-6-5-2 2 + 0 - 2 = 0 and 4 + 0 - 4 = 0, a
    tie: 0; 1-3-6-2-4-5 4 + 2 - 4 = 2 against 0 + 0 - 2: 2; 4 + 0 + 2 = 6."""
    names = ["charter-hand", "charter-hand-illegal", "charter-match", "online-match", "fours-match"]
    got = rows(*(EXAMPLES / f"{n}.gjn" for n in names), "--by", "ruleset")
    assert {k: (r["hands"], r["finished"], r["points"], r["points_per_hand"]) for k, r in got.items()} == {
        "charter": (5, 4, 18, 4.5),
        "online": (3, 3, 6, 2.0),
        "fours": (3, 3, 6, 2.0),
    }
    table = list(csv.reader(io.StringIO(run(EXAMPLES / "charter-match.gjn", "--by", "ruleset", "--format", "csv").output)))
    (charter,) = [dict(zip(table[0], row)) for row in table[1:]]
    assert (charter["points"], charter["points_per_hand"]) == ("16", "5.33")  # 2 + 2 + 12 over 3 hands


# -- head to head and partners: --by opposite, --by partner ----------------------------------------


def pairs(*args):
    r = run(*args, "--format", "json")
    assert r.exit_code == 0, r.output
    return {(row["player"], row.get("opposite", row.get("partner"))): row for row in json.loads(r.output)}


def test_head_to_head_over_a_three_hand_match_with_a_tie():
    """examples/fours-match.gjn (003: 4 2 0 0 -2 -4 by place; opposites 1-4, 2-5, 3-6; Bot N at
    seat N). Hand 1, 2-1-6-4-5-3: 1-3-5 scores 2 - 4 - 2 = -4, 2-4-6 4 + 0 + 0 = 4; hand 2,
    4-3-1-6-5-2: 2 + 0 - 2 = 0 and 4 + 0 - 4 = 0, a tie; hand 3, 1-3-6-2-4-5: 4 + 2 - 4 = 2 and
    0 + 0 - 2 = -2. Bot 1 (seat 1) against Bot 4: a loss, a tie, a win; points -4 + 0 + 2 = -2;
    Bot 1 2nd, 3rd, 1st, ahead of Bot 4 (4th, 1st, 5th) in hands 1 and 3."""
    got = pairs(EXAMPLES / "fours-match.gjn", "--by", "opposite")
    assert sorted(got) == sorted((f"Bot {s}", f"Bot {(s + 2) % 6 + 1}") for s in range(1, 7))
    one = got["Bot 1", "Bot 4"]
    assert (one["hands"], one["finished"], one["wins"], one["losses"], one["ties"], one["points"]) == (3, 3, 1, 1, 1, -2)
    assert one["places"] == [1, 1, 1, 0, 0, 0] and one["ahead"] == 2
    assert one["win_rate"] == round(1 / 3, 4) and one["points_per_hand"] == round(-2 / 3, 4)
    four = got["Bot 4", "Bot 1"]
    assert (four["wins"], four["losses"], four["ties"], four["points"]) == (1, 1, 1, 4 + 0 - 2)
    assert four["places"] == [1, 0, 0, 1, 1, 0] and four["ahead"] == 1
    # Bot 3 (6th, 2nd, 2nd) against Bot 6 (3rd, 4th, 3rd): ahead in hands 2 and 3
    three = got["Bot 3", "Bot 6"]
    assert three["places"] == [0, 2, 0, 0, 0, 1] and three["ahead"] == 2 and three["points"] == -2


def test_partners_when_players_change_seats(tmp_path):
    """examples/charter-hand.gjn (5-6-1-4-3-2: 1-3-5 scores 2, 2-4-6 0), then the same hand with
    Zhang Wei and Zhao Lei swapped (Zhao Lei at seat 1, 3rd, on the team that scores 2; Zhang Wei at
    seat 4, 4th, with 0). Zhang Wei's partners: in hand 1 Li Na (seat 3, 5th) and Liu Yang (seat 5,
    1st), a win, 2 points; in hand 2 Wang Fang (seat 2, 6th) and Chen Jing (seat 6, 2nd), a loss,
    0. As opposites, Zhang Wei and Zhao Lei meet twice: one win each; Zhang Wei 3rd then 4th,
    ahead of Zhao Lei (4th, then 3rd) once."""
    good = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
    swapped = good.replace('"Zhang Wei"', '"\0"').replace('"Zhao Lei"', '"Zhang Wei"').replace('"\0"', '"Zhao Lei"')
    f = tmp_path / "two.gjn"
    f.write_text(good + "\n" + swapped, encoding="utf-8")
    got = pairs(f, "--by", "partner")
    mates = {k[1]: (r["hands"], r["wins"], r["losses"], r["points"], r["places"], r["ahead"]) for k, r in got.items() if k[0] == "Zhang Wei"}
    assert mates == {
        "Li Na": (1, 1, 0, 2, [0, 0, 1, 0, 0, 0], 1),
        "Liu Yang": (1, 1, 0, 2, [0, 0, 1, 0, 0, 0], 0),
        "Wang Fang": (1, 0, 1, 0, [0, 0, 0, 1, 0, 0], 1),
        "Chen Jing": (1, 0, 1, 0, [0, 0, 0, 1, 0, 0], 0),
    }
    # Zhang Wei and Zhao Lei changed teams: four partners each; the other four players three each
    assert len(got) == 2 * 4 + 4 * 3
    head = pairs(f, "--by", "opposite")
    zw = head["Zhang Wei", "Zhao Lei"]
    assert (zw["hands"], zw["wins"], zw["losses"], zw["points"], zw["places"], zw["ahead"]) == (2, 1, 1, 2, [0, 0, 1, 1, 0, 0], 1)
    assert head["Li Na", "Chen Jing"]["hands"] == 2 and len(head) == 6


def test_pairs_merge_as_they_add_and_jobs_count_the_same(tmp_path, monkeypatch):
    import gouji_record.running.batch as batch
    from gouji_record import read, replay
    from gouji_record.analysis.stats import Pairs

    for by in ("opposite", "partner"):
        added, merged = Pairs(by), Pairs(by)
        for record in read(EXAMPLES / "online-match.gjn"):
            added.add(replay(record, every_position=False))
            one = Pairs(by)
            one.add(replay(record, every_position=False))
            merged.merge(one)
        assert {k: t.as_dict(by) for k, t in added.rows.items()} == {k: t.as_dict(by) for k, t in merged.rows.items()}
        assert added.hands == merged.hands == 3
    try:
        Pairs("opposite").merge(Pairs("partner"))
    except ValueError as e:
        assert "by partner" in str(e)
    else:
        raise AssertionError("merged pairs of another relation")
    monkeypatch.setattr(batch, "BATCH", 2)
    files = [*sorted(EXAMPLES.glob("*.gjn")), *mixed(tmp_path)]
    for options in (["--by", "opposite"], ["--by", "partner", "--format", "json"], ["--by", "opposite", "--format", "csv"]):
        one, two = run(*files, *options, "--jobs", "1"), run(*files, *options, "-j", "2")
        assert (one.exit_code, one.stdout, one.stderr) == (two.exit_code, two.stdout, two.stderr), options
        assert one.exit_code == 2  # the hand with a bad card, the missing file


def test_pair_tables_as_text_and_csv_and_a_page():
    text = run(EXAMPLES / "charter-hand.gjn", "--by", "opposite").output.splitlines()
    assert text[0].split()[:5] == ["player", "opposite", "hands", "finished", "wins"]
    # one row per player, by name: Chen Jing (seat 6, 2nd) against Li Na (seat 3, 5th): a loss
    assert len(text) == 7 and text[1].split()[:9] == ["Chen", "Jing", "Li", "Na", "1", "1", "0", "1", "0"]
    table = list(csv.reader(io.StringIO(run(EXAMPLES / "charter-hand.gjn", "--by", "partner", "--format", "csv").output)))
    assert table[0][:3] == ["player", "partner", "hands"] and len(table) == 1 + 12
    # the page: the same rows, the player and the other each a row heading, the player's places
    # charted; no burns or match charts (a pair's rows count none). Chen Jing's row against Li Na
    # as the text table gives it.
    r = run(EXAMPLES / "charter-hand.gjn", "--by", "opposite", "--format", "html", "--lang", "en")
    assert r.exit_code == 0, r.output
    page = r.stdout
    assert page.count("<tr><th scope=\"row\"") == 6 and 'id="burns"' not in page and 'id="points"' not in page
    row = page[page.index('<th scope="row" title="Chen Jing">') :].split("</tr>")[0]
    assert '<th scope="row" title="Li Na">Li Na</th>' in row
    assert [c.split("</td>")[0] for c in row.split("<td>")[1:6]] == ["1", "1", "0", "1", "0"]
    assert "head to head" in page and 'id="places-chart"' in page


def test_the_points_charts_hand_labels_never_crowd_the_last():
    # the failing input (issue 26): a 30-hand match labelled every 4th hand (ceil(30 / 8) = 4) from
    # hand 1, and hand 30 too: 29 and 30 stood one band apart and overlapped; the label before
    # the last is left out when it is nearer than 4 bands, so 1 5 9 13 17 21 25 and 30
    from gouji_record.analysis.stats import MatchPoints
    from gouji_record.render.stats_page import _points_chart

    hands = [str(h) for h in range(1, 31)]
    chart = _points_chart(MatchPoints("m", hands, list(range(30)), [-v for v in range(30)]), "en")
    assert [h["label"] for h in chart["hands"]] == ["1", "5", "9", "13", "17", "21", "25", "30"]
    eight = _points_chart(MatchPoints("m", hands[:8], [0] * 8, [0] * 8), "en")  # every = 1: all eight
    assert [h["label"] for h in eight["hands"]] == hands[:8]
