"""How the five presets differ: one hand-worked case per preset for every rule they disagree on.

Presets and their seeds (shared/seeds/): S0 000 ``online``, S1 001 ``classic``, S2 002 ``charter``,
S3 003 ``fours``, S4 004 ``tournament``. Every expected value below is worked out from the seed
text cited in the comment, not read off the engine. Where the engine disagrees with the text the
test keeps the text's value and is marked ``xfail(strict=True, reason="engine bug: …")``.

Seats 1–6 act in order; opposites 1-4, 2-5, 3-6; team 1 is seats 1 3 5, team 0 seats 2 4 6.
Under ``fours`` and ``tournament`` (threes held, 憋三) every seat holds 3s, or it is out when play
starts; the helper :func:`spare` gives every seat ``33``.
"""

from __future__ import annotations

import pytest
from conftest import action

from gouji_record.model import Action, ActionKind
from gouji_record.cards import parse_cards
from gouji_record.rules.engine import Position, burn_condition_holds, initial_position, step
from gouji_record.rules.scoring import scores
from gouji_record.rules.events import Diagnostic, Event, IllegalAction
from gouji_record.rules.plays import beats, is_gouji, is_pure_gouji, parse_play
from gouji_record.rules.rulesets import Ruleset, get_ruleset, with_options

PRESETS = ("online", "classic", "charter", "fours", "tournament")
ONLINE, CLASSIC, CHARTER, FOURS, TOURNAMENT = (get_ruleset(n) for n in PRESETS)
THREES_HELD = ("fours", "tournament")
NOT_THREES_HELD = ("online", "classic", "charter")

_DECLARATIONS = {
    "revolt": ActionKind.REVOLT,
    "keep-head": ActionKind.KEEP_HEAD,
    "no-head": ActionKind.NO_HEAD,
    "natural": ActionKind.NATURAL,
}


def act(token: str) -> Action:
    """conftest's ``action``, plus the pre-play declarations ``2:revolt``, ``5:no-head``, ``1:natural``…"""
    seat, body = token.split(":")
    if body in _DECLARATIONS:
        return Action(seat=int(seat), kind=_DECLARATIONS[body])
    return action(token)


class Hand:
    """Like conftest's ``Table``, but takes a :class:`Ruleset` (for option variants) and declarations."""

    def __init__(self, deal: dict[int, str], rules: str | Ruleset, leader: int = 1):
        self.rules = rules if isinstance(rules, Ruleset) else get_ruleset(rules)
        self.pos: Position = initial_position(self.rules, tuple(deal.get(s, "") for s in range(1, 7)), leader)
        self.events: list[Event] = []

    def play(self, moves: str) -> Position:
        for tok in moves.split():
            self.pos, ev = step(self.pos, act(tok))
            self.events.extend(ev)
        return self.pos

    def illegal(self, moves: str) -> Diagnostic:
        """Apply all of ``moves`` but the last, which must be illegal; its diagnostic."""
        *ok, bad = moves.split()
        self.play(" ".join(ok))
        with pytest.raises(IllegalAction) as e:
            step(self.pos, act(bad))
        return e.value.diagnostic

    def close_round(self) -> Position:
        """Everyone with a turn passes until the round is won (who has a turn is not under test here)."""
        while self.pos.top is not None and not self.pos.over:
            self.play(f"{self.pos.to_act}:-")
        return self.pos

    def kinds(self) -> list[str]:
        return [e.kind.value for e in self.events if e.kind.value != "round-end"]

    def event(self, kind: str) -> Event:
        return next(e for e in self.events if e.kind.value == kind)


def spare(**hands: str) -> dict[int, str]:
    """Every seat gets 33 plus the cards given as s1=…, s2=…"""
    return {s: hands.get(f"s{s}", "") + "33" for s in range(1, 7)}


def per_preset(cases: list[tuple], marks: dict[tuple, pytest.MarkDecorator] | None = None) -> list:
    """Rows ``(a, b, {preset: expected})`` flattened to ``pytest.param(a, b, preset, expected)``."""
    marks = marks or {}
    out = []
    for *args, expected in cases:
        for name, value in expected.items():
            key = (*args, name)
            out.append(pytest.param(*args, name, value, id="-".join(map(str, key)), marks=marks.get(key, ())))
    return out


def every(value, names=PRESETS) -> dict[str, object]:
    return dict.fromkeys(names, value)


def row(online, classic, charter, fours, tournament) -> dict[str, object]:
    return dict(zip(PRESETS, (online, classic, charter, fours, tournament)))


# =============================================================================================
# Play comparison with jokers (挂花的牌的大小)
# =============================================================================================
#
# S0 §一手牌的大小: a small-joker play "必须用挂大花的牌来管 … 必须在花和牌点两个方面都大过此牌"
#   (2 small + 999 beaten by 2 big + JJJ or 3 big + JJ; 2 big + 888 cannot); "挂大花的牌是最大的";
#   "大花+小花+钱+同点的牌此时大花当做小花". S1 §16, §24: the same both-sides rule, same D+X reading.
# S2 §8(3): "大花挂任何牌时发牌均为死牌"; a small-joker play is beaten only by big jokers, no fewer than
#   the small ones, carrying a rank one higher or more.
# S3 §牌张大小: "王是孤立计算的"; 666 > 255; 小王+77 > 666; 888 cannot beat 小王+77; "至少需要大王+88才可以
#   大过小王+77（大王+小王+8当然也可以），即‘张数必须对，王数不能少’"; "所以，当一套牌含有大王时，这套牌必然是
#   最大的". Read (round two): each joker on top is met by a stronger joker (a small by a big, a big by
#   none), no fewer jokers, a higher rank; "最大的" means nothing beats it, not that it beats all.
# S4 §5 "大王效力最高，但存在“大王二杀一”规则，即两张大王可压制一张大王": a big joker on top takes two;
#   §6 jokers keep their own level when attached, and may attach to each other.

