"""Readings of the rule texts where a sentence reads two honest ways (issue 25): the tool must not
reject a record for one of them. Each case is worked by hand from the text's sentence."""

from __future__ import annotations

from click.testing import CliRunner
from conftest import ROOT

from gouji_record.cli.main import main

CASES = ROOT / "tests" / "cases"


def test_online_accepts_each_return_after_its_own_place_tribute():
    # 000 §进贡 "进完贡，落贡必须还贡". examples/online-match.gjn's hand 2 pays 点贡 2>5:D and 3>6:X,
    # 落贡 1>3:22 (大落 seat 1 to 头科 seat 3, two cards) and 6>5:D (二落 to 二科, one), then the returns
    # 3>1:33 and 5>6:3: the returns once all tribute is paid. The case writes 3>1:33 right after the
    # 落贡 it returns (1>3:22), before 6>5:D: "a 落贡 paid, it must be returned". Both are readings of
    # the sentence: the match is valid (exit 0); held to the first reading alone
    # (return-after=all-tribute) the early return is tribute-missing at line 80, column 20, where
    # 6>5:D was owed first.
    case = str(CASES / "online-return-after-own-tribute.gjn")
    r = CliRunner().invoke(main, ["validate", "-q", case])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["validate", "-q", case, "--option", "return-after=all-tribute"])
    assert r.exit_code == 1
    assert f"{case}:80:20: error[tribute-missing]" in r.output and "expected 6>5:D" in r.output
    r = CliRunner().invoke(main, ["validate", "-q", str(ROOT / "examples" / "online-match.gjn"), "--option", "return-after=all-tribute"])
    assert r.exit_code == 0  # the example's own order is valid under both


def test_charter_a_revolter_then_first_place_starts_the_melee():
    # 002 §18 "头科、二科产生后，其余四人不再按够级、过牌、让牌、烧牌等规则进行称'四人乱缠'": the melee is
    # of the remaining four. Seat 2 (66: no joker, no 2) revolts (002 §23), five seats play, seat 1
    # leads its last cards 55 and takes 头科: four are left. The others pass; seat 3 takes the wind
    # (接风, seat 2 sits out) and the melee begins with its lead (melee-begins=next-round, 002 §16).
    # Read literally (头科 and 二科 both: melee-when=second-place) it has not begun.
    from conftest import Table

    from gouji_record.rules.rulesets import get_ruleset, with_options

    deal = {1: "55", 2: "66", 3: "7733", 4: "8833", 5: "9933", 6: "TT33"}
    t = Table(deal, "charter", leader=1)
    pos = t.play("2:revolt 1:55 3:- 4:- 5:- 6:-")
    assert t.kinds() == ["revolution", "finish", "headless", "take-the-wind", "melee"]
    assert pos.melee and pos.to_act == 3
    t = Table(deal, "charter", leader=1)
    t.rules = with_options(get_ruleset("charter"), {"melee-when": "second-place"})
    pos = t.play("2:revolt 1:55 3:- 4:- 5:- 6:-")
    assert "melee" not in t.kinds() and not pos.melee and pos.to_act == 3


def test_tournament_a_play_whose_opposite_was_smothered_is_open_to_all():
    # 004 §12 "当对头存在且场上人数不少于五人时，发出或顺出够级牌称为'够级'". Seat 1 leads 9 keeping only 333
    # (3s are held for last, 004 §19); seat 2 beats it with T: seat 1 is smothered (闷, 004 §20) and
    # leaves, placed 大落. Seat 4, its opposite, wins the next round with K and leads TTTTT (five tens,
    # 够级 by count, §12): with no opposite left it is no 够级 play, so seat 5 may beat it with
    # JJJJJ as any play (headless-after has smother). Under headless-after=finish+burn-failure
    # seat 4 is not headless and its TTTTT stays a 够级 play whose opposite is out: only a burn
    # answers it, and seat 5's JJJJJ without the burn mark is refused.
    from conftest import Table

    from gouji_record.rules.rulesets import get_ruleset, with_options

    deal = {1: "9333", 2: "TQ33", 3: "33", 4: "KTTTTT33", 5: "JJJJJ33", 6: "33"}
    moves = "1:9 2:T 3:- 4:K 5:- 6:- 2:- 4:TTTTT"
    t = Table(deal, "tournament", leader=1)
    pos = t.play(moves)
    assert t.kinds()[:3] == ["smother", "out", "headless"] and pos.headless(4) and not pos.top.restricted
    assert t.play("5:JJJJJ").top.seat == 5
    t = Table(deal, "tournament", leader=1)
    t.rules = with_options(get_ruleset("tournament"), {"headless-after": "finish+burn-failure"})
    pos = t.play(moves)
    assert not pos.headless(4) and pos.top.restricted
    d = t.illegal("5:JJJJJ")
    assert (d.code, d.rule) == ("gouji-not-opposite", "gouji-opposite-only")


