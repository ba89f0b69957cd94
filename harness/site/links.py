"""A site is whole when every local link and image of every page names a file inside it.

Links to other sites are not followed (the site fetches nothing); a fragment (``page.html#x``)
must name an ``id`` on its page.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs) -> None:
        attributes = dict(attrs)
        if attributes.get("id"):
            self.ids.add(attributes["id"])
        for name in ("href", "src"):
            if attributes.get(name) is not None:
                self.targets.append(attributes[name])


def _parse(path: Path) -> _Collector:
    collector = _Collector()
    collector.feed(path.read_text(encoding="utf-8"))
    return collector


def local_targets(page: Path) -> list[str]:
    """The page's links and image sources that point into the site (no scheme, no host)."""
    return [target for target in _parse(page).targets
            if not urlsplit(target).scheme and not urlsplit(target).netloc and not target.startswith("data:")]


def broken_links(site: Path) -> list[str]:
    """``page: target`` for every local link or image of the site's pages that names nothing."""
    site = Path(site).resolve()
    pages = sorted(site.rglob("*.html"))
    ids = {page: _parse(page).ids for page in pages}
    broken = []
    for page in pages:
        for target in local_targets(page):
            parts = urlsplit(target)
            path = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not path.is_relative_to(site) or not path.is_file():
                broken.append(f"{page.relative_to(site)}: {target}")
            elif parts.fragment and path.suffix == ".html" and parts.fragment not in ids.get(path, _parse(path).ids):
                broken.append(f"{page.relative_to(site)}: {target} (no id {parts.fragment!r})")
    return broken
