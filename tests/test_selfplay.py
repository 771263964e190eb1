"""Self-play hands and matches under every preset, and single-action mutations of hands (hypothesis).

Every self-played hand must validate; write→parse is the identity; a mutated hand is either
rejected with a fitting diagnostic code or, when the engine accepts the mutation, still ends as its
Result says with every card accounted for: never a crash. Every self-played match validates too,
tribute and first leads included, and the tribute the bots pay for any end of a hand and any deal is
the tribute `gouji validate` expects.
"""

import random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gouji_record import parse, replay, write, write_all
from gouji_record.cli.main import main
from gouji_record.judging.buying import check_buying
from gouji_record.matches.match import check_match, check_transfers, tribute_due
from gouji_record.model import ActionKind, GameRecord
from gouji_record.cards import BIG_JOKER, COPIES, DECK_SIZE, HAND_SIZE, N_RANKS, SMALL_JOKER, format_cards
from gouji_record.rules.engine import Position
from gouji_record.rules.events import EventKind
from gouji_record.rules.rulesets import PRESETS, get_ruleset
from gouji_record.bots.selfplay import pay_tribute, play_hand, play_match

PRESET_NAMES = list(PRESETS)
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TURN_CODES = {
    "not-your-turn",
    "gouji-not-opposite",
    "dead-gouji",
    "passed-this-round",
    "seat-finished",
    "seat-out",
    "not-in-hand",
    "does-not-beat",
    "must-lead",
    "hand-over",
    "burn-condition",
    "threes-early",
    "threes-split",
    "fours-split",
    "cannot-attach",
    "bad-play",
    "not-a-burn",
    "yield-not-allowed",
    "round-mismatch",
    "hand-incomplete",
    "result-mismatch",
}


@FAST
@given(seed=st.integers(0, 10**6), name=st.sampled_from(PRESET_NAMES), bot=st.sampled_from(["person", "random"]))
def test_self_play_hands_validate_and_round_trip(seed, name, bot):
    rec = play_hand(get_ruleset(name), seed, bot)
    r = replay(rec)
    assert r.diagnostic is None and r.complete
    assert parse(write(rec)) == [rec]
    assert _cards_conserved(rec, r)
    # the places the engine gives, against the order in which the record's plays empty each hand
    assert r.final.finished == _emptied(rec, r)


def _emptied(rec, r):
    """The seats in the order their written plays use up their cards (36, plus the cards given
    to them before play, less those they gave), counted from the record alone."""
    held = {s: 36 for s in range(1, 7)}
    for g in rec.preplay:
        if g.kind is ActionKind.GIVE:
            held[g.seat] -= len(g.cards)
            held[g.to] += len(g.cards)
    not_made = {e.action for e in r.events if e.kind in (EventKind.BURN_FAILURE, EventKind.RULING)}
    order = []
    for i, a in enumerate(rec.actions):
        if a.kind is ActionKind.PLAY and i + len(rec.preplay) not in not_made:
            held[a.seat] -= len(a.cards)
            if held[a.seat] == 0:
                order.append(a.seat)
    return tuple(order)


def _cards_conserved(rec, r):
    """What is held at the end plus what was played is the whole deck (plays a burn failure or a
    ruling takes back do not count)."""
    not_made = {e.action for e in r.events if e.kind in (EventKind.BURN_FAILURE, EventKind.RULING)}
    played = sum(len(a.cards) for i, a in enumerate(rec.actions) if i + len(rec.preplay) not in not_made)
    return sum(r.final.holds(s) for s in range(1, 7)) + played == DECK_SIZE