COMPARISONS = [
    # S3's own examples; the 2 attached to 55 counts as a 5 (S1 §11 "266算作666"), so 666 > 555.
    ("255", "666", every(True)),
    # a joker play beats a plain play of lower rank: S3 "小王+77可以大过666"; S2 §8(6) 步步高.
    ("666", "X77", every(True)),
    # no joker cannot beat a joker play: S0/S1 (must carry big jokers), S2 §8(3) (big jokers needed),
    # S3 "888不能大过小王+77", S4 §6 (the small joker keeps its level above an 8).
    ("X77", "888", every(False)),
    # a big joker over a small one, rank one higher: S0/S1 both sides, S2 §8(3), S3 "至少需要大王+88", S4.
    ("X77", "D88", every(True)),
    # the same joker, higher rank: S0 "挂小花的牌必须用挂大花的牌来管", S1 §24 and S2 §8(3) want big
    # jokers; S3 "至少需要大王+88": the small joker takes a big one; S4 §6 X = X and 88 > 77.
    ("X77", "X88", row(False, False, False, False, True)),
    # a big joker without a higher rank: every text wants the rank higher too (S3 "点数大过").
    ("X77", "D77", every(False)),
    # big + small joker: S0 and S1 §16 "大花+小花…此时大花当做小花" make DX8 two small jokers + 8, not a
    # big-joker play; S2 has one big joker ≥ one small; S3 "大王+小王+8当然也可以"; S4 D and X ≥ X.
    ("X77", "DX8", row(False, False, True, True, True)),
    # S0 and S2 preamble: 2 small + 999 beaten by 2 big + 3 tens / J, or 3 big + 2 of them.
    ("XX999", "DDTTT", every(True)),
    ("XX999", "DDDTT", every(True)),
    # … but not by 2 big + 888: "2个大花带3个八（或九）是不能大过的" (S0); rank too low, under S3 too:
    # "必然是最大的" says nothing beats a big-joker play, not that it beats a higher rank.
    ("XX999", "DD888", row(False, False, False, False, False)),
    ("888", "D77", every(False)),
    # fewer jokers: S3 "王数不能少" although a big joker is in it; S0/S1/S2 want two big; S4 2 jokers.
    ("XX77", "D888", every(False)),
    ("XX77", "DD88", every(True)),
    # dead or not: S2 §8(3) and S3 a big-joker play cannot be beaten. S0 "挂大花的牌是最大的" and
    # S0/S1 "两个方面都大过": D44's jokers are not bigger than D33's. 3s and 4s carry nothing under
    # S3 and S4 §6, so there the pair is D55 / D66: S4 §5 one big joker does not take another.
    ("D33", "D44", row(False, False, False, None, None)),
    ("D55", "D66", row(None, None, None, False, False)),
    ("D7", "D8", every(False)),
    # two big jokers on one, with a higher rank: S0/S1 more big jokers on both sides; S4 §5 二杀一.
    ("D55", "DD6", row(True, True, False, False, True)),
    ("D7", "DD", row(True, True, False, False, True)),
    # jokers alone on jokers alone: S0 and S1 §16 make DX two small jokers, beaten by two big ones as
    # DX5 is by DD6; S4 §6 D and D over D and X, and §5 two big jokers for the big one. S2, S3: dead.
    ("DX", "DD", row(True, True, False, False, True)),
    ("DX5", "DD6", row(True, True, False, False, True)),
    ("DX5", "DD5", every(False)),
    # S4 §6 "保持自身原有等级": D and X over X and X; S0/S1 a mixed play is small jokers; S2 and S3 each
    # small joker takes a big one.
    ("XX", "DX", row(False, False, False, False, True)),
    ("XX", "DD", every(True)),
    ("X", "D", every(True)),
    ("DD", "DD", every(False)),
    # S1 §24 "也可以用3個花帶2個9大過" with §16 "大花當做小花": DDX99 is three small jokers with 99, not
    # big jokers (S0 writes the example "3个大花带2个J"); see test_outnumber_small_jokers_option.
    ("XX888", "DDX99", row(False, False, True, True, True)),
    ("XX888", "DXX99", row(False, False, False, False, True)),
    # 大王二杀一: S4 §5 two big jokers beat one; elsewhere the counts differ (S0 出牌(3), S1 §22, S3).
    ("D", "DD", row(False, False, False, False, True)),
    # S4 names two big jokers only; two small on one small is S0's option, not S4.
    ("X", "XX", every(False)),
]


@pytest.mark.parametrize(
    "top, new, preset, ok",
    [
        p
        for p in per_preset(
            COMPARISONS,
            marks={},
        )
        if p.values[3] is not None
    ],
)
def test_joker_comparison(top, new, preset, ok):
    assert beats(parse_play(top), parse_play(new), get_ruleset(preset)).ok is ok


@pytest.mark.parametrize(
    "top, new, ok",
    [
        ("D", "DD", True),  # S0 option 1: "两个大花可以打一个大花"
        ("X", "XX", True),  # "两个小花可以打一个小花"
        ("D", "XXX", True),  # "三小花可以打一大花"
        ("D", "XX", False),  # not in the list: two small jokers on one big
    ],
)
def test_online_two_beat_one_option(top, new, ok):
    rules = with_options(ONLINE, {"two-beat-one": "jokers"})
    assert beats(parse_play(top), parse_play(new), rules).ok is ok


@pytest.mark.parametrize(
    "top, new, ok",
    [
        # 001 §24 "也可以用3個花帶2個9大過" read as three jokers of any kind; §16 a mixed play is small jokers
        ("XX888", "DDX99", True),
        ("XX888", "DXX99", True),
        ("XX888", "XXX99", True),
        ("XX888", "DX999", False),  # two jokers, counted as two small ones: not more, not bigger
        ("XX888", "XXX88", False),  # more jokers, rank not higher
        ("D88", "XX9", False),  # a big-joker play still takes more big jokers
        ("XX888", "DDJJJ", True),  # the text's own first example holds either way
    ],
)
def test_outnumber_small_jokers_option(top, new, ok):
    rules = with_options(CLASSIC, {"outnumber-small-jokers": "yes"})
    assert beats(parse_play(top), parse_play(new), rules).ok is ok


