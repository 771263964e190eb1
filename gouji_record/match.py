"""Matches (多局): hands in a row, the tribute between them, the first lead, the match score.

A match is a run of records with the same ``Match`` tag, numbered by their
``Hand`` tags. What one hand owes the next — 闷贡, 烧贡/捎贡, 点贡 by the calls
made, 落贡 or after a sweep 对头贡, and the returns (还贡) — is derived from
the previous hand's final position under the ruleset (:func:`tribute_due`),
then checked against the transfers recorded in the next hand's pre-play
section (:func:`check_transfers`). Tribute is paid with the giver's highest
big jokers, small jokers and 2s, from the new deal; a giver without them owes
nothing more (免贡). Sources are cited per rule key in the rulesets.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .model import ActionKind, GameRecord
from .replay import Replay
from .rules.cards import BIG_JOKER, SMALL_JOKER, TWO, Counts, format_cards, parse_cards
from .rules.engine import SEATS, Position, begin_play, opposite, team
from .rules.events import Diagnostic
from .rules.rulesets import Ruleset

#: What each kind of tribute is called, in Chinese and English.
KIND_NAMES = {
    "smother": ("闷贡", "smother tribute"),
    "burn": ("烧贡", "burn tribute"),
    "point": ("点贡", "point tribute"),
    "place": ("落贡", "place tribute"),
    "sweep": ("对头贡", "sweep tribute"),
    "return": ("还贡", "return"),
}
_RULE = {
    "smother": "smother-tribute",
    "burn": "burn-tribute",
    "point": "point-tribute",
    "place": "place-tribute",
    "sweep": "place-tribute",
    "return": "return-tribute",
}


@dataclass(frozen=True)
class Due:
    """One tribute owed: ``giver`` pays ``taker`` ``count`` cards of ``kind``.

    ``optional``: the text lets the seats agree not to pay it (between
    team-mates, or mutual point tribute in 004 §31).
    """

    kind: str
    giver: int
    taker: int
    count: int
    optional: bool = False

    def __str__(self) -> str:
        zh, en = KIND_NAMES[self.kind]
        return f"{zh} ({en}): seat {self.giver} to seat {self.taker}, {self.count} card(s)"


def _calls(prev: Position) -> dict[int, str]:
    return dict(prev.calls)


def _point_dues(rules: Ruleset, prev: Position) -> list[Due]:
    """点贡 for each pair of opposites, by who opened and what was called."""
    opened, calls = prev.opened, _calls(prev)
    dues: list[Due] = []
    for a in SEATS:  # what seat a owes its opposite b
        b = opposite(a)
        a_open, b_open = a in opened, b in opened
        table = rules.point_table
        if table == "classic":  # 001 §32-§34, by who called 宣点
            n = _classic_point(a_open, b_open, a in calls, b in calls)
        elif table == "tournament":  # 004 §31
            n = 0 if a_open else 1
        else:  # online (000 §点贡) and charter (002 §24)
            fail = {"call": 4, "precall": 8} if table == "online" else {"call": 2, "precall": 4}
            if a in calls and b_open:  # a's call failed (吹牛上税, 翻车)
                n = fail[calls[a]]
            else:
                n = 0 if a_open else {None: 1, "call": 2, "precall": 4}[calls.get(b)]
        if n:
            mutual = table == "tournament" and not a_open and not b_open
            dues.append(Due("point", a, b, n, optional=mutual))
    return dues


def _classic_point(a_open: bool, b_open: bool, a_call: bool, b_call: bool) -> int:
    """Cards a pays its opposite b under 001 §32-§34."""
    if a_call and b_call:
        return 4 if (b_open and not a_open) else 2 if a_open == b_open else 0
    if not a_call and not b_call:
        return 1 if not a_open else 0
    if a_call:  # a called, b did not: from a's side of §34
        if a_open and b_open:
            return 2
        if not a_open and not b_open:
            return 1
        return 3 if not a_open else 0
    # b called, a did not: §34 from b's side
    if not a_open and not b_open:
        return 2
    return 3 if (b_open and not a_open) else 0


def tribute_due(rules: Ruleset, prev: Position) -> list[Due]:
    """What the hand that ended at ``prev`` owes before the next, in the order paid.

    Nothing after a void hand, nothing when the ruleset has no tribute, and
    after a sweep only 对头贡 where the text has it. Raises ``ValueError`` if
    ``prev`` is not over.
    """
    if not prev.over:
        raise ValueError("tribute follows a finished hand")
    if prev.void or not rules.tribute_order:
        return []
    places = prev.places
    swept = len({team(s) for s in places[:3]}) == 1
    if swept:
        if not rules.sweep_tribute:
            return []
        losers = [s for s in SEATS if team(s) != team(places[0])]
        return [Due("sweep", s, opposite(s), 1) for s in losers]
    dues: list[Due] = []
    for kind in rules.tribute_order:
        if kind == "smother":
            dues += [Due("smother", seat, by, 1) for by, seat in prev.smothers]
        elif kind == "burn":
            counting = {"success"} | ({"running"} if rules.burns_count == "standing" else set())
            dues += [Due("burn", target, burner, 1) for burner, target, outcome in prev.burns if outcome in counting]
        elif kind == "point":
            dues += _point_dues(rules, prev)
        elif kind == "place":
            for giver, taker, n in ((places[5], places[0], 2), (places[4], places[1], 1)):
                dues.append(Due("place", giver, taker, n, optional=team(giver) == team(taker)))
    return dues


def tribute_cards(hand: Counts, count: int) -> Counts:
    """The highest ``count`` legal tribute cards of ``hand``: big jokers, then small jokers, then 2s
    (002 §21(1)); fewer if the hand has fewer (免贡 for the rest)."""
    out = [0] * len(hand)
    for rank in (BIG_JOKER, SMALL_JOKER, TWO):
        take = min(hand[rank], count)
        out[rank], count = take, count - take
    return tuple(out)


def exempt(rules: Ruleset, deal: list[Counts], seat: int) -> bool:
    """抗贡 (004 §37): four big jokers exempt the seat's team, four small jokers the seat."""
    if not rules.tribute_exemption:
        return False
    mates = [s for s in SEATS if team(s) == team(seat)]
    return deal[seat - 1][SMALL_JOKER] >= 4 or any(deal[m - 1][BIG_JOKER] >= 4 for m in mates)


