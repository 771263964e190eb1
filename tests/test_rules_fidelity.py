"""Rules fidelity, round two: who is headless, when the melee begins, who leads, what opens, yields.

Every expected value is worked out by hand from the seed texts cited (shared/seeds/: 000 ``online``,
001 ``classic``, 002 ``charter``, 003 ``fours``, 004 ``tournament``). Seats 1–6 act in order;
opposites 1-4, 2-5, 3-6. Each bug fixed here keeps its failing input as a test.
"""

from __future__ import annotations

import pytest
from test_presets import Hand, spare

from gouji_record.model import Action, ActionKind
from gouji_record.rules.engine import step
from gouji_record.rules.events import IllegalAction
from gouji_record.rules.rulesets import get_ruleset, with_options

PRESETS = ("online", "classic", "charter", "fours", "tournament")


def illegal(hand: Hand, action: Action):
    with pytest.raises(IllegalAction) as e:
        step(hand.pos, action)
    return e.value.diagnostic


# =============================================================================================
# The seat named when a round must be led (bug: the diagnostic named the seat that acted)
# =============================================================================================


@pytest.mark.parametrize("preset", PRESETS)
def test_a_pass_where_another_seat_leads_names_the_leader(preset):
    # failing input: seat 1 leads round 1, seat 2 passes — "seat 2 leads this round and must play"
    d = Hand(spare(s1="55"), preset).illegal("2:-")
    assert (d.code, d.rule, d.message) == ("not-your-turn", "turn-order", "seat 1 leads round 1, not seat 2")


@pytest.mark.parametrize("kind", [ActionKind.PASS, ActionKind.YIELD, ActionKind.WIND, ActionKind.CLAIM])
def test_every_action_out_of_turn_at_a_lead_names_the_leader(kind):
    # failing input: 1:DKK 4:- under the charter. D KK carries a big joker: dead (002 §8(3)), the
    # round closes at once and seat 1 leads round 2 — not seat 4.
    t = Hand(spare(s1="DKK55"), "charter")
    t.play("1:DKK")
    assert t.pos.top is None and t.pos.to_act == 1
    d = illegal(t, Action(seat=4, kind=kind))
    assert (d.code, d.message) == ("not-your-turn", "seat 1 leads round 2, not seat 4")
    if kind is not ActionKind.CLAIM:  # the leader itself may not pass, yield or ask for the wind
        d = illegal(t, Action(seat=1, kind=kind))
        assert (d.code, d.rule) == ("must-lead", "round-end")
        assert d.message == f"seat 1 leads round 2 and must play, not {kind.value}"


def test_a_yielder_acting_early_is_told_it_yielded():
    # 002 §12: seat 4 yields on its opposite's 5; it acts again only when seats 5 and 6 have passed
    t = Hand(spare(s1="5", s4="6", s5="7"), "charter")
    d = t.illegal("1:5 2:- 3:- 4:~ 4:6")
    assert (d.code, d.rule) == ("passed-this-round", "yield")


# =============================================================================================
# 000 开点: the list of exceptions wins over the general sentence
# =============================================================================================
#
# 000 §开点 "用除大花以外的够级牌…取得一次发牌权时称为开点"; then "以下够级牌不能算是开点：1 有大花、小花
# 不开点，单张不开点 2 大花、小花、钱不开点". The test_presets OPENING table has the rows per preset.


@pytest.mark.parametrize(
    "lead, opens",
    [("X55", False), ("X", False), ("2", False), ("22", False), ("222", False), ("2QQ", True), ("KK", True)],
)
def test_online_opening_exceptions(lead, opens):
    t = Hand(spare(s1=lead + "4455"), "online")
    t.play(f"1:{lead}")
    assert t.close_round().to_act == 1
    assert (1 in t.pos.opened) is opens


def test_online_general_sentence_as_an_option():
    # a club reading only "除大花以外": a small-joker play and 2s alone open
    rules = with_options(get_ruleset("online"), {"opening-excludes": "big-joker"})
    for lead in ("X55", "22"):
        t = Hand(spare(s1=lead + "4455"), rules)
        t.play(f"1:{lead}")
        t.close_round()
        assert t.pos.opened == {1}, lead


# =============================================================================================
# Headless (无头): 001 only after a revolution; the others when the opposite leaves play
# =============================================================================================

