"""Reviewing a hand (复盘点评): every decision, with the alternatives the rules allowed.

A review walks the positions of a replayed hand and, at each decision, asks the legal-action
generator (:func:`~gouji_record.rules.moves.legal_actions`, the one ``gouji moves`` uses, which
asks the engine itself) what else the seat could have done. It reports facts, not advice:

- ``burn-missed`` (可烧未烧): a seat could have burned (烧牌) an opponent's 够级 play (or 够死级,
  dead gouji, named as such), the burn condition holding, and the chance went by; the cards it
  could have used; ``partner-burn-missed`` (可烧队友未烧) the same on a team-mate's play, ranked
  after the others (burning one's own side costs the team the 烧贡 or the score it would win);
- ``answer-missed`` (未打点): the opposite could have answered (打点) a 够级 play and passed;
- ``opening-missed`` (未开点): a seat that never opened (开点) had a legal play that would have
  opened for certain (no seat could then beat or burn it), and what not opening costs it under
  the ruleset: the 点贡 it pays next hand, and its own score (计分);
- under 开点发4 (``opening-by-fours``: 003 §开点, 004 §17-§18) winning the round only
  qualifies, so the decisions are others: ``qualify-missed`` (未得开点资格) a play that would
  have won the round for certain, qualifying the seat, which never opened; ``fours-missed``
  (未发4开点) a qualified seat's lead that is not all its 4s, when leading them would have opened;
  ``opening-given-up`` (放弃开点) 4s played in a way that gives opening up for the hand (004 §18),
  where the seat could have done otherwise; each with the same cost;
- ``yield-taken`` (让牌) and ``yield-missed`` (可让未让): a yield made, or one the seat could have
  made and passed instead (a yield keeps the turn for later: 002 §12), only where a seat it
  yields to (its downstream neighbour and partner) may still act on the play: otherwise the turn
  comes straight back and the yield changes nothing;
- ``threes-only`` (只剩3) and ``smothered`` (被闷): under 憋三, the moment a seat holds only 3s
  (its last play, if beaten, smothers it) and the moment its 3s can no longer be played (闷);
- ``undecided`` (暗牌未定): a question the cards the record does not give (``?N``) decide.

With ``rollouts`` > 0 each finding with alternatives also gets an *estimate*: the rest of the
hand played that many times by a self-play bot (:data:`~gouji_record.bots.selfplay.BOTS`) after the
action made and after each alternative, with the mean points of the deciding seat's team. The
deal must be known (no ``?N``) for that.

>>> from gouji_record import parse, replay
>>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
>>> head = f'[Event "x"][Site "y"][Date "2026.11.30"][Ruleset "charter"]{seats}[Result "*"]'
>>> deal = ("deal 1: KKKKKKJJJJJJJJJTTTTT6666444444444444 2: 2222KKJJ9999999977777777666666553333"
...         " 3: DDDX222222222222QQQQQQQQQQQQ88888888 4: AAAAAAAAAAAAAKKKKKKQQQQJJJJJ99993333"
...         " 5: DXXXKK888888887777777755555555554444 6: AAATTTTTTTTTTT9999666666555533333333")
>>> hand = replay(parse(head + deal + " play 1. 1:TTTTT 4:JJJJJ 1:-")[0])
>>> [(f.number, f.kind, f.seat, f.alternatives[:2], f.more) for f in review(hand).findings]
[(2, 'partner-burn-missed', 3, ('3:*22222', '3:*D2222'), 24), (3, 'burn-missed', 3, ('3:*22222', '3:*D2222'), 24), (3, 'answer-missed', 1, ('1:KKKKK',), 0)]
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from ..bilingual import Bilingual
from ..cards import BIG_JOKER, FOUR, SMALL_JOKER, THREE, TWO, parse_cards
from ..matches.match import tribute_due
from ..matches.verdict import Verdict
from ..model import Action, ActionKind, GameRecord, join_hand, split_hand
from ..notation.build import SourceMap
from ..judging.replay import Replay, replay
from ..rules.engine import SEATS, Position, begin_play, opposite, step, team, team_name
from ..rules.position import SEATS_AFTER
from ..rules.turns import may_follow
from ..rules.events import EventKind, IllegalAction
from ..rules.moves import FOURS, GOUJI, OPENING, HiddenPlays, first_play, gouji_plays, has_play, legal_actions, legal_burns, legal_plays, proposed_plays, stepped
from ..rules.plays import classify, excluded_from_opening, is_gouji
from ..rules.rulesets import Ruleset
from ..rules.scoring import scores
from ..bots.process import DEFAULT_TIMEOUT
from ..bots.referee import Rollouts
from ..bots.selfplay import BOTS, finish_hand

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..judging.report import Problem
    from ..model import GameRecord
    from ..running.batch import ReadHand

#: Each kind of finding: its Chinese and English names (UI text), and the rule it concerns.
KINDS: dict[str, tuple[str, str, str]] = {
    "burn-missed": ("可烧未烧", "burn not taken", "burn"),
    "answer-missed": ("未打点", "answer not made", "gouji-opposite-only"),
    "opening-missed": ("未开点", "opening not made", "opening"),
    "qualify-missed": ("未得开点资格", "qualifying to open not made", "opening-fours"),
    "fours-missed": ("未发4开点", "opening by leading 4s not made", "opening-fours"),
    "opening-given-up": ("放弃开点", "opening given up", "open-given-up"),
    "yield-taken": ("让牌", "yield taken", "yield"),
    "yield-missed": ("可让未让", "yield not taken", "yield"),
    "threes-only": ("只剩3", "only 3s left", "smother"),
    "smothered": ("被闷", "smothered", "smother"),
    "undecided": ("暗牌未定", "hidden cards decide", "deal"),
    "partner-burn-missed": ("可烧队友未烧", "burn of a team-mate not taken", "burn"),
}
#: Replies kept a seat to try first on the next candidate opening (:func:`_certain_outcome`).
REPLIES_KEPT = 3
#: Alternatives tried per finding in rollouts (the action made, and this many others).
ROLLOUT_ALTERNATIVES = 3
#: Plays shown per finding (the rest are counted).
SHOWN = 6
#: The self-play bots' names in Chinese (UI text).
BOT_ZH = {"person": "拟人", "random": "随机"}
#: Why a review asked for rollouts has none.
UNESTIMATED = Bilingual(
    "no estimates: rollouts play the rest of the hand from the whole deal, and this record does not give it",
    "没有估计：推演要从完整的发牌打完余下的牌，而此记录没有写全发牌",
)


@dataclass(frozen=True)
class Estimate:
    """A rollout estimate (估计) of one action at a decision: ``mean`` team points of the deciding
    seat's team over ``n`` hands played out by ``bot`` after ``action`` (text, e.g. ``5:*XXKK``);
    ``actual`` marks the action the record made."""

    action: str
    mean: float
    n: int
    bot: str
    actual: bool = False


@dataclass(frozen=True)
class Finding:
    """One fact about one decision.

    ``kind`` is a key of :data:`KINDS`; ``action`` the 0-based index (in
    ``record.all_actions``) of the action the record made at the decision (:attr:`number` from
    1, as users see it); ``seat`` the deciding seat; ``text`` what happened, in both languages
    (:class:`~gouji_record.bilingual.Bilingual`); ``alternatives`` the actions the rules allowed
    instead (``5:*XXKK``), at most :data:`SHOWN`, with ``more`` the number left out; ``cost`` the
    cards of 点贡 the seat owes next hand for not opening (an opening finding of a finished hand
    under a ruleset with point tribute), else ``None``; ``score_cost`` the points of its own score
    (计分) not opening loses it under a ruleset that scores opening (003 §计分, 004 §38), else
    ``None``; ``rule`` a rule key and ``source`` its citation; ``estimates`` the rollout
    estimates, if asked for.
    """

    kind: str
    action: int
    seat: int
    text: Bilingual
    rule: str
    source: str
    alternatives: tuple[str, ...] = ()
    more: int = 0
    cost: int | None = None
    score_cost: int | None = None
    estimates: tuple[Estimate, ...] = ()
    #: The alternatives as actions (all of them), for rollouts.
    choices: tuple[Action, ...] = field(default=(), repr=False, compare=False)

    @property
    def number(self) -> int:
        """The action's number as users see it (from 1)."""
        return self.action + 1

    @property
    def decision(self) -> bool:
        """Whether the finding is about a decision (决策) of its seat, not a state of its hand
        (局面: :data:`STATES`, what the cards and the others' plays made of it)."""
        return self.kind not in STATES

    @property
    def missed(self) -> bool:
        """Whether the finding names another action the rules allowed the seat (a chance missed:
        a burn, an answer, an opening, a yield): what the summary counts per 100 decisions."""
        return self.decision and bool(self.alternatives)

    def as_dict(self) -> dict:
        """JSON-ready data: the fields, the text in both languages, the kind's names, and whether
        it is a ``decision`` (else a state, :data:`STATES`) and a chance ``missed``."""
        zh, en, _ = KINDS[self.kind]
        return {
            "kind": self.kind,
            "kind_zh": zh,
            "kind_en": en,
            "decision": self.decision,
            "missed": self.missed,
            "action": self.number,
            "seat": self.seat,
            "text": str(self.text),
            "text_zh": self.text.zh,
            "alternatives": list(self.alternatives),
            "more_alternatives": self.more,
            "cost": self.cost,
            "score_cost": self.score_cost,
            "rule": self.rule,
            "source": self.source,
            "estimates": [e.__dict__ for e in self.estimates],
        }


