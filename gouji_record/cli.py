"""The ``gouji`` command line (命令行).

Exit codes, the same for every sub-command: 0 all is well; 1 a record is
readable but breaks the rules (an illegal action, a Result that disagrees
with the play) or ``fmt --check`` found a file not in canonical form; 2 a
file cannot be read (missing, not UTF-8, bad syntax, bad deal, unknown
ruleset) or the command line is wrong.
"""

from __future__ import annotations

import json
import os
from contextlib import nullcontext
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import click
from pydantic import BaseModel

from .canonical import canonical
from .model import GameRecord
from .notation.parser import NotationError, SourceMap, normalize_newlines, parse_text
from .notation.writer import write_all
from .replay import Replay, replay, ruleset_of
from .report import Problem, diagnostic_problem
from .rules.cards import CardError
from .rules.plays import PlayError, parse_play
from .rules.rulesets import (
    OPTION_NAMES,
    PRESETS,
    RULES,
    BadOption,
    Ruleset,
    UnknownRuleset,
    get_ruleset,
    option_rule,
)

EXIT_OK, EXIT_ILLEGAL, EXIT_UNREADABLE = 0, 1, 2


class Unreadable(Exception):
    """A file that cannot be read as records; carries the located :class:`Problem`
    and the file's lines (``None`` when it has none to show)."""

    def __init__(self, problem: Problem, lines: list[str] | None = None) -> None:
        super().__init__(problem.message)
        self.problem = problem
        self.lines = lines


@dataclass
class Loaded:
    """A file read and parsed: its text as read, its lines, and each hand with its source map."""

    path: str
    text: str
    lines: list[str]
    hands: list[tuple[GameRecord, SourceMap]]


def _read_bytes(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except IsADirectoryError:
        raise Unreadable(Problem(path, 0, 0, "unreadable", "is a directory, not a .gjn file")) from None
    except OSError as e:
        raise Unreadable(Problem(path, 0, 0, "unreadable", f"cannot read the file: {e.strerror or e}")) from None


def _decode(path: str, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[line_start : e.start].decode("utf-8", errors="replace")) + 1
        raise Unreadable(
            Problem(
                path,
                line,
                column,
                "encoding",
                f"not UTF-8 text: byte 0x{data[e.start]:02x} cannot start a UTF-8 character "
                "(is the file GB18030/GBK? save it as UTF-8)",
            )
        ) from None


def load(path: str) -> Loaded:
    """Read and parse ``path`` (``-`` for standard input).

    Raises :class:`Unreadable` with a located problem for a missing file, a
    directory, text that is not UTF-8, or text that is not a record.
    """
    text = _decode(path, _read_bytes(path))
    lines = normalize_newlines(text).split("\n")
    try:
        hands = parse_text(text)
    except NotationError as e:
        raise Unreadable(Problem(path, e.line, e.column, e.code, e.message), lines) from None
    if not hands:
        raise Unreadable(Problem(path, 1, 1, "empty", 'no hand in the file: expected tags like [Event "…"]'), lines)
    return Loaded(path, text, lines, hands)


def _ruleset_for(loaded: Loaded, record: GameRecord, where: SourceMap, override: Ruleset | None) -> Ruleset:
    """The ruleset to replay ``record`` under: ``override`` or its Ruleset tag, with its Options tag."""
    try:
        return ruleset_of(record, override)
    except UnknownRuleset as e:
        line, column = where.tags["Ruleset"]
        raise Unreadable(Problem(loaded.path, line, column, "unknown-ruleset", str(e)), loaded.lines) from None
    except BadOption as e:
        line, column = where.tags["Options"]
        raise Unreadable(Problem(loaded.path, line, column, "bad-option", str(e)), loaded.lines) from None


def _fail(problem: Problem, lines: list[str] | None = None) -> None:
    click.secho(problem.format(lines), fg="red", err=True)


def _ruleset_option(value: str | None) -> Ruleset | None:
    if value is None:
        return None
    try:
        return get_ruleset(value)
    except UnknownRuleset as e:
        raise click.BadParameter(str(e), param_hint="--ruleset") from None


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gouji-record")
def main() -> None:
    """Record, check and replay hands of 够级 (Gouji).

    Records are .gjn files (docs/notation.md). Exit codes: 0 valid, 1 a rule
    is broken, 2 a file cannot be read or the command line is wrong.
    """


ruleset_opt = click.option(
    "--ruleset",
    "ruleset_name",
    metavar="NAME",
    help=f"Replay under this ruleset instead of the record's Ruleset tag ({', '.join(PRESETS)}).",
)
file_arg = click.argument("file", type=click.Path(allow_dash=True))


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@ruleset_opt
@click.option("-q", "--quiet", is_flag=True, help="Print only problems.")
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Check hands in this many worker processes; reports keep file order.",
)
@click.option(
    "--format",
    "fmt_",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: one JSON object per hand on standard output (JSON Lines).",
)
def validate(files: tuple[str, ...], ruleset_name: str | None, quiet: bool, jobs: int, fmt_: str) -> None:
    """Replay each hand in FILES and check every action against the rules.

    Prints, for a valid hand, the ruleset, places 头科…大落, team scores and
    counts of 够级 plays, 开点 and burns; for the first illegal action of a
    hand, FILE:LINE:COL: error[CODE] with the line, a caret and the rule's
    source. A bad hand does not stop the others. Large files are read hand
    by hand; a progress bar shows on a terminal. Exit 0 if all is valid, 1
    if a rule is broken, 2 if a file or a hand cannot be read.
    """
    from .batch import OK, check_file, with_matches

    if ruleset_name is not None:
        _ruleset_option(ruleset_name)
    status = EXIT_OK
    for path in files:
        size = 0 if path == "-" else _size(path)
        shown = size > 1 << 20 and sys.stderr.isatty()  # a library's bar, on a terminal only
        bar_context = click.progressbar(length=size, file=sys.stderr, label=Path(path).name) if shown else nullcontext()
        with bar_context as bar:
            reports = with_matches(
                check_file(
                    path,
                    ruleset_name,
                    jobs=jobs,
                    quiet=quiet,
                    stdin_bytes=sys.stdin.buffer if path == "-" else None,
                    progress=bar.update if bar else None,
                )
            )
            for report in reports:
                status = max(status, report.status)
                if fmt_ == "json":
                    click.echo(json.dumps(report.data, ensure_ascii=False))
                elif report.status != OK:
                    click.secho(report.text, fg="red", err=True)
                elif report.text:
                    click.echo(report.text)
    sys.exit(status)


