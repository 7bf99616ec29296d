"""Preference tuning of the agent's own model on its own traces, per bootstrap: does DPO lift held-out success over its SFT start?

For each bootstrap named in `--bootstraps` (default: vigenere, sorting and induction; see `wl agent --bootstrap`), in one run:

1. **SFT start.** The scripted expert slips with probability 0.5 on `--train-tasks` instances (seed 0), with 4 candidates
   a block and a budget of 1 to 4 ticks; its traces become block examples in the model's window
   (`agent.training.policy_examples`; the window drops the Tools, Task and Orientation prompt views, the same in every
   run, and keeps `--max-chars` characters of blocks, so most examples are one block after a short history), and a tiny model is trained on them from scratch for `--sft-steps` steps
   (`agent.training.train_agent_model`, no evaluator phase).
2. **Its own traces.** That model runs as the agent on `--mine-tasks` other instances (seed 2): it samples 4 candidates
   for each action and expectation (temperature `--temperature`), the linter ranks them, each candidate's grounded
   reward comes from running it (where the goal is hidden, an action's reward is the bootstrap's own check on its
   values: 1 if it would solve the task, otherwise its progress in visible examples done; where it is shown, as in
   induction, 1 if it reaches it, otherwise in proportion to the distance gained). `agent.exports.preference_groups` (prompts in the model's own window) and
   `preference_pairs` turn the traces into pairs: the best-rewarded candidate against each worse one.
3. **Two arms from the start, the same steps, batch and learning rate:** `dpo` (`wl dpo`'s `run_dpo`: TRL's DPOTrainer
   with the start as the frozen reference, loss `--loss`) and the control `sft` (SFT on the chosen blocks of the same
   pairs, the prompt/completion form of step 1). Schedules: DPO's linear decay from TRL's defaults, the control's cosine
   with a 5% warm-up (`agent.training.sft_phase`).
4. **Held-out success.** The start and both arms run as the agent on the same `--test-tasks` instances (seed 1, none that shows
   the agent what a training or mining instance shows: its inputs, and its target where the goal is shown), same sampling seeds, linter ranking, 4 ticks, one retry a tick.

Figures: held-out success of each model per bootstrap, DPO minus start and DPO minus the control in points, the pairs
and how the start's traces ended, and the command that measured each bootstrap; the run directory resumes stage by
stage (RUN/BOOTSTRAP/stages.json). With --save, a bootstrap not named keeps its saved figures if they were measured with
the same settings.
Usage: python benchmarks/agent_dpo.py [--save] [--bootstraps vigenere sorting induction] [--train-tasks 600] [--sft-steps 1500]
                                      [--mine-tasks 120] [--test-tasks 80] [--dpo-steps 150] [--run-dir runs/bench-agent-dpo]
"""
import argparse, json, sys, time
from collections import Counter
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report, stage, same_settings, solve_rate as rate

SETTINGS = ("train_tasks", "sft_steps", "mine_tasks", "test_tasks", "dpo_steps", "lr", "beta", "loss", "batch_size",
            "budget", "temperature", "threads", "max_chars", "drop_views", "seed")   # a run directory keeps to one set

def visible(t) -> tuple:
    "What the agent is shown of an instance: its inputs, and its target where the goal is shown (induction)."
    return str(t.input), str(t.target)

def held_out(bs, n: int, seed: int, exclude: set) -> list:
    """`n` distinct instances of seed `seed` whose visible part is not in `exclude`, or a one-line exit where the
    bootstrap cannot make so many (induction draws its inputs from a few seed batches: its instances repeat)."""
    k = n
    while True:
        out = list({visible(t): t for t in bs.tasks(k, seed=seed) if visible(t) not in exclude}.values())
        if len(out) >= n: return out[:n]
        if k >= 20 * n: sys.exit(f"error: bootstrap {bs.name!r} made only {len(out)} new instances in {k} of seed {seed}; ask for fewer")
        k += n

def bootstrap_run(name: str, a, root: Path, settings, mine: int = 0) -> tuple:
    """RUN/NAME (kept to one set of the options `settings`), the bootstrap, its `a.train_tasks` training instances (seed 0),
    `mine` mining instances (seed 2) and `a.test_tasks` held-out ones (seed 1), no two sets sharing what the agent is shown."""
    from wandering_light.agent.bootstrap import load_bootstrap
    run = root / name
    run.mkdir(parents=True, exist_ok=True)
    same_settings(run, a, settings)
    bs = load_bootstrap(name)
    train = bs.tasks(a.train_tasks, seed=0)
    seen = {visible(t) for t in train}
    mined = held_out(bs, mine, 2, seen) if mine else []
    return run, bs, train, mined, held_out(bs, a.test_tasks, 1, seen | {visible(t) for t in mined})

