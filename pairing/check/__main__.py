"""``python -m pairing.check REQUEST.json RESPONSE.json``: :func:`pairing.check.main`."""

import sys

from . import main

sys.exit(main())
