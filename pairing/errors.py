"""The exception raised for requests the engine cannot pair."""
from __future__ import annotations

from .messages import msg


class PairingError(ValueError):
    """A malformed or impossible pairing request (pair listed twice, unknown system, ...).

    The message is in Italian, meant for the arbiter; the command line prints it as
    ``{"error": "..."}`` on stderr and exits with status 2 (pairing-io.md). Raised through
    :func:`refusal`, its message is a :class:`pairing.messages.Message`: ``code`` and
    ``params`` let the Django side show it in the reader's language
    (``tournaments.i18n_messages.message_text``). A PairingError built from a plain string
    has the code ``""`` and is shown as it is.
    """

    @property
    def code(self) -> str:
        """The refusal's stable code (``"pairing.…"``), or ``""`` for a plain-text error."""
        return getattr(self.args[0], "code", "") if self.args else ""

    @property
    def params(self) -> dict:
        """The values the code's template is filled with (``{}`` for a plain-text error)."""
        return dict(getattr(self.args[0], "params", None) or {}) if self.args else {}


def refusal(code: str, **params) -> PairingError:
    """The :class:`PairingError` for ``code`` (a ``pairing.…`` key of
    :data:`pairing.messages.TEMPLATES`) with ``params``: ``str(error)`` is the Italian text.
    Raises ``KeyError`` for an unknown code (a bug of the caller)."""
    return PairingError(msg(code, **params))
