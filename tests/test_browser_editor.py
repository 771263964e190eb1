"""gouji edit in a real browser: Playwright for Python driving Debian's Chromium, as the replay
page's tests do (tests/test_browser.py), against the editor served in a thread for each test
(gouji_record.editor.app.running: stopped when the test ends).

Each test fails on a console error or a page error other than the refusals it provokes. The
expected values are worked out by hand from examples/charter-hand.gjn, the guide's disputed round
(docs/guide.md, section 1) and the rule texts (named at each)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES, ROOT

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("no /usr/bin/chromium: install Debian's chromium to run the browser tests", allow_module_level=True)

from playwright.sync_api import expect, sync_playwright

import gouji_record as gj
from gouji_record.cli.main import main
from gouji_record.editor.app import running
from gouji_record.editor.session import Workspace

pytestmark = pytest.mark.browser  # drives Chromium: left out of the quick run (-m "not browser")

sys.path.insert(0, str(ROOT / "bench"))
import editor as typing_bench  # (bench/editor.py: the hand typed key by key)

HAND = EXAMPLES / "charter-hand.gjn"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync"]


@pytest.fixture(scope="module")
def playwright():
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright):
    b = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
    yield b
    b.close()


@pytest.fixture
def editor(browser, tmp_path):
    """Open the editor on ``tmp_path/NAME`` (a new file unless written before): ``editor(NAME)``
    gives the page, its ``url`` and ``problems`` (console and page errors)."""
    opened = []

    def open_(name: str = "hand.gjn", context=None):
        served = running(Workspace(tmp_path, name))
        url = served.__enter__()
        opened.append(served)
        context = context or browser.new_context(bypass_csp=True)  # (wait_for_function evaluates text)
        page = context.new_page()
        page.problems = []
        page.on("console", lambda m: page.problems.append(f"console: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: page.problems.append(f"page error: {e}"))
        page.url_ = url
        page.goto(url)
        page.wait_for_function("() => window.gouji.checks > 0")
        return page

    yield open_
    for served in reversed(opened):
        served.__exit__(None, None, None)


def entered(page) -> None:
    page.wait_for_function("() => window.gouji.shown === window.gouji.entered")


def type_action(page, text: str) -> None:
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    entered(page)


def test_the_example_hand_typed_by_keyboard_alone_saves_as_gouji_fmt_writes_it(editor, tmp_path):
    page = editor("hand.gjn")
    record = gj.read(HAND)[0]
    keys = typing_bench.enter_hand(page, record, complete=True)
    fmt = CliRunner().invoke(main, ["fmt", str(HAND)])
    assert (tmp_path / "hand.gjn").read_text(encoding="utf-8") == fmt.output
    # the Result tag is the page's: filled in when the last action ended the hand (5 first … 2 last)
    assert page.locator("[data-tag=Result]").input_value() == "5-6-1-4-3-2"
    expect(page.locator("#problems")).to_have_text(re.compile("valid: the hand is over"))
    # with completion, fewer keys than the play section's characters (2377 as fmt writes it)
    assert keys["play_keys"] < len(typing_bench.play_section(fmt.output))
    assert page.problems == []


def test_an_illegal_action_shows_its_diagnostic_at_once_and_is_kept(editor):
    page = editor("hand.gjn")
    page.locator("#entry").focus()
    type_action(page, "TTTTT")  # seat 1 leads (the first leader of a deal with nothing known)
    expect(page.locator("#prompt")).to_have_text("seat 4 号位")  # a gouji play: only seat 4 answers (002 §9)
    type_action(page, "3:QQQQQ")
    bad = page.locator("#play li.bad")
    expect(bad).to_have_count(1)
    expect(bad.locator(".act")).to_have_text("3:QQQQQ")  # kept as typed, marked
    expect(page.locator("#problems li.bad").first).to_contain_text(
        "action 2: error[gouji-not-opposite]: TTTTT by seat 1 is a gouji play (够级): only its opposite, seat 4, may answer"
    )
    expect(page.locator("#problems")).to_contain_text("够级大纲 §9")
    # Backspace on the empty entry takes it back to be corrected; undo and redo
    page.keyboard.press("Backspace")
    expect(page.locator("#entry")).to_have_value("3:QQQQQ")
    expect(page.locator("#play li.bad")).to_have_count(0)
    page.locator("#entry").fill("")
    page.keyboard.press("Control+z")
    expect(page.locator("#play li.bad")).to_have_count(1)
    page.keyboard.press("Control+y")
    expect(page.locator("#play li.item")).to_have_count(1)
    type_action(page, "3:QQQQQ")
    # ArrowUp picks the last action to change: typed without a seat, it keeps its own (3), so it is
    # still not seat 3's to answer; with seat 4's, the opposite's, the round goes on (002 §9)
    page.keyboard.press("ArrowUp")
    expect(page.locator("#entry")).to_have_value("3:QQQQQ")
    expect(page.locator("#prompt")).to_have_text("action 2 改")
    page.locator("#entry").fill("")
    type_action(page, "4:QQQQQ {Seat 4 answers.}")
    expect(page.locator("#play li.bad")).to_have_count(0)
    expect(page.locator("#play li.item .act")).to_have_text(["1:TTTTT", "4:QQQQQ"])
    expect(page.locator("#problems")).to_have_text("valid so far 合规")
    assert page.problems == []


def test_a_reload_keeps_the_work_not_saved(editor, tmp_path):
    page = editor("hand.gjn")
    page.locator("#entry").focus()
    type_action(page, "{Only the round we argued about.}")
    type_action(page, "TTTTT")
    type_action(page, "JJJJJ {Seat 4 answers.}")
    page.reload()
    page.wait_for_function("() => window.gouji.checks > 0")
    expect(page.locator("#status")).to_contain_text("draft restored")
    expect(page.locator("#play li.item .act")).to_have_text(["1:TTTTT", "4:JJJJJ"])
    expect(page.locator("#play li.comment").first).to_have_text("{Only the round we argued about.}")
    expect(page.locator("#prompt")).to_have_text("seat 1 号位")  # 4 answered: back to seat 1 (002 §9)
    assert not (tmp_path / "hand.gjn").exists()  # nothing written until saved
    assert page.problems == []


def test_a_disputed_round_with_unknown_cards_is_entered_and_validates(editor, tmp_path):
    """The guide's friday.gjn (docs/guide.md, section 1), as corrected there: the round argued
    about, the cards nobody saw left unknown, Wang's five jacks marked irregular (^)."""
    page = editor("friday.gjn")
    kb = page.keyboard
    for value in [
        "Friday evening game",
        "Qingdao",
        "2026.03.06",
        "",
        "",
        "",
        "Zhang",
        "Wang",
        "Li",
        "Zhao",
        "Liu",
        "Chen",
    ]:
        kb.type(value)
        kb.press("Tab")  # Event … Round, Ruleset (charter), Options, Seat1 … Seat6
    kb.press("Tab")  # Result: left to the page
    kb.press("Tab")  # more tags: none
    for line in ["TTTTT ?31", "JJJJJ ?", "-", "QQQQQ ?", "-", "-"]:
        kb.press("Tab")
        kb.type(line)
    kb.press("Tab")
    kb.press("Tab")
    assert page.evaluate("document.activeElement.id") == "entry"
    for text in [
        "{Only the round we argued about; most cards are not known.}",
        "TTTTT",
        "^2:JJJJJ {Wang put down five jacks; Zhang objected.}",
        "4:QQQQQ",
        "-",
    ]:
        type_action(page, text)
    expect(page.locator("#problems")).to_have_text("valid so far 合规")
    expect(page.locator("#play li.item .act")).to_have_text(["1:TTTTT", "^2:JJJJJ", "4:QQQQQ", "1:-"])
    kb.press("Control+s")
    expect(page.locator("#status")).to_contain_text("saved")
    r = CliRunner().invoke(main, ["validate", str(tmp_path / "friday.gjn")])
    assert r.exit_code == 0, r.output
    assert "unfinished after 4 actions" in r.output and "够级 gouji plays 2, 开点 opened 1" in r.output
    assert page.problems == []


