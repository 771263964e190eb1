"""The statistics page (统计页): ``gouji stats --format html``, one self-contained HTML page.

The page is ``html_templates/stats.html.j2``, rendered with the replay page's Jinja2 environment
(autoescaping on, control characters made inert), its CSS inlined (``base.css``, shared with the
replay page, then ``stats.css``); it has no script and makes no request. It shows, in one language
(``zh`` or ``en``, every label in that language only; names from the records as written):

- the table of the tallies, every column of :data:`~gouji_record.analysis.stats.COLUMNS`, each cell as the
  terminal table writes it (:func:`~gouji_record.analysis.stats.cell`);
- places 头科 … 大落 per row, stacked bars;
- the team points of each match hand by hand, running totals, a line per team
  (:meth:`~gouji_record.analysis.stats.Stats.match_points`);
- burns (烧牌) per row by outcome: succeeded, failed, broken (and running, when a hand stopped
  with one under way), stacked bars.

Charts are SVG drawn in a ``viewBox`` :data:`WIDTH` units wide and scaled to the width of the
screen, so their text keeps its size against the bars: :data:`FONT` units, about 11 px on a
phone 390 px wide. Every number drawn is a tally's value; each bar and point has a ``<title>``
(its tooltip) with its row, what it counts and the value. :func:`stats_page_data` computes all of
it (data and geometry); the template only writes it.
"""

from __future__ import annotations

import math
from typing import Any

from ..rules.events import PLACE_NAMES_EN, PLACE_NAMES_ZH
from ..analysis.stats import COLUMNS, PAIR_COLUMNS, MatchPoints, Pairs, Stats, Tally, cell
from ..width import is_wide
from .html import LANGUAGES, environment, stylesheet

#: The width of every chart's viewBox, and the size of its text, in viewBox units.
WIDTH, FONT = 440, 15
#: Bar charts: the height of a row and of its bar, the space for the row's name and where bars start and end.
ROW, BAR, BAR_X, BAR_END = 30, 20, 124, WIDTH - 36
#: Charts show at most this many rows (the rows with most hands) and this many matches.
MAX_ROWS, MAX_MATCHES = 30, 12

#: The page's words, (中文, English).
WORDS: dict[str, tuple[str, str]] = {
    "title": ("够级统计", "Gouji statistics"),
    "hands": ("{n}局", "{n} hands"),
    "one hand": ("{n}局", "{n} hand"),
    "table": ("统计表", "Tallies"),
    "places": ("名次（终局）", "Places (finished hands)"),
    "points": ("比赛得分（每局后累计）", "Match points (running total after each hand)"),
    "burns": ("烧牌结果", "Burns by outcome"),
    "no burns": ("没有烧牌。", "No burns."),
    "no matches": ("没有比赛（Match 标签）的牌局。", "No hands of a match (Match tag)."),
    "capped": ("图中只列局数最多的{n}行；表中全列。", "The charts show the {n} rows with most hands; the table shows all."),
    "matches capped": ("只画前{n}场比赛。", "Only the first {n} matches are drawn."),
    "empty": ("没有读到牌局。", "No hand was read."),
    "hand": ("第{n}局", "hand {n}"),
    "team1": ("联邦 1-3-5", "team 1-3-5"),
    "team0": ("联邦 2-4-6", "team 2-4-6"),
    "total": ("合计", "total"),
    "player": ("选手", "Player"),
    "pair places": ("选手名次（终局）", "The player's places (finished hands)"),
}
#: "by player" … and the heading of the table's first column.
BY_WORDS: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "player": (("按选手", "by player"), ("选手", "Player")),
    "seat": (("按座位", "by seat"), ("座位", "Seat")),
    "team": (("按联邦", "by team"), ("联邦", "Team")),
    "ruleset": (("按规则", "by ruleset"), ("规则", "Ruleset")),
    "opposite": (("对头交锋", "head to head"), ("对头", "Opposite")),
    "partner": (("同联邦搭档", "with partners"), ("搭档", "Partner")),
}
#: The heading of each column of :data:`~gouji_record.analysis.stats.COLUMNS` on the page, (中文, English).
HEADINGS: dict[str, tuple[str, str]] = {
    "hands": ("局数", "Hands"),
    **{f"p{i + 1}": (PLACE_NAMES_ZH[i], PLACE_NAMES_EN[i]) for i in range(6)},
    "points": ("得分", "Points"),
    "points_per_hand": ("每局得分", "Points per hand"),
    "opened": ("开点", "Opened"),
    "gouji_made": ("够级", "Gouji plays"),
    "gouji_answered": ("打点", "Answered"),
    "burns": ("烧牌", "Burns"),
    "burns_succeeded": ("烧成功", "Succeeded"),
    "burns_failed": ("烧失败", "Failed"),
    "burns_broken": ("解烧", "Broken"),
    "smothered": ("被闷", "Smothered"),
    "revolts": ("革命", "Revolutions"),
    "tribute_paid": ("进贡", "Tribute paid"),
    "tribute_received": ("收贡", "Tribute received"),
    "illegal": ("违规", "Illegal actions"),
    "invalid": ("无效局", "Invalid hands"),
    "decisions": ("决策", "Decisions"),
    "missed": ("失机", "Chances missed"),
    "missed_per_100": ("每百决策失机", "Missed per 100 decisions"),
    # the head-to-head and partner tables (PAIR_COLUMNS)
    "finished": ("终局", "Finished"),
    "wins": ("胜", "Wins"),
    "losses": ("负", "Losses"),
    "ties": ("平", "Ties"),
    "win_rate": ("胜率", "Win rate"),
    "ahead": ("名次在前", "Placed ahead"),
}
#: The burn outcomes drawn, (field of the tally, 中文, English).
OUTCOMES = (
    ("burns_succeeded", "烧成功", "succeeded"),
    ("burns_failed", "烧失败", "failed"),
    ("burns_broken", "解烧", "broken"),
)
RUNNING = ("进行中", "running")


