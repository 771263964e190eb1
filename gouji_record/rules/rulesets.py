"""Rulesets (规则集): the rules of one rule text, as data.

A :class:`Ruleset` is a pydantic model. Each field is one option on which the
rule texts in ``shared/seeds/`` differ; the engine reads the fields and never
asks which preset it runs. Every rule the engine enforces has a key in
:data:`RULES`; a ruleset maps each key to the section of its rule text it comes
from (:meth:`Ruleset.cite`: the text by its own title, ``够级大纲 §10 (第十条 烧牌)``), so a
diagnostic or event can quote its source.
There is one preset per rule text (:data:`PRESETS`); :func:`with_options`
derives a variant.

>>> r = get_ruleset("charter")
>>> r.scoring.places
(4, 2, 0, 0, -2, -4)
>>> r.cite("burn")
'够级大纲 §10 (第十条 烧牌)'
>>> with_options(r, {"threes-held": "yes"}).threes_held
True
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..bilingual import Bilingual
from ..cards import BIG_JOKER, RANK_LETTERS, SMALL_JOKER, THREE, TWO, Counts
from ..errors import GoujiError

#: Rule keys the engine enforces, with their English and Chinese names.
RULES: dict[str, tuple[str, str]] = {
    "deal": ("four decks, 36 cards to each of six seats", "四副牌，每人36张"),
    "play-shape": ("a play is one rank plus attached 2s and jokers", "一手牌：同点数牌加钱、花"),
    "attach": ("which ranks may carry 2s and jokers", "贴钱、挂花"),
    "same-count": ("only plays of the same number of cards compare", "张数相同"),
    "higher-rank": ("a follow must be of higher rank", "步步高"),
    "joker-comparison": ("how plays carrying jokers compare", "挂花的牌的大小"),
    "big-joker-dead": ("a play carrying a big joker cannot be beaten", "挂大花为死牌"),
    "two-beat-one": ("more jokers beat fewer of the same kind", "大王二杀一"),
    "gouji-play": ("gouji play thresholds", "够级牌"),
    "pure-gouji": ("a pure gouji play carries no 2 and no joker", "纯够级牌"),
    "gouji-opposite-only": ("only the opposite may answer a gouji play", "够级牌只有对头可上"),
    "turn-order": ("play goes counterclockwise, one seat after another", "循序渐进"),
    "pass-bars": ("a seat that passed may not play again this round", "过牌者这一轮再无权出牌"),
    "opposite-exception": ("except on its opposite's play", "对头牌除外（对家牌不过）"),
    "yield": ("yield to the next two seats", "让牌"),
    "round-end": ("the round ends when all pass; the last player leads", "一轮牌、扣牌"),
    "burn": ("a non-opposite may burn a gouji play", "烧牌（捎牌）"),
    "burn-condition": ("after burning, every play carries a joker but the last", "烧牌条件"),
    "burn-pass-bars": ("a seat that passed this round may not burn", "过牌不烧"),
    "burn-failure": ("a burner who breaks the condition", "烧失败（诈烧）"),
    "counter-burn": ("the burned seat burns the burner back", "反捎牌"),
    "dead-gouji": ("a gouji play only a burn may answer", "够死级"),
    "headless": ("a seat whose opposite is out beats and is beaten by anyone", "无头"),
    "melee": ("with four or fewer seats left, gouji rules switch off", "四户乱缠"),
    "take-the-wind": ("nobody beats a finisher's last play: the next seat leads", "接风"),
    "threes-held": ("3s are played last, all at once", "憋三"),
    "smother": ("a seat whose last play before its 3s is beaten", "闷"),
    "fours": ("4s are played all at once", "4不能拆开出"),
    "opening": ("winning a lead with a qualifying gouji play opens", "开点"),
    "opening-fours": ("opening is completed by leading all 4s next", "开点发4"),
    "open-given-up": ("leading 4s otherwise gives up opening", "放弃开点"),
    "natural-opening": ("a hand without a pure gouji play may open by leading its 4s", "自然开点"),
    "revolution": ("a hand without jokers and 2s may sit the hand out", "革命"),
    "void-hand": ("two or more revolutions void the hand", "该局作废"),
    "keep-head": ("the revolter's opposite keeps a head for three dead gouji plays, or is headless", "要头 / 无头"),
    "places": ("places in order of finishing", "头科、二科……大落"),
    "hand-end": ("when the hand ends", "一局结束"),
    "sweep": ("one team takes 1st, 2nd and 3rd", "串三户"),
    "scoring": ("score per place, summed per team", "计分"),
    "extras": ("scores for opening, burns and smothers", "开点、烧牌、闷的加减分"),
    "wind-request": ("the seat after a finisher may ask to lead instead of beating its last play", "申请接风"),
    "calls": ("a seat may call that its opposite will not open", "宣点 / 明点 / 预点"),
    "tribute": ("cards paid before the next hand", "进贡"),
    "tribute-cards": ("tribute is paid with the highest big jokers, small jokers and 2s", "法定贡牌"),
    "point-tribute": ("who did not open pays its opposite, by the calls", "点贡"),
    "place-tribute": ("6th pays 1st two cards, 5th pays 2nd one", "落贡"),
    "burn-tribute": ("the burned seat pays the burner", "烧贡 / 捎贡"),
    "smother-tribute": ("the smothered seat pays the smotherer", "闷贡"),
    "return-tribute": ("the taker returns as many cards", "还贡"),
    "tribute-exemption": ("four big jokers exempt a team, four small jokers a seat", "抗贡"),
    "first-lead": ("who leads the first round of the next hand", "开牌、上班"),
    "showing": ("who shows the most same-suit 3s (or 4s) leads the first hand", "上班：亮3、顶班"),
    "team-draw": ("teams drawn by colour: the three seats that draw red are one team", "抽签组邦"),
    "match-score": ("a match scores the sum of its hands", "积分"),
    "claim": ("a seat may claim it can play out the rest", "挑牌"),
    "irregular": ("a wrong play is not made, and the turn is lost", "错牌不出"),
    # buying 3s and 4s before play (买三, 买四) and gifts (赠与)
    "buying": ("a seat without 3s (or 4s) buys one with a 2 or a joker", "买三、买四"),
    "gift": ("a seat without 3s (or 4s), 2s and jokers is given one", "赠与"),
}

OpeningExclusion = Literal["big-joker", "small-joker", "twos", "single-two", "twos-alone"]
#: Why a seat's opposite left play, for option ``headless_after``: it finished (走科), was smothered
#: out (闷), failed a burn (烧失败), or held no 3 when play began (憋三).
Departure = Literal["finish", "smother", "burn-failure", "no-threes"]


class Scoring(BaseModel):
    """How a hand is scored (计分).

    ``places`` gives the score of 1st … 6th place; a team's score is the sum
    over its three seats. ``sweep`` is ``(winners, losers)`` when one team
    takes 1st, 2nd and 3rd (串三户), replacing the place scores. With
    ``positive_only`` a negative team sum is recorded as 0 (只记正分).
    The extras are per seat: ``not_opened`` for a seat that did not open,
    ``opening_pair`` to a seat that opened when its opposite did not (and the
    negative to that opposite), ``burner``/``burned`` per burn that counts,
    ``smotherer``/``smothered`` per smother. ``extras_count_for_team`` adds
    them into the team scores; otherwise they are personal scores only.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    places: tuple[int, int, int, int, int, int]
    sweep: tuple[int, int]
    positive_only: bool = False
    not_opened: int = 0
    opening_pair: int = 0
    burner: int = 0
    burned: int = 0
    smotherer: int = 0
    smothered: int = 0
    extras_count_for_team: bool = False


def _opt(rule: str, description: str, **kw: Any) -> Any:
    return Field(description=description, json_schema_extra={"rule": rule}, **kw)


