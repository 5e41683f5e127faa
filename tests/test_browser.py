"""The documentation site and the reports, checked in a real browser (Chromium through its
WebDriver): no JavaScript console errors, every image loads, and the page never scrolls
sideways at 1280 or 390 pixels (a wide table or code block may scroll inside its own box).

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them) and selenium
(the ``test`` extra); without them the tests skip and say why. The site is the one the
README's docs command built in ``docs/_build/html`` (``.ci/run`` builds it first); where there
is none and Sphinx is installed, the tests build it into a temporary folder.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).parents[1]
WIDTHS = (1280, 390)


def _browser():
    chrome = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                   if shutil.which(n)), None)
    driver = shutil.which("chromedriver")
    return chrome, driver


CHROME, DRIVER = _browser()
try:
    import selenium  # noqa: F401
    HAVE_SELENIUM = True
except ImportError:
    HAVE_SELENIUM = False

pytestmark = pytest.mark.skipif(
    not (CHROME and DRIVER and HAVE_SELENIUM),
    reason="no browser driver here: install Debian's 'chromium' and 'chromium-driver' and "
           "selenium (.ci/run does) to check the pages in a real browser")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROME  # a given binary and driver: selenium downloads nothing
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-background-networking", "--disable-sync",
                 "--disable-component-update", "--hide-scrollbars",
                 f"--user-data-dir={tmp_path_factory.mktemp('profile')}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def check_page(driver, url: str) -> dict:
    """Load ``url`` at each width; return what the browser saw, for the assertions."""
    seen = {}
    for width in WIDTHS:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})
        driver.get_log("browser")  # forget what earlier pages logged
        driver.get(url)
        driver.execute_script("return document.fonts ? document.fonts.ready : null")
        state = driver.execute_script("""
            const imgs = Array.from(document.images);
            const lazy = imgs.filter(i => i.loading === 'lazy');
            lazy.forEach(i => { i.loading = 'eager'; });
            return {
              images: imgs.length,
              pending: imgs.filter(i => !i.complete).map(i => i.src),
              scrollWidth: document.documentElement.scrollWidth,
              clientWidth: document.documentElement.clientWidth,
              bodyWidth: document.body.scrollWidth,
              title: document.title,
            };""")
        # Wait for every image (lazy ones were made eager above), then read their sizes.
        driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            Promise.all(Array.from(document.images).map(i => i.complete ? null :
              new Promise(r => { i.onload = r; i.onerror = r; }))).then(() => done(null));""")
        broken = driver.execute_script(
            "return Array.from(document.images).filter(i => !(i.naturalWidth > 0)).map(i => i.src)")
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        seen[width] = dict(state, broken=broken, errors=errors)
    return seen


def assert_clean(seen: dict, min_images: int = 0):
    for width, s in seen.items():
        assert s["errors"] == [], (width, s["errors"])
        assert s["broken"] == [], (width, s["broken"])
        assert s["images"] >= min_images, (width, s["images"])
        assert s["scrollWidth"] <= s["clientWidth"], (
            f"the page scrolls sideways at {width} px: {s['scrollWidth']} > {s['clientWidth']}")


def test_site_front_page(browser, site):
    seen = check_page(browser, (site / "index.html").as_uri())
    assert "rankwise" in seen[1280]["title"]
    assert_clean(seen, min_images=1)


def test_site_tutorial_executed_with_its_figures(browser, site):
    page = site / "getting-started.html"
    seen = check_page(browser, page.as_uri())
    assert_clean(seen, min_images=2)  # the CD diagram and the control diagram, drawn at build
    text = page.read_text(encoding="utf-8")
    assert "Iman-Davenport test rejects" in text and "Traceback" not in text


def test_site_gallery_and_a_worked_example(browser, site):
    assert_clean(check_page(browser, (site / "gallery" / "index.html").as_uri()), min_images=7)
    assert_clean(check_page(browser, (site / "examples" / "garcia2010.html").as_uri()))


