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


def hands_of(text: str) -> list[str]:
    """The hands of ``text`` as the reader cuts them (each with its version marker), white space
    around them left out."""
    import io

    from gouji_record.notation.files import read_hands

    return [h.text.strip("\n") for h in read_hands("x.gjn", io.BytesIO(text.encode("utf-8"))) if h.text.strip()]


def test_split_by_count_and_by_tag(tmp_path, monkeypatch):
    from gouji_record.cli import hands as cli_hands

    played = self_played(tmp_path / "played.gjn", 60)  # bench/corpus.py: the five presets in turn
    text = played.read_text(encoding="utf-8")
    r = gouji("split", "--every", "25", "-o", str(tmp_path / "n"), str(played))
    assert r.exit_code == 0 and r.stdout == f"{tmp_path / 'n'}: 60 hands in 3 files\n"
    parts = [(tmp_path / "n" / f"{i}.gjn").read_text(encoding="utf-8") for i in (1, 2, 3)]
    assert [len(hands_of(p)) for p in parts] == [25, 25, 10]  # 60 = 25 + 25 + 10
    assert [h for p in parts for h in hands_of(p)] == hands_of(text)  # each hand as read, in order
    monkeypatch.setattr(cli_hands._Files, "OPEN_FILES", 2)  # five values, two files open at a time
    r = gouji("split", "--by", "Ruleset", "-o", str(tmp_path / "r"), str(played))
    assert r.exit_code == 0
    presets = ["charter", "classic", "fours", "online", "tournament"]
    assert sorted(p.name for p in (tmp_path / "r").iterdir()) == [f"{p}.gjn" for p in presets]
    for preset in presets:  # 60 hands, the presets in turn: 12 each, in file order
        mine = hands_of((tmp_path / "r" / f"{preset}.gjn").read_text(encoding="utf-8"))
        assert mine == [h for h in hands_of(text) if f'[Ruleset "{preset}"]' in h]
        assert len(mine) == 12


def test_split_reports_a_hand_whose_tags_do_not_read(tmp_path):
    f = tmp_path / "two.gjn"
    f.write_text(HAND + "\n" + HAND.replace('[Date "2026.11.29"]', '[Date "2026.13.29"]'), encoding="utf-8")
    r = gouji("split", "--by", "Event", "-o", str(tmp_path / "out"), str(f))
    assert r.exit_code == 2 and f"{f}:" in r.stderr and "error[" in r.stderr
    (written,) = (tmp_path / "out").iterdir()
    assert written.read_text(encoding="utf-8") == HAND
    assert gouji("split", "-o", str(tmp_path / "x"), str(f)).exit_code == 2  # neither --every nor --by
