"""The HTML replay: data for every step, and nothing from a record runs as code."""

import json
import re

from gouji_record import parse, read, render_html, replay
from gouji_record.render.html import replay_data

from conftest import EXAMPLES


def embedded(html):
    m = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(m.group(1))


def test_frames_follow_the_hand():
    data = replay_data(replay(read(EXAMPLES / "charter-hand.gjn")[0]))
    assert len(data["frames"]) == len(data["actions"]) + 1 == 70
    assert data["frames"][0]["counts"] == [36] * 6
    after_burn = data["frames"][17]  # after action 16, 5:*XXKK
    assert after_burn["top"] == {"seat": 5, "cards": "XXKK"} and after_burn["burner"] == 5
    assert after_burn["counts"][4] == 36 - 4 - 4
    assert after_burn["trick"] == [15, 16]
    assert data["places"] == [5, 6, 1, 4, 3, 2]


def test_script_cannot_be_closed_from_a_comment():
    text = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
    evil = "</script><script>alert(1)</script>"
    text = text.replace("{Seats 1 3 5", "{" + evil + " Seats 1 3 5").replace('"Zhang Wei"', '"<b>Zhang</b>"')
    html = render_html(parse(text)[0])
    assert evil not in html and "<b>Zhang</b>" not in html
    assert "&lt;b&gt;Zhang&lt;/b&gt;" in html
    assert embedded(html)["comment"][0].startswith(evil)


def test_invalid_record_replays_up_to_the_illegal_action():
    data = replay_data(replay(read(EXAMPLES / "charter-hand-illegal.gjn")[0]))
    assert data["diagnostic"]["code"] == "gouji-not-opposite" and data["diagnostic"]["action"] == 1
    assert len(data["frames"]) == 2
