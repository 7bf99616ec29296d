"""Preference tuning of a tool policy on its own agent traces, per hidden-goal bootstrap: does DPO lift held-out success over its SFT start?

The agent's policy here is `agent.tool_policy`: a tiny model trained from scratch reads the current values and names
the next tool, one tool per action (`ToolAgentPolicy`: its 4 likeliest tools are the candidates, the linter takes the
first clean one, so the agent acts greedily; expectations are the values the tool returns when run). For each bootstrap
named in `--bootstraps` (default: sorting and vigenere), in one run, each stage resumable (RUN/BOOTSTRAP/stages.json):

1. **SFT start.** `tool_rows` from walks through `--train-tasks` instances (seed 0; labels: every optimal tool, by
   breadth-first search toward the bootstrap's goal); a tiny model learns them for `--sft-steps` steps (`train_tool_policy`). Kept short on purpose,
   so that the start makes mistakes worth preferring against.
2. **Its own traces.** The start runs as the agent (`--budget` ticks, one retry a tick) on `--mine-tasks` other
   instances (seed 2); `tool_pairs` turns each action into pairs: an optimal tool (chosen) against each tool it offered
   that was not optimal (rejected).
3. **Two arms from the start, the same steps, batch and learning rate:** `dpo` (`training.dpo.run_dpo`: TRL's
   DPOTrainer, the start as the frozen reference, loss `--loss`) and the control `sft` (SFT on the chosen tools of the
   same pairs, `agent.training.sft_phase`, cosine schedule with a 5% warm-up). With `--lora` the DPO arm trains a LoRA
   adapter through PEFT and is merged into the start (`training.lora.merge_lora`, what `wl merge-lora` does).
4. **Held-out success.** The start and both arms run as the agent on the same `--test-tasks` instances (seed 1, none with
   the input of a training or mining instance); also how often each one's likeliest tool is optimal on the states of
   walks through those instances (`top1_optimal`).

Figures per bootstrap: held-out success of each model, DPO minus start and DPO minus the control in points, top-1
optimal rates, the pairs and how the start's traces ended, stage seconds, and the settings and command that measured
it; `bootstraps_lifted_3_points` counts the bootstraps where DPO beat its start by at least 3 points. With --save, the
bootstraps of the saved results that this call did not measure are kept (each with its own command and settings).

The starts: 200 SFT steps make a Vigenère policy whose likeliest tool is optimal on 76% of held-out states; the sorting
policy needs about 1000 for 62% (it has to work out a permutation from three lists of numbers written digit by digit).
How the DPO settings were chosen (Vigenère, seed 0, 400 held-out tasks, start 44.0%): learning rate 1e-4 for 150
steps, DPO 47.0% / control 46.5%; 1e-4 for 400 steps, 66.5% / 68.3%; 5e-4 for 150 steps (the default now), 70.3% / 66.5%.
With --lora: 5e-4, 46.8% / 66.5%; 2e-3 (agent_tool_dpo_lora.json), 67.8% / 53.3%.
Usage: python benchmarks/agent_tool_dpo.py [--save] [--bootstraps sorting vigenere] [--train-tasks 400] [--sft-steps 200]
                                           [--mine-tasks 300] [--test-tasks 400] [--dpo-steps 150] [--lr 5e-4] [--seed 0]
                                           [--run-dir runs/bench-agent-tool-dpo]
"""
import argparse, json, sys, time
from collections import Counter
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report, stage, solve_rate as rate
from agent_dpo import bootstrap_run

SETTINGS = ("train_tasks", "sft_steps", "mine_tasks", "test_tasks", "dpo_steps", "lr", "beta", "loss", "batch_size",
            "budget", "slip", "seed", "lora")   # a run directory keeps to one set

