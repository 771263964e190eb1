"""Writing a command's output without losing anything (输出).

An output file is written whole or not at all: the text goes to a temporary
file beside it, which replaces the file only when the command commits it (an
atomic rename), so a reader sees the old file or the new one, never half, and
a failed command leaves the old file as it was. Standard output, a pipe, a
FIFO or a device (``/dev/stdout``, ``/dev/null``) is written as it comes.

>>> import io, contextlib
>>> buf = io.StringIO()
>>> with contextlib.redirect_stdout(buf):
...     with Sink(None) as out:
...         out.write("1:33\\n")
>>> buf.getvalue()
'1:33\\n'
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path
from typing import IO

from ..errors import GoujiError


class OutputError(GoujiError):
    """An output that cannot or may not be written (code ``output``); ``path`` (also ``file``)
    and a one-line ``message``."""

    default_code = "output"

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message, file=path)
        self.path = path


def _target(path: str) -> Path:
    """The file ``path`` names, symbolic links followed (the link itself is kept)."""
    real = os.path.realpath(path)
    if os.path.islink(real):  # realpath gives up on a loop and returns a link
        raise OutputError(path, "cannot write the file: a loop of symbolic links")
    return Path(real)


def same_file(a: str, b: str) -> bool:
    """Whether the paths ``a`` and ``b`` name the same file (``-`` names none)."""
    if a == "-" or b == "-":
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


class Sink:
    """A text output opened as a context manager; ``write`` text, then leave the block to commit.

    ``path`` ``None`` or ``-`` is standard output. A path that exists and is not a regular file
    (a FIFO, ``/dev/stdout``) is written to directly. Otherwise the text goes to a temporary file
    in the same directory, renamed over ``path`` when the block ends without an exception and
    removed when it ends with one; the file keeps its permission bits, a new one gets the usual
    ones. An existing file that is read-only is refused (:class:`OutputError`) unless ``force``.
    Raises :class:`OutputError` for a file that cannot be written, with the reason, and
    :class:`BrokenPipeError` when the reader of a stream has gone away (:meth:`write`).
    """

    def __init__(self, path: str | None, *, force: bool = False) -> None:
        self.path = None if path in (None, "-") else path
        self.force = force
        self._file: IO[str] | None = None
        self._tmp: str | None = None
        self._target: Path | None = None
        self._abandoned = False

    def __enter__(self) -> Sink:
        if self.path == "":
            raise OutputError("''", "an empty file name: give a file name, or - for standard output")
        if self.path is None:
            self._file = sys.stdout
            return self
        try:
            try:
                st: os.stat_result | None = os.stat(self.path)  # through links: /dev/stdout is a pipe's
            except FileNotFoundError:
                st = None
            if st is not None and not stat.S_ISREG(st.st_mode):
                if stat.S_ISDIR(st.st_mode):
                    raise OutputError(self.path, "is a directory: give a file name")
                self._file = open(self.path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
                return self
            target = _target(self.path)
            if st is not None and not self.force and not (st.st_mode & stat.S_IWUSR and os.access(target, os.W_OK)):
                raise OutputError(self.path, "the file is read-only: give --force to replace it")
            fd, self._tmp = tempfile.mkstemp(prefix=_temporary(target), suffix=".tmp", dir=target.parent)
            self._target = target
            self._file = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
            os.chmod(self._tmp, st.st_mode & 0o7777 if st is not None else 0o666 & ~_umask())
        except OSError as e:
            self._discard()
            raise OutputError(self.path, f"cannot write the file: {e.strerror or e}") from None
        return self

    def write(self, text: str) -> None:
        """Write ``text``. Raises :class:`OutputError` when the device is full, and
        :class:`BrokenPipeError` as it is when the reader of a pipe or FIFO has gone away (the
        command ends as a command SIGPIPE ends, saying nothing)."""
        assert self._file is not None, "write inside the with block"
        try:
            self._file.write(text)
        except BrokenPipeError:
            raise
        except OSError as e:
            raise self._failed(e) from None

    def copy_from(self, source: IO[str]) -> None:
        """Write the rest of the text file ``source``."""
        source.seek(0)
        while chunk := source.read(1 << 16):
            self.write(chunk)

    def _failed(self, e: OSError) -> OutputError:
        what = "the file" if self.path else "to standard output"
        return OutputError(self.path or "-", f"cannot write {what}: {e.strerror or e}")

    def abandon(self) -> None:
        """Leave an output file as it was when the block ends (what was written to a stream stays)."""
        self._abandoned = True

    def __exit__(self, kind, value, traceback) -> None:
        if kind is not None or self._abandoned:
            self._discard()
            return
        try:
            if self._tmp is None:
                self._file.flush()  # type: ignore[union-attr]
                if self._file is not sys.stdout:
                    self._file.close()  # type: ignore[union-attr]
                return
            self._file.close()  # type: ignore[union-attr]
            os.replace(self._tmp, self._target)  # type: ignore[arg-type]
            self._tmp = None
        except BrokenPipeError:
            self._discard()
            raise
        except OSError as e:
            self._discard()
            raise self._failed(e) from None

    def _discard(self) -> None:
        if self._file is not None and self._file is not sys.stdout:
            try:
                self._file.close()
            except OSError:
                pass
        if self._tmp is not None:
            Path(self._tmp).unlink(missing_ok=True)
            self._tmp = None


class OutputDirectory:
    """A directory of output files, written whole or not at all: a context manager whose ``path``
    is a new temporary directory beside ``path`` (``.NAME.XXXX.tmp``) to write the files in; when
    the block ends without an exception it is renamed to ``path``, and when it ends with one it is
    removed. ``path`` must not exist, unless ``force``: then the directory there is replaced (moved
    aside, the new one renamed in, the old one removed), never a file.

    Raises :class:`OutputError` with the reason (``path`` exists; it is a file; it cannot be written).

    >>> import tempfile, os
    >>> where = tempfile.mkdtemp()
    >>> with OutputDirectory(os.path.join(where, "out")) as out:
    ...     _ = Path(out.path, "a.txt").write_text("1")
    >>> sorted(os.listdir(where)), os.listdir(os.path.join(where, "out"))
    (['out'], ['a.txt'])
    """

    def __init__(self, path: str, *, force: bool = False) -> None:
        self.target = path
        self.force = force
        self.path = ""

    def __enter__(self) -> OutputDirectory:
        target = self.target
        if target in ("", "-"):
            raise OutputError(target or "''", "an output directory needs a name")
        if os.path.lexists(target):
            if not os.path.isdir(target):
                raise OutputError(target, "is a file, not a directory: give a directory to write")
            if not self.force:
                raise OutputError(target, "exists: give --force to replace it")
        real = _target(target) if os.path.islink(target) else Path(os.path.abspath(target))
        try:
            self.path = tempfile.mkdtemp(prefix=_temporary(real), suffix=".tmp", dir=real.parent)
            os.chmod(self.path, 0o777 & ~_umask())
        except OSError as e:
            raise OutputError(target, f"cannot write the directory: {e.strerror or e}") from None
        self._real = real
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if kind is not None:
            shutil.rmtree(self.path, ignore_errors=True)
            return
        old = None
        try:
            if os.path.isdir(self._real):  # --force: move the old directory aside, then swap
                old = tempfile.mkdtemp(prefix=_temporary(self._real), suffix=".old", dir=self._real.parent)
                os.replace(self._real, old)  # onto the empty directory just made
            os.replace(self.path, self._real)
        except OSError as e:
            if old is not None and not os.path.exists(self._real):
                os.replace(old, self._real)  # put the old one back
                old = None
            shutil.rmtree(self.path, ignore_errors=True)
            raise OutputError(self.target, f"cannot write the directory: {e.strerror or e}") from None
        finally:
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def spool() -> IO[str]:
    """A temporary text file kept in memory up to 8 MiB, on disk past that."""
    return tempfile.SpooledTemporaryFile(max_size=8 << 20, mode="w+", encoding="utf-8", newline="\n")


def _temporary(target: Path) -> str:
    """The prefix of a temporary file or directory beside ``target``: a dot and the target's name,
    cut to 32 characters, so that with the random part and the suffix a name near the system's
    limit (255 bytes) still fits."""
    return f".{target.name[:32]}."
