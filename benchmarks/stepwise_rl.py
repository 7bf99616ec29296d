"""GRPO on step-wise rollouts against more SFT, from the same step-wise checkpoint, with the same training minutes.

The start is the model `benchmarks/stepwise.py` trained (default runs/bench-stepwise/sft/model). Two arms continue it for
`--minutes` of training time each (evaluation excluded), one after the other on the same CPU:
- grpo: `wl grpo --task steps`: one sampled tool per route state, scored by the whole rollout it starts
  (`training.reward.StepRewards`: target reached, length against certified, an unusable or failing step penalised);
- sft (the control): `wl sft --task steps` on the same data, at the same constant learning rate.
Each arm and the start are evaluated step-wise (one greedy rollout per task, no retries) on the upstream 480-task set
and on the 500 held-out tasks of `benchmarks/stepwise.py`. Figures: success of each, and the ratios grpo / start and
grpo / sft (same compute).
Usage: python benchmarks/stepwise_rl.py [--save] [--minutes 8] [--start DIR] [--bench-dir runs/bench-stepwise] [--run-dir DIR]
"""
import argparse, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report, stage, stepwise_checkpoint, stepwise_eval_sets

def evaluate(model_dir: Path, sets: dict) -> dict:
    "Step-wise success (one greedy rollout per task) of a checkpoint on each task set, overall and by distance."
    from wandering_light.models import load_model
    from wandering_light.stepwise import evaluate_stepwise
    model, tok = load_model(model_dir, device="cpu")
    out = {}
    for name, tasks in sets.items():
        e = evaluate_stepwise(model, tok, tasks)
        out[name] = {"success_rate": round(e["success_rate"], 4), "tasks": e["tasks"], "mean_reward": round(e["mean_reward"], 4),
                     "by_distance": {d: round(v["success_rate"], 3) for d, v in e["by_distance"].items()}, "ends": e["ends"]}
    return out

def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--minutes", type=float, default=8.0, help="training minutes of each arm")
    ap.add_argument("--bench-dir", default="runs/bench-stepwise", help="the run directory of benchmarks/stepwise.py")
    ap.add_argument("--start", default=None, help="the start checkpoint (default BENCH_DIR/sft/model)")
    ap.add_argument("--grpo-lr", type=float, default=1e-4)
    ap.add_argument("--sft-lr", type=float, default=1e-4)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--run-dir", default="runs/bench-stepwise-rl")
    a = ap.parse_args(argv)
    import torch
    torch.set_num_threads(a.threads)
    from wandering_light.training.rl_grpo import parse_args as grpo_args, run_grpo
    from wandering_light.training.sft import parse_args as sft_args, run_sft
    bench, run = Path(a.bench_dir), Path(a.run_dir)
    start = Path(a.start or bench / "sft" / "model")
    stepwise_checkpoint(start)
    run.mkdir(parents=True, exist_ok=True)
    sets = stepwise_eval_sets(bench)
    resume = lambda d: ["--resume"] if (d / "config.json").exists() else []
    common = ["--model-name", str(start), "--data", str(bench / "data"), "--time-limit", str(a.minutes), "--threads",
              str(a.threads), "--no-eval", "--quiet", "--lr-scheduler-type", "constant", "--warmup-ratio", "0"]
    res = {"start": stage(run, "eval-start", lambda: evaluate(start, sets))["result"]}
    arms = {"grpo": lambda: run_grpo(grpo_args(["--task", "steps", *common, "--run-dir", str(run / "grpo"), "--max-steps", "3000",
                                                "--batch-size", "64", "--num-generations", "8", "--temperature", "1.0",
                                                "--learning-rate", str(a.grpo_lr), "--save-every", "50",
                                                "--logging-steps", "10", *resume(run / "grpo")])),
            "sft": lambda: run_sft(sft_args(["--task", "steps", *common, "--run-dir", str(run / "sft"), "--max-steps", "100000",
                                             "--batch-size", "64", "--learning-rate", str(a.sft_lr), "--max-length", "256",
                                             "--world-share", "0.1", "--save-every", "200", "--logging-steps", "50",
                                             *resume(run / "sft")]))}
    train = {}
    for name, fn in arms.items():
        s = stage(run, f"train-{name}", fn)["result"]
        train[name] = {"steps": s["steps"], "train_minutes": round(s["train_seconds"] / 60, 2)}
        res[name] = stage(run, f"eval-{name}", lambda: evaluate(run / name / "model", sets))["result"]
    ok = lambda arm, s: res[arm][s]["success_rate"]
    figures = {"success_at_1": {s: {arm: ok(arm, s) for arm in res} for s in sets},
               "by_distance": {s: {arm: res[arm][s]["by_distance"] for arm in res} for s in sets},
               "ends": {s: {arm: res[arm][s]["ends"] for arm in res} for s in sets},
               "ratio_grpo_to_start": {s: round(ok("grpo", s) / max(1e-9, ok("start", s)), 3) for s in sets},
               "ratio_grpo_to_sft_same_minutes": {s: round(ok("grpo", s) / max(1e-9, ok("sft", s)), 3) for s in sets},
               "training": train, "start": str(start),
               "settings": {"minutes_per_arm": a.minutes, "grpo_lr": a.grpo_lr, "sft_lr": a.sft_lr, "threads": a.threads,
                            "grpo": "batch 64 = 8 states x 8 sampled tools, temperature 1.0, constant lr",
                            "sft": "batch 64 step examples (10% world-model), constant lr"}}
    report("stepwise_rl", figures, argv)

if __name__ == "__main__":
    main(sys.argv[1:])
