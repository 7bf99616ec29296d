"""Data generation on several processes against one, in the same run: `create_data` as the main job calls it.

The same data run (`--tasks` certified tasks by forward expansion with route labels, 16 targets a root, the step-wise
distance weights, shards of `--roots-per-shard` roots: the quickstart profile's settings) is made twice into fresh
directories, once with one process and once with `--workers` (default: every CPU this process may use), alternating
`--repeat` times; the best wall time of each counts. Figures: tasks per second each way, their ratio, and whether the
split files are identical (1 = byte for byte the same records).
Usage: python benchmarks/data.py [--save] [--tasks 40000] [--roots-per-shard 500] [--workers 0] [--repeat 1]
"""
import argparse, shutil, sys, tempfile, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report

def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--tasks", type=int, default=40_000)
    ap.add_argument("--roots-per-shard", type=int, default=500)
    ap.add_argument("--workers", type=int, default=0, help="processes of the parallel run (0: every CPU this process may use)")
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args(argv)
    from wandering_light.tasks import create_data, data_workers, read_jsonl
    from wandering_light.steps import STEP_DISTANCE_WEIGHTS
    workers = data_workers(a.workers)
    if workers < 2: sys.exit("error: one worker process only here (one CPU, or no fork start method): nothing to compare")
    tmp, best = Path(tempfile.mkdtemp(prefix="wl-bench-data-")), {}
    try:
        for r in range(a.repeat):
            for w in (1, workers):
                out = tmp / f"w{w}-{r}"
                t0 = time.perf_counter()
                create_data(out, a.tasks, 0, walks_per_root=16, method="expansion", roots_per_shard=a.roots_per_shard,
                            progress=False, routes=True, weights=STEP_DISTANCE_WEIGHTS, workers=w)
                best[w] = min(best.get(w, float("inf")), time.perf_counter() - t0)
        same = all([x for _, x in read_jsonl(tmp / f"w1-0" / f"{s}.jsonl.gz")]
                   == [x for _, x in read_jsonl(tmp / f"w{workers}-0" / f"{s}.jsonl.gz")] for s in ("train", "validation", "test"))
    finally: shutil.rmtree(tmp, ignore_errors=True)
    report("data", {"tasks": a.tasks, "roots_per_shard": a.roots_per_shard, "workers": workers,
                    "one_process_s": round(best[1], 1), "workers_s": round(best[workers], 1),
                    "one_process_tasks_per_s": round(a.tasks / best[1], 1),
                    "workers_tasks_per_s": round(a.tasks / best[workers], 1),
                    "ratio_workers_to_one_process": round(best[1] / best[workers], 2), "files_identical": int(same)}, argv)

if __name__ == "__main__": main(sys.argv[1:])
