"""The CSV/XLSX reader the member-list import uses.

The registry reuses the registration files' reader (``tournaments.registrations.reading.read_records``:
encodings, separators, XLSX, the caps on hostile files) without importing ``tournaments``
(this app sits below it): ``tournaments`` hands its reader over when Django starts
(``TournamentsConfig.ready``), through :func:`register_reader`.
"""
from __future__ import annotations

from typing import Callable


class TooManyRows(ValueError):
    """The file has more data rows than the caller's cap (reading stopped there)."""


_reader: dict = {}


def register_reader(read: Callable[..., list[list[str]]], *, too_many: type[Exception]) -> None:
    """Install ``read(filename, data, max_rows=N) -> rows of cells`` (the header first);
    ``too_many`` is the exception it raises past ``max_rows`` (turned into :class:`TooManyRows`)."""
    _reader["read"], _reader["too_many"] = read, too_many


def read_records(filename: str, data: bytes, *, max_rows: int) -> list[list[str]]:
    """The non-blank rows of a CSV or XLSX file as strings, header first.

    Raises :class:`TooManyRows` beyond ``max_rows`` data rows, ``ValueError`` (or the reader's
    own exception) for an unreadable file, ``RuntimeError`` when no reader was registered."""
    if "read" not in _reader:
        raise RuntimeError("no CSV/XLSX reader registered (tournaments app not loaded)")
    try:
        return _reader["read"](filename, data, max_rows=max_rows)
    except _reader["too_many"] as exc:
        raise TooManyRows(str(exc)) from exc