def _size(path: str) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8, LF) to ``path`` so that readers see the old file or the new one, never half.

    A symbolic link is followed: its target is replaced, the link kept. A new
    file gets the usual permissions. Raises ``OSError`` if the directory is not writable.
    """
    target = Path(path).resolve()
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _same_file(a: str, b: str) -> bool:
    return a != "-" and b != "-" and Path(a).resolve() == Path(b).resolve()


def _output(text: str, output: str | None) -> None:
    if output is None or output == "-":
        click.echo(text, nl=False)
        return
    try:
        write_atomic(output, text)
    except OSError as e:
        _fail(Problem(output, 0, 0, "unwritable", f"cannot write the file: {e.strerror or e}"))
        sys.exit(EXIT_UNREADABLE)


def _no_overwrite(inputs: tuple[str, ...], output: str | None) -> None:
    if output and any(_same_file(i, output) for i in inputs):
        raise click.UsageError(f"-o {output} is an input file: it would be overwritten")


def _replay_one(file: str, hand_number: int, override: Ruleset | None) -> tuple[Loaded, GameRecord, SourceMap, Replay]:
    """Load ``file`` and replay its hand number ``hand_number`` (1-based); exit 2 if it cannot be read."""
    try:
        loaded = load(file)
        if hand_number > len(loaded.hands):
            raise click.BadParameter(f"{file} has {len(loaded.hands)} hand(s)", param_hint="--hand")
        rec, where = loaded.hands[hand_number - 1]
        return loaded, rec, where, replay(rec, _ruleset_for(loaded, rec, where, override))
    except Unreadable as e:
        _fail(e.problem, e.lines)
        sys.exit(EXIT_UNREADABLE)


def _canonical(loaded: Loaded, record: GameRecord, where: SourceMap) -> GameRecord:
    """``record`` with its rounds numbered by the engine."""
    return canonical(replay(record, _ruleset_for(loaded, record, where, None)))


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--check", is_flag=True, help="Print nothing; exit 1 if a FILE is not in canonical form.")
@click.option("--in-place", is_flag=True, help="Rewrite each FILE in canonical form (atomically).")
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), help="Write to this file, not standard output."
)
def fmt(files: tuple[str, ...], check: bool, in_place: bool, output: str | None) -> None:
    """Print FILES in canonical form: tags in export order, cards sorted
    strongest first, one numbered round per line, lines of at most 80 columns,
    LF line ends.

    A FILE is never changed unless --in-place is given.
    """
    if sum((check, in_place, output is not None)) > 1:
        raise click.UsageError("--check, --in-place and --output go one at a time")
    if in_place and "-" in files:
        raise click.UsageError("--in-place rewrites files: standard input (-) cannot be rewritten")
    _no_overwrite(files, output)
    status, texts = EXIT_OK, []
    for path in files:
        try:
            loaded = load(path)
            text = write_all(_canonical(loaded, rec, where) for rec, where in loaded.hands)
        except Unreadable as e:
            _fail(e.problem, e.lines)
            status = EXIT_UNREADABLE
            continue
        if check:
            if loaded.text != text:
                click.echo(f"{path}: not in canonical form", err=True)
                status = max(status, EXIT_ILLEGAL)
        elif in_place:
            if loaded.text != text:
                _output(text, path)
        else:
            texts.append(text)
    if texts:
        _output("\n".join(texts), output)
    sys.exit(status)


@main.command()
@file_arg
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    required=True,
    help="The HTML file to write (- for standard output).",
)
@ruleset_opt
@click.option(
    "--hand",
    "hand_number",
    type=click.IntRange(min=1),
    default=None,
    help="Render only this hand of FILE (1 is the first). Default: every hand.",
)
@click.option(
    "--lang",
    type=click.Choice(["zh", "en"]),
    default="zh",
    show_default=True,
    help="The page's language at opening (中文 or English); the page has a toggle.",
)
@click.option(
    "--seat",
    type=click.IntRange(0, 6),
    default=0,
    show_default=True,
    help="The view at opening: 0 shows every hand face up, 1-6 only that seat's own hand.",
)
def render(file: str, output: str, ruleset_name: str | None, hand_number: int | None, lang: str, seat: int) -> None:
    """Render FILE as one self-contained HTML replay page.

    Every hand of FILE goes into the one page, with a hand selector at the
    top when there are several (--hand N renders only hand N). The page
    inlines its style and script and makes no network request: open it from
    disk, on a phone or a desktop. It shows the table, the current round, the
    actions with their comments, a timeline of events citing their rules and
    a chart of cards left; 中文 / English and the seat view are toggles.

    Keys: ← → step, Home/End, space autoplays, n/p jump to the next/previous
    event. Deep links: hand.html#a=57 opens at action 57 (#h=2&a=57 in hand 2
    of several); the address follows as you step.

    A hand with an illegal action replays up to it, marks it and shows the
    diagnostic with its rule's source; the command says so on standard error
    (exit status 0: the page was written).
    """
    from .render.html import render_replays

    override = _ruleset_option(ruleset_name)
    _no_overwrite((file,), output)
    try:
        loaded = load(file)
        if hand_number is not None and hand_number > len(loaded.hands):
            raise click.BadParameter(f"{file} has {len(loaded.hands)} hand(s)", param_hint="--hand")
        chosen = loaded.hands if hand_number is None else [loaded.hands[hand_number - 1]]
        results = [(replay(rec, _ruleset_for(loaded, rec, where, override)), where) for rec, where in chosen]
    except Unreadable as e:
        _fail(e.problem, e.lines)
        sys.exit(EXIT_UNREADABLE)
    hands = []
    for result, where in results:
        problem = None
        if result.diagnostic is not None:
            problem = diagnostic_problem(Path(file).name, result.diagnostic, where, loaded.lines)
            click.secho(f"note: the replay stops at an illegal action\n{problem.format(loaded.lines)}", err=True)
        hands.append((result, problem))
    _output(render_replays(hands, loaded.lines, lang=lang, seat=seat), output)


def _json(data: object) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


format_opt = click.option(
    "--format", "fmt_", type=click.Choice(["text", "json"]), default="text", show_default=True, help="Output format."
)


@main.command()
@click.argument("name", required=False)
@format_opt
def rules(name: str | None, fmt_: str) -> None:
    """Show the rulesets: every option with its value in each preset and its source.

    With NAME, only that preset. Options are overridden in a record with a
    tag like [Options "threes-last=yes, hand-end=one-left"] (docs/rules.md).
    """
    presets = [_ruleset_option(name)] if name else list(PRESETS.values())
    assert all(presets)
    if fmt_ == "json":
        _json(
            [
                {
                    "name": r.name,
                    "title": r.title,
                    "seed": r.seed,
                    "options": {
                        o.replace("_", "-"): {
                            "value": getattr(r, o).model_dump() if o == "scoring" else getattr(r, o),
                            "rule": option_rule(o),
                            "source": r.cite(option_rule(o)),
                        }
                        for o in OPTION_NAMES
                    },
                    "sources": {k: r.cite(k) for k in r.sources},
                }
                for r in presets
            ]
        )
        return
    for r in presets:
        click.echo(f"{r.name}: {r.title} — {r.seed}")
    click.echo("")
    width = max(len(o) for o in OPTION_NAMES) + 1
    for o in OPTION_NAMES:
        desc = Ruleset.model_fields[o].description or ""
        click.secho(f"{o.replace('_', '-'):<{width}} {desc}", bold=True)
        for r in presets:
            value = getattr(r, o)
            shown = _show_value(value)
            click.echo(f"  {r.name:<11} {shown:<28} {r.cite(option_rule(o))}")


def _show_value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return "+".join(map(str, value)) or "none"
    if isinstance(value, dict):
        return " ".join(f"{k}{v}" for k, v in value.items())
    if isinstance(value, BaseModel):
        d = value.model_dump()
        extras = {k: v for k, v in d.items() if k not in {"places", "sweep", "positive_only"} and v}
        text = f"{'/'.join(map(str, d['places']))} sweep {d['sweep'][0]}/{d['sweep'][1]}"
        text += " positive-only" if d["positive_only"] else ""
        return text + "".join(
            f" {k}{v:+d}" if isinstance(v, int) and not isinstance(v, bool) else f" {k}" for k, v in extras.items()
        )
    return str(value)


@main.command()
@click.argument("top")
@click.argument("play")
@ruleset_opt
@format_opt
def beats(top: str, play: str, ruleset_name: str | None, fmt_: str) -> None:
    """Whether PLAY beats TOP (e.g. `gouji beats X77 D88`), and why.

    Says which rule decides and its source, and whether each play is a 够级
    play (and a pure one). Exit 0 when PLAY beats TOP, 1 when not, 2 when a
    play is malformed. The ruleset defaults to charter.
    """
    from .rules.plays import beats as beats_, is_gouji, is_pure_gouji

    rules = _ruleset_option(ruleset_name) or get_ruleset("charter")
    parsed = []
    for label, text in (("TOP", top), ("PLAY", play)):
        try:
            parsed.append(parse_play(text))
        except (CardError, PlayError) as e:
            click.secho(f"{label} {text!r}: {e}", fg="red", err=True)
            sys.exit(EXIT_UNREADABLE)
    a, b = parsed
    verdict = beats_(a, b, rules)
    info = {
        "ruleset": rules.name,
        "top": {"cards": str(a), "gouji": is_gouji(a, rules), "pure": is_pure_gouji(a, rules)},
        "play": {"cards": str(b), "gouji": is_gouji(b, rules), "pure": is_pure_gouji(b, rules)},
        "beats": verdict.ok,
        "rule": verdict.rule,
        "reason": verdict.reason,
        "source": rules.cite(verdict.rule),
    }
    if fmt_ == "json":
        _json(info)
    else:
        click.echo(f"{'yes' if verdict.ok else 'no'}: {verdict.reason} ({rules.name})")
        click.echo(f"  rule: {RULES[verdict.rule][0]} ({RULES[verdict.rule][1]}) — {info['source']}")
        for key in ("top", "play"):
            p = info[key]
            kind = "pure 够级 play" if p["pure"] else "够级 play" if p["gouji"] else "not a 够级 play"
            click.echo(f"  {p['cards']}: {kind}")
    sys.exit(EXIT_OK if verdict.ok else EXIT_ILLEGAL)


@main.command()
@file_arg
@click.option(
    "--at",
    "at",
    type=click.IntRange(min=0),
    required=True,
    help="After this many actions (pre-play declarations count; 0 = before the first).",
)
@click.option(
    "--hand", "hand_number", type=click.IntRange(min=1), default=1, show_default=True, help="Which hand of FILE."
)
@click.option("--seat", type=click.IntRange(1, 6), help="Only this seat's actions.")
@ruleset_opt
@format_opt
def moves(file: str, at: int, hand_number: int, seat: int | None, ruleset_name: str | None, fmt_: str) -> None:
    """List the legal actions after action N of a hand: the seat to act's
    plays, pass and yield, and the burns other seats could claim, in claim
    order — "could seat 4 have burned here?" answered by the rules.
    """
    from .rules.moves import legal_actions

    override = _ruleset_option(ruleset_name)
    loaded, rec, where, result = _replay_one(file, hand_number, override)
    total = len(rec.all_actions)
    if at > total:
        raise click.BadParameter(f"the hand has {total} actions", param_hint="--at")
    if at >= len(result.positions):
        problem = diagnostic_problem(file, result.diagnostic, where, loaded.lines) if result.diagnostic else None
        click.secho(f"action {len(result.positions)} is illegal: the replay stops there", fg="red", err=True)
        if problem:
            _fail(problem, loaded.lines)
        sys.exit(EXIT_ILLEGAL)
    pos = result.positions[at]
    actions = legal_actions(pos, seat)
    if fmt_ == "json":
        _json(
            {
                "after": at,
                "to_act": pos.to_act,
                "round": pos.round,
                "top": None if pos.top is None else {"seat": pos.top.seat, "cards": str(pos.top.play)},
                "actions": [a.text for a in actions],
            }
        )
        return
    if pos.over:
        click.echo(f"after action {at}: the hand is over")
        return
    top = f"top {pos.top.play} by seat {pos.top.seat}" if pos.top else "a new round: the seat to act leads"
    click.echo(f"after action {at}: round {pos.round}, {top}; seat {pos.to_act} to act")
    burns = [a for a in actions if a.burn]
    own = [a for a in actions if not a.burn]
    click.echo(f"  seat {pos.to_act if seat is None else seat}: " + (" ".join(a.text for a in own) or "nothing"))
    by_seat: dict[int, list[str]] = {}
    for a in burns:
        by_seat.setdefault(a.seat, []).append(a.text)
    for s, texts in by_seat.items():
        click.echo(f"  burn by seat {s}: " + " ".join(texts))
    if pos.top is not None and not burns and seat is None:
        click.echo("  no seat can burn")


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option(
    "--format",
    "fmt_",
    type=click.Choice(["json"]),
    default="json",
    show_default=True,
    help="json: one object per hand (JSON Lines), the record model; `gouji schema` describes it.",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), help="Write to this file.")
def export(files: tuple[str, ...], fmt_: str, output: str | None) -> None:
    """Export the hands of FILES as JSON, one object per hand; `gouji import` reads it back with no loss."""
    _no_overwrite(files, output)
    out = []
    for path in files:
        try:
            loaded = load(path)
        except Unreadable as e:
            _fail(e.problem, e.lines)
            sys.exit(EXIT_UNREADABLE)
        out += [json.dumps(rec.model_dump(mode="json"), ensure_ascii=False) for rec, _ in loaded.hands]
    _output("".join(line + "\n" for line in out), output)


@main.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), help="Write to this file.")
def import_(file: str, output: str | None) -> None:
    """Convert FILE to canonical .gjn: JSON Lines of records (from `gouji export`), or a
    platform's event log (docs/events-log.md), told apart by their first object.
    """
    from .interchange import EventLogError, RecordJSONError, read_records

    _no_overwrite((file,), output)
    try:
        text = _decode(file, _read_bytes(file))
    except Unreadable as e:
        _fail(e.problem)
        sys.exit(EXIT_UNREADABLE)
    try:
        records = read_records(text, file)
    except (EventLogError, RecordJSONError) as e:
        _fail(Problem(file, e.line, 1, "bad-log", e.message))
        sys.exit(EXIT_UNREADABLE)
    if not records:
        _fail(Problem(file, 1, 1, "empty", "no hand in the file"))
        sys.exit(EXIT_UNREADABLE)
    _output(write_all([canonical(replay(rec)) for rec in records]), output)


@main.command()
def schema() -> None:
    """Print the JSON Schema of the records `gouji export` writes and `gouji import` reads."""
    _json(GameRecord.model_json_schema())


@main.command()
@ruleset_opt
@click.option("--seed", type=int, default=1, show_default=True, help="Seed: the same seed gives the same hands.")
@click.option("--hands", "count", type=click.IntRange(min=1), default=1, show_default=True, help="How many hands.")
@click.option("--match", "as_match", is_flag=True, help="Play the hands as one match, paying tribute between them.")
@click.option(
    "--bot",
    type=click.Choice(["person", "random"]),
    default="person",
    show_default=True,
    help="person: plays like a person (keeps gouji plays, burns, opens); random: any legal action.",
)
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), help="Write to this file.")
def selfplay(ruleset_name: str | None, seed: int, count: int, as_match: bool, bot: str, output: str | None) -> None:
    """Deal and play whole hands with bots, reproducibly, and write them as canonical .gjn.

    Every hand is legal under its ruleset (the bots choose among the engine's legal actions), so the
    output validates. With --match the hands form a match: tribute and first lead follow the rules.
    """
    from .selfplay import play_hand, play_match

    rules = _ruleset_option(ruleset_name) or get_ruleset("charter")
    if as_match:
        records = play_match(rules, seed, count, bot)
    else:
        records = [play_hand(rules, seed * 100_003 + n, bot) for n in range(count)]
    _output(write_all(_canonical_records(records)), output)


def _canonical_records(records: list[GameRecord]) -> list[GameRecord]:
    return [canonical(replay(r)) for r in records]


if __name__ == "__main__":  # python -m gouji_record.cli
    main()
