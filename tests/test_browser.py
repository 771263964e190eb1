"""The HTML replay in a real browser: Playwright for Python driving Debian's Chromium.

Never a browser download: Chromium is /usr/bin/chromium (scripts/test installs it with apt-get
when it is missing and we are root). These tests skip only when it is absent. Every test fails
on a console error, a page error, a dialog (alert) or a request that leaves the page's own file.
The expected values were worked out by hand from examples/charter-hand.gjn.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES, ROOT

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip(
        "no /usr/bin/chromium: install Debian's chromium (scripts/test does, as root) to run the browser tests",
        allow_module_level=True,
    )

from playwright.sync_api import Page, expect, sync_playwright

from gouji_record.bilingual import CJK
from gouji_record.cli.main import main
from gouji_record.rules.rulesets import PRESETS

pytestmark = pytest.mark.browser  # drives Chromium: left out of the quick run (-m "not browser")

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HAND = EXAMPLES / "charter-hand.gjn"
ILLEGAL = EXAMPLES / "charter-hand-illegal.gjn"
ARTIFACTS = ROOT / "test-artifacts"
SOURCE_002 = "够级大纲"


def _render(src: Path, out: Path, *options: str) -> str:
    r = CliRunner().invoke(main, ["render", str(src), "-o", str(out), *options])
    assert r.exit_code == 0, r.output
    return out.as_uri()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    d = tmp_path_factory.mktemp("pages")
    evil = d / "evil.gjn"
    evil.write_text(
        HAND.read_text(encoding="utf-8")
        .replace("{Seats 1 3 5", "{</script><script>alert(1)</script> Seats 1 3 5")
        .replace("{Five tens", "{<img src=x onerror=alert(2)> Five tens")
        .replace('"Zhang Wei"', '"<b onmouseover=alert(3)>Zhang</b>"')
        .replace("4:JJJJJ {Seat 4", "4:JJJJJ!? $3 {Seat 4"),
        encoding="utf-8",
    )
    both = d / "both.gjn"
    both.write_text(HAND.read_text(encoding="utf-8") + "\n" + ILLEGAL.read_text(encoding="utf-8"), encoding="utf-8")
    shown = d / "shown.gjn"  # 抽签组邦 and 上班 before the example's play (002 §5, §7)
    shown.write_text(
        HAND.read_text(encoding="utf-8").replace(
            "\nplay\n", "\npreplay\n1:draw h7 2:draw s8 3:draw d9 4:draw c5 5:draw h6 6:draw c7 6:show s333\n\nplay\n", 1
        ),
        encoding="utf-8",
    )
    urls = {
        "hand": _render(HAND, d / "hand.html"),
        "shown": _render(shown, d / "shown.html"),
        "illegal": _render(ILLEGAL, d / "illegal.html"),
        "evil": _render(evil, d / "evil.html"),
        "both": _render(both, d / "both.html"),
        "en5": _render(HAND, d / "en5.html", "--lang", "en", "--seat", "5"),
        "fours": _render(EXAMPLES / "fours-match.gjn", d / "fours.html"),
        "review": _render(HAND, d / "review.html", "--review"),
        "review-fours": _render(EXAMPLES / "fours-match.gjn", d / "review-fours.html", "--review"),
        "review-seat1": _render(HAND, d / "review-seat1.html", "--review", "--seat", "1"),
    }
    frame = d / "embed.html"
    frame.write_text(
        '<!DOCTYPE html><meta charset="utf-8"><p>A blog post</p>'
        '<iframe src="hand.html" width="1000" height="700"></iframe>',
        encoding="utf-8",
    )
    urls["embed"] = frame.as_uri()
    return urls


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = context.new_page()
    problems: list[str] = []
    pg.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    pg.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    pg.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    pg.on("request", lambda r: None if r.url.startswith(("file:", "data:")) else problems.append(f"request: {r.url}"))
    pg.problems = problems
    yield pg
    context.close()
    assert problems == []


def open_at(page: Page, url: str) -> Page:
    page.goto(url)
    expect(page.locator("#app")).to_have_attribute("data-step", re.compile(r"\d+"))
    return page


def step(page: Page) -> int:
    return int(page.locator("#app").get_attribute("data-step"))


def counts(page: Page) -> list[int]:
    return [int(page.locator(f"#seat{s} .count").get_attribute("data-count")) for s in range(1, 7)]


def test_arrow_keys_step_to_a_known_position(page, pages):
    open_at(page, pages["hand"])
    assert step(page) == 0 and counts(page) == [36] * 6
    page.locator("#table").click()  # the root takes focus on a click, and the keys work
    assert page.evaluate("document.activeElement.id") == "app"
    for _ in range(17):
        page.keyboard.press("ArrowRight")
    assert step(page) == 17 and page.evaluate("location.hash") == "#a=17"
    # after 1:TTTTT 4:JJJJJ 1:- | 4:3333 5:4444 6:5555 1:6666 2:7777 3:8888 4:9999 5:- 6:- 1:- 2:- 3:- | 4:QQQQ 5:*XXKK
    assert counts(page) == [27, 32, 32, 19, 28, 32]
    top = page.locator("#top")
    assert top.get_attribute("data-seat") == "5" and top.get_attribute("data-cards") == "XXKK"
    expect(page.locator("#seat2")).to_have_class(re.compile(r"\bto-act\b"))
    hand5 = page.locator("#seat5 .hand .card")
    assert [(c.get_attribute("data-rank"), c.get_attribute("data-n")) for c in hand5.all()] == [
        ("D", "1"),
        ("X", "1"),
        ("8", "8"),
        ("7", "8"),
        ("5", "10"),
    ]
    expect(page.locator("#seat5 .badges")).to_contain_text("烧")
    expect(page.locator("#trick li")).to_have_count(2)
    expect(page.locator("#actions li.current")).to_contain_text("XXKK")
    page.keyboard.press("ArrowLeft")
    assert step(page) == 16 and page.locator("#top").get_attribute("data-cards") == "QQQQ"
    page.keyboard.press("Home")
    assert step(page) == 0
    page.keyboard.press("End")
    assert step(page) == 69


def test_the_end_shows_places_scores_and_the_chart(page, pages):
    open_at(page, pages["hand"] + "#a=69")
    assert counts(page) == [0, 22, 0, 0, 0, 0]
    final = page.locator("#final")
    expect(final).to_be_visible()
    expect(final.locator(".places li")).to_have_text(
        [
            re.compile(p)
            for p in (
                "头科.*Liu Yang",
                "二科.*Chen Jing",
                "三科.*Zhang Wei",
                "四科.*Zhao Lei",
                "二落.*Li Na",
                "大落.*Wang Fang",
            )
        ]
    )
    expect(final.locator(".scores")).to_contain_text("1·3·5 联邦 2")
    expect(final.locator(".extras")).to_have_count(0)  # no per-seat extras under the charter
    expect(page.locator("#chart svg polyline")).to_have_count(6)
    assert page.locator("#chart svg circle.ev").count() > 5
    expect(page.locator("#seat2 .count")).to_have_text("22 张")
    page.goto(pages["hand"] + "#a=21")  # 5:D88888888 leaves seat 5 with ten 5s: it reports (报户)
    expect(page.locator("#seat5 .count")).to_have_class(re.compile(r"\breport\b"))
    expect(page.locator("#seat5 .count")).to_have_text("报户 10")
    expect(page.locator("#seat6 .count")).to_have_text("32 张")


def test_timeline_jumps_to_an_opening_and_a_burn_with_cited_tooltips(page, pages):
    open_at(page, pages["hand"])
    page.locator('#timeline .mk[data-kinds~="open"]').first.click()
    assert step(page) == 3  # 1:- closes round 1: seat 4's JJJJJ wins it and opens (开点)
    expect(page.locator("#seat4 .badges")).to_contain_text("开点")
    expect(page.locator("#happened")).to_contain_text("开点")
    burn = page.locator('#timeline .mk[data-kinds~="burn"]')
    burn.click()
    assert step(page) == 17 and page.locator("#top").get_attribute("data-cards") == "XXKK"
    burn.hover()
    tip = page.locator("#tip")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("烧牌（捎牌）")
    expect(tip).to_contain_text(f"{SOURCE_002} §10（第十条 烧牌")
    for kinds in ("gouji", "burn-success", "finish", "take-the-wind", "headless", "melee"):
        assert page.locator(f'#timeline .mk[data-kinds~="{kinds}"]').count() >= 1, kinds
    page.locator('#timeline .mk[data-kinds~="melee"]').click()
    assert step(page) == 49  # 4:- closes round 11, played out under the 够级 rules (002 §16): the melee begins
    expect(page.locator("#status")).to_contain_text("四户乱缠")


def test_language_and_seat_view(page, pages):
    open_at(page, pages["hand"] + "#a=17")
    page.locator("#lang").click()
    assert page.evaluate("document.documentElement.lang") == "en"
    expect(page.locator("#round")).to_contain_text("Round 3")
    expect(page.locator("#seat5 .count")).to_have_text("28 cards")
    expect(page.locator("h2").first).to_have_text("Timeline of events")
    page.locator('#timeline .mk[data-kinds~="burn"]').hover()
    expect(page.locator("#tip")).to_contain_text("a non-opposite may burn a gouji play")
    page.locator("#view").select_option("5")
    expect(page.locator("#seat5 .hand .card:not(.back)")).to_have_count(5)
    for s in (1, 2, 3, 4, 6):
        expect(page.locator(f"#seat{s} .hand .card.back")).to_have_count(1)
        expect(page.locator(f"#seat{s} .hand .card:not(.back)")).to_have_count(0)
    assert "p0" in page.locator("#seat5").get_attribute("style")  # the viewer sits at the bottom
    page.locator("#view").select_option("0")
    expect(page.locator("#seat1 .hand .card.back")).to_have_count(0)
    page.locator("#lang").click()
    expect(page.locator("#round")).to_contain_text("第 3 轮")


def test_render_options_set_the_opening_language_and_seat(page, pages):
    open_at(page, pages["en5"])
    assert page.locator("#app").get_attribute("data-lang") == "en"
    assert page.locator("#view").input_value() == "5"
    expect(page.locator("#seat4 .hand .card.back")).to_have_count(1)


def test_autoplay_and_event_jumps(page, pages):
    open_at(page, pages["hand"])
    page.locator("#speed").select_option("4")
    page.locator("#table").click()
    page.keyboard.press(" ")
    expect(page.locator("#app")).to_have_class(re.compile(r"\bplaying\b"))
    expect(page.locator("#app")).to_have_attribute("data-step", re.compile(r"^([3-9]|\d\d)$"))
    page.keyboard.press(" ")
    expect(page.locator("#app")).not_to_have_class(re.compile(r"\bplaying\b"))
    stopped = step(page)
    page.wait_for_timeout(400)
    assert step(page) == stopped
    page.keyboard.press("Home")
    page.keyboard.press("n")
    assert step(page) == 1  # 1:TTTTT, a gouji play
    page.keyboard.press("n")
    assert step(page) == 2  # 4:JJJJJ answers it
    page.keyboard.press("n")
    assert step(page) == 3  # seat 4 opens
    page.keyboard.press("End")
    page.keyboard.press("p")
    assert step(page) == 65  # seat 2 takes the wind
    page.keyboard.press("p")
    assert step(page) == 63  # seat 4 takes 4th place
    page.locator("#next-event").click()
    assert step(page) == 65
    page.locator("#prev-event").click()
    assert step(page) == 63


def test_deep_link_and_hashchange(page, pages):
    open_at(page, pages["hand"] + "#a=57")
    assert step(page) == 57 and page.locator("#slider").input_value() == "57"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#a=58"
    page.evaluate("location.hash = '#a=5'")
    expect(page.locator("#app")).to_have_attribute("data-step", "5")
    page.locator("#slider").fill("30")
    assert step(page) == 30 and page.evaluate("location.hash") == "#a=30"
    page.locator('#actions li[data-i="16"]').click()
    assert step(page) == 17


# Every number the page reads from its address is clamped the same way: a huge one to the end (never
# wrapped around 2^31 or 2^32 to the start), a negative one to the start, and a value that is not a
# whole number counts as absent. The address is written back as the step shown.
@pytest.mark.parametrize(
    "fragment, expected",
    [
        ("a=9999", 69),
        ("a=2147483648", 69),
        ("a=4294967295", 69),
        ("a=4294967296", 69),
        ("a=99999999999999999999999", 69),
        pytest.param("a=" + "9" * 400, 69, id="a=9x400"),  # beyond a double: Infinity
        ("a=-1", 0),
        ("a=-2147483649", 0),
        ("a=0017", 17),
        ("a=abc", 0),
        ("a=1e3", 0),
        ("a=", 0),
        ("a=0x10", 0),
        ("a=5.5", 0),
        ("a=17abc", 0),
    ],
)
def test_deep_link_numbers_are_clamped(page, pages, fragment, expected):
    open_at(page, pages["hand"] + "#" + fragment)
    assert step(page) == expected and page.locator("#slider").input_value() == str(expected)
    assert page.evaluate("location.hash") == f"#a={expected}"


def test_changed_address_numbers_are_clamped(page, pages):
    open_at(page, pages["hand"] + "#a=17")
    for fragment, expected in [("a=abc", 17), ("a=1e3", 17), ("a=", 17), ("a=4294967295", 69), ("a=-5", 0)]:
        page.evaluate(f"location.hash = '#{fragment}'")
        expect(page.locator("#app")).to_have_attribute("data-step", str(expected))
        expect(page).to_have_url(re.compile(f"#a={expected}$"))


@pytest.mark.parametrize(
    "fragment, hand, expected",
    [
        ("h=2&a=4294967295", 2, 2),  # hand 2 stops at its illegal action, step 2
        ("h=4294967296&a=1", 2, 1),  # past the last hand: the last hand
        ("h=9999&a=1", 2, 1),
        ("h=0&a=17", 1, 17),  # 0 or negative: the first hand
        ("h=-1&a=17", 1, 17),
        ("h=&a=17", 1, 17),  # not a number: as if absent
        ("h=abc&a=17", 1, 17),
        ("h=2.0&a=1", 1, 1),
        ("h=1&a=2147483648", 1, 69),
    ],
)
def test_hand_numbers_in_the_address_are_clamped(page, pages, fragment, hand, expected):
    open_at(page, pages["both"] + "#" + fragment)
    expect(page.locator("#title")).to_contain_text("illegal" if hand == 2 else "under the charter")
    assert step(page) == expected and page.locator("#hand").input_value() == str(hand - 1)
    assert page.evaluate("location.hash") == f"#h={hand}&a={expected}"


def test_changed_hand_numbers_are_clamped(page, pages):
    open_at(page, pages["both"] + "#h=1&a=17")
    page.evaluate("location.hash = '#h=99&a=1'")  # was ignored: now the last hand
    expect(page.locator("#title")).to_have_text("Worked example with one illegal action")
    expect(page.locator("#app")).to_have_attribute("data-step", "1")
    page.evaluate("location.hash = '#h=x&a=2'")  # not a number: the hand stays
    expect(page.locator("#app")).to_have_attribute("data-step", "2")
    expect(page.locator("#title")).to_have_text("Worked example with one illegal action")
    page.evaluate("location.hash = '#h=-3&a=4294967295'")
    expect(page.locator("#title")).to_have_text("Worked example: one hand under the charter")
    expect(page.locator("#app")).to_have_attribute("data-step", "69")
    assert page.evaluate("location.hash") == "#h=1&a=69"


def test_invalid_record_is_replayed_up_to_the_illegal_action(page, pages):
    open_at(page, pages["illegal"])
    banner = page.locator("#banner")
    expect(banner).to_be_visible()  # from the start: never silently cut
    expect(banner).to_contain_text("gouji-not-opposite")
    where = page.locator("#diagnostic pre")
    expect(where).to_contain_text("charter-hand-illegal.gjn:27:30: 违规[gouji-not-opposite]: 1号位的TTTTT是够级牌")
    expect(where.locator(".excerpt")).to_contain_text("3:QQQQQ {Illegal: seat 3")  # the record's own line
    expect(page.locator("#diagnostic")).to_contain_text(f"{SOURCE_002} §9（第九条 只有对头才有资格上牌）")
    expect(page.locator('#actions li[data-i="1"]')).to_have_class(re.compile(r"\billegal\b"))
    expect(page.locator('#actions li[data-i="2"]')).to_have_class(re.compile(r"\bunplayed\b"))
    assert page.locator("#actions li").count() == 71  # the record's comment and all 70 actions
    page.keyboard.press("End")
    assert step(page) == 2 and page.locator("#pos").text_content() == "2 / 2"
    expect(page.locator("#app")).to_have_class(re.compile(r"\bat-illegal\b"))
    expect(page.locator("#seat3")).to_have_class(re.compile(r"\boffender\b"))
    expect(page.locator("#happened .diag")).to_contain_text("够级牌只有对头可上")
    expect(page.locator("#trick li.bad")).to_contain_text("QQQQQ")
    assert counts(page) == [31, 36, 36, 36, 36, 36]  # the illegal play is not made
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#app")).not_to_have_class(re.compile(r"\bat-illegal\b"))
    page.locator("#banner .jump").click()
    assert step(page) == 2
    page.locator('#timeline .mk[data-kinds="illegal"]').hover()
    expect(page.locator("#tip")).to_contain_text("违规 [gouji-not-opposite] 1号位的TTTTT是够级牌")
    page.locator("#lang").click()  # the same, in English alone
    expect(where).to_contain_text(
        "charter-hand-illegal.gjn:27:30: error[gouji-not-opposite]: TTTTT by seat 1 is a gouji play: only its opposite"
    )
    expect(page.locator("#banner")).to_contain_text("[gouji-not-opposite] TTTTT by seat 1 is a gouji play: only")
    expect(page.locator("#diagnostic")).to_contain_text("Qingdao charter §9 (quoting “第九条 只有对头才有资格上牌”)")
    page.locator('#timeline .mk[data-kinds="illegal"]').hover()
    expect(page.locator("#tip")).to_contain_text("rule: only the opposite may answer a gouji play")


def test_nothing_from_a_record_runs(page, pages):
    open_at(page, pages["evil"])
    expect(page.locator("#actions .comment").first).to_have_text(
        "</script><script>alert(1)</script> Seats 1 3 5 play against seats 2 4 6; opposites are 1-4, 2-5, 3-6."
    )
    expect(page.locator("#actions .comment").nth(1)).to_contain_text("<img src=x onerror=alert(2)> Five tens")
    expect(page.locator("#seat1 .name")).to_have_text("<b onmouseover=alert(3)>Zhang</b>")
    expect(page.locator('#actions li[data-i="1"] .glyph')).to_have_text("!?")  # annotation glyphs are shown
    expect(page.locator('#actions li[data-i="1"] .nag')).to_have_text("$3")
    page.locator("#seat1 .name").hover()
    page.locator("#view").select_option("1")
    page.keyboard.press("End")
    assert page.locator("img").count() == 0 and page.locator("#seat1 b").count() == 0
    # the page fixture fails the test on any dialog, console error or request


def test_control_characters_in_names_tags_and_comments_are_inert(page, tmp_path):
    from gouji_record.render.html import render_replays
    from gouji_record import parse, replay
    from test_render import CONTROLS, control_record

    out = tmp_path / "controls.html"
    hands = [control_record(), parse(HAND.read_text(encoding="utf-8"))[0]]
    out.write_text(render_replays([(replay(h), None) for h in hands]), encoding="utf-8")
    open_at(page, out.as_uri())
    event = "E\x1b[2J\u2028vent"
    data = page.evaluate("JSON.parse(document.getElementById('replay-data').textContent)")
    assert data["hands"][0]["players"][0] == CONTROLS
    assert page.locator("#seat1 .name").text_content() == CONTROLS
    assert page.locator("#title").text_content() == event
    # the hand selector is written by the template alone: its character references are the same text
    # (two hands with different titles: each option is the hand's number, its result and its title)
    assert page.locator("#hand option").first.text_content() == "第1局 · 5-6-1-4-3-2 · " + event
    assert page.locator("#actions .comment").first.text_content().startswith("Seats\x1b[2J\x07")
    page.keyboard.press("End")
    assert step(page) == 69 and page.locator("a").count() == 0  # no OSC 8 hyperlink became a link
    page.locator("#hand").select_option("1")
    expect(page.locator("#title")).to_have_text("Worked example: one hand under the charter")
    # the page fixture fails the test on any page error (a broken script), dialog or request


def test_hand_selector_for_several_hands(page, pages):
    open_at(page, pages["both"])
    expect(page.locator("#title")).to_have_text("Worked example: one hand under the charter")
    page.locator("#hand").select_option("1")
    expect(page.locator("#title")).to_have_text("Worked example with one illegal action")
    assert page.evaluate("location.hash") == "#h=2&a=0"
    expect(page.locator("#banner")).to_be_visible()
    page.goto(pages["both"] + "#h=1&a=17")
    expect(page.locator("#title")).to_have_text("Worked example: one hand under the charter")
    assert step(page) == 17 and page.locator("#top").get_attribute("data-cards") == "XXKK"
    page.evaluate("location.hash = '#h=2&a=1'")
    expect(page.locator("#title")).to_have_text("Worked example with one illegal action")
    assert step(page) == 1


def test_keys_work_when_embedded(page, pages):
    page.goto(pages["embed"])
    inner = page.frame_locator("iframe")
    expect(inner.locator("#app")).to_have_attribute("data-step", "0")
    inner.locator("#table").click()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(inner.locator("#app")).to_have_attribute("data-step", "2")


@pytest.mark.parametrize("size", [(1400, 900), (390, 844)], ids=["desktop", "phone"])
def test_table_screenshot(browser, pages, size):
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(pages["hand"] + "#a=17")
    expect(pg.locator("#app")).to_have_attribute("data-step", "17")
    assert pg.evaluate("document.documentElement.scrollWidth") <= width  # nothing sticks out sideways
    ARTIFACTS.mkdir(exist_ok=True)
    name = "desktop" if width > 500 else "phone"
    pg.screenshot(path=str(ARTIFACTS / f"replay-{name}.png"))
    pg.locator("#table").screenshot(path=str(ARTIFACTS / f"replay-table-{name}.png"))
    context.close()
    assert errors == []
    assert os.path.getsize(ARTIFACTS / f"replay-table-{name}.png") > 10_000


def test_draws_and_shows_are_named_with_their_suits_in_both_languages(page, pages):
    # 1:draw h7 … 6:show s333: seat 6 shows three 3s of spades and leads; the example's first play is
    # seat 1's, so the replay stops there (first-lead), after the seven steps before play
    open_at(page, pages["shown"] + "#a=7")
    items = page.locator("#actions li")
    expect(items.nth(0).locator(".word")).to_have_text("抽签 (组邦) ♥7")
    expect(items.nth(6).locator(".word")).to_have_text("亮牌 (上班) ♠333")
    expect(page.locator('#timeline .mk[data-action="6"]')).to_have_text("亮")
    page.locator('#timeline .mk[data-action="6"]').hover()
    expect(page.locator("#tip")).to_contain_text("亮牌 6 ♠333 · 6号位首发")
    page.locator("#lang").click()
    expect(items.nth(6).locator(".word")).to_have_text("shows ♠333")
    page.locator('#timeline .mk[data-action="0"]').hover()
    expect(page.locator("#tip")).to_contain_text("draws for teams 1 ♥7")
    page.locator('#timeline .mk[data-action="6"]').hover()
    expect(page.locator("#tip")).to_contain_text("shows a suit 6 ♠333 · seat 6 leads")


def test_a_purchase_is_shown_as_buying_a_3_in_both_languages(page, pages):
    # examples/fours-match.gjn, hand 2: buy 1>4:2 4>1:3 — seat 1 buys a 3 from seat 4 for a 2 (003 §开点)
    open_at(page, pages["fours"] + "#h=2&a=1")
    first = page.locator("#actions li").nth(0)
    expect(first.locator(".word")).to_have_text("买三 · 给 4号位 2")
    expect(page.locator("#actions li").nth(1).locator(".word")).to_have_text("买三 · 给 1号位 3")
    expect(page.locator('#timeline .mk[data-action="0"]')).to_have_text("买")
    page.locator("#lang").click()
    expect(first.locator(".word")).to_have_text("buying a 3 · gives seat 4 2")
    expect(page.locator('#timeline .mk[data-action="0"]')).to_have_text("B")
    page.locator('#timeline .mk[data-action="0"]').hover()
    expect(page.locator("#tip")).to_contain_text("a seat without 3s (or 4s) buys one with a 2 or a joker")
    expect(page.locator("#tip")).to_contain_text("buying a 3 1→4 2")
    expect(page.locator("#tip")).to_contain_text("§“开点” (quoting “没有3和4的要花钱买")
    assert "开点发4" not in page.locator("#tip").text_content()  # the English page names the text in English


# -- one language at a time (issue 14) --------------------------------------------------------
#
# The page shows in each language only that language. What is allowed through, and why:
# - the record's own text, as written: player names, tag values (the Event title, the match's name,
#   Ruleset and Result values…), the names of tags the notation does not define, comments, and the
#   record's line quoted under the diagnostic (.excerpt);
# - cards as the notation writes them: card faces and plays (3–9 T J Q K A 2 X D, ten always T),
#   BJ/SJ for the jokers' faces in English (大王/小王 in Chinese);
# - identifiers: diagnostic codes (docs/rules.md), preset names, the .gjn file name and the rule
#   texts' file names (NNN_hex.txt);
# - the language switch, which names the other language in that language ("English" / "中文");
# - in 中文, the names of keys as printed on the keyboard (Home, End, n, p);
# - in English, quotations of the Chinese rule texts: only inside curly quotes (“…”), labelled
#   ("quoting “第十条 烧牌”", "§“开点”"), as gouji_record.render.citations writes them.

_RULES_MD = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
CODES = set(re.findall(r"^\| `([a-z-]+)` \|", _RULES_MD[_RULES_MD.index("## Diagnostic codes") :], re.M))
#: The tags the notation gives a meaning (docs/notation.md 3.1), and the seed gouji selfplay writes.
NAMED_TAGS = {"Event", "Site", "Date", "Round", "Ruleset", "Result", "Score", "Match", "Hand", "Annotator"}
NAMED_TAGS |= {"Options", "Seed"} | {f"Seat{s}" for s in range(1, 7)}
KEYS = re.compile(r"(?<![A-Za-z])(Home|End|n|p)(?![A-Za-z])")
CARDS = re.compile(r"(?<![A-Za-z])[2-9TJQKAXD]+(?![A-Za-z])")
JOKER_FACES = re.compile(r"(?<![A-Za-z])(BJ|SJ)(?![A-Za-z])")
IDENTIFIERS = re.compile(
    r"[\w.-]+\.gjn(:\d+:\d+)?|\d{3}_[0-9a-f]{16}\.txt|(?<![\w-])("
    + "|".join(sorted(CODES | set(PRESETS), key=len, reverse=True))
    + r")(?![\w-])"
)
QUOTATION = re.compile(r"“[^“”]*”")

_SHOWN = """() => {
  const attrs = [];
  for (const node of document.querySelectorAll("[aria-label], [title]")) {
    if (node.closest("#lang")) continue;  // the language switch: checked apart
    for (const name of ["aria-label", "title"]) if (node.hasAttribute(name)) attrs.push(node.getAttribute(name));
  }
  return {
    text: [document.title, document.body.innerText, ...attrs].join("\\n"),
    excerpts: [...document.querySelectorAll("#diagnostic .excerpt")].map((e) => e.innerText),
    switch: [document.getElementById("lang").innerText, document.getElementById("lang").title],
  };
}"""
_RECORD = """() => JSON.parse(document.getElementById("replay-data").textContent).hands.map((hand) => [
  ...hand.players, hand.title, ...hand.comment, ...hand.actions.flatMap((a) => a.comments || []),
  ...hand.tags.map((kv) => kv[1]), ...hand.tags.map((kv) => kv[0]),
])"""


def _shown_text(page: Page, record: set[str]) -> str:
    """Everything the page shows now (its text, title, tooltips and accessible names), less what is
    allowed in either language: the record's own text (``record``), cards and identifiers."""
    shown = page.evaluate(_SHOWN)
    text = shown["text"].replace(shown["switch"][0], " ", 1)
    for piece in sorted(record | set(shown["excerpts"]), key=len, reverse=True):
        if re.search("[A-Za-z]", piece) or CJK.search(piece):  # (digits alone would cut identifiers)
            text = text.replace(piece, " ")
    if shown["switch"][1]:
        text = text.replace(shown["switch"][1], " ")
    return CARDS.sub(" ", IDENTIFIERS.sub(" ", text))