def _say(key: str, lang: str, **values: Any) -> str:
    return WORDS[key][LANGUAGES.index(lang)].format(**values)


def _colon(lang: str) -> str:
    return "：" if lang == "zh" else ": "


def row_name(by: str, key: str, lang: str) -> str:
    """A row's name on the page: a seat's in the page's language (``3号位``, ``seat 3``); a
    player's, team's or ruleset's as it is."""
    if by == "seat" and lang == "zh":
        return key.replace("seat ", "") + "号位"
    return key


def _em(c: str) -> float:
    """About the width of ``c`` in em, as DejaVu Sans draws it (the widest of the usual sans-serif
    faces), rounded up by kind: wide (CJK) and W, M, m, w; capitals and digits; small letters; the
    narrow letters and punctuation; a space."""
    if is_wide(c) or c in "Wm@%…":
        return 1.0
    if c in "Mw" or not c.isascii() or not (c.isalnum() or c in " .,:;'!|-()[]"):
        return 0.87
    if c.isupper() or c.isdigit():
        return 0.8 if c not in "IJ" else 0.4
    if c.islower():
        return 0.64 if c not in "iljfrt" else 0.4
    return 0.32 if c == " " else 0.4


#: The room for a row's name, left of the bars, in em of the charts' text.
NAME_EM = (BAR_X - 6) / FONT


def _fit(text: str, width: float = NAME_EM) -> str:
    """``text`` cut to what fits in ``width`` em (:func:`_em`: a capital W is wider than an i),
    ``…`` marking a cut."""
    if sum(map(_em, text)) <= width:
        return text
    out, used = "", _em("…")
    for c in text:
        if used + _em(c) > width:
            break
        out, used = out + c, used + _em(c)
    return out + "…"


def _n(x: float) -> float | int:
    """A coordinate as the SVG writes it: whole, or with one decimal."""
    r = round(x, 1)
    return int(r) if r == int(r) else r


def _bars(
    rows: list[tuple[str, list[int]]], names: list[str], classes: list[str], lang: str
) -> dict[str, Any]:
    """A stacked bar chart: one bar per ``(name, counts)`` row, a segment per count (``names`` and
    ``classes`` of the segments), the total at the bar's end."""
    top = max((sum(counts) for _, counts in rows), default=0) or 1
    scale = (BAR_END - BAR_X) / top
    drawn = []
    for i, (name, counts) in enumerate(rows):
        y = 8 + i * ROW
        x, segments = BAR_X, []
        for count, what, css in zip(counts, names, classes):
            if not count:
                continue
            w = count * scale
            segments.append(
                {
                    "x": _n(x),
                    "width": _n(w),
                    "class": css,
                    "value": count,
                    "title": f"{name} · {what}{_colon(lang)}{count}",
                    "label": len(str(count)) * 9 + 6 <= w,  # the count inside, where it fits
                    "mid": _n(x + w / 2),
                }
            )
            x += w
        drawn.append(
            {
                "name": _fit(name),
                "full": name,
                "y": y,
                "text_y": _n(y + BAR / 2 + FONT * 0.35),
                "segments": segments,
                "total": sum(counts),
                "total_x": _n(x + 5),
                "total_title": f"{name} · {_say('total', lang)}{_colon(lang)}{sum(counts)}",
            }
        )
    return {"width": WIDTH, "height": 8 * 2 + len(rows) * ROW - (ROW - BAR), "rows": drawn, "bar": BAR, "name_x": BAR_X - 6}


