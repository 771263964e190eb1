"""The HTML replay: data for every step, and nothing from a record runs as code.

What the page does in a browser is tested in test_browser.py."""

import ast
import json
import random
import re
from collections import defaultdict

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES, ROOT

from gouji_record import parse, read, render_html, replay
from gouji_record.bilingual import CJK, english_only
from gouji_record.judging.buying import BUY_NAMES, GIFT_NAMES, check_buying
from gouji_record.cards import RANK_LETTERS
from gouji_record.cli.main import main
from gouji_record.matches.match import KIND_NAMES, check_match
from gouji_record.model import SUITS, Action, ActionKind, preplay_items
from gouji_record.render.citations import GLOSSES, _segments, cite_forms, title_forms
from gouji_record.render.html import render_replays, replay_data
from gouji_record.rules.engine import initial_position, step
from gouji_record.rules.events import PLACE_NAMES_EN, PLACE_NAMES_ZH, Diagnostic, EventKind, IllegalAction
from gouji_record.rules.rulesets import PRESETS, RULES
from gouji_record.bots.selfplay import play_hand, play_match

HAND = EXAMPLES / "charter-hand.gjn"
ILLEGAL = EXAMPLES / "charter-hand-illegal.gjn"


def embedded(html):
    m = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.DOTALL)
    return json.loads(m.group(1))


def test_frames_follow_the_hand():
    data = replay_data(replay(read(HAND)[0]))
    assert len(data["frames"]) == len(data["actions"]) + 1 == 70
    assert data["frames"][0]["counts"] == [36] * 6
    after_burn = data["frames"][17]  # after action 16, 5:*XXKK
    assert after_burn["top"]["seat"] == 5 and after_burn["top"]["cards"] == "XXKK"
    assert after_burn["top"]["action"] == 16 and after_burn["top"]["gouji"] and after_burn["burner"] == 5
    assert after_burn["counts"] == [27, 32, 32, 19, 28, 32]  # worked out by hand from the record
    assert after_burn["trick"] == [15, 16] and after_burn["toAct"] == 2
    assert after_burn["opened"] == [4] and after_burn["burnTarget"] == 4
    assert data["places"] == [5, 6, 1, 4, 3, 2] and data["scores"] == {1: 2, 0: 0} and data["extras"] == {}
    assert data["frames"][-1]["counts"][1] == 22  # seat 2 is left with 36 - 7777 - 999999 - 3333


def test_actions_carry_rounds_comments_and_events_cite_rules():
    data = replay_data(replay(read(HAND)[0]))
    leads = [(i, a["round"]) for i, a in enumerate(data["actions"]) if a["lead"]]
    assert leads[:3] == [(0, 1), (3, 2), (15, 3)] and leads[-1] == (68, 17)
    assert data["actions"][16]["burn"] and data["actions"][16]["comments"][0].startswith("Seat 5 burns it")
    burn = next(e for e in data["events"] if e["kind"] == "burn")
    assert burn["action"] == 16 and burn["seats"] == [5, 4] and burn["zh"] == "烧牌" and burn["en"] == "burn"
    assert burn["round"] == 3  # 3. 4:QQQQ 5:*XXKK: the burn is the second action of round 3
    assert burn["rule"]["zh"] == "烧牌（捎牌）" and burn["source"].startswith("够级大纲 §10")
    assert "round-end" not in {e["kind"] for e in data["events"]}


def test_a_ruled_lead_is_numbered_once_on_the_page():
    # Failing input (issue 31): seat 5 leads 66 out of turn in round 2 (seat 4's lead, as it won
    # round 1), ruled not made (002 §8(5)); seat 4 then leads 4:3333. The action list showed "2."
    # before both, and the round keys stopped twice: one lead, at action 3 (from 0), the ^5:66.
    text = HAND.read_text(encoding="utf-8").replace("\n2. 4:3333", "\n2. ^5:66 4:3333", 1)
    data = replay_data(replay(parse(text)[0]))
    leads = [(i, a["round"]) for i, a in enumerate(data["actions"]) if a["lead"]]
    assert leads[:3] == [(0, 1), (3, 2), (16, 3)] and leads[-1] == (69, 17)
    assert data["actions"][4]["text"] == "4:3333" and data["actions"][4]["round"] == 2


