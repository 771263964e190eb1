"""Shared helpers: play short scenarios on small hands through the pure engine."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gouji_record.model import Action
from gouji_record.rules.engine import Position, initial_position, step
from gouji_record.rules.events import Diagnostic, Event, IllegalAction
from gouji_record.rules.plays import classify
from gouji_record.rules.rulesets import get_ruleset

ROOT = Path(__file__).resolve().parents[1]


def pytest_sessionstart(session):
    """Under mutmut (scripts/mutation) each mutant's tests run in a process forked after a run of
    all of them: plays classified then would be taken from the cache and never built under the
    mutant. Classify afresh."""
    if os.environ.get("MUTANT_UNDER_TEST"):
        classify.cache_clear()


EXAMPLES = ROOT / "examples"
CASES = ROOT / "tests" / "cases"
#: examples/charter-hand.gjn with a card that is none (``2. 4:33Z3``, line 29, column 8): a hand
#: that cannot be read, for the commands that go on past it.
BAD_CARD_HAND = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8").replace("2. 4:3333", "2. 4:33Z3")


def self_played(out: Path, hands: int, jobs: int = 2) -> Path:
    """Write bench/corpus.py's first ``hands`` self-played hands (the five presets in turn) to
    ``out``, as its command line does, and return ``out``."""
    import subprocess
    import sys

    r = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "corpus.py"), "--hands", str(hands), "--jobs", str(jobs), "-o", str(out)],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    return out
#: The required tags of a hand that says nothing of itself (unknown players "a" … "f", charter).
PLAIN_TAGS = {
    "Event": "?",
    "Site": "?",
    "Date": "?",
    "Round": "?",
    "Ruleset": "charter",
    **{f"Seat{s}": "abcdef"[s - 1] for s in range(1, 7)},
    "Result": "*",
}


def action(token: str) -> Action:
    """``"3:QQQ"``, ``"3:-"``, ``"3:~"``, ``"3:*XKK"`` (any action's text) as an Action."""
    return Action.from_text(token)


class Table:
    """A scenario: a deal of (small) hands, replayed action by action under a ruleset."""

    def __init__(self, deal: dict[int, str], ruleset: str = "charter", leader: int | None = None):
        self.deal = tuple(deal.get(s, "") for s in range(1, 7))
        self.rules = get_ruleset(ruleset)
        self.leader = leader
        self.pos: Position | None = None
        self.events: list[Event] = []

    def play(self, moves: str) -> Position:
        """Apply the space-separated ``moves``; returns the position after them."""
        for tok in moves.split():
            a = action(tok)
            if self.pos is None:
                self.pos = initial_position(self.rules, self.deal, self.leader or a.seat)
            self.pos, ev = step(self.pos, a)
            self.events.extend(ev)
        return self.pos

    def illegal(self, moves: str) -> Diagnostic:
        """Apply all of ``moves`` but the last, which must be illegal; returns its diagnostic."""
        *ok, bad = moves.split()
        self.play(" ".join(ok))
        if self.pos is None:
            self.pos = initial_position(self.rules, self.deal, self.leader or action(bad).seat)
        with pytest.raises(IllegalAction) as e:
            step(self.pos, action(bad))
        return e.value.diagnostic

    def kinds(self) -> list[str]:
        """The kinds of the events so far, round-end events left out."""
        return [e.kind.value for e in self.events if e.kind.value != "round-end"]
