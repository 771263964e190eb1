"""Table arguments (牌桌争议): ``gouji rules``, ``gouji beats`` and ``gouji moves``."""

from __future__ import annotations

import sys

import click
from pydantic import BaseModel

from ..cards import BIG_JOKER, SMALL_JOKER, TWO, CardError, format_cards, parse_cards
from ..model import ActionKind
from ..judging.replay import RulesetOverride
from ..judging.report import diagnostic_problem
from ..rules.plays import PlayError, parse_play
from ..rules.rulesets import (
    OPTION_NAMES,
    PRESETS,
    RULES,
    Ruleset,
    get_ruleset,
    option_rule,
    option_text,
    options_tag,
)
from .common import (
    EXIT_ILLEGAL,
    EXIT_OK,
    EXIT_UNREADABLE,
    _fail,
    _json,
    _one_hand,
    _ruleset_option,
    _with_options,
    encoding_opt,
    file_arg,
    format_opt,
    option_opt,
    preset_opt,
    ruleset_opt,
)


@click.command()
@click.argument("name", required=False)
@format_opt
def rules(name: str | None, fmt_: str) -> None:
    """Show the rulesets: every option with its value in each preset and its source.

    With NAME, only that preset. Options are overridden in a record with a
    tag like [Options "threes-held=yes, hand-end=one-left"] (docs/rules.md).
    """
    presets = [_ruleset_option(name, hint="NAME")] if name else list(PRESETS.values())
    assert all(presets)
    if fmt_ == "json":
        _json(
            [
                {
                    "name": r.name,
                    "title": r.title,
                    "text": r.text_name,
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
        click.echo(f"{r.name}: {r.title}")
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
    if not isinstance(value, BaseModel):
        return option_text(value)  # as an Options tag writes it
    d = value.model_dump()  # scoring
    extras = {k: v for k, v in d.items() if k not in {"places", "sweep", "positive_only"} and v}
    text = f"{'/'.join(map(str, d['places']))} sweep {d['sweep'][0]}/{d['sweep'][1]}"
    text += " positive-only" if d["positive_only"] else ""
    return text + "".join(
        f" {k}{v:+d}" if isinstance(v, int) and not isinstance(v, bool) else f" {k}" for k, v in extras.items()
    )


@click.command(short_help="Whether PLAY beats TOP, and why: gouji beats X77 D88.")
@click.argument("top")
@click.argument("play")
@preset_opt("The ruleset to compare the plays under")
@option_opt
@format_opt
def beats(top: str, play: str, ruleset_name: str | None, options: tuple[str, ...], fmt_: str) -> None:
    """Whether PLAY beats TOP (e.g. `gouji beats X77 D88`), and why.

    Says which rule decides and its source, and whether each play is a 够级
    play (and a pure one). A play the engine would refuse whatever the hand
    (2s or jokers on 3s or 4s where they carry nothing) cannot be played: the
    answer is no, with that rule. Exit 0 when PLAY beats TOP, 1 when not, 2
    when a play is malformed. The ruleset defaults to charter.
    """
    from ..rules.plays import beats as beats_
    from ..rules.plays import is_gouji, is_pure_gouji, shape_error

    rules = _with_options(_ruleset_option(ruleset_name) or get_ruleset("charter"), options)
    parsed = []
    for label, text in (("TOP", top), ("PLAY", play)):
        try:
            parsed.append(parse_play(text))
        except (CardError, PlayError) as e:
            click.secho(f"{label} {text!r}: {e}", fg="red", err=True)
            sys.exit(EXIT_UNREADABLE)
    a, b = parsed
    faults = {key: shape_error(p, rules) for key, p in (("top", a), ("play", b))}
    fault = faults["top"] or faults["play"]
    if fault is not None:  # the engine's own shape check: such a play is never made
        which = a if faults["top"] else b
        ok, rule, reason = False, fault[1], f"{which} cannot be played: {fault[2]}"
    else:
        verdict = beats_(a, b, rules)
        ok, rule, reason = verdict.ok, verdict.rule, verdict.reason

    def about(p, key: str) -> dict[str, object]:
        playable = faults[key] is None
        return {
            "cards": str(p),
            "playable": playable,
            "gouji": playable and is_gouji(p, rules),
            "pure": playable and is_pure_gouji(p, rules),
        }

    info = {
        "ruleset": rules.name,
        "options": options_tag(rules),
        "top": about(a, "top"),
        "play": about(b, "play"),
        "beats": ok,
        "rule": rule,
        "reason": reason,
        "source": rules.cite(rule),
    }
    if fmt_ == "json":
        _json(info)
    else:
        changed = options_tag(rules)
        click.echo(f"{'yes' if ok else 'no'}: {reason} ({rules.name}{' with ' + changed if changed else ''})")
        click.echo(f"  rule: {RULES[rule][0]} ({RULES[rule][1]}) — {info['source']}")
        for key in ("top", "play"):
            p = info[key]
            if not p["playable"]:
                kind = "cannot be played"
            else:
                kind = "pure 够级 play" if p["pure"] else "够级 play" if p["gouji"] else "not a 够级 play"
            click.echo(f"  {p['cards']}: {kind}")
    sys.exit(EXIT_OK if ok else EXIT_ILLEGAL)


@click.command()
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
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    help="At most this many entries per seat (after grouping); the rest are counted, not listed.",
)
@click.option("--each", is_flag=True, help="One entry per play: plays differing in 2s or jokers not grouped.")
@ruleset_opt
@format_opt
@encoding_opt
def moves(
    file: str,
    at: int,
    hand_number: int,
    seat: int | None,
    limit: int | None,
    each: bool,
    override: RulesetOverride | None,
    fmt_: str,
    encoding: str | None,
) -> None:
    """List the legal actions after action N of a hand: the seat to act's
    plays, pass and yield, and the burns other seats could claim, in claim
    order — "could seat 4 have burned here?" answered by the rules.

    Plays that differ only in how many 2s or jokers they carry (贴钱, 挂花)
    share one entry: the cards of their rank, then the 2s and jokers they may
    add, and how many plays that is — `3:QQ (+ 0-12 2s: 13 plays)` stands for
    3:QQ, 3:2QQ … 3:222222222222QQ (--each lists them one by one). --limit N
    lists at most N entries per seat. --format json lists every action, one
    by one, whatever --limit and --each say.

    Plays that need cards the deal does not give (?N) are listed by kind:
    `5:*?2` is any burn of two cards by seat 5 that uses some of them, `4:?3`
    any follow of three, `1:?` any lead, each with an example the engine
    accepts. FILE - reads standard input.
    """
    from ..model import Action
    from ..rules.moves import HiddenPlays, legal_actions

    hand, result = _one_hand(file, hand_number, override, encoding)
    total = len(hand.record.all_actions)
    if at > total:
        raise click.BadParameter(f"the hand has {total} actions", param_hint="--at")
    if at >= len(result.positions):
        lines = hand.lines()
        problem = diagnostic_problem(file, result.diagnostic, hand.where, lines) if result.diagnostic else None
        click.secho(f"action {len(result.positions)} is illegal: the replay stops there", fg="red", err=True)
        if problem:
            _fail(problem, lines)
        sys.exit(EXIT_ILLEGAL)
    pos = result.positions[at]
    actions = legal_actions(pos, seat)
    examples = {a.text: a.example.text for a in actions if isinstance(a, HiddenPlays)}
    if fmt_ == "json":
        _json(
            {
                "after": at,
                "to_act": pos.to_act,
                "round": pos.round,
                "top": None if pos.top is None else {"seat": pos.top.seat, "cards": str(pos.top.play)},
                "actions": [a.text for a in actions],
                "examples": examples,
            }
        )
        return
    if pos.over:
        click.echo(f"after action {at}: the hand is over")
        return
    top = f"top {pos.top.play} by seat {pos.top.seat}" if pos.top else "a new round: the seat to act leads"
    click.echo(f"after action {at}: round {pos.round}, {top}; seat {pos.to_act} to act")

    def shown(a: object) -> str:
        text = a.text  # type: ignore[attr-defined]
        return f"{text} (e.g. {examples[text]})" if text in examples else text

    def listed(group: list) -> list[str]:
        texts = [shown(a) for a in group] if each else _grouped(group, shown)
        if limit is not None and len(texts) > limit:
            texts = texts[:limit] + [f"… {len(texts) - limit} more (--limit {limit})"]
        return texts

    declared = [a for a in actions if isinstance(a, Action) and a.kind.preplay]
    if declared:
        click.echo("  before play: " + " ".join(listed(declared)))
    own: dict[int, list] = {pos.to_act if seat is None else seat: []}  # type: ignore[dict-item]
    by_seat: dict[int, list] = {}
    for a in actions:
        if not (isinstance(a, Action) and a.kind.preplay):
            (by_seat if a.burn else own).setdefault(a.seat, []).append(a)
    for n, (s, group) in enumerate(own.items()):
        smothered = any(m == pos.to_act for m, _ in pos.maybe_smothered)
        why = "it was smothered: its hidden cards may all be 3s" if smothered else "its hidden cards may hold no two big jokers"
        if_none = f", if seat {pos.to_act} has no turn ({why})" if n else ""
        click.echo(f"  seat {s}{if_none}: " + (" ".join(listed(group)) or "nothing"))
    for s, group in by_seat.items():
        click.echo(f"  burn by seat {s}: " + " ".join(listed(group)))
    if pos.top is not None and not by_seat and seat is None:
        click.echo("  no seat can burn")


#: What a play may carry besides its rank (贴钱, 挂花), and how an entry of :func:`_grouped` names it.
_EXTRAS = ((TWO, "2s"), (SMALL_JOKER, "X"), (BIG_JOKER, "D"))


def _grouped(actions: list, shown) -> list[str]:
    """The entries of ``moves``' text, in the order of their first action. Plays that differ only
    in how many 2s and jokers they carry (same seat, burn or not, same cards of their rank) are one
    entry: the cards of the rank, the range of each that the plays carry and how many plays there
    are (fewer than the ranges' product where not every mix is legal): ``3:QQ (+ 0-12 2s: 13
    plays)``, ``5:*KK (+ 1-2 X, 0-1 D: 2 plays)`` for 5:*XXKK and 5:*DXKK; plays of 2s and jokers alone are one
    entry, ``2:2s and jokers alone (1-4 2s: 4 plays)``. Any other action, and a play
    alone in its group, as ``shown`` gives it."""
    groups: dict[tuple, list] = {}
    for n, a in enumerate(actions):
        cards = parse_cards(a.cards) if getattr(a, "kind", None) is ActionKind.PLAY else None
        if cards is None:
            groups[("alone", n)] = [a]
        else:  # (2s and jokers alone: no rank cards, one group)
            groups.setdefault((a.seat, a.burn, tuple(c if r < TWO else 0 for r, c in enumerate(cards))), []).append(a)
    out = []
    for key, members in groups.items():
        if len(members) == 1:
            out.append(shown(members[0]))
            continue
        seat, burn, base = key
        counts = [parse_cards(a.cards) for a in members]
        ranges = []
        for rank, name in _EXTRAS:
            low, high = min(c[rank] for c in counts), max(c[rank] for c in counts)
            if high:
                ranges.append(f"{low}-{high} {name}" if high > low else f"{low} {name}")
        head = f"{seat}:{'*' if burn else ''}" + (format_cards(base) + " (+ " if any(base) else "2s and jokers alone (")
        out.append(f"{head}{', '.join(ranges)}: {len(members)} plays)")
    return out