@pytest.mark.parametrize(
    "top, new, ok",
    [
        ("D7", "D8", True),  # one big joker meets one, and 8 > 7 (004 §6 保持自身原有等级)
        ("D55", "D66", True),
        ("D7", "DD", True),
        ("DD77", "DD88", True),
        ("D7", "X8", False),  # own-level: a small joker does not meet a big one
    ],
)
def test_big_joker_beaten_by_one_option(top, new, ok):
    rules = with_options(TOURNAMENT, {"big-joker-beaten-by": "one"})
    assert beats(parse_play(top), parse_play(new), rules).ok is ok


def test_big_joker_beaten_by_two_at_the_table():
    # 004 §5 "大王效力最高，但…两张大王可压制一张大王": seat 2's D8 does not beat D7, its DD8 does not
    # either (three cards on two), DD does.
    deal = spare(s1="D7", s2="D8DD")
    d = Hand(deal, "tournament").illegal("1:D7 2:D8")
    assert (d.code, d.rule) == ("does-not-beat", "two-beat-one") and "大王二杀一" in d.message
    assert Hand(deal, "tournament").play("1:D7 2:DD").top.seat == 2
    assert Hand(deal, with_options(TOURNAMENT, {"big-joker-beaten-by": "one"})).play("1:D7 2:D8").top.seat == 2


def test_jokers_alone_compare_like_jokers_carrying_a_rank():
    # DD on DX as DD6 on DX5: 000/001 §16 DX is two small jokers; 004 §6 D and D over D and X.
    for name in ("online", "classic", "tournament"):
        rules = get_ruleset(name)
        assert beats(parse_play("DX"), parse_play("DD"), rules).ok, name
        assert beats(parse_play("DX5"), parse_play("DD6"), rules).ok, name
        assert not beats(parse_play("DD"), parse_play("DD"), rules).ok, name
    t = Hand(spare(s1="DX", s4="DD"), "online")  # DX is a 够级 play: seat 4, the opposite, answers
    assert t.play("1:DX 4:DD").top.seat == 4


def test_gouji_rules_shows_the_new_options():
    from click.testing import CliRunner

    from gouji_record.cli.main import main

    out = CliRunner().invoke(main, ["rules"]).output
    assert "big-joker-beaten-by" in out and "outnumber-small-jokers" in out
    assert "tournament  two" in out and "fours       isolated" in out


def test_big_joker_play_on_the_table():
    """The same lead D88, three outcomes."""
    deal = spare(s1="D8855")
    # S2 §8(3) "死牌，对头应无条件为之扣牌", S3 "必然是最大的": the round is over at once.
    for name in ("charter", "fours"):
        pos = Hand(deal, name).play("1:D88")
        assert pos.top is None and pos.to_act == 1, name
    # S0/S1: any play carrying a joker is a gouji play: only the opposite, seat 4, may answer.
    for name in ("online", "classic"):
        assert Hand(deal, name).play("1:D88").to_act == 4, name
    # S4 §12: a play carrying a big joker is not a gouji play: seat 2 follows in turn.
    t = Hand(deal, "tournament")
    assert t.play("1:D88").to_act == 2 and t.kinds() == []


def test_two_big_jokers_beat_one_even_after_passing():
    # S4 §10 "大王二杀一不受过牌限制": seat 2 passed on 5, yet may put DD on seat 3's D.
    deal = spare(s1="56", s2="DD", s3="D6")
    t = Hand(deal, "tournament")
    assert t.play("1:5 2:- 3:D 4:- 5:- 6:- 1:-").to_act == 2
    assert t.play("2:DD").top.seat == 2
    # S0's option has no such exception (过牌者在这一轮里无权再出牌), and D is a gouji play there:
    # only seat 6 may answer; when it passes the round is over and seat 2 never gets its turn.
    t = Hand(deal, with_options(ONLINE, {"two-beat-one": "jokers"}))
    pos = t.play("1:5 2:- 3:D 6:-")
    assert pos.top is None and pos.to_act == 3


# =============================================================================================
# 够级 plays and pure 够级 plays
# =============================================================================================
#
# S0 §够级牌, S1 §18-§20, S2 §9, S3 §够级: one big or small joker, one 2, 2×A, 2×K, 3×Q, 4×J, 5×10,
# and any play carrying a joker. S4 §12: the same minimums but "1张及多张大王、大王挂牌、大王与小王
# 同时挂牌，均不属于够级牌"; a small joker with 5…2 always is one. Pure (纯): no 2 and no joker (S3
# §开点 "不含2和王"), no 2 and no small joker (S4 §12).

GOUJI = [
    ("D", row(True, True, True, True, False)),
    ("DD", row(True, True, True, True, False)),
    ("D88", row(True, True, True, True, False)),
    ("DX88", row(True, True, True, True, False)),
    ("X55", every(True)),
    ("X", every(True)),
    ("2", every(True)),
    ("2QQ", every(True)),  # the 2 counts as a Q: 3×Q (S1 §21, S4 §12)
    ("QQQ", every(True)),
    ("TTTT", every(False)),
    ("99999", every(False)),
]

PURE = [
    ("QQQ", every(True)),
    ("TTTTT", every(True)),
    ("AA", every(True)),
    ("2QQ", every(False)),  # carries a 2
    ("2", every(False)),
    ("X55", every(False)),  # carries a small joker
    ("D88", every(False)),  # carries a joker (S3); not a gouji play at all (S4)
    ("QQ", every(False)),  # not a gouji play
]


