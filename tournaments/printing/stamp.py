"""A4 score sheets stamped on one rendered form (rules.md §10; docs/speed.md, the print pack): no Django, no database.

The score sheets of a round are one form filled 250 times, and WeasyPrint laying the whole
form out again for every table was most of a print pack's time (about 95 ms of CPU a sheet).
:func:`render_sheets` takes the very HTML ``documents.scoresheets_html`` writes (one
``<section class="sheet">`` a table; every value that changes from table to table is a
``<span class="v">`` holding only text, or an ``<img class="… v">``) and:

1. groups the sheets by **shape**: the section with every value blanked (rows, a state line,
   an arbitral note, the players' QR codes: anything that moves the form);
2. lays out **one form a shape** with WeasyPrint, the shape's first sheet with its values
   hidden (``visibility: hidden`` keeps their boxes), and reads from the layout where each
   value goes: its baseline, its alignment and the room its line leaves;
3. shapes every **distinct value once** with Pango in the computed style it had on the form
   and writes its text operators with WeasyPrint's own text drawing (:class:`_Shaper`: same
   glyphs, kerning, font and colour, no document laid out: about 0.05 ms a value, where a
   document of the values' lines cost 0.5 ms a line); the fonts drawn are embedded once,
   subset to the glyphs used, as WeasyPrint embeds a document's;
4. writes each sheet as a page that draws its shape's form (a PDF form XObject, stored
   once) and, moved to their places, the text operators of its values and its QR codes
   (1-bit images, stored once each).

The pages show the same text in the same fonts at the same places, and pypdf extracts the
same words (``tests/documents/test_print_pack_text.py``). A sheet whose value would not fit
where the form's did (a name longer than its line, a pair number wider than its box) is
rendered whole by WeasyPrint, as before, and put back in its place.

The table list's seat finder (:func:`render_finder`): its pages are cut in Python
(``documents.finder_pages``) and its footer is two running elements in the same margin boxes,
so the page numbers are values too; its rows are stamped one at a time as the tables' below
(each column's first row laid out with the page, the others moved under it), or, when a name
takes two lines, each page is one unit stamped on one form a page shape.

The table list's pages by table and the standings are stamped **a row at a time**
(:func:`render_table_pages`): their pages cut in Python where WeasyPrint would break them
(one small layout, the probe, gives the rows' heights and the page's end), one WeasyPrint
document of the pages' frames (title, header row, footer, no rows), one form a row shape
moved to each row's place, every text cell and captain's QR code a value. Stamped a page
at a time instead (tried before), each page shape's form cost a page's layout and the
values' document as much as the pages. A page with a name of two lines, and the
standings' last page (the notes follow the rows), are laid out whole in the frames'
document; what the cut does not model (a team round's matches, the standings by group)
raises :class:`NotStampable` and the worker lays the whole document out as before.
"""
from __future__ import annotations

import base64
import html as html_module
import io
import re
import zlib

SECTION_RE = re.compile(r'<section class="sheet">.*?</section>', re.S)
#: A page of A5 sheets: two sections in a ``<div class="pg">`` (one for an odd last table).
A5_PAGE_RE = re.compile(r'<div class="pg">.*?</section>\s*</div>', re.S)
#: A page of the table list's seat finder (``documents.tablelist_html(part="finder")``).
FINDER_PAGE_RE = re.compile(r'<section class="fpage">.*?</section>', re.S)
#: A value: text, or a bold text followed by plain text (a player's "<b>Surname</b> Name").
TEXT_RE = re.compile(r'<span class="(?:[^"<>]* )?v">((?:<b>[^<]*</b>)?[^<]*)</span>')
IMG_RE = re.compile(r'(<img class="[^"<>]*\bv" src=")([^"]*)(")')
FIELD_RE = re.compile(TEXT_RE.pattern + "|" + IMG_RE.pattern)
#: Placeholder laid out for a value that is empty in the shape's first sheet (a blank hand
#: cell): its row has a fixed height, so the form is the same, and the place is known.
PLACEHOLDER = "0"
HIDE = ".v { visibility: hidden; }"


def _fields(section: str) -> list[tuple[str, str]]:
    """The values of one sheet in document order: ("text", unescaped text) or ("img", src)."""
    out = []
    for m in FIELD_RE.finditer(section):
        if m.group(1) is not None:
            out.append(("text", m.group(1)))
        else:
            out.append(("img", m.group(3)))
    return out


def _shape(section: str) -> str:
    """The section with its values blanked: two sheets of one shape share one form."""
    return IMG_RE.sub(r"\1\3", TEXT_RE.sub(lambda m: m.group(0)[: m.start(1) - m.start(0)] + "</span>", section))


def _numbered(section: str) -> str:
    """The shape's first section with each value numbered (``data-i``) and an empty one
    given :data:`PLACEHOLDER`, so the form's layout says where every value goes."""
    counter = iter(range(10**6))

    def text(m):
        i = next(counter)
        head = m.group(0)[: m.start(1) - m.start(0)]
        return head[:-1] + f' data-i="{i}">' + (m.group(1) or PLACEHOLDER) + "</span>"

    def img(m):
        i = next(counter)
        return m.group(1)[: -len(' src="')] + f' data-i="{i}" src="' + m.group(2) + m.group(3)

    out, pos = [], 0
    for m in FIELD_RE.finditer(section):
        out.append(section[pos:m.start()])
        if m.group(1) is not None:
            out.append(text(m))
        else:
            m2 = IMG_RE.match(m.group(0))
            out.append(img(m2))
        pos = m.end()
    out.append(section[pos:])
    return "".join(out)


def _walk(box):
    yield box
    for child in getattr(box, "children", ()) or ():
        yield from _walk(child)


