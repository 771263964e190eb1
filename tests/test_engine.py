"""The engine under the charter, scenario by scenario, each worked out by hand from the rules.

Seats 1–6 act in that order; opposites are 1-4, 2-5, 3-6. Every seat holds a
few spare 3s so that nobody runs out unless the scenario says so.
"""

from gouji_record.rules.engine import Position, burn_condition_holds, opposite, team
from gouji_record.rules.scoring import scores
from gouji_record.cards import parse_cards
from gouji_record.rules.rulesets import get_ruleset, with_options

from conftest import Table

CHARTER = get_ruleset("charter")


def spare(**hands):
    """Every seat gets 33 plus the cards given as s1=…, s2=…"""
    return {s: hands.get(f"s{s}", "") + "33" for s in range(1, 7)}


def test_seating():
    assert [opposite(s) for s in range(1, 7)] == [4, 5, 6, 1, 2, 3]
    assert [team(s) for s in range(1, 7)] == [1, 0, 1, 0, 1, 0]


# -- turn order, passing, round end (002 §8(5), §11, §13) --------------------------------


def test_round_goes_round_and_last_player_leads():
    t = Table(spare(s1="55", s2="66", s3="77"))
    pos = t.play("1:55 2:66 3:77 4:- 5:- 6:- 1:- 2:-")
    assert pos.top is None and pos.to_act == 3 and pos.round == 2


def test_not_your_turn():
    d = Table(spare(s1="55", s3="66")).illegal("1:55 3:66")
    assert d.code == "not-your-turn" and "seat 2's turn" in d.message


def test_leader_must_play():
    assert Table(spare()).illegal("1:-").code == "must-lead"


def test_passed_seat_is_barred_for_the_round():
    d = Table(spare(s1="55", s2="77", s3="66")).illegal("1:55 2:- 3:66 2:77")
    assert (d.code, d.rule) == ("passed-this-round", "pass-bars")


def test_passed_seat_may_play_again_on_its_opposites_play():
    # seat 2 passes, then seat 5 (its opposite) plays: seat 2 gets a turn again (002 §11)
    t = Table(spare(s1="55", s2="77", s5="66"))
    assert t.play("1:55 2:- 3:- 4:- 5:66 6:- 1:-").to_act == 2
    pos = t.play("2:77")
    assert pos.to_act == 5  # 3, 4 passed on a non-opposite's play: skipped
    pos = t.play("5:-")  # 6 and 1 passed: barred; back to seat 2
    assert pos.top is None and pos.to_act == 2


def test_cards_not_held():
    d = Table(spare(s1="55")).illegal("1:AA")
    assert d.code == "not-in-hand"
    assert d.message == "seat 1 cannot play AA: the play needs two As; seat 1 holds none"
    assert d.message_zh == "1号位不能出AA：这手牌要两张A，1号位一张也没有"


def test_a_play_of_more_cards_than_held_names_the_play_and_what_is_missing():
    # issue 38: seat 3 holds four 3s (spare's 33 and 33 more) and leads eight: the message
    # names the play, what it needs and what the seat holds of it, not the difference (3333)
    d = Table(spare(s3="33")).illegal("3:33333333")
    assert d.code == "not-in-hand"
    assert d.message == "seat 3 cannot play 33333333: the play needs eight 3s; seat 3 holds four"
    assert d.message_zh == "3号位不能出33333333：这手牌要八张3，3号位只有四张"


def test_a_play_short_of_two_ranks_lists_each():
    # seat 1 holds one big joker D, no 2, and 55 33: DD255 needs two Ds and one 2
    d = Table(spare(s1="D55")).illegal("1:DD255")
    assert d.message == (
        "seat 1 cannot play DD255: the play needs two big jokers and one 2; seat 1 holds one big joker and no 2s"
    )
    assert d.message_zh == "1号位不能出DD255：这手牌要两张大王和一张2，1号位只有一张大王，没有2"


