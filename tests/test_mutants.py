"""Tests written for mutants that survived the rule tests (scripts/mutation; docs/testing.md lists
every survivor and what became of it).

Grouped by rule. Each expected value is worked out by hand from docs/rules.md and the rule texts
it quotes, never copied from what the engine returns; each test was checked to fail on its mutant
and to pass on the engine as it is.
"""

from __future__ import annotations

import pytest

from dataclasses import replace

from test_match import final
from test_presets import Hand, act, spare

from gouji_record.matches.match import Due, tribute_due

from gouji_record.rules.plays import beats, judge, parse_play
from gouji_record.rules.rulesets import get_ruleset, with_options


def rules(preset: str, **options: str):
    """A preset with options overridden as an Options tag would (``joker_comparison="isolated"``)."""
    return with_options(get_ruleset(preset), {k.replace("_", "-"): v for k, v in options.items()})


# -- joker-comparison ------------------------------------------------------------------------


def test_no_fewer_jokers_takes_as_many_jokers_as_the_top_not_more():
    # docs/rules.md, `no-fewer-jokers`: "at least as many jokers of any kind, and a higher rank"
    no_fewer = rules("charter", joker_comparison="no-fewer-jokers")
    assert judge(parse_play("X77"), parse_play("X88"), no_fewer) == (True, "joker-comparison")
    assert judge(parse_play("XX77"), parse_play("DX88"), no_fewer) == (True, "joker-comparison")
    assert judge(parse_play("XX77"), parse_play("D888"), no_fewer) == (False, "joker-comparison")


@pytest.mark.parametrize(
    "preset, options",
    [
        ("charter", {"joker_comparison": "no-fewer-jokers"}),  # XX on XX: as many jokers, none stronger
        ("tournament", {"big_joker_beaten_by": "one"}),  # DX on DX under own-level, 大王二杀一 off
    ],
)
def test_jokers_alone_on_jokers_alone_need_more_big_jokers(preset, options):
    # docs/rules.md, `higher-rank`: "When both plays are jokers alone there is no rank beside the
    # jokers: the joker comparison decides, and the follow needs more big jokers"
    ruleset = rules(preset, **options)
    same = "XX" if preset == "charter" else "DX"
    assert judge(parse_play(same), parse_play(same), ruleset) == (False, "joker-comparison")
    assert judge(parse_play("XX"), parse_play("DX"), ruleset) == (True, "joker-comparison")


def test_big_joker_beats_any_option_beats_a_higher_rank():
    # option `big-joker-beats-any` (no preset): "a play carrying a big joker beats any play of as
    # many cards without one, whatever its rank"
    ruleset = rules("charter", big_joker_beats_any="yes")
    assert judge(parse_play("888"), parse_play("D77"), ruleset) == (True, "big-joker-dead")
    assert judge(parse_play("888"), parse_play("D777"), ruleset)[0] is False  # same-count first
    assert beats(parse_play("888"), parse_play("D77"), ruleset).ok


def test_two_big_jokers_for_each_big_joker_on_top():
    # 004 §5 大王二杀一, `big-joker-beaten-by=two`: "each big joker on top takes two big jokers"
    # (D7 by DD, D77 by DD8): DD77 carries two, so three big jokers are not enough, four are
    tournament = get_ruleset("tournament")
    assert judge(parse_play("DD77"), parse_play("DDD8"), tournament) == (False, "two-beat-one")
    assert judge(parse_play("DD777"), parse_play("DDDD8"), tournament) == (True, "joker-comparison")
    assert "4 big jokers" in beats(parse_play("DD77"), parse_play("DDD8"), tournament).reason


# -- revolution: the revolter's place (革命) -----------------------------------------------------
# docs/rules.md `revolution`: the revolter "is placed 4th, or 3rd when its team-mates take 1st and
# 2nd, which is a sweep"; five seats play. Seats 1 3 5 are team 1, seats 2 4 6 team 0.


def test_a_revolter_whose_team_mates_do_not_take_first_and_second_is_fourth():
    # seat 2 revolts (no 2, no joker). Seat 1 (team 1) finishes 1st and seat 4 (team 0) 2nd: not
    # both team-mates of seat 2, so it is 4th, and the finishers after 2nd are 3rd, 5th and 6th.
    h = Hand({1: "5", 2: "44", 3: "QQ", 4: "6", 5: "9", 6: "KK"}, "classic")
    # after 1st place four are left: the melee begins at once (001 §81), so seat 3, which passed
    # before seat 4's 6, may play again on it, and passes again
    h.play("2:revolt 1:5 3:- 4:6 5:- 6:- 3:-")  # seat 4 left with the round: seat 5 takes the wind
    pos = h.play("5:9 6:K 3:- 6:K")  # seat 5 3rd, seat 6 4th of those who play: seat 3 is left alone
    assert pos.over
    assert pos.places == (1, 4, 5, 2, 6, 3)
    finish = {e.seats[0]: e.place for e in h.events if e.kind.value == "finish"}
    assert finish == {1: 1, 4: 2, 5: 3, 6: 5}  # the fourth seat to play out is 5th: the revolter is 4th
    # seat 3 never played its QQ out and seat 2 sat the hand out: placed at the hand's end (定科), not 走科
    placed = {e.seats[0]: e.place for e in h.events if e.kind.value == "placed"}
    assert placed == {2: 4, 3: 6}


# -- tribute between hands (match.py) -------------------------------------------------------------
# docs/rules.md "Matches"; `final(...)` (tests/test_match.py) is a finished hand with places
# 5 6 1 4 3 2 unless given, everyone opened unless given.


def due_list(name, ruleset=None, **kw):
    ruleset = ruleset or get_ruleset(name)
    return [(d.kind, d.giver, d.taker, d.count, d.optional) for d in tribute_due(ruleset, final(name, **kw))]


def test_a_failed_call_costs_four_online_and_two_under_the_charter():
    # `point-tribute`: "a seat whose call failed (its opposite opened) pays the opposite 4 (`online`)
    # or 2 (`charter`) for a call". Seat 4 called on seat 1, and seat 1 opened.
    for name, n in (("online", 4), ("charter", 2)):
        points = [d for d in due_list(name, calls=((4, "call"),)) if d[0] == "point"]
        assert points == [("point", 4, 1, n, False)], name


def test_a_seat_that_did_not_open_pays_four_after_its_opposites_precall():
    # `point-tribute` (online, charter): "a seat that did not open pays its opposite 1 card, 2 if the
    # opposite called, 4 if it pre-called". Seat 4 pre-called on seat 1, and seat 1 did not open.
    for name in ("online", "charter"):
        points = [d for d in due_list(name, opened=(2, 3, 4, 5, 6), calls=((4, "precall"),)) if d[0] == "point"]
        assert points == [("point", 1, 4, 4, False)], name


def test_tournament_point_tribute_between_two_seats_that_did_not_open_may_be_left_unpaid():
    # 004 §31: a seat that did not open pays its opposite 1; "when neither opened, the later finisher
    # decides whether they exchange, so those two may be left unpaid". Seats 1 and 4 did not open;
    # seat 2 did not, but its opposite 5 did.
    points = [d for d in due_list("tournament", opened=(3, 5, 6)) if d[0] == "point"]
    assert points == [("point", 1, 4, 1, True), ("point", 2, 5, 1, False), ("point", 4, 1, 1, True)]


def test_place_tribute_between_team_mates_may_be_left_unpaid():
    # `place-tribute`: "Between team-mates it may be left unpaid (002 §21(5), 004 §35)". Places
    # 1 2 4 5 6 3: 大落 seat 3 pays 头科 seat 1 (both team 1), 二落 seat 6 pays 二科 seat 2 (both team 0).
    places = (1, 2, 4, 5, 6, 3)
    assert [d for d in due_list("charter", places=places) if d[0] == "place"] == [
        ("place", 3, 1, 2, True),
        ("place", 6, 2, 1, True),
    ]
    # and between opponents it is owed: places 5 6 1 4 3 2, seat 2 pays seat 5, seat 3 pays seat 6
    assert [d for d in due_list("charter") if d[0] == "place"] == [("place", 2, 5, 2, False), ("place", 3, 6, 1, False)]


def test_burns_standing_at_the_end_pay_burn_tribute_under_the_tournament_only():
    # `burns-count`: `standing` (not broken by the end) under tournament, `success` elsewhere; a
    # burn still running when the hand ended stands (004 §14, §33 only cancel broken burns)
    burns = ((3, 2, "running"),)
    assert [d for d in due_list("tournament", burns=burns) if d[0] == "burn"] == [("burn", 2, 3, 1, False)]
    assert [d for d in due_list("online", burns=burns) if d[0] == "burn"] == []
    assert [d for d in due_list("tournament", burns=((3, 2, "broken"),)) if d[0] == "burn"] == []


def test_sweep_tribute_without_the_other_kinds_after_a_sweep():
    # `sweep-tribute=yes` with `sweep-keeps-tribute=no` (online with the tournament's 对头贡): after a
    # sweep "each swept seat pays its opposite one card", and no smother, burn or point tribute
    ruleset = rules("online", sweep_tribute="yes")
    got = due_list("online", ruleset, places=(1, 3, 5, 2, 4, 6), opened=(1, 3, 5), burns=((3, 2, "success"),))
    assert got == [("sweep", 2, 5, 1, False), ("sweep", 4, 1, 1, False), ("sweep", 6, 3, 1, False)]


def test_no_tribute_after_a_void_hand():
    # `void-hand`: two revolutions void the hand, nothing scores; "none after a void hand"
    void = replace(final("online", opened=()), void=True, finished=(), revolted=(2, 4))
    assert tribute_due(get_ruleset("online"), void) == []


# -- before play: 革命, 要头/无头 (revolution, keep-head) -----------------------------------------------


def test_declarations_come_before_the_first_play():
    # `preplay-late`: "a declaration (`revolt`, `keep-head`, `no-head`, `natural`) … after the first play"
    d = Hand(spare(s1="55", s2="66"), "charter").illegal("1:55 2:revolt")
    assert (d.code, d.rule, d.action) == ("preplay-late", "revolution", 1)


@pytest.mark.parametrize("hand", ["X55", "D55", "255"])
def test_a_seat_holding_a_joker_or_a_two_may_not_revolt(hand):
    # `revolution`: "a seat holding no big joker, no small joker and no 2 may revolt"
    d = Hand(spare(s1="55", s2=hand), "charter").illegal("2:revolt")
    assert (d.code, d.rule) == ("revolution-not-allowed", "revolution")


def test_a_seat_revolts_once():
    # `revolution-not-allowed`: "a revolt … by a seat holding a 2 or a joker, … or repeated"
    d = Hand(spare(s1="55", s2="66"), "charter").illegal("2:revolt 2:revolt")
    assert (d.code, d.rule, d.action) == ("revolution-not-allowed", "revolution", 1)


def test_only_the_revolters_opposite_chooses_its_head():
    # `keep-head`: "Only the revolter's opposite may choose (`head-choice-not-allowed`)"
    d = Hand(spare(s1="55", s2="66"), "charter").illegal("2:revolt 4:keep-head")
    assert (d.code, d.rule, d.action) == ("head-choice-not-allowed", "keep-head", 1)


def test_keep_head_and_no_head_are_told_and_decide_the_first_gouji_play():
    # `keep-head`: with a kept head the opposite's first three 够级 plays are 够死级; with `no-head`
    # it is headless at once. Seat 2 revolts; its opposite is seat 5.
    kept = Hand(spare(s1="55", s2="66", s5="QQQ77"), "charter", leader=5)
    kept.play("2:revolt 5:keep-head 5:QQQ")
    assert [(e.kind.value, e.seats, e.action) for e in kept.events if e.kind.value in ("keep-head", "dead-gouji")] == [
        ("keep-head", (5,), 1),
        ("dead-gouji", (5,), 2),
    ]
    headless = Hand(spare(s1="55", s2="66", s5="QQQ77"), "charter", leader=5)
    headless.play("2:revolt 5:no-head 5:QQQ")
    kinds = [(e.kind.value, e.seats, e.action) for e in headless.events if e.kind.value != "revolution"]
    assert ("headless", (5,), 1) in kinds
    assert not any(k in ("gouji", "dead-gouji") for k, _, _ in kinds)  # a headless seat makes no 够级 play


# -- every event names the action that caused it ---------------------------------------------------


def test_each_event_carries_the_index_of_its_action():
    # events.py: an event's ``action`` is the index of the action that caused it, counted from the
    # first step before play. Every kind of step adds one: draws, a show, a call, a transfer,
    # declarations, then plays, passes, a yield, a claim and a request for the wind.
    from gouji_record.model import Action, ActionKind
    from gouji_record.rules.engine import initial_position, step

    A = ActionKind
    steps = [
        *(Action(seat=s, kind=A.DRAW, cards="7", suit="h" if s % 2 else "s") for s in range(1, 7)),
        Action(seat=1, kind=A.SHOW, cards="33", suit="h"),
        Action(seat=3, kind=A.CALL),
        Action(seat=2, kind=A.GIVE, to=1, cards="2"),
        Action(seat=2, kind=A.REVOLT),
        Action(seat=5, kind=A.KEEP_HEAD),
        act("1:55"),
        act("3:-"),
        act("4:~"),
        act("5:-"),
        act("6:-"),
        act("4:66"),
        Action(seat=1, kind=A.CLAIM),
        act("1:22"),
    ]
    deal = ("255933", "2448", "33999", "6638", "77338", "88338")
    pos = initial_position(get_ruleset("charter"), deal, 1)
    for i, a in enumerate(steps):
        pos, events = step(pos, a)
        assert events == [] or {e.action for e in events} == {i}, (i, a, events)
        assert pos.actions == i + 1


