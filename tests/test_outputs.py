"""Files as a shell user has them: links, FIFOs, devices, full disks, closed streams, read-only
files, Ctrl-C. Every case exits with a status and one line, never a traceback, and loses nothing.
(The cases of ../shared/cases/integrity/file-handling.sh.)"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading

import pytest
from click.testing import CliRunner

from gouji_record.cli import checking as cli, common as cli_common
from gouji_record.cli.main import main

from conftest import EXAMPLES

HAND = EXAMPLES / "charter-hand.gjn"
CANONICAL = HAND.read_text(encoding="utf-8")  # the example is in canonical form


def gouji(*args: str, **kwargs) -> subprocess.CompletedProcess:
    if "stdout" not in kwargs:
        kwargs.setdefault("capture_output", True)
    return subprocess.run([sys.executable, "-m", "gouji_record.cli", *args], timeout=60, **kwargs)


def one_line_error(stderr: bytes, start: str) -> None:
    text = stderr.decode("utf-8")
    assert "Traceback" not in text
    assert len(text.strip().splitlines()) == 1 and text.startswith(start), text


@pytest.mark.parametrize("command", [["fmt", str(HAND), "-o"], ["selfplay", "-o"], ["export", str(HAND), "-o"]])
def test_a_loop_of_symbolic_links_as_output(tmp_path, command):
    loop = tmp_path / "self"
    loop.symlink_to(loop)
    r = gouji(*command, str(loop))
    assert r.returncode == 2
    one_line_error(r.stderr, f"{loop}: error[unwritable]: cannot write the file: ")
    assert loop.is_symlink()


def test_a_loop_of_symbolic_links_as_input(tmp_path):
    loop = tmp_path / "self"
    loop.symlink_to(loop)
    r = gouji("render", str(loop), "-o", str(tmp_path / "x.html"))
    assert r.returncode == 2 and not (tmp_path / "x.html").exists()
    one_line_error(r.stderr, f"{loop}: error[unreadable]: cannot read the file: ")


def test_a_fifo_as_output_is_written_to_not_replaced(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    r = gouji("fmt", str(HAND), "-o", str(fifo))
    reader.join(30)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert got == [CANONICAL.encode("utf-8")]


def test_dev_stdout_as_output_when_stdout_is_a_pipe():
    r = gouji("fmt", str(HAND), "-o", "/dev/stdout")
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode("utf-8") == CANONICAL


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("command", [["validate", str(HAND)], ["fmt", str(HAND)], ["export", str(HAND)]])
def test_a_full_standard_output(command):
    with open("/dev/full", "wb") as full:
        r = gouji(*command, stdout=full, stderr=subprocess.PIPE)
    assert r.returncode == 2
    one_line_error(r.stderr, "-: error[unwritable]: cannot write to standard output: No space left on device")


def test_standard_input_closed():
    r = subprocess.run(
        ["bash", "-c", f'exec "{sys.executable}" -m gouji_record.cli validate - <&-'], capture_output=True, timeout=60
    )
    assert r.returncode == 2
    one_line_error(r.stderr, "-: error[unreadable]: standard input is closed")


def test_a_read_only_output_is_refused_unless_forced(tmp_path):
    f = tmp_path / "ro.gjn"
    f.write_text(CANONICAL.replace("\n2. ", "\n"), encoding="utf-8")  # not canonical: fmt would rewrite it
    f.chmod(0o444)
    before = f.read_bytes()
    r = gouji("fmt", "--in-place", str(f))
    assert r.returncode == 2 and f.read_bytes() == before
    one_line_error(r.stderr, f"{f}: error[unwritable]: the file is read-only: give --force to replace it")
    r = gouji("fmt", "--in-place", "--force", str(f))
    assert r.returncode == 0 and f.read_text(encoding="utf-8") == CANONICAL
    assert stat.S_IMODE(f.stat().st_mode) == 0o444  # replaced, its permissions kept


def test_a_directory_as_output(tmp_path):
    r = CliRunner().invoke(main, ["export", str(HAND), "-o", str(tmp_path)])
    assert r.exit_code == 2  # click refuses a directory for -o before the command runs
    assert "Traceback" not in r.output


def test_jobs_are_bounded():
    r = CliRunner().invoke(main, ["validate", "--jobs", "100000000", str(HAND)])
    assert r.exit_code == 2 and "100000000 is not in the range 1<=x<=64" in r.output


def test_workers_that_cannot_start_are_said_so(monkeypatch):
    import multiprocessing  # (what running/batch.py starts its workers with)

    def no_fork(*args, **kwargs):
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(multiprocessing, "Pool", no_fork)
    r = CliRunner().invoke(main, ["validate", "--jobs", "2", str(HAND)])
    assert r.exit_code == 2
    assert r.stderr.startswith(f"{HAND}: error[workers]: cannot start 2 worker processes: ")
    assert "cannot read the file" not in r.stderr


def test_ctrl_c_exits_130(monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "read_records", interrupted)  # fmt reads with it
    monkeypatch.setattr(cli_common, "read_records", interrupted)  # the commands that read with cli_common.records
    for command in (["fmt", str(HAND)], ["export", str(HAND)], ["events", str(HAND)]):
        r = CliRunner().invoke(main, command)
        assert r.exit_code == 130 and "Aborted" not in r.output, command


def test_control_characters_in_a_record_reach_the_terminal_escaped(tmp_path):
    # a comment may not hold them (bad-comment): the error quotes the line with them escaped
    f = tmp_path / "esc.gjn"
    illegal = (EXAMPLES / "charter-hand-illegal.gjn").read_text(encoding="utf-8")
    f.write_text(illegal.replace("{Illegal: seat 3", "{Illegal:\x1b]0;pwned\x07\x1b[2J seat 3"), encoding="utf-8")
    r = gouji("validate", str(f))
    assert r.returncode == 2
    err = r.stderr.decode("utf-8")
    assert "\x1b" not in err and "\x07" not in err
    assert "error[bad-comment]: comment holds a control character (U+001B)" in err
    assert "{Illegal:\\x1b]0;pwned\\x07\\x1b[2J seat" in err
    for command in ("fmt", "export"):  # nothing of it is written either
        r = gouji(command, str(f))
        assert r.returncode == 2 and b"\x1b" not in r.stdout + r.stderr


def test_an_output_is_whole_or_not_there(tmp_path):
    # a bad hand in the one input: nothing is written, the old output stays as it was
    out = tmp_path / "out.jsonl"
    out.write_text("old\n", encoding="utf-8")
    bad = tmp_path / "bad.gjn"
    bad.write_text(CANONICAL.replace("2:-", "2:Z", 1), encoding="utf-8")
    r = CliRunner().invoke(main, ["export", str(bad), "-o", str(out)])
    assert r.exit_code == 2 and out.read_text(encoding="utf-8") == "old\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.jsonl")]  # no temporary left
    r = CliRunner().invoke(main, ["export", str(HAND), "-o", str(out)])
    assert r.exit_code == 0 and out.read_text(encoding="utf-8").count("\n") == 1


@pytest.mark.parametrize("command", [["fmt", str(HAND)], ["export", str(HAND)], ["validate", str(HAND)], ["schema"]])
def test_standard_output_closed(command):
    r = subprocess.run(
        ["bash", "-c", f'exec "{sys.executable}" -m gouji_record.cli "$@" >&-', "-", *command],
        capture_output=True,
        timeout=60,
    )
    assert r.returncode == 2  # validate used to say 0 with all its output lost
    one_line_error(r.stderr, "-: error[unwritable]: cannot write to standard output: it is closed")


@pytest.mark.parametrize("option", ["--help", "--version"])
def test_help_into_a_full_disk(option):
    with open("/dev/full", "wb") as full:
        r = gouji(option, stdout=full, stderr=subprocess.PIPE)
    assert r.returncode == 2
    one_line_error(r.stderr, "-: error[unwritable]: cannot write to standard output: No space left on device")


def _printed_by_a_fresh_interpreter(code: str) -> list[str]:
    """The lines ``code`` prints, run in an interpreter of its own (nothing imported before it)."""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    return r.stdout.splitlines()


def test_version_imports_no_command():
    """``gouji --version`` needs click alone: the records' models (pydantic), the grammar (lark) and
    the commands' shared parts are imported by a command that runs (cli/main.py), so that a command
    pays only for what it uses. Before, cli/main.py imported cli/common.py and with it all of them."""
    code = (
        "import sys\nfrom gouji_record.cli.main import main\ntry:\n    main(['--version'], prog_name='gouji')\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in ('pydantic', 'lark', 'gouji_record.model', 'gouji_record.cli.common') if m in sys.modules))"
    )
    assert _printed_by_a_fresh_interpreter(code) == ["gouji, version 0.1.0", "[]"]


def test_validate_builds_no_validator_for_a_valid_file():
    """``gouji validate`` makes records, rulesets and events from trusted values, so that the
    models' validators, built when first used (pydantic's ``defer_build``), are not built at all
    for a valid file: they and pydantic's plugin lookup were a tenth of its start-up."""
    code = (
        "import sys\nfrom gouji_record.cli.main import main\n"
        f"try:\n    main(['validate', '-q', {str(HAND)!r}])\nexcept SystemExit as e:\n    print(e.code)\n"
        "from gouji_record.model import Action, GameRecord\nfrom gouji_record.rules.events import Diagnostic, Event\n"
        "from gouji_record.rules.schema import Ruleset, Scoring\n"
        "print([m.__name__ for m in (Action, GameRecord, Event, Diagnostic, Ruleset, Scoring) if m.__pydantic_complete__])"
    )
    assert _printed_by_a_fresh_interpreter(code) == ["0", "[]"]


def test_an_empty_file_name():
    r = gouji("fmt", str(HAND), "-o", "")
    assert r.returncode == 2
    one_line_error(r.stderr, "'': error[unwritable]: an empty file name")
    r = gouji("validate", "")
    assert r.returncode == 2
    one_line_error(r.stderr, ": error[unreadable]: an empty file name")


def test_an_output_name_near_the_limit(tmp_path):
    # Failing input: gouji render --review on a file named with 82 Chinese characters and .gjn (250
    # bytes; a name may have 255): the page's name, .html for .gjn, has 251 bytes and is a valid
    # name, but its temporary file (the name with "." before and a random part and ".tmp" after)
    # had more than 255, and the page was refused ("File name too long").
    src = tmp_path / ("名" * 82 + ".gjn")
    src.write_text(CANONICAL, encoding="utf-8")
    r = CliRunner().invoke(main, ["render", "--review", str(src)])
    assert r.exit_code == 0, r.output
    assert src.with_suffix(".html").exists() and len(src.with_suffix(".html").name.encode()) == 251
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left
