# wandering_light: the two commands of the README, and a few helpers.
#   make quickstart   set up .venv and run the main job
#   make test         set up .venv (with dev tools) and run every test (installs Debian's chromium for the browser
#                     tests when it is missing and we are root; otherwise those tests are skipped, with the reason)
#   make dashboard    serve the dashboard and explorers (Voila, 127.0.0.1): make dashboard DASHBOARD_ARGS="--runs runs"
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
# torch is pinned in the same pip call so that pip never pulls a CUDA build on a CPU machine.
TORCH  ?= torch==2.13.0
PIP     = $(BIN)/python -m pip install --disable-pip-version-check -q

.PHONY: quickstart test check lab bench docs readme clean-venv chromium dashboard

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "wandering_light needs Python 3.11+"'
	$(PYTHON) -m venv $(VENV)

$(VENV)/.main-installed: pyproject.toml | $(BIN)/python
	$(PIP) "$(TORCH)" -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(PIP) "$(TORCH)" -e ".[dev]"
	touch $@ $(VENV)/.main-installed

quickstart: $(VENV)/.main-installed
	$(BIN)/wl quickstart

check: $(VENV)/.dev-installed
	$(BIN)/python tools/check_nbdev_sync.py

# The browser tests (tests/test_browser.py) drive Debian's chromium with Playwright, which never downloads a browser.
CHROMIUM ?= /usr/bin/chromium
chromium:
	@if [ -x "$(CHROMIUM)" ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing Debian's chromium for the browser tests (apt-get install chromium)"; \
	  { DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1 || \
	    { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null 2>&1; }; } || \
	  echo "could not install chromium: the browser tests will be skipped"; \
	else echo "no $(CHROMIUM), and not root with apt-get: the browser tests will be skipped"; fi

test: $(VENV)/.dev-installed chromium
	$(BIN)/python tools/check_nbdev_sync.py
	WL_CHROMIUM=$(CHROMIUM) HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1 WANDB_MODE=offline $(BIN)/python -m pytest $(PYTEST_ARGS)

DASHBOARD_ARGS ?=
dashboard: $(VENV)/.dev-installed
	$(BIN)/wl dashboard $(DASHBOARD_ARGS)

lab: $(VENV)/.dev-installed
	$(BIN)/jupyter lab nbs/

bench: $(VENV)/.main-installed
	for b in benchmarks/*.py; do $(BIN)/python $$b --save || exit 1; done

readme: $(VENV)/.dev-installed
	$(BIN)/python tools/build_readme.py

clean-venv:
	rm -rf $(VENV)
