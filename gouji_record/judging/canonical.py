"""The canonical form of a record (规范格式): rounds numbered where the engine says they start.

``gouji fmt`` writes :func:`canonical` of each record. Everything else in the
export form (tag order, card order, line width) is the writer's.
"""

from __future__ import annotations

from ..model import GameRecord
from .replay import replay
from ..rules.rulesets import Ruleset


def canonical(record: GameRecord, ruleset: Ruleset | None = None) -> GameRecord:
    """``record`` with a round number before each lead the engine replays and none elsewhere.

    The round numbers the record writes are not read (a wrong one is put right, however many
    there are), so ``canonical(canonical(r)) == canonical(r)``. Actions after an illegal one
    keep what the record says. ``ruleset`` defaults to the record's ``Ruleset`` and ``Options``
    tags; raises :class:`~gouji_record.rules.rulesets.UnknownRuleset` or
    :class:`~gouji_record.rules.rulesets.BadOption` as :func:`~gouji_record.judging.replay.replay` does.
    """
    actions = list(record.actions)
    unnumbered = [a.model_copy(update={"round": None}) if a.round is not None else a for a in actions]
    result = replay(record.model_copy(update={"actions": tuple(unnumbered)}), ruleset)
    first = len(record.preplay)
    for i, pos in enumerate(result.positions[first : first + len(actions)]):
        number = pos.round if pos.top is None and not pos.over else None
        if actions[i].round != number:
            actions[i] = actions[i].model_copy(update={"round": number})
    return record.model_copy(update={"actions": tuple(actions)})