# Seat 1 plays out first; everyone passes its last play and seat 2 takes the wind (接风). Seat 2
# leads 44, seat 4 beats it with 66 and wins the round (seat 3 passed: barred), then leads KK.
FINISH_DEAL = {1: "5", 2: "4433", 3: "33", 4: "KK6633", 5: "AA33", 6: "33"}
FINISH_MOVES = "1:5 2:- 3:- 4:- 5:- 6:- 2:44 3:- 4:66 5:- 6:- 2:-"


def test_classic_finisher_opposite_is_not_headless():
    # 001 §73-§76: 無頭 only after 革命. Seat 4's KK is a 够级 play aimed at seat 1, who has finished:
    # nobody may answer it but a burner (001 §53, §54); seat 5 has a turn only to burn or pass.
    t = Hand(FINISH_DEAL, "classic")
    pos = t.play(FINISH_MOVES)
    assert "headless" not in t.kinds() and not pos.headless(4)
    pos = t.play("4:KK")
    assert pos.top.restricted and pos.to_act == 5 and t.kinds()[-1] == "gouji"
    d = t.illegal("5:AA")
    assert (d.code, d.rule) == ("gouji-not-opposite", "gouji-opposite-only")
    assert "its opposite, seat 1, is out of play" in d.message
    # nobody burns: seat 4 wins the round with KK and opens (KK is not among 001 §39's exceptions)
    pos = t.play("5:- 6:- 2:- 3:-")
    assert pos.top is None and pos.to_act == 4 and pos.opened == {4}
    assert t.kinds()[-1] == "open"


def test_classic_finisher_opposite_may_be_burned():
    # 001 §54 "當任意一人發夠級牌時…其他人可以優先進行燒牌": AA on KK, leaving 33 (one play)
    t = Hand(FINISH_DEAL, "classic")
    pos = t.play(FINISH_MOVES + " 4:KK 5:*AA")
    assert pos.burner == 5 and t.kinds()[-3:] == ["gouji", "burn", "gouji"]


@pytest.mark.parametrize("preset", ["online", "charter"])
def test_finisher_opposite_is_headless_elsewhere(preset):
    # 000 §无头, 002 §17 "头科产生后，其对头的够级对象不复存在称无头…其他持牌人…都可灭之": seat 4's KK
    # is not a 够级 play, and seat 5 beats it in turn
    t = Hand(FINISH_DEAL, preset)
    pos = t.play(FINISH_MOVES)
    assert pos.headless(4) and "headless" in t.kinds()
    pos = t.play("4:KK 5:AA")  # seat 5's AA is a 够级 play of its own, aimed at seat 2
    assert pos.top.seat == 5 and [e.seats for e in t.events if e.kind.value == "gouji"] == [(5, 2)]


def test_classic_as_the_others_by_option():
    rules = with_options(get_ruleset("classic"), {"headless-after": "finish"})
    t = Hand(FINISH_DEAL, rules)
    assert t.play(FINISH_MOVES + " 4:KK 5:AA").top.seat == 5


# Seat 1 leads TTTTT; seat 2 burns it with XJJJJ, keeping D55 33; seat 5 (its opposite) passes, seat 2
# leads 55 without a joker before its last play: the burn fails, seat 2 is out (大落). Seat 3 leads.
FAILED_BURN_DEAL = spare(s1="TTTTT55", s2="XJJJJD55", s3="6", s5="2", s6="X")
FAILED_BURN_MOVES = "1:TTTTT 2:*XJJJJ 5:- 2:55"


def test_online_failed_burner_opposite_is_headless():
    # 000 §烧牌 "烧失败，算大落"; 000 §无头's reason "其对桌的够级对象不复存在" holds for seat 5 as after
    # 头科: it is headless, so its single 2 is no 够级 play and seat 6 beats it in turn
    t = Hand(FAILED_BURN_DEAL, "online")
    pos = t.play(FAILED_BURN_MOVES)
    assert pos.out == (2,) and pos.headless(5) and t.kinds()[-3:] == ["burn-failure", "out", "headless"]
    pos = t.play("3:6 4:- 5:2 6:X")
    assert pos.top.seat == 6


