"""The statistics page (gouji stats --format html) in Chromium, as people read it: on a desktop
(1280×800) and a phone (390×844), in 中文 and in English.

On each: no console or page error and no request; nothing wider than the screen (the table scrolls
inside its card); every chart drawn, with its bars or dots, and every label of a chart inside the
chart and at least 10 px high as displayed; only the page's language, less the records' own text
(player and match names) and preset names. Screenshots go to test-artifacts/ to be looked at.

The values drawn are checked in tests/test_stats.py; here, that they show: examples/online-match.gjn
by team draws the places of the two teams (9 seats each over 3 hands), the running points of the
match (1-3-5: 1, -2, 0) and no burn; all the examples by player draw 12 players and the burns of
Liu Yang (1, charter-hand) and of Bot 4 and Bot 5 (1 each, in the matches).
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from conftest import EXAMPLES, ROOT
from test_browser import browser  # noqa: F401  (the fixture; the module skips without Chromium)

from gouji_record import read
from gouji_record.bilingual import CJK
from gouji_record.cli.main import main
from gouji_record.rules.rulesets import PRESETS

pytestmark = pytest.mark.browser  # drives Chromium: left out of the quick run (-m "not browser")

SIZES = [(1280, 800), (390, 844)]
ARTIFACTS = ROOT / "test-artifacts"
FILES = {"match": [EXAMPLES / "online-match.gjn"], "all": sorted(EXAMPLES.glob("*.gjn"))}
BY = {"match": "team", "all": "player"}


def record_text(files) -> set[str]:
    """What the records themselves say that the page shows: players' and matches' names."""
    names = set()
    for f in files:
        for record in read(f):
            names |= {record.player(s) for s in range(1, 7)} | {record.tags.get("Match", "")}
    return names - {""}


@pytest.fixture(scope="module")
def stats_pages(tmp_path_factory):
    d = tmp_path_factory.mktemp("stats")
    urls = {}
    for name, files in FILES.items():
        for lang in ("zh", "en"):
            out = d / f"{name}-{lang}.html"
            r = CliRunner().invoke(
                main, ["stats", *map(str, files), "--by", BY[name], "--format", "html", "--lang", lang, "-o", str(out)]
            )
            assert r.exit_code == 0, r.output
            urls[name, lang] = out.as_uri()
    return urls


LOOK = """() => {
  const charts = [...document.querySelectorAll('svg.chart')].map(svg => {
    const box = svg.getBoundingClientRect(), scale = svg.getScreenCTM().a;
    const labels = [...svg.querySelectorAll('text')].map(t => {
      const b = t.getBoundingClientRect();
      return {text: t.textContent, height: b.height, size: parseFloat(getComputedStyle(t).fontSize) * scale,
              inside: b.left >= box.left - 1 && b.right <= box.right + 1 && b.top >= box.top - 1 && b.bottom <= box.bottom + 1};
    });
    return {id: svg.id || svg.getAttribute('aria-label'), width: box.width, height: box.height,
            marks: svg.querySelectorAll('rect, circle').length, labels};
  });
  const tips = [...document.querySelectorAll('title, [aria-label], [title]')]
    .map(e => e.tagName.toLowerCase() === 'title' ? e.textContent : (e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || ''));
  return {charts, text: [document.title, document.body.innerText, ...tips].join('\\n'),
          scrollWidth: document.documentElement.scrollWidth, bodyWidth: document.body.scrollWidth};
}"""


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("name", ["match", "all"])
def test_the_stats_page_reads_well(browser, stats_pages, name, lang, size):  # noqa: F811
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
    pg = context.new_page()
    problems: list[str] = []
    pg.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    pg.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    pg.on("request", lambda r: None if r.url.startswith(("file:", "data:")) else problems.append(f"request: {r.url}"))
    pg.goto(stats_pages[name, lang])
    seen = pg.evaluate(LOOK)
    ARTIFACTS.mkdir(exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"stats-{name}-{lang}-{width}x{height}.png"), full_page=True)
    context.close()
    assert problems == []
    assert seen["scrollWidth"] <= width and seen["bodyWidth"] <= width, seen["scrollWidth"]

    charts = seen["charts"]
    expected = {"match": 1 + 1, "all": 1 + 1 + 5}  # places, burns when there are any, the points of each match
    assert len(charts) == expected[name], [c["id"] for c in charts]
    for chart in charts:
        assert chart["width"] > 200 and chart["height"] > 40 and chart["marks"] > 0, chart["id"]
        assert chart["width"] <= width
        small = [(label["text"], round(label["size"], 1)) for label in chart["labels"] if label["size"] < 10 or label["height"] < 10]
        assert small == [], (chart["id"], small)
        outside = [label["text"] for label in chart["labels"] if not label["inside"]]
        assert outside == [], (chart["id"], outside)

    text = seen["text"]
    for piece in sorted(record_text(FILES[name]) | set(PRESETS), key=len, reverse=True):
        text = text.replace(piece, " ")
    if lang == "zh":
        assert not re.search("[A-Za-z]", text), re.findall(r".{0,20}[A-Za-z]+.{0,20}", text)[:5]
        assert "够级统计" in seen["text"] and "头科" in seen["text"]
    else:
        assert not CJK.search(text), [text[max(0, m.start() - 20) : m.end() + 20] for m in CJK.finditer(text)][:5]
        assert "Gouji statistics" in seen["text"] and "1st" in seen["text"]


def test_the_values_show_where_the_tallies_put_them(browser, stats_pages):  # noqa: F811
    """online-match by team in English: the dots of team 1-3-5 read 1, -2, 0 from left to right, each
    with its tooltip; the table's first row is 1-3-5 with 3 hands."""
    pg = browser.new_page(viewport={"width": 390, "height": 844})
    pg.goto(stats_pages["match", "en"])
    dots = pg.locator("#points .team1 .dot")
    assert [dots.nth(i).get_attribute("data-value") for i in range(dots.count())] == ["1", "-2", "0"]
    xs = [dots.nth(i).locator("circle").bounding_box()["x"] for i in range(3)]
    assert xs == sorted(xs)
    assert dots.nth(1).locator("title").text_content() == "team 1-3-5 · hand 2: -2"
    assert pg.locator("#points .team1 .value").all_text_contents() == ["1", "-2", "0"]
    first = pg.locator("#tallies tbody tr").first
    assert first.locator("th").text_content() == "1-3-5" and first.locator("td").first.text_content() == "3"
    assert pg.locator("#burns .note").text_content() == "No burns."
    # on a phone the table scrolls inside its card, its row names staying in view
    scroller = pg.locator("#tallies .scroll")
    assert pg.evaluate("e => e.scrollWidth > e.clientWidth", scroller.element_handle())
    pg.close()


