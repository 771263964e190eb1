"""Tribute between hands, first lead, match score — each value worked out by hand from the texts."""

import re

import pytest

from gouji_record import parse, replay
from gouji_record.matches.match import Due, check_transfers, tribute_cards, tribute_due
from gouji_record.model import Action
from gouji_record.cards import parse_cards
from gouji_record.rules.engine import Position
from gouji_record.rules.rulesets import get_ruleset, with_options

PLACES = (5, 6, 1, 4, 3, 2)  # 头科 5, 二科 6, 三科 1, 四科 4, 二落 3, 大落 2


def final(name, places=PLACES, opened=(1, 2, 3, 4, 5, 6), calls=(), burns=(), smothers=()):
    return Position(
        ruleset=get_ruleset(name),
        hands=((),) * 6,
        to_act=None,
        preplay=False,
        finished=places,
        opened=frozenset(opened),
        calls=tuple(calls),
        burns=tuple(burns),
        smothers=tuple(smothers),
    )


def dues(name, **kw):
    return [(d.kind, d.giver, d.taker, d.count) for d in tribute_due(get_ruleset(name), final(name, **kw))]


def test_place_tribute_everywhere_but_fours():
    # 大落 (seat 2) pays 头科 (seat 5) two cards, 二落 (seat 3) pays 二科 (seat 6) one (000 §落贡, 001 §35,
    # 002 §21(3), 004 §34); 003 has no tribute
    for name in ("online", "classic", "charter", "tournament"):
        assert dues(name) == [("place", 2, 5, 2), ("place", 3, 6, 1)], name
    assert dues("fours") == []


def test_point_tribute_by_opening_without_calls():
    # seats 1 and 2 did not open; their opposites 4 and 5 did
    for name in ("online", "charter", "tournament"):
        assert [d for d in dues(name, opened=(3, 4, 5, 6)) if d[0] == "point"] == [
            ("point", 1, 4, 1),
            ("point", 2, 5, 1),
        ]
    # 001 §33: neither called: the one that did not open pays 1
    assert [d for d in dues("classic", opened=(3, 4, 5, 6)) if d[0] == "point"] == [
        ("point", 1, 4, 1),
        ("point", 2, 5, 1),
    ]


def test_point_tribute_with_calls_online_and_charter():
    # seat 4 called (明点) that seat 1 would not open, and seat 1 did not: seat 1 pays 2 (000 §点贡, 002 §24)
    # seat 5 pre-called (预点) on seat 2, but seat 2 opened: seat 5 pays 8 online (翻车), 4 under the charter
    opened = (2, 3, 4, 6)
    online = [d for d in dues("online", opened=opened, calls=((4, "call"), (5, "precall"))) if d[0] == "point"]
    charter = [d for d in dues("charter", opened=opened, calls=((4, "call"), (5, "precall"))) if d[0] == "point"]
    assert online == [("point", 1, 4, 2), ("point", 5, 2, 8)]
    assert charter == [("point", 1, 4, 2), ("point", 5, 2, 4)]


@pytest.mark.parametrize(
    "a_open, b_open, a_call, b_call, a_pays, b_pays",
    [
        # 001 §32 both called
        (True, False, True, True, 0, 4),
        (False, False, True, True, 2, 2),
        (True, True, True, True, 2, 2),
        # §33 neither called
        (True, False, False, False, 0, 1),
        (False, False, False, False, 1, 1),
        (True, True, False, False, 0, 0),
        # §34 a called, b did not
        (True, False, True, False, 0, 3),
        (False, False, True, False, 1, 2),
        (True, True, True, False, 2, 0),
        (False, True, True, False, 3, 0),
    ],
)
def test_classic_point_table(a_open, b_open, a_call, b_call, a_pays, b_pays):
    a, b = 1, 4
    opened = {s for s in (2, 3, 5, 6)} | ({a} if a_open else set()) | ({b} if b_open else set())
    calls = ([(a, "call")] if a_call else []) + ([(b, "call")] if b_call else [])
    got = {(d[1], d[2]): d[3] for d in dues("classic", opened=opened, calls=calls) if d[0] == "point"}
    assert (got.get((a, b), 0), got.get((b, a), 0)) == (a_pays, b_pays)


