"""What the table looks like (牌桌): a position described for people, as data and as text.

:func:`describe` gives a :class:`~gouji_record.rules.engine.Position` as plain data (dicts, lists,
strings, numbers: ready for JSON) and :func:`describe_text` as lines to read, which is what
``str(position)`` prints, as python-chess prints a board. Both read only the position: every state
they show (the play on top, who passed, a yield, a burn, 无头, 开点, places) is the engine's own,
none worked out again here. With ``seat``, only what that seat sees: its own cards, and of the
others how many cards they hold; everything played in the open stays.

Cards are written as the notation writes them (:func:`~gouji_record.cards.format_cards`, strongest
first), with ``?N`` for the N cards of a seat the record does not give.
"""

from __future__ import annotations

from typing import Any

from ..cards import format_cards
from .events import PLACE_NAMES_EN, PLACE_NAMES_ZH

#: What this module reads: a :class:`~gouji_record.rules.engine.Position`. It is not imported, as the
#: engine imports this module for ``Position.__str__`` and imports go one way (tests/test_layers.py).
Position = Any

#: A seat's status, in English and Chinese: still playing, finished (走科), out of the hand (出局:
#: smothered, a failed burn), revolted (革命), or placed holding cards when the hand ended (定科).
STATUS_LABELS = {
    "playing": ("", ""),
    "finished": ("finished", "走科"),
    "out": ("out", "出局"),
    "revolted": ("revolted", "革命"),
    "placed": ("placed", "定科"),
}
_CALL_LABELS = {"call": "called (宣点)", "precall": "precalled (预点)"}


def _status(pos: Position, seat: int) -> str:
    if seat in pos.finished:
        return "finished"
    if seat in pos.out:
        return "out"
    if seat in pos.revolted:
        return "revolted"
    return "placed" if pos.over and not pos.void else "playing"


def _place(pos: Position, seat: int) -> int | None:
    """The place (1–6) ``seat`` has taken so far, as the engine counts them, or ``None``."""
    places = pos.places
    if seat in places:
        return places.index(seat) + 1
    if seat in pos.out:  # the first out is last (大落)
        return 6 - pos.out.index(seat)
    return None


def _seat(pos: Position, seat: int, visible: bool) -> dict[str, Any]:
    calls = [kind for who, kind in pos.calls if who == seat]
    return {
        "seat": seat,
        "held": pos.holds(seat),
        "cards": format_cards(pos.hands[seat - 1]) if visible else None,
        "unknown": pos.unknown[seat - 1] if visible else None,
        "status": _status(pos, seat),
        "place": _place(pos, seat),
        "headless": pos.headless(seat) and not pos.gone(seat) and not pos.over,
        "opened": seat in pos.opened,
        "qualified": seat in pos.qualified,
        "given_up": seat in pos.given_up,
        "natural": seat in pos.natural,
        "kept_head": pos.kept_head[seat - 1],
        "smothered": any(smothered == seat for _, smothered in pos.smothers),
        "call": calls[-1] if calls else None,
    }


