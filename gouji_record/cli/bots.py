"""Bots (机器人): ``gouji selfplay``."""

from __future__ import annotations

import click

from ..judging.canonical import canonical
from ..notation.writer import write
from ..rules.rulesets import (
    get_ruleset,
)
from ..running.sink import Sink
from .common import (
    _ruleset_option,
    _with_options,
    force_opt,
    option_opt,
    output_opt,
    preset_opt,
)


@click.command()
@preset_opt("The ruleset the bots play under")
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
@option_opt
@output_opt
@force_opt
def selfplay(
    ruleset_name: str | None,
    seed: int,
    count: int,
    as_match: bool,
    bot: str,
    options: tuple[str, ...],
    output: str | None,
    force: bool,
) -> None:
    """Deal and play whole hands with bots, reproducibly, and write them as canonical .gjn.

    Every hand is legal under its ruleset (the bots choose among the engine's legal actions), so the
    output validates. With --match the hands form a match: tribute and first lead follow the rules.
    With --option the bots play a variant, written in each record's Options tag.
    """
    from ..bots.selfplay import play_hand, play_match

    rules = _with_options(_ruleset_option(ruleset_name) or get_ruleset("charter"), options)
    if as_match:
        records = play_match(rules, seed, count, bot)
    else:
        records = (play_hand(rules, seed * 100_003 + n, bot) for n in range(count))
    with Sink(output, force=force) as out:
        for n, record in enumerate(records):
            out.write(("\n" if n else "") + write(canonical(record)))