def test_mutual_point_tribute_is_optional_only_where_the_text_says():
    # 004 §31 "若对头双方均不开点，由走牌顺序靠后的玩家…决定双方是否互进点贡": seats 1 and 4 both did not open;
    # each owes the other one card, and the pair may agree not to pay (option mutual-point-optional).
    # Seat 2 did not open while its opposite 5 did: that due is never optional.
    opened = (3, 5, 6)
    for name, optional in (("tournament", True), ("charter", False), ("online", False)):
        point = {(d.giver, d.taker): d.optional for d in tribute_due(get_ruleset(name), final(name, opened=opened))}
        point = {k: v for k, v in point.items() if k in ((1, 4), (4, 1), (2, 5))}
        assert point == {(1, 4): optional, (4, 1): optional, (2, 5): False}, name
    # a club that plays the charter with 004's agreement turns it on
    rules = with_options(get_ruleset("charter"), {"mutual-point-optional": "yes"})
    due = {(d.giver, d.taker): d.optional for d in tribute_due(rules, final("charter", opened=opened)) if d.kind == "point"}
    assert due[(1, 4)] and due[(4, 1)] and not due[(2, 5)]


def test_order_of_tribute_kinds():
    kw = dict(opened=(2, 3, 4, 5, 6), burns=((3, 2, "success"),), smothers=((6, 1),))
    # 000/001: 闷贡 > 烧贡 > 点贡 > 落贡; 004 §30: 点贡, 捎贡, 闷贡, 落贡
    assert [d[0] for d in dues("online", **kw)] == ["smother", "burn", "point", "place", "place"]
    assert [d[0] for d in dues("tournament", **kw)] == ["point", "burn", "smother", "place", "place"]
    # the charter has neither burn nor smother tribute (002 §21, §24)
    assert [d[0] for d in dues("charter", **kw)] == ["point", "place", "place"]
    assert ("burn", 2, 3, 1) in dues("online", **kw) and ("smother", 1, 6, 1) in dues("online", **kw)


def test_sweep_tribute():
    sweep = (1, 3, 5, 2, 4, 6)
    # 000 §串三户, 001 §72, 002 §21(7): no tribute after a sweep; 004 §34: each swept seat pays its opposite
    for name in ("online", "classic", "charter"):
        assert dues(name, places=sweep) == []
    assert dues("tournament", places=sweep) == [("sweep", 2, 5, 1), ("sweep", 4, 1, 1), ("sweep", 6, 3, 1)]


def test_after_a_sweep_only_place_tribute_changes_under_004():
    # 004 §30 "若出现串三家，进落贡改为进对头贡": point, burn and smother tribute are still paid. Team 1-3-5
    # sweeps; seats 2 and 4 did not open (their opposites 5 and 1 did): 点贡 2→5, 4→1 (§31); seat 3
    # burned seat 2: 捎贡 2→3 (§33); seat 1 smothered seat 6: 闷贡 6→1 (§32); then 对头贡 (§34)
    kw = dict(places=(1, 3, 5, 2, 4, 6), opened=(1, 3, 5, 6), burns=((3, 2, "success"),), smothers=((1, 6),))
    assert dues("tournament", **kw) == [
        ("point", 2, 5, 1),
        ("point", 4, 1, 1),
        ("burn", 2, 3, 1),
        ("smother", 6, 1, 1),
        ("sweep", 2, 5, 1),
        ("sweep", 4, 1, 1),
        ("sweep", 6, 3, 1),
    ]
    # 000 §串三户 "同时不再进贡", 001 §72 "同時不再進貢", 002 §21(7) "串三户一般不进贡": none at all
    for name in ("online", "classic", "charter"):
        assert dues(name, **kw) == [], name


def test_tribute_cards_are_the_highest_jokers_and_twos():
    # 002 §21(1): big jokers first, then small jokers, then 2s; none → 免贡
    assert tribute_cards(parse_cards("X22AAK"), 2) == parse_cards("X2")
    assert tribute_cards(parse_cards("DDX2"), 2) == parse_cards("DD")
    assert tribute_cards(parse_cards("2AAK"), 2) == parse_cards("2")
    assert tribute_cards(parse_cards("AAK"), 2) == parse_cards("")


HAND = open("examples/charter-hand.gjn", encoding="utf-8").read()


def next_hand(preplay):
    rec = parse(HAND)[0]
    # transfers "2>5:22", and a refusal "refuse 5>2:K" (拒绝, gjn 2.4) read as the notation writes it
    gives = tuple(Action.from_text(t) for t in re.findall(r"(?:refuse )?[1-6]>[1-6]:\S+", preplay))
    return rec.model_copy(update={"preplay": gives})