def test_a_cross_origin_request_and_a_path_outside_the_folder_are_refused(editor, playwright, tmp_path):
    page = editor("hand.gjn")
    # another origin (localhost:PORT is not 127.0.0.1:PORT) calling the editor: refused
    other = page.url_.replace("127.0.0.1", "localhost")
    page2 = page.context.new_page()
    page2.goto(other)
    page2.wait_for_function("() => window.gouji.checks > 0")
    hand = page.evaluate("fetch('/api/open?file=hand.gjn').then((r) => r.json())")  # (empty: a new file)
    for kind in ["text/plain", "application/json"]:  # a request any page may send; one that asks first
        outcome = page2.evaluate(
            """async ([url, kind, hands]) => {
                try {
                    await fetch(url + "api/save", {method: "POST", headers: {"Content-Type": kind},
                                                   body: JSON.stringify({file: "evil.gjn", hands, base: null})});
                    return "read";
                } catch (e) { return "blocked"; }
            }""",
            [page.url_, kind, hand["hands"]],
        )
        assert outcome == "blocked"  # the page of the other origin never reads an answer
    assert not (tmp_path / "evil.gjn").exists()  # and nothing was written (the same save from the page: written)
    # DNS rebinding: a site's name made to point at 127.0.0.1, its page then same-origin with itself
    port = page.url_.rsplit(":", 1)[1].strip("/")
    rebound = playwright.chromium.launch(
        executable_path=str(CHROMIUM), headless=True, args=[*ARGS, "--host-resolver-rules=MAP rebind.test 127.0.0.1"]
    )
    r = rebound.new_page().goto(f"http://rebind.test:{port}/")
    assert r.status == 403 and r.json()["error"].startswith("Host 'rebind.test:" + port + "' refused")
    rebound.close()
    # a path outside the folder: the page says so in one line, and nothing is read
    (tmp_path.parent / "secret.gjn").write_bytes(HAND.read_bytes())
    page.goto(page.url_ + "?file=../secret.gjn")
    expect(page.locator("#status")).to_have_text(re.compile(r"^'\.\./secret\.gjn' is outside the folder .*: refused$"))
    expect(page.locator("#play li")).to_have_count(0)
    assert all("403" in p or "CORS" in p or "Failed to fetch" in p for p in page.problems), page.problems
    page.evaluate("""async () => {
        const hands = (await (await fetch('/api/open')).json()).hands;
        await fetch('/api/save', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                  body: JSON.stringify({file: 'evil.gjn', hands, base: null})});
    }""")
    assert (tmp_path / "evil.gjn").exists()  # (the same request from the editor's own page is made)