@pytest.mark.parametrize("page", ["guide/sources/amlb", "guide/sources/sklearn",
                                  "gallery/plot_p_best"])
def test_site_pages_of_other_tools_formats_and_the_bayesian_figure(browser, site, page):
    assert_clean(check_page(browser, (site / f"{page}.html").as_uri()),
                 min_images=1 if page.startswith("gallery") else 0)


@pytest.mark.parametrize("page", ["api/generated/rankwise.nemenyi_pvalues",
                                  "reference/friedman", "reference/pairwise",
                                  "reference/multiple-sign-test"])
def test_site_formulas_are_typeset_offline(browser, site, page):
    """MathJax comes with the site (copied from a PyPI wheel at build time): the formulas of
    the API and the reference pages are typeset, with nothing fetched and no console error."""
    page = site / f"{page}.html"
    assert "_static/mathjax/tex-chtml.js" in page.read_text(encoding="utf-8")
    assert (site / "_static" / "mathjax" / "tex-chtml.js").is_file()
    assert_clean(check_page(browser, page.as_uri()))
    browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        (window.MathJax && MathJax.startup ? MathJax.startup.promise : Promise.resolve())
          .then(() => done(null), () => done(null));""")
    assert browser.execute_script("return document.querySelectorAll('mjx-container').length") >= 1
    assert browser.execute_script("return document.querySelectorAll('mjx-merror').length") == 0


def k30_comparison():
    import rankwise

    rng = np.random.default_rng(30)
    names = [f"learner_with_a_rather_long_name_{j:02d}" for j in range(30)]
    scores = 0.7 + np.linspace(0, 0.1, 30) + rng.normal(0, 0.03, size=(40, 30))
    frame = pd.DataFrame(scores, index=[f"dataset{i:02d}" for i in range(40)], columns=names)
    return rankwise.compare(frame, criterion="accuracy", posthoc="all")


@pytest.mark.figures
def test_report_at_k30(browser, tmp_path):
    cmp = k30_comparison()
    cmp.write_report(tmp_path / "out")
    seen = check_page(browser, (tmp_path / "out" / "report.html").as_uri())
    assert_clean(seen)


@pytest.mark.figures
def test_notebook_fragment(browser, tmp_path):
    """The fragment a notebook shows, inside a page shaped like a notebook's output area."""
    cmp = k30_comparison()
    page = tmp_path / "notebook.html"
    page.write_text(
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        "<title>notebook</title><style>body{margin:0;font-family:sans-serif}"
        ".output_area{padding:8px;max-width:100%;box-sizing:border-box}</style></head><body>"
        f"<div class='output_area'>{cmp._repr_html_()}</div></body></html>", encoding="utf-8")
    seen = check_page(browser, page.as_uri())
    assert_clean(seen)


@pytest.mark.parametrize("page", ["getting-started", "guide/index", "coming-from-r",
                                  "coming-from-python", "how-do-i", "guide/curves",
                                  "guide/items"])