def agent_runs(model_dir: Path, bs, tasks, a, desc: str) -> list:
    "One trace per task of the tool policy at `model_dir` as the agent."
    from tqdm.auto import tqdm
    from wandering_light.agent.loop import AgentConfig
    from wandering_light.agent.tool_policy import ToolPolicy, ToolAgentPolicy
    loop = bs.loop(ToolAgentPolicy(ToolPolicy.load(model_dir, bs.tools)), "lint",
                   AgentConfig(budget=a.budget, max_retries=1, n=4, max_n=4, threshold=0.0, seed=a.seed))
    return [loop.run(t) for t in tqdm(tasks, desc=desc, disable=a.quiet)]

def one_bootstrap(name: str, a, root: Path) -> dict:
    "Steps 1-4 above for one bootstrap; returns its figures."
    from wandering_light.agent.tool_policy import ToolPolicy, tool_rows, train_tool_policy, tool_pairs, top1_optimal
    from wandering_light.agent.training import sft_phase
    from wandering_light.training.dpo import parse_args as dpo_args, run_dpo
    from wandering_light.training.lora import merge_lora
    from wandering_light.models import load_model, save_model
    from wandering_light.utils import RunDir, write_jsonl, read_jsonl
    run, bs, train, mine, test = bootstrap_run(name, a, root, SETTINGS, a.mine_tasks)

    def sft_start():
        rows = tool_rows(bs, train, slip=a.slip, seed=a.seed)
        ckpt = train_tool_policy(run / "sft-start", rows, bs.tools, a.sft_steps, a.batch_size, seed=a.seed, quiet=a.quiet)
        return {"model": str(ckpt), "rows": len(rows)}
    start = stage(run, "sft-start", sft_start)["result"]
    start_dir = Path(start["model"])

    def mined():
        traces = agent_runs(start_dir, bs, mine, a, f"{name}: start on its own tasks")
        pairs = tool_pairs(bs, mine, traces, seed=a.seed)
        write_jsonl(run / "pairs.jsonl", pairs)
        return {"pairs": len(pairs), "solved": rate(traces), "ended": dict(Counter(t.result["stop_reason"] for t in traces)),
                "actions": sum(b.type == "action" for t in traces for b in t.blocks)}
    mining = stage(run, "pairs", mined)["result"]
    rows = [r for _, r in read_jsonl(run / "pairs.jsonl")]

    def dpo():
        s = run_dpo(dpo_args(["--model-name", str(start_dir), "--pairs", str(run / "pairs.jsonl"), "--run-dir", str(run / "dpo"),
                              "--max-steps", str(a.dpo_steps), "--batch-size", str(a.batch_size), "--learning-rate", str(a.lr),
                              "--beta", str(a.beta), "--loss-type", *a.loss, "--max-length", "512",
                              "--threads", str(a.threads), "--save-steps", "50", "--quiet", *(["--lora"] if a.lora else []),
                              *(["--resume"] if (run / "dpo" / "config.json").exists() else [])]))
        if a.lora: merge_lora(run / "dpo" / "model", run / "dpo" / "merged")      # what `wl merge-lora` does
        return {"steps": s.get("steps"), "train_seconds": s.get("train_seconds")}
    def control():
        model, tok = load_model(start_dir, device="cpu")
        out = RunDir(run / "sft-control", {"steps": a.dpo_steps, "lr": a.lr, "batch_size": a.batch_size, "pairs": len(rows)})
        chosen = list({(r["prompt"], r["chosen"]): None for r in rows})
        t0 = time.perf_counter()
        model = sft_phase(model, tok, [{"prompt": p, "completion": c} for p, c in chosen], out, "control", a.dpo_steps,
                          a.batch_size, a.lr, a.seed, max_length=512, quiet=a.quiet)
        save_model(model, tok, out.path / "model")
        return {"steps": a.dpo_steps, "rows": len(chosen), "train_seconds": round(time.perf_counter() - t0, 1)}
    training = {"dpo": stage(run, "train-dpo", dpo)["result"], "sft": stage(run, "train-sft", control)["result"]}
    arms = {"start": start_dir, "dpo": run / "dpo" / ("merged" if a.lora else "model"), "sft": run / "sft-control" / "model"}
    def evaluated(arm: str, path: Path) -> dict:
        tr = agent_runs(path, bs, test, a, f"{name}: {arm} on held-out tasks")
        return {"success": rate(tr), "ended": dict(Counter(t.result["stop_reason"] for t in tr)),
                "top1_optimal": round(top1_optimal(ToolPolicy.load(path, bs.tools), bs, test), 4)}
    success, top1 = {}, {}
    for arm, path in arms.items():
        r = stage(run, f"eval-{arm}", lambda: evaluated(arm, path))["result"]
        success[arm], top1[arm] = r["success"], r["top1_optimal"]
    pts = lambda x, y: round(100 * (success[x] - success[y]), 1)
    return {"held_out_success": success, "points_dpo_minus_start": pts("dpo", "start"),
            "points_dpo_minus_sft_control": pts("dpo", "sft"), "top1_optimal_held_out": top1, "pairs": len(rows),
            "start_rows": start["rows"], "mining": mining, "training": training,
            "tasks": {"train": len(train), "mine": len(mine), "test": len(test)},
            "stage_seconds": {k: v["wall_s"] for k, v in json.loads((run / "stages.json").read_text()).items() if k != "settings"}}

