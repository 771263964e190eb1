"""gouji review's findings are facts the rules decide (issue 24): opening under 开点发4, yields that
change something, burns of a team-mate and of a 够死级. Every expected value is worked out by hand
from the rule texts on small deals (each seat holds the cards named plus nothing else; the notation
asks 36 cards a seat, so these records are built as models, as tests/test_review.py builds them),
then a property over self-played hands of every preset.
"""

from __future__ import annotations

import pytest
from test_review import found, small

from gouji_record.analysis.review import review
from gouji_record.bots.selfplay import play_hand
from gouji_record.judging.replay import replay
from gouji_record.model import Action, ActionKind
from gouji_record.rules.engine import step
from gouji_record.rules.events import EventKind
from gouji_record.rules.rulesets import get_ruleset

ONLY_THREES = ("33",) * 5
#: After seat 1's last lead the others pass, seat 2 takes the wind (接风) and each seat leads its 33
#: out in turn: places 1 to 6 in seat order.
PLAYED_OUT = (
    " 2:- 3:- 4:- 5:- 6:- 1:4 2:- 3:- 4:- 5:- 6:- 1:33 2:- 3:- 4:- 5:- 6:-"
    " 2:33 3:- 4:- 5:- 6:- 3:33 4:- 5:- 6:- 4:33 5:- 6:- 5:33"
)


def reviewed(deal: tuple[str, ...], moves: str, ruleset: str):
    result = replay(small(deal, moves, ruleset))
    assert result.diagnostic is None, result.diagnostic
    return review(result)


# -- 开点发4: qualifying, leading the 4s, giving opening up (003 §开点, 004 §17, §18) -----------


def test_the_play_that_qualified_is_no_missed_opening_and_the_lead_after_it_is():
    # Failing input's kind (a tournament hand where seat 6's eight kings won the round and the review
    # said "could have opened with KKKKKKK", then nothing where leading its 4s would have opened).
    # Under the fours text winning a round with a 够级 play only qualifies; the seat opens by leading
    # all its 4s in the next round (003 §开点 "满足开点条件而不出4，则不视为开点"). Seat 1 holds AAA K 4 33,
    # the others 33. It leads AA (够级: A needs two, 003 §够级), its opposite seat 4 passes, and the
    # round is won: qualified (event open-qualified). AAA would have qualified too: no finding, the
    # play made did what it could. It then leads K, not its 4: leading 4 would have opened; the K
    # lets the qualification lapse. Its last 4, led later without qualifying, gives opening up (003
    # "不满足条件而打出4，则视为放弃开点"), but by then it holds A 4 33: no 够级 play is left (a single A is
    # none), so it could open no more and giving it up decided nothing: no finding.
    done = reviewed(("AAAK433",) + ONLY_THREES, "1:AA 4:- 1:K 2:- 3:- 4:- 5:- 6:- 1:4", "fours")
    kinds = {(e.kind, e.number) for e in done.result.events if e.seats[:1] == (1,)}
    assert (EventKind.OPEN_QUALIFIED, 2) in kinds and (EventKind.OPEN_GIVEN_UP, 9) in kinds
    assert [(n, k, s, a) for n, k, s, a in found(done) if k != "threes-only"] == [(3, "fours-missed", 1, ("1:4",))]
    f = done.findings[0]
    assert str(f.text) == (
        "seat 1 qualified to open and leads: leading all its 4s now (4) would have opened (开点发4); "
        "leading K it lets the qualification lapse"
    )
    assert (f.cost, f.score_cost, f.source) == (None, None, "开点发4 §开点 (满足开点条件而不出4，则不视为开点)")


def test_what_not_opening_costs_is_the_texts_own():
    # The hand above played to its end: seat 1 leads K (the lapse), its 4, its 33 and takes 1st;
    # the others lead their 33 out in seat order (places 1-6). Nobody opened.
    # Under the fours text there is no tribute, and each seat that does not open scores -2 (003
    # §计分): seat 1 has -2, and 0 had it opened: 2 points lost, no 点贡.
    moves = "1:AA 4:- 1:K" + PLAYED_OUT
    done = reviewed(("AAK433",) + ONLY_THREES, moves, "fours")
    assert done.result.complete and done.result.final.places == (1, 2, 3, 4, 5, 6)
    f = next(f for f in done.findings if f.kind == "fours-missed")
    assert (f.number, f.cost, f.score_cost) == (3, None, 2)
    assert str(f.text).endswith("; not opening, its personal score (个人分) is -2 (+0 had it opened)")
    # Under the tournament rules a seat that does not open pays its opposite one card (004 §31), and
    # between opposites one who opens scores +1 and one who does not -1, both alike 0 (004 §38).
    # Neither seat 1 nor seat 4 opened: seat 1 scores 0, and +1 had it opened; it pays seat 4 one
    # card, none had it opened.
    done = reviewed(("AAK433",) + ONLY_THREES, moves, "tournament")
    f = next(f for f in done.findings if f.kind == "fours-missed")
    assert (f.number, f.cost, f.score_cost) == (3, 1, 1)
    assert str(f.text).endswith(
        "; not opening, it pays seat 4 1 card(s) of 点贡 next hand (0 had it opened) "
        "and its personal score (个人分) is +0 (+1 had it opened)"
    )


