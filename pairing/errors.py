"""The exception raised for requests the engine cannot pair."""


class PairingError(ValueError):
    """A malformed or impossible pairing request (pair listed twice, unknown system, ...).

    The message is in Italian, meant for the arbiter; the command line prints it as
    ``{"error": "..."}`` on stderr and exits with status 2 (pairing-io.md).
    """