def agent_runs(model_dir: Path, bs, window, tasks, a, desc: str) -> list:
    "One trace per task of the model at `model_dir` as the agent (4 sampled candidates ranked by the linter)."
    from tqdm.auto import tqdm
    from wandering_light.backends import LocalBackend
    from wandering_light.agent.models import ModelPolicy
    from wandering_light.agent.loop import AgentConfig
    policy = ModelPolicy(LocalBackend.load(model_dir, device="cpu"), window, temperature=a.temperature)
    loop = bs.loop(policy, "lint", AgentConfig(budget=a.budget, max_retries=1, n=4, max_n=4, threshold=0.0, seed=a.seed))
    return [loop.run(t) for t in tqdm(tasks, desc=desc, disable=a.quiet)]

def ended(traces) -> dict:
    "How the traces stopped."
    return dict(Counter(t.result["stop_reason"] for t in traces))

def one_bootstrap(name: str, a, root: Path) -> dict:
    "Steps 1-4 above for one bootstrap; returns its figures."
    from wandering_light.agent.loop import AgentConfig
    from wandering_light.agent.models import Window
    from wandering_light.agent.training import policy_examples, train_agent_model, sft_phase
    from wandering_light.agent.exports import preference_groups, preference_pairs
    from wandering_light.training.dpo import parse_args as dpo_args, run_dpo
    from wandering_light.models import load_model, save_model
    from wandering_light.utils import RunDir, write_jsonl, read_jsonl
    import random
    run, bs, train, mine, test = bootstrap_run(name, a, root, SETTINGS, a.mine_tasks)
    window = Window(drop_views=tuple(a.drop_views), max_chars=a.max_chars)

    def sft_start():
        loops = {b: bs.loop(config=AgentConfig(budget=b, n=4, max_n=4, seed=a.seed), slip_prob=0.5) for b in (1, 2, 3, 4)}
        rng = random.Random(f"budgets:{a.seed}")
        traces = [loops[rng.choice([1, 2, 3, 4])].run(t) for t in train]
        rows = policy_examples(traces, window)
        t0 = time.perf_counter()
        ckpt = train_agent_model(run / "sft-start", rows, [], window, policy_steps=a.sft_steps, label_steps=0,
                                 batch_size=a.batch_size, seed=a.seed, quiet=a.quiet)
        return {"model": str(ckpt), "rows": len(rows), "expert_solved": rate(traces), "seconds": round(time.perf_counter() - t0, 1)}
    start = Path(stage(run, "sft-start", sft_start)["result"]["model"])

    def mined():
        traces = agent_runs(start, bs, window, mine, a, f"{name}: start on its own tasks")
        groups = preference_groups(traces, prompt=window.prompt)
        pairs, kind = preference_pairs(groups), {g["id"]: g["type"] for g in groups}
        write_jsonl(run / "pairs.jsonl", pairs)
        by_type = dict(Counter(kind[p["id"]] for p in pairs))
        return {"pairs": len(pairs), "groups": len(groups), "by_type": by_type, "solved": rate(traces), "ended": ended(traces)}
    mining = stage(run, "pairs", mined)["result"]
    rows = [r for _, r in read_jsonl(run / "pairs.jsonl")]
    steps = a.dpo_steps

    def dpo():
        s = run_dpo(dpo_args(["--model-name", str(start), "--pairs", str(run / "pairs.jsonl"), "--run-dir", str(run / "dpo"),
                              "--max-steps", str(steps), "--batch-size", str(a.batch_size), "--learning-rate", str(a.lr),
                              "--beta", str(a.beta), "--loss-type", *a.loss, "--max-length", "4096",
                              "--threads", str(a.threads), "--save-steps", "50", "--quiet",
                              *(["--resume"] if (run / "dpo" / "config.json").exists() else [])]))
        return {"steps": s.get("steps"), "train_seconds": s.get("train_seconds")}
    def control():
        model, tok = load_model(start, device="cpu")
        out = RunDir(run / "sft-control", {"steps": steps, "lr": a.lr, "batch_size": a.batch_size, "pairs": len(rows)})
        chosen = list({(r["prompt"], r["chosen"]): None for r in rows})
        t0 = time.perf_counter()
        model = sft_phase(model, tok, [{"prompt": p, "completion": c} for p, c in chosen], out, "control", steps,
                          a.batch_size, a.lr, a.seed, quiet=a.quiet)
        save_model(model, tok, out.path / "model")
        return {"steps": steps, "rows": len(chosen), "train_seconds": round(time.perf_counter() - t0, 1)}
    arms = {"start": start, "dpo": run / "dpo" / "model", "sft": run / "sft-control" / "model"}
    training = {"dpo": stage(run, "train-dpo", dpo)["result"], "sft": stage(run, "train-sft", control)["result"]}
    logs = [json.loads(l) for l in (run / "dpo" / "metrics.jsonl").read_text().splitlines() if '"rewards/' in l]
    training["dpo"]["last_log"] = {k: round(v, 4) for k, v in logs[-1].items() if k == "step" or k.startswith("rewards/")}
    success = {}
    for arm, path in arms.items():
        r = stage(run, f"eval-{arm}", lambda: (lambda tr: {"success": rate(tr), "ended": ended(tr)})(
            agent_runs(path, bs, window, test, a, f"{name}: {arm} on held-out tasks")))["result"]
        success[arm] = r["success"]
    pts = lambda x, y: round(100 * (success[x] - success[y]), 1)
    return {"held_out_success": success, "points_dpo_minus_start": pts("dpo", "start"),
            "points_dpo_minus_sft_control": pts("dpo", "sft"), "pairs": len(rows), "mining": mining,
            "training": training, "tasks": {"train": len(train), "mine": len(mine), "test": len(test)},
            "stage_seconds": {k: v["wall_s"] for k, v in json.loads((run / "stages.json").read_text()).items() if k != "settings"}}

