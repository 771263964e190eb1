"""Buying 3s and 4s (买三, 买四) and gifts (赠与) before play, per text — each value worked out by
hand from the texts and the example deal.

The example deal (examples/charter-hand.gjn), seat by seat, for what buying looks at:

| seat | 3s | 4s | 2s and jokers | opposite |
|---|---|---|---|---|
| 1 | – | 12 | none | 4 |
| 2 | 4 | – | 2222 | 5 |
| 3 | – | – | DDD X and twelve 2s | 6 |
| 4 | 4 | – | none | 1 |
| 5 | – | 4 | D XXX | 2 |
| 6 | 8 | – | none | 3 |
"""

import json

import pytest
from click.testing import CliRunner

from gouji_record import parse, replay
from gouji_record.judging.buying import check_buying, plan_buying
from gouji_record.cli.main import main
from gouji_record.matches.match import Due, check_match, check_transfers
from gouji_record.cards import format_cards, parse_cards
from gouji_record.rules.rulesets import get_ruleset, with_options

from conftest import EXAMPLES

HAND = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
#: The presets whose texts buy only with threes held (憋三): 000 §买三, 001 §61, 002 §26.
HELD = {"threes-held": "yes"}


def rules(name):
    return with_options(get_ruleset(name), HELD) if name in ("online", "classic", "charter") else get_ruleset(name)


def record(preplay, deal=None):
    rec = parse(HAND.replace("\nplay\n", f"\npreplay\n{preplay}\n\nplay\n", 1) if preplay else HAND)[0]
    return rec.model_copy(update={"deal": deal}) if deal else rec


def check(name, preplay, deal=None):
    notes, problems = check_buying(rules(name), record(preplay, deal))
    return [(p.code, p.action, p.rule) for p in problems], [p.message for p in problems], notes


def swapped(moves):
    """The example deal with cards moved: ``(from seat, to seat, cards)``."""
    hands = [list(parse_cards(h)) for h in record("").deal]
    for giver, taker, cards in moves:
        for r, n in enumerate(parse_cards(cards)):
            hands[giver - 1][r] -= n
            hands[taker - 1][r] += n
    assert all(min(h) >= 0 and sum(h) == 36 for h in hands)
    return tuple(format_cards(tuple(h)) for h in hands)


#: Seats 2, 4 and 6 keep one 3 each; seat 1 holds the others (it gives up its 4s and a king).
ENEMIES_SHORT = swapped(
    [(2, 1, "333"), (4, 1, "333"), (6, 1, "3333333"), (1, 2, "444"), (1, 4, "444"), (1, 6, "444444K")]
)


# -- 000 online (with threes held): must buy, with a 2 (a joker without 2s), opposite → its team → own team


def test_online_buys_from_the_opposite_with_a_2():
    # seats 3 and 5 hold no 3 and can pay; their opposites 6 (eight 3s) and 2 (four) can sell
    assert check("online", "buy 3>6:2 6>3:3 buy 5>2:X 2>5:3")[0] == []
    assert check("online", "buy 3>6:2 6>3:3 buy 5>2:D 2>5:3")[0] == []  # no 2: either joker
    # 000 §买三 "用钱（无钱时用大、小花）": seat 3 holds 2s, so a joker is the wrong price
    problems, messages, _ = check("online", "buy 3>6:X 6>3:3 buy 5>2:X 2>5:3")
    assert problems == [("buy-wrong", 0, "buying")] and "one 2, or one joker when it has no 2" in messages[0]
    # the opposite can sell: nobody else may
    problems, messages, _ = check("online", "buy 3>2:2 2>3:3 buy 5>2:X 2>5:3")
    assert problems == [("buy-wrong", 0, "buying")] and "here seat 6, not seat 2" in messages[0]
    # "必须无条件": a seat that can buy and does not is buy-missing, after the pre-play section
    problems, messages, _ = check("online", "buy 5>2:X 2>5:3")
    assert problems == [("buy-missing", 2, "buying")] and messages == [
        "seat 3 holds no 3 and must buy one (买三): seat 6 can sell it"
    ]
    # seat 1 holds no 2 and no joker: it cannot buy (000 §买三: it revolts), and need not
    problems, messages, _ = check("online", "buy 1>4:K 4>1:3 buy 3>6:2 6>3:3 buy 5>2:X 2>5:3")
    assert problems == [("buy-wrong", 0, "buying")] and "costs one 2, or one joker when it has no 2" in messages[0]