@dataclass
class Review:
    """The review of one hand: ``findings`` in action order, ``hidden`` the seats whose cards the
    record does not all give (findings that depend on them are ``undecided`` or left out),
    ``actions`` the number of actions walked, ``unestimated`` whether rollouts were asked for
    and could not be made (cards of the deal are not written), and ``view`` the seat from whose
    view it was made (``review(..., view=seat)``), else ``None`` (the whole table's view)."""

    result: Replay
    findings: list[Finding] = field(default_factory=list)
    hidden: tuple[int, ...] = ()
    actions: int = 0
    unestimated: bool = False
    view: int | None = None

    @property
    def caveat(self) -> Bilingual | None:
        """What the review could not see: the seat's view it was made from, or the hidden cards
        it leaves open; ``None`` for a whole deal seen from the whole table."""
        if self.view is not None:
            return Bilingual(
                f"reviewed from seat {self.view}'s view: its own cards, the cards played and the counts, "
                "not the others' hands; only its own decisions",
                f"从{self.view}号位的视角点评：只用它自己的牌、已出的牌和张数，不看别家的牌；只评它自己的决定",
            )
        if not self.hidden:
            return None
        seats = ", ".join(map(str, self.hidden))
        return Bilingual(
            f"seats {seats} hold cards the record does not give (?N): what they could have done is reviewed "
            "only where the written cards decide it",
            f"{'、'.join(map(str, self.hidden))}号位有记录未写明的牌（?N）：只在写明的牌能定论处点评",
        )


def _plays_text(actions: list[Action]) -> tuple[tuple[str, ...], int]:
    shown = tuple(a.text for a in actions[:SHOWN])
    return shown, max(0, len(actions) - SHOWN)


def _cards_list(actions: list[Action], zh: bool = False) -> str:
    cards = [a.cards for a in actions[:SHOWN]]
    more = len(actions) - SHOWN
    sep = "、" if zh else ", "
    text = sep.join(cards)
    if more > 0:
        text += f"等{len(actions)}种" if zh else f" and {more} more"
    return text


def _decided(pos: Position, a: Action) -> bool:
    """Whether the engine's acceptance of the play ``a`` is certain, not only possible: the seat's
    cards are all known, or nothing about the play depends on the cards it keeps (the burn
    condition, 3s held whole and last, 4s whole: the engine accepts what the hidden cards allow)."""
    if not pos.unknown[a.seat - 1]:
        return True
    if a.burn:
        return False
    cards, rules = parse_cards(a.cards), pos.ruleset
    return not (cards[THREE] and rules.threes_held) and not (cards[FOUR] and rules.fours_whole)


def _round_outcome(events, seat: int, after: Position) -> EventKind | None | bool:
    """What ``events`` give ``seat`` for opening: :attr:`EventKind.OPEN` (开点), or, under 开点发4,
    :attr:`EventKind.OPEN_QUALIFIED` (the round won, to open by leading its 4s next); ``None`` when
    that qualification rests only on cards the record does not give (``?N``: the engine qualifies
    the seat on them, they are possible 4s); ``False`` when neither."""
    for e in events:
        if e.seats[:1] == (seat,):
            if e.kind is EventKind.OPEN:
                return EventKind.OPEN
            if e.kind is EventKind.OPEN_QUALIFIED:
                return EventKind.OPEN_QUALIFIED if after.hands[seat - 1][FOUR] else None
    return False


_PLAY, _PASS, _YIELD = ActionKind.PLAY, ActionKind.PASS, ActionKind.YIELD
#: Each seat's pass and yield, made once (actions are immutable).
_PASSES = {s: Action(seat=s, kind=_PASS) for s in SEATS}
_YIELDS = {s: Action(seat=s, kind=_YIELD) for s in SEATS}


def _certain_outcome(pos: Position, action: Action, replies: dict[int, list[Action]] | None = None) -> EventKind | None | bool:
    """What ``action`` gives its seat for opening whatever the others do (:func:`_round_outcome`):
    nobody may beat or burn it and the round ends with it. ``None`` when cards the record does not
    give decide it, ``False`` when it neither opens nor qualifies for certain. ``replies``, if
    given, keeps by seat the last plays found that the engine accepted in reply (kept from one
    call to the next, :data:`REPLIES_KEPT` a seat, the latest first): they are put to the engine
    first (:func:`~gouji_record.rules.moves.first_play`'s hints), which does not change the
    answer, only how soon it comes."""
    seat = action.seat
    after = stepped(pos, action, keep=False)  # (the engine's answer, kept if a listing asked it already)
    if type(after) is str:  # illegal
        return False
    pos, events = after
    if (outcome := _round_outcome(events, seat, pos)) is not False:
        return outcome
    if pos.top is None or not pos.top.can_open:
        return False
    for _ in range(12):  # the others pass one by one, while none of them could play
        if any(pos.unknown):
            listed = legal_actions(pos)
            if any(isinstance(a, HiddenPlays) for a in listed):
                return None
            if any(a.kind is ActionKind.PLAY for a in listed):
                return False
        elif replies is None:
            if has_play(pos):  # every card known: no HiddenPlays, and the first play found decides
                return False
        elif (found := first_play(pos, kept := replies.setdefault(pos.to_act, []))) is not None:
            if isinstance(found, Action) and found.seat == pos.to_act:
                if found in kept:
                    kept.remove(found)
                kept.insert(0, found)
                del kept[REPLIES_KEPT:]
            return False
        if pos.to_act is None:
            return False
        try:
            pos, events = step(pos, _PASSES[pos.to_act])
        except IllegalAction:
            return False
        if (outcome := _round_outcome(events, seat, pos)) is not False:
            return outcome
        if pos.top is None or pos.over:
            return False
    return False


def _closed_to_opening(pos: Position, seat: int) -> bool:
    """Whether no play of ``seat`` can open (开点) or qualify it (开点发4) now, in play (not in the
    pre-play phase) and without a kept head (要头): a round opens for the seat that wins it only
    with a play that may open (the engine's ``Top.can_open``), and no such play is made by a
    headless seat (无头), in the melee (乱缠) or once two seats have finished, unless the ruleset
    opens in the melee too (001 §38); under 开点发4 a won round qualifies only a seat that still
    holds 4s and has not given opening up (004 §17-§18)."""
    rules = pos.ruleset
    if pos.headless(seat) or (not rules.opening_in_melee and (pos.melee or len(pos.finished) >= 2)):
        return True
    # 开点发4: a won round qualifies a seat that has not given opening up and keeps 4s (004 §17-§18)
    return rules.opening_by_fours and (seat in pos.given_up or not (pos.hands[seat - 1][FOUR] or pos.unknown[seat - 1]))


def _as_made(pos: Position, action: Action) -> Action | None:
    """The action as the engine took it. An irregular one (``^``) that breaks a rule is not made
    (错牌不出): the seat whose turn it was passes instead, and any other seat did nothing (``None``)."""
    if not action.irregular:
        return action
    plain = action.model_copy(update={"irregular": False})
    try:
        step(pos, plain)
    except IllegalAction:
        if not pos.over and not pos.preplay and action.seat == pos.to_act and pos.top is not None:
            return Action(seat=action.seat, kind=ActionKind.PASS)
        return None
    return plain


