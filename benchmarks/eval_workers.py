"""Evaluation shared among forked workers (`run_evaluation(workers=N)`, `wl eval --workers N`) against one process.

It takes a finished main job (`wl quickstart`: its policy, its world model and its held-out tasks in `--run-dir`) and
evaluates the job's two slowest solvers, `stepwise-plan` (the policy's greedy rollout, each step planned with the world
model) and `guided` (best-first search under the policy), on the first `--tasks` held-out tasks twice: in this process
on all its torch threads (the baseline) and shared among `--workers` forked processes of one thread each. Each arm
gets freshly built solvers and its own run directory, so neither reuses the other's world-model answers. Figures:
seconds of each arm for each solver and in all, the baseline's seconds over the workers' (the speed-up), each arm's
success, and the tasks whose result differs between the arms (success or pipeline found): a batch of rollouts holds
other tasks in a worker, and float sums that differ in the last bit can turn a greedy choice.
Usage: python benchmarks/eval_workers.py [--save] [--run-dir runs/quickstart] [--tasks 300] [--workers 0]
"""
import argparse, sys, tempfile, time
from pathlib import Path
from types import SimpleNamespace
sys.path.insert(0, str(Path(__file__).parent))
from _common import planned_job, report

SOLVERS = ("stepwise-plan", "guided")

def arm(run: Path, p: dict, tasks: int, workers: int, out: Path) -> dict:
    "Both solvers, built afresh, on the first `tasks` held-out tasks with `workers`: seconds, success and result lines."
    from wandering_light.evals.run_evaluation import load_results, run_evaluation
    from wandering_light.training.main_job import solvers
    built = {n: s for n, s in solvers(SimpleNamespace(path=run), p).items() if n in SOLVERS}
    figures = {}
    for name, solver in built.items():
        t0 = time.perf_counter()
        s = run_evaluation(run / "heldout_test.jsonl.gz", [], num_samples=tasks, run_dir=out / name, solvers={name: solver},
                           progress=False, plots=False, workers=workers)[name]
        figures[name] = {"seconds": round(time.perf_counter() - t0, 1), "success_rate": round(s["success_rate"], 4),
                         "lines": {r["task"]: (r["success"], r["found"]) for r in load_results(out / name / "results" / f"{name}.jsonl")}}
    return figures

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--run-dir", default="runs/quickstart", help="a finished `wl quickstart` run (its models and held-out tasks)")
    ap.add_argument("--tasks", type=int, default=300, help="held-out tasks of the run to evaluate")
    ap.add_argument("--workers", type=int, default=0, help="forked workers (0: one per torch thread)")
    a = ap.parse_args(argv)
    run, p = planned_job(a.run_dir)
    if a.tasks < 1 or a.workers < 0: sys.exit("error: --tasks must be 1 or more and --workers 0 or more")
    import torch
    threads, workers = torch.get_num_threads(), a.workers or torch.get_num_threads()
    with tempfile.TemporaryDirectory() as tmp:
        one = arm(run, p, a.tasks, 1, Path(tmp) / "one")
        many = arm(run, p, a.tasks, workers, Path(tmp) / "many")
    figures = {"tasks": a.tasks, "threads": threads, "workers": workers}
    for n in SOLVERS:
        differ = sum(one[n]["lines"][k] != many[n]["lines"].get(k) for k in one[n]["lines"])
        figures[n] = {"seconds_one_process": one[n]["seconds"], f"seconds_{workers}_workers": many[n]["seconds"],
                      "ratio_one_to_workers": round(one[n]["seconds"] / many[n]["seconds"], 2),
                      "success_one_process": one[n]["success_rate"], "success_workers": many[n]["success_rate"],
                      "tasks_differing": differ}
    t1, tw = sum(one[n]["seconds"] for n in SOLVERS), sum(many[n]["seconds"] for n in SOLVERS)
    figures["all"] = {"seconds_one_process": round(t1, 1), f"seconds_{workers}_workers": round(tw, 1), "ratio_one_to_workers": round(t1 / tw, 2)}
    report("eval_workers", figures, argv, notes={"run": str(run)})

if __name__ == "__main__": main(sys.argv[1:])
