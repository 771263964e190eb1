"""Other formats (格式): ``gouji export``, ``gouji import`` and ``gouji schema``."""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path

import click

from ..judging.canonical import canonical
from ..judging.replay import replay
from ..judging.report import Problem, printable
from ..matches.verdict import MatchJudge
from ..model import GameRecord
from ..notation.build import NotationError
from ..notation.files import decode
from ..notation.version import CURRENT, version_text
from ..notation.writer import write_all
from ..rules.rulesets import (
    Ruleset,
)
from ..running.batch import ReadHand, located
from ..running.cluster import close as close_client
from ..running.sink import Sink, spool
from .common import (
    EXIT_OK,
    EXIT_UNREADABLE,
    _cluster_runner,
    _extra,
    _fail,
    _json,
    _no_overwrite,
    _records,
    _ruleset_for,
    _stdin,
    dask_opt,
    encoding_opt,
    force_opt,
    jobs_opt,
    output_opt,
)


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True))
@click.option(
    "--format",
    "fmt_",
    type=click.Choice(["json", "events", "parquet"]),
    default="json",
    show_default=True,
    help="json: one object per hand (JSON Lines), the record model; `gouji schema` describes it. "
    "events: a platform's event log (docs/events-log.md), one event per line, that `gouji import` reads back. "
    "parquet: OUT_DIR FILES…: three tables (hands, actions, events) in the new directory OUT_DIR "
    "(docs/archives.md; needs the archives extra).",
)
@output_opt
@click.option(
    "--force",
    is_flag=True,
    help="Replace an output file even if it is read-only; with --format parquet, replace OUT_DIR if it exists.",
)
@click.option(
    "--with-verdict",
    "with_verdict",
    is_flag=True,
    help="json: add to each hand its verdict (valid, problems, places, scores) and its events, as `gouji "
    "validate` and `gouji events --format json` give them: derived data, which `gouji import` ignores.",
)
@encoding_opt
@jobs_opt("Replay")
@dask_opt
def export(
    files: tuple[str, ...],
    fmt_: str,
    output: str | None,
    force: bool,
    with_verdict: bool,
    encoding: str | None,
    jobs: int,
    dask_address: str | None,
) -> None:
    """Export the hands of FILES as JSON, one object per hand; `gouji import` reads it back with no loss.

    Reads hand by hand (memory bounded by the largest hand). A FILE with a hand that cannot be
    read is reported (every such hand, located) and left out; the exit status is then 2, and an
    -o file is not written. FILE - reads standard input.

    \b
    --format parquet OUT_DIR FILES… replays every hand and writes three Parquet tables in the new
    directory OUT_DIR: hands.parquet, actions.parquet, events.parquet (docs/archives.md), written
    whole or not at all, in row groups as hands stream through; --jobs or --dask replay them
    elsewhere, the tables the same. A hand that cannot be read is reported, located, and left
    out, the rest written, exit status 2; a hand with an illegal action is written (valid false).
    """
    if fmt_ == "parquet":
        if with_verdict:
            raise click.UsageError("--with-verdict goes with --format json (the Parquet tables hold the verdict)")
        _export_parquet(files, output, force, encoding, jobs, dask_address)
    if jobs > 1 or dask_address is not None:
        raise click.UsageError("--jobs and --dask go with --format parquet")
    if with_verdict and fmt_ == "events":
        raise click.UsageError("--with-verdict goes with --format json (an event log holds the record only)")
    from ..formats.eventlog import write_events
    from ..formats.interchange import record_json

    any_hand = False
    _no_overwrite(files, output)
    status = EXIT_OK
    with Sink(output, force=force) as out:
        for path in files:
            with spool() as text:
                bad = False
                judge = MatchJudge()
                for hand in _records(path, encoding=encoding):
                    problem = hand.problem or _ruleset_for(hand, None)  # as import will ask
                    if isinstance(problem, Problem):
                        _fail(problem, hand.lines())
                        bad = True
                        judge.interrupt()
                    elif not bad and fmt_ == "events":
                        text.write(("\n" if any_hand else "") + "".join(write_events([hand.record])))
                        any_hand = True
                    elif not bad:
                        extra = _verdict_data(hand, judge, problem) if with_verdict else None
                        for piece in record_json(hand.record, extra):
                            text.write(piece)
                        text.write("\n")
                if bad:
                    status = EXIT_UNREADABLE
                else:
                    out.copy_from(text)
        if status == EXIT_UNREADABLE:
            out.abandon()  # an output file is written only when every input could be read
    sys.exit(status)


def _verdict_data(hand: ReadHand, judge, rules: Ruleset) -> dict:
    """``{"verdict": …, "events": […]}`` of ``hand`` for ``export --with-verdict``: the verdict
    as ``validate --format json`` gives it (each problem in the one shape:
    :meth:`~gouji_record.judging.report.Problem.as_dict`) and the events as ``events --format json`` lists
    them (the same rows: :func:`~gouji_record.cli.events.event_rows`)."""
    from .events import event_rows

    judged = judge.judge(replay(hand.record, rules, every_position=False))
    kinds = judged.match.kinds if judged.match is not None else None
    result = judged.replay
    score = result.score
    verdict = {
        "valid": judged.valid,
        "problems": [p.as_dict() for p in judged.problems(hand.hand.path, hand.where, hand.hand.index)],
        "complete": result.complete,
        "places": list(result.places) if result.final.over else None,
        "scores": {"1-3-5": score.teams[1], "2-4-6": score.teams[0]} if score else None,
    }
    return {"verdict": verdict, "events": event_rows(hand, result, kinds)}


