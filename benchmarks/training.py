"""Training from scratch on this CPU: SFT then GRPO within a fixed CPU-time budget, evaluated at one greedy attempt.

Stages (each resumable in the run directory, default runs/bench-training):
1. data: certified tasks by forward expansion (`wl data --method expansion`), the packaged eval set's inputs excluded;
2. threads: the SFT step time with 1 and with 2 torch threads, a few steps each (the machine is shared: see the ratio);
3. SFT: a `tiny` model from scratch, the `--full-run` recipe, stopped by the time limit (`--sft-minutes` of training
   time, evaluation excluded); at intervals it is evaluated on the upstream 480-task set: the learning curve
   (greedy success against training minutes);
4. GRPO from the SFT model for `--grpo-minutes` of training time;
5. evaluation with `evals.run_evaluation`: the SFT and GRPO models through `trained_local` at budget 1 (one greedy
   attempt), random search with 1 and 100 tries, BFS with budget 4; on the upstream 480-task set and on 500 held-out
   test-split tasks (inputs never trained on).
Figures: success rates (and by distance); the GRPO lift in points over its SFT start and the ratio; the trained model
over random search at the same budget (1 try); the SFT model against the upstream project's best (OPT-125M: 84.0%,
SFT on 434k examples then GRPO, on a GPU); the learning curve; CPU minutes, steps, examples.
Usage: python benchmarks/training.py [--save] [--sft-minutes 22] [--grpo-minutes 8] [--run-dir DIR] [--threads 1]
"""
import argparse, json, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report, stage

UPSTREAM_BEST = 0.84

def thread_check(run: Path, steps: int = 30) -> dict:
    "Seconds per SFT step with 1 and 2 torch threads (same data, same steps), each in a fresh process."
    import subprocess, os
    out = {}
    for n in (1, 2):
        d = run / f"threads-{n}"
        r = subprocess.run([sys.executable, "wandering_light/training/sft.py", "--data", str(run / "data"), "--run-dir", str(d),
                            "--max-steps", str(steps), "--batch-size", "32", "--no-eval", "--save-every", "1000",
                            "--logging-steps", str(steps), "--threads", str(n), "--quiet", *(["--resume"] if d.exists() else [])],
                           cwd=Path(__file__).parent.parent, capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)})
        if r.returncode: raise SystemExit(r.stderr[-2000:])
        out[f"s_per_step_{n}_thread"] = json.loads((d / "summary.json").read_text())["train_seconds"] / steps
    out["ratio_2_threads_to_1_thread_step_time"] = round(out["s_per_step_2_thread"] / out["s_per_step_1_thread"], 3)
    return out

