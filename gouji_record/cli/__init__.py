"""The ``gouji`` command line (命令行)."""
