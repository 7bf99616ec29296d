"""Shared pytest setup: offline model hubs, a private temporary directory, and the --slow switch."""
import os, tempfile
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

def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"): return
    skip = pytest.mark.skip(reason="slow: run with --slow")
    for item in items:
        if "slow" in item.keywords: item.add_marker(skip)
