r"""JSON Lines in, records out: what ``gouji import`` reads (docs/notation.md, "Interchange").

Two formats come in as JSON Lines: the records ``gouji export`` writes (one
:class:`GameRecord` object a line) and a platform's event log
(:mod:`gouji_record.formats.eventlog`). :func:`read_records` tells them apart by the
top-level keys of the first object and reads either; :func:`records_from_json`
reads the first. Lines are split at ``\n`` only (a JSON string may hold U+2028,
U+0085 and the like raw), blank lines are skipped but counted, and every error
names its 1-based line and, inside a record, the field.

>>> read_records('{"tags": {"Event": "a"}, "deal": []}', "x.jsonl")
Traceback (most recent call last):
  ...
gouji_record.formats.interchange.RecordJSONError: x.jsonl:1: tags: missing tag Site: every hand needs Event, Site, ...
"""

from __future__ import annotations

import re

import json
from collections.abc import Iterable, Iterator
from functools import cache

from pydantic import TypeAdapter, ValidationError

from .eventlog import EventLogError, json_object, records_from_events
from ..model import Action, GameRecord
from ..rules.rulesets import BadOption, UnknownRuleset, get_ruleset, parse_options, with_options


#: The keys ``gouji export --with-verdict`` adds beside a record's: its verdict and events, derived
#: from the record, so read past (and derived again by whoever reads the record).
DERIVED = ("verdict", "events")


class RecordJSONError(EventLogError):
    """A line of record JSON that is not a record: ``line`` is 1-based, ``message`` starts
    with the field path (``actions[0].seat: …``); ``str()`` is ``"SOURCE:LINE: message"``.
    The same shape as :class:`~gouji_record.formats.eventlog.EventLogError`, which it is a kind of."""


def json_lines(text: str) -> list[str]:
    """``text`` cut into lines at ``\\n`` only (a ``\\r`` before it is dropped), without a
    leading byte-order mark.

    >>> json_lines('{"a": "x\\u2028y"}\\r\\n\\n{}')
    ['{"a": "x\\u2028y"}', '', '{}']
    """
    return [line.removesuffix("\r") for line in text.removeprefix("\ufeff").split("\n")]


def records_from_json(lines: Iterable[str] | str, source: str = "<records>") -> list[GameRecord]:
    """The records of JSON Lines as ``gouji export`` writes them, one object a line.

    Each object is validated as a :class:`GameRecord` (strictly: unknown fields are
    refused, but for the derived ``verdict`` and ``events`` of :data:`DERIVED`, left out, a seat is an integer, never ``true``), its keys checked for repeats, and
    its Ruleset and Options tags checked against the rulesets, so that every record
    returned writes as a ``.gjn`` hand that ``gouji validate`` can read.

    Raises:
        RecordJSONError: for the first line that fails.
    """
    if isinstance(lines, str):
        lines = json_lines(lines)
    records = []
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        obj = json_object(text, number, source, RecordJSONError)
        if isinstance(obj, dict):
            for key in DERIVED:  # what export --with-verdict adds: derived again from the record
                obj.pop(key, None)
        if not isinstance(obj, dict):
            kind = "array" if isinstance(obj, list) else "string" if isinstance(obj, str) else "value"
            what = f'a JSON {kind}, not an object: expected a record like {{"tags": …, "deal": …}}'
            raise RecordJSONError(what, number, source)
        try:
            record = GameRecord.model_validate(obj)
        except ValidationError as e:
            raise RecordJSONError(_first_error(e), number, source) from None
        try:
            rules = get_ruleset(record.ruleset_name)
        except UnknownRuleset as e:
            raise RecordJSONError(f"tags.Ruleset: {e}", number, source) from None
        if "Options" in record.tags:
            try:
                with_options(rules, parse_options(record.tags["Options"]))
            except BadOption as e:
                raise RecordJSONError(f"tags.Options: {e}", number, source) from None
        records.append(record)
    return records


