"""HTML replays (牌局回放): one self-contained page per file, every hand in it, rendered with Jinja2.

The page is ``html_templates/replay.html.j2`` with autoescaping on; the
stylesheet and script are inlined, and the replay data goes in as JSON written
as Jinja2's ``tojson`` filter writes it (a hand at a time), with ``<``, ``>``,
``&`` and ``'`` as ``\\u003c`` … so nothing in a record can close the script
element. The script only ever sets ``textContent``. The page's
Content-Security-Policy forbids every network request; it works from
``file://``.

:func:`replay_data` computes everything the page shows (data); the template
and ``replay.js`` only present it.
"""

from __future__ import annotations

import re
import tempfile
import uuid
import zlib
from dataclasses import replace
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import islice
from importlib import resources
from pathlib import Path
from typing import Any, Protocol, overload

import jinja2
import markupsafe
from jinja2.utils import htmlsafe_json_dumps

from ..bilingual import english_only, zh_of
from ..judging.buying import trade_names
from ..matches.match import KIND_NAMES, HandInMatch
from ..matches.verdict import MatchJudge
from ..model import ActionKind
from ..judging.replay import Replay
from ..analysis.review import KINDS, Finding, estimate_line, review as review_hand
from ..judging.report import Problem, printable
from ..cards import format_cards
from ..rules.engine import Position
from ..rules.events import PLACE_NAMES_EN, PLACE_NAMES_ZH, EventKind
from ..rules.rulesets import RULES
from .citations import cite_forms, title_forms

LANGUAGES = ("zh", "en")


def _template_dir() -> Path:
    packaged = resources.files("gouji_record").joinpath("html_templates")
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "html_templates"


#: C0 controls but tab and newline, and DEL: autoescaping leaves them raw in the page.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f]")


