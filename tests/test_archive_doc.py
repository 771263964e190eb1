"""docs/archives.md runs as written: its export of the examples, its DuckDB queries and their results.

The page's column tables are the tables' columns (gouji_record.formats.archive.TABLES: name, type, null,
meaning, Chinese term), and it lists every kind of event. Its ```sh export command runs in a
directory holding a copy of examples/; each ```sql query runs in DuckDB on what it wrote, and must
give the table printed under it, which must hold the values worked out by hand here from the records:

Burn success per player. The burns written in the examples (`*`) are four:
- examples/charter-hand.gjn, round 3: 5:*XXKK, Liu Yang (seat 5) burns seat 4's QQQQ. Seat 5 then
  leads X77777777 (round 4) and D88888888 (round 5), each carrying a joker, and plays out with
  5555555555 (round 6), which needs none: the burn condition holds, the burn succeeds.
- examples/charter-hand-illegal.gjn, round 3: the same burn, never replayed: the replay stops at
  the hand's second action (3:QQQQQ), so it is in no table of events.
- examples/charter-match.gjn hand 1, round 23: 4:*J, Bot 4 burns seat 2's T with its last card
  (seat 4 was dealt one J, and plays no more after it): it finishes while burning, a success.
- examples/charter-match.gjn hand 2, round 25: 5:*D, Bot 5 burns seat 3's X. Bot 5 holds D X X
  after tribute (dealt XX, paid D by seat 6: 6>5:D) and plays X5 (round 26), X4 (round 27), each
  carrying a joker, then its last cards 77 (round 28): a success.
So Bot 4, Bot 5 and Liu Yang: one burn each, one success each, none failed or broken, rate 1.0;
`gouji stats --by player` counts the same burns (burns, burns_succeeded).

开点 rate per ruleset. The hands played to their end (not void: no example has two revolutions)
and the seats that open in each, with the round and the play it won with (under fours and
tournament: the round of the 4s led to open, 开点发4), as the records show them:
- charter: charter-hand seats 4 (JJJJJ, r1), 5 (XXKK, r3), 6 (AAA, r7); charter-match hand 1
  seats 5 (AAAA, r1), 4 (AA, r5), 2 (X, r10), 1 (KK, r12), 6 (AA, r14), 3 (X, r19); hand 2 seats
  1 (AAA, r1), 6 (22, r3), 3 (AAAA, r4), 2 (KKKK, r9), 4 (QQQ, r10); hand 3 seats 4 (2222J, r1),
  6 (222, r6), 2 (2AA, r11), 5 (QQQ, r14), 1 (AAAA, r28): 3 + 6 + 5 + 5 = 19 of 4 × 6 = 24 seats,
  0.7917 (charter-hand-illegal is not complete: left out).
- classic: hand 1 seats 5 (AAAA, r1), 4 (AA, r5), 1 (KK, r12), 6 (AA, r14); hand 2 seats 6
  (2222, r1), 3 (222K, r2), 5 (JJJJJJ, r7), 1 (AAAA, r11), 4 (KKK, r12); hand 3 seats 3 (2AAA, r1),
  6 (AA, r2), 2 (AA, r6), 5 (JJJJ, r9), 4 (AA, r11), 1 (KK, r15): 4 + 5 + 6 = 15 of 18, 0.8333.
- fours: hand 1 seats 1 (444, r5), 3 (44, r7), 4 (44444, r10), 6 (4, r12); hand 2 seats 6 (44, r4),
  2 (4444, r6); hand 3 seat 4 (4, r14): 4 + 2 + 1 = 7 of 18, 0.3889.
- online: hand 1 seats 5 (AAAA, r1), 4 (AA, r5), 1 (KK, r12), 6 (AA, r14); hand 2 seats 3 (2QQ,
  r3), 5 (JJJJJJ, r8), 2 (2AAA, r9), 1 (AAA, r10), 4 (KKK, r11); hand 3 seats 4 (TTTTT, r2), 2
  (QQQQQ, r5), 1 (AA, r8), 6 (AAAAA, r9), 3 (AAA, r10): 4 + 5 + 5 = 14 of 18, 0.7778.
- tournament: hand 1 seat 4 (4, r8); hand 2 seats 2 (44, r7), 3 (4, r13); hand 3 seat 1 (44,
  r14): 1 + 2 + 1 = 4 of 18, 0.2222.
Each opening listed is a round the record shows won by that seat's gouji play (or its 4s led), its
first; that no other round opens rests on the engine, and on `gouji stats --by ruleset`, which
counts openings from each hand's final position, not from its events, and agrees.

Illegal actions: examples/charter-hand-illegal.gjn, action 2, seat 3's QQQQQ on seat 1's TTTTT
(gouji-not-opposite); every other example is valid.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES, ROOT

from gouji_record.formats import archive
from gouji_record.cli.main import main
from gouji_record.rules.events import EventKind

duckdb = pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

DOC = ROOT / "docs" / "archives.md"
TEXT = DOC.read_text(encoding="utf-8")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n(.*?)(?=^```|\Z)", re.M | re.S)


def blocks(kind: str) -> list[tuple[str, str]]:
    """The ``kind`` blocks of the page, each with the text after it up to the next block."""
    return [(m.group(2), m.group(3)) for m in FENCE.finditer(TEXT) if m.group(1) == kind]


def table_after(text: str) -> list[list[str]]:
    """The first Markdown table of ``text``: its header, then its rows, as cells."""
    lines = [part.strip() for part in text.split("\n\n") if part.strip().startswith("|")][0].splitlines()
    cells = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines]
    return [cells[0], *cells[2:]]


def test_the_column_tables_are_the_tables_columns():
    for table, columns in archive.TABLES.items():
        rows = table_after(TEXT.split(f"### {table}\n", 1)[1])
        assert rows[0] == ["column", "type", "null", "meaning", "中文"]
        documented = [(name.strip("`"), kind, null, meaning, zh) for name, kind, null, meaning, zh in rows[1:]]
        assert documented == [(c.name, c.type, "yes" if c.null else "no", c.meaning, c.zh) for c in columns]


def test_every_kind_of_event_is_listed():
    kinds = table_after(TEXT.split("The kinds of event", 1)[1])
    assert sorted(k.strip("`") for k, _, _ in kinds[1:]) == sorted(k.value for k in EventKind)
    assert all(zh == EventKind(k.strip("`")).zh for k, zh, _ in kinds[1:])


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """The page's export command, run as written in a directory with a copy of examples/."""
    top = tmp_path_factory.mktemp("doc")
    shutil.copytree(EXAMPLES, top / "examples")
    (command,) = [body for body, _ in blocks("sh") if "export" in body]
    words = shlex.split(command.strip())
    assert words[0] == "gouji"
    before = os.getcwd()
    os.chdir(top)
    try:
        args = [a for w in words[1:] for a in (sorted(glob.glob(w)) if "*" in w else [w])]
        r = CliRunner().invoke(main, args)
    finally:
        os.chdir(before)
    assert r.exit_code == 0, r.output
    assert f"`{r.stdout.strip()}`" in TEXT  # the line the page quotes
    return top