def test_leading_all_the_4s_after_qualifying_opens_and_is_no_finding():
    # 004 §17 "在下一轮一次性发4，称为开点": AA wins the round, then 44 (all its 4s) opens.
    done = reviewed(("AAK4433",) + ONLY_THREES, "1:AA 4:- 1:44", "tournament")
    assert [e.kind for e in done.result.events if e.seats[:1] == (1,) and "open" in e.kind.value] == [
        EventKind.OPEN_QUALIFIED,
        EventKind.OPEN,
    ]
    assert found(done) == []


def test_giving_opening_up_is_a_decision_only_while_opening_is_possible():
    # 004 §18 "未按开点要求随意发4或顺4（无论数量多少），视为放弃开点". Seat 1 holds KK 44 33 and leads one
    # 4 without having qualified: opening given up. KK is a 纯够级 play (K needs two, 004 §12), so it
    # could still have qualified: a decision, with the leads it had without 4s, KK and K (its 3s
    # are held for last, 004 §19, and 44 holds 4s).
    done = reviewed(("KK4433",) + ONLY_THREES, "1:4", "tournament")
    assert found(done) == [(1, "opening-given-up", 1, ("1:KK", "1:K"))]
    assert str(done.findings[0].text).startswith("seat 1 gives opening up for the hand (放弃开点) playing 4")
    # With K 44 33 no 够级 play is left to win a round with (one K is not one): the same lead gives
    # opening up all the same (the event), but it decides nothing.
    done = reviewed(("K4433",) + ONLY_THREES, "1:4", "tournament")
    assert [e.kind for e in done.result.events] == [EventKind.OPEN_GIVEN_UP]
    assert found(done) == []


def test_no_opening_is_missed_under_fours_only_qualifying():
    # Under the fours text no play opens by winning its round: the review never says opening-missed
    # there (a qualify-missed instead: tests/test_review.py, the AA that was not led).
    done = reviewed(("AAK433",) + ONLY_THREES, "1:K 2:- 3:- 4:- 5:- 6:-", "fours")
    assert found(done) == [(1, "qualify-missed", 1, ("1:AA",))]
    assert str(done.findings[0].text) == (
        "seat 1 could have won the round with AA (no seat could then beat or burn it) and so qualified "
        "to open by leading all its 4s next (开点发4); it never opened"
    )


# -- yields (让牌, 002 §12) -------------------------------------------------------------------


def test_a_yield_is_a_decision_only_where_a_seat_yielded_to_may_act():
    # Failing input's kind: "seat 3 could have yielded on its opposite's QQ, letting the next two
    # seats play first" when both had passed this round. Seat 1 leads 9; 2 and 3 pass; seat 4 passes
    # too, holding T and Q. A yield (002 §12) lets seats 5 and 6 play first and keeps seat 4 a turn
    # after them, with T or Q to beat the 9: a decision.
    done = reviewed(("9J33", "33", "33", "TQ33", "33", "33"), "1:9 2:- 3:- 4:-", "charter")
    assert found(done) == [(4, "yield-missed", 4, ("4:~",))]
    # Here seat 4 beats the 9 with T, seats 5, 6 pass, seat 1 beats it with J and 2, 3 have passed
    # this round (a pass bars: 002 §13). Seat 4 passes on the J: seats 5 and 6 passed this round too,
    # so a yield would give the turn straight back to seat 4 (the charter allows it: option
    # yield-to-passed), the same as passing or playing now. Not a decision: no finding.
    done = reviewed(("9J33", "33", "33", "TQ33", "33", "33"), "1:9 2:- 3:- 4:T 5:- 6:- 1:J 4:-", "charter")
    assert found(done) == []


# -- burns: of a team-mate, of a 够死级 (002 §10, §16) -----------------------------------------