def test_script_cannot_be_closed_from_a_comment():
    text = HAND.read_text(encoding="utf-8")
    evil = "</script><script>alert(1)</script>"
    text = text.replace("{Seats 1 3 5", "{" + evil + " Seats 1 3 5").replace('"Zhang Wei"', '"<b>Zhang</b>"')
    html = render_html(parse(text)[0])
    assert evil not in html and "<b>Zhang</b>" not in html
    assert "&lt;b&gt;Zhang&lt;/b&gt;" in html
    assert html.count("</script>") == 2  # the data block's and the script's own
    assert embedded(html)["hands"][0]["comment"][0].startswith(evil)


def test_invalid_record_replays_up_to_the_illegal_action():
    data = replay_data(replay(read(ILLEGAL)[0]))
    d = data["diagnostic"]
    assert d["code"] == "gouji-not-opposite" and d["action"] == 1
    assert d["rule"]["key"] == "gouji-opposite-only" and d["source"].startswith("够级大纲 §9")
    assert len(data["frames"]) == 2
    assert len(data["actions"]) == 70  # every action is still listed, none silently cut


def test_page_is_self_contained_and_small():
    html = render_html(read(HAND)[0])
    assert len(html.encode("utf-8")) <= 300_000
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert "default-src 'none'" in html and "innerHTML" not in html
    assert "<style>" in html and html.count("<script") == 2


def test_several_hands_in_one_page_with_language_and_seat():
    hands = [(replay(r), None) for r in read(HAND) + read(ILLEGAL)]
    page = embedded(render_replays(hands, lang="en", seat=3))
    assert len(page["hands"]) == 2 and page["lang"] == "en" and page["seat"] == 3
    with pytest.raises(ValueError):
        render_replays(hands, lang="fr")
    with pytest.raises(ValueError):
        render_replays(hands, seat=7)


def test_render_command_renders_every_hand(tmp_path):
    both = tmp_path / "two.gjn"
    both.write_text(HAND.read_text(encoding="utf-8") + "\n" + ILLEGAL.read_text(encoding="utf-8"), encoding="utf-8")
    out = tmp_path / "two.html"
    r = CliRunner().invoke(main, ["render", str(both), "-o", str(out), "--lang", "en", "--seat", "4"])
    assert r.exit_code == 0 and "note: the replay stops at an illegal action" in r.output
    html = out.read_text(encoding="utf-8")
    page = embedded(html)
    assert [h["title"] for h in page["hands"]] == [
        "Worked example: one hand under the charter",
        "Worked example with one illegal action",
    ]
    assert page["lang"] == "en" and page["seat"] == 4 and '<select id="hand">' in html
    where = page["hands"][1]["diagnostic"]["where"]
    assert where["at"] == "two.gjn:93:30" and "3:QQQQQ" in where["excerpt"] and "^^^^^^^" in where["excerpt"]
    r = CliRunner().invoke(main, ["render", str(both), "-o", str(out), "--hand", "2"])
    assert r.exit_code == 0 and [h["title"] for h in embedded(out.read_text(encoding="utf-8"))["hands"]] == [
        "Worked example with one illegal action"
    ]
    assert CliRunner().invoke(main, ["render", str(both), "-o", str(out), "--hand", "3"]).exit_code == 2
    assert CliRunner().invoke(main, ["render", str(both), "-o", str(out), "--seat", "7"]).exit_code == 2
    help_text = CliRunner().invoke(main, ["render", "--help"]).output
    assert "Every hand of FILE goes into the one page" in help_text and "--lang" in help_text


