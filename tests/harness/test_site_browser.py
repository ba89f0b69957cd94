"""In a real headless Chromium the site opens from disk: every page reached from the index, no broken image, no console error.

Chromium is Debian's (``/usr/bin/chromium``, installed by ``.ci/run``), driven over the DevTools
protocol by Playwright. The test never skips: a missing browser fails it, with the line that
installs one, so CI cannot pass without having looked.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import urldefrag

import pytest

from harness.site.build import build_site
from tests.harness.site_results import make_results

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BROKEN_IMAGES = "Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)"
LINKS = "Array.from(document.querySelectorAll('a[href]')).map(a => a.href)"


def _browser_path() -> Path:
    found = CHROMIUM if CHROMIUM.exists() else Path(shutil.which("chromium") or "/nonexistent")
    if not found.exists():
        pytest.fail("Chromium is missing: apt-get install -y chromium (.ci/run does this; make test checks for it)")
    return found


def test_the_site_in_chromium(tmp_path):
    from playwright.sync_api import sync_playwright

    published, histories = make_results(tmp_path / "results")
    site = build_site(tmp_path / "site", published, histories).out.resolve()
    index = (site / "index.html").as_uri()
    problems, outside, visited = [], [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=str(_browser_path()), headless=True, args=FLAGS,
            viewport={"width": 1280, "height": 900})
        try:
            page = browser.new_page()
            page.on("console", lambda message: message.type == "error" and problems.append(f"console: {message.text}"))
            page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
            page.on("requestfailed", lambda request: problems.append(f"request failed: {request.url}"))
            page.on("request", lambda request: request.url.startswith(("file:", "data:")) or outside.append(request.url))
            todo, seen = [index], {index}
            while todo:
                url = todo.pop(0)
                response = page.goto(url, wait_until="load")
                assert response is None or response.ok, url
                visited.append(url)
                problems += [f"{url}: broken image {src}" for src in page.evaluate(BROKEN_IMAGES)]
                for href in page.evaluate(LINKS):
                    target, _ = urldefrag(href)
                    if not target.startswith(site.as_uri()):
                        outside.append(target)
                    elif target.endswith(".html") and target not in seen:
                        seen.add(target)
                        todo.append(target)
                if url == index:
                    page.screenshot(path=str(tmp_path / "index.png"), full_page=True)
            page.goto((site / "history" / "spectra-demo.html").as_uri())
            page.screenshot(path=str(tmp_path / "history.png"), full_page=True)
            assert problems == [] and outside == []
            # the check can fail: a figure taken away is seen as a broken image and a failed request
            (site / "runs" / "spectra-demo" / "engines_at_window.svg").unlink()
            page.goto((site / "runs" / "spectra-demo" / "index.html").as_uri(), wait_until="load")
            assert [src.rsplit("/", 1)[-1] for src in page.evaluate(BROKEN_IMAGES)] == ["engines_at_window.svg"]
            assert any("engines_at_window.svg" in problem for problem in problems)
        finally:
            browser.close()
    assert {Path(url.removeprefix("file://")).relative_to(site).as_posix() for url in visited} == {
        path.relative_to(site).as_posix() for path in site.rglob("*.html")}
    assert (tmp_path / "index.png").stat().st_size > 10_000