def _text_boxes(box):
    # lazy: WeasyPrint is slow to import and only PDF rendering needs it
    from weasyprint.formatting_structure.boxes import TextBox

    return [b for b in _walk(box) if isinstance(b, TextBox)]


class _Slot:
    """Where one value of a form goes (CSS px, page coordinates, y down). ``styles``: the
    computed styles its text was laid out in, ``{"": plain text's, "b": the bold part's}``
    (a player's "<b>Surname</b> Name"), which :class:`_Shaper` shapes the values in."""

    __slots__ = ("kind", "x", "baseline", "width", "slack", "align", "box", "css", "styles")

    def __init__(self, kind, x=0.0, baseline=0.0, width=0.0, slack=0.0, align="left", box=None, css="",
                 styles=None):
        self.kind, self.x, self.baseline, self.width = kind, x, baseline, width
        self.slack, self.align, self.box, self.css = slack, align, box, css
        self.styles = styles or {}


def _slots(page_box, count: int) -> list[_Slot] | None:
    """The :class:`_Slot` of every numbered value of a laid-out form; None when a value of
    the shape's first sheet took more than one line (that form cannot be reused)."""
    # lazy: WeasyPrint is slow to import and only PDF rendering needs it
    from weasyprint.formatting_structure.boxes import InlineBox, LineBox, ReplacedBox

    found: dict[int, _Slot] = {}
    owner, container_of = {}, {}
    for parent in _walk(page_box):
        for line in getattr(parent, "children", ()) or ():
            if isinstance(line, LineBox):
                container_of[id(line)] = parent
                for b in _walk(line):
                    owner[id(b)] = line
    for b in _walk(page_box):
        el = getattr(b, "element", None)
        if el is None or el.get("data-i") is None or getattr(b, "element_tag", None) is None:
            continue
        if not isinstance(b, (InlineBox, ReplacedBox)):  # a value's text box: read with its span
            continue
        i = int(el.get("data-i"))
        if isinstance(b, ReplacedBox):
            found[i] = _Slot("img", x=b.content_box_x(), baseline=b.content_box_y(), width=b.width,
                             box=(b.width, b.height))
            continue
        if i in found:  # a value split over two lines
            return None
        texts = _text_boxes(b)
        line = owner.get(id(b))
        if not texts or line is None:
            return None
        start = min(t.position_x for t in texts)
        end = max(t.position_x + t.width for t in texts)
        content = _text_boxes(line)
        used = max(t.position_x + t.width for t in content) - min(t.position_x for t in content)
        container = container_of[id(line)].width  # the block's content width: the line's room
        align = line.style["text_align_all"]
        styles = {}
        for t in texts:  # a text box inside <b> carries the <b>'s tag (WeasyPrint's anonymous boxes)
            styles.setdefault("b" if t.element_tag == "b" else "", t.style)
        found[i] = _Slot("text", x=start, baseline=texts[0].position_y + texts[0].baseline, width=end - start,
                         slack=container - used, align=align, css=_css(b.style), styles=styles)
    if len(found) != count:
        return None
    return [found[i] for i in range(count)]


_STYLE_KEYS = ("font_family", "font_size", "font_weight", "font_style", "font_stretch", "letter_spacing",
               "word_spacing", "font_variant_numeric", "font_kerning")


def _css(style) -> str:
    """Inline CSS reproducing a value's font and colour (``style``: WeasyPrint's computed style)."""
    family = ", ".join("'" + f + "'" for f in style["font_family"])
    color = style["color"]
    red, green, blue = color.to("srgb").coordinates
    rgba = f"rgba({red * 255:.3f},{green * 255:.3f},{blue * 255:.3f},{color.alpha})"
    spacing = style["letter_spacing"]
    spacing = f"{spacing}px" if isinstance(spacing, (int, float)) else "normal"
    return (f"font-family: {family}; font-size: {style['font_size']}px; font-weight: {style['font_weight']}; "
            f"font-style: {style['font_style']}; letter-spacing: {spacing}; color: {rgba}")


VALUE_RE = re.compile(r"(?:<b>([^<]*)</b>)?([^<]*)")


