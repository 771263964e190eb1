"""Every citation ``gouji beats`` can print quotes the sentence of its rule text that decides (issue 31).

``gouji beats`` names one rule of six (``attach``, ``same-count``, ``higher-rank``,
``joker-comparison``, ``big-joker-dead``, ``two-beat-one``) and cites it by
``Ruleset.cite``: the text's title, its section, and in parentheses the text's own words. Each
quotation must stand in the text (shared/seeds/, RULES.md maps the presets to them), written as
the text writes it: traditional characters in 001, the texts' own typos (小婲, 鈳以) kept; only
white space and the pinyin glosses 001 carries after some characters (``數(shù)``) are left out
of the comparison. ``q qq`` under the charter cited an English paraphrase of an example, and
``X66 D66`` cited 步步高 (§8(6)) where §8(3) "高于小花所挂牌一点以上" decides.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT

from gouji_record.cli.main import main
from gouji_record.rules.rulesets import PRESETS

#: The rule texts, beside the checkout (GOUJI_SEEDS to say where else); without them the test skips.
SEEDS = Path(os.environ.get("GOUJI_SEEDS", ROOT.parent / "shared" / "seeds"))
TEXTS = {
    "online": "000_619b9c24df7bcb3c.txt",
    "classic": "001_0627aaab326a9991.txt",
    "charter": "002_2bcb45719b384da3.txt",
    "fours": "003_78ecbaa257551ef7.txt",
    "tournament": "004_dd0270d5d2ffb423.txt",
}
BEATS_RULES = ("attach", "same-count", "higher-rank", "joker-comparison", "big-joker-dead", "two-beat-one")
CJK = re.compile("[\u3400-\u9fff]")
_GLOSS = re.compile(r"\([a-zāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü]+\)")
_ARTICLE = re.compile(r"^第[一二三四五六七八九十百]+条(\([一二三四五六七八九十]+\))?:?\s*")

pytestmark = pytest.mark.skipif(not SEEDS.is_dir(), reason="the rule texts (shared/seeds/) are not here")


def normal(text: str) -> str:
    return _GLOSS.sub("", re.sub(r"\s+", "", text))


def quotations(source: str) -> list[str]:
    """The text's words a source quotes: what its last parentheses hold (``§出牌 (3) (…)``), cut at
    ``; `` and ``…``, without the article's own name (``第八条(三)``) that opens a quotation."""
    depth, start, quote = 0, None, ""
    for i, ch in enumerate(source):  # the last top-level ( … ), its own nested ( ) kept
        if ch == "(":
            depth += 1
            if depth == 1:
                start = i + 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                quote = source[start:i]
    return [_ARTICLE.sub("", piece.strip()) for part in quote.split("; ") for piece in part.split("…")]


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("rule", BEATS_RULES)
def test_each_citation_of_beats_quotes_its_text(preset, rule):
    text = normal((SEEDS / TEXTS[preset]).read_text(encoding="utf-8"))
    source = PRESETS[preset].sources[rule]
    pieces = quotations(source)
    assert pieces and all(CJK.search(p) for p in pieces), source  # the text's words, never our paraphrase
    for piece in pieces:
        assert normal(piece) in text, (preset, rule, piece)


def beats(*args: str) -> dict:
    return json.loads(CliRunner().invoke(main, ["beats", *args, "--format", "json"]).output)


@pytest.mark.parametrize(
    "top, play, ruleset, ok, rule, decides",
    [
        # 002 states no count rule; the one place it compares plays is the preamble's example,
        # 2 small jokers + 3 nines beaten by 2 big + 3 J or 3 big + 2 J: five cards on five
        ("Q", "QQ", "charter", False, "same-count", "如用2个大花带3个J大过（也可以用3個大花带2个J大过）"),
        # 002 §8(3): a small-joker play is beaten by big jokers carrying a rank one higher: 6 is not
        ("X66", "D66", "charter", False, "joker-comparison", "須由大花挂高于小花所挂牌一点以上的牌方能灭之"),
        ("X66", "D77", "charter", True, "joker-comparison", "須由大花挂高于小花所挂牌一点以上的牌方能灭之"),
        # 000 §一手牌的大小: bigger "on both sides", jokers and rank: DD999 on XX999 is not
        ("XX999", "DD999", "online", False, "joker-comparison", "两个方面都大过此牌"),
        # 001 §24 as 000, in its own characters
        ("XX999", "DD999", "classic", False, "joker-comparison", "必須在兩個方面都大過此牌"),
        # 003: 至少需要大王+88才可以大过小王+77 — D77 on X77 is not enough
        ("X77", "D77", "fours", False, "joker-comparison", "至少需要大王+88才可以大过小王+77"),
        # 004 §6 speaks of the jokers' level only; the rank is 步步高's, §9
        ("X66", "D66", "tournament", False, "higher-rank", "顺牌的点数需大于已出牌的点数"),
        # no joker on top: 步步高 (002 §8(6), 000 §出牌 (2))
        ("777", "666", "charter", False, "higher-rank", "下家所发牌的点数必须高于“上家”牌的点数"),
        ("7", "66", "online", False, "same-count", "下家所出牌的张数必须和“上家”牌的张数相同"),
        # 003: 4不能拆开出，贴钱出或挂花出
        ("X44", "X55", "fours", False, "attach", "4不能拆开出，贴钱出或挂花出"),
        ("D", "DD", "tournament", True, "two-beat-one", "即两张大王可压制一张大王"),
        ("D33", "DD44", "charter", False, "same-count", "如用2个大花带3个J大过"),
        ("D33", "D44", "charter", False, "big-joker-dead", "大花挂任何牌时发牌均为死牌"),
    ],
)
def test_the_sentence_that_decides_is_cited(top, play, ruleset, ok, rule, decides):
    out = beats(top, play, "--ruleset", ruleset)
    assert (out["beats"], out["rule"]) == (ok, rule)
    assert decides in out["source"]