# -- the first lead of the next hand (judging/lead.py) -----------------------------------------------------


def _prev(name, first_seat, **kw):
    """A stand-in for the Replay of the hand before: its final position and its first lead."""
    from types import SimpleNamespace

    from gouji_record.model import Action, ActionKind

    lead = Action(seat=first_seat, kind=ActionKind.PLAY, cards="5")
    return SimpleNamespace(final=final(name, **kw), record=SimpleNamespace(actions=(lead,)))


def test_who_leads_the_next_hand():
    from gouji_record.judging.lead import first_leader

    # `first-lead`: online — the seat after the previous hand's first leader (000 §发牌): after 6, 1
    assert first_leader(ruleset=get_ruleset("online"), before=_prev("online", 6)) == 1
    assert first_leader(ruleset=get_ruleset("online"), before=_prev("online", 2)) == 3
    # charter — the previous hand's 大落 (002 §6): places 5 6 1 4 3 2, seat 2
    assert first_leader(ruleset=get_ruleset("charter"), before=_prev("charter", 6)) == 2
    # classic names nobody
    assert first_leader(ruleset=get_ruleset("classic"), before=_prev("classic", 6)) is None
    # "After a sweep or a void hand anyone may lead"
    assert first_leader(ruleset=get_ruleset("charter"), before=_prev("charter", 6, places=(1, 3, 5, 2, 4, 6))) is None
    void = _prev("charter", 6)
    void.final = replace(void.final, void=True, finished=(), revolted=(2, 4))
    assert first_leader(ruleset=get_ruleset("charter"), before=void) is None


# -- opening (开点) -------------------------------------------------------------------------------------


def test_a_gouji_play_after_second_place_wins_its_round_but_does_not_open():
    # `opening`: the play must be "made before 2nd place is taken" (002 §24 "二科产生前"). Seat 1
    # finishes 1st, seat 2 2nd; in that same round (the melee begins with the next one, 002 §16)
    # seat 3's single 2 is a 够级 play that nobody answers: it wins the round and does not open.
    h = Hand({1: "5", 2: "6", 3: "299", 4: "77", 5: "88", 6: "KK"}, "charter")
    pos = h.play("1:5 2:6 3:2 4:- 5:- 6:-")
    assert pos.finished == (1, 2) and pos.top is None and pos.to_act == 3
    assert "gouji" in h.kinds() and "open" not in h.kinds() and 3 not in pos.opened


def test_a_dead_gouji_that_wins_its_round_does_not_open_in_classic():
    # `opening`: "The play must be a 够级 play when made (so not … a 够死级)"; under classic
    # (`opening-in-melee=yes`, before the melee here) too. Seat 1 plays out with QQQ; its opposite's
    # answer KKK is a 够死级 (`dead-gouji-on-last-play=gouji`); nobody burns, seat 4 wins the round.
    h = Hand({1: "QQQ", 2: "55", 3: "55", 4: "KKK77", 5: "55", 6: "55"}, "classic")
    pos = h.play("1:QQQ 4:KKK 5:- 6:- 2:- 3:-")
    assert pos.top is None and pos.to_act == 4
    assert "dead-gouji" in h.kinds() and "open" not in h.kinds() and 4 not in pos.opened


# -- diagnostics: each refusal names its code and the rule (docs/rules.md "Diagnostic codes") --------


def step_of(token: str):
    """``act`` (tests/test_presets.py) plus the steps written ``1:claim``, ``2:wind``, ``3:call``,
    ``3:precall``, ``2>1:2`` (a transfer; ``2>1:3/buy`` with a purpose), ``1:show h33``, ``2:draw s7``."""
    from gouji_record.model import Action, ActionKind

    seat, body = token.split(":", 1)
    if ">" in seat:
        giver, taker = seat.split(">")
        cards, _, purpose = body.partition("/")
        return Action(seat=int(giver), to=int(taker), kind=ActionKind.GIVE, cards=cards, purpose=purpose or None)
    if body in ("claim", "wind", "call", "precall"):
        return Action(seat=int(seat), kind=ActionKind(body))
    if body.startswith(("show ", "draw ")):
        kind, card = body.split()
        return Action(seat=int(seat), kind=ActionKind(kind), suit=card[0], cards=card[1:])
    return act(token)


def run(ruleset, deal, moves, leader=1):
    """Play ``moves`` from ``deal``; returns (position, events)."""
    from gouji_record.rules.engine import initial_position, step

    ruleset = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
    pos, events = initial_position(ruleset, tuple(deal.get(s, "") for s in range(1, 7)), leader), []
    if isinstance(moves, str):
        moves = (moves.split(" ; ") if " ; " in moves else moves.split()) if moves else []
    for tok in moves:
        pos, ev = step(pos, step_of(tok))
        events += ev
    return pos, events


def refusal(ruleset, deal, moves, leader=1):
    """The (code, rule) of the last of ``moves``, which must be illegal."""
    from gouji_record.rules.engine import step
    from gouji_record.rules.events import IllegalAction

    *ok, bad = moves.split(" ; ") if " ; " in moves else moves.split()
    pos, _ = run(ruleset, deal, " ; ".join(ok) if len(ok) > 1 else "".join(ok), leader)
    with pytest.raises(IllegalAction) as e:
        step(pos, step_of(bad))
    return e.value.diagnostic.code, e.value.diagnostic.rule


THREES_HELD_CHARTER = rules("charter", threes_held="yes", showing="none")


@pytest.mark.parametrize(
    "ruleset, deal, moves, expected",
    [
        # `void-hand`: two revolutions void the hand; "Any later action is `hand-over`"
        ("charter", spare(s1="55"), "2:revolt 3:revolt 1:55", ("hand-over", "void-hand")),
        # `hand-over` "when the hand ended before play": under 004 §26 the seats without a 3 leave as
        # play starts; only seat 1 is left
        ("tournament", {1: "3355", 2: "66", 3: "77", 4: "88", 5: "99", 6: "TT"}, "1:55", ("hand-over", "hand-end")),
        # `not-your-turn`: "a seat acts out of turn, or … passes": seat 2 is to act, seat 3 passes
        ("charter", spare(s1="55"), "1:55 3:-", ("not-your-turn", "turn-order")),
        # `claim-not-allowed`: "a claim of the rest where the rules have none (or with threes held)"
        ("online", spare(s1="55"), "1:claim", ("claim-not-allowed", "claim")),
        (THREES_HELD_CHARTER, spare(s1="55"), "1:claim", ("claim-not-allowed", "claim")),
        # `wind-not-allowed`: "not on the last play of the seat just before": seat 1 still plays
        ("charter", spare(s1="5566"), "1:55 2:wind", ("wind-not-allowed", "wind-request")),
        ("classic", spare(s1="55"), "1:55 2:wind", ("wind-not-allowed", "wind-request")),
        # `call-not-allowed`: "a call … the rules do not have, or a second call by a seat"
        ("tournament", spare(s1="55"), "3:call", ("call-not-allowed", "calls")),
        ("charter", spare(s1="55"), "3:call 3:precall", ("call-not-allowed", "calls")),
        # `preplay-late` for transfers, shows and draws after the first play, under their own rules
        ("charter", spare(s1="5522"), "1:55 1>4:2", ("preplay-late", "tribute")),
        ("charter", spare(s1="5522"), "1:55 1>4:2/buy", ("preplay-late", "buying")),
        ("charter", spare(s1="55"), "1:55 ; 2:show h33", ("preplay-late", "showing")),
        ("charter", spare(s1="55"), "1:55 ; 2:draw s7", ("preplay-late", "team-draw")),
        # `not-in-hand`: "a seat plays, gives or shows cards it does not hold"
        ("charter", spare(s1="55"), "1>4:2", ("not-in-hand", "tribute")),
        ("charter", spare(s1="55"), "1>4:D/gift", ("not-in-hand", "gift")),
        # `yield-not-allowed` … "in the melee": four seats play, so the melee is on from the start
        ("charter", {1: "55", 2: "66", 3: "77", 4: "88"}, "1:55 2:- 3:- 4:~", ("yield-not-allowed", "melee")),
    ],
)
def test_refusals_name_their_code_and_rule(ruleset, deal, moves, expected):
    assert refusal(ruleset, deal, moves) == expected


def test_a_call_by_each_seat_is_recorded_and_told():
    # `calls`: a seat says its opposite will not open; one call per seat, any seat may call
    pos, events = run("charter", spare(s1="55"), "3:call 2:precall")
    assert pos.calls == ((3, "call"), (2, "precall"))
    assert [(e.kind.value, e.seats, e.note) for e in events] == [("call", (3, 6), "call"), ("call", (2, 5), "precall")]


# -- transfers, shows and draws before play: events and the cards that move -------------------------


def test_a_transfer_moves_cards_known_or_not_and_is_told_under_its_purpose():
    from gouji_record.cards import TWO, parse_cards

    # `tribute-cards` / "Unknown cards": a seat may give cards the record does not write (``?N``);
    # they become known as given. Seat 2 holds 5 unknown cards, seat 3 one known 2 and 3 unknown.
    pos, events = run("charter", {1: "55", 2: "?5", 3: "2?3", 4: "66"}, "2>1:2 ; 3>4:22/buy ; 3>1:2/gift")
    assert pos.unknown[:4] == (0, 4, 1, 0)
    assert pos.hands[0] == parse_cards("2255") and pos.hands[3] == parse_cards("2266")
    assert pos.hands[1] == parse_cards("") and pos.hands[2] == parse_cards("")
    assert pos.seen[TWO] == 4  # seat 3's known 2, and three cards that were unknown
    assert [(e.kind.value, e.rule, e.seats, e.cards) for e in events] == [
        ("give", "tribute", (2, 1), "2"),
        ("give", "buying", (3, 4), "22"),
        ("give", "gift", (3, 1), "2"),
    ]


def test_shown_cards_not_written_in_the_deal_become_known():
    from gouji_record.cards import THREE

    # `showing`: "cards not written in the deal become known as shown"
    from gouji_record.cards import parse_cards

    pos, events = run("charter", {1: "55?6", 2: "66"}, ["1:show h333"])
    assert pos.hands[0][THREE] == 3 and pos.unknown[0] == 3 and pos.seen == parse_cards("3335566")
    assert [(e.kind.value, e.seats, e.cards) for e in events] == [("show", (1, 1), "333")]


def test_draws_are_told_with_their_colour():
    # `team-draw`: hearts and diamonds are red, spades and clubs black
    _, events = run("charter", spare(s1="55"), "1:draw h7 ; 2:draw s9 ; 3:draw d2")
    assert [(e.kind.value, e.seats, e.cards, e.note) for e in events] == [
        ("draw", (1,), "7", "red"),
        ("draw", (2,), "9", "black"),
        ("draw", (3,), "2", "red"),
    ]


def test_revolution_and_void_hand_events():
    # `revolution`: the revolter and its opposite; `void-hand`: "two or more revolutions void the
    # hand: it ends at once"
    pos, events = run("charter", spare(s1="55"), "2:revolt 3:revolt")
    assert [(e.kind.value, e.seats) for e in events] == [
        ("revolution", (2, 5)),
        ("revolution", (3, 6)),
        ("void-hand", (2, 3)),
    ]
    assert pos.over and pos.void and not pos.preplay


def test_the_opposite_of_a_revolter_opens_when_play_starts_online():
    # `revolution-opening=at-once` (000 §革命 "革命算自动认点"): seat 2 revolts, seat 5 has opened
    pos, events = run("online", spare(s1="55"), "2:revolt 1:55")
    assert ("open", (5,), "keep-head") in [(e.kind.value, e.seats, e.rule) for e in events]
    assert 5 in pos.opened


def test_without_a_three_a_seat_leaves_or_revolts_as_play_starts():
    # `threes-held`: "a seat without 3s … holding no 2 and no joker where revolution exists: it
    # revolts automatically; otherwise it leaves the hand" — unknown cards may hold a 3 (004 §26)
    pos, events = run("fours", {1: "3355", 2: "X66", 3: "66", 4: "3377", 5: "3388", 6: "99?2"}, "1:55")
    assert pos.out == (2,) and pos.revolted == (3,)
    assert pos.active(6)  # its two unknown cards may be 3s
    pos, _ = run("tournament", {1: "3355", 2: "66?2", 3: "77", 4: "3377", 5: "3388", 6: "3399"}, "1:55")
    assert pos.out == (3,) and pos.active(2)