#: Actions written at a time by :func:`record_json`: bounds the memory a hand's JSON takes.
ACTIONS_AT_A_TIME = 4096


@cache
def _actions_adapter() -> TypeAdapter:
    """Dumps a run of actions as the record's own dump does (built when first used, as the model is)."""
    return TypeAdapter(tuple[Action, ...])


def record_json(record: GameRecord, extra: dict | None = None) -> Iterator[str]:
    """The JSON object of ``record`` (``record.model_dump(mode="json")``, then the keys of
    ``extra``, ``gouji export --with-verdict``'s) as ``json.dumps(..., ensure_ascii=False)`` writes
    it, in pieces whose concatenation is that text: the actions (the record's last field) a few
    thousand at a time, so that a hand of 400,000 actions is never one string or one list of
    dictionaries in memory.

    >>> from gouji_record import parse
    >>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
    >>> rec = parse(f'[Event "x"][Site "y"][Date "?"][Ruleset "charter"]{seats}[Result "*"] play 1:55 2:-')[0]
    >>> "".join(record_json(rec, {"n": 1})) == json.dumps(rec.model_dump(mode="json") | {"n": 1}, ensure_ascii=False)
    True
    """
    head = json.dumps(record.model_dump(mode="json", exclude={"actions"}), ensure_ascii=False)
    yield head[:-1] + ', "actions": ['  # the head is never empty: a record has tags
    actions = record.actions
    for start in range(0, len(actions), ACTIONS_AT_A_TIME):
        text = json.dumps(_actions_adapter().dump_python(actions[start : start + ACTIONS_AT_A_TIME], mode="json"), ensure_ascii=False)
        yield (", " if start else "") + text[1:-1]
    yield "]"
    if extra:
        yield ", " + json.dumps(extra, ensure_ascii=False)[1:]
    else:
        yield "}"


def _first_error(e: ValidationError) -> str:
    """The first error of a validation as ``path: message``, e.g. ``actions[0].seat: Input should be …``."""
    err = e.errors()[0]
    path = ""
    for part in err["loc"]:
        if part == "[key]":
            path += " (the name)"
        else:
            path += f"[{part}]" if isinstance(part, int) else (f".{part}" if path else str(part))
    message = err["msg"].removeprefix("Value error, ")
    if err["type"] not in ("value_error", "missing", "extra_forbidden") and not isinstance(err["input"], (dict, list)):
        shown = json.dumps(err["input"], ensure_ascii=False)  # a JSON scalar: short, or cut short below
        message += f", not {shown if len(shown) <= 40 else shown[:37] + '...'}"
    return f"{path or 'the record'}: {message}"


#: The first line of a .gjn file: a tag pair.
_GJN_TAG = re.compile(r'\s*\[\s*[A-Za-z][A-Za-z0-9_]*\s+"')


def read_records(text: str, source: str = "<import>") -> list[GameRecord]:
    """The records of ``text``: record JSON (``gouji export``) or an event log
    (docs/events-log.md), told apart by the first object: an event has a ``type`` key,
    a record never has.

    Raises:
        RecordJSONError, EventLogError: (:class:`~gouji_record.formats.eventlog.EventLogError`) the
            first line that fails, both with ``line`` and ``message``.
    """
    lines = json_lines(text)
    number, first = next(((n, line) for n, line in enumerate(lines, start=1) if line.strip()), (0, ""))
    if not first:
        return []
    if _GJN_TAG.match(first.lstrip("\ufeff")):  # a .gjn record given to import
        raise RecordJSONError(
            "this is a .gjn record (it starts with a tag), not JSON: gouji validate, fmt and render read it; "
            "gouji import reads JSON Lines (from gouji export) and platform event logs",
            number,
            source,
        )
    obj = json_object(first, number, source, RecordJSONError)
    if isinstance(obj, dict) and "type" in obj:
        return records_from_events(lines, source)
    return records_from_json(lines, source)


__all__ = ["EventLogError", "RecordJSONError", "json_lines", "read_records", "record_json", "records_from_json"]