def test_match_overview_links_every_hand_with_its_tribute_and_standings():
    from gouji_record.render.html import match_overview

    results = [replay(r) for r in read(EXAMPLES / "charter-match.gjn")]
    rows = match_overview(results)
    assert [r["number"] for r in rows] == [1, 2, 3] and all(r["valid"] for r in rows)
    # read off the file: hand 1 ended 3-5-2-4-6-1, so 大落 seat 1 paid 头科 seat 3 its 22 before hand 2
    assert rows[0]["result"] == "3-5-2-4-6-1" and rows[1]["tribute"][0] == "落贡 paid: 1>3:22"
    assert rows[2]["standings"] == {1: sum(r["scores"][1] for r in rows), 0: sum(r["scores"][0] for r in rows)}
    from gouji_record.render.html import render_replays

    tribute = rows[1]["tributeText"]  # one language at a time: 落贡 paid is the command line's
    assert tribute["zh"][:2] == ["落贡已进：1>3:22", "已还贡：3>1:33"]
    assert tribute["en"][:2] == ["place tribute paid: 1>3:22", "returned: 3>1:33"]
    html = render_replays([(r, None) for r in results])
    assert html.count('href="#h=') == 3 and "落贡已进：1&gt;3:22" in html and "place tribute paid: 1&gt;3:22" in html
    assert "落贡 paid" not in html  # the command line's mixed form is not the page's


def test_hands_stream_through_one_at_a_time_and_no_replay_is_kept(tmp_path):
    import gc
    import io
    import weakref

    from gouji_record.matches.match import check_match
    from gouji_record.render.html import match_overview

    records = read(HAND) + read(EXAMPLES / "charter-match.gjn") + read(ILLEGAL) + read(EXAMPLES / "classic-match.gjn")
    expected = render_replays([(replay(r), None) for r in records], lang="en", seat=2)
    alive: list[weakref.ref] = []

    def tracked(record):
        result = replay(record)
        alive.append(weakref.ref(result))
        return result

    def hands():
        for r in records:
            gc.collect()
            assert [ref() for ref in alive] == [None] * len(alive)  # every hand before is dropped
            yield tracked(r), None

    assert render_replays(hands(), lang="en", seat=2) == expected
    alive.clear()
    out = io.StringIO()
    assert render_replays(hands(), lang="en", seat=2, out=out) is None
    assert out.getvalue() == expected
    with pytest.raises(ValueError, match="nothing to render"):
        render_replays(iter(()), out=io.StringIO())
    # the overview built from what is kept of each hand is the one built from whole replays
    full = [replay(r) for r in read(EXAMPLES / "charter-match.gjn")]
    rows = match_overview(iter(full))
    entries = check_match(full)
    assert [(r["number"], r["tribute"], r["standings"], r["valid"]) for r in rows] == [
        (e.number, e.notes, e.standings, not e.diagnostics and e.replay.diagnostic is None) for e in entries
    ]


# ANSI colours, OSC window title / hyperlink / clipboard (52) sequences, line and paragraph separators,
# DEL and C1 controls, as a record may hold them in a name, a tag or a comment.
CONTROLS = "Zh\x1b[31mang\x1b[0m \x1b]0;pwned\x07 \x1b]8;;http://x.test/\x07link\x1b]8;;\x07 \x1b]52;c;aGk=\x07"
CONTROLS += " a\u2028b\u2029c\x7f\x85\x9b\x0b\x0c\x01"


def control_text():
    return (
        HAND.read_text(encoding="utf-8")
        .replace('"Zhang Wei"', f'"{CONTROLS}"')
        .replace('[Event "Worked example: one hand under the charter"]', '[Event "E\x1b[2J\u2028vent"]')
        .replace("{Seats 1 3 5", "{Seats\x1b[2J\x07\u2028 1 3 5")
        .replace("{Five tens", "{Five\x1b]0;x\x07\u2029 tens")
    )


