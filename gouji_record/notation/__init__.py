"""The ``.gjn`` notation: grammar (``grammar/gjn.lark``), parser and writer."""

from .build import NotationError, SourceMap
from .parser import parse_text
from .writer import write, write_all

__all__ = ["NotationError", "SourceMap", "parse_text", "write", "write_all"]
