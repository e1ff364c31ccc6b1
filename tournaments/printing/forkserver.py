"""Imported only inside the print pack's forkserver (``tournaments.printing.pack._context``
preloads it): ties the forkserver to the server process that started it.

Without it a server stopped by SIGTERM or ``kill -9`` left the forkserver (and through it the
workers, :func:`tournaments.printing.worker.start_worker`) running. Importing this module starts
:func:`tournaments.printing.worker.exit_with_parent`; import it nowhere else (in the server it
would tie the server to its own parent).
"""
from tournaments.printing.worker import exit_with_parent

WATCHER = exit_with_parent()