class _Shaper:
    """Values written as PDF text operators by WeasyPrint's own text drawing, without laying
    a document out: each run of text is shaped by Pango in the computed style it had on the
    form (``weasyprint.text.line_break.Layout``: same fonts, kerning, letter spacing) and
    drawn by ``weasyprint.draw.text.draw_first_line``, which also records the glyphs used in
    :attr:`fonts` (WeasyPrint's ``Font`` objects); :meth:`font_resources` then embeds those
    fonts, subset to the glyphs drawn, as WeasyPrint embeds a document's.

    Before, every distinct value was laid out once as a line of a WeasyPrint document (0.5 ms
    a line, 39 pages of lines for 125 score sheets: 60% of a sheets part's CPU); a run
    shaped here costs some 0.05 ms."""

    def __init__(self):
        self.fonts: dict = {}
        self.runs: dict[tuple[str, str], tuple[list[bytes], float]] = {}

    def run(self, style, text: str) -> tuple[list[bytes], float]:
        """(operators between ``BT`` and ``ET`` but the text matrix: font and glyphs, width in
        CSS px) of ``text`` (plain, unescaped) in the computed ``style``."""
        key = (_css(style), text)
        if key not in self.runs:
            # lazy: WeasyPrint is slow to import and only PDF rendering needs it
            from types import SimpleNamespace

            from weasyprint.draw.text import draw_first_line
            from weasyprint.matrix import Matrix
            from weasyprint.pdf.stream import Stream
            from weasyprint.text.line_break import Layout, line_size

            layout = Layout(style)
            layout.set_text(text, justify=True)
            line, _index = layout.get_first_line()
            width, _height = line_size(line, style)
            stream = Stream(self.fonts, None, None, None, None, None, None)
            draw_first_line(stream, SimpleNamespace(text=text, style=style, pango_layout=layout), "clip", "none",
                            Matrix(d=-1))
            ops = [op if isinstance(op, bytes) else str(op).encode() for op in stream.stream]
            red, green, blue = style["color"].to("srgb").coordinates
            color = b"%.6g %.6g %.6g rg" % (red, green, blue)
            self.runs[key] = ([color] + [op for op in ops if not op.endswith(b"Tm")], width)
        return self.runs[key]

    def value(self, slot: "_Slot", value: str) -> list[tuple[float, list[bytes], float]] | None:
        """The runs of one value (HTML: text, or "<b>bold</b> text") in ``slot``'s styles:
        ``[(x offset from the value's start, operators, width), …]``, None when the form has
        no style for a part of it (its first sheet had no bold part there), its colour is
        not opaque (drawn with a graphics state the stamped page does not have) or its text
        is transformed by CSS (``text-transform``)."""
        # lazy: the HTML escapes of the values are only read here
        import html as html_module

        m = VALUE_RE.fullmatch(value)
        if m is None:
            return None
        out, x = [], 0.0
        for part, text in (("b", m.group(1)), ("", m.group(2))):
            if not text:
                continue
            style = slot.styles.get(part)
            # a transformed text (uppercase…) is changed by WeasyPrint before the layout, not here
            if style is None or style["color"].alpha != 1 or style["text_transform"] != "none":
                return None
            ops, width = self.run(style, html_module.unescape(text))
            out.append((x, ops, width))
            x += width
        return out

    def font_resources(self):
        """The ``/Font`` dictionary (pypdf) of a one-page PDF that embeds every font drawn so
        far, subset to its glyphs (``weasyprint.pdf.fonts.build_fonts_dictionary``, as for any
        WeasyPrint document); None when nothing was drawn."""
        if not self.fonts:
            return None
        # lazy: WeasyPrint is slow to import and only PDF rendering needs it
        import weasyprint
        from pypdf import PdfReader

        doc = weasyprint.HTML(string="<!DOCTYPE html><html><body></body></html>").render()
        doc.fonts.update(self.fonts)  # generate_pdf embeds the document's fonts, drawn or not
        return PdfReader(io.BytesIO(doc.write_pdf())).pages[0]["/Resources"]["/Font"]


def _png_image(src: str):
    """A QR code's ``data:image/png;base64,…`` URI as a 1-bit PDF image (width, height, data)."""
    # lazy: Pillow is only needed to decode the QR codes' images
    from PIL import Image

    raw = base64.b64decode(src.split(",", 1)[1])
    img = Image.open(io.BytesIO(raw)).convert("1")
    return img.width, img.height, zlib.compress(img.tobytes())


FINDER_PAGE_TOKEN = re.compile(r"FINDERPAGE(\d+)")


def render_finder(html: str, *, before: int) -> bytes:
    """PDF bytes of the seat finder's pages (``documents.tablelist_html(part="finder")``),
    stamped a row at a time (:func:`_finder_rows`) or else like the score sheets, one form a
    page shape, as the last pages of a table list
    whose first ``before`` pages (by table) are rendered apart: the footers' page numbers
    (``FINDERPAGE<i> / FINDERPAGES``) become ``before + i`` / ``before`` + the finder's pages."""
    count = len(FINDER_PAGE_RE.findall(html))
    html = FINDER_PAGE_TOKEN.sub(lambda m: str(before + int(m.group(1))), html)
    html = html.replace("FINDERPAGES", str(before + count))
    try:
        return _finder_rows(html)
    except NotStampable:  # a name of two lines, a page that runs over: one form a page shape
        return render_sheets(html, units=FINDER_PAGE_RE)


TBODY_RE = re.compile(r"(<tbody>)(.*?)(</tbody>)", re.S)


def _first_rows(section: str) -> str:
    """A seat finder page with each column's first row only, tagged ``data-r`` 0, 1."""
    column = iter(range(2))

    def first(t):
        rows = ROW_RE.findall(t.group(2))[:1]
        return t.group(1) + "".join(r.replace("<tr", f'<tr data-r="{next(column)}"', 1) for r in rows) + t.group(3)

    return TBODY_RE.sub(first, section)