def test_online_falls_back_to_the_opposites_team_then_the_own_team():
    # With ENEMIES_SHORT seats 2, 4 and 6 hold one 3 each: none can sell (000 §买三 "如果对头无3或只有一张3则
    # 向对头的联邦买3，如果敌人均不满足条件 则向自己的联邦买3"): seats 3 and 5 buy from seat 1, with a price.
    assert check("online", "buy 3>1:2 1>3:3 buy 5>1:X 1>5:3", ENEMIES_SHORT)[0] == []
    problems, messages, _ = check("online", "buy 3>6:2 6>3:3 buy 5>1:X 1>5:3", ENEMIES_SHORT)
    assert problems == [("buy-wrong", 0, "buying")] and "here seat 1, not seat 6" in messages[0]
    # a team-mate sells under 000; it does not give (no 赠与 there)
    problems, _, _ = check("online", "gift 1>3:3 buy 5>1:X 1>5:3", ENEMIES_SHORT)
    assert problems == [("buy-not-allowed", 0, "gift")]


def test_online_buys_before_tribute():
    # 000 §回合: 开牌 → 上班 → 买三 → 进贡
    problems, messages, _ = check("online", "3>2:D buy 3>6:2 6>3:3 buy 5>2:X 2>5:3")
    assert problems == [("buy-late", 1, "buying")] and "come before tribute" in messages[0]
    # 001 says nothing of the order
    assert check("classic", "3>2:D buy 3>6:2 6>3:3 buy 5>2:X 2>5:3")[0] == []


def test_online_without_threes_held_has_no_buying():
    # 000 §买三 is "当憋三打法时": the preset holds no 3s back
    notes, problems = check_buying(get_ruleset("online"), record("buy 3>6:2 6>3:3"))
    assert [(p.code, p.action) for p in problems] == [("buy-not-allowed", 0)]
    assert "3s are held for last" in problems[0].message


# -- 001 classic: a 2 or a joker; own team 要三 (free) -------------------------------------------------


def test_classic_pays_with_a_2_or_a_joker_and_asks_its_own_team_for_free():
    # 001 §63 "要用一張2或王": a joker is as good as a 2
    assert check("classic", "buy 3>6:X 6>3:3 buy 5>2:D 2>5:3")[0] == []
    # §64 "如果買不到3，則向自己的聯邦要3": from a team-mate it is asked for, not bought
    assert check("classic", "gift 1>3:3 gift 1>5:3", ENEMIES_SHORT)[0] == []
    # ...and only when no enemy can sell: with the example deal seat 6 can
    problems, messages, _ = check("classic", "gift 5>3:3")
    assert problems == [("buy-wrong", 0, "buying")]
    assert "a team-mate gives a 3 where it may sell one" in messages[0]


# -- 002 charter: the opposite, else its team; no own team --------------------------------------------


def test_charter_has_no_own_team_step():
    assert check("charter", "buy 3>6:2 6>3:3 buy 5>2:X 2>5:3")[0] == []
    # 002 §26(2) "则向对头的联邦买1张3牌": nothing after that, so with ENEMIES_SHORT nobody sells
    problems, messages, _ = check("charter", "buy 3>1:2 1>3:3", ENEMIES_SHORT)
    assert problems == [("buy-wrong", 0, "buying")] and "here no seat can, not seat 1" in messages[0]
    assert check("charter", "", ENEMIES_SHORT)[0] == []  # and nobody has to buy


# -- 003 fours: 3s and 4s, a 2 between opponents, free between team-mates -----------------------------


