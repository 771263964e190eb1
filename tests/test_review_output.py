"""gouji review's output: decisions apart from states, the undecided folded, --kind, the summary
per seat and per player, and --annotate. Expected values are worked out by hand from the rules
and the cards, on the small deals of tests/test_review.py (every seat holds 33 plus the cards
named) and on examples/charter-hand.gjn (its deal and play are in the file, with comments).
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from conftest import BAD_CARD_HAND, EXAMPLES, ROOT
from test_review import hand, small

from gouji_record import parse, read
from gouji_record.analysis.review import (
    STATES,
    Summary,
    annotate,
    decisions,
    hand_tally,
    kinds_of,
    review,
    review_data,
    review_lines,
    strip_review,
)
from gouji_record.cli.main import main
from gouji_record.judging.replay import replay

EXAMPLE = EXAMPLES / "charter-hand.gjn"
#: A hand (the guide's friday.gjn, cut down) whose deal gives only seat 1's tens, seat 2's jacks
#: and seat 4's queens: seat 1 leads TTTTT, its opposite seat 4 passes.
HIDDEN = """[Event "Friday"]
[Site "Qingdao"]
[Date "2026.11.27"]
[Round "?"]
[Ruleset "charter"]
[Seat1 "Zhang"]
[Seat2 "Wang"]
[Seat3 "Li"]
[Seat4 "Zhao"]
[Seat5 "Liu"]
[Seat6 "Chen"]
[Result "*"]

deal
1: TTTTT ?31
2: JJJJJ ?31
3: -
4: QQQQQ ?31
5: -
6: -

