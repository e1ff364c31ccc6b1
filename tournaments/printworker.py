"""HTML → PDF in a worker process of the print pack (issue 14); no Django, no database.

The print pack (``tournaments.printpack``) renders every part's HTML in the server process
and hands only the HTML string to these workers, so a worker never holds (or inherits) a
database connection. Workers come from a ``forkserver`` that has already imported
WeasyPrint, so each starts in milliseconds, and they run at a lower priority
(``os.nice(10)``) than the server answering the captains.
"""
from __future__ import annotations

import os


def lower_priority(niceness: int = 10) -> None:
    """Pool initializer: make this worker process yield the CPU to the server."""
    try:
        os.nice(niceness)
    except OSError:  # not permitted on some systems: rendering still works
        pass


def render(html: str) -> bytes:
    """PDF bytes of one part's print HTML (A4/A5 and fonts come from its CSS)."""
    import weasyprint

    return weasyprint.HTML(string=html).write_pdf()
