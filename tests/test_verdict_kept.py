"""``fmt`` and ``import`` never change a verdict (issue 25, "Files keep their meaning").

``gouji fmt`` writes the canonical form of a file, ``gouji export`` then ``gouji import`` write
it through the record JSON; ``gouji validate`` must judge what comes out as it judges what went
in: each hand valid or not, with the same problems (code and action), and a file that cannot be
read refused with the same errors. The property is checked over mutated records: the examples,
self-played hands and matches of every preset, broken in the ways a hand written by hand breaks
(an action dropped, doubled or moved, a round number wrong or moved, an action after the end, a
Result, Hand, Score or Options tag changed, an action marked ``^``, a card changed, cards hidden,
a pre-play item dropped or moved, a tag given twice); and over the cases it found
(tests/cases/verdict-*.gjn, README.md there).
"""

from __future__ import annotations

import io
import json
from functools import cache

import pytest
from click.testing import CliRunner
from conftest import CASES, EXAMPLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from gouji_record.bots.selfplay import play_hand, play_match
from gouji_record.cli.main import main
from gouji_record.formats.interchange import read_records as import_records
from gouji_record.judging.canonical import canonical
from gouji_record.judging.replay import replay, ruleset_of
from gouji_record.matches.verdict import MatchJudge
from gouji_record.model import Action, GameRecord
from gouji_record.notation.writer import write, write_all
from gouji_record.rules.rulesets import BadOption, UnknownRuleset, get_ruleset
from gouji_record.running.batch import read_records

PRESETS = ("online", "classic", "charter", "fours", "tournament")


# -- the three doors, as the commands go through them -----------------------------------------


def _hands(text: str):
    """The hands of ``text`` as every command reads a file (gouji_record.running.batch), each
    ``(record, ruleset)`` or ``(None, code)`` for one that cannot be read."""
    for hand in read_records("x.gjn", io.BytesIO(text.encode("utf-8"))):
        if hand.problem is not None:
            yield None, hand.problem.code
            continue
        try:
            yield hand.record, ruleset_of(hand.record)
        except UnknownRuleset:
            yield None, "unknown-ruleset"
        except BadOption:
            yield None, "bad-option"


def validate(text: str) -> list[tuple]:
    """What ``gouji validate`` says of each hand of ``text``: ``(2, code)`` for a hand that cannot
    be read, else ``(status, [(code, action), …])``, every problem in order, within its match."""
    out = []
    judge = MatchJudge()
    for record, rules in _hands(text):
        if record is None:
            judge.interrupt()
            out.append((2, rules))
            continue
        v = judge.judge(replay(record, rules, every_position=False))
        out.append((0 if v.valid else 1, [(d.code, d.action) for d in v.diagnostics]))
    return out


def fmt(text: str) -> str | list[str]:
    """What ``gouji fmt`` writes of ``text`` (the canonical text of each hand), or the codes of
    the hands it cannot read, for which it refuses the file."""
    hands = list(_hands(text))
    refused = [rules for record, rules in hands if record is None]
    if refused:
        return refused
    return "\n".join(write(canonical(record, rules)) for record, rules in hands)


def export_import(text: str) -> str | list[str]:
    """What ``gouji export`` then ``gouji import`` write of ``text``, or the codes of the hands
    export cannot read, for which it refuses the file."""
    hands = list(_hands(text))
    refused = [rules for record, rules in hands if record is None]
    if refused:
        return refused
    lines = "".join(json.dumps(record.model_dump(mode="json"), ensure_ascii=False) + "\n" for record, _ in hands)
    return write_all(canonical(rec) for rec in import_records(lines, "x.jsonl"))


def expected(text: str) -> list[tuple] | list[str]:
    """What validate says of what fmt or import writes of ``text``: what it says of ``text``;
    for a file with a hand that cannot be read, refused with those hands' codes."""
    verdict = validate(text)
    refused = [v[1] for v in verdict if v[0] == 2]
    return refused or verdict


def judged(written: str | list[str]) -> list[tuple] | list[str]:
    return written if isinstance(written, list) else validate(written)