class Ruleset(BaseModel):
    """One named set of rules: a preset read from one seed text, or a variant of one.

    Every field but ``name``, ``title``, ``seed`` and ``sources`` is an
    option; its ``rule`` (in the field's schema) is the key of :data:`RULES`
    it belongs to, and ``sources`` maps each rule key to ``"§N (原文)"`` in
    ``seed``. Rulesets are immutable; :func:`with_options` derives a variant.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(description="preset name, as in the Ruleset tag")
    title: str = Field(description="the rule text's own title")
    seed: str = Field(description="file name of the rule text in shared/seeds/")

    joker_comparison: Literal["big-over-small", "both-sides", "isolated", "no-fewer-jokers", "own-level"] = _opt(
        "joker-comparison",
        "how a play carrying jokers is beaten: big-over-small (a small-joker play only by as many big "
        "jokers), both-sides (a play with jokers only by one whose jokers are as many and no weaker), "
        "isolated (each joker by a stronger one: a small by a big, a big by none), "
        "no-fewer-jokers (as many jokers of any kind), own-level (as many big jokers and as many jokers)",
    )
    big_joker_play_dead: bool = _opt("big-joker-dead", "a play carrying a big joker cannot be beaten (死牌)")
    big_joker_beats_any: bool = _opt(
        "big-joker-dead",
        "a play carrying a big joker beats any play of as many cards without one, whatever its rank "
        "(a reading of 003's 必然是最大的 that no preset takes)",
    )
    two_beat_one: Literal["no", "jokers", "big-jokers"] = _opt(
        "two-beat-one",
        "jokers: DD beats D, XX beats X, XXX beats D; big-jokers: DD beats D even after passing (大王二杀一)",
    )
    # -- the joker readings of round two (docs/rules.md "Points the texts leave open"); defaults are
    #    the readings of 000, 001, 002 and 003, so a preset names them only where it differs
    big_joker_beaten_by: Literal["one", "two"] = _opt(
        "two-beat-one",
        "how many big jokers of a follow meet each big joker of the top play: one (D8 beats D7 where the "
        "joker comparison allows), or two (大王二杀一 is the only way past a big joker)",
        default="one",
    )
    outnumber_small_jokers: bool = _opt(
        "joker-comparison",
        "under both-sides, a play carrying small jokers is also beaten by one carrying more jokers of any kind "
        "(a big joker played with small ones counting as small) and a higher rank (001 §24 '3個花')",
        default=False,
    )
    attach_forbidden: tuple[str, ...] = _opt("attach", "ranks that may carry no 2s or jokers")
    gouji_minimum: dict[str, int] = _opt("gouji-play", "fewest cards of a rank that make a gouji play")
    big_joker_plays_gouji: bool = _opt("gouji-play", "a play carrying a big joker is a gouji play")
    threes_held: bool = _opt("threes-held", "3s are the last play, all at once (憋三)")
    smother: Literal["last-place", "tribute"] = _opt(
        "smother", "a smothered seat (闷) takes the last place free and stops, or only owes tribute"
    )
    fours_whole: bool = _opt("fours", "4s are played all at once, with nothing attached")
    burn_needs_three: bool = _opt("burn-condition", "a burner must hold a 3 (and no 4)")
    burn_failure: Literal["illegal", "last-place"] = _opt(
        "burn-failure", "a burner's play without a joker before its last is illegal, or fails the burn (last place)"
    )
    burn_claim_order: Literal["team-first", "play-order"] = _opt(
        "burn", "who burns first when several want to: the gouji player's team first, or play order"
    )
    counter_burn: bool = _opt(
        "counter-burn", "the burned seat burning the burner back is a counter-burn (反捎牌), not a new burn"
    )
    burns_count: Literal["success", "standing"] = _opt(
        "extras", "which burns score: those that succeeded, or all not broken by the end"
    )
    dead_gouji_on_last_play: Literal["none", "gouji", "any"] = _opt(
        "dead-gouji",
        "the opposite of 1st/2nd place beating its last play makes a 够死级: never, on a gouji last play, on any",
    )
    opening_excludes: tuple[OpeningExclusion, ...] = _opt(
        "opening",
        "gouji plays that do not open: carrying a big joker, a small joker, 2s, a single 2, or 2s alone",
    )
    opening_by_fours: bool = _opt("opening-fours", "opening is completed by leading all 4s in the next round (开点发4)")
    natural_opening: bool = _opt("natural-opening", "a hand with no pure gouji play may declare 自然开点")
    revolution: bool = _opt("revolution", "a hand with no joker and no 2 may revolt (革命)")
    revolution_needs_no_threes: bool = _opt("revolution", "with threes held, only a hand that also lacks 3s may revolt")
    revolution_opening: Literal["at-once", "three-dead-gouji"] = _opt(
        "keep-head", "the revolter's opposite has opened at once, or after three dead gouji plays"
    )
    headless_answers_gouji: bool = _opt(
        "headless", "a headless seat answers anyone's 够级 play in its turn (else it may only burn it)"
    )
    melee_when: Literal["four-left", "second-place"] = _opt(
        "melee", "the four-way melee begins when four seats or fewer are left, or when 2nd place is taken"
    )
    wind_request: bool = _opt("wind-request", "the seat after a finisher may ask to take the wind (申请接风)")
    claim: bool = _opt("claim", "a seat may claim the rest of its hand (挑牌), except with threes held")
    calls: tuple[Literal["call", "precall"], ...] = _opt(
        "calls", "calls a seat may make that its opposite will not open: call (宣点, 明点), precall (预点)"
    )
    tribute_order: tuple[Literal["smother", "burn", "point", "place"], ...] = _opt(
        "tribute", "the kinds of tribute paid before the next hand, in order; none: no tribute"
    )
    point_table: Literal["calls-fail-4-8", "calls-fail-2-4", "who-called", "one-card"] = _opt(
        "point-tribute",
        "point tribute (点贡) by opening and calls: 1 card, 2 after the opposite's call, 4 after its precall, and a "
        "failed call pays 4 (precall 8), or 2 (precall 4); a table by who called (宣點 either side); one card, no calls",
    )
    mutual_point_optional: bool = _opt(
        "point-tribute", "when neither of two opposites opened, the seats may agree not to pay each other (互进点贡)"
    )
    sweep_tribute: bool = _opt("tribute", "after a sweep each swept seat pays its opposite one card (对头贡)")
    return_tribute: bool = _opt("return-tribute", "the takers of place tribute return as many cards (还贡)")
    tribute_exemption: bool = _opt("tribute-exemption", "four big jokers exempt the team, four small the seat (抗贡)")
    # -- tribute in detail, buying 3s and 4s (买三, 买四) and gifts (赠与) -------------------------
    pay_from: Literal["dealt", "hand"] = _opt(
        "tribute-cards",
        "what pays tribute and buys a 3 or a 4: the 2s and jokers the seat was dealt (never those it "
        "received), or its whole hand as it stands",
    )
    return_after: Literal["all-tribute", "own-tribute"] = _opt(
        "return-tribute", "the returns (还贡) follow once all tribute is paid, or each after its own place tribute"
    )
    sweep_keeps_tribute: bool = _opt(
        "tribute", "after a sweep the smother, burn and point tribute are still paid (only place tribute changes)"
    )
    buy_ranks: tuple[Literal["3", "4"], ...] = _opt(
        "buying",
        "ranks a seat holding none may buy, one card each (3s only with threes-held, 4s only with opening-by-fours)",
    )
    buy_from: tuple[Literal["opposite", "opposite-team", "team", "others"], ...] = _opt(
        "buying",
        "who sells, in order; the next only when none before can: the opposite, the opposite's team-mates, "
        "the buyer's team-mates, or everyone else",
    )
    buy_price: Literal["two", "two-first", "two-or-joker"] = _opt(
        "buying", "what pays for it, one card: a 2; a 2, a joker only without 2s; a 2 or a joker"
    )
    buy_required: bool = _opt("buying", "a seat without the rank must buy one when someone can sell")
    team_gives_free: bool = _opt("buying", "a team-mate gives the card without a price (要三, 赠与)")
    seller_keeps_one: bool = _opt("buying", "only a seat holding two or more of the rank can sell or give one")
    threes_before_fours: bool = _opt("buying", "every purchase of a 3 comes before any of a 4")
    buy_before_tribute: bool = _opt("buying", "buying comes before any tribute")
    gift_from: tuple[Literal["opposite", "team", "opposite-team"], ...] = _opt(
        "gift",
        "who gives a 3 or a 4, in order, to a seat without one that holds no 2 and no joker to buy it; none: no gifts",
    )
    first_lead: Literal["any", "next-after-leader", "last-sixth"] = _opt(
        "first-lead",
        "who leads a hand after the first: anyone, the seat after the previous hand's first leader, "
        "or the previous hand's 6th place (大落)",
    )
    showing: Literal["none", "threes", "fours-if-threes-held"] = _opt(
        "showing",
        "上班 in the first hand of a match: no showing; the seat showing the most 3s of one suit "
        "(2 or more, ties to the first shown) leads; the same with 4s when threes-held is on",
    )
    team_draw: bool = _opt("team-draw", "teams may be drawn by colour (抽签组邦): red cards make one team")
    hand_end: Literal["one-left", "one-team-left"] = _opt(
        "hand-end", "the hand ends when one seat is left holding cards, or one team"
    )
    # -- who is headless, when the melee begins, opening in the melee, yielding to nobody --------
    headless_after: tuple[Departure, ...] = _opt(
        "headless",
        "a seat is headless (无头) when its opposite left play in one of these ways: finish, smother, "
        "burn-failure, no-threes (after a revolution, always: keep-head)",
    )
    melee_begins: Literal["at-once", "next-round"] = _opt(
        "melee",
        "the four-way melee begins with the departure that makes it due, or with the next round "
        "(the round of that last play is played out under the 够级 rules)",
    )
    opening_in_melee: bool = _opt(
        "opening", "an unanswered 够级 play opens at any time, in the four-way melee and after 2nd place too"
    )
    yield_to_passed: bool = _opt(
        "yield",
        "a seat may yield when neither its downstream neighbour nor its downstream partner has a turn "
        "on the play (both passed, or out of play): the turn comes straight back",
    )
    scoring: Scoring = _opt("scoring", "place scores, sweep, extras")
    sources: dict[str, str] = Field(description="rule key → section of the seed text")

    @property
    def text_name(self) -> str:
        """The rule text's own name, by which a reader can look it up (``"够级大纲"``): the title
        before its English gloss. The seed file's name is the project's, never shown to users."""
        return self.title.split(" (", 1)[0]

    def cite(self, rule: str) -> str:
        """The source of ``rule`` in this ruleset: ``"<text name> §N (原文)"``, the section as
        the text numbers it.

        >>> get_ruleset("charter").cite("gouji-opposite-only")
        '够级大纲 §9 (第九条 只有对头才有资格上牌)'

        Raises ``KeyError`` for a rule this ruleset has no source for.
        """
        known = _CITED.get((id(self), rule))
        if known is not None and known[0] is self:  # every event cites: asked 10^5 times a second
            return known[1]
        if len(_CITED) > 4096:
            _CITED.clear()
        cited = _CITED[(id(self), rule)] = (self, self._cite(rule))
        return cited[1]

    def _cite(self, rule: str) -> str:
        cited = f"{self.text_name} {self.sources[rule]}"
        preset = PRESETS.get(self.name)
        if preset is None or preset is self:
            return cited
        changed = [  # an Options tag changed how this rule reads: the text's section is not the whole story
            f"{o.replace('_', '-')}={option_text(getattr(self, o))}"
            for o in OPTION_NAMES
            if option_rule(o) == rule and getattr(self, o) != getattr(preset, o)
        ]
        return cited + (f"; options: {', '.join(changed)}" if changed else "")

    # -- the questions the engine asks: each rule's variants in one place ---------------------

    def carries_nothing(self, rank: int) -> bool:
        """Whether a play of ``rank`` (an index of ``RANK_LETTERS``) may carry no 2s and no
        jokers: the ranks of option ``attach`` (003 §牌张大小, 004 §6), and 3s where they are held
        for last (002 §26(3), 004 §5).

        >>> get_ruleset("tournament").carries_nothing(RANK_LETTERS.index("4"))
        True
        >>> get_ruleset("charter").carries_nothing(THREE), get_ruleset("fours").carries_nothing(THREE)
        (False, True)
        """
        return RANK_LETTERS[rank] in self.attach_forbidden or (self.threes_held and rank == THREE)

    @property
    def may_claim(self) -> bool:
        """Whether a seat may claim the rest (挑牌, 002 §15); never with 3s held (002 §26(4))."""
        return self.claim and not self.threes_held

    def revolt_refusal(self, hand: Counts) -> str | None:
        """Why a seat holding ``hand`` (its known cards) may not revolt (革命), or ``None``: no
        revolution in these rules; a 2 or a joker held (000 §革命, 002 §23); 3s held where a
        revolter must hold none (002 §26(2) 无3且无花无钱方可革命). English, with ``.zh``."""
        if not self.revolution:
            return Bilingual("these rules have no revolution (革命)", "本规则没有革命")
        if hand[TWO] or hand[SMALL_JOKER] or hand[BIG_JOKER]:
            return Bilingual("holds a 2 or a joker: it may not revolt", "持有钱或王，不能革命")
        if self.threes_held and self.revolution_needs_no_threes and hand[THREE]:
            return Bilingual("holds 3s: with 3s held it may not revolt", "持有3，憋三打法下不能革命")
        return None

    def fate_without_threes(self, hand: Counts) -> Literal["revolt", "out"] | None:
        """What becomes of a seat that holds (as far as is known) ``hand`` and no 3 when play begins:
        with 3s held it cannot finish, so it revolts where it could (000 §买三, 001 §65: 算做自动革命)
        and is otherwise out, last (004 §26: 本局自动成为大落); ``None`` where 3s are not held or it
        holds one."""
        if not self.threes_held or hand[THREE]:
            return None
        return "revolt" if self.revolt_refusal(hand) is None else "out"

    @property
    def shown_rank(self) -> str:
        """The rank shown to lead the first hand (上班): ``"4"`` under option ``showing`` =
        ``fours-if-threes-held`` with 3s held (000 §回合, 001 §40-§41), else ``"3"``."""
        return "4" if self.showing == "fours-if-threes-held" and self.threes_held else "3"

    def burn_counts(self, outcome: str) -> bool:
        """Whether a burn with ``outcome`` (``success``, ``running``, ``broken``, ``failed``) scores
        and owes 烧贡: a successful one; also one still standing at the end where option
        ``burns-count`` is ``standing``."""
        return outcome == "success" or (outcome == "running" and self.burns_count == "standing")

    def last_play_answer_is_dead(self, restricted: bool) -> bool:
        """Whether the opposite's answer to 1st or 2nd place's last play is a 够死级 (only a burn
        may follow): on any last play (002 §16), on a 够级 last play (``restricted``: 000 §底牌,
        001 §79-§80), or never (004)."""
        return self.dead_gouji_on_last_play == "any" or (self.dead_gouji_on_last_play == "gouji" and restricted)


#: Citations made, by (id of the ruleset, rule key): the ruleset is kept with its text, so that an id
#: reused by another ruleset is never mistaken for it.
_CITED: dict[tuple[int, str], tuple[Ruleset, str]] = {}

STANDARD_MINIMUM = {"T": 5, "J": 4, "Q": 3, "K": 2, "A": 2, "2": 1, "X": 1, "D": 1}

ONLINE = Ruleset(
    name="online",
    title="联众够级规则 (online platform rules)",
    seed="000_619b9c24df7bcb3c.txt",
    joker_comparison="both-sides",
    big_joker_play_dead=False,
    big_joker_beats_any=False,
    two_beat_one="no",
    attach_forbidden=(),
    gouji_minimum=STANDARD_MINIMUM,
    big_joker_plays_gouji=True,
    threes_held=False,
    smother="tribute",
    fours_whole=False,
    burn_needs_three=False,
    burn_failure="last-place",
    burn_claim_order="team-first",
    counter_burn=False,
    burns_count="success",
    dead_gouji_on_last_play="gouji",
    opening_excludes=("big-joker", "small-joker", "twos-alone"),
    opening_by_fours=False,
    natural_opening=False,
    revolution=True,
    revolution_needs_no_threes=False,
    revolution_opening="at-once",
    headless_answers_gouji=True,
    melee_when="four-left",
    wind_request=True,
    claim=False,
    calls=("call", "precall"),
    tribute_order=("smother", "burn", "point", "place"),
    point_table="calls-fail-4-8",
    mutual_point_optional=False,
    sweep_tribute=False,
    return_tribute=True,
    tribute_exemption=False,
    # tribute in detail, buying and gifts
    pay_from="dealt",
    return_after="all-tribute",
    sweep_keeps_tribute=False,
    buy_ranks=("3",),
    buy_from=("opposite", "opposite-team", "team"),
    buy_price="two-first",
    buy_required=True,
    team_gives_free=False,
    seller_keeps_one=True,
    threes_before_fours=False,
    buy_before_tribute=True,
    gift_from=(),
    first_lead="next-after-leader",
    showing="fours-if-threes-held",
    team_draw=False,
    hand_end="one-team-left",
    headless_after=("finish", "smother", "burn-failure", "no-threes"),
    melee_begins="next-round",
    opening_in_melee=False,
    yield_to_passed=True,
    scoring=Scoring(places=(2, 1, 0, 0, -1, -2), sweep=(6, -6)),
    sources={
        "calls": "§明点, §预点",
        "tribute": "§进贡 (按照闷贡、烧贡、点贡、落贡顺序进贡; 第一回合没有进贡; 串三户不再进贡)",
        "tribute-cards": "§进贡 (大花、小花、钱是法定贡牌，从大到小进贡; 没有摸到法定贡牌，可以不进贡)",
        "point-tribute": "§点贡 (自己没有叫点…对头应该向自己进一张 … 预点…自己向对头进八张)",
        "place-tribute": "§落贡 (大落向头科进两张，二落向二科进一张)",
        "burn-tribute": "§烧贡 (被烧成功，烧贡的进贡张数为一张)",
        "smother-tribute": "§闷贡 (闷贡进贡张数为一张)",
        "return-tribute": "§进贡 (进完贡落贡必须还贡)",
        "tribute-exemption": "§进贡 (no 抗贡)",
        "first-lead": "§发牌 (其后每局第一轮发牌人为上局第一轮发牌人的逆时针邻座)",
        "showing": (
            "§回合 (开牌->上班->买三; 如果是憋三打法亮出同花色4（2个以上）多的人为第一个发牌者，"
            "如果同样长度则先亮者为第一个发牌者; 如果不是憋三打法则以3代替上面的4; 如果大家都不亮则随机产生一个首发牌者)"
        ),
        "team-draw": "§回合 (teams not drawn in these rules)",
        "match-score": "§回合 (一局结束后将此局所有回合分数相加)",
        "deal": "§使用牌数 (四副牌…平均每人获得36张)",
        "play-shape": "§一手牌 (点数相同的一张到多张牌是一手牌)",
        "attach": "§一手牌 (花和钱可以和其他牌组合一起出)",
        "same-count": "§出牌 (3) (张数相同)",
        "higher-rank": "§出牌 (2) (步步高)",
        "joker-comparison": "§一手牌的大小 (挂小花的牌必须用挂大花的牌来管…两个方面都大过此牌; 大花+小花…此时大花当做小花)",
        "big-joker-dead": "§一手牌的大小 (挂大花的牌是最大的)",
        "two-beat-one": "§一手牌的大小 option 1 (两个大花可以打一个大花…三小花可以打一大花)",
        "gouji-play": "§够级牌 (1张大、小花及钱，2张A…5张10)",
        "pure-gouji": "§开点 (以下够级牌不能算是开点)",
        "gouji-opposite-only": "§够级打牌 (除了烧牌外只有对头可以上牌)",
        "turn-order": "§出牌 (1) (循序渐进)",
        "pass-bars": "§过牌 (过牌者在这一轮里无权再出牌)",
        "opposite-exception": "§过牌 (过牌者成为扣牌人…还可以再有一次出牌的机会)",
        "yield": "§让牌",
        "round-end": "§发牌 (新的一轮里由上一轮最后一个出牌的人出牌)",
        "burn": "§烧牌 (捎牌优先原则)",
        "burn-condition": "§烧牌 (每次所发牌中必须挂花…或只剩下一套牌)",
        "burn-pass-bars": "§过牌 (过牌者在这一轮里无权再出牌)",
        "burn-failure": "§烧牌 (没有按上面的要求出牌，则算烧失败，算大落)",
        "counter-burn": "§烧牌 (其他人烧此烧牌者，则算解烧)",
        "dead-gouji": "§底牌 (头科、二科的底牌是够级牌…够死级)",
        "headless": "§无头 (头科产生后，其对头的够级对象不复存在称无头…无头者对其他持牌者亦行使同样的职权)",
        "melee": "§四人乱缠 (剩下少于等于四人在打牌; 并不是马上开始)",
        "take-the-wind": "§接风",
        "threes-held": "§憋三 (每人最后一手牌…必须是3牌)",
        "smother": "§闷贡 (最后走3之前的一手牌被人大过)",
        "fours": "§憋三 (not in these rules)",
        "opening": "§开点 (用除大花以外的够级牌取得一次发牌权; 以下够级牌不能算是开点: 有大花、小花不开点，单张不开点; 大花、小花、钱不开点)",
        "opening-fours": "§开点 (not in these rules)",
        "open-given-up": "§开点 (not in these rules)",
        "natural-opening": "§开点 (not in these rules)",
        "revolution": "§革命",
        "void-hand": "§革命 (同时出现2个以上革命者则该局作废)",
        "keep-head": "§革命 (要头…前三够级牌算够死级; 革命算自动认点)",
        "places": "§名次",
        "hand-end": "§回合 (直至当所有没走科的玩家均隶属同一阵营时)",
        "sweep": "§串三户 (串三户分数翻一倍)",
        "scoring": "§计分 (头科得2分…大落得-2分)",
        "extras": "§计分 (no extras)",
        "wind-request": "§接风 (申请接风…如其余持牌人均同意（均过牌）…请求接风的人可以继续上牌)",
        "claim": "§接风 (no 挑牌 in these rules)",
        "irregular": "§出牌 (错牌 not named; the charter's 错牌不出 is applied)",
        "buying": (
            "§买三, §回合 (如果所持牌中无3者必须无条件用钱（无钱时用大、小花）向对头买1张3，"
            "如果对头无3或只有一张3则向对头的联邦买3，如果敌人均不满足条件 则向自己的联邦买3; "
            "开牌->上班->买三（当憋三打法时）->进贡)"
        ),
        "gift": "§买三 (no 赠与: the own team sells too)",
    },
)

CLASSIC = ONLINE.model_copy(
    update=dict(
        name="classic",
        title="够级游戏规则 (numbered summary)",
        seed="001_0627aaab326a9991.txt",
        opening_excludes=("big-joker", "small-joker", "single-two"),
        dead_gouji_on_last_play="gouji",
        hand_end="one-left",
        headless_after=(),
        opening_in_melee=True,
        calls=("call",),
        point_table="who-called",
        return_tribute=False,
        first_lead="any",
        wind_request=False,
        scoring=Scoring(places=(4, 2, 0, 0, -2, -4), sweep=(12, -12)),
        # tribute in detail, buying and gifts
        pay_from="hand",
        buy_price="two-or-joker",
        team_gives_free=True,
        buy_before_tribute=False,
        sources={
            "calls": "§37 (宣點)",
            "tribute": "§25-§28 (進貢和還貢的類型和順序：悶貢＞燒貢＞點貢＞落貢; 第一回合沒有進貢)",
            "tribute-cards": "§26 (進貢時要進手里最大的牌)",
            "point-tribute": "§31-§34 (點貢 by 宣點)",
            "place-tribute": "§35-§36 (落貢)",
            "burn-tribute": "§30 (燒貢)",
            "smother-tribute": "§28-§29 (悶貢)",
            "return-tribute": "§28 (no 還貢 named)",
            "tribute-exemption": "§25 (no 抗貢)",
            "first-lead": "§40-§42 (上班: only the first hand)",
            "showing": (
                "§40-§42 (上班 如果是憋三打法，亮出同花色4（2個以上）多的人為第一個發牌者，"
                "如果同樣長度，則先亮者為第一個發牌者; 如果不是憋三打法，則以3代替上面的4; 如果大家都不亮，則隨機產生一個首發牌者)"
            ),
            "team-draw": "§5 (聯邦和對家: teams not drawn in these rules)",
            "match-score": "§25 (連續的打5局)",
            "deal": "§4 (四幅牌，共216張牌，發牌后每人36張牌)",
            "play-shape": "§8-§9 (單張、一手牌)",
            "attach": "§10-§17 (貼錢、掛花)",
            "same-count": "§22 (同樣張數的牌才允許比較大小)",
            "higher-rank": "§22-§23 (點數大的即大)",
            "joker-comparison": "§16, §24 (大花+小花…此時大花當做小花; 必須在兩個方面都大過此牌)",
            "big-joker-dead": "§24 (no dead plays)",
            "two-beat-one": "§22 (same count only)",
            "gouji-play": "§18-§21 (夠級牌)",
            "pure-gouji": "§39 (以下牌型的夠級牌不開點)",
            "gouji-opposite-only": "§53 (只有對頭可以上牌)",
            "turn-order": "§47 (由逆時針下家對前面出的牌上牌)",
            "pass-bars": "§49-§50 (過牌後…不允許再上牌)",
            "opposite-exception": "§50 (如果不是對頭的牌)",
            "yield": "§51-§52 (讓牌)",
            "round-end": "§44-§45 (新的一輪)",
            "burn": "§54-§56 (燒牌)",
            "burn-condition": "§54 (每次所發牌中必須掛至少一個小花或大花)",
            "burn-pass-bars": "§50 (過牌後不允許再上牌)",
            "burn-failure": "§59-§60 (燒失敗，算大落，本局不能再出牌)",
            "counter-burn": "§57 (其他人燒此燒牌者，則算解燒)",
            "dead-gouji": "§79-§80 (底牌是夠級牌的，其對頭如果上牌…夠死級)",
            "headless": "§73-§76 (無頭: only after 革命)",
            "melee": "§79-§82 (二科的底牌…夠死級; 四戶亂纏)",
            "take-the-wind": "§45 (新的一輪里由上一輪最后一個出牌的人出牌)",
            "threes-held": "§61-§62 (憋三打法)",
            "smother": "§28-§29 (被悶，進1張悶貢)",
            "fours": "§40 (not in these rules)",
            "opening": "§38-§39 (開點: 夠級牌，無人接牌，使得自己獲得出牌權)",
            "opening-fours": "§38 (not in these rules)",
            "open-given-up": "§38 (not in these rules)",
            "natural-opening": "§38 (not in these rules)",
            "revolution": "§66-§69 (革命)",
            "void-hand": "§67 (該局作廢)",
            "keep-head": "§70, §73-§75 (革命算自動認點; 要頭/無頭)",
            "places": "§83-§88 (名次)",
            "hand-end": "§88 (大落：游戲中最后一個走科的人)",
            "sweep": "§71-§72, §90 (串三戶，雙方積分翻倍)",
            "scoring": "§89 (頭科＋4 … 大落－4)",
            "extras": "§89 (no extras)",
            "wind-request": "§45 (no 申请接风: the last player leads)",
            "claim": "§45 (no 挑牌 in these rules)",
            "irregular": "§44 (错牌 not named; the charter's 错牌不出 is applied)",
            "buying": "§61-§65 (在憋三打法里…買三或者要三; 用一張2或王向對家買3; 如果對頭無3或只有一張3，則向對頭的聯邦買3，如果買不到3，則向自己的聯邦要3)",
            "gift": "§64 (no 赠与: the own team's 要3 is part of buying)",
        },
    )
)

CHARTER = Ruleset(
    name="charter",
    title="够级大纲 (Qingdao charter)",
    seed="002_2bcb45719b384da3.txt",
    joker_comparison="big-over-small",
    big_joker_play_dead=True,
    big_joker_beats_any=False,
    two_beat_one="no",
    attach_forbidden=(),
    gouji_minimum=STANDARD_MINIMUM,
    big_joker_plays_gouji=True,
    threes_held=False,
    smother="tribute",
    fours_whole=False,
    burn_needs_three=False,
    burn_failure="illegal",
    burn_claim_order="team-first",
    counter_burn=False,
    burns_count="success",
    dead_gouji_on_last_play="any",
    opening_excludes=("big-joker",),
    opening_by_fours=False,
    natural_opening=False,
    revolution=True,
    revolution_needs_no_threes=True,
    revolution_opening="three-dead-gouji",
    headless_answers_gouji=True,
    melee_when="four-left",
    wind_request=True,
    claim=True,
    calls=("call", "precall"),
    tribute_order=("point", "place"),
    point_table="calls-fail-2-4",
    mutual_point_optional=False,
    sweep_tribute=False,
    return_tribute=True,
    tribute_exemption=False,
    # tribute in detail, buying and gifts
    pay_from="dealt",
    return_after="own-tribute",
    sweep_keeps_tribute=False,
    buy_ranks=("3",),
    buy_from=("opposite", "opposite-team"),
    buy_price="two-first",
    buy_required=True,
    team_gives_free=False,
    seller_keeps_one=True,
    threes_before_fours=False,
    buy_before_tribute=False,
    gift_from=(),
    first_lead="last-sixth",
    showing="threes",
    team_draw=True,
    hand_end="one-left",
    headless_after=("finish", "smother", "burn-failure", "no-threes"),
    melee_begins="next-round",
    opening_in_melee=False,
    yield_to_passed=True,
    scoring=Scoring(places=(4, 2, 0, 0, -2, -4), sweep=(12, 0), positive_only=True),
    sources={
        "calls": "§24 (第二十四条 明点、预点)",
        "tribute": "§21, §24 (第二十一条 进贡; 第二十四条 先进点贡后进落贡)",
        "tribute-cards": "§21(1)(2) (第二十一条(一) 大花、小花、钱是法定贡牌按牌点大小取大者; (二) 若没有摸到法定贡牌则不予进贡)",
        "point-tribute": "§24 (第二十四条 不开点者应无条件向对头进1张贡牌; 明点2张、预点4张; 吹牛上税)",
        "place-tribute": "§21(3) (第二十一条(三) 大落向头科进2张贡牌，二落向二科进1张)",
        "burn-tribute": "§10 (no 烧贡 in the charter)",
        "smother-tribute": "§26 (no 闷贡 in the charter)",
        "return-tribute": "§21(4), §24 (第二十一条(四) 还贡; 第二十四条 点贡不回牌)",
        "tribute-exemption": "§21 (no 抗贡)",
        "first-lead": "§6 (第六条 上一局的大落…也是法定首发牌人)",
        "showing": (
            "§7, §26 (第七条 上班 首次开牌或重新开牌后最先摸到并亮出两张同色3者为首发牌人，称亮3; "
            "此后，亮出同花色3多者可取代前首发牌人称顶班; 第二十六条 憋3打法…不再采取亮3上班的方法)"
        ),
        "team-draw": "§5 (第五条 抽签组邦是指参与够级6人各自从洗牌后的3红3黑6张牌中任一张，同花色者组成一方)",
        "match-score": "§20 (第二十条 积分制)",
        "deal": "§3 (第三条 人均36张)",
        "play-shape": "§8(4) (第八条(四) 同一点数，花、钱例外)",
        "attach": "§8(3), §26(3) (第八条(三) 挂花、贴钱; 第二十六条(三) 3牌不能贴钱或挂花)",
        "same-count": "preamble (挂小花 example: 2 big + 3 J beat 2 small + 3 nine)",
        "higher-rank": "§8(6) (第八条(六) 步步高)",
        "joker-comparison": "§8(3) (第八条(三) 小花挂牌时须由大花挂高于小花所挂牌一点以上的牌方能灭之)",
        "big-joker-dead": "§8(3) (第八条(三) 大花挂任何牌时发牌均为死牌)",
        "two-beat-one": "§8(6) (same count only)",
        "gouji-play": "§9 (第九条 够级牌)",
        "pure-gouji": "§24 (第二十四条 除大花外够级牌)",
        "gouji-opposite-only": "§9 (第九条 只有对头才有资格上牌)",
        "turn-order": "§8(5) (第八条(五) 循序渐进，不得越、抢)",
        "pass-bars": "§11 (第十一条 过牌)",
        "opposite-exception": "§11 (第十一条 过牌者除对头牌外)",
        "yield": "§12 (第十二条 让牌)",
        "round-end": "§13 (第十三条 扣牌)",
        "burn": "§10 (第十条 烧牌)",
        "burn-condition": "§10 (第十条 烧牌的条件)",
        "burn-pass-bars": "§31(6) (第三十一条(六) 过牌不烧) and §11",
        "burn-failure": "§10 (第十条: a condition of burning, no penalty named)",
        "counter-burn": "§10 (第十条 此后其他人可再烧牌)",
        "dead-gouji": "§16 (第十六条 底牌、够死级)",
        "headless": "§17 (第十七条 无头者对其他持牌者亦行使同样的职权)",
        "melee": "§16, §18 (第十六条 头科或二科发底牌后…过牌者在此轮中均不可再出牌; 第十八条 四人乱缠)",
        "take-the-wind": "§31(3) (第三十一条(三) 接风)",
        "threes-held": "§26 (第二十六条 憋3)",
        "smother": "§26 (第二十六条: no penalty named)",
        "fours": "§25 (not in these rules)",
        "opening": "§24 (第二十四条 打点) and §31(5) (活)",
        "opening-fours": "§24 (not in these rules)",
        "open-given-up": "§24 (not in these rules)",
        "natural-opening": "§24 (not in these rules)",
        "revolution": "§23, §26(2) (第二十三条 革命; 第二十六条(二) 无3且无花无钱方可革命)",
        "void-hand": "§23 (第二十三条 该局作废)",
        "keep-head": "§23, §24 (第二十三条 三次够死级; 第二十四条 须在二科产生前够死级三把方算开点)",
        "places": "§3 (第三条 头科、二科……大落)",
        "hand-end": "§3 (第三条 最后手中余牌未发者为败)",
        "sweep": "§20 (第二十条 串三户)",
        "scoring": "§20 (第二十条 计分)",
        "extras": "§20 (no extras)",
        "wind-request": "§19 (第十九条 申请接风)",
        "claim": "§15, §26(4) (第十五条 挑牌; 第二十六条(四) 憋3时不挑牌)",
        "irregular": "§8(1) (第八条(一) 错牌不出，其顺牌权自动取消)",
        "buying": "§26(2) (第二十六条(二) 凡所持牌中无3者应无条件用钱（无钱时用大，小花）向对头买1张3牌; 如对头无3或只有1张3牌，则向对头的联邦买1张3牌)",
        "gift": "§26(2) (no 赠与)",
    },
)

FOURS = Ruleset(
    name="fours",
    title="开点发4 (walkthrough of the 'open, then lead 4s' rules)",
    seed="003_78ecbaa257551ef7.txt",
    joker_comparison="isolated",
    big_joker_play_dead=True,
    big_joker_beats_any=False,
    two_beat_one="no",
    attach_forbidden=("3", "4"),
    gouji_minimum=STANDARD_MINIMUM,
    big_joker_plays_gouji=True,
    threes_held=True,
    smother="last-place",
    fours_whole=True,
    burn_needs_three=False,
    burn_failure="last-place",
    burn_claim_order="play-order",
    counter_burn=False,
    burns_count="success",
    dead_gouji_on_last_play="none",
    opening_excludes=("big-joker", "small-joker", "twos"),
    opening_by_fours=True,
    natural_opening=False,
    revolution=True,
    revolution_needs_no_threes=False,
    revolution_opening="at-once",
    headless_answers_gouji=True,
    melee_when="four-left",
    wind_request=False,
    claim=False,
    calls=("call",),
    tribute_order=(),
    point_table="calls-fail-2-4",
    mutual_point_optional=False,
    sweep_tribute=False,
    return_tribute=False,
    tribute_exemption=False,
    # tribute in detail, buying and gifts
    pay_from="dealt",
    return_after="all-tribute",
    sweep_keeps_tribute=False,
    buy_ranks=("3", "4"),
    buy_from=("opposite", "others"),
    buy_price="two",
    buy_required=True,
    team_gives_free=True,
    seller_keeps_one=True,
    threes_before_fours=False,
    buy_before_tribute=False,
    gift_from=(),
    first_lead="any",
    showing="none",
    team_draw=False,
    hand_end="one-left",
    headless_after=("finish", "smother", "burn-failure", "no-threes"),
    melee_begins="at-once",
    opening_in_melee=False,
    yield_to_passed=False,
    scoring=Scoring(places=(4, 2, 0, 0, -2, -4), sweep=(12, -12), not_opened=-2, smothered=-1, burned=-1),
    sources={
        "calls": "§番外篇3 (宣点)",
        "tribute": "§计分 (no tribute: personal scores instead)",
        "tribute-cards": "§计分 (no tribute)",
        "point-tribute": "§计分 (no tribute)",
        "place-tribute": "§计分 (no tribute)",
        "burn-tribute": "§计分 (no tribute)",
        "smother-tribute": "§计分 (no tribute)",
        "return-tribute": "§计分 (no tribute)",
        "tribute-exemption": "§计分 (no tribute)",
        "first-lead": "§计分 (not named)",
        "showing": "§计分 (not named: no 上班)",
        "team-draw": "§计分 (not named)",
        "match-score": "§计分 (队伍分数)",
        "deal": "§规则 (6个人用4副扑克)",
        "play-shape": "§牌张大小 (每次只能出同一个点数的牌…这叫做一套牌)",
        "attach": "§牌张大小 (3是不能贴钱和挂花的; 4不能…贴钱出或挂花出)",
        "same-count": "§牌张大小 (必须总张数相同)",
        "higher-rank": "§牌张大小 (点数大过)",
        "joker-comparison": "§牌张大小 (王是孤立计算的; 至少需要大王+88才可以大过小王+77; 张数必须对，王数不能少)",
        "big-joker-dead": "§牌张大小 (所以，当一套牌含有大王时，这套牌必然是最大的)",
        "two-beat-one": "§历史 (大王二杀一 is Jinan's rule, not these)",
        "gouji-play": "§够级 (5张10，4张J…任何带有王的一套牌也是够级牌)",
        "pure-gouji": "§开点 (不含2和王的够级牌可以开点)",
        "gouji-opposite-only": "§够级 (这套牌就只有你的对家可以响应了)",
        "turn-order": "§规则 (逆时针)",
        "pass-bars": "§过牌 (这一轮你就没法再出牌了)",
        "opposite-exception": "§过牌 (除非你的对家即将最大…最后一次响应的机会)",
        "yield": "§让牌 (如果你的下家和下联都过了，你就不能让牌了)",
        "round-end": "§牌张大小 (当所有人都对一家打出的牌过牌，他就是这轮最大)",
        "burn": "§番外篇1 (烧牌; 按出牌顺序在前的优先烧牌)",
        "burn-condition": "§番外篇1 (3. 除最后一套牌（这里是3）外，每一套牌都至少带一张王)",
        "burn-pass-bars": "§番外篇1 (1. 你没有在这轮中过牌)",
        "burn-failure": "§番外篇1 (诈烧，自动成为大落，本局不能再出牌)",
        "counter-burn": "§番外篇1 (其中任何一套牌被盖住，则被解烧)",
        "dead-gouji": "§番外篇2 (要头: 前三套够级牌只能被烧牌)",
        "headless": "§无头 (他已经没有对家了…他的够级牌可以被所有人响应), §被闷 (他的对家进入无头状态) and §番外篇1 (2. 你和目标都不是无头状态)",
        "melee": "§四户乱缠 (剩余不足五人时)",
        "take-the-wind": "§牌张大小 (他就是这轮最大，可以领出下一轮)",
        "threes-held": "§开点发4 (3要保留到最后一手出牌)",
        "smother": "§被闷 (自动成为当前最后一名且不能再出牌)",
        "fours": "§开点 (4不能拆开出，贴钱出或挂花出)",
        "opening": "§开点 (不含2和王的够级牌可以开点; 每个人每局游戏能且只能开点一次)",
        "opening-fours": "§开点 (满足开点条件而不出4，则不视为开点)",
        "open-given-up": "§开点 (不满足条件而打出4，则视为放弃开点)",
        "natural-opening": "§开点 (not in these rules)",
        "revolution": "§番外篇2 (革命)",
        "void-hand": "§番外篇2 (有两个人革命时，本局作废)",
        "keep-head": "§番外篇2 (要头; 你的对家自动开点)",
        "places": "§头科 (1位) … 大落 (6位)",
        "hand-end": "§计分 (大落：6位)",
        "sweep": "§计分 (串三户，计12分)",
        "scoring": "§计分 (头科+4，二科+2，三科四科0，二落-2，大落-4)",
        "extras": "§计分 (没开点算-2分，被闷3算-1分，被烧牌算-1分，个人分数)",
        "wind-request": "§牌张大小 (no 申请接风: the last player leads)",
        "claim": "§牌张大小 (no 挑牌 in these rules)",
        "irregular": "§牌张大小 (错牌 not named; the charter's 错牌不出 is applied)",
        "buying": "§开点 (没有3和4的要花钱买; 一般优先向对家买，对家卖不出则按逆时针顺序询问，队友之间不需要用2买，而对手之间要用2买)",
        "gift": "§开点 (no 赠与: team-mates give without a 2)",
    },
)

TOURNAMENT = Ruleset(
    name="tournament",
    title="够级比赛玩法规则 (competition rules)",
    seed="004_dd0270d5d2ffb423.txt",
    joker_comparison="own-level",
    big_joker_play_dead=False,
    big_joker_beats_any=False,
    two_beat_one="big-jokers",
    big_joker_beaten_by="two",
    attach_forbidden=("3", "4"),
    gouji_minimum={"T": 5, "J": 4, "Q": 3, "K": 2, "A": 2, "2": 1, "X": 1},
    big_joker_plays_gouji=False,
    threes_held=True,
    smother="last-place",
    fours_whole=False,
    burn_needs_three=True,
    burn_failure="illegal",
    burn_claim_order="play-order",
    counter_burn=True,
    burns_count="standing",
    dead_gouji_on_last_play="none",
    opening_excludes=("small-joker", "twos"),
    opening_by_fours=True,
    natural_opening=True,
    revolution=False,
    revolution_needs_no_threes=False,
    revolution_opening="at-once",
    headless_answers_gouji=False,
    melee_when="second-place",
    wind_request=False,
    claim=False,
    calls=(),
    tribute_order=("point", "burn", "smother", "place"),
    point_table="one-card",
    mutual_point_optional=True,
    sweep_tribute=True,
    return_tribute=False,
    tribute_exemption=True,
    # tribute in detail, buying and gifts
    pay_from="dealt",
    return_after="all-tribute",
    sweep_keeps_tribute=True,
    buy_ranks=("3", "4"),
    buy_from=("opposite",),
    buy_price="two-or-joker",
    buy_required=False,
    team_gives_free=False,
    seller_keeps_one=True,
    threes_before_fours=True,
    buy_before_tribute=True,
    gift_from=("opposite", "team", "opposite-team"),
    first_lead="last-sixth",
    showing="none",
    team_draw=False,
    hand_end="one-left",
    headless_after=("finish", "smother", "burn-failure", "no-threes"),
    melee_begins="at-once",
    opening_in_melee=False,
    yield_to_passed=True,
    scoring=Scoring(
        places=(2, 1, 0, 0, -1, -2),
        sweep=(5, -5),
        opening_pair=1,
        burner=1,
        burned=-1,
        smotherer=1,
        smothered=-1,
        extras_count_for_team=True,
    ),
    sources={
        "calls": "§45 (第四十五条 本大纲不适用于每局开牌前宣布对家不开点的情况)",
        "tribute": "§29-§30 (第三十条 进点贡、进捎贡、进闷贡、进落贡; 串三家进对头贡)",
        "tribute-cards": "§35-§36 (第三十五条 2、小王、大王为法定进贡牌; 第三十六条 免贡)",
        "point-tribute": "§31 (第三十一条 不开点的玩家需向对家进贡1张牌)",
        "place-tribute": "§34 (第三十四条 大落需向头科进贡2张牌，二落需向二科进贡1张牌; 被串三家…向各自的对家进贡1张牌)",
        "burn-tribute": "§33 (第三十三条 被捎牌人需向捎牌人进贡1张牌)",
        "smother-tribute": "§32 (第三十二条 被闷牌人需向闷牌人进贡1张牌)",
        "return-tribute": "§35 (第三十五条 吃贡后不得回贡)",
        "tribute-exemption": "§37 (第三十七条 抗贡)",
        "first-lead": "§8 (第八条 从第二局起，由上局的大落开牌)",
        "showing": "§7-§8 (第七条 第一局的首个摸牌人通过抽签决定; 第八条 第一局开牌人由抽签决定: no 上班)",
        "team-draw": "§3 (第三条 联邦可直接指定成员，也可通过抽签组建: no colours named)",
        "match-score": "§40 (第四十条 按总积分判定胜负)",
        "deal": "§2 (第二条 每人初始持有36张牌)",
        "play-shape": "§9 (第九条 出牌需为同一点数)",
        "attach": "§6 (第六条 2、小王、大王可与除3、4外的任意点数牌组合出牌)",
        "same-count": "§9 (第九条 牌的数量需匹配)",
        "higher-rank": "§9 (第九条 顺牌的点数需大于已出牌的点数)",
        "joker-comparison": "§6 (第六条 2、小王、大王之间也可相互挂牌; 小王、大王的效力仍保持自身原有等级)",
        "big-joker-dead": "§5 (第五条: 大王效力最高, but two beat one)",
        "two-beat-one": "§5, §10 (第五条 大王效力最高，但存在“大王二杀一”规则，即两张大王可压制一张大王; 第十条 不受过牌限制)",
        "gouji-play": "§12 (第十二条 够级牌; 大王挂牌均不属于够级牌)",
        "pure-gouji": "§12 (第十二条 不含2、小王的够级牌称为纯够级牌)",
        "gouji-opposite-only": "§12-§13 (第十二条 够级; 第十三条 打点)",
        "turn-order": "§9 (第九条 按逆时针顺序依次顺牌)",
        "pass-bars": "§10 (第十条 过牌后…本轮不可再顺牌)",
        "opposite-exception": "§10 (第十条 对家牌不过)",
        "yield": "§11 (第十一条 让牌)",
        "round-end": "§9 (第九条 每轮最后顺牌者成为下一轮的发牌人)",
        "burn": "§14-§15 (第十四条 捎牌; 第十五条 以先顺牌者为准)",
        "burn-condition": "§16 (第十六条 手中有3，没有4…步步带王)",
        "burn-pass-bars": "§14 (第十四条 被未过牌的…顺牌)",
        "burn-failure": "§16 (第十六条: a condition of burning, no penalty named)",
        "counter-burn": "§14 (第十四条 反捎牌、解捎牌)",
        "dead-gouji": "§12 (no 够死级 in these rules)",
        "headless": "§12 (第十二条 头科产生后，其对家剩余够级牌的够级资格自动取消)",
        "melee": "§10, §12 (第十条 二科产生后，过牌限制自动解除; 第十二条 够级资格自动取消)",
        "take-the-wind": "§9 (第九条 每轮最后顺牌者成为下一轮的发牌人)",
        "threes-held": "§5, §19 (第五条 憋3; 第十九条 发3称为走牌)",
        "smother": "§20-§21 (第二十条 闷牌，自动成为大落，后续被闷牌者依次为二落)",
        "fours": "§17 (第十七条 一次性发4)",
        "opening": "§12, §17 (第十二条 仅纯够级牌具备开点资格; 第十七条 开点)",
        "opening-fours": "§17 (第十七条 在下一轮一次性发4，称为开点)",
        "open-given-up": "§18 (第十八条 随意发4或顺4，视为放弃开点)",
        "natural-opening": "§17 (第十七条 自然开点)",
        "revolution": "§44 (第四十四条: not in these rules)",
        "void-hand": "§44 (not in these rules)",
        "keep-head": "§44 (not in these rules)",
        "places": "§4 (第四条 头科…大落)",
        "hand-end": "§4 (第四条 第六位为大落)",
        "sweep": "§4, §38 (第四条 串三家; 第三十八条 串三家的联邦得5分)",
        "scoring": "§38 (第三十八条 头科得2分…大落得-2分)",
        "extras": "§38 (第三十八条 开点±1, 捎牌±1, 闷牌±1)",
        "wind-request": "§9 (no 申请接风: 每轮最后顺牌者成为下一轮的发牌人)",
        "claim": "§9 (no 挑牌 in these rules)",
        "irregular": "§9 (第九条 若顺牌有误，按错牌不出原则，自动取消其顺牌权)",
        "buying": (
            "§23, §28, §35 (第二十三条 若手中无3或4，可在开牌前用2、小王或大王向对家买3或4，买卖数量需一致; 自愿行为; "
            "非对头间不得买卖; 非摸牌获得的2、小王、大王，不得用于买3或4; 买卖3优先于买卖4; 第三十五条 需先完成买卖，再进行进贡)"
        ),
        "gift": "§24-§25 (第二十四条 若手中无3或4且无2、小王、大王，对家需无条件赠与3或4; 若对家无法赠与，由上联或下联…上家或下家无条件赠与; 第二十五条 3和4各赠与1张)",
    },
)

#: The presets by name, one per rule text.
PRESETS: dict[str, Ruleset] = {r.name: r for r in (ONLINE, CLASSIC, CHARTER, FOURS, TOURNAMENT)}

#: Names of the option fields (everything but the identity and the sources).
OPTION_NAMES: tuple[str, ...] = tuple(n for n in Ruleset.model_fields if n not in {"name", "title", "seed", "sources"})


class UnknownRuleset(GoujiError, KeyError):
    """A ruleset name that is not a preset (code ``unknown-ruleset``); the message lists the presets."""

    default_code = "unknown-ruleset"


class BadOption(GoujiError, ValueError):
    """An option override with an unknown name or a value the option does not take (code ``bad-option``)."""

    default_code = "bad-option"


def get_ruleset(name: str) -> Ruleset:
    """The preset called ``name`` (case-insensitive).

    Raises :class:`UnknownRuleset` listing the valid names.
    """
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise UnknownRuleset(f"unknown ruleset {name!r}: expected one of {', '.join(PRESETS)}") from None


def option_text(value: Any) -> str:
    """An option's value as an Options tag writes it (and ``gouji rules`` shows it): ``yes``/``no``,
    ``a+b`` (``none`` for no item), ``T:5+J:4`` for gouji-minimum, else the value itself.

    >>> option_text(True), option_text(()), option_text(("burn", "point")), option_text({"T": 4})
    ('yes', 'none', 'burn+point', 'T:4')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return "+".join(map(str, value)) or "none"
    if isinstance(value, dict):
        return "+".join(f"{k}:{v}" for k, v in value.items())
    return str(value)


