"""One verdict everywhere (issue 22): the Python API (``verdicts``) and every command that judges
hands — validate, filter, stats, review, events, export --format parquet, render — give each hand
the same verdict: valid or not, and the same problems (codes, in order).

The inputs: the examples, the cases that made two doors disagree (tests/cases/verdict-*.gjn, from
shared/cases/verdict/), and self-played hands and matches of every preset with broken actions
mixed in: a tribute card changed, a transfer left out, a Hand tag renumbered, a Result tag
changed, a play of cards the seat does not hold, two hands of a match swapped. Every broken file
must be invalid somewhere (else the mutation tested nothing), and no door may say otherwise.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import CASES, EXAMPLES

import gouji_record as gj
from gouji_record.cli.main import main

PRESETS = ("online", "classic", "charter", "fours", "tournament")


def run(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout


def _hands(text: str) -> list[str]:
    """The hands of a file written by ``gouji selfplay``: each starts at its ``[Notation`` tag."""
    starts = [m.start() for m in re.finditer(r"^\[Notation ", text, re.M)]
    return [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]


def _wrong_tribute(hand: str, rng: random.Random) -> str:
    """The first transfer of the pre-play section that is tribute (not part of a ``buy`` or a
    ``gift``) gives a 3 instead of what it gave; without one (the fours rules have no tribute),
    the first purchase's price is a 3."""
    m = re.search(r"^preplay\n(.*)$", hand, re.M)
    tokens = list(re.finditer(r"\S+", m[1]))
    skip, first = 0, None
    for t in tokens:
        if t[0] in ("buy", "gift"):
            skip = 2 if t[0] == "buy" else 1
            first = first or t  # (a purchase's first transfer, if there is no tribute)
            continue
        if skip:
            skip -= 1
            if first is not None and first[0] in ("buy", "gift"):
                first = t
            continue
        first = t
        break
    assert first is not None and ">" in first[0], m[1]
    at = m.start(1) + first.start()
    head = first[0].partition(":")[0]
    return hand[:at] + head + ":3" + hand[at + len(first[0]) :]


def _no_transfers(hand: str, rng: random.Random) -> str:
    return re.sub(r"^preplay\n.*\n", "", hand, count=1, flags=re.M)


def _renumbered(hand: str, rng: random.Random) -> str:
    return re.sub(r'^\[Hand "(\d+)"\]', lambda m: f'[Hand "{int(m[1]) + 3}"]', hand, count=1, flags=re.M)


def _wrong_result(hand: str, rng: random.Random) -> str:
    def turned(m: re.Match) -> str:
        places = m[1].split("-")
        return '[Result "' + "-".join(places[1:] + places[:1]) + '"]'

    return re.sub(r'^\[Result "(\d-\d-\d-\d-\d-\d)"\]', turned, hand, count=1, flags=re.M)


def _wrong_play(hand: str, rng: random.Random) -> str:
    """A play of the play section, chosen by ``rng``, made of big jokers the seat may not hold
    (six of them: four decks hold four)."""
    head, sep, play = hand.partition("\nplay\n")
    tokens = list(re.finditer(r"(?<![\w>])([1-6]):([0-9TJQKAXD]+)", play))
    m = tokens[rng.randrange(len(tokens))]
    return head + sep + play[: m.start()] + f"{m[1]}:DDDDDD" + play[m.end() :]


BREAKS = {
    "wrong-tribute": _wrong_tribute,
    "no-transfers": _no_transfers,
    "renumbered": _renumbered,
    "wrong-result": _wrong_result,
    "wrong-play": _wrong_play,
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> list[Path]:
    """The examples, the verdict cases, and broken self-played files (one per preset and break,
    plus a match with two hands swapped), all readable."""
    out = tmp_path_factory.mktemp("verdict")
    files = sorted(EXAMPLES.glob("*.gjn")) + sorted(CASES.glob("verdict-*.gjn"))
    rng = random.Random(22)
    for n, preset in enumerate(PRESETS):
        played = out / f"{preset}.gjn"
        assert run("selfplay", "--ruleset", preset, "--seed", str(40 + n), "--hands", "3", "--match", "-o", str(played))[0] == 0
        hands = _hands(played.read_text(encoding="utf-8"))
        files.append(played)
        for name, brk in BREAKS.items():
            k = 0 if name in ("wrong-result", "wrong-play") else 1  # tribute and numbering: hand 2 on
            broken = hands[:k] + [brk(hands[k], rng)] + hands[k + 1 :]
            assert broken != hands, (preset, name)
            path = out / f"{preset}-{name}.gjn"
            path.write_text("".join(broken), encoding="utf-8")
            files.append(path)
        swapped = out / f"{preset}-swapped.gjn"
        swapped.write_text("".join([hands[1], hands[0], hands[2]]), encoding="utf-8")
        files.append(swapped)
    return files


def api(path: Path) -> list[tuple[bool, list[str]]]:
    return [(v.valid, [d.code for d in v.diagnostics]) for v in gj.verdicts(gj.read(path))]


def validate(path: Path, *more: str) -> list[tuple[bool, list[str]]]:
    out = []
    for line in run("validate", "--format", "json", *more, str(path))[1].splitlines():
        data = json.loads(line)
        codes = ([data["error"]["code"]] if "error" in data else []) + [e["code"] for e in data.get("match_errors", [])]
        out.append((data["valid"], codes))
    return out


def _located(out: str) -> list[str]:
    """The problems ``gouji validate`` prints, one ``FILE:LINE:COL: …`` line each."""
    return [line for line in out.splitlines() if re.match(r"\S+:\d+:\d+: ", line)]


def review(path: Path) -> list[tuple[bool, list[str]]]:
    hands = [json.loads(line) for line in run("review", "--format", "json", str(path))[1].splitlines()]
    return [(h["valid"], [p["code"] for p in h["problems"]]) for h in hands]


def events(path: Path) -> list[tuple[bool, list[str]]]:
    by_hand: dict[int, list[str]] = {}
    for line in run("events", "--format", "json", str(path))[1].splitlines():
        row = json.loads(line)
        codes = by_hand.setdefault(row["hand"], [])
        if row["kind"] == "diagnostic":
            codes.append(row["code"])
    return [(not codes, codes) for _, codes in sorted(by_hand.items())]


def test_every_door_gives_the_api_verdict(corpus):
    broken = 0
    for path in corpus:
        expected = api(path)
        assert expected, path
        assert validate(path) == expected, path
        # -q derives no events (replay(events=False)): the same problems, at the same places
        quiet, text = (CliRunner().invoke(main, [*q, str(path)]) for q in (["validate", "-q"], ["validate"]))
        assert quiet.exit_code == text.exit_code and _located(quiet.output) == _located(text.output), path
        assert len(_located(quiet.output)) >= sum(len(codes) for _, codes in expected), path
        assert review(path) == expected, path
        assert events(path) == expected, path
        invalid = sum(not valid for valid, _ in expected)
        assert run("filter", "--invalid", "--count", str(path))[1] == f"{invalid}\n", path
        assert run("filter", "--valid", "--count", str(path))[1] == f"{len(expected) - invalid}\n", path
        # stats counts an illegal hand against the seat of the action its first problem names
        acting = sum(1 for v in gj.verdicts(gj.read(path)) if v.diagnostic is not None and v.diagnostic.action is not None)
        rows = json.loads(run("stats", "--by", "seat", "--format", "json", str(path))[1])
        assert sum(r["illegal"] for r in rows) == acting, path
        by_ruleset = json.loads(run("stats", "--by", "ruleset", "--format", "json", str(path))[1])
        assert sum(r["invalid"] for r in by_ruleset) == invalid, path
        preset, _, name = path.stem.partition("-")
        broken += path.parent != EXAMPLES and preset in PRESETS and bool(name) and invalid > 0
    assert broken == len(PRESETS) * (len(BREAKS) + 1)  # every break broke its file


def test_the_break_is_the_problem_it_should_be(corpus):
    """Each break gives the problem it makes, worked out from the rules: a transfer that is not
    what the hand before owes (tribute-wrong, tribute-missing: 002 §20-§21), a Hand tag that is
    not the hand's number in its match (hand-missing), a Result tag the play contradicts
    (result-mismatch), six big jokers where four decks hold four (an illegal action)."""
    found: dict[str, set[str]] = {}
    for path in corpus:
        preset, _, name = path.stem.partition("-")
        if preset in PRESETS and name:
            found.setdefault(name, set()).update(c for _, codes in api(path) for c in codes)
    assert "result-mismatch" in found["wrong-result"]
    assert "hand-missing" in found["renumbered"]
    assert found["wrong-tribute"] & {"tribute-wrong", "tribute-order", "tribute-extra", "tribute-missing"}
    assert found["no-transfers"] & {"tribute-missing"}
    assert found["swapped"] & {"hand-missing"}


def test_parquet_and_the_page_give_the_same_verdict(corpus, tmp_path):
    pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    chosen = [p for p in corpus if p.stem.startswith(("charter", "tournament")) or p.parent == EXAMPLES]
    code, _ = run("export", "--format", "parquet", str(tmp_path / "pq"), *map(str, chosen))
    assert code == 0
    rows = pq.read_table(tmp_path / "pq" / "hands.parquet").to_pylist()
    by_file: dict[str, list] = {}
    for row in sorted(rows, key=lambda r: (r["file"], r["hand"])):
        by_file.setdefault(row["file"], []).append((row["valid"], row["code"]))
    for path in chosen:
        expected = [(valid, codes[0] if codes else None) for valid, codes in api(path)]
        assert by_file[str(path)] == expected, path
    for path in chosen[:4] + [p for p in chosen if "swapped" in p.stem or "tribute" in p.stem]:
        page = tmp_path / (path.stem + ".html")
        assert run("render", str(path), "-o", str(page))[0] == 0
        shown = re.findall(r'<tr class="(ok|bad)" data-hand=', page.read_text(encoding="utf-8"))  # the match overview
        in_match = [v.valid for v in gj.verdicts(gj.read(path)) if v.match is not None]
        assert [c == "ok" for c in shown] == in_match, path


def test_workers_give_the_same_verdict(corpus, tmp_path):
    """--jobs 2: the hands of a match judged in order all the same (the match checks run here,
    on the replays the workers send back)."""
    everything = tmp_path / "all.gjn"
    everything.write_text("\n".join(p.read_text(encoding="utf-8") for p in corpus), encoding="utf-8")
    assert validate(everything, "--jobs", "2") == validate(everything) == api(everything)
    assert run("stats", "--jobs", "2", "--by", "seat", "--format", "json", str(everything)) == run(
        "stats", "--by", "seat", "--format", "json", str(everything)
    )
    assert run("filter", "--jobs", "2", "--invalid", "--count", str(everything)) == run("filter", "--invalid", "--count", str(everything))


def test_an_option_given_on_the_command_line_is_the_verdict_of_that_variant(tmp_path):
    """--option over the record's own options, for validate and the API alike: under the
    tournament rules 大王二杀一 (004 §5: two big jokers beat one) lets DD beat a lone D; with
    two-beat-one=no only a play of as many cards beats (000, 001, 003), and DD on D does not."""
    seats = "".join(f'[Seat{s} "p{s}"]\n' for s in range(1, 7))
    hand = tmp_path / "dd.gjn"
    hand.write_text(
        f'[Event "x"]\n[Site "y"]\n[Date "2026.12.01"]\n[Round "?"]\n[Ruleset "tournament"]\n{seats}[Result "*"]\n\n'
        "deal\n1: D?35\n2: DD?34\n3: ?36\n4: ?36\n5: ?36\n6: ?36\n\nplay\n1. 1:D 2:DD\n",
        encoding="utf-8",
    )
    assert validate(hand) == [(True, [])]
    variant = validate(hand, "--option", "two-beat-one=no")
    assert variant[0][0] is False
    rules = gj.with_options(gj.get_ruleset("tournament"), {"two-beat-one": "no"})
    assert [v.diagnostic.code for v in gj.verdicts(gj.read(hand), rules)] == variant[0][1]


def test_a_match_goes_on_only_in_the_file_it_began_in(tmp_path):
    """Found by trying to break it: a match written in two files (hand 1 in one, hands 2 and 3 in
    the next) is two excerpts to validate (the hand before hand 2 is not in its file: its tribute is
    not checked); filter, stats and review judged it across the files, and found tribute-missing,
    first-lead and hand-missing that validate did not. Every door now judges a match within one file."""
    played = tmp_path / "m.gjn"
    assert run("selfplay", "--ruleset", "online", "--seed", "41", "--hands", "3", "--match", "-o", str(played))[0] == 0
    hands = _hands(played.read_text(encoding="utf-8"))
    day1, day2 = tmp_path / "day1.gjn", tmp_path / "day2.gjn"
    day1.write_text(hands[0], encoding="utf-8")
    day2.write_text("".join(hands[1:]), encoding="utf-8")
    both = (str(day1), str(day2))
    assert [valid for valid, _ in validate(day2)] == [True, True]
    assert run("filter", "--invalid", "--count", *both)[1] == "0\n"
    assert run("filter", "--jobs", "2", "--invalid", "--count", *both)[1] == "0\n"
    assert sum(r["invalid"] for r in json.loads(run("stats", "--by", "ruleset", "--format", "json", *both)[1])) == 0
    code, out = run("review", "--format", "json", *both)
    assert code == 0 and all(json.loads(line)["valid"] for line in out.splitlines())


def test_render_of_one_hand_judges_it_within_its_match(tmp_path):
    """render --hand 2 of a match with hand 2's tribute changed: the page's overview marks it as
    validate does (it used to say "not checked: the hand before it is not in the file")."""
    played = tmp_path / "m.gjn"
    assert run("selfplay", "--ruleset", "charter", "--seed", "42", "--hands", "3", "--match", "-o", str(played))[0] == 0
    hands = _hands(played.read_text(encoding="utf-8"))
    broken = tmp_path / "broken.gjn"
    broken.write_text(hands[0] + _wrong_tribute(hands[1], random.Random(1)) + hands[2], encoding="utf-8")
    assert validate(broken)[1][0] is False
    page = tmp_path / "p.html"
    assert run("render", "--hand", "2", str(broken), "-o", str(page))[0] == 0
    html = page.read_text(encoding="utf-8")
    assert re.findall(r'<tr class="(ok|bad)" data-hand=', html) == ["bad"]
    assert "未检查" not in html


def test_a_refused_purchase_stops_the_replay_there(tmp_path):
    """Found by trying to break it: a purchase the charter refuses (buy-not-allowed: 002 has no
    买四) was the verdict, but show and events went on past it. The replay stops at it, as at an
    illegal play: events list nothing after it, and show has no table after it."""
    text = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
    hand = tmp_path / "buy.gjn"
    hand.write_text(text.replace("\nplay\n", "\npreplay\nbuy 2>5:2 5>2:4\n\nplay\n", 1), encoding="utf-8")
    [(valid, codes)] = api(hand)
    assert not valid and codes == ["buy-not-allowed"]
    rows = [json.loads(line) for line in run("events", "--format", "json", str(hand))[1].splitlines()]
    assert [r["kind"] for r in rows] == ["diagnostic"] and rows[0]["action"] == 1
    assert run("show", str(hand), "--at", "3")[0] == 1


# --- a hand that cannot be judged (issue 38) -------------------------------------------------------

HAND = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
#: Hand 2 of a file of three copies of the charter example starts at line 67 (the example's 65 lines
#: and a blank line before it): its line k of the example is line 66 + k of the file.
AT = 66
#: How hand 2 is broken, and the problem it then has: code, line and column, worked out from the
#: example's text (Notation is its line 1, Ruleset line 6, Result line 13, the deal of seat 1 line 17;
#: a tag's problem stands at its name, column 2, after the "[").
UNJUDGED = {
    # no ruleset to judge it under: at the Ruleset tag
    "unknown-ruleset": (lambda h: h.replace('[Ruleset "charter"]', '[Ruleset "nosuch"]'), (AT + 6, 2)),
    # an Options tag written after the Ruleset tag (line 7) that names no option
    "bad-option": (lambda h: h.replace('[Ruleset "charter"]', '[Ruleset "charter"]\n[Options "threes-lats=yes"]'), (AT + 7, 2)),
}
UNREADABLE = {
    # 37 cards to seat 1: at its cards, after "1: " (column 4)
    "deal-size": (lambda h: h.replace("1: KKKKKKJJJJJJJJJTTTTT6666444444444444", "1: KKKKKKJJJJJJJJJTTTTT66664444444444445"), (AT + 17, 4)),
    "notation-version": (lambda h: h.replace('[Notation "gjn 2.4"]', '[Notation "gjn 9.0"]'), (AT + 1, 2)),
    "bad-result": (lambda h: h.replace('[Result "5-6-1-4-3-2"]', '[Result "5-6-1"]'), (AT + 13, 2)),
}


def _three(tmp_path: Path, code: str) -> tuple[Path, tuple[int, int]]:
    """A file of three copies of the charter example, the second broken to have problem ``code``."""
    brk, at = {**UNJUDGED, **UNREADABLE}[code]
    broken = brk(HAND)
    assert broken != HAND
    path = tmp_path / f"{code}.gjn"
    path.write_text(HAND + "\n" + broken + "\n" + HAND, encoding="utf-8")
    return path, at


@pytest.mark.parametrize("code", [*UNJUDGED, *UNREADABLE])
def test_a_hand_that_cannot_be_judged_is_a_located_verdict_and_the_others_are_judged(tmp_path, code):
    """Issue 38: hand 2 of three cannot be judged (no ruleset for it) or read. Every door says so of
    hand 2 alone, at its place, in the one shape of a problem, and judges hands 1 and 3 as they are
    alone: valid, the example's places 5-6-1-4-3-2 (2 points to team 1-3-5). The API gave an
    exception at hand 2 (hand 3 never judged), and the editor marked every hand unknown-ruleset."""
    path, (line, column) = _three(tmp_path, code)
    expected = [(True, []), (False, [code]), (True, [])]
    if code in UNJUDGED:  # a record that reads: verdicts() of the records raised at hand 2
        assert api(path) == expected
    # the API: a verdict per hand, hand 2's problem located in the file
    got = list(gj.read_verdicts(path))
    assert [(v.valid, [d.code for d in v.diagnostics]) for v in got] == expected
    [problem] = got[1].problems()
    assert problem.as_dict() | {"message": None} == {
        "code": code, "message": None, "rule": None, "rule_name": None, "source": None,
        "message_zh": {"unknown-ruleset": "无法裁定：规则集标签所写的规则集不存在",
                       "bad-option": "无法裁定：选项标签所写的选项不存在或取值不对"}.get(code),
        "file": str(path), "hand": 2, "line": line, "column": column, "action": None,
        "tag": {"unknown-ruleset": "Ruleset", "bad-option": "Options"}.get(code),
    }
    # validate: JSON and text, exit 2 (a hand cannot be read or judged: README)
    code_, out = run("validate", "--format", "json", str(path))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code_ == 2 and [(r["hand"], r["valid"]) for r in rows] == [(1, True), (2, False), (3, True)]
    assert rows[1]["error"] == problem.as_dict() and rows[0]["places"] == rows[2]["places"] == [5, 6, 1, 4, 3, 2]
    text = CliRunner().invoke(main, ["validate", str(path)])
    assert text.exit_code == 2 and _located(text.stderr) == [f"{path}:{line}:{column}: error[{code}]: {problem.message}"]
    assert text.stdout.count(": valid under charter") == 2
    # review --format json: hand 2 is an object too, with the same problem
    code_, out = run("review", "--format", "json", str(path))
    reviews = [json.loads(line) for line in out.splitlines()]
    assert code_ == 2 and [(r["hand"], r["valid"]) for r in reviews] == [(1, True), (2, False), (3, True)]
    assert reviews[1]["problems"] == [problem.as_dict()] and reviews[0]["problems"] == reviews[2]["problems"] == []
    # events: hands 1 and 3 whole (the example's 69 actions end with seat 2 placed 6th), hand 2 one diagnostic row
    code_, out = run("events", "--format", "json", str(path))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code_ == 2 and [(r["line"], r["column"], r["code"]) for r in rows if r["hand"] == 2] == [(line, column, code)]
    assert [r["kind"] for r in rows if r["hand"] == 1] == [r["kind"] for r in rows if r["hand"] == 3] != []
    # stats and filter count hands 1 and 3, and say hand 2's problem once
    r = CliRunner().invoke(main, ["stats", "--by", "ruleset", "--format", "json", str(path)])
    assert r.exit_code == 2 and [(s["hands"], s["invalid"]) for s in json.loads(r.stdout)] == [(2, 0)]
    assert _located(r.stderr) == [f"{path}:{line}:{column}: error[{code}]: {problem.message}"]
    assert run("filter", "--valid", "--count", str(path)) == (2, "2\n")
    # export refuses a file with a hand import would refuse, naming it where validate does
    r = CliRunner().invoke(main, ["export", "--with-verdict", str(path)])
    assert r.exit_code == 2 and r.stdout == "" and _located(r.stderr) == [f"{path}:{line}:{column}: error[{code}]: {problem.message}"]


@pytest.mark.parametrize("code", list(UNJUDGED))
def test_the_editor_marks_only_the_hand_that_cannot_be_judged(code):
    from gouji_record.editor.session import check, hand_data

    good = hand_data(gj.parse(HAND)[0])
    bad = hand_data(gj.parse(UNJUDGED[code][0](HAND))[0])
    checked = check([good, bad, good])
    assert [[p["code"] for p in c["problems"]] for c in checked] == [[], [code], []]
    assert checked[1]["problems"][0]["section"] == "tags"
    assert checked[0]["result"] == checked[2]["result"] == "5-6-1-4-3-2"


def _match(tmp_path: Path) -> list[str]:
    played = tmp_path / "m.gjn"
    assert run("selfplay", "--ruleset", "charter", "--seed", "42", "--hands", "3", "--match", "-o", str(played))[0] == 0
    return _hands(played.read_text(encoding="utf-8"))


@pytest.mark.parametrize("how", ["unknown-ruleset", "deal-size"])
def test_a_hand_after_one_that_cannot_be_judged_is_judged_as_an_excerpt(tmp_path, how):
    """Hands 1-3 of a match, hand 2 not judged (its Ruleset tag) or not read (a seat dealt 37
    cards): the hand before hand 3 is not known, so hand 3 is an excerpt of its match (its
    tribute not judged: docs/notation.md, matches) and valid, as it is in a file alone. Judged
    after hand 1 it would have hand-missing (its Hand "3" would be hand 2): the editor judged it
    so when hand 2 did not build."""
    from gouji_record.editor.session import check, hand_data

    hands = _match(tmp_path)
    broken = (
        re.sub(r'\[Ruleset "charter"\]', '[Ruleset "nosuch"]', hands[1], count=1)
        if how == "unknown-ruleset"
        else re.sub(r"^1: (\S+)", lambda m: "1: " + m[1] + "3", hands[1], count=1, flags=re.M)
    )
    third = hands[2]
    path = tmp_path / "broken.gjn"
    path.write_text(hands[0] + broken + third, encoding="utf-8")
    alone = tmp_path / "third.gjn"
    alone.write_text(third, encoding="utf-8")
    assert api(alone) == [(True, [])]
    got = [(v.valid, [d.code for d in v.diagnostics]) for v in gj.read_verdicts(path)]
    assert got == [(True, []), (False, [how]), (True, [])]
    assert validate(path) == got
    assert [(h["valid"], [p["code"] for p in h["problems"]]) for h in map(json.loads, run("review", "--format", "json", str(path))[1].splitlines())] == got
    assert run("filter", "--valid", "--count", str(path))[1] == "2\n"
    records = [gj.parse(h)[0] if n != 1 else None for n, h in enumerate(hands[:1] + [broken] + [third])]
    data = [hand_data(r) if r is not None else {"tags": {}, "deal": ["Z"] * 6} for r in records]
    if how == "unknown-ruleset":
        data[1] = hand_data(gj.parse(broken)[0])
    assert [c["problems"] != [] for c in check(data)] == [False, True, False]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(n=st.integers(2, 4), data=st.data())
def test_any_hand_of_a_file_cannot_be_judged_and_the_others_keep_their_verdict(tmp_path, n, data):
    """Property (issue 38): of n copies of the charter example (valid alone) and its illegal copy
    (gouji-not-opposite alone: 002 §9), any one broken in any of the ways above is that problem
    alone, and every other hand keeps the verdict it has alone, in the API (records read one by
    one) and in validate --format json, which give the same problems in the same shape."""
    illegal = (EXAMPLES / "charter-hand-illegal.gjn").read_text(encoding="utf-8")
    alone = {HAND: (True, []), illegal: (False, ["gouji-not-opposite"])}
    hands = [data.draw(st.sampled_from([HAND, illegal])) for _ in range(n)]
    k = data.draw(st.integers(0, n - 1))
    code = data.draw(st.sampled_from([*UNJUDGED, *UNREADABLE]))
    broken = {**UNJUDGED, **UNREADABLE}[code][0](hands[k])
    assert broken != hands[k]
    expected = [alone[h] for h in hands]
    expected[k] = (False, [code])
    path = tmp_path / "n.gjn"
    path.write_text("\n".join(hands[:k] + [broken] + hands[k + 1 :]), encoding="utf-8")
    got = list(gj.read_verdicts(path))
    assert [(v.valid, [d.code for d in v.diagnostics]) for v in got] == expected
    assert [v.hand for v in got] == list(range(1, n + 1))
    rows = [json.loads(line) for line in run("validate", "--format", "json", str(path))[1].splitlines()]
    assert [([r["error"]] if "error" in r else []) for r in rows] == [[p.as_dict() for p in v.problems()] for v in got]


def test_an_override_judges_a_hand_whose_own_ruleset_is_not(tmp_path):
    """--ruleset charter judges hand 2 (its Ruleset tag names no ruleset) under the charter: valid,
    as its copies; the API with the same override says the same. A bad Options tag is still bad
    under --ruleset (the tag's options go over the ruleset named)."""
    path, _ = _three(tmp_path, "unknown-ruleset")
    assert validate(path, "--ruleset", "charter") == [(True, [])] * 3
    override = gj.RulesetOverride(gj.get_ruleset("charter"))
    assert [v.valid for v in gj.verdicts(gj.read(path), override)] == [True] * 3
    assert [v.valid for v in gj.read_verdicts(path, override)] == [True] * 3
    code, out = run("review", "--ruleset", "charter", "--format", "json", str(path))
    assert code == 0 and [json.loads(line)["valid"] for line in out.splitlines()] == [True] * 3
    code, out = run("events", "--ruleset", "charter", "--format", "json", str(path))
    assert code == 0 and {json.loads(line)["hand"] for line in out.splitlines()} == {1, 2, 3}
    code, out = run("stats", "--ruleset", "charter", "--by", "ruleset", "--format", "json", str(path))
    assert code == 0 and [(r["hands"], r["invalid"]) for r in json.loads(out)] == [(3, 0)]
    path, _ = _three(tmp_path, "bad-option")
    assert validate(path, "--ruleset", "charter", "--option", "claim=no") == [(True, []), (False, ["bad-option"]), (True, [])]
    assert [[d.code for d in v.diagnostics] for v in gj.verdicts(gj.read(path), override)] == [[], ["bad-option"], []]


def test_every_door_writes_a_problem_in_one_shape(tmp_path):
    """validate's error and match_errors, export --with-verdict's problems, review's problems and
    the API's Problem.as_dict() are the same objects; events' diagnostic row carries the same
    values under its columns (the message as note). The cases: the illegal example (3:QQQQQ on
    seat 1's TTTTT at 27:30: only seat 4 may answer, 002 §9, action 2) and hand 2 of a match whose
    tribute is changed to a 3 (a match's problem: review had no line for it, and said it only by
    re-reading its own JSON)."""
    hands = _match(tmp_path)
    match = tmp_path / "tribute.gjn"
    match.write_text(hands[0] + _wrong_tribute(hands[1], random.Random(1)) + hands[2], encoding="utf-8")
    for path in (EXAMPLES / "charter-hand-illegal.gjn", match):
        shapes = [[p.as_dict() for p in v.problems()] for v in gj.read_verdicts(path)]
        assert any(shapes)
        rows = [json.loads(line) for line in run("validate", "--format", "json", str(path))[1].splitlines()]
        assert [([r["error"]] if "error" in r else []) + r.get("match_errors", []) for r in rows] == shapes
        exported = [json.loads(line) for line in run("export", "--with-verdict", str(path))[1].splitlines()]
        assert [h["verdict"]["problems"] for h in exported] == shapes
        reviewed = [json.loads(line) for line in run("review", "--format", "json", str(path))[1].splitlines()]
        assert [h["problems"] for h in reviewed] == shapes
        events = [json.loads(line) for line in run("events", "--format", "json", str(path))[1].splitlines()]
        diagnostics = [r for r in events if r["kind"] == "diagnostic"]
        keys = ("file", "hand", "action", "line", "column", "rule", "source", "code")
        assert [tuple(r[k] for k in keys) + (r["note"],) for r in diagnostics] == [
            tuple(p[k] for k in keys) + (p["message"],) for ps in shapes for p in ps
        ]
    [[illegal]] = [[p.as_dict() for p in v.problems()] for v in gj.read_verdicts(EXAMPLES / "charter-hand-illegal.gjn")]
    assert (illegal["code"], illegal["line"], illegal["column"], illegal["action"], illegal["rule"]) == (
        "gouji-not-opposite", 27, 30, 2, "gouji-opposite-only"
    )
    assert illegal["source"].startswith("够级大纲 §9")
