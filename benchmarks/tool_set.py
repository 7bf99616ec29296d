"""A step's tool learnt as the set of its optimal tools (`wl sft --tool-set`) against the one tool drawn, at the main job's size.

From a finished `wl quickstart` run (`--from`: its data and its held-out tasks), the job's SFT stage (the options of
`training.main_job.stage_sft`: a model from scratch of the source run's size and learning rate, `tiny` at 1e-3 for the
runs measured on 29 November, step-wise examples with world-model and one-shot ones beside
them, batches of 16, 10.4 training minutes with the schedule on the clock) is trained for each seed of `--seeds`, with
and without `--tool-set`, into RUN/ARM-sSEED/sft, and each model is evaluated step-wise (one greedy rollout avoiding
repeats, the `stepwise` solver at budget 1) on the upstream 480-task set and the run's held-out tasks. The quickstart
run itself (its SFT and its evaluation) is seed 0 of its own arm, not trained again: with the set if its profile had
`sft_tool_set` (the quickstart profile's default since 29 November), else without. Every run resumes; finished ones
are read back. Figures: success per arm and seed, by distance, the SFT steps each took, the set's gain per seed, and how
many step rows have more than one optimal tool (the rows the set loss changes: on the first 3,000 training tasks).
Training runs one at a time, on both cores; run nothing else meanwhile (the step counts depend on it).
Usage: python benchmarks/tool_set.py [--save] [--from runs/quickstart] [--run-dir runs/bench-toolset] [--seeds 0,1]
"""
import argparse, json, statistics, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import POLICY_ALONE, job_sft, report

def sft(data: Path, out: Path, seed: int, tool_set: bool) -> dict:
    "The SFT stage of the job whose data is `data`, with or without the tool set, into `out` (resumed; a finished run is read back)."
    from wandering_light.training.main_job import PROFILES, sft_config
    from wandering_light.training.sft import run_sft
    size, lr = job_sft(data.parent)                                     # the source run's model and learning rate
    p = PROFILES["quickstart"] | POLICY_ALONE | {"sft_model": size, "sft_lr": lr}
    return run_sft(sft_config(data, out, p, seed, tool_set=tool_set))

def evaluate(model: Path, sets: dict, out: Path) -> dict:
    from wandering_light.evals.run_evaluation import run_evaluation
    from wandering_light.solver import get_solver_by_name
    res = {}
    for name, f in sets.items():
        r = run_evaluation(f, [], run_dir=out / f"eval-{name}", seed=0, progress=False,
                           solvers={"stepwise": get_solver_by_name("stepwise", budget=1, model=str(model))})["stepwise"]
        res[name] = r
    return res

def brief(r: dict) -> dict:
    return {"success_rate": round(r["success_rate"], 4),
            "by_distance": {d: round(v["success_rate"], 4) for d, v in r.get("by_distance", {}).items()}}

def several_optimal(data: Path, n: int = 3000) -> dict:
    "The share of step rows of the first `n` training tasks with several optimal tools, in all and by distance to go."
    from collections import Counter
    from wandering_light.steps import step_rows
    from wandering_light.tasks import read_tasks
    rows = [r for t in read_tasks(data / "train.jsonl.gz")[:n] for r in step_rows(t)]
    by, many = Counter(r["remaining"] for r in rows), Counter(r["remaining"] for r in rows if len(r["optimal"]) > 1)
    return {"rows": len(rows), "share": round(sum(many.values()) / len(rows), 3),
            "share_by_remaining": {d: round(many[d] / by[d], 3) for d in sorted(by)}}

def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--from", dest="source", default="runs/quickstart")
    ap.add_argument("--run-dir", default="runs/bench-toolset")
    ap.add_argument("--seeds", default="0,1")
    a = ap.parse_args(argv)
    from wandering_light.tasks import DEFAULT_EVAL_SET
    src, run = Path(a.source), Path(a.run_dir)
    if not (src / "summary.json").exists(): sys.exit(f"error: {src} is not a finished `wl quickstart` run (no summary.json)")
    sets = {"upstream480": DEFAULT_EVAL_SET, "heldout": src / "heldout_test.jsonl.gz"}
    seeds, arms, steps = [int(s) for s in a.seeds.split(",")], {}, {}
    own = "set" if json.loads((src / "config.json").read_text()).get("sft_tool_set") else "plain"
    for seed in seeds:
        for arm in ("plain", "set"):
            key = f"{arm}-s{seed}"
            if arm == own and seed == 0:      # the quickstart run itself
                steps[key] = json.loads((src / "sft" / "summary.json").read_text())["steps"]
                arms[key] = {n: brief(json.loads((src / f"eval-{n}" / "summary.json").read_text())["stepwise"]) for n in sets}
                continue
            s = sft(src / "data", run / key / "sft", seed, arm == "set")
            steps[key] = s["steps"]
            arms[key] = {n: brief(r) for n, r in evaluate(run / key / "sft" / "model", sets, run / key).items()}
    gain = {n: {f"s{seed}": round(100 * (arms[f"set-s{seed}"][n]["success_rate"] - arms[f"plain-s{seed}"][n]["success_rate"]), 1)
                for seed in seeds} for n in sets}
    report("tool_set", {"several_optimal_step_rows": several_optimal(src / "data"), "arms": arms, "sft_steps": steps, "set_gain_points": gain,
                        "set_gain_points_mean": {n: round(statistics.fmean(g.values()), 1) for n, g in gain.items()},
                        "source_run": str(src)}, argv)

if __name__ == "__main__": main(sys.argv[1:])
