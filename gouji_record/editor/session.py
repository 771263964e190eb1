"""What the editor's page sends and gets back (编辑会话): a record as plain data, checked by the
engine; the file opened and saved.

A hand travels as plain data (JSON), one item per action, so that a problem is located at the
item the user typed, not at a line of text::

    {"tags": {"Event": "…", "Seat1": "…", …},
     "deal": ["TTTTT ?31", "", …],               # six seats; "" or "-": nothing known (?36)
     "comment": ["…"],                           # the comments before the first action
     "preplay": [item, …], "actions": [item, …]}
    item = {"text": "5:*XXKK", "glyph": "!?", "nags": [3], "comments": ["…"], "round": null}

``text`` is one action as :meth:`~gouji_record.model.Action.from_text` reads it (``^`` first
for an irregular one). :func:`check` builds the records (:func:`build`), judges them with
:func:`~gouji_record.matches.verdict.verdicts` (the one verdict every command gives) and answers
with, per hand: the problems (the engine's diagnostic with its rule and source, or the item that
does not read), the table after the last action replayed
(:func:`~gouji_record.rules.table.describe`), the events, and the legal actions of that position
(:func:`~gouji_record.rules.moves.legal_actions`). Nothing here reads the rules itself.

:class:`Workspace` is the folder the editor may read and write: it opens a ``.gjn`` file of the
folder as plain data, and saves the canonical text (what ``gouji fmt`` writes) atomically
(:class:`~gouji_record.running.sink.Sink`), refusing a file changed on disk since it was opened.
"""

from __future__ import annotations

import errno
import hashlib
import io
import os
import reprlib
import stat
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import GoujiError, NotationError
from ..judging.canonical import canonical
from ..judging.legacy import read_as_written
from ..judging.replay import replay
from ..matches.verdict import MatchJudge
from ..model import REQUIRED_TAGS, Action, GameRecord
from ..notation.files import read_hands
from ..notation.headers import hand_records
from ..notation.writer import write_all
from ..rules.events import Diagnostic
from ..rules.moves import legal_actions
from ..rules.rulesets import RULES, BadOption, UnknownRuleset
from ..rules.table import describe, held_text
from ..running.sink import OutputError, Sink

#: The most hands one request may carry, and actions in a hand: far above any real record
#: (a hand has a few hundred actions), low enough that a request cannot keep the server busy.
MAX_HANDS = 64
MAX_ITEMS = 2000


class EditorError(GoujiError):
    """A request the editor refuses (code ``editor``): ``message`` is one line for the page;
    ``status`` the HTTP status to answer with (400 bad input, a name the system refuses; 403 a
    path outside the folder, a file or folder that may not be written; 404 no such folder; 409
    the file changed on disk; 422 a file that does not read; 500 a save the system could not
    finish, the disk full)."""

    default_code = "editor"

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def item_of(action: Action) -> dict[str, Any]:
    """One action as the page's item (see the module's docstring)."""
    return {
        "text": action.text,
        "glyph": action.glyph or "",
        "nags": list(action.nags),
        "comments": list(action.comments),
        "round": action.round,
    }


def hand_data(record: GameRecord) -> dict[str, Any]:
    """``record`` as the page's plain data (the inverse of :func:`build` for one hand)."""
    return {
        "tags": dict(record.tags),
        "deal": list(record.deal),
        "comment": list(record.comment),
        "preplay": [item_of(a) for a in record.preplay],
        "actions": [item_of(a) for a in record.actions],
    }


def _at_item(section: str, item: int | None, code: str, message: str, **more: Any) -> dict[str, Any]:
    return {"section": section, "item": item, "code": code, "message": message, **more}