def describe(pos: Position, seat: int | None = None) -> dict[str, Any]:
    """The table of ``pos`` as plain data, or only what ``seat`` (1–6) sees of it.

    Keys: ``phase`` (``"pre-play"``, ``"play"`` or ``"over"``), ``void`` (two or more
    revolutions), ``round`` (from 1), ``actions`` (actions applied, pre-play ones included),
    ``to_act`` (the seat whose turn it is; ``None`` once over), ``view`` (``seat``, or ``None``
    for every hand face up), ``top`` (``None`` when the seat to act leads, else ``seat``,
    ``cards``, and ``gouji``: a 够级 play, which only the opposite answers, or a burn (002 §9,
    §10); ``dead_gouji``: 够死级, only a burn; ``unbeatable``: 死牌), ``passed`` (seats that
    passed this round, in seat order), ``yield`` (``None``, or ``seat`` that yielded, 让牌, and
    ``back``: the turn has come back to it), ``burn`` (``None``, or the running burn's ``burner``
    and ``target``), ``melee`` (四户乱缠 is on) and ``seats``, one dict per seat 1–6.

    A seat's dict: ``seat``, ``held`` (cards held, known or not), ``cards`` (the cards the record
    gives, strongest first) and ``unknown`` (how many more it holds that the record does not
    give), both ``None`` for another seat than ``seat``; ``status`` (a key of
    :data:`STATUS_LABELS`), ``place`` (1–6 once taken, else ``None``), ``headless`` (无头, said of
    a seat in play while the hand goes on), ``opened`` (开点), ``qualified`` (opens by leading its
    4s, 开点发4), ``given_up`` (放弃开点), ``natural`` (自然开点 declared), ``kept_head`` (dead gouji
    plays of 要头 left), ``smothered`` (闷) and ``call`` (``"call"`` 宣点, ``"precall"`` 预点, or
    ``None``).

    Raises:
        ValueError: ``seat`` is not 1–6.
    """
    if seat is not None and seat not in range(1, 7):
        raise ValueError(f"seat {seat!r} is not a seat: seats are 1-6")
    top = pos.top
    return {
        "phase": "over" if pos.over else "pre-play" if pos.preplay else "play",
        "void": pos.void,
        "round": pos.round,
        "actions": pos.actions,
        "to_act": pos.to_act,
        "view": seat,
        "top": None
        if top is None
        else {
            "seat": top.seat,
            "cards": str(top.play),
            "gouji": top.restricted,
            "dead_gouji": top.burn_only,
            "unbeatable": top.unbeatable,
        },
        "passed": sorted(pos.barred),
        "yield": None if pos.yielder is None else {"seat": pos.yielder, "back": pos.yield_back},
        "burn": None if pos.burner is None else {"burner": pos.burner, "target": pos.burn_target},
        "melee": pos.melee,
        "seats": [_seat(pos, s, seat is None or s == seat) for s in range(1, 7)],
    }


def held_text(cards: str | None, unknown: int | None) -> str:
    """A seat's cards as the notation's deal writes them: ``KK ?34``, ``?36``; ``""`` for none or
    for cards not shown (``None``).

    >>> held_text("KK", 34), held_text("", 36), held_text("KK", 0), held_text(None, None)
    ('KK ?34', '?36', 'KK', '')
    """
    if cards is None:
        return ""
    hidden = f"?{unknown}" if unknown else ""
    return f"{cards} {hidden}" if cards and hidden else cards or hidden


def _flags(data: dict[str, Any], row: dict[str, Any]) -> list[str]:
    seat = row["seat"]
    flags = []
    en, zh = STATUS_LABELS[row["status"]]
    if en:
        place = row["place"]
        flags.append(
            f"{en} {PLACE_NAMES_EN[place - 1]} ({zh}, {PLACE_NAMES_ZH[place - 1]})" if place else f"{en} ({zh})"
        )
    if data["to_act"] == seat:
        flags.append("to act (轮到)")
    if seat in data["passed"]:
        flags.append("passed (已过牌)")
    if row["headless"]:
        flags.append("headless (无头)")
    if row["kept_head"]:
        flags.append(f"kept a head (要头): {row['kept_head']} dead gouji left")
    if row["opened"]:
        flags.append("opened (开点)")
    if row["qualified"]:
        flags.append("opens by leading its 4s (待发4开点)")
    if row["given_up"]:
        flags.append("gave up opening (放弃开点)")
    if row["natural"]:
        flags.append("natural opening (自然开点)")
    if row["smothered"]:
        flags.append("smothered (闷)")
    if row["call"]:
        flags.append(_CALL_LABELS[row["call"]])
    return flags


