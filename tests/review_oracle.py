"""The review as it was before its speed work (issue 24, "Speed"): the oracle of
tests/test_review_speed_oracle.py, kept here and not in the package. Its code is the walk of
gouji_record/analysis/review.py and the legal-action listing of gouji_record/rules/moves.py as
they were at commit 2d5132e, unchanged but for the names: the fast review must give exactly its
findings."""

from __future__ import annotations

from gouji_record.analysis.review import (
    KINDS,
    Finding,
    _as_made,
    _burnable,
    _cards_list,
    _decided,
    _may_qualify,
    _opening_cost,
    _plays_text,
    _round_outcome,
)
from gouji_record.bilingual import Bilingual
from gouji_record.cards import COPIES, FOUR, Counts, format_cards, parse_cards
from gouji_record.model import DECLARATION_KINDS, Action, ActionKind
from gouji_record.rules.engine import SEATS, Position, begin_play, opposite, seats_after, skip_possible_turn, step, team
from gouji_record.rules.events import EventKind, IllegalAction
from gouji_record.rules.moves import CARD_CODES, HiddenPlays, Listed, plays_of_size
from gouji_record.rules.plays import classify, is_gouji, judge, shape_error
from gouji_record.rules.position import SEATS_AFTER
from gouji_record.rules.turns import may_follow


# -- the listing's trials, as they were (moves.py at 2d5132e): the engine asked play by play --------


def _verdict(pos: Position, action: Action) -> str | None:
    """``None`` when the engine accepts ``action``, else the code of its diagnostic."""
    try:
        step(pos, action)
    except IllegalAction as e:
        return e.diagnostic.code
    return None


def _accepted(pos: Position, action: Action) -> bool:
    return _verdict(pos, action) is None


class _Plays:
    """Tries the plays of one seat (burns or not) against the engine, cheapest checks first."""

    def __init__(self, pos: Position, play_pos: Position, seat: int, burn: bool) -> None:
        self.pos, self.seat, self.burn = pos, seat, burn
        top = play_pos.top
        self.top = None if top is None else top.play
        self.rules = pos.ruleset
        # a refusal that does not depend on the cards refuses them all, unless the engine may take
        # the way where the seat to act had no turn (then a later attempt may be refused otherwise)
        self.certain = skip_possible_turn(pos) is None
        self.closed = False

    def accepts(self, cards: Counts) -> Action | None:
        if self.closed:
            return None
        try:
            play = classify(cards)
        except ValueError:
            return None
        beaten = self.top is None or judge(self.top, play, self.rules)[0]
        if not beaten or shape_error(play, self.rules) is not None:
            return None  # the engine refuses these whatever else holds: no need to ask it
        a = Action(seat=self.seat, kind=ActionKind.PLAY, cards=format_cards(cards), burn=self.burn)
        code = _verdict(self.pos, a)
        if code is None:
            return a
        if self.certain and code not in CARD_CODES:
            self.closed = True
        return None


def _hidden_example(trial: _Plays, hand: Counts, unknown: int, possible: Counts, size: int) -> Action | None:
    """A play of ``size`` cards that needs some of the seat's hidden cards and that the engine accepts."""
    for cards in plays_of_size(possible, size):
        missing = sum(max(0, c - h) for c, h in zip(cards, hand))
        if 0 < missing <= unknown:
            a = trial.accepts(cards)
            if a is not None or trial.closed:
                return a
    return None


def burn_claimants(pos: Position) -> list[int]:
    """Seats that could claim a burn now, in the ruleset's claim order: the
    gouji player's team first, then play order (000, 002 §10), or play order
    only (003, 004 §15)."""
    top = pos.top
    if top is None:
        return []
    order = list(seats_after(top.seat))
    if pos.ruleset.burn_claim_order == "team-first":
        order.sort(key=lambda s: team(s) != team(top.seat))
    return [s for s in order if s != opposite(top.seat) and pos.active(s)]


# -- the listing and the walk, as they were ----------------------------------------------------------


