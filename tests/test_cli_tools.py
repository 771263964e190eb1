"""gouji rules, gouji beats and gouji moves: the table arguments, answered by the tool."""

import json
import re

import pytest
from click.testing import CliRunner

from gouji_record.cli.main import main
from gouji_record.rules.rulesets import OPTION_NAMES, PRESETS, get_ruleset, with_options

from conftest import EXAMPLES

HAND = EXAMPLES / "charter-hand.gjn"


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in r.output
    return r


@pytest.mark.parametrize(
    "top, play, ruleset, code",
    [
        ("X77", "D88", "charter", 0),  # 002 §8(3): big jokers, no fewer, one rank higher
        ("X77", "888", "charter", 1),
        ("X77", "X88", "charter", 1),  # the charter wants big jokers on a small-joker play
        # 003 §牌张大小 "王是孤立计算的": the small joker takes a big one ("至少需要大王+88")
        ("X77", "X88", "fours", 1),
        ("X77", "D88", "fours", 0),
        ("X77", "DX8", "fours", 0),  # "大王+小王+8当然也可以"
        ("255", "666", "fours", 0),  # 003's worked example
        ("D", "DD", "tournament", 0),  # 004 §5: 大王二杀一
        ("D", "DD", "charter", 1),
        ("X7Z", "888", "charter", 2),
        ("3344", "888", "charter", 2),
    ],
)
def test_beats_exit_codes(top, play, ruleset, code):
    assert run("beats", top, play, "--ruleset", ruleset).exit_code == code


def test_beats_json_says_why_and_classifies():
    r = run("beats", "X77", "D88", "--format", "json")
    info = json.loads(r.output)
    assert info["beats"] is True and info["rule"] == "joker-comparison"
    assert info["source"].startswith("够级大纲 §8(3)")
    assert info["top"] == {"cards": "X77", "playable": True, "gouji": True, "pure": False}
    r = run("beats", "QQQ", "KKK", "--ruleset", "fours", "--format", "json")
    assert json.loads(r.output)["play"] == {"cards": "KKK", "playable": True, "gouji": True, "pure": True}


@pytest.mark.parametrize(
    "top, play, ruleset",
    [
        ("333", "X44", "tournament"),  # 004 §6: 2s and jokers go with any rank "除3、4外"
        ("33", "X44", "fours"),  # 003 §开点 "4不能…贴钱出或挂花出"
        ("2444", "2555", "tournament"),  # 2s on 4s: the top cannot be played, nothing to beat
        ("X44", "555", "tournament"),
    ],
)
def test_beats_refuses_a_play_the_engine_refuses_as_a_shape(top, play, ruleset):
    # the engine's own check (plays.shape_error, used by engine._check_shape): cannot-attach, rule attach
    r = run("beats", top, play, "--ruleset", ruleset, "--format", "json")
    info = json.loads(r.output)
    assert r.exit_code == 1 and info["beats"] is False and info["rule"] == "attach"
    unplayable = [k for k in ("top", "play") if not info[k]["playable"]]
    assert unplayable and all(not info[k]["gouji"] for k in unplayable)
    assert "cannot be played" in info["reason"]
    lines = run("beats", top, play, "--ruleset", ruleset).output.splitlines()
    assert lines[0].startswith("no: ") and "cannot be played" in lines[0]
    shown = {"top": lines[-2], "play": lines[-1]}  # "  CARDS: kind", top first
    assert all(shown[k].endswith(": cannot be played") for k in unplayable)


def test_beats_shapes_that_other_presets_allow():
    # 000 §一手牌, 001 §10-§17, 002 §8(3): 2s and jokers go with every rank, 4s included
    assert run("beats", "333", "X44", "--ruleset", "charter").exit_code == 0
    # 3s under threes held carry nothing (002 §26(3)), whatever the preset: with the option on
    assert run("beats", "X33", "444", "--ruleset", "fours").exit_code == 1
    assert json.loads(run("beats", "X33", "444", "--ruleset", "fours", "--format", "json").output)["rule"] == "attach"


