"""Bots (机器人): ``gouji selfplay`` and ``gouji bot``."""

from __future__ import annotations

import json
import sys

import click

from ..judging.canonical import canonical
from ..notation.writer import write
from ..rules.rulesets import (
    get_ruleset,
)
from ..running.sink import Sink
from .common import (
    EXIT_ILLEGAL,
    _ruleset_option,
    _with_options,
    force_opt,
    option_opt,
    output_opt,
    preset_opt,
)

#: The built-in bots, by name (gouji_record.bots.selfplay.BOTS, gouji_record.bots.protocol.Agent).
BUILT_IN = ("person", "random")


def _seats(values: tuple[str, ...]) -> tuple[str, dict[int, str]]:
    """``--bot`` values: a built-in bot's name for every seat not named, and ``SEAT=COMMAND`` (or
    ``SEAT=NAME``) for one seat. Raises ``click.BadParameter`` for another value."""
    default, seats = "person", {}
    for value in values:
        seat, eq, command = value.partition("=")
        if not eq:
            if value not in BUILT_IN:
                raise click.BadParameter(
                    f"{value!r}: expected a built-in bot ({', '.join(BUILT_IN)}) or SEAT=COMMAND", param_hint="--bot"
                )
            default = value
        elif seat.strip() not in {"1", "2", "3", "4", "5", "6"} or not command.strip():
            raise click.BadParameter(f"{value!r}: expected SEAT=COMMAND with a seat 1-6 and a command", param_hint="--bot")
        else:
            seats[int(seat)] = command.strip()
    return default, seats


def _failed(e, output: str | None) -> None:
    """Say the bot's failure in one line, and where the hands so far were written."""
    kept = (
        f"; the {len(e.records)} hand(s) so far, the last cut there (Result *), written to {output or 'standard output'}"
        if e.records
        else "; no hand was begun"
    )
    click.secho(f"error[bot]: {e.message}{kept}", fg="red", err=True)


@click.command()
@preset_opt("The ruleset the bots play under")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed: the same seed gives the same hands.")
@click.option("--hands", "count", type=click.IntRange(min=1), default=1, show_default=True, help="How many hands.")
@click.option("--match", "as_match", is_flag=True, help="Play the hands as one match, paying tribute between them.")
@click.option(
    "--bot",
    "bots",
    multiple=True,
    metavar="NAME|SEAT=COMMAND",
    help="person (the default: plays like a person, keeps gouji plays, burns, opens) or random (any legal "
    "action) for every seat; SEAT=COMMAND seats a bot program speaking the bot protocol (docs/bots.md) "
    "at SEAT (1-6; repeatable; SEAT=person seats a built-in bot there).",
)
@click.option(
    "--bot-timeout", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
    help="Seconds a bot program has to answer each message.",
)
@click.option(
    "--duplicate", is_flag=True,
    help="Duplicate play: each deal played six times with the bots moved round the table, then each bot's mean "
    "points per hand with a 95% confidence interval (the hands go to -o FILE if given).",
)
@option_opt
@output_opt
@force_opt
def selfplay(
    ruleset_name: str | None,
    seed: int,
    count: int,
    as_match: bool,
    bots: tuple[str, ...],
    bot_timeout: float,
    duplicate: bool,
    options: tuple[str, ...],
    output: str | None,
    force: bool,
) -> None:
    """Deal and play whole hands with bots, reproducibly, and write them as canonical .gjn.

    Every hand is legal under its ruleset (the bots choose among the engine's legal actions), so the
    output validates. With --match the hands form a match: tribute and first lead follow the rules.
    With --option the bots play a variant, written in each record's Options tag.

    --bot SEAT=COMMAND seats a bot program (docs/bots.md) at SEAT, the built-in bot at the others.
    A bot program that answers an illegal action or a line that is not a message, says nothing
    within --bot-timeout seconds, or exits stops the play: one line names the bot, its seat and
    its line, the hands so far are written (the last cut there, Result *, valid up to it), exit 1.
    """
    from ..bots.referee import Table, TableError, play_hands, play_table_match, player
    from ..bots.referee import duplicate as play_duplicate
    from ..bots.selfplay import play_hand, play_match

    rules = _with_options(_ruleset_option(ruleset_name) or get_ruleset("charter"), options)
    default, seated = _seats(bots)
    seeds = [seed * 100_003 + n for n in range(count)]
    failure = None
    if duplicate:
        if as_match:
            raise click.UsageError("--duplicate plays hands alone: --match goes without it")
        specs = [seated.get(s, default) for s in range(1, 7)]
        try:
            records, ratings = play_duplicate(rules, specs, seeds, timeout=bot_timeout)
        except TableError as e:
            records, ratings, failure = e.records, [], e
        if output is not None or (failure is not None and records):
            with Sink(output, force=force) as out:
                out.write("\n".join(write(canonical(r)) for r in records))
        if failure is not None:
            _failed(failure, output)
            sys.exit(EXIT_ILLEGAL)
        click.echo("deals  mean points/hand  95% interval        bot")
        for r in ratings:
            span = "-" if r.low is None else f"[{r.low:+.3f}, {r.high:+.3f}]"
            click.echo(f"{r.deals:>5}  {r.mean:>+16.3f}  {span:<18}  {r.bot}")
        return
    if seated:
        table = Table(rules, [player(seated.get(s, default), seed=seed * 7 + s, timeout=bot_timeout) for s in range(1, 7)])
        try:
            records = play_table_match(table, seed, count) if as_match else play_hands(table, seeds)
        except TableError as e:
            records, failure = e.records, e
    elif as_match:
        records = play_match(rules, seed, count, default)
    else:
        records = (play_hand(rules, s, default) for s in seeds)
    if failure is None or records:
        with Sink(output, force=force) as out:
            for n, record in enumerate(records):
                out.write(("\n" if n else "") + write(canonical(record)))
    if failure is not None:
        _failed(failure, output)
        sys.exit(EXIT_ILLEGAL)


@click.command()
@click.argument("name", type=click.Choice(BUILT_IN), required=False)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the bot's choices.")
@click.option("--schema", "show_schema", is_flag=True, help="Print the JSON Schema of the protocol's messages instead.")
def bot(name: str | None, seed: int, show_schema: bool) -> None:
    """Play the built-in bot NAME (person, random) over the bot protocol (docs/bots.md): JSON
    lines from the referee on standard input, its answers on standard output, until bye.

    Any program that does the same can sit at the table: `gouji selfplay --bot 3="gouji bot
    random"`. --schema prints the messages' JSON Schema (generated from their models).
    Exit 0; 2 for a line that is not a message of the protocol."""
    from ..bots.protocol import protocol_schema, serve

    if show_schema:
        click.echo(json.dumps(protocol_schema(), ensure_ascii=False, indent=2))
        return
    if name is None:
        raise click.UsageError("name a built-in bot (person, random), or give --schema")
    sys.exit(serve(name, seed=seed))