@dataclass
class HandInMatch:
    """One hand's place in its match: its tribute checked, its first lead checked, the running score."""

    number: int
    replay: Replay
    dues: list[Due] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    standings: dict[int, int] = field(default_factory=dict)
    seat_totals: dict[int, int] = field(default_factory=dict)


def _diag(rules: Ruleset, code: str, rule: str, message: str, action: int | None) -> Diagnostic:
    return Diagnostic(code=code, message=message, action=action, rule=rule, source=rules.cite(rule))


def check_transfers(rules: Ruleset, dues: list[Due], record: GameRecord) -> tuple[list[str], list[Diagnostic]]:
    """Check the transfers in ``record``'s pre-play section against ``dues``.

    Each due is paid, in order, with the giver's highest tribute cards from
    its hand as it stands then; a place tribute is followed by its return
    where the text has one (any cards, as many). Returns notes for people
    (paid, waived, exempt) and diagnostics (``tribute-missing``,
    ``tribute-wrong``, ``tribute-extra``), located at the pre-play action.
    """
    hands = [parse_cards(h.partition("?")[0]) for h in record.deal]
    dealt = list(hands)
    gives = [(i, a) for i, a in enumerate(record.preplay) if a.kind is ActionKind.GIVE]
    notes: list[str] = []
    problems: list[Diagnostic] = []
    k = 0

    def move(giver: int, taker: int, cards: Counts) -> None:
        hands[giver - 1] = tuple(h - c for h, c in zip(hands[giver - 1], cards))
        hands[taker - 1] = tuple(h + c for h, c in zip(hands[taker - 1], cards))

    for due in dues:
        zh, en = KIND_NAMES[due.kind]
        if exempt(rules, dealt, due.giver):
            notes.append(f"{zh} waived: seat {due.giver} refuses tribute (抗贡)")
            continue
        cards = tribute_cards(hands[due.giver - 1], due.count)
        if not any(cards):
            notes.append(f"{zh} waived: seat {due.giver} holds no big joker, small joker or 2 (免贡)")
            continue
        expected = f"{due.giver}>{due.taker}:{format_cards(cards)}"
        nxt = gives[k] if k < len(gives) else None
        if nxt is not None and (nxt[1].seat, nxt[1].to) == (due.giver, due.taker):
            i, a = nxt
            k += 1
            if parse_cards(a.cards) != cards:
                problems.append(
                    _diag(
                        rules,
                        "tribute-wrong",
                        "tribute-cards",
                        f"{en} ({zh}) is paid with the highest big jokers, small jokers and 2s: "
                        f"expected {expected}, not {a.text}",
                        i,
                    )
                )
                return notes, problems
            move(due.giver, due.taker, cards)
            notes.append(f"{zh} paid: {a.text}")
            if due.kind == "place" and rules.return_tribute:
                ret = gives[k] if k < len(gives) else None
                if ret is None or (ret[1].seat, ret[1].to) != (due.taker, due.giver) or len(ret[1].cards) != sum(cards):
                    where = ret[0] if ret else (i + 1)
                    problems.append(
                        _diag(
                            rules,
                            "tribute-missing",
                            "return-tribute",
                            f"the return (还贡) of {a.text}: seat {due.taker} gives seat {due.giver} "
                            f"{sum(cards)} card(s) back",
                            min(where, len(record.preplay)),
                        )
                    )
                    return notes, problems
                move(due.taker, due.giver, parse_cards(ret[1].cards))
                notes.append(f"还贡 paid: {ret[1].text}")
                k += 1
        elif due.optional:
            notes.append(f"{zh} not paid: {due} (the text lets them agree)")
        else:
            where = nxt[0] if nxt else len(record.preplay)
            problems.append(
                _diag(rules, "tribute-missing", _RULE[due.kind], f"{due} is owed: expected {expected}", where)
            )
            return notes, problems
    if k < len(gives):
        i, a = gives[k]
        problems.append(_diag(rules, "tribute-extra", "tribute", f"{a.text} is not owed by the last hand", i))
    return notes, problems


