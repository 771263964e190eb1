"""上班 (亮3, 顶班) and 抽签组邦: suited cards before play decide the first leader and the teams.

Values worked out by hand from the texts (docs/rules.md, "The first leader") and the example deal
(examples/charter-hand.gjn), where the 3s and 4s lie so:

| seat | 3s | 4s |
|---|---|---|
| 1 | – | 12 |
| 2 | 4 | – |
| 3 | – | – |
| 4 | 4 | – |
| 5 | – | 4 |
| 6 | 8 | – |

The example's first play is seat 1's 1:TTTTT.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gouji_record import parse, replay, write
from gouji_record.matches.match import check_match
from gouji_record.notation import NotationError, parse_text
from gouji_record.rules.rulesets import get_ruleset, with_options

from conftest import EXAMPLES

HAND = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8").replace('[Result "5-6-1-4-3-2"]', '[Result "*"]')


def rules(name, **options):
    base = get_ruleset(name)
    return with_options(base, options) if options else base


def first_play(preplay, ruleset, first="1:TTTTT", deal=None):
    """The diagnostic (code, rule, action index) of replaying ``preplay`` then ``first`` alone, or
    None, and the replay's events."""
    rec = parse(HAND.replace("\nplay\n", f"\npreplay\n{preplay}\n\nplay\n", 1))[0]
    seat = int(first[0])
    actions = (rec.actions[0].model_copy(update={"seat": seat, "cards": first[2:], "comments": ()}),)
    rec = rec.model_copy(update={"actions": actions, **({"deal": deal} if deal else {})})
    rep = replay(rec, ruleset)
    d = rep.diagnostic
    return (None if d is None else (d.code, d.rule, d.action)), rep


HELD = {"threes-held": "yes"}
#: Nothing known of the deal: under threes held the example's seats 1, 3 and 5 hold no 3 and would
#: leave the hand as play starts; unknown cards may hold anything.
UNKNOWN = ("?36",) * 6


@pytest.mark.parametrize("name", ["online", "classic"])
def test_online_and_classic_show_fours_under_threes_held_the_most_leads(name):
    # 000 §回合 / 001 §40: 憋三 → 同花色4 (2个以上) 多的人为第一个发牌者. Seat 5 shows two, seat 1 three:
    # seat 1 (three) leads, and its 1:TTTTT stands.
    verdict, rep = first_play("5:show s44 1:show h444", rules(name, **HELD), deal=UNKNOWN)
    assert verdict is None
    shows = [(e.seats, e.cards) for e in rep.events if e.kind.value == "show"]
    assert shows == [((5, 5), "44"), ((1, 1), "444")]


@pytest.mark.parametrize("name", ["online", "classic"])
def test_equal_shows_the_first_shown_leads(name):
    # 如果同样长度则先亮者为第一个发牌者: seat 5's two 4s came first, so seat 5 leads, not seat 1
    verdict, _ = first_play("5:show s44 1:show h44", rules(name, **HELD), deal=UNKNOWN)
    assert verdict == ("first-lead", "showing", 2)


@pytest.mark.parametrize("name", ["online", "classic"])
def test_without_threes_held_3s_are_shown(name):
    # 如果不是憋三打法则以3代替上面的4: under the presets (3s not held) a show of 4s is wrong, 3s lead
    assert first_play("1:show h444", rules(name))[0] == ("show-wrong", "showing", 0)
    # seat 6 shows three 3s of spades, seat 2 two of hearts: seat 6 leads, so 1:TTTTT is not its play
    assert first_play("2:show h33 6:show s333", rules(name))[0] == ("first-lead", "showing", 2)
    assert first_play("2:show h33 6:show s333", rules(name), first="6:33")[0] is None


def test_charter_first_two_leads_until_more_are_shown():
    # 002 §7: 亮3 (the first to show two 3s of one suit), then 顶班 (more 3s of one suit)
    charter = rules("charter")
    assert first_play("2:show h33", charter, first="2:33")[0] is None
    assert first_play("2:show h33 4:show d333", charter, first="4:33")[0] is None  # 顶班
    assert first_play("2:show h33 4:show d333", charter, first="2:33")[0] == ("first-lead", "showing", 2)
    # as many as the leader's is not more: seat 2 keeps the lead
    assert first_play("2:show h333 4:show d333", charter, first="4:33")[0] == ("first-lead", "showing", 2)
    # one card is not a show (两张同色3)
    assert first_play("2:show h3", charter, first="2:33")[0] == ("show-wrong", "showing", 0)


@pytest.mark.parametrize("name", ["fours", "tournament"])
def test_texts_without_showing_refuse_a_show(name):
    # 003 does not name 上班; 004 §7-§8 draw the first leader by lot
    assert first_play("6:show s3333", rules(name), first="6:33")[0] == ("show-not-allowed", "showing", 0)


