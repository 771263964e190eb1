"""gouji edit without a browser: the editor's API (gouji_record.editor) through Starlette's test
client, and the guards of the server. The expected values are worked out by hand from
examples/charter-hand.gjn and the rule texts (the section is named at each); the browser's part
is tests/test_browser_editor.py."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES
from starlette.testclient import TestClient

import gouji_record as gj
from gouji_record.cli.main import main
from gouji_record.editor.app import MAX_BODY, create_app, running
from gouji_record.editor.session import Workspace, check, digest, hand_data, legal

HAND = EXAMPLES / "charter-hand.gjn"
SAME = {"origin": "http://testserver"}


def example() -> dict:
    return hand_data(gj.read(HAND)[0])


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "hand.gjn").write_bytes(HAND.read_bytes())
    return tmp_path


@pytest.fixture
def client(folder):
    app = create_app(Workspace(folder, "new.gjn"), hosts=frozenset({"testserver"}))
    with TestClient(app) as c:
        yield c


def fmt_of(path) -> str:
    r = CliRunner().invoke(main, ["fmt", str(path)])
    assert r.exit_code == 0, r.output
    return r.output


# --- checking: the one verdict, located at the item typed ---


def test_the_example_hand_checks_valid_to_its_end():
    [v] = check([example()])
    # 69 actions in the example's play; places from its comments: 5 first (头科), 6 second, 1 third,
    # 4 fourth, 3 fifth (二落), 2 last (大落): Result "5-6-1-4-3-2"
    assert v["problems"] == [] and v["checked"] == 69 and v["result"] == "5-6-1-4-3-2"
    assert v["table"]["phase"] == "over" and legal([example()], 0) == []
    # the first events: 1:TTTTT is a gouji play (够级, 002 §9), 4:JJJJJ answers it (打点)
    assert [(e["kind"], e["item"], e["seats"]) for e in v["events"][:2]] == [
        ("gouji", 0, [1, 4]),
        ("answer", 1, [4, 1]),
    ]


def test_an_illegal_action_is_located_at_its_item_with_the_rule_and_the_table_before_it():
    hand = example()
    # round 2: 4:3333 5:4444 then seat 6's turn (counterclockwise, 002 §8(5)); seat 3 plays instead
    hand["actions"][5]["text"] = "3:QQQQQ"
    [v] = check([hand])
    [p] = v["problems"]
    assert (p["section"], p["item"], p["code"], p["number"]) == ("actions", 5, "not-your-turn", 6)
    assert p["message"] == "it is seat 6's turn, not seat 3's" and "§8(5)" in p["source"]
    assert v["checked"] == 5 and v["table"]["to_act"] == 6
    # what seat 6 could have played instead: its deal AAATTTTTTTTTTT9999666666555533333333 over 4:4444,
    # four cards of a higher rank (5555, 6666, 9999, TTTT), or pass
    assert [a for a in legal([hand], 0) if a.startswith("6:")] == [
        "6:TTTT",
        "6:9999",
        "6:6666",
        "6:5555",
        "6:-",
        "6:claim",
    ]


def test_an_action_that_does_not_read_is_located_and_those_before_it_judged():
    hand = example()
    hand["actions"][3]["text"] = "4:33Z3"
    [v] = check([hand])
    assert [(p["section"], p["item"], p["code"]) for p in v["problems"]] == [("actions", 3, "bad-card")]
    assert "'Z' is not a card" in v["problems"][0]["message"]
    assert v["checked"] == 3 and v["table"]["to_act"] == 4  # 1:TTTTT 4:JJJJJ 1:-: seat 4 won the round


def test_a_deal_line_that_does_not_read_is_located_at_its_seat():
    hand = example()
    hand["deal"][2] = "QQZ"
    [v] = check([hand])
    assert [(p["section"], p["item"]) for p in v["problems"]] == [("deal", 2)]
    assert v["problems"][0]["message"].startswith("seat 3: 'Z' is not a card")


def test_empty_fields_are_unknown_and_an_unknown_ruleset_is_said():
    hand = {
        "tags": {"Ruleset": "charter"},
        "deal": ["TTTTT ?", "", "-", "JJJJJ ?", "", ""],
        "actions": [{"text": "1:TTTTT"}],
    }
    [v] = check([hand])
    assert v["problems"] == [] and v["table"]["to_act"] == 4  # only the opposite answers 够级 (002 §9)
    assert [s["text"] for s in v["table"]["seats"]] == ["?31", "?36", "?36", "JJJJJ ?31", "?36", "?36"]
    hand["tags"]["Ruleset"] = "nope"
    [v] = check([hand])
    assert v["problems"][0]["code"] == "unknown-ruleset" and "nope" in v["problems"][0]["message"]


# --- opening and saving ---


def test_a_hand_saved_is_what_gouji_fmt_writes(client, folder):
    opened = client.get("/api/open?file=hand.gjn").json()
    assert opened["base"] == digest(HAND.read_bytes()) and len(opened["hands"]) == 1
    for item in opened["hands"][0]["actions"]:  # as typed: no round numbers
        item["round"] = None
    r = client.post("/api/save", json={"file": "new.gjn", "hands": opened["hands"], "base": None}, headers=SAME)
    assert r.status_code == 200, r.text
    assert (folder / "new.gjn").read_text(encoding="utf-8") == fmt_of(HAND)
    assert r.json()["base"] == digest((folder / "new.gjn").read_bytes())


def test_a_file_changed_on_disk_since_it_was_opened_is_not_overwritten(client, folder):
    opened = client.get("/api/open", params={"file": "hand.gjn"}).json()
    (folder / "hand.gjn").write_text("changed by someone else\n", encoding="utf-8")
    r = client.post(
        "/api/save", json={"file": "hand.gjn", "hands": opened["hands"], "base": opened["base"]}, headers=SAME
    )
    assert r.status_code == 409 and "has changed on disk since it was opened" in r.json()["error"]
    assert (folder / "hand.gjn").read_text(encoding="utf-8") == "changed by someone else\n"
    # a new file that appeared since: not overwritten either
    r = client.post("/api/save", json={"file": "hand.gjn", "hands": opened["hands"], "base": None}, headers=SAME)
    assert r.status_code == 409 and "was created on disk" in r.json()["error"]


def test_a_hand_that_does_not_read_is_not_saved(client, folder):
    hand = example()
    hand["actions"][0]["text"] = "1:TTTZ"
    r = client.post("/api/save", json={"file": "new.gjn", "hands": [hand], "base": None}, headers=SAME)
    assert r.status_code == 400 and r.json()["error"].startswith("hand 1, actions 1: ")
    assert not (folder / "new.gjn").exists()


def test_a_file_that_does_not_read_is_said_in_one_line(client, folder):
    (folder / "bad.gjn").write_text(
        HAND.read_text(encoding="utf-8").replace("2. 4:3333", "2. 4:33Z3"), encoding="utf-8"
    )
    r = client.get("/api/open?file=bad.gjn")
    # line 30 is "2. 4:33Z3", its Z at column 8
    assert r.status_code == 422 and r.json()["error"].startswith("bad.gjn:30:8: ")


# --- the guards ---


@pytest.mark.parametrize("name", ["../hand.gjn", "/etc/passwd", "sub/../../x.gjn", "notes.txt", "link.gjn"])
def test_a_path_outside_the_folder_or_not_a_record_is_refused(client, folder, name):
    os.symlink(HAND, folder / "link.gjn")  # a link out of the folder
    r = client.get("/api/open", params={"file": name})
    assert r.status_code == 403, r.text
    r = client.post("/api/save", json={"file": name, "hands": [example()], "base": None}, headers=SAME)
    assert r.status_code == 403
    assert not (folder.parent / "hand.gjn").exists() and not (folder / "notes.txt").exists()


def test_a_foreign_host_or_origin_is_refused(client):
    # DNS rebinding: a name of another site pointed at 127.0.0.1 sends its own Host
    r = client.get("/api/open", headers={"host": "evil.example:8736"})
    assert r.status_code == 403 and "Host" in r.json()["error"]
    r = client.post("/api/check", json={"hands": [example()]}, headers={"origin": "http://evil.example"})
    assert r.status_code == 403 and "Origin" in r.json()["error"]
    assert client.post("/api/check", json={"hands": [example()]}, headers=SAME).status_code == 200


def test_a_request_that_is_not_json_or_too_large_is_refused(client):
    r = client.post(
        "/api/check", content=b"hands=1", headers={**SAME, "content-type": "application/x-www-form-urlencoded"}
    )
    assert r.status_code == 415
    r = client.post("/api/check", content=b"{not json", headers={**SAME, "content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"].startswith("the request is not JSON")
    big = b'{"hands": "' + b"x" * MAX_BODY + b'"}'
    r = client.post("/api/check", content=big, headers={**SAME, "content-type": "application/json"})
    assert r.status_code == 413
    r = client.post("/api/check", json={"hands": "x"}, headers=SAME)
    assert r.status_code == 400 and r.json()["error"] == "hands: expected a list of 1 to 64 hands"


def test_with_a_token_every_request_needs_it(folder):
    app = create_app(Workspace(folder, "hand.gjn"), hosts=None, token="s3cret")
    with TestClient(app) as c:
        assert c.get("/api/open").status_code == 403
        assert c.get("/api/open?token=wrong").status_code == 403
        assert c.get("/api/open?token=s3cret").status_code == 200
        assert c.get("/api/open", headers={"x-gouji-token": "s3cret", "host": "192.168.1.5:8736"}).status_code == 200


def test_the_server_stops_when_its_block_ends(folder):
    with running(Workspace(folder, "hand.gjn")) as url:
        with urllib.request.urlopen(url + "api/open") as r:
            assert r.status == 200
        port = int(url.rsplit(":", 1)[1].strip("/"))
    with pytest.raises((urllib.error.URLError, ConnectionError)):
        urllib.request.urlopen(url + "api/open", timeout=2)
    with socket.socket() as s:  # nothing listens at the port any more (closed connections may linger)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", port))
        s.listen()


def test_the_command_refuses_a_file_that_is_not_a_record_in_one_line(tmp_path):
    r = CliRunner().invoke(main, ["edit", str(tmp_path / "notes.txt"), "--no-browser"])
    assert r.exit_code == 2 and r.output.strip().endswith("the editor opens and saves .gjn files only")
    bad = tmp_path / "bad.gjn"
    bad.write_text("[Event", encoding="utf-8")
    r = CliRunner().invoke(main, ["edit", str(bad), "--no-browser"])
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1 and "bad.gjn:1:" in r.output


def _started(folder, *options: str) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gouji_record.cli",
            "edit",
            str(folder / "hand.gjn"),
            "--no-browser",
            "--port",
            "0",
            *options,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = proc.stdout.readline()
    match = re.search(r"http://\S+", line)
    assert match, line + proc.stderr.read()
    return proc, match.group(0)


def test_the_command_serves_until_ctrl_c_then_stops_cleanly(folder):
    proc, url = _started(folder)
    try:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", url)  # loopback, no token
        with urllib.request.urlopen(url + "api/open") as r:
            assert r.status == 200
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0 and "Traceback" not in err, err


def test_the_command_elsewhere_than_loopback_needs_its_token(folder):
    proc, url = _started(folder, "--host", "127.0.0.1")  # (--host: the token, wherever it listens)
    try:
        token = re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=([\w-]{20,})", url).group(1)
        bare = url.split("?")[0]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(bare + "api/open")
        assert refused.value.code == 403
        with urllib.request.urlopen(f"{bare}api/open?token={token}") as r:
            assert r.status == 200
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=20)
    assert proc.returncode == 0


def test_the_legal_actions_where_a_hand_stops_list_who_may_burn(client):
    hand = example()
    hand["tags"]["Result"] = "*"
    hand["actions"] = hand["actions"][:16]  # ... 3. 4:QQQQ: a gouji play aimed at seat 1 (002 §9)
    r = client.post("/api/legal", json={"hands": [hand], "hand": 0}, headers=SAME)
    listed = r.json()["legal"]
    # seat 1, the opposite, answers with four cards above QQQQ: of KKKKKKJJJJJJJJJ444444444444 (less
    # TTTTT and 6666 played) only KKKK; or passes. Seats 3 and 5, seat 1's team-mates, may burn it
    # (烧牌, 002 §10): seat 5 with XXKK, as it did; seats 2 and 6, seat 4's team-mates, do nothing
    assert [a for a in listed if a.startswith("1:")] == ["1:KKKK", "1:-", "1:claim"]
    assert "5:*XXKK" in listed and {a.split(":")[0] for a in listed} == {"1", "3", "5"}
    r = client.post("/api/legal", json={"hands": [hand], "hand": 1}, headers=SAME)
    assert r.status_code == 400 and r.json()["error"] == "hand: expected a number from 0 to 0"


def test_a_match_is_judged_within_its_match(client):
    """examples/charter-match.gjn: three hands of one match, each valid with its tribute and first
    lead (what gouji validate says of it); a hand moved out of order is the match's problem."""
    hands = [hand_data(r) for r in gj.read(EXAMPLES / "charter-match.gjn")]
    r = client.post("/api/check", json={"hands": hands}, headers=SAME)
    assert [v["problems"] for v in r.json()["hands"]] == [[], [], []]
    r = client.post("/api/check", json={"hands": [hands[0], hands[2], hands[1]]}, headers=SAME)
    assert [p["code"] for p in r.json()["hands"][1]["problems"]][-1] == "hand-missing"


def test_the_preview_is_the_replay_page_sandboxed(client):
    r = client.post("/api/preview", json={"hands": [example()]}, headers=SAME)
    page = client.get(r.json()["url"])
    assert page.status_code == 200 and "Worked example: one hand under the charter" in page.text
    # its own inline script runs in an origin of its own: it cannot call the editor's API
    assert page.headers["content-security-policy"].startswith("sandbox allow-scripts;")
    assert client.get("/preview/none").status_code == 404