def test_the_schema_version_is_read_as_the_page_reads_it(exported, monkeypatch):
    (code, _) = [b for b in blocks("python") if "schema_version" in b[0]][0]
    *setup, last = code.strip().splitlines()
    monkeypatch.chdir(exported)
    scope: dict = {}
    exec("\n".join(setup), scope)
    expression, comment = last.split("#")
    assert eval(expression, scope) == eval(comment.strip()) == b"2"


def queries() -> dict[str, tuple[str, list[list[str]]]]:
    out = {}
    for body, after in blocks("sql"):
        name = body.splitlines()[0].removeprefix("-- ").strip()
        out[name] = (body, table_after(after))
    return out


def run_query(directory: Path, sql: str) -> list[list[str]]:
    con = duckdb.connect()
    before = os.getcwd()
    os.chdir(directory)
    try:
        result = con.sql(sql)
        return [list(result.columns), *[[str(v) for v in row] for row in result.fetchall()]]
    finally:
        os.chdir(before)
        con.close()


def test_the_queries_are_the_ones_promised():
    assert list(queries()) == ["burn success per player", "开点 rate per ruleset", "illegal actions"]


def test_burn_success_per_player(exported):
    sql, shown = queries()["burn success per player"]
    got = run_query(exported, sql)
    assert got == shown
    assert got[1:] == [[name, "1", "1", "0", "0", "1.0"] for name in ("Bot 4", "Bot 5", "Liu Yang")]  # by hand
    stats = CliRunner().invoke(main, ["stats", *map(str, sorted(EXAMPLES.glob("*.gjn"))), "--format", "json"])
    burners = {r["key"]: (r["burns"], r["burns_succeeded"]) for r in json.loads(stats.stdout) if r["burns"]}
    assert burners == {"Bot 4": (1, 1), "Bot 5": (1, 1), "Liu Yang": (1, 1)}


def test_opening_rate_per_ruleset(exported):
    sql, shown = queries()["开点 rate per ruleset"]
    got = run_query(exported, sql)
    assert got == shown
    by_hand = {
        "charter": (4, 3 + 6 + 5 + 5),
        "classic": (3, 4 + 5 + 6),
        "fours": (3, 4 + 2 + 1),
        "online": (3, 4 + 5 + 5),
        "tournament": (3, 1 + 2 + 1),
    }
    assert got[1:] == [[k, str(n), str(o), str(round(o / (6 * n), 4))] for k, (n, o) in by_hand.items()]
    stats = CliRunner().invoke(main, ["stats", *map(str, sorted(EXAMPLES.glob("*.gjn"))), "--by", "ruleset", "--format", "json"])
    counted = {r["key"]: (r["finished"], r["opened"], r["opening_rate"]) for r in json.loads(stats.stdout)}
    assert counted == {k: (n, o, round(o / (6 * n), 4)) for k, (n, o) in by_hand.items()}


def test_illegal_actions(exported):
    sql, shown = queries()["illegal actions"]
    got = run_query(exported, sql)
    assert got == shown
    assert got[1:] == [["examples/charter-hand-illegal.gjn", "1", "gouji-not-opposite", "2", "3", "QQQQQ"]]