def test_fours_buys_3s_and_4s_with_a_2_and_team_mates_give():
    # 003 §开点 "没有3和4的要花钱买…队友之间不需要用2买，而对手之间要用2买":
    #   seat 3 holds no 3 and no 4: a 3 from its opposite 6 for a 2; a 4 from team-mate 1 (the
    #     opposite has none, so the others are asked), given; seat 2 holds no 4: from its opposite 5
    #   seat 5 holds no 3 and no 2 (only jokers): no purchase, even with the 2 seat 2 pays it for its
    #     4 (what a seat was dealt pays: 003 compares the hands as dealt); seats 1, 4, 6 hold no 2
    full = "buy 3>6:2 6>3:3 gift 1>3:4 buy 2>5:2 5>2:4"
    problems, _, notes = check("fours", full)
    assert problems == [] and notes == [
        "买三 (buying a 3): seat 3 buys a 3 from seat 6: 3>6:2 6>3:3",
        "赠与 (gift of a 4): seat 1 gives seat 3 a 4: 1>3:4",
        "买四 (buying a 4): seat 2 buys a 4 from seat 5: 2>5:2 5>2:4",
    ]
    problems, messages, _ = check("fours", "buy 3>6:2 6>3:3 gift 1>3:4 buy 5>2:2 2>5:3 buy 2>5:2 5>2:4")
    assert problems == [("buy-wrong", 3, "buying")] and "a card seat 5 was dealt" in messages[0]
    problems, messages, _ = check("fours", "buy 3>6:X 6>3:3 gift 1>3:4 buy 2>5:2 5>2:4")
    assert problems == [("buy-wrong", 0, "buying")] and "costs one 2" in messages[0]
    problems, messages, _ = check("fours", "buy 3>6:2 6>3:3 gift 1>3:4")
    assert problems == [("buy-missing", 3, "buying")] and messages == [
        "seat 2 holds no 4 and must buy one (买四): seat 5 can sell it"
    ]
    # the bots do the same, all 3s first, then seat by seat
    planned = plan_buying(rules("fours"), record("").deal)
    assert [(a.plain_text, a.purpose) for a in planned] == [
        ("3>6:2", "buy"),
        ("6>3:3", "buy"),
        ("2>5:2", "buy"),
        ("5>2:4", "buy"),
        ("1>3:4", "gift"),
    ]


# -- 004 tournament: opposites only, voluntary, dealt cards, 3s before 4s, gifts -----------------------

#: What 004 requires of the example deal: seats 1 (no 3), 4 and 6 (no 4) hold no 2 and no joker, so
#: they are given one (§24): seat 1 a 3 by its opposite 4; seat 4 a 4 by its opposite 1; seat 6 a 4:
#: its opposite 3 and team-mates 2 and 4 hold none to spare (seat 4 only the one it was given), so a
#: neighbour, seat 1 (eleven left) or 5 (4444).
GIFTS = "gift 4>1:3 gift 1>4:4 gift 1>6:4"


def test_tournament_gifts_are_required():
    assert check("tournament", GIFTS)[0] == []
    assert check("tournament", "gift 4>1:3 gift 1>4:4 gift 5>6:4")[0] == []
    problems, messages, _ = check("tournament", "gift 4>1:3 gift 1>4:4")
    assert problems == [("buy-missing", 2, "gift")] and messages == [
        "seat 6 holds no 4 and no 2 or joker to buy one: seat 1, 5 gives it one (赠与)"
    ]
    # 004 §24: the opposite first
    problems, messages, _ = check("tournament", "gift 6>1:3 gift 1>4:4 gift 1>6:4")
    assert problems == [("buy-wrong", 0, "gift")] and "here seat 4, not seat 6" in messages[0]
    # a seat that can pay buys, it is not given (§24 "且无2、小王、大王")
    problems, _, _ = check("tournament", GIFTS + " gift 6>3:3")
    assert problems == [("buy-wrong", 3, "gift")]


