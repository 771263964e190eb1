"""The event-log importer on hostile input: a located one-line error (line and field), never a
traceback, for deep nesting, huge numbers, lone surrogates, control characters, bad dates and
scores; lines split at line feeds only, so a raw U+2028 inside a JSON string is kept."""

from __future__ import annotations

import json

import pytest

from gouji_record.formats.eventlog import EventLogError, records_from_events

from conftest import ROOT
from test_eventlog import HANDS

CASES = ROOT / "tests" / "cases"

START = json.dumps({"type": "start_hand", "ruleset": "charter", "names": list("abcdef")})


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (START + "\n" + "[" * 100_000, 2, "JSON nested too deeply to read: expected one flat JSON object per line"),
        (START + '\n{"type":"deal","hands":' + "[" * 100_000 + "]" * 100_000 + "}", 2,
         "JSON nested too deeply to read: expected one flat JSON object per line"),
        ('\n{"type":"pass","seat":' + "9" * 5000 + "}", 2,
         "a number of more than 4300 digits: expected one JSON object per line"),
        (START.replace('"a"', '"\\ud800"'), 1,
         '"names"[0] (seat 1) holds a lone surrogate (U+D800) at character 1: UTF-8 cannot encode it'),
        (START.replace('"a"', '"a\\tb"'), 1,
         '"names"[0] (seat 1) holds a control character (U+0009) at character 2: a tag value is printable text'),
        (START[:-1] + ', "tags": {"Annotator": "x\\u001by"}}', 1,
         '"tags"."Annotator" holds a control character (U+001B) at character 2: a tag value is printable text'),
        (START[:-1] + ', "comment": ["ok", "\\u0000"]}', 1,
         '"comment"[1]: holds a control character (U+0000) at character 1: a comment is printable text'),
    ],
)  # fmt: skip
def test_event_log_errors_are_located(text, line, message):
    with pytest.raises(EventLogError) as e:
        records_from_events(text, source="log.jsonl")
    assert (e.value.line, e.value.message) == (line, message)


def test_an_event_log_text_is_split_at_newline_only():
    deal = json.dumps({"type": "deal", "hands": HANDS})
    text = START.replace('"a"', '"a\u2028b\x85"').replace('"b"', '"b\u2029"') + "\r\n" + deal
    with pytest.raises(EventLogError, match="U\\+0085"):  # NEL is a control character: refused
        records_from_events(text)
    (rec,) = records_from_events(text.replace("\x85", ""))
    assert rec.tags["Seat1"] == "a\u2028b" and rec.tags["Seat2"] == "b\u2029"


SAMPLES = {
    "events-bad-score-tag.jsonl": (
        1,
        '"tags"."Score": Score \'x y\': expected the scores of team 1-3-5 and team 2-4-6, like "2 0"',
    ),
    "events-date-month-13.jsonl": (
        1,
        '"date": Date \'2026.13.45\': expected YYYY.MM.DD, with ? for unknown parts ("2026.11.??"), or "?"',
    ),
    "events-huge-int.jsonl": (3, "a number of more than 4300 digits: expected one JSON object per line"),
    "events-lone-surrogate.jsonl": (
        3,
        '"comment": holds a lone surrogate (U+D800) at character 1: a .gjn file cannot hold it',
    ),
    "events-nul-in-name.jsonl": (
        1,
        '"names"[0] (seat 1) holds a control character (U+0000) at character 2: a tag value is printable text',
    ),
}


@pytest.mark.parametrize("name", list(SAMPLES))
def test_a_sample_log_is_refused_with_its_line_and_field(name):
    with pytest.raises(EventLogError) as e:
        records_from_events((CASES / name).read_text(encoding="utf-8"), source=name)
    assert (e.value.line, e.value.message) == SAMPLES[name]


def test_a_raw_u2028_in_a_json_string_is_kept():
    (rec,) = records_from_events((CASES / "events-raw-u2028-in-string.jsonl").read_text(encoding="utf-8"))
    assert rec.tags["Seat1"] == "a\u2028b" and rec.tags["Date"] == "2026.11.29" and rec.tags["Result"] == "*"