def _finder_rows(html: str) -> bytes:
    """The seat finder's pages (their page numbers filled in) stamped a row at a time, as
    :func:`render_table_pages` stamps the standings: one WeasyPrint document of the pages
    with each column's first row only (it gives where the rows start, and draws the title,
    the header rows and the footer), one form a row shape, moved under them row after row,
    every cell a value. Raises :class:`NotStampable` when a value does not fit its cell on
    one line or the rows would run past the page's end (:func:`documents.finder_pages`
    counts lines by characters), for the caller to stamp a page at a time."""
    # lazy: WeasyPrint and pypdf are slow to import and only PDF rendering needs them
    import weasyprint
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DictionaryObject, NameObject

    sections = list(FINDER_PAGE_RE.finditer(html))
    if not sections:
        raise NotStampable("no pages")
    head, tail = html[: sections[0].start()], html[sections[-1].end():]
    pages = []  # per page: [rows of the left column, rows of the right one]
    frames = []
    for m in sections:
        columns = [ROW_RE.findall(t.group(2)) for t in TBODY_RE.finditer(m.group(0))]
        if not columns or len(columns) > 2:
            raise NotStampable("not one or two columns")
        pages.append(columns)
        frames.append(_first_rows(m.group(0)))
    fdoc = weasyprint.HTML(string=head + "\n".join(frames) + tail).render()
    if len(fdoc.pages) != len(pages):
        raise NotStampable("the frames did not come out one a page")
    starts = []  # per page, per column: (x, y, height) of its first row
    for page in fdoc.pages:
        found = {}
        for b in _walk(page._page_box):
            el = getattr(b, "element", None)
            if type(b).__name__ == "TableRowBox" and el is not None and el.get("data-r") is not None:
                found.setdefault(int(el.get("data-r")), (b.position_x, b.position_y, b.height))
        starts.append(found)
    end = fdoc.pages[0]._page_box.content_box_y() + fdoc.pages[0]._page_box.height
    frame_pages = PdfReader(io.BytesIO(fdoc.write_pdf())).pages

    # one row of each shape, alone in a column's table
    keys = {}
    for columns in pages:
        for rows in columns:
            for row in rows[1:]:
                keys.setdefault(_row_key(row), row)
    samples = list(keys)
    forms = []
    if samples:
        table = re.search(r'(<div class="cols"><div class="col fl"><table class="fx">.*?)<thead>.*?</thead>',
                          html[sections[0].start():], re.S)
        if table is None:
            raise NotStampable("no column table")
        form_head = head.replace("</style>", HIDE + "\n.fpage + .fpage { break-before: page; }\n"
                                 "@page { @bottom-left { content: none; } @bottom-right { content: none; } }"
                                 "\n</style>", 1)
        tagged = [_numbered(keys[key]).replace("<tr", '<tr data-r="0"', 1) for key in samples]
        body = "\n".join(f'<section class="fpage"><div class="fp">{table.group(1)}<tbody>{row}'
                         "</tbody></table></div></div></div></section>" for row in tagged)
        doc = weasyprint.HTML(string=form_head + body + tail).render()
        if len(doc.pages) != len(samples):
            raise NotStampable("a row's form did not come out one a page")
        pdf_pages = PdfReader(io.BytesIO(doc.write_pdf())).pages
        for key, page, pdf_page in zip(samples, doc.pages, pdf_pages, strict=True):
            row = next((b for b in _walk(page._page_box) if type(b).__name__ == "TableRowBox"
                        and getattr(b, "element", None) is not None and b.element.get("data-r")), None)
            slots = _slots(page._page_box, len(_fields(keys[key])))
            if row is None or slots is None:
                raise NotStampable("a row's form has no place for its values")
            if b"BT" in pdf_page.get_contents().get_data():
                raise NotStampable("a row's form has text")
            forms.append((pdf_page, row.position_x, row.position_y, row.height, slots))
    form_of = {key: k for k, key in enumerate(samples)}

    shaper = _Shaper()
    placed = []  # per page: [(form, dx, dy, row), …]
    for columns, found in zip(pages, starts, strict=True):
        rows_here = []
        for c, rows in enumerate(columns):
            if len(rows) < 2:
                continue
            if c not in found:
                raise NotStampable("a column's first row was not found")
            x, y, h = found[c]
            y += h
            for row in rows[1:]:
                k = form_of[_row_key(row)]
                _page, fx, fy, fh, slots = forms[k]
                if y + fh > end + 0.01:
                    raise NotStampable("the rows run past the page's end")
                runs = []
                for (kind, value), slot in zip(_fields(row), slots, strict=True):
                    shaped = shaper.value(slot, value) if kind == "text" and value.strip() else None
                    if shaped is not None and shaped[-1][0] + shaped[-1][2] - slot.width > max(slot.slack, 0.0) + 0.01:
                        raise NotStampable("a value does not fit its cell")
                    if kind == "text" and value.strip() and shaped is None:
                        raise NotStampable("a value has no style")
                    runs.append((shaped, slot))
                rows_here.append((k, x - fx, y - fy, runs))
                y += fh
        placed.append(rows_here)
    fonts = shaper.font_resources()

    writer = PdfWriter()
    font_ref = fonts.clone(writer) if fonts is not None else None
    row_refs = [_form_xobject(writer, form[0]) for form in forms]
    for frame, rows_here in zip(frame_pages, placed, strict=True):
        height = float(frame.mediabox.height)
        xobjects = DictionaryObject({NameObject("/F0"): _form_xobject(writer, frame)})
        ops, values = [b"q /F0 Do Q"], [b"1 0 0 -1 0 %.6f cm" % height, b"0.75 0 0 0.75 0 0 cm"]
        for k, dx, dy, runs in rows_here:
            name = NameObject(f"/R{k}")
            xobjects[name] = row_refs[k]
            ops.append(b"q 1 0 0 1 %.4f %.4f cm %s Do Q" % (dx * 0.75, -dy * 0.75, name.encode()))
            for shaped, slot in runs:
                if shaped is not None:
                    values.extend(_value_ops(shaped, slot, dy, dx))
        _add_page(writer, float(frame.mediabox.width), height, xobjects, font_ref, ops + [b"q"] + values + [b"Q"])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _forms(firsts: list[str], form_head: str, tail: str) -> list[tuple]:
    """The form of each shape, from its first unit's HTML (``firsts``): ``(PDF page of the
    form, its slots)``, or ``(None, None)`` when the form cannot be reused (a value on two
    lines, a unit longer than a page). All laid out in one document when each comes out
    one page, else one by one."""
    # lazy: WeasyPrint is slow to import and only PDF rendering needs it
    import weasyprint
    from pypdf import PdfReader

    counts = [len(_fields(section)) for section in firsts]
    numbered = [_numbered(section) for section in firsts]
    if len(firsts) > 1:
        doc = weasyprint.HTML(string=form_head + "\n".join(numbered) + tail).render()
        if len(doc.pages) == len(firsts):
            slots = [_slots(page._page_box, count) for page, count in zip(doc.pages, counts, strict=True)]
            pages = PdfReader(io.BytesIO(doc.write_pdf())).pages
            return [(pages[k], slot) if slot else (None, None) for k, slot in enumerate(slots)]
    forms = []
    for html, count in zip(numbered, counts, strict=True):
        doc = weasyprint.HTML(string=form_head + html + tail).render()
        slots = _slots(doc.pages[0]._page_box, count) if len(doc.pages) == 1 else None
        forms.append((PdfReader(io.BytesIO(doc.write_pdf())).pages[0], slots) if slots else (None, None))
    return forms


