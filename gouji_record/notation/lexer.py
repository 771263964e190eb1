"""A Pygments lexer for the 够级 game notation (``.gjn``, docs/notation.md).

Registered as the ``pygments.lexers`` entry point ``gjn`` so that Sphinx, MkDocs
and ``pygmentize`` highlight records::

    [project.entry-points."pygments.lexers"]
    gjn = "gouji_record.notation.lexer:GjnLexer"

Token types:

=====================================  =============================================
``[`` ``]``                            Punctuation
tag name                               Name.Tag
tag value / escapes ``\\"`` ``\\\\``   String.Double / String.Escape
``deal`` ``preplay`` ``play``          Keyword
seat ``1:`` … ``6:`` (also ``：``)     Name.Variable + Punctuation
ranks ``3``–``9`` ``T`` ``10`` …       Number
jokers ``X`` ``D`` 大王 小王 大虎 …    Name.Constant
unknown cards ``?`` ``?31``, deal -    Number.Other
burn ``*``                             Operator.Word
pass ``-``, yield ``~``                Operator
irregularity ``^``                     Name.Exception
declarations (revolt, 革命, …)         Keyword.Pseudo
``buy`` 买, ``gift`` 赠与, ``refuse`` 拒绝 Keyword.Pseudo
``show`` 亮, ``draw`` 抽签 and a suit   Keyword.Pseudo and Name.Attribute
round number ``12.``                   Generic.Subheading
glyphs ``!`` ``?`` ``!!`` …            Generic.Emph
numeric annotation ``$12``             Name.Label
``{…}`` / ``; …`` comments             Comment.Multiline / Comment.Single
machine data ``[%clk 0:00:12]``        Comment.Special
=====================================  =============================================

The lexer follows the sections of a hand: in the ``deal`` a ``?`` is always an
unknown card and ``-`` stands for a seat's unknown cards; in ``preplay`` and
``play`` a ``?`` right after the seat is an unknown card and after a body it is an
annotation glyph.
"""

from __future__ import annotations

import re
from typing import ClassVar