def test_check_transfers_paid_returned_and_wrong():
    rules = get_ruleset("charter")
    due = [Due("place", 2, 5, 2), Due("place", 3, 6, 1)]
    # in the example deal seat 2 holds 2222 and no joker: it pays 22; seat 3 holds DDDX: it pays D;
    # the charter's takers return as many cards (002 §21(4))
    notes, problems = check_transfers(rules, due, next_hand("2>5:22 5>2:44 3>6:D 6>3:3"))
    assert problems == [] and notes[0] == "落贡 paid: 2>5:22"
    _, problems = check_transfers(rules, due, next_hand("2>5:2K 5>2:44 3>6:D 6>3:3"))
    assert problems[0].code == "tribute-wrong" and "expected 2>5:22" in problems[0].message
    _, problems = check_transfers(rules, due, next_hand("2>5:22 3>6:D 6>3:3"))
    assert problems[0].code == "tribute-missing" and "还贡" in problems[0].message
    _, problems = check_transfers(rules, due, next_hand("2>5:22 5>2:44 3>6:D 6>3:3 1>4:K"))
    assert problems[0].code == "tribute-extra" and problems[0].action == 4


def test_tribute_exemption_four_small_jokers():
    # 004 §37: a seat holding four small jokers pays nothing; here seat 5 holds XXX and no 4th → it pays
    rules = get_ruleset("tournament")
    notes, problems = check_transfers(rules, [Due("point", 5, 2, 1)], next_hand("5>2:D"))
    assert problems == [] and notes == ["点贡 paid: 5>2:D"]


def test_tribute_exemption_applies_with_four_small_or_four_big_jokers():
    # 004 §37 摸到4张小王可免除本人的所有进贡: give seat 5 (DXXX…) seat 3's small joker for one of its 4s;
    # with XXXX seat 5 owes nothing, and a payment would be extra
    rec = parse(HAND)[0]
    hands = list(rec.deal)
    hands[4] = hands[4].replace("4", "", 1) + "X"  # seat 5: DXXXX…
    hands[2] = hands[2].replace("X", "", 1) + "4"  # seat 3: DDD…
    exempt_five = rec.model_copy(update={"deal": tuple(hands)})
    rules = get_ruleset("tournament")
    notes, problems = check_transfers(rules, [Due("point", 5, 2, 1)], exempt_five)
    assert problems == [] and notes == ["点贡 waived: seat 5 refuses tribute (抗贡)"]
    paid = exempt_five.model_copy(update={"preplay": next_hand("5>2:D").preplay})
    assert [p.code for p in check_transfers(rules, [Due("point", 5, 2, 1)], paid)[1]] == ["tribute-extra"]
    # seat 3 (team 1-3-5) is not exempt by seat 5's small jokers: it still pays
    _, problems = check_transfers(rules, [Due("point", 3, 6, 1)], exempt_five)
    assert [p.code for p in problems] == ["tribute-missing"]
    # 摸到4张大王可免除所在联邦的所有进贡: seat 3 with DDDD exempts seat 1 (its team-mate), not seat 2
    hands = list(rec.deal)
    hands[2] = "D" + hands[2].replace("2", "", 1)  # seat 3: DDDD X and eleven 2s
    hands[4] = hands[4].replace("D", "", 1) + "2"  # seat 5 gives up its big joker for a 2
    four_big = rec.model_copy(update={"deal": tuple(hands)})
    assert check_transfers(rules, [Due("point", 1, 4, 1)], four_big) == (
        ["点贡 waived: seat 1 refuses tribute (抗贡)"],
        [],
    )
    assert [p.code for p in check_transfers(rules, [Due("point", 2, 5, 1)], four_big)[1]] == ["tribute-missing"]
    # under charter (no 抗贡, 002 §21) the same seat 5 pays
    assert [p.code for p in check_transfers(get_ruleset("charter"), [Due("point", 5, 2, 1)], exempt_five)[1]] == [
        "tribute-missing"
    ]


def check(name, due_list, preplay):
    notes, problems = check_transfers(get_ruleset(name), due_list, next_hand(preplay))
    return notes, [(p.code, p.action) for p in problems], [p.message for p in problems]


def test_pairs_of_one_kind_come_in_any_order():
    # 000 §进贡, 001 §28, 002 §24, 004 §30 order the kinds, not the seats within a kind. In the example
    # deal seat 3 holds DDDX and twelve 2s, seat 5 DXXX: 点贡 5→2 and 3→6 are paid D each, in either order.
    # (The checker used to want them by seat: "3>6:D 5>2:D" was tribute-missing, expected 5>2:D.)
    point = [Due("point", 5, 2, 1), Due("point", 3, 6, 1)]
    for name in ("online", "classic", "charter", "tournament"):
        assert check(name, point, "3>6:D 5>2:D")[1] == [], name
        assert check(name, point, "5>2:D 3>6:D")[1] == [], name
    # place tribute too: 大落 2 pays 头科 5 two (22), 二落 3 pays 二科 6 one (D); 004 has no return (§35)
    place = [Due("place", 2, 5, 2), Due("place", 3, 6, 1)]
    assert check("tournament", place, "3>6:D 2>5:22") == (["落贡 paid: 3>6:D", "落贡 paid: 2>5:22"], [], [])