def _inert(value: Any) -> Any:
    """A value the template writes, with every C0 control (but tab and newline) and DEL as a character
    reference: the page's text is the same (HTML keeps these code points), but the file holds no
    escape sequence from a record (ANSI colours, OSC titles or clipboard writes) for a terminal that
    shows it to act on. Our own Markup (the inlined assets, the page's JSON, which is ASCII with
    every control escaped) is written as it is."""
    if isinstance(value, markupsafe.Markup):
        return value
    text = markupsafe.escape(value)
    return markupsafe.Markup(_CONTROLS.sub(lambda m: f"&#{ord(m.group())};", text))


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    """The Jinja2 environment of the pages (the replay, the stats page): the templates of
    html_templates/, autoescaped, control characters made inert, undefined names an error."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(_template_dir()),
        autoescape=True,
        finalize=_inert,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "separators": (",", ":")}  # no spaces: a smaller page
    return env


def _rule(key: str) -> dict[str, str]:
    en, zh = RULES.get(key, (key, key))
    return {"key": key, "en": en, "zh": zh}


def _cite(source: str, names: dict[str, str]) -> dict[str, str]:
    """A source (``"<text name> §N (原文)"``) as the page shows it in each language (see
    :mod:`~gouji_record.render.citations`), the rule text named in that language (``names``:
    ``{"zh": "够级大纲", "en": "Qingdao charter"}``)."""
    head = names["zh"] + " "
    section = source[len(head) :] if source.startswith(head) else source
    forms = cite_forms(section)
    named = source.startswith(head)
    return {lang: f"{names[lang]} {text}" if named else text for lang, text in forms.items()}


def _where(problem: Problem, lines: list[str] | None) -> dict[str, str]:
    """Where a diagnostic stands in the file: ``at`` (``FILE:LINE:COL``) and ``excerpt``, the line
    with a caret under the action (the record's own text), as ``gouji validate`` quotes them."""
    at = f"{problem.path}:{problem.line}:{problem.column}" if problem.line > 0 else problem.path
    quoted = replace(problem, rule="").format(lines).split("\n", 1)
    return {"at": printable(at), "excerpt": quoted[1] if len(quoted) > 1 else ""}


def _frame(pos: Position, trick: list[int], top_action: int | None) -> dict[str, Any]:
    """The table after some actions: hands, whose turn, the round so far, the states of the seats."""
    top = None
    if pos.top is not None:
        t = pos.top
        top = {
            "seat": t.seat,
            "cards": str(t.play),
            "action": top_action,
            "gouji": t.restricted,
            "unbeatable": t.unbeatable,
            "burnOnly": t.burn_only,
        }
    return {
        "hands": [format_cards(h) for h in pos.hands],
        "unknown": list(pos.unknown),
        "counts": [pos.holds(s) for s in range(1, 7)],
        "toAct": pos.to_act,
        "top": top,
        "trick": trick,
        "round": pos.round,
        "finished": list(pos.finished),
        "out": list(pos.out),
        "revolted": list(pos.revolted),
        "places": list(pos.places),
        "headless": [s for s in range(1, 7) if pos.headless(s) and not pos.gone(s)],
        "melee": pos.melee,
        "burner": pos.burner,
        "burnTarget": pos.burn_target,
        "opened": sorted(pos.opened),
        "over": pos.over,
        "void": pos.void,
    }


def replay_data(
    result: Replay,
    problem: Problem | None = None,
    lines: list[str] | None = None,
    kinds: list[str | None] | None = None,
    findings: list[Finding] | None = None,
    seen_by: tuple[int, list[Finding]] | None = None,
) -> dict[str, Any]:
    """Everything the replay page shows of one hand, as JSON-ready data.

    ``actions`` are the record's actions in the order the engine replays them
    (declarations first); a transfer of a purchase or gift carries its ``trade``, named in both
    languages (买三 / buying a 3, 买四, 赠与), and so does a transfer of tribute whose kind
    ``kinds`` gives per pre-play action (:func:`~gouji_record.matches.match.transfer_kinds`: 落贡 /
    place tribute, 还贡 …); ``frames[i]`` is the table after ``i`` actions
    (``frames[0]`` the deal). A frame's ``trick`` lists the indices of the
    actions of the round the last action belongs to, and its ``top`` the play
    to beat with the index of the action that made it. ``events`` (all but ``round-end``) carry
    their action index, their ``round`` (一轮, from 1; ``None`` before play), labels in both
    languages, the rule (in both languages), its source and their ``note`` in both languages.
    ``diagnostic`` is the first illegal action (or inconsistency) with its message (``message``,
    as the command line prints it, and ``text`` in each language), rule and source, and
    ``where`` it stands in the file; the frames stop before that action. ``cites`` gives each source cited, in each
    language (:mod:`~gouji_record.render.citations`). ``review`` holds the ``findings`` of
    :func:`~gouji_record.analysis.review.review`, if given, shaped as events (``review: true``, the
    finding's text and estimates as their ``note``): the page draws them on a lane of their own.
    ``seen_by`` (a seat and the findings of ``review(result, view=seat)``) gives ``reviewViews``:
    the review from that seat's view, which the page shows in that seat's view; in any other
    seat's view the page labels the whole-table findings as such (全局视角), since they use cards
    the seat does not see.
    Every text the page shows comes in both languages; the record's own (names, tags, comments)
    as it is written.
    """
    data = _hand_data(result, problem, lines, kinds, findings, seen_by)
    data["actions"] = list(action_rows(result, kinds))
    return data


def _trades(result: Replay, kinds: list[str | None] | None) -> list[tuple[str, str] | None]:
    """Per action of ``result`` (in the order the engine replays them), the names of its trade in
    both languages: a purchase or gift (买三, 赠与), or a transfer of tribute by its kind in
    ``kinds`` (落贡 …); ``None`` for any other action."""
    record = result.record
    trades = trade_names(record.preplay) + [None] * len(record.actions)
    for i, kind in enumerate(kinds or ()):  # tribute named by its kind (落贡, 还贡 …), as the match explains it
        if kind is not None:
            trades[i] = KIND_NAMES[kind][0], KIND_NAMES[kind][1]
    return trades


def action_rows(result: Replay, kinds: list[str | None] | None = None) -> Iterator[dict[str, Any]]:
    """The ``actions`` of :func:`replay_data`, one dictionary at a time (a hand may have hundreds
    of thousands: the page writes them as they come)."""
    all_actions = result.record.all_actions
    positions = result.positions
    trades = _trades(result, kinds)
    number = None
    at_lead = {i: (number, i == at[0]) for number, at in result.leads().items() for i in at}
    for i, a in enumerate(all_actions):
        lead = False
        if i in at_lead:  # a round is led once, a ruled ^ action at its lead included (2. ^5:66 4:3333)
            number, lead = at_lead[i]
        elif i >= len(positions):  # not replayed: after the illegal action
            lead = a.round is not None
            number = a.round if a.round is not None else number
        yield {
            "seat": a.seat,
            "kind": a.kind.value,
            "to": a.to,
            "cards": a.cards,
            "burn": a.burn,
            "text": a.plain_text,
            "glyph": a.glyph or "",
            "nags": list(a.nags),
            "irregular": a.irregular,
            "comments": list(a.comments),
            "preplay": a.kind.preplay,
            "purpose": a.purpose,
            "suit": a.suit,
            "trade": {"zh": trades[i][0], "en": trades[i][1]} if trades[i] else None,
            "round": None if a.kind.preplay else number,
            "lead": lead,
        }


def _hand_data(
    result: Replay,
    problem: Problem | None,
    lines: list[str] | None,
    kinds: list[str | None] | None,
    findings: list[Finding] | None,
    seen_by: tuple[int, list[Finding]] | None,
) -> dict[str, Any]:
    """:func:`replay_data` without its ``actions`` (:func:`action_rows` gives them)."""
    record = result.record
    all_actions = record.all_actions
    positions = result.positions
    frames, start = [], 0
    for i, pos in enumerate(positions):
        if i > 0 and positions[i - 1].top is None:
            start = i - 1
        trick = list(range(start, i))
        top_action = None
        if pos.top is not None:
            top_action = next(
                (
                    j
                    for j in reversed(trick)
                    if all_actions[j].seat == pos.top.seat and all_actions[j].kind is ActionKind.PLAY
                ),
                None,
            )
        frames.append(_frame(pos, trick, top_action))
    trades = _trades(result, kinds)
    events = [
        {
            "action": e.action,
            "round": e.round,
            "kind": e.kind.value,
            "zh": e.kind.zh,
            "en": e.kind.en,
            "seats": list(e.seats),
            "cards": e.cards,
            "place": e.place,
            "note": {"zh": e.note_zh or e.note, "en": english_only(e.note)} if e.note else None,
            "rule": _rule(e.rule),
            "source": e.source,
        }
        for e in result.events
        if e.kind is not EventKind.ROUND_END
    ]
    for ev in events:  # a show's or a draw's suit, from its action
        if ev["kind"] in (EventKind.SHOW.value, EventKind.DRAW.value) and ev["action"] < len(all_actions):
            ev["suit"] = all_actions[ev["action"]].suit
    for ev in events:  # a purchase or a gift is named as such (买三, 赠与), not as cards given
        traded = trades[ev["action"]] if ev["kind"] == EventKind.GIVE.value and ev["action"] < len(trades) else None
        if traded:
            ev.update(zh=traded[0], en=traded[1])
    diagnostic = None
    if result.diagnostic is not None:
        d = result.diagnostic
        diagnostic = {
            "action": d.action,
            "code": d.code,
            "message": d.message,
            "text": {"zh": d.message_zh or d.message, "en": english_only(d.message)},
            "source": d.source,
            "rule": _rule(d.rule),
            "where": _where(problem, lines) if problem else None,
        }
    reviewed = [_finding(f) for f in findings or ()]
    views = {str(seen_by[0]): [_finding(f) for f in seen_by[1]]} if seen_by is not None else {}
    names = title_forms(result.ruleset.title)
    sources = [e["source"] for e in events + reviewed + [f for v in views.values() for f in v]]
    sources += [diagnostic["source"]] if diagnostic else []
    score = result.score
    return {
        "title": record.tags.get("Event", "?"),
        "tags": [[k, v] for k, v in record.tags.items() if not (k.startswith("Seat") and k[4:] in "123456")],
        "players": [record.player(s) for s in range(1, 7)],
        "ruleset": {
            "name": result.ruleset.name,
            "title": result.ruleset.title,
            "titles": names,
        },
        "cites": {source: _cite(source, names) for source in sources},
        "comment": list(record.comment),
        "frames": frames,
        "events": events,
        "review": reviewed,
        "reviewViews": views,
        "diagnostic": diagnostic,
        "places": list(result.places) if result.final.over else None,
        "void": result.final.void,
        "scores": score.teams if score else None,
        "extras": {str(s): v for s, v in score.seats.items() if v} if score else {},
        "placeNames": {"zh": list(PLACE_NAMES_ZH), "en": list(PLACE_NAMES_EN)},
    }


#: The six-seat lists of a frame, sent as the seats that changed.
_SEAT_LISTS = ("hands", "unknown", "counts")
#: An action's keys the page carries only when they differ from these (replay.js fills them in).
_ACTION_DEFAULTS: dict[str, Any] = {
    "to": None,
    "burn": False,
    "glyph": "",
    "nags": [],
    "irregular": False,
    "comments": [],
    "preplay": False,
    "purpose": None,
    "suit": None,
    "trade": None,
    "lead": False,
}


def page_hand(data: dict[str, Any]) -> dict[str, Any]:
    """A hand's :func:`replay_data` as the page carries it, small (about a fifth of it on
    self-played hands; ``bench/page_size.py`` measures it): ``frames[0]`` whole and each later frame
    as only the keys that changed from the frame before, the six-seat lists (``hands``, ``unknown``,
    ``counts``) as ``{"seat index": value}`` of the seats that changed, and a frame's ``trick``
    (always the actions from the round's first to the frame's last) as ``trickFrom``, the index of
    its first action; the actions without their text (the page does not show it) and without the
    keys whose value is their default (``_ACTION_DEFAULTS``); each event's rule as its key, the
    rules named once in ``rules`` (``{key: {"en": …, "zh": …}}``), its source as its index in
    ``sources`` (each source written once), and its ``note`` and ``place``
    only when it has one. ``replay.js`` expands all back, as data: no rule is applied there.
    ``data`` is left as it is; without ``actions`` (:func:`action_rows` gives them), the result has none."""
    frames: list[dict[str, Any]] = []
    before: dict[str, Any] | None = None
    for i, frame in enumerate(data["frames"]):
        trick = frame["trick"]
        now = {k: v for k, v in frame.items() if k != "trick"}
        now["trickFrom"] = trick[0] if trick else i
        if before is None:
            frames.append(now)
        else:
            change: dict[str, Any] = {}
            for key, value in now.items():
                if key in _SEAT_LISTS:
                    seats = {str(s): v for s, (v, was) in enumerate(zip(value, before[key])) if v != was}
                    if seats:
                        change[key] = seats
                elif value != before[key]:
                    change[key] = value
            frames.append(change)
        before = now
    actions = [page_action(a) for a in data.get("actions", ())]
    rules = {e["rule"]["key"]: {"en": e["rule"]["en"], "zh": e["rule"]["zh"]} for e in data["events"]}
    sources = list(dict.fromkeys(e["source"] for e in data["events"]))
    at = {source: i for i, source in enumerate(sources)}
    short = {"rule": lambda rule: rule["key"], "source": lambda source: at[source]}
    events = [
        {k: short[k](v) if k in short else v for k, v in e.items() if not (k in ("note", "place") and v is None)}
        for e in data["events"]
    ]
    return {**data, "frames": frames, "actions": actions, "events": events, "rules": rules, "sources": sources}


def page_action(action: dict[str, Any]) -> dict[str, Any]:
    """An action of :func:`action_rows` as the page carries it (:func:`page_hand`): without its
    text and without the keys whose value is their default (``_ACTION_DEFAULTS``)."""
    return {k: v for k, v in action.items() if k != "text" and not (k in _ACTION_DEFAULTS and v == _ACTION_DEFAULTS[k])}


def _finding(f: Finding) -> dict[str, Any]:
    """A review finding as the page draws it: an event on the review lane (点评)."""
    zh, en, _ = KINDS[f.kind]
    note = {"zh": f.text.zh, "en": english_only(str(f.text))}
    if f.estimates:
        line = estimate_line(f)
        note = {"zh": note["zh"] + "。" + line.zh, "en": note["en"] + ". " + english_only(str(line))}
    return {
        "action": f.action,
        "kind": f.kind,
        "zh": zh,
        "en": en[0].upper() + en[1:],
        "seats": [f.seat],
        "cards": "",
        "place": None,
        "note": note,
        "rule": _rule(f.rule),
        "source": f.source,
        "review": True,
    }


class Writer(Protocol):
    """Where :func:`render_replays` writes the page: anything with ``write(str)`` (a text file, ``io.StringIO``)."""

    def write(self, text: str, /) -> object: ...


@overload
def render_replays(
    hands: Iterable[tuple[Replay, Problem | None]],
    lines: list[str] | None = None,
    *,
    lang: str = "zh",
    seat: int = 0,
    review: bool = False,
    out: None = None,
    judge: MatchJudge | None = None,
    index: str | None = None,
    source: tuple[str, str | Iterable[str]] | None = None,
) -> str: ...


@overload
def render_replays(
    hands: Iterable[tuple[Replay, Problem | None]],
    lines: list[str] | None = None,
    *,
    lang: str = "zh",
    seat: int = 0,
    review: bool = False,
    out: Writer,
    judge: MatchJudge | None = None,
    index: str | None = None,
    source: tuple[str, str | Iterable[str]] | None = None,
) -> None: ...


def render_replays(
    hands: Iterable[tuple[Replay, Problem | None]],
    lines: list[str] | None = None,
    *,
    lang: str = "zh",
    seat: int = 0,
    review: bool = False,
    out: Writer | None = None,
    judge: MatchJudge | None = None,
    index: str | None = None,
    source: tuple[str, str | Iterable[str]] | None = None,
) -> str | None:
    """One self-contained HTML page replaying every hand of ``hands`` (a hand selector when there are
    several). ``judge``, if given, has judged the hands of the file before these (``render --hand``:
    the hand before in its match), so that the match overview gives each hand its whole verdict. Each hand comes with the :class:`Problem` locating its diagnostic in the file, if any
    (whose ``lines`` it may quote). ``lang`` (``zh`` or ``en``) and ``seat`` (0: all hands face up,
    1–6: that seat's own view) are the page's initial settings; the reader can change both. With
    ``review`` each hand is reviewed (:func:`~gouji_record.analysis.review.review`) and its findings are
    drawn on a lane of the timeline (点评); with a ``seat`` too, also from that seat's view
    (``review(..., view=seat)``), which the page shows in that seat's view. ``index``, if given, is
    the address of the page listing the file's hands (``render --split``): the page links to it.
    ``source`` (a file name and its text, or the text's pieces in order, read once), if given, is
    the record the page carries and offers as a download (the ``.gjn`` beside the replay, as a PGN
    viewer offers its game).

    ``hands`` may be any iterable, a generator included: it is consumed once, one hand at a time,
    and no :class:`Replay` is kept once its hand is turned into page data (only the few positions
    the match overview needs, for hands with a ``Match`` tag). Each hand's page data is kept as
    compressed JSON, in memory up to 8 MiB and in a temporary file past that, until the page is
    written, its actions turned into JSON a few thousand at a time: memory is bounded by the
    largest hand's positions and events, not by the page (a hand of 400,000 actions, a file of
    11,000 hands) nor by its actions. With ``out`` (anything with ``write(str)``) the page is written
    to it piece by piece and ``None`` is returned; without, the page is returned as one string::

        render_replays(hands, lines, lang="zh", seat=0, review=False) -> str
        render_replays(hands, lines, lang="zh", seat=0, review=False, out=file) -> None

    Raises:
        ValueError: a bad ``lang`` or ``seat`` (before consuming ``hands``), or ``hands`` empty
            (nothing is written then).
    """
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}")
    if not 0 <= seat <= 6:
        raise ValueError("seat must be 0 (all hands) or 1-6")
    header: dict[str, Any] | None = None  # what the page shows of the first hand before its script runs
    titles: list[str] = []
    choices: list[dict[str, str]] = []  # the hand selector: each hand's number and result
    packed = _Packed()
    overview = _Overview(judge)
    for result, problem in hands:
        findings = review_hand(result).findings if review else None
        seen_by = (seat, review_hand(result, view=seat).findings) if review and seat else None
        entry = overview.add(result)
        kinds = entry.kinds if entry is not None else None
        data = _hand_data(result, problem, lines, kinds, findings, seen_by)
        # the match's standings after this hand (累计, team 1 then team 0), and its match's name
        data["standings"] = [entry.standings[1], entry.standings[0]] if entry is not None else None
        data["match"] = result.record.tags.get("Match") if entry is not None else None
        if header is None:
            header = {k: data[k] for k in ("title", "tags", "players", "ruleset")}
        titles.append(data["title"])
        number = result.record.tags.get("Hand") or str(len(titles))
        outcome = ("void" if result.final.void else "-".join(map(str, result.places))) if result.complete else "*"
        find = " ".join([number, data["title"], *data["players"]])  # what the hand picker finds it by
        choices.append({"number": number, "result": outcome, "title": data["title"], "find": find})
        packed.add(page_hand(data), (page_action(a) for a in action_rows(result, kinds)))
        del data, result, entry
    if header is None:
        packed.close()
        raise ValueError("nothing to render")
    title = header["title"] if len(titles) == 1 else f"{header['title']} (+{len(titles) - 1})"
    stream = (
        environment()
        .get_template("replay.html.j2")
        .generate(
            title=title,
            hand=header,
            titles=titles,
            choices=choices,
            same_titles=len(set(titles)) == 1,
            page_data=_page_data(packed, lang, seat, source),
            overview=overview.finish(),
            lang=lang,
            index=index,
            carries_source=source is not None,
            **_assets(),
        )
    )
    with packed:
        if out is None:
            return "".join(stream)
        for piece in stream:
            out.write(piece)
    return None


