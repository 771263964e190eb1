"""The grammar of ``.gjn`` (``grammar/gjn.lark``), loaded once per process as an LALR parser
with the contextual lexer, and the transformer that builds records while it parses.

>>> sorted(t.name for t in lalr().terminals)[:3]
['ACTION', 'BUY', 'CARDS']
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

from lark import Lark, Transformer

from .build import (
    BadComment,
    NotationError,
    action_from_token,
    build_hand,
    comment_text,
    declaration_item,
    labelled,
    loc,
    nag_number,
    purchase_items,
    section,
    suited_item,
    transfer_item,
    unescape,
    with_marks,
)


@lru_cache(maxsize=1)
def grammar_text() -> str:
    """The grammar, from the installed package or from the source tree's ``grammar/``."""
    packaged = resources.files("gouji_record").joinpath("grammar/gjn.lark")
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    return (Path(__file__).resolve().parents[2] / "grammar" / "gjn.lark").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def lalr() -> Lark:
    return Lark(grammar_text(), parser="lalr", lexer="contextual", transformer=_Build(), maybe_placeholders=False)


class _Build(Transformer):
    """Builds records while the LALR parser reduces (an inline transformer)."""

    def start(self, hands):
        return list(hands)

    def tag(self, children):
        name, value = children
        return str(name), unescape(str(value)), loc(name)

    def deal_entry(self, children):
        seat, *rest = children
        cards = next((c for c in rest if c.type == "DEAL_CARDS"), None)
        unknown = next((c for c in rest if c.type in ("UNKNOWN", "PASS")), None)
        return seat, cards, unknown

    def deal(self, entries):
        return ("deal", entries)

    def round_number(self, children):
        (tok,) = children
        return ("round", str(tok), loc(tok))

    def comment(self, children):
        (tok,) = children
        try:
            return ("comment", comment_text(str(tok)))
        except BadComment as e:
            before = str(tok)[: e.offset]
            line = tok.line + before.count("\n")
            column = e.offset - before.rfind("\n") if "\n" in before else tok.column + e.offset
            raise NotationError("bad-comment", str(e), line, column) from None

    pre_comment = comment

    def action(self, children):
        tok, *marks = children
        glyph = next((str(c) for c in marks if c.type == "GLYPH"), None)
        for c in marks:
            if c.type == "NAG":
                nag_number(str(c)[1:], loc(c))
        nags = "".join(str(c) for c in marks if c.type == "NAG")
        action = action_from_token(str(tok))
        return (
            "action",
            with_marks(action, glyph, nags) if marks else action,
            loc(tok),  # the action's first character, its ^ included
        )

    def transfer(self, children):
        give, cards, *glyph = children
        return transfer_item(give, cards, str(glyph[0]) if glyph else None)

    def declaration(self, children):
        seat, word, *glyph = children
        return declaration_item(seat, str(word), str(glyph[0]) if glyph else None)

    def suited(self, children):
        seat, step, cards, *glyph = children
        return suited_item(seat, str(step), cards, str(glyph[0]) if glyph else None)

    def purchase(self, children):
        return ("group", purchase_items(children[1:]))

    def gift(self, children):
        return ("group", [labelled(children[1], "gift")])

    def refusal(self, children):
        return ("group", [labelled(children[1], "refuse")])

    def preplay(self, items):
        flat = []
        for item in items:
            if item[0] == "group":
                flat.extend(item[1])
            else:
                flat.append(item)
        return ("preplay", section(flat))

    def play(self, items):
        return ("play", section(items))

    def hand(self, children):
        tags = [c for c in children if len(c) == 3]  # (name, value, location); a section is (name, section)
        sections = dict(c for c in children[len(tags) :])
        return build_hand(tags, sections.get("deal"), sections.get("preplay"), sections["play"])


def terminal_patterns() -> dict[str, str]:
    """Each terminal of the grammar by name, as the regular expression Lark compiles it to
    (``{"SEAT": "[1-6][:：]", …}``): what :mod:`~gouji_record.notation.terminals` holds."""
    return {t.name: t.pattern.to_regexp() for t in sorted(lalr().terminals, key=lambda t: t.name)}


def terminals_module() -> str:
    """The text of :mod:`gouji_record.notation.terminals`, made from the grammar: printed by
    ``python -m gouji_record.notation.grammar`` (``tests/test_scanner.py`` compares the two)."""
    entries = "".join(
        f"    {json.dumps(name)}: {json.dumps(pattern, ensure_ascii=False)},\n"
        for name, pattern in terminal_patterns().items()
    )
    return f'{_TERMINALS_HEAD}\nTERMINALS: dict[str, str] = {{\n{entries}}}\n'


_TERMINALS_HEAD = '''"""The grammar's terminals (``grammar/gjn.lark``), each as the regular expression Lark compiles it
to: what the fast scanner (:mod:`~gouji_record.notation.scanner`) matches tokens with, so that
reading a file in the usual layout neither imports Lark nor builds the grammar's parser (about
50 ms of every command's start-up).

Made from the grammar, never edited by hand: after changing the grammar, run

    python -m gouji_record.notation.grammar > gouji_record/notation/terminals.py

(``tests/test_scanner.py`` fails while this differs from what the grammar gives).
"""
'''

if __name__ == "__main__":
    print(terminals_module(), end="")