def test_a_request_for_the_wind_and_its_answer():
    # `wind-request` (002 §19): the seat after a finisher asks to lead; the others agree by passing,
    # and the round goes to it as the wind
    deal = {1: "55", 2: "66", 3: "77", 4: "88", 5: "99", 6: "TT"}
    pos, events = run("charter", deal, "1:55 2:wind 3:- 4:- 5:- 6:-")
    wind = [(e.kind.value, e.seats, e.action) for e in events if e.kind.value in ("wind-request", "take-the-wind")]
    assert wind == [("wind-request", (2, 1), 1), ("take-the-wind", (2, 1), 5)]
    assert pos.to_act == 2 and pos.top is None and pos.actions == 6


def test_natural_opening_with_a_two_but_no_pure_gouji_play():
    # `natural-opening` (004 §17): "a seat holding no pure 够级 play may declare 自然开点"; a pure
    # 够级 play carries no 2 and no joker, so a lone 2 does not stop it
    pos, events = run("tournament", spare(s1="2KQQ55", s2="66"), "1:natural")
    assert pos.natural == frozenset({1}) and pos.actions == 1
    assert [(e.kind.value, e.seats) for e in events] == [("natural-opening", (1,))]


# -- what the events say: kind, rule, seats, cards ------------------------------------------------


def told(events, kinds=None):
    return [(e.kind.value, e.rule, e.seats, e.cards) for e in events if kinds is None or e.kind.value in kinds]


def test_a_gouji_play_its_answer_and_the_opening_are_told_with_their_cards():
    # docs/rules.md `gouji-opposite-only` (打点) and `opening`, as in examples/charter-hand.gjn round 1
    _, events = run("charter", spare(s1="TTTTT", s4="JJJJJ"), "1:TTTTT 4:JJJJJ 1:-")
    assert all(e.note == "" for e in events)
    assert told(events) == [
        ("gouji", "gouji-play", (1, 4), "TTTTT"),
        ("answer", "gouji-opposite-only", (4, 1), "JJJJJ"),
        ("gouji", "gouji-play", (4, 1), "JJJJJ"),
        ("round-end", "round-end", (4,), "JJJJJ"),
        ("open", "opening", (4,), "JJJJJ"),
    ]


def test_the_dead_gouji_on_a_last_play_is_told_under_its_own_rule():
    # `dead-gouji` (001, `dead-gouji-on-last-play=gouji`): the opposite's answer to 1st place's 够级
    # last play is a 够死级; a kept head's 够死级 comes under `keep-head` instead
    _, events = run("classic", {1: "QQQ", 2: "55", 3: "55", 4: "KKK77", 5: "55", 6: "55"}, "1:QQQ 4:KKK")
    assert told(events, ("answer", "dead-gouji")) == [
        ("answer", "gouji-opposite-only", (4, 1), "KKK"),
        ("dead-gouji", "dead-gouji", (4,), "KKK"),
    ]
    _, events = run("charter", spare(s1="55", s2="66", s5="QQQ77"), "2:revolt 5:QQQ", leader=5)
    assert told(events, ("dead-gouji",)) == [("dead-gouji", "keep-head", (5,), "QQQ")]


def test_opening_by_fours_is_told_qualified_then_open():
    # `opening-fours` (003 §开点): winning a round with a pure 够级 play qualifies a seat still holding
    # 4s; its next lead, all its 4s, opens it
    deal = {1: "KK4433", 2: "5533", 3: "6633", 4: "7733", 5: "8833", 6: "9933"}
    pos, events = run("fours", deal, "1:KK 4:- 1:44")
    assert told(events, ("open-qualified", "open")) == [
        ("open-qualified", "opening-fours", (1,), "KK"),
        ("open", "opening-fours", (1,), "44"),
    ]
    assert pos.opened == frozenset({1}) and pos.qualified == frozenset()


def test_a_round_won_without_fours_left_does_not_qualify():
    # `opening-fours`: "winning such a round only qualifies the seat …, and only if it still holds 4s";
    # cards the record does not give may be 4s
    pos, events = run("fours", {1: "KK33", 2: "5533", 3: "6633", 4: "7733", 5: "8833", 6: "9933"}, "1:KK 4:-")
    assert "open-qualified" not in [e.kind.value for e in events] and pos.qualified == frozenset()
    deal = {1: "KK33?2", 2: "5533", 3: "6633", 4: "7733", 5: "8833", 6: "9933"}
    pos, events = run("fours", deal, "1:KK 4:-")
    assert pos.qualified == frozenset({1})


def test_a_headless_seat_leading_its_fours_gives_opening_up():
    # `natural-opening` (004 §17): the declared seat "opens by leading all its 4s at once before the
    # melee and while not headless (004: before its opposite finishes …)". Seat 4, seat 1's opposite,
    # plays out first; seat 1 then wins a round and leads its 4s: it gives opening up (004 §18).
    deal = {1: "44933", 2: "5533", 3: "6633", 4: "33", 5: "7833", 6: "8833"}
    pos, events = run("tournament", deal, "1:natural 4:33 5:- 6:- 1:- 2:- 3:- 5:7 6:- 1:9 2:- 3:- 5:- 1:44", leader=4)
    assert told(events, ("open", "open-given-up")) == [("open-given-up", "open-given-up", (1,), "44")]
    assert 1 in pos.given_up and 1 not in pos.opened
    # not headless, the same lead opens it
    deal = {1: "44933", 2: "5533", 3: "6633", 4: "3355", 5: "7833", 6: "8833"}
    pos, events = run("tournament", deal, "1:natural 5:7 6:- 1:9 2:- 3:- 4:- 5:- 1:44", leader=5)
    assert told(events, ("open", "open-given-up")) == [("open", "natural-opening", (1,), "44")]


# -- seats, the deal, and who is still in play ---------------------------------------------------------


def test_seats_in_playing_order():
    from gouji_record.rules.engine import next_seat, seats_after

    # docs/rules.md "The table": seat s % 6 + 1 acts after seat s
    assert [next_seat(s) for s in range(1, 7)] == [2, 3, 4, 5, 6, 1]
    assert seats_after(3) == (4, 5, 6, 1, 2) and seats_after(6) == (1, 2, 3, 4, 5)


def test_a_deal_given_as_counts_and_one_unknown_card():
    from gouji_record.cards import parse_cards
    from gouji_record.rules.engine import initial_position

    # initial_position takes card strings (``?N``: N cards not known) or counts
    pos = initial_position(get_ruleset("charter"), (parse_cards("55"), "66?1", "?1", "", "", ""), 1)
    assert pos.hands[0] == parse_cards("55") and pos.unknown == (0, 1, 1, 0, 0, 0)
    assert pos.active(3)  # one card the record does not give is still a card held


def test_a_seat_out_and_a_seat_finished_are_told_apart():
    # `seat-finished`: "a seat that played out acts"; `seat-out`: "a seat that left the hand
    # (smothered, failed burn, no 3s) acts". Under the tournament seat 6, without a 3, is out.
    deal = {1: "3355", 2: "3366", 3: "3377", 4: "3388", 5: "3399", 6: "TT"}
    assert refusal("tournament", deal, "1:55 6:TT") == ("seat-out", "places")
    deal = {1: "55", 2: "66", 3: "77", 4: "88", 5: "99", 6: "TT"}
    assert refusal("charter", deal, "1:55 2:- 3:- 4:- 5:- 6:- 1:55") == ("seat-finished", "places")


# -- scores ------------------------------------------------------------------------------------------


def test_standing_burns_score_only_under_the_tournament():
    from gouji_record.rules.scoring import scores

    # `burns-count`: "burns that score: `success` … or `standing` (not broken by the end)"; the
    # tournament scores a burner +1 and the burned seat -1 (004 §38), 003 (fours) burned -1
    running = ((3, 2, "running"),)
    assert scores(get_ruleset("tournament"), final("tournament", burns=running)).seats[2] == -1
    assert scores(get_ruleset("tournament"), final("tournament", burns=running)).seats[3] == 1
    assert scores(get_ruleset("fours"), final("fours", burns=running)).seats[2] == 0
    assert scores(get_ruleset("fours"), final("fours", burns=((3, 2, "success"),))).seats[2] == -1


def test_a_void_hand_scores_nothing():
    from gouji_record.rules.scoring import scores

    # `void-hand`: "it ends at once, nothing scores"
    void = replace(final("fours", opened=()), void=True, finished=(), revolted=(2, 4))
    score = scores(get_ruleset("fours"), void)
    assert score.teams == {1: 0, 0: 0} and score.seats == dict.fromkeys(range(1, 7), 0)


# -- burning: who may, and what is told ----------------------------------------------------------------


def test_a_headless_seat_does_not_burn():
    # `burn`: "A headless seat does not burn (it answers in its turn) … `not-a-burn`". Seat 4 plays
    # out, so seat 1 is headless; seat 2's single 2 is a 够级 play, and seat 1 tries to burn it.
    deal = {1: "9X55", 2: "255", 3: "55", 4: "6", 5: "755", 6: "55"}
    moves = "4:6 5:- 6:- 1:- 2:- 3:- 5:7 6:- 1:9 2:2 1:*X"
    assert refusal("charter", deal, moves, leader=4) == ("not-a-burn", "headless")


BURN_KINDS = ("burn", "counter-burn", "burn-broken", "burn-success", "burn-failure", "out")


def test_a_burn_answered_by_the_burners_opposite_is_broken():
    # `burn` (002 §10): seat 2 burns seat 1's 够级 play; `counter-burn`: "any other seat that beats a
    # play of the burner breaks the burn (解烧, event `burn-broken`): the opposite's answer …"
    deal = {1: "TTTTT33", 2: "XJJJJ55", 3: "33", 4: "33", 5: "DQQQQ", 6: "33"}
    pos, events = run("charter", deal, "1:TTTTT 2:*XJJJJ 5:DQQQQ")
    assert told(events, BURN_KINDS) == [
        ("burn", "burn", (2, 1), "XJJJJ"),
        ("burn-broken", "burn", (5, 2), "DQQQQ"),
    ]
    assert pos.burns == ((2, 1, "broken"),) and pos.burner is None and pos.burn_target is None


def test_a_burn_played_out_unbroken_succeeds():
    # "Burn success (烧成功): the burner finishes with its burn unbroken (event `burn-success`)"
    deal = {1: "TTTTT33", 2: "XJJJJ55", 3: "33", 4: "33", 5: "33", 6: "33"}
    pos, events = run("charter", deal, "1:TTTTT 2:*XJJJJ 5:- 2:55")
    assert told(events, BURN_KINDS) == [("burn", "burn", (2, 1), "XJJJJ"), ("burn-success", "burn-condition", (2, 1), "")]
    assert pos.burns == ((2, 1, "success"),) and pos.burner is None and pos.burn_target is None


def test_the_burned_seat_burning_back_is_a_counter_burn_under_the_tournament():
    # `counter-burn=yes` (004 §14 反捎牌): "the first burn is broken and a new one runs with the seats
    # swapped"; its own event, and no `burn-broken` event
    deal = {1: "KK2233", 2: "AAX5533", 3: "3355", 4: "3366", 5: "3377", 6: "3388"}
    pos, events = run("tournament", deal, "1:KK 2:*AA 1:*22")
    assert told(events, BURN_KINDS) == [("burn", "burn", (2, 1), "AA"), ("counter-burn", "counter-burn", (1, 2), "22")]
    assert pos.burns == ((2, 1, "broken"), (1, 2, "running")) and (pos.burner, pos.burn_target) == (1, 2)


def test_a_burner_breaking_the_condition_fails_and_leaves_last_online():
    # `burn-failure=last-place` (000 §烧牌): "the play is not made; the burn fails (event
    # `burn-failure`) and the burner leaves the hand with its cards, in the lowest free place"
    deal = {1: "TTTTT33", 2: "XJJJJX5566", 3: "33", 4: "33", 5: "33", 6: "33"}
    pos, events = run("online", deal, "1:TTTTT 2:*XJJJJ 5:- 2:55")
    assert told(events, BURN_KINDS)[-2:] == [("burn-failure", "burn-failure", (2,), ""), ("out", "burn-failure", (2,), "")]
    assert [e.place for e in events if e.kind.value == "out"] == [6]
    assert pos.out == (2,) and pos.burns == ((2, 1, "failed"),) and pos.burner is None and pos.burn_target is None
    assert sum(pos.hands[1]) == 5 and pos.to_act == 3  # the play was not made; the next seat leads
    assert pos.actions == 4 and pos.headless(5)  # `headless-after` has `burn-failure` online
    pos, _ = run(rules("online", headless_after="finish+smother+no-threes"), deal, "1:TTTTT 2:*XJJJJ 5:- 2:55")
    assert pos.out == (2,) and not pos.headless(5)


# -- a match: the running score, the first hand's tribute --------------------------------------------

MATCHES = ["charter-match.gjn", "classic-match.gjn", "fours-match.gjn", "online-match.gjn", "tournament-match.gjn"]