def _json(value: Any) -> str:
    """``value`` as JSON exactly as the template's ``tojson`` filter writes it (HTML-safe, ASCII)."""
    policies = environment().policies
    return htmlsafe_json_dumps(value, dumps=policies["json.dumps_function"], **policies["json.dumps_kwargs"])


#: Actions turned into page JSON at a time (:meth:`_Packed.add`): bounds the memory a long hand takes.
_ACTIONS_AT_A_TIME = 4096


class _Packed:
    """The page's hands as the JSON text of the ``hands`` list, compressed (zlib, level 1) into a
    temporary file kept in memory up to 8 MiB, on disk past that: memory stays bounded whatever
    the number of hands or of actions in one. A context manager; :meth:`pieces` reads the text
    back, a piece of at most about 1 MiB at a time."""

    def __init__(self) -> None:
        self._file = tempfile.SpooledTemporaryFile(max_size=8 << 20)  # noqa: SIM115 (closed by __exit__)
        self._zip = zlib.compressobj(1)
        self._count = 0

    def _write(self, text: str) -> None:
        self._file.write(self._zip.compress(text.encode("ascii")))

    def add(self, page: dict[str, Any], actions: Iterable[dict[str, Any]]) -> None:
        """Append a hand: ``page`` (:func:`page_hand`'s, without its actions) with ``actions``
        (:func:`page_action`'s) as its ``actions``, written as :func:`_json` writes the whole."""
        marker = uuid.uuid4().hex  # no record holds it: where the actions go in the hand's JSON
        head, *tail = _json({**page, "actions": [marker]}).split(f'["{marker}"]')
        assert len(tail) == 1, "the marker is in the JSON once"
        self._write((", " if self._count else "") + head + "[")
        self._count += 1
        actions = iter(actions)
        first = True
        while chunk := list(islice(actions, _ACTIONS_AT_A_TIME)):
            self._write(("" if first else ",") + _json(chunk)[1:-1])
            first = False
        self._write("]" + tail[0])

    def pieces(self) -> Iterator[str]:
        """The text of the hands, as written, in pieces (once, after the last :meth:`add`)."""
        self._file.write(self._zip.flush())
        self._file.seek(0)
        unzip = zlib.decompressobj()
        while block := self._file.read(1 << 16):
            while block:
                yield unzip.decompress(block, 1 << 20).decode("ascii")
                block = unzip.unconsumed_tail
        yield unzip.flush().decode("ascii")

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> _Packed:
        return self

    def __exit__(self, *_) -> None:
        self.close()


