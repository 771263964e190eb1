"""Tribute between hands, first lead, match score — each value worked out by hand from the texts."""

import pytest

from gouji_record import parse, replay
from gouji_record.match import Due, check_transfers, tribute_cards, tribute_due
from gouji_record.model import Action, ActionKind
from gouji_record.rules.cards import parse_cards
from gouji_record.rules.engine import Position
from gouji_record.rules.rulesets import get_ruleset

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


def test_tribute_cards_are_the_highest_jokers_and_twos():
    # 002 §21(1): big jokers first, then small jokers, then 2s; none → 免贡
    assert tribute_cards(parse_cards("X22AAK"), 2) == parse_cards("X2")
    assert tribute_cards(parse_cards("DDX2"), 2) == parse_cards("DD")
    assert tribute_cards(parse_cards("2AAK"), 2) == parse_cards("2")
    assert tribute_cards(parse_cards("AAK"), 2) == parse_cards("")


HAND = open("examples/charter-hand.gjn", encoding="utf-8").read()


def next_hand(preplay):
    rec = parse(HAND)[0]
    gives = tuple(Action(seat=int(t[0]), to=int(t[2]), kind=ActionKind.GIVE, cards=t[4:]) for t in preplay.split())
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


# -- whole matches, through the command line ------------------------------------------------

import json  # noqa: E402

from click.testing import CliRunner  # noqa: E402

from gouji_record.cli import main  # noqa: E402

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
    from gouji_record.match import check_match

    # the charter's 大落 of hand 1 (seat 1, Result 3-5-2-4-6-1) leads hand 2 (002 §6)
    h1, h2, _ = parse(MATCH)
    assert h2.actions[0].seat == 1
    assert [d.code for d in check_match([replay(h1), replay(h2)])[1].diagnostics] == []
    moved = h2.actions[0].model_copy(update={"seat": 2})
    wrong = h2.model_copy(update={"actions": (moved,) + h2.actions[1:]})
    diags = check_match([replay(h1), replay(wrong)])[1].diagnostics
    assert [d.code for d in diags] == ["first-lead"] and "seat 1 leads this hand, not seat 2" in diags[0].message
