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

def test_agent_dpo_keeps_saved_bootstraps_of_the_same_settings(tmp_path, monkeypatch):
    "A --save on one bootstrap keeps another's saved figures, with their command, only if the settings are the same."
    monkeypatch.syspath_prepend(str(BENCH))
    import json, agent_dpo
    f, settings = tmp_path / "agent_dpo.json", {"lr": 1e-4, "loss": ["sigmoid", "sft"]}
    assert agent_dpo.saved_bootstraps(settings, f) == {}
    fig = {"held_out_success": {"start": 0.1, "dpo": 0.2, "sft": 0.1}, "points_dpo_minus_start": 10.0}
    f.write_text(json.dumps({"command": "python benchmarks/agent_dpo.py --bootstraps a --save",
                             "figures": {"a": fig, "bootstraps_lifted_3_points": 1, "settings": settings}}))
    kept = agent_dpo.saved_bootstraps(settings, f)
    assert list(kept) == ["a"] and kept["a"]["command"].endswith("--bootstraps a --save") and kept["a"]["points_dpo_minus_start"] == 10.0
    assert agent_dpo.saved_bootstraps(settings | {"lr": 1e-3}, f) == {}
