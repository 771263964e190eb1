"""gouji export / import / schema: JSON out and back with no loss; event logs in."""

import json

from click.testing import CliRunner

from gouji_record import parse
from gouji_record.cli.main import main
from gouji_record.model import GameRecord

from conftest import EXAMPLES

HAND = EXAMPLES / "charter-hand.gjn"


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in r.output
    return r


def test_export_then_import_gives_back_the_same_bytes(tmp_path):
    out = tmp_path / "hands.jsonl"
    assert run("export", HAND, EXAMPLES / "charter-hand-illegal.gjn", "-o", out).exit_code == 0
    rows = out.read_text(encoding="utf-8").splitlines()
    assert len(rows) == 2 and json.loads(rows[0])["tags"]["Seat5"] == "Liu Yang"
    back = run("import", out)
    assert back.exit_code == 0
    assert back.output == HAND.read_text(encoding="utf-8") + "\n" + (EXAMPLES / "charter-hand-illegal.gjn").read_text(
        encoding="utf-8"
    )


def test_schema_describes_the_exported_objects():
    schema = json.loads(run("schema").output)
    assert schema["title"] == "GameRecord" and {"tags", "deal", "actions"} <= set(schema["properties"])
    exported = json.loads(run("export", HAND).output)
    assert GameRecord.model_validate(exported) == parse(HAND.read_text(encoding="utf-8"))[0]


def test_import_an_event_log(tmp_path):
    rec = parse(HAND.read_text(encoding="utf-8"))[0]
    events = [
        {
            "type": "start_hand",
            "ruleset": "charter",
            "names": [rec.player(s) for s in range(1, 7)],
            "event": rec.tags["Event"],
            "site": "Qingdao",
            "date": "2026.11.29",
        },
        {"type": "deal", "hands": list(rec.deal)},
    ]
    for a in rec.actions:
        e = {"type": a.kind.value, "seat": a.seat}
        if a.cards:
            e["cards"] = a.cards
        if a.burn:
            e["burn"] = True
        events.append(e)
    events.append({"type": "end_hand", "result": "5-6-1-4-3-2"})
    f = tmp_path / "log.jsonl"
    f.write_text("\n".join(json.dumps(e, ensure_ascii=False) for e in events) + "\n", encoding="utf-8")
    r = run("import", f)
    assert r.exit_code == 0
    back = parse(r.output)[0]
    assert back.deal == rec.deal and [a.text for a in back.actions] == [a.text for a in rec.actions]
    assert back.actions[3].round == 2  # rounds numbered by the engine on import


def test_import_errors_are_located(tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_text(
        '{"type":"start_hand","ruleset":"charter","names":["a","b","c","d","e","f"]}\n{"type":"nope"}\n',
        encoding="utf-8",
    )
    r = run("import", f)
    assert r.exit_code == 2 and f"{f}:2:1: error[bad-log]" in r.output
    f.write_text('{"tags": {}, "deal": []}\n', encoding="utf-8")
    r = run("import", f)
    assert r.exit_code == 2 and ":1:1: error[bad-log]" in r.output
