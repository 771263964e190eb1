"""Malformed .gjn input: every case gives a located, plain-worded error, never a traceback.

Each case is a small edit of BASE (a frozen copy of examples/charter-hand.gjn, so the line
numbers here do not move when the example changes), with the error a user should get: the code,
the line and column (1-based, counted by hand from the text, a CJK character counting one
column), and a key phrase of the message. Cases are checked three ways:

- ``parse_text`` raises ``NotationError`` with that code, line, column and phrase (for the
  cases the parser itself must reject);
- ``gouji validate FILE`` exits 2 and its first line is ``FILE:LINE:COL: error[CODE]: …``;
- the next two lines show the offending source line and a caret under the column.

No message may name a grammar terminal (``SEAT``, ``CARDS``, ``LSQB``, ``PREPLAY`` …): users
read words, not Lark token names. Cases where the project gets it wrong today are marked
``xfail(strict=True)`` with the reason, and keep the value a user should get.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from click.testing import CliRunner

from gouji_record.cli.main import main
from gouji_record.judging.report import printable
from gouji_record.notation.build import NotationError
from gouji_record.notation.grammar import grammar_text
from gouji_record.notation.parser import parse_text
from gouji_record.width import columns

BASE = """\
[Event "Worked example: one hand under the charter"]
[Site "Qingdao"]
[Date "2026.11.29"]
[Round "?"]
[Ruleset "charter"]
[Seat1 "Zhang Wei"]
[Seat2 "Wang Fang"]
[Seat3 "Li Na"]
[Seat4 "Zhao Lei"]
[Seat5 "Liu Yang"]
[Seat6 "Chen Jing"]
[Result "5-6-1-4-3-2"]
[Annotator "gouji-record developers"]

deal
1: KKKKKKJJJJJJJJJTTTTT6666444444444444
2: 2222KKJJ9999999977777777666666553333
3: DDDX222222222222QQQQQQQQQQQQ88888888
4: AAAAAAAAAAAAAKKKKKKQQQQJJJJJ99993333
5: DXXXKK888888887777777755555555554444
6: AAATTTTTTTTTTT9999666666555533333333

play
{Seats 1 3 5 play against seats 2 4 6; opposites are 1-4, 2-5, 3-6.}
1. 1:TTTTT {Five tens: the smallest gouji play (够级). Only seat 4, the
   opposite, may answer it.} 4:JJJJJ {Seat 4 answers with five jacks (打点).}
   1:- {Seat 1 has nothing bigger. Seat 4's gouji play stands: seat 4 wins the
   lead with a gouji play and opens (开点).}
2. 4:3333 5:4444 6:5555 1:6666 2:7777 3:8888 4:9999 5:- 6:- 1:- 2:- 3:-
3. 4:QQQQ {Four queens, a gouji play aimed at seat 1.} 5:*XXKK {Seat 5 burns it
   (烧牌) before seat 1 can answer: two small jokers carrying two kings. Left
   with X, D, eight 7s, eight 8s and ten 5s, seat 5 can carry a joker in every
   play but the last: the burn condition holds.} 2:- {Only seat 2, seat 5's
   opposite, may answer; it passes, so seat 5 wins the lead and opens.}
4. 5:X77777777 2:-
5. 5:D88888888 {A play carrying a big joker is dead (死牌): the round closes at
   once.}
6. 5:5555555555 {Seat 5's last play needs no joker: seat 5 takes 1st place
   (头科) and the burn succeeds (烧成功). Seat 2 is now headless (无头).} 6:-
   1:- 2:- 3:- 4:- {Nobody beats the last play: seat 6, next in turn, takes the
   wind (接风) and leads.}
7. 6:AAA {A gouji play aimed at seat 3; headless seat 2 may answer it too.} 2:-
   3:- {Seat 6 opens.}
8. 6:33333333 1:- 2:- 3:- 4:-
9. 6:9999 1:- 2:- 3:~ {Seat 3 yields (让牌) on its opposite's play to seats 4
   and 5; seat 5 has finished.} 4:- 3:- {The turn comes back to seat 3, who
   passes.}
