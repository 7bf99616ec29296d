"""Shared pytest setup: offline model hubs, a private temporary directory, and the --slow switch."""
import collections, json, os, tempfile
from pathlib import Path
import pytest

# One OpenMP thread per process unless the caller says otherwise: the suite runs on as many pytest-xdist workers as the
# machine has cores, each starting programs of its own, so torch's default of a thread per core oversubscribes the CPU
# (a test that wants more threads asks for them: `--threads`, torch.set_num_threads). Set before torch is imported.
for k, v in {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "WANDB_MODE": "offline",
             "TOKENIZERS_PARALLELISM": "false", "WANDB_SILENT": "true", "OMP_NUM_THREADS": "1"}.items():
    os.environ.setdefault(k, v)

@pytest.fixture(scope="session", autouse=True)
def private_tmpdir(tmp_path_factory):
    """Everything the notebooks and the programs they start put in the temporary directory goes under pytest's own
    base directory, which pytest prunes (the last 3 runs are kept): the notebooks' `tempfile.mkdtemp()` folders, model
    checkpoints among them, used to stay in /tmp after every run."""
    d = str(tmp_path_factory.mktemp("tmp"))
    old = os.environ.get("TMPDIR"), tempfile.tempdir
    os.environ["TMPDIR"], tempfile.tempdir = d, d
    yield d
    if old[0] is None: os.environ.pop("TMPDIR", None)
    else: os.environ["TMPDIR"] = old[0]
    tempfile.tempdir = old[1]

SCREENSHOTS = pytest.StashKey()            # where tests/test_browser.py saved its screenshots

def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if SCREENSHOTS in config.stash:
        terminalreporter.write_line(f"browser test screenshots: {config.stash[SCREENSHOTS]}")

def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run notebook cells marked `#| slow` and tests marked slow")

# Longest first: each test's seconds in a clean-clone `make test` (tests/durations.json, from `--durations=0`; a test
# not listed counts as 1 s). `make test` runs xdist's `--dist loadgroup --no-loadscope-reorder`: each worker holds two or
# three tests at a time and takes the next in this order, so the long notebooks start first and the short tests fill in
# at the end, instead of a long one starting last on one worker while the other sits idle. The tests of a module with a
# module-scoped fixture (a browser, a server) stay together, in one xdist group, so that fixture is set up once.
DURATIONS = Path(__file__).with_name("durations.json")

def _module_scoped(item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    return bool(info) and any(defs and defs[-1].scope == "module" for defs in info.name2fixturedefs.values())

@pytest.hookimpl(tryfirst=True)          # before xdist's own hook, which reads the groups
def pytest_collection_modifyitems(config, items):
    known = json.loads(DURATIONS.read_text()) if DURATIONS.exists() else {}
    grouped = {item.path for item in items if _module_scoped(item)}
    unit = lambda item: str(item.path) if item.path in grouped else item.nodeid
    secs = collections.Counter()
    for item in items:
        secs[unit(item)] += known.get(item.nodeid, 1.0)
        if item.path in grouped: item.add_marker(pytest.mark.xdist_group(item.path.stem))
    items.sort(key=lambda item: -secs[unit(item)])       # stable: a module's tests keep their order
    if config.getoption("--slow"): return
    skip = pytest.mark.skip(reason="slow: run with --slow")
    for item in items:
        if "slow" in item.keywords: item.add_marker(skip)
