"""The main job as a user runs it (`wl quickstart`, the quickstart profile), its figures and wall time recorded.

It runs `training.main_job.run_main_job` into `--run-dir` (resuming it; a finished job is read back, not run again)
and reports the headline success rates (step-wise, step-wise planned with the world model, guided, one-shot, BFS,
random search, on the held-out tasks and the upstream 480-task set), the wall time of each stage and in all, the SFT
steps the time limits allowed (the policy's and, in a run that has one, the world model's, both phases of a
`--world-focus` run together and its first apart, with its exact match on the route pairs of the held-out tasks and of 500 of its training tasks), and the SFT learning curve
(step-wise success on held-out tasks against training minutes).

Any other option is one of `wl quickstart`'s (the job's profile, `MainJobConfig`), given to the job as it would be
there: `--no-world-init --world-digits 6` runs the quickstart profile as it was before its world model started from the
policy (the `quickstart_same_day_*` results files compare the two on one day, each arm on the same data and policy).

Usage: python benchmarks/quickstart.py [--save] [--run-dir runs/quickstart] [--threads 0] [--seed 0] [--name quickstart_split]
                                       [wl quickstart's options]
"""
import argparse, json, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import job_sft, report

def world_figures(run: Path) -> dict:
    """The world stage's steps, training minutes and learning rate, its exact match on the route pairs of the held-out
    tasks and of 500 training tasks (`benchmarks/stepwise.py`'s `route_eval`), the plan's depth and width, and the planned row's success by distance ({}
    for a run from before it)."""
    f = run / "world" / "summary.json"
    if not f.exists(): return {}
    w = json.loads(f.read_text())
    first = run / "world-first" / "summary.json"          # --world-focus: the phase before the tools were weighed
    a = json.loads(first.read_text()) if first.exists() else {"steps": 0, "train_seconds": 0}
    by_d = {name: {d: round(v["success_rate"], 4) for d, v in json.loads((run / f"eval-{name}" / "summary.json").read_text())
                   ["stepwise-plan"]["by_distance"].items()} for name in ("heldout", "upstream480")}
    job = json.loads((run / "config.json").read_text())
    from stepwise import route_eval          # the world model along certified routes: held-out tasks', and training tasks'
    from wandering_light.tasks import read_tasks, write_tasks
    from wandering_light.training.sft import _sample
    probe = run / "world_train_probe.jsonl.gz"        # 500 of its own training tasks, seeded: does it fit what it saw?
    if not probe.exists(): write_tasks(probe, _sample(read_tasks(run / "data" / "train.jsonl.gz"), 500, "world-train-probe"))
    keys = ("pairs", "exact_match", "exact_match_without_hashes", "whole_route")
    routes = {name: route_eval(f, run / "world" / "model") for name, f in (("heldout", run / "heldout_test.jsonl.gz"), ("train", probe))}
    return {"world_heldout_route_pairs": {k: routes["heldout"][k] for k in keys},
            "world_train_route_pairs": {k: routes["train"][k] for k in keys},
            "world_steps": w["steps"] + a["steps"], "world_train_minutes": round((w["train_seconds"] + a["train_seconds"]) / 60, 2),
            "world_stopped": w["stopped"], **({"world_focus": job.get("world_focus"), "world_first_steps": a["steps"],
                                              "world_first_train_minutes": round(a["train_seconds"] / 60, 2)} if first.exists() else {}),
            "world_lr": float(job.get("world_lr", 1e-3)), "plan_depth": job.get("plan_depth", 2), "plan_k": job.get("plan_k", 3),
            "stepwise_plan_by_distance": by_d}

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--run-dir", default="runs/quickstart")
    ap.add_argument("--threads", type=int, default=0, help="torch CPU threads (0: torch's default, every core)")
    ap.add_argument("--seed", type=int, default=0, help="the job's seed (wl quickstart --seed)")
    ap.add_argument("--name", default="quickstart_split", help="the results file's name (quickstart.json and quickstart_run3.json "
                    "hold runs of the job before its world stage, quickstart_split_depth2.json and quickstart_split_seed1.json "
                    "of the job when it imagined two tools ahead; another run of this one beside the first)")
    a, job_argv = ap.parse_known_args(argv)
    from wandering_light.training.main_job import MainJobConfig, run_job
    from wandering_light.utils import UserError, parse_config, read_events
    run = Path(a.run_dir)
    try:      # a bad option, or a run directory that holds another job: one line, nothing written over
        cfg = parse_config(MainJobConfig, [*job_argv, "--seed", str(a.seed), "--threads", str(a.threads), "--quiet"],
                           prog="benchmarks/quickstart.py")
        headline = run_job(cfg, run)
    except UserError as e: sys.exit(f"error: {e}")
    timing = {e["stage"]: e["seconds"] for e in read_events(run, "stage")}
    sft = json.loads((run / "sft" / "summary.json").read_text())
    size, lr = job_sft(run)
    curve = [{"step": e["step"], "train_minutes": round(e["train_seconds"] / 60, 2), "success_rate": round(e["success_rate"], 4)}
             for e in read_events(run / "sft", "eval")]
    held = json.loads((run / "eval-heldout" / "summary.json").read_text())["stepwise"]
    figures = {"headline": headline, "heldout_tasks": held["tasks"],
               "stepwise_by_distance": {"heldout": {d: round(v["success_rate"], 4) for d, v in held["by_distance"].items()}}, "stage_wall_seconds": timing, "wall_minutes": round(sum(timing.values()) / 60, 2),
               "sft_model": size, "sft_lr": lr, "sft_steps": sft["steps"], "sft_train_minutes": round(sft["train_seconds"] / 60, 2), "sft_stopped": sft["stopped"],
               "sft_learning_curve_heldout": curve, **world_figures(run), "threads": a.threads or "torch default", "seed": a.seed}
    report(a.name, figures, argv, script="quickstart")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