def test_tournament_buying_is_voluntary_between_opposites():
    # §23 "自愿行为": seats 2, 3 and 5 may buy and need not
    assert check("tournament", GIFTS + " buy 3>6:X 6>3:3 buy 5>2:D 2>5:3 buy 2>5:2 5>2:4")[0] == []
    # "非对头间不得买卖": seat 3 may not buy a 4 from seat 1, nor from its opposite 6, who has none
    problems, messages, _ = check("tournament", GIFTS + " buy 3>1:2 1>3:4")
    assert problems == [("buy-wrong", 3, "buying")] and messages[0] == (
        "seat 3 buys a 4 from its opposite only, when it holds two or more: here no seat can, not seat 1"
    )
    # "每种牌各买卖1张", "买卖数量需一致": one card for one card
    problems, _, _ = check("tournament", GIFTS + " buy 3>6:22 6>3:3")
    assert problems == [("buy-wrong", 3, "buying")]
    problems, messages, _ = check("tournament", GIFTS + " buy 3>6:2 6>3:33")
    assert problems == [("buy-wrong", 4, "buying")] and "hands over one 3 or one 4" in messages[0]
    # only a seat without the rank buys (§23 "若手中无3或4")
    problems, messages, _ = check("tournament", GIFTS + " buy 2>5:2 5>2:3")
    assert problems == [("buy-wrong", 3, "buying")] and "seat 2 holds a 3" in messages[0]


def test_tournament_3s_before_4s_and_prices_it_was_dealt():
    # §23 "买卖3优先于买卖4"
    problems, messages, _ = check("tournament", GIFTS + " buy 2>5:2 5>2:4 buy 3>6:2 6>3:3")
    assert problems == [("buy-late", 5, "buying")] and "买三 comes before 买四" in messages[0]
    # §23 "非摸牌获得的2、小王、大王，不得用于买3或4": seat 2 sold a 3 to seat 5 for a big joker; it may buy
    # its 4 with one of its own 2s, not with that joker
    assert check("tournament", GIFTS + " buy 5>2:D 2>5:3 buy 2>5:2 5>2:4")[0] == []
    problems, messages, _ = check("tournament", GIFTS + " buy 5>2:D 2>5:3 buy 2>5:D 5>2:4")
    assert problems == [("buy-wrong", 5, "buying")] and "a card seat 2 was dealt" in messages[0]


def test_tournament_buying_comes_before_tribute():
    # §35 "若同时涉及买3、买4，需先完成买卖，再进行进贡"
    problems, _, _ = check("tournament", GIFTS + " 5>2:D buy 3>6:2 6>3:3")
    assert problems == [("buy-late", 4, "buying")]
    # and the required gifts are due before the first tribute
    problems, _, _ = check("tournament", "5>2:D")
    assert problems == [("buy-missing", 0, "gift")]


def test_tribute_after_buying_counts_the_price_as_paid():
    # 004: seat 5 pays a big joker for its 3, then owes its opposite 点贡: its highest dealt card left is
    # a small joker. Seat 2 received that big joker and owes seat 5 点贡 too: with a 2 it was dealt.
    rec = record(GIFTS + " buy 5>2:D 2>5:3 5>2:X 2>5:2")
    due = [Due("point", 5, 2, 1), Due("point", 2, 5, 1)]
    tournament = get_ruleset("tournament")
    assert check_transfers(tournament, due, rec) == (["点贡 paid: 5>2:X", "点贡 paid: 2>5:2"], [])
    wrong = record(GIFTS + " buy 5>2:D 2>5:3 5>2:X 2>5:D")
    problems = check_transfers(tournament, due, wrong)[1]
    assert [(p.code, p.action) for p in problems] == [("tribute-wrong", 6)]
    assert "expected 2>5:2, not 2>5:D" in problems[0].message


# -- in a match and in a single hand ---------------------------------------------------------------------

MATCH = (EXAMPLES / "tournament-match.gjn").read_text(encoding="utf-8")


