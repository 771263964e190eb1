"""gouji edit without a browser: the editor's API (gouji_record.editor) through Starlette's test
client, and the guards of the server. The expected values are worked out by hand from
examples/charter-hand.gjn and the rule texts (the section is named at each); the browser's part
is tests/test_browser_editor.py."""

from __future__ import annotations

import copy
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
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


# --- hostile input: a 4xx with a one-line reason, never a 500 (issue 38, editor-500.sh) ---

LONG = "x" * 5000 + ".gjn"  # editor-500.sh: over NAME_MAX (255 bytes) and PATH_MAX (4096)
NESTED = '{"hands": [' + "[" * 100000 + "]" * 100000 + "]}"  # editor-500.sh


def one_line(r) -> str:
    """The reason of the refusal ``r``: JSON ``{"error": "…"}``, one line."""
    assert 400 <= r.status_code < 500 and r.headers["content-type"] == "application/json", (r.status_code, r.text)
    error = r.json()["error"]
    assert isinstance(error, str) and error and len(error.splitlines()) == 1 and len(error) < 400, error
    return error


def send(client, route: str, body) -> object:
    """POST ``body`` to ``/api/ROUTE`` as a browser's JSON.stringify writes it (lone surrogates escaped)."""
    return client.post(f"/api/{route}", content=json.dumps(body), headers={**SAME, "content-type": "application/json"})


def test_a_name_longer_than_the_system_allows_is_refused_in_one_line(client, folder):
    # 5000 characters: reprlib keeps 38 and 39 of the 5006 of its repr, '...' between
    shown = "'" + "x" * 37 + "..." + "x" * 34 + ".gjn'"
    assert one_line(client.get("/api/open", params={"file": LONG})) == shown + ": File name too long"
    r = client.post("/api/save", json={"file": LONG, "hands": [example()], "base": None}, headers=SAME)
    assert one_line(r) == shown + ": File name too long" and r.status_code == 400
    deep = "a/" * 3000 + "b.gjn"  # each part short, the whole over PATH_MAX
    assert client.get("/api/open", params={"file": deep}).status_code == 400
    assert sorted(p.name for p in folder.iterdir()) == ["hand.gjn"]


@pytest.mark.parametrize("route", ["check", "legal", "save", "preview"])
def test_a_body_nested_deeper_than_the_parser_reads_is_refused(client, route):
    r = client.post(f"/api/{route}", content=NESTED, headers={**SAME, "content-type": "application/json"})
    assert one_line(r) == "the request is not JSON the editor reads: nested too deeply"


def test_saving_into_a_folder_that_is_not_there_is_refused_then_saved_once_it_is(client, folder):
    body = {"file": "sub/new.gjn", "hands": [example()], "base": None}
    r = client.post("/api/save", json=body, headers=SAME)
    assert r.status_code == 404 and one_line(r) == "'sub/new.gjn': no such folder 'sub'"
    assert not (folder / "sub").exists()
    assert client.get("/api/open", params={"file": "sub/new.gjn"}).status_code == 404
    (folder / "sub").mkdir()
    assert client.post("/api/save", json=body, headers=SAME).status_code == 200
    assert (folder / "sub" / "new.gjn").read_text(encoding="utf-8") == fmt_of(HAND)


def test_a_name_that_is_not_a_file_is_refused_and_never_opened(client, folder):
    (folder / "dir.gjn").mkdir()
    os.mkfifo(folder / "fifo.gjn")  # opened, it would wait for a writer forever
    os.symlink("loop.gjn", folder / "loop.gjn")
    expected = {
        "dir.gjn": (400, "'dir.gjn': not a file"),
        "fifo.gjn": (400, "'fifo.gjn': not a file"),
        "loop.gjn": (400, "'loop.gjn': Too many levels of symbolic links"),
        "hand.gjn/x.gjn": (404, "'hand.gjn/x.gjn': Not a directory"),  # a file where a folder is named
    }
    for name, (status, error) in expected.items():
        r = client.get("/api/open", params={"file": name})
        assert (r.status_code, one_line(r)) == (status, error), name
        r = client.post("/api/save", json={"file": name, "hands": [example()], "base": None}, headers=SAME)
        assert (r.status_code, one_line(r)) == (status, error), name
    assert (folder / "hand.gjn").read_bytes() == HAND.read_bytes()