def _burnable(pos: Position) -> tuple | None:
    """The round and the play on top when it is a 够级 (or 够死级) play others could burn, else ``None``."""
    top = pos.top
    return (pos.round, top) if top is not None and (top.restricted or top.burn_only) and not pos.over else None


def _may_qualify(pos: Position, seat: int) -> bool:
    """Whether ``seat``'s cards (all, if some are not written) still hold a 够级 play that may open
    (开点): a rank held at least as often as its 够级 minimum, with the 2s and jokers
    ``opening_excludes`` does not bar (004 §17 纯够级牌; 003 §开点)."""
    if pos.unknown[seat - 1]:
        return True
    rules, hand = pos.ruleset, pos.hands[seat - 1]
    extra = [0] * len(hand)
    for rank, barred in ((TWO, "twos"), (SMALL_JOKER, "small-joker"), (BIG_JOKER, "big-joker")):
        if barred not in rules.opening_excludes:
            extra[rank] = hand[rank]
    for rank in range(TWO):
        if hand[rank]:
            cards = list(extra)
            cards[rank] = hand[rank]
            play = classify(tuple(cards))
            if is_gouji(play, rules) and not excluded_from_opening(play, rules):
                return True
    return False


class OpeningCost(NamedTuple):
    """What not opening (开点) costs a seat in a finished hand, as it stands and had it opened:
    ``tribute`` and ``tribute_opened`` the cards of 点贡 it pays its opposite next hand (``None``
    under a ruleset without point tribute), ``score`` and ``score_opened`` its own score's extras
    (计分: 003 §计分's −2 for not opening, 004 §38's ±1 between opposites; ``None`` under a
    ruleset that scores none)."""

    tribute: int | None
    tribute_opened: int | None
    score: int | None
    score_opened: int | None

    def text(self, seat: int) -> Bilingual | None:
        """The cost in words, or ``None`` when opening would have changed nothing."""
        en, zh = [], []
        opp = opposite(seat)
        if self.tribute is not None and self.tribute != self.tribute_opened:
            en.append(f"it pays seat {opp} {self.tribute} card(s) of 点贡 next hand ({self.tribute_opened} had it opened)")
            zh.append(f"下一局要向{opp}号位交{self.tribute}张点贡（开点则{self.tribute_opened}张）")
        if self.score is not None and self.score != self.score_opened:
            en.append(f"its personal score (个人分) is {self.score:+d} ({self.score_opened:+d} had it opened)")
            zh.append(f"个人得分{self.score:+d}（开点则{self.score_opened:+d}）")
        return Bilingual("; not opening, " + " and ".join(en), "；未开点，" + "，".join(zh)) if en else None


def _opening_cost(result: Replay, seat: int) -> OpeningCost | None:
    """What not opening costs ``seat`` (:class:`OpeningCost`), as the match reckons the tribute
    (:func:`~gouji_record.matches.match.tribute_due`; after a sweep there may be none, 002 §21(7))
    and the hand's score (:func:`~gouji_record.rules.scoring.scores`); ``None`` when the hand is not
    over (or void)."""
    final, rules = result.final, result.ruleset
    if not final.over or final.void:
        return None
    opened = replace(final, opened=final.opened | {seat})
    tribute = tribute_opened = None
    if "point" in rules.tribute_order:
        def owed(pos: Position) -> int:
            return sum(d.count for d in tribute_due(rules, pos) if d.kind == "point" and d.giver == seat)

        tribute, tribute_opened = owed(final), owed(opened)
    sc = rules.scoring
    score = score_opened = None
    if sc.not_opened or sc.opening_pair:
        score, score_opened = scores(rules, final).seats[seat], scores(rules, opened).seats[seat]
    return OpeningCost(tribute, tribute_opened, score, score_opened)