def test_kinds_come_in_their_order():
    # 000 §进贡 and 001 §28: 闷贡 before 点贡; 004 §30: 点贡 before 闷贡
    kinds = [Due("smother", 3, 4, 1), Due("point", 5, 2, 1)]
    for name in ("online", "classic"):
        assert check(name, kinds, "3>4:D 5>2:D")[1] == []
        _, problems, messages = check(name, kinds, "5>2:D 3>4:D")
        assert problems == [("tribute-missing", 0)] and "闷贡 (smother tribute): seat 3 to seat 4" in messages[0]
        assert "expected 3>4:D before 5>2:D" in messages[0]
    tournament = [Due("point", 5, 2, 1), Due("smother", 3, 4, 1)]
    assert check("tournament", tournament, "5>2:D 3>4:D")[1] == []
    assert check("tournament", tournament, "3>4:D 5>2:D")[1] == [("tribute-missing", 0)]


def test_returns_follow_all_tribute_or_their_own_online_and_their_own_under_the_charter():
    place = [Due("place", 2, 5, 2), Due("place", 3, 6, 1)]
    # 000 §进贡 "进完贡，落贡必须还贡" reads two ways (issue 25): both place tributes, then both
    # returns, in either order ...
    for preplay in ("2>5:22 3>6:D 5>2:44 6>3:3", "3>6:D 2>5:22 6>3:3 5>2:44"):
        notes, problems, _ = check("online", place, preplay)
        assert problems == []
        assert set(notes) == {"落贡 paid: 2>5:22", "落贡 paid: 3>6:D", "还贡 paid: 5>2:44", "还贡 paid: 6>3:3"}
    # ... or each 落贡 returned once it is paid: online accepts that order too (return-after=own-tribute)
    notes, problems, _ = check("online", place, "2>5:22 5>2:44 3>6:D 6>3:3")
    assert problems == [] and notes == ["落贡 paid: 2>5:22", "还贡 paid: 5>2:44", "落贡 paid: 3>6:D", "还贡 paid: 6>3:3"]
    # ... and a return before the tribute it returns in neither
    assert check("online", place, "5>2:44 2>5:22 3>6:D 6>3:3")[1] == [("tribute-extra", 0)]
    # The first reading alone, as an option: the return comes too early there.
    strict = with_options(get_ruleset("online"), {"return-after": "all-tribute"})
    problems = check_transfers(strict, place, next_hand("2>5:22 5>2:44 3>6:D 6>3:3"))[1]
    assert [(p.code, p.action) for p in problems] == [("tribute-missing", 1)]
    assert "follow once all tribute is paid" in problems[0].message and "expected 3>6:D" in problems[0].message
    # 002 §21(4) "头科、二科吃贡后须…返还": each return after its own tribute, anywhere after it
    for preplay in ("2>5:22 5>2:44 3>6:D 6>3:3", "2>5:22 3>6:D 6>3:3 5>2:44", "3>6:D 6>3:3 2>5:22 5>2:44"):
        assert check("charter", place, preplay)[1] == [], preplay
    assert check("charter", place, "5>2:44 2>5:22 3>6:D 6>3:3")[1] == [("tribute-extra", 0)]
    # a return gives back as many cards as were paid
    _, problems, messages = check("charter", place, "2>5:22 5>2:4 3>6:D 6>3:3")
    assert problems == [("tribute-missing", 1)] and "seat 5 gives seat 2 2 card(s) back" in messages[0]


