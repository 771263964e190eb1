"""Notation features for real tables: unknown cards, irregularities ruled on, requests,
annotations, checked scores, Chinese card names. Expected values worked out by hand."""

import pytest

from gouji_record import parse, replay, write
from gouji_record.notation.build import NotationError
from gouji_record.notation.parser import parse_text
from gouji_record.rules.events import EventKind

from conftest import EXAMPLES

HAND = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
DEAL = HAND[HAND.index("deal\n") : HAND.index("\nplay\n")]


def kinds(result):
    return [e.kind for e in result.events]


def test_a_record_without_a_deal_replays_to_the_same_result():
    rec = parse(HAND.replace(DEAL, ""))[0]
    assert rec.deal == ("?36",) * 6
    r = replay(rec)
    assert r.diagnostic is None and r.places == (5, 6, 1, 4, 3, 2) and r.scores == {1: 2, 0: 0}


def test_partly_known_hands_write_and_read_back():
    text = HAND.replace("1: KKKKKKJJJJJJJJJTTTTT6666444444444444", "1: KKKKKK ?30").replace(
        "2: 2222KKJJ9999999977777777666666553333", "2: -"
    )
    rec = parse(text)[0]
    assert rec.deal[:2] == ("KKKKKK?30", "?36")
    assert "1: KKKKKK ?30\n2: -\n" in write(rec)
    assert parse(write(rec))[0] == rec
    assert replay(rec).diagnostic is None


def test_spaces_inside_a_seats_cards_in_the_deal():
    # issue 15: `1: X TT 55 ?` was a syntax error, though event logs take spaces inside cards
    text = HAND.replace("1: KKKKKKJJJJJJJJJTTTTT6666444444444444", "1: KKKKKK JJJJJJJJJ\tTTTTT 6666 ?").replace(
        "3: DDDX222222222222QQQQQQQQQQQQ88888888", "3: DX D D 222222 222222 ?20"
    )
    (rec, where), = parse_text(text)
    # seat 1: 6 + 9 + 5 + 4 = 24 known, ? is the other 12; seat 3: DDDX and twelve 2s = 16 known, 20 unknown
    assert rec.deal[0] == "KKKKKKJJJJJJJJJTTTTT6666?12"
    assert rec.deal[2] == "DDDX222222222222?20"
    assert where.deal[1] == (17, 1) and where.deal[3] == (19, 1)
    assert "1: KKKKKKJJJJJJJJJTTTTT6666 ?12\n" in write(rec)  # written without the spaces
    assert replay(rec).diagnostic is None


def test_spaces_inside_deal_cards_keep_errors_located():
    # a bad card after a space is pointed at; two entries on one line are still two entries
    bad = HAND.replace("1: KKKKKKJJJJJJJJJTTTTT6666444444444444", "1: KKKKKK JJZ ?")
    with pytest.raises(NotationError) as e:
        parse_text(bad)
    assert (e.value.code, e.value.line, e.value.column) == ("bad-card", 17, 13)
    one_line = HAND.replace("1: KKKKKKJJJJJJJJJTTTTT6666444444444444\n2: ", "1: KKKKKK JJJ ? 2: ")
    rec = parse(one_line)[0]
    assert rec.deal[:2] == ("KKKKKKJJJ?27", "2222KKJJ9999999977777777666666553333")
    # 36 cards with a space, then the next seat's line: the count is checked as before
    short = HAND.replace("1: KKKKKKJJJJJJJJJTTTTT6666444444444444", "1: KKKKKK JJJJJJJJJ")
    with pytest.raises(NotationError) as e:
        parse_text(short)
    assert (e.value.code, e.value.line, e.value.column) == ("deal-size", 17, 4)
    assert e.value.message == "seat 1 is dealt 15 cards: expected 36"


def test_unknown_cards_cannot_exceed_the_hand_or_four_decks():
    # seat 1 holds KKKKKK and 30 unknown: 6 kings known to seat 1, 2 to seat 2 (KK), 6 to seat 4, 2 to seat 5
    # → all 16 kings are known; a seventh king from seat 1's unknown cards is one too many
    text = HAND.replace("1: KKKKKKJJJJJJJJJTTTTT6666444444444444", "1: KKKKKK ?30").replace(
        "1. 1:TTTTT", "1. 1:KKKKKKK"
    )
    d = replay(parse(text)[0]).diagnostic
    assert d.code == "too-many-cards" and d.action == 0


