"""Many hands (多局): ``gouji stats``, ``gouji filter`` and ``gouji review``."""

from __future__ import annotations

import io
import json
import os
import re
import sys

import click

from ..analysis.review import GROUPS, KINDS
from ..analysis.selection import ROLES
from ..errors import NotationError
from ..judging.replay import RulesetOverride
from ..judging.report import Problem, printable
from ..running.batch import located
from ..running.cluster import close as close_client
from ..running.sink import Sink
from ..width import columns
from .common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    EXIT_UNREADABLE,
    _cluster_runner,
    _each_hand,
    _fail,
    _no_overwrite,
    _ruleset_option,
    _stdin,
    check_hand_count,
    dask_opt,
    encoding_opt,
    force_opt,
    format_opt,
    hand_opt,
    jobs_opt,
    kind_opt,
    output_opt,
    ruleset_opt,
)


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option(
    "--by",
    type=click.Choice(["player", "seat", "team", "ruleset", "opposite", "partner"]),
    default="player",
    show_default=True,
    help="One row per player (Seat tags), seat, team or ruleset; opposite: one per player and each "
    "opposite it faced (对头, head to head); partner: one per player and each team-mate.",
)
@click.option(
    "--format",
    "fmt_",
    type=click.Choice(["text", "json", "csv", "html"]),
    default="text",
    show_default=True,
    help="Output format; html: one self-contained page with the table and charts.",
)
@click.option(
    "--lang",
    type=click.Choice(["zh", "en"]),
    default="zh",
    show_default=True,
    help="The language of the html page (中文 or English).",
)
@click.option(
    "--review",
    "reviewed",
    is_flag=True,
    help="Also review every hand (as gouji review does, the whole table's view) and count each row's "
    "decisions (决策), chances missed (失机) and missed per 100 decisions. Slower: every position is kept.",
)
@ruleset_opt
@jobs_opt("Count")
@output_opt
@force_opt
@encoding_opt
@dask_opt
def stats(
    files: tuple[str, ...],
    by: str,
    fmt_: str,
    lang: str,
    reviewed: bool,
    override: RulesetOverride | None,
    jobs: int,
    output: str | None,
    force: bool,
    encoding: str | None,
    dask_address: str | None,
) -> None:
    """Count over the hands of FILES, per player, seat, team or ruleset: places 头科 … 大落, points,
    开点, 够级 plays made and answered, burns by outcome, 闷, revolutions, tribute, illegal actions.

    Every hand is replayed by the engine; one that stops at an illegal action counts up to it (and
    counts the illegal action against its seat). Hands are read one at a time, and counted in
    --jobs worker processes if asked. A hand that cannot be read is reported and left out; the
    exit status is then 2. --format html writes one self-contained page (in --lang): the table,
    and charts of places per row, of the team points over the hands of each match (Match tag)
    and of burns by outcome. FILE - reads standard input.
    With --dask the hands are counted on a Dask cluster: the same table.

    Over a ruleset, points are those of each hand's winning team (the higher of the two teams'
    scores). --by opposite and --by partner count pairs of players (Seat tags): for each player
    and each opposite it faced (对头: seats 1-4, 2-5, 3-6), or each team-mate (1-3-5, 2-4-6), the
    hands together and, over finished hands, its team's wins (more points than the other team),
    losses, ties, points, the player's places, and how often it placed ahead of the other (as a
    page too: the table and the player's places). --review adds each row's decisions, chances
    missed and missed per 100 decisions (the review's own counts), on the page too.
    """
    import csv
    from functools import partial

    from ..analysis.stats import COLUMNS, PAIR_BY, PAIR_COLUMNS, REVIEW_COLUMNS, Pairs, Stats, cell, hand_stats, settle

    pairs = by in PAIR_BY
    if pairs and reviewed:
        raise click.UsageError("--review counts per player, seat, team or ruleset: not with --by opposite or partner")
    _no_overwrite(files, output)
    table, bad = (Pairs(by) if pairs else Stats(by)), []  # type: ignore[arg-type]
    runner, client = _cluster_runner(dask_address, jobs)
    try:
        for counted in _each_hand(partial(hand_stats, by=by, reviewed=reviewed), files, encoding, override, jobs, bad, runner, settle):
            table.merge(counted)
    finally:
        if client is not None:
            close_client(client)
    status = EXIT_UNREADABLE if bad else EXIT_OK
    rows = table.table()
    keys = ["player", by] if pairs else [by]
    cols = PAIR_COLUMNS if pairs else COLUMNS + (REVIEW_COLUMNS if reviewed else ())

    def key_of(t) -> list[str]:
        return [t.player, t.other] if pairs else [t.key]

    with Sink(output, force=force) as out:
        if fmt_ == "html":
            from ..render.stats_page import render_stats

            out.write(render_stats(table, lang=lang, columns=cols))
        elif fmt_ == "json":
            data = [t.as_dict(by) if pairs else t.as_dict() for t in rows]  # type: ignore[call-arg]
            out.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        elif fmt_ == "csv":
            buffer = io.StringIO()
            writer = csv.writer(buffer, lineterminator="\n")
            writer.writerow(keys + [name for _, name in cols])
            for t in rows:
                writer.writerow(key_of(t) + [cell(t, name) for _, name in cols])
            out.write(buffer.getvalue())
        else:
            head = keys + [title for title, _ in cols]
            body = [[printable(k) for k in key_of(t)] + [cell(t, name) for _, name in cols] for t in rows]
            widths = [max(columns(r[i]) for r in [head, *body]) for i in range(len(head))]
            for r in [head, *body]:
                out.write(
                    "  ".join(
                        (c + " " * (w - columns(c))) if i < len(keys) else (" " * (w - columns(c)) + c)
                        for i, (c, w) in enumerate(zip(r, widths))
                    ).rstrip()
                    + "\n"
                )
    sys.exit(status)


