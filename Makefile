# wandering_light: the two commands of the README, and a few helpers.
#   make quickstart   set up .venv and run the main job
#   make test         set up .venv (with dev tools) and run every test (installs Debian's chromium for the browser
#                     tests when it is missing and we are root; otherwise those tests are skipped, with the reason)
#   make dashboard    serve the dashboard and explorers (Voila, 127.0.0.1): make dashboard DASHBOARD_ARGS="--runs runs"
#   make fuzz         fuzz every untrusted-input surface (10,000 cases each) into benchmarks/results/fuzz.json
#   make lock         re-resolve every dependency in a scratch venv and write the exact versions to constraints.txt
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
# torch is pinned in the same pip call so that pip never pulls a CUDA build on a CPU machine.
TORCH  ?= torch==2.13.0
# Every install takes the exact versions in constraints.txt (a pip constraints file, made by `make lock`), so two
# fresh installs on two days run the same libraries. pip rather than uv's lock: the CPU build of torch is a local
# wheel that pip finds through this machine's pip configuration and uv does not look at.
CONSTRAINTS ?= constraints.txt
# pip compiles no bytecode at install (--no-compile: 35 s against 78 s for the main install on the 2-core machine);
# Python writes it for each module the first time one is imported, also where the environment says
# PYTHONDONTWRITEBYTECODE (this machine's does: every start would compile torch and transformers again), so the
# modules a job uses are compiled once, by its first run (about 10 s), and the thousands it never imports not at all.
PIP     = $(BIN)/python -m pip install --disable-pip-version-check -q --no-compile -c $(CONSTRAINTS)
unexport PYTHONDONTWRITEBYTECODE

.PHONY: quickstart test check lab bench fuzz docs readme clean-venv chromium dashboard lock

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "wandering_light needs Python 3.11+"'
	$(PYTHON) -m venv $(VENV)

$(VENV)/.main-installed: pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(PIP) "$(TORCH)" -e .
	touch $@

# The `envs` extra: its four libraries declare bounds that contradict pins in constraints.txt (trackio: pillow<13;
# verifiers 0.3.1: mcp<2, and websockets<17 through openai-agents; openenv-core: gradio, which only its optional web UI
# imports), so pip's resolver rejects `.[dev,envs]`. Their other dependencies go in with the dev tools; they follow
# with --no-deps, each at the version constraints.txt pins.
ENVS_DEPS   = reasoning-gym aiohttp aiolimiter anthropic gepa loguru math-verify mcp msgpack "prime-pydantic-config[toml]" \
              prime-sandboxes prime-tunnel pyzmq renderers setproctitle tenacity tomli-w uvloop griffelib fastapi fastmcp \
              websockets brotli gradio-client orjson python-multipart starlette "uvicorn[standard]"
ENVS_NODEPS = verifiers openai-agents openenv-core trackio

$(VENV)/.dev-installed: pyproject.toml $(CONSTRAINTS) | $(BIN)/python
	$(PIP) "$(TORCH)" -e ".[dev]" $(ENVS_DEPS)
	$(PIP) --no-deps $(ENVS_NODEPS)
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

# The suite runs on TEST_WORKERS pytest-xdist workers, one test at a time each (2: the CI machine's cores); 0 runs it
# in this process, as a plain `pytest` does. A worker that runs out of tests takes the ones still queued for the other
# (`--dist worksteal`), so no worker sits idle while a long notebook waits behind another in the other's queue.
TEST_WORKERS ?= 2
test: $(VENV)/.dev-installed chromium
	$(BIN)/python tools/check_nbdev_sync.py
	WL_CHROMIUM=$(CHROMIUM) HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_DATASETS_OFFLINE=1 WANDB_MODE=offline $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

DASHBOARD_ARGS ?=
dashboard: $(VENV)/.dev-installed
	$(BIN)/wl dashboard $(DASHBOARD_ARGS)

lab: $(VENV)/.dev-installed
	$(BIN)/jupyter lab nbs/

bench: $(VENV)/.main-installed
	for b in benchmarks/*.py; do $(BIN)/python $$b --save || exit 1; done

# Every untrusted-input surface, 10,000 hostile cases each; writes benchmarks/results/fuzz.json (make test runs a few
# hundred of each).
fuzz: $(VENV)/.dev-installed
	HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 $(BIN)/python benchmarks/fuzz.py --save

readme: $(VENV)/.dev-installed
	$(BIN)/python tools/build_readme.py

clean-venv:
	rm -rf $(VENV)

# Resolve afresh (newest versions allowed by pyproject.toml, torch pinned) in a scratch venv; keep the result only if
# the install worked. Run `make test` afterwards, and commit constraints.txt with the reason for the change.
LOCKVENV = .lock-venv
lock:
	rm -rf $(LOCKVENV) && $(PYTHON) -m venv $(LOCKVENV)
	$(LOCKVENV)/bin/python -m pip install --disable-pip-version-check -q "$(TORCH)" -e ".[dev]"
	{ echo "# Exact versions of every dependency (with the dev tools): written by \`make lock\`, read by every install in the Makefile."; \
	  $(LOCKVENV)/bin/python -m pip freeze --exclude-editable | grep -v '^-e ' | sed 's/^torch==\([0-9.]*\)+.*/torch==\1/'; } > $(CONSTRAINTS).new
	mv $(CONSTRAINTS).new $(CONSTRAINTS) && rm -rf $(LOCKVENV)
