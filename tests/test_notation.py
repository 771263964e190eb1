"""Reading and writing .gjn: round trip, canonical form, and located errors."""

import pytest

from gouji_record import parse, read, write, write_all
from gouji_record.notation import NotationError, parse_text
from gouji_record.model import Action, GameRecord

from conftest import EXAMPLES

HAND = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
DEAL_START = HAND.index("deal")


def error(text):
    with pytest.raises(NotationError) as e:
        parse_text(text)
    return e.value


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.gjn")))
def test_round_trip_and_canonical_examples(name):
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    records = parse(text)
    assert parse(write_all(records)) == records
    assert write_all(records) == text  # the examples are kept in canonical form


def test_canonical_lines_fit_80_columns():
    from gouji_record.width import columns

    assert max(columns(line) for line in write(read(EXAMPLES / "charter-hand.gjn")[0]).splitlines()) <= 80


def test_lenient_input_crlf_bom_lower_case_ten():
    text = "\ufeff" + HAND.replace("1:TTTTT", "1:10 t 10 t10").replace("\n", "\r\n")
    # "1:10 t …" is not one token: only the first group belongs to the action
    with pytest.raises(NotationError):
        parse(text)
    text = "\ufeff" + HAND.replace("1:TTTTT", "1:1010tt10").replace("\n", "\r\n")
    assert parse(text) == parse(HAND)


def test_tag_escapes_round_trip():
    rec = parse(HAND)[0]
    odd = rec.model_copy(update={"tags": {**rec.tags, "Site": 'The "Old" Pier \\ 2'}})
    assert '[Site "The \\"Old\\" Pier \\\\ 2"]' in write(odd)
    assert parse(write(odd))[0] == odd


def test_unknown_tags_kept_in_order():
    rec = parse(HAND.replace("[Annotator", '[Zeta "z"]\n[Annotator'))[0]
    assert list(rec.tags)[-2:] == ["Zeta", "Annotator"]


def test_comment_with_closing_brace_survives_as_line_comment():
    rec = parse(HAND)[0]
    a = rec.actions[0].model_copy(update={"comments": ("see {this} }",)})
    odd = rec.model_copy(update={"actions": (a,) + rec.actions[1:]})
    assert parse(write(odd))[0] == odd


def test_many_hands_per_file():
    assert len(parse(HAND + "\n" + HAND)) == 2


def test_source_map_points_at_actions():
    _, where = parse_text(HAND)[0]
    line = HAND.splitlines()[where.actions[1][0] - 1]
    assert line[where.actions[1][1] - 1 :].startswith("4:JJJJJ")


# -- errors: code, line, column, and words instead of token names ---------------------------


def line_col(text, needle):
    i = text.index(needle)
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def test_missing_tag():
    e = error(HAND.replace('[Site "Qingdao"]\n', ""))
    assert (e.code, e.line, e.column) == ("missing-tag", 1, 2) and "[Site" in e.message


def test_35_card_hand():
    text = HAND.replace("1: KKKKKKJJJJJJJJJTTTTT6666444444444444", "1: KKKKKKJJJJJJJJJTTTTT666644444444444")
    e = error(text)
    assert e.code == "deal-size" and (e.line, e.column) == line_col(text, "KKKKKKJJJ")
    assert "35 cards: expected 36" in e.message


def test_unknown_card_letter_in_a_play():
    text = HAND.replace("4:3333", "4:33Z3")
    e = error(text)
    assert e.code == "bad-card" and (e.line, e.column) == line_col(text, "Z3 5:")
    assert e.message == "'Z' is not a card: expected 3-9 T J Q K A 2 X D (or 10)"


def test_syntax_error_says_what_was_expected_in_words():
    text = HAND.replace("2. 4:3333", "2. 4 3333")
    e = error(text)
    assert e.code == "syntax" and (e.line, e.column) == line_col(text, "4 3333")
    assert "a seat 1-6 and a colon" in e.message and "SEAT" not in e.message


def test_too_many_of_a_rank():
    text = HAND.replace("2: 2222KK", "2: 2222KK").replace("4: AAAAAAAAAAAAAKKKKKK", "4: AAAAAAAAAAAAAAKKKKK")
    e = error(text)
    assert e.code == "deal-cards" and "17 cards A" in e.message


def test_seat_dealt_twice():
    text = HAND.replace("2: 2222KK", "1: 2222KK")
    e = error(text)
    assert e.code == "deal-seat" and "seat 1 is dealt twice" in e.message