def test_two_ranks_are_not_a_play():
    assert Table(spare(s1="4455")).illegal("1:4455").code == "bad-play"


def test_follow_must_beat():
    d = Table(spare(s1="55", s2="44")).illegal("1:55 2:44")
    assert (d.code, d.rule) == ("does-not-beat", "higher-rank")
    d = Table(spare(s1="55", s2="666")).illegal("1:55 2:666")
    assert (d.code, d.rule) == ("does-not-beat", "same-count")


def test_dead_play_closes_the_round_at_once():
    t = Table(spare(s1="D44", s2="55"))
    pos = t.play("1:D44")
    assert pos.top is None and pos.to_act == 1  # nobody may answer a big-joker play (002 §8(3))
    # a 够级 play (D44 carries a big joker), and 死牌: the event that says why the round closed
    assert t.kinds() == ["gouji", "unbeatable"]
    assert t.illegal("2:55").code == "not-your-turn"


# -- gouji plays, answers, opening (002 §9, §24, §31(5)) -----------------------------------


def test_only_the_opposite_answers_a_gouji_play():
    d = Table(spare(s1="TTTTT", s2="JJJJJ")).illegal("1:TTTTT 2:JJJJJ")
    assert (d.code, d.rule) == ("gouji-not-opposite", "gouji-opposite-only")
    assert "seat 4" in d.message and "2:*" in d.message


def test_answer_and_opening():
    t = Table(spare(s1="TTTTT", s4="JJJJJ"))
    assert t.play("1:TTTTT").to_act == 4  # seats 2 and 3 have no right to follow
    assert t.play("4:JJJJJ").to_act == 1  # back to seat 1, seat 4's opposite
    pos = t.play("1:-")
    assert pos.top is None and pos.to_act == 4 and pos.opened == {4}
    assert t.kinds() == ["gouji", "answer", "gouji", "open"]


def test_big_joker_plays_do_not_open():
    t = Table(spare(s1="D"))
    pos = t.play("1:D")
    assert pos.opened == frozenset() and t.kinds() == ["gouji", "unbeatable"]  # 死牌 (002 §8(3))


def test_small_joker_plays_open():
    t = Table(spare(s1="X"))
    assert t.play("1:X 4:-").opened == {1}


# -- yield (002 §12) ------------------------------------------------------------------------


def test_yield_comes_back_when_both_downstream_pass():
    t = Table(spare(s1="55", s4="66"))
    pos = t.play("1:55 2:- 3:- 4:~")
    assert pos.to_act == 5
    pos = t.play("5:- 6:-")
    assert pos.to_act == 4 and pos.top.seat == 1
    pos = t.play("4:66")
    assert pos.to_act == 1  # 5 and 6 passed, 2 and 3 passed on seat 1's play: only seat 1 may answer


def test_yield_counts_as_a_pass_when_downstream_plays():
    t = Table(spare(s1="55", s4="77", s5="66"))
    t.play("1:55 2:- 3:- 4:~ 5:66 6:- 1:-")
    # seat 2 passed on seat 1's play, but seat 5 is its opposite: it gets a turn again
    assert t.pos.to_act == 2
    # seat 4's yield counts as a pass once seat 5 played: it may not play now
    assert t.illegal("4:77").code == "passed-this-round"
    pos = t.play("2:-")
    assert pos.top is None and pos.to_act == 5


def test_yield_only_on_the_opposites_non_gouji_play():
    assert Table(spare(s1="55")).illegal("1:55 2:~").code == "yield-not-allowed"
    assert Table(spare(s1="TTTTT")).illegal("1:TTTTT 4:~").code == "yield-not-allowed"
    assert Table(spare(s1="55")).illegal("1:55 2:- 3:- 4:~ 5:- 6:- 4:~").code == "yield-not-allowed"


# -- burning (002 §10) ---------------------------------------------------------------------

BURNER = spare(s1="TTTTT", s2="XJJJJD44", s5="DQQQQQ")


