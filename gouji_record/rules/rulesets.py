"""Rulesets (规则集): the rules of one rule text, as data.

A :class:`Ruleset` is a pydantic model. Each field is one option on which the
rule texts in ``shared/seeds/`` differ; the engine reads the fields and never
asks which preset it runs. Every rule the engine enforces has a key in
:data:`RULES`; a ruleset maps each key to the section of its rule text it comes
from (:meth:`Ruleset.cite`: the text by its own title, ``够级大纲 §10 (第十条 烧牌)``), so a
diagnostic or event can quote its source.
There is one preset per rule text (:data:`PRESETS`); :func:`with_options`
derives a variant.

Three modules hold them, and this one gives every name of the three: the schema
(:mod:`~gouji_record.rules.schema`: the model, its fields, the rule keys), the presets
(:mod:`~gouji_record.rules.presets`: data), and options as text
(:mod:`~gouji_record.rules.options`: the ``Options`` tag read and written).

>>> r = get_ruleset("charter")
>>> r.scoring.places
(4, 2, 0, 0, -2, -4)
>>> r.cite("burn")
'够级大纲 §10 (第十条 烧牌)'
>>> with_options(r, {"threes-held": "yes"}).threes_held
True
"""

from .options import FORMER_NAMES, BadOption, options_tag, parse_options, with_options
from .presets import STANDARD_MINIMUM
from .schema import (
    OPTION_NAMES,
    PRESETS,
    RULES,
    Departure,
    OpeningExclusion,
    Ruleset,
    Scoring,
    UnknownRuleset,
    get_ruleset,
    option_rule,
    option_text,
)

#: The presets by the names they had when this module defined them.
ONLINE, CLASSIC, CHARTER, FOURS, TOURNAMENT = (
    PRESETS[name] for name in ("online", "classic", "charter", "fours", "tournament")
)

__all__ = [
    "CHARTER",
    "CLASSIC",
    "FORMER_NAMES",
    "FOURS",
    "ONLINE",
    "OPTION_NAMES",
    "PRESETS",
    "RULES",
    "STANDARD_MINIMUM",
    "TOURNAMENT",
    "BadOption",
    "Departure",
    "OpeningExclusion",
    "Ruleset",
    "Scoring",
    "UnknownRuleset",
    "get_ruleset",
    "option_rule",
    "option_text",
    "options_tag",
    "parse_options",
    "with_options",
]