def test_bad_result():
    e = error(HAND.replace('[Result "5-6-1-4-3-2"]', '[Result "5-6-1-4-3"]'))
    assert e.code == "bad-result"


def test_duplicate_tag():
    assert error(HAND.replace('[Site "Qingdao"]', '[Site "Qingdao"]\n[Site "Jinan"]')).code == "duplicate-tag"


def test_unexpected_end_of_file():
    e = error(HAND[: DEAL_START + 10])
    assert e.code == "syntax" and "end of file" in e.message


def test_action_model_validates_shape():
    with pytest.raises(ValueError):
        Action(seat=1, kind="pass", cards="33")
    with pytest.raises(ValueError):
        Action(seat=7, kind="pass")
    with pytest.raises(ValueError):
        Action(seat=1, kind="play")  # a play without cards
    with pytest.raises(ValueError):
        Action(seat=1, kind="give", to=1, cards="2")  # a transfer to the giver
    # a valid play is stored canonically, strongest first, and written as the notation writes it
    assert Action(seat=3, kind="play", cards="k2kk", burn=True).text == "3:*2KKK"


def test_date_must_be_a_date():
    e = error(HAND.replace('[Date "2026.11.29"]', '[Date "yesterday"]'))
    assert (e.code, e.line, e.column) == ("bad-date", 4, 2)  # line 1 is [Notation "gjn 2.4"]
    assert parse(HAND.replace('[Date "2026.11.29"]', '[Date "2026.??.??"]'))


def test_unknown_escape_keeps_its_backslash():
    rec = parse(HAND.replace('[Site "Qingdao"]', r'[Site "a\nb"]'))[0]
    assert rec.tags["Site"] == r"a\nb" and parse(write(rec))[0] == rec


def test_full_width_colon_and_cr_line_ends_are_read():
    text = HAND.replace("2. 4:3333", "2. 4：3333").replace("\n", "\r")
    assert parse(text) == parse(HAND)


@pytest.mark.parametrize(
    "change, line, col, message",
    [
        (('[Site "Qingdao"]', '[Site "Qingdao]'), 3, 7, "tag value not closed"),
        (("1. 1:TTTTT {Five", "1. 1:TTTTT {oops 4:JJJJJ {Five"), 26, 12, "comment not closed"),
        (("2. 4:3333", "2. 4:* 5:4444"), 30, 8, "expected cards (3-9 T J Q K A 2 X D) before the next seat '5:'"),
    ],
)
def test_usual_slips_get_plain_messages(change, line, col, message):
    e = error(HAND.replace(*change))
    assert (e.line, e.column) == (line, col) and message in e.message


def test_long_chinese_comments_wrap_and_round_trip():
    from gouji_record.width import columns

    rec = parse(HAND)[0]
    zh = "对头没有开点，" * 12 + " 烧牌 成功 and then some English words to close " + "大落" * 20
    a = rec.actions[0].model_copy(update={"comments": (zh,)})
    odd = rec.model_copy(update={"actions": (a,) + rec.actions[1:]})
    text = write(odd)
    assert max(columns(line) for line in text.splitlines()) <= 80
    assert parse(text)[0] == odd


PREPLAY = HAND.replace("\nplay\n", "\npreplay\n{Seat 2 revolts.} 2:revolt 5:无头 {No head.}\n\nplay\n", 1)


def test_preplay_declarations_round_trip():
    rec = parse(PREPLAY)[0]
    assert [a.text for a in rec.preplay] == ["2:revolt", "5:no-head"]
    assert rec.comment == ("Seat 2 revolts.",) and rec.preplay[1].comments[0] == "No head."
    # a comment belongs to the action before it: the play section's first comment follows 5:无头
    assert rec.preplay[1].comments[1].startswith("Seats 1 3 5")
    assert parse(write(rec))[0] == rec
    _, where = parse_text(PREPLAY)[0]
    assert len(where.actions) == len(rec.preplay) + len(rec.actions)


def test_void_result():
    assert parse(HAND.replace('[Result "5-6-1-4-3-2"]', '[Result "void"]'))[0].result_places == ()


# -- buying 3s and 4s (买三, 买四) and gifts (赠与): items of their own in the pre-play section -----


def with_preplay(preplay: str) -> str:
    return HAND.replace("\nplay\n", f"\npreplay\n{preplay}\n\nplay\n", 1)