@click.command(name="filter")
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("--player", "players", multiple=True, metavar="NAME", help="A player at some seat (Seat tags); repeat for any of several.")
@click.option(
    "--seat",
    "seats",
    multiple=True,
    type=click.IntRange(1, 6),
    metavar="S",
    help="The seat --has is about (with --player: the player sat there); repeat for any of several.",
)
@click.option("--ruleset", "rulesets", multiple=True, metavar="NAME", help="The hand's ruleset; repeat for any of several.")
@click.option("--event", metavar="TEXT", help="The Event tag contains TEXT (any case).")
@click.option("--from", "date_from", metavar="YYYY.MM.DD", help="Dated on or after (Date tag).")
@click.option("--to", "date_to", metavar="YYYY.MM.DD", help="Dated on or before (Date tag).")
@kind_opt(
    "--has",
    "has",
    "The hand has an event of KIND; repeat: all of them. With --player or --seat, an event of that player's "
    "(seat's) own; breaks-burn and smothers, the other seat of burn-broken and smother.",
    also=tuple(ROLES),
)
@click.option("--anyone", is_flag=True, help="--has counts any seat's events, not only those of --player or --seat.")
@click.option("--valid/--invalid", "valid", default=None, help="Only hands that replay without (with) an illegal action.")
@click.option("--count", is_flag=True, help="Print how many hands are selected, not the hands.")
@click.option(
    "--unique",
    "repeats",
    flag_value="unique",
    help="Leave out a hand that is the same deal and actions as one kept before it, whatever their tags "
    "and comments (pgn-extract -D): each game once.",
)
@click.option(
    "--duplicates",
    "repeats",
    flag_value="duplicates",
    help="Only the hands that are the same deal and actions as one selected before them (pgn-extract -d).",
)
@jobs_opt("Pick")
@output_opt
@force_opt
@encoding_opt
def filter_(
    files: tuple[str, ...],
    players: tuple[str, ...],
    seats: tuple[int, ...],
    rulesets: tuple[str, ...],
    event: str | None,
    date_from: str | None,
    date_to: str | None,
    has: tuple[str, ...],
    anyone: bool,
    valid: bool | None,
    count: bool,
    repeats: str | None,
    jobs: int,
    output: str | None,
    force: bool,
    encoding: str | None,
) -> None:
    """Pick the hands of FILES that match every test given (as pgn-extract picks games), and write
    each exactly as read, comments kept; or --count them.

    The tag tests (--player, --ruleset, --event, --from, --to) come first; a hand they keep is
    replayed under its Ruleset and Options tags when --has, --valid or --invalid asks, in --jobs
    worker processes if asked (the hands come out in file order all the same). With --valid or
    --invalid the hands of a match are replayed whatever their tags: the verdict of the next
    hand reads them. A hand that cannot be read is reported and not selected; the exit status
    is then 2. FILE - reads standard input.

    --unique keeps each game once: a hand dealt and played as one selected before it (the same
    deal and the same actions, whatever the tags, comments and round numbers) is left out;
    --duplicates keeps only those. Each hand is remembered by a 16-byte digest: a file of any
    size is read as a stream.

    With --player or --seat, --has asks what that player's seat did (--anyone: any seat). An
    event belongs to the seat that acts: the one that made a 够级 play (gouji, dead-gouji,
    unbeatable), answered it (answer), burned (burn, counter-burn), opened (open,
    open-qualified, open-given-up, natural-opening), won a round (round-end), took a place
    (finish, placed, out), took the wind, revolted, kept a head, gave cards (give), called,
    showed, drew, claimed, or whose action was ruled on (ruling); headless: the seat made
    headless. Others: a burn's end
    (burn-success, burn-failure, burn-broken) is the burner's, breaks-burn the seat that broke it;
    smother the smothered seat's, smothers the seat whose play smothered it; melee,
    sweep, hand-end and void-hand every seat they concern (still in play, the sweeping team,
    all, the revolters).
    """
    from ..analysis.selection import Selection

    for name in rulesets:
        _ruleset_option(name)
    chosen = Selection(
        players=players,
        rulesets=tuple(r.lower() for r in rulesets),
        event=event,
        date_from=date_from,
        date_to=date_to,
        has=has,
        valid=valid,
        seats=seats,
        anyone=anyone,
        keyed=repeats is not None,
    )
    _no_overwrite(files, output)
    kept, bad = 0, []
    seen: set[bytes] = set()  # the keys of the hands selected so far: 16 bytes (and a set's slot) a game
    with Sink(output, force=force) as out:
        for text in _each_hand(chosen.pick, files, encoding, None, jobs, bad, settle=chosen.settle):
            if text is not None and repeats is not None:
                key, text = text
                again = key in seen
                seen.add(key)
                if again != (repeats == "duplicates"):
                    continue
            if text is not None:
                if not count:
                    out.write(("\n" if kept else "") + text.strip("\n") + "\n")
                kept += 1
        if count:
            out.write(f"{kept}\n")
    sys.exit(EXIT_UNREADABLE if bad else EXIT_OK)


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@hand_opt
@click.option("--seat", type=click.IntRange(1, 6), help="Only this seat's decisions.")
@click.option(
    "--seat-view",
    is_flag=True,
    help="With --seat: review that seat's decisions from its own view (座位视角), from its cards, the cards "
    "played and the counts only, as it could know them; without, the whole table's view (every hand seen).",
)
@click.option(
    "--kind",
    "kinds",
    multiple=True,
    type=click.Choice([*KINDS, *GROUPS]),
    help="Only findings of this kind (decisions: every kind but the states; states: threes-only, smothered); "
    "repeat for several. States asked for are printed one a line, as decisions are.",
)
@click.option(
    "--summary",
    "summarize",
    is_flag=True,
    help="After the hands, each player's counts over all of them (Seat tags): hands, decisions, chances "
    "missed per 100 decisions, findings by kind. --format json: a last line {\"summary\": …}.",
)
@click.option(
    "--annotate",
    is_flag=True,
    help="Write the hands as .gjn (canonical), the findings as {review: …} comments on the actions they are at "
    "and ?! on an action where its seat missed a chance, to -o FILE (or standard output); review comments "
    "written before are replaced.",
)
@click.option("--in-place", is_flag=True, help="With --annotate: rewrite each FILE annotated (atomically).")
@click.option(
    "--rollouts",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="An estimate: play the rest of the hand this many times with a bot after the action made and "
    "after each alternative (up to 3), and give each one's mean team points. Needs the whole deal.",
)
@click.option(
    "--bot",
    default="person",
    show_default=True,
    metavar="NAME|COMMAND",
    help="The bot of --rollouts: person, random, or the command of a bot program speaking the bot protocol "
    "(docs/bots.md), started at every seat.",
)
@click.option(
    "--bot-timeout", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
    help="Seconds a bot program has to answer each message.",
)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of --rollouts: the same seed gives the same estimates.")
@ruleset_opt
@format_opt
@jobs_opt("Review")
@output_opt
@force_opt
@encoding_opt
def review(
    files: tuple[str, ...],
    hand_number: int | None,
    seat: int | None,
    seat_view: bool,
    kinds: tuple[str, ...],
    summarize: bool,
    annotate: bool,
    in_place: bool,
    rollouts: int,
    bot: str,
    bot_timeout: float,
    seed: int,
    override: RulesetOverride | None,
    fmt_: str,
    jobs: int,
    output: str | None,
    force: bool,
    encoding: str | None,
) -> None:
    """Review every decision of the hands in FILES, with what else the rules allowed (复盘点评):
    burns not taken (烧牌), 够级 plays the opposite could have answered (打点), moments a play would
    have opened (开点) and the 点贡 not opening costs, yields taken or not (让牌); and the states a
    seat's hand came to: holding only 3s (只剩3) and smothered (闷) under 憋三.

    One line per finding about a decision: FILE:LINE:COL of the action made at the decision, its
    number, the seat, the kind and what the rules allowed. The states follow on one line per hand,
    then one line per seat: its decisions (the actions of play it made: plays, passes, yields, wind,
    claims, burns), the chances it missed (findings naming another action the rules allowed) per
    100 decisions, and its findings by kind. --summary adds those counts per player over all the
    hands.

    Facts only. Undecided (暗牌未定): whether a seat could have burned, answered or opened at an
    action depends on cards the deal does not give (?N), so the review cannot say; such a finding
    names the action and the seats whose unknown cards decide it (the questions of one action on
    one line), and counts neither as a chance missed nor as none. To get fewer, write the deal:
    those seats' cards in place of ?N (even part of a hand decides some questions); a record with
    the whole deal has none.
    --rollouts N adds an estimate, clearly marked, from hands played out by a self-play bot.
    --format json: one JSON object per hand (JSON Lines), each finding its own object.

    --annotate writes the hands back as .gjn with the findings as comments: `gouji fmt` keeps
    them, and reading the file gives the same hands with the comments added. A FILE is never
    changed unless --in-place is given; a FILE with a hand that cannot be read is left out (an -o
    file is then not written).

    Exit 0; 1 if a hand stops at an illegal action (it is reviewed up to it); 2 if a hand cannot
    be read. FILE - reads standard input.
    """
    from functools import partial

    from ..analysis.review import Summary, kinds_of, review_read, settle, unread_data

    if in_place and not annotate:
        raise click.UsageError("--in-place goes with --annotate: without it review writes no record")
    if seat_view and seat is None:
        raise click.UsageError("--seat-view needs --seat: the seat whose view to review from")
    if annotate and fmt_ != "text":
        raise click.UsageError("--annotate writes .gjn records: --format json goes without it")
    if annotate and summarize:
        raise click.UsageError("--annotate writes .gjn records: --summary goes without it")
    if in_place and output is not None:
        raise click.UsageError("--in-place and --output go one at a time")
    if in_place and "-" in files:
        raise click.UsageError("--in-place rewrites files: standard input (-) cannot be rewritten")
    _no_overwrite(files, output)
    chosen = kinds_of(kinds) if kinds else None
    work = partial(
        review_read,
        only=hand_number,
        seat=seat,
        view=seat if seat_view else None,
        kinds=chosen,
        fmt="gjn" if annotate else fmt_,
        rollouts=rollouts,
        bot=bot,
        seed=seed,
        bot_timeout=bot_timeout,
    )
    if annotate:
        sys.exit(_annotated(work, files, encoding, override, jobs, hand_number, output, force, in_place))
    status, bad = EXIT_OK, []
    summary = Summary() if summarize else None
    count: dict[str, int] = dict.fromkeys(files, 0)
    with Sink(output, force=force) as out:

        def unjudged(p: Problem) -> None:  # in JSON, a hand not judged is a verdict too
            if hand_number is None or p.hand in (None, hand_number):
                out.write(json.dumps(unread_data(p), ensure_ascii=False) + "\n")

        told = unjudged if fmt_ == "json" else None
        for done in _each_hand(work, files, encoding, override, jobs, bad, settle=settle, told=told):
            count[done.path] = max(count.get(done.path, 0), done.index)
            if done.text is not None:
                out.write(printable(done.text) + "\n")
                status = max(status, EXIT_ILLEGAL if done.illegal else EXIT_OK)
                if summary is not None:
                    summary.add(done.tally)
        check_hand_count(count, hand_number)
        if summary is not None:
            text = json.dumps(summary.as_dict(), ensure_ascii=False) if fmt_ == "json" else "\n".join(summary.lines())
            out.write(printable(text) + "\n")
    if bad:
        status = EXIT_UNREADABLE
    sys.exit(status)