def test_site_on_a_phone_and_a_laptop(browser, site, page):
    """At 420 px (a phone) the page never scrolls sideways, the diagrams keep a readable
    size, scrolling in their own box, and inline code wraps inside the text; at 1,280 px the
    header is one row and every code block fits whole (88 characters a line); no console
    error."""
    url = (site / f"{page}.html").as_uri()
    for width in (420, 1280):
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
        browser.get_log("browser")
        browser.get(url)
        seen = browser.execute_script("""
            const header = document.querySelector('.bd-header');
            const items = Array.from(header.querySelectorAll(
                '.navbar-header-items .nav-link, .navbar-header-items button'))
              .filter(e => e.getBoundingClientRect().width > 0);
            const tops = items.map(e => Math.round(e.getBoundingClientRect().top));
            return {scroll: document.documentElement.scrollWidth,
                    client: document.documentElement.clientWidth,
                    header: header.getBoundingClientRect().height,
                    rows: new Set(tops.map(t => Math.round(t / 20))).size,
                    items: items.length,
                    images: Array.from(document.querySelectorAll('.bd-article .cell_output img'))
                      .map(i => i.getBoundingClientRect().width),
                    cut: Array.from(document.querySelectorAll('.bd-article pre'))
                      .filter(p => p.scrollWidth > p.clientWidth + 1)
                      .map(p => p.textContent.slice(0, 40)),
                    out: Array.from(document.querySelectorAll('.bd-article p code.literal'))
                      .filter(c => !c.closest('table'))   // a table scrolls in its box
                      .filter(c => c.getBoundingClientRect().right > document.querySelector(
                        '.bd-article').getBoundingClientRect().right + 1)
                      .map(c => c.textContent)};""")
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == [], (page, width, errors)
        assert seen["scroll"] <= seen["client"], (page, width, seen)
        assert seen["out"] == [], (page, width, seen["out"])
        if width == 1280:
            assert seen["items"] >= 4 and seen["rows"] == 1 and seen["header"] < 90, seen
            assert seen["cut"] == [], (page, seen["cut"])
        else:
            assert all(w >= 700 for w in seen["images"]), seen


# The interactive page (issue 67): its state is read back from the browser and checked
# against the JSON the same analysis writes; every section is there with JavaScript off.

@pytest.fixture(scope="module")
def no_script_browser(tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROME
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-background-networking", "--disable-sync",
                 "--disable-component-update",
                 f"--user-data-dir={tmp_path_factory.mktemp('noscript')}"):
        options.add_argument(flag)
    options.add_experimental_option(
        "prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    yield driver
    driver.quit()


def _visible_sections(driver) -> list:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('section.subset'))"
        ".filter(s => !s.hidden && s.offsetParent !== null).map(s => s.dataset.subset)")


def _column(driver, table_id: str, col: int) -> list:
    """The ``data-v`` of one column, in the rows' order on the page now."""
    return driver.execute_script(
        "return Array.from(document.getElementById(arguments[0]).tBodies[0].rows)"
        ".map(r => r.cells[arguments[1]].getAttribute('data-v'))", table_id, col)


def _sort_by(driver, table_id: str, col: int):
    driver.execute_script("document.getElementById(arguments[0]).tHead.rows[0]"
                          ".cells[arguments[1]].click()", table_id, col)


def _switch(driver, value: str):
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "subset-switch-1")).select_by_value(value)


def _offline(page_text: str):
    """Nothing the page loads comes from elsewhere (it works with the network off)."""
    assert " src=\"http" not in page_text and "<link" not in page_text
    assert "@import" not in page_text and "url(http" not in page_text


def _js_off_shows_everything(driver, path, sections: int):
    driver.get(path.as_uri())
    assert driver.execute_script("return document.getElementById('subset-switch-1')") is None
    assert len(_visible_sections(driver)) == sections      # every subset, one after another