def test_names_in_capitals_stay_inside_the_chart(browser, tmp_path):  # noqa: F811
    # Failing input: players named in capitals. Names were cut at 13 columns, as if every letter
    # were as wide as the average; "WANG XIAOMING" (13 columns, not cut) drew 13 px past the chart's
    # left edge, its W cut off, and 24 Ms were cut to 12 Ms and …, 60 px past it. Now a name is cut to
    # what fits left of the bars, a W or an M counted wider than an i.
    names = {"Li Na": "WANG XIAOMING", "Zhao Lei": "M" * 24, "Wang Fang": "W" * 20, "Chen Jing": "ZHANG WEIMIN"}
    text = (EXAMPLES / "charter-hand.gjn").read_text(encoding="utf-8")
    for old, new in names.items():
        text = text.replace(f'"{old}"', f'"{new}"')
    src, out = tmp_path / "caps.gjn", tmp_path / "caps.html"
    src.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["stats", str(src), "--format", "html", "--lang", "en", "-o", str(out)])
    assert r.exit_code == 0, r.output
    for width, height in SIZES:
        pg = browser.new_page(viewport={"width": width, "height": height})
        pg.goto(out.as_uri())
        charts = pg.evaluate(LOOK)["charts"]
        pg.close()
        assert [(chart["id"], label["text"]) for chart in charts for label in chart["labels"] if not label["inside"]] == []
        shown = [label["text"] for chart in charts for label in chart["labels"]]  # a name, then its tooltip
        assert "WANG XIAO…WANG XIAOMING" in shown and "Zhang WeiZhang Wei" in shown
