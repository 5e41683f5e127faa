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