def test_a_partner_burn_and_a_dead_gouji_burn_are_named():
    # Seat 1 leads TTTTT, its last cards (1st place). Seat 4, its opposite, beats its last play with
    # JJJJJ: a 够死级 (dead gouji, 002 §16), which only a burn answers. Seat 5 holds QQQQQ 33: five
    # queens beat five tens and five jacks, and 33 left is one last play (the burn condition holds,
    # 002 §10). On seat 1's TTTTT seat 5 could have burned its own team-mate (1-3-5); on seat 4's
    # dead gouji an opponent. Both chances went by. The partner burn comes after the others.
    deal = ("TTTTT", "33", "33", "JJJJJ33", "QQQQQ33", "33")
    done = reviewed(deal, "1:TTTTT 4:JJJJJ 5:- 6:- 2:- 3:-", "charter")
    assert found(done) == [(2, "partner-burn-missed", 5, ("5:*QQQQQ",)), (3, "burn-missed", 5, ("5:*QQQQQ",))]
    assert str(done.findings[0].text) == (
        "seat 5 could have burned (烧牌) its team-mate seat 1's TTTTT with QQQQQ, the burn condition holding; it did not"
    )
    assert str(done.findings[1].text) == (
        "seat 5 could have burned (烧牌) seat 4's dead gouji (够死级) JJJJJ with QQQQQ, the burn condition holding; "
        "it did not"
    )
    assert done.findings[1].text.zh == "5号位本可用QQQQQ烧4号位的够死级JJJJJ（烧牌条件成立），但没有烧"


# -- a property over self-played hands ---------------------------------------------------------

OPENING_KINDS = {"opening-missed", "qualify-missed", "fours-missed", "opening-given-up"}


@pytest.mark.parametrize("preset", ["online", "classic", "charter", "fours", "tournament"])
def test_no_finding_contradicts_the_hands_own_events(preset):
    # Over self-played hands: a yield finding names a seat whose yield would give the turn to
    # another seat (the engine's next seat to act after the yield is not the yielder); an opening
    # finding names a seat that never opened in the hand, of the kind its ruleset has (under
    # 开点发4 no play opens by winning its round: qualify-missed, fours-missed and opening-given-up;
    # else opening-missed), a qualify-missed not in a round that qualified the seat, a fours-missed
    # on a lead of a qualified seat that did not open, an opening-given-up on an action whose events
    # give opening up.
    rules = get_ruleset(preset)
    seen: dict[str, int] = {}
    for seed in range(1, 9):
        result = replay(play_hand(rules, seed), rules)
        assert result.diagnostic is None
        opened = {e.seats[0] for e in result.events if e.kind is EventKind.OPEN}
        qualified = {(e.seats[0], e.round) for e in result.events if e.kind is EventKind.OPEN_QUALIFIED}
        for f in review(result).findings:
            seen[f.kind] = seen.get(f.kind, 0) + 1
            pos = result.positions[f.action]
            at = [e for e in result.events if e.action == f.action and e.seats[:1] == (f.seat,)]
            if f.kind == "yield-missed":
                after = step(pos, Action(seat=f.seat, kind=ActionKind.YIELD))[0]
                assert after.to_act != f.seat, (seed, f)
            if f.kind in OPENING_KINDS:
                assert f.seat not in opened, (seed, f)
                assert (f.kind == "opening-missed") is not rules.opening_by_fours, (seed, f)
            if f.kind == "qualify-missed":
                assert (f.seat, pos.round) not in qualified, (seed, f)
            if f.kind == "fours-missed":
                assert f.seat in pos.qualified and pos.top is None, (seed, f)
                assert EventKind.OPEN not in {e.kind for e in at}, (seed, f)
            if f.kind == "opening-given-up":
                assert EventKind.OPEN_GIVEN_UP in {e.kind for e in at}, (seed, f)
    assert seen  # the hands gave findings to check


# -- from one seat's view (座位视角) -------------------------------------------------------------


def test_a_seat_view_hides_the_other_hands_only():
    from gouji_record.analysis.review import seat_view

    record = small(("TTTTT", "33", "33", "JJJJJ33", "QQQQQ33", "33"), "1:TTTTT", "charter")
    assert seat_view(record, 4).deal == ("?5", "?2", "?2", "JJJJJ33", "?7", "?2")
    assert seat_view(record, 4).actions == record.actions
    with pytest.raises(ValueError):
        seat_view(record, 7)