def test_a_show_needs_the_cards_known_or_possible():
    charter = rules("charter")
    # seat 1 holds no 3 in the example deal
    assert first_play("1:show h33", charter)[0] == ("not-in-hand", "showing", 0)
    # with its cards not written, two 3s are possible while the decks have 3s unaccounted for: seat 6's
    # eight are not written either (8 of 16 known)
    rec = parse(HAND)[0]
    hidden = ("?36",) + rec.deal[1:5] + ("?36",)
    verdict, rep = first_play("1:show h33", charter, deal=hidden)
    assert verdict is None
    # the shown cards are known from then on: seat 1 holds two 3s, and 10 of the 16 are seen
    assert rep.positions[1].hands[0][0] == 2 and rep.positions[1].seen[0] == 10
    # not when seats 2, 4 and 6 are known to hold all sixteen
    assert first_play("1:show h33", charter, deal=("?36",) + rec.deal[1:])[0] == ("too-many-cards", "showing", 0)
    # one seat's shows of two suits are that many cards: seat 2 was dealt four 3s, not six
    assert first_play("2:show h333 2:show s333", charter, first="2:33")[0] == ("not-in-hand", "showing", 1)
    # a longer show of the same suit repeats the cards of the shorter
    assert first_play("2:show h33 2:show h333", charter, first="2:33")[0] is None
    # four decks hold four 3s of hearts: seats 2 and 4 cannot both show h3333
    assert first_play("2:show h3333 4:show h3333", charter, first="2:33")[0] == ("too-many-cards", "showing", 1)


def test_a_show_comes_before_buying_tribute_and_declarations():
    charter = rules("charter")
    # seat 3 holds 2s and jokers: it cannot revolt, so use a call (明点) as the declaration before the show
    assert first_play("2:call 6:show s333", charter, first="6:33")[0] == ("preplay-order", "showing", 1)


def test_draws_make_teams_by_colour_under_the_charter():
    # 002 §5 抽签组邦: the three red cards are one team; 1-3-5 red, 2-4-6 black
    charter = rules("charter")
    draws = "1:draw h7 2:draw s8 3:draw d9 4:draw c5 5:draw h6 6:draw c7"
    verdict, rep = first_play(draws, charter)
    assert verdict is None
    assert [e.note for e in rep.events if e.kind.value == "draw"] == ["red", "black", "red", "black", "red", "black"]
    # seat 6 draws red: seats 1 and 6 are on different teams (the first such pair found)
    assert first_play(draws.replace("6:draw c7", "6:draw d7"), charter)[0] == ("draw-teams", "team-draw", 5)
    # seat 2 draws red while team-mate... seat 1 (other team) drew red first
    assert first_play("1:draw h7 2:draw h8", charter)[0] == ("draw-teams", "team-draw", 1)
    # team-mates 1 and 3 drew different colours
    assert first_play("1:draw h7 3:draw s8", charter)[0] == ("draw-teams", "team-draw", 1)
    assert first_play("1:draw h7 1:draw h8", charter)[0] == ("draw-wrong", "team-draw", 1)
    # a draw after a show
    assert first_play("2:show h33 1:draw h7", charter, first="2:33")[0] == ("preplay-order", "team-draw", 1)
    # the other texts draw no colours
    for name in ("online", "classic", "fours", "tournament"):
        assert first_play("1:draw h7", rules(name))[0] == ("draw-not-allowed", "team-draw", 0)


def test_suits_read_in_every_spelling_and_write_as_letters():
    text = HAND.replace("\nplay\n", "\npreplay\n1:抽签 红桃7 2:draw ♠8 3:draw D9 6:亮 梅花333\n\nplay\n", 1)
    rec = parse(text)[0]
    assert [(a.kind.value, a.suit, a.cards) for a in rec.preplay] == [
        ("draw", "h", "7"),
        ("draw", "s", "8"),
        ("draw", "d", "9"),
        ("show", "c", "333"),
    ]
    written = write(rec)
    assert "1:draw h7 2:draw s8 3:draw d9 6:show c333" in written
    assert parse(written)[0] == rec


@pytest.mark.parametrize(
    "item, column, words",
    [
        ("1:show h33333", 9, "at most 4"),  # four decks hold four 3s of hearts
        ("1:draw h77", 9, "one card"),
        ("1:show h3344", 9, "one rank"),
    ],
)
def test_impossible_suited_cards_are_located_errors(item, column, words):
    text = HAND.replace("\nplay\n", f"\npreplay\n{item}\n\nplay\n", 1)
    line = text.splitlines().index(item) + 1
    with pytest.raises(NotationError) as e:
        parse_text(text)
    assert (e.value.code, e.value.line, e.value.column) == ("bad-card", line, column)
    assert words in str(e.value)


