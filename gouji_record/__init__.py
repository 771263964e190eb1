"""gouji-record: a notation, rules engine and replays for 够级 (Gouji).

The public API is :mod:`gouji_record.api` (docs/api.md is its page): ``gouji_record.parse``,
``gouji_record.read``, ``gouji_record.replay`` … are its names, imported the first time one is
asked for (PEP 562), so that importing a part of the package (the ``gouji`` command's first
module, which handles Ctrl-C and SIGTERM) does not import all of it first.

>>> import gouji_record as gj
>>> gj.write is gj.api.write, "parse" in dir(gj)
(True, True)
"""

from __future__ import annotations

__version__ = "0.1.0"

#: The names of :mod:`gouji_record.api` the root gives.
__all__ = [
    "PRESETS",
    "Action",
    "ActionKind",
    "BadArgument",
    "BadOption",
    "CardError",
    "Diagnostic",
    "Event",
    "EventKind",
    "GameRecord",
    "GoujiError",
    "Headers",
    "HiddenPlays",
    "IllegalAction",
    "MatchJudge",
    "NotationError",
    "Position",
    "Replay",
    "Ruleset",
    "RulesetOverride",
    "UnknownEncoding",
    "UnknownRuleset",
    "Verdict",
    "first_leader",
    "format_cards",
    "get_ruleset",
    "initial_position",
    "legal_actions",
    "parse",
    "parse_cards",
    "read",
    "read_headers",
    "read_verdicts",
    "render_html",
    "replay",
    "ruleset_of",
    "step",
    "verdict",
    "verdicts",
    "with_options",
    "write",
    "write_all",
]


def __getattr__(name: str):
    """``gouji_record.NAME``: the name of :mod:`gouji_record.api`, imported then. Raises
    :class:`AttributeError` for a name it does not give."""
    if name in __all__:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'gouji_record' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
