"""Individual movement: placeholder, replaced by the schedule engine."""

from .errors import PairingError


def pair(request: dict) -> dict:
    raise PairingError("movimento individuale non ancora disponibile")
