# The README's two commands: `make run` (set up + start the app) and `make test` (set up + every test).
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
PORT   ?= 8501
# Where a machine keeps a local CPU build of torch (it saves a multi-GB CUDA download), use it.
FIND_LINKS = $(if $(wildcard /opt/wheels/torch-*),--find-links /opt/wheels,)

.PHONY: run test test-no-shared setup lint format bench clean

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

run: $(BIN)/.jxmj-runtime
	$(BIN)/jxmj app --server.port $(PORT)

test: setup
	bash scripts/ensure-chromium.sh
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest -q

# The tests that touch the renderer, the datasets, the models and the photo path, run again with the
# shared folder hidden (a user's fresh clone has no ../shared; CI has one): tests/shared_guard.py fails
# any test that reads ../shared then, and any skip that does not name what it needs.
NO_SHARED_TESTS = tests/datasets tests/vision tests/test_cmd_detect.py tests/test_cmd_photo.py \
	tests/app/test_apptest.py tests/app/test_photo_hand.py tests/app/test_timing.py
test-no-shared: setup
	JXMJ_SHARED=/nonexistent/jxmj-no-shared $(BIN)/python -m pytest -q -p no:cacheprovider $(NO_SHARED_TESTS)

lint:
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: setup
	for b in bench/bench_*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