def check(text: str) -> None:
    want = expected(text)
    formatted = fmt(text)
    assert judged(formatted) == want, "fmt"
    assert judged(export_import(text)) == want, "export, import"
    assert export_import(text) == formatted  # the JSON loses nothing of the record
    if isinstance(formatted, str):
        assert fmt(formatted) == formatted, "fmt twice"  # the canonical form of the canonical form


# -- the records mutated --------------------------------------------------------------------


@cache
def sources() -> tuple[tuple[GameRecord, ...], ...]:
    """Valid files, as lists of records: the examples, a self-played hand of each preset (two
    seeds) and a self-played match of two hands of each preset."""
    from gouji_record import read

    files = [tuple(read(p)) for p in sorted(EXAMPLES.glob("*.gjn")) if "illegal" not in p.name]
    for n, preset in enumerate(PRESETS):
        rules = get_ruleset(preset)
        files += [(canonical(play_hand(rules, 10 + n)),), (canonical(play_hand(rules, 20 + n)),)]
        files.append(tuple(canonical(r) for r in play_match(rules, 30 + n, 2)))
    return tuple(files)


def _actions(record: GameRecord, actions) -> GameRecord:
    return record.model_copy(update={"actions": tuple(actions)})


def _tag(record: GameRecord, name: str, value: str | None) -> GameRecord:
    tags = {k: v for k, v in record.tags.items() if k != name}
    if value is not None:
        tags[name] = value
    return GameRecord.model_validate(record.model_dump() | {"tags": tags})


def drop(r, i, n):
    a = list(r.actions)
    del a[i]
    return _actions(r, a)


def double(r, i, n):
    a = list(r.actions)
    return _actions(r, a[: i + 1] + [a[i].model_copy(update={"round": None})] + a[i + 1 :])


def swap(r, i, n):
    a = list(r.actions)
    j = (i + 1 + n) % len(a)
    a[i], a[j] = a[j], a[i]
    return _actions(r, a)


def number(r, i, n):
    """A round number ``n`` on action ``i`` (1 to 40; 0: none)."""
    a = list(r.actions)
    a[i] = a[i].model_copy(update={"round": n % 41 or None})
    return _actions(r, a)


def move_number(r, i, n):
    """The round number of the first numbered action from ``i`` on, moved ``n`` actions on."""
    a = list(r.actions)
    k = next((k for k in range(i, len(a)) if a[k].round is not None), None)
    if k is None:
        return r
    j = min(len(a) - 1, k + 1 + n % 5)
    a[j] = a[j].model_copy(update={"round": a[k].round})
    a[k] = a[k].model_copy(update={"round": None})
    return _actions(r, a)


def after_end(r, i, n):
    """An action after the last one, with a round number or without."""
    last = r.actions[i] if r.actions else None
    seat = (i + n) % 6 + 1
    extra = {"seat": seat, "kind": "play", "cards": "3"} if n % 2 else {"seat": seat, "kind": "pass"}
    number = (last.round or 0) + 1 + n % 3 if n % 3 else None
    return _actions(r, [*r.actions, Action(**extra, round=number)])


def irregular(r, i, n):
    a = list(r.actions)
    a[i] = a[i].model_copy(update={"irregular": not a[i].irregular})
    return _actions(r, a)


def card(r, i, n):
    """A play's first card put for another; a pass, a yield or a request made a play of a 3."""
    a = list(r.actions)
    if a[i].kind.value != "play":
        a[i] = Action.model_validate(a[i].model_dump() | {"kind": "play", "cards": "3"})
    else:
        a[i] = Action.model_validate(a[i].model_dump() | {"cards": "3456789TJQKA2XD"[n % 15] + a[i].cards[1:]})
    return _actions(r, a)


def result(r, i, n):
    values = ["*", "void", "1-2-3-4-5-6", "6-5-4-3-2-1", "3-6-1-4-5-2"]
    places = r.tags["Result"].split("-")
    if len(places) == 6:
        values.append("-".join(places[1:] + places[:1]))
    return _tag(r, "Result", values[n % len(values)])


def hand_tag(r, i, n):
    return _tag(r, "Hand", [None, "1", "2", "3", "x"][n % 5])


