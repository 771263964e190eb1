"""Self-play hands under every preset, and single-action mutations of them (hypothesis).

Every self-played hand must validate; write→parse is the identity; a mutated hand is either
rejected with a fitting diagnostic code or, when the engine accepts the mutation, still ends as its
Result says with every card accounted for: never a crash.
"""

import random

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gouji_record import parse, replay, write
from gouji_record.cli import main
from gouji_record.model import ActionKind
from gouji_record.rules.cards import DECK_SIZE
from gouji_record.rules.events import EventKind
from gouji_record.rules.rulesets import PRESETS, get_ruleset
from gouji_record.selfplay import play_hand

PRESET_NAMES = list(PRESETS)
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TURN_CODES = {
    "not-your-turn",
    "gouji-not-opposite",
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
        held = set(rec.deal[a.seat - 1])
        absent = [c for c in "3456789TJQKA" if c not in held]
        if absent and a.cards.strip("DX2"):
            rank = a.cards.strip("DX2")[0]
            yield (
                "card not held",
                _with(rec, i, a.model_copy(update={"cards": a.cards.replace(rank, absent[0])})),
                {"not-in-hand", "not-your-turn", "gouji-not-opposite", "passed-this-round"},
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
            {"gouji-not-opposite", "not-your-turn", "seat-finished", "seat-out", "passed-this-round"},
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