from pygments.lexer import RegexLexer, bygroups, default, include
from pygments.token import (
    Comment,
    Generic,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

__all__ = ["GjnLexer"]

_RANKS = r"(?:10|[2-9TJQKAtjqka])+"
_JOKERS = r"(?:[XDxd]|大王|小王|大花|小花|大鬼|小鬼|大虎|小虎)+"
_DECLARATIONS = (
    r"(?:(?:revolt|keep-head|no-head|natural|precall|call|wind|claim)(?![\w-])"
    r"|革命|要头|无头|自然开点|接风|挑牌|宣点|明点|预点)"
)
#: The words before a purchase's two transfers (买三, 买四), a gift's one (赠与) and a refusal's (拒绝).
_TRANSFER_WORDS = r"(?:(?<![\w-])(?:buy|gift|refuse)(?![\w-])|买|赠与|赠|拒绝|拒)"
#: 上班 and 抽签组邦: the word, then the suit of the cards (``1:show h444``, ``2:抽签 红桃7``).
_SUITED = r"(show|draw|亮|抽签)(\s*)(黑桃|红桃|梅花|方块|[♠♥♣♦shcdSHCD])"
_GLYPH = r"(?:!!|\?\?|!\?|\?!|!|\?)"
_SEAT = r"([1-6])([:：])"
_MACHINE = r"\[%[^\]}\n]*\]"


def _section(word: str) -> str:
    return rf"(?<![\w-]){word}(?![\w-])"


class GjnLexer(RegexLexer):
    """Lexer for 够级 (Gouji) game records in the ``.gjn`` notation."""

    name = "Gouji notation"
    aliases: ClassVar[list[str]] = ["gjn", "gouji"]
    filenames: ClassVar[list[str]] = ["*.gjn"]
    mimetypes: ClassVar[list[str]] = ["text/x-gjn"]

    flags = re.MULTILINE | re.UNICODE

    tokens: ClassVar[dict[str, list]] = {
        # White space, comments and the elision marks used in documentation.
        "common": [
            (r"\ufeff", Text),
            (r"\s+", Whitespace),
            (r"\{", Comment.Multiline, "comment"),
            (r";", Comment.Single, "line-comment"),
            (r"…|\.\.\.", Punctuation),
        ],
        "comment": [
            (r"[^}\[]+", Comment.Multiline),
            (_MACHINE, Comment.Special),
            (r"\[", Comment.Multiline),
            (r"\}", Comment.Multiline, "#pop"),
        ],
        "line-comment": [
            (r"[^\n\[]+", Comment.Single),
            (_MACHINE, Comment.Special),
            (r"\[", Comment.Single),
            default("#pop"),
        ],
        # Tag pairs; the section keywords switch to the sections of the hand.
        # Fragments without a section keyword (``1. 1:TTTTT 4:-``, ``^3:QQQ``) are
        # read as play.
        "root": [
            include("common"),
            (_MACHINE, Comment.Special),
            (r"\[", Punctuation, "tag"),
            (_section("deal"), Keyword, "deal"),
            (_section("preplay|play"), Keyword, "play"),
            include("body"),
        ],
        "tag": [
            (r"[ \t]+", Whitespace),
            (r"[A-Za-z][A-Za-z0-9_]*", Name.Tag),
            (r'"', String.Double, "string"),
            (r"\]", Punctuation, "#pop"),
            default("#pop"),
        ],
        "string": [
            (r'\\["\\]', String.Escape),
            (r'[^"\\\n]+', String.Double),
            (r"\\", String.Double),  # any other backslash stands for itself
            (r'"', String.Double, "#pop"),
            default("#pop"),  # unterminated at the end of the line
        ],
        # Leaving a section: another section keyword, or the next hand's first tag.
        "sections": [
            (_section("deal"), Keyword, ("#pop", "deal")),
            (_section("preplay|play"), Keyword, ("#pop", "play")),
            (r"(?=\[)", Text, "#pop"),
        ],
        "deal": [
            include("common"),
            include("sections"),
            (_SEAT, bygroups(Name.Variable, Punctuation)),
            (_RANKS, Number),
            (_JOKERS, Name.Constant),
            (r"\?\d*|-", Number.Other),
        ],
        # preplay and play: declarations and actions.
        "play": [
            include("common"),
            (_MACHINE, Comment.Special),
            include("sections"),
            include("body"),
        ],
        "body": [
            (r"(\d+)(\.)", bygroups(Generic.Subheading, Generic.Subheading)),
            (r"\^", Name.Exception),
            (r"([1-6])(>)([1-6])([:：])", bygroups(Name.Variable, Operator, Name.Variable, Punctuation), "cards"),
            (_TRANSFER_WORDS, Keyword.Pseudo),
            (_SEAT, bygroups(Name.Variable, Punctuation), "action"),
            (_GLYPH, Generic.Emph),
            (r"\$\d+", Name.Label),
        ],
        "action": [
            (r"\s+", Whitespace),
            (r"\*", Operator.Word),
            (r"[-~]", Operator, "#pop"),
            (_SUITED, bygroups(Keyword.Pseudo, Whitespace, Name.Attribute), ("#pop", "cards")),
            (_DECLARATIONS, Keyword.Pseudo, "#pop"),
            (r"\?\d*", Number.Other, ("#pop", "cards")),
            default(("#pop", "cards")),
        ],
        "cards": [
            (_RANKS, Number),
            (_JOKERS, Name.Constant),
            (r"\?\d+(?![\d:：])", Number.Other),
            default("#pop"),
        ],
    }

    def analyse_text(text: str) -> float:  # made a static method by Pygments
        score = 0.0
        if re.search(r'^\s*\[Event\s+"', text, re.MULTILINE):
            score += 0.2
        if re.search(r"^deal\s*$", text, re.MULTILINE) and re.search(r"^play\s*$", text, re.MULTILINE):
            score += 0.5
        if re.search(r"^[1-6][:：]\s*\S", text, re.MULTILINE):
            score += 0.2
        return min(score, 1.0)
