"""The tournament plan string: one letter per round, ``|`` between two sessions.

``M`` is a Mitchell round, ``D`` a Danish round, ``R`` a round-robin round (rules.md §14,
pair and team tournaments; :data:`ROUND_ROBIN`); ``|`` starts a new session and is not a
round: ``"MMD|DD"`` is five rounds in two sessions (rounds 1–3 in session 1, rounds 4–5
in session 2). A new session resets only the rest rule (rules.md §5, art. 33: a pair
rests at most once per session); standings and the Mitchell movement run on across
sessions (rules.md §11).

Pure Python (no Django): shared by the services (``Tournament.system_of_round``,
``Tournament.session_of_round``), the settings page and the random tournament generator
(:mod:`pairing.rtg`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PlanError", "PlannedRound", "parse_plan", "session_starts", "ROUND_ROBIN",
           "LETTERS"]

#: The plan letter of a round-robin round (*girone all'italiana*, rules.md §14).
ROUND_ROBIN = "R"
#: Every round letter a plan may use: Mitchell, Danish, round robin.
LETTERS = "MD" + ROUND_ROBIN


class PlanError(ValueError):
    """A malformed plan. ``code`` says what is wrong, for a translated sentence:

    ``"empty"`` (no round), ``"letter"`` (a character other than M, D, R, ``|``; ``char``
    holds it), ``"leading"`` (starts with ``|``), ``"trailing"`` (ends with ``|``),
    ``"empty_session"`` (``||``: a session with no round).
    """

    def __init__(self, code: str, message: str, char: str = ""):
        super().__init__(message)
        self.code = code
        self.char = char


@dataclass(frozen=True)
class PlannedRound:
    """Round ``number`` (1-based) of a plan: ``system`` ``"M"``, ``"D"`` or ``"R"``,
    ``session`` (1-based)."""

    number: int
    system: str
    session: int


def parse_plan(plan: str) -> list[PlannedRound]:
    """Split ``plan`` into its rounds, each with its system and session.

    Args:
        plan: e.g. ``"MMD|DD"``; letters are case-insensitive, spaces are ignored.
    Returns:
        one :class:`PlannedRound` per round, in order: ``"MMD|DD"`` →
        (1, M, 1), (2, M, 1), (3, D, 1), (4, D, 2), (5, D, 2).
    Raises:
        PlanError: empty plan, a character other than M/D/R/``|``, ``|`` at the start or the
            end, or two ``|`` in a row (``code`` tells which).
    """
    text = "".join((plan or "").split()).upper()
    for char in text:
        if char not in LETTERS + "|":
            raise PlanError("letter", f"plan letters are {', '.join(LETTERS)} and |, "
                                      f"not {char!r}", char)
    if not text.replace("|", ""):
        raise PlanError("empty", "the plan has no round")
    if text.startswith("|"):
        raise PlanError("leading", "the plan starts with |")
    if text.endswith("|"):
        raise PlanError("trailing", "the plan ends with |")
    if "||" in text:
        raise PlanError("empty_session", "the plan has a session with no round (||)")
    rounds, session = [], 1
    for char in text:
        if char == "|":
            session += 1
        else:
            rounds.append(PlannedRound(len(rounds) + 1, char, session))
    return rounds


def session_starts(plan: str) -> dict[int, int]:
    """``{session: first round number}`` of ``plan`` (``"MMD|DD"`` → ``{1: 1, 2: 4}``).

    Raises:
        PlanError: as :func:`parse_plan`.
    """
    starts: dict[int, int] = {}
    for r in parse_plan(plan):
        starts.setdefault(r.session, r.number)
    return starts


# -- individual tournaments (rules.md §9) -----------------------------------------------------
# In an individual tournament the letters mean D = Danish individual, M = individual movement
# (rules.md §9); `|` splits sessions as for pairs. Kept apart from parse_plan so that letters
# added for pair tournaments do not become valid here.
INDIVIDUAL_LETTERS = {"D": "danish-individual", "M": "individual-movement"}


def parse_individual_plan(plan: str) -> list[PlannedRound]:
    """Split an individual tournament's ``plan`` into rounds (``system`` ``"D"`` or ``"M"``).

    Args:
        plan: e.g. ``"DDM|MM"``; letters are case-insensitive, spaces are ignored.
    Returns:
        one :class:`PlannedRound` per round, as :func:`parse_plan`; map ``system`` to the
        engine's name with :data:`INDIVIDUAL_LETTERS`.
    Raises:
        PlanError: as :func:`parse_plan`; ``"letter"`` for any character other than D, M,
            ``|``.
    """
    for char in "".join((plan or "").split()).upper():
        if char not in "MD|":
            raise PlanError("letter", f"plan letters are D, M and |, not {char!r}", char)
    return parse_plan(plan)
