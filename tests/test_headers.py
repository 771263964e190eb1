"""``read_headers``: each hand's tags and its place in the file, without parsing the deal and play
(python-chess's ``read_headers``). The tags are those the whole reader gives; a hand whose tag
section does not read carries the error the whole reader gives; the deal and the play are never
parsed for a hand whose tags read."""

from __future__ import annotations

import io

import pytest
from conftest import BAD_CARD_HAND, CASES, EXAMPLES
from hypothesis import given
from hypothesis import strategies as st
from test_properties import PROPERTY, records

import gouji_record as gj
from gouji_record.notation import headers as headers_module
from gouji_record.notation import parser, scanner
from gouji_record.notation.files import read_hands
from gouji_record.running.batch import read_records


def _headers(text: str, path: str = "t.gjn") -> list[gj.Headers]:
    return list(gj.read_headers(path, io.BytesIO(text.encode("utf-8"))))


@PROPERTY
@given(st.lists(records(extended=True), min_size=1, max_size=3))
def test_the_tags_are_the_records_tags_and_the_places_the_splitters(recs):
    text = gj.write_all(recs)
    got = _headers(text)
    hands = list(read_hands("t.gjn", io.BytesIO(text.encode("utf-8"))))
    assert [h.tags for h in got] == [r.tags for r in recs]
    assert [(h.index, h.line, h.column, h.problem) for h in got] == [(x.index, x.line, x.column, None) for x in hands]
    assert [h.record() for h in got] == recs


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.gjn")) + sorted(CASES.glob("*.gjn")), ids=lambda p: p.name)
def test_every_hand_of_the_examples_and_the_cases_as_the_whole_reader_reads_it(path):
    """Where the whole reader reads a hand, the same tags; where it cannot because of the tag
    section, the same error at the same place; where it cannot because of the deal or the play,
    the tags all the same (and ``record()`` raises that error)."""
    whole = [r for r in read_records(str(path)) if r.hand is not None]
    got = list(gj.read_headers(str(path)))
    assert [h.index for h in got] == [r.hand.index for r in whole if r.hand.text.strip() or r.problem]
    for h, r in zip(got, whole):
        if r.record is not None:
            assert (h.tags, h.problem) == (r.record.tags, None)
        elif h.problem is not None:
            assert (h.problem.code, h.problem.line, h.problem.column) == (r.problem.code, r.problem.line, r.problem.column)
            assert h.problem.file == str(path) and h.problem.hand == h.index and h.tags == {}
        else:  # the tags read; the hand does not
            with pytest.raises(gj.NotationError) as e:
                h.record()
            assert (e.value.code, e.value.line, e.value.column) == (r.problem.code, r.problem.line, r.problem.column)
            assert "Event" in h.tags


def test_the_deal_and_the_play_are_not_parsed(monkeypatch):
    """Neither reader of the notation (the grammar's, the fast scanner) is called for hands whose
    tag section reads, however broken their play."""

    def refuse(*args, **kwargs):
        raise AssertionError("parsed")

    monkeypatch.setattr(parser, "parse_text", refuse)
    monkeypatch.setattr(headers_module, "parse_text", refuse)
    monkeypatch.setattr(scanner, "scan", refuse)
    text = (EXAMPLES / "charter-match.gjn").read_text(encoding="utf-8") + "\n" + BAD_CARD_HAND
    got = _headers(text)
    assert [h.tags.get("Hand") for h in got] == ["1", "2", "3", None] and all(h.problem is None for h in got)
    assert got[3].tags["Event"] == "Worked example: one hand under the charter"
    monkeypatch.undo()
    with pytest.raises(gj.NotationError) as e:  # line 30 of the hand, as gouji validate says
        got[3].record()
    assert e.value.code == "bad-card" and e.value.line == got[3].line + 29 and e.value.hand == 4


def test_a_hand_whose_tags_do_not_read_is_reported_and_the_next_read():
    good = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
    got = _headers('[Event "a"]\n[Event "b"]\nplay 1:55\n' + good)
    assert [(h.index, h.problem and h.problem.code) for h in got] == [(1, "duplicate-tag"), (2, None)]
    # docs/notation.md §3.1: a tag may appear once per hand; the error stands at the second name
    assert (got[0].problem.line, got[0].problem.column, got[0].problem.file) == (2, 2, "t.gjn")
    assert got[1].line == 4 and got[1].tags["Result"] == "5-6-1-4-3-2"


def test_a_missing_required_tag_is_the_readers_error():
    [h] = _headers('[Event "a"]\nplay 1:55\n')
    assert h.problem.code == "missing-tag" and "missing tag [Site" in str(h.problem)


def test_a_bad_byte_among_the_tags_is_an_error_and_after_them_is_not():
    good = (EXAMPLES / "charter-hand.gjn").read_bytes()
    in_tags = good.replace(b"Zhang Wei", b"Zhang \xff")
    in_play = good.replace(b"{Seats 1 3 5", b"{Seats \xff 3 5")
    [h] = gj.read_headers("x.gjn", io.BytesIO(in_tags))
    assert h.problem.code == "encoding" and h.problem.line == 7
    [h] = gj.read_headers("x.gjn", io.BytesIO(in_play))
    assert h.problem is None and h.tags["Seat1"] == "Zhang Wei"


def test_white_space_is_no_hand_and_an_unreadable_file_raises(tmp_path):
    assert _headers("\n  \n") == []
    with pytest.raises(gj.NotationError) as e:
        list(gj.read_headers(str(tmp_path / "none.gjn")))
    assert e.value.code == "unreadable" and e.value.file == str(tmp_path / "none.gjn")


def test_another_encoding():
    text = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8").replace("Zhang Wei", "张伟")
    [h] = gj.read_headers("x.gjn", io.BytesIO(text.encode("gb18030")), encoding="gb18030")
    assert h.tags["Seat1"] == "张伟" and h.problem is None