class NotStampable(Exception):
    """A page cannot be stamped (a value longer than its line, a form taller than a page):
    the caller lays the document out whole with WeasyPrint instead."""


def render_sheets(html: str, *, units: re.Pattern | None = None) -> bytes:
    """PDF bytes of the score sheets ``html`` (``documents.scoresheets_html``: A4, or A5 two
    to a page, each page then one unit of shape and values): the same pages WeasyPrint
    renders from it, stamped on one form a shape (module docstring). HTML without sheets
    is rendered as is. ``units``: the pattern of one page's HTML, when not a score sheet's
    (:data:`FINDER_PAGE_RE`)."""
    # lazy: WeasyPrint is slow to import and only PDF rendering needs it
    import weasyprint
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (
        DictionaryObject,
        NameObject,
    )

    # one page a unit: a sheet (A4), or the page of two A5 sheets
    if units is None:
        units = A5_PAGE_RE if '<div class="pg">' in html else SECTION_RE
    sections = list(units.finditer(html))
    if not sections:
        return weasyprint.HTML(string=html).write_pdf()
    head, tail = html[: sections[0].start()], html[sections[-1].end():]
    form_head = head.replace("</style>", HIDE + "\n</style>", 1)

    def whole(texts: list[str]) -> bytes:
        return weasyprint.HTML(string=head + "\n".join(texts) + tail).write_pdf()

    # 1-2. one form a shape, and where its values go: the shapes' first units laid out in
    # one document (a layout's fixed cost, styles and fonts, paid once), one page each
    shapes: dict[str, int] = {}
    sheet_shape, sheet_fields, firsts = [], [], []
    for m in sections:
        section = m.group(0)
        key = _shape(section)
        if key not in shapes:
            shapes[key] = len(firsts)
            firsts.append(section)
        sheet_shape.append(shapes[key])
        sheet_fields.append(_fields(section))
    forms = _forms(firsts, form_head, tail)  # (PDF page of the form, slots) or (None, None)

    # 3. every value shaped in its slot's styles (each distinct run once), and which sheets
    # are stamped, which rendered whole (a value that would not fit, or not shaped)
    shaper = _Shaper()
    shaped: dict[tuple[int, int], list] = {}  # (sheet, field) → the value's runs

    def fits(n, s, fields) -> bool:
        slots = forms[s][1]
        if slots is None:
            return False
        for f, ((kind, value), slot) in enumerate(zip(fields, slots, strict=True)):
            if kind != "text" or not value.strip():
                continue
            runs = shaper.value(slot, value)
            if runs is None:
                return False
            x, _ops, width = runs[-1]
            # a form's value wider than its cell (a table number of three digits) overflows
            # it: a value as wide, not wider, goes to the same place
            if x + width - slot.width > max(slot.slack, 0.0) + 0.01:
                return False
            shaped[(n, f)] = runs
        return True

    stamped = [fits(n, s, f) for n, (s, f) in enumerate(zip(sheet_shape, sheet_fields, strict=True))]
    fonts = shaper.font_resources()
    fallback_pages = []  # the pages of each sheet rendered whole, in order
    odd = [m.group(0) for m, ok in zip(sections, stamped, strict=True) if not ok]
    if odd:
        pages = list(PdfReader(io.BytesIO(whole(odd))).pages)
        if len(pages) == len(odd):
            fallback_pages = [[page] for page in pages]
        else:  # a sheet ran onto a second page: render them one by one to know whose it is
            fallback_pages = [list(PdfReader(io.BytesIO(whole([o]))).pages) for o in odd]

    # 4. the pages
    writer = PdfWriter()
    font_ref = fonts.clone(writer) if fonts is not None else None
    form_refs = {s: (_form_xobject(writer, page), float(page.mediabox.height))
                 for s, (page, _s) in enumerate(forms) if page is not None}
    images = _Images(writer)
    odd_pages = iter(fallback_pages)
    page_width = float(next(f for f, _s in forms if f is not None).mediabox.width) if form_refs else 595.275591
    for n, (s, fields, ok) in enumerate(zip(sheet_shape, sheet_fields, stamped, strict=True)):
        if not ok:
            for page in next(odd_pages):
                writer.add_page(page)
            continue
        form_ref, height = form_refs[s]
        # the form is drawn in PDF space; the values in WeasyPrint's (px, y down)
        ops = [b"q /F0 Do Q", b"1 0 0 -1 0 %.6f cm" % height, b"0.75 0 0 0.75 0 0 cm"]
        xobjects = DictionaryObject({NameObject("/F0"): form_ref})
        for f, ((kind, value), slot) in enumerate(zip(fields, forms[s][1], strict=True)):
            if kind == "img":
                if value:
                    ops.append(images.draw(value, slot, xobjects))
            elif value.strip():
                ops.extend(_value_ops(shaped[(n, f)], slot))
        _add_page(writer, page_width, height, xobjects, font_ref, ops)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


#: A document whose pages are one table of rows (``documents.tablelist_html(part="tables")``,
#: ``documents.standings_html``): what precedes the table on page 1, the table's opening
#: (colgroup, header row), its rows, and what follows it.
TABLE_DOC_RE = re.compile(
    r'\A(?P<head>.*?<body>)(?P<top>.*?)(?P<open><table class="(?:bytable fx|st)">.*?<tbody>)'
    r'(?P<rows>.*?)</tbody>\s*</table>(?P<after>.*?)(?P<tail></body>.*)\Z', re.S)
