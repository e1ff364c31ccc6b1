"""HTML → PDF in a worker process of the print pack; no Django, no database.

The print pack (``tournaments.printing.pack``) renders every part's HTML in the server process
and hands only the HTML string to these workers, so a worker never holds (or inherits) a
database connection. Workers come from a ``forkserver`` that has already imported
WeasyPrint, so each starts in milliseconds, and they run at a lower priority
(``os.nice(10)``) than the server answering the captains.

Python's cyclic garbage collector is paused while a part renders (:func:`render`):
WeasyPrint allocates hundreds of thousands of objects per part (boxes, styles, text
layouts) and every automatic collection walks all of them again, so a part's time grew
faster than its page count (``bench/printing.py``: 100 score sheets in one document cost
about 1.5× four parts of 25 each). What the parts leave behind (some 25 MB of cycles per
25 sheets) is collected in one go once more than :data:`COLLECT_AFTER` objects wait, and a
worker's last parts are never collected at all: the process ends with the job.
"""
from __future__ import annotations

import contextlib
import gc
import logging
import os
import resource
import signal
import sys
import threading
import time

from . import stamp

#: Objects allocated since the last collection (``gc.get_count()[0]``) above which a worker
#: collects after a part: about three parts of 25 score sheets, some 80 MB of garbage.
COLLECT_AFTER = 500_000


def lower_priority(niceness: int = 10) -> None:
    """Make this worker process yield the CPU to the server."""
    try:
        os.nice(niceness)
    except OSError:  # not permitted on some systems: rendering still works
        pass


#: How often (seconds) a worker or the forkserver checks that its parent still lives.
PARENT_POLL = 0.5


def _set_parent_death_signal() -> bool:
    """Linux: ask the kernel to SIGKILL this process when the thread that forked it ends
    (``prctl(PR_SET_PDEATHSIG)``). True when set. A worker is forked by the forkserver's only
    thread, so it dies with the forkserver, even on ``kill -9``."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        return libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def exit_with_parent(poll: float = PARENT_POLL) -> threading.Thread:
    """Start a daemon thread that ends this process (``os._exit``) as soon as its parent is
    gone (``os.getppid()`` changes: the orphan was handed to init). The forkserver uses it:
    it was started by a job's thread of the server, and a death signal tied to that thread
    would fire when the job ends, so it watches the server process instead."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(poll)
        os._exit(0)

    thread = threading.Thread(target=watch, name="exit-with-parent", daemon=True)
    thread.start()
    return thread


def start_worker(niceness: int = 10) -> None:
    """Pool initializer: :func:`lower_priority`, no automatic garbage collection in this
    process (it only renders parts; :func:`render` collects when needed), and tied to its
    parent, the forkserver, which is tied to the server (:mod:`tournaments.printing.forkserver`):
    a server stopped by SIGTERM or ``kill -9`` leaves no worker rendering behind it."""
    if not _set_parent_death_signal():
        exit_with_parent()
    lower_priority(niceness)
    gc.disable()


