"""``python manage.py serve``: the production WSGI server (waitress) for a club laptop.

Sized for a 250-table room: 500 phones keep the captain page open
and poll it, plus the arbiter's own pages. Waitress's defaults (100 connections,
``select()``) lock everyone out at about 100 open pages; the settings below, each
explained in :data:`SERVER_SETTINGS` and in the README ("Captains on their phones"),
hold 500 phones with room to spare. ``bench/room.py`` measures them.
"""
from __future__ import annotations

import argparse
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import time

from django.conf import settings as django_settings
from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from tournaments.management.lang import LangCommand
from tournaments.printing import worker
from tournaments.server import epoll_loop
from tournaments.server.bodiless import keep_bodiless_alive
from tournaments.server.loop_answers import LoopAnswerDispatcher
from tournaments.server.request_lanes import LaneQueue

#: Waitress settings for a 250-table room. Measured with ``bench/room.py``.
SERVER_SETTINGS: dict = {
    # Open connections (one per phone that polled recently, a few per arbiter browser).
    # Waitress's default, 100, stops accepting at the 101st: the 110th phone, and the
    # arbiter's login page, got no answer. 500 phones + projector + arbiter < 2000.
    "connection_limit": 2000,
    # An idle kept-alive connection is closed after this many seconds. A visible captain
    # page polls every 4–6 s, so it keeps (and reuses) its connection; a phone that went
    # to sleep or left the room frees its slot within channel_timeout + cleanup_interval.
    "channel_timeout": 20,
    "cleanup_interval": 10,
    # Worker threads run Django; connections wait in the event loop, not in a thread,
    # so a few threads serve hundreds of phones. Every request takes milliseconds and
    # the laptop has 2 cores: more threads only add contention for the GIL.
    "threads": 8,
    # Connections the kernel queues while the server is busy (a burst of saves); the
    # kernel caps it at net.core.somaxconn.
    "backlog": 2048,
    # poll() instead of select(): select() cannot watch descriptors above 1024 and
    # scans all of them on every turn. Windows has no poll(): there waitress keeps
    # select(), limited to 512 sockets by CPython's build (see the README). On Linux
    # laned_server replaces either by an epoll loop (tournaments/server/epoll_loop.py).
    "asyncore_use_poll": hasattr(select, "poll"),
    "ident": "arbitro",
}


def freeze_startup_objects() -> None:
    """Collect garbage once, then move every object alive (Django, the URLs, the templates
    loaded so far) out of the garbage collector's reach (``gc.freeze``): its full passes then
    scan only what requests create, instead of pausing every thread for tens of milliseconds
    over objects that live as long as the process."""
    import gc

    gc.collect()
    gc.freeze()


#: Processes that share the one port by default where the kernel spreads connections over
#: them (:func:`shared_port_supported`): measured with ``bench/room.py --players 500`` on two
#: cores, one process saturates (Python runs one thread at a time, and waitress's event loop
#: walks every open connection on each turn), two meet the room's targets.
DEFAULT_WORKERS = 2


def shared_port_supported() -> bool:
    """Whether several processes can listen on one port and have the kernel spread the
    connections over them: Linux (``SO_REUSEPORT``, since 3.9). macOS accepts the option but
    hands every connection to one socket; Windows has no such option."""
    return sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")


def default_workers() -> int:
    """:data:`DEFAULT_WORKERS` where the port can be shared and the machine has two cores or
    more, else 1."""
    return DEFAULT_WORKERS if shared_port_supported() and (os.cpu_count() or 1) >= 2 else 1