ROW_RE = re.compile(r"<tr\b.*?</tr>", re.S)
#: A cell holding only text, or a bold text then text ("<b>Riposo</b>"): its text becomes a value.
CELL_RE = re.compile(r"(<td\b[^>]*>)((?:<b>[^<]*</b>)?[^<]*)(</td>)")
#: A row whose bottom comes this close (CSS px) to the page's end is too near to call:
#: the document is laid out whole instead.
BREAK_MARGIN = 0.5


def _valued_row(row: str) -> str:
    """A table row with its text cells and its QR code marked as values (``<span class="v">``,
    ``<img class="qrimg v">``): a row's shape is then its cells and classes."""
    row = CELL_RE.sub(lambda m: m.group(0) if not m.group(2).strip() else
                      f'{m.group(1)}<span class="v">{m.group(2)}</span>{m.group(3)}', row)
    return row.replace('<img class="qrimg" src="', '<img class="qrimg v" src="')


#: Width (CSS px, DejaVu Sans at 9 pt) above which a value may not fit on one line of its
#: column: the narrowest column of names, the table list's beside the QR codes, has about
#: 242 px; such a row is laid out in the probe with its own values (:func:`_long_rows`).
LONG_PX = 230
#: More rows than this that may take two lines: the document is laid out whole.
MAX_LONG_ROWS = 6


def _long_rows(rows: list[str]) -> set[int]:
    """Indexes of the rows with a value that may take two lines: wider than :data:`LONG_PX`
    by the font's advance widths (Pillow, no layout). A row missed here is caught when it
    is stamped (:func:`render_table_pages`). Raises :class:`NotStampable` when there
    are more than :data:`MAX_LONG_ROWS` or the font cannot be read."""
    # lazy: Pillow is only needed for print jobs
    from PIL import ImageFont

    try:
        font = ImageFont.truetype("DejaVuSans.ttf", 12)  # 9 pt, the print templates' size
    except OSError as exc:
        raise NotStampable("no DejaVu Sans to measure the names") from exc
    found = set()
    for i, row in enumerate(rows):
        for m in TEXT_RE.finditer(row):
            text = html_module.unescape(re.sub(r"<[^>]*>", "", m.group(1)))
            if len(text) > 20 and font.getlength(text) > LONG_PX:
                found.add(i)
                break
    if len(found) > MAX_LONG_ROWS:
        raise NotStampable("too many rows of two lines")
    return found


def _page_breaks(head: str, top: str, table_open: str, rows: list[str], shapes: list[str],
                 measured: set[int] = frozenset()) -> tuple[list[int], list[float]]:
    """Where WeasyPrint breaks the table of ``rows`` into pages, computed from one small
    layout (the probe): the first row of every shape (``shapes``, one a row) and the rows
    ``measured`` (their values may take two lines: :func:`_long_rows`), under the page's
    title and the header row. It gives the first row's place on page 1, each shape's height
    and the page's end; on a following page the rows start as far below the page's top as
    they start below the table's top on page 1 (the header row repeated, nothing above it).
    A row goes on the next page when its bottom passes the page's end, as WeasyPrint breaks
    a row that must not be split (``tr { break-inside: avoid }``). Returns the index of each
    page's first row (``[0, 14, 31, …]``) and every row's top on its page (CSS px, y down, as
    WeasyPrint places its ``TableRowBox``). Raises :class:`NotStampable` when the samples do
    not fit page 1 or a row ends within :data:`BREAK_MARGIN` of a page's end.

    (The probe used to run onto page 2 with copies of the first row, to read where page 2's
    rows start: that place is the same offset from the table's top, and the copies were
    most of the probe's cost.)"""
    # lazy: WeasyPrint is slow to import and only PDF rendering needs it
    import weasyprint

    samples = list(dict.fromkeys(shapes))
    first = {shape: rows[shapes.index(shape)] for shape in samples}
    long = sorted(measured)
    probe_rows = [first[s] for s in samples] + [rows[i] for i in long]
    tagged = [r.replace("<tr", f'<tr data-r="{i}"', 1) for i, r in enumerate(probe_rows)]
    doc = weasyprint.HTML(string=head + top + table_open + "\n".join(tagged) + "</tbody></table></body></html>").render()
    page_box = doc.pages[0]._page_box
    placed, table_top = {}, None  # probe row → (y, height); the table's top on page 1
    for box in _walk(page_box):
        name = type(box).__name__
        el = getattr(box, "element", None)
        if name == "TableBox" and table_top is None:
            table_top = box.position_y
        elif name == "TableRowBox" and el is not None and el.get("data-r") is not None:
            placed.setdefault(int(el.get("data-r")), (box.position_y, box.height))
    if len(placed) != len(probe_rows) or table_top is None:
        raise NotStampable("the probe's samples do not fit page 1")
    height = {shape: placed[i][1] for i, shape in enumerate(samples)}
    own = {i: placed[k][1] for k, i in enumerate(long, start=len(samples))}  # a measured row's own height
    start1 = placed[0][0]
    start2 = page_box.content_box_y() + (start1 - table_top)
    end = page_box.content_box_y() + page_box.height
    breaks, y, tops = [0], start1, []
    for i, shape in enumerate(shapes):
        h = own.get(i, height[shape])
        if abs(y + h - end) < BREAK_MARGIN:
            raise NotStampable("a row ends at the page's end")
        if y + h > end and i > breaks[-1]:
            breaks.append(i)
            y = start2
        tops.append(y)
        y += h
    return breaks, tops


def _row_key(row: str) -> str:
    """A row's shape: its HTML with the values blanked, and the digits of its first value
    (a table number of three digits overflows the cell where one of one digit is centred)."""
    first = (TEXT_RE.findall(row) or [""])[0]
    return _shape(row) + f"<!-- {len(first)} -->"


