"""The print pack of a round (rules.md §10): table list + every score sheet + standings, one PDF.

One click on the round page starts a job; the pack is rendered once per *state* of what it
shows and served from a file cache until something on it changes.

- :func:`prepare` reads the database (in the request) into plain documents and computes the
  pack's **key**: a digest of everything printed (round, state, tables and seats, pair and
  player names, PINs and captain links, entered hands, MP/VP and sheet states, the VP scale,
  the standings printed with it), the language, the public address in the QR codes and the
  sheet format (A4, or A5 two to a page).
- :func:`click` is the arbiter's click when packs render in the background (the server's
  setting): the request reads one indexed row and answers with a *ticket* (a key of the
  round's state, :func:`ticket_key`); a thread reads the pack (:func:`prepare`), starts or
  joins its job and follows it, and the ticket's status and PDF are the job's.
- :func:`start` looks the key up on disk: a finished PDF is served at once; a running job is
  joined (two clicks, or two server processes, give one job); otherwise it claims the job
  (status file, under an ``flock`` so several server processes agree) and renders it in a
  background thread of this server process.
- The job renders the HTML of each part in this process (table list, score sheets in chunks
  of :data:`CHUNK` (A4: :data:`STAMP_CHUNK`), standings; no database access: everything was read by :func:`prepare`),
  has worker processes turn each part into PDF (``tournaments.printing.worker``, niceness 10; ONE
  worker while the round is in play so the captains' saves keep their CPU, otherwise up to
  the cores) and joins the parts in order with pypdf into ``<ARBITRO_PRINT_CACHE_DIR>/<key>.pdf``.
- Progress is a small JSON file next to it (``<key>.json``: ``{"state": "running", "done": 4,
  "total": 12, ...}``), so any server process can answer the progress bar.

A job whose server stopped (restart, crash, ``kill -9``) leaves a "running" status that stops
moving: :func:`status` reports it as ``stopped`` at once when the process that wrote it is gone
(its pid, on this machine), or after :data:`STALE_SECONDS` without progress; the page says so
and «Prepara di nuovo» (any click) restarts it. The forkserver and the workers die with the
server (``tournaments.printing.forkserver``, ``worker.start_worker``).

One job per round and format at a time: a click after something on the pack changed, while
the job of the previous state still runs, **supersedes** that job (a ``<key>.cancel`` marker:
it stops after the parts its workers are rendering, status ``superseded``) and the new job
waits for it to stop before rendering, so two jobs never share the cores. When a job is
done, :func:`prune` keeps only the newest ``ARBITRO_PRINT_KEEP`` packs of the tournament.

The same jobs render **one document** too big to render inside a web request (the table
list, the score sheets or the standings of ``tournaments/printing/views.py``):
:func:`prepare_document` reads it and computes its key the same way
(the plain document, the language, the options), :func:`inline_ok` says whether it is
small enough (setting ``ARBITRO_INLINE_PDF_PAGES``) to be rendered at once instead.
"""
from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import io
import json
import logging
import os
import re
import shutil
import socket
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction
from django.dispatch import receiver
from django.utils import translation

from members.signals import member_erasing

from ..captains import links
from ..models import AuditEntry, Player, Round
from . import documents, worker

log = logging.getLogger(__name__)

#: Bump when a print template changes, so packs cached before are not served again.
PACK_VERSION = "4"
#: Score sheets per part: small enough for a smooth progress bar and load balancing.
CHUNK = 25
#: A4 score sheets per part: stamped on a form laid out once a part (``printing.stamp``,
#: about 11 ms a sheet plus some 0.15 s a part), so a 250-table round is two parts, one a core.
STAMP_CHUNK = 125
#: A "running" status not updated for this long belongs to a job that died: restart it.
STALE_SECONDS = 60
#: A running job rewrites its status at least this often (seconds), even inside a long part.
HEARTBEAT = 5

#: The job's document in its key: the pack (A4 or A5 sheets), or one document of it:
#: the table list (with or without the captains' QR codes), the score sheets, the
#: standings (after a round, or final). Also names the downloaded file (views.documents).
FORMATS = ("a4", "a5", "tabellone", "tabellonenoqr", "score", "classifica", "finale")
KEY_RE = re.compile(r"^t(\d+)-r(\d+)-(" + "|".join(FORMATS) + r")-[0-9a-f]{24}$")


@dataclasses.dataclass(frozen=True)
class Pack:
    """What a print pack shows, read from the database, and its cache key.

    ``key``: ``t<tournament id>-r<round number>-<format>-<digest>`` (:data:`FORMATS`; the
    standings' round number is the round they are after, 0 before any); ``in_play``: the
    round is published (captains are entering sheets), so rendering uses one low-priority
    worker. ``kind``: "pack" (table list + sheets + standings) or one document,
    "tablelist", "sheets" or "standings" (:func:`prepare_document`), which leaves the
    document it does not print as None; ``qr``: the table list prints the captains' QR codes.
    """

    key: str
    tournament_id: int
    round_number: int
    a5: bool
    language: str
    base_url: str
    in_play: bool
    round_doc: documents.RoundDocument | None
    standings_doc: documents.StandingsDocument | None
    kind: str = "pack"
    qr: bool = True

    @property
    def sheets(self) -> int:
        """Playing tables, i.e. score sheets in the pack (0 for a table list or standings alone)."""
        if self.round_doc is None or self.kind not in ("pack", "sheets"):
            return 0
        return len(self.round_doc.playing_tables)