@pytest.mark.parametrize("name", MATCHES)
def test_a_match_scores_the_sum_of_its_hands(name):
    from conftest import EXAMPLES

    from gouji_record import parse, replay
    from gouji_record.matches.match import check_match

    # `match-score`: "a match scores the sum of its hands' team scores …, and the sum of each seat's
    # extras"
    reps = [replay(r) for r in parse((EXAMPLES / name).read_text(encoding="utf-8"))]
    teams, seats = {1: 0, 0: 0}, dict.fromkeys(range(1, 7), 0)
    for rep, entry in zip(reps, check_match(reps)):
        assert entry.number == reps.index(rep) + 1 and entry.replay is rep
        for t in teams:
            teams[t] += rep.score.teams[t]
        for s in seats:
            seats[s] += rep.score.seats[s]
        assert entry.standings == teams and entry.seat_totals == seats


def test_tribute_in_the_first_hand_of_a_match_and_in_an_excerpt():
    from conftest import EXAMPLES

    from gouji_record import parse, replay
    from gouji_record.matches.match import check_match

    # `tribute-extra`: "a transfer nothing owes (or any transfer before the first hand of a match)";
    # the diagnostic points at the first tribute transfer, after the purchase's two transfers
    text = (EXAMPLES / "tournament-match.gjn").read_text(encoding="utf-8")
    first = parse(text.replace("buy 5>2:2 2>5:4\n", "buy 5>2:2 2>5:4\n1>4:2\n", 1))[0]
    [entry] = check_match([replay(first)])
    assert [(d.code, d.rule, d.action) for d in entry.diagnostics] == [("tribute-extra", "tribute", 2)]
    # a file that starts after the match's first hand: its first hand's tribute is not judged
    second = replay(parse(text)[1])
    [entry] = check_match([second], from_start=False)
    assert entry.diagnostics == [] and entry.notes == ["not checked: the hand before it is not in the file"]
    [entry] = check_match([second])
    assert [(d.code, d.action) for d in entry.diagnostics] == [("tribute-extra", 0)]


def test_sweep_tribute_is_checked_in_the_next_hand():
    from test_match import next_hand

    from gouji_record.matches.match import check_transfers

    # 004 §34 对头贡 after a sweep: each swept seat pays its opposite one card, as place tribute is
    # paid (its place in the order); in the example deal seat 2 holds 2s, seats 4 and 6 no joker and
    # no 2 (免贡)
    dues = tribute_due(get_ruleset("tournament"), final("tournament", places=(1, 3, 5, 2, 4, 6)))
    notes, problems = check_transfers(get_ruleset("tournament"), dues, next_hand("2>5:2"))
    assert problems == [] and "对头贡 paid: 2>5:2" in notes


def test_two_returns_of_one_card_each_are_both_explained():
    from test_match import next_hand

    from gouji_record.matches.match import check_transfers

    # `return-tribute` (online, 000 §进贡): each taker of place tribute returns as many cards. Seat 2,
    # 大落, holds a single 2 and no joker: it pays seat 5 one card (免贡 for the rest); seat 3 pays seat
    # 6 one; both returns are one card.
    hand = next_hand("2>5:2 3>6:D 6>3:3 5>2:4")
    deal = list(hand.deal)
    deal[1] = deal[1].replace("222", "", 1)
    hand = hand.model_copy(update={"deal": tuple(deal)})
    place = [Due("place", 2, 5, 2), Due("place", 3, 6, 1)]
    notes, problems = check_transfers(get_ruleset("online"), place, hand)
    assert problems == [] and {"还贡 paid: 5>2:4", "还贡 paid: 6>3:3"} <= set(notes)
    # a return still owed when the section ends is missing after its last action
    _, problems = check_transfers(get_ruleset("online"), place, hand.model_copy(update={"preplay": hand.preplay[:3]}))
    assert [(p.code, p.rule, p.action) for p in problems] == [("tribute-missing", "return-tribute", 3)]


# -- rulesets' helpers: options from a tag, and back ---------------------------------------------------


def test_list_options_are_written_with_plus_and_none():
    # docs/rules.md "Rulesets": "lists are written `a+b` (`opening-excludes=big-joker+small-joker`,
    # `none` for an empty list)"
    online = get_ruleset("online")
    assert with_options(online, {"opening-excludes": "big-joker+twos"}).opening_excludes == ("big-joker", "twos")
    assert with_options(online, {"opening-excludes": "none"}).opening_excludes == ()


def test_scoring_cannot_be_set_from_a_tag():
    from gouji_record.rules.rulesets import BadOption

    # "The `scoring` option cannot be set from a tag"
    with pytest.raises(BadOption):
        with_options(get_ruleset("charter"), {"scoring": "4/2/0/0/-2/-4"})


def test_each_option_belongs_to_its_rule_key():
    from gouji_record.rules.rulesets import option_rule

    # the options table's last column
    assert option_rule("threes_held") == "threes-held"
    assert option_rule("joker_comparison") == "joker-comparison"
    assert option_rule("big_joker_beaten_by") == "two-beat-one"
    assert option_rule("burns_count") == "extras"
    assert option_rule("pay_from") == "tribute-cards"


def test_a_variant_writes_the_options_tag_that_gives_it():
    from gouji_record.rules.rulesets import BadOption, options_tag

    # `Options` tag: "Items are `name=value`, separated by commas"; switches yes/no, lists a+b or none;
    # the preset itself writes nothing, and `scoring` cannot be written
    charter = get_ruleset("charter")
    assert options_tag(charter) == ""
    variant = with_options(charter, {"threes-held": "yes", "showing": "none", "opening-excludes": "big-joker+twos"})
    assert options_tag(variant) == "threes-held=yes, opening-excludes=big-joker+twos, showing=none"
    assert options_tag(with_options(charter, {"claim": "no", "opening-excludes": "none"})) == (
        "opening-excludes=none, claim=no"
    )
    assert with_options(charter, {"threes-held": "yes"}) == with_options(
        charter, {k: v for k, v in (i.split("=") for i in options_tag(variant).split(", ")) if k == "threes-held"}
    )
    with pytest.raises(BadOption):
        options_tag(charter.model_copy(update={"scoring": get_ruleset("online").scoring}))


def test_an_illegal_action_carries_its_diagnostic_as_an_error():
    from gouji_record.rules.engine import step
    from gouji_record.rules.events import IllegalAction

    # errors.GoujiError: every error kind has a code, a message and the action it is about
    pos, _ = run("charter", spare(s1="55", s2="44"), "1:55")
    with pytest.raises(IllegalAction) as e:
        step(pos, act("2:44"))
    d = e.value.diagnostic
    assert (e.value.code, e.value.action, str(e.value)) == ("does-not-beat", 1, d.message)


# -- an irregular action (^) is ruled on; a turn that rests on unknown cards ----------------------------


def test_an_irregular_action_is_ruled_on():
    from gouji_record.rules.engine import step

    # `irregular`: "a legal marked action stands; an illegal one gets a `ruling` event naming the
    # diagnostic, and is not made — 错牌不出. If it was the seat's turn to follow, the seat loses that
    # turn, as a pass; otherwise the position is unchanged."
    pos, _ = run("charter", spare(s1="55", s2="44", s3="66"), "1:55")
    after, events = step(pos, act("2:44").model_copy(update={"irregular": True}))  # its turn: a pass
    assert [(e.kind.value, e.rule, e.seats, e.cards, e.action) for e in events] == [
        ("ruling", "higher-rank", (2,), "44", 1),
        ("ruling", "irregular", (2,), "", 1),
    ]
    assert events[0].note.startswith("does-not-beat: ")
    assert after.barred == frozenset({2}) and after.to_act == 3 and after.actions == 2
    assert after.hands[1] == pos.hands[1]
    after, events = step(pos, act("3:66").model_copy(update={"irregular": True}))  # not its turn
    assert [(e.kind.value, e.rule, e.seats, e.cards) for e in events] == [("ruling", "turn-order", (3,), "66")]
    assert after.to_act == 2 and after.barred == frozenset() and after.top == pos.top and after.actions == 2
    after, events = step(pos, act("2:-").model_copy(update={"irregular": True}))  # legal: it stands
    assert events == [] and after.barred == frozenset({2}) and after.to_act == 3


TWO_KILL = {1: "5339", 2: "33?5", 3: "3377", 4: "63388", 5: "3388", 6: "D33TT"}


def test_a_seat_that_passed_may_have_two_big_jokers_among_unknown_cards():
    # `pass-bars` under the tournament: "for two big jokers on one big joker (004 §10), held or possibly
    # held among cards the deal does not give". Seat 2 passed and holds five unknown cards; seat 6's
    # single big joker gives it a turn that rests on them. When seat 3 acts instead (its opposite's
    # play: 对家牌不过), seat 2 had no turn.
    moves = "1:5 2:- 3:- 4:6 5:- 6:D 1:-"
    pos, _ = run("tournament", TWO_KILL, moves)
    assert pos.to_act == 2
    pos, _ = run("tournament", TWO_KILL, moves + " 3:- 4:-")  # seat 5 passed and holds no big joker
    assert pos.top is None and pos.to_act == 6
    # seat 1, which did not pass, has a certain turn: seat 2 acting is out of turn
    assert refusal("tournament", TWO_KILL, "1:5 2:- 3:- 4:6 5:- 6:D 2:-") == ("not-your-turn", "turn-order")


# -- more refusals, the melee, places at an early end, smothers ------------------------------------------


@pytest.mark.parametrize(
    "ruleset, deal, moves, expected",
    [
        # `hand-over`: "an action after the end of the hand": seat 1 plays out, seat 2 is left alone
        ("charter", {1: "5", 2: "66"}, "1:5 2:66", ("hand-over", "hand-end")),
        # `threes-early`: "playing them with other cards still in hand", cards the record does not give too
        ("tournament", {1: "33?2", 2: "3366", 3: "3377", 4: "3388", 5: "3399", 6: "33TT"}, "1:33", ("threes-early", "threes-held")),
        # `not-a-burn`: "a burn with no 够级 play or 够死级 on top"
        ("charter", spare(s1="55"), "1:*55", ("not-a-burn", "burn")),
        # the seat whose turn rests on unknown cards (大王二杀一) makes a play that does not beat: it is
        # refused as such, not passed over
        ("tournament", TWO_KILL, "1:5 2:- 3:- 4:6 5:- 6:D 1:- 2:X", ("does-not-beat", "two-beat-one")),
    ],
)
def test_more_refusals(ruleset, deal, moves, expected):
    assert refusal(ruleset, deal, moves) == expected


def test_a_dead_play_in_the_melee_closes_its_round_at_once():
    # `big-joker-dead`: "on a dead play … nobody has a turn: the round closes at once and its player
    # leads next" — in the melee too (four seats play: the melee is on from the start)
    pos, events = run("charter", {1: "D55Q", 2: "66", 3: "77", 4: "88"}, "1:D55")
    assert ("melee", (1, 2, 3, 4)) in [(e.kind.value, e.seats) for e in events]
    assert pos.melee and pos.top is None and pos.to_act == 1


def test_a_plain_play_that_wins_in_the_melee_does_not_open_in_classic():
    # `opening-in-melee=yes` (classic): a 够级 play nobody answers opens in the melee; a plain one does not
    pos, events = run("classic", {1: "55Q", 2: "66", 3: "77", 4: "88"}, "1:55 2:- 3:- 4:-")
    assert pos.top is None and pos.to_act == 1 and "open" not in [e.kind.value for e in events]


def test_the_melee_begins_with_the_next_lead_when_a_leading_burner_fails():
    # `melee-when=four-left`, `melee-begins=next-round` (online): seat 2 fails its burn as it leads and
    # leaves; four seats are left, and the melee begins with the next lead, seat 3's
    deal = {1: "TTTTT33", 2: "XJJJJX5566", 3: "33", 4: "33", 5: "33"}
    pos, events = run("online", deal, "1:TTTTT 2:*XJJJJ 5:- 2:55")
    assert [(e.kind.value, e.seats) for e in events if e.kind.value == "melee"] == [("melee", (1, 3, 4, 5))]
    assert pos.melee and pos.to_act == 3


def test_places_when_the_hand_ends_with_nobody_finished():
    from gouji_record.rules.engine import begin_play, initial_position

    # online with threes held (憋三): seats 1, 3 and 5 hold a 2 and no 3, so they leave as play starts
    # (first out 6th, in seat order), and one team is left: the hand ends. Seats still holding cards
    # take the places after the finishers, fewest cards first, ties in playing order after seat 1.
    held = rules("online", threes_held="yes")
    deal = ("2", "3355", "2", "3355", "2", "3355")
    pos, _ = begin_play(initial_position(held, deal, 1))
    assert pos.over and pos.places == (2, 4, 6, 5, 3, 1)
    # seat 1 holds no 2 and no joker: it revolts instead (算做自动革命) and is 4th
    pos, _ = begin_play(initial_position(held, ("55",) + deal[1:], 1))
    assert pos.over and pos.revolted == (1,) and pos.places == (2, 4, 6, 1, 5, 3)