class _Walk:
    """One pass over the positions of a hand, collecting findings."""

    def __init__(self, result: Replay) -> None:
        self.result = result
        self.rules = result.ruleset
        self.findings: list[Finding] = []
        final = result.final
        self.unopened = {s for s in SEATS if s not in final.opened}  # by the end of the record
        #: the events of each action, and (seat, round): the rounds that qualified a seat to open by
        #: leading its 4s; read only under 开点发4 (``opening_by_fours``), and made only then
        self.events_at: dict[int, list] = {}
        self.qualified_in: set[tuple[int, int | None]] = set()
        if self.rules.opening_by_fours:
            for e in result.events:
                self.events_at.setdefault(e.action, []).append(e)
            self.qualified_in = {(e.seats[0], e.round) for e in result.events if e.kind is EventKind.OPEN_QUALIFIED}
        #: what not opening costs each seat (:func:`_opening_cost`), once asked
        self.costs: dict[int, OpeningCost | None] = {}
        #: by seat, its last plays the engine accepted in reply to a candidate opening (:func:`_certain_outcome`)
        self.replies: dict[int, list[Action]] = {}

    def add(self, kind: str, index: int, seat: int, en: str, zh: str, plays: list[Action] = (), **extra) -> None:
        rule = KINDS[kind][2]
        shown, more = _plays_text(list(plays))
        self.findings.append(
            Finding(kind, index, seat, Bilingual(en, zh), rule, self.rules.cite(rule), shown, more, choices=tuple(plays), **extra)
        )

    def burns(self, pos: Position) -> dict[int, tuple[list[Action], bool]]:
        """Each seat's legal burns of the top play now, and whether hidden cards allow others."""
        by_seat: dict[int, list] = {}
        for a in legal_burns(pos):
            if a.burn:
                by_seat.setdefault(a.seat, []).append(a)
        # the cards a seat burns with, or those it keeps (the condition), are not all known: undecided
        return {
            s: ([], True) if pos.unknown[s - 1] or any(isinstance(a, HiddenPlays) for a in burns) else (burns, False)
            for s, burns in by_seat.items()
        }

    def run(self) -> list[Finding]:
        result = self.result
        positions, actions = result.positions, result.record.all_actions
        key = None
        pending: dict[int, tuple[int, list[Action], bool, object]] = {}
        walked = min(len(actions), len(positions) - 1)
        for i in range(walked):
            pos, action, after = positions[i], actions[i], positions[i + 1]
            top = pos.top
            now = (pos.round, top) if top is not None and (top.restricted or top.burn_only) and not pos.over else None  # _burnable
            if now != key:
                self.flush(pending)
                pending = {}
                key = now
                if now is not None:
                    for s, (plays, hidden) in self.burns(pos).items():
                        pending[s] = (i, plays, hidden, top)
            if action.irregular:
                action = _as_made(pos, action)
                if action is None:  # an irregular action not made: no decision was taken
                    continue
            kind, seat = action.kind, action.seat
            if kind is _PLAY and action.burn:
                pending.pop(seat, None)
            # (each question's own first test, made here first: most actions ask none)
            if top is not None and (kind is _YIELD or (kind is _PASS and seat == opposite(top.seat))) and not pos.over:
                self.answer(pos, i, action, top)
                self.yields(pos, i, action, top)
            if seat in self.unopened and pos.to_act == seat:
                self.opening(pos, i, action)
            if after.smothers is not pos.smothers or (kind is _PLAY and (now_top := after.top) is not None and now_top.smother_risk):
                self.threes(pos, after, i, action)
        if result.final.over or _burnable(positions[walked]) != key:  # the last chance went by
            self.flush(pending)
        self.findings.sort(key=lambda f: (f.action, list(KINDS).index(f.kind), f.seat))
        return self.findings

    def flush(self, pending: dict) -> None:
        for seat, (i, plays, hidden, top) in pending.items():
            partner = team(seat) == team(top.seat)
            what, what_zh = ("dead gouji (够死级) ", "够死级") if top.burn_only else ("", "")
            whose, whose_zh = (f"its team-mate seat {top.seat}'s", f"队友{top.seat}号位的") if partner else (f"seat {top.seat}'s", f"{top.seat}号位的")
            victim, victim_zh = f"{whose} {what}{top.play}", f"{whose_zh}{what_zh}{top.play}"
            if plays:
                self.add(
                    "partner-burn-missed" if partner else "burn-missed",
                    i,
                    seat,
                    f"seat {seat} could have burned (烧牌) {victim} with {_cards_list(plays)}, the burn condition "
                    "holding; it did not",
                    f"{seat}号位本可用{_cards_list(plays, True)}烧{victim_zh}（烧牌条件成立），但没有烧",
                    plays,
                )
            elif hidden:  # (the play named alike for every seat: the undecided of one action fold together)
                self.add(
                    "undecided",
                    i,
                    seat,
                    f"whether seat {seat} could have burned seat {top.seat}'s {what}{top.play} depends on cards the "
                    "record does not give (to burn with, or to keep the burn condition)",
                    f"{seat}号位能否烧{top.seat}号位的{what_zh}{top.play}，取决于记录未写明的牌（烧牌用的牌，或烧牌条件所需的牌）",
                )

    def answer(self, pos: Position, i: int, action: Action, top) -> None:
        seat = action.seat
        if not (top.restricted and action.kind is ActionKind.PASS and seat == opposite(top.seat)):
            return
        listed = legal_plays(pos, seat)
        plays = [a for a in listed if isinstance(a, Action) and a.kind is ActionKind.PLAY and not a.burn]
        hidden = any(isinstance(a, HiddenPlays) and not a.burn for a in listed) or not all(_decided(pos, a) for a in plays)
        plays = [a for a in plays if _decided(pos, a)]
        if plays:
            self.add(
                "answer-missed",
                i,
                seat,
                f"seat {seat} could have answered (打点) its opposite's gouji play (够级) {top.play} with "
                f"{_cards_list(plays)}; it passed",
                f"{seat}号位本可用{_cards_list(plays, True)}打对头的够级牌{top.play}（打点），但过了",
                plays,
            )
        elif hidden:
            self.add(
                "undecided",
                i,
                seat,
                f"whether seat {seat} could have answered {top.play} depends on cards the record does not give",
                f"{seat}号位能否打{top.play}，取决于记录未写明的牌",
            )

    def yields(self, pos: Position, i: int, action: Action, top) -> None:
        seat = action.seat
        if action.kind is ActionKind.YIELD:
            self.add(
                "yield-taken",
                i,
                seat,
                f"seat {seat} yields (让牌) on its opposite's {top.play} to the next two seats",
                f"{seat}号位在对头的{top.play}上让牌给下两家",
            )
            return
        if action.kind is not ActionKind.PASS or seat != opposite(top.seat) or top.restricted:
            return
        if not any(may_follow(pos, t, top) for t in SEATS_AFTER[seat][:2]):
            return  # the seats it would yield to have no turn on the play: the turn comes straight back
        offer = _YIELDS[seat]
        try:
            step(pos, offer)
        except IllegalAction:
            return
        follows = [
            a for a in legal_plays(pos, seat) if isinstance(a, Action) and a.kind is ActionKind.PLAY and _decided(pos, a)
        ]
        if not follows:  # nothing to beat it with later: a yield would only have been a later pass
            return
        self.add(
            "yield-missed",
            i,
            seat,
            f"seat {seat} could have yielded (让牌) on its opposite's {top.play}, letting the next two seats "
            f"play first and keeping {_cards_list(follows)} to beat it later; it passed",
            f"{seat}号位本可在对头的{top.play}上让牌，让下两家先出，留着{_cards_list(follows, True)}再管，但过了",
            [offer],
        )

    def opening(self, pos: Position, i: int, action: Action) -> None:
        seat = action.seat
        if (
            seat not in self.unopened
            or pos.over
            or pos.to_act != seat
            or action.burn
            or action.kind not in (ActionKind.PLAY, ActionKind.PASS)
        ):
            return
        if self.rules.opening_by_fours:
            if self.given_up(pos, i, action):
                return
            if seat in pos.qualified and pos.top is None:
                self.fours(pos, i, action)
                return
            if (seat, pos.round) in self.qualified_in:  # the round this action belongs to qualified it
                return
        start, began = begin_play(pos) if pos.preplay else (pos, ())
        # the plays proposed are put to the engine by _certain_outcome, which asks whether each is
        # legal too (an illegal one opens nothing): those gouji_plays would list, once each
        if start.kept_head[seat - 1] or any(e.kind in (EventKind.OPEN, EventKind.OPEN_QUALIFIED) for e in began):
            candidates = proposed_plays(pos, seat, GOUJI)  # a kept head's opening (要头), or a revolution's (革命)
            if candidates is None:
                candidates = gouji_plays(pos, seat)
        elif _closed_to_opening(start, seat):
            return
        else:  # only a round won by a play that may open opens (or qualifies) it
            candidates = proposed_plays(pos, seat, OPENING)
            if candidates is None:
                candidates = gouji_plays(pos, seat, opening=True)
        candidates = [a for a in candidates if a.text != action.text and _decided(pos, a)]
        wanted = EventKind.OPEN_QUALIFIED if self.rules.opening_by_fours else EventKind.OPEN
        openers = [a for a in candidates if _certain_outcome(pos, a, self.replies) is wanted]
        if not openers:
            return
        if wanted is EventKind.OPEN:
            self.add_opening(
                "opening-missed",
                i,
                seat,
                f"seat {seat} could have opened (开点) with {_cards_list(openers)}: no seat could then beat or burn it",
                f"{seat}号位本可用{_cards_list(openers, True)}开点：出了无人能管、也无人能烧",
                openers,
            )
        else:
            self.add_opening(
                "qualify-missed",
                i,
                seat,
                f"seat {seat} could have won the round with {_cards_list(openers)} (no seat could then beat or burn "
                "it) and so qualified to open by leading all its 4s next (开点发4); it never opened",
                f"{seat}号位本可用{_cards_list(openers, True)}赢下这一轮（出了无人能管、也无人能烧），下一轮一次性发4即开点；"
                "但始终没有开点",
                openers,
            )

    def add_opening(self, kind: str, i: int, seat: int, en: str, zh: str, plays: list[Action]) -> None:
        """An opening finding, with what not opening cost the seat (:class:`OpeningCost`)."""
        if seat not in self.costs:  # (the same for every finding of the seat: the hand's end decides it)
            self.costs[seat] = _opening_cost(self.result, seat)
        cost = self.costs[seat]
        said = cost.text(seat) if cost is not None else None
        if said is not None:
            en, zh = en + said.en, zh + said.zh
        tribute = None if cost is None else cost.tribute
        lost = None if cost is None or cost.score is None else cost.score_opened - cost.score
        self.add(kind, i, seat, en, zh, plays, cost=tribute, score_cost=lost)

    def fours(self, pos: Position, i: int, action: Action) -> None:
        """开点发4: the qualified seat leads; only all its 4s at once open (004 §17)."""
        seat = action.seat
        if EventKind.OPEN in {e.kind for e in self.events_at.get(i, ()) if e.seats[:1] == (seat,)}:
            return
        if pos.unknown[seat - 1]:
            return
        fours = pos.hands[seat - 1][FOUR]
        proposed = proposed_plays(pos, seat, FOURS) if fours else None  # _certain_outcome asks the engine
        if proposed is None:
            proposed = [a for a in legal_actions(pos, seat) if isinstance(a, Action) and a.kind is ActionKind.PLAY]
        openers = [
            a
            for a in proposed
            if parse_cards(a.cards)[FOUR] == fours and _decided(pos, a) and _certain_outcome(pos, a, self.replies) is EventKind.OPEN
        ]
        if not openers:
            return
        lost = "gives opening up for the hand (放弃开点)" if parse_cards(action.cards)[FOUR] else "lets the qualification lapse"
        lost_zh = "放弃了开点" if parse_cards(action.cards)[FOUR] else "开点资格随之作废"
        self.add_opening(
            "fours-missed",
            i,
            seat,
            f"seat {seat} qualified to open and leads: leading all its 4s now ({_cards_list(openers)}) would have "
            f"opened (开点发4); leading {action.cards} it {lost}",
            f"{seat}号位已得开点资格、轮到它发牌：此时一次性发4（{_cards_list(openers, True)}）即开点；"
            f"发{action.cards}，{lost_zh}",
            openers,
        )

    def given_up(self, pos: Position, i: int, action: Action) -> bool:
        """放弃开点 (004 §18, 003 §开点): the action gave opening up, where the seat could have
        done otherwise (passed, or led without 4s). Whether it did (reported or not)."""
        seat = action.seat
        if EventKind.OPEN_GIVEN_UP not in {e.kind for e in self.events_at.get(i, ()) if e.seats[:1] == (seat,)}:
            return False
        if seat in pos.qualified and pos.top is None:
            return False  # a qualified seat's lead of some of its 4s: fours-missed says it
        if pos.melee or pos.headless(seat) or not (seat in pos.natural or _may_qualify(pos, seat)):
            return True  # it could open no more: giving it up changes nothing
        others = [
            a
            for a in legal_actions(pos, seat)
            if isinstance(a, Action) and (a.kind is ActionKind.PASS or (a.kind is ActionKind.PLAY and not parse_cards(a.cards)[FOUR]))
        ]
        if others:
            self.add_opening(
                "opening-given-up",
                i,
                seat,
                f"seat {seat} gives opening up for the hand (放弃开点) playing {action.cards}: 4s played other than "
                f"all at once in the lead after a qualifying round; it could have {'passed' if others[0].kind is ActionKind.PASS else 'led ' + others[0].cards}",
                f"{seat}号位出{action.cards}，放弃了开点（不是在开点后的下一轮一次性发4）；本可"
                f"{'过牌' if others[0].kind is ActionKind.PASS else '发' + others[0].cards}",
                others,
            )
        return True

    def threes(self, pos: Position, after: Position, i: int, action: Action) -> None:
        top = after.top
        if (
            action.kind is ActionKind.PLAY
            and top is not None
            and top.seat == action.seat
            and top.smother_risk
            and not (pos.top is not None and pos.top == top)
        ):
            self.add(
                "threes-only",
                i,
                action.seat,
                f"seat {action.seat} holds only 3s now (憋三): if {top.play} is beaten, it is smothered (闷)",
                f"{action.seat}号位只剩3了（憋三）：{top.play}若被管上，就被闷了",
            )
        for by, seat in after.smothers[len(pos.smothers) :]:
            self.add(
                "smothered",
                i,
                seat,
                f"seat {seat} is smothered (闷) by seat {by}'s {action.cards}: its 3s can no longer be played",
                f"{seat}号位被{by}号位的{action.cards}闷了：手里的3再也出不去",
            )