def _annotated(work, files, encoding, override, jobs, hand_number, output, force, in_place) -> int:
    """``review --annotate``: each FILE's hands as the work writes them (annotated .gjn), to
    ``output`` one file after another as ``fmt`` writes them, or over each FILE (``in_place``);
    a FILE with a hand that cannot be read is left out, and an ``output`` file is then not
    written. The exit status."""
    from ..analysis.review import settle
    from ..running.sink import spool

    status, unreadable = EXIT_OK, False
    with Sink(None if in_place else output, force=force) as out:
        first = True
        for path in files:
            bad: list[bool] = []
            with spool() as text:
                n = 0
                for done in _each_hand(work, [path], encoding, override, jobs, bad, settle=settle):
                    text.write(("\n" if n else "") + done.text)
                    n = done.index
                    status = max(status, EXIT_ILLEGAL if done.illegal else EXIT_OK)
                if not bad:
                    check_hand_count({path: n}, hand_number)
                if bad:
                    unreadable = True
                elif in_place:
                    with Sink(path, force=force) as rewrite:
                        rewrite.copy_from(text)
                else:
                    if not first:
                        out.write("\n")
                    out.copy_from(text)
                    first = False
        if unreadable:
            out.abandon()  # an output file is written only when every input could be read
    return EXIT_UNREADABLE if unreadable else status


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option("-o", "--output", "out_dir", required=True, metavar="OUT_DIR", help="The new directory to write the files in.")
@click.option("--every", type=click.IntRange(min=1), metavar="N", help="N hands a file: 1.gjn, 2.gjn … (pgn-extract -#N).")
@click.option("--by", "by_tag", metavar="TAG", help="A file for each value of the tag TAG (Event, Match, Seat1 …).")
@force_opt
@encoding_opt
def split(files: tuple[str, ...], out_dir: str, every: int | None, by_tag: str | None, force: bool, encoding: str | None) -> None:
    """Split the hands of FILES into the files of a new directory OUT_DIR, each hand exactly as
    read (comments kept), in file order: --every N hands a file, named 1.gjn, 2.gjn …, or --by a
    tag, a file for each of its values, named by the value (letters, digits, - _ and . kept,
    anything else _; no-TAG.gjn for the hands without it).

    Only the tags are read (notation.md's tag section), never the deal and play: a file of any
    size streams, a hand at a time. A hand whose tags cannot be read is reported, located, and
    left out; the exit status is then 2. OUT_DIR is written whole or not at all; --force
    replaces a directory there. FILE - reads standard input.
    """
    from ..notation.headers import read_headers
    from ..running.sink import OutputDirectory

    if (every is None) == (by_tag is None):
        raise click.UsageError("give --every N or --by TAG (one of them)")
    bad = False
    with OutputDirectory(out_dir, force=force) as out, _Files(out.path) as written:
        for path in files:
            stream = _stdin() if path == "-" else None
            try:
                for n, headers in enumerate(read_headers(path, stream, encoding)):
                    if headers.problem is not None:
                        _fail(located(path, headers.problem), headers.hand.display_lines())
                        bad = True
                        continue
                    if every is not None:
                        name = f"{written.hands // every + 1}.gjn"
                    else:
                        name = written.name_for(headers.tags.get(by_tag), by_tag)
                    written.add(name, headers.hand.text)
            except NotationError as e:
                _fail(Problem(path, e.line, e.column, e.code, e.message))
                bad = True
    click.echo(f"{printable(out_dir)}: {written.hands} hand{'' if written.hands == 1 else 's'} in {len(written.counts)} file{'' if len(written.counts) == 1 else 's'}")
    sys.exit(EXIT_UNREADABLE if bad else EXIT_OK)