def test_irregular_play_out_of_turn_is_ruled_on_and_withdrawn():
    # as in the illegal example, seat 3 answers its team-mate's gouji play — but marked ^: the engine rules
    text = HAND.replace("1. 1:TTTTT {Five", "1. 1:TTTTT ^3:QQQQQ {Five")
    r = replay(parse(text)[0])
    assert r.diagnostic is None and r.places == (5, 6, 1, 4, 3, 2)
    ruling = next(e for e in r.events if e.kind is EventKind.RULING)
    assert ruling.action == 1 and ruling.note.startswith("gouji-not-opposite")
    assert r.positions[2].hands == r.positions[1].hands  # the play was not made (错牌不出)


def test_irregular_follow_by_the_seat_to_act_loses_its_turn():
    # round 2: seat 5 is to act on 4:3333; ^5:KK (two cards on four) does not beat it → the turn is lost
    text = HAND.replace("2. 4:3333 5:4444 6:5555", "2. 4:3333 ^5:KK 6:5555")
    text = text.replace("1:6666 2:7777 3:8888 4:9999 5:- 6:-", "1:6666 2:7777 3:8888 4:9999 6:-")
    rec = parse(text)[0]
    r = replay(rec)
    assert [e.note.split(":")[0] for e in r.events if e.kind is EventKind.RULING][0] == "does-not-beat"
    assert 5 in r.positions[5].barred


def test_wind_request_under_the_charter_and_not_elsewhere():
    # round 6: seat 5 plays out; seat 6 asks for the wind instead of passing; all pass; seat 6 leads
    text = HAND.replace("无头).} 6:-\n   1:- 2:- 3:- 4:-", "无头).} 6:wind\n   1:- 2:- 3:- 4:-")
    assert "6:wind" in text
    r = replay(parse(text)[0])
    assert r.diagnostic is None and EventKind.WIND_REQUEST in kinds(r)
    no_wind = text.replace("[Annotator", '[Options "wind-request=no"]\n[Annotator')
    d = replay(parse(no_wind)[0]).diagnostic
    assert d.code == "wind-not-allowed" and d.action == 22


def test_claim_is_recorded_under_the_charter():
    text = HAND.replace("17. 3:DDDX", "17. 3:挑牌 3:DDDX")
    r = replay(parse(text)[0])
    assert r.diagnostic is None and EventKind.CLAIM in kinds(r)
    assert "17. 3:claim 3:DDDX" in write(parse(text)[0])


def test_numeric_annotations_and_glyphs_round_trip():
    text = HAND.replace("4:JJJJJ {Seat 4", "4:JJJJJ!? $3 $14 {Seat 4")
    rec = parse(text)[0]
    assert (rec.actions[1].glyph, rec.actions[1].nags) == ("!?", (3, 14))
    assert parse(write(rec))[0] == rec


def test_chinese_joker_names_and_score_tag():
    text = HAND.replace(
        "3: DDDX222222222222QQQQQQQQQQQQ88888888", "3: 大王大王大花小王222222222222QQQQQQQQQQQQ88888888"
    )
    assert parse(text)[0] == parse(HAND)[0]
    good = HAND.replace("[Annotator", '[Score "2 0"]\n[Annotator')
    assert replay(parse(good)[0]).diagnostic is None
    d = replay(parse(good.replace('"2 0"', '"0 2"'))[0]).diagnostic
    assert d.code == "score-mismatch" and "'2 0'" in d.message


def test_a_void_hand_scores_nothing_and_its_score_tag_is_checked():
    # 000 §革命, 002 §23 "如同时出现2个(含2个)以上革命者，则该局作废": a void hand counts
    # for nothing, so its Score tag can only be "0 0" (a void hand's Score tag went unchecked); 004 has no 革命, 003 holds 3s (the deal has none)
    from gouji_record.rules.rulesets import get_ruleset

    void = (EXAMPLES.parent / "conformance" / "valid" / "void-hand.gjn").read_text(encoding="utf-8")
    for name in ("online", "classic", "charter"):
        scored = void.replace('[Result "void"]', '[Result "void"]\n[Score "0 0"]')
        assert replay(parse(scored)[0], get_ruleset(name)).diagnostic is None, name
        d = replay(parse(scored.replace('"0 0"', '"2 0"'))[0], get_ruleset(name)).diagnostic
        assert (d.code, d.action, d.rule) == ("score-mismatch", None, "void-hand"), name
        assert d.message == "Score says '2 0' (team 1-3-5, team 2-4-6) but a void hand scores '0 0'"