@pytest.mark.parametrize("rules", [with_options(get_ruleset("online"), {"headless-after": "finish"}), "classic"])
def test_failed_burner_opposite_not_headless(rules):
    # the literal reading of 000 (option), and 001 (no 無頭 but after 革命): seat 5's 2 is a 够级 play
    # aimed at seat 2, which is out: only a burn answers it
    t = Hand(FAILED_BURN_DEAL, rules)
    pos = t.play(FAILED_BURN_MOVES)
    assert not pos.headless(5) and "headless" not in t.kinds()
    pos = t.play("3:6 4:- 5:2")
    assert pos.top.restricted and pos.to_act == 6
    assert t.illegal("6:X").code == "gouji-not-opposite"
    assert t.play("6:*X").burner == 6


def test_fours_smothered_seat_opposite_is_headless():
    # 003 §被闷 "当没人出完牌而有人被闷时，他的对家进入无头状态": seat 1 is smothered, seat 4 headless
    t = Hand(spare(s1="55", s2="66"), "fours")
    pos = t.play("1:55 2:66")
    assert pos.out == (1,) and pos.headless(4) and "headless" in t.kinds()
    rules = with_options(get_ruleset("fours"), {"headless-after": "finish"})
    t = Hand(spare(s1="55", s2="66"), rules)
    assert not t.play("1:55 2:66").headless(4) and "headless" not in t.kinds()


# =============================================================================================
# 002: a headless seat answers a finisher's 够级 last play; the melee begins after that round
# =============================================================================================

LAST_PLAY_DEAL = {1: "55", 2: "KK", 3: "3333", 4: "AA33", 5: "66", 6: "77"}


@pytest.mark.parametrize("preset", ["online", "charter"])
def test_headless_seat_answers_second_place_gouji_last_play(preset):
    # failing input (charter): seat 1 takes 1st (seat 4 headless), seat 2 takes the wind and plays out
    # with KK, a 够级 play, as 2nd place. 002 §16 "如底牌为够级牌则只有有权处理此够级牌的人方可发牌";
    # §17 "无头者对其他持牌者亦行使同样的职权" (000 §无头 the same): headless seat 4 answers it.
    t = Hand(LAST_PLAY_DEAL, preset)
    pos = t.play("1:55 2:- 3:- 4:- 5:- 6:- 2:KK")
    assert pos.finished == (1, 2) and pos.to_act == 4
    # the melee is due but has not begun: it was logged at the action of the last play
    assert not pos.melee and "melee" not in t.kinds()
    pos = t.play("4:AA")
    assert pos.top.seat == 4 and "dead-gouji" not in t.kinds()  # only the opposite gets a 够死级
    pos = t.play("5:- 6:- 3:-")
    assert pos.top is None and pos.to_act == 4 and pos.melee
    melee = t.event("melee")
    assert melee.action == 10 and melee.seats == (3, 4, 5, 6)  # with the round's last pass (3:-)


@pytest.mark.parametrize("preset", ["online", "classic", "charter"])
def test_no_head_seat_answers_first_place_gouji_last_play(preset):
    # seat 1 revolts, seat 4 declares 无头; seat 2 plays out first with KK. 001 §76 "宣布無頭的玩家也可以
    # 任意接其他玩家的牌"; 002 §17. With a revolter the melee is due at 1st place (000 §四人乱缠).
    t = Hand(LAST_PLAY_DEAL, preset, leader=2)
    pos = t.play("1:revolt 4:no-head 2:KK")
    assert pos.to_act == 4 and not pos.melee
    pos = t.play("4:AA 5:- 6:- 3:-")
    assert pos.to_act == 4 and pos.melee and t.kinds()[-1] == "melee"


def test_tournament_headless_seat_still_only_burns():
    # 004 §14: any non-opposite beating a 够级 play is 捎牌 (option headless-answers-gouji=no); 004 §10
    # "二科产生后，过牌限制自动解除": the melee begins at once (melee-begins=at-once)
    rules = with_options(get_ruleset("tournament"), {"threes-held": "no", "dead-gouji-on-last-play": "gouji"})
    t = Hand(LAST_PLAY_DEAL, rules)
    pos = t.play("1:55 2:- 3:- 4:- 5:- 6:- 2:KK")
    assert pos.to_act == 5 and pos.melee
    assert t.illegal("4:AA").code == "gouji-not-opposite"


