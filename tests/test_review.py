"""gouji review: each decision with what the rules allowed. Expected values are worked out by hand
from the rules (the sections are cited at each test), on small deals where every legal action can
be listed on paper, and on examples/charter-hand.gjn (its deal and play are in the file, with
comments).

Small deals: every seat holds 33 plus the cards named (as tests/test_presets.py builds them); the
notation asks 36 cards a seat, so these records are built as models, not parsed.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import BAD_CARD_HAND, EXAMPLES, action

from gouji_record.cli.main import main
from gouji_record.model import GameRecord
from gouji_record.judging.replay import replay
from gouji_record.analysis.review import review

TAGS = {"Event": "review test", "Site": "here", "Date": "2026.11.30", "Round": "?", "Result": "*"}
TAGS |= {f"Seat{s}": f"p{s}" for s in range(1, 7)}


def small(deal: tuple[str, ...], moves: str, ruleset: str) -> GameRecord:
    """A record of a small deal (the model checks 36 cards a seat: built without that check)."""
    return GameRecord.model_construct(
        tags=TAGS | {"Ruleset": ruleset}, deal=deal, preplay=(), comment=(), actions=tuple(map(_action, moves.split()))
    )


def _action(token: str):
    """``action`` of conftest, and ``^3:~`` for an irregular action (marked ``^``)."""
    if token.startswith("^"):
        return action(token[1:]).model_copy(update={"irregular": True})
    return action(token)


def hand(cards: dict[int, str], moves: str, ruleset: str = "charter"):
    deal = tuple(cards.get(s, "") + "33" if cards.get(s) != "?" else "?7" for s in range(1, 7))
    result = replay(small(deal, moves, ruleset))
    assert result.diagnostic is None, result.diagnostic
    return review(result)


def found(done) -> list[tuple[int, str, int, tuple[str, ...]]]:
    return [(f.number, f.kind, f.seat, f.alternatives) for f in done.findings]


def test_a_missed_burn_and_a_missed_answer():
    # Seat 1 leads TTTTT, a 够级 play (five 10s: 002 §9). Only its opposite, seat 4, may answer
    # (002 §9); seat 4's JJJJJ would (same count, higher rank: 002 §8(6)). Seat 5 may burn (002 §10)
    # with five cards that beat it: from X QQQQ 33 only XQQQQ (four queens carrying a small joker),
    # and what is left, 33, is one last play, which needs no joker: the burn condition holds
    # (002 §10). Seats 2, 3 and 6 hold only 33. Seat 4 passes: both chances went by at action 2.
    # Seat 5 is seat 1's team-mate (1-3-5): its burn is a partner burn, ranked after the answer.
    done = hand({1: "TTTTT", 4: "JJJJJ", 5: "XQQQQ"}, "1:TTTTT 4:-")
    assert found(done) == [(2, "answer-missed", 4, ("4:JJJJJ",)), (2, "partner-burn-missed", 5, ("5:*XQQQQ",))]
    assert "its team-mate seat 1's TTTTT" in str(done.findings[1].text)
    # The same cards with seat 2, an opponent of seat 1, as the one who could burn: a burn missed.
    done = hand({1: "TTTTT", 4: "JJJJJ", 2: "XQQQQ"}, "1:TTTTT 4:-")
    assert found(done) == [(2, "burn-missed", 2, ("2:*XQQQQ",)), (2, "answer-missed", 4, ("4:JJJJJ",))]
    assert str(done.findings[0].text).startswith("seat 2 could have burned (烧牌) seat 1's TTTTT with XQQQQ")
    assert done.caveat is None
    burn = done.findings[0]
    assert burn.rule == "burn" and burn.source.startswith("够级大纲 §10")
    assert burn.text.zh == "2号位本可用XQQQQ烧1号位的TTTTT（烧牌条件成立），但没有烧"


def test_a_burn_taken_is_no_finding():
    done = hand({1: "TTTTT", 4: "JJJJJ", 5: "XQQQQ"}, "1:TTTTT 5:*XQQQQ")
    assert [f.kind for f in done.findings] == []


def test_a_burn_that_breaks_the_condition_is_not_offered():
    # With XQQQQ 55 33 seat 5 would be left 55 and 33 and no joker: two plays, the first without
    # a joker, so the condition fails (002 §10) and no burn is listed.
    done = hand({1: "TTTTT", 5: "XQQQQ55"}, "1:TTTTT 4:-")
    assert found(done) == []


def test_a_missed_opening_and_its_point_tribute():
    # Seat 1 holds JJJJ 33 and leads JJJ (three jacks: not 够级, which needs four: 002 §9), then J,
    # then 33, and finishes first; nobody else holds more than 33, so nobody ever opens. At its
    # first lead JJJJ was legal, a 够级 play nobody could beat (the others hold only 3s) or burn:
    # it would have won the round and opened (002 §24, §31(5)). At its second lead it holds J 33:
    # no 够级 play. Not opening, seat 1 pays its opposite seat 4 one card of 点贡 (002 §24: 不开点
    # 者给对头一张), none had it opened.
    # After each finish the others pass and the next seat takes the wind (接风, 002 §31(3)).
    moves = "1:JJJ 2:- 3:- 4:- 5:- 6:- 1:J 2:- 3:- 4:- 5:- 6:- 1:33 2:- 3:- 4:- 5:- 6:-"
    moves += " 2:33 3:- 4:- 5:- 6:- 3:33 4:- 5:- 6:- 4:33 5:- 6:- 5:33"
    done = hand({1: "JJJJ"}, moves)
    assert done.result.complete and done.result.final.opened == frozenset()
    assert found(done) == [(1, "opening-missed", 1, ("1:JJJJ",))]
    f = done.findings[0]
    assert f.cost == 1
    assert str(f.text).endswith("not opening, it pays seat 4 1 card(s) of 点贡 next hand (0 had it opened)")


def test_an_irregular_action_not_made_is_judged_as_the_engine_took_it():
    # Failing input: seat 4 marks a yield (^4:~) on its opposite's TTTTT. A yield is allowed only on
    # the opposite's non-gouji play (002 §12): the engine rules it not made (错牌不出, 002 §8(1)) and
    # seat 4, whose turn it was, loses it: a pass. So no yield was taken; seat 4 passed on a 够级 play
    # it could have answered with JJJJJ (002 §9), and JJJJJ would have opened (开点, 002 §24): the
    # others hold only 33, so nobody could beat or burn it. The review said "seat 4 yields" and no more.
    done = hand({1: "TTTTT", 4: "JJJJJ"}, "1:TTTTT ^4:~")
    assert found(done) == [(2, "answer-missed", 4, ("4:JJJJJ",)), (2, "opening-missed", 4, ("4:JJJJJ",))]
    # Seat 5 marks a burn of four queens (^5:*QQQQ) on the five tens: four cards do not beat five
    # (002 §8), so it is not made and seat 5 is not the seat to act: nothing happened. Its XQQQQ
    # still burned (as in test_a_missed_burn_and_a_missed_answer), until seat 4 passed: the chance
    # went by. The review took the failed attempt for a burn taken and reported nothing for seat 5.
    done = hand({1: "TTTTT", 4: "JJJJJ", 5: "XQQQQ"}, "1:TTTTT ^5:*QQQQ 4:-")
    assert found(done) == [(2, "partner-burn-missed", 5, ("5:*XQQQQ",)), (3, "answer-missed", 4, ("4:JJJJJ",))]


def test_an_opening_by_fours_that_rests_on_hidden_cards_is_not_certain():
    # Failing input. Under the fours text a 够级 play that wins its round does not open by itself:
    # its seat must hold 4s and lead them all in the next round (003 §开点 "满足开点条件而不出4，则不视为开点";
    # option opening-by-fours). Seat 1 leads K, not a 够级 play (K needs two: 003 §够级), and wins the
    # round: the others hold only 33, held for the last play (003 §开点发4). AA was legal and nobody
    # could beat or burn it; with AAK 4 33 seat 1 holds a 4, so AA would have qualified it to open
    # by leading its 4 next: a fact (a qualifying missed, not an opening: issue 24).
    done = review(replay(small(("AAK433",) + ("33",) * 5, "1:K 2:- 3:- 4:- 5:- 6:-", "fours")))
    assert found(done) == [(1, "qualify-missed", 1, ("1:AA",))]
    # With AAK and two cards not written (?2), those two may be 4s or not (33, say): whether AA
    # would have opened depends on them. The engine qualifies the seat on its hidden cards (possible
    # cards), and the review took that for an opening for certain.
    done = review(replay(small(("AAK?2",) + ("33",) * 5, "1:K 2:- 3:- 4:- 5:- 6:-", "fours")))
    assert found(done) == []


def test_no_point_tribute_is_owed_after_a_sweep():
    # Failing input. Seat 1 holds JJJJ 33 and leads JJJ, J, 33 (none a 够级 play: four jacks are the
    # least: 002 §9) and finishes first; seat 3 (55 33) and seat 5 (55 33) follow it out, each
    # winning a round with 55 over its upstream neighbour's 44 (seats 2, 4, 6 hold 44 33). Places
    # 1-3-5: team 1-3-5 sweeps (串三户), and under the charter a sweep ends the tribute (002 §21(7)):
    # no 点贡 next hand (gouji_record.matches.match.tribute_due owes none). At its first lead JJJJ would have
    # opened (nobody holds four cards to beat it or burn it). The review said not opening cost seat
    # 1 one card of 点贡 to seat 4, reckoned without the sweep.
    moves = "1:JJJ 2:- 3:- 4:- 5:- 6:- 1:J 2:- 3:- 4:- 5:- 6:- 1:33 2:- 3:- 4:- 5:- 6:-"
    moves += " 2:44 3:55 4:- 5:- 6:- 2:- 3:33 4:- 5:- 6:- 2:- 4:44 5:55 6:- 2:- 4:- 5:33"
    done = hand({1: "JJJJ", 2: "44", 3: "55", 4: "44", 5: "55", 6: "44"}, moves)
    assert done.result.complete and done.result.places[:3] == (1, 3, 5)
    f = done.findings[0]
    assert (f.number, f.kind, f.seat, f.alternatives, f.cost) == (1, "opening-missed", 1, ("1:JJJJ",), 0)
    assert str(f.text) == "seat 1 could have opened (开点) with JJJJ: no seat could then beat or burn it"


def test_threes_only_then_smothered():
    # Under the fours text (003 §开点发4 "3要保留到最后一手出牌", §被闷) 3s are held for last. Seat 1 leads 55 and holds only
    # 33: if 55 is beaten it is smothered. Seat 2 beats it with 66, and now holds only 33 itself;
    # seat 1 is smothered (闷).
    done = hand({1: "55", 2: "66"}, "1:55 2:66", "fours")
    assert found(done) == [(1, "threes-only", 1, ()), (2, "threes-only", 2, ()), (2, "smothered", 1, ())]
    assert "smothered (闷) by seat 2's 66" in str(done.findings[2].text)


def test_hidden_cards_leave_the_answer_undecided():
    # Seat 4's cards are not written (?7): they may hold JJJJJ, which would answer TTTTT, or not.
    done = hand({1: "TTTTT", 4: "?"}, "1:TTTTT 4:-")
    assert found(done) == [(2, "undecided", 4, ())]
    assert done.hidden == (4,) and "seats 4 hold cards the record does not give" in str(done.caveat)


def test_a_burn_by_a_seat_whose_other_cards_are_hidden_is_undecided():
    # Failing input (the guide's friday.gjn, seat 4 passing): seat 2 holds JJJJJ and 31 cards not
    # written. JJJJJ beats TTTTT, but whether the burn condition holds (002 §10: every later play
    # carries a joker but the last) depends on those 31 cards: undecided, not "could have burned".
    # Seat 4's answer with QQQQQ needs nothing of its hidden cards under the charter: a fact.
    deal = ("TTTTT?31", "JJJJJ?31", "?36", "QQQQQ?31", "?36", "?36")
    done = review(replay(small(deal, "1:TTTTT 4:-", "charter")))
    assert found(done) == [(2, "answer-missed", 4, ("4:QQQQQ",))] + [(2, "undecided", s, ()) for s in (2, 3, 5, 6)]
    assert "(to burn with, or to keep the burn condition)" in str(done.findings[1].text)


def test_an_answer_that_keeps_no_rule_on_hidden_cards_is_a_fact():
    # Under the tournament rules seat 1 leads a single 2 (够级: 004 §12) and seat 4, its opposite,
    # holds D and 35 cards not written. D beats 2, and playing it depends on nothing it keeps (it is
    # neither 3s, held for last, nor 4s, played whole: 004 §5, §6): a fact, hidden cards or not.
    deal = ("2?35", "?36", "?36", "D?35", "?36", "?36")
    done = review(replay(small(deal, "1:2 4:-", "tournament")))
    assert (2, "answer-missed", 4, ("4:D",)) in found(done)


def test_the_worked_example():
    # examples/charter-hand.gjn. Action 3 is 1:- on seat 4's JJJJJ: seat 1 holds KKKKKK, so KKKKK
    # answered (the only five cards above J it holds). Action 13 is 1:- on seat 4's 9999 (a
    # non-gouji play of its opposite, after seats 5 and 6 passed): seat 1 could have yielded (让牌,
    # 002 §12) keeping KKKK and JJJJ, its four-card plays above 9 (its TTTTT went at action 1).
    # Action 39 is seat 3's yield. Action 49 is 4:- on seat 1's KKKKKK: seat 4 holds AAAAAA.
    done = review(replay(next(iter(_read("charter-hand.gjn")))))
    by = {(f.number, f.kind): f for f in done.findings}
    assert by[(3, "answer-missed")].alternatives == ("1:KKKKK",)
    assert by[(13, "yield-missed")].seat == 1 and "keeping KKKK, JJJJ to beat it later" in str(by[(13, "yield-missed")].text)
    assert by[(39, "yield-taken")].seat == 3
    assert by[(49, "answer-missed")].alternatives == ("4:AAAAAA",)
    # Seat 3 (Li Na) never opens; at action 9 (3:8888 on 2:7777) 2222 and X222 would have: the
    # opposite, seat 6, holds no 2 or joker, and no seat can burn them and keep the condition.
    # D222 carries a big joker: under the charter it does not open (option opening-excludes=big-joker,
    # 002 §24, §31(5)). QQQQ could be burned by seat 5 (its XXKK, as in round 3). Not opening costs seat 3 one card to seat 6, who opened.
    assert by[(9, "opening-missed")].alternatives == ("3:2222", "3:X222") and by[(9, "opening-missed")].cost == 1
    # Seat 5's burn at action 17 (5:*XXKK) is taken: no burn-missed for seat 5 there.
    assert not any(f.kind == "burn-missed" and f.seat == 5 for f in done.findings)


def _read(name: str):
    from gouji_record import read

    return read(EXAMPLES / name)


def test_rollouts_of_a_forced_line_equal_the_hand_as_played():
    # After 1:TTTTT 4:- seat 4 holds JJJJJ 33 and every other seat only 33: whoever leads plays
    # out (nobody can beat a lead with 3s, or seat 4's jacks), seats take the wind in turn, and
    # places are 1-2-3-4-5-6 whatever the bot does; so every rollout of the action made scores
    # what the hand scored.
    moves = "1:TTTTT 4:- 1:33 2:- 3:- 4:- 5:- 6:- 2:33 3:- 4:- 5:- 6:- 3:33 4:- 5:- 6:- 4:JJJJJ 5:- 6:- 4:33 5:- 6:- 5:33"
    deal = {1: "TTTTT", 4: "JJJJJ"}
    full = replay(small(tuple(deal.get(s, "") + "33" for s in range(1, 7)), moves, "charter"))
    assert full.complete
    done = review(full, rollouts=3, bot="random", seed=7)
    answer = next(f for f in done.findings if f.kind == "answer-missed")
    made = answer.estimates[0]
    assert made.actual and made.action == "4:-" and made.n == 3 and made.bot == "random"
    assert made.mean == full.score.teams[0]  # seat 4's team, 2-4-6
    assert [e.action for e in answer.estimates] == ["4:-", "4:JJJJJ"]


def run(*args):
    return CliRunner().invoke(main, ["review", *map(str, args)])


def test_cli_text_and_json():
    r = run(EXAMPLES / "charter-hand.gjn", "--seat", "4")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].endswith("69 actions under charter, 1 finding")
    assert lines[1] == (
        f"{EXAMPLES / 'charter-hand.gjn'}:54:73: action 49, seat 4 (Zhao Lei): answer-missed 未打点: seat 4 could have "
        "answered (打点) its opposite's gouji play (够级) KKKKKK with AAAAAA; it passed"
    )
    r = run(EXAMPLES / "charter-hand.gjn", "--format", "json", "--seat", "4")
    data = json.loads(r.output)
    assert data["findings"][0]["action"] == 49 and data["findings"][0]["alternatives"] == ["4:AAAAAA"]
    assert data["findings"][0]["text_zh"] == "4号位本可用AAAAAA打对头的够级牌KKKKKK（打点），但过了"


def test_cli_illegal_and_unreadable(tmp_path):
    r = run(EXAMPLES / "charter-hand-illegal.gjn")
    assert r.exit_code == 1 and "the replay stops at action 2: illegal (gouji-not-opposite)" in r.output
    bad = tmp_path / "bad.gjn"
    bad.write_text('[Event "x"]\ndeal 1: ZZ\n', encoding="utf-8")
    r = run(bad)
    assert r.exit_code == 2 and "Traceback" not in r.output
    r = run(EXAMPLES / "charter-hand.gjn", "--hand", "2")
    assert r.exit_code == 2 and "Invalid value for --hand" in r.output and "has 1 hand(s)" in r.output


@pytest.mark.parametrize("name", ["online-match.gjn", "fours-match.gjn", "tournament-match.gjn"])
def test_every_finding_names_a_legal_alternative(name):
    # A property over the examples: each alternative a finding offers is accepted by the engine at
    # the finding's position (the reviewer proposes nothing the rules refuse).
    from gouji_record.rules.engine import step

    for record in _read(name):
        result = replay(record)
        for f in review(result).findings:
            for a in f.choices:
                step(result.positions[f.action], a)


@pytest.mark.parametrize("preset", ["online", "classic", "charter", "fours", "tournament"])
def test_what_a_review_of_hidden_cards_asserts_holds_for_the_cards_dealt(preset):
    # The kind of the bug found in friday.gjn (a burn called possible "with the burn condition
    # holding" by a seat whose other cards were not written): a finding about a hand with hidden
    # cards must hold whatever those cards are. So for bot hands dealt in full, hide the cards of
    # some seats (about half of each one's cards stay written, as in friday.gjn's `1: TTTTT ?31`:
    # every play they made stays possible); each alternative a
    # finding of the hidden record offers must be legal, and each certain opening must still open,
    # in the record as dealt.
    import random

    from gouji_record.analysis.review import _certain_outcome
    from gouji_record.rules.events import EventKind
    from gouji_record.rules.engine import step
    from gouji_record.rules.rulesets import get_ruleset
    from gouji_record.bots.selfplay import play_hand

    rules = get_ruleset(preset)
    checked = 0
    for seed in range(1, 6):
        full = play_hand(rules, seed)
        rng = random.Random(seed)
        hidden_seats = set(rng.sample(range(1, 7), 3))
        deal = tuple(_half_known(cards, rng) if s in hidden_seats else cards for s, cards in enumerate(full.deal, start=1))
        partial = full.model_copy(update={"deal": deal})
        as_dealt, hidden = replay(full, rules), replay(partial, rules)
        assert hidden.diagnostic is None, hidden.diagnostic
        for f in review(hidden).findings:
            if f.kind == "undecided":
                continue
            for a in f.choices:
                step(as_dealt.positions[f.action], a)  # raises IllegalAction if the claim was wrong
                checked += 1
                if f.kind in ("opening-missed", "qualify-missed", "fours-missed"):
                    wanted = EventKind.OPEN_QUALIFIED if f.kind == "qualify-missed" else EventKind.OPEN
                    assert _certain_outcome(as_dealt.positions[f.action], a) is wanted, (seed, f)
    assert checked > 0


def _half_known(cards: str, rng) -> str:
    """``cards`` with each card kept written at even odds, the rest unknown (``?N``)."""
    kept = "".join(c for c in cards if rng.random() < 0.5)
    return kept + f"?{len(cards) - len(kept)}"


def test_jobs_say_what_one_process_says(tmp_path):
    # the hands of several files, one unreadable hand and one illegal among them, reviewed in two
    # worker processes: the same lines in the same order, the same exit status
    bad = tmp_path / "bad.gjn"
    bad.write_text(BAD_CARD_HAND, encoding="utf-8")
    files = [EXAMPLES / "charter-hand.gjn", bad, EXAMPLES / "charter-hand-illegal.gjn", EXAMPLES / "online-match.gjn"]
    for fmt in ("text", "json"):
        one = CliRunner().invoke(main, ["review", "--format", fmt, *map(str, files)])
        two = CliRunner().invoke(main, ["review", "--format", fmt, "--jobs", "2", *map(str, files)])
        assert one.exit_code == two.exit_code == 2
        assert one.output == two.output and one.output.count("hand 1" if fmt == "text" else "\"hand\": 1,") >= 3


def test_rollouts_on_hidden_cards_say_why_there_are_none():
    # the deal of friday.gjn-like records is not all written: a rollout cannot deal the rest
    deal = ("TTTTT?31", "JJJJJ?31", "?36", "QQQQQ?31", "?36", "?36")
    done = review(replay(small(deal, "1:TTTTT 4:-", "charter")), rollouts=5)
    assert done.unestimated and all(not f.estimates for f in done.findings)
    from gouji_record.analysis.review import review_data, review_lines

    assert "  note: no estimates: rollouts play the rest of the hand from the whole deal" in "\n".join(review_lines(done, "f.gjn", 1))
    assert review_data(done, "f.gjn", 1)["estimates_skipped"]["zh"].startswith("没有估计")
    assert not review(done.result).unestimated  # none asked for: nothing to say