@pytest.mark.parametrize("cards, preset, gouji", per_preset(GOUJI))
def test_gouji_play(cards, preset, gouji):
    assert is_gouji(parse_play(cards), get_ruleset(preset)) is gouji


@pytest.mark.parametrize("cards, preset, pure", per_preset(PURE))
def test_pure_gouji_play(cards, preset, pure):
    assert is_pure_gouji(parse_play(cards), get_ruleset(preset)) is pure


# =============================================================================================
# Opening (开点)
# =============================================================================================
#
# S0 §开点: a round won with a gouji play "除大花以外" opens, but its list of exceptions is more specific
#   and wins: "有大花、小花不开点，单张不开点；大花、小花、钱不开点" — no joker play, no single card, no 2s alone.
# S1 §38-§39: not with "任意張大花，小花或者掛花的牌；單張的2". S2 §24, §31(5): "除大花外够级牌 … 活".
# S3 §开点 and S4 §17: win with a pure gouji play (open-qualified), then lead all 4s in the next round (open).

OPENING = [
    ("QQQ", row("open", "open", "open", "open-qualified", "open-qualified")),
    ("2QQ", row("open", "open", "open", None, None)),  # S3/S4: a 2 makes it impure; S0 only 2s alone
    ("X55", row(None, None, "open", None, None)),  # S0 有小花不开点; S1 excludes 挂花; S3/S4 impure
    ("D55", every(None)),  # big joker: excluded by S0, S1, S2; impure (S3); no gouji play (S4)
    ("X", row(None, None, "open", None, None)),  # a small joker alone
    ("2", row(None, None, "open", None, None)),  # S0 单张/钱, S1 "單張的2" do not open; S2 only excludes 大花
    ("22", row(None, "open", "open", None, None)),  # S0 钱不开点 (2s alone); S1 excludes a single 2 only
]


@pytest.mark.parametrize("lead, preset, outcome", per_preset(OPENING))
def test_winning_a_round_opens(lead, preset, outcome):
    t = Hand(spare(s1=lead + "4455"), preset)
    t.play(f"1:{lead}")
    pos = t.close_round()
    assert pos.to_act == 1  # nobody beat it: seat 1 won the round
    got = [k for k in t.kinds() if k in ("open", "open-qualified")]
    assert got == ([outcome] if outcome else [])
    assert pos.opened == ({1} if outcome == "open" else set())


def test_opening_by_leading_all_fours():
    # S3 §开点 "满足开点条件而不出4，则不视为开点"; S4 §17 "在下一轮一次性发4，称为开点".
    for name in THREES_HELD:
        t = Hand(spare(s1="QQQ44"), name)
        t.play("1:QQQ 4:- 1:44")
        assert t.kinds() == ["gouji", "open-qualified", "open"], name
        assert t.pos.opened == {1}
    # charter: the QQQ round opens; 44 is an ordinary lead.
    t = Hand(spare(s1="QQQ44"), "charter")
    t.play("1:QQQ 4:- 1:44")
    assert t.kinds() == ["gouji", "open"] and t.pos.opened == {1}


def test_leading_fours_without_qualifying_gives_up_opening():
    # S3 "不满足条件而打出4，则视为放弃开点"; S4 §18 "未按开点要求随意发4…视为放弃开点".
    for name in THREES_HELD:
        t = Hand(spare(s1="4455"), name)
        t.play("1:44")
        assert t.kinds() == ["open-given-up"] and 1 in t.pos.given_up, name
    for name in NOT_THREES_HELD:
        t = Hand(spare(s1="4455"), name)
        t.play("1:44")
        assert t.kinds() == [], name


def test_a_round_between_qualifying_and_the_fours_gives_up():
    # "在下一轮": seat 1 qualifies with QQQ, leads 55 next, and only then its 4s.
    for name in THREES_HELD:
        t = Hand(spare(s1="QQQ5544"), name)
        t.play("1:QQQ 4:- 1:55")
        t.close_round()
        t.play("1:44")
        assert t.kinds()[-1] == "open-given-up" and t.pos.opened == frozenset(), name


def test_fours_are_led_whole():
    # S3 "4不能拆开出": splitting 4s is illegal. S4 §17 "未发全4，视为不开点", §18: it gives up opening.
    d = Hand(spare(s1="QQQ444"), "fours").illegal("1:QQQ 4:- 1:44")
    assert (d.code, d.rule) == ("fours-split", "fours")
    t = Hand(spare(s1="QQQ444"), "tournament")
    t.play("1:QQQ 4:- 1:44")
    assert t.kinds()[-1] == "open-given-up" and t.pos.opened == frozenset()


def test_natural_opening():
    # S4 §17 自然开点: a hand without a pure gouji play declares before play, then leads all its 4s.
    t = Hand(spare(s1="4455"), "tournament")
    t.play("1:natural 1:44")
    assert t.kinds() == ["natural-opening", "open"] and t.pos.opened == {1}
    # only "若未摸到纯够级牌": a hand holding QQQ may not declare it
    assert Hand(spare(s1="QQQ44"), "tournament").illegal("1:natural").code == "natural-not-allowed"
    # S3 has no natural opening
    assert Hand(spare(s1="4455"), "fours").illegal("1:natural").code == "natural-not-allowed"


# =============================================================================================
# Threes held (憋三), fours whole, smothering (闷)
# =============================================================================================
#
# S3 §开点发4 "3要保留到最后一手出牌。3是不能贴钱和挂花的"; "4不能拆开出，贴钱出或挂花出".
# S4 §5 "不可提前出3…只能在最后一次性打出", §6 2s and jokers attach to any rank "除3、4外".
# S0, S1, S2 hold 3s only as an option (憋三 打法, S2 §26), off in these presets.


@pytest.mark.parametrize("lead, code", [("33", "threes-early"), ("233", "cannot-attach"), ("X44", "cannot-attach")])
def test_threes_and_fours_under_threes_held(lead, code):
    for name in THREES_HELD:
        assert Hand(spare(s1="2X4455"), name).illegal(f"1:{lead}").code == code, name
    for name in NOT_THREES_HELD:  # plain plays there
        assert Hand(spare(s1="2X4455"), name).play(f"1:{lead}").top.seat == 1, name


