"""gouji-record: a notation, rules engine and replays for 够级 (Gouji).

The public API, in the order data flows::

    records = parse(text)            # .gjn text → [GameRecord]
    records = read("hand.gjn")       # the same, from a file
    for h in read_headers("big.gjn"):  # each hand's tags and place, the deal and play not parsed
        h.tags["Seat1"], h.index     #   h.record(): that hand read whole
    result = replay(records[0])      # → Replay: positions, events, the hand's own diagnostic
    for v in verdicts(records):      # → Verdict: the whole verdict, within its match too
        v.valid, v.diagnostics       #   (what gouji validate and every other command report)
    text = write(records[0])         # GameRecord → canonical .gjn text
    html = render_html(records[0])   # → one self-contained HTML page

The engine underneath, as python-chess has its board: a :class:`Position` plus an
:class:`Action` gives the next position and the events, or raises :class:`IllegalAction`
(every error the package raises on purpose is a :class:`GoujiError`):

>>> rules = with_options(get_ruleset("charter"), {"claim": "no"})
>>> pos = initial_position(rules, ("TTTTT?31", "?36", "?36", "JJJJJ?31", "?36", "?36"), leader=1)
>>> pos, events = step(pos, Action(seat=1, kind="play", cards="TTTTT"))
>>> [e.kind.value for e in events], pos.to_act
(['gouji'], 4)
>>> try:
...     step(pos, Action(seat=3, kind="play", cards="QQQQQ"))
... except IllegalAction as e:
...     print(e.code, "|", e.diagnostic.rule)
gouji-not-opposite | gouji-opposite-only
"""

from __future__ import annotations

from pathlib import Path

from .errors import GoujiError
from .model import Action, ActionKind, GameRecord
from .notation import NotationError, parse_text, write, write_all
from .notation.files import read_hands, text_encoding
from .notation.headers import Headers, hand_records, read_headers
from .judging.lead import first_leader
from .judging.replay import Replay, replay
from .rules.engine import Position, initial_position, step
from .rules.events import Diagnostic, Event, EventKind, IllegalAction
from .rules.rulesets import PRESETS, BadOption, Ruleset, UnknownRuleset, get_ruleset, with_options
from .matches.verdict import MatchJudge, Verdict, verdict, verdicts

__version__ = "0.1.0"


def parse(text: str) -> list[GameRecord]:
    """Parse ``.gjn`` text into records, one per hand.

    Raises :class:`NotationError` (with line and column) for text that is not a record.
    """
    return [record for record, _ in parse_text(text)]


def read(path: str | Path, encoding: str | None = None) -> list[GameRecord]:
    """Read a ``.gjn`` file into records, one per hand, through the splitter every command uses
    (:func:`~gouji_record.notation.files.read_hands`: any line ends, a byte-order mark dropped).
    ``encoding`` reads a file that is not UTF-8 (``"gb18030"``), as ``--encoding`` does.

    Raises :class:`NotationError` for a file that cannot be read (code ``unreadable``), is not
    UTF-8 or not in ``encoding`` (``encoding``, at the first bad byte) or is not a record; its
    ``file``, ``hand``, ``line`` and ``column`` say where. An unknown ``encoding`` raises
    :class:`~gouji_record.notation.files.UnknownEncoding` (a ``ValueError``).
    """
    records: list[GameRecord] = []
    for hand in read_hands(str(path), encoding=text_encoding(encoding)):
        records += hand_records(hand)
    return records


def render_html(record: GameRecord, ruleset: Ruleset | None = None) -> str:
    """A self-contained HTML replay of ``record`` (see :mod:`gouji_record.render.html`)."""
    from .render.html import render_replay

    return render_replay(replay(record, ruleset))


__all__ = [
    "Action",
    "ActionKind",
    "BadOption",
    "Diagnostic",
    "Event",
    "EventKind",
    "GameRecord",
    "GoujiError",
    "Headers",
    "IllegalAction",
    "MatchJudge",
    "NotationError",
    "PRESETS",
    "Position",
    "Replay",
    "Ruleset",
    "UnknownRuleset",
    "Verdict",
    "first_leader",
    "get_ruleset",
    "initial_position",
    "step",
    "with_options",
    "parse",
    "read",
    "read_headers",
    "render_html",
    "replay",
    "verdict",
    "verdicts",
    "write",
    "write_all",
]