def saved_bootstraps(settings: dict, f: Path = Path(__file__).parent / "results" / "agent_dpo.json") -> dict:
    """The bootstraps of the saved results `f` measured with these settings, each with the command that measured it: a
    call with --save on some bootstraps keeps the others (a bootstrap takes about an hour here), never figures of other
    settings."""
    if not f.exists(): return {}
    old = json.loads(f.read_text())
    if old["figures"].get("settings") != settings: return {}
    return {k: {"command": old["command"]} | v for k, v in old["figures"].items() if isinstance(v, dict) and "held_out_success" in v}

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--bootstraps", nargs="+", default=["vigenere", "sorting", "induction"])
    ap.add_argument("--train-tasks", type=int, default=600, help="instances the expert's training traces come from")
    ap.add_argument("--sft-steps", type=int, default=1500, help="SFT steps of the start (tiny model from scratch)")
    ap.add_argument("--mine-tasks", type=int, default=120, help="instances the start runs on to make its preference pairs")
    ap.add_argument("--test-tasks", type=int, default=80, help="held-out instances")
    ap.add_argument("--dpo-steps", type=int, default=150, help="training steps of each arm (dpo and the sft control)")
    ap.add_argument("--lr", type=float, default=1e-4, help="learning rate of both arms")
    ap.add_argument("--beta", type=float, default=0.1)
    ap.add_argument("--loss", nargs="+", default=["sigmoid", "sft"], help="DPOTrainer loss types (summed)")
    ap.add_argument("--batch-size", type=int, default=8)
    ap.add_argument("--budget", type=int, default=4, help="ticks of every agent run")
    ap.add_argument("--temperature", type=float, default=0.7)
    ap.add_argument("--max-chars", type=int, default=1500, help="the model's window: characters of blocks it sees")
    ap.add_argument("--drop-views", nargs="*", default=["Tools", "Task", "Orientation prompt"], help="the model's window: "
                    "observations it never sees (the same every run, so the model learns the task from its traces)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--run-dir", default="runs/bench-agent-dpo")
    a = ap.parse_args(argv)
    import torch
    torch.set_num_threads(a.threads)
    t0 = time.perf_counter()
    command = " ".join(["python", "benchmarks/agent_dpo.py", *argv])
    figures = {name: one_bootstrap(name, a, Path(a.run_dir)) | {"command": command} for name in a.bootstraps}
    settings = {k: getattr(a, k) for k in SETTINGS}
    figures = saved_bootstraps(settings) | figures if a.save else figures
    figures["bootstraps_lifted_3_points"] = sum(f["points_dpo_minus_start"] >= 3 for f in figures.values())
    figures["settings"] = settings
    figures["wall_seconds_this_call"] = round(time.perf_counter() - t0, 1)     # a resumed run skips finished stages
    report("agent_dpo", figures, argv)
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
