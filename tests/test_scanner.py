"""The fast scanner against the grammar (differential tests).

``notation/scanner.py`` reads the usual layout without Lark. Whatever it accepts it must read
exactly as the grammar does — the same records and the same line and column for every tag,
deal line, action and round number — and everything else it must leave to the grammar
(``None``). Canonical text, whatever the writer produces, must take the fast path, or large
files would silently lose their speed.
"""

from __future__ import annotations

import pytest
from conftest import EXAMPLES
from hypothesis import given
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput
from test_malformed import CASES, text_of
from test_properties import PROPERTY, records

from gouji_record.notation import write, write_all
from gouji_record.notation.build import NotationError
from gouji_record.notation.grammar import lalr
from gouji_record.notation.parser import normalize_newlines
from gouji_record.notation.scanner import scan

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.gjn"))
CHARTER = normalize_newlines((EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8"))
#: The charter example with a pre-play section, annotations and an irregular mark: every kind
#: of item, for the mutations to work on.
BASE = (
    CHARTER.replace(
        "\nplay\n",
        "\npreplay\n{Tribute paid.} 2>5:3 {a bought 3} 5:natural!\nbuy 1>4:2 {price} 4>1:3! gift 3>6:4 refuse 2>5:X\n"
        "6:宣点 ; call\nplay\n",
        1,
    )
    .replace("4:JJJJJ", "4:JJJJJ!$3", 1)
    .replace("6:-", "^6:-?", 1)
)


def by_grammar(text: str, first_line: int = 1):
    """What the grammar's reader makes of ``text``: ``(record, source map as a dict)`` pairs."""
    hands = lalr().parse(text)
    for _, where in hands:
        where.shift(first_line - 1)
    return [(record, vars(where)) for record, where in hands]


def by_scanner(text: str, first_line: int = 1):
    hands = scan(text, first_line)
    return None if hands is None else [(record, vars(where)) for record, where in hands]


def agree(text: str, first_line: int = 1) -> str:
    """Check the scanner against the grammar on ``text``. Returns what the scanner did: ``"read"``
    (the same records and locations as the grammar's), ``"refused"`` (it read the layout and the
    hand was refused, as the grammar refuses it) or ``"declined"`` (left to the grammar)."""
    try:
        fast = by_scanner(text, first_line)
    except NotationError:  # it read the layout, and build_hand refused the hand: so must the grammar
        with pytest.raises((NotationError, UnexpectedInput)):
            by_grammar(text, first_line)
        return "refused"
    if fast is None:
        return "declined"
    assert fast == by_grammar(text, first_line)
    return "read"


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=[p.name for p in EXAMPLE_FILES])
def test_examples_take_the_fast_path_and_read_as_the_grammar_reads_them(path):
    text = normalize_newlines(path.read_text(encoding="utf-8"))
    assert agree(text) == "read"
    assert agree(text, first_line=1000) == "read"  # a hand cut out of a larger file


def test_the_text_the_mutations_start_from_has_every_kind_of_item():
    assert agree(BASE) == "read"
    ((record, _),) = by_scanner(BASE)
    assert [(a.plain_text, a.purpose) for a in record.preplay] == [
        ("2>5:3", None),
        ("5:natural", None),
        ("1>4:2", "buy"),
        ("4>1:3", "buy"),
        ("3>6:4", "gift"),
        ("2>5:X", "refuse"),
        ("6:call", None),
    ]
    # a comment belongs to the action before it: the one opening the play section, to the call
    assert [a.comments[:1] for a in record.preplay] == [("a bought 3",), (), ("price",), (), (), (), ("call",)]
    assert record.preplay[-1].comments[1].startswith("Seats 1 3 5 play against")
    assert record.comment == ("Tribute paid.",)
    actions = record.actions
    assert any(a.comments for a in actions) and any(a.round for a in actions)
    assert any(a.glyph == "!" and a.nags == (3,) for a in actions) and any(a.irregular for a in actions)
    assert any(a.burn for a in actions)


def test_an_empty_preplay_section_reads_as_the_grammar_reads_it():
    # gjn 2.4: a preplay section written empty says nothing happened before play; before 2.4 (and
    # with no marker) it reads as no section. The scanner and the grammar tell the two apart alike.
    empty = CHARTER.replace("\nplay\n", "\npreplay\n{nothing}\nplay\n", 1)
    assert CHARTER.startswith('[Notation "gjn 2.4"]') and empty != CHARTER
    for text, flag in ((empty, True), (empty.replace("gjn 2.4", "gjn 2.3", 1), False), (CHARTER, False)):
        assert agree(text) == "read"
        ((record, _),) = by_scanner(text)
        assert record.empty_preplay is flag and record.preplay == ()


@PROPERTY
@given(records(extended=True))
def test_whatever_the_writer_writes_takes_the_fast_path(record):
    text = write(record)
    assert agree(text) == "read"


@PROPERTY
@given(st.lists(records(), min_size=2, max_size=3))
def test_several_hands_take_the_fast_path(recs):
    assert agree(write_all(recs), first_line=7) == "read"


#: Pieces a mutation puts in: the notation's own symbols, near misses, and white space the
#: grammar does not ignore (an ideographic space, a BOM, a vertical tab).
# fmt: off
PIECES = [
    " ", "\n", "\t", "\f", "\v", "\u3000", "\ufeff", "{", "}", "{x}", ";", "[", "]", '"', "!", "?", "!?",
    "$", "$7", "^", "*", "~", "-", ":", "：", "3:", "4:-", "12.", "0.", "1", "10", "T", "大王", "小",
    "play", "preplay", "deal", "2>5:", "revolt", "wind", "接风", "?3", "DX", "x", "\\", "buy", "gift", "买",
    "赠与", "4>1:",
]
# fmt: on


@st.composite
def mutations(draw) -> str:
    text = BASE
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        cut = draw(st.sampled_from([0, 0, 1, 2, 5]))
        text = text[:at] + draw(st.sampled_from(PIECES)) + text[at + cut :]
    return text


@PROPERTY
@given(mutations())
def test_a_mutated_hand_reads_as_the_grammar_reads_it_or_is_left_to_the_grammar(text):
    agree(text)


@pytest.mark.parametrize("case", [c for c in CASES if isinstance(c.data, str)], ids=lambda c: c.id)
def test_malformed_inputs_are_left_to_the_grammar(case):
    """None of the malformed inputs reads differently: the scanner leaves each the grammar refuses
    to the grammar, or refuses it as the grammar does; only those whose error lies past the
    notation (``parser=False``: an unknown ruleset, a bad option) read, as the grammar reads them."""
    expected = {"declined", "refused"} if case.parser else {"read"}
    assert agree(normalize_newlines(text_of(case))) in expected


@pytest.mark.parametrize(
    "old, new, fast",
    [
        ('"]\n[Site', '"] [Site', False),  # two tags on one line
        ("\n2: 2222", " 2: 2222", False),  # two deal entries on one line
        ("play\n{Seats", "play {Seats", False),  # something after the play keyword
        ("4:JJJJJ", "4:JJJJJ\n!", False),  # an annotation on the next line
        ("4:JJJJJ", "4:JJJJJ ! $3", True),  # as the writer puts them
        ("1:TTTTT", "1: TTTTT", True),  # white space inside an action: one token all the same
        ("4:JJJJJ", "4:JJJJJ!?$3$12", True),  # annotations against the action
        ("4:JJJJJ", "^4:JJJJJ", True),
        ("\n2. 4:3333", "\n  2.  4:3333", True),
        ("1: KKKKKKJJJJJJJJJTTTTT", "1: KKKKKK JJJJJJJJJ\tTTTTT ", True),  # spaces inside a seat's cards
        ("3: DDDX222222222222", "3: D D D X 2 2 2 2 2 2 2 2 2 2 2 2 ", True),
        ("\n2: 2222", " 2 2: 2222", False),  # two entries on one line: the '2' before '2:' is a card
    ],
)
def test_unusual_layouts(old, new, fast):
    """Valid but unusual layouts the scanner leaves to the grammar, and some it reads itself."""
    assert old in CHARTER
    assert agree(CHARTER.replace(old, new, 1)) == ("read" if fast else "declined")


@pytest.mark.parametrize(
    "new, fast",
    [
        ("4:JJJJJ!", True),
        ("4:JJJJJ ?! $3\t$12", True),  # _annotation: GLYPH? NAG* (grammar/gjn.lark), on the action's line
        ("4:JJJJJ $3 $4", True),
        ("4:JJJJJ $3 !", False),  # a glyph after a numeric annotation: the grammar refuses it
        ("4:JJJJJ ! ?", False),  # two glyphs
        ("4:JJJJJ {c} !", False),  # a glyph after a comment: against no action
        ("4:JJJJJ {c} $3", False),
        ("4:JJJJJ\n$3", False),  # on the next line: the grammar reads it, the scanner leaves it
    ],
)
def test_annotations_are_read_against_their_action_only(new, fast):
    # issue 29: the scanner reads a glyph and a $n as tokens of their own (not tried after every
    # action), and takes them only as the grammar does: right after an action on its line, a glyph
    # first. Anything else is left to the grammar, which reads it or refuses it.
    assert "4:JJJJJ" in CHARTER
    assert agree(CHARTER.replace("4:JJJJJ", new, 1)) == ("read" if fast else "declined")


def test_the_scanners_terminals_are_the_grammars():
    # the scanner matches tokens with gouji_record/notation/terminals.py, made from the grammar so
    # that reading needs no Lark: it must be what the grammar gives now (else: regenerate it, as
    # its docstring says)
    from conftest import ROOT

    from gouji_record.notation.grammar import terminals_module

    assert (ROOT / "gouji_record" / "notation" / "terminals.py").read_text(encoding="utf-8") == terminals_module()


def test_reading_the_usual_layout_neither_imports_lark_nor_builds_the_grammar():
    # about 50 ms of every command's start-up; the grammar is loaded for the first hand the
    # scanner leaves to it, and only then
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from gouji_record.notation import parse_text\n"
        f"parse_text({CHARTER!r})\n"
        "assert 'lark' not in sys.modules, 'lark imported'\n"
        f"parse_text({CHARTER.replace(chr(10) + '[', ' [', 1)!r})\n"  # two tags on a line: the grammar reads it
        "assert 'lark' in sys.modules\n"
    )
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