# --------------------------------------------------------------------------- files


def cache_dir() -> Path:
    """The pack directory (setting ``ARBITRO_PRINT_CACHE_DIR``), created on first use."""
    path = Path(settings.ARBITRO_PRINT_CACHE_DIR)
    path.mkdir(parents=True, exist_ok=True)
    return path


def valid_key(key: str, tournament_id: int | None = None) -> bool:
    """``key`` has the shape :func:`prepare` makes (no path tricks) and, when
    ``tournament_id`` is given, belongs to that tournament."""
    m = KEY_RE.match(key or "")
    return bool(m) and (tournament_id is None or int(m.group(1)) == tournament_id)


def pdf_path(key: str) -> Path:
    """Where the finished pack of ``key`` is (or will be) stored."""
    if not valid_key(key):
        raise ValueError("bad print pack key")
    return cache_dir() / f"{key}.pdf"


def _status_path(key: str) -> Path:
    return cache_dir() / f"{key}.json"


def status(key: str) -> dict | None:
    """The job status of ``key``: ``{"state": "running"|"done"|"failed"|"superseded", "done":
    parts rendered, "total": parts, "sheets": score sheets, "pages": pages (when done)}``
    (a done pack also carries what it cost, :func:`_costs`; ``superseded``: a click on a
    newer state of the same pack stopped this job, :func:`start`);
    ``{"state": "done", ...}`` whenever the PDF exists; None when never started."""
    if not valid_key(key):
        return None
    if pdf_path(key).exists():
        try:
            current = json.loads(_status_path(key).read_text())
        except (OSError, ValueError):
            current = {}
        if current.get("state") != "done":
            current = {"state": "done", "done": 1, "total": 1}
        return current
    try:
        current = json.loads(_status_path(key).read_text())
    except FileNotFoundError:
        return None
    except ValueError:  # half-written by a dead process
        current = {"state": "running", "done": 0, "total": 1, "updated": 0}
    if not isinstance(current, dict):
        current = {"state": "running", "done": 0, "total": 1, "updated": 0}
    if current.get(TICKET) and current.get("state") == "running" and valid_key(current.get(PACK_KEY) or ""):
        return _ticket_progress(current[PACK_KEY])
    if current.get("state") == "running" and job_stopped(current):
        current = dict(current, state="stopped")
    return current


def _process_alive(pid: int) -> bool:
    """Whether process ``pid`` of this machine still runs (a zombie does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return True


def job_stopped(current: dict) -> bool:
    """Whether the "running" status ``current`` belongs to a job that can no longer move: its
    server process (``pid`` on ``host``, written with every status) is gone, e.g. after a
    ``kill -9`` or a crash, or the status was not rewritten for :data:`STALE_SECONDS` (a job of
    another machine, or of an older version that wrote no pid). The progress page then says
    the preparation stopped and offers «Prepara di nuovo» instead of waiting for ever."""
    updated = current.get("updated", 0)
    if not isinstance(updated, (int, float)) or time.time() - updated >= STALE_SECONDS:
        return True
    pid = current.get("pid")
    if isinstance(pid, int) and pid > 0 and current.get("host") == socket.gethostname():
        return not _process_alive(pid)
    return False


def _write_status(key: str, **values) -> dict:
    """Replace ``key``'s status file atomically (readers never see half a file)."""
    values["updated"] = time.time()
    values["pid"], values["host"] = os.getpid(), socket.gethostname()  # job_stopped reads them
    path = _status_path(key)
    tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(json.dumps(values))
    os.replace(tmp, path)
    return values