def _rollout(
    pos: Position, action: Action, seat: int, n: int, bot: str, rng: random.Random, table: Rollouts | None = None
) -> float | None:
    """Mean points of ``seat``'s team over ``n`` hands played out by ``bot`` after ``action``
    (by the bot programs of ``table`` when given)."""
    try:
        start = step(pos, action)[0]
    except IllegalAction:
        return None
    total = 0
    for _ in range(n):
        final = table.finish(start) if table is not None else finish_hand(start, rng, bot)
        if not final.over:
            return None
        total += scores(pos.ruleset, final).teams[team(seat)]
    return total / n


def _estimates(result: Replay, f: Finding, n: int, bot: str, seed: int, table: Rollouts | None = None) -> tuple[Estimate, ...]:
    pos = result.positions[f.action]
    if any(pos.unknown):
        return ()
    actual = result.record.all_actions[f.action]
    tried = [(actual, True)] + [(a, False) for a in f.choices[:ROLLOUT_ALTERNATIVES]]
    out = []
    for a, is_actual in tried:
        mean = _rollout(pos, a, f.seat, n, bot, random.Random(seed), table)
        if mean is not None:
            out.append(Estimate(a.text, round(mean, 3), n, bot, is_actual))
    return tuple(out)


def seat_view(record: GameRecord, seat: int) -> GameRecord:
    """``record`` as ``seat`` saw it (座位视角): its own dealt cards as written, every other seat's
    hand not known (``?N``, N its number of cards), the actions as they are (what was played, given
    and shown is seen by all). Replayed, the engine then takes the others' cards as possible cards
    (at most the copies of four decks not yet seen: :attr:`~gouji_record.rules.position.Position.seen`),
    so what it decides is what the seat could know: its cards, the cards played, the counts.

    >>> from gouji_record import parse
    >>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
    >>> [r] = parse(f'[Event "x"][Site "y"][Date "?"][Ruleset "charter"]{seats}[Result "*"]'
    ...             'deal 1: TTTTT?31 2: ? 3: ? 4: JJJJJ?31 5: ? 6: ? play 1. 1:TTTTT 4:JJJJJ')
    >>> seat_view(r, 4).deal
    ('?36', '?36', '?36', 'JJJJJ?31', '?36', '?36')

    Raises:
        ValueError: a seat not in 1-6.
    """
    if seat not in SEATS:
        raise ValueError(f"seat must be 1-6, not {seat}")
    deal = tuple(
        hand if s == seat else join_hand("", sum(parse_cards(known)) + unknown)
        for s, hand in enumerate(record.deal, start=1)
        for known, unknown in [split_hand(hand)]
    )
    return record.model_copy(update={"deal": deal})


def review(
    result: Replay,
    *,
    rollouts: int = 0,
    bot: str = "person",
    seed: int = 1,
    view: int | None = None,
    bot_timeout: float = DEFAULT_TIMEOUT,
) -> Review:
    """Review the hand ``result`` replayed (with every position: ``replay(record)``'s default).

    Returns a :class:`Review` with the findings in action order, up to the hand's illegal action
    if it has one. With ``rollouts`` > 0, each finding with alternatives gets :class:`Estimate`
    values from ``rollouts`` hands played out by ``bot`` (a key of
    :data:`~gouji_record.bots.selfplay.BOTS`, from ``seed``; or else the command of a bot program,
    one at each seat, speaking the bot protocol: gouji_record.bots.referee.Rollouts, with
    ``bot_timeout`` seconds for each answer), when the deal is known. With
    ``view`` (a seat, 1-6), the review of that seat's decisions from its own view: the record as
    :func:`seat_view` gives it, replayed under the same ruleset, so that a finding rests only on
    what the seat could know (its cards, what was played, the counts); what the others' cards
    would decide is ``undecided`` or left out, and no other seat's decisions are reviewed.

    Raises:
        ValueError: a replay made with ``every_position=False`` or a bad seat.
        BotError: a bot program that fails (:class:`~gouji_record.bots.process.BotError`).
    """
    actions = result.record.all_actions
    if len(result.positions) == 1 and actions and result.diagnostic is None:
        raise ValueError("review needs every position: replay(record) without every_position=False")
    if view is not None:
        seen = replay(seat_view(result.record, view), result.ruleset)
        # the seat's view goes no further than the hand does (where the whole deal is illegal, the
        # possible cards may not be)
        del seen.positions[len(result.positions) :]
        mine = [f for f in _Walk(seen).run() if f.seat == view]
        return Review(result, mine, (), min(len(actions), len(seen.positions) - 1), view=view)
    findings = _Walk(result).run()
    if rollouts > 0:
        table = None if bot in BOTS else Rollouts(bot, result.ruleset, bot_timeout)
        try:
            findings = [
                f if not f.choices else replace(f, estimates=_estimates(result, f, rollouts, bot, seed, table))
                for f in findings
            ]
        finally:
            if table is not None:
                table.close()
    hidden = tuple(s for s in SEATS if result.positions[0].unknown[s - 1])
    walked = min(len(actions), len(result.positions) - 1)
    return Review(result, findings, hidden, walked, rollouts > 0 and bool(hidden))



#: The kinds of :data:`KINDS` that are states of a seat's hand (局面), not its decisions: what the
#: cards and the others' plays made of it. ``gouji review`` prints them after the decisions, on one
#: line per hand; a new kind is a decision unless it is named here.
STATES: frozenset[str] = frozenset({"threes-only", "smothered"})
#: The groups of kinds ``gouji review --kind`` takes besides the kinds themselves.
GROUPS = ("decisions", "states")
#: How an annotation's comments start (``{review: …}``); ``review (?!):`` marks the comment of an
#: action the annotation also gave the glyph ``?!`` (a chance missed), so that both can be taken out.
REVIEW_MARK, GLYPH_MARK, GLYPH = "review: ", "review (?!): ", "?!"