play
1. 1:TTTTT 4:-
"""
#: The forced hand of tests/test_review.py's rollouts: seat 1 TTTTT 33, seat 4 JJJJJ 33, the
#: others 33; after 1:TTTTT 4:- every seat plays out its 33s in turn, seat 4 its jacks too.
FORCED = (
    "1:TTTTT 4:- 1:33 2:- 3:- 4:- 5:- 6:- 2:33 3:- 4:- 5:- 6:- 3:33 4:- 5:- 6:- 4:JJJJJ 5:- 6:- 4:33 5:- 6:- 5:33"
)


def run(*args):
    return CliRunner().invoke(main, [*map(str, args)])


def _forced():
    deal = {1: "TTTTT", 4: "JJJJJ"}
    return replay(small(tuple(deal.get(s, "") + "33" for s in range(1, 7)), FORCED, "charter"))


# --- decisions and states ------------------------------------------------------------------


def test_states_are_not_decisions_and_come_after_them_on_one_line():
    # 003 (the fours text) holds 3s for last. Seat 1 leads 55 and keeps only 33: a state
    # (threes-only); seat 2 beats it with 66 and keeps only 33 (threes-only), and seat 1, beaten,
    # is smothered (闷). No decision of anyone is in question: no finding line, one states line.
    done = hand({1: "55", 2: "66"}, "1:55 2:66", "fours")
    assert {f.kind for f in done.findings} == STATES == {"threes-only", "smothered"}
    assert not any(f.decision for f in done.findings)
    lines = review_lines(done, "f.gjn", 1)
    assert lines[0] == "f.gjn: hand 1 (review test): 2 actions under fours, 3 findings"
    assert lines[1] == "  states 局面: seat 1 threes-only 只剩3 at action 1, smothered 被闷 at action 2; seat 2 threes-only 只剩3 at action 2"
    # each seat made one decision: its play (seats 3 to 6 made none)
    assert lines[2] == "  seat 1 (p1): 1 decision, 0 missed (0.0 per 100); threes-only 只剩3 1, smothered 被闷 1"
    assert lines[4] == "  seat 3 (p3): 0 decisions, 0 missed"
    data = review_data(done, "f.gjn", 1)
    assert [(f["kind"], f["decision"], f["missed"]) for f in data["findings"]] == [
        ("threes-only", False, False),
        ("threes-only", False, False),
        ("smothered", False, False),
    ]


def test_kind_states_prints_each_state_in_full():
    done = hand({1: "55", 2: "66"}, "1:55 2:66", "fours")
    lines = review_lines(done, "f.gjn", 1, kinds=kinds_of(["states"]))
    assert lines[1:4] == [
        "f.gjn: action 1, seat 1 (p1): threes-only 只剩3: seat 1 holds only 3s now (憋三): if 55 is beaten, it is smothered (闷)",
        "f.gjn: action 2, seat 2 (p2): threes-only 只剩3: seat 2 holds only 3s now (憋三): if 66 is beaten, it is smothered (闷)",
        "f.gjn: action 2, seat 1 (p1): smothered 被闷: seat 1 is smothered (闷) by seat 2's 66: its 3s can no longer be played",
    ]
    # decisions alone: none of them here
    assert review_lines(done, "f.gjn", 1, kinds=kinds_of(["decisions"]))[0].endswith(", 0 findings")


def test_a_missed_answer_is_a_decision_and_a_chance_missed():
    # 002 §9: only seat 4 may answer seat 1's TTTTT, and its JJJJJ beats it (002 §8(6)).
    done = hand({1: "TTTTT", 4: "JJJJJ"}, "1:TTTTT 4:-")
    f = next(f for f in done.findings if f.kind == "answer-missed")
    assert f.decision and f.missed and f.as_dict()["decision"] is True


def test_kinds_of_names_and_groups():
    assert kinds_of(["states"]) == {"threes-only", "smothered"}
    assert "undecided" in kinds_of(["decisions"]) and "smothered" not in kinds_of(["decisions"])
    with pytest.raises(ValueError, match="unknown kind 'burn'"):
        kinds_of(["burn"])


# --- the undecided, folded -------------------------------------------------------------------


def test_the_undecided_of_one_action_share_one_line():
    # seats 2, 3, 5 and 6 may burn TTTTT (002 §10: not its opposite, not its own seat), and
    # whether the burn condition holds for each rests on cards not written: four undecided
    # findings at action 2, one line in text; seat 4's answer with QQQQQ is a fact (its own line).
    deal = ("TTTTT?31", "JJJJJ?31", "?36", "QQQQQ?31", "?36", "?36")
    done = review(replay(small(deal, "1:TTTTT 4:-", "charter")))
    lines = review_lines(done, "f.gjn", 1)
    assert lines[0].endswith("5 findings")
    assert lines[2].startswith("f.gjn: action 2, seat 4 (p4): answer-missed 未打点")
    assert lines[3] == (
        "f.gjn: action 2, seats 2, 3, 5, 6: undecided 暗牌未定: whether seats 2, 3, 5, 6 could have burned seat 1's "
        "TTTTT depends on cards the record does not give (to burn with, or to keep the burn condition)"
    )
    assert lines[4].startswith("  seat 1 (p1):")
    # JSON keeps one object per finding (the kind says which are undecided)
    data = review_data(done, "f.gjn", 1)
    assert [(f["kind"], f["seat"]) for f in data["findings"]][1:] == [("undecided", s) for s in (2, 3, 5, 6)]


def test_undecided_burns_and_an_undecided_answer_fold_together():
    # Nothing of seat 4's cards is written: whether it could answer TTTTT is undecided too. One
    # line for the action, naming all five seats, each question said once.
    deal = ("TTTTT?31", "?36", "?36", "?36", "?36", "?36")
    done = review(replay(small(deal, "1:TTTTT 4:-", "charter")))
    assert sorted(f.seat for f in done.findings if f.kind == "undecided") == [2, 3, 4, 5, 6]
    [line] = [x for x in review_lines(done, "f.gjn", 1) if x.startswith("f.gjn: action")]
    assert line.startswith("f.gjn: action 2, seats 2, 3, 4, 5, 6: undecided 暗牌未定: ")
    assert "whether seats 2, 3, 5, 6 could have burned seat 1's TTTTT" in line
    assert "whether seat 4 could have answered TTTTT depends on cards the record does not give" in line


# --- decisions counted, the summary ----------------------------------------------------------


def test_decisions_are_the_actions_each_seat_made():
    # FORCED, counted on paper: seat 1 1:TTTTT 1:33; seat 2 2:- 2:33; seat 3 3:- 3:- 3:33;
    # seat 4 four passes, 4:JJJJJ, 4:33; seat 5 five passes and 5:33; seat 6 five passes.
    result = _forced()
    assert decisions(result) == (2, 2, 3, 6, 6, 5)
    # seat 4 missed one answer (JJJJJ on TTTTT, 002 §9): 1 of 6 decisions, 16.7 per 100
    t = hand_tally(review(result), kinds=kinds_of(["answer-missed"]))[3]
    assert (t.seat, t.player, t.decisions, t.kinds, t.missed) == (4, "p4", 6, (("answer-missed", 1),), 1)


def test_an_irregular_action_not_made_is_no_decision():
    # ^2:JJJJJ on seat 1's 够级 TTTTT: seat 2 is not its opposite and may not answer (002 §9);
    # it is not made (错牌不出), and seat 2 was not to act: it did nothing. Seat 4 then passes.
    result = replay(small(("TTTTT33", "JJJJJ33", "33", "33", "33", "33"), "1:TTTTT ^2:JJJJJ 4:-", "charter"))
    assert decisions(result) == (1, 0, 0, 1, 0, 0)


def test_summary_adds_each_players_hands():
    done = review(_forced())
    summary = Summary()
    for _ in range(3):
        summary.add(hand_tally(done, kinds=kinds_of(["answer-missed"])))
    p4 = summary.players["p4"]
    assert (summary.hands, p4.hands, p4.decisions, p4.missed, p4.kinds, p4.per_100) == (3, 3, 18, 3, {"answer-missed": 3}, 16.7)
    assert summary.lines()[4] == "  p4: 3 hands, 18 decisions, 3 missed (16.7 per 100); answer-missed 未打点 3"
    assert summary.as_dict()["summary"]["players"][0] == {
        "player": "p1", "hands": 3, "decisions": 6, "missed": 0, "per_100": 0.0, "kinds": {}
    }  # fmt: skip
    assert len(summary.players) == 6  # one tally a player: the hands are not kept


def test_cli_summary_over_two_hands_per_player():
    # Seat 4 (Zhao Lei) of examples/charter-hand.gjn acts 12 times (4:JJJJJ, 4:3333, 4:9999,
    # 4:QQQQ, passes in rounds 6, 8, 9, 11, 12, 13, 4:KKKKKK, 4:AAAAAAAAAAAAA) and misses one
    # answer (action 49: AAAAAA on seat 1's KKKKKK). The file twice: 24 decisions, 2 missed.
    r = run("review", EXAMPLE, EXAMPLE, "--seat", "4", "--summary")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[2] == "  seat 4 (Zhao Lei): 12 decisions, 1 missed (8.3 per 100); answer-missed 未打点 1"
    assert lines[-2:] == [
        "summary over 2 hands reviewed (汇总), per player:",
        "  Zhao Lei: 2 hands, 24 decisions, 2 missed (8.3 per 100); answer-missed 未打点 2",
    ]
    r = run("review", EXAMPLE, EXAMPLE, "--seat", "4", "--summary", "--format", "json")
    *hands, last = [json.loads(x) for x in r.output.splitlines()]
    assert hands[0]["summary"] == [
        {"seat": 4, "player": "Zhao Lei", "decisions": 12, "missed": 1, "per_100": 8.3, "kinds": {"answer-missed": 1}}
    ]
    assert last == {
        "summary": {
            "hands": 2,
            "players": [{"player": "Zhao Lei", "hands": 2, "decisions": 24, "missed": 2, "per_100": 8.3, "kinds": {"answer-missed": 2}}],
        }
    }


def test_cli_kind():
    # examples/charter-hand.gjn has one yield (3:~ at action 39, round 9): --kind yield-taken
    # shows it alone
    r = run("review", EXAMPLE, "--kind", "yield-taken")
    lines = r.output.splitlines()
    assert lines[0].endswith(", 1 finding") and lines[1].startswith(f"{EXAMPLE}:46:19: action 39, seat 3 (Li Na): yield-taken 让牌")
    r = run("review", EXAMPLE, "--kind", "burn")
    assert r.exit_code == 2 and "Invalid value for '--kind'" in r.output


def test_help_says_what_undecided_is_and_how_to_have_fewer():
    r = run("review", "--help")
    text = " ".join(r.output.split())
    # issue 31: the help named "undecided" without saying what it is: a question the unknown
    # cards (?N) decide, counted neither as a chance missed nor as none; fewer by writing the deal
    assert "Undecided (暗牌未定): whether a seat could have burned, answered or opened" in text
    assert "depends on cards the deal does not give (?N)" in text
    assert "counts neither as a chance missed nor as none" in text
    assert "To get fewer, write the deal: those seats' cards in place of ?N" in text
    assert "a record with the whole deal has none" in text


def test_the_guide_says_what_undecided_is_and_how_to_have_fewer():
    guide = " ".join((ROOT / "docs" / "guide.md").read_text(encoding="utf-8").split())
    assert "**Undecided** (`undecided 暗牌未定`) means: whether a seat could have burned" in guide
    assert "counted neither as a chance missed nor as none" in guide
    assert "To get fewer, write the deal" in guide


# --- annotate ----------------------------------------------------------------------------------


def _annotated(tmp_path, *args, source=EXAMPLE):
    out = tmp_path / "out.gjn"
    r = run("review", "--annotate", source, "-o", out, *args)
    return r, out


def test_annotate_writes_the_findings_at_their_actions(tmp_path):
    r, out = _annotated(tmp_path)
    assert r.exit_code == 0, r.output
    [original], [annotated] = read(EXAMPLE), read(out)
    # reading back: the same record once the review's comments (and its ?!) are taken out
    assert strip_review(annotated) == original
    acts = annotated.actions
    # action 3, 1:- on seat 4's JJJJJ: seat 1 held KKKKKK, KKKKK answered (002 §9): its own
    # chance missed, so ?! (no glyph was written there); seat 1's comment from the file stays first
    assert acts[2].text == "1:-" and acts[2].glyph == "?!"
    assert acts[2].comments[0] == original.actions[2].comments[0]
    assert "review (?!): answer-missed 未打点: seat 1 could have answered (打点) its opposite's gouji play (够级) JJJJJ with KKKKK; it passed" in acts[2].comments
    # action 49, 4:- on seat 1's KKKKKK: seat 4 held AAAAAA
    assert acts[48].text == "4:-" and acts[48].glyph == "?!"
    assert any(c.startswith("review (?!): answer-missed 未打点: seat 4 could have answered") for c in acts[48].comments)
    # action 39, the yield: a fact about a decision, no chance missed: a comment, no glyph
    assert acts[38].text == "3:~" and acts[38].glyph is None
    assert "review: yield-taken 让牌: seat 3 yields (让牌) on its opposite's 9999 to the next two seats" in acts[38].comments


def test_annotated_file_is_canonical_validates_alike_and_annotates_to_itself(tmp_path):
    r, out = _annotated(tmp_path)
    assert run("fmt", "--check", out).exit_code == 0  # fmt keeps the comments: nothing to change
    assert run("fmt", out).output == out.read_text(encoding="utf-8")
    a = json.loads(run("validate", "--format", "json", EXAMPLE).output)
    b = json.loads(run("validate", "--format", "json", out).output)
    a.pop("file"), b.pop("file")
    assert a == b and a["valid"]
    again = tmp_path / "again.gjn"
    assert run("review", "--annotate", out, "-o", again).exit_code == 0
    assert again.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")


def test_annotating_again_replaces_the_old_review_comments(tmp_path):
    r, out = _annotated(tmp_path)
    again = tmp_path / "yields.gjn"
    assert run("review", "--annotate", out, "--kind", "yield-taken", "-o", again).exit_code == 0
    [record] = read(again)
    noted = [i for i, a in enumerate(record.actions) if any(c.startswith("review") for c in a.comments)]
    assert noted == [38]  # the yield's alone
    assert all(a.glyph is None for a in record.actions)  # the example writes no glyph; ours are gone


def test_a_glyph_written_by_hand_is_kept(tmp_path):
    source = tmp_path / "marked.gjn"
    source.write_text(EXAMPLE.read_text(encoding="utf-8").replace("   1:- {Seat 1 has", "   1:-? {Seat 1 has"), encoding="utf-8")
    [original] = read(source)
    assert original.actions[2].glyph == "?"
    r, out = _annotated(tmp_path, source=source)
    [annotated] = read(out)
    assert annotated.actions[2].glyph == "?"
    assert any(c.startswith("review: answer-missed 未打点: seat 1") for c in annotated.actions[2].comments)
    assert strip_review(annotated) == original


def test_annotate_a_hand_with_hidden_cards(tmp_path):
    source = tmp_path / "friday.gjn"
    source.write_text(HIDDEN, encoding="utf-8")
    r, out = _annotated(tmp_path, source=source)
    assert r.exit_code == 0, r.output
    [record] = read(out)
    assert record.comment == (
        "review: seats 1, 2, 3, 4, 5, 6 hold cards the record does not give (?N): what they could have done is "
        "reviewed only where the written cards decide it",
    )
    # 4:-, action 2: seat 4's QQQQQ answered TTTTT (a fact: nothing it keeps is in question); the
    # burns of seats 2, 3, 5, 6 are undecided, in one comment
    assert record.actions[1].glyph == "?!"
    assert record.actions[1].comments == (
        "review (?!): answer-missed 未打点: seat 4 could have answered (打点) its opposite's gouji play (够级) TTTTT with QQQQQ; it passed",
        "review: undecided 暗牌未定: whether seats 2, 3, 5, 6 could have burned seat 1's TTTTT depends on cards the "
        "record does not give (to burn with, or to keep the burn condition)",
    )
    assert strip_review(record) == parse(HIDDEN)[0]


def test_annotate_in_place_and_never_the_input_otherwise(tmp_path):
    copy = tmp_path / "copy.gjn"
    copy.write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    r = run("review", "--annotate", copy, "-o", copy)
    assert r.exit_code == 2 and "is an input file" in r.output
    assert copy.read_text(encoding="utf-8") == EXAMPLE.read_text(encoding="utf-8")
    r, out = _annotated(tmp_path, source=copy)
    assert run("review", "--annotate", "--in-place", copy).exit_code == 0
    assert copy.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")
    for args, says in (
        (["--in-place", copy], "--in-place goes with --annotate"),
        (["--annotate", "--format", "json", copy], "--format json goes without it"),
        (["--annotate", "--in-place", "-"], "standard input (-) cannot be rewritten"),
    ):
        r = run("review", *args)
        assert r.exit_code == 2 and says in r.output, r.output


def test_annotate_leaves_out_a_file_it_cannot_read(tmp_path):
    bad = tmp_path / "bad.gjn"
    bad.write_text(BAD_CARD_HAND, encoding="utf-8")
    out = tmp_path / "out.gjn"
    r = run("review", "--annotate", EXAMPLE, bad, "-o", out)
    assert r.exit_code == 2 and "Traceback" not in r.output and f"{bad}:30:8: error[bad-card]" in r.output
    assert not out.exists()


def test_annotate_a_match_keeps_every_hand_and_its_verdict(tmp_path):
    source = EXAMPLES / "online-match.gjn"
    r, out = _annotated(tmp_path, source=source)
    original, annotated = read(source), read(out)
    assert len(annotated) == len(original) and [strip_review(a) for a in annotated] == original
    verdicts = [json.loads(x) for x in run("validate", "--format", "json", source).output.splitlines()]
    again = [json.loads(x) for x in run("validate", "--format", "json", out).output.splitlines()]
    assert [v["valid"] for v in verdicts] == [v["valid"] for v in again]
    # --hand 2: hand 2 annotated, the others written as read
    r, out = _annotated(tmp_path, "--hand", "2", source=source)
    hands = read(out)
    assert hands[0] == original[0] and hands[2] == original[2]


def test_annotate_is_the_review_of_the_record_as_given():
    # annotate() on a record already annotated writes the same comments once
    done = review(replay(parse(HIDDEN)[0]))
    once = annotate(done)
    twice = annotate(review(replay(once)))
    assert twice == once