def _offending(text: str, pattern: re.Pattern) -> list[str]:
    return [text[max(0, m.start() - 30) : m.end() + 30] for m in pattern.finditer(text)][:5]


def _visit(page: Page) -> list[str]:
    """The page at a few steps of each of its hands: the deal, the middle, the end."""
    seen = []
    hands = page.evaluate(_RECORD)
    record = {piece for hand in hands for piece in hand} - NAMED_TAGS
    for h in range(1, len(hands) + 1):
        page.evaluate(f"location.hash = '#h={h}&a=0'")
        expect(page.locator("#app")).to_have_attribute("data-step", "0")
        last = int(page.locator("#slider").get_attribute("max"))
        for a in sorted({0, last // 2, last}):
            page.evaluate(f"location.hash = '#h={h}&a={a}'")
            expect(page.locator("#app")).to_have_attribute("data-step", str(a))
            seen.append(_shown_text(page, record))
    return seen


@pytest.fixture(scope="module")
def mixed_pages(pages, tmp_path_factory):
    d = tmp_path_factory.mktemp("languages")
    bad = d / "bad-match.gjn"  # hand 2 leaves out a return (还贡): the overview names a problem
    bad.write_text(
        (EXAMPLES / "charter-match.gjn").read_text(encoding="utf-8").replace("6>5:D 5>6:3", "6>5:D", 1),
        encoding="utf-8",
    )
    return [
        pages["illegal"],
        pages["hand"],
        pages["review"],
        pages["review-fours"],
        pages["shown"],
        pages["fours"],
        _render(bad, d / "bad-match.html"),
        _render(EXAMPLES / "tournament-match.gjn", d / "tournament.html"),
    ]


def test_each_language_shows_only_itself(page, mixed_pages):
    for url in mixed_pages:
        open_at(page, url)
        assert page.locator("#app").get_attribute("data-lang") == "zh"
        for text in _visit(page):
            text = KEYS.sub(" ", text)
            assert not re.search("[A-Za-z]", text), (url, _offending(text, re.compile("[A-Za-z]+")))
        page.locator("#lang").click()
        assert page.locator("#app").get_attribute("data-lang") == "en" and page.title().endswith("· Gouji replay")
        for text in _visit(page):
            text = JOKER_FACES.sub(" ", QUOTATION.sub(" ", text))
            assert not CJK.search(text), (url, _offending(text, CJK))
        if "bad-match" in url:
            problem = page.locator(".overview .problem").first
            returned = "the return of place tribute 6>5: seat 5 gives seat 6 1 card(s) back"
            expect(problem).to_have_text(f"tribute-missing: {returned}")
            page.locator("#lang").click()
            expect(problem).to_have_text("tribute-missing: 落贡6>5的还贡：5号位还给6号位1张")


def test_ten_is_written_T_on_card_faces_as_in_plays(page, pages):
    open_at(page, pages["hand"] + "#a=1")  # 1:TTTTT
    assert page.locator("#top .card .rk").all_text_contents() == ["T"] * 5
    assert set(page.locator("#seat6 .hand .card[data-rank=T] .rk").all_text_contents()) == {"T"}
    assert page.locator("#actions li.current .cards").text_content() == "TTTTT"
    assert "10" not in page.locator(".card .rk").all_text_contents()


def test_a_seat_view_shows_that_seats_own_review_and_labels_the_whole_tables(page, pages):
    # Issue 24: as seat 1, the page said "seat 3 could have answered with 222 ..." while seat 3's
    # hand is face down. Rendered with --seat 1 --review, seat 1's view shows the review from seat
    # 1's view (review(..., view=1): only seat 1's decisions, from its cards, what was played and
    # the counts); the view of seat 3 shows the whole table's findings, each labelled as such.
    from gouji_record import read
    from gouji_record.judging.replay import replay
    from gouji_record.analysis.review import review

    result = replay(next(iter(read(HAND))))
    mine = review(result, view=1).findings
    assert mine and {f.seat for f in mine} == {1}
    open_at(page, pages["review-seat1"])
    lane = page.locator("#timeline .lane-review")
    assert lane.locator(".mk").count() == len({f.action for f in mine})
    page.locator("#events").wait_for(state="attached")
    listed = page.locator("#events").inner_text()
    assert "3号位本可" not in listed and "全局视角" not in listed
    assert mine[0].text.zh in listed
    page.locator("#view").select_option("3")
    whole = review(result).findings
    assert lane.locator(".mk").count() == len({f.action for f in whole})
    assert "全局视角（用到此座位看不见的牌）：" + whole[0].text.zh in page.locator("#events").inner_text()
    page.locator("#view").select_option("0")  # all hands face up: the whole table's, unlabelled
    assert "全局视角" not in page.locator("#events").inner_text()


def test_review_lane_shows_each_finding_in_both_languages(page, pages):
    # gouji render --review (tests/test_review.py works these findings out by hand): action 49 is
    # 4:- on seat 1's KKKKKK, which seat 4's AAAAAA would have answered (打点); action 39 is seat
    # 3's yield (让牌). Markers group the findings of one action.
    from gouji_record import read
    from gouji_record.judging.replay import replay
    from gouji_record.analysis.review import review

    findings = review(replay(next(iter(read(HAND))))).findings
    open_at(page, pages["review"])
    lane = page.locator("#timeline .lane-review")
    expect(lane.locator(".lane-label")).to_have_text("点评")
    assert lane.locator(".mk").count() == len({f.action for f in findings})
    lane.locator('.mk[data-action="48"]').click()
    assert step(page) == 49
    happened = page.locator("#happened")
    expect(happened).to_contain_text("未打点 4 · 4号位本可用AAAAAA打对头的够级牌KKKKKK（打点），但过了")
    expect(happened).to_contain_text("只有对头才有资格上牌")  # its rule's source: 002 §9
    page.locator("#lang").click()
    expect(lane.locator(".lane-label")).to_have_text("Review")
    expect(happened).to_contain_text("Answer not made 4 · seat 4 could have answered its opposite's gouji play KKKKKK with AAAAAA; it passed")
    lane.locator('.mk[data-action="38"]').hover()
    expect(page.locator("#tip")).to_contain_text("Yield taken 3 · seat 3 yields on its opposite's 9999 to the next two seats")
    # the finding kinds can be stepped through like events (n / p)
    page.locator("#event-kind").select_option("answer-missed")
    page.evaluate("location.hash = '#a=0'")
    page.keyboard.press("n")
    assert step(page) == 3  # the first: 1:- on seat 4's JJJJJ, which seat 1's KKKKK would have answered
