"""Moved to :mod:`tournaments.printing.documents`; this module re-exports its public names for old imports."""
from .printing.documents import (  # noqa: F401
    FINDER_LINES, FINDER_LINES_FIRST, FINDER_WRAP, LineHand, PairInfo, PenaltyNote, RoundDocument, ScaleBand,
    SeatFinder, SheetHand, StandingLine, StandingsDocument, TableInfo, captain_qr, finder_pages, fmt_vp,
    html_to_pdf, last_closed_round, long_date, player_pages, round_document, round_session_text, scale_bands,
    scoresheets_html, scoresheets_pdf, session_label, standings_document, standings_html, standings_pdf,
    tablelist_html, tablelist_pdf, vp_number,
)
