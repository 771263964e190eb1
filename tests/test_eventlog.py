"""Event logs (docs/events-log.md) → records: the documented example, a round trip of the
worked example, and one test per error, with its line."""

from __future__ import annotations

import json
import re

import pytest
from conftest import EXAMPLES, ROOT

import gouji_record as gj
from gouji_record.judging.canonical import canonical
from gouji_record.formats.eventlog import EventLogError, records_from_events
from gouji_record.model import ActionKind, GameRecord

NAMES = ["Zhang Wei", "Wang Fang", "Li Na", "Zhao Lei", "Liu Yang", "Chen Jing"]
HANDS = [
    "KKKKKKJJJJJJJJJTTTTT6666444444444444",
    "2222KKJJ9999999977777777666666553333",
    "DDDX222222222222QQQQQQQQQQQQ88888888",
    "AAAAAAAAAAAAAKKKKKKQQQQJJJJJ99993333",
    "DXXXKK888888887777777755555555554444",
    "AAATTTTTTTTTTT9999666666555533333333",
]


def ev(type_: str, **fields) -> str:
    """One event as a JSON line."""
    return json.dumps({"type": type_, **fields}, ensure_ascii=False)


START = ev("start_hand", ruleset="charter", names=NAMES)
DEAL = ev("deal", hands=HANDS)


def doc_example() -> list[str]:
    text = (ROOT / "docs" / "events-log.md").read_text(encoding="utf-8")
    return re.search(r"```jsonl\n(.*?)```", text, re.DOTALL).group(1).splitlines()


def events_of(record: GameRecord) -> list[str]:
    """The event log of a record: what a platform would export."""
    fields = {"event": "Event", "site": "Site", "date": "Date", "round": "Round", "options": "Options"}
    start = {"ruleset": record.tags["Ruleset"], "names": [record.player(s) for s in range(1, 7)]}
    start |= {k: record.tags[t] for k, t in fields.items() if t in record.tags}
    mapped = set(fields.values()) | {"Ruleset", "Result"} | {f"Seat{s}" for s in range(1, 7)}
    start["tags"] = {k: v for k, v in record.tags.items() if k not in mapped}
    if record.comment:
        start["comment"] = list(record.comment)
    lines = [ev("start_hand", **start), ev("deal", hands=list(record.deal))]
    for a in record.all_actions:
        extra = {"comment": list(a.comments)} if a.comments else {}
        if a.kind is ActionKind.PLAY:
            extra |= {"cards": a.cards, "burn": True} if a.burn else {"cards": a.cards}
        lines.append(ev(a.kind.value.replace("-", "_"), seat=a.seat, **extra))
    lines.append(ev("end_hand", result=record.tags["Result"]))
    return lines


def without_rounds(actions):
    return tuple(a.model_copy(update={"round": None}) for a in actions)


# --- conversions ------------------------------------------------------------------------------


def test_the_documented_example_converts_and_replays():
    void, started = records_from_events(doc_example(), source="events-log.md")
    assert void.tags == {
        "Event": "Club night",
        "Site": "Qingdao",
        "Date": "2026.11.29",
        "Round": "1",
        "Ruleset": "charter",
        **{f"Seat{s}": n for s, n in enumerate(NAMES, start=1)},
        "Result": "void",
        "Annotator": "gouji-record developers",
    }
    assert [a.text for a in void.preplay] == ["2:revolt", "5:keep-head", "4:revolt"]
    assert void.preplay[2].comments == ("A second revolution voids the hand.",)
    assert void.actions == ()
    assert started.tags["Result"] == "*" and started.tags["Round"] == "2"
    assert started.tags["Options"] == "threes-held=no"
    assert started.deal == tuple(HANDS)
    assert started.comment == ("Seats 1 3 5 play against seats 2 4 6.",)
    assert [a.text for a in started.actions][:3] == ["1:TTTTT", "4:JJJJJ", "1:-"]
    burn = started.actions[-2]
    assert burn.text == "5:*XXKK" and len(burn.comments) == 2
    assert len(started.actions) == 18

    replayed = gj.replay(void)
    assert replayed.diagnostic is None and replayed.final.over
    replayed = gj.replay(started)
    assert replayed.diagnostic is None and not replayed.final.over
    assert gj.parse(gj.write(started)) == [started]


def test_the_worked_example_round_trips_through_an_event_log():
    original = gj.read(EXAMPLES / "charter-hand.gjn")[0]
    (record,) = records_from_events(events_of(original), source="charter-hand.jsonl")
    assert record.tags == original.tags
    assert list(record.tags) == list(original.tags)
    assert record.deal == original.deal
    assert record.comment == original.comment
    assert record.preplay == original.preplay
    assert without_rounds(record.actions) == without_rounds(original.actions)
    result = gj.replay(record)
    assert result.diagnostic is None
    assert result.places == (5, 6, 1, 4, 3, 2)
    assert canonical(record) == original  # the engine numbers the rounds as the example does