def _json(value: Any) -> str:
    """``value`` as JSON exactly as the template's ``tojson`` filter writes it (HTML-safe, ASCII)."""
    policies = environment().policies
    return htmlsafe_json_dumps(value, dumps=policies["json.dumps_function"], **policies["json.dumps_kwargs"])


def _page_data(
    packed: _Packed, lang: str, seat: int, source: tuple[str, str | Iterable[str]] | None
) -> Iterator[markupsafe.Markup]:
    """The page's JSON, ``{"hands": [...], "lang": …, "seat": …, "source": …}``, a piece at a time:
    the same text as ``tojson`` of the whole object (its keys are sorted, ``hands`` first and
    ``source`` last, its ``text`` last in it). ``source`` is ``{"name": …, "text": …}``, the record
    the page offers as a download, or null; its text may come in pieces (a large file is never
    one string)."""
    carried = {"name": source[0], "text": ""} if source else None
    head, tail = _json({"hands": [], "lang": lang, "seat": seat, "source": carried}).split("[]", 1)
    yield markupsafe.Markup(head + "[")
    yield from map(markupsafe.Markup, packed.pieces())
    if source is None:
        yield markupsafe.Markup("]" + tail)
        return
    assert tail.endswith('""}}'), "the source's text is the last value of the page's data"
    yield markupsafe.Markup("]" + tail[: -len('"}}')])
    for text in [source[1]] if isinstance(source[1], str) else source[1]:
        yield markupsafe.Markup(_json(text)[1:-1])
    yield markupsafe.Markup('"}}')


