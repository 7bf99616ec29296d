"""Run every notebook in nbs/ with nbdev's own runner: one pytest test per notebook.

Cells marked `#| slow` (and `#| notest`) are skipped unless pytest runs with --slow; cells marked `#| eval: false`
never run (they need a GPU or the network, and say so).
"""
import atexit, io, sys
from pathlib import Path
import pytest
import nbdev.test
from execnb.shell import CaptureShell
from nbdev.test import test_nb as run_notebook   # aliased: pytest would collect `test_nb`

class _Shell(CaptureShell):
    """nbdev's notebook shell, remembered so that the test can take back its exit-time reset once its notebook has run.
    IPython resets every shell it made when the process exits, each with a full garbage collection of the process's
    objects: a pytest worker that ran 30 notebooks, torch and transformers loaded, spent most of a minute on it."""
    made = []
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _Shell.made.append(self)

def _no_exit_reset(shell):
    """Take back a finished notebook shell's exit-time reset. Its variables stay (a notebook's objects may have exit
    handlers of their own that read them, as `executor.Sandbox` does), and go with the process."""
    atexit.unregister(shell.atexit_operations)

ROOT = Path(__file__).resolve().parent.parent
NBS = sorted(p for p in (ROOT / "nbs").rglob("*.ipynb")
             if not any(part.startswith((".", "_")) for part in p.relative_to(ROOT / "nbs").parts))

@pytest.mark.parametrize("nb", NBS, ids=[str(p.relative_to(ROOT / "nbs")) for p in NBS])
def test_notebook(nb, request):
    slow = request.config.getoption("--slow")
    err, real = io.StringIO(), sys.__stderr__
    sys.__stderr__ = err        # nbdev's runner reports the failing cell on sys.__stderr__; keep it for the report
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(nbdev.test, "CaptureShell", _Shell)
            ok, secs = run_notebook(nb, skip_flags=["notest", "slow"], force_flags=["slow"] if slow else [])
    finally:
        sys.__stderr__ = real
        while _Shell.made: _no_exit_reset(_Shell.made.pop())
    assert ok, f"{nb.name} failed:\n{err.getvalue()}"
