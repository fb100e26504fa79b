# The two commands of the README: `make` sets everything up and runs the main job; `make test` runs the tests.
VENV := .venv
BIN := $(VENV)/bin

.PHONY: build test test-fast bench bench-scale lint clean

PYODIDE := site/node_modules/.package-lock.json

build: $(VENV)/.installed $(PYODIDE)
	$(BIN)/carddb build

# The tests run on every core (pytest-xdist); each test module runs whole on one worker, so what a module builds once
# is built once. The modules are given out in the order tests/conftest.py collects them, the longest first (xdist's
# own reordering, by number of tests, put the longest module last). `make test WORKERS=0` runs them in one process.
WORKERS ?= auto
PARALLEL := -n $(WORKERS) --dist loadscope --no-loadscope-reorder

# Every test, the browser ones too: run it before you push (about 10 minutes on 2 idle cores)
test: $(VENV)/.installed $(PYODIDE)
	$(BIN)/pytest $(PARALLEL)

# The tests without a browser and without the slow ones: run it before every commit (about 2 minutes on 2 idle cores)
test-fast: $(VENV)/.installed
	$(BIN)/pytest $(PARALLEL) -m "not browser and not slow"

bench: $(VENV)/.installed
	for script in bench/bench_*.py; do [ $$script = bench/bench_scale.py ] || $(BIN)/python $$script || exit 1; done

# A game grown to 250, 2,500 and 5,000 generated cards, each built cold, unchanged and after one edit (an hour or more)
bench-scale: $(VENV)/.installed
	$(BIN)/python bench/bench_scale.py

lint: $(VENV)/.installed
	$(BIN)/ruff check carddb tests bench
	$(BIN)/lint-imports

$(VENV)/.installed: pyproject.toml constraints.txt
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,postgres]' -c constraints.txt
	touch $@

# Pyodide for the site's in-browser checker, pinned in site/package-lock.json, from the npm registry
$(PYODIDE): site/package.json site/package-lock.json
	npm ci --prefix site --no-audit --no-fund --loglevel=error
	touch $@

clean:
	rm -rf output
