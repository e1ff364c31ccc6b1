"""Printing: the arbiter's documents (rules.md §10) and the print jobs that render them.

- ``documents``: builders (database → plain frozen values) and HTML/PDF renderers of the table
  list, the score sheets and the standings; ``spreadsheets``: their XLSX; ``team_slips``: the
  team captains' slips; ``federation``: the final results for the federation (XLSX, CSV);
- ``pack``: the print pack and the background jobs for documents too big for a request,
  rendered by ``worker`` processes from a forkserver that preloads ``forkserver``;
- ``views`` and ``urls``: the downloads and progress pages under ``/tornei/<slug>/documenti/``.

Nothing is imported here: the forkserver preloads ``tournaments.printing.worker``, which must
start without Django.
"""