def test_burn_then_success():
    t = Table(BURNER)
    pos = t.play("1:TTTTT 2:*XJJJJ")
    assert pos.burner == 2 and pos.to_act == 5  # only seat 5, seat 2's opposite, may answer
    pos = t.play("5:-")
    assert pos.to_act == 2 and pos.opened == {2}
    t.play("2:D33")  # a joker in every play but the last
    pos = t.play("2:44")
    assert pos.finished == (2,) and pos.burner is None
    # D33 carries a big joker: 死牌 under the charter (002 §8(3))
    assert t.kinds() == [
        "gouji", "burn", "gouji", "open", "gouji", "unbeatable", "finish", "burn-success", "headless"
    ]  # fmt: skip


def test_burn_broken_by_the_burners_opposite():
    t = Table(BURNER)
    pos = t.play("1:TTTTT 2:*XJJJJ 5:DQQQQ")
    assert pos.burner is None
    assert t.kinds() == ["gouji", "burn", "gouji", "burn-broken", "answer", "gouji", "unbeatable"]  # DQQQQ: 死牌


def test_burn_condition_checked_when_burning():
    # left with 44 and 55 and no joker, seat 2 could not carry a joker in every play but the last
    d = Table(spare(s1="TTTTT", s2="XJJJJ4455")).illegal("1:TTTTT 2:*XJJJJ")
    assert (d.code, d.rule) == ("burn-condition", "burn-condition")


def test_burn_condition_checked_while_burning():
    d = Table(BURNER).illegal("1:TTTTT 2:*XJJJJ 5:- 2:44")
    assert d.code == "burn-condition" and "carries none" in d.message


def test_burn_condition_arithmetic():
    assert burn_condition_holds(parse_cards("D4455"), CHARTER)  # two ranks, one joker: D44 then 55
    assert not burn_condition_holds(parse_cards("445566"), CHARTER)  # k=3, no joker
    assert burn_condition_holds(parse_cards("555555"), CHARTER)  # one rank left (手中所剩牌为同一点数)
    assert burn_condition_holds(parse_cards("2255"), CHARTER)  # 2s attach to the 5s
    assert burn_condition_holds(parse_cards("22"), CHARTER)
    assert not burn_condition_holds(parse_cards("224455"), CHARTER)


def test_not_a_burn():
    assert Table(spare(s1="55", s2="X66")).illegal("1:55 2:*X66").code == "not-a-burn"
    d = Table(spare(s1="TTTTT", s4="XJJJJ")).illegal("1:TTTTT 4:*XJJJJ")
    assert d.code == "not-a-burn" and "without *" in d.message


def test_a_seat_that_passed_may_not_burn():
    t = Table(spare(s1="99999", s3="TTTTT", s2="XJJJJ"))
    d = t.illegal("1:99999 2:- 3:TTTTT 2:*XJJJJ")
    assert (d.code, d.rule) == ("passed-this-round", "burn-pass-bars")


# -- finishing, dead gouji, headless, take the wind, melee (002 §3, §16–§19) -------------


def test_dead_gouji_only_a_burn_answers():
    t = Table({1: "TTTTT", 2: "33", 3: "33", 4: "JJJJJ33", 5: "QQQQQ33", 6: "33"})
    t.play("1:TTTTT")  # seat 1 finishes with a gouji play: 1st place
    pos = t.play("4:JJJJJ")  # seat 4 beats its last play: 够死级
    assert pos.top.burn_only and pos.to_act == 5
    assert "dead-gouji" in t.kinds()
    d = t.illegal("5:QQQQQ")
    assert (d.code, d.rule) == ("dead-gouji", "dead-gouji")
    pos = t.play("5:- 6:- 2:- 3:-")
    assert pos.top is None and pos.to_act == 4


def test_take_the_wind_after_a_last_play_stands():
    t = Table({1: "55", 2: "33", 3: "33", 4: "33", 5: "33", 6: "33"})
    pos = t.play("1:55 2:- 3:- 4:- 5:- 6:-")
    assert pos.to_act == 2 and "take-the-wind" in t.kinds()


