"""The Pygments lexer for .gjn (gouji_record/notation/lexer.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

pygments = pytest.importorskip("pygments")

from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.token import (
    Comment,
    Error,
    Generic,
    Keyword,
    Name,
    Number,
    Operator,
    String,
    Token,
    Whitespace,
)
from pygments.util import ClassNotFound

from gouji_record.notation.lexer import GjnLexer

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "examples").glob("*.gjn"))


def tokens(text: str) -> list[tuple[object, str]]:
    """The tokens of ``text`` without white space, exactly as written."""
    lexer = GjnLexer(stripnl=False, ensurenl=False)
    return [(t, v) for t, v in lexer.get_tokens(text) if t not in Whitespace]


def types_of(text: str, value: str) -> list[object]:
    return [t for t, v in tokens(text) if v == value]


def assert_clean(text: str) -> None:
    toks = list(GjnLexer(stripnl=False, ensurenl=False).get_tokens(text))
    assert [(t, v) for t, v in toks if t in Error] == []
    # Pygments itself drops a byte-order mark and turns CRLF into LF before lexing
    assert "".join(v for _, v in toks) == text.removeprefix("\ufeff").replace("\r\n", "\n")


def test_metadata():
    assert GjnLexer.name == "Gouji notation"
    assert GjnLexer.aliases == ["gjn", "gouji"]
    assert GjnLexer.filenames == ["*.gjn"]
    assert GjnLexer.mimetypes == ["text/x-gjn"]


def test_charter_hand_round_trips_without_errors():
    text = (ROOT / "examples" / "charter-hand.gjn").read_text(encoding="utf-8")
    toks = list(GjnLexer().get_tokens(text))
    assert [(t, v) for t, v in toks if t in Error] == []
    assert "".join(v for _, v in toks) == text
    kinds = {t for t, _ in toks}
    assert {
        Name.Tag,
        String.Double,
        Keyword,
        Number,
        Name.Constant,
        Operator,
        Operator.Word,
        Comment.Multiline,
        Generic.Subheading,
    } <= kinds


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_lexes_cleanly(path):
    assert_clean(path.read_text(encoding="utf-8"))


def test_tag_name_value_and_escapes():
    toks = tokens(r'[Annotator "a \"b\" c\\d \q"]')
    assert toks[0] == (Token.Punctuation, "[")
    assert toks[1] == (Name.Tag, "Annotator")
    assert (String.Escape, r"\"") in toks
    assert (String.Escape, "\\\\") in toks
    # any other backslash stands for itself: a plain string, not an escape
    assert (String.Double, "\\") in toks
    assert toks[-1] == (Token.Punctuation, "]")


def test_section_keywords():
    text = "deal\n1: DX\npreplay\n2:revolt\nplay\n1. 1:33\n"
    assert [v for t, v in tokens(text) if t is Keyword] == ["deal", "preplay", "play"]


def test_seats_half_and_full_width():
    toks = tokens("play\n1. 1:33 2：44\n")
    assert (Name.Variable, "1") in toks and (Token.Punctuation, ":") in toks
    assert (Name.Variable, "2") in toks and (Token.Punctuation, "：") in toks


def test_cards_ranks_and_jokers_are_distinct():
    toks = tokens("play\n1. 3:DDDX222Q 4:x10tjqka 5:大王小王大花小花大鬼小鬼大虎小虎\n")
    assert (Name.Constant, "DDDX") in toks
    assert (Number, "222Q") in toks
    assert (Name.Constant, "x") in toks
    assert (Number, "10tjqka") in toks
    assert (Name.Constant, "大王小王大花小花大鬼小鬼大虎小虎") in toks


def test_unknown_cards():
    toks = tokens("deal\n1: -\n2: DX?34\n3: ?\n")
    assert (Number.Other, "-") in toks
    assert (Name.Constant, "DX") in toks
    assert (Number.Other, "?34") in toks
    assert (Number.Other, "?") in toks
    toks = tokens("play\n1. 1:?31 2:? 3:??\n")
    assert (Number.Other, "?31") in toks
    assert types_of("play\n1. 3:??\n", "?") == [Number.Other, Generic.Emph]


def test_pass_yield_burn_irregularity():
    toks = tokens("play\n3. 4:QQQQ 5:*XXKK 2:- 3:~ ^3:QQQ\n")
    assert (Operator.Word, "*") in toks
    assert (Operator, "-") in toks
    assert (Operator, "~") in toks
    assert (Name.Exception, "^") in toks
    assert (Number, "QQQ") in toks


def test_declarations():
    text = "preplay\n2:revolt 5:keep-head 1:no-head 3:natural 4:wind 6:claim 1:革命 2:要头 3:无头 4:自然开点 5:接风 6:挑牌\n"
    words = [v for t, v in tokens(text) if t is Keyword.Pseudo]
    assert words == [
        "revolt",
        "keep-head",
        "no-head",
        "natural",
        "wind",
        "claim",
        "革命",
        "要头",
        "无头",
        "自然开点",
        "接风",
        "挑牌",
    ]


def test_round_numbers_and_annotations():
    toks = tokens("play\n12. 1:TTTTT! 4:JJJJJ?? 1:-!? 2:QQ?! 3:KK? 4:AA!! $12\n")
    assert (Generic.Subheading, "12") in toks
    assert [v for t, v in toks if t is Generic.Emph] == ["!", "??", "!?", "?!", "?", "!!"]
    assert (Name.Label, "$12") in toks


def test_comments_and_machine_data():
    toks = tokens("play\n{first line\n [%clk 0:00:12] second}\n1. 1:33 ; a line [%eval 3]\n2:-\n")
    assert (Comment.Special, "[%clk 0:00:12]") in toks
    assert (Comment.Special, "[%eval 3]") in toks
    assert (Comment.Multiline, "{") in toks and (Comment.Multiline, "}") in toks
    assert (Comment.Single, ";") in toks
    # the line comment ends at the line end: the next action is lexed again
    assert (Operator, "-") in toks


def test_fragments_and_docs_elisions_have_no_errors():
    for text in [
        "^3:QQQ",
        "1. 1:TTTTT 4:JJJJJ 1:-",
        "2. 4:3333 5:4444 …\n3. 4:QQQQ 5:*XXKK {Seat 5 burns it: …} 2:- {…}\n…\n",
        "deal\n1: KKKKKKJJJJJJJJJTTTTT6666444444444444\n2: …\n",
        "preplay\n2:revolt 5:keep-head",
        '\ufeff[Event "x"]\r\n[Site "?"]\r\n\r\ndeal\r\n1: -\r\n\r\nplay\r\n1. 1:33\r\n',
        '[Event "a"]\ndeal\n1: -\nplay\n1. 1:3\n\n[Event "b"]\ndeal\n1: -\nplay\n1. 1:4\n',
    ]:
        assert_clean(text)


def test_second_hand_starts_at_its_first_tag():
    toks = tokens('[Event "a"]\ndeal\n1: -\nplay\n1. 1:3\n[Event "b"]\n')
    assert [v for t, v in toks if t is Name.Tag] == ["Event", "Event"]


def test_highlight_to_html():
    text = (ROOT / "examples" / "charter-hand.gjn").read_text(encoding="utf-8")
    html = pygments.highlight(text, GjnLexer(), HtmlFormatter())
    assert html.startswith('<div class="highlight">')
    assert '<span class="nt">Event</span>' in html
    assert 'class="err"' not in html


def test_guess_by_content():
    text = (ROOT / "examples" / "charter-hand.gjn").read_text(encoding="utf-8")
    assert GjnLexer.analyse_text(text) > 0.5
    assert GjnLexer.analyse_text("def f():\n    return 1\n") == 0.0


def test_registered_entry_point():
    try:
        lexer = get_lexer_by_name("gjn")
    except ClassNotFound:
        pytest.skip("the pygments.lexers entry point is not installed")
    assert isinstance(lexer, GjnLexer)
    assert isinstance(get_lexer_by_name("gouji"), GjnLexer)


def test_purchase_and_gift_words():
    text = "preplay\nbuy 1>4:2 4>1:3 gift 3>6:4 买 2>5:X 5>2:3 赠与 1>2:3 赠 6>3:4 refuse 2>5:D 拒绝 5>2:Q\n"
    assert [v for t, v in tokens(text) if t is Keyword.Pseudo] == ["buy", "gift", "买", "赠与", "赠", "refuse", "拒绝"]
    assert_clean(text)
    # not inside other words
    assert (Keyword.Pseudo, "buy") not in tokens("preplay\nbuyer 1>4:2\n")


def test_shows_and_draws_with_their_suits():
    # the failing input: every letter of "1:draw h7" and "6:亮 梅花333" was an error token
    text = "preplay\n1:draw h7 2:抽签 红桃8 6:亮 梅花333 5:show ♠44 3:show d33\n"
    toks = tokens(text)
    assert not [v for t, v in toks if t in Error]
    assert [v for t, v in toks if t is Keyword.Pseudo] == ["draw", "抽签", "亮", "show", "show"]
    assert [v for t, v in toks if t is Name.Attribute] == ["h", "红桃", "梅花", "♠", "d"]
    # after the suit come ranks: the d of diamonds is not a big joker, and the 3s are numbers
    assert [v for t, v in toks if t is Number] == ["7", "8", "333", "44", "33"]
    assert not [v for t, v in toks if t is Name.Constant]
