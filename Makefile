# Arbitro: two commands.
#   make run   install everything, prepare the demo tournament, serve http://127.0.0.1:8000
#   make test  install everything, check the import contracts, run the whole test suite on
#              SQLite, then again (all but the database-free tests) on a throw-away
#              PostgreSQL server (scripts/with-postgres.sh)
#   make test-fast  the inner loop: SQLite, no browser, no slow tests
#   make serve-prod  hosted setup (README, "Hosting"): PROCESSES waitress processes on ports
#              PORT, PORT+1, … behind a reverse proxy; set DATABASE_URL (PostgreSQL) first
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 8000
PROCESSES ?= 4
THREADS ?= 8

# Two pytest workers (pytest-xdist) on the 2-core machine, a test file per worker (a module's
# browser and fixtures stay together); WORKERS=0 runs in one process. The files go to the
# workers in the order tests/conftest.py sets (the files with a browser or a slow test
# first), not xdist's default (the files with the most tests first, which left the long
# browser files, of one to four tests, to the end of the run).
WORKERS ?= 2
# The 15 slowest tests are listed at the end of every run: where the suite's time goes.
PYTEST := $(BIN)/python -m pytest -q -n $(WORKERS) --dist loadfile --no-loadscope-reorder --durations=15

.PHONY: run test test-fast test-sqlite test-postgres lint-imports lint serve-prod setup system-deps bench messages

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.txt
	touch $(STAMP)

system-deps:
	@bash scripts/system-deps.sh

setup: system-deps $(STAMP)
	$(BIN)/python manage.py compilemessages --ignore=.venv --ignore=var -v 0
	$(BIN)/python manage.py migrate --noinput -v 0
	$(BIN)/python manage.py createcachetable
	$(BIN)/python manage.py collectstatic --noinput -v 0

run: setup
	$(BIN)/python manage.py seed_demo --url http://$(HOST):$(PORT)/
	$(BIN)/python manage.py serve --host $(HOST) --port $(PORT)

# The whole suite on SQLite, then on PostgreSQL (skipped, with a message, only where the
# postgresql package cannot be installed); fails if either fails.
# The import contracts (.importlinter) and ruff (pyflakes, bugbear, import order: ruff.toml)
# first: a broken layer or an unused import fails the run before any test.
test: setup
	$(MAKE) --no-print-directory lint-imports
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory test-sqlite
	$(MAKE) --no-print-directory test-postgres

# The inner loop while working: SQLite, no browser, nothing marked slow.
test-fast: setup
	env -u DATABASE_URL $(PYTEST) -m "not e2e and not slow"

lint-imports: $(STAMP)
	$(BIN)/lint-imports --no-cache

lint: $(STAMP)
	$(BIN)/ruff check .

test-sqlite:
	env -u DATABASE_URL $(PYTEST)

# Tests that touch no database (marked pure by tests/conftest.py) or check nothing that depends
# on the database engine (one_engine: the browser tests, the 120-pair simulation, the renderers of
# tests/documents/) ran on SQLite.
test-postgres:
	PYTHON=$(BIN)/python bash scripts/with-postgres.sh $(PYTEST) -m "not pure and not one_engine"

serve-prod: setup
	$(BIN)/python manage.py serve --host $(HOST) --port $(PORT) --processes $(PROCESSES) --threads $(THREADS)

bench: setup
	$(BIN)/python bench/pairing.py
	$(BIN)/python bench/standings.py
	$(BIN)/python bench/printing.py
	$(BIN)/python bench/captains.py
	$(BIN)/python bench/room.py
	$(BIN)/python bench/busiest_minute.py

messages: $(STAMP)
	$(BIN)/python manage.py makemessages -l en --ignore=.venv --ignore=var