class _Overview:
    """Builds :func:`match_overview`'s rows as hands go by, each hand of a match judged within it
    as ``gouji validate`` judges it (:class:`~gouji_record.matches.verdict.MatchJudge`, which keeps only
    the hand before, trimmed)."""

    def __init__(self, judge: MatchJudge | None = None) -> None:
        self.rows: list[dict[str, Any]] = []
        self.count = 0  # hands seen
        self.judge = judge or MatchJudge()

    def add(self, result: Replay) -> HandInMatch | None:
        """Judge ``result`` within its match and add its row; its place in the match, or ``None``
        for a hand of no match."""
        entry = self.judge.judge(result).match
        self.count += 1
        if entry is None:
            return None
        rep = entry.replay
        self.rows.append(
            {
                "match": self.judge.name,
                "page_hand": self.count,
                "number": entry.number,
                "event": rep.record.tags.get("Event", ""),
                "result": "-".join(map(str, rep.places)) if rep.final.over else "*",
                "scores": rep.scores,
                "tribute": entry.notes,
                "tributeText": {
                    "zh": [zh_of(n) for n in entry.notes],
                    "en": [english_only(getattr(n, "en", n)) for n in entry.notes],
                },
                "problems": [f"{d.code}: {d.message}" for d in entry.diagnostics],
                "problemText": {
                    "zh": [f"{d.code}: {d.message_zh or d.message}" for d in entry.diagnostics],
                    "en": [f"{d.code}: {english_only(d.message)}" for d in entry.diagnostics],
                },
                "standings": entry.standings,
                "valid": rep.diagnostic is None and not entry.diagnostics,
            }
        )
        return entry

    def finish(self) -> list[dict[str, Any]]:
        return self.rows