def test_headless_seat_beats_and_is_beaten_by_anyone():
    t = Table({1: "55", 2: "3333", 3: "44JJJJ", 4: "TTTTT66", 5: "33", 6: "33"})
    t.play("1:55 2:- 3:- 4:- 5:- 6:-")  # seat 1 takes 1st; seat 4 is headless; seat 2 takes the wind
    assert t.pos.headless(4) and t.pos.to_act == 2
    pos = t.play("2:33 3:44 4:66 5:- 6:- 2:- 3:-")
    assert pos.top is None and pos.to_act == 4
    pos = t.play("4:TTTTT")  # a headless seat's gouji play is open to all
    assert pos.to_act == 5 and not pos.top.restricted
    assert "gouji" not in t.kinds()


MELEE_DEAL = {1: "55", 2: "66", 3: "777TTTTT", 4: "888JJJJJ3", 5: "9993", 6: "AAA33"}


def test_melee_begins_with_the_round_after_second_place():
    # 002 §18: 头科、二科产生后 the melee; §16: "头科或二科发底牌后，除对头外过牌者在此轮中均不可再出牌" —
    # the round of 二科's last play is played out first; the melee begins with the next lead.
    t = Table(MELEE_DEAL)
    pos = t.play("1:55 2:66")
    assert pos.finished == (1, 2) and not pos.melee
    pos = t.play("3:- 4:- 5:- 6:-")
    assert pos.to_act == 3 and pos.melee  # seat 3 takes the wind after seat 2, and the melee begins
    assert t.kinds() == ["finish", "headless", "finish", "headless", "take-the-wind", "melee"]


def test_passing_still_bars_in_the_round_of_second_place():
    # 002 §16 "头科或二科发底牌后，除对头外过牌者在此轮中均不可再出牌": seat 3 passed on 2nd place's last
    # play, so it has no turn on seat 4's 8; the round closes and seat 4 leads as the melee begins
    deal = {1: "5", 2: "7", 3: "9933", 4: "8833", 5: "33", 6: "33"}
    t = Table(deal)
    d = t.illegal("1:5 2:7 3:- 4:8 5:- 6:- 3:9")
    assert (d.code, d.message) == ("not-your-turn", "seat 4 leads round 2, not seat 3")
    assert t.pos.melee and t.kinds()[-1] == "melee"
    # where the melee begins at once (option melee-begins=at-once, as 004 §10 "二科产生后，过牌限制自动
    # 解除"), the pass no longer bars: seat 3 plays again in the round
    t = Table(deal)
    t.rules = with_options(CHARTER, {"melee-begins": "at-once"})
    assert t.play("1:5 2:7 3:- 4:8 5:- 6:- 3:9").top.seat == 3


def test_dead_gouji_on_a_last_play_that_is_not_gouji_under_the_charter():
    # 002 §16: the opposite of 1st place gets one 够死级 chance on its last play, whatever it was
    t = Table({1: "55", 2: "33", 3: "33", 4: "6633", 5: "33", 6: "33"})
    pos = t.play("1:55 2:- 3:- 4:66")
    assert pos.top.burn_only and "dead-gouji" in t.kinds()


def test_melee_lifts_the_pass_bar_and_gouji_rules():
    t = Table(MELEE_DEAL)
    t.play("1:55 2:66 3:- 4:- 5:- 6:-")
    pos = t.play("3:TTTTT")
    assert pos.to_act == 4 and not pos.top.restricted  # no gouji play in the melee (002 §18)
    pos = t.play("4:JJJJJ 5:- 6:- 3:-")
    assert pos.top is None and pos.to_act == 4
    pos = t.play("4:888 5:- 6:AAA 3:- 4:-")
    assert pos.to_act == 5  # seat 5 passed, yet it acts again


