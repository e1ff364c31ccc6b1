"""Helpers shared by the English pages' tests: the texts of a page and the Italian ones left in it."""
from html.parser import HTMLParser

ATTRS = {"title", "aria-label", "placeholder", "alt"}


class _Texts(HTMLParser):
    """Visible text nodes and text attributes of a page (script/style skipped)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.texts, self._skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        self.texts += [v.strip() for k, v in attrs if k in ATTRS and v]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip and data.strip():
            self.texts.append(" ".join(data.split()))


def texts(html: str) -> list[str]:
    parser = _Texts()
    parser.feed(html)
    return parser.texts


DATA = {"Circolo"}


def leftovers(html: str, italian_to_english: dict) -> list[str]:
    """Text pieces of the page that are an untranslated Italian catalogue message."""
    found = []
    for t in texts(html):
        if t in DATA:
            continue
        for piece in {t, t.rstrip(":· "), t.strip("()")}:
            if piece in italian_to_english:
                found.append(piece)
    return found


def page(client, url) -> str:
    resp = client.get(url)
    assert resp.status_code == 200, (url, resp.status_code)
    return resp.content.decode()


def assert_english(html, italian_to_english, present, absent):
    assert '<html lang="en">' in html
    for word in present:
        assert word in html, word
    for word in absent:
        assert word not in html, word
    assert leftovers(html, italian_to_english) == []
