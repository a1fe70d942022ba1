# Two commands for a newcomer: `make run` and `make test` (`make check`: the fast tier of
# `make test`, seconds). All create .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
ARGS ?=

.PHONY: run check test test-compiled compiled pure lint bench clean

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
	$(BIN)/ruff check server dev tests benchmarks build_backend setup.py
	$(BIN)/ruff format --check server dev tests benchmarks build_backend setup.py
	$(BIN)/mypy
	$(BIN)/vulture
	$(BIN)/pytest --fast server dev tests

# Chromium, PostgreSQL, nginx, redis-server and axe-core: installed when missing (apt as root).
# Every test on the pure build, then the rules' tiers on the compiled one (test-compiled).
test: $(VENV)/.dev pure
	tests/setup/system-deps
	$(BIN)/ruff check server dev tests benchmarks build_backend setup.py
	$(BIN)/ruff format --check server dev tests benchmarks build_backend setup.py
	$(BIN)/mypy
	$(BIN)/vulture
	$(BIN)/pytest -n 2 --dist loadfile server dev tests  # two workers; a file stays on one
	$(MAKE) test-compiled

# The compiled build (docs/compiled.md): engine, solver and race built by mypyc, in place
# (the .so beside each .py, which Python imports first); `make pure` removes them.
compiled: $(VENV)/.dev
	$(BIN)/pip install -q "setuptools>=77"
	SCORPION_COMPILED=1 $(BIN)/python setup.py -q build_ext --inplace

pure:
	find server -name '*.so' -delete

# The tests of the rules (engine, solver, race) on the compiled build; pure again after.
test-compiled: compiled
	SCORPION_BUILD=compiled $(BIN)/pytest -n 2 --fast tests/engine tests/solver tests/race \
		&& SCORPION_BUILD=compiled $(BIN)/pytest tests/test_build.py; \
		status=$$?; $(MAKE) pure; exit $$status

lint: $(VENV)/.dev
	$(BIN)/ruff check --fix server dev tests benchmarks build_backend setup.py
	$(BIN)/ruff format server dev tests benchmarks build_backend setup.py

bench: $(VENV)/.dev
	$(BIN)/python benchmarks/engine_speed.py

clean:
	rm -rf $(VENV)