def test_a_log_may_be_given_as_text_with_blank_lines_crlf_and_a_byte_order_mark():
    text = "\ufeff" + "\r\n".join([START, "", "   ", DEAL, ev("play", seat=1, cards="tt10 10 T")]) + "\r\n"
    (record,) = records_from_events(text)
    assert record.actions[0].cards == "TTTTT"
    assert record.tags["Result"] == "*"
    assert (record.tags["Event"], record.tags["Site"], record.tags["Date"], record.tags["Round"]) == ("?",) * 4


def test_hands_follow_each_other_and_the_last_may_stop_before_end_hand():
    log = [START, DEAL, ev("end_hand", result="void"), START, DEAL, ev("pass", seat=1), ev("yield", seat=2)]
    first, second = records_from_events(log)
    assert first.tags["Result"] == "void" and first.actions == ()
    assert second.tags["Result"] == "*"
    assert [a.kind for a in second.actions] == [ActionKind.PASS, ActionKind.YIELD]


def test_declarations_and_extra_tags():
    start = ev("start_hand", ruleset="tournament", names=NAMES, tags={"TableId": "8812", "Annotator": "A"})
    log = [
        start,
        DEAL,
        ev("natural", seat=2),
        ev("no_head", seat=5, comment="  two\n words "),
        ev("play", seat=1, cards="3"),
    ]
    (record,) = records_from_events(log)
    assert [a.kind for a in record.preplay] == [ActionKind.NATURAL, ActionKind.NO_HEAD]
    assert record.preplay[1].comments == ("two words",)
    assert list(record.tags)[-2:] == ["TableId", "Annotator"]


def test_a_log_that_gives_only_the_plays_converts_with_hands_not_known():
    # issue 15: notation.md promised it, the converter asked for a deal of 6 x 36 cards
    plays = [ev("play", seat=1, cards="TTTTT"), ev("play", seat=4, cards="JJJJJ"), ev("pass", seat=1)]
    (record,) = records_from_events([START, *plays])
    assert record.deal == ("?36",) * 6
    assert [a.text for a in record.actions] == ["1:TTTTT", "4:JJJJJ", "1:-"] and record.tags["Result"] == "*"
    result = gj.replay(record)
    assert result.diagnostic is None and len(result.positions) == 4
    # a hand that ends at once, and one that is only started, read the same way
    (ended,) = records_from_events([START, ev("end_hand", result="*")])
    (started,) = records_from_events(["", START, ""])
    assert ended == started and ended.deal == ("?36",) * 6 and ended.actions == ()


def test_partly_known_hands_in_a_deal():
    hands = [HANDS[0][:6] + "?30", HANDS[1][:4] + " ?", None, "", "-", "?"]
    (record,) = records_from_events([START, ev("deal", hands=hands), ev("play", seat=1, cards="KKKKKK")])
    # seat 1: six kings and 30 unknown; seat 2: four 2s, the other 32 unknown; seats 3-6 not known
    assert record.deal == ("KKKKKK?30", "2222?32", "?36", "?36", "?36", "?36")
    assert gj.replay(record).diagnostic is None
    assert "1: KKKKKK ?30\n2: 2222 ?32\n3: -\n" in gj.write(canonical(record))
    # a whole hand given with a ? after it: nothing is unknown
    (whole,) = records_from_events([START, ev("deal", hands=[HANDS[0] + "?"] + HANDS[1:])])
    assert whole.deal == tuple(HANDS)


def test_an_empty_log_gives_no_records():
    assert records_from_events(["", "  "]) == []


# --- errors: each names its line and what was expected -----------------------------------------

