"""``{{ url|qr_png }}``: a URL's QR code as a PNG ``data:`` URI for the printed pages
(``links.qr_png_uri``, cached per process), e.g. the players' own pages on the score sheets."""
from django import template

from ..captains import links

register = template.Library()


@register.filter
def qr_png(url: str) -> str:
    """The QR code of ``url`` (a PNG data URI); "" for an empty URL."""
    return links.qr_png_uri(url) if url else ""