def test_rules_json_lists_every_option_of_every_preset_with_a_source():
    data = json.loads(run("rules", "--format", "json").output)
    assert [p["name"] for p in data] == list(PRESETS)
    for preset in data:
        assert set(preset["options"]) == {o.replace("_", "-") for o in OPTION_NAMES}
        # each source names the rule text by its own title, never the project's file name
        assert all(o["source"].startswith(preset["text"] + " §") for o in preset["options"].values())
    assert [p["text"] for p in data] == ["联众够级规则", "够级游戏规则", "够级大纲", "开点发4", "够级比赛玩法规则"]
    assert not re.search(r"[0-9a-f]{16}\.txt", run("rules", "--format", "json").output + run("rules").output)
    fours = next(p for p in data if p["name"] == "fours")
    assert fours["options"]["threes-held"]["value"] is True


def test_rules_of_one_preset_and_a_bad_name():
    r = run("rules", "tournament")
    assert r.exit_code == 0 and "tournament  big-jokers" in r.output and "charter " not in r.output
    r = run("rules", "moon")
    assert r.exit_code == 2 and "expected one of online, classic, charter, fours, tournament" in r.output


def test_moves_answers_could_seat_x_have_burned_here():
    # after 4:QQQQ (action 15) seat 1, the opposite, is to act; seat 5 burned with XXKK in the record
    r = run("moves", HAND, "--at", "16", "--format", "json")
    data = json.loads(r.output)
    assert data["to_act"] == 1 and data["top"] == {"seat": 4, "cards": "QQQQ"}
    assert "1:-" in data["actions"] and "5:*XXKK" in data["actions"]
    # seat 5 could also have burned with X and three kings? it holds only two kings: no
    assert "5:*XKKK" not in data["actions"]
    # seat 2 holds KK and 2222 but no joker: after burning it could not carry one — no burn
    assert not any(a.startswith("2:*") for a in data["actions"])


def test_moves_text_and_bounds():
    r = run("moves", HAND, "--at", "16")
    # seat 5 (X, D, KK …) burns QQQQ with two jokers on its two kings, XXKK or DXKK: one entry
    assert r.exit_code == 0 and "  burn by seat 5: 5:*KK (+ 1-2 X, 0-1 D: 2 plays)\n" in r.output
    assert "  burn by seat 5: 5:*DXKK 5:*XXKK\n" in run("moves", HAND, "--at", "16", "--each").output
    assert run("moves", HAND, "--at", "999").exit_code == 2


def test_no_output_names_a_rule_text_by_its_file(tmp_path):
    # citations gave "002_2bcb45719b384da3.txt §9": a file name nobody outside the project has. Every
    # output names the text by its title ("够级大纲 §9"), as docs/rules.md lists the five texts
    illegal = str(EXAMPLES / "charter-hand-illegal.gjn")
    page = tmp_path / "page.html"
    outputs = [
        run("validate", illegal).output,
        run("validate", "--format", "json", illegal).output,
        run("export", illegal).output,
        run("moves", str(EXAMPLES / "charter-hand.gjn"), "--at", "16").output,
        run("rules").output,
        run("rules", "--format", "json").output,
        run("beats", "D33", "X44", "--ruleset", "charter", "--format", "json").output,
    ]
    assert run("render", illegal, "-o", str(page)).exit_code == 0
    outputs.append(page.read_text(encoding="utf-8"))
    assert "够级大纲 §9" in outputs[0]
    for text in outputs:
        assert not re.search(r"[0-9a-f]{16}\.txt", text)


def test_options_tag_values_as_documented(tmp_path):
    # the failing input: [Options "gouji-minimum=T:4"] leaked pydantic's "Input should be a valid dictionary"
    text = HAND.read_text(encoding="utf-8").replace("\n\ndeal\n", '\n[Options "gouji-minimum=T:4"]\n\ndeal\n', 1)
    f = tmp_path / "min.gjn"
    f.write_text(text, encoding="utf-8")
    r = run("validate", str(f))
    assert "valid under charter with gouji-minimum=T:4 " in r.output  # and the options changed are named
    f.write_text(text.replace("gouji-minimum=T:4", "gouji-minimum=T4"), encoding="utf-8")
    r = run("validate", str(f))
    assert r.exit_code == 2 and "error[bad-option]: option gouji-minimum: 'T4' is not RANK:COUNT" in r.output
    assert "dictionary" not in r.output
    # switches: yes/no, and true/false, on/off, 1/0 read the same (docs/notation.md 3.1)
    for word, value in (("yes", True), ("true", True), ("on", True), ("1", True), ("no", False), ("off", False)):
        assert with_options(get_ruleset("charter"), {"claim": word}).claim is value
    assert "T:5+J:4+Q:3" in run("rules", "charter").output


