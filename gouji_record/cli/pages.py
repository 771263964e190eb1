"""The replay page (复盘页面): ``gouji render``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import click

from ..judging.replay import Replay, RulesetOverride, replay
from ..judging.report import Problem, diagnostic_problem, printable
from ..matches.verdict import MatchJudge
from ..running.sink import Sink, same_file
from .common import (
    EXIT_UNREADABLE,
    _fail,
    _no_overwrite,
    _records,
    _ruleset_for,
    encoding_opt,
    file_arg,
    force_opt,
    ruleset_opt,
)


@click.command()
@file_arg
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="The HTML file to write (- for standard output). Default: FILE's name with .html for its "
    "suffix, beside it (hand.gjn: hand.html); standard output when FILE is -.",
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
@click.option(
    "--review",
    "reviewed",
    is_flag=True,
    help="Add a timeline lane with the findings of gouji review: burns not taken, answers not made, "
    "openings missed, yields, 3s and 闷 (点评).",
)
@click.option(
    "--split",
    "split_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Write one page per hand into this directory (hand-0001.html …) and index.html, a list of the "
    "hands with a finder (by number, event or player): a large file opens fast a hand at a time.",
)
@force_opt
@encoding_opt
def render(
    file: str,
    output: str | None,
    override: RulesetOverride | None,
    hand_number: int | None,
    lang: str,
    seat: int,
    reviewed: bool,
    split_dir: str | None,
    force: bool,
    encoding: str | None,
) -> None:
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
    (exit status 0: the page was written). FILE - reads standard input.
    """
    from ..render.html import render_replays

    if split_dir is not None:
        if output is not None:
            raise click.UsageError("--split writes a directory of pages: give it or -o, not both")
        if file == "-":
            raise click.UsageError("--split reads a file, not standard input")
    elif output is None:
        output = "-" if file == "-" else str(_html_beside(file))
        if file != "-" and same_file(file, output):  # hand.html given as FILE: never written over
            raise click.UsageError(f"{file} ends in .html: the page would overwrite it; give -o")
    _no_overwrite((file,), output)

    unreadable = []

    judge = MatchJudge()  # the page's match overview judges each hand within its match, as validate

    def hands() -> Iterator[tuple[Replay, Problem | None]]:
        """Each hand replayed as it is read: the page holds one hand at a time. A hand that
        cannot be read is reported and left out (the page is then not written)."""
        count = 0
        for hand in _records(file, encoding=encoding):
            if hand.hand is not None:
                count = hand.hand.index
            if hand_number is not None and hand.hand is not None and count != hand_number:
                if count < hand_number:  # the hands before it: its match's verdict reads them
                    rules = hand.problem or _ruleset_for(hand, override)
                    if isinstance(rules, Problem):
                        judge.interrupt()
                    else:
                        judge.judge(replay(hand.record, rules, every_position=False))
                continue
            rules = hand.problem or _ruleset_for(hand, override)
            if isinstance(rules, Problem):
                _fail(rules, hand.lines())
                unreadable.append(rules)
                continue
            result = replay(hand.record, rules)
            problem = None
            if result.diagnostic is not None:
                lines = hand.lines()
                problem = diagnostic_problem(Path(file).name, result.diagnostic, hand.where, lines).quoting(lines)
                click.secho(printable(f"note: the replay stops at an illegal action\n{problem.format()}"), err=True)
            yield result, problem
        if hand_number is not None and count < hand_number:
            raise click.BadParameter(f"{file} has {count} hand(s)", param_hint="--hand")

    if split_dir is not None:
        _split(file, split_dir, hands(), lang=lang, seat=seat, review=reviewed, judge=judge, force=force)
        if unreadable:
            sys.exit(EXIT_UNREADABLE)
        return
    with Sink(output, force=force) as out:
        try:
            render_replays(hands(), lang=lang, seat=seat, review=reviewed, out=out, judge=judge, source=_source(file, hand_number, encoding))
        except ValueError:
            if not unreadable:
                raise
            # nothing to render: every hand was unreadable, and each was reported
        if unreadable:
            out.abandon()
    if unreadable:
        sys.exit(EXIT_UNREADABLE)


def _html_beside(file: str) -> Path:
    """The page ``render`` writes for ``file`` when no ``-o`` is given: beside it, its suffix
    made ``.html`` (``a/hand.gjn`` → ``a/hand.html``, ``hand`` → ``hand.html``)."""
    path = Path(file)
    return path.with_suffix(".html") if path.suffix else path.with_name(path.name + ".html")


def _split(
    file: str,
    directory: str,
    hands: Iterator[tuple[Replay, Problem | None]],
    *,
    lang: str,
    seat: int,
    review: bool,
    judge: MatchJudge,
    force: bool,
) -> None:
    """``render --split``: each hand's own page (``hand-0001.html`` …, each written whole or not at
    all) and ``index.html`` listing them, written last. The hands of a match are judged within it,
    as on the one page."""
    from ..render.html import index_entry, render_index, render_replays

    folder = Path(directory)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise click.FileError(directory, hint=e.strerror or str(e)) from None
    entries = []
    for n, (result, problem) in enumerate(hands, start=1):
        name = f"hand-{n:04d}.html"
        with Sink(str(folder / name), force=force) as out:
            render_replays([(result, problem)], lang=lang, seat=seat, review=review, out=out, judge=judge, index="index.html")
        entries.append(index_entry(result, name, n))
    if entries:
        with Sink(str(folder / "index.html"), force=force) as out:
            out.write(render_index(entries, title=Path(file).name, lang=lang))


def _source(file: str, hand_number: int | None, encoding: str | None) -> tuple[str, Iterator[str]] | None:
    """The record the page carries as a download: FILE's name and its text in pieces (as
    ``read_text`` would give it, line ends made LF), when the page holds all of it (not standard
    input, not ``--hand``) and it can be read as text; else ``None``. The file is read once through
    here, to check it decodes, and once again as the page is written: never held whole."""
    if file == "-" or hand_number is not None:
        return None
    try:
        for _ in _text_pieces(file, encoding):
            pass
    except (OSError, UnicodeDecodeError, LookupError):
        return None
    return Path(file).name, _text_pieces(file, encoding)


def _text_pieces(file: str, encoding: str | None) -> Iterator[str]:
    """The text of ``file`` in ``encoding`` (UTF-8, a byte-order mark dropped), 1 MiB characters a piece."""
    with open(file, encoding=encoding or "utf-8-sig") as f:
        while piece := f.read(1 << 20):
            yield piece