def shared_port_socket(host: str, port: int) -> socket.socket:
    """A listening-ready socket bound to ``host:port`` with ``SO_REUSEPORT``: each worker of
    ``serve --workers N`` binds its own, and the kernel spreads new connections over them.
    Raises ``OSError`` when the port is taken by a program that did not set the option."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def port_is_free(host: str, port: int) -> bool:
    """Whether nothing listens on ``host:port`` (a bind without ``SO_REUSEPORT`` succeeds):
    checked before the workers start, so that two ``serve`` on one port fail instead of
    silently sharing it."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def laned_server(application, **options):
    """``waitress.create_server`` whose threads take the arbiter's pages first, then the
    phones' writes, then the phones' reads (:class:`tournaments.server.request_lanes.LaneQueue`),
    whose event loop answers the phones' unchanged polls itself (:mod:`tournaments.server.loop_answers`),
    and, on Linux, whose loop asks only the connections that have something to do
    (:mod:`tournaments.server.epoll_loop`) and keeps a connection open after a 304
    (:mod:`tournaments.server.bodiless`); handed to ``waitress.serve`` as its server factory.
    ``options``: ``create_server``'s."""
    # lazy: waitress is only needed once the server really starts
    from waitress.server import create_server

    dispatcher = options.pop("_dispatcher", None)
    ours = dispatcher is None
    if ours:
        dispatcher = LoopAnswerDispatcher(application)
    server = create_server(application, _dispatcher=dispatcher, **options)
    if ours:  # waitress starts the threads only of a dispatcher it made itself
        dispatcher.set_thread_count(server.adj.threads)
    server.task_dispatcher.queue = LaneQueue()
    # Linux: a loop that asks only the connections with something to do, so a phone's 304 can
    # keep its connection for the next poll. Elsewhere waitress's own loop walks every open
    # connection on each turn, and 1000 kept connections cost more than reconnecting (docs/speed.md).
    if epoll_loop.install(server):
        keep_bodiless_alive(server)
    return server


def raise_open_files_limit(wanted: int) -> int | None:
    """Raise this process's soft limit of open files to ``wanted`` (capped by the hard limit).

    One socket is one open file: with a soft limit of 256 (macOS) or 1024 (Linux),
    ``accept()`` fails before ``connection_limit`` is reached. Returns the new soft
    limit, or ``None`` where the ``resource`` module does not exist (Windows).
    """
    try:
        import resource
    except ImportError:  # Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


#: The headers the reverse proxy sets (docs/nginx-arbitro.conf): the client's address and the
#: scheme. ``X-Forwarded-Host`` is not trusted: nginx passes the Host header itself, and a
#: header it does not set would come from the client.
PROXY_HEADERS = ("x-forwarded-for", "x-forwarded-proto")


def proxy_options(trusted: list[str] | tuple[str, ...] | None) -> dict:
    """Waitress's options for the reverse proxies of ``ARBITRO_TRUSTED_PROXIES``.

    ``trusted``: addresses, the proxy that connects to waitress first, then any proxy in
    front of it. Waitress (which otherwise drops ``X-Forwarded-*``) then takes from a request
    of that first address the client's address (``REMOTE_ADDR``, the entry ``len(trusted)``
    from the right of ``X-Forwarded-For``) and the scheme (``wsgi.url_scheme`` from
    ``X-Forwarded-Proto``); the same headers from any other peer are removed. So Django sees
    https (HSTS, secure cookies) and django-axes and the captains' limiter count the client,
    not the proxy. Empty: ``{}`` (no proxy; the headers are left to Django, which reads
    ``X-Forwarded-For`` only from a trusted peer, tournaments/captains/devices.py).
    """
    addresses = [a.strip() for a in (trusted or ()) if a and a.strip()]
    if not addresses:
        return {}
    return {"trusted_proxy": addresses[0], "trusted_proxy_count": len(addresses),
            "trusted_proxy_headers": set(PROXY_HEADERS), "clear_untrusted_proxy_headers": True}


def server_options(*, host: str, port: int, threads: int | None = None,
                   connection_limit: int | None = None, trusted_proxies=None) -> dict:
    """The keyword arguments given to ``waitress.serve``: :data:`SERVER_SETTINGS`, the
    address, the options given on the command line (``None`` keeps the default) and the
    reverse proxy's (:func:`proxy_options`; default ``settings.ARBITRO_TRUSTED_PROXIES``)."""
    if trusted_proxies is None:
        trusted_proxies = getattr(django_settings, "ARBITRO_TRUSTED_PROXIES", [])
    options = dict(SERVER_SETTINGS, host=host, port=port, **proxy_options(trusted_proxies))
    if threads is not None:
        options["threads"] = threads
    if connection_limit is not None:
        options["connection_limit"] = connection_limit
    return options


