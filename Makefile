# wandering_light: the two commands of the README, and a few helpers.
#   make quickstart   set up .venv and run the main job
#   make test         set up .venv (with dev tools) and run every test
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
# torch is pinned in the same pip call so that pip never pulls a CUDA build on a CPU machine.
TORCH  ?= torch==2.13.0
PIP     = $(BIN)/python -m pip install --disable-pip-version-check -q

.PHONY: quickstart test check lab bench docs readme clean-venv

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

test: $(VENV)/.dev-installed
	$(BIN)/python tools/check_nbdev_sync.py
	HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1 WANDB_MODE=offline $(BIN)/python -m pytest $(PYTEST_ARGS)

lab: $(VENV)/.dev-installed
	$(BIN)/jupyter lab nbs/

bench: $(VENV)/.main-installed
	for b in benchmarks/*.py; do $(BIN)/python $$b --save || exit 1; done

readme: $(VENV)/.dev-installed
	$(BIN)/python tools/build_readme.py

clean-venv:
	rm -rf $(VENV)
