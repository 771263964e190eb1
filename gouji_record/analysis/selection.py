"""Picking hands out of many (选局), as pgn-extract picks games: by tag, by what happened in the
hand, by verdict. The tag tests come first, on the tags alone; the others on the engine's replay
and the verdict, made only for a hand that passes them (or whose match still needs it: see
:meth:`Selection.pick`). A hand is kept or left whole.

>>> from gouji_record import parse, replay
>>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
>>> head = f'[Event "x"][Site "y"][Date "2026.11.30"][Ruleset "charter"]{seats}[Result "*"]'
>>> hand = replay(parse(head + "deal 1: TTTTT?31 2: ? 3: ? 4: JJJJJ?31 5: ? 6: ? play 1. 1:TTTTT 4:JJJJJ")[0])
>>> Selection(players=("p4",), has=("answer",)).keeps(hand), Selection(has=("burn",)).keeps(hand)
(True, False)

With a player (or a seat), an event counts when it is that seat's own (:func:`owners`): seat 4
answered, seat 1 did not; ``anyone`` asks the whole table.

>>> Selection(players=("p1",), has=("answer",)).keeps(hand), Selection(players=("p1",), has=("answer",), anyone=True).keeps(hand)
(False, True)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..judging.replay import Replay, replay
from ..model import GameRecord
from ..rules.events import EventKind
from ..rules.rulesets import Ruleset

if TYPE_CHECKING:
    from ..running.batch import ReadHand

#: Every event kind (the engine's :class:`~gouji_record.rules.events.EventKind` values): the one
#: vocabulary of ``filter --has``, ``events --kind`` and every output that names an event.
KINDS = tuple(k.value for k in EventKind)
#: Names ``--has`` takes besides the kinds: the other seat of an event whose owner is not its
#: acting seat (:data:`OWNER_INDEX`): ``breaks-burn`` the seat that broke a burn (of
#: ``burn-broken``, the burner's), ``smothers`` the seat whose play smothered (of ``smother``,
#: the smothered seat's). Each stands for the kind it names.
ROLES = {"breaks-burn": EventKind.BURN_BROKEN.value, "smothers": EventKind.SMOTHER.value}
#: Everything ``--has`` takes.
HAS_CHOICES = KINDS + tuple(ROLES)
#: The spellings the commands took before the kinds were one vocabulary (issue 38), with the kind
#: each is now: still accepted, with a note (:func:`gouji_record.cli.common.kind_opt`).
OLD_KIND_NAMES = {"burn-failed": EventKind.BURN_FAILURE.value, "revolt": EventKind.REVOLUTION.value, "smothered": EventKind.SMOTHER.value}

#: Kinds whose event belongs to every seat it lists: the seats still in play when the melee
#: begins (四户乱缠), the sweeping team's three (串三户), all six at the hand's end, the
#: revolters of a void hand.
ALL_LISTED = frozenset({EventKind.MELEE.value, EventKind.SWEEP.value, EventKind.HAND_END.value, EventKind.VOID_HAND.value})
#: The names of ``--has`` whose event belongs to another seat than the acting one (the first it
#: lists): the position of that seat among the event's seats. ``burn-broken`` is the burner's
#: (解烧: its burn was broken; ``breaks-burn``, the same event, the seat that broke it), as the
#: burns of ``gouji stats`` count by the burner; ``smother`` the smothered seat's, ``smothers``
#: the seat whose play smothered it.
OWNER_INDEX = {EventKind.BURN_BROKEN.value: 1, "breaks-burn": 0, EventKind.SMOTHER.value: 0, "smothers": 1}


def owners(name: str, seats: tuple[int, ...]) -> tuple[int, ...]:
    """The seats an event listing ``seats`` belongs to, as ``--has name`` reads it (``name`` one of
    :data:`HAS_CHOICES`): the acting seat (the first listed: the maker of a 够级 play, the seat
    that answered, burned, counter-burned, opened, finished, took the wind, revolted, gave cards,
    was made headless …), except the kinds of :data:`ALL_LISTED` (every seat listed) and of
    :data:`OWNER_INDEX` (the seat at that place).

    >>> owners("burn-broken", (5, 2)), owners("breaks-burn", (5, 2)), owners("sweep", (5, 1, 3))
    ((2,), (5,), (5, 1, 3))
    """
    kind = ROLES.get(name, name)
    if kind in ALL_LISTED:
        return seats
    i = OWNER_INDEX.get(name, 0)
    return seats[i : i + 1]


def _date_key(date: str) -> str:
    """A Date tag (``YYYY.MM.DD``, ``?`` for unknown parts) as a sortable string; unknown parts as the lowest."""
    return date.replace("?", "0")


@dataclass(frozen=True)
class Selection:
    """What a hand must have to be kept, all of it (AND): one of ``players`` at some seat (Seat
    tags, exact) — at one of ``seats`` (1–6) when both are given —, its ruleset in ``rulesets``,
    its Event tag containing ``event`` (any case), its Date within ``date_from`` … ``date_to``
    (``YYYY.MM.DD``, inclusive), an event of every kind of ``has`` (:data:`KINDS`, or a name of
    :data:`ROLES`), and ``valid`` (``True``: replays without an illegal action; ``False``:
    with one; ``None``: either).

    The events count for the seats asked: with ``players`` or ``seats``, an event of ``has``
    counts only when it belongs (:func:`owners`) to a seat of one of ``players`` (among ``seats``,
    if given), or to one of ``seats``: with ``players=("Zhang Wei",), has=("burn",)``, Zhang Wei
    burned, not someone at his table. ``anyone`` counts every seat's events (the table's), and
    so do no ``players`` and no ``seats``.

    Raises :class:`ValueError` for a name in ``has`` that is not in :data:`HAS_CHOICES`."""

    players: tuple[str, ...] = ()
    rulesets: tuple[str, ...] = ()
    event: str | None = None
    date_from: str | None = None
    date_to: str | None = None
    has: tuple[str, ...] = ()
    valid: bool | None = None
    seats: tuple[int, ...] = ()
    anyone: bool = False
    #: :meth:`pick` gives ``(play_key(record), text)`` for a hand kept, not the text alone: for
    #: ``gouji filter --unique`` and ``--duplicates``, which compare hands by their deal and actions.
    keyed: bool = False

    def __post_init__(self) -> None:
        for name in self.has:
            if name not in HAS_CHOICES:
                raise ValueError(f"{name!r} is not an event kind: expected one of {', '.join(HAS_CHOICES)}")

    def keeps(self, result: Replay) -> bool:
        """Whether the hand ``result`` replayed is selected, judged by its replay's own verdict
        (a hand of a match: :meth:`pick` and :meth:`settle` judge it within its match)."""
        return (
            self.keeps_tags(result.record.tags, result.ruleset)
            and self._keeps_events(result)
            and (self.valid is None or (result.diagnostic is None) == self.valid)
        )

    def keeps_tags(self, tags: dict[str, str], rules: Ruleset) -> bool:
        """Whether a hand with ``tags``, replayed under ``rules``, passes the tests that need no
        replay: ``players`` (Seat tags), ``rulesets`` (``rules.name``: its Ruleset tag's, or the
        one ``--ruleset`` names over it), ``event`` and the Date (``date_from``, ``date_to``).

        >>> from gouji_record.rules.rulesets import get_ruleset
        >>> tags = {"Event": "Club night", "Date": "2026.11.??", "Seat1": "Zhang Wei"}
        >>> Selection(players=("Zhang Wei",), event="club").keeps_tags(tags, get_ruleset("charter"))
        True
        >>> Selection(date_from="2026.12.01").keeps_tags(tags, get_ruleset("charter"))  # ?? reads as 00
        False
        """
        if self.players and not self._seats_of(tags):
            return False
        if self.rulesets and rules.name not in self.rulesets:
            return False
        if self.event is not None and self.event.lower() not in tags.get("Event", "").lower():
            return False
        date = _date_key(tags.get("Date", "????.??.??"))
        if self.date_from is not None and date < _date_key(self.date_from):
            return False
        return self.date_to is None or date <= _date_key(self.date_to)

    def _seats_of(self, tags: dict[str, str]) -> set[int]:
        """The seats the tests are about: those of ``players`` (among ``seats``, if given), else
        ``seats``, else all six."""
        seats = self.seats or range(1, 7)
        if self.players:
            return {s for s in seats if tags.get(f"Seat{s}", "?") in self.players}
        return set(seats)

    def _keeps_events(self, result: Replay) -> bool:
        if not self.has:
            return True
        mine = None if self.anyone or not (self.players or self.seats) else self._seats_of(result.record.tags)
        for name in self.has:
            kind = ROLES.get(name, name)
            if not any(e.kind.value == kind and (mine is None or mine & set(owners(name, e.seats))) for e in result.events):
                return False
        return True

    def pick(self, hand: ReadHand, rules: Ruleset):
        """The text of ``hand`` (a :class:`~gouji_record.running.batch.ReadHand`) exactly as read, when it
        replayed under ``rules`` is kept; else ``None``; for a hand of a match whose verdict
        counts, a :class:`~gouji_record.running.batch.Judged` that :meth:`settle` completes with
        the match's verdict. The work ``gouji filter`` gives :func:`~gouji_record.running.batch.map_hands`
        (a bound method of a selection pickles), with ``settle=selection.settle``.

        The tag tests (:meth:`keeps_tags`) come first, and a hand is replayed only when
        something still needs it:

        - a hand the tags rule out is not replayed, unless ``valid`` is tested and it belongs
          to a match (a ``Match`` tag): a later hand of that match may be kept, and its verdict
          reads this one (the tribute it owes, who leads next, the numbering), so it is
          replayed for the match's judge, as ``gouji validate`` replays it, and not output;
        - a hand the tags keep is replayed when ``has`` or ``valid`` is tested, else kept as it
          is (no test reads its play).

        Every hand is still read whole before (:func:`~gouji_record.running.batch.map_hands`
        parses it), so that a hand that cannot be read is reported whatever its tags.
        """
        from ..running.batch import judged

        record, verdict_counts = hand.record, self.valid is not None
        assert record is not None
        if not self.keeps_tags(record.tags, rules):
            if verdict_counts and record.tags.get("Match"):
                return judged(None, replay(record, rules, every_position=False), self.settle)
            return None
        kept = (play_key(record), hand.hand.text) if self.keyed else hand.hand.text
        if not self.has and not verdict_counts:
            return kept
        result = replay(record, rules, every_position=False)
        text = kept if self._keeps_events(result) else None
        return judged(text, result, self.settle) if verdict_counts else text

    def settle(self, text, verdict):
        """``text`` (:meth:`pick`'s) kept or not by the hand's whole ``verdict``
        (a :class:`~gouji_record.matches.verdict.Verdict`)."""
        return text if text is not None and (self.valid is None or verdict.valid == self.valid) else None


def play_key(record: GameRecord) -> bytes:
    """What makes two hands the same game whatever their tags (pgn-extract's duplicates, ``-D``):
    a 16-byte digest of the deal and of every action as the notation writes it, before play and
    in play (``Action.text``: ``^``, purchases and gifts included; round numbers, glyphs, ``$n``
    and comments left out, as the tags are). Two hands with the same key were dealt the same
    cards and played the same way.

    >>> from gouji_record import parse
    >>> seats = "".join(f'[Seat{s} "p{s}"]' for s in range(1, 7))
    >>> a, b, c = parse(
    ...     f'[Event "x"][Site "y"][Date "?"][Ruleset "charter"]{seats}[Result "*"] play 1. 1:55 {{A}} 2:-\\n\\n'
    ...     f'[Event "z"][Site "y"][Date "?"][Ruleset "charter"]{seats}[Result "*"] play 1:55 2:-\\n\\n'
    ...     f'[Event "x"][Site "y"][Date "?"][Ruleset "charter"]{seats}[Result "*"] play 1:55 2:~')
    >>> play_key(a) == play_key(b), play_key(a) == play_key(c)
    (True, False)
    """
    digest = hashlib.blake2b(digest_size=16)
    digest.update("\x1f".join(record.deal).encode())
    for action in (*record.preplay, *record.actions):
        digest.update(b"\x1e" + action.text.encode())
    return digest.digest()
