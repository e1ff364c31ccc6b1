"""Moments of a tournament that other parts of the app act on, without the services importing
them (the tournament-file package writes backups and imports through the services, so the
services must not import it back).

- ``round_closed(tournament, round_number)``: sent inside the closing transaction; the backups
  module schedules its backup for after the commit (rules: a backup per closed round).
- ``tournament_deleting(tournament)``: sent before a tournament is deleted; a receiver writes
  the backup and returns its path. An exception raised by a receiver stops the deletion.
"""
from django.dispatch import Signal

round_closed = Signal()
tournament_deleting = Signal()
