"""A hand of very many actions (issue 38: 400,000 on one line took `export` to 531 MB and `render`
to 464 MB, `validate` to about 120 MB): every output is written a run of actions at a time, never
as one string or one list of every action's data, and says exactly what it said when it was built
whole. The memory is measured as the Python objects a command allocates (tracemalloc), never as
time; bench/peak_memory.py prints the whole processes' peak RSS on the tester's inputs.
"""

from __future__ import annotations

import json
import re
import tracemalloc

import pytest
from click.testing import CliRunner

from gouji_record.cli.main import main
from gouji_record.formats import interchange
from gouji_record.judging.replay import replay
from gouji_record.notation import parse_text
from gouji_record.render import html

from conftest import EXAMPLES

#: Passes written after the first hand's leader: the leader may not pass (must-lead), so the engine
#: replays nothing; the reader, the exports and the page carry every action all the same.
PASSES = 40_000


def long_hand(tmp_path, passes: int = PASSES):
    """examples/charter-hand.gjn with its play replaced by ``passes`` passes on one line, from
    seat 1 round the table (Result ``*``), as make-big.py writes line400k.gjn."""
    text = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
    head = re.sub(r'\[Result "[^"]*"\]', '[Result "*"]', text.split("\nplay\n")[0])
    f = tmp_path / "long.gjn"
    f.write_text(head + "\nplay\n" + " ".join(f"{k % 6 + 1}:-" for k in range(passes)) + "\n", encoding="utf-8")
    return f


def traced_peak(*args) -> int:
    """The most memory (bytes) Python objects took while ``gouji ARGS`` ran, above what they took before."""
    tracemalloc.start()
    try:
        CliRunner().invoke(main, [str(a) for a in args])
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "command",
    [
        ["export", "-o", "{out}"],
        ["export", "--with-verdict", "-o", "{out}"],
        ["render", "-o", "{out}"],
    ],
)
def test_a_long_hand_is_written_in_about_the_memory_reading_it_takes(tmp_path, command):
    f = long_hand(tmp_path)
    out = tmp_path / "out"
    traced_peak("validate", "-q", f)  # every module imported and cached first: not counted below
    reading = traced_peak("validate", "-q", f)
    writing = traced_peak(*[a.format(out=out) for a in command], f)
    # built whole (before issue 38), 34 to 51 MiB more than reading: the export's 40,000 dicts and
    # then one string of them, the page's actions as two lists of dicts and a string. Now what is
    # held is a run of actions and the output spooled (in memory up to 8 MiB: running.sink.spool)
    assert out.stat().st_size > PASSES * 20  # every action is written
    assert writing - reading < 10 << 20, (writing, reading)


def test_the_json_of_a_record_in_pieces_is_the_json_of_its_dump(monkeypatch):
    monkeypatch.setattr(interchange, "ACTIONS_AT_A_TIME", 7)  # several runs in every example hand
    records = [r for path in sorted(EXAMPLES.glob("*.gjn")) for r, _ in parse_text(path.read_text(encoding="utf-8"))]
    assert len(records) > 10 and any(r.preplay for r in records) and any(a.comments for r in records for a in r.actions)
    for record in records:
        whole = record.model_dump(mode="json")
        assert "".join(interchange.record_json(record)) == json.dumps(whole, ensure_ascii=False)
        extra = {"verdict": {"valid": True}, "events": []}
        assert "".join(interchange.record_json(record, extra)) == json.dumps(whole | extra, ensure_ascii=False)
    empty = records[0].model_copy(update={"actions": ()})
    assert json.loads("".join(interchange.record_json(empty)))["actions"] == []


def embedded(page: str) -> dict:
    """The page's replay data, parsed."""
    data = page.split('<script id="replay-data" type="application/json">', 1)[1].split("</script>", 1)[0]
    return json.loads(data)


def test_the_page_written_in_runs_carries_what_replay_data_gives(monkeypatch):
    # the hands one after another in the compressed spool, each one's actions 5 at a time: the
    # page's data is each hand's page_hand(replay_data(...)), the record carried given in pieces
    monkeypatch.setattr(html, "_ACTIONS_AT_A_TIME", 5)
    # the two hands of no match (a match's tribute is named by its kind: replay_data's kinds)
    text = "\n".join((EXAMPLES / f"{name}.gjn").read_text(encoding="utf-8") for name in ("charter-hand", "charter-hand-illegal"))
    results = [replay(r) for r, _ in parse_text(text)]
    pieces = [text[i : i + 100] for i in range(0, len(text), 100)]
    page = html.render_replays([(r, None) for r in results], source=("m.gjn", iter(pieces)))
    data = embedded(page)
    assert data["source"] == {"name": "m.gjn", "text": text}
    assert len(data["hands"]) == len(results) == 2
    for hand, result in zip(data["hands"], results):
        want = json.loads(html._json(html.page_hand(html.replay_data(result))))  # as JSON has it (keys strings)
        assert hand["actions"] == want["actions"] and len(hand["actions"]) == len(result.record.all_actions)
        assert {k: v for k, v in hand.items() if k not in ("standings", "match")} == want
    assert page == html.render_replays([(r, None) for r in results], source=("m.gjn", text))


def test_the_parquet_actions_made_in_runs_are_the_rows_made_at_once():
    from gouji_record.formats.archive import hand_rows
    from gouji_record.running.batch import read_records

    checked = 0
    for path in sorted(EXAMPLES.glob("*.gjn")):
        for read in read_records(str(path)):
            rows = hand_rows(read.hand, replay(read.record))
            (whole,) = rows.action_columns(10**9)
            runs = list(rows.action_columns(3))
            assert {k: [v for run in runs for v in run[k]] for k in whole} == whole
            checked += len(whole["action"])
    assert checked > 1000
