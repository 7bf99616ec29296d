"""Crash safety, the short version of `benchmarks/crash.py`: `kill -9` at a few seeded random points of `wl data` and
`wl eval`, resume with the same command and run directory, and compare with an uninterrupted run (nothing lost,
nothing twice, every file whole). Also shows that the comparison catches each kind of damage it claims to."""
import gzip, importlib.util, json, shutil, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent

def _crash():
    spec = importlib.util.spec_from_file_location("wl_crash_bench", ROOT / "benchmarks" / "crash.py")
    mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
    return mod

@pytest.fixture(scope="module")
def crash():
    return _crash()

@pytest.fixture(scope="module")
def runner(crash):
    # A fresh interpreter per command (about a second more in all): a child forked from a pytest-xdist worker, which
    # has threads of its own, hung once in `wl data` waiting on a semaphore; the benchmark itself still forks.
    return crash.Runner(fork=False)

@pytest.mark.parametrize("cmd", ["data", "eval"])
def test_kill_and_resume(cmd, crash, runner, tmp_path):
    "Four kills (two trials of two: a resumed run is killed too), each trial resumed to completion and compared."
    r = crash.crash_command(cmd, tmp_path, runner, {}, kills=4, chain=2, seed=1, max_trials=6)
    assert r["kills"] >= 3, r
    bad = {k: r[k] for k in ("lost", "duplicated", "mismatched", "torn_files", "torn_lines", "resume_failures") if r[k]}
    assert not bad, (bad, r["examples"])

def test_the_comparison_finds_damage(crash, runner, tmp_path):
    "A finished `wl eval` run damaged by hand, one way at a time: each damage is counted (the check can fail)."
    ref_dir = tmp_path / "ref"
    how, rc, _ = runner.run(crash.argv_for("eval", ref_dir, {}), tmp_path / "ref.log")
    assert rc == 0, (tmp_path / "ref.log").read_text()[-2000:]
    ref = crash.records("eval", ref_dir)
    clean = crash.check("eval", ref_dir, ref)
    assert (clean["lost"], clean["duplicated"], clean["mismatched"], clean["torn_files"], clean["torn_lines"]) == (0, 0, 0, 0, 0), clean

    def damaged(name, fn):
        d = tmp_path / name; shutil.copytree(ref_dir, d); fn(d); return crash.check("eval", d, ref)

    res = lambda d: d / "results" / "bfs.jsonl"
    def dup(d): lines = res(d).read_text().splitlines(); res(d).write_text("\n".join(lines + lines[:2]) + "\n")
    def lose(d): lines = res(d).read_text().splitlines(); res(d).write_text("\n".join(lines[1:]) + "\n")
    def change(d):
        lines = [json.loads(x) for x in res(d).read_text().splitlines()]; lines[0]["success"] = not lines[0]["success"]
        res(d).write_text("".join(json.dumps(x) + "\n" for x in lines))
    def torn(d): (d / "summary.json").write_text((d / "summary.json").read_text()[:40])
    def tmpfile(d): (d / "results" / ".tmp99999.bfs.jsonl").write_text("{}\n")
    def cut(d): res(d).write_text(res(d).read_text() + '{"task": 99, "solv')
    assert damaged("dup", dup)["duplicated"] == 2
    assert damaged("lose", lose)["lost"] == 1
    assert damaged("change", change)["mismatched"] == 1
    assert damaged("torn", torn)["torn_files"] == 1
    assert damaged("tmp", tmpfile)["torn_files"] == 1
    c = damaged("cut", cut)
    assert c["torn_files"] == 1 and c["torn_lines"] == 1

import re
_NOT_ATOMIC = re.compile(r"\.write_text\(\s*json\.dumps|\.savefig\((?!tmp\b|buf\b)")
MINE = ["utils.py", "tasks.py", "cli.py", "evals/run_evaluation.py", "training/core.py", "training/sft.py",
        "training/rl_grpo.py", "training/selfplay.py", "agent/solver.py", "agent/exports.py", "agent/training.py"]
OTHERS = ["training/main_job.py", "synthesize.py", "agent/models.py"]

def _non_atomic(files):
    "Lines that write a JSON file or a plot in place (a kill in the middle leaves half of it) instead of atomically."
    pkg = ROOT / "wandering_light"
    return [f"{f}:{i}: {line.strip()}" for f in files for i, line in enumerate((pkg / f).read_text().splitlines(), 1)
            if _NOT_ATOMIC.search(line) and "TemporaryDirectory" not in line and "app_notebook" not in line]

def test_run_files_are_written_atomically():
    "The modules of the commands here write JSON files and plots through `utils.write_json_atomic` / `save_figure`."
    assert _non_atomic(MINE) == []

def test_other_run_files_are_written_atomically():
    "The main job's summary, the synthesised basis manifest and a checkpoint's agent.json too."
    assert _non_atomic(OTHERS) == []