def control_record():
    """The example with controls in a name, the Event tag and comments, which the reader refuses
    (bad-tag, bad-comment) but a record built without validation may carry."""
    record = parse(HAND.read_text(encoding="utf-8"))[0]
    first, *rest = record.actions
    return record.model_copy(
        update={
            "tags": record.tags | {"Seat1": CONTROLS, "Event": "E\x1b[2J\u2028vent"},
            "comment": (record.comment[0].replace("Seats", "Seats\x1b[2J\x07", 1), *record.comment[1:]),
            "actions": (
                first.model_copy(update={"comments": (first.comments[0].replace("Five", "Five\x1b]0;x\x07", 1),)}),
                *rest,
            ),
        }
    )


def test_control_characters_stay_inert_in_the_page():
    record = control_record()
    assert record.player(1) == CONTROLS and record.tags["Event"] == "E\x1b[2J\u2028vent"
    html = render_html(record)
    data = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.DOTALL).group(1)
    assert data.isascii() and not re.search(r"[\x00-\x1f\x7f]", data)  # every control is a \u escape
    hand = json.loads(data)["hands"][0]
    assert hand["players"][0] == CONTROLS and hand["title"] == "E\x1b[2J\u2028vent"
    assert hand["comment"][0].startswith("Seats\x1b[2J\x07")
    assert hand["actions"][0]["comments"][0].startswith("Five\x1b]0;x\x07")
    # outside the JSON the text is HTML: C0 controls and DEL are character references, so no
    # escape sequence reaches a terminal that shows the file; tab and newline are the page's own
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", html)
    assert "<title>E&#27;[2J\u2028vent · 够级回放</title>" in html
    assert "Zh&#27;[31mang&#27;[0m &#27;]0;pwned&#7; " in html


def test_purchases_and_gifts_are_named_on_the_page():
    # examples/fours-match.gjn, hand 2: seat 1 holds no 3 and buys one from its opposite, seat 4, for a 2
    # (003 §开点); on the page both transfers are 买三 (buying a 3), and so are their events, under the
    # rule of buying, not tribute
    hand = read(EXAMPLES / "fours-match.gjn")[1]
    assert [a.plain_text for a in hand.preplay] == ["1>4:2", "4>1:3"]
    data = replay_data(replay(hand))
    assert [(a["text"], a["purpose"], a["trade"]) for a in data["actions"][:2]] == [
        ("1>4:2", "buy", {"zh": "买三", "en": "buying a 3"}),
        ("4>1:3", "buy", {"zh": "买三", "en": "buying a 3"}),
    ]
    assert data["actions"][2]["trade"] is None and data["actions"][2]["purpose"] is None
    gives = [e for e in data["events"] if e["kind"] == "give"]
    assert [(e["action"], e["zh"], e["en"], e["rule"]["key"]) for e in gives] == [
        (0, "买三", "buying a 3", "buying"),
        (1, "买三", "buying a 3", "buying"),
    ]
    assert gives[0]["source"].startswith("开点发4 §开点 (没有3和4的要花钱买")
    # a gift, and a 4 bought; tribute stays tribute
    text = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
    text = text.replace("\nplay\n", "\npreplay\ngift 1>3:4 buy 2>5:2 5>2:4 3>6:D\n\nplay\n", 1)
    data = replay_data(replay(parse(text)[0]))
    assert [a["trade"] for a in data["actions"][:4]] == [
        {"zh": "赠与", "en": "gift of a 4"},
        {"zh": "买四", "en": "buying a 4"},
        {"zh": "买四", "en": "buying a 4"},
        None,
    ]
    # the charter has no 买四 (buy-not-allowed at the gift, action 1): the replay stops there, as
    # validate's verdict does, and no event follows it (failing input: the page drew the refused
    # purchase's events and the whole play after it)
    assert data["diagnostic"]["code"] == "buy-not-allowed" and data["diagnostic"]["action"] == 0
    assert [e for e in data["events"] if e["kind"] == "give"] == []


# -- one language at a time (issue 14): every text the page takes comes in both languages --------