def test_seat_finished_and_hand_over():
    t = Table({1: "55", 2: "33", 3: "33", 4: "33", 5: "33", 6: "33"})
    t.play("1:55 2:- 3:- 4:- 5:- 6:-")
    assert t.illegal("1:-").code == "seat-finished"


def test_sweep_ends_the_hand():
    t = Table({1: "5", 2: "3", 3: "6", 4: "33", 5: "7", 6: "33"})
    pos = t.play("1:5 2:- 3:6 4:- 5:7")
    assert pos.over and pos.finished[:3] == (1, 3, 5)
    assert pos.places[3:] == (2, 6, 4)  # fewest cards first, ties in turn order after seat 5
    assert "sweep" in t.kinds()
    assert scores(CHARTER, pos).teams == {1: 12, 0: 0}
    assert (
        Table({1: "5", 2: "3", 3: "6", 4: "33", 5: "7", 6: "33"}).illegal("1:5 2:- 3:6 4:- 5:7 6:33").code
        == "hand-over"
    )


def test_charter_scores_only_positive():
    # 1st 4, 2nd 2, 3rd 0, 4th 0, 5th -2, 6th -4 (002 §20)
    assert team_scores(5, 6, 1, 4, 3, 2) == {1: 2, 0: 0}  # 4+0-2 = 2; 2+0-4 = -2 → 0
    assert team_scores(2, 1, 4, 3, 6, 5) == {1: 0, 0: 2}
    assert team_scores(1, 4, 2, 3, 6, 5) == {1: 0, 0: 0}  # 4+0-4 = 0; 2+0-2 = 0


def team_scores(*places, rules=CHARTER):
    """Scores of a hand that ended with ``places`` (all six finished in that order)."""
    final = Position(ruleset=rules, hands=((),) * 6, to_act=None, preplay=False, finished=places)
    return scores(rules, final).teams


def test_headless_seat_and_gouji_plays_by_option():
    # 002 §17: a headless seat answers a gouji play in its turn; 004 §14: beating it is a burn
    from gouji_record.rules.rulesets import with_options

    deal = {1: "55", 2: "KK33", 3: "33", 4: "AA33", 5: "33", 6: "33"}
    t = Table(deal)
    t.play("1:55 2:- 3:- 4:- 5:- 6:-")  # seat 1 is 1st; seat 4 headless; seat 2 takes the wind
    assert t.play("2:KK").to_act == 4  # seat 4 comes before seat 5, the opposite
    t = Table(deal)
    t.rules = with_options(CHARTER, {"headless-answers-gouji": "no"})
    t.play("1:55 2:- 3:- 4:- 5:- 6:-")
    assert t.play("2:KK").to_act == 5
    assert t.illegal("4:AA").code == "gouji-not-opposite"


def test_events_made_without_validation_are_ordinary_events():
    """The engine builds events with ``trusted_event`` (pydantic internals, for speed): they must
    compare, copy and serialise exactly as validated ones, whatever pydantic version is installed."""
    from gouji_record.rules.events import Event, EventKind, trusted_event

    fields = dict(
        kind=EventKind.BURN,
        action=7,
        seats=(5, 4),
        cards="XXKK",
        place=None,
        note="",
        rule="burn",
        source="002 §10",
        note_zh="",
        round=3,
    )
    fast = trusted_event(**fields)
    assert fast == Event(**fields)
    assert fast.model_dump_json() == Event(**fields).model_dump_json()
    assert fast.model_copy(update={"action": 8}).action == 8
    assert fast.model_fields_set == Event(**fields).model_fields_set