def _step(span: float) -> int:
    """A round step for the value axis: at most five steps over ``span``."""
    for magnitude in range(0, 12):
        for unit in (1, 2, 5):
            step = unit * 10**magnitude
            if span / step <= 5:
                return step
    return 10**12


def _points_chart(points: MatchPoints, lang: str) -> dict[str, Any]:
    """A line chart of a match's running team points, a line per team, a dot per hand."""
    height, left, right, top = 240, 46, WIDTH - 14, 30
    bottom = height - 56
    values = points.team1 + points.team0 + [0]
    low, high = min(values), max(values)
    step = _step(max(high - low, 1))
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if low == high:
        low, high = low - step, high + step

    def y(v: int) -> float:
        return bottom - (v - low) / (high - low) * (bottom - top)

    n = len(points.hands)
    band = (right - left) / n

    def x(i: int) -> float:
        return left + (i + 0.5) * band

    every = math.ceil(n / 8)  # at most about eight hand labels under the axis
    shown = n <= 12  # the values by the dots, when there is room
    lines = []
    for team, run in (("team1", points.team1), ("team0", points.team0)):
        other = points.team0 if team == "team1" else points.team1
        dots = []
        for i, v in enumerate(run):
            above = v > other[i] or (v == other[i] and team == "team1")
            dots.append(
                {
                    "x": _n(x(i)),
                    "y": _n(y(v)),
                    "value": v,
                    "title": f"{_say(team, lang)} · {_say('hand', lang, n=points.hands[i])}{_colon(lang)}{v}",
                    "label_y": _n(y(v) - 9 if above else y(v) + 9 + FONT * 0.75),
                }
            )
        lines.append(
            {
                "team": team,
                "name": _say(team, lang),
                "points": " ".join(f"{d['x']},{d['y']}" for d in dots),
                "dots": dots,
            }
        )
    return {
        "match": points.match,
        "width": WIDTH,
        "height": height,
        "left": left,
        "right": right,
        "ticks": [{"value": v, "y": _n(y(v))} for v in range(low, high + step, step)],
        "hands": [
            {"label": h, "x": _n(x(i)), "title": _say("hand", lang, n=h)}
            for i, h in enumerate(points.hands)
            if (i % every == 0 and not 0 < n - 1 - i < every) or i == n - 1  # the last, and none too near it
        ],
        "hand_y": height - 12,
        "lines": lines,
        "shown": shown,
    }


