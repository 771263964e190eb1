"""The bot protocol (docs/bots.md): bot programs at the table through whole matches under every
preset, failing bots reported with the hands kept, a seat's view, duplicate play, the schema.

The bots of docs/bots.md are run as the page writes them (the code blocks are cut out of it), so
the page cannot show a bot that does not work."""

import json
import os
import re
import sys
import time
import unicodedata

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from conftest import EXAMPLES, ROOT

from gouji_record import parse, replay
from gouji_record.bots.protocol import FROM_BOT, TO_BOT, Decision, dump, protocol_schema
from gouji_record.bots.referee import BuiltIn, External, Table, duplicate, interval, play_hands, play_table_match
from gouji_record.cards import N_RANKS, parse_cards
from gouji_record.cli.main import main
from gouji_record.rules.rulesets import PRESETS, get_ruleset

BOTS_MD = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
PRESET_NAMES = list(PRESETS)
GOUJI_BOT = f"{sys.executable} -m gouji_record.cli bot"


def _block(lang: str) -> str:
    [code] = re.findall(rf"```{lang}\n(# .*?\n.*?)```", BOTS_MD, flags=re.DOTALL)
    return code


@pytest.fixture(scope="module")
def doc_bots(tmp_path_factory):
    """The Python and the shell bot of docs/bots.md section 8, written to files."""
    d = tmp_path_factory.mktemp("bots")
    (d / "smallest.py").write_text(_block("python"), encoding="utf-8")
    (d / "first.sh").write_text(_block("sh"), encoding="utf-8")
    return d


def _records(path):
    return list(parse(path.read_text(encoding="utf-8")))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_documented_bots_play_whole_matches_under_every_preset(preset, doc_bots, tmp_path):
    """smallest.py at seats 1 and 4, first.sh at seat 2, person elsewhere: a match of two hands
    (tribute paid between them) that validates, the bots named by their own hello."""
    out = tmp_path / "m.gjn"
    bots = ["--bot", f"1={sys.executable} {doc_bots / 'smallest.py'}", "--bot", f"4={sys.executable} {doc_bots / 'smallest.py'}"]
    bots += ["--bot", f"2=sh {doc_bots / 'first.sh'}"]
    r = CliRunner().invoke(main, ["selfplay", "--ruleset", preset, "--match", "--hands", "2", "--seed", "3", *bots, "-o", str(out)])
    assert r.exit_code == 0, r.output
    records = _records(out)
    assert len(records) == 2
    for record in records:
        assert [record.tags[f"Seat{s}"] for s in (1, 2, 4)] == ["smallest.py", "first.sh", "smallest.py"]
        result = replay(record, get_ruleset(preset))
        assert result.diagnostic is None and result.final.over
        assert record.tags["Result"] != "*"
        # smallest.py never burns: it answers null to every burn it is offered (docs/bots.md §8)
        assert not any(a.burn for a in record.actions if a.seat in (1, 4))
    v = CliRunner().invoke(main, ["validate", str(out)])
    assert v.exit_code == 0, v.output


def test_the_shell_bot_plays_the_first_legal_action(doc_bots):
    """first.sh answers a decision with the first of ``legal``, and null to a burn: fed two
    decisions by hand, its answers are exactly those."""
    import subprocess

    play = Decision(id=7, seat=2, step="play", position={"top": None}, legal=["2:KK", "2:K", "2:-"])
    burn = Decision(id=8, seat=2, step="burn", position={"top": None}, legal=["2:*XQQQ"], may_decline=True)
    lines = '{"type":"hello","protocol":"gouji-bot 1","seat":2,"name":null}\n' + dump(play) + "\n" + dump(burn) + "\n"
    out = subprocess.run(["sh", str(doc_bots / "first.sh")], check=True, input=lines, capture_output=True, text=True, timeout=20).stdout
    assert [json.loads(x) for x in out.splitlines()] == [
        {"type": "hello", "name": "first.sh"},
        {"type": "answer", "id": 7, "action": "2:KK"},
        {"type": "answer", "id": 8, "action": None},
    ]