def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--sft-minutes", type=float, default=22.0)
    ap.add_argument("--grpo-minutes", type=float, default=8.0)
    ap.add_argument("--tasks", type=int, default=240_000)
    ap.add_argument("--sft-steps", type=int, default=None, help="default: the full recipe's")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--run-dir", default="runs/bench-training")
    a = ap.parse_args(argv)
    import torch
    torch.set_num_threads(a.threads)
    from wandering_light.tasks import create_data, read_tasks, write_tasks, DEFAULT_EVAL_SET
    from wandering_light.training.sft import parse_args as sft_args, run_sft, _sample
    from wandering_light.training.core import load_recipe
    from wandering_light.training.rl_grpo import parse_args as grpo_args, run_grpo
    from wandering_light.evals.run_evaluation import run_evaluation
    from wandering_light.solver import get_solver_by_name
    from wandering_light.utils import read_events
    run = Path(a.run_dir); run.mkdir(parents=True, exist_ok=True)
    resume = lambda d: ["--resume"] if (d / "config.json").exists() else []
    data = stage(run, "data", lambda: create_data(run / "data", a.tasks, 0, walks_per_root=8, method="expansion",
                                                   roots_per_shard=500, progress=False))
    threads = stage(run, "threads", lambda: thread_check(run))
    # fit the learning-rate schedule to the time budget: as many steps as the measured step time allows (10% margin)
    steps = a.sft_steps or int(0.9 * a.sft_minutes * 60 / threads["result"][f"s_per_step_{min(a.threads, 2)}_thread"])
    sft = stage(run, "sft", lambda: run_sft(sft_args(
        ["--full-run", "--data", str(run / "data"), "--run-dir", str(run / "sft"), "--time-limit", str(a.sft_minutes),
         "--max-steps", str(steps), "--eval-file", DEFAULT_EVAL_SET, "--eval-every", str(max(100, steps // 8)),
         "--threads", str(a.threads), "--quiet",
         *resume(run / "sft")])))
    grpo = stage(run, "grpo", lambda: run_grpo(grpo_args(
        ["--full-run", "--model-name", str(run / "sft" / "model"), "--data", str(run / "data"), "--run-dir",
         str(run / "grpo"), "--time-limit", str(a.grpo_minutes), "--threads", str(a.threads), "--quiet",
         *resume(run / "grpo")])))
    held = run / "heldout_test.jsonl.gz"
    if not held.exists(): write_tasks(held, _sample(read_tasks(run / "data" / "test.jsonl.gz"), 500, "bench:heldout"))
    def evaluate():
        out = {}
        for name, f in [("upstream480", DEFAULT_EVAL_SET), ("heldout", held)]:
            solvers = {"sft": get_solver_by_name("trained_local", budget=1, model=str(run / "sft" / "model"), device="cpu"),
                       "grpo": get_solver_by_name("trained_local", budget=1, model=str(run / "grpo" / "model"), device="cpu"),
                       "random-1": get_solver_by_name("random", budget=1), "random-100": get_solver_by_name("random", budget=100),
                       "bfs": get_solver_by_name("bfs", budget=4)}
            s = run_evaluation(f, [], run_dir=run / f"eval-{name}", seed=0, solvers=solvers, progress=False)
            out[name] = {k: {"success_rate": round(v["success_rate"], 4), "solved": v["solved"], "tasks": v["tasks"],
                             "by_distance": {d: round(x["success_rate"], 3) for d, x in v["by_distance"].items()}}
                         for k, v in s.items()}
        return out
    ev = stage(run, "eval", evaluate)["result"]
    curve = [{"step": e["step"], "train_minutes": round(e["train_seconds"] / 60, 2), "success_rate": round(e["success_rate"], 4),
              "by_distance": {d: round(v["success_rate"], 3) for d, v in e["by_distance"].items()}}
             for e in sorted(read_events(run / "sft", "eval"), key=lambda e: e["step"]) if e["set"] == DEFAULT_EVAL_SET]
    u, h = ev["upstream480"], ev["heldout"]
    s_res, g_res = sft["result"], grpo["result"]
    figures = {
        "upstream480_success_at_1": {k: v["success_rate"] for k, v in u.items()},
        "upstream480_by_distance": {k: v["by_distance"] for k, v in u.items()},
        "heldout500_success_at_1": {k: v["success_rate"] for k, v in h.items()},
        "heldout500_by_distance": {k: v["by_distance"] for k, v in h.items()},
        "grpo_lift_points_heldout": round(100 * (h["grpo"]["success_rate"] - h["sft"]["success_rate"]), 2),
        "grpo_lift_points_upstream480": round(100 * (u["grpo"]["success_rate"] - u["sft"]["success_rate"]), 2),
        "ratio_grpo_to_sft_heldout": round(h["grpo"]["success_rate"] / max(1e-9, h["sft"]["success_rate"]), 3),
        "ratio_trained_to_random1_upstream480": round(u["grpo"]["success_rate"] / max(1e-9, u["random-1"]["success_rate"]), 2),
        "ratio_trained_to_random100_upstream480": round(u["grpo"]["success_rate"] / u["random-100"]["success_rate"], 3),
        "ratio_to_upstream_best_84pct": round(u["grpo"]["success_rate"] / UPSTREAM_BEST, 3),
        "learning_curve_upstream480": curve,
        "sft": {"steps": s_res["steps"], "planned_steps": steps, "train_minutes": round(s_res["train_seconds"] / 60, 2),
                "examples": s_res["steps"] * load_recipe("sft_full")["per_device_train_batch_size"], "stopped": s_res["stopped"]},
        "grpo": {"steps": g_res["steps"], "train_minutes": round(g_res["train_seconds"] / 60, 2),
                 "mean_zero_spread_share": g_res["zero_spread_share"]},
        "cpu_training_minutes_total": round((s_res["train_seconds"] + g_res["train_seconds"]) / 60, 2),
        "data": {"tasks": sum(v["tasks"] for k, v in data["result"]["files"].items() if not k.startswith("proposer")),
                 "wall_s": data["wall_s"]},
        "threads": threads["result"],
        "model": "tiny (Llama, 4 layers, hidden 128, ~0.9M parameters), DSL tokenizer, from scratch",
    }
    report("training", figures, argv)

if __name__ == "__main__":
    main(sys.argv[1:])