def render_table_pages(html: str, *, extra_pages: int = 0) -> tuple[bytes, int]:
    """PDF bytes and page count of a document whose pages are one table of rows (the table
    list's pages by table, ``documents.tablelist_html(part="tables")``, whose ``extra_pages``
    trailing blank pages, one a seat finder page, only make the footers count the whole list
    and are dropped; the standings, ``documents.standings_html``, with the notes under the
    table), stamped **a row at a time**:

    1. the pages are cut in Python where WeasyPrint cuts them (:func:`_page_breaks`: one
       small layout, the probe, gives each row shape's height and the page's end);
    2. one WeasyPrint document lays out every page's **frame**: the title on page 1, the
       header row, the footer («pagina N / M», counted by WeasyPrint), and no rows; a page
       with a row of two lines (:func:`_long_rows`) and the last page of the standings (the
       notes follow the rows) are laid out there whole, rows included;
    3. another lays out **one row of each shape** (the row alone in the table's columns, its
       values hidden), a form a shape (borders, stripes), and where its values go;
    4. every other page draws its frame, then each row's form moved to the row's place, then
       the values (shaped by :class:`_Shaper`) and the captains' QR codes.

    A row drawn alone draws all four borders: the border it shares with the row above is
    drawn twice at the same place, in the same colour, as WeasyPrint's collapsed borders
    draw it once. Raises :class:`NotStampable` for what it does not cut (another table beside
    the rows: a team round's matches, the standings by group; more than
    :data:`MAX_LONG_ROWS` long rows; a value wider than its cell that was not measured;
    pages that do not come out as planned): the worker then lays the document out whole."""
    # lazy: WeasyPrint and pypdf are slow to import and only PDF rendering needs them
    import weasyprint
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DictionaryObject, NameObject

    m = TABLE_DOC_RE.match(html)
    if m is None or '<table class="bymatch">' in html or '<h2 class="group">' in html:
        raise NotStampable("not a single table of rows")
    rows = [_valued_row(r) for r in ROW_RE.findall(m["rows"])]
    if not rows:
        raise NotStampable("no rows")
    tablelist = "bytable" in m["open"]
    after = "" if tablelist else m["after"]  # the table list's blank pages come after the frames
    blanks = m["after"] if tablelist else ""
    long = _long_rows(rows)
    keys = [_row_key(r) for r in rows]
    breaks, tops = _page_breaks(m["head"], m["top"], m["open"], rows, keys, long)
    bounds = list(zip(breaks, breaks[1:] + [len(rows)], strict=True))
    last = len(bounds) - 1
    whole = {n for n, (a, b) in enumerate(bounds)
             if any(a <= i < b for i in long) or (n == last and after.strip())}

    # 2. the frames (and the pages laid out whole)
    sections = []
    for n, (a, b) in enumerate(bounds):
        sections.append('<section class="tpage">' + (m["top"] if n == 0 else "") + m["open"]
                        + ("\n".join(rows[a:b]) if n in whole else "") + "</tbody></table>"
                        + (after if n == last else "") + "</section>")
    head = m["head"].replace("</style>", ".tpage + .tpage { break-before: page; }\n</style>", 1)
    frames = weasyprint.HTML(string=head + "\n".join(sections) + blanks + m["tail"]).render()
    if len(frames.pages) != len(bounds) + extra_pages:
        raise NotStampable("the frames did not come out one a page")
    frame_pages = PdfReader(io.BytesIO(frames.copy(frames.pages[:len(bounds)]).write_pdf())).pages

    # 3. one row of each shape, alone on a page, in the table's columns
    samples = list(dict.fromkeys(keys[i] for n, (a, b) in enumerate(bounds) if n not in whole for i in range(a, b)))
    first = {key: rows[keys.index(key)] for key in samples}
    table_open = re.sub(r"<thead>.*?</thead>", "", m["open"], flags=re.S)
    form_head = m["head"].replace("</style>", HIDE + "\n@page { @bottom-left { content: none; } "
                                  "@bottom-right { content: none; } }\n.tpage + .tpage { break-before: page; }"
                                  "\n</style>", 1)
    form_rows = [_numbered(first[key]).replace("<tr", '<tr data-r="1"', 1) for key in samples]
    forms = []  # (pdf page, row's top, slots) by shape
    if samples:
        doc = weasyprint.HTML(string=form_head + "\n".join(
            f'<section class="tpage">{table_open}{row}</tbody></table></section>' for row in form_rows)
            + m["tail"]).render()
        if len(doc.pages) != len(samples):
            raise NotStampable("a row's form did not come out one a page")
        pdf_pages = PdfReader(io.BytesIO(doc.write_pdf())).pages
        for key, page, pdf_page in zip(samples, doc.pages, pdf_pages, strict=True):
            top = next((b.position_y for b in _walk(page._page_box) if type(b).__name__ == "TableRowBox"
                        and getattr(b, "element", None) is not None and b.element.get("data-r")), None)
            slots = _slots(page._page_box, len(_fields(first[key])))
            if top is None or slots is None:
                raise NotStampable("a row's form has no place for its values")
            if b"BT" in pdf_page.get_contents().get_data():  # text moved with a form: pypdf would
                raise NotStampable("a row's form has text")  # extract it at the form's own place
            forms.append((pdf_page, top, slots))
    form_of = {key: k for k, key in enumerate(samples)}

    # values: every stamped row's values must fit their cells (a row of two lines not
    # measured would move the page breaks)
    shaper = _Shaper()
    shaped = {}
    for n, (a, b) in enumerate(bounds):
        if n in whole:
            continue
        for i in range(a, b):
            slots = forms[form_of[keys[i]]][2]
            for f, ((kind, value), slot) in enumerate(zip(_fields(rows[i]), slots, strict=True)):
                if kind != "text" or not value.strip():
                    continue
                runs = shaper.value(slot, value)
                if runs is None or runs[-1][0] + runs[-1][2] - slot.width > max(slot.slack, 0.0) + 0.01:
                    raise NotStampable("a value does not fit its cell")
                shaped[(i, f)] = runs
    fonts = shaper.font_resources()

    # 4. the pages
    writer = PdfWriter()
    font_ref = fonts.clone(writer) if fonts is not None else None
    row_refs = [_form_xobject(writer, page) for page, _top, _slots in forms]
    images = _Images(writer)
    for n, (a, b) in enumerate(bounds):
        if n in whole:
            writer.add_page(frame_pages[n])
            continue
        frame = frame_pages[n]
        height = float(frame.mediabox.height)
        xobjects = DictionaryObject({NameObject("/F0"): _form_xobject(writer, frame)})
        ops = [b"q /F0 Do Q"]
        values = [b"1 0 0 -1 0 %.6f cm" % height, b"0.75 0 0 0.75 0 0 cm"]
        for i in range(a, b):
            k = form_of[keys[i]]
            _page, top, slots = forms[k]
            dy = tops[i] - top  # CSS px, y down
            name = NameObject(f"/R{k}")
            xobjects[name] = row_refs[k]
            ops.append(b"q 1 0 0 1 0 %.4f cm %s Do Q" % (-dy * 0.75, name.encode()))
            for f, ((kind, value), slot) in enumerate(zip(_fields(rows[i]), slots, strict=True)):
                if kind == "img":
                    if value:
                        values.append(images.draw(value, slot, xobjects, dy))
                    continue
                if (i, f) in shaped:
                    values.extend(_value_ops(shaped[(i, f)], slot, dy))
        _add_page(writer, float(frame.mediabox.width), height, xobjects, font_ref, ops + [b"q"] + values + [b"Q"])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), len(bounds)


