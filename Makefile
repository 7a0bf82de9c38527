# Everyday commands. `make run` serves the app; `make test` runs the whole suite.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: setup system-deps run test lint bench match clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

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