def _mutations(rec, rng):
    """Yield (description, mutated record, allowed codes) for a few single-action mutations."""
    acts = list(rec.actions)
    plays = [i for i, a in enumerate(acts) if a.kind is ActionKind.PLAY]
    if plays:  # a play's cards swapped for a rank its seat does not hold at all
        i = rng.choice(plays)
        a = acts[i]
        held = set(rec.deal[a.seat - 1])  # and what it was given before play (a 3 it bought)
        held |= {c for g in rec.preplay if g.kind is ActionKind.GIVE and g.to == a.seat for c in g.cards}
        absent = [c for c in "3456789TJQKA" if c not in held]
        if absent and a.cards.strip("DX2"):
            rank = a.cards.strip("DX2")[0]
            yield (
                "card not held",
                _with(rec, i, a.model_copy(update={"cards": a.cards.replace(rank, absent[0])})),
                {"not-in-hand", "not-your-turn", "gouji-not-opposite", "dead-gouji", "passed-this-round"},
            )
        # the same play given to another seat
        other = rng.choice([s for s in range(1, 7) if s != a.seat])
        yield "wrong seat", _with(rec, i, a.model_copy(update={"seat": other})), TURN_CODES
    passes = [i for i, a in enumerate(acts) if a.kind is ActionKind.PASS]
    if passes:
        i = rng.choice(passes)
        yield "pass dropped", rec.model_copy(update={"actions": tuple(acts[:i] + acts[i + 1 :])}), TURN_CODES
    answers = [e.action for e in replay(rec).events if e.kind is EventKind.ANSWER]
    if answers:  # a gouji answer moved to a seat that is not the opposite
        i = answers[0] - len(rec.preplay)
        a = acts[i]
        top_seat = acts[i - 1].seat if i else a.seat
        others = [s for s in range(1, 7) if s not in (a.seat, top_seat)]
        yield (
            "answer moved",
            _with(rec, i, a.model_copy(update={"seat": rng.choice(others)})),
            {"gouji-not-opposite", "dead-gouji", "not-your-turn", "seat-finished", "seat-out", "passed-this-round"},
        )


def _with(rec, i, action):
    acts = list(rec.actions)
    acts[i] = action
    return rec.model_copy(update={"actions": tuple(acts)})


@FAST
@given(seed=st.integers(0, 10**6), name=st.sampled_from(PRESET_NAMES))
def test_mutations_are_rejected_with_a_fitting_code_or_replay_consistently(seed, name):
    rules = get_ruleset(name)
    rec = play_hand(rules, seed, "person")
    rng = random.Random(seed)
    for what, mutated, allowed in _mutations(rec, rng):
        r = replay(mutated, rules)  # never raises
        if r.diagnostic is not None:
            assert r.diagnostic.code in allowed, (what, r.diagnostic)
        else:  # accepted: the mutated hand still ends as its Result says, with every card accounted for
            assert r.complete and r.places == mutated.result_places, what
            assert _cards_conserved(mutated, r), what
            assert parse(write(mutated)) == [mutated], what


def test_selfplay_command_is_reproducible_and_valid(tmp_path):
    runner = CliRunner()
    a = runner.invoke(main, ["selfplay", "--ruleset", "tournament", "--seed", "9", "--hands", "2"]).output
    b = runner.invoke(main, ["selfplay", "--ruleset", "tournament", "--seed", "9", "--hands", "2"]).output
    assert a == b and a.count("[Event ") == 2
    f = tmp_path / "m.gjn"
    r = runner.invoke(
        main, ["selfplay", "--ruleset", "charter", "--seed", "4", "--hands", "3", "--match", "-o", str(f)]
    )
    assert r.exit_code == 0
    v = runner.invoke(main, ["validate", str(f)])
    assert v.exit_code == 0 and v.output.count("valid under charter") == 3 and "after hand 3" in v.output
    # the match did pay tribute (hands 2 and 3), so validate checked some
    assert v.output.count("  tribute: ") == 2 and "落贡 paid" in v.output


# -- matches: the tribute the bots pay is the tribute gouji validate expects -------------------

MATCH_SEEDS = range(16)  # per preset, four hands each: about 1 s per preset


def _match_problems(records):
    """What `gouji validate` would say about a self-played match: each hand's first illegal action,
    then the match's (tribute, first lead); read back from the written file."""
    assert parse(write_all(records)) == records
    reps = [replay(r) for r in records]
    bad = [(n, r.diagnostic.code) for n, r in enumerate(reps, 1) if not r.complete]
    bought = [(n, d.code, d.message) for n, r in enumerate(reps, 1) for d in check_buying(r.ruleset, r.record)[1]]
    return bad + bought + [(e.number, d.code, d.message) for e in check_match(reps) for d in e.diagnostics]


@pytest.mark.parametrize("seed", MATCH_SEEDS)
@pytest.mark.parametrize("name", PRESET_NAMES)
def test_self_play_matches_validate(name, seed):
    records = play_match(get_ruleset(name), seed, 4)
    assert [r.tags["Hand"] for r in records] == ["1", "2", "3", "4"]
    assert _match_problems(records) == []