def match_overview(results: Iterable[Replay]) -> list[dict[str, Any]]:
    """One row per hand that belongs to a match (a run of hands with the same ``Match`` tag): its
    number in the match, result, team scores, the tribute paid before it, problems found, and the
    standings after it."""
    overview = _Overview()
    for result in results:
        overview.add(result)
    return overview.finish()


def render_replay(
    result: Replay, problem: Problem | None = None, lines: list[str] | None = None, *, lang: str = "zh", seat: int = 0
) -> str:
    """The HTML page replaying ``result``; ``problem`` locates its diagnostic in the file
    (whose ``lines`` it may quote), if any."""
    return render_replays([(result, problem)], lines, lang=lang, seat=seat)


@lru_cache(maxsize=1)
def _assets() -> dict[str, markupsafe.Markup]:
    """The page's stylesheet (``base.css``, shared with the stats page, then ``replay.css``) and
    script, inlined verbatim (they are ours, not the record's)."""
    return {"css": stylesheet("replay"), "js": markupsafe.Markup(_asset("replay.js"))}


def _asset(name: str) -> str:
    return (_template_dir() / name).read_text(encoding="utf-8")


def stylesheet(page: str) -> markupsafe.Markup:
    """The CSS a page (``replay``, ``stats``) inlines: ``base.css``, the colours, font and margins
    the pages share, then ``PAGE.css``."""
    return markupsafe.Markup(_asset("base.css") + _asset(f"{page}.css"))