def option_rule(option: str) -> str:
    """The rule key an option belongs to."""
    return Ruleset.model_fields[option].json_schema_extra["rule"]  # type: ignore[index]


_MINIMUM_ITEM = re.compile(r"(10|[2-9TJQKAXD]):([1-9][0-9]?)", re.IGNORECASE)


def _minimum(text: str, base: dict[str, int]) -> dict[str, int]:
    """``gouji-minimum=T:4+J:3``: the fewest cards of each rank named that make a 够级 play; the
    ranks not named keep ``base``'s. Raises :class:`BadOption` for anything else."""
    out = dict(base)
    for item in text.replace(",", "+").replace(" ", "+").split("+"):
        if not item:
            continue
        m = _MINIMUM_ITEM.fullmatch(item)
        if m is None:
            raise BadOption(
                f"option gouji-minimum: {item!r} is not RANK:COUNT; expected items like T:4 joined by +, e.g. T:4+J:3"
            )
        rank = "T" if m.group(1) == "10" else m.group(1).upper()
        out[rank] = int(m.group(2))
    return out


def _value(raw: str, option: str, ruleset: Ruleset | None = None) -> Any:
    text = raw.strip()
    if option == "gouji_minimum":
        return _minimum(text, ruleset.gouji_minimum if ruleset is not None else STANDARD_MINIMUM)
    annotation = str(Ruleset.model_fields[option].annotation)
    if "tuple" in annotation:
        return tuple(v for v in text.replace("+", " ").replace(",", " ").split()) if text not in {"", "none"} else ()
    if option == "scoring":
        raise BadOption("scoring cannot be set from a tag; derive a ruleset in Python")
    low = text.lower()
    if annotation == "<class 'bool'>":
        if low in {"yes", "true", "on", "1"}:
            return True
        if low in {"no", "false", "off", "0"}:
            return False
        raise BadOption(f"option {option.replace('_', '-')}: {raw!r} is not yes or no")
    return low if "Literal" in annotation else text


