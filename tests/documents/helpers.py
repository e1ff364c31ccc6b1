"""Helpers shared by the printed documents' tests: the hands of the played fixture, PDF layout boxes, the print pack's text lines, its pages read back with their QR codes' links."""
from __future__ import annotations

import io

import segno
import weasyprint
from pypdf import PdfReader

from tournaments.models import Round
from tournaments.printing import documents

#: The public address the print-pack fixtures were made with (``ARBITRO_PUBLIC_URL``).
PUBLIC_URL = "http://arbitro.test"

N_S_HANDS = {1: [400, 300, 200, 100], 2: [300, 300, 200, 100], 3: [300, 200, 100, 0], 4: [300, 200, 100, 0]}


E_W_HANDS = [100, 100, 100, 100]


def text_lines(page) -> list[list]:
    """The page's text as lines by place: ``[[baseline y in pt, rounded], "text of that line
    without spaces, left to right"], …]`` bottom to top, from pypdf's text operators with
    their positions. Independent of the order the page draws its text in (a stamped sheet
    draws the form's text first, then the values'), where pypdf's plain ``extract_text``
    glues words drawn one after the other ("1037http://…")."""
    found: dict[int, list] = {}

    def visit(text, cm, tm, _font, _size):
        if not text.strip():
            return
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        found.setdefault(round(y), []).append((round(x, 1), "".join(text.split())))

    page.extract_text(visitor_text=visit)
    return [[y, "".join(t for _x, t in sorted(parts))] for y, parts in sorted(found.items())]


def rect(box) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of a box's border box, in CSS px."""
    x, y = box.border_box_x(), box.border_box_y()
    return x, y, x + box.border_width(), y + box.border_height()


def meet(a, b) -> bool:
    """Whether two rectangles share any area (touching edges do not count)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def boxes_by_class(page, name: str) -> list:
    """Every box of a laid-out page whose element carries CSS class ``name``, in page order;
    one per element (the first box of an element: each of these blocks is a single box)."""
    found, seen = [], set()
    for box in page._page_box.descendants():
        element = getattr(box, "element", None)
        if element is None or id(element) in seen:
            continue
        if name in (element.get("class") or "").split():
            seen.add(id(element))
            found.append(box)
    return found


def layout(played, *, a5: bool):
    doc = documents.round_document(played.rounds.get(number=1))  # with the QR codes
    assert all(t.qr_src for t in doc.playing_tables) and doc.pin_url
    html = documents.scoresheets_html(doc, a5=a5)
    return weasyprint.HTML(string=html).render().pages


def assert_qr_clear(pages, sheets_a_page: int):
    for page in pages:
        qrs = boxes_by_class(page, "qrbox")
        lines = boxes_by_class(page, "lines")
        hands = boxes_by_class(page, "hands")
        assert len(qrs) == len(lines) == sheets_a_page
        for qr, ln, hd in zip(qrs, lines, hands, strict=True):
            q, pairs, table = rect(qr), rect(ln), rect(hd)
            assert not meet(q, pairs), (q, pairs)
            assert not meet(q, table), (q, table)
            assert q[3] <= table[1]  # the whole block above the hands table
            for child in qr.descendants():  # the image, the caption, the PIN and the address
                if child is not qr and hasattr(child, "border_box_y"):
                    c = rect(child)
                    assert not meet(c, pairs) and c[3] <= table[1], (c, pairs, table)


def _modules(image) -> tuple[tuple[bool, ...], ...]:
    """A printed QR code's modules (True dark), read from its 1-bit PNG: 4 pixels a module,
    the centre pixel of each, the 2-module border dropped (``links.qr_png_uri``)."""
    gray = image.convert("L")
    size = gray.width // 4 - 4
    return tuple(tuple(gray.getpixel(((2 + x) * 4 + 2, (2 + y) * 4 + 2)) < 128 for x in range(size))
                 for y in range(size))


def _code(url: str) -> tuple[tuple[bool, ...], ...]:
    return tuple(tuple(bool(v) for v in row) for row in segno.make(url, error="m", mask=links_mask()).matrix)


def links_mask() -> int:
    from tournaments.captains import links

    return links.PRINT_QR_MASK


def _candidates(rnd: Round) -> dict:
    doc = documents.round_document(rnd, qr=False)
    urls = {doc.pin_url, doc.players_url}
    for t in doc.tables:
        urls.update(u for u in (t.captain_url, *t.ns_pages, *t.ew_pages) if u)
    return {_code(u): u for u in urls}


def _drawn_images(content, resources) -> list:
    """The images ``content`` (a page or a form XObject) draws, in drawing order, as PIL
    images: its ``Do`` operators followed into form XObjects (pypdf's ``page.images`` lists
    every image of the resources, which WeasyPrint shares between the pages of a part)."""
    from pypdf.generic import ContentStream

    stream = content.get_contents() if hasattr(content, "get_contents") else content
    if stream is None:
        return []
    ops = stream.operations if hasattr(stream, "operations") else ContentStream(stream, None).operations
    xobjects = resources.get("/XObject", {}) if resources else {}
    found = []
    for operands, op in ops:
        if op != b"Do":
            continue
        xobj = xobjects[operands[0]].get_object()
        if xobj["/Subtype"] == "/Image":
            found.append(xobj.decode_as_image())
        else:
            found.extend(_drawn_images(xobj, xobj.get("/Resources", resources)))
    return found


def read_pack(pdf: bytes, rnd: Round) -> list[dict]:
    """Every page of ``pdf``: ``{"text": pypdf's text (to read), "lines": :func:`text_lines`,
    "qr": [links of its QR codes, in drawing order; "?" for a code that is none of the
    round's links]}``."""
    known = _candidates(rnd)
    pages = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        qr = [known.get(_modules(img), "?") for img in _drawn_images(page, page["/Resources"])]
        pages.append({"text": page.extract_text(), "lines": text_lines(page), "qr": qr})
    return pages


def compare_pages(got: list[dict], want: list[dict]) -> None:
    """Page by page, the text lines and the QR codes' links of a pack read by :func:`read_pack`
    equal a fixture's."""
    assert len(got) == len(want), "page count changed"
    for n, (g, w) in enumerate(zip(got, want, strict=True), start=1):
        assert g["lines"] == w["lines"], f"page {n}: text differs"
        assert sorted(g["qr"]) == sorted(w["qr"]), f"page {n}: QR codes differ"