def test_threes_are_not_split():
    deal = {s: "33355" if s == 1 else "33" for s in range(1, 7)}  # 13 threes: four decks hold 16
    for name in THREES_HELD:
        assert Hand(deal, name).illegal("1:55 2:- 3:- 4:- 5:- 6:- 1:33").code == "threes-split", name


def test_a_seat_without_threes_is_out_when_play_starts():
    # S4 §26 "开牌后若手中无3，无法走牌，本局自动成为大落".
    deal = spare(s1="55") | {6: "66"}
    t = Hand(deal, "tournament")
    t.play("1:55")
    assert t.event("out").seats == (6,) and t.event("out").place == 6 and t.pos.out == (6,)
    t = Hand(deal, "online")
    t.play("1:55")
    assert "out" not in t.kinds() and t.pos.out == ()


def test_two_seats_without_threes_start_one_melee():
    # S3 "剩余不足五人时" 四户乱缠: seats 5 and 6 hold no 3 (and hold money: no revolution), both out;
    # four seats are left, the melee begins, once.
    deal = spare(s1="55") | {5: "27", 6: "26"}
    t = Hand(deal, "fours")
    t.play("1:55")
    assert t.pos.out == (5, 6) and t.pos.melee
    assert t.kinds().count("melee") == 1
    # S4 §10, §12: the melee comes with 2nd place (二科产生后), not with seats put out (§26)
    t = Hand(deal, "tournament")
    t.play("1:55")
    assert t.pos.out == (5, 6) and not t.pos.melee


def test_online_threes_held_without_threes_or_money_is_a_revolution():
    t = Hand(spare(s1="55") | {6: "66"}, with_options(ONLINE, {"threes-held": "yes"}))
    t.play("1:55")
    assert t.pos.revolted == (6,) and t.pos.out == ()


def test_smother_puts_the_seat_out_at_the_bottom():
    # Seat 1 leads 55 and holds only 3s; seat 2 beats it: seat 1 is smothered (闷) by seat 2.
    # S3 §被闷 "自动成为当前最后一名且不能再出牌"; S4 §20 "自动成为大落；后续被闷牌者依次为二落";
    # S4 §21 the seat that beat it is the 闷牌人. Then seat 3 smothers seat 2 the same way: 5th.
    deal = spare(s1="55", s2="66", s3="77")
    for name in THREES_HELD:
        t = Hand(deal, name)
        t.play("1:55 2:66")
        assert t.kinds()[:2] == ["smother", "out"], name
        assert t.event("out").place == 6 and t.pos.out == (1,) and t.pos.smothers == ((2, 1),)
        t.play("3:77")
        assert t.pos.out == (1, 2) and [e.place for e in t.events if e.kind.value == "out"] == [6, 5]


def test_smother_is_only_an_event_online():
    # S0 §闷贡: with 憋三 on, a smothered seat owes a tribute ("即使后来接风走脱也算"): it plays on.
    t = Hand(spare(s1="55", s2="66"), with_options(ONLINE, {"threes-held": "yes"}))
    t.play("1:55 2:66")
    assert t.kinds() == ["smother"] and t.pos.out == () and t.pos.smothers == ((2, 1),)
    assert t.close_round().to_act == 2
    t.play("2:33")  # seat 2 finishes with its 3s; seat 1 still plays
    assert t.pos.active(1)


# =============================================================================================
# Burning (烧牌 / 捎牌)
# =============================================================================================
#
# S0 §烧牌, S1 §54, S2 §10, S3 §番外篇1: after the burning play every play carries a joker but the
# last, or one play is left; with 3s held (S3) the 3s are the last play and 4s carry nothing.
# S4 §16: the burner holds a 3 and no 4, and after the burn holds only 3s, or jokers ≥ the number of
# ranks other than 3 and 2. Burn failure: S0 "烧失败，算大落", S1 §59-§60, S3 "诈烧，自动成为大落";
# S2 and S4 name no penalty: the engine makes the play illegal.


def _burn(s2: str, rules) -> Hand:
    """Seat 1 leads TTTTT; seat 2 burns it with XJJJJ."""
    return Hand(spare(s1="TTTTT55", s2=s2), rules)


def test_burn_that_every_preset_allows():
    # left X55 33: one joker for the 5s, then the 3s last (S4: a 3, no 4, 1 joker ≥ 1 rank)
    for name in PRESETS:
        t = _burn("XJJJJX55", name)
        pos = t.play("1:TTTTT 2:*XJJJJ")
        assert pos.burner == 2 and t.kinds()[:2] == ["gouji", "burn"], name


def test_burn_with_fours_left():
    # left D44 33. S0/S1/S2: D44, then 33 last: the condition holds.
    for name in NOT_THREES_HELD:
        assert _burn("XJJJJD44", name).play("1:TTTTT 2:*XJJJJ").burner == 2, name
    # S3: 4s carry no joker and the 3s must be last, so the 4s would go without one; S4 §16 "手中没有4".
    for name in THREES_HELD:
        d = _burn("XJJJJD44", name).illegal("1:TTTTT 2:*XJJJJ")
        assert (d.code, d.rule) == ("burn-condition", "burn-condition"), name


def test_tournament_burn_condition_arithmetic():
    # S4 §16: "顺牌后小王与大王的总数不少于除3、2外的点数种类"
    assert burn_condition_holds(parse_cards("X5533"), TOURNAMENT)  # 1 joker, 1 rank
    assert not burn_condition_holds(parse_cards("X556633"), TOURNAMENT)  # 1 joker, 2 ranks
    assert burn_condition_holds(parse_cards("333"), TOURNAMENT)  # "只剩3"
    assert not burn_condition_holds(parse_cards("X55"), TOURNAMENT)  # "手中有3": no 3
    assert not burn_condition_holds(parse_cards("X554433"), TOURNAMENT)  # "手中没有4"
    # without 3s held, a burner may keep one plain last play (S2 §10 "最后一次发牌可除外")
    assert burn_condition_holds(parse_cards("X5566"), CHARTER)