def test_a_built_in_bot_over_the_protocol_plays_as_it_does_in_process():
    """``gouji bot person --seed 9`` in its own process, at seat 3, makes every decision the same
    ``person`` agent makes in process with the same seed: the two matches are the same, action for
    action (the protocol carries everything the agent decides from)."""
    rules = get_ruleset("tournament")
    inproc = play_table_match(Table(rules, [BuiltIn("person", 9) for _ in range(6)]), 4, 2)
    players = [BuiltIn("person", 9) for _ in range(6)]
    players[2] = External(f"{GOUJI_BOT} person --seed 9")
    over = play_table_match(Table(rules, players), 4, 2)
    assert [r.preplay + r.actions for r in over] == [r.preplay + r.actions for r in inproc]
    assert sum(len(r.actions) for r in over) > 300


# --- failing bots -----------------------------------------------------------------------------

BAD_BOT = """
import json, os, subprocess, sys, time
mode, pidfile = sys.argv[1], sys.argv[2]
open(pidfile, "w").write(str(os.getpid()))
n = 0
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "name": "bad"}), flush=True)
    elif m["type"] == "decision":
        n += 1
        if n < 15:  # its first 14 answers are legal: lines 2-15 of its output
            a = m["legal"][0] if m["step"] == "play" else None
            print(json.dumps({"type": "answer", "id": m["id"], "action": a}), flush=True)
        elif mode == "illegal":
            print(json.dumps({"type": "answer", "id": m["id"], "action": str(m["seat"]) + ":33333333"}), flush=True)
        elif mode == "long-action":
            print(json.dumps({"type": "answer", "id": m["id"], "action": "3:" + "3" * 60000}), flush=True)
        elif mode == "garbage":
            print("what?", flush=True)
        elif mode == "binary":
            os.write(1, b"\\xff\\xfe{\\x1b[2J\\t\\\\\\n")
        elif mode == "lines":
            os.write(1, b"\\n" * 1000000)
        elif mode == "silent":
            time.sleep(300)
        elif mode == "exit":
            sys.exit(3)
        elif mode == "close-output":
            os.close(1)
            time.sleep(300)
        elif mode == "fork":  # a child that keeps its output open, and exits
            child = subprocess.Popen(["sleep", "300"])
            open(pidfile + ".child", "w").write(str(child.pid))
            os._exit(5)
"""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` is there and not a zombie (ended, not yet reaped by its parent)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _gone(pid: int) -> bool:
    """Whether process ``pid`` is gone, waiting for it up to 60 s (a condition, not a guess)."""
    deadline = time.monotonic() + 60
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    return not _alive(pid)


@pytest.mark.parametrize(
    "mode, said",
    [
        (
            "illegal",
            'its line 16 \'{"type": "answer", "id": {id}, "action": "3:33333333"}\': '
            "illegal action 3:33333333: seat 3 cannot play 33333333: the play needs eight 3s; seat 3 holds none",
        ),
        (
            "long-action",
            # the line's first 200 bytes (3s after the id's digits), the problem's first 400 characters
            'its line 16 \'{"type": "answer", "id": {id}, "action": "3:{3s}…\': illegal action 3:' + "3" * 383 + "…;",
        ),
        ("garbage", "its line 16 'what?': not a message of gouji-bot 1"),
        ("binary", r"its line 16 '\xff\xfe{\x1b[2J\t\\': a line that is not UTF-8 (byte 1)"),
        ("lines", "its line 16 '': not a message of gouji-bot 1"),
        ("silent", "after its line 15: no answer within 2 s (--bot-timeout)"),
        ("exit", "after its line 15: it exited (status 3)"),
        ("close-output", "after its line 15: it closed its standard output"),
        ("fork", "after its line 15: it exited (status 5)"),
    ],
)
def test_a_failing_bot_is_reported_and_the_match_so_far_kept(mode, said, tmp_path):
    """The bot at seat 3 answers its first 14 decisions (its lines 2-15: line 1 is its hello) and
    then fails at its 15th: one line names it, its seat and its line as it wrote it (bytes not
    UTF-8, control characters and a backslash escaped; the first 200 bytes of a long one, the
    problem cut after 400 characters), exit 1, no traceback; the file holds the hand cut where it
    failed (Result *), which validates; the process is gone, and what it started (``fork``: a
    child that keeps the bot's output open after it exits, which would otherwise make it look
    silent)."""
    script = tmp_path / "bad.py"
    script.write_text(BAD_BOT, encoding="utf-8")
    pidfile = tmp_path / "pid"
    out = tmp_path / "m.gjn"
    command = f"{sys.executable} {script} {mode} {pidfile}"
    r = CliRunner().invoke(
        main, ["selfplay", "--match", "--hands", "2", "--bot", f"3={command}", "--bot-timeout", "2", "-o", str(out)]
    )
    assert r.exit_code == 1
    assert "Traceback" not in r.output
    [line] = [x for x in r.output.splitlines() if x.strip()]
    pattern = re.escape(f"error[bot]: bot {command!r} at seat 3, {said}")
    pattern = pattern.replace(re.escape("{id}"), r"\d+").replace(re.escape("{3s}"), "3+")
    assert re.match(pattern, line), line
    assert line.endswith(f"the 1 hand(s) so far, the last cut there (Result *), written to {out}")
    [record] = _records(out)
    assert record.tags["Result"] == "*" and record.tags["Seat3"] == "bad"
    result = replay(record, get_ruleset("charter"))
    assert result.diagnostic is None and not result.final.over
    assert 1 <= len([a for a in record.actions if a.seat == 3]) <= 14  # (its declined burns make none)
    v = CliRunner().invoke(main, ["validate", str(out)])
    assert v.exit_code == 0 and "unfinished" in v.output
    assert _gone(int(pidfile.read_text()))
    if mode == "fork":
        assert _gone(int((tmp_path / "pid.child").read_text()))


def _program(tmp_path, code: str) -> str:
    """The command of a bot program made of ``code``."""
    script = tmp_path / "bot.py"
    script.write_text(code, encoding="utf-8")
    return f"{sys.executable} {script}"


@pytest.mark.parametrize("size", [65536, 65537])
def test_a_line_of_max_line_bytes_is_read_and_a_longer_one_stops_the_bot(size, tmp_path):
    """MAX_LINE (docs/bots.md §1) is 65536 bytes, the newline not counted: a hello padded with
    spaces to 65536 bytes is read (JSON allows the spaces); to 65537 it stops the bot, its line
    quoted by its first 200 bytes."""
    from gouji_record.bots.process import MAX_LINE, BotError, BotProcess
    from gouji_record.bots.protocol import Hello

    hello = '{"type": "hello", "name": "pad"}'
    command = _program(tmp_path, f"import sys\ninput()\nsys.stdout.write({hello!r}.ljust({size}) + '\\n')\nsys.stdout.flush()\ninput()\n")
    assert MAX_LINE == 65536 and "A line is at most 65536 bytes" in BOTS_MD
    with BotProcess(command, seat=2) as bot:
        if size == 65536:
            assert bot.greet(Hello(seat=2)).name == "pad"
            return
        with pytest.raises(BotError) as e:
            bot.greet(Hello(seat=2))
    shown = hello + " " * (200 - len(hello))
    assert e.value.message == f"bot {command!r} at seat 2, its line 1 '{shown}…': a line longer than 65536 bytes (docs/bots.md §1)"


def test_an_endless_line_stops_the_bot_in_bounded_memory(tmp_path):
    """A bot that writes without end and without a newline is stopped once its line passes
    MAX_LINE (65536 bytes), not at the time limit (60 s here: the test would wait for it), and
    the referee holds little of it: its peak of memory allocated while reading stays under
    1 MB though the bot writes as much as it can."""
    import tracemalloc

    from gouji_record.bots.process import BotError, BotProcess
    from gouji_record.bots.protocol import Hello

    command = _program(tmp_path, "import os\ninput()\nwhile True:\n    os.write(1, b'x' * (1 << 20))\n")
    with BotProcess(command, seat=2, timeout=60) as bot:
        tracemalloc.start()
        try:
            with pytest.raises(BotError) as e:
                bot.greet(Hello(seat=2))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        pid = bot.proc.pid
    assert e.value.message == f"bot {command!r} at seat 2, its line 1 '{'x' * 200}…': a line longer than 65536 bytes (docs/bots.md §1)"
    assert peak < 1 << 20
    assert _gone(pid)


def test_a_flood_of_standard_error_is_read_as_it_comes_and_only_its_end_kept(tmp_path):
    """A bot writes 32 MB on standard error (1 MB lines) before its hello: the referee reads
    it meanwhile (the bot is not held, its hello is read); then 32 MB more and ``the last
    words``, and it exits: the error quotes that last line (docs/bots.md §1: the last 4096 bytes
    are kept), and the referee's memory allocated over all of it stays under 1 MB."""
    import tracemalloc

    from gouji_record.bots.process import STDERR_TAIL, BotError, BotProcess
    from gouji_record.bots.protocol import Bye, Hello

    flood = "for _ in range(32):\n    os.write(2, b'e' * (1 << 20) + b'\\n')\n"
    code = f"import json, os, sys\ninput()\n{flood}print(json.dumps({{'type': 'hello', 'name': 'loud'}}), flush=True)\n"
    code += f"input()\n{flood}os.write(2, b'the last words\\n')\nsys.exit(4)\n"
    command = _program(tmp_path, code)
    tracemalloc.start()
    try:
        with BotProcess(command, seat=2, timeout=60) as bot:
            assert bot.greet(Hello(seat=2)).name == "loud"
            with pytest.raises(BotError) as e:
                bot.send(Bye())
                bot.read()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert STDERR_TAIL == 4096 and "keeps only its last 4096 bytes" in BOTS_MD
    assert e.value.message == f"bot {command!r} at seat 2, after its line 1: it exited (status 4) (its standard error: 'the last words')"
    assert peak < 1 << 20
    assert e.value.stderr == b"the last words"


def test_a_bot_that_cannot_start_is_one_line_and_no_file(tmp_path):
    out = tmp_path / "m.gjn"
    r = CliRunner().invoke(main, ["selfplay", "--bot", "2=/no/such/bot", "-o", str(out)])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.output.startswith("error[bot]: bot '/no/such/bot' at seat 2: cannot start it: ")
    assert not out.exists()


def test_review_rollouts_with_a_failing_bot_is_one_line(tmp_path):
    script = tmp_path / "bad.py"
    script.write_text(BAD_BOT, encoding="utf-8")
    command = f"{sys.executable} {script} exit {tmp_path / 'pid'}"
    r = CliRunner().invoke(main, ["review", "--rollouts", "1", "--bot", command, str(EXAMPLES / "charter-hand.gjn")])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert f"error[bot]: bot {command!r} at seat " in r.output and "it exited (status 3)" in r.output


def test_review_rollouts_by_a_bot_program_are_those_of_the_same_bot_in_process(monkeypatch):
    """tests/test_review.py's small forced hand (charter: seat 1 TTTTT 33, seat 4 JJJJJ 33, the
    others 33): the estimates by `gouji bot random --seed 1` programs, one at each seat, over the
    protocol, are those of the same agent in process (review's rollouts made through the
    protocol's table with the built-in bot, BOTS emptied so that "random" takes that way): the
    protocol carries all the bots decide from. The made action comes first; 2 hands each."""
    from test_review import small

    import gouji_record.analysis.review as rv

    moves = "1:TTTTT 4:- 1:33 2:- 3:- 4:- 5:- 6:- 2:33 3:- 4:- 5:- 6:- 3:33 4:- 5:- 6:- 4:JJJJJ 5:- 6:- 4:33 5:- 6:- 5:33"
    deal = {1: "TTTTT", 4: "JJJJJ"}
    full = replay(small(tuple(deal.get(s, "") + "33" for s in range(1, 7)), moves, "charter"))
    over = rv.review(full, rollouts=2, bot=f"{GOUJI_BOT} random --seed 1")
    monkeypatch.setattr(rv, "BOTS", {})
    inproc = rv.review(full, rollouts=2, bot="random")
    got = [[(e.action, e.mean, e.n, e.actual) for e in f.estimates] for f in over.findings]
    assert got == [[(e.action, e.mean, e.n, e.actual) for e in f.estimates] for f in inproc.findings]
    answer = next(f for f in over.findings if f.kind == "answer-missed")
    assert [(e.action, e.actual, e.n, e.bot) for e in answer.estimates] == [
        ("4:-", True, 2, f"{GOUJI_BOT} random --seed 1"),
        ("4:JJJJJ", False, 2, f"{GOUJI_BOT} random --seed 1"),
    ]


# --- a seat's view ----------------------------------------------------------------------------


class Recorder(BuiltIn):
    """A built-in bot that keeps every message it is told and every decision it gets, as JSON."""

    def __init__(self, name: str, seed: int) -> None:
        super().__init__(name, seed)
        self.log: list[dict] = []

    def tell(self, msg):
        self.log.append(json.loads(msg.model_dump_json()))
        super().tell(msg)

    def decide(self, d):
        self.log.append(json.loads(d.model_dump_json()))
        return super().decide(d)


def _card_strings(msg: dict) -> list[str]:
    """Every card string of a message: ``cards`` anywhere, and the cards of ``action`` and ``legal``."""
    out = []

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "cards" and isinstance(v, str) and v or k == "action" and isinstance(v, str):
                    out.append(v)
                else:
                    walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(msg)
    out += msg.get("legal", [])
    return out


def _cards_in(text: str):
    """The cards of a card string or an action's text (``"3:*XKK"``, ``"buy 1>4:2"``), or None."""
    body = text.split(":", 1)[1] if ":" in text else text
    body = body.lstrip("*")
    try:
        return parse_cards(body)
    except ValueError:
        return None


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_no_message_to_a_seat_holds_another_seats_unplayed_cards(preset):
    """Over a match of three hands (tribute between them), every message to seat S: no other
    seat's cards in a position; transfers between two other seats without their cards; and every
    card string in it is made of cards S may know — its own (dealt or received) or cards played
    in the open so far — as a multiset: a leak of another seat's hand would not fit."""
    rules = get_ruleset(preset)
    players = [Recorder("person" if s % 2 else "random", s) for s in range(6)]
    records = play_table_match(Table(rules, players), 11, 3)
    assert all(replay(r, rules).diagnostic is None for r in records)
    for seat, p in enumerate(players, start=1):
        known = [0] * N_RANKS
        for msg in p.log:
            kind = msg["type"]
            if kind == "hand":
                known = list(parse_cards(msg["cards"]))
            if kind == "action":
                if msg["kind"] == "give" and seat not in (msg["seat"], msg["to"]):
                    assert msg["action"] is None and all(e["cards"] == "" for e in msg["events"])
                elif msg["kind"] == "play" or (msg["kind"] == "give" and msg["to"] == seat):
                    played = _cards_in(msg["action"])
                    known = [a + b for a, b in zip(known, played)]
            if kind in ("decision", "hand") and msg.get("position"):
                others = [s for s in msg["position"]["seats"] if s["seat"] != seat]
                assert all(s["cards"] is None and s["unknown"] is None for s in others)
            if kind == "decision":
                assert all(a.startswith(f"{seat}:") for a in msg["legal"])
            for text in _card_strings(msg):
                cards = _cards_in(text)
                if cards is not None:
                    assert all(c <= k for c, k in zip(cards, known)), (seat, msg["type"], text)


def test_the_view_check_catches_a_leak():
    """The check above can fail: a position with another seat's cards in it does not fit what
    seat 1 may know (seat 2's 36 cards are not all among seat 1's and the played ones)."""
    rules = get_ruleset("charter")
    players = [Recorder("person", s) for s in range(6)]
    play_hands(Table(rules, players), [5])
    from gouji_record.bots.referee import hand_deal

    dealt, _ = hand_deal(5)
    hand = next(m for m in players[0].log if m["type"] == "hand")
    leaked = {**hand, "cards": dealt[1]}
    known = parse_cards(hand["cards"])
    assert not all(c <= k for c, k in zip(_cards_in(leaked["cards"]), known))


# --- duplicate play ---------------------------------------------------------------------------


def test_duplicate_play_rotates_the_seats_over_the_same_deals():
    """Two deals, six rotations each: every rotation of a deal has the same deal; at rotation k the
    bot given for seat s sits at seat s + k. person at the odd seats, random at the even ones: the
    two bots are always on opposite teams, and the classic scoring (001: 4 2 0 0 -2 -4) is
    zero-sum, so their means are opposite, deal by deal, and each deal's value is the mean of its
    six hands' team points."""
    from gouji_record.rules.engine import team
    from gouji_record.rules.scoring import scores

    rules = get_ruleset("classic")
    specs = ["person", "random"] * 3
    records, ratings = duplicate(rules, specs, [21, 22])
    assert len(records) == 12
    by_deal = {}
    for r in records:
        by_deal.setdefault(r.tags["Deal"], []).append(r)
    for deal, hands in by_deal.items():
        assert len({h.deal for h in hands}) == 1 and sorted(h.tags["Rotation"] for h in hands) == list("012345")
        for h in hands:
            k = int(h.tags["Rotation"])
            assert [h.tags[f"Seat{s}"] for s in range(1, 7)] == [specs[(s - 1 - k) % 6] for s in range(1, 7)]
    person = next(r for r in ratings if r.bot == "person")
    rnd = next(r for r in ratings if r.bot == "random")
    assert person.mean == pytest.approx(-rnd.mean) and person.deals == rnd.deals == 2
    values = []
    for deal in ("1", "2"):
        points = []
        for h in by_deal[deal]:
            teams = scores(rules, replay(h, rules).final).teams
            points += [teams[team(s)] for s in range(1, 7) if h.tags[f"Seat{s}"] == "person"]
        values.append(sum(points) / len(points))
    assert (person.mean, person.low, person.high) == pytest.approx(interval(values))


def test_the_interval_is_mean_plus_minus_z_s_over_root_n():
    """[0, 2, 4, 6]: mean 3, s = √(20/3) = 2.582, s/√4 = 1.291, z(97.5%) = 1.95996: 3 ± 2.530."""
    mean, low, high = interval([0.0, 2.0, 4.0, 6.0])
    assert mean == 3 and low == pytest.approx(3 - 2.5303, abs=1e-3) and high == pytest.approx(3 + 2.5303, abs=1e-3)
    assert interval([5.0])[1:] == (None, None)


def test_selfplay_duplicate_rates_a_bot_program(doc_bots, tmp_path):
    """smallest.py at seats 1 and 4 (opposites, one team then the other as the seats turn) against
    person: one line per bot, two deals each, the six rotations of each deal written to -o."""
    smallest = f"{sys.executable} {doc_bots / 'smallest.py'}"
    out = tmp_path / "d.gjn"
    r = CliRunner().invoke(
        main, ["selfplay", "--duplicate", "--hands", "2", "--bot", f"1={smallest}", "--bot", f"4={smallest}", "-o", str(out)]
    )
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].split() == ["deals", "mean", "points/hand", "95%", "interval", "bot"]
    rows = [line.split(maxsplit=4) for line in lines[1:]]
    assert sorted(row[-1] for row in rows) == sorted(["person", smallest]) and {row[0] for row in rows} == {"2"}
    records = _records(out)
    assert len(records) == 12 and {r.tags["Seat1"] for r in records} == {"smallest.py", "person"}


# --- the messages -----------------------------------------------------------------------------


def test_the_schema_file_is_the_generated_one():
    assert json.loads((ROOT / "docs" / "bots.schema.json").read_text(encoding="utf-8")) == protocol_schema()
    r = CliRunner().invoke(main, ["bot", "--schema"])
    assert json.loads(r.output) == protocol_schema()


def test_every_message_shown_in_the_spec_is_one():
    """Each JSON line docs/bots.md shows is a message of the schema (the models read it)."""
    shown = [line for line in re.findall(r"^(\{\"type\".*\})$", BOTS_MD, flags=re.MULTILINE)]
    assert len(shown) >= 8
    for line in shown:
        data = json.loads(line)
        adapter = FROM_BOT if data["type"] == "answer" else TO_BOT
        if data["type"] == "hello" and "protocol" not in data:
            adapter = FROM_BOT
        adapter.validate_python(data)


def test_gouji_bot_answers_hello_and_decisions():
    """``gouji bot random`` over standard input: hello, then one answer per decision, from the
    legal actions; a line that is not a message is exit 2 with its line number."""
    d = Decision(id=1, seat=4, step="play", position={"top": None, "seats": []}, legal=["4:-"])
    lines = '{"type":"hello","protocol":"gouji-bot 1","seat":4,"name":null}\n' + d.model_dump_json() + "\n"
    r = CliRunner().invoke(main, ["bot", "random"], input=lines + '{"type":"bye","reason":""}\n')
    assert r.exit_code == 0
    assert [json.loads(x) for x in r.output.splitlines()] == [
        {"type": "hello", "protocol": "gouji-bot 1", "seat": None, "name": "random"},
        {"type": "answer", "id": 1, "action": "4:-"},
    ]
    bad = CliRunner().invoke(main, ["bot", "random"], input=lines + "nonsense\n")
    assert bad.exit_code == 2 and "<stdin>:3:1: error[bad-message]" in bad.output


def test_an_answer_in_another_spelling_of_the_notation_is_taken():
    """``4:qqq`` is the notation's ``4:QQQ`` (Action.from_text reads lower case): the referee takes it."""
    from gouji_record.bots.referee import Player
    from gouji_record.model import Action
    from gouji_record.rules.engine import initial_position

    class Lower(Player):
        def tell(self, msg):
            pass

        def decide(self, d):
            return "1:qqq"

    pos = initial_position(get_ruleset("charter"), ("QQQ",) + ("X33",) * 4 + ("D33",), leader=1)
    table = Table(get_ruleset("charter"), [Lower()] + [BuiltIn("person", s) for s in range(5)])
    legal = [Action.from_text("1:QQQ"), Action.from_text("1:Q")]
    assert table._ask(pos, 1, "play", legal) == Action.from_text("1:QQQ")


class Scripted(BuiltIn):
    """A built-in bot that answers the decisions in ``answers`` (by step) first, and keeps them."""

    def __init__(self, answers: dict[str, list]) -> None:
        super().__init__("person", 1)
        self.answers, self.asked = answers, []

    def decide(self, d):
        self.asked.append(d)
        queue = self.answers.get(d.step)
        return queue.pop(0) if queue else super().decide(d)


def _burn_table(answer):
    """002 §10, test_engine.py's burn: seat 1 leads TTTTT (a 够级 play: 5×10, 002 §9); seat 2
    holds XJJJJD44 33 and may burn it with XJJJJ (a small joker carrying four Js, five cards), its
    rest D4433 keeping the burn condition (two ranks besides the 3s held, one joker)."""
    from gouji_record.model import Action
    from gouji_record.rules.engine import initial_position, step

    rules = get_ruleset("charter")
    deal = tuple(h + "33" for h in ("TTTTT", "XJJJJD44", "", "", "DQQQQQ", ""))
    pos = step(initial_position(rules, deal, 1), Action.from_text("1:TTTTT"))[0]
    burner = Scripted({"burn": [answer]})
    players = [BuiltIn("person", s) for s in range(6)]
    players[1] = burner
    table = Table(rules, players)
    table.open()
    done = []
    moves = [a.text for a, _ in table.play_from(pos, done, 2)]
    return burner, moves


def test_a_seat_that_may_burn_is_asked_and_its_burn_made():
    burner, moves = _burn_table("2:*XJJJJ")
    first = burner.asked[0]
    assert (first.step, first.may_decline) == ("burn", True)
    assert "2:*XJJJJ" in first.legal and all(a.startswith("2:*") for a in first.legal)
    assert first.position["top"]["cards"] == "TTTTT" and first.position["top"]["gouji"] is True
    assert moves[0] == "2:*XJJJJ"


def test_a_declined_burn_is_not_asked_again_for_the_same_play():
    """Declined (null), the burn is not made, and seat 2 is not asked again while TTTTT stays on
    top: its next decision is its turn, a play decision."""
    burner, moves = _burn_table(None)
    assert "2:*XJJJJ" not in moves
    assert [d.step for d in burner.asked][:2] == ["burn", "play"]


class Declarer(BuiltIn):
    """``random``, and before play a declaration drawn among those offered, or none."""

    def decide(self, d):
        if d.step == "declare":
            return self.agent.rng.choice(d.legal + [None])
        return super().decide(d)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_the_bots_declarations_go_into_matches_that_validate(preset):
    """Declarations before play (宣点, 预点, 革命, 要头 …) are the bots' own: bots that make them at
    random play a match of three hands that `gouji validate` accepts, tribute and all. Under the
    tournament rules no declaration is offered but 革命 to a hand with no joker and no 2 (004)."""
    from gouji_record import write_all
    from gouji_record.judging.canonical import canonical

    rules = get_ruleset(preset)
    records = play_table_match(Table(rules, [Declarer("random", s) for s in range(6)]), 3, 3)
    declared = [a for r in records for a in r.preplay if a.kind.value != "give"]
    assert declared or preset == "tournament"
    back = parse(write_all(canonical(r) for r in records))
    assert [replay(r, rules).diagnostic for r in back] == [None] * 3
    r = CliRunner().invoke(main, ["validate", "-q", "-"], input=write_all(canonical(r) for r in records))
    assert r.exit_code == 0, r.output


def test_a_bot_that_stops_reading_is_an_error_not_a_hang():
    """A bot that says hello and then reads nothing more: once the pipe to it is full, the next
    message waits --bot-timeout seconds, then is a BotError naming it; the process is reaped."""
    from gouji_record.bots.process import BotError, BotProcess
    from gouji_record.bots.protocol import Bye, Hello

    code = "import json, time; input(); print(json.dumps({'type': 'hello', 'name': 'deaf'}), flush=True); time.sleep(60)"
    command = f"{sys.executable} -c \"{code}\""
    with BotProcess(command, seat=5, timeout=1) as bot:
        assert bot.greet(Hello(seat=5)).name == "deaf"
        with pytest.raises(BotError) as e:
            for _ in range(100_000):  # 64 kB of pipe at most: a few thousand messages
                bot.send(Bye(reason="x" * 100))
        pid = bot.proc.pid
    assert e.value.message == f"bot {command!r} at seat 5, after its line 1: it stopped reading its input: nothing read for 1 s (--bot-timeout)"
    assert _gone(pid)


def test_the_duplicate_table_in_the_spec_is_what_gouji_prints():
    """docs/bots.md section 7 shows a real run: the same command prints the same table."""
    shown = BOTS_MD.split("$ gouji selfplay --duplicate", 1)[1].split("```", 1)[0].splitlines()
    args = ["selfplay", "--duplicate", *shown[0].split()]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0 and r.output.splitlines() == shown[1:]