def _plays(pos: Position, play_pos: Position, seat: int, sizes: list[int], burn: bool, lead: bool) -> list[Listed]:
    """The plays of ``seat`` the engine accepts: those of its written cards one by one, then one
    :class:`HiddenPlays` per size (one for all sizes of a lead) where its hidden cards allow some."""
    hand, unknown = play_pos.hands[seat - 1], play_pos.unknown[seat - 1]
    trial = _Plays(pos, play_pos, seat, burn)
    out: list[Listed] = []
    for size in sizes:
        for cards in plays_of_size(hand, size):
            a = trial.accepts(cards)
            if a is not None:
                out.append(a)
    if not unknown or trial.closed:
        return out
    possible = tuple(h + min(unknown, max(0, c - n)) for h, c, n in zip(hand, COPIES, play_pos.seen))
    for size in sorted(sizes):  # a lead's example: its fewest cards
        example = _hidden_example(trial, hand, unknown, possible, size)
        if example is not None:
            out.append(HiddenPlays(seat, None if lead else size, burn, hand, example))
            if lead:
                break
    return out


def legal_actions(pos: Position, seat: int | None = None) -> list[Listed]:
    """The legal actions now: the seat to act's plays, pass, yield, request to
    take the wind and claim; then burns, in claim order. With ``seat``, only
    that seat's. Plays that need cards the record does not give are
    :class:`HiddenPlays`; every other entry is an :class:`Action` the engine
    accepts. Transfers (``give``) and ``^`` rulings are not listed.

    In the pre-play phase, each seat's declarations come first. Empty once
    the hand is over.
    """
    if pos.over:
        return []
    out: list[Listed] = []
    seats = [seat] if seat is not None else [1, 2, 3, 4, 5, 6]
    if pos.preplay:
        for s in seats:
            for kind in DECLARATION_KINDS:
                a = Action(seat=s, kind=kind)
                if _accepted(pos, a):
                    out.append(a)
    play_pos = begin_play(pos)[0]  # the first play ends the pre-play phase: the leader may change
    if play_pos.over:
        return out
    actor, top = play_pos.to_act, play_pos.top
    if top is None:
        sizes = list(range(play_pos.holds(actor), 0, -1)) if actor else []
    else:
        sizes = sorted({top.play.size, 2, 3} & set(range(1, play_pos.holds(actor) + 1))) if actor else []
    if actor is not None and actor in seats:
        out += _plays(pos, play_pos, actor, sizes, False, top is None)
        for kind in (ActionKind.PASS, ActionKind.YIELD, ActionKind.WIND, ActionKind.CLAIM):
            a = Action(seat=actor, kind=kind)
            if _accepted(pos, a):
                out.append(a)
    if top is not None:
        for s in burn_claimants(play_pos):
            if s in seats:
                held = play_pos.holds(s)
                out += _plays(pos, play_pos, s, sorted({top.play.size, 2, 3} & set(range(1, held + 1))), True, False)
    skipped = skip_possible_turn(pos)
    if skipped is not None:  # the engine also takes the way where the seat to act had no turn
        listed = {a.text for a in out}
        out += [a for a in legal_actions(skipped[0], seat) if a.text not in listed]
    return out


def _certain_outcome(pos: Position, action: Action) -> EventKind | None | bool:
    """What ``action`` gives its seat for opening whatever the others do (:func:`_round_outcome`):
    nobody may beat or burn it and the round ends with it. ``None`` when cards the record does not
    give decide it, ``False`` when it neither opens nor qualifies for certain."""
    seat = action.seat
    try:
        pos, events = step(pos, action)
    except IllegalAction:
        return False
    if (outcome := _round_outcome(events, seat, pos)) is not False:
        return outcome
    if pos.top is None or not pos.top.can_open:
        return False
    for _ in range(12):  # the others pass one by one, while none of them could play
        listed = legal_actions(pos)
        if any(isinstance(a, HiddenPlays) for a in listed):
            return None
        if any(a.kind is ActionKind.PLAY for a in listed):
            return False
        if pos.to_act is None:
            return False
        try:
            pos, events = step(pos, Action(seat=pos.to_act, kind=ActionKind.PASS))
        except IllegalAction:
            return False
        if (outcome := _round_outcome(events, seat, pos)) is not False:
            return outcome
        if pos.top is None or pos.over:
            return False
    return False