def validate(tmp_path, text):
    f = tmp_path / "h.gjn"
    f.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["validate", "--format", "json", str(f)])
    return r.exit_code, [json.loads(line) for line in r.output.splitlines() if line.startswith("{")]


def test_a_purchase_in_the_first_hand_of_a_match_is_not_tribute(tmp_path):
    # the example match's first hand: seat 5 buys a 4 from its opposite 2 (004 §23). It used to be
    # written 5>2:2 2>5:4 and rejected as tribute-extra ("the first hand of a match has no tribute").
    first = MATCH.split("\n\n[Event")[0]
    assert "\npreplay\nbuy 5>2:2 2>5:4\n" in first
    assert validate(tmp_path, first)[0] == 0
    status, rows = validate(tmp_path, first.replace("buy 5>2:2 2>5:4", "5>2:2 2>5:4"))
    assert status == 1 and [e["code"] for e in rows[0]["match_errors"]] == ["tribute-extra"]
    hand = parse(first)[0]
    assert check_match([replay(hand)])[0].diagnostics == []


def test_a_single_hand_checks_its_purchases(tmp_path):
    # no Match tag: purchases are checked all the same (they used to pass unchecked); the hand is
    # written before its play (Result "*"), so that only the pre-play section is replayed
    head = HAND[: HAND.index("\nplay\n")].replace('[Ruleset "charter"]', '[Ruleset "tournament"]')
    head = head.replace('[Result "5-6-1-4-3-2"]', '[Result "*"]')
    line = f"{GIFTS} buy 3>1:2 1>3:4"
    status, rows = validate(tmp_path, f"{head}\n\npreplay\n{line}\n\nplay\n")
    assert status == 1 and rows[0]["error"]["code"] == "buy-wrong"
    assert rows[0]["error"]["line"] == head.count("\n") + 4
    assert rows[0]["error"]["column"] == len(GIFTS) + 6  # at the price, after "buy "
    status, rows = validate(tmp_path, f"{head}\n\npreplay\n{GIFTS} buy 3>6:2 6>3:3\n\nplay\n")
    assert status == 0 and rows[0]["valid"]


@pytest.mark.parametrize("name", ["fours", "tournament"])
def test_the_bots_buy_as_the_rules_say(name):
    # every purchase the bots make checks, on many deals; none missing
    from gouji_record.bots.selfplay import deal
    import random

    for seed in range(60):
        dealt = deal(random.Random(seed))
        rec = record("").model_copy(update={"deal": dealt, "preplay": plan_buying(get_ruleset(name), dealt)})
        assert check_buying(get_ruleset(name), rec)[1] == [], seed


def test_every_command_gives_the_verdict_validate_gives(tmp_path):
    # Failing input (found while adding --jobs to stats and filter): a hand whose only fault is a
    # purchase was "invalid" to validate and "valid" to filter and stats, which replayed the play
    # only. After the gifts, seat 3 buys a 4 from seat 1; 004 §23 has it buy from its opposite
    # (seat 6) only, when that seat holds two or more 4s, and no seat can sell here (buy-wrong, at
    # seat 3's price 3>1:2, as test_a_single_hand_checks_its_purchases finds).
    head = HAND[: HAND.index("\nplay\n")].replace('[Ruleset "charter"]', '[Ruleset "tournament"]')
    head = head.replace('[Result "5-6-1-4-3-2"]', '[Result "*"]')
    f = tmp_path / "h.gjn"
    f.write_text(f"{head}\n\npreplay\n{GIFTS} buy 3>1:2 1>3:4\n\nplay\n", encoding="utf-8")
    run = CliRunner().invoke
    assert run(main, ["validate", str(f)]).exit_code == 1
    assert run(main, ["filter", "--valid", "--count", str(f)]).output == "0\n"
    assert run(main, ["filter", "--invalid", "--count", str(f)]).output == "1\n"
    rows = json.loads(run(main, ["stats", "--by", "seat", "--format", "json", str(f)]).output)
    assert {r["key"]: r["illegal"] for r in rows} == {f"seat {s}": int(s == 3) for s in range(1, 7)}
    r = run(main, ["review", str(f)])
    assert r.exit_code == 1 and "illegal (buy-wrong)" in r.output


