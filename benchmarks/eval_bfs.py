"""Evaluation of exact search on the packaged upstream eval set (480 certified tasks), against random search.

One `run_evaluation` run over all 480 tasks with two solvers: BFS with budget 4 (maximum pipeline length) and random
search with 100 tries per task (pipelines of 1 to 4 tools). Every answer is re-executed by the evaluation. Figures:
- per solver: tasks solved, success rate, success by certified distance, mean found / certified length, share of
  successes of exactly the certified length, time per task (mean, median, p95, max, in ms), tasks per second;
- the checks of the issue: BFS solves all 480 with lengths equal to the certified ones;
- ratios measured in this run: random's time per task over BFS's, and BFS's success rate over random's.
The BFS solver keeps its memoised `SearchSpace` across tasks (as any batch evaluation does); the first tasks pay for
filling it.
Usage: python benchmarks/eval_bfs.py [--save]
"""
import sys, tempfile, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report
from wandering_light.evals.run_evaluation import run_evaluation
from wandering_light.solver import BFSSolve, RandomSolve

def main(argv):
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        s = run_evaluation(solver_names=[], solvers={"bfs": BFSSolve(max_depth=4), "random": RandomSolve(budget=100)},
                           run_dir=Path(tmp) / "run", seed=0, progress=False, plots=False)
        wall = time.perf_counter() - t0
    figures = {}
    for name, x in s.items():
        figures[name] = {
            "tasks": x["tasks"], "solved": x["solved"], "success_rate": round(x["success_rate"], 4),
            "success_by_distance": {d: f"{v['solved']}/{v['tasks']}" for d, v in x["by_distance"].items()},
            "mean_length_ratio": round(x["mean_length_ratio"], 4), "optimal_rate": round(x["optimal_rate"], 4),
            "ms_per_task_mean": round(x["mean_time_s"] * 1000, 3), "ms_per_task_median": round(x["median_time_s"] * 1000, 3),
            "ms_per_task_p95": round(x["p95_time_s"] * 1000, 3), "ms_per_task_max": round(x["max_time_s"] * 1000, 3),
            "tasks_per_s": round(x["tasks"] / x["total_time_s"], 1), "errors": x["errors"]}
    b, r = s["bfs"], s["random"]
    figures["bfs_solves_all_with_certified_lengths"] = b["solved"] == b["tasks"] == 480 and b["optimal_rate"] == 1.0
    figures["ratio_random_to_bfs_time_per_task"] = round(r["mean_time_s"] / b["mean_time_s"], 2)
    figures["ratio_bfs_to_random_success_rate"] = round(b["success_rate"] / r["success_rate"], 3)
    figures["wall_seconds_whole_run"] = round(wall, 2)
    report("eval_bfs", figures, argv)

if __name__ == "__main__": main(sys.argv[1:])
