"""The optional extras (可选依赖): what needs the ``archives`` extra (pyarrow, DuckDB, Dask's
``distributed``) says so in one line, never a traceback.

>>> need("json")
>>> need("no_such_module_here")
Traceback (most recent call last):
  ...
gouji_record.running.extras.MissingExtra: no_such_module_here is not installed: pip install 'gouji-record[archives]'
"""

from __future__ import annotations

import importlib

EXTRA = "pip install 'gouji-record[archives]'"


class MissingExtra(ImportError):
    """A module of the ``archives`` extra is not installed: ``module`` names it; the message says
    ``pip install 'gouji-record[archives]'``."""

    def __init__(self, module: str) -> None:
        super().__init__(f"{module} is not installed: {EXTRA}")
        self.module = module


def need(*modules: str) -> None:
    """Import ``modules`` (``"pyarrow"``, ``"distributed"``).

    Raises:
        MissingExtra: naming the first module that cannot be imported.
    """
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            raise MissingExtra(name) from None


__all__ = ["EXTRA", "MissingExtra", "need"]