def test_places_so_far_and_a_sweep_past_a_revolter():
    # `Position.places`: "those placed so far, top first" before the end; a sweep is one team in
    # 1st-3rd, the revolter of the other team coming after them
    h = Hand({1: "5", 2: "44", 3: "6", 4: "QQ", 5: "7", 6: "KK"}, "classic")
    assert h.play("2:revolt 1:5").places == (1,)
    pos = h.play("3:6 4:- 5:7")
    assert pos.over and ("sweep", (1, 3, 5)) in [(e.kind.value, e.seats) for e in h.events]


def test_a_smother_and_a_last_play_with_unknown_cards_left():
    # `smother` (004 §20): a play that leaves its seat only 3s, beaten: the seat is smothered and, under
    # `smother=last-place`, out in the lowest free place; its opposite is headless (003 §被闷). A seat
    # that also holds cards the record does not give is not known to hold only 3s.
    deal = {1: "3377", 2: "5533", 3: "6633", 4: "3388", 5: "3399", 6: "33TT"}
    pos, events = run("tournament", deal, "2:55 3:66", leader=2)
    assert told(events, ("smother", "out", "headless")) == [
        ("smother", "smother", (2, 3), ""),
        ("out", "smother", (2,), ""),
        ("headless", "headless", (5,), ""),
    ]
    pos, events = run("tournament", {**deal, 2: "5533?1"}, "2:55 3:66", leader=2)
    assert "smother" not in [e.kind.value for e in events] and pos.active(2)
    # `headless-after` without `smother`: the opposite of a smothered seat keeps its head
    pos, events = run(rules("tournament", headless_after="finish+burn-failure+no-threes"), deal, "2:55 3:66", leader=2)
    assert "headless" not in [e.kind.value for e in events] and not pos.headless(5)
    pos, events = run(rules("tournament", headless_after="finish+smother"), deal, "2:55 3:66", leader=2)
    assert pos.headless(5)


def test_a_third_seat_burning_the_burners_play_breaks_the_burn():
    # `counter-burn`: "any other seat that beats a play of the burner breaks the burn (解烧): … or
    # another burn"; only the burned seat burning back is a counter-burn (tournament)
    deal = {1: "KK2233", 2: "AAX5533", 3: "2233", 4: "3366", 5: "3377", 6: "3388"}
    pos, events = run("tournament", deal, "1:KK 2:*AA 3:*22")
    assert [(e.kind.value, e.seats) for e in events if e.kind.value in BURN_KINDS] == [
        ("burn", (2, 1)),
        ("burn-broken", (3, 2)),
        ("burn", (3, 2)),
    ]
    assert pos.burns == ((2, 1, "broken"), (3, 2, "running"))
    # the burner's opposite answering breaks it too, under the tournament as elsewhere
    pos, events = run("tournament", {**deal, 5: "2233"}, "1:KK 2:*AA 5:22")
    assert [(e.kind.value, e.seats) for e in events if e.kind.value in BURN_KINDS] == [
        ("burn", (2, 1)),
        ("burn-broken", (5, 2)),
    ]
    assert pos.burns == ((2, 1, "broken"),) and pos.burner is None


def test_three_dead_gouji_then_headless_and_open_under_the_charter():
    # `keep-head`, `revolution-opening=three-dead-gouji` (002 §23, §24): the revolter's opposite's
    # first three 够级 plays are 够死级; after the third it is headless, and has opened (before 2nd place)
    h = Hand(spare(s2="66", s5="QQQKKKAAA77"), "charter", leader=5)
    h.play("2:revolt 5:QQQ 6:- 1:- 3:- 4:- 5:KKK 6:- 1:- 3:- 4:- 5:AAA")
    assert [(e.kind.value, e.rule, e.seats) for e in h.events if e.kind.value in ("headless", "open")] == [
        ("headless", "keep-head", (5,)),
        ("open", "keep-head", (5,)),
    ]
    assert 5 in h.pos.opened and h.pos.headless(5)


def test_a_card_played_from_unknown_cards_is_seen():
    from gouji_record.cards import BIG_JOKER

    # "Unknown cards": four decks bound what is seen; a card played from unknown ones becomes seen
    pos, _ = run("charter", {1: "?5", 2: "66"}, "1:D")
    assert pos.seen[BIG_JOKER] == 1 and pos.unknown[0] == 4


def test_an_options_tag_is_read_item_by_item():
    from gouji_record.rules.rulesets import parse_options

    # docs/rules.md "Rulesets": `[Options "threes-held=yes, hand-end=one-left"]`, items `name=value`
    # separated by commas
    assert parse_options("threes-held=yes, hand-end=one-left") == {"threes-held": "yes", "hand-end": "one-left"}


# -- the burn condition ----------------------------------------------------------------------------


def test_the_burn_condition_with_twos_threes_and_fours():
    from gouji_record.cards import parse_cards
    from gouji_record.rules.engine import burn_condition_holds

    # `burn-condition`: "with k ranks left to play (2s counted as attached to another rank, unless only
    # 2s are left) and j jokers, k ≤ j + 1": 2233 is one play (four 3s), without threes held
    assert burn_condition_holds(parse_cards("2233"), get_ruleset("charter"))
    # "a rank that can carry nothing (3s, and 4s under `attach-forbidden`) can only be the single last
    # play", and with threes held the 3s are that last play: 44 can never be played
    assert not burn_condition_holds(parse_cards("4433"), get_ruleset("fours"))
    assert not burn_condition_holds(parse_cards("X4433"), get_ruleset("fours"))


def test_jokers_before_a_last_play_of_fours_meet_the_burn_condition():
    from gouji_record.cards import parse_cards
    from gouji_record.rules.engine import burn_condition_holds

    # `burn-condition`: every play but the last carries a joker; 4s under `attach-forbidden` "can only be
    # the single last play". With 3s not held (fours, threes-held=no): X then 44; 55X then 44.
    # (the failing input, found by mutation testing: any joker left with 4s was refused)
    variant = rules("fours", threes_held="no")
    assert burn_condition_holds(parse_cards("X44"), variant)
    assert burn_condition_holds(parse_cards("X5544"), variant)
    assert burn_condition_holds(parse_cards("44"), variant)  # one play left
    assert not burn_condition_holds(parse_cards("5544"), variant)  # 55 carries no joker
    assert not burn_condition_holds(parse_cards("2244"), variant)  # 22 cannot go on 44: alone, no joker
    assert burn_condition_holds(parse_cards("X2244"), variant)  # X22, then 44
    assert not burn_condition_holds(parse_cards("X4433"), variant)  # two ranks that carry nothing


def test_the_calls_of_the_hand_before_are_told_won_or_lost():
    from dataclasses import replace as copy

    from conftest import EXAMPLES

    from gouji_record import parse, replay
    from gouji_record.matches.match import check_match

    # `calls` (002 §24): a call says the opposite will not open; it is won when the opposite did not
    # open. In hand 1, seat 3 called (宣点) and its opposite 6 opened; seat 1 pre-called (预点) and
    # its opposite 4 did not open.
    h1, h2 = (replay(r) for r in parse((EXAMPLES / "charter-match.gjn").read_text(encoding="utf-8"))[:2])
    end = copy(h1.final, calls=((3, "call"), (1, "precall")), opened=frozenset({6}))
    h1 = copy(h1, positions=h1.positions[:-1] + [end])
    notes = check_match([h1, h2])[1].notes
    assert {"宣点 by seat 3: lost", "预点 by seat 1: won"} <= set(notes)


def test_a_turn_resting_on_unknown_cards_and_turns_that_do_not():
    # 004 §10 (as above): a seat holding two big jokers, or the opposite of the top play's seat (对家牌不过),
    # has a certain turn; one that may hold only one big joker (all four seen but its own) has none
    moves = "1:5 2:- 3:- 4:6 5:- 6:D 1:-"
    assert refusal("tournament", TWO_KILL, moves + " 4:-") == ("not-your-turn", "turn-order")  # seat 3's turn
    assert refusal("tournament", {**TWO_KILL, 2: "DD33"}, moves + " 3:-") == ("not-your-turn", "turn-order")
    seen = {**TWO_KILL, 2: "D33?4", 4: "DD63388"}
    pos, _ = run("tournament", seen, moves)
    assert pos.to_act == 3


def test_a_claim_is_told_with_its_seat():
    _, events = run("charter", spare(s1="55"), "1:claim")
    assert [(e.kind.value, e.rule, e.seats) for e in events] == [("claim", "claim", (1,))]


def test_the_first_lead_of_a_hand_after_the_first_and_a_hand_with_no_play():
    from conftest import EXAMPLES

    from gouji_record import parse, replay
    from gouji_record.matches.match import check_match

    # `first-lead` (002 §6): the charter's 大落 of hand 1 (seat 1) leads hand 2; the diagnostic stands
    # at the first play, after the pre-play section
    h1, h2 = parse((EXAMPLES / "charter-match.gjn").read_text(encoding="utf-8"))[:2]
    moved = h2.model_copy(update={"actions": (h2.actions[0].model_copy(update={"seat": 2}),) + h2.actions[1:]})
    diags = check_match([replay(h1), replay(moved)])[1].diagnostics
    assert [(d.code, d.rule, d.action) for d in diags] == [("first-lead", "first-lead", len(h2.preplay))]
    # a hand written without its play is not judged on its lead
    empty = h2.model_copy(update={"actions": ()})
    assert "first-lead" not in [d.code for d in check_match([replay(h1), replay(empty)])[1].diagnostics]


def test_a_seat_out_for_want_of_a_three_leaves_its_opposite_a_head_where_the_rules_say_so():
    # `headless-after`: "the seat is headless (无头) when its opposite left play this way: …
    # `no-threes`". Under the tournament seat 3 holds no 3 and leaves as play starts (004 §26): its
    # opposite, seat 6, is headless; with `headless-after=finish+smother` it keeps its head.
    deal = {1: "3355", 2: "3366", 3: "77", 4: "3388", 5: "3399", 6: "33TT"}
    pos, _ = run("tournament", deal, "1:55")
    assert pos.out == (3,) and pos.headless(6)
    pos, _ = run(rules("tournament", headless_after="finish+smother"), deal, "1:55")
    assert pos.out == (3,) and not pos.headless(6)


# -- survivors named by issue 23 ----------------------------------------------------------------


def test_the_unbeatable_event_names_the_seat_and_its_play():
    # mutant: the `unbeatable` event's seats dropped. 002 §8(3): a play carrying a big joker is dead
    # (死牌), nobody may answer it, and the round ends with it: the event names who made it and what.
    from conftest import Table

    t = Table(spare(s1="D44", s2="55"))
    t.play("1:D44")
    [dead] = [e for e in t.events if e.kind.value == "unbeatable"]
    assert (dead.seats, dead.cards, dead.rule) == ((1,), "D44", "big-joker-dead")


def test_a_bad_byte_read_whole_is_placed_on_its_own_line():
    # mutant: the line of a bad byte reported one too early (files.decode, for inputs read whole as
    # JSON Lines are). The byte 0xff is the 4th byte of line 3 ("ab\ncd\nxyz" with it after "xyz"):
    # line 3, column 4.
    from gouji_record.notation.build import NotationError
    from gouji_record.notation.files import decode

    with pytest.raises(NotationError) as e:
        decode(b"ab\ncd\nxyz\xff\nend\n")
    assert (e.value.code, e.value.line, e.value.column) == ("encoding", 3, 4)
    with pytest.raises(NotationError) as e:
        decode(b"\xff")  # on the first line, at its first byte
    assert (e.value.line, e.value.column) == (1, 1)


@pytest.mark.parametrize(
    "args, said",
    [
        # 002 §8(3): a small-joker play is beaten only by big jokers: 888 carries none
        (["X77", "888", "--ruleset", "charter"], "no: X77 carries 1 small joker(s): it takes at least 1 big joker(s) (charter)"),
        # 000 §一手牌的大小: a big joker mixed with small ones counts as small (大花+小花…此时大花当做小花)
        (["X77", "DX8", "--ruleset", "online"], "no: X77 carries jokers: it takes big jokers only, and DX8's big jokers count as small (online)"),
        # 000: 挂小花的牌必须用挂大花的牌来管: XX8 carries small jokers only
        (["X77", "XX8", "--ruleset", "online"], "no: X77 carries jokers: it takes a play carrying big jokers only (online)"),
        # 000: "两个方面都大过此牌": as many jokers, all big: one big joker is not enough for two small
        (["XX77", "D888", "--ruleset", "online"], "no: XX77 carries 2 joker(s): it takes at least 2 big joker(s) (online)"),
        # 000: a big-joker play takes more big jokers
        (["D777", "D888", "--ruleset", "online"], "no: D777 carries 1 big joker(s): it takes more big jokers (online)"),
        # 003 王是孤立计算的: each small joker takes a big one
        (["XX77", "D888", "--ruleset", "fours"], "no: XX77 carries 2 small joker(s): each takes a big joker, and D888 carries 1 (fours)"),
        # 003, with dead big-joker plays turned off: no joker is stronger than a big one
        (["D77", "D88", "--ruleset", "fours", "--option", "big-joker-play-dead=no"], "no: D77 carries a big joker: no joker is stronger (fours with big-joker-play-dead=no)"),
        # 004 §6: jokers keep their own level: one small joker does not meet two
        (["XX77", "X888", "--ruleset", "tournament"], "no: XX77 carries 0 big and 2 small joker(s): it takes at least as many, as strong (tournament)"),
        # 张数必须对，王数不能少 (no-fewer-jokers): one joker does not meet two
        (["XX77", "D888", "--option", "joker-comparison=no-fewer-jokers"], "no: XX77 carries 2 joker(s): it takes at least as many (charter with joker-comparison=no-fewer-jokers)"),
    ],
)
def test_gouji_beats_says_why_jokers_refuse(args, said):
    # mutants: the joker-refusal reasons `gouji beats` prints were never read by a test
    from click.testing import CliRunner

    from gouji_record.cli.main import main

    r = CliRunner().invoke(main, ["beats", *args])
    assert r.exit_code == 1 and r.output.splitlines()[0] == said


