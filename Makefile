# Two commands for a newcomer: `make run` and `make test` (`make check`: the fast tier of
# `make test`, seconds). All create .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
ARGS ?=

.PHONY: run check test lint bench clean

# `make run` needs only the server (the runtime package); `make test` adds the dev tools.
$(BIN)/scorpion: pyproject.toml deploy/requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e . -c deploy/requirements.lock
	touch $@

# dev/ (scorpion_dev): the processes the tests and the benchmarks start; dev venv only.
$(VENV)/.dev: $(BIN)/scorpion dev/pyproject.toml
	$(BIN)/pip install -q -e '.[dev]' -e ./dev -c deploy/requirements.lock
	touch $@

run: $(BIN)/scorpion
	$(BIN)/scorpion serve --host $(HOST) --port $(PORT) $(ARGS)

# Lint, types and the tests that start nothing (tests/support/tier.py): no server, database
# or browser, so no system packages either.
check: $(VENV)/.dev
	$(BIN)/ruff check server dev tests benchmarks
	$(BIN)/ruff format --check server dev tests benchmarks
	$(BIN)/mypy
	$(BIN)/vulture
	$(BIN)/pytest --fast server dev tests

# Chromium, PostgreSQL, nginx, redis-server and axe-core: installed when missing (apt as root).
test: $(VENV)/.dev
	tests/setup/system-deps
	$(BIN)/ruff check server dev tests benchmarks
	$(BIN)/ruff format --check server dev tests benchmarks
	$(BIN)/mypy
	$(BIN)/vulture
	$(BIN)/pytest -n 2 --dist loadfile server dev tests  # two workers; a file stays on one

lint: $(VENV)/.dev
	$(BIN)/ruff check --fix server dev tests benchmarks
	$(BIN)/ruff format server dev tests benchmarks

bench: $(VENV)/.dev
	$(BIN)/python benchmarks/engine_speed.py

clean:
	rm -rf $(VENV)
