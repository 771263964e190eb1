"""Event logs (JSON Lines) → records: the converter behind ``gouji import``.

Online platforms export a hand as a stream of events, one JSON object per
line, in the style of mjai: ``start_hand``, ``deal``, the declarations before
play, ``play`` / ``pass`` / ``yield``, ``end_hand``. The format is specified in
docs/events-log.md. This module turns such a log into :class:`GameRecord`
objects; it checks the shape of the log (JSON, event order, fields, seats,
cards, the deal, tag values) but not the rules of play: replaying the records
(:func:`gouji_record.judging.replay`) does that.

A log that gives only the plays (no ``deal`` event) gives hands not known (``?36``):

>>> log = '''
... {"type":"start_hand","ruleset":"charter","names":["A","B","C","D","E","F"]}
... {"type":"play","seat":1,"cards":"TTTTT"}
... '''
>>> (record,) = records_from_events(log.splitlines())
>>> record.deal, record.actions[0].text, record.tags["Result"]
(('?36', '?36', '?36', '?36', '?36', '?36'), '1:TTTTT', '*')
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

from pydantic import ValidationError

from ..cards import COPIES, HAND_SIZE, RANK_LETTERS, CardError, format_cards, parse_cards, total
from ..errors import GoujiError
from ..model import (
    GLYPHS,
    MAX_NAG,
    MAX_ROUND,
    SUITS,
    TAG_NAME,
    Action,
    ActionKind,
    GameRecord,
    comment_text,
    join_hand,
    parse_result,
    split_hand,
    tag_problem,
    tag_value_problem,
)
from ..rules.rulesets import BadOption, UnknownRuleset, get_ruleset, parse_options, with_options


class EventLogError(GoujiError, ValueError):
    """An event log that cannot be converted (code ``bad-event-log``).

    ``message`` says what is wrong and what was expected; ``line`` is the
    1-based number of the offending line (blank lines counted); ``source``
    (also ``file``) names the log. ``str(error)`` is ``"SOURCE:LINE: message"``.
    """

    default_code = "bad-event-log"

    def __init__(self, message: str, line: int, source: str = "<events>") -> None:
        super().__init__(message, file=source, line=line)
        self.source = source

    def __str__(self) -> str:
        return f"{self.source}:{self.line}: {self.message}"


#: Events before play (notation.md §3.3) and the action kinds they stand for: the declarations
#: (革命, 要头, 无头, 自然开点, 宣点/明点, 预点), transfers (``give``: tribute 进贡 and its return
#: 还贡; with ``purpose`` a purchase 买三/买四 or a gift 赠与) and the suited steps (上班, 抽签组邦).
DECLARATION_TYPES = {
    "revolt": ActionKind.REVOLT,
    "keep_head": ActionKind.KEEP_HEAD,
    "no_head": ActionKind.NO_HEAD,
    "natural": ActionKind.NATURAL,
    "call": ActionKind.CALL,
    "precall": ActionKind.PRECALL,
    "give": ActionKind.GIVE,
    "show": ActionKind.SHOW,
    "draw": ActionKind.DRAW,
}
#: Actions of play and their kinds: a play, a pass, a yield, a request to take the wind (申请接风),
#: a claim of the rest (挑牌).
PLAY_TYPES = {
    "play": ActionKind.PLAY,
    "pass": ActionKind.PASS,
    "yield": ActionKind.YIELD,
    "wind": ActionKind.WIND,
    "claim": ActionKind.CLAIM,
}
#: Every event that is an action, and its kind.
ACTION_TYPES = {**DECLARATION_TYPES, **PLAY_TYPES}
#: The event type of each action kind.
TYPE_OF_KIND = {kind: name for name, kind in ACTION_TYPES.items()}

#: The annotations any action may carry (a glyph, comments), and those of an action of play only
#: (its round number, numeric annotations ``$n``, ``^`` for an irregular action).
_ANNOTATIONS = ("glyph", "comment")
_PLAY_ANNOTATIONS = ("round", "glyph", "nags", "irregular", "comment")

#: Required and optional fields of each event type, besides ``type``.
FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "start_hand": (("ruleset", "names"), ("event", "site", "date", "round", "options", "tags", "comment", "empty_preplay")),
    "deal": (("hands",), ()),
    **{t: (("seat",), _ANNOTATIONS) for t in ("revolt", "keep_head", "no_head", "natural", "call", "precall")},
    "give": (("seat", "to", "cards"), ("purpose", *_ANNOTATIONS)),
    "show": (("seat", "suit", "cards"), _ANNOTATIONS),
    "draw": (("seat", "suit", "cards"), _ANNOTATIONS),
    "play": (("seat", "cards"), ("burn", *_PLAY_ANNOTATIONS)),
    **{t: (("seat",), _PLAY_ANNOTATIONS) for t in ("pass", "yield", "wind", "claim")},
    "end_hand": (("result",), ()),
}
#: Event types in the order they are documented.
EVENT_TYPES = tuple(FIELDS)

#: ``start_hand`` fields that give a tag, and the tag.
TAG_FIELDS = {"event": "Event", "site": "Site", "date": "Date", "round": "Round", "options": "Options"}
#: Tags the log gives through fields; the ``tags`` object may not give them again.
_FIELD_TAGS = frozenset(
    {"Event", "Site", "Date", "Round", "Options", "Ruleset", "Result"} | {f"Seat{s}" for s in range(1, 7)}
)


@dataclass
class _Hand:
    """A hand being read: what its events said so far."""

    line: int
    tags: dict[str, str]
    comment: tuple[str, ...]
    deal: tuple[str, ...] | None = None
    preplay: list[Action] = field(default_factory=list)
    actions: list[Action] = field(default_factory=list)
    #: A purchase's first transfer (the price), until the second (the card back) comes.
    buying: Action | None = None
    #: ``start_hand`` said ``"empty_preplay": true``: nothing happened before play (gjn 2.4).
    empty_preplay: bool = False
    #: The log's line of each action before play, and of each action of play.
    preplay_lines: list[int] = field(default_factory=list)
    action_lines: list[int] = field(default_factory=list)


class LogLines(NamedTuple):
    """Where a hand read from an event log stands in it (lines from 1): ``start`` its
    ``start_hand``, ``actions`` the event of each of its actions (``GameRecord.all_actions``'
    order: before play, then play), ``end`` its ``end_hand`` (``start`` for a log cut short)."""

    start: int
    actions: tuple[int, ...]
    end: int


class _DuplicateKey(Exception):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def records_from_events(lines: Iterable[str], source: str = "<events>") -> list[GameRecord]:
    """Convert an event log (docs/events-log.md) into records, one per hand.

    ``lines`` are the lines of the log, with or without their line ends (an
    open text file will do; a single ``str`` is taken as the whole text, and
    split at ``\n`` only: JSON strings may hold U+2028 and the like raw).
    Blank lines are skipped but counted. ``source`` names the log in errors.

    Each hand opens with ``start_hand``, then ``deal`` (optional: a hand without
    one is not known, ``?36`` for each seat), declarations, actions and
    ``end_hand``, whose ``result`` becomes the ``Result`` tag; a log that stops
    before ``end_hand`` gives ``Result "*"``. A hand of the deal may be partly
    known (``"KKKKKK?30"``, ``"KKKKKK?"``: the rest) or not at all (``null``,
    ``""``, ``"?"``). The records carry no round numbers or annotation glyphs;
    rules are not checked. An empty log gives ``[]``.

    Raises:
        EventLogError: naming the 1-based line and what was expected, for a line that is not JSON
            or not an object, an unknown ``type``, a missing, unknown or mistyped field, an event
            out of order (anything before ``start_hand``, a ``deal`` after a declaration or action,
            a declaration after play, a ``start_hand`` before the previous hand's ``end_hand``), a
            seat that is not 1-6, cards not in the alphabet, a deal other than six hands of 36
            cards (known or ``?N``) within four decks, an unknown ruleset or option, and a
            malformed date, result or tag.
    """
    return [record for record, _ in records_with_lines(lines, source)]


def records_with_lines(lines: Iterable[str], source: str = "<events>") -> list[tuple[GameRecord, LogLines]]:
    """:func:`records_from_events`, each record with where it stands in the log
    (:class:`LogLines`), so that a problem found when the record is replayed can name the log's
    line rather than a line of the ``.gjn`` text it was converted to.

    Raises:
        EventLogError: as :func:`records_from_events`.
    """
    if isinstance(lines, str):
        lines = lines.split("\n")
    records: list[tuple[GameRecord, LogLines]] = []
    hand: _Hand | None = None  # the open hand: started, not yet ended
    number = 0
    for number, text in enumerate(lines, start=1):
        if number == 1:
            text = text.removeprefix("\ufeff")
        if not text.strip():
            continue
        event = _event(text, number, source)
        kind = event["type"]

        fail = partial(EventLogError, line=number, source=source)
        if kind == "start_hand":
            if hand is not None:
                raise fail(
                    f"start_hand before the end of the hand started at line {hand.line}: "
                    'expected {"type":"end_hand",…} first'
                )
            hand = _start_hand(event, number, source)
            continue
        if hand is None:
            raise fail(f'{kind} before start_hand: expected {{"type":"start_hand",…}} to open a hand')
        if kind == "deal":
            if hand.deal is not None:
                raise fail(f"a second deal for the hand started at line {hand.line}: expected one deal per hand")
            if hand.preplay or hand.actions:
                raise fail(
                    f"deal after the hand's first {'declaration' if hand.preplay else 'action'}: "
                    f"expected the deal right after start_hand (line {hand.line}), or none"
                )
            hand.deal = _deal(event["hands"], fail)
            continue
        if kind == "end_hand":
            if hand.buying is not None:
                raise fail(_unpaired(hand.buying))
            record = _finish(hand, _result(event["result"], fail), number, source)
            records.append((record, LogLines(hand.line, (*hand.preplay_lines, *hand.action_lines), number)))
            hand = None
        elif kind in DECLARATION_TYPES:
            if hand.actions:
                raise fail(
                    f"{kind} after play has begun: declarations, transfers, show and draw come before "
                    "the first play, pass, yield, wind or claim"
                )
            if hand.empty_preplay:
                raise fail(
                    f'{kind} before play, but start_hand (line {hand.line}) says "empty_preplay": true, '
                    "nothing happened before play: leave that field out, or this event"
                )
            action = _action(event, DECLARATION_TYPES[kind], fail)
            if hand.buying is not None:  # the purchase's first transfer came: this is the card back
                first = hand.buying
                if action.purpose != "buy" or (action.seat, action.to) != (first.to, first.seat):
                    raise fail(_unpaired(first))
                hand.buying = None
            elif action.purpose == "buy":
                hand.buying = action
            hand.preplay.append(action)
            hand.preplay_lines.append(number)
        else:
            if hand.buying is not None:
                raise fail(_unpaired(hand.buying))
            hand.actions.append(_action(event, PLAY_TYPES[kind], fail))
            hand.action_lines.append(number)
    if hand is not None:
        if hand.buying is not None:
            raise EventLogError(_unpaired(hand.buying), number, source)
        record = _finish(hand, "*", hand.line, source)
        records.append((record, LogLines(hand.line, (*hand.preplay_lines, *hand.action_lines), hand.line)))
    return records


def events_from_record(record: GameRecord) -> Iterator[dict[str, Any]]:
    """The events of ``record`` as a log gives them (docs/events-log.md), in order: ``start_hand``
    (its tags; ``event``, ``site``, ``date`` and ``round`` left out when ``?``), ``deal`` unless
    nothing of it is known, an event for each action before play and of play with its annotations
    (round number, glyph, ``$n`` as ``nags``, ``^`` as ``irregular``, comments), ``end_hand``.

    The inverse of :func:`records_from_events`: ``records_from_events`` of these events gives
    a record that writes as ``record`` does (the same ``.gjn`` text).

    >>> from gouji_record.model import Action
    >>> [e["type"] for e in events_from_record(GameRecord(
    ...     tags={"Ruleset": "charter", **{f"Seat{s}": "p" for s in range(1, 7)}, "Event": "?", "Site": "?",
    ...           "Date": "?", "Result": "*"},
    ...     preplay=(Action(seat=2, kind="give", to=5, cards="D"),), actions=(Action(seat=1, kind="wind"),)))]
    ['start_hand', 'give', 'wind', 'end_hand']
    """
    tags = record.tags
    start: dict[str, Any] = {"type": "start_hand", "ruleset": tags["Ruleset"]}
    start["names"] = [tags[f"Seat{s}"] for s in range(1, 7)]
    for key, tag in TAG_FIELDS.items():
        if tag in tags and (tags[tag] != "?" or tag == "Options"):
            start[key] = tags[tag]
    extra = {name: value for name, value in tags.items() if name not in _FIELD_TAGS}
    if extra:
        start["tags"] = extra
    if record.comment:
        start["comment"] = _comment_field(record.comment)
    if record.empty_preplay:
        start["empty_preplay"] = True
    yield start
    if any(hand != join_hand("", HAND_SIZE) for hand in record.deal):
        yield {"type": "deal", "hands": [_dealt(hand) for hand in record.deal]}
    for action in (*record.preplay, *record.actions):
        yield _event_of(action)
    yield {"type": "end_hand", "result": tags.get("Result", "*")}


def write_events(records: Iterable[GameRecord]) -> Iterator[str]:
    """Each line of the event log of ``records`` (JSON Lines, UTF-8 text, ``\n`` ended), a blank
    line between hands: what ``gouji export --format events`` writes."""
    for i, record in enumerate(records):
        if i:
            yield "\n"
        for event in events_from_record(record):
            yield json.dumps(event, ensure_ascii=False, separators=(",", ":")) + "\n"


def _dealt(hand: str) -> str | None:
    known, unknown = split_hand(hand)
    if not known:
        return None
    return known + (f"?{unknown}" if unknown else "")


def _comment_field(comments: tuple[str, ...]) -> str | list[str]:
    return comments[0] if len(comments) == 1 else list(comments)


def _event_of(action: Action) -> dict[str, Any]:
    """The event of one action, its fields in the order the table of docs/events-log.md gives."""
    event: dict[str, Any] = {"type": TYPE_OF_KIND[action.kind], "seat": action.seat}
    if action.to is not None:
        event["to"] = action.to
    if action.suit is not None:
        event["suit"] = action.suit
    if action.cards:
        event["cards"] = action.cards
    if action.purpose is not None:
        event["purpose"] = action.purpose
    if action.burn:
        event["burn"] = True
    if action.round is not None:
        event["round"] = action.round
    if action.glyph is not None:
        event["glyph"] = action.glyph
    if action.nags:
        event["nags"] = list(action.nags)
    if action.irregular:
        event["irregular"] = True
    if action.comments:
        event["comment"] = _comment_field(action.comments)
    return event


def json_object(text: str, line: int, source: str, error: type[ValueError] | None = None) -> Any:
    """The JSON value on one line, keys checked for repeats.

    Raises:
        EventLogError: (or ``error``: any class taking ``(message, line, source)``) text that is not
            JSON, a key given twice, a number too long to convert (over 4300 digits) or nesting too
            deep to read, instead of a traceback.
    """
    error = error or EventLogError
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates)
    except _DuplicateKey as e:
        raise error(f"key {e.args[0]!r} is given twice: expected each key once", line, source) from None
    except json.JSONDecodeError as e:
        # json's "Unterminated string starting at" ends in "at" already: one "at column N"
        what = f"not JSON ({e.msg.removesuffix(' at')} at column {e.colno}): expected one JSON object per line"
        raise error(what, line, source) from None
    except RecursionError:
        raise error("JSON nested too deeply to read: expected one flat JSON object per line", line, source) from None
    except ValueError:  # int() of a number over sys.get_int_max_str_digits() digits
        limit = getattr(sys, "get_int_max_str_digits", lambda: 4300)()
        raise error(f"a number of more than {limit} digits: expected one JSON object per line", line, source) from None


def _event(text: str, line: int, source: str) -> dict[str, Any]:
    """One line as an event object with its required fields, and no unknown ones."""
    event = json_object(text, line, source)
    if not isinstance(event, dict):
        raise EventLogError(
            f'a JSON {_json_kind(event)}, not an object: expected an event like {{"type":"play",…}}', line, source
        )
    if "type" not in event:
        raise EventLogError('missing field "type": expected one of ' + ", ".join(EVENT_TYPES), line, source)
    kind = event["type"]
    if not isinstance(kind, str) or kind not in FIELDS:
        raise EventLogError(f"unknown event type {kind!r}: expected one of " + ", ".join(EVENT_TYPES), line, source)
    required, optional = FIELDS[kind]
    for name in required:
        if name not in event:
            raise EventLogError(f'missing field "{name}" in {kind}: {kind} needs ' + _names(required), line, source)
    for name in event:
        if name != "type" and name not in required and name not in optional:
            allowed = _names(required + optional)
            raise EventLogError(f'unknown field "{name}" in {kind}: expected only {allowed}', line, source)
    return event


def _names(fields: tuple[str, ...]) -> str:
    return ", ".join(f'"{f}"' for f in fields)


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if value is None:
        return "null"
    return {dict: "object", list: "array", str: "string", int: "number", float: "number"}.get(
        type(value), type(value).__name__
    )


def _start_hand(event: dict[str, Any], line: int, source: str) -> _Hand:
    """Tags and hand comment from a ``start_hand`` event, checked."""

    fail = partial(EventLogError, line=line, source=source)
    ruleset = _tag_value(event["ruleset"], '"ruleset"', fail)
    names = event["names"]
    if not isinstance(names, list) or len(names) != 6:
        raise fail(f'"names" is {_describe(names)}: expected an array of six player names, seat 1 first')
    tags = {"Event": "?", "Site": "?", "Date": "?", "Round": "?", "Ruleset": ruleset}
    for seat, name in enumerate(names, start=1):
        tags[f"Seat{seat}"] = _tag_value(name, f'"names"[{seat - 1}] (seat {seat})', fail)
    tags["Result"] = "*"
    for key, tag in TAG_FIELDS.items():  # Event, Site, Date and Round keep their places; Options comes after
        if key in event:
            tags[tag] = _tag_value(event[key], f'"{key}"', fail)
    extra = event.get("tags", {})
    if not isinstance(extra, dict):
        raise fail(f'"tags" is {_describe(extra)}: expected an object of tag names and string values')
    for name, value in extra.items():
        if not TAG_NAME.fullmatch(name):
            raise fail(f"tag name {name!r}: expected letters, digits and _, starting with a letter")
        if name in _FIELD_TAGS:
            raise fail(f'tag {name} in "tags": it is given by its own field, not in "tags"')
        tags[name] = _tag_value(value, f'"tags"."{name}"', fail)
    for name, value in tags.items():
        problem = tag_problem(name, value)  # Date, Score: the checks the notation's reader makes
        if problem is not None:
            field = next((f'"{k}"' for k, t in TAG_FIELDS.items() if t == name), f'"tags"."{name}"')
            raise fail(f"{field}: {problem}")
    try:
        rules = get_ruleset(ruleset)
        if "Options" in tags:
            with_options(rules, parse_options(tags["Options"]))
    except (UnknownRuleset, BadOption) as e:
        raise fail(str(e)) from None
    empty = event.get("empty_preplay", False)
    if not isinstance(empty, bool):
        raise fail(f'"empty_preplay" is {_describe(empty)}: expected true (nothing happened before play) or false')
    return _Hand(line=line, tags=tags, comment=_comments(event.get("comment"), fail), empty_preplay=empty)


def _tag_value(value: Any, what: str, fail) -> str:
    if not isinstance(value, str):
        raise fail(f"{what} is {_describe(value)}: expected a string")
    problem = tag_value_problem(value)
    if problem is not None:
        raise fail(f"{what} {problem}")
    return value


def _describe(value: Any) -> str:
    shown = json.dumps(value, ensure_ascii=False)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return f"{'an' if _json_kind(value)[0] in 'ao' else 'a'} {_json_kind(value)} ({shown})"


def _comments(value: Any, fail) -> tuple[str, ...]:
    """A ``comment`` field (a string, or an array of strings) as folded comments."""
    if value is None:
        return ()
    items = value if isinstance(value, list) else [value]
    if not all(isinstance(c, str) for c in items):
        raise fail(f'"comment" is {_describe(value)}: expected a string or an array of strings')
    out = []
    for i, c in enumerate(items):
        try:
            out.append(comment_text(c))
        except ValueError as e:
            raise fail(f'"comment"{f"[{i}]" if isinstance(value, list) else ""}: {e}') from None
    return tuple(out)


def _cards(value: Any, what: str, fail) -> str:
    """A card string in canonical form, or an error naming ``what`` and the bad character."""
    if not isinstance(value, str):
        raise fail(f'{what} is {_describe(value)}: expected a string of cards like "QQQ"')
    try:
        return format_cards(parse_cards(value))
    except CardError as e:
        raise fail(f"{what} {value!r}, at character {e.offset + 1}: {e}") from None


def _deal(hands: Any, fail) -> tuple[str, ...]:
    """The six hands of a ``deal`` event, canonical (``?N`` for cards not known); checked for size
    and four-deck totals."""
    if not isinstance(hands, list) or len(hands) != 6:
        raise fail(f'"hands" is {_describe(hands)}: expected an array of six card strings, seat 1 first')
    out = [_hand(cards, seat, fail) for seat, cards in enumerate(hands, start=1)]
    for rank, (n, cap) in enumerate(zip(total(parse_cards(split_hand(h)[0]) for h in out), COPIES)):
        if n > cap:
            raise fail(f"the deal has {n} cards {RANK_LETTERS[rank]}: four decks hold {cap}")
    return tuple(out)


def _hand(value: Any, seat: int, fail) -> str:
    """One seat's hand in a ``deal`` event, as the record stores it: its 36 cards; or the cards
    known, then ``?N`` (N cards not known) or ``?`` (the rest), as in the notation's deal; or
    ``null``, ``""``, ``"-"`` or ``"?"`` for a hand not known at all."""
    what = f'"hands"[{seat - 1}] (seat {seat})'
    if value is None or isinstance(value, str) and value.strip() in ("", "-"):
        return join_hand("", HAND_SIZE)
    if not isinstance(value, str):
        raise fail(f'{what} is {_describe(value)}: expected a string of cards like "QQQ", or null if not known')
    known, mark, unknown = value.partition("?")
    cards = _cards(known, what, fail)
    if not mark:
        if len(cards) != HAND_SIZE:
            raise fail(f"seat {seat} is dealt {len(cards)} cards: expected {HAND_SIZE} (end it with ? if the rest are not known)")
        return cards
    digits = unknown.strip()
    if digits and not (digits.isdecimal() and digits.isascii() and len(digits) <= 3):
        raise fail(f'{what} {value!r}: expected cards, then ?N for N cards not known, or ? for the rest')
    count = int(digits) if digits else max(0, HAND_SIZE - len(cards))
    if len(cards) + count != HAND_SIZE:
        raise fail(f"seat {seat} is dealt {len(cards) + count} cards: expected {HAND_SIZE}")
    return join_hand(cards, count)


def _seat(value: Any, fail, what: str = "seat") -> int:
    if type(value) is not int or not 1 <= value <= 6:
        hint = " (seats count from 1, not 0)" if value == 0 and type(value) is int else ""
        raise fail(f"bad {what} {json.dumps(value, ensure_ascii=False)}: expected a seat number 1-6{hint}")
    return value


def _action(event: dict[str, Any], kind: ActionKind, fail) -> Action:
    """A declaration, a transfer, a suited step or an action of play from its event, with its
    annotations."""
    fields: dict[str, Any] = {"seat": _seat(event["seat"], fail), "kind": kind}
    if "cards" in event:
        cards = _cards(event["cards"], '"cards"', fail)
        if not cards:
            what = 'a play with no cards: expected cards like "QQQ" (a pass is {"type":"pass",…})'
            raise fail(what if kind is ActionKind.PLAY else f'a {event["type"]} with no cards: expected cards like "3"')
        fields["cards"] = cards
    if "to" in event:
        fields["to"] = _seat(event["to"], fail, '"to"')
        if fields["to"] == fields["seat"]:
            raise fail(f'"to" is the giving seat {fields["seat"]}: a transfer goes to another seat')
    if "purpose" in event:
        if event["purpose"] not in ("buy", "gift", "refuse"):
            raise fail(
                f'"purpose" is {_describe(event["purpose"])}: expected "buy" (买三, 买四), "gift" (赠与) '
                'or "refuse" (拒收: the transfer offered and refused)'
            )
        fields["purpose"] = event["purpose"]
    if "suit" in event:
        if event["suit"] not in SUITS:
            raise fail(f'"suit" is {_describe(event["suit"])}: expected one of "s", "h", "c", "d"')
        fields["suit"] = event["suit"]
    for name, check in (("burn", _flag), ("irregular", _flag), ("round", _round), ("glyph", _glyph), ("nags", _nags)):
        if name in event:
            fields[name] = check(event[name], name, fail)
    fields["comments"] = _comments(event.get("comment"), fail)
    try:
        return Action(**fields)
    except ValidationError as e:
        raise fail(_first_error(e)) from None


def _unpaired(first: Action) -> str:
    return (
        f"a purchase (买三, 买四) is two give events with purpose buy: the price {first.plain_text}, "
        f'then the card back {{"type":"give","seat":{first.to},"to":{first.seat},"purpose":"buy",…}}'
    )


def _flag(value: Any, name: str, fail) -> bool:
    if not isinstance(value, bool):
        raise fail(f'"{name}" is {_describe(value)}: expected true or false')
    return value


def _round(value: Any, name: str, fail) -> int:
    if type(value) is not int or not 1 <= value <= MAX_ROUND:
        raise fail(f'"round" is {_describe(value)}: expected the round number, a whole number 1-{MAX_ROUND}')
    return value


def _glyph(value: Any, name: str, fail) -> str:
    if value not in GLYPHS:
        raise fail(f'"glyph" is {_describe(value)}: expected one of ' + ", ".join(f'"{g}"' for g in GLYPHS))
    return value


def _nags(value: Any, name: str, fail) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(type(n) is int and 0 <= n <= MAX_NAG for n in value):
        raise fail(f'"nags" is {_describe(value)}: expected an array of numeric annotations 0-{MAX_NAG} ($n)')
    return tuple(value)


def _first_error(e: ValidationError) -> str:
    return e.errors()[0]["msg"].removeprefix("Value error, ")


def _result(value: Any, fail) -> str:
    if not isinstance(value, str):
        raise fail(f'"result" is {_describe(value)}: expected a string like "5-6-1-4-3-2", "*" or "void"')
    try:
        parse_result(value)
    except ValueError as e:
        raise fail(str(e)) from None
    return value.strip()


def _finish(hand: _Hand, result: str, line: int, source: str) -> GameRecord:
    """The record of a hand, with its Result; a hand without a deal is not known (``?36`` each)."""
    try:
        return GameRecord(
            tags={**hand.tags, "Result": result},
            deal=hand.deal or (join_hand("", HAND_SIZE),) * 6,
            preplay=tuple(hand.preplay),
            empty_preplay=hand.empty_preplay,
            comment=hand.comment,
            actions=tuple(hand.actions),
        )
    except ValidationError as e:  # pragma: no cover - every part was checked as it was read
        raise EventLogError(str(e), line, source) from None


__all__ = [
    "ACTION_TYPES",
    "DECLARATION_TYPES",
    "EVENT_TYPES",
    "PLAY_TYPES",
    "EventLogError",
    "LogLines",
    "events_from_record",
    "json_object",
    "records_from_events",
    "records_with_lines",
    "write_events",
]