def test_only_first_and_second_place_give_a_dead_gouji_chance():
    # 002 §16 "头科、二科的底牌其对头分别有一次无对头够级机会": 2nd place's last play (seat 2's 6), answered
    # by its opposite seat 5, is 够死级; 3rd place's (seat 3's 7), answered by its opposite seat 6, is not
    t = Table({1: "5", 2: "6", 3: "9933", 4: "33", 5: "7733", 6: "33"})
    pos = t.play("1:5 2:6 3:- 4:- 5:7")
    assert pos.top.burn_only and t.kinds()[-1] == "dead-gouji"
    t = Table({1: "5", 2: "6", 3: "7", 4: "33", 5: "33", 6: "8833"})
    pos = t.play("1:5 2:6 3:7 4:- 5:- 6:8")
    assert pos.finished == (1, 2, 3) and "dead-gouji" not in t.kinds()
    assert pos.top is None and pos.to_act == 6  # seats 4 and 5 passed: seat 6 won the round


def test_a_follow_of_the_same_rank_does_not_beat():
    # 002 §8(6) 步步高: a follow must be of higher rank; 55 on 55 is refused, 66 on 55 stands
    t = Table({1: "5533", 2: "5566", 3: "33", 4: "33", 5: "33", 6: "33"})
    t.play("1:55")
    d = t.illegal("2:55")
    assert (d.code, d.rule) == ("does-not-beat", "higher-rank")
    assert t.play("2:66").top.seat == 2


# -- the seats in play, kept as seats leave (Position.playing) -----------------------------


def _records_on_file():
    """``(file name, record)`` for every hand of the conformance files, the examples and the failing
    inputs that reads, under a ruleset that exists (the others are the notation's and the CLI's tests)."""
    from conftest import CASES, EXAMPLES, ROOT
    from gouji_record.judging.legacy import read_as_written
    from gouji_record.judging.replay import ruleset_of
    from gouji_record.notation import parse_text

    for path in [*(ROOT / "conformance").glob("*/*.gjn"), *EXAMPLES.glob("*.gjn"), *CASES.glob("*.gjn")]:
        try:
            records = [r for r, _ in parse_text(path.read_text(encoding="utf-8"), reading=read_as_written)]
        except Exception:
            continue
        for record in records:
            try:
                ruleset_of(record)
            except (KeyError, ValueError):
                continue
            yield path.name, record


def test_playing_is_the_seats_holding_cards_not_out_and_not_revolted_at_every_position():
    """``Position.playing`` is kept by the engine as seats finish, go out (闷, 烧失败, no 3) or
    revolt (革命), and worked out again when cards change hands before play: at every position of
    every conformance file, example and failing input that reads it must be what its definition says,
    the seats holding a card, known or not, that are neither out nor revolted (docs/rules.md)."""
    from gouji_record.judging.replay import replay

    checked = left_play = 0
    for name, record in _records_on_file():
        for pos in replay(record).positions:
            held = {t for t in range(1, 7) if pos.holds(t) > 0}
            assert pos.playing == held - set(pos.out) - set(pos.revolted), (name, pos.actions)
            checked += 1
            left_play += pos.playing != frozenset(range(1, 7))
    assert checked > 8_000 and left_play > 2_000  # the files reach seats finishing, out and revolted


def test_playing_after_a_revolution_and_a_smother():
    """002 §23: a revolter (革命) sits the hand out; 003 §被闷 under smother=last-place: seat 2, left
    with 33 after 2:55 (3s are its last play), is smothered when 3:66 beats the 55, and leaves."""
    t = Table({1: "447733", 2: "5533", 3: "6633", 4: "JJ33", 5: "KK33", 6: "AA33"}, leader=1)
    t.rules = with_options(CHARTER, {"threes-held": "yes", "smother": "last-place"})
    assert t.play("1:44").playing == {1, 2, 3, 4, 5, 6}
    pos = t.play("2:55 3:66")
    assert pos.out == (2,) and pos.playing == {1, 3, 4, 5, 6}
    t = Table({1: "4433", 2: "5533", 3: "6633", 4: "JJ33", 5: "KK33", 6: "AA33"}, leader=1)
    assert t.play("6:revolt").playing == {1, 2, 3, 4, 5}