def _table(ruleset, deal, options=None):
    from conftest import Table

    from gouji_record.rules.rulesets import get_ruleset, with_options

    t = Table(deal, ruleset, leader=1)
    if options:
        t.rules = with_options(get_ruleset(ruleset), options)
    return t


def test_online_and_classic_the_melee_begins_at_second_place():
    # 000 §四人乱缠 "头科、二科产生后其余四人不再按够级、过牌、让牌、烧牌等规则进行"; 001 §82 "頭科、二科產生后，
    # 其余四人不再按夠級、過牌…規則進行，可在過牌后再上牌". Seat 1 leads its last card, 5 (头科); seat 2
    # beats it with its last, 7 (二科, no 够级 play): four are left and the melee begins at once. Seat
    # 3 passes, seat 4 beats the 7 with 8, seats 5 and 6 pass: seat 3 plays again, 9 on the 8 (a pass
    # no longer bars). Under the charter's reading (002 §16 "头科或二科发底牌后，除对头外过牌者在此轮中均不可
    # 再出牌", melee-begins=next-round) the round closes at seat 6's pass and seat 4 leads round 2.
    from gouji_record.rules.events import IllegalAction  # noqa: F401  (Table.illegal raises it)

    deal = {1: "5", 2: "7", 3: "9933", 4: "8833", 5: "33", 6: "33"}
    moves = "1:5 2:7 3:- 4:8 5:- 6:- 3:9"
    # (headless seats: 000 makes 头科's and 二科's opposites headless, 001 only after 革命)
    for preset, kinds in (("online", ["finish", "headless", "finish", "headless", "melee"]), ("classic", ["finish", "finish", "melee"])):
        t = _table(preset, deal)
        pos = t.play(moves)
        assert t.kinds() == kinds, preset
        assert pos.top.seat == 3 and pos.melee
        d = _table(preset, deal, {"melee-begins": "next-round"}).illegal(moves)
        assert (d.code, d.message) == ("not-your-turn", "seat 4 leads round 2, not seat 3")


def test_online_a_gouji_last_play_gives_its_opposite_the_dead_gouji_chance_first():
    # 000 "并不是出现四人打牌马上就开始'四人乱缠'，因为'头科'或'二科'的底牌其'对头'还有一次'够死级'的机会（如果
    # 够死级，则其他人还有烧牌的可能）"; §够死级 "如果对头不上牌，则由下家'发牌'". Seat 1 leads its last card
    # (头科); all pass and seat 2 takes the wind with TTTTT, its last cards (二科, five tens: 够级).
    # Four are left, but the melee waits: seat 4 (headless: its opposite took 头科) passes, and seat 5,
    # seat 2's opposite, answers with QQQQQ: a 够死级, which seat 3 may burn with KKKKK (its 33 left is
    # one last play: the burn condition holds). Declined instead (5:-), the round ends: seat 2's
    # unanswered 够级 play opens, seat 3 takes the wind, and the melee begins with its lead.
    deal = {1: "5", 2: "TTTTT", 3: "KKKKK33", 4: "6633", 5: "QQQQQ33", 6: "33"}
    start = "1:5 2:- 3:- 4:- 5:- 6:- 2:TTTTT 4:-"
    t = _table("online", deal)
    pos = t.play(start + " 5:QQQQQ")
    assert t.kinds()[-2:] == ["answer", "dead-gouji"] and "melee" not in t.kinds() and not pos.melee
    t.play("3:*KKKKK")
    assert t.kinds()[-2:] == ["burn", "gouji"]
    t = _table("online", deal)
    pos = t.play(start + " 5:-")
    assert t.kinds()[-4:] == ["headless", "open", "take-the-wind", "melee"] and pos.melee and pos.to_act == 3
    # at once (as 004 reads it) the melee would have begun at 二科's last play, before the chance
    t = _table("online", deal, {"melee-begins": "at-once"})
    t.play(start)
    assert t.kinds()[-1] == "melee"
