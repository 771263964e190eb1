"""Self-play (自对弈): seeded deals, bots that play whole hands legally, and matches with tribute.

Before play the seats buy and give 3s and 4s as the rules have them (买三, 买四, 赠与:
gouji_record.judging.buying.plan_buying); in a match they then pay the tribute the hand before owes.

Bots only choose among actions the engine accepts, so every hand they play is
legal under its ruleset by construction; the engine still replays the result.

- ``random``: picks uniformly among a sample of legal actions.
- ``person``: plays like a person — leads its smallest rank, follows with the
  cheapest play that beats, keeps 够级 plays for its opposite (does not waste
  one on a team-mate), burns when it can sustain the burn, goes for 开点, and
  holds its 3s for last.

>>> rec = play_hand(get_ruleset("charter"), seed=7, bot="person")
>>> replay(rec).complete
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from ..judging.transfers import Holdings
from ..matches.match import Due, exempt, tribute_cards, tribute_due
from ..judging.lead import first_leader
from ..judging.buying import plan_buying
from ..model import Action, ActionKind, GameRecord, preplay_items
from ..judging.replay import replay
from ..cards import BIG_JOKER, COPIES, HAND_SIZE, N_RANKS, SMALL_JOKER, THREE, Counts, format_cards, parse_cards
from ..rules.engine import Position, begin_play, initial_position, opposite, step, team
from ..rules.events import IllegalAction
from ..rules.moves import plays_of_size
from ..rules.plays import classify, is_gouji
from ..rules.rulesets import Ruleset, get_ruleset, options_tag  # noqa: F401  (doctest)

#: Longest hand a bot plays before giving up (a safety net; hands end far sooner).
MAX_ACTIONS = 2000


def deal(rng: random.Random) -> tuple[str, ...]:
    """Shuffle the 216 cards and deal 36 to each seat: six canonical card strings, seat 1 first."""
    deck = [r for r in range(N_RANKS) for _ in range(COPIES[r])]
    rng.shuffle(deck)
    hands = []
    for s in range(6):
        counts = [0] * N_RANKS
        for r in deck[s * HAND_SIZE : (s + 1) * HAND_SIZE]:
            counts[r] += 1
        hands.append(format_cards(tuple(counts)))
    return tuple(hands)


def _try(pos: Position, action: Action) -> Position | None:
    try:
        return step(pos, action)[0]
    except IllegalAction:
        return None


def _play(seat: int, cards: Counts, burn: bool = False) -> Action:
    return Action(seat=seat, kind=ActionKind.PLAY, cards=format_cards(cards), burn=burn)


def _leads(hand: Counts) -> list[Counts]:
    """Natural leads: all the cards of one rank, smallest rank first; then jokers and 2s alone."""
    out = []
    for r in range(N_RANKS):
        if hand[r]:
            out.append(tuple(hand[r] if i == r else 0 for i in range(N_RANKS)))
    return out


def _any_lead(pos: Position, seat: int) -> Action:
    """The first legal lead found by trying every play (a burner needs a joker on each)."""
    for size in range(1, pos.holds(seat) + 1):
        for cards in plays_of_size(pos.hands[seat - 1], size):
            a = _play(seat, cards)
            if _try(pos, a) is not None:
                return a
    raise RuntimeError(f"seat {seat} has no legal lead")  # pragma: no cover - the engine always leaves one


def _follows(pos: Position, seat: int) -> list[Action]:
    top = pos.top
    assert top is not None
    hand = pos.hands[seat - 1]
    out = []
    for cards in plays_of_size(hand, top.play.size):
        a = _play(seat, cards)
        if _try(pos, a) is not None:
            out.append(a)
    return out


def _burns(pos: Position) -> list[Action]:
    """One sustainable burn per seat that has one, trying plays that carry jokers (a burner needs
    them), cheapest first."""
    top = pos.top
    if top is None or not (top.restricted or top.burn_only):
        return []
    out = []
    for seat in range(1, 7):
        hand = pos.hands[seat - 1]
        if seat in (top.seat, opposite(top.seat)) or not pos.active(seat) or seat in pos.barred:
            continue
        if not (hand[SMALL_JOKER] or hand[BIG_JOKER]) and pos.holds(seat) != top.play.size:
            continue
        for cards in sorted(plays_of_size(hand, top.play.size), key=_strength):
            a = _play(seat, cards, burn=True)
            if _try(pos, a) is not None:
                out.append(a)
                break
    return out


def _cheapest_follow(pos: Position, seat: int) -> Action | None:
    """The weakest legal play that beats the top, or ``None``."""
    top = pos.top
    assert top is not None
    for cards in sorted(plays_of_size(pos.hands[seat - 1], top.play.size), key=_strength):
        if classify(cards).rank <= top.play.rank and not pos.ruleset.big_joker_beats_any:
            continue
        a = _play(seat, cards)
        if _try(pos, a) is not None:
            return a
    return None


def _strength(cards: Counts) -> tuple[int, int]:
    p = classify(cards)
    return (p.jokers, p.rank)


def _choose_random(pos: Position, rng: random.Random) -> Action:
    seat = pos.to_act
    assert seat is not None
    if pos.top is None:
        leads = _leads(pos.hands[seat - 1])
        rng.shuffle(leads)
        for cards in leads:
            a = _play(seat, cards)
            if _try(pos, a) is not None:
                return a
        return _any_lead(pos, seat)
    options = _follows(pos, seat) + [Action(seat=seat, kind=ActionKind.PASS)]
    return rng.choice(options)


def _choose_person(pos: Position, rng: random.Random) -> Action:
    seat = pos.to_act
    assert seat is not None
    rules = pos.ruleset
    hand = pos.hands[seat - 1]
    top = pos.top
    if top is None:
        leads = _leads(hand)
        # lead gouji plays early to try to open (开点), else the smallest rank; 3s last
        gouji = [c for c in leads if is_gouji(classify(c), rules) and not classify(c).jokers]
        order = sorted(gouji, key=_strength) + [c for c in leads if c not in gouji]
        for cards in order:
            a = _play(seat, cards)
            if _try(pos, a) is not None:
                return a
        return _any_lead(pos, seat)
    mate_on_top = team(top.seat) == team(seat)
    cheap = None if mate_on_top else _cheapest_follow(pos, seat)
    # keep jokers for the opposite's gouji plays unless the hand is nearly out
    if cheap is not None and (_strength(parse_cards(cheap.cards))[0] == 0 or top.restricted or pos.holds(seat) <= 8):
        return cheap
    return Action(seat=seat, kind=ActionKind.PASS)


BOTS: dict[str, Callable[[Position, random.Random], Action]] = {"random": _choose_random, "person": _choose_person}


def _playing(pos: Position, rng: random.Random, bot: str) -> Iterator[tuple[Action, Position]]:
    """Each action ``bot`` takes from ``pos`` to the end of the hand, with the position after it."""
    choose = BOTS[bot]
    pos = begin_play(pos)[0]
    for _ in range(MAX_ACTIONS):
        if pos.over:
            return
        burns = _burns(pos) if bot == "person" else []
        if burns and rng.random() < 0.5:
            a = burns[0]
        else:
            a = choose(pos, rng)
        pos = step(pos, a)[0]
        yield a, pos


def play_out(pos: Position, rng: random.Random, bot: str = "person") -> list[Action]:
    """Play from ``pos`` to the end of the hand; returns the actions taken.

    The ``person`` bot also burns a 够级 play when some seat can sustain the
    burn (with probability 1/2, so that not every hand is a burn).
    Raises ``KeyError`` for an unknown bot.
    """
    return [a for a, _ in _playing(pos, rng, bot)]


def finish_hand(pos: Position, rng: random.Random, bot: str = "person") -> Position:
    """The position at the end of the hand ``bot`` plays out from ``pos`` (as :func:`play_out`
    plays it; the same ``rng`` state gives the same hand). Every seat's cards must be known
    (no ``?N``). Raises ``KeyError`` for an unknown bot."""
    for _, pos in _playing(pos, rng, bot):
        pass
    return pos


def _tags(rules: Ruleset, seed: int, result: str, extra: dict[str, str] | None = None) -> dict[str, str]:
    tags = {
        "Event": f"Self-play, {rules.name}",
        "Site": "gouji-record selfplay",
        "Date": "????.??.??",
        "Round": "?",
        "Ruleset": rules.name,
        **{f"Seat{s}": f"Bot {s}" for s in range(1, 7)},
        "Result": result,
        "Seed": str(seed),
    }
    if options := options_tag(rules):  # a variant: the record must replay under it
        tags["Options"] = options
    return tags | (extra or {})


def play_hand(
    rules: Ruleset,
    seed: int,
    bot: str = "person",
    hands: tuple[str, ...] | None = None,
    preplay: tuple[Action, ...] | None = None,
    leader: int | None = None,
    tags: dict[str, str] | None = None,
) -> GameRecord:
    """One whole hand played by bots from a seeded deal (or ``hands``), as a record.

    ``preplay`` is applied before play (purchases of 3s and 4s, tribute transfers); by default
    the seats buy and give 3s and 4s as the rules have them (gouji_record.judging.buying.plan_buying).
    ``leader`` leads the first round (default: a seat drawn by the seed, as by lot: what
    :func:`~gouji_record.judging.lead.first_leader` gives a hand no hand before names a leader for).
    """
    rng = random.Random(seed)
    dealt = hands or deal(rng)
    if preplay is None:
        preplay = plan_buying(rules, dealt)
    first = leader or rng.randint(1, 6)
    pos = initial_position(rules, dealt, first)
    for a in preplay:
        pos = step(pos, a)[0]
    actions = play_out(pos, rng, bot)
    record = GameRecord(tags=_tags(rules, seed, "*", tags), deal=dealt, preplay=preplay, actions=tuple(actions))
    result = replay(record, rules)
    places = "-".join(map(str, result.places)) if result.final.over else "*"
    return record.model_copy(update={"tags": record.tags | {"Result": "void" if result.final.void else places}})


def play_match(rules: Ruleset, seed: int, hands: int, bot: str = "person", name: str | None = None) -> list[GameRecord]:
    """``hands`` hands in a row as a match: in each hand the seats first buy and give 3s and 4s
    as the rules have them (gouji_record.judging.buying), then each hand after the first pays the tribute
    the one before owes (gouji_record.matches.match), with returns of the lowest cards, and is led by the
    seat the ruleset names."""
    rng = random.Random(seed)
    match = name or f"selfplay-{rules.name}-{seed}"
    out: list[GameRecord] = []
    for n in range(1, hands + 1):
        dealt = deal(rng)
        preplay = plan_buying(rules, dealt)
        leader = None
        if out:
            prev = replay(out[-1], rules)
            preplay += pay_tribute(rules, tribute_due(rules, prev.final), dealt, before=preplay)
            leader = first_leader(before=prev, ruleset=rules)
        out.append(
            play_hand(
                rules,
                rng.randrange(1 << 30),
                bot,
                hands=dealt,
                preplay=preplay,
                leader=leader,
                tags={"Match": match, "Hand": str(n)},
            )
        )
    return out


def pay_tribute(
    rules: Ruleset, dues: list[Due], dealt: tuple[str, ...], before: tuple[Action, ...] = ()
) -> tuple[Action, ...]:
    """The transfers that pay ``dues`` from the new deal ``dealt``, as gouji_record.matches.match checks them.

    ``before`` are the transfers made before the tribute (buying 3s and 4s). Every due is paid,
    optional ones too, kind by kind, with the giver's highest tribute cards as the ruleset counts
    them then (``pay-from``: the cards it was dealt and still holds, or its hand; a giver that
    receives one while its kind is paid pays with it, as the checker wants); nothing by a
    seat that 抗贡 exempts (004 §37: four big jokers dealt to a team-mate or four small jokers
    dealt to the seat) or that holds no tribute card (免贡). Where the ruleset has 还贡, a place
    tribute is returned with the taker's lowest cards (under threes held, its 3s last), right
    after it or once all tribute is paid (``return-after``).
    """
    held = Holdings.dealt(dealt)
    for a, role in zip(before, _roles(before)):
        held = held.move(a.seat, a.to, parse_cards(a.cards), payment=role == "price")
    dealt_counts = list(held.hands)
    out: list[Action] = []
    returns: list[tuple[int, int, int]] = []

    def give(giver: int, taker: int, cards: Counts, payment: bool) -> None:
        nonlocal held
        out.append(Action(seat=giver, kind=ActionKind.GIVE, to=taker, cards=format_cards(cards)))
        held = held.move(giver, taker, cards, payment=payment)

    def give_back(taker: int, giver: int, n: int) -> None:
        give(taker, giver, _lowest(held.hands[taker - 1], n, rules.threes_held), False)

    pending = [d for d in dues if not exempt(rules, dealt_counts, d.giver)]
    while pending:  # kind by kind; within a kind, until no giver left owing holds a tribute card
        kind = pending[0].kind
        group = [d for d in pending if d.kind == kind]
        pending = [d for d in pending if d.kind != kind]
        paid = True
        while paid:
            paid = False
            for due in list(group):
                cards = tribute_cards(held.payable(rules, due.giver), due.count)
                if not any(cards):
                    continue
                group.remove(due)
                paid = True
                give(due.giver, due.taker, cards, True)
                if due.kind == "place" and rules.return_tribute:
                    if rules.return_after == "own-tribute":
                        give_back(due.taker, due.giver, sum(cards))
                    else:
                        returns.append((due.taker, due.giver, sum(cards)))
    for taker, giver, n in returns:
        give_back(taker, giver, n)
    return tuple(out)


def _roles(preplay: tuple[Action, ...]) -> list[str]:
    """Each pre-play action's role as gouji_record.matches.match.transfers names it (the price of a
    purchase is paid with dealt cards)."""
    return [role for purpose, items in preplay_items(preplay) for role in _item_roles(purpose, len(items))]


def _item_roles(purpose: str | None, n: int) -> list[str]:
    if purpose == "buy":
        return ["price", "bought"][:n]
    return [purpose or "tribute"] * n


def _lowest(hand: Counts, n: int, keep_threes: bool = False) -> Counts:
    """The ``n`` lowest cards of ``hand`` for a return (还贡): 3s first, or, with ``keep_threes``
    (threes held), 3s only when nothing else is left."""
    out = [0] * N_RANKS
    ranks = list(range(THREE, N_RANKS))
    if keep_threes:
        ranks = ranks[1:] + [THREE]
    for r in ranks:
        take = min(hand[r], n)
        out[r], n = take, n - take
    return tuple(out)


__all__ = ["BOTS", "deal", "finish_hand", "pay_tribute", "play_hand", "play_match", "play_out"]