def test_tournament_burn_condition_counts_lone_twos_as_a_rank():
    # 004 §16 counts "除3、2外的点数种类" (0 here, 0 jokers), but its own 步步带王 then wants a joker on
    # every play but the 3s, and lone 2s cannot carry one they do not hold: the burner would be stuck.
    # The engine counts lone 2s as a rank to be carried (docs/rules.md, open points).
    assert not burn_condition_holds(parse_cards("2333"), TOURNAMENT)
    assert burn_condition_holds(parse_cards("X2333"), TOURNAMENT)


def test_burn_failure():
    # seat 2 burns, leaving D55 33, wins the round, then leads 55 without a joker before its last play.
    for name in ("charter", "tournament"):
        d = _burn("XJJJJD55", name).illegal("1:TTTTT 2:*XJJJJ 5:- 2:55")
        assert (d.code, d.rule) == ("burn-condition", "burn-condition"), name
    for name in ("online", "classic", "fours"):
        t = _burn("XJJJJD55", name)
        pos = t.play("1:TTTTT 2:*XJJJJ 5:- 2:55")
        i = t.kinds().index("burn-failure")
        assert t.kinds()[i + 1] == "out" and t.event("out").place == 6, name  # 大落
        assert pos.out == (2,) and pos.holds(2) == 5 and pos.burns == ((2, 1, "failed"),)


def test_counter_burn():
    # S4 §14 反捎牌: seat 2 burns seat 1's TTTTT; seat 1 burns seat 2's XJJJJ back with XQQQQ
    # (left 33: "只剩3"); "原捎牌情况自动取消".
    t = Hand(spare(s1="TTTTTXQQQQ", s2="XJJJJX55"), "tournament")
    pos = t.play("1:TTTTT 2:*XJJJJ 1:*XQQQQ")
    assert t.kinds() == ["gouji", "burn", "gouji", "counter-burn", "gouji"]
    assert pos.burns == ((2, 1, "broken"), (1, 2, "running")) and pos.burner == 1


# =============================================================================================
# Revolution (革命)
# =============================================================================================
#
# S0 §革命, S1 §66-§75, S2 §23, S3 §番外篇2: a hand with no joker and no 2 may sit out; two or more
# revolutions void the hand; the revolter's opposite 要头 (three dead gouji plays) or 无头.
# S0 "革命算自动认点，即自己不开点，对头开点" (S1 §70, S3 "你的对家自动开点"): the opposite opens at once.
# S2 §24: "其对头也须在二科产生前够死级三把方算开点". S4 has no revolution (§44).

REVOLUTIONARY = spare(s2="55", s5="KKAAQQQ55")


def test_revolution_allowed():
    for name in ("online", "classic", "charter", "fours"):
        t = Hand(REVOLUTIONARY, name, leader=5)
        assert t.play("2:revolt").revolted == (2,) and t.kinds() == ["revolution"], name
    d = Hand(REVOLUTIONARY, "tournament", leader=5).illegal("2:revolt")
    assert (d.code, d.rule) == ("revolution-not-allowed", "revolution")


def test_two_revolutions_void_the_hand():
    deal = spare(s2="55", s3="66")
    for name in ("online", "classic", "charter", "fours"):
        t = Hand(deal, name)
        pos = t.play("2:revolt 3:revolt")
        assert t.kinds() == ["revolution", "revolution", "void-hand"] and pos.over and pos.void, name
        assert scores(pos.ruleset, pos).teams == {1: 0, 0: 0}  # "该局作废": nothing is scored


def test_revolters_opposite_opens_at_once_or_after_three_dead_gouji():
    for name in ("online", "classic", "fours"):
        t = Hand(REVOLUTIONARY, name, leader=5)
        t.play("2:revolt 5:KK")
        assert t.pos.opened == {5} and t.kinds()[:3] == ["revolution", "open", "dead-gouji"], name
    # charter: KK, AA, QQQ are seat 5's three 够死级; it has opened after the third, and is headless.
    t = Hand(REVOLUTIONARY, "charter", leader=5)
    t.play("2:revolt")
    for lead in ("KK", "AA"):
        t.play(f"5:{lead}")
        t.close_round()
    assert t.pos.opened == frozenset() and t.kinds().count("dead-gouji") == 2
    t.play("5:QQQ")
    assert t.pos.opened == {5} and t.pos.headless(5)
    assert t.kinds()[-3:] == ["dead-gouji", "headless", "open"]


def test_no_head():
    # 无头: the opposite is headless at once. Opening is still automatic in S0; in S2 it needs three
    # 够死级, which a headless seat never makes.
    for name, opened in (("online", {5}), ("charter", set())):
        t = Hand(REVOLUTIONARY, name, leader=5)
        t.play("2:revolt 5:no-head 5:QQQ")
        assert t.kinds()[:2] == ["revolution", "headless"] and t.pos.headless(5), name
        assert "gouji" not in t.kinds() and "dead-gouji" not in t.kinds()  # a headless seat's QQQ
        t.close_round()
        assert t.pos.opened == opened, name


def test_revolter_is_third_when_its_team_mates_take_first_and_second():
    # S0 §革命, S1 §68/§71, S2 §23: "如果自己联邦成为头科和二科，则算做三科即串三户": the hand ends.
    # Seat 2 revolts; seats 4 and 6 (its team) finish 1st and 2nd.
    deal = {1: "5533", 2: "55", 3: "9933", 4: "6", 5: "8833", 6: "7"}
    for name, teams in (("online", {0: 6, 1: -6}), ("classic", {0: 12, 1: -12}), ("charter", {0: 12, 1: 0})):
        t = Hand(deal, name, leader=4)
        pos = t.play("2:revolt 4:6 5:- 6:7")
        assert pos.over and "sweep" in t.kinds() and pos.places[:3] == (4, 6, 2), name
        assert scores(pos.ruleset, pos).teams == teams, name