def saved_bootstraps(f: Path) -> dict:
    "The bootstraps of the saved results `f` (each carries its own settings and command)."
    if not f.exists(): return {}
    return {k: v for k, v in json.loads(f.read_text())["figures"].items() if isinstance(v, dict) and "held_out_success" in v}

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--bootstraps", nargs="+", default=["sorting", "vigenere"])
    ap.add_argument("--train-tasks", type=int, default=400, help="instances the start's step examples come from")
    ap.add_argument("--sft-steps", type=int, default=200, help="SFT steps of the start (tiny model from scratch)")
    ap.add_argument("--slip", type=float, default=0.3, help="share of random steps in the walks that make the start's rows")
    ap.add_argument("--mine-tasks", type=int, default=300, help="instances the start runs on to make its preference pairs")
    ap.add_argument("--test-tasks", type=int, default=400, help="held-out instances")
    ap.add_argument("--dpo-steps", type=int, default=150, help="training steps of each arm (dpo and the sft control)")
    ap.add_argument("--lr", type=float, default=5e-4, help="learning rate of both arms")
    ap.add_argument("--beta", type=float, default=0.1)
    ap.add_argument("--loss", nargs="+", default=["sigmoid", "sft"], help="DPOTrainer loss types (summed)")
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--budget", type=int, default=6, help="ticks of every agent run (one tool a tick)")
    ap.add_argument("--lora", action="store_true", help="the DPO arm trains a LoRA adapter (PEFT, rank 16), merged into the "
                    "start before it is evaluated (as `wl merge-lora`); the control stays full SFT")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--name", default="agent_tool_dpo", help="results file: benchmarks/results/NAME.json")
    ap.add_argument("--run-dir", default="runs/bench-agent-tool-dpo")
    a = ap.parse_args(argv)
    import torch
    torch.set_num_threads(a.threads)
    t0 = time.perf_counter()
    command, settings = " ".join(["python", "benchmarks/agent_tool_dpo.py", *argv]), {k: getattr(a, k) for k in SETTINGS}
    figures = {name: one_bootstrap(name, a, Path(a.run_dir)) | {"settings": settings, "command": command} for name in a.bootstraps}
    if a.save: figures = saved_bootstraps(Path(__file__).parent / "results" / f"{a.name}.json") | figures
    figures["bootstraps_lifted_3_points"] = sum(f["points_dpo_minus_start"] >= 3 for f in figures.values())
    figures["wall_seconds_this_call"] = round(time.perf_counter() - t0, 1)     # a resumed run skips finished stages
    report(a.name, figures, argv, script="agent_tool_dpo")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
