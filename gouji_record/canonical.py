"""The canonical form of a record (规范格式): rounds numbered where the engine says they start.

``gouji fmt`` writes :func:`canonical` of each record. Everything else in the
export form (tag order, card order, line width) is the writer's.
"""

from __future__ import annotations

from .model import GameRecord
from .replay import Replay


def canonical(result: Replay) -> GameRecord:
    """``result.record`` with a round number before each lead the engine
    replayed and none elsewhere; actions after an illegal one keep what the
    record says."""
    record = result.record
    actions = list(record.actions)
    first = len(record.preplay)
    for i, pos in enumerate(result.positions[first : first + len(actions)]):
        number = pos.round if pos.top is None and not pos.over else None
        if actions[i].round != number:
            actions[i] = actions[i].model_copy(update={"round": number})
    return record.model_copy(update={"actions": tuple(actions)})