def match_tag(r, i, n):
    return _tag(r, "Match", [None, "other", r.tags.get("Match", "m")][n % 3])


def score(r, i, n):
    return _tag(r, "Score", [None, "0 0", "2 0", "0 2", "1 -1"][n % 5])


def options(r, i, n):
    return _tag(r, "Options", [None, "claim=no", "threes-held=yes", "hand-end=one-left", "nonsense=1"][n % 5])


def ruleset(r, i, n):
    return _tag(r, "Ruleset", [*PRESETS, "nowhere"][n % 6])


def hidden(r, i, n):
    """Seat ``n``'s hand partly unknown: its first ``i`` known cards kept, the rest ``?N``."""
    deal = list(r.deal)
    seat = n % 6
    known = deal[seat].partition("?")[0][: i % 37]
    deal[seat] = known + f"?{36 - len(known)}" if len(known) < 36 else known
    return GameRecord.model_validate(r.model_dump() | {"deal": tuple(deal)})


def preplay(r, i, n):
    """A pre-play item left out, or two swapped (their transfers read again as tribute if need be),
    a transfer refused (拒绝, gjn 2.4), or the section emptied and written empty (gjn 2.4: nothing
    happened before play)."""
    if n % 4 == 3:
        return GameRecord.model_validate(r.model_dump() | {"preplay": (), "empty_preplay": True})
    if not r.preplay:
        return r
    p = list(r.preplay)
    k = i % len(p)
    if n % 4 == 2 and p[k].to is not None and p[k].purpose is None:
        p[k] = p[k].model_copy(update={"purpose": "refuse"})
    elif n % 2:
        del p[k]
    else:
        j = (k + 1) % len(p)
        p[k], p[j] = p[j], p[k]
    p = [a.model_copy(update={"purpose": None}) if a.purpose == "buy" else a for a in p]  # a half purchase is refused
    return GameRecord.model_validate(r.model_dump() | {"preplay": tuple(p)})


def annotate(r, i, n):
    a = list(r.actions)
    a[i] = a[i].model_copy(update={"glyph": "!?", "nags": (n % 256,), "comments": ("a [note] ; {x", "} 够级")})
    return _actions(r, a)


MUTATIONS = {
    f.__name__: f
    for f in (
        drop, double, swap, number, move_number, after_end, irregular, card, result, hand_tag,
        match_tag, score, options, ruleset, hidden, preplay, annotate,
    )
}  # fmt: skip
#: The mutations that change an action: none for a hand without one.
ON_AN_ACTION = ("drop", "double", "swap", "number", "move_number", "irregular", "card", "annotate")
#: Mutations of the text: a tag given twice (the file cannot be read).
TEXT_MUTATIONS = ("none",) * 7 + ("duplicate-tag",)


def mutate(files, source: int, changes, text_change: str) -> str:
    records = list(files[source % len(files)])
    for name, h, i, n in changes:
        h %= len(records)
        r = records[h]
        if not r.actions and name in ON_AN_ACTION:
            continue
        try:
            records[h] = MUTATIONS[name](r, i % max(1, len(r.actions)), n)
        except ValidationError:
            continue  # a record the model refuses (too many cards of a rank, …): not a file
    text = write_all(records)
    if text_change == "duplicate-tag":
        text = text.replace('[Round "', '[Date "?"]\n[Round "', 1)
    return text


changes = st.lists(
    st.tuples(st.sampled_from(sorted(MUTATIONS)), st.integers(0, 3), st.integers(0, 300), st.integers(0, 300)),
    min_size=1,
    max_size=3,
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 1000), changes, st.sampled_from(TEXT_MUTATIONS))
def test_fmt_and_export_import_keep_the_verdict_of_a_mutated_record(source, changes, text_change):
    check(mutate(sources(), source, changes, text_change))


def test_the_sources_are_valid():
    # the mutations start from valid files: each hand valid, within its match
    for files in sources():
        assert {v[0] for v in validate(write_all(files))} == {0}, files[0].tags["Event"]


# -- the cases found ------------------------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.stdout, r.stderr


def _play(text: str) -> str:
    """The play section of a canonical hand: the lines after ``play``."""
    return text.partition("\nplay\n")[2]


