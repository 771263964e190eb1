"""gouji show and str(Position): what the table looked like before action N (issue 22).

Every expected value is worked by hand from examples/charter-hand.gjn, its deal and its play
section, under the charter (002): the cards each seat holds are the deal less the seat's plays,
the turn, the passes and the round follow the charter's articles cited at each test.

The hand's actions, numbered from 1 as `gouji validate` numbers them:
  round 1:  1 1:TTTTT  2 4:JJJJJ  3 1:-
  round 2:  4 4:3333  5 5:4444  6 6:5555  7 1:6666  8 2:7777  9 3:8888  10 4:9999  11 5:-  12 6:-
            13 1:-  14 2:-  15 3:-
  round 3:  16 4:QQQQ  17 5:*XXKK  18 2:-
  round 4:  19 5:X77777777  20 2:-          round 5:  21 5:D88888888
  round 6:  22 5:5555555555  23 6:-  24 1:-  25 2:-  26 3:-  27 4:-
  round 7:  28 6:AAA  29 2:-  30 3:-        round 8:  31 6:33333333  32 1:-  33 2:-  34 3:-  35 4:-
  round 9:  36 6:9999  37 1:-  38 2:-  39 3:~  40 4:-  41 3:-
  round 10: 42 6:TTTTTTTTTTT  43 2:-  44 3:-
  round 11: 45 6:666666  46 1:KKKKKK  47 2:-  48 3:-  49 4:-
  round 12: 50 1:444444444444 …, and so on to action 69, the last (round 17: 3:DDDX222222222222QQQQQQ).
"""

import json

import pytest
from click.testing import CliRunner

import gouji_record as gj
from gouji_record.cli.main import main
from gouji_record.rules.table import describe, describe_text

from conftest import BAD_CARD_HAND, EXAMPLES

HAND = EXAMPLES / "charter-hand.gjn"
ILLEGAL = EXAMPLES / "charter-hand-illegal.gjn"

# The deal, seat 1 to 6 (strongest first, as the notation writes cards).
DEALT = {
    1: "KKKKKKJJJJJJJJJTTTTT6666444444444444",
    2: "2222KKJJ9999999977777777666666553333",
    3: "DDDX222222222222QQQQQQQQQQQQ88888888",
    4: "AAAAAAAAAAAAAKKKKKKQQQQJJJJJ99993333",
    5: "DXXXKK888888887777777755555555554444",
    6: "AAATTTTTTTTTTT9999666666555533333333",
}


def run(*args, input=None):
    result = CliRunner().invoke(main, [str(a) for a in args], input=input)
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result


def table(at: int, *more) -> dict:
    r = run("show", HAND, "--at", at, "--format", "json", *more)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def held(data: dict) -> list[int]:
    return [s["held"] for s in data["seats"]]


def test_after_a_gouji_play_and_its_answer_the_first_player_is_to_act():
    # before action 3: 1:TTTTT (five tens: 够级, 002 §9) and 4:JJJJJ, its answer (打点) by the opposite.
    # A 够级 play is answered only by the opposite: seat 1 is to act on seat 4's jacks (002 §9).
    data = table(3)
    assert data["before"] == 3 and data["action"] == "1:-"
    assert (data["phase"], data["round"], data["actions"], data["to_act"]) == ("play", 1, 2, 1)
    assert data["top"] == {"seat": 4, "cards": "JJJJJ", "gouji": True, "dead_gouji": False, "unbeatable": False}
    assert held(data) == [31, 36, 36, 31, 36, 36]
    assert data["seats"][0]["cards"] == "KKKKKKJJJJJJJJJ6666444444444444"  # the deal less TTTTT
    assert data["seats"][3]["cards"] == "AAAAAAAAAAAAAKKKKKKQQQQ99993333"  # the deal less JJJJJ
    assert data["seats"][1]["cards"] == DEALT[2] and all(s["unknown"] == 0 for s in data["seats"])
    assert data["passed"] == [] and data["yield"] is None and data["burn"] is None
    assert not any(s["opened"] for s in data["seats"])  # 开点 comes when the round is won, not before