# =============================================================================================
# 001: an unanswered 够级 play in the melee opens
# =============================================================================================

# Seats 1 and 2 play out; the melee begins with the next round, led by seat 3 (接风): QQQ, all pass.
MELEE_DEAL = {1: "5", 2: "7", 3: "QQQ33", 4: "33", 5: "33", 6: "33"}
MELEE_MOVES = "1:5 2:7 3:- 4:- 5:- 6:- 3:QQQ 4:- 5:- 6:-"


@pytest.mark.parametrize("preset, opens", [("online", False), ("classic", True), ("charter", False)])
def test_opening_in_the_melee(preset, opens):
    # 001 §38 "如果一方打出的夠級牌，無人接牌，使得自己獲得出牌權，則該玩家開點" names no time, and §82 still
    # calls them 夠級牌 in the melee; 000 §开点 "在四户乱缠前", 002 §24 "二科产生前"
    t = Hand(MELEE_DEAL, preset)
    pos = t.play(MELEE_MOVES)
    assert pos.melee and pos.to_act == 3 and "gouji" not in t.kinds()
    assert (3 in pos.opened) is opens


def test_classic_opening_in_the_melee_by_option():
    rules = with_options(get_ruleset("classic"), {"opening-in-melee": "no"})
    assert 3 not in Hand(MELEE_DEAL, rules).play(MELEE_MOVES).opened


def test_classic_gouji_play_in_the_round_of_second_place():
    # 001 §82 "頭科、二科產生后，其余四人不再按夠級、過牌、讓牌、燒牌等規則進行": 2nd place's last play (7) is
    # no 够级 play and leaves no 够死级 chance (§79-§80), so the melee begins with it
    # (melee-begins=after-dead-gouji): seat 3's single 2 is no 够级 play, and seat 4 may beat it.
    deal = {1: "5", 2: "7", 3: "233", 4: "X33", 5: "33", 6: "33"}
    t = Hand(deal, "classic")
    pos = t.play("1:5 2:7 3:2")
    assert pos.melee and not pos.top.restricted and pos.to_act == 4
    assert t.play("4:X").top.seat == 4
    # read as the charter reads 002 §16 (melee-begins=next-round), the round of 2nd place's last play
    # is played out under the 够级 rules: the 2 is a 够级 play aimed at seat 6; seat 4 is not
    # headless under 001 and may not answer it
    from gouji_record.rules.rulesets import get_ruleset, with_options

    t = Hand(deal, with_options(get_ruleset("classic"), {"melee-begins": "next-round"}))
    pos = t.play("1:5 2:7 3:2")
    assert pos.top.restricted and pos.to_act == 6
    assert t.illegal("4:X").code == "gouji-not-opposite"


# =============================================================================================
# 003: no yield when the downstream neighbour and partner have both passed
# =============================================================================================

# Seat 4 leads 5; seats 5 and 6 pass; seat 1 (its opposite) plays 6; seats 2 and 3 pass: seat 4's turn.
YIELD_DEAL = spare(s1="69", s4="58")
YIELD_MOVES = "4:5 5:- 6:- 1:6 2:- 3:- 4:~"


def test_fours_no_yield_to_seats_that_passed():
    # 003 §让牌 "如果你的下家和下联都过了，你就不能让牌了"
    d = Hand(YIELD_DEAL, "fours", leader=4).illegal(YIELD_MOVES)
    assert (d.code, d.rule) == ("yield-not-allowed", "yield")
    assert "seats 5 and 6" in d.message
    # a yield while they may still act is the ordinary 让牌
    pos = Hand(YIELD_DEAL, "fours").play("1:6 2:- 3:- 4:~")
    assert pos.yielder == 4 and pos.to_act == 5


@pytest.mark.parametrize("preset", ["online", "classic", "charter", "tournament"])
def test_yield_to_seats_that_passed_comes_straight_back(preset):
    pos = Hand(YIELD_DEAL, preset, leader=4).play(YIELD_MOVES)
    assert pos.yielder == 4 and pos.yield_back and pos.to_act == 4


def test_fours_yield_option():
    rules = with_options(get_ruleset("fours"), {"yield-to-passed": "yes"})
    assert Hand(YIELD_DEAL, rules, leader=4).play(YIELD_MOVES).to_act == 4