def _strings(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
        raise EditorError(f"{what}: expected a list of strings")
    return value


class _Unread(Exception):
    """An item that writes no action (its ``code`` and ``message``), said at the item."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _action(item: Any, where: str) -> Action:
    """The action an item writes; raises :class:`NotationError` for text that is not an action,
    :class:`_Unread` for an empty one or a bad annotation, :class:`EditorError` for an item that
    is not shaped as one."""
    if not isinstance(item, dict) or not isinstance(item.get("text"), str):
        raise EditorError(f"{where}: expected an object with the action's text")
    text = item["text"].strip()
    if not text:
        raise _Unread("empty-action", "an empty action: write a seat, a colon and what it does (1:TTTTT, 3:-)")
    glyph, nags, rnd = item.get("glyph") or None, item.get("nags") or [], item.get("round")
    comments = _strings(item.get("comments") or [], f"{where}.comments")
    if not (glyph is None or isinstance(glyph, str)) or not (rnd is None or type(rnd) is int):
        raise EditorError(f"{where}: expected a glyph as text and a round number, or null")
    if not isinstance(nags, list) or not all(type(n) is int for n in nags):
        raise EditorError(f"{where}.nags: expected a list of numbers")
    return _read(text, glyph, tuple(nags), tuple(comments), rnd)


@lru_cache(maxsize=8192)
def _read(text: str, glyph: str | None, nags: tuple[int, ...], comments: tuple[str, ...], rnd: int | None) -> Action:
    """One item's action, read once (actions are frozen): a hand is sent whole at each change."""
    action = Action.from_text(text)
    if glyph is None and not nags and not comments and rnd is None:
        return action
    try:
        return Action.model_validate(
            {**action.model_dump(), "glyph": glyph, "nags": nags, "comments": comments, "round": rnd}
        )
    except ValidationError as e:
        error = e.errors()[0]
        field = ".".join(str(p) for p in error["loc"])
        raise _Unread("bad-annotation", f"{field}: {error['msg'].removeprefix('Value error, ')}") from None


def build(hand: Any) -> tuple[GameRecord | None, dict[str, Any] | None]:
    """The record ``hand`` (plain data, see the module's docstring) writes, and the first problem
    met reading it (``None`` when it reads whole). An action that does not read stops the record
    before it (the actions typed so far are still judged); a tag or a deal that does not read
    gives no record. Empty standard tags are ``?`` (``Result``: ``*``), a deal line empty or
    ``-`` is ``?36``.

    Raises:
        EditorError: data not shaped as a hand.
    """
    if not isinstance(hand, dict):
        raise EditorError("a hand: expected an object with tags, deal and actions")
    tags = hand.get("tags") or {}
    if not isinstance(tags, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in tags.items()):
        raise EditorError("tags: expected an object of strings")
    tags = {k.strip(): v.strip() for k, v in tags.items() if k.strip()}
    for name in REQUIRED_TAGS:
        if not tags.get(name):
            tags[name] = "*" if name == "Result" else "?"
    deal = _strings(hand.get("deal") or [""] * 6, "deal")
    if len(deal) != 6:
        raise EditorError("deal: expected six lines, one per seat")
    deal = [line.strip() if line.strip() not in ("", "-") else "?36" for line in deal]
    comment = _strings(hand.get("comment") or [], "comment")
    sections: dict[str, list[Action]] = {"preplay": [], "actions": []}
    problem = None
    for section, found in sections.items():
        items = hand.get(section) or []
        if not isinstance(items, list) or len(items) > MAX_ITEMS:
            raise EditorError(f"{section}: expected a list of at most {MAX_ITEMS} actions")
        for i, item in enumerate(items):
            try:
                found.append(_action(item, f"{section}[{i}]"))
            except (NotationError, _Unread) as e:
                problem = _at_item(section, i, e.code, e.message)
                break
        if problem:
            break
    if problem is not None:  # the actions before it are judged as a hand not written to its end
        tags["Result"] = "*"
    data = {"tags": tags, "deal": tuple(deal), "comment": tuple(comment), **sections}
    try:
        return GameRecord.model_validate(data), problem
    except ValidationError as e:
        error = e.errors()[0]
        section = str(error["loc"][0]) if error["loc"] else "record"
        message = error["msg"].removeprefix("Value error, ")
        item = None
        if section == "deal":  # which seat's line: each alone beside unknown ones
            item = next((s for s in range(6) if not _reads({**data, "deal": _alone(deal, s)})), None)
            message = f"seat {item + 1}: {message}" if item is not None else message
        return None, _at_item(section, item, "bad-" + section, message)


def _alone(deal: list[str], seat: int) -> tuple[str, ...]:
    return tuple(line if s == seat else "?36" for s, line in enumerate(deal))


def _reads(data: dict[str, Any]) -> bool:
    try:
        GameRecord.model_validate(data)
    except ValidationError:
        return False
    return True


def _located(d: Diagnostic, preplay: int, at_tag: bool = False) -> dict[str, Any]:
    """A problem of a hand's verdict at the item it names (``action`` counts pre-play actions
    first); ``at_tag``: a problem with a tag (a ruleset that is not), in the tags."""
    en, zh = RULES.get(d.rule, (d.rule, ""))
    section, item = (
        (None, None)
        if d.action is None
        else ("preplay", d.action)
        if d.action < preplay
        else ("actions", d.action - preplay)
    )
    return _at_item(
        section or ("tags" if at_tag or "mismatch" in d.code else "record"),
        item,
        d.code,
        d.message,
        message_zh=d.message_zh,
        rule=en,
        rule_zh=zh,
        source=d.source,
        number=d.number,
    )


def check(hands: Any) -> list[dict[str, Any]]:
    """The verdict of each hand of ``hands`` (a list of plain-data hands, a match's in order), as
    the page shows it: ``problems`` (each with ``section``, ``item``, ``code``, ``message`` and,
    from the engine, ``message_zh``, ``rule``, ``rule_zh``, ``source`` and the action's
    ``number``), ``checked`` (how many actions were replayed), ``table`` (the table after them:
    :func:`~gouji_record.rules.table.describe`, each seat with ``text``, its cards as the deal
    writes them), ``events`` and ``result`` (the places as the Result tag writes them once the
    hand is over, else ``None``). The legal actions there are :func:`legal`'s (asked for apart:
    at a lead with many 2s and jokers to attach they take longer than the verdict).

    Raises:
        EditorError: data not shaped as hands.
    """
    if not isinstance(hands, list) or not 0 < len(hands) <= MAX_HANDS:
        raise EditorError(f"hands: expected a list of 1 to {MAX_HANDS} hands")
    built = [build(hand) for hand in hands]
    out: list[dict[str, Any]] = [{"problems": [p] if p else []} for _, p in built]
    judge = MatchJudge()
    for i, (record, _) in enumerate(built):
        if record is None:  # a hand that does not read breaks its match's run, as in a file
            judge.interrupt()
            continue
        v = judge.verdict(record)
        preplay = len(record.preplay)
        out[i]["problems"][:0] = [_located(d, preplay, v.refused is d) for d in v.diagnostics]
        result = v.replay
        if result is None:  # a ruleset that is not (its Ruleset or Options tag): judged no further
            continue
        final = result.final
        table = describe(final)
        for seat in table["seats"]:
            seat["text"] = held_text(seat["cards"], seat["unknown"])
        out[i].update(
            checked=len(result.positions) - 1,
            table=table,
            events=[_event(e, preplay) for e in result.events],
            result="-".join(map(str, final.places)) if final.over and not final.void else None,
        )
    return out


def legal(hands: Any, index: int) -> list[str]:
    """The texts of the legal actions (:func:`~gouji_record.rules.moves.legal_actions`, in its
    order: the seat to act's, then the burns other seats may make) after the last action of hand
    ``index`` of ``hands`` that the replay reached: where the record stops, or before the first
    illegal action (what could have been played instead); ``[]`` for a hand that does not read
    or is over.

    Raises:
        EditorError: data not shaped as hands, or a wrong ``index``.
    """
    if not isinstance(hands, list) or not 0 < len(hands) <= MAX_HANDS:
        raise EditorError(f"hands: expected a list of 1 to {MAX_HANDS} hands")
    if type(index) is not int or not 0 <= index < len(hands):
        raise EditorError(f"hand: expected a number from 0 to {len(hands) - 1}")
    record, _ = build(hands[index])
    if record is None:
        return []
    try:
        final = replay(record).final
    except (UnknownRuleset, BadOption):
        return []
    return [a.text for a in legal_actions(final)]


def _event(e: Any, preplay: int) -> dict[str, Any]:
    en, zh = RULES.get(e.rule, (e.rule, ""))
    section, item = ("preplay", e.action) if e.action < preplay else ("actions", e.action - preplay)
    return {
        "section": section,
        "item": item,
        "number": e.number,
        "kind": e.kind.value,
        "kind_zh": e.kind.zh,
        "seats": list(e.seats),
        "cards": e.cards,
        "place": e.place,
        "note": e.note,
        "note_zh": e.note_zh,
        "rule": en,
        "rule_zh": zh,
        "source": e.source,
    }


def digest(data: bytes) -> str:
    """The SHA-256 of a file's bytes, in hex: what a save compares with the file on disk."""
    return hashlib.sha256(data).hexdigest()


#: The HTTP status of a file name the system refuses, by ``errno`` (any other: 500).
_REFUSED = {
    errno.ENAMETOOLONG: 400,
    errno.ELOOP: 400,
    errno.EISDIR: 400,
    errno.ENOTDIR: 404,
    errno.ENOENT: 404,
    errno.EACCES: 403,
    errno.EPERM: 403,
    errno.EROFS: 403,
}
_names = reprlib.Repr()
_names.maxstring = 80  # a name in a message: quoted, escaped, shortened in its middle


def _quoted(name: str) -> str:
    """``name`` quoted for a one-line message (``repr``; over 80 characters, ``...`` in its middle)."""
    return _names.repr(name)


def _refused(e: OSError, shown: str) -> EditorError:
    """The refusal of the system's error ``e`` on the file ``shown``, as the editor answers it."""
    return EditorError(f"{_quoted(shown)}: {e.strerror or e}", _REFUSED.get(e.errno, 500))


class Workspace:
    """The folder the editor reads and writes (its real path, symbolic links followed), and the
    file opened by default (``default``, a name in it). Only ``.gjn`` files directly or below
    ``folder`` are opened or saved; any other path is refused (:class:`EditorError`, 403)."""

    def __init__(self, folder: str | Path, default: str) -> None:
        self.folder = Path(os.path.realpath(folder))
        self.default = default

    def resolve(self, name: Any) -> Path:
        """The file ``name`` (relative to the folder; ``None`` or empty: the default) names.

        Raises:
            EditorError: (400) a name that is not text or holds a control character or a lone
                surrogate; (403) an absolute path, one that leaves the folder (``..``, a symbolic link
                out of it) or a name that does not end in ``.gjn``.
        """
        name = name if name not in (None, "") else self.default
        if not isinstance(name, str):
            raise EditorError("file: expected the name of a .gjn file of the folder, or null")
        odd = next((c for c in name if unicodedata.category(c) in ("Cc", "Cs")), None)
        if odd is not None:
            raise EditorError(f"{_quoted(name)}: a file name holds no control character or lone surrogate")
        if os.path.isabs(name) or name.startswith(("/", "\\")):
            raise EditorError(f"{_quoted(name)}: only a file of the folder {self.folder} may be opened", 403)
        path = Path(os.path.realpath(self.folder / name))
        if path.parent != self.folder and self.folder not in path.parents:
            raise EditorError(f"{_quoted(name)} is outside the folder {self.folder}: refused", 403)
        if path.suffix.lower() != ".gjn":
            raise EditorError(f"{_quoted(name)}: only .gjn files may be opened or saved", 403)
        return path

    def _status(self, path: Path) -> os.stat_result | None:
        """The status of the regular file ``path`` (resolved), or ``None`` when there is none yet
        in a folder that is there. Raises :class:`EditorError`: 404 for a folder that is not
        there, 400 for a directory, a FIFO or a device, else the system's refusal (:func:`_refused`)."""
        shown = os.path.relpath(path, self.folder)
        try:
            found = path.stat()
        except FileNotFoundError:
            if not path.parent.is_dir():
                parent = os.path.relpath(path.parent, self.folder) if path.parent != self.folder else str(self.folder)
                raise EditorError(f"{_quoted(shown)}: no such folder {_quoted(parent)}", 404) from None
            return None
        except OSError as e:
            raise _refused(e, shown) from None
        if not stat.S_ISREG(found.st_mode):
            raise EditorError(f"{_quoted(shown)}: not a file", 400)
        return found

    def _bytes(self, path: Path) -> bytes:
        try:
            return path.read_bytes()
        except OSError as e:
            raise _refused(e, os.path.relpath(path, self.folder)) from None

    def open(self, name: Any) -> dict[str, Any]:
        """The file ``name`` as the page edits it: ``file`` (its name), ``folder`` (the folder's
        real path: the page keeps a draft per file of a folder), ``hands`` (plain data; one
        empty hand for a new file), ``base`` (the digest of its bytes, ``None`` for a new file)
        and ``exists``.

        Raises:
            EditorError: (422) with ``FILE:LINE:COL: message`` for a file that does not read; (400)
                for a directory; those of :meth:`resolve`; a name the system refuses (too long,
                unreadable: :func:`_refused`).
        """
        path = self.resolve(name)
        shown = os.path.relpath(path, self.folder)
        if self._status(path) is None:
            return {"file": shown, "folder": str(self.folder), "exists": False, "base": None, "hands": [new_hand()]}
        data = self._bytes(path)
        try:
            records = [r for hand in read_hands(str(path), io.BytesIO(data)) for r in hand_records(hand, read_as_written)]
        except GoujiError as e:
            where = ":".join(str(p) for p in (shown, e.line, e.column) if p is not None)
            raise EditorError(f"{where}: {e.message}", 422) from None
        hands = [hand_data(r) for r in records] or [new_hand()]
        return {"file": shown, "folder": str(self.folder), "exists": True, "base": digest(data), "hands": hands}

    def save(self, name: Any, hands: Any, base: str | None) -> dict[str, Any]:
        """Write ``hands`` to the file ``name`` in the canonical form (what ``gouji fmt`` writes:
        round numbers where the engine starts each round), atomically. ``base`` is the digest the
        page opened (``None``: a new file); a file whose bytes differ from it now (changed on disk,
        or created since) is not overwritten. A hand that does not read is not saved. Returns the new
        ``base`` and the text written.

        Raises:
            EditorError: (409) a file changed, created or deleted since ``base``; (400) hands not shaped
                as hands, a hand that does not read (its problem) or names no ruleset or option; those
                of :meth:`resolve`; 400, 404 and the system's refusals as :meth:`open`; (403) a
                read-only file or folder; (500) the system fails to write (the disk full), the file
                left as it was.
        """
        path = self.resolve(name)
        if not isinstance(hands, list) or not 0 < len(hands) <= MAX_HANDS:
            raise EditorError(f"hands: expected a list of 1 to {MAX_HANDS} hands")
        records = []
        for n, hand in enumerate(hands, start=1):
            record, problem = build(hand)
            if problem is not None or record is None:
                where = (
                    f"{problem['section']} {problem['item'] + 1}"
                    if problem and problem["item"] is not None
                    else (problem or {}).get("section", "")
                )
                raise EditorError(f"hand {n}, {where}: {problem['message'] if problem else 'does not read'}: not saved")
            records.append(record)
        try:
            text = write_all(canonical(r) for r in records)
        except (UnknownRuleset, BadOption) as e:
            raise EditorError(f"{e.message}: not saved") from None
        shown = os.path.relpath(path, self.folder)
        found = self._status(path)
        current = None if found is None else digest(self._bytes(path))
        if current != base:
            what = "was created" if base is None else "was deleted" if current is None else "has changed"
            raise EditorError(
                f"{_quoted(shown)} {what} on disk since it was opened: not saved "
                "(your work is kept here; reopen the file to see the other version)",
                409,
            )
        if found is not None and not found.st_mode & stat.S_IWUSR:
            raise EditorError(f"{_quoted(shown)} is read-only: not saved", 403)
        if not os.access(path.parent, os.W_OK):
            raise EditorError(f"{_quoted(shown)}: the folder may not be written: not saved", 403)
        try:
            with Sink(str(path)) as out:
                out.write(text)
        except OutputError as e:
            raise EditorError(f"{_quoted(shown)}: {e.message}: not saved", 500) from None
        return {"file": shown, "base": digest(text.encode("utf-8")), "text": text}


def new_hand() -> dict[str, Any]:
    """An empty hand: the standard tags, nothing dealt known, no action."""
    tags = {name: "" for name in REQUIRED_TAGS}
    tags["Ruleset"] = "charter"
    return {"tags": tags, "deal": [""] * 6, "comment": [], "preplay": [], "actions": []}
