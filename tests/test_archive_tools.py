"""Archives as pgn-extract users expect (issue 28): duplicates found whatever the tags
(``gouji filter --unique`` / ``--duplicates``, pgn-extract's ``-D`` and ``-d``) and a file split
by count or by tag (``gouji split``, pgn-extract's ``-#``), both read as streams."""

from __future__ import annotations

from click.testing import CliRunner
from conftest import EXAMPLES, self_played

from gouji_record.cli.main import main

HAND = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
ILLEGAL = (EXAMPLES / "charter-hand-illegal.gjn").read_text(encoding="utf-8")


def gouji(*args: str):
    return CliRunner().invoke(main, list(args))


def retagged(text: str) -> str:
    """The same game under other tags, without its comments' first word changed: a copy a
    second site published."""
    return text.replace('[Event "', '[Event "Copy of ').replace('[Site "', '[Site "Elsewhere, ')


def test_the_same_game_under_other_tags_is_a_duplicate(tmp_path):
    f = tmp_path / "three.gjn"
    f.write_text(HAND + "\n" + ILLEGAL + "\n" + retagged(HAND), encoding="utf-8")
    # the third hand is the first dealt and played alike (its Event and Site differ); the second
    # is another game (one action differs: 3:QQQQQ)
    r = gouji("filter", "--unique", str(f))
    assert r.exit_code == 0 and r.stdout == HAND + "\n" + ILLEGAL
    r = gouji("filter", "--duplicates", str(f))
    assert r.exit_code == 0 and r.stdout == retagged(HAND)


def test_duplicates_in_a_large_file_as_it_streams(tmp_path):
    played = self_played(tmp_path / "played.gjn", 60).read_text(encoding="utf-8")
    big = tmp_path / "big.gjn"
    big.write_text(played + "\n" + retagged(played), encoding="utf-8")  # 120 hands, each game twice
    for jobs in ("1", "2"):
        assert gouji("filter", "--unique", "--count", "--jobs", jobs, str(big)).stdout == "60\n"
        assert gouji("filter", "--duplicates", "--count", "--jobs", jobs, str(big)).stdout == "60\n"
    r = gouji("filter", "--duplicates", str(big))
    assert r.stdout == retagged(played).rstrip("\n") + "\n"  # the second copies, in order
