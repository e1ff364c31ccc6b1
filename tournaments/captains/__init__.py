"""The captains' side: the table captain's phone pages (the score sheet and its JSON
endpoints, the PIN pages, «Chiama l'arbitro»), the PINs and their counters, the device hint,
the private links and their QR codes, and the URLs under ``/c/``.

A package of the ``tournaments`` app (no models of its own). Its views sit beside
``tournaments.views``; nothing below the views imports them (``.importlinter``).
"""