def test_from_its_own_view_a_seat_sees_what_its_cards_decide_and_not_what_others_hold():
    # The hand of test_a_partner_burn_and_a_dead_gouji_burn_are_named. Seat 5's burns rest on its
    # own cards (QQQQQ beats five tens and five jacks; the 33 it keeps is one last play): from its
    # own view the same two findings. From seat 1's or seat 4's view: nothing of seat 5's, and
    # nothing of their own (seat 4 answered; seat 1 had no decision after its last play).
    deal = ("TTTTT", "33", "33", "JJJJJ33", "QQQQQ33", "33")
    result = replay(small(deal, "1:TTTTT 4:JJJJJ 5:- 6:- 2:- 3:-", "charter"))
    assert found(review(result, view=5)) == found(review(result))
    assert found(review(result, view=1)) == found(review(result, view=4)) == []
    assert str(review(result, view=5).caveat).startswith("reviewed from seat 5's view")
    # An opening from one's own view. Seat 1 holds JJJJ 33, the others four fives, sixes, sevens,
    # eights and nines with 33 each; seat 1 leads JJJ (not 够级: four jacks are the least, 002 §9)
    # and wins the round. JJJJ would have opened: four of a lower rank do not beat four jacks and nobody holds more than four of a rank (002 §8(6)), so
    # nobody could beat or burn it: the whole table's review says so. From seat 1's own view each
    # other hand is six cards it does not see, and four decks hold 16 queens: any of them may hold
    # QQQQ, so whether JJJJ would have opened is not its to know: no finding.
    moves = "1:JJJ 2:- 3:- 4:- 5:- 6:-"
    result = replay(small(("JJJJ33", "555533", "666633", "777733", "888833", "999933"), moves, "charter"))
    assert found(review(result)) == [(1, "opening-missed", 1, ("1:JJJJ",))]
    assert found(review(result, view=1)) == []
    # With the others holding only 33, two cards each, no other hand can hold four cards to beat
    # JJJJ: the counts decide it, and seat 1 knows them: the same finding from its own view.
    result = replay(small(("JJJJ33",) + ONLY_THREES, moves, "charter"))
    assert found(review(result, view=1)) == found(review(result)) == [(1, "opening-missed", 1, ("1:JJJJ",))]


@pytest.mark.parametrize("preset", ["online", "classic", "charter", "fours", "tournament"])
def test_what_a_seat_sees_from_its_own_view_holds_for_the_whole_table(preset):
    # A property over self-played hands: a decision found from a seat's own view rests on less than
    # the whole table's review knows, so the whole table's review has it too (same kind, action and
    # seat), with at least the alternatives it names; and it is that seat's. (States are left out:
    # from its view a seat may not know that another was smothered, 闷, and the round goes on in
    # its view where it closed at the table.)
    rules = get_ruleset(preset)
    compared = 0
    for seed in range(1, 4):
        result = replay(play_hand(rules, seed), rules)
        whole = {(f.kind, f.action, f.seat): set(f.choices) for f in review(result).findings}
        for seat in range(1, 7):
            for f in review(result, view=seat).findings:
                assert f.seat == seat
                if f.kind in ("undecided", "threes-only", "smothered"):
                    continue
                assert (f.kind, f.action, f.seat) in whole, (seed, seat, f)
                assert set(f.choices) <= whole[f.kind, f.action, f.seat], (seed, seat, f)
                compared += 1
    assert compared > 0


def test_review_seat_view_on_the_command_line():
    # examples/charter-hand.gjn from seat 1's view: at action 3 it passed on its opposite's JJJJJ
    # holding KKKKK (five kings beat five jacks: same count, higher rank, 002 §8(6); only the
    # opposite answers a 够级 play, 002 §9), and at action 13 it passed on its opposite's 9999 where
    # a yield (002 §12) would have let seats 2 and 3 play first, keeping KKKK and JJJJ: both rest
    # on its own cards and on who had passed, which every seat sees.
    from click.testing import CliRunner
    from conftest import EXAMPLES

    from gouji_record.cli.main import main

    r = CliRunner().invoke(main, ["review", str(EXAMPLES / "charter-hand.gjn"), "--seat", "1", "--seat-view", "--kind", "decisions"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[1] == (
        "  note: reviewed from seat 1's view: its own cards, the cards played and the counts, not the others' hands; "
        "only its own decisions"
    )
    assert [line.split(": ")[1:3] for line in lines if "seat 1 (" in line and "action" in line] == [
        ["action 3, seat 1 (Zhang Wei)", "answer-missed 未打点"],
        ["action 13, seat 1 (Zhang Wei)", "yield-missed 可让未让"],
    ]
    r = CliRunner().invoke(main, ["review", str(EXAMPLES / "charter-hand.gjn"), "--seat-view"])
    assert r.exit_code == 2 and "--seat-view needs --seat" in r.output
