# Arbitro: two commands.
#   make run   install everything, prepare the demo tournament, serve http://127.0.0.1:8000
#   make test  install everything, run the whole test suite
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test setup system-deps bench messages

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
	$(BIN)/python manage.py collectstatic --noinput -v 0

run: setup
	$(BIN)/python manage.py seed_demo --url http://$(HOST):$(PORT)/
	$(BIN)/python manage.py serve --host $(HOST) --port $(PORT)

test: setup
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python bench/pairing.py
	$(BIN)/python bench/standings.py
	$(BIN)/python bench/printing.py
	$(BIN)/python bench/captains.py
	$(BIN)/python bench/room.py

messages: $(STAMP)
	$(BIN)/python manage.py makemessages -l en --ignore=.venv --ignore=var
