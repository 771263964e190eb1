"""Rulesets (规则集): the rules of one rule text, as data.

A :class:`Ruleset` is a pydantic model. Each field is one option on which the
rule texts in ``shared/seeds/`` differ; the engine reads the fields and never
asks which preset it runs. Every rule the engine enforces has a key in
:data:`RULES`; a ruleset maps each key to the seed file and section it comes
from (:meth:`Ruleset.cite`), so a diagnostic or event can quote its source.

>>> r = get_ruleset("charter")
>>> r.scoring.places
(4, 2, 0, 0, -2, -4)
>>> r.cite("burn")
'002_2bcb45719b384da3.txt §10 (第十条 烧牌)'
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

#: Rule keys the engine enforces, with their English and Chinese names.
RULES: dict[str, tuple[str, str]] = {
    "deal": ("four decks, 36 cards to each of six seats", "四副牌，每人36张"),
    "play-shape": ("a play is one rank plus attached 2s and jokers", "一手牌：同点数牌加钱、花"),
    "same-count": ("only plays of the same number of cards compare", "张数相同"),
    "higher-rank": ("a follow must be of higher rank", "步步高"),
    "big-joker-dead": ("a play carrying a big joker is dead", "挂大花为死牌"),
    "small-joker-beaten": (
        "a small-joker play is beaten only by at least as many big jokers with a higher rank",
        "挂小花须大花挂高一点以上的牌灭之",
    ),
    "gouji-play": ("gouji play thresholds", "够级牌"),
    "gouji-opposite-only": ("only the opposite may answer a gouji play", "够级牌只有对头可上"),
    "turn-order": ("play goes counterclockwise, one seat after another", "循序渐进"),
    "pass-bars": ("a seat that passed may not play again this round", "过牌者这一轮再无权发牌"),
    "opposite-exception": ("except on its opposite's play", "对头牌除外"),
    "yield": ("yield to the next two seats", "让牌"),
    "round-end": ("the round ends when all pass; the last player leads", "一轮牌、扣牌"),
    "burn": ("a non-opposite may burn a gouji play", "烧牌"),
    "burn-condition": (
        "after burning, every play carries a joker except the last, or one rank is left",
        "烧牌条件：此后每次出牌须挂花，最后一次除外，或所剩为同一点数",
    ),
    "burn-pass-bars": ("a seat that passed this round may not burn", "过牌者不可烧牌"),
    "dead-gouji": ("the opposite of 1st/2nd place beating a gouji last play: only burns answer", "够死级"),
    "headless": ("a seat whose opposite finished beats and is beaten by anyone", "无头"),
    "melee": ("after 1st and 2nd place gouji rules switch off", "四人乱缠"),
    "take-the-wind": ("nobody beats a finisher's last play: the next seat leads", "接风"),
    "places": ("places in order of finishing", "头科、二科……大落"),
    "hand-end": ("when the hand ends", "一局结束"),
    "sweep": ("one team takes 1st, 2nd and 3rd", "串三户"),
    "scoring": ("score per place, summed per team", "计分"),
    "opening": ("winning a lead with a gouji play opens", "开点（活）"),
}


class Scoring(BaseModel):
    """How places become scores (计分).

    ``places`` gives the score of 1st … 6th place; a team's score is the sum
    over its three players. ``sweep`` is the winning team's score when it takes
    1st, 2nd and 3rd (串三户), the losers then scoring 0. With
    ``positive_only`` only a positive team sum is recorded, a negative one
    counts as 0 (只记正分，不记负分).
    """

    model_config = ConfigDict(frozen=True)

    places: tuple[int, int, int, int, int, int]
    sweep: int
    positive_only: bool = False


class Ruleset(BaseModel):
    """One named set of rules: a preset read from one seed text, or a variant.

    Fields are options; ``sources`` maps each key of :data:`RULES` that this
    ruleset enforces to ``"§N (原文)"`` in ``seed``. Rulesets are immutable;
    derive a variant with ``model_copy(update=...)``.
    """

    model_config = ConfigDict(frozen=True)

    name: str = Field(description="preset name used in the Ruleset tag")
    title: str = Field(description="the rule text's own title")
    seed: str = Field(description="file name of the rule text in shared/seeds/")
    #: Minimum count of each rank for a gouji play without jokers (rank letter → count).
    gouji_minimum: dict[str, int]
    #: Any play carrying a joker is a gouji play.
    joker_play_is_gouji: bool = True
    #: A play carrying a big joker cannot be beaten (死牌).
    big_joker_play_dead: bool = True
    #: The opposite of 1st/2nd place beating its last play gets a 够死级 whatever that play was
    #: (else only when it was a 够级 play).
    dead_gouji_on_any_last_play: bool = True
    #: Plays carrying a big joker do not open (开点).
    opening_excludes_big_joker: bool = True
    #: What a burner who breaks the condition gets: an illegal action, or last place.
    burn_failure: Literal["illegal"] = "illegal"
    #: When the hand ends: when one player is left holding cards.
    hand_end: Literal["one-left"] = "one-left"
    scoring: Scoring
    sources: dict[str, str]

    def cite(self, rule: str) -> str:
        """The source of ``rule`` in this ruleset: ``"<seed file> §N (原文)"``.

        Raises ``KeyError`` for a rule this ruleset does not enforce.
        """
        return f"{self.seed} {self.sources[rule]}"


CHARTER = Ruleset(
    name="charter",
    title="够级大纲 (Qingdao charter)",
    seed="002_2bcb45719b384da3.txt",
    gouji_minimum={"T": 5, "J": 4, "Q": 3, "K": 2, "A": 2, "2": 1, "X": 1, "D": 1},
    scoring=Scoring(places=(4, 2, 0, 0, -2, -4), sweep=12, positive_only=True),
    sources={
        "deal": "§3 (第三条 人均36张)",
        "play-shape": "§8(4) (第八条(四) 同一点数，花、钱例外)",
        "same-count": "preamble (挂小花 example: 2 big + 3 J beat 2 small + 3 nine)",
        "higher-rank": "§8(6) (第八条(六) 步步高)",
        "big-joker-dead": "§8(3) (第八条(三) 大花挂任何牌时发牌均为死牌)",
        "small-joker-beaten": "§8(3) (第八条(三) 小花挂牌时须由大花挂高于小花所挂牌一点以上的牌方能灭之)",
        "gouji-play": "§9 (第九条 够级牌)",
        "gouji-opposite-only": "§9 (第九条 只有对头才有资格上牌)",
        "turn-order": "§8(5) (第八条(五) 循序渐进，不得越、抢)",
        "pass-bars": "§11 (第十一条 过牌)",
        "opposite-exception": "§11 (第十一条 过牌者除对头牌外)",
        "yield": "§12 (第十二条 让牌)",
        "round-end": "§13 (第十三条 扣牌)",
        "burn": "§10 (第十条 烧牌)",
        "burn-condition": "§10 (第十条 烧牌的条件)",
        "burn-pass-bars": "§31(6) (第三十一条(六) 过牌不烧) and §11",
        "dead-gouji": "§16 (第十六条 底牌、够死级)",
        "headless": "§17 (第十七条 无头)",
        "melee": "§18 (第十八条 四人乱缠)",
        "take-the-wind": "§31(3) (第三十一条(三) 接风)",
        "places": "§3 (第三条 头科、二科……大落)",
        "hand-end": "§3 (第三条 最后手中余牌未发者为败)",
        "sweep": "§20 (第二十条 串三户)",
        "scoring": "§20 (第二十条 计分)",
        "opening": "§24 (第二十四条 打点) and §31(5) (活)",
    },
)

#: The presets by name.
PRESETS: dict[str, Ruleset] = {r.name: r for r in (CHARTER,)}


class UnknownRuleset(KeyError):
    """A ruleset name that is not a preset; the message lists the presets."""

    def __str__(self) -> str:
        return str(self.args[0])


def get_ruleset(name: str) -> Ruleset:
    """The preset called ``name`` (case-insensitive).

    Raises :class:`UnknownRuleset` listing the valid names.
    """
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise UnknownRuleset(f"unknown ruleset {name!r}: expected one of {', '.join(sorted(PRESETS))}") from None
