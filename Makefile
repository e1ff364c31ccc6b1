# Arbitro: two commands.
#   make run   install everything, prepare the demo tournament, serve http://127.0.0.1:8000
#   make test  install everything, run the whole test suite on SQLite, then again on a
#              throw-away PostgreSQL server (scripts/with-postgres.sh)
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

.PHONY: run test test-sqlite test-postgres serve-prod setup system-deps bench messages

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
test: setup
	$(MAKE) --no-print-directory test-sqlite
	$(MAKE) --no-print-directory test-postgres

test-sqlite:
	env -u DATABASE_URL $(BIN)/python -m pytest -q

test-postgres:
	PYTHON=$(BIN)/python bash scripts/with-postgres.sh

serve-prod: setup
	$(BIN)/python manage.py serve --host $(HOST) --port $(PORT) --processes $(PROCESSES) --threads $(THREADS)

bench: setup
	$(BIN)/python bench/pairing.py
	$(BIN)/python bench/standings.py
	$(BIN)/python bench/printing.py
	$(BIN)/python bench/captains.py
	$(BIN)/python bench/room.py

messages: $(STAMP)
	$(BIN)/python manage.py makemessages -l en --ignore=.venv --ignore=var