def test_seats_that_passed_are_barred_for_the_round():
    # before action 13: round 2 so far 4:3333 5:4444 6:5555 1:6666 2:7777 3:8888 4:9999 5:- 6:-.
    # Seats 5 and 6 passed on 9999 and may not play again this round (002 §10); four 9s are not
    # 够级 (9 and below never are, 002 §9); seat 1 is next after seat 6.
    data = table(13)
    assert (data["round"], data["actions"], data["to_act"]) == (2, 12, 1)
    assert data["top"]["seat"] == 4 and data["top"]["cards"] == "9999" and not data["top"]["gouji"]
    assert data["passed"] == [5, 6]
    assert held(data) == [36 - 9, 36 - 4, 36 - 4, 36 - 13, 36 - 4, 36 - 4]
    # seat 4 won round 1 with its 够级 JJJJJ: it opened (开点, 002 "活"); nobody else has
    assert [s["seat"] for s in data["seats"] if s["opened"]] == [4]


def test_a_running_burn_and_the_burners_opposite_to_act():
    # before action 18: 4:QQQQ, aimed at seat 1, burned by 5:*XXKK (烧牌, 002 §10). Only seat 2,
    # seat 5's opposite, may answer XXKK (it carries jokers: 够级); seat 1 never passed.
    data = table(18)
    assert data["action"] == "2:-" and (data["round"], data["to_act"]) == (3, 2)
    assert data["top"] == {"seat": 5, "cards": "XXKK", "gouji": True, "dead_gouji": False, "unbeatable": False}
    assert data["burn"] == {"burner": 5, "target": 4}
    assert data["passed"] == []
    assert held(data) == [27, 32, 32, 19, 28, 32]
    # "Left with X, D, eight 7s, eight 8s and ten 5s" (the record's comment)
    assert data["seats"][4]["cards"] == "DX88888888777777775555555555"
    assert data["seats"][3]["cards"] == "AAAAAAAAAAAAAKKKKKK"  # 13 aces and 6 kings: 36 - 17
    assert [s["seat"] for s in data["seats"] if s["opened"]] == [4]  # seat 5 opens when the round is won


def test_a_pending_yield_a_finisher_and_a_headless_seat():
    # before action 40: round 9 so far 6:9999 1:- 2:- 3:~. Seat 3 yielded (让牌) on its opposite's
    # play (002 §12): seat 4 is to act, and the turn comes back to seat 3 if it passes. Seat 5
    # finished first at action 22 (头科), so seat 2, its opposite, is headless (无头, 002 §17).
    data = table(40)
    assert (data["round"], data["actions"], data["to_act"]) == (9, 39, 4)
    assert data["top"]["seat"] == 6 and data["top"]["cards"] == "9999"
    assert data["yield"] == {"seat": 3, "back": False}
    assert data["passed"] == [1, 2]
    assert held(data) == [27, 32, 32, 19, 0, 17]
    assert data["seats"][5]["cards"] == "TTTTTTTTTTT666666"  # 6 has played 5555, AAA, 33333333 and 9999
    five = data["seats"][4]
    assert (five["status"], five["place"], five["cards"]) == ("finished", 1, "")
    assert [s["seat"] for s in data["seats"] if s["headless"]] == [2]
    # opened: 4 (round 1), 5 (round 3, its burn XXKK stood), 6 (round 7, AAA stood)
    assert [s["seat"] for s in data["seats"] if s["opened"]] == [4, 5, 6]


def test_the_four_way_melee_after_first_and_second_place():
    # before action 50: seat 6 took 2nd place at action 45 (666666); with four seats left the melee
    # (四户乱缠) begins with the next round (002 §16, §18): round 12, led by seat 1, which won round 11
    # with KKKKKK. Seat 3, seat 6's opposite, is headless now too.
    data = table(50)
    assert (data["round"], data["to_act"], data["top"], data["melee"]) == (12, 1, None, True)
    assert held(data) == [21, 32, 32, 19, 0, 0]
    assert [(s["seat"], s["place"]) for s in data["seats"] if s["status"] == "finished"] == [(5, 1), (6, 2)]
    assert [s["seat"] for s in data["seats"] if s["headless"]] == [2, 3]


