"""gouji stats --review: the review's decisions and chances missed per row, over many hands (issue
24: a findings rate per player, as lichess counts a player's mistakes). Values worked by hand."""

from __future__ import annotations

import json

from click.testing import CliRunner
from conftest import EXAMPLES

from gouji_record.cli.main import main

EXAMPLE = str(EXAMPLES / "charter-hand.gjn")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_a_players_decisions_and_chances_missed_over_hands():
    # Seat 4 (Zhao Lei) of examples/charter-hand.gjn acts 12 times (4:JJJJJ, 4:3333, 4:9999, 4:QQQQ,
    # its passes in rounds 6, 8, 9, 11, 12, 13, 4:KKKKKK, 4:AAAAAAAAAAAAA) and misses one chance:
    # at action 49 it passed on its opposite seat 1's KKKKKK holding AAAAAA, which answers it
    # (same count, higher rank: 002 §8(6); only the opposite answers a 够级 play: 002 §9). The file
    # read twice: 24 decisions, 2 missed, 8.33 per 100.
    r = run("stats", EXAMPLE, EXAMPLE, "--review", "--format", "json")
    assert r.exit_code == 0, r.output
    rows = {row["key"]: row for row in json.loads(r.output)}
    zhao = rows["Zhao Lei"]
    assert (zhao["hands"], zhao["decisions"], zhao["missed"], zhao["missed_per_100"]) == (2, 24, 2, 8.33)
    # a team adds up its seats: the whole table's decisions are the hand's actions of play (69 in
    # the file, none before play, none irregular), twice
    r = run("stats", EXAMPLE, EXAMPLE, "--review", "--by", "team", "--format", "json")
    teams = json.loads(r.output)
    assert sum(t["decisions"] for t in teams) == 2 * 69
    # without --review nothing is counted, and the text table has no such columns
    r = run("stats", EXAMPLE, "--format", "json")
    assert {row["decisions"] for row in json.loads(r.output)} == {0}
    assert "missed" not in run("stats", EXAMPLE).output.splitlines()[0]
    assert run("stats", EXAMPLE, "--review").output.splitlines()[0].endswith("decisions 决策  missed 失机  missed/100")


def test_the_review_counts_are_those_of_gouji_review_and_of_the_jobs():
    # The same numbers as review's per-seat lines, by seat, in one process or two.
    one = json.loads(run("stats", EXAMPLE, "--review", "--by", "seat", "--format", "json").output)
    two = json.loads(run("stats", EXAMPLE, "--review", "--by", "seat", "--format", "json", "--jobs", "2").output)
    assert one == two
    lines = [x for x in run("review", EXAMPLE).output.splitlines() if x.startswith("  seat ")]
    said = {int(x.split()[1]): (int(x.split(": ")[1].split()[0]), int(x.split(", ")[1].split()[0])) for x in lines}
    assert {int(t["key"].split()[1]): (t["decisions"], t["missed"]) for t in one} == said


def test_review_goes_with_rows_of_one_seat_not_pairs():
    r = run("stats", EXAMPLE, "--review", "--by", "opposite")
    assert r.exit_code == 2 and "--review counts per player, seat, team or ruleset" in r.output


def test_the_page_has_the_review_columns_when_asked():
    # Zhao Lei (seat 4) of charter-hand: 12 decisions, 1 chance missed (see above): 8.33 per 100.
    page = run("stats", EXAMPLE, "--review", "--format", "html", "--lang", "en").stdout
    assert "<th scope=\"col\">Chances missed</th>" in page
    row = page[page.index('<th scope="row" title="Zhao Lei">') :].split("</tr>")[0]
    assert [c.split("</td>")[0] for c in row.split("<td>")[-3:]] == ["12", "1", "8.33"]
    assert "Chances missed" not in run("stats", EXAMPLE, "--format", "html", "--lang", "en").stdout