def test_a_wrong_round_number_is_kept_by_fmt(tmp_path):
    # "3." leads what is round 2: validate says so (exit 1), and so it does of fmt's output, which
    # writes the hand in canonical form with the "3." it was given
    case = str(CASES / "verdict-round-mismatch-fixed-by-fmt.gjn")
    assert run("validate", case)[0] == 1
    status, out, _ = run("fmt", case)
    assert status == 0
    assert _play(out) == "1. 1:33 2:- 3:- 4:- 5:- 6:-\n3. 1:44 2:- 3:- 4:- 5:- 6:-\n"
    f = tmp_path / "f.gjn"
    f.write_text(out, encoding="utf-8")
    status, _, err = run("validate", str(f))
    assert status == 1
    assert err.startswith(f"{f}:25:1: error[round-mismatch]: round number 3. does not fit: this is round 2\n")


def test_a_round_number_inside_a_round_is_kept_by_fmt(tmp_path):
    # "5." before 2:55, which answers 1:44 in round 2: fmt numbers round 2 and keeps the "5.",
    # which starts a line of its own
    case = str(CASES / "verdict-round-number-dropped-by-fmt.gjn")
    status, out, _ = run("fmt", case)
    assert status == 0 and _play(out) == "1. 1:33 2:- 3:- 4:- 5:- 6:-\n2. 1:44\n5. 2:55\n"
    f = tmp_path / "f.gjn"
    f.write_text(out, encoding="utf-8")
    status, _, err = run("validate", str(f))
    assert status == 1
    assert err.startswith(f"{f}:26:1: error[round-mismatch]: round number 5. does not fit: no new round starts here\n")


def test_import_keeps_the_round_numbers_of_the_json(tmp_path):
    # the JSON export of the hand above: "round": 5 on the eighth action (2:55) stays
    case = str(CASES / "verdict-round-dropped-by-import.jsonl")
    status, out, _ = run("import", case)
    assert status == 0 and _play(out) == "1. 1:33 2:- 3:- 4:- 5:- 6:-\n2. 1:44\n5. 2:55\n"
    assert validate(out) == [(1, [("round-mismatch", 7)])]


def test_a_round_number_after_the_end_is_kept(tmp_path):
    # examples/charter-hand.gjn ends in round 17 (action 68); "18. 2:33" after it is the
    # hand-over at action 69, and fmt and export → import keep its "18."
    case = CASES / "verdict-round-number-after-end.gjn"
    text = case.read_text(encoding="utf-8")
    assert validate(text) == [(1, [("hand-over", 69)])]
    assert fmt(text) == text  # the file is in canonical form, "18." and all
    assert export_import(text) == text
    status, out, _ = run("fmt", str(case))
    assert status == 0 and out.endswith("\n18. 2:33\n")


def test_a_round_number_after_a_hidden_turn_not_taken_is_kept():
    # seat 2 (cards unknown) might have answered 3:D; when seat 3 leads instead, "2." fits
    # (tests/test_hidden_cards.py): the number stays, on a line of its own
    text = (CASES / "verdict-round-after-hidden-turn.gjn").read_text(encoding="utf-8")
    assert validate(text) == [(0, [])]
    assert _play(fmt(text)) == "1. 1:5 2:- 3:D 4:- 5:- 6:- 1:-\n2. 3:6\n"
    assert _play(export_import(text)) == "1. 1:5 2:- 3:D 4:- 5:- 6:- 1:-\n2. 3:6\n"


@pytest.mark.parametrize("written", ["2. ^5:66 4:3333", "^5:66 4:3333", "^5:66 2. 4:3333"])
def test_a_ruled_lead_and_the_lead_made_after_it_are_one_round(written):
    # Failing input (issue 31): round 2 of examples/charter-hand.gjn is led by seat 4 (it won
    # round 1); seat 5 leads 66 out of turn first, marked ^: ruled not made (002 §8(5) 循序渐进),
    # and seat 4 leads 4:3333. One lead, so one "2." (fmt wrote "2. ^5:66" and "2. 4:3333" on two
    # lines); a number the record writes on the real lead is kept, and none added before it.
    text = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
    text = text.replace("\n2. 4:3333", "\n" + written, 1)
    assert validate(text) == [(0, [])]
    out = _play(fmt(text))
    round_two = [line for line in out.splitlines() if line.startswith("2. ")]
    assert len(round_two) == 1 and "\n3. 4:QQQQ" in out
    assert round_two[0].startswith("2. 4:3333" if written.startswith("^5:66 2.") else "2. ^5:66 4:3333")
    assert validate(fmt(text)) == validate(text)