@pytest.mark.figures
def test_interactive_compare_page(browser, no_script_browser, tmp_path):
    """compare --example garcia2010: sort, switch to one data set, read values equal to the
    JSON's; the whole table first; hover and sentence links; all sections without JavaScript."""
    import json

    import rankwise

    cmp = rankwise.compare(rankwise.load_example("garcia2010"))
    data = json.loads(cmp.to_json())
    path = tmp_path / "garcia2010.html"
    path.write_text(cmp.to_html(interactive=True), encoding="utf-8")
    _offline(path.read_text(encoding="utf-8"))
    assert_clean(check_page(browser, path.as_uri()), min_images=0)
    assert _visible_sections(browser) == ["all"]
    mean_ranks = dict(zip(data["learners"], data["mean_ranks"].values()))
    assert float(_column(browser, "each_all", 2)[0]) == min(mean_ranks.values())
    _sort_by(browser, "each_all", 2)
    _sort_by(browser, "each_all", 2)       # again: descending
    assert [float(v) for v in _column(browser, "each_all", 2)] == sorted(
        data["mean_ranks"].values(), reverse=True)
    i = data["datasets"].index("Bupa")
    _switch(browser, "Bupa")
    assert _visible_sections(browser) == ["Bupa"]
    table = f"each_{i + 1}"
    learners = browser.execute_script(
        "return Array.from(document.getElementById(arguments[0]).tBodies[0].rows)"
        ".map(r => r.cells[1].textContent)", table)
    scores = [float(v) for v in _column(browser, table, 2)]
    assert scores == [data["values"][i][data["learners"].index(n)] for n in learners]
    assert [float(v) for v in _column(browser, table, 3)] == sorted(data["ranks"][i])
    _sort_by(browser, table, 2)
    assert [float(v) for v in _column(browser, table, 2)] == sorted(data["values"][i])
    # hover: the exact mean rank; a link from a number of the tests table to its sentence
    title = browser.execute_script(
        "return document.getElementById('mean_ranks').tBodies[0].rows[0].cells[2].title")
    assert repr(min(mean_ranks.values()))[:8] in title
    link = browser.execute_script(
        "const a = document.querySelector('#tests td a'); return a && a.getAttribute('href')")
    assert link and browser.execute_script(
        "return document.getElementById(arguments[0].slice(1)).textContent", link).count("p =")
    # the address keeps the state
    browser.get(path.as_uri() + "#subset=Breast")
    assert _visible_sections(browser) == ["Breast"]
    _js_off_shows_everything(no_script_browser, path, 1 + len(data["datasets"]))


@pytest.fixture(scope="module")
def tabarena_board():
    import rankwise

    from rankwise.examples import example_path

    return rankwise.leaderboard(example_path("tabarena"), by="problem_type")


@pytest.mark.figures
def test_interactive_leaderboard_page(browser, no_script_browser, tabarena_board, tmp_path):
    """leaderboard --example tabarena --by problem_type: at most 2 MB for 78 learners x 51 data
    sets, offline; switch to each subset and sort by Elo, the values equal the JSON's; every
    learner of each board (the text shows the best 60); all sections without JavaScript."""
    import json

    lb = tabarena_board
    data = json.loads(lb.to_json())
    path = tmp_path / "board.html"
    path.write_text(lb.to_html(interactive=True), encoding="utf-8")
    assert path.stat().st_size <= 2_000_000
    _offline(path.read_text(encoding="utf-8"))
    assert_clean(check_page(browser, path.as_uri()), min_images=0)
    assert _visible_sections(browser) == ["all"]
    for board in data["boards"][1:]:
        _switch(browser, board["subset"])
        assert _visible_sections(browser) == [board["subset"]]
        table = f"leaderboard_{board['subset']}"
        elo = [r["elo"] for r in board["rows"]]
        assert [float(v) for v in _column(browser, table, 2)] == elo   # board order, all rows
        _sort_by(browser, table, 2)
        assert [float(v) for v in _column(browser, table, 2)] == sorted(elo)
        names = browser.execute_script(
            "return Array.from(document.getElementById(arguments[0]).tBodies[0].rows)"
            ".map(r => r.cells[1].textContent)", table)
        assert names[0] == min(board["rows"], key=lambda r: r["elo"])["learner"]
    hover = browser.execute_script(
        "return document.getElementById('leaderboard').tBodies[0].rows[0].cells[1].title")
    assert hover.startswith(f"Elo {data['boards'][0]['rows'][0]['elo']:.1f} [")
    # the #1's Elo links to the sentence of the verdict that names it
    href = browser.execute_script("return document.getElementById('leaderboard').tBodies[0]"
                                  ".rows[0].cells[2].querySelector('a').getAttribute('href')")
    sentence = browser.execute_script(
        "return document.getElementById(arguments[0].slice(1)).textContent", href)
    assert data["boards"][0]["rows"][0]["learner"] in sentence
    _js_off_shows_everything(no_script_browser, path, len(data["boards"]))