def index_entry(result: Replay, file: str, number: int) -> dict[str, Any]:
    """A hand's row in the index of ``render --split`` (:func:`render_index`): the page ``file``,
    the hand's ``number`` (its Hand tag, else its place in the file, from 1), event, players and
    result (its places, ``void`` or ``*``), whether it breaks a rule, and the text the index's
    finder matches (number, event, players)."""
    record = result.record
    shown = record.tags.get("Hand") or str(number)
    title = record.tags.get("Event", "?")
    players = [record.player(s) for s in range(1, 7)]
    outcome = ("void" if result.final.void else "-".join(map(str, result.places))) if result.complete else "*"
    return {
        "file": file,
        "number": shown,
        "title": title,
        "players": players,
        "result": outcome,
        "illegal": result.diagnostic is not None,
        "find": " ".join([shown, title, *players]),
    }


def render_index(entries: list[dict[str, Any]], *, title: str, lang: str = "zh") -> str:
    """The index page of ``render --split``: one row per hand (:func:`index_entry`), each linking
    to its own replay page, with a finder that narrows the rows to the hands whose number, event or
    player's name matches what is typed.

    Raises:
        ValueError: a bad ``lang``.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}")
    return environment().get_template("index.html.j2").render(hands=entries, title=title, lang=lang, css=stylesheet("index"))