#: Options renamed, by their former names, still read: 憋三 is "threes held" in the glossary.
FORMER_NAMES = {"threes_last": "threes_held"}


def with_options(ruleset: Ruleset, options: dict[str, str]) -> Ruleset:
    """``ruleset`` with options overridden from text, e.g. ``{"threes-held": "yes"}``.

    Names take ``-`` or ``_`` (and the former names of :data:`FORMER_NAMES`); yes/no for switches; ``a+b`` for lists. Raises
    :class:`BadOption` naming the valid options or values.

    >>> rules = with_options(get_ruleset("charter"), {"threes-held": "yes", "showing": "none"})
    >>> rules.name, rules.threes_held, rules.may_claim
    ('charter', True, False)
    >>> with_options(rules, {"threes": "yes"})
    Traceback (most recent call last):
    gouji_record.rules.rulesets.BadOption: unknown option 'threes': expected one of ...
    """
    update: dict[str, Any] = {}
    for raw_name, raw in options.items():
        name = raw_name.strip().replace("-", "_")
        name = FORMER_NAMES.get(name, name)
        if name not in OPTION_NAMES:
            names = ", ".join(n.replace("_", "-") for n in OPTION_NAMES)
            raise BadOption(f"unknown option {raw_name!r}: expected one of {names}")
        update[name] = _value(raw, name, ruleset)
    try:
        return Ruleset.model_validate({**ruleset.model_dump(), **update, "name": ruleset.name})
    except ValidationError as e:
        err = e.errors()[0]
        field = str(err["loc"][0]).replace("_", "-")
        raise BadOption(f"option {field}: {err['msg']}") from None