def test_a_bot_whose_name_cannot_be_a_tag_is_one_line(tmp_path):
    """A name goes into the record's SeatN tag, one line of printable text (docs/notation.md): a
    name with a line break in it is refused, naming the bot's line 1."""
    script = tmp_path / "named.py"
    script.write_text('import json\ninput()\nprint(json.dumps({"type": "hello", "name": "two\\nlines"}), flush=True)\ninput()\n', encoding="utf-8")
    command = f"{sys.executable} {script}"
    r = CliRunner().invoke(main, ["selfplay", "--bot", f"6={command}", "-o", str(tmp_path / "x.gjn")])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.output.startswith(f"error[bot]: bot {command!r} at seat 6, its line 1 ")
    assert "its name cannot be a record's SeatN tag" in r.output


def test_a_bot_of_another_protocol_version_is_refused(tmp_path):
    """hello says which version a bot speaks: gouji-bot 2 is not this referee's gouji-bot 1."""
    script = tmp_path / "v2.py"
    script.write_text('import json\ninput()\nprint(json.dumps({"type": "hello", "protocol": "gouji-bot 2"}), flush=True)\ninput()\n', encoding="utf-8")
    command = f"{sys.executable} {script}"
    r = CliRunner().invoke(main, ["selfplay", "--bot", f"1={command}"])
    assert r.exit_code == 1
    # its line as it wrote it, spaces and all, not as the referee reads it (with seat and name null)
    said = """its line 1 '{"type": "hello", "protocol": "gouji-bot 2"}'"""
    assert r.output.startswith(f"error[bot]: bot {command!r} at seat 1, {said}: it speaks 'gouji-bot 2', not 'gouji-bot 1'; no hand was begun")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_a_quoted_line_is_one_printable_line_of_bounded_length(raw):
    """Whatever bytes a bot writes, its line quoted is one line with nothing a terminal acts on
    (no line break, no control character: each printable or a space), at most 4 characters a
    byte (``\\xff``; ``\\u2028`` is 6 for its 3 bytes) and ``…``; ASCII text without a
    backslash is itself, between quotes."""
    from gouji_record.bots.process import QUOTED, quoted

    shown = quoted(raw)
    assert shown.startswith("'") and shown.endswith(("'", "…'"))
    assert all(c.isprintable() or unicodedata.category(c) in ("Zs", "Co") for c in shown)
    assert len(shown) <= 4 * QUOTED + 3
    assert shown.endswith("…'") == (len(raw) > QUOTED)
    plain = bytes(b for b in raw if 0x20 <= b < 0x7F and b != 0x5C)[:QUOTED]
    assert quoted(plain) == f"'{plain.decode('ascii')}'"