@pytest.mark.parametrize(
    ("name", "error"),
    [
        (5, "file: expected the name of a .gjn file of the folder, or null"),
        ([], "file: expected the name of a .gjn file of the folder, or null"),
        (True, "file: expected the name of a .gjn file of the folder, or null"),
        ("a\nb.gjn", "'a\\nb.gjn': a file name holds no control character or lone surrogate"),
        ("a\0.gjn", "'a\\x00.gjn': a file name holds no control character or lone surrogate"),
        ("\udc80.gjn", "'\\udc80.gjn': a file name holds no control character or lone surrogate"),
        ("\ud800.gjn", "'\\ud800.gjn': a file name holds no control character or lone surrogate"),
    ],
)
def test_a_file_name_that_is_not_clean_text_is_refused(client, folder, name, error):
    # '\udc80' would have been written as the byte 0x80, a name the answer cannot say in UTF-8
    r = send(client, "save", {"file": name, "hands": [example()], "base": None})
    assert r.status_code == 400 and one_line(r) == error
    assert sorted(os.listdir(folder)) == ["hand.gjn"]


def test_a_read_only_file_is_not_saved_and_a_refusal_of_the_system_is_said(client, folder, monkeypatch):
    opened = client.get("/api/open", params={"file": "hand.gjn"}).json()
    os.chmod(folder / "hand.gjn", 0o444)
    body = {"file": "hand.gjn", "hands": opened["hands"], "base": opened["base"]}
    r = client.post("/api/save", json=body, headers=SAME)
    assert r.status_code == 403 and one_line(r) == "'hand.gjn' is read-only: not saved"
    os.chmod(folder / "hand.gjn", 0o644)

    def denied(self):  # as root, chmod cannot make a file unreadable
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(type(folder), "read_bytes", denied)
    r = client.get("/api/open", params={"file": "hand.gjn"})
    assert r.status_code == 403 and one_line(r) == "'hand.gjn': Permission denied"
    assert client.post("/api/save", json=body, headers=SAME).status_code == 403
    monkeypatch.undo()
    assert (folder / "hand.gjn").read_bytes() == HAND.read_bytes()


def test_a_save_the_system_cannot_finish_leaves_the_file_as_it_was(client, folder, monkeypatch):
    opened = client.get("/api/open", params={"file": "hand.gjn"}).json()

    def full(src, dst):  # the disk full as the new text replaces the old
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    body = {"file": "hand.gjn", "hands": opened["hands"], "base": opened["base"]}
    r = client.post("/api/save", json=body, headers=SAME)
    assert r.status_code == 500 and r.json() == {
        "error": "'hand.gjn': cannot write the file: No space left on device: not saved"
    }
    assert sorted(os.listdir(folder)) == ["hand.gjn"] and (folder / "hand.gjn").read_bytes() == HAND.read_bytes()


def test_a_body_that_is_not_utf8_json_is_refused(client):
    json_ = {**SAME, "content-type": "application/json"}
    r = client.post("/api/check", content=b'{"hands": "\xe9"}', headers=json_)  # Latin-1
    assert one_line(r).startswith("the request is not JSON: 'utf-8' codec can't decode byte 0xe9 in position 11")
    r = client.post("/api/check", content=b'{"hands": "\xed\xa0\x80"}', headers=json_)  # a surrogate, encoded
    assert one_line(r).startswith("the request is not JSON: 'utf-8' codec can't decode byte 0xed in position 11")
    r = client.post("/api/check", content='{"hands": []}'.encode("utf-16"), headers=json_)
    assert one_line(r).startswith("the request is not JSON: 'utf-8' codec can't decode byte 0xff in position 0")
    r = client.post("/api/check", content=b"[1]", headers=json_)
    assert one_line(r) == "the request is not a JSON object"


