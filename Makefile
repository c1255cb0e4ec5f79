VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test lint typecheck pytest check-contests check setup run demo clean mutate soak

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

# four workers (pytest-xdist): half the suite waits on a bot process or a timer, so four keep a
# 2-core machine busy (2 workers: 5 min 51 s, 4: 4 min 21 s, same load); PYTEST_WORKERS=0 runs it
# in one process. Two tests at a time from one queue, the bot-process ones first
# (tests/conftest.py): no worker is left alone with them
PYTEST_WORKERS ?= 4
pytest: $(STAMP)
	$(PY) -m pytest -q -n $(PYTEST_WORKERS) --maxschedchunk=2

# dev only, not part of `make test`: the soak and the outages at their full length (minutes)
soak: $(STAMP)
	PUZZLEBOT_FULL_TESTS=1 $(PY) -m pytest -q tests/rehearsal/test_soak.py tests/delivery/test_outbox_e2e.py \
		tests/delivery/test_telegram_failures_classified.py tests/rehearsal/test_crash_safety.py \
		tests/rehearsal/test_combinations.py

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