def worker_commands(*, host: str, port: int, processes: int, threads: int | None = None,
                    connection_limit: int | None = None, shared_port: bool = False) -> list[list[str]]:
    """The command lines of ``processes`` waitress processes, one ``manage.py serve`` each
    with the same threads and connection limit: on ports ``port``, ``port + 1``, … (a hosted
    setup, the reverse proxy's upstream, docs/nginx-arbitro.conf), or, ``shared_port``, all
    on ``port`` (``serve --workers``: each binds it with ``SO_REUSEPORT``)."""
    manage = str(django_settings.BASE_DIR / "manage.py")
    commands = []
    for k in range(processes):
        command = [sys.executable, manage, "serve", "--host", host, "--port", str(port if shared_port else port + k),
                   "--workers", "1"]
        if shared_port:
            command.append("--shared-port")
        if threads is not None:
            command += ["--threads", str(threads)]
        if connection_limit is not None:
            command += ["--connection-limit", str(connection_limit)]
        commands.append(command)
    return commands


#: An upload's temporary file older than this (seconds) was left by a killed process: no
#: upload (10 MB at most through the documented proxy) or import takes that long.
STALE_UPLOAD_SECONDS = 15 * 60


def purge_old_contacts(warn) -> None:
    """Run ``manage.py purge_contacts`` (the bookings app: contacts erased after the retention,
    rules.md §21) once as the server starts, by name so this app imports nothing above it; a
    failure (a database not migrated yet) is a warning, never a server that does not start."""
    from io import StringIO

    from django.core.management import call_command

    try:
        call_command("purge_contacts", stdout=StringIO())
    except Exception as exc:  # noqa: BLE001 - the server must start anyway
        warn(_("Attenzione: contatti delle prenotazioni non cancellati: %(error)s") % {"error": exc})


def clear_stale_uploads(directory=None, *, older_than: float = STALE_UPLOAD_SECONDS,
                        now: float | None = None) -> int:
    """Delete the files of ``directory`` (default ``settings.FILE_UPLOAD_TEMP_DIR``, under
    var/) not modified for ``older_than`` seconds: uploads whose process was killed mid-import
    (the file holds a whole tournament with its captains' links and PINs). Younger files may
    belong to another server process still reading them and stay. Returns how many went."""
    directory = directory or getattr(django_settings, "FILE_UPLOAD_TEMP_DIR", None)
    if not directory or not os.path.isdir(directory):
        return 0
    now = time.time() if now is None else now
    removed = 0
    for entry in os.scandir(directory):
        try:
            if entry.is_file(follow_symlinks=False) and now - entry.stat().st_mtime >= older_than:
                os.unlink(entry.path)
                removed += 1
        except OSError:  # gone meanwhile, or not ours: leave it
            continue
    return removed


def run_workers(commands: list[list[str]], *, out=print, poll_seconds: float = 1.0, env: dict | None = None) -> int:
    """Start every command (with ``env``, default this process's environment), restart one
    that exits on its own, stop them all on Ctrl+C or SIGTERM (as a service manager sends).
    Returns 0 after a requested stop."""
    stopping = False

    def stop(signum, frame):
        nonlocal stopping
        stopping = True

    previous = signal.signal(signal.SIGTERM, stop)
    procs = [subprocess.Popen(c, env=env) for c in commands]
    try:
        while not stopping:
            time.sleep(poll_seconds)
            for k, proc in enumerate(procs):
                if proc.poll() is not None and not stopping:
                    out(_("processo %(k)s (porta %(port)s) uscito con codice %(code)s: lo riavvio")
                        % {"k": k + 1, "port": commands[k][commands[k].index("--port") + 1],
                           "code": proc.returncode})
                    procs[k] = subprocess.Popen(commands[k], env=env)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    return 0