def test_tribute_is_paid_with_dealt_cards_where_the_text_says_so():
    # Seat 3 (smothered by seat 2) pays seat 2 its 闷贡, a big joker; seat 2, 大落, then owes 头科 5 two
    # cards. 004 §36 "非摸牌获得的法定进贡牌不得用于进贡" (000 §进贡 and 002 §21(2) "没有摸到"): seat 2
    # pays with the 2s it was dealt (2222), never the big joker it received: 2>5:22.
    due = [Due("smother", 3, 2, 1), Due("place", 2, 5, 2)]
    for name, back in (("online", " 5>2:44"), ("tournament", "")):  # 000 returns 落贡 (§进贡), 004 does not (§35)
        assert check(name, due, "3>2:D 2>5:22" + back)[1] == [], name
        _, problems, messages = check(name, due, "3>2:D 2>5:D2" + back)
        assert problems == [("tribute-wrong", 1)] and "expected 2>5:22, not 2>5:D2" in messages[0]
        assert "the seat was dealt (not those it received)" in messages[0]
    # 001 §26 "進貢時要進手里最大的牌": the highest cards in the hand, received ones too: 2>5:D2
    assert check("classic", due, "3>2:D 2>5:D2")[1] == []
    assert check("classic", due, "3>2:D 2>5:22")[1] == [("tribute-wrong", 1)]
    # a seat dealt no tribute card owes none, whatever it receives (免贡): seat 4 gets 3's big joker
    due = [Due("smother", 3, 4, 1), Due("place", 4, 5, 1)]
    notes, problems, _ = check("tournament", due, "3>4:D")
    assert problems == [] and notes[-1] == (
        "落贡 waived: seat 4 holds no big joker, small joker or 2 it was dealt (免贡)"
    )
    assert check("classic", due, "3>4:D")[1] == [("tribute-missing", 1)]
    assert check("classic", due, "3>4:D 4>5:D")[1] == []
    # charter: 点贡 then 落贡 (002 §24), dealt cards only (002 §21(2))
    due = [Due("point", 3, 2, 1), Due("place", 2, 5, 2)]
    assert check("charter", due, "3>2:D 2>5:22 5>2:44")[1] == []
    assert check("charter", due, "3>2:D 2>5:D2 5>2:44")[1] == [("tribute-wrong", 1)]


def test_a_payment_skipping_an_optional_due_pays_the_required_one():
    # 004 §31: seats 3 and 6 both failed to open, so their 点贡 is mutual and they may agree not to pay
    # it; seat 6 burned seat 3, so seat 3 owes it a 捎贡 (§33) all the same. Seat 3 pays one card:
    # it is the 捎贡. (The checker gave it to the 点贡 and said the 捎贡 was missing.)
    due = [Due("point", 3, 6, 1, optional=True), Due("burn", 3, 6, 1)]
    notes, problems, _ = check("tournament", due, "3>6:D")
    assert problems == [] and notes == [
        "点贡 not paid: 点贡 (point tribute): seat 3 to seat 6, 1 card(s) (the text lets them agree)",
        "烧贡 paid: 3>6:D",
    ]
    notes, problems, _ = check("tournament", due, "3>6:D 3>6:D")
    assert problems == [] and notes == ["点贡 paid: 3>6:D", "烧贡 paid: 3>6:D"]
    assert check("tournament", due, "")[1] == [("tribute-missing", 0)]


# -- whole matches, through the command line ------------------------------------------------

import json  # noqa: E402

from click.testing import CliRunner  # noqa: E402

from gouji_record.cli.main import main  # noqa: E402

MATCH = open("examples/charter-match.gjn", encoding="utf-8").read()


def validate_text(tmp_path, text):
    f = tmp_path / "m.gjn"
    f.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", "--format", "json", str(f)])
    return r.exit_code, [json.loads(line) for line in r.output.splitlines() if line.startswith("{")]


def test_example_matches_are_valid_with_tribute_and_standings(tmp_path):
    code, rows = validate_text(tmp_path, MATCH)
    assert code == 0 and [r["match_hand"] for r in rows] == [1, 2, 3]
    # hand 1 ended 3-5-2-4-6-1: 大落 seat 1 pays 头科 seat 3 its two highest (22, no joker in its new hand),
    # 二落 seat 6 pays 二科 seat 5 one (D); the charter's takers return as many (33, 3) — read off the file
    assert rows[1]["tribute"] == ["落贡 paid: 1>3:22", "还贡 paid: 3>1:33", "落贡 paid: 6>5:D", "还贡 paid: 5>6:3"]
    # the running score is the sum of the hands' (positive-only) team scores
    assert rows[0]["standings"] == rows[0]["scores"] | {}
    assert rows[2]["standings"]["1-3-5"] == sum(r["scores"]["1-3-5"] for r in rows)


@pytest.mark.parametrize(
    "change, code",
    [
        (("1>3:22 3>1:33", "1>3:2A 3>1:33"), "tribute-wrong"),
        (("1>3:22 3>1:33 6>5:D 5>6:3", "1>3:22 3>1:33 6>5:D"), "tribute-missing"),
        (("1>3:22 3>1:33 6>5:D 5>6:3", "1>3:22 3>1:33 6>5:D 5>6:3 2>4:4"), "tribute-extra"),
        (('[Hand "2"]', '[Hand "4"]'), "hand-missing"),
    ],
)
def test_match_diagnostics(tmp_path, change, code):
    text = MATCH.replace(*change)
    assert text != MATCH
    status, rows = validate_text(tmp_path, text)
    assert status == 1
    assert [e["code"] for e in rows[1]["match_errors"]] == [code]


