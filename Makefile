# The README's two commands: `make run` (set up + start the app) and `make test` (set up + every test).
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
PORT   ?= 8501
# Where a machine keeps a local CPU build of torch (it saves a multi-GB CUDA download), use it.
FIND_LINKS = $(if $(wildcard /opt/wheels/torch-*),--find-links /opt/wheels,)

.PHONY: run parlour test test-no-shared setup setup-server lint format bench clean

# `run` needs only the runtime; `test` adds the test tools and the training stack (torch, CPU)
# for the pipeline smoke test.
$(BIN)/.jxmj-runtime: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(BIN)/.jxmj-dev: $(BIN)/.jxmj-runtime
	$(BIN)/python -m pip install --quiet $(FIND_LINKS) -e '.[dev,train]'
	touch $@

setup: $(BIN)/.jxmj-dev

# A server's or a parlour's: the runtime and the PostgreSQL driver (psycopg), no test or training
# tools (`setup` would add PyTorch).
$(BIN)/.jxmj-postgres: $(BIN)/.jxmj-runtime
	$(BIN)/python -m pip install --quiet -e '.[postgres]'
	touch $@

setup-server: $(BIN)/.jxmj-postgres

run: $(BIN)/.jxmj-runtime
	$(BIN)/jxmj app --server.port $(PORT)

# A parlour on this machine: WORKERS app processes behind nginx on PARLOUR_PORT (or a PORT given on
# the command line: `make parlour WORKERS=2 PORT=8080`), one database (JXMJ_DB: PostgreSQL's driver
# is installed with it).
WORKERS      ?= 2
PARLOUR_PORT ?= 8080
parlour: $(BIN)/.jxmj-postgres
	$(BIN)/jxmj parlour --workers $(WORKERS) --port $(if $(filter command line,$(origin PORT)),$(PORT),$(PARLOUR_PORT))

test: setup
	bash scripts/ensure-chromium.sh
	bash scripts/ensure-cjk-font.sh
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q

# Every test once more with the shared folder hidden, as on a user's fresh clone (CI has ../shared
# beside it; users don't): tests/shared_guard.py then fails a test that reads ../shared and any skip
# that does not name what it needs. The browser and PostgreSQL runs read nothing of it and skip here.
test-no-shared: setup
	env -u JXMJ_TEST_PG JXMJ_SHARED=/nonexistent/jxmj-no-shared $(BIN)/python -m pytest -q -p no:cacheprovider -m "not browser"

lint:
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .
	$(BIN)/mypy

bench: setup
	for b in bench/bench_*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .mypy_cache