def kinds_of(names: Iterable[str]) -> frozenset[str]:
    """The kinds ``names`` name: keys of :data:`KINDS`, ``decisions`` (every kind but
    :data:`STATES`) and ``states``.

    >>> sorted(kinds_of(["states", "undecided"]))
    ['smothered', 'threes-only', 'undecided']

    Raises:
        ValueError: any other name.
    """
    out: set[str] = set()
    for name in names:
        if name == "decisions":
            out |= set(KINDS) - STATES
        elif name == "states":
            out |= STATES
        elif name in KINDS:
            out.add(name)
        else:
            raise ValueError(f"unknown kind {name!r}: expected one of {', '.join([*KINDS, *GROUPS])}")
    return frozenset(out)


def _shown(done: Review, seat: int | None, kinds: frozenset[str] | None) -> list[Finding]:
    return [f for f in done.findings if (seat is None or f.seat == seat) and (kinds is None or f.kind in kinds)]


def decisions(result: Replay) -> tuple[int, ...]:
    """The decisions (决策) of seats 1 to 6 in the hand ``result``: the actions of play each made,
    at its turn (a play, a pass, a yield, a request to take the wind, a claim) or out of it (a burn),
    up to where the replay stops. Not counted: the pre-play items (declarations, transfers), and an
    irregular action (``^``) the engine did not make (错牌不出; the pass it stands for is counted)."""
    actions, positions = result.record.all_actions, result.positions
    counts = [0] * len(SEATS)
    for i in range(len(result.record.preplay), min(len(actions), len(positions) - 1)):
        action = actions[i]
        made = _as_made(positions[i], action) if action.irregular else action  # (_as_made gives the others as they are)
        if made is not None:
            counts[made.seat - 1] += 1
    return tuple(counts)


class SeatTally(NamedTuple):
    """One seat's counts in one reviewed hand: its ``player`` (Seat tag), its :func:`decisions`,
    the findings shown of it by kind (``(kind, count)`` in :data:`KINDS` order, kinds with none
    left out) and how many of them are chances ``missed`` (:attr:`Finding.missed`)."""

    seat: int
    player: str
    decisions: int
    kinds: tuple[tuple[str, int], ...]
    missed: int


def hand_tally(done: Review, seat: int | None = None, kinds: frozenset[str] | None = None) -> tuple[SeatTally, ...]:
    """Each seat's :class:`SeatTally` in the hand ``done`` (only ``seat``'s if given), counting the
    findings ``gouji review`` shows (of ``kinds`` if given)."""
    made, shown = decisions(done.result), _shown(done, seat, kinds)
    out = []
    for s in SEATS if seat is None else (seat,):
        mine = [f for f in shown if f.seat == s]
        by_kind = tuple((k, n) for k in KINDS if (n := sum(f.kind == k for f in mine)))
        out.append(SeatTally(s, done.result.record.player(s), made[s - 1], by_kind, sum(f.missed for f in mine)))
    return tuple(out)


@dataclass
class Tally:
    """Counts over reviewed hands of one player: ``hands``, ``decisions``, findings by kind
    (``kinds``, kind → count) and chances ``missed``."""

    hands: int = 0
    decisions: int = 0
    missed: int = 0
    kinds: dict[str, int] = field(default_factory=dict)

    def add(self, t: SeatTally) -> None:
        """Add one hand's :class:`SeatTally`."""
        self.hands += 1
        self.decisions += t.decisions
        self.missed += t.missed
        for k, n in t.kinds:
            self.kinds[k] = self.kinds.get(k, 0) + n

    @property
    def per_100(self) -> float | None:
        """Chances missed per 100 decisions, to one decimal (``None`` with no decision)."""
        return round(100 * self.missed / self.decisions, 1) if self.decisions else None

    def text(self) -> str:
        """``12 decisions, 1 missed (8.3 per 100); answer-missed 未打点 1``: the kinds in
        :data:`KINDS` order."""
        rate = f" ({self.per_100:.1f} per 100)" if self.per_100 is not None else ""
        kinds = ", ".join(f"{k} {KINDS[k][0]} {self.kinds[k]}" for k in KINDS if self.kinds.get(k))
        return f"{self.decisions} decision{'s' if self.decisions != 1 else ''}, {self.missed} missed{rate}" + (
            f"; {kinds}" if kinds else ""
        )

    def as_dict(self) -> dict:
        """JSON-ready: ``decisions``, ``missed``, ``per_100`` (or ``None``), ``kinds`` (kind → count)."""
        kinds = {k: self.kinds[k] for k in KINDS if self.kinds.get(k)}
        return {"decisions": self.decisions, "missed": self.missed, "per_100": self.per_100, "kinds": kinds}


def _seat_tally(t: SeatTally) -> Tally:
    one = Tally()
    one.add(t)
    return one


class Summary:
    """The review's counts over many hands, per player (the Seat tags; one seat of one hand adds
    to its player's :class:`Tally`): memory grows with the players, not with the hands."""

    def __init__(self) -> None:
        self.hands = 0
        self.players: dict[str, Tally] = {}

    def add(self, tally: tuple[SeatTally, ...]) -> None:
        """Add one reviewed hand (its :func:`hand_tally`)."""
        self.hands += 1
        for t in tally:
            self.players.setdefault(t.player, Tally()).add(t)

    def lines(self) -> list[str]:
        """``summary over N hands: …`` and one line per player, in the order first met:
        ``NAME: 3 hands, 120 decisions, 2 missed (1.7 per 100); burn-missed 可烧未烧 2``."""
        out = [f"summary over {self.hands} hand{'s' if self.hands != 1 else ''} reviewed (汇总), per player:"]
        for name, t in self.players.items():
            out.append(f"  {name}: {t.hands} hand{'s' if t.hands != 1 else ''}, {t.text()}")
        return out

    def as_dict(self) -> dict:
        """``{"summary": {"hands": N, "players": [{"player", "hands", "decisions", "missed",
        "per_100", "kinds"}, …]}}``: the last line of ``gouji review --format json --summary``."""
        players = [{"player": name, "hands": t.hands, **t.as_dict()} for name, t in self.players.items()]
        return {"summary": {"hands": self.hands, "players": players}}


def _grouped(shown: list[Finding]) -> list[list[Finding]]:
    """The findings as ``gouji review`` prints them: one each, but the ``undecided`` ones of one
    action together (at the place of the first)."""
    out: list[list[Finding]] = []
    undecided: dict[int, list[Finding]] = {}
    for f in shown:
        if f.kind != "undecided":
            out.append([f])
        elif f.action in undecided:
            undecided[f.action].append(f)
        else:
            undecided[f.action] = [f]
            out.append(undecided[f.action])
    return out


def _seats_en(seats: list[int]) -> str:
    return f"seat {seats[0]}" if len(seats) == 1 else "seats " + ", ".join(map(str, seats))


def folded(group: list[Finding]) -> Bilingual:
    """The text of the ``undecided`` findings of one action in one: those that differ only by
    their seat said once for all of their seats (``whether seats 2, 3, 5, 6 could have burned
    seat 1's TTTTT depends on …``), then the others, joined by ``;``. One finding: its text."""
    if len(group) == 1:
        return group[0].text
    en: dict[str, list[int]] = {}
    zh: dict[str, str] = {}
    for f in group:
        text, text_zh = str(f.text), f.text.zh
        key = text.replace(f"seat {f.seat} ", "seat \0 ", 1)
        en.setdefault(key, []).append(f.seat)
        zh.setdefault(key, text_zh.replace(f"{f.seat}号位", "\0号位", 1))
    return Bilingual(
        "; ".join(k.replace("seat \0", _seats_en(s)) for k, s in en.items()),
        "；".join(zh[k].replace("\0", "、".join(map(str, s))) for k, s in en.items()),
    )


def _states_line(states: list[Finding]) -> str:
    """``  states 局面: seat 1 threes-only 只剩3 at action 1, smothered 被闷 at action 2; seat 2 …``"""
    by_seat: dict[int, list[str]] = {}
    for f in sorted(states, key=lambda f: (f.seat, f.action)):
        by_seat.setdefault(f.seat, []).append(f"{f.kind} {KINDS[f.kind][0]} at action {f.number}")
    return "  states 局面: " + "; ".join(f"seat {s} " + ", ".join(items) for s, items in by_seat.items())