def test_charter_with_threes_held_only_a_hand_without_threes_revolts():
    # S2 §26(2): under 憋3 "如所持牌中无3且大花，小花，钱全无时，可允许其革命 … 除此之外不允许革命".
    rules = with_options(CHARTER, {"threes-held": "yes"})
    assert Hand(REVOLUTIONARY, rules, leader=5).illegal("2:revolt").code == "revolution-not-allowed"
    # S0 names no such limit
    assert Hand(REVOLUTIONARY, with_options(ONLINE, {"threes-held": "yes"}), leader=5).play("2:revolt").revolted == (2,)


# =============================================================================================
# Dead gouji on a finisher's last play (底牌 → 够死级)
# =============================================================================================
#
# S0 §底牌, S1 §79-§80: "头科、二科的底牌是够级牌的情况，其对桌如果上牌 … 够死级".
# S2 §16: "头科、二科的底牌其对头分别有一次无对头够级机会" — on any last play.
# (S3 and S4 hold 3s: a last play is 3s, never a gouji play, and S4 has no 够死级.)


def test_dead_gouji_on_a_gouji_last_play():
    for name in NOT_THREES_HELD:
        t = Hand({1: "TTTTT", 2: "33", 3: "33", 4: "JJJJJ33", 5: "33", 6: "33"}, name)
        pos = t.play("1:TTTTT 4:JJJJJ")
        assert pos.top.burn_only and "dead-gouji" in t.kinds(), name


def test_dead_gouji_on_a_plain_last_play_only_under_the_charter():
    for name, dead in (("online", False), ("classic", False), ("charter", True)):
        t = Hand({1: "55", 2: "33", 3: "33", 4: "6633", 5: "33", 6: "33"}, name)
        pos = t.play("1:55 2:- 3:- 4:66")
        assert pos.top.burn_only is dead and ("dead-gouji" in t.kinds()) is dead, name


# =============================================================================================
# End of the hand
# =============================================================================================
#
# S0 回合 phases: "直至当所有没走科的玩家均隶属同一阵营时，一回合游戏结束" (one team left).
# S1 §88, S2 §3: 大落 is the one seat left holding cards.

END_DEAL = {1: "5", 2: "6", 3: "99933", 4: "7", 5: "TT33", 6: "8"}
END_MOVES = "1:5 2:6 3:- 4:7 5:- 6:8"  # 1, 2, 4, 6 finish in that order; 3 and 5 (team 1) hold cards


def test_online_ends_when_one_team_is_left():
    t = Hand(END_DEAL, "online")
    pos = t.play(END_MOVES)
    assert pos.over and t.kinds()[-1] == "hand-end" and pos.finished == (1, 2, 4, 6)
    # places 1st 1, 2nd 2, 3rd 4, 4th 6; 3 and 5 take 5th and 6th in either order:
    # team 1 = 2 + (-1) + (-2) = -1, team 0 = 1 + 0 + 0 = 1 (S0 §计分)
    assert scores(ONLINE, pos).teams == {1: -1, 0: 1}


def test_one_left_presets_play_on():
    for name in ("classic", "charter"):
        pos = Hand(END_DEAL, name).play(END_MOVES)
        assert not pos.over and pos.to_act == 3, name


# =============================================================================================
# Scoring (计分)
# =============================================================================================
#
# S0 §计分 2/1/0/0/-1/-2, 串三户 6/-6. S1 §89-§90 4/2/0/0/-2/-4, sweep doubled: 12/-12.
# S2 §20 4/2/0/0/-2/-4, "只记正分，不记负分", sweep 12 for the winners (losers record 0).
# S3 §计分 4/2/0/0/-2/-4, sweep 12; "没开点算-2分，被闷3算-1分，被烧牌算-1分，这些是个人分数，和队伍无关".
# S4 §38 2/1/0/0/-1/-2; opposites ±1 for one opening and not the other; 捎牌人 +1 / 被捎牌人 -1
# (反捎牌 the same); 闷牌人 +1 / 被闷牌人 -1; sweep +5/-5 "不再按头科至大落的顺序计分"; §40 the
# team's score ("以联邦为单位") includes them.


def final(rules: Ruleset, finished, out=(), holding: dict[int, str] | None = None, **kw) -> Position:
    """A finished hand: ``finished`` in order, ``out`` first-out-last, ``holding`` cards of seats left."""
    hands = tuple(parse_cards((holding or {}).get(s, "")) for s in range(1, 7))
    return Position(ruleset=rules, hands=hands, to_act=None, preplay=False, finished=finished, out=out, **kw)


# seats 1, 3 (team 1) take 1st and 2nd; 2, 4, 6 (team 0) take 3rd, 4th, 5th; seat 5 (team 1) 6th.
ORDER = (1, 3, 2, 4, 6, 5)


@pytest.mark.parametrize(
    "preset, teams",
    [
        ("online", {1: 2 + 1 - 2, 0: 0 + 0 - 1}),
        ("classic", {1: 4 + 2 - 4, 0: 0 + 0 - 2}),
        ("charter", {1: 2, 0: 0}),  # -2 is recorded as 0
        ("fours", {1: 2, 0: -2}),  # the -2 per unopened seat is personal
        ("tournament", {1: 1, 0: -1}),  # nobody opened: opposites "同时不开点，各得0分"
    ],
)
def test_same_finishing_order(preset, teams):
    r = get_ruleset(preset)
    assert scores(r, final(r, ORDER)).teams == teams


