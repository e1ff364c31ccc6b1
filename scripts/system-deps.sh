#!/usr/bin/env bash
# Installs the Debian packages Arbitro needs beyond Python: Pango/HarfBuzz and fonts for
# WeasyPrint's PDFs, gettext for the translations, Chromium for the end-to-end tests,
# poppler-utils to look at PDFs, nginx for the test of the documented HTTPS proxy setup
# (tests/security/test_proxy_nginx.py starts its own on loopback; Debian's package may also
# start the system service on port 80). Does nothing when they are already there; skips
# quietly (with a note) where apt-get is not available, e.g. on macOS or Windows.
set -u
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v msgfmt >/dev/null 2>&1 || need+=(gettext)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
{ command -v nginx || [ -x /usr/sbin/nginx ]; } >/dev/null 2>&1 || need+=(nginx)
ldconfig -p 2>/dev/null | grep -q libpangoft2-1.0 || need+=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || need+=(fonts-dejavu-core)
[ -d /usr/share/fonts/truetype/liberation ] || need+=(fonts-liberation)
[ ${#need[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "Nota: installa a mano ${need[*]} (servono per PDF e test nel browser)." >&2
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "Installo i pacchetti di sistema: ${need[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
