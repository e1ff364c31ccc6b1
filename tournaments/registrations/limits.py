"""The caps of every file Arbitro reads: registration files (CSV, XLSX) and tournament files.

One module, so the registration import, the tournament import and ``docs/import-limits.md``
state the same figures. A file beyond a cap is refused before the rest of it is read, with a
sentence naming the cap; nothing is created.

The entrant caps are a big club or regional event with room to spare (the largest Italian
pair tournaments seat a few hundred pairs); the rounds and hands caps are a whole day of
play several times over.
"""
from __future__ import annotations

#: Pairs of one tournament (registration file rows; registered pairs of a tournament file).
MAX_PAIRS = 2000
#: Players of one tournament (two a pair; an individual or team tournament's players).
MAX_PLAYERS = 4000
#: Teams of one team tournament (rules.md §15: 4 to 6 players each).
MAX_TEAMS = 500
#: Rounds of one tournament (its plan's letters, the rounds of a tournament file).
MAX_ROUNDS = 40
#: Hands of one score sheet, and so the hands per round a tournament may set.
MAX_HANDS = 60
#: Tables of one round: every pair seated, two a table.
MAX_TABLES = MAX_PAIRS // 2
#: Pairs formed for one round of an individual or team tournament (two players a pair).
MAX_FORMED_PAIRS = MAX_PLAYERS // 2
#: The largest pair, player or team number a file may write (the pages count on numbers a
#: person can read; the database's integer fields stay far away from an overflow, also for
#: "the highest number + 1" of the next pair added by hand).
MAX_ENTRY_NUMBER = 9999
#: Groups (gironi, rules.md §14) of one tournament: two entrants a group at the least.
MAX_GROUPS = MAX_PAIRS // 2

#: Seconds a round's clock may hold in one of its counters (time added to the room, pauses
#: ended, a table's extra time, the round's duration): a week, far beyond any day of play;
#: a tournament file beyond it is refused (10^15 seconds would overflow the clock's
#: arithmetic and the database's integer columns).
MAX_CLOCK_SECONDS = 7 * 24 * 3600

#: Audit entries and penalties one tournament file may carry (a 40-round day of 1000
#: tables writes a few entries a table).
MAX_AUDIT_ENTRIES = 400_000
MAX_PENALTIES = 20_000
#: Nesting of a tournament file's JSON (an export nests about 12 deep, audit values included).
MAX_JSON_DEPTH = 40

#: Characters of one cell of a registration file (the longest field, a club, has 120).
MAX_CELL_CHARS = 500
#: Columns read from one row of a registration file (the layouts have at most 8).
MAX_COLUMNS = 50
#: Blank rows a registration file may hold beyond its data rows (between and after them);
#: a sheet of a million empty rows is refused after these instead of being walked through.
MAX_BLANK_ROWS = 1000
#: Bytes an XLSX may expand to, all its parts together, as the archive declares them
#: (zip bomb: a 585 KB file with one huge shared string expands to gigabytes). A
#: 2000-row registration sheet expands to well under 2 MB.
XLSX_MAX_UNCOMPRESSED = 40 * 1024 * 1024
#: Parts (files) of one XLSX archive.
XLSX_MAX_MEMBERS = 200