def test_after_the_last_action_the_places_of_the_result():
    # 69 actions: --at 70 is after the last. Result "5-6-1-4-3-2": seat 2 is left holding
    # 2222KKJJ99777766666655 (the deal less 7777, 999999 and 3333) and takes 6th place (大落).
    data = table(70)
    assert data["action"] is None and data["phase"] == "over" and data["to_act"] is None
    assert [s["place"] for s in data["seats"]] == [3, 6, 5, 4, 1, 2]
    assert data["seats"][1]["status"] == "placed" and data["seats"][1]["cards"] == "2222KKJJ99777766666655"
    text = run("show", HAND, "--at", 70).stdout
    assert text.startswith("after the last action, action 69 (第69步之后)\nthe hand is over (一局结束)")
    assert "seat 2  22 cards  2222KKJJ99777766666655  placed 6th (定科, 大落)" in text


def test_text_shows_the_same_table():
    r = run("show", HAND, "--at", 18)
    assert r.exit_code == 0
    assert r.stdout.splitlines() == [
        "before action 18 (第18步之前), 2:-",
        "round 3 (第3轮), 17 actions made (已行17步); seat 2 to act (轮到2号位)",
        "top (桌面): XXKK by seat 5, a gouji play (够级)",
        "burn (烧牌): seat 5 is burning seat 4",
        "seat 1  27 cards  KKKKKKJJJJJJJJJ444444444444",
        "seat 2  32 cards  2222KKJJ999999997777666666553333  to act (轮到)",
        "seat 3  32 cards  DDDX222222222222QQQQQQQQQQQQ8888",
        "seat 4  19 cards  AAAAAAAAAAAAAKKKKKK               opened (开点)",
        "seat 5  28 cards  DX88888888777777775555555555",
        "seat 6  32 cards  AAATTTTTTTTTTT999966666633333333",
    ]
    r = run("show", HAND, "--at", 40)
    assert "yield (让牌): seat 3 yielded, the turn comes back to it if the others pass" in r.stdout
    assert "seat 2  32 cards  2222KKJJ999999997777666666553333  passed (已过牌), headless (无头)" in r.stdout
    assert "finished 1st (走科, 头科), opened (开点)" in r.stdout
    assert "four-way melee (四户乱缠): on" in run("show", HAND, "--at", 50).stdout


def test_a_seat_sees_its_own_cards_and_the_others_counts():
    # seat 2's view before action 18: its own 32 cards; seat 5's 28 and seat 1's 27 as counts only
    r = run("show", HAND, "--at", 18, "--seat", 2)
    assert r.exit_code == 0
    assert "seat 2's view (2号位视角)" in r.stdout.splitlines()[1]
    assert "2222KKJJ999999997777666666553333" in r.stdout
    for other in ("DX88888888777777775555555555", "KKKKKKJJJJJJJJJ444444444444", "AAAAAAAAAAAAAKKKKKK"):
        assert other not in r.stdout
    assert "seat 5  28 cards\n" in r.stdout and "seat 1  27 cards\n" in r.stdout
    # what everyone saw stays: the top play, the burn, who opened
    assert "top (桌面): XXKK by seat 5" in r.stdout and "burn (烧牌): seat 5 is burning seat 4" in r.stdout
    data = table(18, "--seat", 2)
    assert data["view"] == 2
    assert [(s["cards"], s["unknown"]) for s in data["seats"]] == [(None, None)] + [
        ("2222KKJJ999999997777666666553333", 0)
    ] + [(None, None)] * 4
    assert held(data) == [27, 32, 32, 19, 28, 32] and data["seats"][3]["opened"]


