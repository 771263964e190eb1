"""HTML replays (牌局回放): one self-contained page per hand, rendered with Jinja2.

The page is ``html_templates/replay.html.j2`` with autoescaping on; the replay
data goes in as JSON through Jinja2's ``tojson`` filter, which escapes ``<``,
``>`` and ``&`` so nothing in a record can close the script element. The page
makes no network request.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
import markupsafe

from ..report import Problem
from ..replay import Replay
from ..rules.cards import format_cards
from ..rules.engine import Position
from ..rules.events import PLACE_NAMES_EN, PLACE_NAMES_ZH, EventKind
from ..rules.rulesets import RULES


def _template_dir() -> Path:
    packaged = resources.files("gouji_record").joinpath("html_templates")
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "html_templates"


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(_template_dir()),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _frame(pos: Position, trick: list[int]) -> dict[str, Any]:
    return {
        "hands": [format_cards(h) for h in pos.hands],
        "counts": [sum(h) for h in pos.hands],
        "toAct": pos.to_act,
        "top": None if pos.top is None else {"seat": pos.top.seat, "cards": str(pos.top.play)},
        "trick": trick,
        "round": pos.round,
        "finished": list(pos.finished),
        "headless": [s for s in range(1, 7) if pos.headless(s) and sum(pos.hands[s - 1])],
        "melee": pos.melee,
        "burner": pos.burner,
        "opened": sorted(pos.opened),
    }


def replay_data(result: Replay, problem: Problem | None = None, lines: list[str] | None = None) -> dict[str, Any]:
    """Everything the replay page shows, as JSON-ready data.

    ``frames[i]`` is the table after ``i`` actions (``frames[0]`` the deal);
    its ``trick`` lists the indices of the actions of the round the last
    action belongs to. ``events`` carry their action index, labels in both
    languages and the rule's source.
    """
    record = result.record
    frames, start = [], 0
    for i, pos in enumerate(result.positions):
        if i > 0 and result.positions[i - 1].top is None:
            start = i - 1
        frames.append(_frame(pos, list(range(start, i))))
    rounds = []
    number = 0
    for pos in result.positions[: len(record.actions)]:
        if pos.top is None and not pos.over:
            number = pos.round
        rounds.append(number)
    events = [
        {
            "action": e.action,
            "kind": e.kind.value,
            "zh": e.kind.zh,
            "en": e.kind.en,
            "seats": list(e.seats),
            "cards": e.cards,
            "place": e.place,
            "rule": RULES[e.rule][0],
            "ruleZh": RULES[e.rule][1],
            "source": e.source,
        }
        for e in result.events
        if e.kind is not EventKind.ROUND_END
    ]
    diagnostic = None
    if result.diagnostic is not None:
        d = result.diagnostic
        diagnostic = {
            "action": d.action,
            "code": d.code,
            "message": d.message,
            "source": d.source,
            "rule": RULES.get(d.rule, (d.rule, ""))[0],
            "where": problem.format(lines) if problem else "",
        }
    return {
        "tags": [[k, v] for k, v in record.tags.items()],
        "players": [record.player(s) for s in range(1, 7)],
        "ruleset": {"name": result.ruleset.name, "title": result.ruleset.title, "seed": result.ruleset.seed},
        "actions": [
            {
                "seat": a.seat,
                "kind": a.kind.value,
                "cards": a.cards,
                "burn": a.burn,
                "text": a.text,
                "glyph": a.glyph,
                "comments": list(a.comments),
                "round": rounds[i] if i < len(rounds) else None,
            }
            for i, a in enumerate(record.actions)
        ],
        "comment": list(record.comment),
        "frames": frames,
        "events": events,
        "diagnostic": diagnostic,
        "places": list(result.places) if result.final.over else None,
        "scores": result.scores,
        "placeNames": {"zh": list(PLACE_NAMES_ZH), "en": list(PLACE_NAMES_EN)},
    }


def render_replay(result: Replay, problem: Problem | None = None, lines: list[str] | None = None) -> str:
    """The HTML page replaying ``result``; ``problem`` locates its diagnostic in the file
    (whose ``lines`` it may quote), if any."""
    data = replay_data(result, problem, lines)
    title = result.record.tags.get("Event", "够级")
    return _environment().get_template("replay.html.j2").render(title=title, data=data, **_assets())


@lru_cache(maxsize=1)
def _assets() -> dict[str, markupsafe.Markup]:
    """The page's stylesheet and script, inlined verbatim (they are ours, not the record's)."""
    folder = _template_dir()
    return {name: markupsafe.Markup((folder / f"replay.{name}").read_text(encoding="utf-8")) for name in ("css", "js")}