def test_a_route_or_method_that_is_not_the_editors_is_refused_in_json(client):
    r = client.get("/api/save", headers=SAME)
    assert r.status_code == 405 and one_line(r) == "GET is not a method of this route" and r.headers["allow"] == "POST"
    r = client.delete("/api/open", headers=SAME)
    assert r.status_code == 405 and set(r.headers["allow"].split(", ")) == {"GET", "HEAD"}
    r = client.get("/api/nothing")
    assert r.status_code == 404 and one_line(r) == "no such page or API route"


def test_editor_500_sh_the_command_answers_4xx_without_a_traceback(folder):
    """editor-500.sh as it was run: gouji edit in its own process, the long name, the nested body,
    then the server still answers; Ctrl-C; no traceback on its stderr."""
    proc, url = _started(folder)
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url + "api/open?file=" + LONG)
        assert refused.value.code == 400
        request = urllib.request.Request(
            url + "api/check", data=NESTED.encode(), headers={"content-type": "application/json"}
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request)
        assert refused.value.code == 400
        with urllib.request.urlopen(url + "api/open") as r:
            assert r.status == 200
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    assert proc.returncode == 0 and "Traceback" not in err and "ERROR" not in err, err


# --- the fuzz: any request, any body, any name: never a 500, nothing written but what a save says ---

EXAMPLE = example()
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=10,
)
NAME_PARTS = st.sampled_from(
    ["hand.gjn", "new.gjn", "dir.gjn", "fifo.gjn", "loop.gjn", "link.gjn", "sub", "nosuch", "..", ".", "",
     "x" * 300, "/etc", "\\", "\0", "\udc80", "\ud800", "\n", "é"]
) | st.text(max_size=8)
NAMES = st.builds(
    lambda parts, suffix: "/".join(parts) + suffix,
    st.lists(NAME_PARTS, min_size=1, max_size=4),
    st.sampled_from(["", "", ".gjn", ".GJN", ".txt", "/"]),
)


@st.composite
def hands(draw) -> object:
    """The example hand (as the page sends it) with up to three of its parts replaced by any
    JSON value, or by text where text goes."""
    hand = copy.deepcopy(EXAMPLE)
    for _ in range(draw(st.sampled_from([0, 1, 1, 2, 3]))):
        value = draw(JSON_VALUES | st.text(max_size=20) | st.sampled_from(["", "-", "?36", "1:TTTTT", "^2:JJJJJ"]))
        where = draw(st.sampled_from(["field", "field", "tag", "tag", "deal", "deal", "item", "cut", "hand", "whole"]))
        if where == "whole":
            return value
        if where == "hand":
            hand[draw(st.sampled_from(["tags", "deal", "comment", "preplay", "actions", "other"]))] = value
        elif where == "tag" and isinstance(hand.get("tags"), dict):
            tag = draw(st.sampled_from(["Ruleset", "Options", "Result", "Event", "Seat3"]) | st.text(max_size=6))
            hand["tags"][tag] = value
        elif where == "deal" and isinstance(hand.get("deal"), list) and hand["deal"]:
            hand["deal"][draw(st.integers(0, len(hand["deal"]) - 1))] = value
        elif where in ("item", "field") and isinstance(hand.get("actions"), list) and hand["actions"]:
            i = draw(st.integers(0, len(hand["actions"]) - 1))
            if where == "item" or not isinstance(hand["actions"][i], dict):
                hand["actions"][i] = value
            else:
                field = draw(st.sampled_from(["text", "glyph", "nags", "comments", "round", "other"]))
                hand["actions"][i][field] = value
        elif where == "cut" and isinstance(hand.get("actions"), list):
            del hand["actions"][draw(st.integers(0, len(hand["actions"]))) :]
    return hand