def review_lines(
    done: Review,
    path: str,
    index: int,
    where: SourceMap | None = None,
    seat: int | None = None,
    kinds: frozenset[str] | None = None,
    tally: tuple[SeatTally, ...] | None = None,
    verdict: Verdict | None = None,
) -> list[str]:
    """What ``gouji review`` prints for one hand: a heading (with the number of findings shown),
    the problems of its verdict (``verdict``, within its match; default: the hand's own,
    :func:`verdict_lines`), the caveat on hidden cards, then one line per finding about a decision
    (``FILE:LINE:COL: action N, seat S (NAME): KIND 中文: text``) with its estimates on the next
    line, the ``undecided`` ones of one action folded into one line (``seats 2, 3, 5, 6``:
    :func:`folded`); then the states (:data:`STATES`) on one line (``  states 局面: …``), or one
    line each like the decisions when ``kinds`` is given; then one line per seat, its
    :class:`SeatTally` (``  seat 1 (NAME): 12 decisions, 1 missed (8.3 per 100); …``). Only
    ``seat``'s findings if given, and only those of ``kinds`` (a set of :data:`KINDS` keys).
    ``tally``, if given, is :func:`hand_tally`'s result for the same arguments, made already."""
    verdict = Verdict(done.result) if verdict is None else verdict
    return _with_verdict(ReviewBody.of(done, path, index, where, seat, kinds, tally, "text"), verdict, where)


def _review_lines(
    done: Review,
    path: str,
    where: SourceMap | None,
    seat: int | None,
    kinds: frozenset[str] | None,
    tally: tuple[SeatTally, ...] | None,
    index: int,
) -> tuple[str, list[str]]:
    """:func:`review_lines` but the verdict's: the heading, and the lines after the problems."""
    result = done.result
    title = result.record.tags.get("Event", "")
    shown = _shown(done, seat, kinds)
    head = f"{path}: hand {index}{' (' + title + ')' if title else ''}: {done.actions} action{'s' if done.actions != 1 else ''} under {result.ruleset.name}"
    heading = head + f", {len(shown)} finding{'s' if len(shown) != 1 else ''}"
    lines: list[str] = []
    if done.caveat is not None:
        lines.append(f"  note: {done.caveat}")
    if done.unestimated:
        lines.append(f"  note: {UNESTIMATED}")
    states = [f for f in shown if not f.decision]
    for group in _grouped([f for f in shown if f.decision or kinds is not None]):
        f = group[0]
        line, column = where.actions[f.action] if where is not None and f.action < len(where.actions) else (0, 0)
        at = f"{path}:{line}:{column}" if line else path
        who = _seats_en([g.seat for g in group]) if len(group) > 1 else f"seat {f.seat} ({result.record.player(f.seat)})"
        lines.append(f"{at}: action {f.number}, {who}: {f.kind} {KINDS[f.kind][0]}: {folded(group)}")
        if f.estimates:
            lines.append(f"  {estimate_line(f)}")
    if states and kinds is None:
        lines.append(_states_line(states))
    for t in hand_tally(done, seat, kinds) if tally is None else tally:
        lines.append(f"  seat {t.seat} ({t.player}): {_seat_tally(t).text()}")
    return heading, lines


def _stops(done: Review) -> bool:
    """Whether the replay of the hand reviewed stops at its own problem (an illegal action, a
    purchase refused), so that nothing after it is reviewed."""
    d = done.result.diagnostic
    return d is not None and d.action is not None and d.action >= len(done.result.positions) - 1


def verdict_lines(problems: list[Problem], stops: bool = False) -> list[str]:
    """The problems of a hand's verdict (:meth:`~gouji_record.matches.verdict.Verdict.problems`,
    its own first) as lines of ``gouji review``: ``  the replay stops at action N: illegal (CODE)``
    for the first when ``stops`` (the replay stops there: nothing after it is reviewed), else
    ``  not valid: FILE:LINE:COL: error[CODE]: message`` (a purchase, a Result tag, its match's
    tribute or first lead)."""
    lines = []
    for n, p in enumerate(problems):
        if n == 0 and stops:
            lines.append(f"  the replay stops at action {p.action}: illegal ({p.code})")
            continue
        at = f"{p.path}:{p.line}:{p.column}" if p.line else p.path
        lines.append(f"  not valid: {at}: error[{p.code}]: {p.message}")
    return lines


def estimate_line(f: Finding) -> Bilingual:
    """The rollout estimates of ``f`` in one line, marked as an estimate, with the number of hands
    and the bot: ``estimate (20 hands played out by bot person, team 1-3-5 points): 1:- (made)
    +0.35 · 1:KKKKK +1.20``. Raises ``IndexError`` if ``f`` has none."""
    e0 = f.estimates[0]
    values = " · ".join(f"{e.action}{' (made)' if e.actual else ''} {e.mean:+.2f}" for e in f.estimates)
    values_zh = " · ".join(f"{e.action}{'（实际）' if e.actual else ''} {e.mean:+.2f}" for e in f.estimates)
    names = team_name(f.seat)
    names_zh = names.replace("-", "·")
    return Bilingual(
        f"estimate ({e0.n} hands played out by bot {e0.bot}, team {names} points): {values}",
        f"估计（{BOT_ZH.get(e0.bot, e0.bot)}机器人各打{e0.n}局，{names_zh}联邦平均得分）：{values_zh}",
    )


def review_data(
    done: Review,
    path: str,
    index: int,
    seat: int | None = None,
    kinds: frozenset[str] | None = None,
    tally: tuple[SeatTally, ...] | None = None,
    verdict: Verdict | None = None,
    where: SourceMap | None = None,
) -> dict:
    """One hand's review as JSON-ready data: file, hand, ruleset, actions, the verdict
    (``verdict``, within its match; default: the hand's own): ``valid``, ``illegal_action`` (the
    number of the action the replay stops at, from 1, or ``None``) and ``problems``, each located
    in the file (``where``, the hand's source map) in the one shape every command writes
    (:meth:`~gouji_record.judging.report.Problem.as_dict`); caveat,
    findings (each its own object, the ``undecided`` ones too: not folded as the text folds
    them; ``decision`` says whether it is about a decision or a state), and ``summary``, one
    object per seat (``seat``, ``player``, ``decisions``, ``missed``, ``per_100``, ``kinds``:
    :func:`hand_tally`, or ``tally`` if given: its result for the same arguments, made already).
    Only ``seat``'s findings if given, and those of ``kinds``."""
    verdict = Verdict(done.result) if verdict is None else verdict
    return _with_verdict(ReviewBody.of(done, path, index, where, seat, kinds, tally, "json"), verdict, where)


@dataclass(frozen=True)
class ReviewBody:
    """A hand's review without its verdict, as :func:`review_read` makes it where the hand is
    replayed (a worker process, maybe), small and picklable: :func:`settle` writes it, once, with
    the hand's whole verdict (its match's problems too) once that is known. ``fmt`` ``text``:
    ``head`` the heading line and ``rest`` the lines after the problems; ``json``: ``head`` and
    ``rest`` the keys before and after the verdict's. ``stops`` says whether the replay stops at the
    hand's own problem (:func:`verdict_lines`), ``illegal_action`` the number of that problem's
    action (``None`` for none, or for the hand as a whole)."""

    fmt: str
    path: str
    index: int
    head: Any
    rest: Any
    stops: bool
    illegal_action: int | None

    @classmethod
    def of(
        cls,
        done: Review,
        path: str,
        index: int,
        where: SourceMap | None,
        seat: int | None,
        kinds: frozenset[str] | None,
        tally: tuple[SeatTally, ...] | None,
        fmt: str,
    ) -> ReviewBody:
        """The body of the review ``done`` of hand ``index`` of ``path``, in ``fmt``."""
        d = done.result.diagnostic
        number = None if d is None else d.number
        if fmt == "text":
            head, rest = _review_lines(done, path, where, seat, kinds, tally, index)
            return cls(fmt, path, index, head, rest, _stops(done), number)
        result = done.result
        head = {
            "file": path,
            "hand": index,
            "event": result.record.tags.get("Event"),
            "ruleset": result.ruleset.name,
            "actions": done.actions,
        }
        rest = {
            "hidden_seats": list(done.hidden),
            "caveat": None if done.caveat is None else done.caveat.forms(),
            "estimates_skipped": None if not done.unestimated else UNESTIMATED.forms(),
            "findings": [f.as_dict() for f in _shown(done, seat, kinds)],
            "summary": [
                {"seat": t.seat, "player": t.player, **_seat_tally(t).as_dict()}
                for t in (hand_tally(done, seat, kinds) if tally is None else tally)
            ],
        }
        return cls(fmt, path, index, head, rest, _stops(done), number)


