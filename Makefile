# Everyday commands. `make run` serves the app; `make test` runs the whole suite.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000

# The exact versions `make setup` installs, inside pyproject.toml's ranges.
LOCK := .ci/requirements.lock

.PHONY: setup lock system-deps run test lint bench match clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

# Resolve pyproject.toml's dependencies (every extra) again to the newest versions in
# their ranges and write them to $(LOCK); `make setup` then installs them.
lock: setup
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --all-extras --python-version 3.11 --quiet -o $(LOCK)

# Chromium (browser tests), Redis and PostgreSQL (multi-process tests) from Debian.
system-deps:
	bash .ci/system-deps

run: setup
	@echo "Compiling the engine (a minute or two the first time)..." && $(BIN)/python -m engine.tools.warmup
	$(BIN)/gomoku serve --host $(HOST) --port $(PORT)

test: setup system-deps
	bash .ci/pytest

lint: setup
	$(BIN)/ruff check engine webapp tests
	$(BIN)/ruff format --check engine webapp tests
	$(BIN)/mypy engine webapp

bench: setup
	$(BIN)/gomoku bench

clean:
	rm -rf $(VENV) instance .pytest_cache tests/artifacts
