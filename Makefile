# The two commands of the README: `make demo` (the main job) and `make test` (the tests).
# Both first check the machine for the system packages they need (scripts/system-requirements.toml; the README
# lists them) and stop with the command that installs a missing one, then create .venv and install the project into
# it on first use.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.cgpm-installed
PYTEST_WORKERS ?= 2

.PHONY: demo test lint bench regress install clean external-engines check-demo check-test

install: $(STAMP) external-engines

# the Java engines (engines/external/java/build, when javac is there) and the npm packages of the external engines
# (RSP-JS, db-ivm), into engines/external/*/node_modules when npm is there
external-engines:
	@scripts/install-external-engines

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || { echo "cgpm-bench needs Python 3.11 or newer ($(PYTHON) is older)" >&2; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,lint]'
	touch $(STAMP)

# checked before .venv is built, which needs Python's venv module (on Debian, a package of its own)
check-demo check-test: check-%:
	@$(PYTHON) scripts/check-system $*

demo: check-demo $(STAMP)
	$(BIN)/cgpm demo

test: check-test $(STAMP) external-engines
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) -q

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python -m pytest benchmarks -q --benchmark-only

# the regression suite (benchmarks/configs/regress.toml) on this commit: its record joins results/history/regress.csv,
# and the gate fails on a significant slowdown against the previous commit's record on this machine
# (docs/benchmarking.md, The regression suite); REGRESS_FLAGS=... adds cgpm regress flags
regress: $(STAMP)
	$(BIN)/cgpm regress --check $(REGRESS_FLAGS)

clean:
	rm -rf $(VENV) .tox .pytest_cache .hypothesis results/runs engines/external/rspjs/node_modules engines/external/ivm/node_modules engines/external/java/build
