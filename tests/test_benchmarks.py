"""Every benchmark script imports cleanly: a syntax or import error in one is caught here, not when a long run reaches it."""
import importlib.util, sys
from pathlib import Path
import pytest

BENCH = Path(__file__).parent.parent / "benchmarks"
SCRIPTS = sorted(p for p in BENCH.glob("*.py") if not p.name.startswith("_"))

def test_there_are_benchmarks():
    assert len(SCRIPTS) >= 10 and (BENCH / "_common.py").exists()

@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_benchmark_imports(path, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)                   # top level only: `main` runs under `if __name__ == "__main__"`
    assert callable(getattr(mod, "main", None)), f"{path.name} has no main(argv)"