@pytest.mark.parametrize(
    "preset, teams",
    [
        ("online", {1: 6, 0: -6}),
        ("classic", {1: 12, 0: -12}),
        ("charter", {1: 12, 0: 0}),
        ("fours", {1: 12, 0: -12}),
        ("tournament", {1: 5, 0: -5}),
    ],
)
def test_sweep(preset, teams):
    # seats 1, 3, 5 take 1st, 2nd, 3rd; seats 2, 4, 6 still hold cards
    r = get_ruleset(preset)
    pos = final(r, (1, 3, 5), holding={2: "55", 4: "66", 6: "77"})
    assert scores(r, pos).teams == teams


# Seats 1, 2, 3 opened; seat 1 burned seat 6 successfully; seat 4 smothered seat 5 (out, 6th).
EXTRAS = {"opened": frozenset({1, 2, 3}), "burns": ((1, 6, "success"),), "smothers": ((4, 5),)}
EXTRAS_ORDER = {"finished": (1, 3, 2, 4, 6), "out": (5,)}  # places as ORDER


@pytest.mark.parametrize(
    "preset, teams, seats",
    [
        ("online", {1: 1, 0: -1}, dict.fromkeys(range(1, 7), 0)),
        ("classic", {1: 2, 0: -2}, dict.fromkeys(range(1, 7), 0)),
        ("charter", {1: 2, 0: 0}, dict.fromkeys(range(1, 7), 0)),
        # S3: 4 not opened -2; 5 not opened -2, smothered -1; 6 not opened -2, burned -1. Personal only.
        ("fours", {1: 2, 0: -2}, {1: 0, 2: 0, 3: 0, 4: -2, 5: -3, 6: -3}),
        # S4: pairs 1-4, 2-5, 3-6 each +1/-1; burn 1 +1, 6 -1; smother 4 +1, 5 -1.
        # team 1: places 1 + extras (2 + 1 - 2) = 2; team 0: -1 + (1 + 0 - 2) = -2.
        ("tournament", {1: 2, 0: -2}, {1: 2, 2: 1, 3: 1, 4: 0, 5: -2, 6: -2}),
    ],
)
def test_per_seat_extras(preset, teams, seats):
    r = get_ruleset(preset)
    sc = scores(r, final(r, **EXTRAS_ORDER, **EXTRAS))
    assert (sc.teams, sc.seats) == (teams, seats)


def test_which_burns_score():
    # S4 §14: a broken burn (解捎牌) is cancelled; a counter-burn scores like a burn (§38).
    # Seat 2 burned seat 1, seat 1 counter-burned: only seat 1's burn scores, +1 / -1.
    burns = ((2, 1, "broken"), (1, 2, "running"))
    pos = final(TOURNAMENT, ORDER, opened=frozenset(range(1, 7)), burns=burns)
    sc = scores(TOURNAMENT, pos)
    assert sc.seats == {1: 1, 2: -1, 3: 0, 4: 0, 5: 0, 6: 0}
    assert sc.teams == {1: 1 + 1, 0: -1 - 1}
    # S3 "被烧牌算-1分" for a burn that succeeded; a broken one is not a burn that counts
    pos = final(FOURS, ORDER, opened=frozenset(range(1, 7)), burns=((2, 1, "broken"),))
    assert scores(FOURS, pos).seats == dict.fromkeys(range(1, 7), 0)


def test_tournament_sweep_keeps_the_extras():
    # §38 the sweep replaces only the place scores ("不再按头科至大落的顺序计分"); seat 1 opened, seat 4
    # did not: +1 / -1 on top of 5 / -5.
    pos = final(TOURNAMENT, (1, 3, 5), holding={2: "55", 4: "66", 6: "77"}, opened=frozenset({1}))
    assert scores(TOURNAMENT, pos).teams == {1: 6, 0: -6}


def test_the_former_option_name_threes_last_still_reads():
    # 憋三 is "threes held" in the glossary: the option is threes-held now; files written with the
    # former name threes-last read as they did
    assert with_options(get_ruleset("charter"), {"threes-last": "yes"}).threes_held is True
    assert with_options(get_ruleset("charter"), {"threes_last": "no"}) == get_ruleset("charter")


def test_threes_early_names_what_is_left_known_or_not():
    # the failing input (found writing the guide): a seat whose other cards are all unknown got
    # "3s are the last play;  and 29 unknown are left"
    d = Hand({1: "33?29", 2: "33", 3: "33", 4: "33", 5: "33", 6: "33"}, "fours").illegal("1:33")
    assert (d.code, d.message) == ("threes-early", "seat 1: 3s are the last play; 29 unknown are left")
    d = Hand({1: "5533?2", 2: "33", 3: "33", 4: "33", 5: "33", 6: "33"}, "fours").illegal("1:33")
    assert d.message == "seat 1: 3s are the last play; 55 and 2 unknown are left"


def test_presets_are_their_data_validated():
    """The presets are made from rules/presets.py as written, not validated at every start
    (rules/schema.py): each must be what validating its data gives, value and type (a list where
    the model has a tuple, 1 where it has True, would differ in its repr)."""
    from gouji_record.rules.presets import PRESET_DATA
    from gouji_record.rules.rulesets import PRESETS

    assert [d["name"] for d in PRESET_DATA] == list(PRESETS)
    for data in PRESET_DATA:
        validated = Ruleset.model_validate(data)
        assert PRESETS[data["name"]] == validated and repr(PRESETS[data["name"]]) == repr(validated)


def test_the_engines_trusted_play_is_a_validated_play():
    """rules/moves.py makes plays without validating them (``model.constructed_action``): they must
    be those validation gives, a burn too."""
    from gouji_record.cards import parse_cards
    from gouji_record.rules import moves

    for cards, burn in (("3", False), ("DXQQQ", True)):
        play = Action(seat=1, kind="play", cards=cards, burn=burn)
        made = moves._play_action(1, parse_cards(cards), burn)
        assert made.__dict__ == play.__dict__ and repr(made) == repr(play) and made == play