"""A hand judged on its own (一局的裁定): the record replayed through the engine, its
purchases and gifts, the transfers before play, and the diagnostic located in the file."""

from . import legacy  # noqa: F401  (files of gjn 1 read as they were written, by every reader)