@contextlib.contextmanager
def collector_paused():
    """Python's cyclic garbage collector off while a part renders (the module docstring),
    one collection afterwards when more than :data:`COLLECT_AFTER` objects wait, and the
    collector switched back on if it was (the server process, ``ARBITRO_PRINT_WORKERS=0``)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_count()[0] > COLLECT_AFTER:
            gc.collect()
        if was_enabled:
            gc.enable()


def render(html: str) -> bytes:
    """PDF bytes of one part's print HTML (A4/A5 and fonts come from its CSS), rendered
    with the cyclic garbage collector paused (see the module docstring). In the server
    process (``ARBITRO_PRINT_WORKERS=0``) the collector is switched back on afterwards."""
    # lazy: WeasyPrint is slow to import and only PDF rendering needs it
    import weasyprint

    with collector_paused():
        return weasyprint.HTML(string=html).write_pdf()


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_THREAD if hasattr(resource, "RUSAGE_THREAD")
                               else resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def render_timed(html: str) -> tuple[bytes, float]:
    """(:func:`render` of ``html``, CPU seconds it took: user + system of this thread).

    The print pack records these per part, so ``bench/printing.py`` reports the CPU a pack
    costs beside its wall time (which depends on whatever else the cores are running)."""
    start = _cpu_seconds()
    pdf = render(html)
    return pdf, _cpu_seconds() - start


def weasyprint_render(html: str) -> bytes:
    """PDF bytes of ``html`` laid out whole by WeasyPrint (no collector handling)."""
    # lazy: WeasyPrint is slow to import and only PDF rendering needs it
    import weasyprint

    return weasyprint.HTML(string=html).write_pdf()


def render_sheets_timed(html: str) -> tuple[bytes, float]:
    """As :func:`render_timed`, for a part of A4 score sheets: stamped on one rendered form
    (``tournaments.printing.stamp.render_sheets``) instead of laid out sheet by sheet; should
    the stamping fail (HTML it does not expect), the part is rendered whole and the error
    logged."""
    start = _cpu_seconds()
    with collector_paused():
        try:
            pdf = stamp.render_sheets(html)
        except Exception:  # a sheet the stamping does not understand: the pack still prints
            logging.getLogger(__name__).exception("stamping the score sheets failed; rendering them whole")
            pdf = weasyprint_render(html)
    return pdf, _cpu_seconds() - start


def render_tablelist_timed(parts: tuple[str, str, int]) -> tuple[tuple[bytes, bytes], float]:
    """As :func:`render_timed`, for the table list of the print pack given as ``(pages by
    table, seat finder, seat finder pages)`` (``documents.tablelist_html`` parts "tables"
    and "finder"): the pages by table cut in Python and stamped a row at a time
    (``printing.stamp.render_table_pages``; when they cannot be, e.g. a team round's matches
    or more than ``stamp.MAX_LONG_ROWS`` names of two lines, laid out whole by WeasyPrint, whose trailing blank pages, one a seat finder page, only
    make the footers count the whole list, and are dropped), the seat finder's pages stamped
    too (``printing.stamp.render_finder``); should that stamping fail, they are rendered
    whole and the error logged. Returns the two PDFs, joined in order by the pack."""
    # lazy: WeasyPrint is slow to import and only PDF rendering needs it
    import weasyprint

    tables_html, finder_html, finder_pages = parts
    start = _cpu_seconds()
    with collector_paused():
        try:
            tables_pdf, before = stamp.render_table_pages(tables_html, extra_pages=finder_pages)
        except Exception as exc:  # a row the stamping does not cut: laid out whole, as before
            _log_not_stamped("the table list's pages by table", exc)
            doc = weasyprint.HTML(string=tables_html).render()
            before = len(doc.pages) - finder_pages
            tables_pdf = doc.copy(doc.pages[:before]).write_pdf()
        try:
            finder_pdf = stamp.render_finder(finder_html, before=before)
        except Exception:  # a page the stamping does not understand: the pack still prints
            logging.getLogger(__name__).exception("stamping the seat finder failed; rendering it whole")
            count = len(stamp.FINDER_PAGE_RE.findall(finder_html))
            html = stamp.FINDER_PAGE_TOKEN.sub(lambda m: str(before + int(m.group(1))), finder_html)
            finder_pdf = weasyprint_render(html.replace("FINDERPAGES", str(before + count)))
    return (tables_pdf, finder_pdf), _cpu_seconds() - start


def _log_not_stamped(what: str, exc: Exception) -> None:
    """A document laid out whole instead of stamped: expected (``stamp.NotStampable``: many
    long names, a team round's matches) at debug level, anything else as an error."""
    log = logging.getLogger(__name__)
    if isinstance(exc, stamp.NotStampable):
        log.debug("%s laid out whole: %s", what, exc)
    else:
        log.error("stamping %s failed; laying them out whole", what, exc_info=exc)


def render_standings_timed(html: str) -> tuple[bytes, float]:
    """As :func:`render_timed`, for the standings (``documents.standings_html``): their pages
    cut in Python and stamped a row at a time (``printing.stamp.render_table_pages``),
    or, when they cannot be (groups, more than ``stamp.MAX_LONG_ROWS`` names of two lines,
    pages that do not come out as planned), laid out whole by WeasyPrint as before."""
    start = _cpu_seconds()
    with collector_paused():
        try:
            pdf, _pages = stamp.render_table_pages(html)
        except Exception as exc:
            _log_not_stamped("the standings", exc)
            pdf = weasyprint_render(html)
    return pdf, _cpu_seconds() - start
