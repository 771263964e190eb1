"""What each free-text field may hold (docs/notation.md §3.5): every record the model accepts is
written and read back unchanged, and what a file cannot hold is refused with a clear error — by
the model (ValidationError), by the reader (a located NotationError), never a traceback."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from gouji_record.model import REQUIRED_TAGS, Action, ActionKind, GameRecord
from gouji_record.notation import NotationError, parse_text, write

from conftest import CASES, PLAIN_TAGS as BASE_TAGS
UNKNOWN = ("?36",) * 6


def record(**fields) -> GameRecord:
    fields.setdefault("tags", BASE_TAGS)
    fields.setdefault("deal", UNKNOWN)
    return GameRecord(**fields)


def play(**fields) -> Action:
    return Action(seat=1, kind=ActionKind.PLAY, cards="33", **fields)


def parse(text: str) -> list[GameRecord]:
    return [r for r, _ in parse_text(text)]


# -- the property: arbitrary Unicode in every free-text field -----------------------------------

#: Any code point but a surrogate (no UTF-8 text holds one), with the characters that matter
#: here drawn often: controls and line breaks, braces, quotes, backslashes, wide characters.
_SPECIAL = st.sampled_from(list('\n\r\t\x00\x0b\x0c\x1b\x1c\x7f\x85\u2028\u2029\ufeff{};"\\[]$!? 　够级烧牌😀'))
_CHAR = st.one_of(st.characters(blacklist_categories=("Cs",)), _SPECIAL)
any_text = st.text(_CHAR, max_size=30)
#: Text with no control character: what tag values take, drawn as often as anything at all.
printable = st.text(st.one_of(st.characters(blacklist_categories=("Cs", "Cc")), _SPECIAL.filter(str.isprintable)))
text = st.one_of(printable, any_text)
_NAME = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,8}", fullmatch=True)
tag_names = st.one_of(_NAME, _NAME, any_text)
#: Sometimes a value the field takes, sometimes anything.
glyphs = st.one_of(st.none(), st.sampled_from(["!", "?", "!!", "??", "!?", "?!"]), any_text)
nags = st.one_of(st.integers(0, 255), st.integers(0, 255), st.integers(), st.sampled_from([-1, 256, 10**300, 10**5000]))
rounds = st.one_of(st.none(), st.none(), st.integers(1, 300), st.integers(), st.just(10**5000))
#: Tags whose value is free text, and (seldom) those whose value has a form.
free_tags = [t for t in REQUIRED_TAGS if t not in ("Date", "Result")]


@st.composite
def actions(draw) -> dict:
    kind = draw(st.sampled_from(["play", "pass", "yield", "wind", "claim"]))
    return {
        "seat": draw(st.integers(1, 6)),
        "kind": kind,
        "cards": "33" if kind == "play" else "",
        "round": draw(rounds),
        "glyph": draw(glyphs),
        "nags": draw(st.lists(nags, max_size=2)),
        "irregular": draw(st.booleans()),
        "comments": draw(st.lists(text, max_size=2)),
    }


@st.composite
def record_data(draw) -> dict:
    tags = dict(BASE_TAGS)
    names = st.sampled_from(free_tags * 4 + ["Date", "Result", "Score"])
    for name in draw(st.lists(names, max_size=3)):
        tags[name] = draw(text)  # Event, Seat1 (a player's name), Date, Result …: anything
    tags |= draw(st.dictionaries(tag_names, text, max_size=2))
    return {
        "tags": tags,
        "deal": UNKNOWN,
        "preplay": [
            {"seat": 2, "kind": "revolt", "glyph": draw(glyphs), "comments": draw(st.lists(text, max_size=2))}
            for _ in range(draw(st.integers(0, 1)))
        ],
        "comment": draw(st.lists(text, max_size=2)),
        "actions": draw(st.lists(actions(), max_size=4)),
    }


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(record_data())
def test_a_record_is_refused_or_read_back_unchanged(data):
    """Either the model refuses the record, or ``parse_text(write(r)) == [r]``: comments are
    folded (white space to single spaces) when the record is made, as the reader folds them.
    The JSON `gouji export` writes for it is one line, and reads back as the same record."""
    try:
        rec = GameRecord.model_validate(data)
    except ValidationError:
        return
    assert parse(write(rec)) == [rec]
    exported = json.dumps(rec.model_dump(mode="json"), ensure_ascii=False)
    assert "\n" not in exported  # one line of JSON Lines (the importer splits at \n only)
    assert GameRecord.model_validate(json.loads(exported)) == rec


# -- what each field refuses, and what it keeps ---------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "phrase"),
    [
        ({"tags": BASE_TAGS | {"White Elo": "2400"}}, "tag name 'White Elo': expected letters, digits and _"),
        ({"tags": BASE_TAGS | {"Event": "a\nb"}}, "holds a line break (U+000A) at character 2"),
        ({"tags": BASE_TAGS | {"Seat1": "a\rb"}}, "holds a line break (U+000D) at character 2"),
        ({"tags": BASE_TAGS | {"Seat1": "a\x85b"}}, "holds a line break (U+0085) at character 2"),
        ({"tags": BASE_TAGS | {"Site": "\x00"}}, "holds a control character (U+0000) at character 1"),
        ({"tags": BASE_TAGS | {"Event": "\x1b[31mRED"}}, "holds a control character (U+001B) at character 1"),
        ({"tags": BASE_TAGS | {"Annotator": "x\ty"}}, "holds a control character (U+0009) at character 2"),
        ({"tags": BASE_TAGS | {"Seat2": "\ud800"}}, "holds a lone surrogate (U+D800) at character 1"),
        ({"tags": BASE_TAGS | {"Date": "2026.13.01"}}, "Date '2026.13.01': expected YYYY.MM.DD"),
        ({"tags": BASE_TAGS | {"Score": "x y"}}, "Score 'x y': expected the scores"),
        ({"tags": BASE_TAGS | {"Result": "garbage"}}, "Result 'garbage': expected the six seats"),
        ({"tags": {k: v for k, v in BASE_TAGS.items() if k != "Seat4"}}, "missing tag Seat4"),
        ({"deal": ("33",) * 6}, "seat 1 is dealt 2 cards: expected 36"),
        ({"deal": ("D" * 36,) + ("?36",) * 5}, "the deal has 36 cards D: four decks hold 4"),
        ({"deal": ("?" + "9" * 5000,) + ("?36",) * 5}, "seat 1: '?9999"),
        ({"comment": ("ok", "a\x00b")}, "comment.1\n  Value error, holds a control character (U+0000) at character 2"),
        ({"comment": ("\udfff",)}, "holds a lone surrogate (U+DFFF) at character 1"),
        ({"actions": (Action(seat=2, kind=ActionKind.REVOLT),)}, "action 0 is a revolt: the play section holds"),
        ({"bogus": 1}, "Extra inputs are not permitted"),
    ],
)
def test_the_record_refuses(fields, phrase):
    with pytest.raises(ValidationError) as e:
        record(**fields)
    assert phrase in str(e.value)


@pytest.mark.parametrize(
    ("fields", "phrase"),
    [
        ({"glyph": "!!!"}, "glyph"),
        ({"glyph": " {x} 2:55"}, "glyph"),
        ({"nags": (-1,)}, "greater than or equal to 0"),
        ({"nags": (256,)}, "less than or equal to 255"),
        ({"nags": (10**5000,)}, "less than or equal to 255"),
        ({"round": 0}, "greater than or equal to 1"),
        ({"round": 10**4}, "less than or equal to 9999"),
        ({"round": 10**5000}, "less than or equal to 9999"),
        ({"comments": ("\x00",)}, "comments.0\n  Value error, holds a control character (U+0000)"),
        ({"comments": ("ok \x1b[2J",)}, "comments.0\n  Value error, holds a control character (U+001B) at character 4"),
        ({"comments": ("\x9b31m",)}, "comments.0\n  Value error, holds a control character (U+009B) at character 1"),
        ({"burn": 1}, "valid boolean"),
        ({"irregular": "yes"}, "valid boolean"),
        ({"bogus": 1}, "Extra inputs are not permitted"),
    ],
)
def test_the_action_refuses(fields, phrase):
    with pytest.raises(ValidationError) as e:
        play(**fields)
    assert phrase in str(e.value)


@pytest.mark.parametrize("seat", [True, "1", 1.0])
def test_a_seat_is_an_integer_never_converted(seat):
    with pytest.raises(ValidationError, match="valid integer"):
        Action(seat=seat, kind=ActionKind.PASS)
    with pytest.raises(ValidationError, match="valid integer"):
        Action(seat=1, kind=ActionKind.GIVE, to=seat, cards="3")


def test_comments_are_folded_as_the_reader_folds_them():
    a = play(comments=("  }\n2:-  ", "开点\n烧牌\u2028and\t x", "a\x1cb"))  # \x1c is white space to Python
    assert a.comments == ("} 2:-", "开点烧牌 and x", "a b")
    rec = record(comment=("x \r\n y",), actions=(a,))
    assert rec.comment == ("x y",)
    text = write(rec)
    assert "1:33 ; } 2:-\n" in text  # the } makes it a ; comment, on one line: 2:- is no action
    assert parse(text) == [rec]


def test_a_missing_round_tag_is_filled_in_as_the_reader_does():
    rec = record(tags={k: v for k, v in BASE_TAGS.items() if k != "Round"})
    assert rec.tags["Round"] == "?"
    assert parse(write(rec)) == [rec]


def test_values_that_can_be_written_are_kept():
    tags = BASE_TAGS | {"Seat1": "a\u2028b\u2029c", "Event": 'say "hi" \\n ]', "type": "x", "X_1": "😀\ufeff"}
    rec = record(tags=tags, actions=(play(glyph="!?", nags=(0, 255), round=1, comments=("{[%clk 0:00:12]}",)),))
    assert rec.tags == tags
    assert parse(write(rec)) == [rec]


# -- the reader: located errors for what the model refuses -------------------------------------------


def hand(tag_lines: str = "", play_line: str = "1. 1:33") -> str:
    tags = "".join(f'[{k} "{v}"]\n' for k, v in BASE_TAGS.items())
    return tags + tag_lines + "\nplay\n" + play_line + "\n"


def read_error(text: str) -> NotationError:
    with pytest.raises(NotationError) as e:
        parse_text(text)
    return e.value


def test_a_huge_numeric_annotation_is_a_located_error():
    err = read_error((CASES / "bigint-nag.gjn").read_text(encoding="utf-8"))
    # line 15 is "1. 1:33 $111…": the $ stands in column 9
    assert (err.code, err.line, err.column) == ("syntax", 15, 9)
    assert err.message == "numeric annotation $11111111… (4301 digits): expected $0 to $255"


@pytest.mark.parametrize(("nag", "ok"), [("$0", True), ("$255", True), ("$256", False), ("$0256", False)])
def test_numeric_annotations_run_from_0_to_255(nag, ok):
    text = hand(play_line=f"1. 1:33! {nag} 2:-")
    if ok:
        assert parse(text)[0].actions[0].nags == (int(nag[1:]),)
    else:
        err = read_error(text)
        assert (err.line, err.column) == (15, 10)  # "1. 1:33! $…": the $ in column 10
        assert err.message == f"numeric annotation {nag}: expected $0 to $255"


def test_a_huge_round_number_is_a_located_error():
    err = read_error(hand(play_line="1. 1:33 " + "7" * 5000 + ". 2:44"))
    assert (err.code, err.line, err.column) == ("syntax", 15, 9)
    assert err.message == "round number of 5000 digits: round numbers run from 1 to 9999"
    assert parse(hand(play_line="9999. 1:33"))[0].actions[0].round == 9999


def test_a_control_character_in_a_tag_value_is_a_located_error():
    err = read_error((CASES / "escape-in-event.gjn").read_text(encoding="utf-8"))
    assert (err.code, err.line, err.column) == ("bad-tag", 1, 2)  # [Event: the name in column 2
    assert err.message == "tag Event holds a control character (U+001B) at character 1: a tag value is printable text"
    err = read_error((CASES / "tag-nel-export-import.gjn").read_text(encoding="utf-8"))
    assert (err.code, err.line, err.column) == ("bad-tag", 6, 2)
    assert err.message == "tag Seat1 holds a line break (U+0085) at character 2: a tag value is one line of text"
    err = read_error(hand('[Note "a\tb"]\n'))
    assert (err.code, err.line, err.column) == ("bad-tag", 13, 2)


def test_old_escapes_read_as_before():
    # only \" and \\ are escapes; any other backslash stands for itself
    (rec,) = parse(hand('[Note "C:\\new \\u0041 \\"q\\" \\\\"]\n'))
    assert rec.tags["Note"] == 'C:\\new \\u0041 "q" \\'
    assert parse(write(rec)) == [rec]