# -- the file reader: text read whole, encodings (notation/files.py) ---------------------------


def test_a_bad_byte_read_whole_is_located_by_the_line_ends_before_it_only():
    # mutants: files.decode counting the line ends after the bad byte, or from the second byte on,
    # or finding the line's start from the second byte. docs/notation.md: an encoding error is
    # located at the first bad byte, line and column. "ab\n" then 0xff: line 2, column 1, whatever
    # follows; after two empty lines, line 3; after one, the byte after "x" is column 2 of line 2.
    from gouji_record.notation.build import NotationError
    from gouji_record.notation.files import decode

    for data, where in ((b"ab\n\xff\nx\ny\nz\n", (2, 1)), (b"\n\n\xff", (3, 1)), (b"\nx\xff", (2, 2))):
        with pytest.raises(NotationError) as e:
            decode(data)
        assert (e.value.code, e.value.line, e.value.column) == ("encoding", *where)


def test_a_bad_byte_read_whole_in_another_encoding_is_located_in_that_encoding():
    # mutant: files.decode locating the bad byte as UTF-8 whatever the encoding. In GBK, 中 is the
    # two bytes D6 D0, one character; the 0xff after it is the second character: column 2 (as
    # UTF-8 the first byte would already be bad: column 1).
    from gouji_record.notation.build import NotationError
    from gouji_record.notation.files import decode

    with pytest.raises(NotationError) as e:
        decode("中".encode("gbk") + b"\xff", "gbk")
    assert (e.value.code, e.value.line, e.value.column) == ("encoding", 1, 2)
    assert "gbk" in str(e.value)


def test_utf8_under_any_spelling_is_the_notations_own_encoding():
    # mutant: files.text_encoding not knowing UTF-8 by its codec's name. docs/notation.md: the
    # notation is UTF-8; --encoding utf8 / UTF-8 is that encoding, read with located errors (None).
    from gouji_record.notation.files import text_encoding

    assert text_encoding("UTF8") is None and text_encoding("utf-8") is None


# -- gouji-minimum from text (rules/options.py) ------------------------------------------------


def test_gouji_minimum_items_any_separator_ten_written_10_and_the_rulesets_own_base():
    # mutants: options._minimum's separators, its skipping of empty items, its reading of "10" as
    # T; options._value's base (the ruleset's minimum, not the standard one). docs/notation.md:
    # "RANK:COUNT items for gouji-minimum, the ranks not named keeping the preset's
    # (gouji-minimum=T:4+J:3)". The tournament has no 大王 in its minimum (docs/rules.md's table:
    # T:5 J:4 Q:3 K:2 A:2 2:1 X:1), the classic rules have D:1.
    classic = get_ruleset("classic")
    want = {"T": 4, "J": 3, "Q": 3, "K": 2, "A": 2, "2": 1, "X": 1, "D": 1}
    for text in ("T:4+J:3", "T:4,J:3", "T:4 J:3", "T:4++J:3", "10:4+j:3"):
        assert with_options(classic, {"gouji-minimum": text}).gouji_minimum == want, text
    tournament = with_options(get_ruleset("tournament"), {"gouji-minimum": "10:4"}).gouji_minimum
    assert tournament == {"T": 4, "J": 4, "Q": 3, "K": 2, "A": 2, "2": 1, "X": 1}


# -- who writes a pass -------------------------------------------------------------------------


def test_a_pass_not_written_cites_the_dead_gouji_rule_on_a_dead_gouji_and_the_opposites_on_a_gouji_play():
    # mutants: engine._pass_not_written citing one code and rule for both. docs/notation.md, "Who
    # writes a pass": on a 够级 play only the opposite has a turn; after a 够死级 only a seat that
    # may burn it. Seat 1 is seat 5's team-mate: it has no turn on either, and its pass is refused
    # under the rule that gives the turn: `gouji-not-opposite` (rule `gouji-opposite-only`) on a
    # plain 够级 play, `dead-gouji` on a 够死级 (docs/rules.md's table of codes: "only a burn may
    # answer it"; its `dead-gouji-on-last-play` paragraph names `gouji-not-opposite` for a play
    # made on a 够死级, not for a pass). Seat 2 revolts and seat 5,
    # its opposite, keeps its head: its first 够级 plays are 够死级 (`keep-head`).
    plain = Hand(spare(s5="QQQ77"), "charter", leader=5).illegal("5:QQQ 1:-")
    assert (plain.code, plain.rule, plain.action) == ("gouji-not-opposite", "gouji-opposite-only", 1)
    dead = Hand(spare(s1="55", s2="66", s5="QQQ77"), "charter", leader=5).illegal("2:revolt 5:keep-head 5:QQQ 1:-")
    assert (dead.code, dead.rule, dead.action) == ("dead-gouji", "dead-gouji", 3)


def test_a_crlf_cut_by_the_readers_chunks_is_one_line_end():
    # mutant: files._raw_lines not waiting for the next chunk after a CR at a chunk's end.
    # docs/notation.md: a line ends at LF, CRLF or CR; a CRLF is one line end wherever the reader's
    # chunks fall. The CR is the last byte of the first chunk, its LF the first of the next: two
    # lines, the first of CHUNK - 1 letters and its end, then "b".
    import io

    from gouji_record.notation.files import CHUNK, read_lines

    lines = [text for text, _ in read_lines(io.BytesIO(b"a" * (CHUNK - 1) + b"\r\nb\n"))]
    assert [len(t) for t in lines] == [CHUNK, 2] and lines[1] == "b\n"
    # and a CR as the file's last byte ends its last line (mutants of the end of files._raw_lines)
    assert [text for text, _ in read_lines(io.BytesIO(b"x\na\r"))] == ["x\n", "a\n"]


def test_a_byte_order_mark_counts_only_at_the_start_of_the_file():
    # mutants: files.read_lines looking for a byte-order mark on every line, or missing the
    # big-endian UTF-16 one. read_lines's contract (docs/notation.md: the notation is UTF-8): a
    # byte-order mark at the start is dropped; a file starting with a UTF-16 mark (FF FE or FE FF)
    # is one line with one error and nothing more is read; the same bytes on a later line are bad
    # bytes of that line, and GB18030's mark (84 31 95 33) on a later line is the character U+FEFF.
    import io

    from gouji_record.notation.files import read_lines

    def read(data: bytes, encoding=None):
        return [(text, [(p.code, p.line, p.column) for p in problems]) for text, problems in read_lines(io.BytesIO(data), encoding=encoding)]

    assert read(b"\xfe\xff\x00a\n") == [("", [("encoding", 1, 1)])]
    later = read(b"a\n\xff\xfeb\nc\n")
    assert [text for text, _ in later][::2] == ["a\n", "c\n"] and later[1][1][0] == ("encoding", 2, 1)
    mark = b"\x84\x31\x95\x33"
    assert [text for text, _ in read(mark + b"a\n" + mark + b"b\n", "gb18030")] == ["a\n", "\ufeffb\n"]


def test_an_empty_file_name_or_a_directory_is_unreadable_and_says_so(tmp_path):
    # mutants: files.read_hands's check of an empty file name (its code, or made on a stream
    # instead). Its contract: code `unreadable` (line 0) when the file cannot be opened; an empty
    # name is not the current directory (which would read "is a directory"): it asks for a name;
    # a directory is unreadable too, and says what it is.
    from gouji_record.notation.build import NotationError
    from gouji_record.notation.files import read_hands

    with pytest.raises(NotationError) as e:
        list(read_hands(""))
    assert (e.value.code, e.value.line, e.value.column) == ("unreadable", 0, 0)
    assert "empty file name" in str(e.value)
    with pytest.raises(NotationError) as e:
        list(read_hands(str(tmp_path)))
    assert (e.value.code, e.value.line, e.value.column) == ("unreadable", 0, 0)
    assert "is a directory" in str(e.value)


def test_a_file_that_cannot_be_opened_or_read_is_unreadable_and_a_stream_given_stays_open(tmp_path):
    # mutants: files.read_hands's refusals of a missing file and of a stream that fails as it is
    # read, and its closing of what it opened (only that). Its contract: code `unreadable`, line 0,
    # "when the file cannot be opened or read"; a stream is the caller's (standard input).
    import io

    from gouji_record.notation.build import NotationError
    from gouji_record.notation.files import read_hands

    class Failing(io.RawIOBase):
        def readable(self):
            return True

        def read(self, n=-1):
            raise OSError(5, "Input/output error")

    for path, stream in ((str(tmp_path / "missing.gjn"), None), ("-", Failing())):
        with pytest.raises(NotationError) as e:
            list(read_hands(path, stream))
        assert (e.value.code, e.value.line, e.value.column) == ("unreadable", 0, 0)
        assert "cannot read the file" in str(e.value)
    given = io.BytesIO(b"")
    assert list(read_hands("-", given)) == [] and not given.closed


def test_a_hand_starts_on_the_line_after_a_semicolon_comment():
    # mutants: files._Splitter._scan reading on after a `;` comment from the wrong line or column.
    # docs/notation.md: `;` comments out the rest of its line, and a hand starts at its first tag
    # `[`. A hand, a `;` comment line, then the same hand again: two hands, the second starting
    # with its `[Event` tag on the line after the comment.
    from pathlib import Path

    from gouji_record.notation.files import split_lines

    src = (Path(__file__).parent.parent / "examples" / "charter-hand.gjn").read_text(encoding="utf-8")
    first = src.rstrip("\n") + "\n"
    text = first + "; the end of the first hand\n" + src
    hands = list(split_lines(text.splitlines(keepends=True)))
    assert [h.line for h in hands] == [1, first.count("\n") + 2]
    assert hands[1].text.startswith("[Notation")