def test_a_purchase_and_a_gift_are_transfers_with_a_purpose():
    rec = parse(with_preplay("buy 1>4:2 4>1:3 gift 3>6:4 6>1:X"))[0]
    assert [(a.plain_text, a.purpose) for a in rec.preplay] == [
        ("1>4:2", "buy"),
        ("4>1:3", "buy"),
        ("3>6:4", "gift"),
        ("6>1:X", None),  # a transfer alone: tribute, as in files written before
    ]
    # the Chinese words; a glyph on each transfer, a comment between a purchase's two
    zh = parse(with_preplay("买 1>4:2 {付钱} 4>1:3! 赠与 3>6:4 赠 2>5:4"))[0]
    assert [(a.plain_text, a.purpose, a.glyph, a.comments[:1]) for a in zh.preplay] == [
        ("1>4:2", "buy", None, ("付钱",)),
        ("4>1:3", "buy", "!", ()),
        ("3>6:4", "gift", None, ()),
        ("2>5:4", "gift", None, ("Seats 1 3 5 play against seats 2 4 6; opposites are 1-4, 2-5, 3-6.",)),
    ]


def test_purchases_and_gifts_are_written_with_their_word_and_read_back():
    rec = parse(with_preplay("买 1>4:2 {付钱} 4>1:3! 赠与 3>6:4 6>1:X"))[0]
    text = write(rec)
    assert "\npreplay\nbuy 1>4:2 {付钱} 4>1:3! gift 3>6:4 6>1:X {Seats 1 3 5" in text
    assert parse(text) == [rec] and write(parse(text)[0]) == text


def test_a_refusal_is_a_transfer_offered_and_refused():
    # gjn 2.4 (docs/notation.md §3.3, §10): `refuse G>T:cards` (拒绝, 拒) says seat G offered seat T
    # these cards and T refused them: a tribute (000 §进贡 "所有吃贡者可拒绝吃贡") or a returned card
    # (002 §21(4)); one transfer, written with its word, read back the same by the grammar and the writer
    rec = parse(with_preplay("refuse 2>5:22! 2>5:22 拒绝 5>2:Q {换} 拒 5>2:K 5>2:44"))[0]
    assert [(a.plain_text, a.purpose, a.glyph) for a in rec.preplay] == [
        ("2>5:22", "refuse", "!"),
        ("2>5:22", None, None),
        ("5>2:Q", "refuse", None),
        ("5>2:K", "refuse", None),
        ("5>2:44", None, None),
    ]
    text = write(rec)
    assert "\npreplay\nrefuse 2>5:22! 2>5:22 refuse 5>2:Q {换} refuse 5>2:K 5>2:44" in text
    assert parse(text) == [rec]
    # the word needs its transfer
    with pytest.raises(NotationError):
        parse(with_preplay("refuse 5:revolt"))


def test_old_files_read_the_same():
    # a purchase written as plain transfers (before this version) is still two plain transfers
    rec = parse(with_preplay("1>4:2 4>1:3"))[0]
    assert [(a.plain_text, a.purpose) for a in rec.preplay] == [("1>4:2", None), ("4>1:3", None)]
    assert "preplay\n1>4:2 4>1:3 {Seats" in write(rec)


@pytest.mark.parametrize(
    "preplay, message",
    [
        ("buy 1>4:2 5>2:3", "expected 4>1:… after buy 1>4:2, not 5>2:3"),
        ("buy 1>4:2 4>2:3", "expected 4>1:… after buy 1>4:2, not 4>2:3"),
        ("buy 1>4:2 2:revolt", "unexpected"),
        ("buy 1>4:2", "unexpected"),
        ("gift 2:revolt", "unexpected"),
        ("buy {no} 1>4:2 4>1:3", "unexpected"),
    ],
)
def test_a_purchase_is_two_transfers_back_and_forth(preplay, message):
    e = error(with_preplay(preplay))
    assert e.code == "syntax" and message in e.message


def test_the_model_keeps_purchases_whole():
    from pydantic import ValidationError

    rec = parse(HAND)[0]
    price = Action(seat=1, kind="give", to=4, cards="2", purpose="buy")
    back = Action(seat=4, kind="give", to=1, cards="3", purpose="buy")
    assert rec.model_copy(update={"preplay": (price, back)}).preplay == (price, back)
    for preplay in [(price,), (back, price, price), (price, back.model_copy(update={"purpose": None}))]:
        with pytest.raises(ValidationError, match="a purchase is two transfers"):
            GameRecord.model_validate(rec.model_dump() | {"preplay": [a.model_dump() for a in preplay]})
    with pytest.raises(ValidationError, match="only a transfer"):
        Action(seat=1, kind="revolt", purpose="gift")
