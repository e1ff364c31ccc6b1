"""Moved to :mod:`tournaments.printing.spreadsheets`; this module re-exports its public names for old imports."""
from .printing.spreadsheets import append_row, scoresheets_xlsx, standings_xlsx  # noqa: F401