@pytest.mark.parametrize("name", ["verdict-round-mismatch-fixed-by-fmt.gjn", "verdict-round-number-dropped-by-fmt.gjn"])
def test_export_then_import_keeps_the_verdict_of_the_cases(name, tmp_path):
    case = str(CASES / name)
    status, exported, _ = run("export", case)
    assert status == 0
    j = tmp_path / "x.jsonl"
    j.write_text(exported, encoding="utf-8")
    g = tmp_path / "g.gjn"
    assert run("import", str(j), "-o", str(g))[0] == 0
    assert run("validate", str(g))[0] == 1
    assert [v[0] for v in validate(g.read_text(encoding="utf-8"))] == [1]


def _cli_verdict(path) -> tuple[int, list]:
    """``gouji validate --format json PATH``: its exit status and, per hand, valid and its codes."""
    status, out, _ = run("validate", "--format", "json", str(path))
    rows = [json.loads(line) for line in out.splitlines()]
    codes = [(r.get("error", {}).get("code"), [e["code"] for e in r.get("match_errors", [])]) for r in rows]
    return status, [(r["valid"], *c) for r, c in zip(rows, codes)]


@pytest.mark.parametrize(
    "path",
    [*sorted(EXAMPLES.glob("*.gjn")), *sorted(CASES.glob("verdict-*.gjn"))],
    ids=lambda p: p.name,
)
def test_the_commands_keep_the_verdict_of_the_examples_and_cases(path, tmp_path):
    # the same promise through the commands themselves: fmt, and export then import
    want = _cli_verdict(path)
    formatted, exported, imported = tmp_path / "f.gjn", tmp_path / "x.jsonl", tmp_path / "i.gjn"
    assert run("fmt", str(path), "-o", str(formatted))[0] == 0
    assert run("export", str(path), "-o", str(exported))[0] == 0
    assert run("import", str(exported), "-o", str(imported))[0] == 0
    assert _cli_verdict(formatted) == want
    assert _cli_verdict(imported) == want
    assert imported.read_text(encoding="utf-8") == formatted.read_text(encoding="utf-8")


def test_a_hand_that_cannot_be_read_is_refused_with_the_error_validate_gives(tmp_path):
    # a Date tag given twice (line 4): validate, fmt and export all say so, in the same words, exit 2
    f = tmp_path / "dup.gjn"
    text = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
    f.write_text(text.replace('[Round "', '[Date "?"]\n[Round "', 1), encoding="utf-8")
    said = {}
    for command in ("validate", "fmt", "export"):
        status, out, err = run(command, str(f))
        assert status == 2 and out == "", command
        said[command] = err.splitlines()[0]
    assert said["validate"] == f"{f}:5:2: error[duplicate-tag]: tag Date is given twice"
    assert said["fmt"] == said["export"] == said["validate"]


def test_the_promise_is_a_files_hands_of_two_files_written_as_one_are_judged_as_one(tmp_path):
    # docs/notation.md §4: the first hand of examples/charter-match.gjn in two files is valid in
    # each; written to one file by fmt, the second is hand 2 of the match ("hand-missing")
    text = (EXAMPLES / "charter-match.gjn").read_text(encoding="utf-8")
    first = text[: text.index("[Notation ", 1)]  # (each hand starts with its version marker)
    a, b, c = tmp_path / "a.gjn", tmp_path / "b.gjn", tmp_path / "c.gjn"
    a.write_text(first, encoding="utf-8")
    b.write_text(first, encoding="utf-8")
    assert run("validate", str(a), str(b))[0] == 0
    assert run("fmt", str(a), str(b), "-o", str(c))[0] == 0
    status, _, err = run("validate", str(c))
    assert status == 1 and "error[hand-missing]" in err
