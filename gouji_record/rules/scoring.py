"""Scoring a finished hand (计分): places, a sweep, and the per-seat extras for opening, burns and
smothers, as the ruleset's :class:`~gouji_record.rules.rulesets.Scoring` gives them (RULES.md
"Scoring"; 000 §计分, 001, 002 §20, 003 §计分, 004 §38-§40).
"""

from __future__ import annotations

from dataclasses import dataclass

from .engine import SEATS, Position, opposite, team
from .rulesets import Ruleset


@dataclass(frozen=True)
class Score:
    """A hand's score (计分): ``teams`` maps team 1 (seats 1 3 5) and team 0 to
    their scores; ``seats`` maps each seat to its personal extras."""

    teams: dict[int, int]
    seats: dict[int, int]


#: The last two finished positions :func:`final_places` was asked about, with their places,
#: newest first: a hand's and the one before it, which the match check asks about in turn.
_last_places: tuple[tuple[Position, tuple[int, ...]], ...] = ()


def final_places(final: Position) -> tuple[int, ...]:
    """``final.places`` (seats in order of place, 头科 first) of a position no step changes any
    more, such as a replay's final position: worked out once for each of the last two positions
    asked about, as a hand's places are asked for by its Result check, its score and, from the
    next hand, the tribute it owes and who leads
    (:func:`~gouji_record.matches.match.hand_in_match`)."""
    global _last_places
    kept = _last_places  # (one tuple, replaced whole: threads never see half of it)
    for pos, places in kept:
        if pos is final:
            return places
    places = final.places
    _last_places = ((final, places), *kept[:1])
    return places


def scores(ruleset: Ruleset, final: Position) -> Score:
    """Score a finished hand under ``ruleset`` (计分).

    Each place scores ``scoring.places``; a team scores the sum over its
    seats; a sweep scores ``scoring.sweep`` instead; with ``positive_only``
    a negative sum is 0 (002 §20). Per-seat extras (003 §计分, 004 §38) go to
    ``seats``, and into the teams when ``extras_count_for_team``. A void
    hand scores nothing.

    Raises:
        ValueError: the hand is not over.
    """
    if not final.over:
        raise ValueError("only a finished hand is scored")
    sc = ruleset.scoring
    extras = dict.fromkeys(SEATS, 0)
    if final.void:
        return Score({1: 0, 0: 0}, extras)
    places = final_places(final)
    teams = {1: 0, 0: 0}
    if len({team(seat) for seat in places[:3]}) == 1:  # 串三户: one team took 1st, 2nd and 3rd
        sweep = team(places[0])
        teams = {sweep: sc.sweep[0], 1 - sweep: sc.sweep[1]}
    else:
        for place, seat in enumerate(places):
            teams[team(seat)] += sc.places[place]
    for seat in SEATS:
        opened, opp_opened = seat in final.opened, opposite(seat) in final.opened
        if not opened:
            extras[seat] += sc.not_opened
        if opened and not opp_opened:
            extras[seat] += sc.opening_pair
        if opp_opened and not opened:
            extras[seat] -= sc.opening_pair
    for burner, target, outcome in final.burns:
        if ruleset.burn_counts(outcome):
            extras[burner] += sc.burner
            extras[target] += sc.burned
    for by, seat in final.smothers:
        extras[by] += sc.smotherer
        extras[seat] += sc.smothered
    if sc.extras_count_for_team:
        for seat, x in extras.items():
            teams[team(seat)] += x
    if sc.positive_only:
        teams = {k: max(0, v) for k, v in teams.items()}
    return Score(teams, extras)