class SlowWalk:
    """One pass over the positions of a hand, collecting findings."""

    def __init__(self, result: Replay) -> None:
        self.result = result
        self.rules = result.ruleset
        self.findings: list[Finding] = []
        final = result.final
        self.unopened = {s for s in SEATS if s not in final.opened}  # by the end of the record
        self.events_at: dict[int, list] = {}
        for e in result.events:
            self.events_at.setdefault(e.action, []).append(e)
        #: (seat, round): the rounds that qualified a seat to open by leading its 4s (开点发4)
        self.qualified_in = {(e.seats[0], e.round) for e in result.events if e.kind is EventKind.OPEN_QUALIFIED}

    def add(self, kind: str, index: int, seat: int, en: str, zh: str, plays: list[Action] = (), **extra) -> None:
        rule = KINDS[kind][2]
        shown, more = _plays_text(list(plays))
        self.findings.append(
            Finding(kind, index, seat, Bilingual(en, zh), rule, self.rules.cite(rule), shown, more, choices=tuple(plays), **extra)
        )

    def burns(self, pos: Position) -> dict[int, tuple[list[Action], bool]]:
        """Each seat's legal burns of the top play now, and whether hidden cards allow others."""
        by_seat: dict[int, list] = {}
        for a in legal_actions(pos):
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
            now = _burnable(pos)
            if now != key:
                self.flush(pending)
                pending = {}
                key = now
                if now is not None:
                    for s, (plays, hidden) in self.burns(pos).items():
                        pending[s] = (i, plays, hidden, top)
            action = _as_made(pos, action)
            if action is None:  # an irregular action not made: no decision was taken
                continue
            if action.kind is ActionKind.PLAY and action.burn:
                pending.pop(action.seat, None)
            if top is not None and not pos.over:
                self.answer(pos, i, action, top)
                self.yields(pos, i, action, top)
            self.opening(pos, i, action)
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
            elif hidden:
                self.add(
                    "undecided",
                    i,
                    seat,
                    f"whether seat {seat} could have burned {victim} depends on cards the record does not give "
                    "(to burn with, or to keep the burn condition)",
                    f"{seat}号位能否烧{victim_zh}，取决于记录未写明的牌（烧牌用的牌，或烧牌条件所需的牌）",
                )

    def answer(self, pos: Position, i: int, action: Action, top) -> None:
        seat = action.seat
        if not (top.restricted and action.kind is ActionKind.PASS and seat == opposite(top.seat)):
            return
        listed = legal_actions(pos, seat)
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
        offer = Action(seat=seat, kind=ActionKind.YIELD)
        try:
            step(pos, offer)
        except IllegalAction:
            return
        follows = [
            a for a in legal_actions(pos, seat) if isinstance(a, Action) and a.kind is ActionKind.PLAY and _decided(pos, a)
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
        candidates = [
            a
            for a in legal_actions(pos, seat)
            if isinstance(a, Action)
            and a.kind is ActionKind.PLAY
            and not a.burn
            and a.text != action.text
            and is_gouji(classify(parse_cards(a.cards)), self.rules)
            and _decided(pos, a)
        ]
        wanted = EventKind.OPEN_QUALIFIED if self.rules.opening_by_fours else EventKind.OPEN
        openers = [a for a in candidates if _certain_outcome(pos, a) is wanted]
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
        cost = _opening_cost(self.result, seat)
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
        fours = pos.hands[seat - 1][FOUR]
        openers = [
            a
            for a in legal_actions(pos, seat)
            if isinstance(a, Action)
            and a.kind is ActionKind.PLAY
            and parse_cards(a.cards)[FOUR] == fours
            and _decided(pos, a)
            and _certain_outcome(pos, a) is EventKind.OPEN
        ]
        if not openers or pos.unknown[seat - 1]:
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


