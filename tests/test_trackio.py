"""`--log-with trackio` (TRL's recommended tracker): a 2-step SFT run writes Trackio's local files under the run dir,
with the training loss in them. Trackio runs offline: no Space, no network."""
import json, os, random, sqlite3, subprocess, sys
from pathlib import Path
import pytest

pytest.importorskip("trackio")
ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
       "HF_DATASETS_OFFLINE": "1", "OMP_NUM_THREADS": "1", "TRACKIO_SHOW_UI": "0"}

def _tasks(path: Path, n=40):
    from wandering_light.typed_list import TypedList
    from wandering_light.executor import Executor
    from wandering_light.tasks import InductionTask, write_tasks
    rng, ex, out = random.Random(0), Executor(), []
    while len(out) < n:
        xs = TypedList([rng.randint(-9, 9) for _ in range(3)], int)
        out.append(InductionTask(xs, ex.run(["inc"], xs).output, ["inc"], True, 1, 1))
    write_tasks(path, out)
    return path

def test_sft_logs_to_trackio(tmp_path):
    data = _tasks(tmp_path / "tasks.jsonl")
    run = tmp_path / "run"
    r = subprocess.run([sys.executable, "wandering_light/training/sft.py", "--data", str(data), "--run-dir", str(run),
                        "--max-steps", "2", "--batch-size", "4", "--logging-steps", "1", "--no-eval", "--quiet",
                        "--threads", "1", "--log-with", "trackio"], cwd=ROOT, env=ENV, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    files = [p for p in (run / "trackio").rglob("*") if p.is_file()]
    dbs = [p for p in files if p.suffix == ".db"]
    assert dbs, files
    with sqlite3.connect(dbs[0]) as db:
        tables = [t for (t,) in db.execute("select name from sqlite_master where type='table'")]
        assert "metrics" in tables, tables
        rows = [json.loads(m) for (m,) in db.execute("select metrics from metrics")]
    assert any("train/loss" in m for m in rows), rows[:3]
