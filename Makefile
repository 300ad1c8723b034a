# Two commands do all the set-up: `make run` starts the bot, `make test` runs every test.
# Both create (or reuse) the virtual environment in .venv and install what pyproject.toml pins.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: run test test-fast bench lint

SDK := web/sdk/node_modules/.package-lock.json

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

# Discord's Embedded App SDK, pinned by web/sdk/package-lock.json: the bot serves it to the board inside Discord.
$(SDK): web/sdk/package-lock.json
	npm ci --prefix web/sdk --ignore-scripts --no-audit --no-fund --silent

run: $(STAMP) $(SDK)
	$(VENV)/bin/python bot.py

test: $(STAMP) $(SDK)
	$(VENV)/bin/python -m pytest -n auto --maxschedchunk 1

# The tests a change most likely breaks, in about two minutes here (README: what it leaves out).
test-fast: $(STAMP) $(SDK)
	$(VENV)/bin/python -m pytest -n auto --maxschedchunk 1 --fast

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

bench: $(STAMP)
	for b in benchmarks/bench_*.py; do $(VENV)/bin/python $$b || exit 1; done
