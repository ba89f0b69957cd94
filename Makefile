# The two commands of the README: `make demo` (the main job) and `make test` (the tests).
# Both create .venv and install the project into it on first use; nothing else is needed but
# Python 3.11+ and Java 17+ (scripts/check-java says how to get Java when it is missing).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.cgpm-installed
PYTEST_WORKERS ?= 2

.PHONY: demo test lint bench install clean external-engines

install: $(STAMP) external-engines

# RSP-JS for the external-engine driver, into engines/external/rspjs/node_modules when npm is there
external-engines:
	@scripts/install-external-engines

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "cgpm-bench needs Python 3.11 or newer ($(PYTHON) is older)" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,lint]'
	touch $(STAMP)

demo: $(STAMP)
	@scripts/check-java
	$(BIN)/cgpm demo

test: $(STAMP) external-engines
	@scripts/check-java
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) -q

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python -m pytest benchmarks -q --benchmark-only

clean:
	rm -rf $(VENV) .tox .pytest_cache .hypothesis results/runs engines/external/rspjs/node_modules
