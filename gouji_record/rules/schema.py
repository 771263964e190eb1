"""The ruleset schema (规则选项): the :class:`Ruleset` model, each of whose fields is one option on
which the rule texts in ``shared/seeds/`` differ, and the rule keys (:data:`RULES`) each option,
event and diagnostic belongs to.

A ruleset maps each rule key to the section of its rule text it comes from (:meth:`Ruleset.cite`),
and answers the questions the engine asks of the options (:meth:`Ruleset.carries_nothing`, …).
The presets' values are :mod:`~gouji_record.rules.presets`' data, validated into rulesets here
(:data:`PRESETS`, :func:`get_ruleset`), so that a variant can cite how it differs from the preset
of its name. Options as text are :mod:`~gouji_record.rules.options`'; every name of the three is
importable from :mod:`~gouji_record.rules.rulesets`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..bilingual import Bilingual
from ..cards import BIG_JOKER, RANK_LETTERS, SMALL_JOKER, THREE, TWO, Counts
from ..errors import GoujiError
from .presets import PRESET_DATA

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
    "tribute-refusal": ("a taker refuses a tribute, a payer a returned card", "拒绝吃贡、拒绝还贡牌"),
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

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)  # (see model.Action)

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

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)  # (see model.Action)

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
        "point-tribute",
        "when neither of two opposites opened, whether they pay each other (互进点贡) is one decision, for both "
        "directions: both pay or neither does",
    )
    sweep_tribute: bool = _opt("tribute", "after a sweep each swept seat pays its opposite one card (对头贡)")
    return_tribute: bool = _opt("return-tribute", "the takers of place tribute return as many cards (还贡)")
    tribute_exemption: bool = _opt("tribute-exemption", "four big jokers exempt the team, four small the seat (抗贡)")
    refuse_tribute: bool = _opt(
        "tribute-refusal", "a taker may refuse a tribute (拒绝吃贡), written refuse G>T:cards: it is then not owed"
    )
    refuse_return: bool = _opt(
        "tribute-refusal",
        "a payer of place tribute that holds no card of a returned card's rank may refuse it (refuse T>G:card), and "
        "the taker returns another in its place",
    )
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
    melee_begins: Literal["at-once", "after-dead-gouji", "next-round"] = _opt(
        "melee",
        "the four-way melee begins with the departure that makes it due (at-once); or so, unless that "
        "departure is 1st or 2nd place's last play and gives its opposite a 够死级 chance, which comes "
        "first: then with the next round (after-dead-gouji); or always with the next round (the round "
        "of that last play is played out under the 够级 rules: next-round)",
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


#: The presets by name, one per rule text: made from their data as it is (``model_construct``),
#: which is what validating it gives (tests/test_presets.py checks each, value and type), so that
#: no validator is built for them at every start (the models' ``defer_build``).
PRESETS: dict[str, Ruleset] = {
    data["name"]: Ruleset.model_construct(**{**data, "scoring": Scoring.model_construct(**data["scoring"])})
    for data in PRESET_DATA
}

#: Names of the option fields (everything but the identity and the sources).
OPTION_NAMES: tuple[str, ...] = tuple(n for n in Ruleset.model_fields if n not in {"name", "title", "seed", "sources"})


class UnknownRuleset(GoujiError, KeyError):
    """A ruleset name that is not a preset (code ``unknown-ruleset``); the message lists the presets."""

    default_code = "unknown-ruleset"


def get_ruleset(name: str) -> Ruleset:
    """The preset called ``name`` (case-insensitive).

    Raises:
        UnknownRuleset: ``name`` is no preset, or not text; the message lists the presets.
    """
    if not isinstance(name, str):
        raise UnknownRuleset(f"ruleset {name!r}: expected the name of one of {', '.join(PRESETS)}")
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


__all__ = [
    "OPTION_NAMES",
    "PRESETS",
    "RULES",
    "Departure",
    "OpeningExclusion",
    "Ruleset",
    "Scoring",
    "UnknownRuleset",
    "get_ruleset",
    "option_rule",
    "option_text",
]