def first_leader(record: GameRecord) -> int | None:
    """The seat that leads the first round: the first action of play's seat."""
    return record.actions[0].seat if record.actions else None


def expected_leader(rules: Ruleset, prev: Replay) -> int | None:
    """Who must lead the hand after ``prev``, or ``None`` when anyone may (the first hand,
    after a sweep or a void hand, or rules that name nobody)."""
    final = prev.final
    if rules.first_lead == "any" or final.void or len({team(s) for s in final.places[:3]}) == 1:
        return None
    if rules.first_lead == "last-sixth":  # 002 §6, 004 §8
        return final.places[5]
    leader = first_leader(prev.record)  # 000 §发牌: the next seat after the last hand's first leader
    return None if leader is None else leader % 6 + 1


def check_match(replays: list[Replay], from_start: bool = True) -> list[HandInMatch]:
    """Check a match: the tribute and first lead of each hand after the first, the calls of the
    hand before (won or lost), and the running match score (per team, and per seat for the
    extras). Returns one entry per hand; hand numbering is checked by the caller.

    ``from_start=False`` says ``replays`` is an excerpt that starts after the match's first hand:
    the hands before it are unknown, so the first hand's tribute cannot be judged (a note says so,
    no diagnostic)."""
    out: list[HandInMatch] = []
    totals = {1: 0, 0: 0}
    seat_totals = dict.fromkeys(SEATS, 0)
    for n, rep in enumerate(replays, start=1):
        rules, record = rep.ruleset, rep.record
        entry = HandInMatch(n, rep)
        prev = replays[n - 2] if n > 1 else None
        if prev is not None and prev.complete:
            entry.dues = tribute_due(rules, prev.final)
            entry.notes, problems = check_transfers(rules, entry.dues, record)
            for seat, word in prev.final.calls:  # a call is won when the opposite did not open (002 §24)
                won = opposite(seat) not in prev.final.opened
                entry.notes.insert(
                    0, f"{'预点' if word == 'precall' else '宣点'} by seat {seat}: {'won' if won else 'lost'}"
                )
            entry.diagnostics += problems
            want = expected_leader(rules, prev)
            if want is not None:  # a leader who leaves the hand as play starts hands the lead on
                before = replace(rep.positions[min(len(record.preplay), len(rep.positions) - 1)], to_act=want)
                want = begin_play(before)[0].to_act
            lead = first_leader(record)
            if want is not None and lead is not None and lead != want:
                entry.diagnostics.append(
                    _diag(
                        rules,
                        "first-lead",
                        "first-lead",
                        f"seat {want} leads this hand, not seat {lead}",
                        len(record.preplay),
                    )
                )
        elif prev is None and not from_start:
            entry.notes.append("not checked: the hand before it is not in the file")
        elif prev is None and any(a.kind is ActionKind.GIVE for a in record.preplay):
            i = next(i for i, a in enumerate(record.preplay) if a.kind is ActionKind.GIVE)
            entry.diagnostics.append(
                _diag(rules, "tribute-extra", "tribute", "the first hand of a match has no tribute", i)
            )
        score = rep.score
        if score is not None:
            for t in totals:
                totals[t] += score.teams[t]
            for s in SEATS:
                seat_totals[s] += score.seats[s]
        entry.standings = dict(totals)
        entry.seat_totals = dict(seat_totals)
        out.append(entry)
    return out


def group_matches(records: list[GameRecord]) -> list[list[int]]:
    """Indices of ``records`` grouped into matches: runs of consecutive records with the same
    ``Match`` tag; a record without one is a match of its own."""
    groups: list[list[int]] = []
    for i, rec in enumerate(records):
        name = rec.tags.get("Match")
        if name and groups and records[groups[-1][-1]].tags.get("Match") == name:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups
