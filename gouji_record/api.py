"""The public API of gouji-record (公开接口), which the package root gives: ``gouji_record.parse`` is
:func:`parse` here. In the order data flows (docs/api.md is its page)::

    records = parse(text)            # .gjn text → [GameRecord]
    records = read("hand.gjn")       # the same, from a file
    for h in read_headers("big.gjn"):  # each hand's tags and place, the deal and play not parsed
        h.tags["Seat1"], h.index     #   h.record(): that hand read whole
    result = replay(records[0])      # → Replay: positions, events, the hand's own diagnostic
    for v in verdicts(records):      # → Verdict: the whole verdict, within its match too
        v.valid, v.diagnostics       #   (what gouji validate and every other command report)
    for v in read_verdicts("f.gjn"):  # the same of a file's hands, one that does not read too,
        v.problems()                 #   each problem located: [Problem], p.as_dict() its JSON
    text = write(records[0])         # GameRecord → canonical .gjn text
    html = render_html(records[0])   # → one self-contained HTML page

The engine underneath, as python-chess has its board: a :class:`Position` plus an
:class:`Action` gives the next position and the events, or raises :class:`IllegalAction`
(every error the package raises on purpose is a :class:`GoujiError`). :func:`legal_actions`
lists what the engine accepts; :func:`first_leader` says who leads round 1; :func:`ruleset_of`
gives a record's ruleset; :meth:`Action.from_text` and :attr:`Action.text` read and write one
action; :func:`parse_cards` and :func:`format_cards` the cards:

>>> rules = with_options(get_ruleset("charter"), {"claim": "no"})
>>> pos = initial_position(rules, ("TTTTT?31", "?36", "?36", "JJJJJ?31", "?36", "?36"), leader=1)
>>> pos, events = step(pos, Action.from_text("1:TTTTT"))
>>> [e.kind.value for e in events], pos.to_act
(['gouji'], 4)
>>> try:
...     step(pos, Action(seat=3, kind="play", cards="QQQQQ"))
... except IllegalAction as e:
...     print(e.code, "|", e.diagnostic.rule)
gouji-not-opposite | gouji-opposite-only
"""

# ruff: noqa: F401 - every name imported here is given by the package root (its __all__)
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import BinaryIO

from .cards import CardError, format_cards, parse_cards
from .errors import BadArgument, GoujiError, wrong_type
from .judging.lead import first_leader
from .judging.legacy import read_as_written
from .judging.replay import Replay, RulesetOverride, replay, ruleset_of
from .matches.verdict import MatchJudge, Verdict, verdict, verdicts
from .model import Action, ActionKind, GameRecord
from .notation import NotationError, parse_text, write, write_all
from .notation.files import UnknownEncoding, read_hands, text_encoding
from .notation import headers as _headers
from .notation.headers import Headers, hand_records
from .rules import moves as _moves
from .rules.engine import Position, initial_position, step
from .rules.events import Diagnostic, Event, EventKind, IllegalAction
from .rules.moves import HiddenPlays
from .rules.rulesets import PRESETS, BadOption, Ruleset, UnknownRuleset, get_ruleset, with_options
from .running.batch import read_records


def parse(text: str) -> list[GameRecord]:
    """Parse ``.gjn`` text into records, one per hand, in order (``[]`` for white space).

    >>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
    >>> [record] = parse(f'[Event "x"][Site "y"][Date "?"][Ruleset "charter"]{seats}[Result "*"] play 1:55 2:-')
    >>> [a.text for a in record.actions], record.deal[0]
    (['1:55', '2:-'], '?36')

    Raises:
        NotationError: text that is not a record; its ``code``, ``line`` and ``column`` (from 1)
            say what and where (docs/notation.md, "Errors").
        BadArgument: ``text`` is not a ``str`` (bytes: decode them, or :func:`read` the file).
    """
    if not isinstance(text, str):
        raise wrong_type("text", text, "a str of .gjn text (bytes: decode them, or read(path) the file)")
    return [record for record, _ in parse_text(text, reading=read_as_written)]


def read(path: str | Path, encoding: str | None = None) -> list[GameRecord]:
    """Read a ``.gjn`` file into records, one per hand, through the splitter every command uses
    (:func:`~gouji_record.notation.files.read_hands`: any line ends, a byte-order mark dropped).
    ``encoding`` reads a file that is not UTF-8 (``"gb18030"``), as ``--encoding`` does.

    Raises:
        NotationError: a file that cannot be read (code ``unreadable``), is not UTF-8 or not in
            ``encoding`` (``encoding``, at the first bad byte) or is not a record; its ``file``,
            ``hand``, ``line`` and ``column`` say where.
        UnknownEncoding: ``encoding`` names no encoding the reader can use (a ``ValueError``).
    """
    records: list[GameRecord] = []
    for hand in read_hands(str(path), encoding=text_encoding(encoding)):
        records += hand_records(hand, read_as_written)
    return records


def read_verdicts(
    path: str | Path,
    ruleset: Ruleset | RulesetOverride | None = None,
    *,
    encoding: str | None = None,
    every_position: bool = True,
) -> Iterator[Verdict]:
    """The verdict of every hand of the file ``path``, in file order, as ``gouji validate`` gives
    them: the file cut into hands by the splitter every command uses, each hand read, replayed
    under ``ruleset`` (as :func:`verdicts`) and judged within its match; a hand that cannot be
    read (bad syntax, a bad deal, an unknown version of the notation …) is a verdict too, not
    valid, its problem located (:attr:`Verdict.unread`; its ``record`` is ``None``), and breaks
    its match's run; then, for a file that cannot be read on or holds no hand, one such verdict
    with ``hand`` ``None``. Each
    verdict knows where its hand is (``path``, ``hand``, ``where``): ``v.problems()`` are located
    as ``gouji validate`` locates them. Never raises for what the file holds; an unknown
    ``encoding`` raises :class:`~gouji_record.notation.files.UnknownEncoding` (a ``ValueError``).

    Raises:
        UnknownEncoding: ``encoding`` names no text encoding.
    """
    judge = MatchJudge()  # (a match is judged within one file, as gouji validate judges it)
    for read in read_records(str(path), encoding=text_encoding(encoding)):
        index = read.hand.index if read.hand is not None else None
        if read.problem is not None:
            judge.interrupt()
            p = replace(read.problem, hand=index)
            d = Diagnostic(code=p.code, message=p.message, action=None, rule="", source="", message_zh=p.message_zh)
            yield Verdict(None, refused=d, path=p.path, hand=index, unread=p)
            continue
        v = judge.verdict(read.record, ruleset, every_position=every_position)
        v.path, v.hand, v.where = read.hand.path, index, read.where
        yield v


def read_headers(path: str | Path, stream: BinaryIO | None = None, encoding: str | None = None) -> Iterator[Headers]:
    """The tags of each hand of the file ``path`` (or of ``stream``, named ``path``), in file order,
    without parsing the deal and play (:func:`~gouji_record.notation.headers.read_headers`); each
    :meth:`Headers.record` reads its hand as :func:`read` does, a hand of gjn 1 under its rules.

    >>> import io
    >>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
    >>> text = f'[Event "a"][Site "?"][Date "?"][Ruleset "fours"]{seats}[Result "*"] preplay 4>1:3 1>4:2 play'
    >>> [h] = read_headers("old.gjn", io.BytesIO(text.encode()))
    >>> h.tags["Ruleset"], [a.text for a in h.record().preplay]  # gjn 1: a bare purchase
    ('fours', ['buy 1>4:2', 'buy 4>1:3'])

    Raises:
        NotationError: code ``unreadable`` (``file`` set) when the file cannot be opened or read on.
    """
    return _headers.read_headers(str(path), stream, encoding, read_as_written)


def legal_actions(pos: Position, seat: int | None = None) -> list[Action | HiddenPlays]:
    """Every action the engine accepts in ``pos`` (可行动作), as python-chess's
    ``board.legal_moves``: what a bot chooses from.

    The seat to act's plays, pass, yield (让牌), request to take the wind (接风) and claim (挑牌),
    then the burns (烧牌) other seats may make, in claim order; before the first play, each
    seat's declarations first (革命, 宣点 …). With ``seat`` (1–6), only that seat's. Each entry is
    an :class:`Action` that :func:`step` accepts from ``pos``, except a play that needs cards the
    deal does not give (``?N``), listed once by its kind as a
    :class:`~gouji_record.rules.moves.HiddenPlays` (``entry.example`` is one such play). Empty
    once the hand is over. Transfers (``give``) and ``^`` rulings are not listed.

    >>> pos = initial_position(get_ruleset("charter"), ("TTTTT?31", "?36", "?36", "JJJJJ?31", "?36", "?36"), leader=1)
    >>> pos, _ = step(pos, Action.from_text("1:TTTTT"))  # a 够级 play: only seat 4 answers, or a burn
    >>> [a.text for a in legal_actions(pos, seat=4)]  # 4:?5: any five cards, some not in the deal
    ['4:JJJJJ', '4:?5', '4:-', '4:claim']

    Raises:
        BadArgument: ``pos`` is not a :class:`Position` (code ``bad-argument``) or ``seat`` is not 1–6
            (``bad-seat``; ``None`` is every seat).
    """
    if not isinstance(pos, Position):
        raise wrong_type("pos", pos, "a Position (initial_position(…))")
    if seat is not None and (type(seat) is not int or seat not in range(1, 7)):
        raise BadArgument(f"seat {seat!r}: expected a seat 1-6, or None for every seat", code="bad-seat")
    return _moves.legal_actions(pos, seat)


def render_html(record: GameRecord, ruleset: str | Ruleset | RulesetOverride | None = None) -> str:
    """A self-contained HTML replay of ``record`` (see :mod:`gouji_record.render.html`), replayed under
    ``ruleset`` as :func:`replay` takes it.

    Raises:
        UnknownRuleset, BadOption, BadArgument: as :func:`replay`.
    """
    from .render.html import render_replay

    return render_replay(replay(record, ruleset))