def test_a_joker_has_no_suit():
    text = HAND.replace("\nplay\n", "\npreplay\n1:show hXX\n\nplay\n", 1)
    with pytest.raises(NotationError) as e:
        parse_text(text)
    assert e.value.code == "syntax"


def test_in_a_match_showing_decides_only_where_no_leader_is_named():
    # online: the hand after the first is led by the seat after the last first leader (000 §发牌);
    # a show there is show-not-allowed, and a draw for the teams belongs to the first hand
    text = (EXAMPLES / "online-match.gjn").read_text(encoding="utf-8")
    hands = text.split('[Notation "')
    second = hands[2]
    assert "preplay\n" in second
    shown = second.replace("preplay\n", "preplay\n6:show s33\n", 1)
    records = parse('[Notation "' + hands[1] + '[Notation "' + shown)
    entries = check_match([replay(r) for r in records])
    assert [(d.code, d.rule, d.action) for d in entries[1].diagnostics][:1] == [("show-not-allowed", "first-lead", 0)]
    drawn = second.replace("preplay\n", "preplay\n6:draw s3\n", 1)
    records = parse('[Notation "' + hands[1] + '[Notation "' + drawn)
    entries = check_match([replay(r, with_options(get_ruleset("online"), {"team-draw": "yes"})) for r in records])
    assert [(d.code, d.rule, d.action) for d in entries[1].diagnostics][:1] == [("draw-not-allowed", "team-draw", 0)]


SUITED = st.tuples(
    st.integers(1, 6), st.sampled_from("shcd"), st.integers(2, 4), st.sampled_from(["♠", "♥", "♣", "♦", "", "upper"])
)


@settings(max_examples=60, deadline=None)
@given(st.lists(SUITED, min_size=1, max_size=8))
def test_the_longest_show_leads_and_reads_back(shows):
    # under the charter (3s shown) with nothing known of the deal, any such shows are legal; the seat
    # leading is one whose show no other is longer than, and no show before it is as long
    spelled = []
    for seat, suit, n, spelling in shows:
        if spelling == "upper":
            mark = suit.upper()
        elif spelling:  # a suit symbol: its own suit
            mark, suit = spelling, "shcd"["♠♥♣♦".index(spelling)]
        else:
            mark = suit
        spelled.append((seat, suit, n, f"{seat}:show {mark}{'3' * n}"))
    text = HAND.replace("\nplay\n", "\npreplay\n" + " ".join(s[3] for s in spelled) + "\n\nplay\n", 1)
    rec = parse(text)[0].model_copy(update={"deal": UNKNOWN})
    assert [(a.seat, a.suit, len(a.cards)) for a in rec.preplay] == [s[:3] for s in spelled]
    assert parse(write(rec))[0] == rec
    # four decks hold four 3s of each suit: the first show that takes a suit's shown 3s past four (each
    # seat counting its longest show of the suit) is refused
    most: dict[tuple[int, str], int] = {}
    for i, (seat, suit, n, _) in enumerate(spelled):
        most[seat, suit] = max(most.get((seat, suit), 0), n)
        if sum(v for (_, each), v in most.items() if each == suit) > 4:
            d = replay(rec.model_copy(update={"actions": rec.actions[:1]}), rules("charter")).diagnostic
            assert (d.code, d.action) == ("too-many-cards", i)
            return
    longest = max(n for _, _, n, _ in spelled)
    leader = next(seat for seat, _, n, _ in spelled if n == longest)
    for seat in range(1, 7):
        play = rec.actions[0].model_copy(update={"seat": seat, "cards": "33", "comments": ()})
        d = replay(rec.model_copy(update={"actions": (play,)}), rules("charter")).diagnostic
        assert (d is None) == (seat == leader), (seat, leader, d)


def test_a_shower_who_leaves_the_hand_hands_the_lead_on_and_the_message_says_so():
    # the failing input: "2:show h33 2:revolt" then 2:33 said "seat 3 showed the most…", though seat 3
    # showed nothing; seat 2 revolted (sits the hand out), so the next seat, 3, leads
    verdict, rep = first_play("2:show h33 2:revolt", rules("charter"), first="2:33", deal=UNKNOWN)
    assert verdict == ("first-lead", "showing", 2)
    assert rep.diagnostic.message == (
        "seat 2 showed the most cards of one suit (上班) and left the hand: the next seat, seat 3, leads, not seat 2"
    )
    assert first_play("2:show h33 2:revolt", rules("charter"), first="3:33", deal=UNKNOWN)[0] is None


def test_every_seat_draws_or_none():
    # 002 §5: each of the six draws one of the six cards; a record with some draws must have all six
    charter = rules("charter")
    assert first_play("1:draw h7 2:draw s8 3:draw d9", charter)[0] == ("draw-wrong", "team-draw", 3)