class _Files:
    """The files ``gouji split`` writes in ``directory``, each appended to a hand at a time; at
    most :data:`OPEN_FILES` open at once (the least recently written closed first), so that a tag
    of many values needs no more descriptors than that."""

    OPEN_FILES = 32

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self.open: dict[str, io.TextIOBase] = {}  # in the order last written
        self.counts: dict[str, int] = {}
        self.names: dict[str | None, str] = {}
        self.hands = 0

    def __enter__(self) -> _Files:
        return self

    def __exit__(self, *exc) -> None:
        for f in self.open.values():
            f.close()

    def name_for(self, value: str | None, tag: str) -> str:
        """The file of the hands whose ``tag`` is ``value`` (``None``: missing), made once per value."""
        if value not in self.names:
            stem = f"no-{tag}" if value is None else re.sub(r"[^A-Za-z0-9._-]", "_", value).lstrip(".") or "_"
            name, k = f"{stem[:100]}.gjn", 1
            while name in self.names.values():
                k += 1
                name = f"{stem[:100]}-{k}.gjn"
            self.names[value] = name
        return self.names[value]

    def add(self, name: str, text: str) -> None:
        f = self.open.pop(name, None)
        if f is None:
            if len(self.open) >= self.OPEN_FILES:
                self.open.pop(next(iter(self.open))).close()
            f = open(os.path.join(self.directory, name), "a", encoding="utf-8", newline="\n")  # noqa: SIM115
        self.open[name] = f
        f.write(("\n" if self.counts.get(name) else "") + text.strip("\n") + "\n")
        self.counts[name] = self.counts.get(name, 0) + 1
        self.hands += 1