def _export_parquet(
    args: tuple[str, ...], output: str | None, force: bool, encoding: str | None, jobs: int, dask_address: str | None
) -> None:
    """``gouji export --format parquet OUT_DIR FILES…``: exits."""
    if output is not None:
        raise click.UsageError("--format parquet writes the directory given first (OUT_DIR FILES…), not -o")
    if len(args) < 2:
        raise click.UsageError("--format parquet takes OUT_DIR, then the FILES to export")
    out_dir, files = args[0], args[1:]
    if out_dir == "-":
        raise click.UsageError("--format parquet writes a directory: OUT_DIR cannot be - (standard output)")
    inside = [f for f in files if f != "-" and _within(f, out_dir)]
    if inside:
        raise click.UsageError(f"{inside[0]} is in OUT_DIR {out_dir}: replacing the directory would remove it")
    _extra("--format parquet", "pyarrow")
    from ..formats.archive import export_parquet
    from ..running.cluster import ClusterError

    runner, client = _cluster_runner(dask_address, jobs)
    stream = _stdin() if "-" in files else None

    def problem(report) -> None:
        click.secho(printable(report.text), fg="red", err=True)

    try:
        summary = export_parquet(
            out_dir, files, jobs=jobs, runner=runner, force=force, encoding=encoding, stream=stream, on_problem=problem
        )
    except ClusterError as e:
        _fail(Problem(out_dir, 0, 0, "cluster", f"{e}; nothing written"))
        sys.exit(EXIT_UNREADABLE)
    except OSError as e:
        if e.errno not in (errno.EAGAIN, errno.ENOMEM):
            raise
        _fail(Problem(out_dir, 0, 0, "workers", f"cannot start {jobs} worker processes: {e.strerror or e}"))
        sys.exit(EXIT_UNREADABLE)
    finally:
        if client is not None:
            close_client(client)
    counts = ", ".join(f"{n} {what}{'' if n == 1 else 's'}" for n, what in (
        (summary.hands, "hand"), (summary.actions, "action"), (summary.events, "event")
    ))  # fmt: skip
    left_out = f"; {summary.unreadable} unreadable, left out" if summary.unreadable else ""
    click.echo(f"{printable(out_dir)}: {counts}{left_out}")
    sys.exit(EXIT_UNREADABLE if summary.unreadable else EXIT_OK)


def _within(path: str, directory: str) -> bool:
    """Whether ``path`` is in ``directory`` or under it (links followed)."""
    real, top = os.path.realpath(path), os.path.realpath(directory)
    return real.startswith(top.rstrip(os.sep) + os.sep)


@click.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True), help="Write to this file.")
@force_opt
@encoding_opt
def import_(file: str, output: str | None, force: bool, encoding: str | None) -> None:
    """Convert FILE to canonical .gjn: JSON Lines of records (from `gouji export`), or a
    platform's event log (docs/events-log.md), told apart by their first object.
    FILE - reads standard input; the .gjn goes to standard output unless -o is given.
    """
    from ..formats.interchange import EventLogError, read_records

    _no_overwrite((file,), output)
    try:
        text = decode(_stdin().read() if file == "-" else Path(file).read_bytes(), encoding)
    except OSError as e:
        _fail(Problem(file, 0, 0, "unreadable", f"cannot read the file: {e.strerror or e}"))
        sys.exit(EXIT_UNREADABLE)
    except NotationError as e:  # not UTF-8 (or not in --encoding): located as every reader locates it
        _fail(located(file, e))
        sys.exit(EXIT_UNREADABLE)
    try:
        records = read_records(text, file)
    except EventLogError as e:  # RecordJSONError too
        _fail(Problem(file, e.line, 1, "bad-log", e.message))
        sys.exit(EXIT_UNREADABLE)
    if not records:
        _fail(Problem(file, 1, 1, "empty", "no hand in the file"))
        sys.exit(EXIT_UNREADABLE)
    with Sink(output, force=force) as out:
        out.write(write_all(canonical(rec) for rec in records))


@click.command()
def schema() -> None:
    """Print the JSON Schema of the records `gouji export` writes and `gouji import` reads, named
    by its `$id` with the version of the notation its records follow."""
    _json(record_schema())


#: The name of the records' JSON Schema: of the notation's version, since a record means what a hand
#: of that version means (docs/notation.md, section 6). A URN: a name, nothing to fetch.
SCHEMA_ID = f"urn:gouji-record:schema:record:gjn-{CURRENT[0]}.{CURRENT[1]}"


def record_schema() -> dict:
    """The JSON Schema of a record (the model's, from pydantic) with ``$schema``, ``$id``
    (:data:`SCHEMA_ID`) and ``version`` (``"gjn 2.4"``) first."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "version": version_text(),
        **GameRecord.model_json_schema(),
    }
