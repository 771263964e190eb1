"""``python -m gouji_record.cli``: the ``gouji`` command."""

from .launch import run

run()
