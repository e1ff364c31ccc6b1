"""``python -m pairing``: request JSON on stdin, response JSON on stdout (pairing-io.md).

Exit status 0 with a response; 2 with a one-line ``{"error": "..."}`` on stderr when the
request is not valid JSON or is malformed or impossible (:class:`pairing.PairingError`).
"""

from __future__ import annotations

import json
import sys

from . import PairingError, run


def main(argv=None) -> int:
    """Read a request on stdin, write the response on stdout; return the exit status."""
    try:
        request = json.loads(sys.stdin.read())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return _fail(f"JSON non valido: {exc}")
    try:
        response = run(request)
    except PairingError as exc:
        return _fail(str(exc))
    json.dump(response, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _fail(message: str) -> int:
    sys.stderr.write(json.dumps({"error": message}, ensure_ascii=False) + "\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
