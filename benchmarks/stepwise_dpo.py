"""Preference tuning of the step-wise policy on its own mistakes (`wl dpo`) against SFT on the same corrected states.

The start is the model `benchmarks/stepwise.py` trained (default runs/bench-stepwise/sft/model). It is rolled out
greedily on `--tasks` training tasks; at the first state of each rollout where its tool is not optimal (certified
search from that state: the tool's result is not one step closer to the target), one preference pair is kept: the step
prompt, an optimal tool (chosen) and the tool it took (rejected). Two arms continue the start for `--minutes` of
training time each, one after the other on the same CPU:
- dpo: `wl dpo` on those pairs (TRL's DPOTrainer, the start as the frozen reference);
- sft (the control): TRL's SFTTrainer on the same prompts with the chosen tool as the completion, same batch and rate.
Each arm and the start are evaluated step-wise (one greedy rollout per task, no retries) on the upstream 480-task set
and on the 500 held-out tasks of `benchmarks/stepwise.py`.
Usage: python benchmarks/stepwise_dpo.py [--save] [--minutes 4] [--tasks 4000] [--bench-dir runs/bench-stepwise] [--run-dir DIR]
"""
import argparse, random, sys
from collections import Counter
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report, stage, stepwise_checkpoint, stepwise_eval_sets
from stepwise_rl import evaluate

def mistake_pairs(model_dir: Path, tasks, max_depth: int = 4, seed: int = 0) -> dict:
    "One pair per rollout at its first non-optimal step (certified by search from that state), and how the rollouts ended."
    from wandering_light.stepwise import StepPolicy
    from wandering_light.solver import bfs, SearchSpace
    from wandering_light.routes import RouteGraph
    from wandering_light.steps import step_rows
    from wandering_light.executor import Executor
    from wandering_light import prompts as P
    policy = StepPolicy.load(model_dir); fs = policy.functions; space, ex = SearchSpace(fs), Executor(fs)
    rng, pairs, where = random.Random(seed), [], Counter()
    rollouts = policy.rollouts([(t.input, t.output) for t in tasks], max_steps=6)
    for t, r in zip(tasks, rollouts):
        on_route = step_rows(t, ex, space)                         # the stored route's states and optimal tools
        for k, tool in enumerate(r.tools):                         # states before the first mistake are k steps closer
            if k < len(on_route) and on_route[k]["values"] == r.states[k]: best = sorted(on_route[k]["optimal"])
            else:
                e = bfs(r.states[k], min(max_depth, t.distance - k), space, goal=t.output)
                if e.goal_state is None: break
                best = sorted({fs.names[i] for i in RouteGraph(e).optimal(e.goal_state)[0]})
            if tool.name in best: continue
            pairs.append({"prompt": P.step_prompt(r.states[k], t.output), "chosen": P.step_completion(rng.choice(best)),
                          "rejected": P.step_completion(tool.name)})
            where[f"step {k + 1}"] += 1
            break
    return {"pairs": pairs, "rollouts": len(rollouts), "reached": sum(r.reached for r in rollouts), "mistake_at": dict(where)}

def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--minutes", type=float, default=4.0, help="training minutes of each arm")
    ap.add_argument("--tasks", type=int, default=4000, help="training tasks the start policy is rolled out on")
    ap.add_argument("--bench-dir", default="runs/bench-stepwise", help="the run directory of benchmarks/stepwise.py")
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--beta", type=float, default=0.1)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--run-dir", default="runs/bench-stepwise-dpo")
    a = ap.parse_args(argv)
    import torch
    torch.set_num_threads(a.threads)
    import datasets
    from trl import SFTTrainer
    from wandering_light.tasks import read_tasks
    from wandering_light.training.sft import parse_args as sft_args, _sample
    from wandering_light.training.dpo import parse_args as dpo_args, run_dpo
    from wandering_light.training.core import run_trainer
    from wandering_light.utils import write_jsonl, read_jsonl
    bench, run = Path(a.bench_dir), Path(a.run_dir)
    start = bench / "sft" / "model"
    stepwise_checkpoint(start)
    run.mkdir(parents=True, exist_ok=True)
    sets = stepwise_eval_sets(bench)
    def make_pairs():
        m = mistake_pairs(start, _sample(read_tasks(bench / "data" / "train.jsonl.gz"), a.tasks, "bench:dpo"))
        write_jsonl(run / "pairs.jsonl", m.pop("pairs"))
        return m
    mined = stage(run, "pairs", make_pairs)["result"]
    rows = [r for _, r in read_jsonl(run / "pairs.jsonl")]
    resume = lambda d: ["--resume"] if (d / "config.json").exists() else []
    common = ["--model-name", str(start), "--time-limit", str(a.minutes), "--threads", str(a.threads), "--quiet",
              "--max-steps", "100000", "--batch-size", str(a.batch_size), "--learning-rate", str(a.lr),
              "--lr-scheduler-type", "constant", "--warmup-ratio", "0", "--logging-steps", "20"]
    res = {"start": stage(run, "eval-start", lambda: evaluate(start, sets))["result"]}
    arms = {"dpo": lambda: run_dpo(dpo_args([*common, "--pairs", str(run / "pairs.jsonl"), "--beta", str(a.beta),
                                             "--save-steps", "200", "--run-dir", str(run / "dpo"), *resume(run / "dpo")])),
            "sft": lambda: run_trainer(sft_args([*common, "--task", "steps", "--data", "unused", "--no-eval", "--save-steps", "200",
                                                 "--max-length", "256", "--run-dir", str(run / "sft"), *resume(run / "sft")]),
                                       SFTTrainer, lambda cfg, p: datasets.Dataset.from_list(
                                           [{"prompt": r["prompt"], "completion": r["chosen"]} for r in rows]),
                                       title="SFT on the corrected states")}
    train = {}
    for name, fn in arms.items():
        s = stage(run, f"train-{name}", fn)["result"]
        train[name] = {"steps": s["steps"], "train_minutes": round(s["train_seconds"] / 60, 2),
                       "epochs": round(s["steps"] * a.batch_size / max(1, len(rows)), 2)}
        res[name] = stage(run, f"eval-{name}", lambda: evaluate(run / name / "model", sets))["result"]
    ok = lambda arm, s: res[arm][s]["success_rate"]
    figures = {"success_at_1": {s: {arm: ok(arm, s) for arm in res} for s in sets},
               "by_distance": {s: {arm: res[arm][s]["by_distance"] for arm in res} for s in sets},
               "points_dpo_minus_start": {s: round(100 * (ok("dpo", s) - ok("start", s)), 1) for s in sets},
               "points_dpo_minus_sft_same_minutes": {s: round(100 * (ok("dpo", s) - ok("sft", s)), 1) for s in sets},
               "pairs": len(rows), "mining": mined, "training": train, "start": str(start),
               "settings": {"minutes_per_arm": a.minutes, "lr": a.lr, "beta": a.beta, "batch_size": a.batch_size,
                            "threads": a.threads, "tasks_rolled_out": a.tasks, "schedule": "constant lr, no warm-up"}}
    report("stepwise_dpo", figures, argv)

if __name__ == "__main__":
    main(sys.argv[1:])
