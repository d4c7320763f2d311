# Two commands for a fresh machine (each sets itself up):
#   make demo   runs the demonstration evening in examples/
#   make test   runs the whole test suite: pytest with doctests, ruff, mypy --strict
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin

.PHONY: demo test bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@

demo: $(BIN)/.installed
	PATH="$(CURDIR)/$(BIN):$$PATH" bash examples/demo.sh

test: $(BIN)/.installed
	$(BIN)/python -m pytest
	$(BIN)/ruff check romme_score tests benchmarks
	$(BIN)/mypy --strict romme_score

bench: $(BIN)/.installed
	$(BIN)/python -m pip install -q -e '.[bench]'
	$(BIN)/python benchmarks/solver.py
	$(BIN)/python benchmarks/startup.py
	$(BIN)/python benchmarks/sessions.py
	$(BIN)/python benchmarks/settle.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