10. 6:TTTTTTTTTTT 2:- 3:-
11. 6:666666 {Seat 6 takes 2nd place (二科); seat 3 is headless. With 1st and
   2nd place taken the four-way melee (四户乱缠) begins at once: no more gouji
   plays, passing no longer bars.} 1:KKKKKK {Six kings would be a gouji play,
   but not in the melee: anyone may answer them in turn.} 2:- 3:- 4:-
12. 1:444444444444 2:- 3:- 4:-
13. 1:JJJJJJJJJ {Seat 1 takes 3rd place; seat 4 is headless.} 2:- 3:- 4:- {Seat
   2 takes the wind.}
14. 2:999999 3:QQQQQQ 4:KKKKKK 2:- 3:-
15. 4:AAAAAAAAAAAAA {Seat 4 takes 4th place.} 2:- 3:- {Seat 2 takes the wind
   again.}
16. 2:3333 3:8888 2:-
17. 3:DDDX222222222222QQQQQQ {Seat 3 plays out and takes 5th place (二落); seat
   2 is left holding cards: 6th place (大落).}
"""

#: Lines of BASE, 1-based: 1 [Event, 2 [Site, 3 [Date, 4 [Round, 5 [Ruleset, 6-11 [Seat1-6,
#: 12 [Result, 13 [Annotator, 14 blank, 15 deal, 16-21 seats 1-6, 22 blank, 23 play,
#: 24 {Seats …}, 25 "1. 1:TTTTT …", 29 "2. 4:3333 …", 30 "3. 4:QQQQ …", 60 "17. 3:DDDX…", 61 last.
assert BASE.count("\n") == 61 and BASE.endswith("(大落).}\n")


def edit(old: str, new: str, text: str = BASE) -> str:
    """``text`` with the one occurrence of ``old`` replaced by ``new``."""
    assert text.count(old) == 1, old
    return text.replace(old, new)


#: Every terminal name of the grammar, named or anonymous: none may appear in a message.
TERMINALS = set(re.findall(r"^([A-Z_]+)\s*:", grammar_text(), re.M)) | {
    "LSQB",
    "RSQB",
    "DEAL",
    "PLAY",
    "PREPLAY",
    "$END",
    "WS",
}
_TERMINAL_WORD = re.compile(
    r"(?<![A-Za-z0-9_$])(" + "|".join(re.escape(t) for t in sorted(TERMINALS)) + r")(?![A-Za-z0-9_])"
)


def token_names(message: str) -> list[str]:
    return _TERMINAL_WORD.findall(message)


def plain(message: str) -> bool:
    """A message in words: no grammar terminal names, no chunk of the file with its line breaks."""
    assert not token_names(message), message
    assert "\\n" not in message, message
    return True


@dataclass
class Case:
    id: str
    data: str | bytes
    code: str
    line: int
    column: int
    phrase: str
    #: Whether ``parse_text`` itself must reject the text (False: only the CLI can, e.g. bytes
    #: that are not UTF-8, an unknown ruleset, an empty file).
    parser: bool = True
    #: Whether there is a source line to show under the error.
    caret: bool = True
    #: The encoding that line is shown in: a line that is not UTF-8 but reads as GB18030 is quoted
    #: as GB18030 text, not as U+FFFD (issue 15).
    quoted_as: str = "utf-8"
    #: Known bugs: reason per check ("parse", "cli", "caret"), or "all".
    bugs: dict[str, str] = field(default_factory=dict)

    def bug(self, check: str) -> str | None:
        return self.bugs.get(check) or self.bugs.get("all")


LEAK = "the message names Lark terminals ({}) instead of saying what is expected in words"


def leak(names: str, more: str = "") -> dict[str, str]:
    """A message that names terminals: the words are wrong, the place is right."""
    reason = LEAK.format(names) + more
    return {"parse": reason, "cli": reason}


NO_CARET = "encoding errors show no source line and caret (the bytes before the bad one decode fine)"

CASES = [
    # -- tags ------------------------------------------------------------------------------
    Case("tag-missing-site", edit('[Site "Qingdao"]\n', ""), "missing-tag", 1, 2, 'missing tag [Site "…"]'),
    Case("tag-missing-result", edit('[Result "5-6-1-4-3-2"]\n', ""), "missing-tag", 1, 2, "missing tag [Result"),
    Case(
        "tag-missing-in-second-hand",
        BASE + "\n" + edit('[Seat3 "Li Na"]\n', ""),
        "missing-tag",
        63,
        2,
        "missing tag [Seat3",
    ),
    Case(
        "tag-duplicate",
        edit('[Annotator "gouji-record developers"]\n', '[Annotator "gouji-record developers"]\n[Site "Again"]\n'),
        "duplicate-tag",
        14,
        2,
        "tag Site is given twice",
    ),
    Case("tag-value-unterminated", edit('[Site "Qingdao"]', '[Site "Qingdao]'), "syntax", 2, 7, "tag value not closed"),
    Case(
        "tag-value-broken-by-newline",
        edit('"Worked example: one', '"Worked example:\none'),
        "syntax",
        1,
        8,
        "tag value not closed",
        bugs={
            "cli": "validate cuts the file into hands at the next '[' line, so the broken value also gives a "
            "spurious second error, 'missing tag [Event' at 3:2"
        },
    ),
    Case("tag-name-starts-with-digit", edit("[Site ", "[1Site "), "syntax", 2, 2, "a tag name"),
    Case("tag-name-with-dash", edit("[Site ", "[Si-te "), "syntax", 2, 4, "a quoted value"),
    Case("tag-value-unquoted", edit('[Site "Qingdao"]', "[Site Qingdao]"), "syntax", 2, 7, "a quoted value"),
    Case(
        "tag-missing-close-bracket",
        edit('[Site "Qingdao"]', '[Site "Qingdao"'),
        "syntax",
        2,
        16,
        "']' closing the tag",
        bugs={
            "all": "reported at the next line's '[' (3:1), not where the ']' is missing: the end of "
            "line 2, just after the value"
        },
    ),
    Case("date-day-first", edit("2026.11.29", "29.11.2026"), "bad-date", 3, 2, "YYYY.MM.DD"),
    Case("date-words", edit("2026.11.29", "last Sunday"), "bad-date", 3, 2, "YYYY.MM.DD"),
    Case(
        "date-month-13",
        edit("2026.11.29", "2026.13.45"),
        "bad-date",
        3,
        2,
        "YYYY.MM.DD",
        bugs={"all": "month 13, day 45 is accepted: any two digits pass as MM and DD"},
    ),
    Case("result-five-seats", edit('"5-6-1-4-3-2"', '"5-6-1-4-3"'), "bad-result", 12, 2, "six seats"),
    Case("result-seat-twice", edit('"5-6-1-4-3-2"', '"5-6-1-4-3-3"'), "bad-result", 12, 2, "six seats"),
    Case("result-seat-7", edit('"5-6-1-4-3-2"', '"5-6-1-4-3-7"'), "bad-result", 12, 2, "six seats"),
    Case(
        "score-not-two-numbers",
        edit("\n\ndeal\n", '\n[Score "2:0"]\n\ndeal\n'),
        "bad-score",
        14,
        2,
        "Score '2:0'",
    ),
    Case(
        "ruleset-unknown",
        edit('"charter"]', '"charterr"]'),
        "unknown-ruleset",
        5,
        2,
        "unknown ruleset 'charterr'",
        parser=False,
    ),
    Case(
        "options-unknown-name",
        edit("\n\ndeal\n", '\n[Options "threes-lats=yes"]\n\ndeal\n'),
        "bad-option",
        14,
        2,
        "unknown option 'threes-lats'",
        parser=False,
    ),
    Case(
        "options-bad-switch",
        edit("\n\ndeal\n", '\n[Options "threes-held=maybe"]\n\ndeal\n'),
        "bad-option",
        14,
        2,
        "is not yes or no",
        parser=False,
    ),
    Case(
        "options-bad-choice",
        edit("\n\ndeal\n", '\n[Options "hand-end=sometimes"]\n\ndeal\n'),
        "bad-option",
        14,
        2,
        "one-left",
        parser=False,
    ),
    Case(
        "options-not-name-value",
        edit("\n\ndeal\n", '\n[Options "threes-held"]\n\ndeal\n'),
        "bad-option",
        14,
        2,
        "expected name=value",
        parser=False,
    ),
    Case(
        "stray-word-between-tags-and-deal",
        edit("\n\ndeal\n", "\n\nhello\ndeal\n"),
        "syntax",
        15,
        1,
        "unexpected 'hello'",
        bugs=leak("PREPLAY"),
    ),
    # -- the deal --------------------------------------------------------------------------
    Case(
        "deal-seat-6-missing",
        edit("6: AAATTTTTTTTTTT9999666666555533333333\n", ""),
        "deal-seat",
        20,
        1,
        "no cards to seat 6",
    ),
    Case(
        "deal-seat-twice",
        edit("6: AAATTTTTTTTTTT", "5: AAATTTTTTTTTTT"),
        "deal-seat",
        21,
        1,
        "seat 5 is dealt twice",
    ),
    Case(
        "deal-seat-0",
        edit("6: AAATTTTTTTTTTT", "0: AAATTTTTTTTTTT"),
        "syntax",
        21,
        1,
        "a seat 1-6",
        bugs=leak("UNKNOWN, PREPLAY"),
    ),
    Case(
        "deal-seat-7",
        edit("6: AAATTTTTTTTTTT", "7: AAATTTTTTTTTTT"),
        "syntax",
        21,
        1,
        "a seat 1-6",
        bugs=leak("UNKNOWN, PREPLAY"),
    ),
    Case(
        "deal-35-cards",
        edit("1: KKKKKKJJJJJJJJJTTTTT6666444444444444", "1: KKKKKKJJJJJJJJJTTTTT666644444444444"),
        "deal-size",
        16,
        4,
        "seat 1 is dealt 35 cards: expected 36",
    ),
    Case(
        "deal-37-cards",
        edit("1: KKKKKKJJJJJJJJJTTTTT6666444444444444", "1: KKKKKKJJJJJJJJJTTTTT66664444444444444"),
        "deal-size",
        16,
        4,
        "seat 1 is dealt 37 cards: expected 36",
    ),
    Case(
        "deal-37-with-unknown-cards",
        edit("1: KKKKKKJJJJJJJJJTTTTT6666444444444444", "1: KKKKKK ?31"),
        "deal-size",
        16,
        4,
        "seat 1 is dealt 37 cards",
    ),
    Case(
        "deal-unknown-letter-inside",
        edit("1: KKKKKKJJJJJJJJJTTTTT6666444444444444", "1: KKKKKKJJJJJJJJJTTTTT6666444444Z44444"),
        "bad-card",
        16,
        34,
        "'Z' is not a card",
    ),
    Case(
        "deal-unknown-letter-first",
        edit("1: KKKKKKJJJJJJJJJTTTTT6666444444444444", "1: ZKKKKKJJJJJJJJJTTTTT6666444444444444"),
        "bad-card",
        16,
        4,
        "'Z' is not a card",
        bugs=leak("UNKNOWN", "; a bad first card is a syntax error that quotes the whole 36-letter word"),
    ),
    Case(
        "deal-17-aces",
        edit("2: 2222KKJJ", "2: 2222AKJJ"),
        "deal-cards",
        21,
        1,
        "the deal has 17 cards A: four decks hold 16",
        bugs={
            "all": "located at the first tag ([Event, 1:2), not in the deal: it should point at the deal "
            "line that brings the aces over 16 (seat 6, 21:1)"
        },
    ),
    Case(
        "deal-seat-without-cards",
        edit("3: DDDX222222222222QQQQQQQQQQQQ88888888", "3:"),
        "syntax",
        19,
        1,
        "expected cards",
    ),
    Case(
        "deal-keyword-capitalised",
        edit("\ndeal\n", "\nDeal\n"),
        "syntax",
        15,
        1,
        "'deal'",
        bugs=leak("PREPLAY"),
    ),
    # -- the play section ------------------------------------------------------------------
    Case(
        "play-keyword-missing",
        edit("\nplay\n", "\n"),
        "syntax",
        23,
        1,
        "the play section ('play')",
        bugs=leak("UNKNOWN, PREPLAY"),
    ),
    Case(
        "play-section-missing-at-end",
        BASE[: BASE.index("\nplay\n") + 1],
        "syntax",
        21,
        40,
        "the play section ('play')",
        bugs=leak("UNKNOWN, PREPLAY"),
    ),
    Case("play-seat-without-cards", edit("5:4444 6:5555", "5: 6:5555"), "syntax", 29, 14, "expected cards"),
    Case(
        "play-seat-without-cards-before-round-number",
        edit("2:- 3:-\n3. 4:QQQQ", "2:- 3:\n3. 4:QQQQ"),
        "syntax",
        30,
        1,
        "expected cards",
        bugs={
            "all": "reported as bad-card \"'.' is not a card\" at 30:2: the round number '3.' is read as "
            "seat 3's cards; it should say cards are expected (at the round number, as for a seat)"
        },
    ),
    Case(
        "play-seat-without-cards-at-end",
        BASE.rstrip("\n") + " 4:\n",
        "syntax",
        61,
        48,
        "end of file",
        bugs=leak("WORD"),
    ),
    Case("play-unknown-letter", edit("3. 4:QQQQ", "3. 4:QQZQ"), "bad-card", 30, 8, "'Z' is not a card"),
    Case(
        "play-unknown-letter-first",
        edit("5:4444 6:5555", "5:Z444 6:5555"),
        "bad-card",
        29,
        13,
        "'Z' is not a card",
        bugs=leak("WORD", "; a bad first card is a syntax error, not bad-card"),
    ),
    Case(
        "play-unknown-letter-after-cjk",
        edit("(无头).} 6:-", "(无头).} 6:5Z"),
        "bad-card",
        39,
        71,
        "'Z' is not a card",
    ),
    Case("play-burn-without-cards", edit("5:4444 6:5555", "5:* 6:5555"), "syntax", 29, 15, "expected cards"),
    Case(
        "play-burn-without-cards-before-comment",
        edit("5:*XXKK {Seat 5", "5:* {Seat 5"),
        "syntax",
        30,
        60,
        "expected cards",
        bugs={
            k: "the one-line message quotes the whole four-line comment that follows, \\n escapes and all"
            for k in ("parse", "cli")
        },
    ),
    Case(
        "play-comment-not-closed",
        edit("3-6.}\n1. 1:TTTTT", "3-6.\n1. 1:TTTTT"),
        "syntax",
        24,
        1,
        "comment not closed",
    ),
    Case(
        "play-comment-not-closed-at-end",
        BASE[: -len("}\n")] + "\n",
        "syntax",
        60,
        30,
        "comment not closed",
    ),
    Case(
        "play-round-number-alone-at-end", BASE + "18.\n", "syntax", 62, 1, "a round number must stand before an action"
    ),
    Case("play-round-number-0", edit("\n1. 1:TTTTT", "\n0. 1:TTTTT"), "syntax", 25, 1, "round numbers start at 1"),
    Case(
        "play-round-number-twice",
        edit("\n2. 4:3333", "\n2. 2. 4:3333"),
        "syntax",
        29,
        1,
        "a round number must stand before an action",
        bugs={"all": "accepted silently: the first '2.' is dropped and the file validates (exit 0)"},
    ),
    Case(
        "play-stray-word",
        edit("4:3333 5:4444", "4:3333 hello 5:4444"),
        "syntax",
        29,
        11,
        "unexpected 'hello'",
        bugs=leak("IRREGULAR, NAG"),
    ),
    Case(
        "play-stray-punctuation",
        edit("4:3333 5:4444", "4:3333 % 5:4444"),
        "syntax",
        29,
        11,
        "unexpected '%'",
        bugs=leak("IRREGULAR, NAG"),
    ),
    Case(
        "play-seat-7",
        edit("4:3333 5:4444", "4:3333 7:4444"),
        "syntax",
        29,
        11,
        "a seat 1-6",
        bugs=leak("IRREGULAR, NAG"),
    ),
    Case(
        "play-glyph-alone",
        edit("\n1. 1:TTTTT", "\n1. !! 1:TTTTT"),
        "syntax",
        25,
        4,
        "unexpected '!!'",
        bugs=leak("IRREGULAR"),
    ),
    Case(
        "preplay-unknown-declaration",
        edit("\nplay\n", "\npreplay\n2:revolution\n\nplay\n"),
        "syntax",
        24,
        3,
        "revolt",
        bugs=leak("DECLARATION", ': the whole message is "expected DECLARATION"; it should list revolt, keep-head …'),
    ),
    Case(
        "crlf-line-ends-bad-card",
        edit("3. 4:QQQQ", "3. 4:QQZQ").replace("\n", "\r\n"),
        "bad-card",
        30,
        8,
        "'Z' is not a card",
    ),
    Case(
        "cr-line-ends-bad-card",
        edit("3. 4:QQQQ", "3. 4:QQZQ").replace("\n", "\r"),
        "bad-card",
        30,
        8,
        "'Z' is not a card",
    ),
    Case("bom-then-bad-tag-name", "\ufeff" + edit("[Event ", "[1Event "), "syntax", 1, 2, "a tag name"),
    # -- encodings and whole files ---------------------------------------------------------
    Case(
        "encoding-gb18030",
        BASE.encode("gb18030"),
        "encoding",
        25,
        49,
        "if the file is GB18030, read it with --encoding gb18030",
        parser=False,
        quoted_as="gb18030",
        bugs={"caret": NO_CARET},
    ),
    Case(
        "encoding-latin-1",
        edit('"Qingdao"', '"Qingdao cafe"').encode("utf-8").replace(b"cafe", b"caf\xe9"),  # é in Latin-1
        "encoding",
        2,
        19,
        "not UTF-8",
        parser=False,
        bugs={"caret": NO_CARET},
    ),
    Case(
        "encoding-utf-16",
        BASE.encode("utf-16"),
        "encoding",
        1,
        1,
        "UTF-16",
        parser=False,
        bugs={
            "cli": "a UTF-16 file (with its byte-order mark FF FE) is called 'GB18030/GBK?'; it should "
            "say UTF-16 and to save as UTF-8",
            "caret": NO_CARET,
        },
    ),
    Case(  # a NUL anywhere means the file is not text: an encoding error at the byte
        "nul-byte-between-tokens",
        edit("\ndeal\n", "\n\x00deal\n"),
        "encoding",
        15,
        1,
        "0x00",
    ),
    Case(
        "nul-byte-in-tag-value",
        edit('"Qingdao"', '"Qing\x00dao"'),
        "encoding",
        2,
        12,
        "0x00",
        bugs={
            "all": "a NUL byte inside a tag value is accepted silently (exit 0) and written back by fmt; "
            "a NUL means the file is not text (UTF-16, binary) and should be an error at the byte"
        },
    ),
    Case("empty-file", b"", "empty", 1, 1, "no hand in the file", parser=False, caret=False),
    Case(
        "blank-lines-only",
        b"\n  \n\t\n",
        "empty",
        1,
        1,
        "no hand in the file",
        parser=False,
        caret=False,
        bugs={"cli": "traceback: ValueError: max() arg is an empty sequence (batch.check_hand, no hand parsed)"},
    ),
    Case(
        "only-a-brace-comment",
        "{just a comment}\n",
        "syntax",
        1,
        1,
        'a tag like [Event "…"]',
    ),
    Case("only-line-comments", "; nothing\n; here\n", "syntax", 1, 1, 'a tag like [Event "…"]'),
]

assert len({c.id for c in CASES}) == len(CASES)


#: Bugs of the table above fixed since it was written (case id, check): their xfail marks are dropped,
#: so the tests hold the fixes.
FIXED = {
    ("blank-lines-only", "cli"),
    ("tag-missing-close-bracket", "parse"),
    ("deal-17-aces", "parse"),
    ("play-burn-without-cards-before-comment", "parse"),
    ("play-round-number-twice", "parse"),
    ("nul-byte-in-tag-value", "parse"),
    ("tag-missing-close-bracket", "cli"),
    ("deal-17-aces", "cli"),
    ("play-burn-without-cards-before-comment", "cli"),
    ("play-round-number-twice", "cli"),
    ("nul-byte-in-tag-value", "cli"),
    ("play-round-number-twice", "caret"),
    ("date-month-13", "caret"),
    ("date-month-13", "cli"),
    ("date-month-13", "parse"),
    ("deal-17-aces", "caret"),
    ("deal-keyword-capitalised", "cli"),
    ("deal-keyword-capitalised", "parse"),
    ("deal-seat-0", "cli"),
    ("deal-seat-0", "parse"),
    ("deal-seat-7", "cli"),
    ("deal-seat-7", "parse"),
    ("deal-unknown-letter-first", "cli"),
    ("deal-unknown-letter-first", "parse"),
    ("encoding-gb18030", "caret"),
    ("encoding-latin-1", "caret"),
    ("encoding-utf-16", "cli"),
    ("nul-byte-between-tokens", "parse"),
    ("nul-byte-in-tag-value", "caret"),
    ("play-glyph-alone", "cli"),
    ("play-glyph-alone", "parse"),
    ("play-keyword-missing", "cli"),
    ("play-keyword-missing", "parse"),
    ("play-seat-7", "cli"),
    ("play-seat-7", "parse"),
    ("play-seat-without-cards-at-end", "cli"),
    ("play-seat-without-cards-at-end", "parse"),
    ("play-seat-without-cards-before-round-number", "caret"),
    ("play-seat-without-cards-before-round-number", "cli"),
    ("play-seat-without-cards-before-round-number", "parse"),
    ("play-section-missing-at-end", "cli"),
    ("play-section-missing-at-end", "parse"),
    ("play-stray-punctuation", "cli"),
    ("play-stray-punctuation", "parse"),
    ("play-stray-word", "cli"),
    ("play-stray-word", "parse"),
    ("play-unknown-letter-first", "cli"),
    ("play-unknown-letter-first", "parse"),
    ("preplay-unknown-declaration", "cli"),
    ("preplay-unknown-declaration", "parse"),
    ("stray-word-between-tags-and-deal", "cli"),
    ("stray-word-between-tags-and-deal", "parse"),
    ("tag-missing-close-bracket", "caret"),
    ("tag-value-broken-by-newline", "cli"),
}


def params(check: str, cases=CASES):
    out = []
    for c in cases:
        reason = None if (c.id, check) in FIXED else c.bug(check)
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        out.append(pytest.param(c, id=c.id, marks=marks))
    return out


def text_of(case: Case) -> str:
    return case.data if isinstance(case.data, str) else case.data.decode("utf-8")


# -- the parser ------------------------------------------------------------------------------


@pytest.mark.parametrize("case", params("parse", [c for c in CASES if c.parser]))
def test_parser_error(case: Case):
    with pytest.raises(NotationError) as info:
        parse_text(text_of(case))
    e = info.value
    assert (e.code, e.line, e.column) == (case.code, case.line, case.column), e.message
    assert case.phrase in e.message
    assert plain(e.message)


def test_the_base_text_is_valid():
    assert len(parse_text(BASE)) == 1
    assert len(parse_text(BASE + "\n" + BASE)) == 2


# -- the command line ------------------------------------------------------------------------


def validate(tmp_path: Path, case: Case):
    path = tmp_path / "case.gjn"
    path.write_bytes(case.data if isinstance(case.data, bytes) else case.data.encode("utf-8"))
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return path, result


@pytest.mark.parametrize("case", params("cli"))
def test_cli_first_line(tmp_path: Path, case: Case):
    path, result = validate(tmp_path, case)
    assert result.exit_code == 2, result.output
    first = result.stderr.splitlines()[0]
    prefix = f"{path}:{case.line}:{case.column}: error[{case.code}]: "
    assert first.startswith(prefix), first
    assert case.phrase in first
    assert plain(first)
    assert result.stderr.count(" error[") == 1, result.stderr


@pytest.mark.parametrize("case", params("caret", [c for c in CASES if c.caret]))
def test_cli_shows_line_and_caret(tmp_path: Path, case: Case):
    _, result = validate(tmp_path, case)
    lines = result.stderr.splitlines()
    assert len(lines) >= 3, result.stderr
    data = case.data if isinstance(case.data, str) else case.data.decode(case.quoted_as, "replace")
    source = re.split(r"\r\n|\r|\n", data)
    src = source[case.line - 1].lstrip("\ufeff") if case.line <= len(source) else ""
    gutter = f"{case.line:>5} | "
    assert lines[1] == gutter + printable(src.expandtabs())  # a NUL or an escape shows as \x00, \x1b
    assert lines[2].startswith(" " * (len(gutter) - 2) + "| ")
    assert lines[2].index("^") == len(gutter) + columns(printable(src[: case.column - 1].expandtabs())), lines[2]


def test_cli_directory_and_missing_file(tmp_path: Path):
    for target, phrase in ((tmp_path, "is a directory"), (tmp_path / "nope.gjn", "cannot read the file")):
        result = CliRunner().invoke(main, ["validate", str(target)])
        assert result.exit_code == 2
        assert "Traceback" not in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
        first = result.stderr.splitlines()[0]
        assert first.startswith(f"{target}: error[unreadable]: "), first
        assert phrase in first


def test_enough_cases():
    assert len(CASES) >= 35
