"""Captain links and their QR codes (segno).

A table's private link is ``/c/<token>/``; the token is unguessable
(``models.new_token``). Phones must reach the arbiter's laptop, so the absolute
URL uses ``ARBITRO_PUBLIC_URL`` (e.g. ``http://192.168.1.20:8000``) when set, else
the host of the current request.
"""
from __future__ import annotations

import base64
import io
import os
from functools import lru_cache

import segno
from django.urls import reverse


def base_url(request=None) -> str:
    """Scheme and host that phones use to reach this server."""
    env = os.environ.get("ARBITRO_PUBLIC_URL", "").rstrip("/")
    if env:
        return env
    if request is not None:
        return request.build_absolute_uri("/").rstrip("/")
    return "http://127.0.0.1:8000"


def captain_url(table, request=None) -> str:
    """Absolute URL of the captain page of ``table``."""
    return base_url(request) + reverse("captain", args=[table.token])


def team_captain_url(team, request=None) -> str:
    """Absolute URL of the line-up page of ``team``'s captain (rules.md §15: the captain
    enters the team's line-up on the phone)."""
    return base_url(request) + reverse("team_captain", args=[team.token])


@lru_cache(maxsize=2048)
def qr_svg(url: str, scale: int = 3, *, sizable: bool = False) -> str:
    """An inline SVG QR code for ``url`` (no XML declaration, ready to embed in HTML/PDF).

    Always with a viewBox, so a size set by CSS scales the whole code, centred in its box
    (without one, a code drawn at ``scale`` stayed in the top-left corner of a wider box:
    off-centre on the captain links page). ``scale``: pixels per module of the width and
    height written on the element. ``sizable``: no width and height, CSS (or print) sets
    the size. Cached: a round's table list, score sheets and links page reuse the same codes.
    """
    code = segno.make(url, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", scale=scale, xmldecl=False, svgns=True, border=2, omitsize=True)
    svg = out.getvalue().decode()
    if not sizable:
        width, height = code.symbol_size(scale=scale, border=2)
        svg = svg.replace("<svg ", f'<svg width="{width}" height="{height}" ', 1)
    return svg


#: QR mask pattern of the printed codes (ISO/IEC 18004 allows any of 0–7; see qr_png_uri).
PRINT_QR_MASK = 0


@lru_cache(maxsize=2048)
def qr_png_uri(url: str, scale: int = 4) -> str:
    """``url``'s QR code as a ``data:image/png;base64,…`` URI for printed pages (a
    250-table pack must print in seconds).

    A 1-bit PNG of ``scale`` pixels per module (about 600 bytes), meant to be sized by CSS
    with ``image-rendering: pixelated`` so its squares stay sharp: WeasyPrint places an image
    in a few microseconds, where it parses an SVG path of some 400 segments per code (15 ms
    a table in ``bench/printing.py``). Cached like :func:`qr_svg`.

    The mask is fixed (:data:`PRINT_QR_MASK`): choosing the best of the eight costs about
    4 ms a code, 1 s of a 250-table pack, and any mask is a valid code every reader decodes.
    """
    out = io.BytesIO()
    segno.make(url, error="m", mask=PRINT_QR_MASK).save(out, kind="png", scale=scale, border=2)
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")