def test_a_variant_cites_the_options_that_changed_the_rule(tmp_path):
    # found by the guide's author: under charter with [Options "joker-comparison=both-sides"] the message
    # used the both-sides rule but cited only 002 §8(3), the charter's own big-over-small rule
    from gouji_record.rules.rulesets import with_options

    variant = with_options(get_ruleset("charter"), {"joker-comparison": "both-sides"})
    assert variant.cite("joker-comparison").endswith("; options: joker-comparison=both-sides")
    assert variant.cite("deal") == get_ruleset("charter").cite("deal")  # rules the options do not touch


def test_beats_takes_the_options_a_record_would(tmp_path):
    # found writing the guide: a house rule given in [Options] could not be checked with beats.
    # DX8 on X77: the charter lets a big joker beat a small one with a higher rank (002 §8(3)); under
    # joker-comparison=both-sides (000/001) a big joker played with a small one counts as small: no
    r = run("beats", "X77", "DX8", "--ruleset", "charter")
    assert r.exit_code == 0 and r.output.startswith("yes: DX8 beats X77 (charter)")
    r = run("beats", "X77", "DX8", "--ruleset", "charter", "--option", "joker-comparison=both-sides")
    assert r.exit_code == 1
    assert r.output.startswith("no: X77 carries jokers: it takes big jokers only, and DX8's big jokers count as small")
    assert "(charter with joker-comparison=both-sides)" in r.output
    data = json.loads(run("beats", "X77", "DX8", "--option", "joker-comparison=both-sides", "--format", "json").output)
    assert data["options"] == "joker-comparison=both-sides"
    r = run("beats", "X77", "DX8", "--option", "nosuch=1")
    assert r.exit_code == 2 and "Invalid value for --option: unknown option 'nosuch'" in r.output


def test_moves_groups_plays_that_differ_only_in_their_2s_and_jokers():
    # Failing input (issue 31): after action 68 seat 3 leads round 17 holding DDDX, twelve 2s and
    # six queens (gouji show --at 68), and moves listed 728 actions on one line. By hand, under the
    # charter any rank carries any 2s and jokers (002 §8(3)) and a lead may be any play: for each
    # count of queens, 1 to 6, 13 × 2 × 4 = 104 plays (0-12 2s, 0-1 X, 0-3 D); 2s and jokers alone
    # 104 - 1 (not none) = 103; and the claim (挑牌): 6 × 104 + 103 + 1 = 728.
    data = json.loads(run("moves", HAND, "--at", "68", "--format", "json").output)
    assert len(data["actions"]) == 728 and "3:DDDX222222222222Q" in data["actions"]  # JSON: every one
    r = run("moves", HAND, "--at", "68")
    entries = [f"3:{'Q' * n} (+ 0-12 2s, 0-1 X, 0-3 D: 104 plays)" for n in range(6, 0, -1)]
    entries += ["3:2s and jokers alone (0-12 2s, 0-1 X, 0-3 D: 103 plays)", "3:claim"]
    assert r.exit_code == 0 and r.output.splitlines()[1] == "  seat 3: " + " ".join(entries)
    r = run("moves", HAND, "--at", "68", "--limit", "3")
    assert r.output.splitlines()[1] == "  seat 3: " + " ".join(entries[:3]) + " … 5 more (--limit 3)"
    each = run("moves", HAND, "--at", "68", "--each").output.splitlines()[1].split()
    assert len(each) == 2 + 728 and set(each[2:]) == set(data["actions"])
    # a lead of seat 2 (2222KKJJ99777766666655 after action 65 … 2s on any rank): 666666 with 0-4 2s
    assert "2:666666 (+ 0-4 2s: 5 plays)" in run("moves", HAND, "--at", "65").output
