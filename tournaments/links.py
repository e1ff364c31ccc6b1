"""Moved to :mod:`tournaments.captains.links`; this old path re-exports it for the printing code."""
from .captains.links import (  # noqa: F401
    PRINT_QR_MASK,
    base_url,
    captain_url,
    qr_png_uri,
    qr_svg,
    team_captain_url,
)
