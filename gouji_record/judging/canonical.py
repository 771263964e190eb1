"""The canonical form of a record (规范格式): a round number before each lead the engine replays.

``gouji fmt`` and ``gouji import`` write :func:`canonical` of each record. Everything else in
the export form (tag order, card order, line width) is the writer's. The canonical form never
changes a verdict: it adds round numbers the engine agrees with, and keeps every number the
record writes, one that does not fit included (docs/notation.md, "Canonical (export) form").
"""

from __future__ import annotations

from ..model import GameRecord
from .replay import replay
from ..rules.rulesets import Ruleset


def canonical(record: GameRecord, ruleset: Ruleset | None = None) -> GameRecord:
    """``record`` with a round number before each lead the engine replays that has none.

    A number the record writes is kept as written, where it fits and where it does not (a
    ``round-mismatch``: the canonical form says what the record says, and validates alike), as is
    one on an action after the end of the hand; no number is added after the first problem the
    replay meets (actions after it keep what the record says). So ``canonical(canonical(r)) ==
    canonical(r)``, and ``canonical(r)`` has the verdict of ``r``. ``ruleset`` defaults to the
    record's ``Ruleset`` and ``Options`` tags; raises
    :class:`~gouji_record.rules.rulesets.UnknownRuleset` or
    :class:`~gouji_record.rules.rulesets.BadOption` as :func:`~gouji_record.judging.replay.replay` does.

    >>> from gouji_record import parse
    >>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
    >>> [r] = parse(f'[Event "x"][Site "y"][Date "?"][Ruleset "charter"]{seats}[Result "*"]'
    ...             " play 1:33 2:- 3:- 4:- 5:- 6:- 1:44 5. 2:55")
    >>> [a.round for a in canonical(r).actions]  # round 2 numbered; the 5. that does not fit kept
    [1, None, None, None, None, None, 2, 5]
    """
    actions = list(record.actions)
    first = len(record.preplay)
    for number, at in replay(record, ruleset).leads().items():
        # one number to a lead: none added where the record writes one on an action at it (a
        # ruled ``^`` action and the lead made after it stand at one lead: ``2. ^5:66 4:3333``)
        if all(actions[i - first].round is None for i in at):
            actions[at[0] - first] = actions[at[0] - first].model_copy(update={"round": number})
    return record.model_copy(update={"actions": tuple(actions)})
