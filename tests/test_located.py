"""Where a problem with an action is reported: its first character, a ``^`` included (issue 31).

One table: each kind of action (play, burn, pass, yield, ``wind``, ``claim``, annotated, with a
full-width colon, a round number; pre-play transfers, purchases, gifts, declarations, calls,
shows and draws), plain and marked ``^`` where the notation allows it, broken in
examples/charter-hand.gjn so that the engine refuses it (a diagnostic) or rules on it (a
ruling, for ``^``). The column reported must be the column of the action's first character in
the file, whichever reader read it (the grammar, or the fast scanner when it takes the layout).
``^2:QQQQ`` at column 38 was reported at column 39.
"""

from __future__ import annotations

import pytest
from conftest import EXAMPLES

from gouji_record.judging.replay import replay
from gouji_record.judging.report import diagnostic_problem, rulings
from gouji_record.notation.grammar import lalr
from gouji_record.notation.scanner import scan

HAND = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
ANSWER = "4:JJJJJ {Seat 4"  # round 1, line 27: seat 4 answers seat 1's 1:TTTTT
PLAY = "\nplay\n"

# (what, the text replaced, its replacement, the action's text, the code expected, a ruling?)
# The codes, worked out from the example: seat 1 leads TTTTT, a 够级 play, so only its opposite,
# seat 4, may answer (002 §9): a play, pass or request by seat 2 or 3 there is
# gouji-not-opposite; seat 2 holds no five jacks (not-in-hand); a yield on a 够级 play is not
# allowed (002 §13); seat 2 may not claim out of turn (not-your-turn). In the pre-play section
# of a first hand: seat 2 holds a 2 (no revolution, 002 §23), no big joker to give; nobody buys
# or gifts without a hand before; seat 2 holds no 4s to show; a seat draws once; a seat calls once.
TABLE = [
    ("play", ANSWER, "3:QQQQQ {Seat 4", "3:QQQQQ", "gouji-not-opposite", False),
    ("play ^", ANSWER, "^3:QQQQQ " + ANSWER, "^3:QQQQQ", "gouji-not-opposite", True),
    ("play ^, full-width colon", ANSWER, "^3：QQQQQ " + ANSWER, "^3：QQQQQ", "gouji-not-opposite", True),
    ("play, annotated", ANSWER, "3:QQQQQ!? $3 {Seat 4", "3:QQQQQ!?", "gouji-not-opposite", False),
    ("play ^, annotated", ANSWER, "^3:QQQQQ!? $3 " + ANSWER, "^3:QQQQQ!?", "gouji-not-opposite", True),
    ("burn", ANSWER, "2:*JJJJJ {Seat 4", "2:*JJJJJ", "not-in-hand", False),
    ("burn ^", ANSWER, "^2:*JJJJJ " + ANSWER, "^2:*JJJJJ", "not-in-hand", True),
    ("pass", ANSWER, "2:- {Seat 4", "2:-", "gouji-not-opposite", False),
    ("pass ^", ANSWER, "^2:- " + ANSWER, "^2:-", "gouji-not-opposite", True),
    ("yield", ANSWER, "4:~ {Seat 4", "4:~", "yield-not-allowed", False),
    ("yield ^", ANSWER, "^4:~ 4:- {Seat 4", "^4:~", "yield-not-allowed", True),
    ("wind", ANSWER, "2:wind {Seat 4", "2:wind", "gouji-not-opposite", False),
    ("wind ^", ANSWER, "^2:wind " + ANSWER, "^2:wind", "gouji-not-opposite", True),
    ("claim", ANSWER, "2:claim {Seat 4", "2:claim", "not-your-turn", False),
    ("claim ^", ANSWER, "^2:claim " + ANSWER, "^2:claim", "not-your-turn", True),
    ("round number", "\n2. 4:3333", "\n3. 4:3333", "3. 4:3333", "round-mismatch", False),
    ("transfer", PLAY, "\npreplay\n2>5:D" + PLAY, "2>5:D", "not-in-hand", False),
    ("declaration", PLAY, "\npreplay\n2:revolt" + PLAY, "2:revolt", "revolution-not-allowed", False),
    ("purchase", PLAY, "\npreplay\nbuy 1>4:2 4>1:3" + PLAY, "1>4:2", "buy-not-allowed", False),
    ("gift", PLAY, "\npreplay\ngift 3>6:4" + PLAY, "3>6:4", "buy-not-allowed", False),
    ("show", PLAY, "\npreplay\n2:show h4444" + PLAY, "2:show", "show-wrong", False),
    ("draw", PLAY, "\npreplay\n2:draw h7 2:draw h8" + PLAY, "2:draw h8", "draw-wrong", False),
    ("call", PLAY, "\npreplay\n6:宣点 6:明点" + PLAY, "6:明点", "call-not-allowed", False),
]


@pytest.mark.parametrize("what, old, new, written, code, ruled", TABLE, ids=[row[0] for row in TABLE])
def test_a_problem_is_reported_at_the_actions_first_character(what, old, new, written, code, ruled):
    text = HAND.replace(old, new, 1)
    assert new in text
    lines = text.split("\n")
    line = next(n for n, s in enumerate(lines, start=1) if written in s)
    column = lines[line - 1].index(written) + 1  # 1-based, the ^ included
    readers = {"grammar": lalr().parse(text), "scanner": scan(text)}  # (None: the scanner declined)
    assert readers["grammar"] is not None
    for reader, hands in readers.items():
        if hands is None:
            continue
        record, where = hands[0]
        result = replay(record)
        if ruled:
            [ruling] = [r for r in rulings(result, where) if r["code"] == code]
            assert (reader, ruling["line"], ruling["column"]) == (reader, line, column)
        else:
            problem = diagnostic_problem("f.gjn", result.diagnostic, where, lines)
            assert (reader, problem.code, problem.line, problem.column) == (reader, code, line, column)
