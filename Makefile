# The two commands of the README: `make` sets everything up and runs the main job; `make test` runs the tests.
VENV := .venv
BIN := $(VENV)/bin

.PHONY: build test bench lint clean

build: $(VENV)/.installed
	$(BIN)/carddb build

test: $(VENV)/.installed
	$(BIN)/pytest

bench: $(VENV)/.installed
	for script in bench/bench_*.py; do $(BIN)/python $$script || exit 1; done

lint: $(VENV)/.installed
	$(BIN)/ruff check carddb tests bench

$(VENV)/.installed: pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

clean:
	rm -rf output
