"""cgpm site builds a whole static site from a results folder: every page reachable, every local link and image resolving."""

from __future__ import annotations

import pytest

from harness.cli import main
from harness.site.build import build_site
from harness.site.links import broken_links, local_targets
from tests.harness.site_results import MARKUP, make_results


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    published, histories = make_results(root / "results")
    built = build_site(root / "out", published, histories)
    return built.out


def test_every_local_link_resolves_and_every_page_is_linked(site):
    assert broken_links(site) == []
    pages = {path.relative_to(site).as_posix() for path in site.rglob("*.html")}
    assert {"index.html", "runs/spectra-demo/index.html", "runs/delta--updates/index.html", "runs/sparkwave--windows/index.html",
            "runs/sparkwave--static/index.html", "papers/spectra.html", "papers/sparkwave.html",
            "history/spectra-demo.html", "history/sparkwave-windows.html"} <= pages
    reached, todo = {"index.html"}, ["index.html"]
    while todo:
        page = site / todo.pop()
        for target in local_targets(page):
            path = (page.parent / target.split("#")[0]).resolve().relative_to(site.resolve()).as_posix()
            if path.endswith(".html") and path not in reached:
                reached.add(path)
                todo.append(path)
    assert reached == pages


def test_a_run_page_has_its_figures_tables_and_escaped_notes(site):
    page = (site / "runs" / "spectra-demo" / "index.html").read_text()
    assert 'src="engines_at_window.svg"' in page and 'src="throughput_vs_window.svg"' in page
    assert 'src="published_figure.png"' in page and (site / "runs" / "spectra-demo" / "published_figure.png").is_file()
    assert "spectra-rev" in page and "<table>" in page and "bbbbbbbbbb" in page
    assert MARKUP not in page and "&lt;script&gt;alert(&#x27;not escaped&#x27;)&lt;/script&gt; &amp; more" in page
    single = (site / "runs" / "sparkwave--static" / "index.html").read_text()
    assert 'src="engines_at_window.svg"' in single  # one window: the engines still side by side
    assert "Not drawn: throughput against window size needs at least two window sizes." in single


def test_the_history_page_plots_the_commits_and_names_the_regression(site):
    page = (site / "history" / "spectra-demo.html").read_text()
    assert 'src="spectra-demo.svg"' in page and 'src="spectra-demo-compare.svg"' in page
    assert '<tr class="regression">' in page and "spectra-rev" in page and "slower" in page
    assert page.count('<tr class="regression">') == 4 + 1  # spectra-rev's four cells, none of the others; the claim
    assert 'href="../runs/spectra-demo/index.html"' in page
    assert '<tr class="regression"><td>spectra</td><td>demo.rev-speedup</td>' in page
    assert "<th>aaaaaaaaaa</th><th>bbbbbbbbbb</th>" in page  # each cell's median [IQR] at each run
    index = (site / "index.html").read_text()
    assert "4 slower; 1 claim regression(s)" in index and 'href="history/spectra-demo.html"' in index


def test_a_script_s_folder_is_shown_as_published_and_kept_out_of_the_histories(site):
    page = (site / "runs" / "delta--updates" / "index.html").read_text()
    assert "Published tables" in page and "us_per_update" in page and "sizes = 10" in page and "dddddddddd" in page
    assert "history" not in page.lower().replace("cgpm-bench results", "")
    assert not (site / "history" / "updates.html").exists()
    assert 'href="../runs/delta--updates/index.html"' in (site / "papers" / "delta.html").read_text()


def test_a_paper_page_lists_its_runs(site):
    page = (site / "papers" / "sparkwave.html").read_text()
    assert 'href="../runs/sparkwave--windows/index.html"' in page and 'href="../runs/sparkwave--static/index.html"' in page


def test_the_link_check_finds_a_missing_file(site, tmp_path):
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(site, copy)
    (copy / "runs" / "spectra-demo" / "engines_at_window.svg").unlink()
    (copy / "papers" / "delta.html").unlink()
    broken = broken_links(copy)
    assert "runs/spectra-demo/index.html: engines_at_window.svg" in broken
    assert any(entry.endswith("papers/delta.html") for entry in broken)


def test_the_command_builds_and_refuses_to_overwrite_its_results(tmp_path, capsys):
    published, histories = make_results(tmp_path / "results")
    assert main(["site", "--out", str(tmp_path / "site"), "--results", str(published), "--history", str(histories)]) == 0
    assert "4 runs, 4 papers, 3 histories, every local link checked" in capsys.readouterr().out
    assert main(["site", "--out", str(published.parent), "--results", str(published)]) == 2
    assert "would replace the results" in capsys.readouterr().err
    assert main(["site", "--out", str(tmp_path / "x"), "--results", str(tmp_path / "nothing")]) == 2
    assert "does not exist" in capsys.readouterr().err
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "notes.txt").write_text("mine")
    assert main(["site", "--out", str(kept), "--results", str(published)]) == 2
    assert "is not a site cgpm site wrote" in capsys.readouterr().err and (kept / "notes.txt").read_text() == "mine"
    assert main(["site", "--out", str(tmp_path / "site"), "--results", str(published), "--history", str(histories)]) == 0


def test_a_site_with_a_broken_link_is_not_published(tmp_path, monkeypatch):
    from harness.site import html, pages
    from harness.site.build import SiteError

    published, histories = make_results(tmp_path / "results")
    original = pages.run_page
    monkeypatch.setattr(pages, "run_page", lambda *args: original(*args).replace(
        "</body>", html.link("missing.html", "a page nobody wrote") + "</body>"))
    with pytest.raises(SiteError, match=r"broken link\(s\), first runs/.*: missing.html"):
        build_site(tmp_path / "out", published, histories)
    assert not (tmp_path / "out").exists() and [path.name for path in tmp_path.iterdir()] == ["results"]


def test_a_paper_page_puts_our_numbers_beside_the_paper_s_with_the_verdicts(site):
    from harness import claims
    from harness.site import html, pages
    from harness.site.papers import Paper

    fixture_page = (site / "papers" / "spectra.html").read_text()  # the fixture publishes none of the claims' folders
    assert '<tr class="not-shown">' in fixture_page and '<tr class="met">' not in fixture_page
    verdicts = claims.judge("tpjoin")  # the committed results
    page = pages.paper_page(Paper("tpjoin", claims.experiments("tpjoin"), verdicts),
                            [], {"tpjoin/tpjoin-windows": "tpjoin--tpjoin-windows"})
    met = [verdict for verdict in verdicts if verdict.verdict == "met" and verdict.paper_value is not None]
    assert met and page.count('<tr class="met">') == sum(v.verdict == "met" for v in verdicts)
    row = page[page.index(f"<td>{met[0].claim_id}</td>"):]
    row = row[: row.index("</tr>")]
    assert f"<td>{html.number(met[0].value)}" in row and f">{html.number(float(met[0].paper_value))}</td>" in row
    assert 'href="../runs/tpjoin--tpjoin-windows/index.html"' in page and "Table II" in page
