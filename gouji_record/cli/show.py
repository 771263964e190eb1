"""``gouji show``: what the table looked like before an action (牌桌), as a referee asks.

The table is the engine's position before the action, described by
:mod:`gouji_record.rules.table`; this module reads the hand (as ``gouji moves`` does) and says
which position is asked for, or why there is none.
"""

from __future__ import annotations

import sys
from dataclasses import replace

import click

from ..judging.replay import RulesetOverride
from ..judging.report import diagnostic_problem
from ..rules.table import describe, describe_text
from .common import (
    EXIT_ILLEGAL,
    _fail,
    _json,
    _one_hand,
    encoding_opt,
    file_arg,
    format_opt,
    ruleset_opt,
)


@click.command()
@file_arg
@click.option(
    "--at",
    "at",
    type=click.IntRange(min=1),
    required=True,
    help="Before this action, counted from 1 as validate counts them (pre-play declarations count); "
    "one more than the last action: after it, the hand's end.",
)
@click.option(
    "--hand", "hand_number", type=click.IntRange(min=1), default=1, show_default=True, help="Which hand of FILE."
)
@click.option(
    "--seat",
    type=click.IntRange(1, 6),
    help="Only what this seat saw: its own cards, and how many the others held.",
)
@ruleset_opt
@format_opt
@encoding_opt
def show(
    file: str, at: int, hand_number: int, seat: int | None, override: RulesetOverride | None, fmt_: str, encoding: str | None
) -> None:
    """Show the table before action N of a hand (牌桌): each seat's cards (?N
    for those the deal does not give) and how many it holds, the play on top
    and who made it, who passed this round, a pending yield (让牌), a running
    burn (烧牌), who is headless (无头), who opened (开点), the places taken,
    the four-way melee (四户乱缠), whose turn it is and the round — "what did
    the table look like before action N?" answered by the engine.

    Actions are numbered from 1 as validate numbers them, pre-play
    declarations included: --at N is the table before action N, where `gouji
    moves --at N-1` lists what each seat could do. One more than the last
    action shows the table after it (the hand's end); more is an error. A
    hand that stops at an illegal action has tables up to it and none after.
    --seat S shows what seat S saw: its own cards, and how many the others
    held. Exit 0; 1 when action N comes after an illegal action; 2 when FILE
    cannot be read or the command line is wrong. FILE - reads standard input.
    """
    hand, result = _one_hand(file, hand_number, override, encoding)
    actions = hand.record.all_actions
    if at > len(actions) + 1:
        raise click.BadParameter(
            f"the hand has {len(actions)} actions: --at goes from 1 to {len(actions) + 1} (after the last)",
            param_hint="--at",
        )
    if at > len(result.positions):  # the replay stopped at an illegal action: no position after it
        diag = result.diagnostic
        assert diag is not None and diag.number is not None
        located = diagnostic_problem(file, diag, hand.where, hand.lines())
        _fail(
            replace(
                located,
                rule="",
                message=f"there is no table before action {at}: action {diag.number} is illegal and the replay "
                f"stops there (gouji validate says why); --at goes up to {diag.number}",
            )
        )
        sys.exit(EXIT_ILLEGAL)
    pos = result.positions[at - 1]
    action = actions[at - 1] if at <= len(actions) else None
    written = None if action is None else action.text
    if fmt_ == "json":
        _json({"before": at, "action": written, **describe(pos, seat)})
        return
    if written is None:
        click.echo(f"after the last action, action {at - 1} (第{at - 1}步之后)")
    else:
        click.echo(f"before action {at} (第{at}步之前), {written}")
    click.echo(describe_text(pos, seat))