def _head(data: dict[str, Any]) -> str:
    n = data["actions"]
    made = f"{n} action{'' if n == 1 else 's'} made (已行{n}步)"
    if data["phase"] == "over":
        what = "the hand is void (该局作废)" if data["void"] else "the hand is over (一局结束)"
        return f"{what}, round {data['round']}, {made}"
    seat = data["to_act"]
    if data["phase"] == "pre-play":
        return f"before play (出牌前), {made}; seat {seat} leads (首发)"
    return f"round {data['round']} (第{data['round']}轮), {made}; seat {seat} to act (轮到{seat}号位)"


def _top(data: dict[str, Any]) -> str:
    top = data["top"]
    if top is None:
        return f"top (桌面): none, seat {data['to_act']} leads (发牌)"
    kind = (
        ", unbeatable (死牌)"
        if top["unbeatable"]
        else ", a dead gouji play (够死级)"
        if top["dead_gouji"]
        else ", a gouji play (够级)"
        if top["gouji"]
        else ""
    )
    return f"top (桌面): {top['cards']} by seat {top['seat']}{kind}"


def describe_text(pos: Position, seat: int | None = None) -> str:
    r"""The table of ``pos`` as lines of text, or only what ``seat`` (1–6) sees of it: what
    :func:`describe` gives, labelled in English with the Chinese terms beside.

    The first line says the round, the actions made and whose turn it is; in play, the next
    says the play on top and who made it, then a line each for a yield (让牌), a running burn
    (烧牌) and the four-way melee (四户乱缠) when there is one; then one line per seat: how many
    cards it holds, the cards (``?N`` for those the record does not give; none shown for another
    seat than ``seat``), and what stands for it (to act, passed, 无头, 开点, its place …).

    >>> from gouji_record.model import Action
    >>> from gouji_record.rules.engine import initial_position, step
    >>> from gouji_record.rules.rulesets import get_ruleset
    >>> deal = ("TTTTT66?29",) + ("?36",) * 2 + ("JJJJJ?31",) + ("?36",) * 2
    >>> pos = initial_position(get_ruleset("charter"), deal, leader=1)
    >>> pos, _ = step(pos, Action(seat=1, kind="play", cards="TTTTT"))
    >>> print(describe_text(pos))
    round 1 (第1轮), 1 action made (已行1步); seat 4 to act (轮到4号位)
    top (桌面): TTTTT by seat 1, a gouji play (够级)
    seat 1  31 cards  66 ?29
    seat 2  36 cards  ?36
    seat 3  36 cards  ?36
    seat 4  36 cards  JJJJJ ?31  to act (轮到)
    seat 5  36 cards  ?36
    seat 6  36 cards  ?36
    >>> print("\n".join(describe_text(pos, seat=4).splitlines()[2:6]))  # seat 4 sees its own cards only
    seat 1  31 cards
    seat 2  36 cards
    seat 3  36 cards
    seat 4  36 cards  JJJJJ ?31  to act (轮到)

    Raises :class:`ValueError` for a ``seat`` that is not 1–6.
    """
    data = describe(pos, seat)
    lines = [_head(data) + (f"; seat {seat}'s view ({seat}号位视角)" if seat is not None else "")]
    if data["phase"] == "play":
        lines.append(_top(data))
        if data["yield"]:
            y = data["yield"]
            back = "the turn is back with it" if y["back"] else "the turn comes back to it if the others pass"
            lines.append(f"yield (让牌): seat {y['seat']} yielded, {back}")
        if data["burn"]:
            b = data["burn"]
            lines.append(f"burn (烧牌): seat {b['burner']} is burning seat {b['target']}")
        if data["melee"]:
            lines.append("four-way melee (四户乱缠): on")
    held = [held_text(row["cards"], row["unknown"]) for row in data["seats"]]
    width = max(map(len, held))
    for row, cards in zip(data["seats"], held):
        flags = ", ".join(_flags(data, row))
        line = f"seat {row['seat']}  {row['held']:>2} cards  {cards:<{width}}  {flags}"
        lines.append(line.rstrip())
    return "\n".join(lines)


__all__ = ["STATUS_LABELS", "describe", "describe_text", "held_text"]