@contextmanager
def _claim_lock(key: str):
    """An exclusive ``flock`` on ``<key>.lock``: one server process at a time decides
    whether to start the job of ``key``."""
    with open(cache_dir() / f"{key}.lock", "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


# --------------------------------------------------------------------------- key


def prepare(rnd: Round, *, a5: bool = False, request=None) -> Pack:
    """Read round ``rnd`` (its table list and score sheets) and the standings printed with
    it (after the last closed round, ``documents.standings_document``) into plain documents,
    and compute the pack's key (see the module docstring) in the active language.

    ``a5``: score sheets two to an A4 page. ``request``: used for the captains' public
    address when ``ARBITRO_PUBLIC_URL`` is not set (``links.base_url``). No QR code is drawn
    here (they follow from the captain links, which are in the key): the job draws them.
    """
    warm_up()  # the workers' forkserver imports WeasyPrint while this reads the database
    language = translation.get_language() or settings.LANGUAGE_CODE
    base_url = links.base_url(request)
    round_doc = documents.round_document(rnd, qr=False, request=request)
    standings_doc = documents.standings_document(rnd.tournament)
    digest = hashlib.sha256(
        repr((PACK_VERSION, rnd.tournament_id, rnd.id, rnd.state, language, base_url, a5,
              round_doc, standings_doc)).encode()
    ).hexdigest()[:24]
    key = f"t{rnd.tournament_id}-r{rnd.number}-{'a5' if a5 else 'a4'}-{digest}"
    return Pack(key=key, tournament_id=rnd.tournament_id, round_number=rnd.number, a5=a5,
                language=language, base_url=base_url, in_play=rnd.state == Round.State.PUBLISHED,
                round_doc=round_doc, standings_doc=standings_doc)


#: Measured rows of an A4 page (print templates, 9 pt): the table list's tables with their
#: 14 mm QR codes and without, the team matches above them, the standings' rows.
TABLES_PER_PAGE_QR = 16
TABLES_PER_PAGE = 32
ROWS_PER_PAGE = 42
#: CPU of a page relative to a score sheet's (bench/inline_pdf.py: a sheet about 60 ms, a
#: page of the table list or the standings, dense tables, about 190-230 ms).
PAGE_WEIGHT = {"sheets": 1, "tablelist": 3, "standings": 3}


def _pages(items: int, per_page: int) -> int:
    return -(-items // per_page) if items else 0


def estimated_pages(kind: str, doc, *, qr: bool = True) -> int:
    """A4 pages of one document, counted from its plain values before any rendering:
    ``kind`` "sheets" (one a playing table), "tablelist" (the tables, :data:`TABLES_PER_PAGE_QR`
    or :data:`TABLES_PER_PAGE` a page, and the team matches above them; the seat finder's
    pages exactly, ``RoundDocument.seat_finder_pages``) or "standings" (:data:`ROWS_PER_PAGE`
    rows a page, groups and penalty notes included). ``doc``: a ``RoundDocument`` or, for
    the standings, a ``StandingsDocument``. At least 1."""
    if kind == "sheets":
        return max(len(doc.playing_tables), 1)
    if kind == "tablelist":
        by_table = _pages(len(doc.tables), TABLES_PER_PAGE_QR if qr else TABLES_PER_PAGE)
        matches = _pages(len(doc.matches), ROWS_PER_PAGE)
        return max(by_table + matches, 1) + len(doc.seat_finder_pages)
    if kind == "standings":
        rows = len(doc.rows) + sum(len(rows) + 2 for _g, rows in doc.groups) + len(doc.penalties)
        return max(_pages(rows, ROWS_PER_PAGE), 1)
    raise ValueError(f"unknown document {kind!r}")


def inline_ok(kind: str, doc, *, qr: bool = True) -> bool:
    """True when one document (see :func:`estimated_pages`) is small enough to render inside
    the web request: its pages, weighted by what a page costs (:data:`PAGE_WEIGHT`: a page
    of the table list or the standings counts as 3 score sheets), do not exceed the setting
    ``ARBITRO_INLINE_PDF_PAGES`` (score-sheet pages; 40 ≈ 2.5 s of CPU). Bigger documents
    are rendered by a background job (:func:`prepare_document`, :func:`start`)."""
    limit = settings.ARBITRO_INLINE_PDF_PAGES
    return estimated_pages(kind, doc, qr=qr) * PAGE_WEIGHT[kind] <= limit


def with_qr(doc: documents.RoundDocument) -> documents.RoundDocument:
    """``doc`` (read with ``qr=False``) with every playing table's captain QR code drawn."""
    return _with_qr(doc)


def _without_qr(doc: documents.RoundDocument) -> documents.RoundDocument:
    """``doc`` without drawn QR codes: the key follows the captain links, not the images."""
    if not any(t.qr_src for t in doc.tables):
        return doc
    return dataclasses.replace(doc, tables=tuple(dataclasses.replace(t, qr_src="") for t in doc.tables))


def prepare_document(kind: str, *, rnd: Round | None = None, tournament=None, after_round: int | None = None,
                     qr: bool = True, request=None, round_doc: documents.RoundDocument | None = None,
                     standings_doc: documents.StandingsDocument | None = None) -> Pack:
    """One document as a print job (a :class:`Pack` of ``kind``): "tablelist" (``qr``: with
    the captains' QR codes) or "sheets" of round ``rnd``, or "standings" of ``tournament``
    after round ``after_round`` (default the last closed one, ``documents.standings_document``).

    ``round_doc`` / ``standings_doc``: the document when the caller has read it already
    (the view, to count its pages); else it is read here. The key digests, like the pack's,
    everything the document prints (the plain document: tables, names, PINs, captain links,
    hands, MP/VP and sheet states; or the standings' rows and penalties), the language, the
    public address and the options, so any change (a sheet corrected) gives a new key.
    Raises ``ValueError`` for an unknown ``kind`` (and as ``standings_document`` does).
    """
    warm_up()  # as prepare
    language = translation.get_language() or settings.LANGUAGE_CODE
    base_url = links.base_url(request)
    if kind in ("tablelist", "sheets"):
        doc = _without_qr(round_doc or documents.round_document(rnd, qr=False, request=request))
        qr = qr if kind == "tablelist" else True
        fmt = "score" if kind == "sheets" else ("tabellone" if qr else "tabellonenoqr")
        content = (rnd.id, rnd.state, doc)
        tournament_id, number, in_play = rnd.tournament_id, rnd.number, rnd.state == Round.State.PUBLISHED
        standings_doc = None
    elif kind == "standings":
        doc, round_doc = None, None
        standings_doc = standings_doc or documents.standings_document(tournament, after_round=after_round)
        fmt = "finale" if standings_doc.final else "classifica"
        content = (standings_doc,)
        tournament_id, number = tournament.id, standings_doc.after_round or 0
        in_play = tournament.rounds.filter(state=Round.State.PUBLISHED).exists()
    else:
        raise ValueError(f"unknown document {kind!r}")
    digest = hashlib.sha256(
        repr((PACK_VERSION, kind, tournament_id, language, base_url, qr) + content).encode()
    ).hexdigest()[:24]
    return Pack(key=f"t{tournament_id}-r{number}-{fmt}-{digest}", tournament_id=tournament_id,
                round_number=number, a5=False, language=language, base_url=base_url, in_play=in_play,
                round_doc=doc, standings_doc=standings_doc, kind=kind, qr=qr)


def key_format(key: str) -> str:
    """The format part of a valid ``key`` (:data:`FORMATS`): "a4", "score", "finale", …"""
    m = KEY_RE.match(key)
    if not m:
        raise ValueError("bad print pack key")
    return m.group(3)


# --------------------------------------------------------------------------- job


def start(pack: Pack, *, background: bool | None = None) -> dict:
    """Start (or join) the job of ``pack``; return its status (see :func:`status`).

    Idempotent: a finished pack is returned as ``done`` without rendering; a job already
    running (in any server process) is returned as is; only a missing, failed or stale
    (:data:`STALE_SECONDS`) job is (re)started. ``background``: run in a daemon thread
    (default: setting ``ARBITRO_PRINT_BACKGROUND``); False renders before returning.
    """
    if background is None:
        background = settings.ARBITRO_PRINT_BACKGROUND
    with _claim_lock(pack.key):
        current = status(pack.key)
        if current and current["state"] == "done":
            return current
        if current and current["state"] == "running":  # status() says "stopped" for a dead job
            return current
        _cancel_path(pack.key).unlink(missing_ok=True)
        current = _write_status(pack.key, state="running", done=0, total=len(_plan(pack)),
                                sheets=pack.sheets)
    superseded = _running_family(pack.key)
    for other in superseded:  # the same round and format in an older state: stop it
        _cancel_path(other).touch()
    if background:
        threading.Thread(target=run, args=(pack,), kwargs={"after": superseded},
                         name=f"print-{pack.key}", daemon=True).start()
    else:
        run(pack, after=superseded)
        current = status(pack.key)
    return current


def _fresh_running(key: str) -> bool:
    current = status(key)
    return bool(current) and current["state"] == "running"  # a dead job's is "stopped"


def _running_family(key: str) -> list[str]:
    """Other keys of ``key``'s tournament, round and format (``t3-r2-a4-…``) whose job is
    running (and not stale)."""
    family = key.rsplit("-", 1)[0] + "-"
    return sorted(path.stem for path in cache_dir().glob(f"{family}*.json")
                  if path.stem != key and valid_key(path.stem) and not _is_ticket(path.stem)
                  and _fresh_running(path.stem))


def _cancel_path(key: str) -> Path:
    return cache_dir() / f"{key}.cancel"


def _cancelled(key: str) -> bool:
    """A newer state of the same pack superseded the job of ``key`` (see :func:`start`)."""
    return _cancel_path(key).exists()


def _wait_for(keys: list[str], pack: Pack) -> None:
    """Wait until the superseded jobs ``keys`` stopped (or went stale), keeping the status of
    ``pack`` fresh meanwhile: one job at a time renders a round's pack."""
    last = time.time()
    while any(_fresh_running(k) for k in keys):
        time.sleep(0.1)
        if time.time() - last >= HEARTBEAT:
            _write_status(pack.key, state="running", done=0, total=len(_plan(pack)), sheets=pack.sheets)
            last = time.time()


def _plan(pack: Pack) -> list[tuple[str, tuple]]:
    """The parts in print order: ("tablelist", ()), ("sheets", tables) per chunk, ("standings", ());
    a single document (:attr:`Pack.kind`) is only its own parts."""
    if pack.kind in ("tablelist", "standings"):
        return [(pack.kind, ())]
    tables = pack.round_doc.playing_tables
    # A5: parts of CHUNK as before (each part's last page may hold one sheet: same pages)
    size = CHUNK if pack.a5 else STAMP_CHUNK
    chunks = [("sheets", tables[i:i + size]) for i in range(0, len(tables), size)]
    if pack.kind == "sheets":
        return chunks or [("sheets", ())]
    return [("tablelist", ())] + chunks + [("standings", ())]


def workers_for(pack: Pack) -> int:
    """Worker processes for ``pack``: 1 while its round is in play (the captains' saves come
    first), else ``ARBITRO_PRINT_WORKERS`` (default: the cores). 0 renders in this process."""
    configured = settings.ARBITRO_PRINT_WORKERS
    if configured is None:
        configured = os.cpu_count() or 1
    if configured <= 0:
        return 0
    return 1 if pack.in_play else configured


def _with_qr(doc: documents.RoundDocument) -> documents.RoundDocument:
    """``doc`` with every playing table's captain QR code drawn (``documents.captain_qr``)."""
    return dataclasses.replace(doc, tables=_qr_tables(doc.tables))


def _qr_tables(tables: tuple) -> tuple:
    return tuple(
        dataclasses.replace(t, qr_src=documents.captain_qr(t.captain_url)) if t.captain_url and not t.qr_src else t
        for t in tables
    )


def _part_html(pack: Pack, kind: str, tables: tuple) -> str:
    """The HTML of one part, with the QR codes of the tables it prints (drawn here, cached
    in ``links``: the table list draws them all, the score sheets find them ready)."""
    if kind == "tablelist":  # worker.render_tablelist_timed: by table, then the seat finder stamped
        doc = _with_qr(pack.round_doc) if pack.qr else pack.round_doc
        return (documents.tablelist_html(doc, qr=pack.qr, part="tables"),
                documents.tablelist_html(doc, qr=pack.qr, part="finder"), len(doc.seat_finder_pages))
    if kind == "standings":
        return documents.standings_html(pack.standings_doc)
    return documents.scoresheets_html(pack.round_doc, a5=pack.a5, tables=_qr_tables(tables))


def _submit_order(plan: list[tuple[str, tuple]]) -> list[int]:
    """Indexes of ``plan`` in the order the parts go to the workers: the standings (its
    HTML is ready at once, so a worker starts while the server draws the table list's QR
    codes), then the table list, the longest part since the score sheets are stamped
    (``printing.stamp``: 250 sheets cost less than the table list), then the sheets, which
    fill the time the other worker spends on the table list."""
    first = [i for i, (kind, _t) in enumerate(plan) if kind == "standings"]
    sheets = [i for i, (kind, _t) in enumerate(plan) if kind == "sheets"]
    table_list = [i for i, (kind, _t) in enumerate(plan) if kind == "tablelist"]
    return first + table_list + sheets


def _renderer(pack: Pack, kind: str):
    """The worker function turning a part's HTML into PDF: score sheets (A4, or A5 two to a
    page) are stamped on one rendered form (``worker.render_sheets_timed``,
    ``printing.stamp``), the table list's pages and the standings' a row at a time (their
    rows cut into pages in Python, ``worker.render_tablelist_timed``, ``worker.render_standings_timed``)."""
    if kind == "sheets":
        return worker.render_sheets_timed
    if kind == "tablelist":
        return worker.render_tablelist_timed
    return worker.render_standings_timed


_pool_lock = threading.Lock()


def _context():
    """A ``forkserver`` context that preloads WeasyPrint: workers start without Django's
    state (no inherited database connection, no other server thread's locks)."""
    import multiprocessing

    ctx = multiprocessing.get_context("forkserver")
    with _pool_lock:
        ctx.set_forkserver_preload(["tournaments.printing.worker", "tournaments.printing.forkserver", "weasyprint"])
    return ctx


def warm_up() -> None:
    """Start the workers' forkserver now, unless rendering happens in this process (setting
    ``ARBITRO_PRINT_WORKERS`` 0): it imports WeasyPrint (about 0.8 s of CPU on a quiet
    machine, 2-3 s at load 10) in its own process, which the first job of a server process
    waited for before any part could render. :func:`prepare` calls it first, so the import
    overlaps the click's database reads and the parts' HTML; returns at once (the
    forkserver imports after it started, and a running one is left alone)."""
    configured = settings.ARBITRO_PRINT_WORKERS
    if configured is not None and configured <= 0:
        return
    # lazy: multiprocessing's forkserver is only needed by print jobs
    from multiprocessing import forkserver

    _context()
    with _pool_lock:
        forkserver.ensure_running()


def run(pack: Pack, *, after: tuple[str, ...] | list[str] = ()) -> None:
    """Render ``pack`` now (the job body): parts → PDF bytes (worker processes) → one file.

    ``after``: keys of superseded jobs to wait for first (:func:`start`). Writes the status
    after every part; on any error the status becomes ``failed`` (with the message) and the
    next click starts again; when superseded itself it stops after the parts in progress
    (status ``superseded``). Never touches the database. The final status also says what
    the pack cost (:func:`_costs`), which ``bench/printing.py`` prints.
    """
    key = pack.key
    plan = _plan(pack)
    try:
        _wait_for(list(after), pack)
        if _cancelled(key):  # superseded in turn while it waited
            _write_status(key, state="superseded", done=0, total=len(plan), sheets=pack.sheets)
            return
        began, html_cpu = time.perf_counter(), 0.0
        joiner = Joiner()
        with translation.override(pack.language):
            workers = workers_for(pack)
            results: list[tuple[bytes, float] | None] = [None] * len(plan)
            done = 0
            if workers == 0:
                for i, (kind, tables) in enumerate(plan):
                    if _cancelled(key):
                        break
                    cpu = time.thread_time()
                    html = _part_html(pack, kind, tables)
                    html_cpu += time.thread_time() - cpu
                    results[i] = _renderer(pack, kind)(html)
                    done += 1
                    _write_status(key, state="running", done=done, total=len(plan), sheets=pack.sheets)
            else:
                with ProcessPoolExecutor(max_workers=workers, mp_context=_context(),
                                         initializer=worker.start_worker) as pool:
                    futures = {}
                    for i in _submit_order(plan):
                        kind, tables = plan[i]
                        cpu = time.thread_time()
                        html = _part_html(pack, kind, tables)
                        html_cpu += time.thread_time() - cpu
                        futures[pool.submit(_renderer(pack, kind), html)] = i
                    pending = set(futures)
                    while pending:  # the status is rewritten at least every second
                        finished, pending = wait(pending, timeout=1, return_when=FIRST_COMPLETED)
                        for future in finished:
                            results[futures[future]] = future.result()
                        done += len(finished)
                        joiner.add_ready(results)  # while the workers render the rest
                        if _cancelled(key):  # the parts in the workers finish, the rest never start
                            for future in pending:
                                future.cancel()
                            break
                        _write_status(key, state="running", done=done, total=len(plan), sheets=pack.sheets)
        if _cancelled(key) and any(r is None for r in results):
            _write_status(key, state="superseded", done=done, total=len(plan), sheets=pack.sheets)
            return
        rendered = time.perf_counter()
        cpu = time.thread_time()
        joiner.add_ready(results)
        pages = joiner.write(pdf_path(key))
        costs = _costs(plan, results, html_cpu=html_cpu, join_cpu=time.thread_time() - cpu,
                       render=rendered - began, total=time.perf_counter() - began, workers=workers,
                       early_join_cpu=joiner.cpu)
        _write_status(key, state="done", done=len(plan), total=len(plan), sheets=pack.sheets, pages=pages,
                      **costs)
        try:
            prune(pack.tournament_id)
        except OSError:  # the pack is done all the same; pruning tries again next time
            log.exception("pruning the print packs of tournament %s failed", pack.tournament_id)
    except Exception as exc:  # the arbiter sees "failed" and can click again
        log.exception("print pack %s failed", key)
        _write_status(key, state="failed", done=0, total=len(plan), sheets=pack.sheets, error=str(exc))


def _costs(plan, results, *, html_cpu: float, join_cpu: float, render: float, total: float,
           workers: int, early_join_cpu: float = 0.0) -> dict:
    """What a finished pack cost, for the status file and ``bench/printing.py`` (seconds):
    ``cpu_parts`` CPU (user + system) of each part in the workers, in print order, with
    ``part_kinds`` beside it; ``cpu_html`` the server's CPU writing the HTML and QR codes;
    ``cpu_join_early`` its CPU joining the parts while the workers still rendered others
    (:class:`Joiner`), ``cpu_join`` its CPU joining after the last part (the rest and the
    file); ``wall_render``/``wall`` the wall time until the last part was rendered / the
    file was written; ``workers`` the worker processes."""
    return {
        "cpu_parts": [round(cpu, 3) for _pdf, cpu in results],
        "part_kinds": [kind for kind, _tables in plan],
        "cpu_html": round(html_cpu, 3), "cpu_join": round(join_cpu, 3),
        "cpu_join_early": round(early_join_cpu, 3),
        "wall_render": round(render, 3), "wall": round(total, 3), "workers": workers,
    }


def prune(tournament_id: int, *, keep: int | None = None) -> list[str]:
    """Delete the files of all but the newest ``keep`` packs of tournament ``tournament_id``
    (default: setting ``ARBITRO_PRINT_KEEP``), newest by their files' time; a job still
    running is never touched. Returns the keys deleted. Called when a job is done: a
    tournament's pack directory holds at most ``keep`` PDFs (about 1.5 MB each at 250 tables)."""
    keep = settings.ARBITRO_PRINT_KEEP if keep is None else keep
    times: dict[str, float] = {}
    for path in cache_dir().glob(f"t{tournament_id}-r*"):
        key = path.name.split(".", 1)[0]
        if not valid_key(key, tournament_id):
            continue
        try:
            times[key] = max(times.get(key, 0.0), path.stat().st_mtime)
        except FileNotFoundError:  # deleted meanwhile by another server process
            continue
    idle = sorted((k for k in times if not _fresh_running(k)), key=times.get, reverse=True)
    removed = idle[max(keep, 0):]
    for key in removed:
        for path in cache_dir().glob(f"{key}.*"):
            path.unlink(missing_ok=True)
    return removed


@receiver(member_erasing, dispatch_uid="tournaments.printing.pack.erasure")
def forget_erased_member(sender, *, member, **kwargs) -> None:
    """A member erased on request (rules.md §16): once the erasure is committed, delete the
    cached packs and documents of every tournament he played in (:func:`prune` with
    ``keep=0``), since they print his name and were still served at their addresses. The next
    click renders them again with «Socio cancellato». A job running at that moment is left
    alone, as by :func:`prune`."""
    tournament_ids = set(Player.objects.filter(member=member).values_list("tournament_id", flat=True))
    transaction.on_commit(lambda: [prune(tid, keep=0) for tid in sorted(tournament_ids)])


# --------------------------------------------------------------------------- the click, answered at once

#: A click's status file carries ``"ticket": true`` (see :func:`click`) and, once the pack
#: is read, ``"pack_key"``: the pack's own key, whose job the ticket follows.
TICKET, PACK_KEY = "ticket", "pack_key"


class _PublicAddress:
    """What :func:`prepare` asks of a request, outside one: the phones' address."""

    def __init__(self, base_url: str):
        self.base_url = base_url

    def build_absolute_uri(self, location: str = "/") -> str:
        return self.base_url + location


def ticket_key(rnd: Round, *, a5: bool, language: str, base_url: str) -> str:
    """The key of a click on round ``rnd``'s pack in this state of the tournament: a digest
    of the round (id, creation, state), the tournament's last audit entry (id and time:
    every write of Arbitro writes one in its transaction, ``services.audit``), the language,
    the public address and the format. One indexed row read, not the round: the same click
    with nothing written meanwhile gives the same key (one job, one progress page). Same
    shape as a pack's key (:data:`KEY_RE`)."""
    last = (AuditEntry.objects.filter(tournament_id=rnd.tournament_id).order_by("-id")
            .values_list("id", "at").first()) or (0, None)
    digest = hashlib.sha256(repr((TICKET, PACK_VERSION, rnd.tournament_id, rnd.id, rnd.created_at, rnd.state,
                                  language, base_url, a5, *last)).encode()).hexdigest()[:24]
    return f"t{rnd.tournament_id}-r{rnd.number}-{'a5' if a5 else 'a4'}-{digest}"


def click(rnd: Round, *, a5: bool = False, request=None) -> tuple[str, dict]:
    """The arbiter's click on the print pack of ``rnd`` when packs render in the background
    (setting ``ARBITRO_PRINT_BACKGROUND``): answered without reading the round. Returns
    ``(ticket, status)``: the ticket (:func:`ticket_key`) is the key the progress page, its
    status and the PDF are asked by; a thread of this process reads the pack
    (:func:`prepare`), starts or joins its job (:func:`start`) and follows it, and the
    ticket's status is the job's (:func:`status`), its PDF the job's file once done.

    The busiest minute's click read and digested the whole round in the request (21
    statements, 0.1 s of CPU at 250 tables, 0.3–1.4 s under the phones' load); now one
    indexed row and a status file. A second click with nothing written meanwhile joins the
    same ticket; one after a write gets a new ticket whose pack has the same key when what
    is printed did not change (then its PDF at once). ``a5``/``request`` as :func:`prepare`."""
    language = translation.get_language() or settings.LANGUAGE_CODE
    base_url = links.base_url(request)
    ticket = ticket_key(rnd, a5=a5, language=language, base_url=base_url)
    with _claim_lock(ticket):
        current = status(ticket)
        if current and current["state"] in ("done", "running"):
            return ticket, current
        current = _write_status(ticket, state="running", done=0, total=1, sheets=0, **{TICKET: True})
    threading.Thread(target=_prepare_and_follow, args=(rnd.pk, a5, language, base_url, ticket),
                     name=f"print-{ticket}", daemon=True).start()
    return ticket, current


def _prepare_and_follow(round_id: int, a5: bool, language: str, base_url: str, ticket: str) -> None:
    """The body of a click's thread (:func:`click`): read the pack, start or join its job,
    wait for its end, then give the ticket the job's final status and PDF (a hard link, or
    a copy where links are refused). Any error: the ticket's status is ``failed`` (the
    progress page offers «Prepara di nuovo»)."""
    try:
        try:
            with translation.override(language):
                rnd = Round.objects.select_related("tournament").get(pk=round_id)
                pack = prepare(rnd, a5=a5, request=_PublicAddress(base_url))
        finally:
            connection.close()  # this thread's own connection: nothing more is read
        _write_status(ticket, state="running", done=0, total=len(_plan(pack)), sheets=pack.sheets,
                      **{TICKET: True, PACK_KEY: pack.key})
        start(pack, background=False)  # renders in this thread, or joins the job already running
        while (status(pack.key) or {}).get("state") == "running":
            time.sleep(0.25)
        final = status(pack.key) or {"state": "stopped", "done": 0, "total": 1}
        if final["state"] == "done":
            _share_pdf(pdf_path(pack.key), pdf_path(ticket))
        values = {k: v for k, v in final.items() if k not in ("updated", "pid", "host")}
        _write_status(ticket, **values, **{TICKET: True, PACK_KEY: pack.key})
    except Exception as exc:  # the arbiter sees "failed" and can click again
        log.exception("print pack ticket %s failed", ticket)
        _write_status(ticket, state="failed", done=0, total=1, sheets=0, error=str(exc), **{TICKET: True})


def _share_pdf(source: Path, target: Path) -> None:
    """``target`` becomes the PDF ``source`` (a hard link; a copy where the file system
    refuses links), atomically: a reader never sees half a file."""
    tmp = target.with_suffix(f".{os.getpid()}.{threading.get_ident()}.part")
    try:
        os.link(source, tmp)
    except OSError:
        shutil.copyfile(source, tmp)
    os.replace(tmp, target)


def _ticket_progress(key: str) -> dict:
    """A running ticket's status: its pack's (:func:`status` of ``key``), still ``running``
    while the pack is done but the ticket's file not yet shared (a fraction of a second)."""
    current = status(key) or {"state": "running", "done": 0, "total": 1}
    return dict(current, state="running") if current["state"] == "done" else current


def _is_ticket(key: str) -> bool:
    """Whether ``key`` is a click's ticket (:func:`click`), not a pack's own job."""
    try:
        return bool(json.loads(_status_path(key).read_text()).get(TICKET))
    except (OSError, ValueError, AttributeError):
        return False


class Joiner:
    """The pack's parts joined in print order as they arrive (:func:`run`): the parts that
    are ready and follow those already joined are appended while the workers render the
    others, so after the last part only its own pages and the file are left to write (the
    join was 0.2-0.7 s alone at the end, docs/speed.md). ``cpu``: this thread's CPU
    seconds spent appending so far. A part is PDF bytes, or a tuple of them (:func:`join`)."""

    def __init__(self):
        # lazy: pypdf is only needed when PDFs are read or joined
        from pypdf import PdfWriter

        self.writer = PdfWriter()
        self.joined = 0
        self.cpu = 0.0

    def add_ready(self, results: list) -> None:
        """Append ``results[joined:]`` up to the first part not rendered yet (None);
        ``results``: ``(pdf, cpu)`` per part in print order, as :func:`run` collects them."""
        start = time.thread_time()
        while self.joined < len(results) and results[self.joined] is not None:
            part = results[self.joined][0]
            for pdf in (part if isinstance(part, tuple) else (part,)):
                self.writer.append(io.BytesIO(pdf))
            self.joined += 1
        self.cpu += time.thread_time() - start

    def write(self, target: Path) -> int:
        """Write the joined pages to ``target`` atomically (a reader never sees half a
        pack); return the page count."""
        pages = len(self.writer.pages)
        tmp = target.with_suffix(f".{os.getpid()}.{threading.get_ident()}.part")
        with open(tmp, "wb") as fh:
            self.writer.write(fh)
        os.replace(tmp, target)
        return pages


def join(parts: list, target: Path) -> int:
    """Join PDF ``parts`` in order with pypdf into ``target`` (written atomically: a reader
    never sees half a pack); return the page count. A part is PDF bytes, or a tuple of
    them (the table list: its pages by table, then its seat finder)."""
    # lazy: pypdf is only needed when PDFs are read or joined
    from pypdf import PdfWriter

    writer = PdfWriter()
    for part in parts:
        for pdf in (part if isinstance(part, tuple) else (part,)):
            writer.append(io.BytesIO(pdf))
    pages = len(writer.pages)
    tmp = target.with_suffix(f".{os.getpid()}.{threading.get_ident()}.part")
    with open(tmp, "wb") as fh:
        writer.write(fh)
    os.replace(tmp, target)
    return pages


__all__ = ["Pack", "prepare", "click", "ticket_key", "prepare_document", "estimated_pages", "inline_ok", "with_qr", "key_format",
           "FORMATS", "start", "run", "status", "pdf_path", "valid_key", "join", "prune",
           "workers_for", "warm_up", "cache_dir", "CHUNK", "STAMP_CHUNK", "STALE_SECONDS", "PACK_VERSION"]
