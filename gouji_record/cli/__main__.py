"""``python -m gouji_record.cli``: the ``gouji`` command."""

from .main import run

run()