ERRORS = {
    "not-json": ([START, "{type: deal}"], 2, "not JSON"),
    "not-an-object": ([START, '["deal"]'], 2, "not an object"),
    "duplicate-key": ([START, '{"type":"deal","type":"deal"}'], 2, "given twice"),
    "no-type": ([START, '{"hands":[]}'], 2, 'missing field "type"'),
    "unknown-type": ([START, DEAL, ev("discard", seat=1)], 3, "unknown event type 'discard'"),
    "missing-field": ([START, DEAL, ev("play", seat=1)], 3, 'missing field "cards" in play'),
    "missing-names": ([ev("start_hand", ruleset="charter")], 1, 'missing field "names"'),
    "missing-ruleset": ([ev("start_hand", names=NAMES)], 1, 'missing field "ruleset"'),
    "missing-result": ([START, DEAL, ev("end_hand")], 3, 'missing field "result"'),
    "unknown-field": ([START, DEAL, ev("pass", seat=1, cards="3")], 3, 'unknown field "cards" in pass'),
    "deal-before-start": (["", DEAL, START], 2, "deal before start_hand"),
    "deal-after-play": ([START, "", ev("play", seat=1, cards="3"), DEAL], 4, "deal after the hand's first action"),
    "deal-after-declaration": ([START, ev("revolt", seat=2), DEAL], 3, "deal after the hand's first declaration"),
    "play-after-end": ([START, DEAL, ev("end_hand", result="*"), ev("pass", seat=1)], 4, "pass before start_hand"),
    "second-deal": ([START, DEAL, DEAL], 3, "a second deal"),
    "declaration-after-play": (
        [START, DEAL, ev("pass", seat=1), ev("revolt", seat=2)],
        4,
        "revolt after play has begun",
    ),
    "start-in-open-hand": ([START, DEAL, ev("pass", seat=1), START], 4, "before the end of the hand started at line 1"),
    "seat-zero": ([START, DEAL, ev("pass", seat=0)], 3, "bad seat 0: expected a seat number 1-6 (seats count from 1"),
    "seat-seven": ([START, DEAL, ev("play", seat=7, cards="3")], 3, "bad seat 7"),
    "seat-string": ([START, DEAL, ev("yield", seat="3")], 3, 'bad seat "3"'),
    "seat-boolean": ([START, DEAL, ev("natural", seat=True)], 3, "bad seat true"),
    "bad-card-in-play": ([START, DEAL, ev("play", seat=1, cards="QQB")], 3, "'B' is not a card"),
    "bad-card-in-deal": ([START, ev("deal", hands=HANDS[:5] + ["Z" + HANDS[5][1:]])], 2, "seat 6) 'Z"),
    "cards-not-a-string": ([START, DEAL, ev("play", seat=1, cards=["Q"])], 3, '"cards" is an array'),
    "empty-play": ([START, DEAL, ev("play", seat=1, cards="")], 3, "a play with no cards"),
    "burn-not-boolean": ([START, DEAL, ev("play", seat=1, cards="3", burn="yes")], 3, '"burn" is a string'),
    "deal-five-hands": ([START, ev("deal", hands=HANDS[:5])], 2, "expected an array of six card strings"),
    "deal-size": (
        [START, ev("deal", hands=HANDS[:5] + [HANDS[5][:-1]])],
        2,
        "seat 6 is dealt 35 cards: expected 36 (end it with ? if the rest are not known)",
    ),
    "deal-unknown-too-many": ([START, ev("deal", hands=["KK?35"] + [None] * 5)], 2, "seat 1 is dealt 37 cards"),
    "deal-known-too-many": ([START, ev("deal", hands=["3" * 37 + "?"] + [None] * 5)], 2, "seat 1 is dealt 37 cards"),
    "deal-unknown-not-a-number": ([START, ev("deal", hands=[None, "KK?x"] + [None] * 4)], 2, "then ?N for N cards"),
    "deal-hand-a-number": ([START, ev("deal", hands=[36] + [None] * 5)], 2, '(seat 1) is a number (36): expected'),
    "deal-partly-known-four-decks": ([START, ev("deal", hands=["DDD?", "DD?"] + [None] * 4)], 2, "four decks hold 4"),
    "deal-four-decks": ([START, ev("deal", hands=HANDS[:5] + ["D" * 36])], 2, "four decks hold 4"),
    "names-five": ([ev("start_hand", ruleset="charter", names=NAMES[:5])], 1, "expected an array of six player names"),
    "unknown-ruleset": ([ev("start_hand", ruleset="chess", names=NAMES)], 1, "unknown ruleset 'chess'"),
    "bad-option": ([ev("start_hand", ruleset="charter", names=NAMES, options="threes-held")], 1, "expected name=value"),
    "bad-date": ([ev("start_hand", ruleset="charter", names=NAMES, date="29/11/2026")], 1, "expected YYYY.MM.DD"),
    "bad-result": ([START, DEAL, ev("end_hand", result="1-2-3")], 3, "expected the six seats in order of place"),
    "reserved-tag": (
        [ev("start_hand", ruleset="charter", names=NAMES, tags={"Result": "*"})],
        1,
        "given by its own field",
    ),
    "bad-tag-name": ([ev("start_hand", ruleset="charter", names=NAMES, tags={"1st": "x"})], 1, "tag name '1st'"),
    "tag-line-break": ([ev("start_hand", ruleset="charter", names=NAMES, site="Qing\ndao")], 1, "line break"),
    "comment-not-text": ([START, DEAL, ev("pass", seat=1, comment=3)], 3, '"comment" is a number'),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_errors_name_the_line_and_what_was_expected(case):
    lines, line, phrase = ERRORS[case]
    with pytest.raises(EventLogError) as e:
        records_from_events(lines, source="log.jsonl")
    assert e.value.line == line
    assert phrase in e.value.message
    assert str(e.value).startswith(f"log.jsonl:{line}: ")
    assert isinstance(e.value, ValueError)
