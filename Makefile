VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test lint typecheck pytest check-contests check setup run demo clean mutate

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

lint: $(STAMP)
	$(VENV)/bin/ruff check bot tests

typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict bot

pytest: $(STAMP)
	$(PY) -m pytest -q

check-contests: $(STAMP)
	for f in contests/*.toml; do $(PY) -m bot check-contest $$f > /dev/null || exit 1; done

test: lint typecheck check-contests pytest

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

check: check-contests
	for f in contests/*.toml; do $(PY) -m bot check-contest $$f; echo; done

setup: $(STAMP)
	$(PY) -m bot setup

run: $(STAMP)
	$(PY) -m bot run

demo: $(STAMP)
	$(PY) -m bot demo $(DEMO_ARGS)

.PHONY: bench bench-smoke

bench: $(STAMP)
	$(PY) bench/run.py

bench-smoke: $(STAMP)
	$(PY) bench/run.py --smoke

# dev only, not part of `make test`: mutation testing of bot/domain (docs/mutants.md)
mutate: $(STAMP)
	VENV=$(VENV) bash scripts/mutate.sh