def test_a_comment_of_the_limit_is_read_and_one_character_more_is_a_syntax_problem():
    # mutants: files._Splitter._scan's count of a comment's characters (from 0, over every line,
    # from the '{') and its limit. docs/notation.md and HandText: a comment too long to read is the
    # hand's problem, code `syntax`; MAX_COMMENT characters between '{' and '}' (line ends
    # counted) are still a comment. The comment stands after the hand's last play, over 1024 lines.
    from pathlib import Path

    from gouji_record.notation.files import MAX_COMMENT, split_lines

    src = (Path(__file__).parent.parent / "examples" / "charter-hand.gjn").read_text(encoding="utf-8")
    body = ("x" * 1023 + "\n") * (MAX_COMMENT // 1024)
    assert len(body) == MAX_COMMENT
    for extra, problem in (("", None), ("x", "syntax")):
        text = src.rstrip("\n") + " {" + body + extra + "}\n"
        (hand,) = split_lines(text.splitlines(keepends=True))
        assert (hand.problem.code if hand.problem else None) == problem


def test_a_hand_starts_at_its_tag_right_after_the_last_line_of_the_hand_before():
    # written for the survivors of files._Splitter._scan (2026-12-01 run, not yet judged): a body line
    # with no mark ('[', '{', ';') is stepped over one line at a time, and the next hand starts at its
    # first tag even when no blank line parts the hands (docs/notation.md). Not yet shown to kill them.
    import io

    from conftest import PLAIN_TAGS

    from gouji_record.notation.files import read_hands

    tags = "".join(f'[{k} "{v}"]\n' for k, v in PLAIN_TAGS.items())
    hand = tags + "play\n1. 1:33 2:- 3:- 4:- 5:- 6:-\n"
    text = hand + hand  # no blank line between the two
    hands = list(read_hands("two.gjn", io.BytesIO(text.encode("utf-8"))))
    first = len(tags.splitlines()) + 2 + 1  # hand 2's [Event is on the line after hand 1's two lines of play
    assert [h.line for h in hands] == [1, first]
    assert hands[1].text.startswith('[Event "?"]')


def _split(text: str) -> list:
    from gouji_record.notation.files import split_lines

    return list(split_lines(text.splitlines(keepends=True)))


def test_after_a_tag_left_open_a_tag_given_again_starts_the_next_hand():
    # mutants: files._Splitter._scan's path for a whole tag line (`[Name "value"]` alone on its
    # line, no tag open, its name new to the hand): the name not remembered, the line after it
    # skipped, or the path taken for a name given already (2026-12-02 run). docs/notation.md: a tag
    # appears once per hand, a hand starts at its first tag, and a hand that cannot be read never
    # hides the others: after `[Round "1"` is left open, `Site` given again is the next hand's.
    text = '[Event "a"]\n[Site "b"]\n[Round "1"\n[Date "?"]\n[Site "c"]\n'
    hands = _split(text)
    assert [h.line for h in hands] == [1, 5]
    assert hands[1].text == '[Site "c"]\n'


def test_hands_after_a_comment_never_closed_are_read_one_by_one():
    # mutants: files._Splitter._scan stepping over a whole tag line by two lines, or stopping there
    # (`continue` -> `break`), when the lines after a '{' never closed are read again at the end
    # of the file (2026-12-02 run). docs/notation.md: a comment that runs to the end of the file is
    # reported at its '{' and the reader reads on after it, so the hands after it are still read:
    # three hands, each at its first tag.
    text = '[Event "a"]\nplay { never closed\n[Event "b"]\nplay\n[Event "c"]\nplay\n'
    hands = _split(text)
    assert [h.line for h in hands] == [1, 3, 5]
    assert [h.text for h in hands[1:]] == ['[Event "b"]\nplay\n', '[Event "c"]\nplay\n']


def test_a_bracket_inside_a_comment_starts_no_hand_after_a_broken_tag():
    # mutants: files._Splitter._scan taking the whole-tag-line path while a tag is open (the
    # tag's '[' not read, so the open tag never closes), and stepping two characters over one
    # it cannot read inside a tag (the ']' after it missed) (2026-12-02 run). docs/notation.md:
    # the body starts at the first word that is not part of a tag (`play`), and in the body a `[`
    # inside a `{...}` comment starts no hand: each text is one hand.
    for text in (
        '[Event "a"\n[Site "b"]\nplay\n1. 1:33 { [Event "c"] }\n',  # Event left open
        '[Event 1]\nplay { [Event "c"] }\n',  # a value not quoted, the tag closed
    ):
        assert len(_split(text)) == 1, text


def test_a_stray_bracket_or_value_among_the_tags_does_not_start_the_body():
    # mutants: files._Splitter._scan's list of the tag section's tokens (`close`, `value`) that do
    # not start the body (2026-12-02 run). docs/notation.md: the body starts at the hand's first
    # word that is not part of a tag (`deal`, `preplay` or `play`); a stray `]` or `"x"` is no word,
    # so the tag after it is still the same hand's (one hand, whose syntax the grammar reports).
    for text in ('[Event "a"]]\n[Site "b"]\nplay\n', '[Event "a"] "x"\n[Site "b"]\nplay\n'):
        assert len(_split(text)) == 1, text


def test_a_tag_given_again_on_the_last_line_after_a_tag_left_open_and_a_hand_after_it():
    # mutant: files._Splitter._scan stopping after the cut a tag given again makes (`continue` ->
    # `break`) (2026-12-02 run): on the file's last line nothing is read after it. docs/notation.md:
    # hands may be written one per line, and a `[` after the last action on a line starts the next
    # hand: after `[Event "a"` left open, the last line holds two hands.
    text = '[Event "a"\n[Site "b"]\n[Event "c"] play [Event "d"] play\n'
    hands = _split(text)
    assert [(h.line, h.column) for h in hands] == [(1, 1), (3, 1), (3, 18)]
    assert hands[2].text == '[Event "d"] play\n'


def test_a_bad_byte_is_the_problem_of_the_hand_it_stands_in_when_hands_share_lines():
    # mutants: files._Splitter._where (the file column of a point on a hand's first line when the
    # hand starts inside it) and _Splitter._hand (which bad bytes fall in a hand, and its `head`)
    # (2026-12-02 run). HandText: `problem` is the first bad byte of the hand, located in the
    # file; `head` is the whole first line when the hand starts inside it, else empty.
    # docs/notation.md: a `[` after the last action on a line starts the next hand.
    import io

    from gouji_record.notation.files import read_hands

    def hands(data: bytes) -> list:
        return [
            (h.line, h.column, h.head != "", h.problem and (h.problem.code, h.problem.line, h.problem.column))
            for h in read_hands("x.gjn", io.BytesIO(data))
        ]

    # three hands on one line, the bad byte (column 35) in the second
    assert hands(b'[Event "a"] play [Event "b"] play \xff [Event "c"] play\n') == [
        (1, 1, False, None), (1, 18, True, ("encoding", 1, 35)), (1, 37, True, None),
    ]
    # the second hand runs on to line 2, where the third starts; the bad byte is the third's
    assert hands(b'[Event "a"] play [Event "b"]\nplay [Event "c"] \xff play\n') == [
        (1, 1, False, None), (1, 18, True, None), (2, 6, True, ("encoding", 2, 18)),
    ]
    # the bad byte right before the `[` that starts the second hand is the first hand's
    assert hands(b'[Event "a"] play\xff[Event "b"] play\n') == [
        (1, 1, False, ("encoding", 1, 17)), (1, 18, True, None),
    ]


def test_a_match_hand_keeps_the_kinds_of_tribute_its_transfers_pay():
    # mutants: matches.match.hand_in_match keeping no kinds, and _kinds keeping None for a payment
    # (2026-12-02 run). HandInMatch.kinds: per pre-play action the kind the check explained
    # (transfer_kinds's list), None for the match's first hand. Hand 1 of the charter match ended
    # 3-5-2-4-6-1: 大落 seat 1 pays 头科 seat 3 (落贡), who returns as many (还贡); 二落 seat 6
    # pays 二科 seat 5, who returns one (docs/rules.md `place-tribute`, 002 §21(3), §21(4)).
    from test_match import MATCH, parse, replay

    from gouji_record.matches.match import check_match, transfer_kinds, tribute_due

    h1, h2, _ = parse(MATCH)
    first, second = check_match([replay(h1), replay(h2)])
    assert first.kinds is None
    assert second.kinds == ["place", "return", "place", "return"]
    rules = replay(h2).ruleset
    assert transfer_kinds(rules, tribute_due(rules, replay(h1).final), h2) == second.kinds


def test_with_threes_held_a_burner_with_no_threes_left_may_end_on_one_plain_play():
    # mutant: rules.burning.burn_condition_holds's test of whether 3s are left for the last play
    # under `threes-held` (`> 0` -> `>= 0`) (2026-12-02 run). docs/rules.md: `threes-held`, 3s
    # are the last play, all at once; the burn condition (002 §10): every later play carries a
    # joker but the last, or one play is left. With no 3 left, KK is one play left; with a 3 (or
    # two) left behind 22, the 22 is a play before the 3s and carries no joker.
    from gouji_record.cards import parse_cards
    from gouji_record.rules.burning import burn_condition_holds

    held = with_options(get_ruleset("online"), {"threes-held": "yes"})  # docs/rules.md's own example
    for rules in (get_ruleset("fours"), held):
        assert burn_condition_holds(parse_cards("KK"), rules), rules.name
    for cards in ("322", "3322"):
        assert not burn_condition_holds(parse_cards(cards), held), cards


# -- the round (一轮) each event carries ------------------------------------------------------------
# Event.round: "the round (一轮) the action belongs to, from 1, or None for an action before play".
# docs/rules.md `round-end`: "the round ends when every seat with a turn has passed (扣牌), and its
# last player leads the next round" (002 §13).


def test_every_event_carries_the_round_of_its_action():
    # mutants: rules.position.Step.event, Step.__init__, rules.engine._step and _rule_on giving an
    # event no round, or round 1 to an action before play (2026-12-02 run). Charter: seat 3 calls
    # before play (action 0, no round); seat 1 leads 5 and all five pass (actions 1-6): the pass of
    # action 6 closes round 1 (扣牌). Seat 1 leads round 2 with its last card, K (action 7): it
    # finishes 1st and its opposite, seat 4, is headless (002 §17). Seat 2 then plays 66 marked
    # irregular (action 8): a pair does not answer a single (002 §8(1) 错牌不出), so it is ruled on
    # and counts as seat 2's pass, still in round 2.
    from gouji_record.rules.engine import step

    pos, events = run("charter", {1: "5K", 2: "6633", 3: "7733", 4: "8833", 5: "9933", 6: "TT33"},
                      "3:call 1:5 2:- 3:- 4:- 5:- 6:- 1:K")  # fmt: skip
    pos, more = step(pos, act("2:66").model_copy(update={"irregular": True}))
    assert [(e.kind.value, e.action, e.round) for e in events + more] == [
        ("call", 0, None),
        ("round-end", 6, 1),
        ("finish", 7, 2),
        ("headless", 7, 2),
        ("ruling", 8, 2),
        ("ruling", 8, 2),
    ]
    assert pos.round == 2 and pos.to_act == 3


def test_a_round_closed_by_a_turn_not_taken_is_the_round_before():
    # mutants: rules.position.Step.__init__ giving no round to the step from a position in play
    # (2026-12-02 run), which skip_possible_turn makes. Tournament (004 §10 "“大王二杀一”不受过牌
    # 限制"): seat 2 passes on seat 1's 5, seat 3 plays one big joker, and all pass; seat 2's cards
    # besides its 3s are not written, so it may hold two big jokers and have a turn. Seat 3 leads
    # 6 instead (action 7): seat 2 had none, and round 1 closes with that action, won by seat 3;
    # the 6 is round 2's lead.
    pos, events = run("tournament", {1: "5633", 2: "33?2", 3: "D633", 4: "33", 5: "33", 6: "33"},
                      "1:5 2:- 3:D 4:- 5:- 6:- 1:- 3:6")  # fmt: skip
    assert [(e.kind.value, e.seats, e.action, e.round) for e in events] == [("round-end", (3,), 7, 1)]
    assert pos.round == 2 and pos.top is not None and pos.top.seat == 3


# -- places while the hand goes on, and the end of a hand ---------------------------------------------


def test_a_revolter_is_placed_fourth_once_three_seats_have_finished():
    # mutants: rules.position.top_places placing the revolter only after four finishers (`>= 3` ->
    # `> 3`, `>= 4`) (2026-12-02 run). Position.places: "those placed so far, top first" while the
    # hand goes on. docs/rules.md `revolution`: the revolter "is placed 4th, or 3rd when its
    # team-mates take 1st and 2nd". The hand of the test above (classic): seat 2 revolts, seat 1
    # finishes 1st and seat 4 2nd (not both seat 2's team-mates 4 and 6: so it is 4th), then seat 5
    # 3rd. Seats 6 and 3 still play, and seat 2's 4th place is settled.
    h = Hand({1: "5", 2: "44", 3: "QQ", 4: "6", 5: "9", 6: "KK"}, "classic")
    assert h.play("2:revolt 1:5 3:- 4:6 5:- 6:- 3:-").places == (1, 4)  # 3rd not known yet
    pos = h.play("5:9")
    assert not pos.over and pos.places == (1, 4, 5, 2)


def test_no_play_is_left_to_beat_once_the_hand_is_over():
    # mutant: rules.leaving.maybe_end leaving the last play on top when the hand ends (2026-12-02
    # run). Position.top: "the play to beat"; the table `gouji show` prints of a position
    # (rules.table.describe): "top" is None when nobody has a play to beat. The hand above ends
    # with seat 6's K (seat 3 alone is left: 001 §81 one seat left), so nothing is left to beat.
    from gouji_record.rules.table import describe

    h = Hand({1: "5", 2: "44", 3: "QQ", 4: "6", 5: "9", 6: "KK"}, "classic")
    pos = h.play("2:revolt 1:5 3:- 4:6 5:- 6:- 3:- 5:9 6:K 3:- 6:K")
    assert pos.over and pos.top is None
    assert describe(pos)["top"] is None


# -- what the refusals before play say ------------------------------------------------------------


def test_a_draw_not_made_by_every_seat_names_the_seats_that_did_not_draw():
    # mutants: rules.preplay.play_begins naming the seats that drew, or none, as the ones that did
    # not (2026-12-02 run). 002 §5: each of the six draws a card (抽签组邦); seats 1-4 drew, so
    # seats 5 and 6 did not, and the first play (action 4) is refused (`draw-wrong`).
    from test_showing import first_play

    verdict, rep = first_play("1:draw h7 2:draw s8 3:draw d9 4:draw c5", get_ruleset("charter"))
    assert verdict == ("draw-wrong", "team-draw", 4)
    assert rep.diagnostic.message == "every seat draws a card for the teams: seats 5, 6 did not"
    assert rep.diagnostic.message_zh == "抽签组邦须六人各抽一张：5、6号位没有抽"


def test_a_first_lead_refusal_names_the_seat_the_shows_chose():
    # mutants: rules.preplay.play_begins wording the refusal as if the shower had left the hand, or
    # the other way round, and its Chinese message (2026-12-02 run). 002 §7 亮3 then 顶班: seat 2
    # shows two 3s of hearts, seat 4 three of diamonds (more of one suit): seat 4 leads, not seat 2.
    # When the shower revolts (sits the hand out), the next seat, 3, leads in its place.
    from test_showing import UNKNOWN, first_play

    charter = get_ruleset("charter")
    verdict, rep = first_play("2:show h33 4:show d333", charter, first="2:33")
    assert verdict == ("first-lead", "showing", 2)
    assert rep.diagnostic.message == "seat 4 showed the most cards of one suit (上班) leads, not seat 2"
    assert rep.diagnostic.message_zh == "4号位上班亮出的同花色牌最多，由4号位首发，不是2号位"
    verdict, rep = first_play("2:show h33 2:revolt", charter, first="2:33", deal=UNKNOWN)
    assert verdict == ("first-lead", "showing", 2)
    assert rep.diagnostic.message_zh == "2号位上班亮出的同花色牌最多，但已离开本局：由下一家3号位首发，不是2号位"


# -- the file's name a hand cut from lines carries ------------------------------------------------


def test_hands_cut_from_lines_carry_the_name_they_are_read_under():
    # mutants: notation.files.split_lines dropping its path, or naming another by default
    # (2026-11-30 run's verdicts, open since). HandText.path is the file the hand was read from,
    # "-" for standard input (the name `gouji` gives it, docs/guide.md); split_lines takes it as
    # `path`, "-" when none is given.
    from gouji_record.notation.files import split_lines

    lines = ['[Event "a"]\n', "play\n", '[Event "b"]\n', "play\n"]
    assert [(h.path, h.index, h.line) for h in split_lines(lines, "games.gjn")] == [("games.gjn", 1, 1), ("games.gjn", 2, 3)]
    assert [h.path for h in split_lines(lines)] == ["-", "-"]


def test_a_hand_left_to_one_team_as_play_starts_ends_before_play():
    # mutant: rules.preplay._start_play ending such a hand without its step (2026-12-02 run).
    # online with threes-held=yes; docs/rules.md, "a seat without 3s under `threes-held`": "holding
    # no 2 and no joker where revolution exists: it revolts automatically; otherwise it leaves the
    # hand when play starts, in the lowest free place (several: in seat order, seat 1 lowest)"
    # (000 §买三 "算做自动革命"). Seats 1 and 3 hold a 2 and no 3: out, 6th and 5th; seat 5 holds 55:
    # it revolts, 4th (its team-mates 1 and 3 did not take 1st and 2nd). Team 2-4-6 alone is left,
    # and under `hand-end=one-team-left` the hand ends: the seats still holding cards take the
    # places above, fewest cards first: seat 4 (2 cards), seat 2 (3), seat 6 (4). A first play is
    # then `hand-over` ("the hand ended before play").
    from gouji_record.rules.preplay import begin_play

    held = rules("online", threes_held="yes")
    deal = {1: "2", 2: "333", 3: "2", 4: "33", 5: "55", 6: "3333"}
    pos, events = begin_play(run(held, deal, "")[0])
    assert pos.over and pos.places == (4, 2, 6, 5, 3, 1)
    assert [(e.kind.value, e.seats[0], e.place) for e in events if e.kind.value in ("out", "placed")] == [
        ("out", 1, 6), ("out", 3, 5), ("placed", 4, 1), ("placed", 2, 2), ("placed", 6, 3), ("placed", 5, 4),
    ]  # fmt: skip
    assert refusal(held, deal, "2:333", leader=2) == ("hand-over", "hand-end")


# -- the seats that leave as play starts (憋三), all before the hand may end ------------------------
# Failing inputs found judging the mutant rules.leaving.maybe_end `pos.over or pos.preplay` -> `and`
# (2026-12-02 run, "equivalent" in its table): the seats without a 3 left one by one and the hand
# could end, or the melee begin, before the last of them had left, so that a seat went out, or the
# melee began, after the hand's end, and the hand-end event named other places than the hand's.


def _start(ruleset, deal):
    from gouji_record.rules.preplay import begin_play

    pos, events = begin_play(run(ruleset, deal, "")[0])
    return pos, [(e.kind.value, e.seats, e.place) for e in events if e.kind.value != "headless"]


def test_every_seat_without_a_three_leaves_before_the_hand_ends():
    # online with threes-held=yes (docs/rules.md, "a seat without 3s under `threes-held`": it
    # "leaves the hand when play starts, in the lowest free place (several: in seat order, seat 1
    # lowest)", 004 §26 "均定为大落"). Seats 1, 3, 5 and 6 hold a 2 and no 3: out 6th, 5th, 4th and
    # 3rd. Four seats are left after seat 3 leaves: the melee begins (000 §四人乱缠; its
    # `after-dead-gouji` waits only for a finisher's last play). Team 2-4-6 alone is left, and under
    # `hand-end=one-team-left` the hand ends: seat 2 (2 cards) 1st, seat 4 (3 cards) 2nd.
    pos, events = _start(rules("online", threes_held="yes"), {1: "2", 2: "33", 3: "2", 4: "333", 5: "2", 6: "2"})
    assert events == [
        ("out", (1,), 6), ("out", (3,), 5), ("melee", (2, 4, 5, 6), None), ("out", (5,), 4), ("out", (6,), 3),
        ("placed", (2,), 1), ("placed", (4,), 2), ("hand-end", (2, 4, 6, 5, 3, 1), None),
    ]  # fmt: skip
    assert pos.places == (2, 4, 6, 5, 3, 1)


def test_a_hand_that_ends_as_play_starts_has_no_melee():
    # charter with threes-held=yes: seats 2-6 hold a 2 and no 3 (no revolution: they hold a 2), so
    # they leave, 6th to 2nd in seat order; seat 1 alone is left and the hand ends (002 §3
    # `hand-end=one-left`) with seat 1 1st. The charter's melee begins with the next round
    # (`melee-begins=next-round`, 002 §16), and there is none: no melee.
    pos, events = _start(rules("charter", threes_held="yes"), {1: "3355", 2: "2", 3: "2", 4: "2", 5: "2", 6: "2"})
    assert events == [
        ("out", (2,), 6), ("out", (3,), 5), ("out", (4,), 4), ("out", (5,), 3), ("out", (6,), 2),
        ("placed", (1,), 1), ("hand-end", (1, 6, 5, 4, 3, 2), None),
    ]  # fmt: skip
    assert pos.over and not pos.melee


def test_a_hand_void_as_play_starts_has_no_more_revolutions():
    # fours (threes held, revolution): seats 2-6 hold no 3, no 2 and no joker, so each revolts
    # automatically in seat order (docs/rules.md as above, 001 §65 "算做自动革命"); the second
    # revolution voids the hand (003 §番外篇2 "有两个人革命时，本局作废"): nothing happens after it.
    pos, events = _start("fours", {1: "3355", 2: "66", 3: "77", 4: "88", 5: "99", 6: "TT"})
    assert events == [("revolution", (2, 5), None), ("revolution", (3, 6), None), ("void-hand", (2, 3), None)]
    assert pos.void and pos.revolted == (2, 3)


# -- gaps of the 2026-12-02 run closed after it ---------------------------------------------------


def test_hidden_cards_as_many_as_the_threes_not_seen_may_all_be_threes():
    # mutant: rules.engine._apply_play asking for fewer hidden cards than 3s not yet seen (`<=` ->
    # `<`) (2026-12-02 run, not covered). 003 §被闷 (fours: threes held, smothered last): a seat
    # whose last play before its 3s is beaten is smothered. Four decks hold 16 3s; 14 are written
    # in the deal (seat 2 four, seat 3 four, seats 4-6 two each), so 2 are not seen, and seat 1's
    # two hidden cards may be those two: after 2:66 beats its 55 and all pass, the record going on
    # with seat 2's lead says seat 1 had no turn: it was smothered, out 6th. Seat 2 plays out
    # 3333 and is 1st.
    t = Hand({1: "55?2", 2: "663333", 3: "3333", 4: "33", 5: "33", 6: "33"}, "fours")
    t.play("1:55 2:66 3:- 4:- 5:- 6:-")
    assert t.pos.maybe_smothered == ((1, 2),)
    t.play("2:3333")
    assert t.pos.out == (1,) and t.pos.smothers == ((2, 1),) and t.pos.finished == (2,)
    assert [(e.seats, e.place) for e in t.events if e.kind.value == "out"] == [((1,), 6)]


def test_a_show_in_a_later_hand_is_the_matchs_to_refuse_only_under_rules_with_shows():
    # mutants: matches.match._suited_later refusing a show in a later hand under rules without
    # 上班 too (2026-12-02 run, not covered). docs/rules.md "The first leader": a show "in a hand
    # whose leader the hand before names is `show-not-allowed` (rule `first-lead`)" — the match's
    # refusal; under `fours` and `tournament` (no 上班: 003, 004 §7-§8) "a show is
    # `show-not-allowed`" under rule `showing`, the engine's, and the match adds none of its own.
    from test_showing import HAND

    from gouji_record import parse
    from gouji_record.matches.match import _suited_later

    record = parse(HAND.replace("\nplay\n", "\npreplay\n2:show h33\n\nplay\n", 1))[0]
    found = _suited_later(get_ruleset("charter"), record, led=True)
    assert [(d.code, d.rule, d.action) for d in found] == [("show-not-allowed", "first-lead", 0)]
    assert _suited_later(get_ruleset("charter"), record, led=False) == []  # nobody named: the show decides
    for name in ("fours", "tournament"):
        assert _suited_later(get_ruleset(name), record, led=True) == [], name


# -- the table `gouji show` prints (rules/table.py), in states tests/test_show.py's hand lacks ------


def test_the_table_before_play_shows_a_revolter_its_opposites_kept_head_and_a_call():
    # mutants: rules.table (first run against tests/test_show.py, 2026-12-04): a revolted seat's
    # status, kept heads, calls, the pre-play phase and its head line, the seats `describe` takes,
    # the void hand. Charter: seat 2 (no 2, no joker) revolts (革命, 002 §23): it sits the hand out,
    # and its opposite, seat 5, keeps a head (要头) of three dead gouji plays (docs/rules.md
    # `keep-head`); seat 1 leads (it is the first actor). Then seat 3 calls (宣点). A second
    # revolution (seat 3) voids the hand (该局作废, 002 §23), which is then over.
    from gouji_record.rules.table import describe, describe_text

    deal = {s: "5566" for s in range(1, 7)} | {1: "KK55"}
    pos, _ = run("charter", deal, "2:revolt")
    assert describe_text(pos).splitlines()[0] == "before play (出牌前), 1 action made (已行1步); seat 1 leads (首发)"
    pos, _ = run("charter", deal, "2:revolt 3:call")
    data = describe(pos)
    assert data["phase"] == "pre-play"
    rows = {row["seat"]: row for row in data["seats"]}
    assert (rows[2]["status"], rows[2]["place"]) == ("revolted", None)
    assert [rows[s]["kept_head"] for s in range(1, 7)] == [0, 0, 0, 0, 3, 0]
    assert [rows[s]["call"] for s in range(1, 7)] == [None, None, "call", None, None, None]
    assert describe_text(pos).splitlines() == [
        "before play (出牌前), 2 actions made (已行2步); seat 1 leads (首发)",
        "seat 1   4 cards  KK55  to act (轮到)",
        "seat 2   4 cards  6655  revolted (革命)",
        "seat 3   4 cards  6655  called (宣点)",
        "seat 4   4 cards  6655",
        "seat 5   4 cards  6655  kept a head (要头): 3 dead gouji left",
        "seat 6   4 cards  6655",
    ]
    assert describe(pos, 1)["view"] == 1 and describe(pos, 1)["seats"][1]["cards"] is None  # seats are 1-6
    with pytest.raises(ValueError):
        describe(pos, 0)
    pos, _ = run("charter", deal, "2:revolt 3:revolt")
    assert describe_text(pos).splitlines()[0] == "the hand is void (该局作废), round 1, 2 actions made (已行2步)"


def test_the_table_shows_the_seats_out_and_their_places():
    # mutants: rules.table's status, place and flag of seats out (2026-12-04). fours (003 §被闷,
    # threes held, smothered last): seat 1 plays 55 and holds only 33; seat 2 beats it with 66:
    # seat 1 is smothered (闷), out, 6th (大落); seat 3 beats seat 2's 66 (it holds only 33) with
    # 77: seat 2 is smothered, out, 5th (二落). Four seats are left: the melee is on (003 §四户乱缠),
    # and the smothered seats' opposites 4 and 5 are headless (无头).
    from gouji_record.rules.table import describe, describe_text

    pos, _ = run("fours", {1: "5533", 2: "6633", 3: "77K33", 4: "8833", 5: "9933", 6: "TT33"}, "1:55 2:66 3:77")
    rows = describe(pos)["seats"]
    assert [(r["status"], r["place"], r["smothered"]) for r in rows[:3]] == [
        ("out", 6, True), ("out", 5, True), ("playing", None, False),
    ]  # fmt: skip
    assert describe_text(pos).splitlines()[:6] == [
        "round 1 (第1轮), 3 actions made (已行3步); seat 4 to act (轮到4号位)",
        "top (桌面): 77 by seat 3",  # a pair of 7s is no 够级 play (003 §够级)
        "four-way melee (四户乱缠): on",
        "seat 1   2 cards  33    out 6th (出局, 大落), smothered (闷)",
        "seat 2   2 cards  33    out 5th (出局, 二落), smothered (闷)",
        "seat 3   3 cards  K33",
    ]