def test_holdings_move_pays_with_dealt_cards_and_gives_received_ones_first():
    """Holdings (judging/transfers.py) under pay-from=dealt: a payment gives dealt cards, any other
    transfer the cards received first (004 §36 "非摸牌获得的法定进贡牌不得用于进贡"; 002 §21(2)).
    Worked by hand on known parts of a deal: seat 1 dealt D 2 3 3, seat 4 dealt D X 4."""
    from gouji_record.judging.transfers import Holdings

    def shown(held, seat):  # (its hand, the dealt cards it still holds)
        return format_cards(held.hands[seat - 1]), format_cards(held.own[seat - 1])

    held = Holdings.dealt(("D233?32", "?36", "?36", "DX4?33", "?36", "?36"))
    # 4>1:D paid (a tribute): seat 4 gives its dealt D; seat 1 holds D D 2 3 3, one D not dealt
    held = held.move(4, 1, parse_cards("D"), payment=True)
    assert shown(held, 1) == ("DD233", "D233") and shown(held, 4) == ("X4", "X4")
    # 1>4:D returned (not a payment): the D seat 1 received goes, its dealt D stays
    held = held.move(1, 4, parse_cards("D"))
    assert shown(held, 1) == ("D233", "D233") and shown(held, 4) == ("DX4", "X4")
    # 4>2:DX given (not a payment): the D was received (1 held, 0 dealt), the X dealt: both go
    held = held.move(4, 2, parse_cards("DX"))
    assert shown(held, 4) == ("4", "4") and shown(held, 2) == ("DX", "")
    # 1>3:2 paid: the dealt 2 goes; 1 - 1 = 0 2s left in hand and among the dealt cards
    held = held.move(1, 3, parse_cards("2"), payment=True)
    assert shown(held, 1) == ("D33", "D33") and shown(held, 3) == ("2", "")
    # a seat giving more of a rank than it holds keeps none of it (never a negative count)
    held = held.move(1, 5, parse_cards("333"))
    assert shown(held, 1) == ("D", "D") and shown(held, 5) == ("333", "")


def test_transfers_and_dealt_holdings_are_each_records_own():
    """transfers() and Holdings.dealt answer the last record or deal asked about again (judging/transfers.py):
    records asked in turn each get their own. Worked by hand: ``buy 1>4:2 4>1:3 2>5:22`` is a price,
    the card bought and a tribute at pre-play actions 0, 1, 2; ``3>6:D`` a tribute at 0."""
    from gouji_record.judging.transfers import Holdings, transfers

    def roles(record):
        return [(i, a.plain_text, role) for i, a, role in transfers(record)]

    base = parse(open(EXAMPLES / "charter-hand.gjn", encoding="utf-8").read())[0]
    bought = base.model_copy(
        update={"preplay": (*_actions("buy 1>4:2", "buy 4>1:3"), *_actions("2>5:22"))}
    )
    paid = base.model_copy(update={"preplay": _actions("3>6:D")})
    for record in (bought, paid, bought, paid):
        expected = [(0, "1>4:2", "price"), (1, "4>1:3", "bought"), (2, "2>5:22", "tribute")]
        assert roles(record) == (expected if record is bought else [(0, "3>6:D", "tribute")])
    one, other = ("D2?34",) + ("?36",) * 5, ("XX?34",) + ("?36",) * 5
    for deal, hand in ((one, "D2"), (other, "XX"), (one, "D2")):
        assert format_cards(Holdings.dealt(deal).hands[0]) == hand
    changing = list(one)  # a list may change between two questions: it is read each time
    assert format_cards(Holdings.dealt(changing).own[0]) == "D2"
    changing[0] = "XX?34"
    assert format_cards(Holdings.dealt(changing).own[0]) == "XX"


def _actions(*texts):
    from gouji_record.model import Action

    return tuple(Action.from_text(t) for t in texts)