def test_cards_the_deal_does_not_give_are_counted_as_unknown(tmp_path):
    # a deal with most cards unknown, as docs/guide.md writes one: 1: TTTTT ?31, 4: QQQQQ ?31
    text = HAND.read_text(encoding="utf-8")
    deal = text[text.index("deal\n") : text.index("\n\nplay")]
    f = tmp_path / "unknown.gjn"
    f.write_text(
        text.replace(deal, "deal\n1: TTTTT ?31\n2: ?\n3: ?\n4: JJJJJ ?31\n5: ?\n6: ?").split("\n2. ")[0]
        .replace('[Result "5-6-1-4-3-2"]', '[Result "*"]'),
        encoding="utf-8",
    )  # fmt: skip
    data = json.loads(run("show", f, "--at", 3, "--format", "json").stdout)
    assert [(s["cards"], s["unknown"], s["held"]) for s in data["seats"]] == [
        ("", 31, 31), ("", 36, 36), ("", 36, 36), ("", 31, 31), ("", 36, 36), ("", 36, 36)
    ]  # fmt: skip
    out = run("show", f, "--at", 3).stdout
    assert "seat 1  31 cards  ?31  to act (轮到)" in out and "seat 2  36 cards  ?36" in out


def test_str_of_a_position_is_its_table():
    result = gj.replay(gj.read(HAND)[0])
    pos = result.positions[17]  # before action 18
    assert str(pos) == describe_text(pos)
    assert str(pos).splitlines()[1] == "top (桌面): XXKK by seat 5, a gouji play (够级)"
    assert describe(pos)["seats"][4]["held"] == 28
    with pytest.raises(ValueError, match="seat 7 is not a seat"):
        describe(pos, 7)


@pytest.mark.parametrize("at", [0, -1])
def test_action_numbers_start_at_1(at):
    r = run("show", HAND, "--at", at)
    assert r.exit_code == 2 and "Invalid value for '--at'" in r.output and "Traceback" not in r.output


def test_past_the_end_is_a_usage_error():
    r = run("show", HAND, "--at", 71)
    assert r.exit_code == 2
    assert "Error: Invalid value for --at: the hand has 69 actions: --at goes from 1 to 70 (after the last)" in r.output
    r = run("show", HAND, "--at", 1, "--hand", 2)
    assert r.exit_code == 2 and f"Invalid value for --hand: {HAND} has 1 hand(s)" in r.output


def test_a_hand_with_an_illegal_action_has_tables_up_to_it():
    # action 2, 3:QQQQQ, is illegal (gouji-not-opposite, line 26 column 30): the table before it is there
    r = run("show", ILLEGAL, "--at", 2)
    assert r.exit_code == 0 and r.stdout.startswith("before action 2 (第2步之前), 3:QQQQQ\n")
    assert "top (桌面): TTTTT by seat 1, a gouji play (够级)" in r.stdout
    r = run("show", ILLEGAL, "--at", 3)
    assert r.exit_code == 1 and r.stdout == ""
    assert r.stderr.splitlines() == [
        f"{ILLEGAL}:27:30: error[gouji-not-opposite]: there is no table before action 3: action 2 is illegal "
        "and the replay stops there (gouji validate says why); --at goes up to 2"
    ]


def test_files_that_cannot_be_read_exit_2(tmp_path):
    missing = tmp_path / "nope.gjn"
    r = run("show", missing, "--at", 1)
    assert r.exit_code == 2 and r.stderr.splitlines()[0] == (
        f"{missing}: error[unreadable]: cannot read the file: No such file or directory"
    )
    bad = tmp_path / "bad.gjn"
    bad.write_text(BAD_CARD_HAND, encoding="utf-8")  # 2. 4:33Z3 on line 30
    r = run("show", bad, "--at", 1)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.splitlines()[0].startswith(f"{bad}:30:8: error[bad-card]: 'Z' is not a card")


def test_standard_input_and_help():
    r = run("show", "-", "--at", 18, "--seat", 5, input=HAND.read_bytes())
    assert r.exit_code == 0 and "seat 5  28 cards  DX88888888777777775555555555" in r.stdout
    text = " ".join(run("show", "--help").output.split())
    assert "FILE - reads standard input" in text
    assert "--encoding NAME Read the input in this encoding (e.g. gb18030, gbk, big5)" in text
    assert "One more than the last action shows the table after it" in text