def test_first_lead_of_the_next_hand():
    from gouji_record.matches.match import check_match

    # the charter's 大落 of hand 1 (seat 1, Result 3-5-2-4-6-1) leads hand 2 (002 §6)
    h1, h2, _ = parse(MATCH)
    assert h2.actions[0].seat == 1
    assert [d.code for d in check_match([replay(h1), replay(h2)])[1].diagnostics] == []
    moved = h2.actions[0].model_copy(update={"seat": 2})
    wrong = h2.model_copy(update={"actions": (moved,) + h2.actions[1:]})
    diags = check_match([replay(h1), replay(wrong)])[1].diagnostics
    assert [d.code for d in diags] == ["first-lead"] and "seat 1 leads this hand, not seat 2" in diags[0].message


def test_long_pre_play_sections_and_many_dues_alike_stay_cheap():
    # thousands of purchases before the tribute (no recursion per transfer), and 45 dues alike between
    # two seats (the search tries one of the alike, not every order): seat 3 holds 16 tribute cards
    # (DDDX and twelve 2s), so the 17th transfer is not owed
    import time

    rules = get_ruleset("online")
    bought = tuple(a.model_copy(update={"purpose": "buy"}) for a in next_hand(" ".join(["3>6:2 6>3:2"] * 3000)).preplay)
    many = next_hand("2>5:22 3>6:D 5>2:44 6>3:3")
    many = many.model_copy(update={"preplay": bought + many.preplay})
    assert check_transfers(rules, [Due("place", 2, 5, 2), Due("place", 3, 6, 1)], many)[1] == []
    alike = [Due("point", 3, 6, 1, optional=True)] + [Due("burn", 3, 6, 1)] * 40 + [Due("smother", 3, 6, 1)] * 5
    start = time.perf_counter()
    for name in ("online", "classic", "tournament"):
        paid = next_hand("3>6:D " * 3 + "3>6:X " + "3>6:2 " * 12 + "3>6:K")
        _, problems = check_transfers(get_ruleset(name), alike, paid)
        assert [(p.code, p.action) for p in problems] == [("tribute-extra", 16)], name
    assert time.perf_counter() - start < 2


# -- one decision for two transfers (issue 32) ---------------------------------------------
# In the example deal (examples/charter-hand.gjn) seat 2 holds 2222 (no joker), seat 5 DXXX, seat 3
# DDDX and twelve 2s, seat 6 no 2 and no joker.

MUTUAL = [Due("point", 2, 5, 1, optional=True), Due("point", 5, 2, 1, optional=True), Due("place", 3, 6, 1)]


def test_mutual_point_tribute_is_one_decision_under_004():
    # 004 §31 "若对头双方均不开点，由走牌顺序靠后的玩家在下局摸牌前决定双方是否互进点贡": one seat decides for
    # both transfers. Seats 2 and 5 both failed to open: each owes the other 1 card (seat 2 its 2,
    # seat 5 its D), both or neither; then 落贡 3→6, seat 3's highest: D (004 §30: 点贡 first).
    assert check("tournament", MUTUAL, "3>6:D")[1] == []  # neither
    assert check("tournament", MUTUAL, "5>2:D 2>5:2 3>6:D")[1] == []  # both, in either order
    assert check("tournament", MUTUAL, "2>5:2 5>2:D 3>6:D")[1] == []
    # seat 5 pays, seat 2 (holding 2s) does not: the missing payment is reported where it can no
    # longer come, at the 落贡 (action 2), or after the section (action 1) when nothing follows
    _, problems, messages = check("tournament", MUTUAL, "5>2:D 3>6:D")
    assert problems == [("tribute-missing", 1)]
    assert messages[0].startswith("点贡 (point tribute): seat 2 to seat 5, 1 card(s) is owed before 落贡")
    assert "seat 5 paid seat 2 its point tribute" in messages[0] and "expected 2>5:2 before 3>6:D" in messages[0]
    assert check("tournament", MUTUAL[:2], "5>2:D")[1] == [("tribute-missing", 1)]
    assert check("tournament", MUTUAL[:2], "2>5:2")[1] == [("tribute-missing", 1)]
    # the bound payment is still paid with the highest card: seat 2 has no joker, its 2
    assert check("tournament", MUTUAL[:2], "5>2:D 2>5:K")[1] == [("tribute-wrong", 1)]
    # a seat with nothing to pay with (免贡) owes nothing: seat 6 holds no 2 and no joker
    pair = [Due("point", 3, 6, 1, optional=True), Due("point", 6, 3, 1, optional=True)]
    assert check("tournament", pair, "3>6:D")[1] == []