def stats_page_data(stats: Stats, lang: str = "zh", columns: tuple[tuple[str, str], ...] = COLUMNS) -> dict[str, Any]:
    """Everything the statistics page shows of ``stats``, in ``lang``, as the template reads it:
    ``title``, ``summary``, the table (``headings``, ``rows`` of cells), and the charts:
    ``places`` and ``burns`` (``{"width", "height", "rows": [{"name", "segments": [{"x", "width",
    "value", "title"}], "total"}]}``, or ``None`` when there is nothing to draw) and ``matches``
    (one line chart per match: ``{"match", "lines": [{"team", "dots": [{"x", "y", "value",
    "title"}]}], "ticks", "hands"}``), with the legends' names and ``notes``; the table's
    ``columns`` (:data:`~gouji_record.analysis.stats.COLUMNS`, by default).

    Raises:
        ValueError: a ``lang`` other than ``zh`` and ``en``.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}")
    zh, at = lang == "zh", LANGUAGES.index(lang)
    tallies = stats.table()
    drawn: list[Tally] = tallies[:MAX_ROWS]
    names = {t.key: row_name(stats.by, t.key, lang) for t in tallies}
    place_names = list(PLACE_NAMES_ZH if zh else PLACE_NAMES_EN)
    places = _bars([(names[t.key], t.places) for t in drawn], place_names, [f"p{place}" for place in range(1, 7)], lang)
    outcomes = [o[1] if zh else o[2] for o in OUTCOMES] + [RUNNING[0] if zh else RUNNING[1]]
    burn_rows = []
    for t in drawn:
        counts = [getattr(t, field) for field, _, _ in OUTCOMES]
        burn_rows.append((names[t.key], counts + [t.burns - sum(counts)]))  # running: under way when the hand stopped
    running = any(counts[-1] for _, counts in burn_rows)
    if not running:
        burn_rows = [(name, counts[:-1]) for name, counts in burn_rows]
        outcomes = outcomes[:-1]
    burn_classes = ["success", "failed", "broken", "running"][: len(outcomes)]
    burns = _bars(burn_rows, outcomes, burn_classes, lang) if any(t.burns for t in drawn) else None
    runs = stats.match_points()
    notes = []
    if len(tallies) > MAX_ROWS:
        notes.append(_say("capped", lang, n=MAX_ROWS))
    by_words, key_heading = BY_WORDS[stats.by]
    count = _say("one hand" if stats.hands == 1 else "hands", lang, n=stats.hands)
    return {
        "lang": lang,
        "pairs": False,
        "title": _say("title", lang),
        "summary": f"{by_words[at]} · {count}",
        "words": {k: _say(k, lang) for k in ("table", "places", "points", "burns", "no burns", "no matches", "empty")},
        "headings": [key_heading[at]] + [HEADINGS[name][at] for _, name in columns],
        "rows": [{"name": names[t.key], "cells": [cell(t, name) for _, name in columns]} for t in tallies],
        "places": places if drawn else None,
        "legend_places": [{"name": n, "class": f"p{i}"} for i, n in enumerate(place_names, 1)],
        "burns": burns,
        "legend_burns": [{"name": n, "class": c} for n, c in zip(outcomes, burn_classes)],
        "matches": [_points_chart(p, lang) for p in runs[:MAX_MATCHES]],
        "matches_note": _say("matches capped", lang, n=MAX_MATCHES) if len(runs) > MAX_MATCHES else "",
        "legend_teams": [{"name": _say(t, lang), "class": t} for t in ("team1", "team0")],
        "notes": notes,
    }


def pairs_page_data(pairs: Pairs, lang: str = "zh") -> dict[str, Any]:
    """What the statistics page shows of head-to-head or partner tables (``gouji stats --by
    opposite|partner --format html``): the table (the player, the other, every column of
    :data:`~gouji_record.analysis.stats.PAIR_COLUMNS`) and the player's places per pair; the keys
    of :func:`stats_page_data`, with ``pairs`` true and no burns or match charts (a pair's
    tallies have none).

    Raises:
        ValueError: another ``lang``.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}")
    at = LANGUAGES.index(lang)
    tallies = pairs.table()
    place_names = list(PLACE_NAMES_ZH if lang == "zh" else PLACE_NAMES_EN)
    drawn = tallies[:MAX_ROWS]
    versus = " · " if lang == "en" else "·"
    places = _bars([(f"{t.player}{versus}{t.other}", t.places) for t in drawn], place_names, [f"p{i}" for i in range(1, 7)], lang)
    by_words, key_heading = BY_WORDS[pairs.by]
    count = _say("one hand" if pairs.hands == 1 else "hands", lang, n=pairs.hands)
    return {
        "lang": lang,
        "pairs": True,
        "title": _say("title", lang),
        "summary": f"{by_words[at]} · {count}",
        "words": {
            **{k: _say(k, lang) for k in ("table", "points", "burns", "no burns", "no matches", "empty")},
            "places": _say("pair places", lang),
        },
        "headings": [_say("player", lang), key_heading[at]] + [HEADINGS[name][at] for _, name in PAIR_COLUMNS],
        "rows": [{"name": t.player, "also": t.other, "cells": [cell(t, name) for _, name in PAIR_COLUMNS]} for t in tallies],
        "places": places if drawn else None,
        "legend_places": [{"name": n, "class": f"p{i}"} for i, n in enumerate(place_names, 1)],
        "burns": None,
        "matches": [],
        "notes": [_say("capped", lang, n=MAX_ROWS)] if len(tallies) > MAX_ROWS else [],
    }


def render_stats(stats: Stats | Pairs, *, lang: str = "zh", columns: tuple[tuple[str, str], ...] = COLUMNS) -> str:
    """The statistics page of ``stats`` (:class:`~gouji_record.analysis.stats.Stats`, or the
    head-to-head or partner :class:`~gouji_record.analysis.stats.Pairs`) in ``lang`` (``zh`` or
    ``en``): one self-contained HTML page, as a string (see :func:`stats_page_data` and
    :func:`pairs_page_data` for what it shows); ``columns`` the table's columns of a
    :class:`Stats` (``gouji stats --review`` adds :data:`~gouji_record.analysis.stats.REVIEW_COLUMNS`).
    Raises :class:`ValueError` for another ``lang``."""
    data = pairs_page_data(stats, lang) if isinstance(stats, Pairs) else stats_page_data(stats, lang, columns)
    return environment().get_template("stats.html.j2").render(page=data, css=stylesheet("stats"))
