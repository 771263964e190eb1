"""Options as text (选项文本): an ``Options`` tag (or ``--option``) read into a ruleset, and a
ruleset written back as the tag that gives it.

:func:`parse_options` reads the tag's ``name=value`` items, :func:`with_options` derives the
variant (yes/no for switches, ``a+b`` for lists, ``T:4+J:3`` for gouji-minimum, former names
still read), :func:`options_tag` writes a variant's differences from its preset. Every error is a
:class:`BadOption` that names the valid options or values.

>>> options_tag(with_options(get_ruleset("fours"), parse_options("claim=yes; smother=tribute")))
'smother=tribute, claim=yes'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from ..errors import GoujiError, wrong_type
from .presets import STANDARD_MINIMUM
from .schema import OPTION_NAMES, Ruleset, get_ruleset, option_text


class BadOption(GoujiError, ValueError):
    """An option override with an unknown name or a value the option does not take (code ``bad-option``)."""

    default_code = "bad-option"



_MINIMUM_ITEM = re.compile(r"(10|[2-9TJQKAXD]):([1-9][0-9]?)", re.IGNORECASE)


def _minimum(text: str, base: dict[str, int]) -> dict[str, int]:
    """``gouji-minimum=T:4+J:3``: the fewest cards of each rank named that make a 够级 play; the
    ranks not named keep ``base``'s. Raises :class:`BadOption` for anything else."""
    out = dict(base)
    for item in text.replace(",", "+").replace(" ", "+").split("+"):
        if not item:
            continue
        m = _MINIMUM_ITEM.fullmatch(item)
        if m is None:
            raise BadOption(
                f"option gouji-minimum: {item!r} is not RANK:COUNT; expected items like T:4 joined by +, e.g. T:4+J:3"
            )
        rank = "T" if m.group(1) == "10" else m.group(1).upper()
        out[rank] = int(m.group(2))
    return out


def _value(raw: str, option: str, ruleset: Ruleset | None = None) -> Any:
    text = raw.strip()
    if option == "gouji_minimum":
        return _minimum(text, ruleset.gouji_minimum if ruleset is not None else STANDARD_MINIMUM)
    annotation = str(Ruleset.model_fields[option].annotation)
    if "tuple" in annotation:
        return tuple(v for v in text.replace("+", " ").replace(",", " ").split()) if text not in {"", "none"} else ()
    if option == "scoring":
        raise BadOption("scoring cannot be set from a tag; derive a ruleset in Python")
    low = text.lower()
    if annotation == "<class 'bool'>":
        if low in {"yes", "true", "on", "1"}:
            return True
        if low in {"no", "false", "off", "0"}:
            return False
        raise BadOption(f"option {option.replace('_', '-')}: {raw!r} is not yes or no")
    return low if "Literal" in annotation else text


#: Options renamed, by their former names, still read: 憋三 is "threes held" in the glossary.
FORMER_NAMES = {"threes_last": "threes_held"}


def with_options(ruleset: Ruleset, options: dict[str, str]) -> Ruleset:
    """``ruleset`` with options overridden from text, e.g. ``{"threes-held": "yes"}``.

    Names take ``-`` or ``_`` (and the former names of :data:`FORMER_NAMES`); yes/no for switches; ``a+b`` for lists.

    >>> rules = with_options(get_ruleset("charter"), {"threes-held": "yes", "showing": "none"})
    >>> rules.name, rules.threes_held, rules.may_claim
    ('charter', True, False)
    >>> with_options(rules, {"threes": "yes"})
    Traceback (most recent call last):
    gouji_record.rules.options.BadOption: unknown option 'threes': expected one of ...

    Raises:
        BadOption: a name that is no option, or a value that the option does not take or that is
            not text (``{"claim": True}``: write ``"yes"``), naming the valid options or values.
        BadArgument: ``ruleset`` is not a :class:`Ruleset` or ``options`` not a mapping (a ``dict``).
    """
    if not isinstance(ruleset, Ruleset):
        raise wrong_type("ruleset", ruleset, "a Ruleset (get_ruleset('charter'))")
    if not isinstance(options, Mapping):
        raise wrong_type("options", options, "a mapping of option names to values ({'claim': 'no'})")
    update: dict[str, Any] = {}
    for raw_name, raw in options.items():
        if not isinstance(raw_name, str) or not isinstance(raw, str):
            raise BadOption(
                f"option {raw_name!r}={raw!r}: expected a name and a value as text, as an Options tag writes them"
            )
        name = raw_name.strip().replace("-", "_")
        name = FORMER_NAMES.get(name, name)
        if name not in OPTION_NAMES:
            names = ", ".join(n.replace("_", "-") for n in OPTION_NAMES)
            raise BadOption(f"unknown option {raw_name!r}: expected one of {names}")
        update[name] = _value(raw, name, ruleset)
    try:
        return Ruleset.model_validate({**ruleset.model_dump(), **update, "name": ruleset.name})
    except ValidationError as e:
        err = e.errors()[0]
        field = str(err["loc"][0]).replace("_", "-")
        raise BadOption(f"option {field}: {err['msg']}") from None


def options_tag(ruleset: Ruleset) -> str:
    """The ``Options`` tag value that gives ``ruleset`` from the preset of its name: each option
    that differs, ``name=value`` joined by ``", "`` (``""`` for the preset itself), so that a
    record written under a variant replays under it.

    >>> options_tag(with_options(get_ruleset("charter"), {"threes-held": "yes", "showing": "none"}))
    'threes-held=yes, showing=none'

    Raises:
        BadOption: a difference a tag cannot hold (``scoring``).
    """
    preset = get_ruleset(ruleset.name)
    items = []
    for name in OPTION_NAMES:
        value = getattr(ruleset, name)
        if value == getattr(preset, name):
            continue
        if isinstance(value, BaseModel):
            raise BadOption(f"option {name.replace('_', '-')} cannot be written in an Options tag")
        if isinstance(value, dict):  # gouji-minimum: the ranks that differ
            value = {k: v for k, v in value.items() if getattr(preset, name).get(k) != v}
        items.append(f"{name.replace('_', '-')}={option_text(value)}")
    return ", ".join(items)


def parse_options(text: str) -> dict[str, str]:
    """Read an ``Options`` tag value: ``"threes-held=yes, hand-end=one-left"``.

    Raises:
        BadOption: an item that is not ``name=value``.
    """
    out: dict[str, str] = {}
    for item in text.replace(";", ",").split(","):
        if not item.strip():
            continue
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise BadOption(f"option {item.strip()!r}: expected name=value")
        out[name.strip()] = value.strip()
    return out


__all__ = [
    "FORMER_NAMES",
    "BadOption",
    "options_tag",
    "parse_options",
    "with_options",
]