_RULES_MD = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
CODES = set(re.findall(r"^\| `([a-z-]+)` \|", _RULES_MD[_RULES_MD.index("## Diagnostic codes") :], re.M))
#: An English word in a Chinese text (card letters, upper case, are the notation's).
ENGLISH_WORD = re.compile("[a-z]{2,}")


def test_every_place_that_makes_a_diagnostic_gives_its_chinese_message():
    """Read off the source: every diagnostic is made with a Chinese message beside the English one."""
    arity = {"illegal": 4, "_diag": 6, "_problem": 5}  # _Step.illegal, match/buying._diag, replay._problem
    made = 0
    for path in (ROOT / "gouji_record").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in arity and not (name == "illegal" and path.parent.name != "rules"):
                made += 1
                assert len(node.args) == arity[name], f"{path.name}:{node.lineno}: {name} without its Chinese"
            elif name == "Diagnostic" and node.keywords:
                made += 1
                assert "message_zh" in {k.arg for k in node.keywords}, f"{path.name}:{node.lineno}"
    assert made >= 85  # (as many as there are today: the pattern still finds them)


def _engine_diagnostics(found, notes):
    """Actions of every kind by every seat, at positions of self-played hands under every preset
    (the deal, in play, over; with a hand the record does not give), plain and irregular (^)."""
    rng = random.Random(14)

    def attempts(pos):
        for seat in range(1, 7):
            held = [RANK_LETTERS[r] for r, n in enumerate(pos.hands[seat - 1]) for _ in range(n)]
            for kind in ("pass", "yield", "wind", "claim", "revolt", "keep-head", "no-head", "natural", "call"):
                yield Action(seat=seat, kind=kind)
            yield Action(seat=seat, kind="precall")
            for _ in range(3 if held else 0):
                cards = rng.choice(held) * rng.randint(1, 5)
                yield Action(seat=seat, kind="play", cards=cards)
                yield Action(seat=seat, kind="play", cards=cards, burn=True)
                yield Action(seat=seat, kind="play", cards="X" + cards)
                mixed = cards + rng.choice(held)
                yield Action(seat=seat, kind="play", cards=mixed)
                yield Action(seat=seat, kind="play", cards=mixed, irregular=True)
            yield Action(seat=seat, kind="play", cards="DDDDD")
            yield Action(seat=seat, kind="give", to=seat % 6 + 1, cards=rng.choice(RANK_LETTERS))
            shown = rng.choice(["33", "333", "3", "44", "55", "3333"])
            yield Action(seat=seat, kind="show", suit=rng.choice(SUITS), cards=shown)
            yield Action(seat=seat, kind="draw", suit=rng.choice(SUITS), cards=rng.choice("3456789TJQKA"))

    def attempt(pos, action):
        try:
            after, events = step(pos, action)
        except IllegalAction as e:
            found[e.diagnostic.code].append(e.diagnostic)
            return None
        notes.extend(e for e in events if e.note)
        return after

    for rules in PRESETS.values():
        for seed in range(3):
            record = play_hand(rules, seed)
            positions = replay(record, rules).positions
            chosen = positions[:: max(1, len(positions) // 10)] + [positions[-1]]
            chosen += [p for p in positions if p.top is not None and p.top.burn_only][:3]  # 够死级
            for pos in chosen:
                for action in attempts(pos):
                    attempt(pos, action)
            for action in rng.sample(list(attempts(positions[0])), 40):  # two steps before play
                after = attempt(positions[0], action)
                for then in rng.sample(list(attempts(after)), 15) if after is not None else ():
                    attempt(after, then)
            hidden = initial_position(rules, ("?36",) + record.deal[1:], 1)
            for action in attempts(hidden):
                attempt(hidden, action)


def _record_diagnostics(found):
    """Matches played by the bots with their transfers changed (tribute, buying), and records whose
    tags or round numbers disagree with the play, under every preset."""

    def add(diagnostics):
        for d in diagnostics:
            if d is not None:
                found[d.code].append(d)

    def changed(preplay):
        items = [tuple(i) for _, i in preplay_items(preplay)]
        purposes = [p for p, _ in preplay_items(preplay)]
        for i, a in enumerate(preplay):
            if a.kind is ActionKind.GIVE and a.purpose is None:
                yield preplay[:i] + preplay[i + 1 :]
                for cards in ("3", "D", "22"):
                    yield preplay[:i] + (a.model_copy(update={"cards": cards}),) + preplay[i + 1 :]
                yield preplay[:i] + (a, a) + preplay[i + 1 :]
                yield preplay[:i] + (a.model_copy(update={"purpose": "refuse"}),) + preplay[i + 1 :]  # (拒绝)
        for i, purpose in enumerate(purposes):
            if purpose is not None:  # a purchase or a gift left out, or made last
                yield sum(items[:i] + items[i + 1 :], ())
                yield sum(items[:i] + items[i + 1 :] + [items[i]], ())
        yield preplay + (Action(seat=1, kind="give", to=4, cards="2"),)
        buy = (Action(seat=1, kind="give", to=4, cards="2", purpose="buy"),)
        yield buy + (Action(seat=4, kind="give", to=1, cards="3", purpose="buy"),) + preplay
        yield (Action(seat=2, kind="give", to=5, cards="4", purpose="gift"),) + preplay
        yield (Action(seat=1, kind="draw", suit="h", cards="7"),) + preplay
        yield (Action(seat=1, kind="show", suit="s", cards="333"),) + preplay

    for rules in PRESETS.values():
        for seed in range(2):
            records = play_match(rules, seed, 3)
            replays = [replay(r, rules) for r in records]
            for k in (0, 1, 2):
                for preplay in changed(records[k].preplay):
                    record = records[k].model_copy(update={"preplay": preplay})
                    try:
                        again = replay(record, rules)
                        add([again.diagnostic, *check_buying(rules, record)[1]])
                        add(d for entry in check_match(replays[:k] + [again]) for d in entry.diagnostics)
                    except ValueError:  # a purchase cut in two: not a record
                        pass
            led = records[1].actions[0].seat % 6 + 1
            other = play_hand(rules, 7, hands=records[1].deal, preplay=records[1].preplay, leader=led)
            add(d for entry in check_match([replays[0], replay(other, rules)]) for d in entry.diagnostics)
            first = records[0]
            for tags in ({"Result": "1-2-3-4-5-6"}, {"Result": "void"}, {"Score": "9 9"}):
                add([replay(first.model_copy(update={"tags": first.tags | tags}), rules).diagnostic])
            add([replay(first.model_copy(update={"actions": first.actions[:5]}), rules).diagnostic])
            actions = list(first.actions)
            actions[3] = actions[3].model_copy(update={"round": 7})
            add([replay(first.model_copy(update={"actions": tuple(actions)}), rules).diagnostic])


def _validate_diagnostics(found, monkeypatch, tmp_path):
    """A Hand tag out of sequence, as gouji validate checks a match (hand-missing)."""
    from gouji_record.matches import verdict as judging

    made = []

    def recorded(**fields):
        made.append(Diagnostic(**fields))
        return made[-1]

    monkeypatch.setattr(judging, "Diagnostic", recorded)
    path = tmp_path / "match.gjn"
    path.write_text(
        (EXAMPLES / "charter-match.gjn").read_text(encoding="utf-8").replace('[Hand "2"]', '[Hand "5"]'),
        encoding="utf-8",
    )
    assert CliRunner().invoke(main, ["validate", str(path)]).exit_code == 1
    for d in made:
        found[d.code].append(d)


def test_every_diagnostic_code_reads_in_chinese_and_in_english_alone(monkeypatch, tmp_path):
    """Every code docs/rules.md lists, produced from self-played hands and matches changed in every
    way a record can be wrong: its Chinese message is Chinese, written with the same facts (seats,
    cards; no English word but the record's own, quoted “…”), and the English page's form of its
    message has no Chinese. The notes events carry (a ruling's, a show's…) likewise."""
    found: dict[str, list] = defaultdict(list)
    notes: list = []
    _engine_diagnostics(found, notes)
    _record_diagnostics(found)
    _validate_diagnostics(found, monkeypatch, tmp_path)
    assert set(found) == CODES, ("not produced", CODES - set(found), "not documented", set(found) - CODES)
    for code, diagnostics in found.items():
        for d in diagnostics:
            assert d.message_zh and CJK.search(d.message_zh), (code, d.message)
            quoting = re.sub(r"“[^“”]*”", "", d.message_zh)  # less the record's text it quotes (a Result tag)
            assert not ENGLISH_WORD.search(quoting), (code, d.message_zh)
            assert not CJK.search(english_only(d.message)), (code, d.message)
    kinds = {e.kind for e in notes}
    assert {EventKind.RULING, EventKind.SHOW, EventKind.DRAW, EventKind.CALL} <= kinds, kinds
    for e in notes:  # a ruling's note is the diagnostic ruled on: its code, then the message
        zh = e.note_zh.split(": ", 1)[-1] if e.kind is EventKind.RULING else e.note_zh
        assert zh and not ENGLISH_WORD.search(zh) and not CJK.search(english_only(e.note)), e


def test_citations_read_in_each_language():
    """Every rule's source in every preset: in 中文 no English word (our notes translated); in English
    no Chinese outside a quotation in curly quotes; every note of ours has its two forms."""
    for preset in PRESETS.values():
        title = title_forms(preset.title)
        assert not CJK.search(title["en"]) and not ENGLISH_WORD.search(title["zh"]), preset.title
        for key, source in preset.sources.items():
            forms = cite_forms(source)
            assert not re.search("[a-z]", forms["zh"]), (preset.name, key, forms["zh"])
            assert not CJK.search(re.sub(r"“[^“”]*”", "", forms["en"])), (preset.name, key, forms["en"])
            for kind, text in _segments(source):
                for item in text.split("; ") if kind == "quote" else ():
                    assert not ENGLISH_WORD.search(item) or item in GLOSSES, (preset.name, key, item)
    for en, zh in GLOSSES.values():
        assert not CJK.search(re.sub(r"“[^“”]*”", "", en)) and not re.search("[a-z]", zh), (en, zh)


def test_names_the_page_shows_come_in_both_languages():
    """Rule names, event kinds, places, tribute kinds and trades: the Chinese name has no English
    word and the English none of the Chinese."""
    pairs = [(zh, en) for en, zh in RULES.values()]
    pairs += [(k.zh, k.en) for k in EventKind] + list(zip(PLACE_NAMES_ZH, PLACE_NAMES_EN))
    pairs += list(KIND_NAMES.values()) + list(BUY_NAMES.values()) + list(GIFT_NAMES.values())
    for zh, en in pairs:
        assert CJK.search(zh) and not ENGLISH_WORD.search(zh), zh
        assert not CJK.search(en), en


def test_page_data_gives_each_text_in_both_languages():
    hand = replay_data(replay(read(ILLEGAL)[0]))
    d = hand["diagnostic"]
    assert d["message"].startswith("TTTTT by seat 1 is a gouji play (够级)")  # as gouji validate prints it
    assert d["text"]["zh"].startswith("1号位的TTTTT是够级牌：只有其对头4号位可以上牌")
    assert d["text"]["en"].startswith("TTTTT by seat 1 is a gouji play: only its opposite, seat 4, may answer")
    assert hand["cites"][d["source"]] == {
        "zh": "够级大纲 §9（第九条 只有对头才有资格上牌）",
        "en": "Qingdao charter §9 (quoting “第九条 只有对头才有资格上牌”)",
    }
    assert hand["ruleset"]["titles"] == {"zh": "够级大纲", "en": "Qingdao charter"}
    html = render_replays([(replay(read(HAND)[0]), None)], lang="en")
    assert "<title>Worked example: one hand under the charter · Gouji replay</title>" in html