THE_FILES = "the file's"  # in a body: the digest of examples/charter-hand.gjn, the folder's hand.gjn
CALLS = st.fixed_dictionaries(
    {"hands": st.lists(hands(), min_size=1, max_size=2) | JSON_VALUES},
    optional={
        "file": st.sampled_from([None, "hand.gjn", "new.gjn", "sub/new.gjn"]) | NAMES | JSON_VALUES,
        "base": st.sampled_from([THE_FILES, None, "0" * 64]) | JSON_VALUES,
        "hand": st.integers(-1, 2) | JSON_VALUES,
    },
).map(lambda body: json.dumps(body).replace(json.dumps(THE_FILES), json.dumps(digest(HAND.read_bytes()))).encode())
BODIES = st.one_of(
    CALLS,
    JSON_VALUES.map(lambda v: json.dumps(v).encode()),
    st.integers(1, 3000).map(lambda n: ('{"hands": ' + "[" * n + "]" * n + "}").encode()),
    st.binary(max_size=40),
)
ROUTES = ["/", "/editor.js", "/api/open", "/api/check", "/api/legal", "/api/save", "/api/preview", "/preview/x"]
ROUTES += ["/api/x"]  # no such route


def _workspace(root: Path) -> Path:
    """A folder as a user's may be (the example, a directory, a FIFO, a loop of links, a link out
    of it) beside a file outside it."""
    (root / "outside.gjn").write_bytes(HAND.read_bytes())
    ws = root / "ws"
    (ws / "sub").mkdir(parents=True)
    (ws / "hand.gjn").write_bytes(HAND.read_bytes())
    (ws / "dir.gjn").mkdir()
    os.mkfifo(ws / "fifo.gjn")
    os.symlink("loop.gjn", ws / "loop.gjn")
    os.symlink(root / "outside.gjn", ws / "link.gjn")
    return ws


def _files(root: Path) -> dict[str, bytes]:
    """The regular files under ``root`` (links not followed): their bytes by name."""
    files = (p for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink())
    return {str(p.relative_to(root)): p.read_bytes() for p in files}


def _answered(method: str, route: str, name, body: bytes, headers: dict[str, str]) -> None:
    """Send one request to the editor of a new :func:`_workspace`; check it is answered below 500
    (an exception of the application is raised by the test client), a refusal in one line, and
    that nothing is written but what a save answered it wrote (which then opens again): no
    temporary file left, nothing outside the folder."""
    with tempfile.TemporaryDirectory() as where:
        root = Path(where)
        ws = _workspace(root)
        files = _files(root)
        with TestClient(create_app(Workspace(ws, "hand.gjn"), hosts=frozenset({"testserver"}))) as client:
            query = "" if name is None else "?file=" + urllib.parse.quote(name.encode("utf-8", "surrogatepass"))
            r = client.request(method, route + query, content=body, headers=headers)
            assert r.status_code < 500, r.text
            event(f"{method} {route}: {r.status_code}")
            if r.status_code >= 400 and method != "HEAD":
                one_line(r)
            if method == "POST" and route == "/api/save" and r.status_code == 200:
                saved = r.json()
                files[str(Path("ws", saved["file"]))] = saved["text"].encode("utf-8")
                assert client.get("/api/open", params={"file": saved["file"]}).status_code == 200
            assert _files(root) == files


@settings(max_examples=150, deadline=None)
@given(
    method=st.sampled_from(["POST", "GET", "PUT", "DELETE", "HEAD", "OPTIONS"]),
    route=st.sampled_from(ROUTES),
    name=st.none() | NAMES,
    content_type=st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain", None]),
    origin=st.sampled_from([None, "http://testserver", "http://evil.example"]),
    body=BODIES,
)
def test_no_request_gets_a_500(method, route, name, content_type, origin, body):
    headers = {k: v for k, v in (("content-type", content_type), ("origin", origin)) if v is not None}
    _answered(method, route, name, body, headers)


@settings(max_examples=400, deadline=None)
@given(
    route=st.sampled_from(["/api/open", "/api/check", "/api/legal", "/api/save", "/api/save", "/api/preview"]),
    name=NAMES,
    body=CALLS,
)
def test_no_call_of_the_api_gets_a_500_and_only_a_save_writes(route, name, body):
    method = "GET" if route == "/api/open" else "POST"
    _answered(method, route, name if method == "GET" else None, body, {**SAME, "content-type": "application/json"})
