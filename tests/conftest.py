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

# The suite's longest tests, longest first (seconds each in a clean-clone `make test` on the 2-core machine, 2026-12-08).
# pytest-xdist's worksteal hands each of the two workers one contiguous half of the collected tests and later moves
# tests from the end of a busy worker's queue to an idle one: so these go at the front of the two halves, alternately,
# and the suite does not end with one worker idle while the other runs a two-minute notebook.
LONGEST = [f"tests/test_notebooks.py::test_notebook[{n}.ipynb]" for n in
           ("15_selfplay", "16_main_job", "12_sft", "25d_agent_tool_policy", "13_grpo")] + [
    "tests/test_docs.py::test_proc_nbs_runs_clean", "tests/test_imports.py::test_every_module_imports_alone"] + [
    f"tests/test_notebooks.py::test_notebook[{n}.ipynb]" for n in ("tutorials/01_main_job", "06_tasks", "10b_evaluate_proposer")] + [
    "tests/test_training.py::test_grpo_sigterm_then_resume"] + [f"tests/test_notebooks.py::test_notebook[{n}.ipynb]" for n in
    ("10_evals", "09a_serve", "23_agent_models", "09c_llm_tour", "08_models", "09b_synthesize", "40_cli", "09a_solvers")]

WHOLE = ("tests/test_browser.py", "tests/test_envs.py")     # modules whose module-scoped fixture one worker should set up

def longest_first(items: list, longest=LONGEST, whole=WHOLE) -> list:
    """`items` with those named in `longest` at the front of each half, in turn; the others keep their order, and the
    halves are not cut inside a module of `whole` (its module-scoped fixture would be set up by both workers)."""
    rank = {n: i for i, n in enumerate(longest)}
    first = sorted((it for it in items if it.nodeid in rank), key=lambda it: rank[it.nodeid])
    rest = [it for it in items if it.nodeid not in rank]
    cut, file = max(0, (len(items) + 1) // 2 - len(first[0::2])), lambda it: it.nodeid.split("::")[0]
    while 0 < cut < len(rest) and file(rest[cut]) == file(rest[cut - 1]) and file(rest[cut]) in whole: cut += 1
    return first[0::2] + rest[:cut] + first[1::2] + rest[cut:]

def pytest_collection_modifyitems(config, items):
    items[:] = longest_first(items)
    if config.getoption("--slow"): return
    skip = pytest.mark.skip(reason="slow: run with --slow")
    for item in items:
        if "slow" in item.keywords: item.add_marker(skip)
