"""Cards, play shapes, 够级 thresholds and the charter's comparison (002 §8, §9)."""

import pytest

from gouji_record.cards import CardError, DECK_SIZE, HAND_SIZE, format_cards, parse_cards
from gouji_record.rules.plays import PlayError, beats, is_unbeatable, is_gouji, parse_play
from gouji_record.rules.rulesets import get_ruleset

CHARTER = get_ruleset("charter")


def test_deck_is_four_decks_of_54():
    assert DECK_SIZE == 216 and HAND_SIZE == 36


def test_card_alphabet_accepts_10_lower_case_and_spaces():
    assert format_cards(parse_cards("10 10 t j d x 2")) == "DX2JTTT"


def test_canonical_letters_count_as_the_general_reader_counts_them():
    """Upper-case letters take a shortcut; lower case goes the long way: the same counts."""
    hand = "DDXX2222AAAKQJT9876543"
    assert parse_cards(hand) == parse_cards(hand.lower()) == (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 4, 2, 2)
    assert parse_cards("") == parse_cards(" ") == (0,) * 15


def test_unknown_card_letter_names_its_offset():
    with pytest.raises(CardError) as e:
        parse_cards("QQZ")
    assert e.value.offset == 2 and "'Z' is not a card" in str(e.value)
    with pytest.raises(CardError):
        parse_cards("QQ1")  # a 1 that does not begin 10


def test_attached_twos_count_as_the_rank():
    p = parse_play("22QQ")  # 002 §8(3): 钱贴牌时视为该牌中的普通一员
    assert (p.rank, p.count, p.jokers) == (parse_play("Q").rank, 4, 0)


def test_a_play_holds_one_rank():
    with pytest.raises(PlayError):
        parse_play("3344")


@pytest.mark.parametrize(
    "cards, gouji",
    [
        ("TTTTT", True),
        ("TTTT", False),
        ("JJJJ", True),
        ("JJJ", False),
        ("QQQ", True),
        ("QQ", False),
        ("KK", True),
        ("K", False),
        ("AA", True),
        ("A", False),
        ("2", True),
        ("X", True),
        ("D", True),
        ("999999999", False),  # 9 and below never qualify on count alone
        ("X99", True),  # any play carrying a joker is a gouji play
        ("22QQ", True),
        ("2QQ", True),
        ("2JJ", False),  # converted counts: 4×Q, 3×Q, 3×J
        ("TTTTTT", True),
        ("QQQQ", True),  # more cards of the rank qualify too
    ],
)
def test_gouji_thresholds_charter(cards, gouji):
    assert is_gouji(parse_play(cards), CHARTER) is gouji


@pytest.mark.parametrize(
    "top, new, ok, rule",
    [
        ("255", "666", True, "higher-rank"),  # S3's example: 2 attached makes 555
        ("666", "X77", True, "higher-rank"),  # a joker play beats a plain play of lower rank
        ("X77", "888", False, "joker-comparison"),
        ("X77", "D88", True, "joker-comparison"),
        ("XX999", "DDJJJ", True, "joker-comparison"),  # seed 002 preamble: 2 big + 3 J beat 2 small + 3 nine
        ("XX999", "DDDJJ", True, "joker-comparison"),  # … or 3 big + 2 J
        ("XX999", "DJJJJ", False, "joker-comparison"),  # fewer big jokers than small ones
        # the rank must be at least one higher: 002 §8(3) "高于小花所挂牌一点以上" decides, not 步步高
        # (§8(6)), which was cited (issue 31)
        ("X99", "D99", False, "joker-comparison"),
        ("D33", "DD44", False, "same-count"),
        ("D33", "DDA", False, "big-joker-dead"),  # a play carrying a big joker is dead
        ("D", "D", False, "big-joker-dead"),
        ("KKK", "QQQ", False, "higher-rank"),
        ("2", "X", True, "higher-rank"),
        ("X", "D", True, "joker-comparison"),
        ("AAA", "XXX", True, "higher-rank"),  # jokers alone rank as their joker
    ],
)
def test_charter_comparison(top, new, ok, rule):
    v = beats(parse_play(top), parse_play(new), CHARTER)
    assert (v.ok, v.rule) == (ok, rule)


def test_dead_plays_are_those_carrying_a_big_joker():
    assert is_unbeatable(parse_play("D3"), CHARTER) and not is_unbeatable(parse_play("XXX"), CHARTER)