def _add_page(writer, width: float, height: float, xobjects, font_ref, ops: list[bytes]) -> None:
    """A page of ``width`` × ``height`` points appended to ``writer``: its resources the
    form XObjects ``xobjects`` (and the values' fonts ``font_ref``, when any), its content
    the operators ``ops``, deflated."""
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    page = writer.add_blank_page(width, height)
    resources = DictionaryObject({NameObject("/XObject"): xobjects})
    if font_ref is not None:
        resources[NameObject("/Font")] = font_ref
    page[NameObject("/Resources")] = resources
    stream = DecodedStreamObject()
    stream.set_data(b"\n".join(ops))
    page[NameObject("/Contents")] = writer._add_object(stream.flate_encode())


def _value_ops(runs: list, slot: _Slot, dy: float = 0.0, dx: float = 0.0) -> list[bytes]:
    """The text operators drawing one shaped value (:meth:`_Shaper.value`) in ``slot``, moved
    down by ``dy`` and right by ``dx`` CSS px, aligned as the slot's line is (left, right or
    centred)."""
    width = runs[-1][0] + runs[-1][2]
    if slot.align in ("right", "end"):
        x = slot.x + slot.width - width
    elif slot.align == "center":
        x = slot.x + (slot.width - width) / 2
    else:
        x = slot.x
    x += dx
    ops = []
    for dx, text_ops, _width in runs:
        ops.append(b"BT")
        ops.append(b"1 0 0 -1 %.4f %.4f Tm" % (x + dx, slot.baseline + dy))
        ops.extend(text_ops)
        ops.append(b"ET")
    return ops


def _form_xobject(writer, page):
    """A reference to a form XObject (in ``writer``) drawing the pypdf ``page``'s content with
    its resources, in the page's own coordinates."""
    # lazy: pypdf is only needed when PDFs are read or joined
    from pypdf.generic import ArrayObject, DecodedStreamObject, FloatObject, NameObject

    xobj = DecodedStreamObject()
    xobj.set_data(page.get_contents().get_data())
    box = page.mediabox
    xobj.update({
        NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject([FloatObject(v) for v in (box.left, box.bottom, box.right, box.top)]),
        NameObject("/Resources"): page["/Resources"].clone(writer),
    })
    return writer._add_object(xobj.flate_encode())


class _Images:
    """The QR codes of a stamped part as 1-bit image XObjects in ``writer``, each stored once:
    :meth:`name` gives an image's resource name, :attr:`refs` its reference."""

    def __init__(self, writer):
        self.writer = writer
        self.names: dict[str, object] = {}
        self.refs: dict = {}

    def name(self, src: str):
        """The resource name (``/Q<n>``) of the image ``src`` (a PNG ``data:`` URI)."""
        # lazy: pypdf is only needed when PDFs are read or joined
        from pypdf.generic import BooleanObject, DecodedStreamObject, NameObject, NumberObject

        if src not in self.names:
            w, h, data = _png_image(src)
            img = DecodedStreamObject()
            img._data = data
            img.update({
                NameObject("/Type"): NameObject("/XObject"), NameObject("/Subtype"): NameObject("/Image"),
                NameObject("/Width"): NumberObject(w), NameObject("/Height"): NumberObject(h),
                NameObject("/ColorSpace"): NameObject("/DeviceGray"), NameObject("/BitsPerComponent"): NumberObject(1),
                NameObject("/Interpolate"): BooleanObject(False), NameObject("/Filter"): NameObject("/FlateDecode"),
            })
            name = NameObject(f"/Q{len(self.names)}")
            self.refs[name] = self.writer._add_object(img)
            self.names[src] = name
        return self.names[src]

    def draw(self, src: str, slot: _Slot, xobjects, dy: float = 0.0) -> bytes:
        """The operator drawing the image ``src`` into ``slot``'s box, moved ``dy`` CSS px
        down (WeasyPrint's space: px, y down); its resource is added to ``xobjects``."""
        name = self.name(src)
        xobjects[name] = self.refs[name]
        w, h = slot.box
        return b"q %.4f 0 0 %.4f %.4f %.4f cm %s Do Q" % (w, -h, slot.x, slot.baseline + dy + h, name.encode())
