"""Run every notebook in nbs/ with nbdev's own runner: one pytest test per notebook.

Cells marked `#| slow` (and `#| notest`) are skipped unless pytest runs with --slow; cells marked `#| eval: false`
never run (they need a GPU or the network, and say so).
"""
import io, sys
from pathlib import Path
import pytest
from nbdev.test import test_nb as run_notebook   # aliased: pytest would collect `test_nb`

ROOT = Path(__file__).resolve().parent.parent
NBS = sorted(p for p in (ROOT / "nbs").rglob("*.ipynb")
             if not any(part.startswith((".", "_")) for part in p.relative_to(ROOT / "nbs").parts))

@pytest.mark.parametrize("nb", NBS, ids=[str(p.relative_to(ROOT / "nbs")) for p in NBS])
def test_notebook(nb, request):
    slow = request.config.getoption("--slow")
    err, real = io.StringIO(), sys.__stderr__
    sys.__stderr__ = err        # nbdev's runner reports the failing cell on sys.__stderr__; keep it for the report
    try: ok, secs = run_notebook(nb, skip_flags=["notest", "slow"], force_flags=["slow"] if slow else [])
    finally: sys.__stderr__ = real
    assert ok, f"{nb.name} failed:\n{err.getvalue()}"
