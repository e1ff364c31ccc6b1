"""Registration files and the players they name: :mod:`.reading` (the pairs' and the
individual players' CSV/XLSX files, the checks of every cell), :mod:`.teams` (a team
tournament's files, rules.md §15), :mod:`.previews` (the checked rows kept on disk between the
preview and the confirmation), :mod:`.limits` (the caps of every file Arbitro reads),
:mod:`.player_data` (a player as typed or read).

``RegistrationRow`` stays importable from here: scripts build the rows of a file with it.
"""
from .reading import RegistrationRow

__all__ = ["RegistrationRow"]