def _deal(rng, stack):
    """Six hands from a shuffled deck; ``stack`` = (seat, rank): that seat is dealt all four copies of
    a joker (抗贡 under tournament)."""
    deck = [r for r in range(N_RANKS) for _ in range(COPIES[r])]
    rng.shuffle(deck)
    if stack is not None:
        seat, rank = stack
        mine = range((seat - 1) * HAND_SIZE, seat * HAND_SIZE)
        elsewhere = [j for j in range(len(deck)) if j not in mine and deck[j] == rank]
        slots = [i for i in mine if deck[i] != rank]
        for i, j in zip(slots, elsewhere):
            deck[i], deck[j] = deck[j], deck[i]
    hands = []
    for s in range(6):
        counts = [0] * N_RANKS
        for r in deck[s * HAND_SIZE : (s + 1) * HAND_SIZE]:
            counts[r] += 1
        hands.append(tuple(counts))
    return hands


def _exempt_by_hand(name, dealt, seat):
    """004 §37 read directly: four big jokers dealt to anyone on the seat's team, or four small
    jokers dealt to the seat, cancel its tribute; no other text has 抗贡."""
    team = [s for s in range(1, 7) if s % 2 == seat % 2]
    return name == "tournament" and (
        dealt[seat - 1][SMALL_JOKER] == 4 or any(dealt[m - 1][BIG_JOKER] == 4 for m in team)
    )


seats = st.integers(1, 6)


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(PRESET_NAMES),
    places=st.permutations(range(1, 7)),
    opened=st.frozensets(seats),
    calls=st.dictionaries(seats, st.sampled_from(["call", "precall"]), max_size=3),
    burns=st.lists(st.tuples(seats, seats, st.sampled_from(["success", "running", "broken"])), max_size=3),
    smothers=st.lists(st.tuples(seats, seats).filter(lambda t: t[0] != t[1]), max_size=3),
    rng=st.randoms(use_true_random=False),
    stack=st.none() | st.tuples(seats, st.sampled_from([BIG_JOKER, SMALL_JOKER])),
)
def test_tribute_the_bots_pay_is_what_the_checker_expects(name, places, opened, calls, burns, smothers, rng, stack):
    # any end of a hand and any next deal, with a seat dealt four jokers of a kind half the time
    rules = get_ruleset(name)
    prev = Position(
        ruleset=rules,
        hands=((),) * 6,
        to_act=None,
        preplay=False,
        finished=tuple(places),
        opened=opened,
        calls=tuple(calls.items()),
        burns=tuple((b, t, o) for b, t, o in burns if b != t),
        smothers=tuple(smothers),
    )
    dealt = _deal(rng, stack)
    dues = tribute_due(rules, prev)
    gives = pay_tribute(rules, dues, tuple(format_cards(h) for h in dealt))
    record = GameRecord.model_construct(tags={}, deal=tuple(format_cards(h) for h in dealt), preplay=gives, actions=())
    notes, problems = check_transfers(rules, dues, record)
    assert problems == []
    # 抗贡 as 004 §37 words it: the exempt seats give nothing, and every due of theirs is waived as such
    assert not [g.text for g in gives if _exempt_by_hand(name, dealt, g.seat)]
    assert sum("(抗贡)" in n for n in notes) == sum(_exempt_by_hand(name, dealt, d.giver) for d in dues)


# -- regressions: seeds whose matches `gouji validate` rejected (tribute-missing / tribute-extra) -----


def _preplay(records, hand):
    return " ".join(a.plain_text for a in records[hand - 1].preplay)


def test_seed_150_four_big_jokers_exempt_the_whole_team():
    # tournament seed 150. Hand 1 deals seat 2 no 3 (DX222AAAKKKK…444) and seat 1 no 4
    # (DX222AAAKQJJJJ…55533): 004 §23, each buys one from its opposite with a 2, 3s first:
    # buy 2>5:2 5>2:3 (seat 5 holds 3333), buy 1>4:2 4>1:4 (seat 4 holds 4444).
    # Hand 1 ends 3-2-6-4-5-1 (头科 3, 二科 2, 二落 5, 大落 1); seats 1 and 4 opened; seat 2
    # smothered seat 1. Hand 2 deals seat 2 all four big jokers (DDDD): 004 §37 frees team 2-4-6 of
    # all tribute. In 004 §30 order:
    #   点贡 §31: 2-5 and 3-6 both unopened (mutual, optional; the bots pay): 2>5 and 6>3 waived
    #     (抗贡); 3>6:2 (no joker), 5>2:X; 1-4 both opened: none
    #   闷贡 §32: seat 1 pays seat 2 one card: 1>2:X
    #   落贡 §34: 大落 1 → 头科 3 two cards, team-mates (optional, §35): 1>3:22; 二落 5 → 二科 2 one
    #     card: seat 5's small joker is gone, so 5>2:2
    records = play_match(get_ruleset("tournament"), 150, 2)
    assert _preplay(records, 1) == "2>5:2 5>2:3 1>4:2 4>1:4"
    assert [a.purpose for a in records[0].preplay] == ["buy"] * 4
    assert records[0].tags["Result"] == "3-2-6-4-5-1" and records[1].deal[1].startswith("DDDD")
    assert _preplay(records, 2) == "3>6:2 5>2:X 1>2:X 1>3:22 5>2:2"
    assert _match_problems(records) == []
    notes = check_match([replay(r) for r in records])[1].notes
    assert "闷贡 paid: 1>2:X" in notes and "点贡 waived: seat 6 refuses tribute (抗贡)" in notes
    assert "落贡 paid: 5>2:2" in notes


