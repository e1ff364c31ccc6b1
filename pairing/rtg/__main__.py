"""``python -m pairing.rtg ...``: :func:`pairing.rtg.main`."""

import sys

from . import main

sys.exit(main())