def options_tag(ruleset: Ruleset) -> str:
    """The ``Options`` tag value that gives ``ruleset`` from the preset of its name: each option
    that differs, ``name=value`` joined by ``", "`` (``""`` for the preset itself), so that a
    record written under a variant replays under it.

    Raises :class:`BadOption` for a difference a tag cannot hold (``scoring``).

    >>> options_tag(with_options(get_ruleset("charter"), {"threes-held": "yes", "showing": "none"}))
    'threes-held=yes, showing=none'
    """
    preset = get_ruleset(ruleset.name)
    items = []
    for name in OPTION_NAMES:
        value = getattr(ruleset, name)
        if value == getattr(preset, name):
            continue
        if isinstance(value, BaseModel):
            raise BadOption(f"option {name.replace('_', '-')} cannot be written in an Options tag")
        if isinstance(value, dict):  # gouji-minimum: the ranks that differ
            value = {k: v for k, v in value.items() if getattr(preset, name).get(k) != v}
        items.append(f"{name.replace('_', '-')}={option_text(value)}")
    return ", ".join(items)


def parse_options(text: str) -> dict[str, str]:
    """Read an ``Options`` tag value: ``"threes-held=yes, hand-end=one-left"``.

    Raises :class:`BadOption` for an item that is not ``name=value``.
    """
    out: dict[str, str] = {}
    for item in text.replace(";", ",").split(","):
        if not item.strip():
            continue
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise BadOption(f"option {item.strip()!r}: expected name=value")
        out[name.strip()] = value.strip()
    return out