class Command(LangCommand):  # --lang it|en: messages in the operator's language
    help = "Avvia Arbitro con waitress (server WSGI di produzione)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--threads", type=int, default=None,
                            help=f"thread di lavoro (predefinito {SERVER_SETTINGS['threads']})")
        parser.add_argument("--connection-limit", type=int, default=None,
                            help=f"connessioni aperte (predefinito {SERVER_SETTINGS['connection_limit']})")
        parser.add_argument("--processes", type=int, default=1,
                            help="processi waitress sulle porte PORT, PORT+1, … dietro un reverse proxy "
                                 "(server ospitato con PostgreSQL; predefinito 1)")
        parser.add_argument("--workers", type=int, default=None,
                            help=f"processi che condividono la porta PORT (Linux); predefinito "
                                 f"{DEFAULT_WORKERS} dove possibile, altrimenti 1")
        parser.add_argument("--shared-port", action="store_true", help=argparse.SUPPRESS)  # one of --workers

    def handle(self, *args, host, port, threads, connection_limit, processes=1, workers=None, shared_port=False,
               **options):
        if processes < 1:
            raise CommandError(_("--processes: almeno 1"))
        if workers is not None and workers < 1:
            raise CommandError(_("--workers: almeno 1"))
        if processes > 1 and (workers or 1) > 1:
            raise CommandError(_("--processes e --workers insieme: scegli porte consecutive (--processes, dietro "
                                 "un reverse proxy) oppure una porta condivisa (--workers)."))
        if workers is None:
            workers = 1 if processes > 1 or shared_port else default_workers()
        if workers > 1 and not shared_port_supported():
            self.stderr.write(_("Attenzione: questo sistema non distribuisce una porta tra più processi; "
                                "uso un processo solo."))
            workers = 1
        if not shared_port:
            clear_stale_uploads()
            purge_old_contacts(self.stderr.write)
        if workers > 1:
            if not port_is_free(host, port):
                raise CommandError(_("La porta %(port)s è già in uso: ferma l'altro server o scegli --port.")
                                   % {"port": port})
            self.stdout.write(_("Arbitro: %(n)s processi in ascolto su %(url)s  (Ctrl+C per fermare)")
                              % {"n": workers, "url": f"http://{host}:{port}/"})
            commands = worker_commands(host=host, port=port, processes=workers, threads=threads,
                                       connection_limit=connection_limit, shared_port=True)
            # the captains' rate limits count in files every worker shares (config/settings.py)
            run_workers(commands, out=self.stdout.write, env=dict(os.environ, ARBITRO_SHARED_LIMITS="1"))
            return
        if processes > 1:
            if django_settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
                self.stderr.write(_("Attenzione: --processes è per un server ospitato con PostgreSQL "
                                    "(DATABASE_URL); con SQLite usa --workers (più processi su una porta)."))
            self.stdout.write(_("Arbitro: %(n)s processi su %(first)s … %(last)s  (Ctrl+C per fermare)")
                              % {"n": processes, "first": f"http://{host}:{port}/",
                                 "last": f"http://{host}:{port + processes - 1}/"})
            commands = worker_commands(host=host, port=port, processes=processes, threads=threads,
                                       connection_limit=connection_limit)
            run_workers(commands, out=self.stdout.write)
            return
        # lazy: waitress is only needed once the server really starts
        import waitress

        # config.wsgi builds the WSGI application when imported: only once the server starts
        from config.wsgi import application

        settings = server_options(host=host, port=port, threads=threads, connection_limit=connection_limit)
        # Sockets + database + static files + logs: leave a margin above the connections.
        raise_open_files_limit(settings["connection_limit"] + 256)
        if shared_port:  # one of serve --workers: its own socket on the shared port
            settings.pop("host"), settings.pop("port")
            settings["sockets"] = [shared_port_socket(host, port)]
            worker.exit_with_parent()  # a supervisor killed outright must not leave workers holding the port
        else:
            self.stdout.write(_("Arbitro in ascolto su %(url)s  (Ctrl+C per fermare)")
                              % {"url": f"http://{host}:{port}/"})
        if settings.get("trusted_proxy"):
            self.stdout.write(_("Reverse proxy fidato: %(proxy)s (indirizzo del client e https da X-Forwarded-For "
                                "e X-Forwarded-Proto)") % {"proxy": settings["trusted_proxy"]})
        elif getattr(django_settings, "SECURE_PROXY_SSL_HEADER", None):
            self.stderr.write(_("Attenzione: ARBITRO_HTTPS=1 senza ARBITRO_TRUSTED_PROXIES: indica l'indirizzo del "
                                "reverse proxy, altrimenti il blocco dei tentativi di accesso conta il proxy e "
                                "non i client."))
        # Waitress warns "Task queue depth is N" on every request queued while its threads are
        # busy: hundreds of lines a second during a round's publication or a burst of saves,
        # written by the thread that accepts connections. The queue is expected there.
        logging.getLogger("waitress.queue").setLevel(logging.ERROR)
        from django.urls import get_resolver

        get_resolver().url_patterns  # noqa: B018 (the property's side effect:) load every view module before the freeze
        freeze_startup_objects()
        waitress.serve(application, _server=laned_server, **settings)
