#!/usr/bin/env bash
# Runs a command against a throw-away PostgreSQL server (issue 13 item 1).
#
#   scripts/with-postgres.sh                      the whole test suite (what `make test` runs)
#   scripts/with-postgres.sh CMD ARGS...          any command, with DATABASE_URL set
#
# Uses Debian's `postgresql` package (installed with apt-get when missing, as
# scripts/system-deps.sh does; skipped with a message only where it cannot be installed).
# Creates a new cluster in a temporary directory, on a free loopback port, owned by the
# `postgres` user when running as root (initdb refuses root), with an Italian ICU collation
# (as a hosted Italian server would sort names, unlike SQLite's byte order), starts it,
# runs the command with DATABASE_URL=postgres://arbitro@<its socket folder>:PORT/arbitro, then stops
# the server and removes the directory on exit, also on failure or Ctrl+C. The exit status
# is the command's.
set -u
cd "$(dirname "$0")/.."

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

PGBIN="${ARBITRO_PGBIN:-$(find_bin)}"
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
  if command -v apt-get >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "Installo PostgreSQL (pacchetto postgresql) per i test su PostgreSQL"
    $SUDO apt-get update -qq || true
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql >/dev/null || true
    PGBIN="$(find_bin)"
  fi
fi
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
  echo "SALTATO: test su PostgreSQL non eseguiti: il pacchetto postgresql non si può installare qui" \
       "(niente apt-get o permessi); i test su SQLite valgono da soli." >&2
  exit 0
fi

# As root the server runs as `postgres` (initdb and postgres refuse root); otherwise as us.
AS=()
if [ "$(id -u)" -eq 0 ]; then
  if ! id postgres >/dev/null 2>&1; then
    echo "Manca l'utente postgres (lo crea il pacchetto postgresql)." >&2
    exit 1
  fi
  AS=(runuser -u postgres --)
fi

DIR="$(mktemp -d "${TMPDIR:-/tmp}/arbitro-pg.XXXXXX")"
[ ${#AS[@]} -eq 0 ] || chown postgres "$DIR"
PY="${PYTHON:-.venv/bin/python}"
[ -x "$PY" ] || PY=python3
PORT="$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

cleanup() {
  "${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -m immediate -w stop >/dev/null 2>&1
  rm -rf "$DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

LOCALE_ARGS=(--locale=C.UTF-8)
if "$PGBIN/pg_config" --configure 2>/dev/null | grep -q -- "--with-icu"; then
  LOCALE_ARGS+=(--locale-provider=icu --icu-locale=it-IT)
fi
if ! "${AS[@]}" "$PGBIN/initdb" -D "$DIR/data" -U arbitro -A trust -E UTF8 "${LOCALE_ARGS[@]}" \
     --no-sync >"$DIR/initdb.log" 2>&1; then
  cat "$DIR/initdb.log" >&2
  exit 1
fi
# A throw-away server: no durability needed, so no fsync; enough connections for two test
# servers of the multi-process test (tests/multiprocess) and the suite itself.
if ! "${AS[@]}" "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 60 \
     -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
     start >/dev/null; then
  cat "$DIR/server.log" >&2
  exit 1
fi
"${AS[@]}" "$PGBIN/createdb" -h 127.0.0.1 -p "$PORT" -U arbitro arbitro || exit 1

# The clients reach it by its Unix socket in $DIR (the host of the URL, percent-encoded):
# on the 2-core machine a query's round trip costs less than over loopback TCP (a
# PostgreSQL-heavy test file ran in 24 s instead of 33 s). TCP stays open on 127.0.0.1.
SOCKET_DIR="$("$PY" -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$DIR")"
if [ ${#DIR} -lt 80 ]; then
  export DATABASE_URL="postgres://arbitro@$SOCKET_DIR:$PORT/arbitro"
else  # a socket's path has at most 107 bytes
  export DATABASE_URL="postgres://arbitro@127.0.0.1:$PORT/arbitro"
fi
echo "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') temporaneo su 127.0.0.1:$PORT ($DIR)"
if [ $# -eq 0 ]; then
  set -- "$PY" -m pytest -q -p no:cacheprovider
fi
"$@"
status=$?
exit $status