def _with_verdict(body: ReviewBody, verdict: Verdict, where: SourceMap | None) -> Any:
    """The review ``body`` written with ``verdict``: lines (text) or a dict (json)."""
    problems = verdict.problems(body.path, where, body.index)
    if body.fmt == "text":
        return [body.head, *verdict_lines(problems, body.stops), *body.rest]
    return body.head | {
        "illegal_action": body.illegal_action,
        "valid": verdict.valid,
        "problems": [p.as_dict() for p in problems],
    } | body.rest


def unread_data(p: Problem) -> dict:
    """What ``gouji review --format json`` writes for a hand that cannot be read or judged (or a
    file that cannot be read: ``hand`` ``None``): its place, ``valid`` false, and ``p`` in
    ``problems``, in the shape of every problem (:meth:`~gouji_record.judging.report.Problem.as_dict`)."""
    return {"file": p.path, "hand": p.hand, "valid": False, "problems": [p.as_dict()]}


def is_review_comment(text: str) -> bool:
    """Whether the comment ``text`` is one an annotation wrote (it starts ``review:`` or
    ``review (?!):``)."""
    return text.startswith((REVIEW_MARK, GLYPH_MARK))


def strip_review(record: GameRecord) -> GameRecord:
    """``record`` without what :func:`annotate` wrote into it: the comments that start
    ``review:`` or ``review (?!):``, and the glyph ``?!`` of an action whose comments hold a
    ``review (?!):`` one (a glyph written by hand stays)."""

    def clean(a: Action) -> Action:
        if not any(is_review_comment(c) for c in a.comments):
            return a
        glyph = None if a.glyph == GLYPH and any(c.startswith(GLYPH_MARK) for c in a.comments) else a.glyph
        return a.model_copy(update={"comments": tuple(c for c in a.comments if not is_review_comment(c)), "glyph": glyph})

    return record.model_copy(
        update={
            "comment": tuple(c for c in record.comment if not is_review_comment(c)),
            "preplay": tuple(map(clean, record.preplay)),
            "actions": tuple(map(clean, record.actions)),
        }
    )


def annotate(done: Review, seat: int | None = None, kinds: frozenset[str] | None = None) -> GameRecord:
    """The record of the hand ``done`` reviewed, with its findings written in as comments on the
    actions they are at (``{review: answer-missed 未打点: seat 4 could have …}``; the ``undecided``
    ones of one action in one, as the text folds them; rollout estimates after the text), the
    caveat on hidden cards as a comment of the hand, and the glyph ``?!`` on an action where its
    own seat missed a chance (:attr:`Finding.missed`) and no glyph is written (its first review
    comment then starts ``review (?!):``). What an earlier annotation wrote is taken out first
    (:func:`strip_review`), so annotating twice gives what annotating once gives. Only
    ``seat``'s findings if given, and those of ``kinds``."""
    from ..model import comment_text

    record = strip_review(done.result.record)
    actions = list(record.all_actions)
    notes: dict[int, list[str]] = {}
    for group in _grouped(_shown(done, seat, kinds)):
        f, a = group[0], actions[group[0].action]
        mark = a.glyph is None and any(g.missed and g.seat == a.seat for g in group)
        if mark:  # the first chance its own seat missed: the glyph, and the comment that says so
            actions[f.action] = a = a.model_copy(update={"glyph": GLYPH})
        text = f"{f.kind} {KINDS[f.kind][0]}: {folded(group)}" + (f"; {estimate_line(f)}" if f.estimates else "")
        notes.setdefault(f.action, []).append(comment_text((GLYPH_MARK if mark else REVIEW_MARK) + text))
    for i, texts in notes.items():
        actions[i] = actions[i].model_copy(update={"comments": actions[i].comments + tuple(texts)})
    comment = record.comment + ((comment_text(REVIEW_MARK + str(done.caveat)),) if done.caveat is not None else ())
    first = len(record.preplay)
    return record.model_copy(update={"comment": comment, "preplay": tuple(actions[:first]), "actions": tuple(actions[first:])})


class Reviewed(NamedTuple):
    """What :func:`review_read` hands back for one hand: its file and index in it (from 1), whether
    it is not valid (its whole verdict, once :func:`settle` has it), and its review as ``gouji
    review`` prints it (``text``: ``None`` for a hand not asked for, and until :func:`settle` writes
    ``body``; ``fmt`` ``gjn``: the hand's text, annotated if asked for), ``where`` its source map
    (until settled), and each seat's :class:`SeatTally` (empty for a hand not asked for) for the
    :class:`Summary`."""

    path: str
    index: int
    illegal: bool
    text: str | None
    fmt: str = "text"
    where: SourceMap | None = None
    tally: tuple[SeatTally, ...] = ()
    body: ReviewBody | None = None
    #: Whether the hand was asked for (``--hand``): a hand skipped is not judged here.
    asked: bool = True


def settle(done: Reviewed, verdict: Verdict) -> Reviewed:
    """The review of a hand (:func:`review_read`'s) written with its whole verdict (its own and,
    in a match, its match's problems: tribute, first lead, numbering:
    :attr:`~gouji_record.matches.verdict.Verdict.diagnostics`), each located as ``gouji validate``
    locates it: in text, lines under the heading (:func:`verdict_lines`); in JSON, ``valid`` and
    ``problems``; an annotated hand's text is as it was. The hand is then illegal if its verdict
    is not valid. Each review is written here, once."""
    if not done.asked:
        return done
    illegal = done.illegal or not verdict.valid
    if done.body is None:
        return done._replace(illegal=illegal, where=None)
    written = _with_verdict(done.body, verdict, done.where)
    text = json.dumps(written, ensure_ascii=False) if done.body.fmt == "json" else "\n".join(written)
    return done._replace(illegal=illegal, text=text, where=None, body=None)


def review_read(
    hand: ReadHand,
    rules: Ruleset,
    *,
    only: int | None = None,
    seat: int | None = None,
    view: int | None = None,
    kinds: frozenset[str] | None = None,
    fmt: str = "text",
    rollouts: int = 0,
    bot: str = "person",
    seed: int = 1,
    bot_timeout: float = DEFAULT_TIMEOUT,
) -> Reviewed:
    """Review one hand read from a file (a :class:`~gouji_record.running.batch.ReadHand`) under ``rules``,
    judged as ``gouji validate`` judges it (:mod:`gouji_record.matches.verdict`), and format it:
    ``fmt`` ``text`` (:func:`review_lines`), ``json`` (one line of :func:`review_data`) or ``gjn``
    (the hand's canonical text with the findings written in: :func:`annotate`), only ``seat``'s
    findings if given, and those of ``kinds``; from ``view``'s own view if given (:func:`review`'s
    ``view``). A hand whose index is not ``only`` (when given) is
    skipped (replayed all the same when it is in a match: the next hand's tribute depends on it;
    under ``gjn`` its text is kept, as read). The work ``gouji review`` gives
    :func:`~gouji_record.running.batch.map_hands` (a ``partial`` of it, with ``settle=settle``); a
    hand of a match comes back as a :class:`~gouji_record.running.batch.Judged`."""
    from ..judging.canonical import canonical
    from ..notation.writer import write
    from ..running.batch import judged

    path, index = hand.hand.path, hand.hand.index
    skipped = only is not None and index != only
    kept = write(canonical(hand.record, rules)) if skipped and fmt == "gjn" else None
    if skipped and not hand.record.tags.get("Match"):
        return Reviewed(path, index, False, kept, fmt, asked=False)
    result = replay(hand.record, rules, every_position=not skipped)
    if skipped:
        return judged(Reviewed(path, index, False, kept, fmt, asked=False), result, settle)
    done = review(result, rollouts=rollouts, bot=bot, seed=seed, view=view, bot_timeout=bot_timeout)
    tally = hand_tally(done, seat, kinds)
    illegal = result.diagnostic is not None
    if fmt == "gjn":
        reviewed = Reviewed(path, index, illegal, write(canonical(annotate(done, seat, kinds), rules)), fmt, None, tally)
    else:
        body = ReviewBody.of(done, path, index, hand.where, seat, kinds, tally, fmt)
        reviewed = Reviewed(path, index, illegal, None, fmt, hand.where, tally, body)
    return judged(reviewed, result, settle)
