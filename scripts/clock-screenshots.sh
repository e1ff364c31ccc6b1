#!/bin/sh
# Screenshots of the round clock (issue 12) for the README: the projector's clock at
# 1920x1080 and a captain's phone at 390x844, made by the browser test with Debian's
# Chromium and a fake server clock. Writes docs/projector-clock-1920x1080.png,
# docs/projector-clock-over-1920x1080.png and docs/captain-clock-390x844.png.
set -e
cd "$(dirname "$0")/.."
ARBITRO_SCREENSHOTS=1 .venv/bin/python -m pytest -q -p no:cacheprovider tests/e2e/test_round_clock.py
