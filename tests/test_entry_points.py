"""Every door of the API given what it does not take (issue 38): the wrong number of hands, a seat
or a leader out of 1–6, more of a rank than four decks hold, letters that are no card, an action
made without validation for seat 7, an option value that is none, arguments of the wrong type. Each
raises the package's own error (a :class:`gouji_record.GoujiError`, with a stable ``code`` and a
one-line message), or pydantic's ``ValidationError`` where a model is built (``Action(...)``, as
docs/api.md says), never an ``IndexError``, ``KeyError``, ``AttributeError`` or ``TypeError`` from
deep inside. Counts of four decks: 16 of each rank 3 to 2, 4 of each joker, 216 cards
(``cards.COPIES``; RULES.md "Table")."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

import gouji_record as gj
from gouji_record.model import constructed_action
from gouji_record.rules.schema import OPTION_NAMES

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CHARTER = gj.get_ruleset("charter")
[RECORD] = gj.read(EXAMPLES / "charter-hand.gjn")
#: A small table: seat 1 leads five 10s (a 够级 play), its opposite seat 4 holds five jacks.
SMALL = ("TTTTT33", "X55", "66", "JJJJJ4", "77", "88")

#: Values of no type any door takes where it wants something else.
GARBAGE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 300),
    st.floats(allow_nan=False),
    st.binary(max_size=8),
    st.lists(st.integers(-2, 20), max_size=17),
    st.tuples(st.integers(-2, 20)),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
    st.just(object()),
)
#: Text close to card strings: card letters, the marks of a deal's ?N, digits and a few that are none.
CARDISH = st.text(st.sampled_from("3456789TJQKA2XDtqx?0159 -Z大王"), max_size=45)


def refused_by_the_package(call) -> object:
    """``call()``'s value, or ``None`` when it raised a GoujiError whose ``code`` and one-line
    message say what; any other exception fails the test."""
    try:
        return call()
    except gj.GoujiError as e:
        assert e.code and e.code != "error" and str(e) and "\n" not in str(e), (type(e), e.code, str(e))
        return None


def test_the_issues_samples_are_refused_at_the_door():
    # issue 38: five hands were an IndexError, leader 7 a KeyError later, 40 big jokers accepted
    with pytest.raises(gj.BadArgument) as five:
        gj.initial_position(CHARTER, SMALL[:5], leader=1)
    assert five.value.code == "deal-seat" and str(five.value) == "deal: 5 hands: expected six, seat 1 first"
    with pytest.raises(gj.BadArgument) as seventh:
        gj.initial_position(CHARTER, SMALL, leader=7)
    assert seventh.value.code == "bad-seat"
    assert str(seventh.value) == "leader 7: expected the seat 1-6 that leads round 1"
    with pytest.raises(gj.BadArgument) as jokers:
        gj.initial_position(CHARTER, ("D" * 40,) + ("?36",) * 5, leader=1)
    assert jokers.value.code == "deal-cards" and str(jokers.value) == "deal: 40 cards D: four decks hold 4"
    assert isinstance(jokers.value, ValueError)  # as the API's other bad values are


@pytest.mark.parametrize(
    ("deal", "leader", "code", "message"),
    [
        (SMALL + ("3",), 1, "deal-seat", "deal: 7 hands: expected six, seat 1 first"),
        ("TTTTTT", 1, "bad-argument", "deal: expected six hands, seat 1 first (a tuple), not str"),
        (SMALL, 0, "bad-seat", "leader 0: expected the seat 1-6 that leads round 1"),
        (SMALL, "1", "bad-seat", "leader '1': expected the seat 1-6 that leads round 1"),
        (SMALL, True, "bad-seat", "leader True: expected the seat 1-6 that leads round 1"),
        # 17 threes: the seats' 3s together, four decks holding 16
        (("3" * 9, "3" * 8, "", "", "", ""), 1, "deal-cards", "deal: 17 cards 3: four decks hold 16"),
        # 216 cards not known and one known: 217 in all
        (("3?36", "?36", "?36", "?36", "?36", "?36"), 1, "deal-cards", "deal: 217 cards in all: four decks hold 216"),
        (("KK?x",) + SMALL[1:], 1, "deal-hand", "seat 1: 'KK?x': expected cards, then ?N for N cards not known (KK?34)"),
        (("?",) + SMALL[1:], 1, "deal-hand", "seat 1: '?': expected cards, then ?N for N cards not known (KK?34)"),
        (SMALL[:2] + ("6Z",) + SMALL[3:], 1, "deal-hand",
         "seat 3: 'Z' is not a card: expected one of 3-9 T J Q K A 2 X D (or 10)"),
        (SMALL[:5] + ((1, 2),), 1, "deal-hand", "seat 6: (1, 2): expected cards (KK?34) or 15 counts from 0, 3 first"),
    ],
)  # fmt: skip
def test_initial_position_says_what_is_wrong_with_a_deal_or_a_leader(deal, leader, code, message):
    with pytest.raises(gj.BadArgument) as e:
        gj.initial_position(CHARTER, deal, leader)
    assert (e.value.code, str(e.value)) == (code, message)


def test_initial_position_takes_four_decks_exactly():
    deck = "".join(letter * (4 if letter in "XD" else 16) for letter in "3456789TJQKA2XD")
    pos = gj.initial_position(CHARTER, tuple(deck[36 * s : 36 * s + 36] for s in range(6)), leader=6)
    assert [pos.holds(s) for s in range(1, 7)] == [36] * 6 and pos.to_act == 6 and sum(pos.seen) == 216
    with pytest.raises(gj.BadArgument, match="ruleset: expected a Ruleset"):
        gj.initial_position("charter", SMALL, 1)


HANDS = st.one_of(CARDISH, st.lists(st.integers(-1, 20), min_size=14, max_size=16).map(tuple), GARBAGE)


@PROPERTY
@given(
    st.one_of(st.lists(HANDS, min_size=4, max_size=8), st.lists(HANDS, min_size=6, max_size=6).map(tuple), GARBAGE),
    st.one_of(st.integers(-1, 8), GARBAGE),
)
def test_initial_position_makes_a_table_of_four_decks_or_says_why_not(deal, leader):
    pos = refused_by_the_package(lambda: gj.initial_position(CHARTER, deal, leader))
    if pos is not None:  # what it takes is six hands within four decks and a seat to lead
        assert len(pos.hands) == 6 and pos.to_act in range(1, 7)
        assert all(n <= (4 if rank >= 13 else 16) for rank, n in enumerate(pos.seen))
        assert sum(pos.holds(s) for s in range(1, 7)) <= 216


ACTIONS = st.builds(
    constructed_action,
    seat=st.one_of(st.integers(-1, 8), GARBAGE),
    kind=st.one_of(st.sampled_from(gj.ActionKind), st.sampled_from([k.value for k in gj.ActionKind])),
    cards=st.one_of(CARDISH, GARBAGE),
    to=st.one_of(st.none(), st.integers(-1, 8)),
    burn=st.booleans(),
    irregular=st.booleans(),
    suit=st.one_of(st.none(), st.sampled_from("shcdz")),
)


@PROPERTY
@given(st.one_of(ACTIONS, GARBAGE, CARDISH), st.sampled_from([None, "pos"]))
def test_step_refuses_what_is_no_action_of_a_seat(action, which):
    pos = gj.initial_position(CHARTER, SMALL, leader=1)
    stepped = refused_by_the_package(lambda: gj.step(pos if which else None, action))
    if stepped is not None:  # (a play's other fields, made without validation, are not all read: ``to``)
        assert which and 1 <= action.seat <= 6 and isinstance(action.kind, gj.ActionKind)
        assert action.kind is not gj.ActionKind.GIVE or 1 <= action.to <= 6


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"seat": 7, "kind": gj.ActionKind.PLAY, "cards": "TTTTT"}, "action seat 7: expected a seat 1-6"),
        ({"seat": 0, "kind": gj.ActionKind.REVOLT}, "action seat 0: expected a seat 1-6"),
        ({"seat": 1, "kind": gj.ActionKind.GIVE, "cards": "T", "to": 9}, "action taker 9: expected a seat 1-6"),
    ],
)
def test_step_names_a_seat_out_of_range(fields, message):
    # a seat 7 was "seat 7 has played all its cards", seat 0's revolt an IndexError
    pos = gj.initial_position(CHARTER, SMALL, leader=1)
    with pytest.raises(gj.BadArgument) as e:
        gj.step(pos, constructed_action(**fields))
    assert (e.value.code, str(e.value)) == ("bad-seat", message)


@PROPERTY
@given(st.one_of(st.integers(-1, 8), GARBAGE), st.booleans())
def test_legal_actions_refuses_what_is_no_seat_or_no_position(seat, real):
    pos = gj.initial_position(CHARTER, SMALL, leader=1) if real else seat
    listed = refused_by_the_package(lambda: gj.legal_actions(pos, seat))
    if listed is not None:
        assert real and (seat is None or seat in range(1, 7))


OPTION_VALUES = st.one_of(st.text(st.sampled_from("yesnotwo+-:T4JQ0123 abcdefghilmprsu"), max_size=12), GARBAGE)


@PROPERTY
@given(
    st.one_of(
        st.dictionaries(
            st.one_of(
                st.sampled_from([n.replace("_", "-") for n in OPTION_NAMES]),
                st.text(max_size=6),
                st.one_of(st.none(), st.integers(), st.binary(max_size=4)),
            ),
            OPTION_VALUES,
            max_size=3,
        ),
        GARBAGE,
    ),
    st.one_of(st.sampled_from(sorted(gj.PRESETS)), GARBAGE),
)
def test_with_options_gives_a_ruleset_or_a_bad_option(options, preset):
    rules = gj.get_ruleset(preset) if isinstance(preset, str) else preset
    derived = refused_by_the_package(lambda: gj.with_options(rules, options))
    if derived is not None:
        assert isinstance(derived, gj.Ruleset) and derived.name == preset


def test_with_options_refuses_a_value_that_is_not_text():
    with pytest.raises(gj.BadOption) as e:  # was an AttributeError ('bool' object has no attribute 'strip')
        gj.with_options(CHARTER, {"claim": True})
    assert str(e.value) == "option 'claim'=True: expected a name and a value as text, as an Options tag writes them"


@PROPERTY
@given(st.one_of(st.text(max_size=12), GARBAGE))
def test_the_text_doors_refuse_what_they_cannot_read(value):
    for door in (gj.parse, gj.parse_cards, gj.get_ruleset, gj.Action.from_text, gj.format_cards):
        refused_by_the_package(lambda: door(value))  # noqa: B023 (called at once)
    refused_by_the_package(lambda: gj.read(EXAMPLES / "charter-hand.gjn", encoding=value))


def test_an_encoding_that_is_none_is_the_packages_error():
    for name in ("nope", "a\x00b", 3, "utf-16"):  # a NUL was a ValueError of codecs, 3 a TypeError
        with pytest.raises(gj.UnknownEncoding) as e:
            gj.read(EXAMPLES / "charter-hand.gjn", encoding=name)
        assert isinstance(e.value, gj.GoujiError) and e.value.code == "unknown-encoding"


@PROPERTY
@given(
    st.one_of(st.just(RECORD), GARBAGE, CARDISH), st.one_of(st.none(), st.sampled_from(["online", "chess"]), GARBAGE)
)
def test_the_record_doors_refuse_what_is_no_record(record, ruleset):
    for door in (gj.replay, gj.verdict, gj.ruleset_of, gj.render_html):
        refused_by_the_package(lambda: door(record, ruleset))  # noqa: B023 (called at once)
    for door in (gj.write, gj.first_leader):
        refused_by_the_package(lambda: door(record))  # noqa: B023 (called at once)
    refused_by_the_package(lambda: gj.write_all([record]))


def test_replay_takes_a_preset_name_as_ruleset_of_does():
    # replay(record, "online") was an AttributeError ('str' object has no attribute 'fate_without_threes')
    by_name = gj.replay(RECORD, "online")
    assert by_name.ruleset.name == "online" and by_name.ruleset == gj.ruleset_of(RECORD, "online")
    assert by_name.places == gj.replay(RECORD, gj.get_ruleset("online")).places


@PROPERTY
@given(st.one_of(st.integers(-1, 8), GARBAGE), st.one_of(CARDISH, GARBAGE))
def test_a_model_built_from_bad_fields_is_pydantics_documented_error(seat, cards):
    try:
        gj.Action(seat=seat, kind="play", cards=cards)
    except ValidationError:
        pass  # docs/api.md's errors table: the record model is pydantic's