def test_seed_282_four_small_jokers_exempt_only_the_seat():
    # tournament seed 282, hand 1 ends 4-3-5-1-2-6; only seat 3 opened; seat 1 smothered seats 6 and 2.
    # Hand 2, in 004 §30 order, each paid from the cards the seat was dealt (§36):
    #   点贡 §31: 1-4 and 2-5 both unopened (mutual, optional; the bots pay): 1>4:D 2>5:X 4>1:D 5>2:X;
    #     6 did not open, 3 did: 6>3:D
    #   闷贡 §32: 6 → 1: 6>1:D (its second big joker); 2 → 1: seat 2 holds the small joker seat 5 just
    #     gave it, but pays with a 2 it was dealt (X2222): 2>1:2 (the bots used to pay 2>1:X)
    #   落贡 §34: 大落 6 → 头科 4 two, team-mates (optional, §35): 6>4:22; 二落 2 → 二科 3 one: 2>3:2
    # Hand 2 ends 2-1-3-6-5-4; seats 1, 3, 6 opened; seat 5 smothered seat 4, seat 6 seat 5. Hand 3
    # deals seat 4 all four small jokers (XXXX): 004 §37 frees seat 4 alone (4>1 点贡, 4>5 闷贡 and
    # 4>2 落贡 waived). 点贡 2-5 mutual: 2>5:2 and 5>2:D; 闷贡 5 → 6: 5>6:2 (seat 5's last dealt 2);
    # 落贡 二落 5 → 二科 1, team-mates: seat 5 holds only the 2 seat 2 gave it, which may not pay
    # tribute (§36), so the bots leave it unpaid (they used to pay 5>1:2).
    records = play_match(get_ruleset("tournament"), 282, 3)
    assert [r.tags["Result"] for r in records[:2]] == ["4-3-5-1-2-6", "2-1-3-6-5-4"]
    assert "XXXX" in records[2].deal[3]
    assert _preplay(records, 2) == "1>4:D 2>5:X 4>1:D 5>2:X 6>3:D 6>1:D 2>1:2 6>4:22 2>3:2"
    assert _preplay(records, 3) == "2>5:2 5>2:D 5>6:2"
    assert _match_problems(records) == []
    notes = check_match([replay(r) for r in records])[2].notes
    assert "落贡 waived: seat 4 refuses tribute (抗贡)" in notes and "闷贡 paid: 5>6:2" in notes


def test_selfplay_command_seed_150_match_validates(tmp_path):
    f = tmp_path / "m.gjn"
    runner = CliRunner()
    r = runner.invoke(
        main, ["selfplay", "--match", "--ruleset", "tournament", "--seed", "150", "--hands", "5", "-o", str(f)]
    )
    assert r.exit_code == 0
    v = runner.invoke(main, ["validate", str(f)])
    assert v.exit_code == 0, v.output
    assert "点贡 waived: seat 2 refuses tribute (抗贡)" in v.output


def test_a_variant_is_written_in_the_options_tag_and_replays_under_it():
    # the failing input: selfplay under charter with threes held wrote only [Ruleset "charter"], so the
    # file replayed under the preset, not the rules it was played under
    from gouji_record.rules.rulesets import options_tag, with_options

    variant = with_options(get_ruleset("charter"), {"threes-held": "yes", "showing": "none"})
    record = play_hand(variant, 3)
    assert record.tags["Options"] == "threes-held=yes, showing=none"
    again = replay(parse(write(record))[0])
    assert again.ruleset == variant and again.diagnostic is None
    assert options_tag(get_ruleset("charter")) == ""