def test_a_replay_without_events_has_the_same_positions_and_diagnostic():
    """``replay(…, events=False)`` (what ``gouji validate -q`` asks for) derives no event and changes
    nothing else: the same positions, play start and diagnostic as the replay with events, for every
    conformance file (valid and invalid: rulings of irregular actions, hidden cards skipped, wrong
    purchases), example and failing input that reads."""
    import pytest

    from gouji_record.judging.replay import replay
    from gouji_record.rules.events import EventKind

    compared = illegal = with_events = 0
    for name, record in _records_on_file():
        full, bare = replay(record), replay(record, events=False)
        assert bare.events is None, name
        with pytest.raises(ValueError, match="no events"):
            bare.count(EventKind.GOUJI)
        assert bare.positions == full.positions and bare.play_start == full.play_start, name
        assert bare.diagnostic == full.diagnostic, name
        compared += 1
        illegal += full.diagnostic is not None
        with_events += bool(full.events)
    assert compared > 100 and illegal > 40 and with_events > 80


def test_the_first_position_is_the_one_position_makes():
    """``initial_position`` fills in a position's fields without ``Position.__init__`` (32 fields
    set one by one): it must be the position the constructor makes, field for field, seats in play
    included, with cards the record does not give (``?N``) as with the whole deal."""
    from gouji_record.cards import parse_cards, total
    from gouji_record.rules.engine import initial_position

    deck = "3" * 16 + "4" * 16 + "5" * 16 + "6" * 16 + "7" * 16 + "8" * 16 + "9" * 16 + "T" * 16 + "J" * 16
    deck += "Q" * 16 + "K" * 16 + "A" * 16 + "2" * 16 + "XXXXDDDD"  # four decks, 216 cards, in rank order
    for deal in (("KK?34",) + ("?36",) * 5, tuple(deck[36 * s : 36 * s + 36] for s in range(6))):
        made = initial_position(CHARTER, deal, leader=2)
        hands = tuple(parse_cards(h.partition("?")[0]) for h in deal)
        unknown = tuple(int(h.partition("?")[2] or 0) for h in deal)
        built = Position(ruleset=CHARTER, hands=hands, unknown=unknown, seen=total(hands), to_act=2)
        assert made == built and made.__dict__ == built.__dict__
        assert made.playing == frozenset(range(1, 7)) and made.preplay and made.round == 1


def test_a_transfer_before_play_takes_what_the_known_cards_lack_from_the_hidden_ones():
    # seat 1 is known to hold D K K and 2 cards more (KKD?2); it gives D X 2 to seat 4 (a tribute:
    # 003 §进贡, the highest cards). D is known; X and 2 must be the two hidden cards, so seat 1
    # is left with K K and nothing hidden, and X and 2 are seen now (D was seen from the deal)
    import pytest

    from gouji_record.model import Action
    from gouji_record.rules.engine import IllegalAction, step
    from gouji_record.rules.position import initial_position

    pos = initial_position(get_ruleset("classic"), ("KKD?2",) + ("?36",) * 5, leader=1)
    after, _ = step(pos, Action(seat=1, kind="give", to=4, cards="DX2"))
    assert after.hands[0] == parse_cards("KK") and after.unknown[0] == 0
    assert after.hands[3] == parse_cards("DX2") and after.unknown[3] == 36
    assert after.seen == parse_cards("KKDX2")
    assert after.playing == frozenset(range(1, 7))
    # one card more than the two hidden ones can be: X X 2 are three cards no known card covers
    with pytest.raises(IllegalAction) as e:
        step(pos, Action(seat=1, kind="give", to=4, cards="DXX2"))
    assert e.value.diagnostic.code == "not-in-hand"
    assert e.value.diagnostic.message == (
        "seat 1 cannot give DXX2: the transfer needs two small jokers and one 2; "
        "seat 1 holds no small jokers, no 2s and 2 unknown cards"
    )
    assert e.value.diagnostic.message_zh == "1号位不能交出DXX2：要交两张小王和一张2，1号位没有小王，没有2（另有2张未知牌）"