def test_the_issue_32_match_is_refused_at_the_missing_payment(tmp_path):
    # examples/tournament-match.gjn, hand 2: seats 3 and 6 both failed to open and both paid (3>6:2,
    # 6>3:D). Leave out seat 3's: seat 6 paid, seat 3, holding 2s, pays nothing back. Under 004 §31
    # that is one decision broken: tribute-missing at the 落贡 2>4:2, action 5 of
    # "1>4:D 2>5:2 5>2:D 6>3:D 2>4:2 1>3:D" (点贡 come before 落贡, 004 §30).
    with open("examples/tournament-match.gjn", encoding="utf-8") as f:
        text = f.read()
    assert "1>4:D 2>5:2 3>6:2 5>2:D 6>3:D 2>4:2 1>3:D" in text
    status, rows = validate_text(tmp_path, text.replace("3>6:2 ", "", 1))
    assert status == 1
    assert [(e["code"], e["action"]) for e in rows[1]["match_errors"]] == [("tribute-missing", 5)]
    assert "seat 6 paid seat 3 its point tribute" in rows[1]["match_errors"][0]["message"]


def test_mutual_point_tribute_is_owed_both_ways_in_the_other_texts():
    # 000 §点贡 "如果自己和对头都不开点，应该互相进贡", 001 §33 "互進1張點貢", 002 §24 "若对门互不开点，则互进
    # 点贡": no choice, both owe (the dues are not optional there: test above); so neither paid, or one,
    # is tribute-missing, at the 落贡 3>6:D (000/001 order 闷贡、烧贡、点贡、落贡, 002 点贡、落贡); 000 and 002
    # return a 落贡 (6>3:5, any one card), 001 does not.
    owed = [Due("point", 2, 5, 1), Due("point", 5, 2, 1), Due("place", 3, 6, 1)]
    for name, back in (("online", " 6>3:5"), ("classic", ""), ("charter", " 6>3:5")):
        assert check(name, owed, "2>5:2 5>2:D 3>6:D" + back)[1] == [], name  # (001 §26 pays from the hand:
        # seat 2 pays before it receives the D)
        assert check(name, owed, "3>6:D" + back)[1] == [("tribute-missing", 0)], name
        assert check(name, owed, "5>2:D 3>6:D" + back)[1] == [("tribute-missing", 1)], name


def test_a_place_tribute_and_its_return_are_one_between_team_mates_too():
    # 002 §21(5) "进贡在联邦中进行时可自行商定是否进贡": seats 3 and 5 (team 1-3-5) may agree that 大落 3
    # does not pay 头科 5 its two cards; but a tribute paid is returned (§21(4) "头科、二科吃贡后须…返还哃
    # 等数量的牌"), two cards any, and a return comes only after a tribute paid. Seat 3's two highest: DD.
    due = [Due("place", 3, 5, 2, optional=True)]
    assert check("charter", due, "")[1] == []
    assert check("charter", due, "3>5:DD 5>3:KK")[1] == []
    assert check("charter", due, "3>5:DD")[1] == [("tribute-missing", 1)]  # the return, after the section
    assert check("charter", due, "5>3:KK")[1] == [("tribute-extra", 0)]
    # 004 §35 "联邦内的进贡可自行商定是否进行，若进贡需进齐": paid, it is paid whole (DD, not D); no return
    assert check("tournament", due, "")[1] == [] and check("tournament", due, "3>5:DD")[1] == []
    assert check("tournament", due, "3>5:D")[1] == [("tribute-wrong", 0)]


# -- refusals (拒绝, gjn 2.4) -------------------------------------------------------------------


def test_a_taker_refuses_tribute_under_online_only():
    # 000 §进贡 4 "所有吃贡者可拒绝吃贡": 头科 5 refuses 大落 2's two cards (seat 2's highest: 22); the
    # 落贡 is then settled, and nothing is returned for it (000's return gives back cards received)
    due = [Due("place", 2, 5, 2)]
    assert check("online", due, "refuse 2>5:22") == (["落贡 refused: refuse 2>5:22"], [], [])
    # the cards offered are the tribute as owed (000 §进贡 "从大到小进贡"): not one 2
    assert check("online", due, "refuse 2>5:2")[1] == [("tribute-wrong", 0)]
    # refused, then paid: the second transfer is owed by nothing
    assert check("online", due, "refuse 2>5:22 2>5:22")[1] == [("tribute-extra", 1)]
    # a refusal of what nobody owes
    assert check("online", due, "refuse 3>5:D")[1] == [("tribute-extra", 0)]
    # a returned card cannot be refused under online (000 names no such refusal)
    _, problems, messages = check("online", due, "2>5:22 refuse 5>2:Q 5>2:44")
    assert problems == [("refusal-not-allowed", 1)] and "no refusal of a returned card" in messages[0]
    # 001, 002, 004 name no refusal of tribute: refusal-not-allowed at the refusal
    for name in ("classic", "charter", "tournament"):
        _, problems, messages = check(name, due, "refuse 2>5:22")
        assert problems == [("refusal-not-allowed", 0)], name
        assert messages[0] == "refuse 2>5:22: the rules give no refusal of place tribute (落贡); it is owed"


def test_a_payer_refuses_a_returned_card_of_a_rank_it_lacks_under_the_charter():
    # 002 §21(4) "若进贡一方没有与还贡牌点数相同的牌，可拒绝此张还贡牌请吃贡方换": seat 2 (2222KKJJ 9…7 6 55
    # 3333, no Q) paid 5 its 22; 5 returns a Q, which 2 refuses, then 44 in its place: two cards owed back
    due = [Due("place", 2, 5, 2)]
    assert check("charter", due, "2>5:22 refuse 5>2:Q 5>2:44") == (
        ["落贡 paid: 2>5:22", "还贡 refused: refuse 5>2:Q", "还贡 paid: 5>2:44"],
        [],
        [],
    )
    # seat 2 holds kings: it may not refuse a K
    _, problems, messages = check("charter", due, "2>5:22 refuse 5>2:K 5>2:44")
    assert problems == [("refusal-not-allowed", 1)] and messages[0].endswith("seat 2 holds K")
    # refused and never replaced: the return is still owed
    assert check("charter", due, "2>5:22 refuse 5>2:Q")[1] == [("tribute-missing", 2)]
    # a refusal before the tribute is paid refuses nothing owed back, and the charter has no refusal of tribute
    assert check("charter", due, "refuse 5>2:Q 2>5:22 5>2:44")[1] == [("tribute-extra", 0)]


def test_two_readings_that_meet_with_different_holdings_are_each_followed():
    # Under tribute-order place+burn, seat 4 pays seat 1 place tribute (1 card), and seat 1 owes burn
    # tribute to seats 4 and 3 (1 card each). Seat 1 was dealt one D and one 2 (pay-from=dealt: it pays
    # with those, 000 §进贡 "没有摸到法定贡牌", 004 §36), seat 4 one 2 and no joker. The section:
    # 4>1:2 (落贡: seat 4's highest, 002 §21(1)), 1>4:D, 1>4:2, 1>3:2.
    # 1>4:D and 1>4:2 are the return (还贡, any card, after its own tribute: return-after=own-tribute)
    # and the burn tribute to seat 4, in either order; both readings reach the 4th transfer with the
    # same dues paid and returned, but not the same dealt cards left to seat 1:
    # - return D, then burn 2: the D returned is a dealt card (seat 1 received no D), the burn pays the
    #   dealt 2: seat 1 keeps only the 2 it received, and 1>3:2 cannot pay a burn (nothing dealt is left);
    # - burn D (its highest dealt card), then return 2: the return gives the 2 received first (Holdings),
    #   seat 1 keeps its dealt 2, and 1>3:2 pays the burn to seat 3. The section is explained.
    rules = with_options(get_ruleset("charter"), {"tribute-order": "place+burn"})
    rec = next_hand("4>1:2 1>4:D 1>4:2 1>3:2")
    rec = rec.model_copy(update={"deal": ("D2KKQQ?30", "?36", "?36", "2AAKK?31", "?36", "?36")})
    owed = [Due("place", 4, 1, 1), Due("burn", 1, 4, 1), Due("burn", 1, 3, 1)]
    notes, problems = check_transfers(rules, owed, rec)
    assert problems == []
    assert notes == ["落贡 paid: 4>1:2", "烧贡 paid: 1>4:D", "还贡 paid: 1>4:2", "烧贡 paid: 1>3:2"]


def test_final_places_are_each_positions_own():
    # rules.scoring.final_places answers the last two positions asked about again: positions asked
    # in turn each get their own places (the finishers in order: seat 5 first, then 6 1 4 3 2, or
    # 2 3 4 1 6 5, or 3 6 5 2 1 4), the first again after two others have taken both places kept
    from gouji_record.rules.scoring import final_places

    one, other = final("charter"), final("charter", places=(2, 3, 4, 1, 6, 5))
    third = final("charter", places=(3, 6, 5, 2, 1, 4))
    two, three = (2, 3, 4, 1, 6, 5), (3, 6, 5, 2, 1, 4)
    for pos, places in ((one, PLACES), (other, two), (one, PLACES), (third, three), (other, two), (one, PLACES)):
        assert final_places(pos) == places
