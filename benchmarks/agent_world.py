"""The agent's expectations written by a world model of each bootstrap's own: how often they hold, by bootstrap and function type.

For each bootstrap named in `--bootstraps` (default: sorting and vigenere; the induction bootstrap's world model and
expectations are benchmarks/world_model.py's), in one run, each stage resumable in RUN/BOOTSTRAP/stages.json:

1. **Data.** Random walks of `--walk` type-compatible tools (`agent.world.walk_pairs`) from the inputs of
   `--train-tasks` instances (seed 0), one world-model example per value (`agent.world.world_rows`).
2. **Training.** A tiny model from scratch (initialised and fed in an order set by `--seed`) learns them for `--steps`
   steps of batch `--batch-size` (`agent.world.train_world_model`; the bootstrap's tool names are single tokens). The
   default is 9,000 steps: at 3,000 the Vigenère model may stop short of `reverse_text` (a character-level reversal;
   it predicted most characters of it but no whole value, 88% of pairs in all); at 6,000 seed 0 holds every tool but
   seed 1 predicts only 52.8% of the `reverse_text` pairs; at 9,000 both seeds hold every tool (seed 1 measured on
   the Vigenère bootstrap only).
3. **The world model alone.** Exact match on the walks from `--test-tasks` held-out instances (seed 1, distinct,
   none with a training input: benchmarks/agent_dpo.py's `held_out`): per (values, tool) pair, value by value and by tool
   (`stepwise.world_accuracy`), and how many of those values' prompts also occur among the training examples.
4. **In the agent.** The bootstrap's scripted expert runs the held-out instances (4 ticks, 4 candidates a block), slipping
   with probability `--slip` so that some actions are wrong ones, as a model's would be, and every expectation is the
   world model's prediction for the chosen action (`agent.world.WorldExpectations`). Reported: how often the
   expectations held (`agent.training.expectation_accuracy`, world-model expectations only), overall and by the
   action's function type. The actions are the expert's, not a trained model's: the figure measures the world model on
   the states and actions of an agent that sometimes errs, not a model policy's choices.
5. **With a model's choices** (`--tool-models DIR`, a benchmarks/agent_tool_dpo.py run directory): the same, with that
   run's DPO-tuned tool policy (DIR/BOOTSTRAP/dpo/model, `agent.tool_policy.ToolAgentPolicy`, 6 ticks, one tool an action)
   choosing the actions instead of the expert, the world model writing its expectations.

Usage: python benchmarks/agent_world.py [--save] [--bootstraps sorting vigenere] [--train-tasks 2000] [--test-tasks 100]
                                        [--walk 3] [--steps 9000] [--batch-size 16] [--slip 0.5] [--seed 0] [--name agent_world]
                                        [--threads 2] [--run-dir runs/bench-agent-world] [--tool-models runs/bench-agent-tool-dpo]
"""
import argparse, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report, stage, solve_rate
from agent_dpo import bootstrap_run

SETTINGS = ("train_tasks", "test_tasks", "walk", "steps", "batch_size", "lr", "slip", "seed")     # a run directory keeps to one set

def one_bootstrap(name: str, a, root: Path) -> dict:
    "Steps 1-4 above for one bootstrap; returns its figures."
    from wandering_light.agent.loop import AgentConfig
    from wandering_light.agent.training import expectation_accuracy
    from wandering_light.agent.world import walk_pairs, world_rows, train_world_model, WorldExpectations
    from wandering_light.agent.stepwise import WORLD_NOTE
    from wandering_light.executor import Executor
    from wandering_light.stepwise import StepPolicy, world_accuracy
    run, bs, train, _, test = bootstrap_run(name, a, root, SETTINGS)
    ex = Executor(bs.tools)
    pairs = walk_pairs(bs.tools, [t.input for t in train], a.walk, seed=0, executor=ex)
    rows = world_rows(pairs, ex)
    def trained():
        t0 = time.perf_counter()
        ckpt = train_world_model(run / "world", rows, bs.tools, a.steps, a.batch_size, a.lr, seed=a.seed, quiet=a.quiet)
        return {"model": str(ckpt), "seconds": round(time.perf_counter() - t0, 1)}
    model = stage(run, "train", trained)["result"]
    world = StepPolicy.load(model["model"])
    test_pairs = walk_pairs(bs.tools, [t.input for t in test], a.walk, seed=1, executor=ex)
    alone = stage(run, "world", lambda: world_accuracy(world.model, world.tok, test_pairs, executor=ex))["result"]
    taught = {r["prompt"] for r in rows}                 # held-out instances, but a value may still recur: count them
    seen = sum(r["prompt"] in taught for r in world_rows(test_pairs, ex))
    def agent(acting, config) -> dict:
        "The held-out instances with `acting` choosing the actions and the world model writing its expectations."
        policy = WorldExpectations(acting, world)
        loop = bs.loop(policy, config=config)
        traces = [loop.run(t) for t in test]
        acc = expectation_accuracy(traces, loop, keep=lambda body: WORLD_NOTE in body)
        return {"expectation_accuracy": acc["accuracy"], "checks": acc["n"], "by_function_type": acc["by_function_type"],
                "predictions": policy.work["predictions"], "unread_predictions": policy.work["unread_predictions"],
                "agent_success": solve_rate(traces)}
    def with_tool_policy():
        from wandering_light.agent.tool_policy import ToolPolicy, ToolAgentPolicy
        path = Path(a.tool_models) / name / "dpo" / "model"
        return {"model": str(path)} | agent(ToolAgentPolicy(ToolPolicy.load(path, bs.tools)),
                                            AgentConfig(budget=6, max_retries=1, n=4, max_n=4, threshold=0.0, seed=0))
    tool = {"agent_tool_policy": stage(run, f"agent-tool:{a.tool_models}", with_tool_policy)["result"]} if a.tool_models else {}
    return {"tasks": {"train": len(train), "test": len(test)}, "train_pairs": len(pairs), "train_rows": len(rows),
            "training": {"steps": a.steps, "batch_size": a.batch_size, "seconds": model["seconds"]},
            "world_model": {k: v for k, v in alone.items() if k != "by_type"} | {"values_also_in_training": seen},
            "agent": stage(run, "agent", lambda: agent(bs.expert(slip_prob=a.slip), AgentConfig(budget=4, n=4, max_n=4, seed=0)))["result"],
            **tool}

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--bootstraps", nargs="+", default=["sorting", "vigenere"])
    ap.add_argument("--train-tasks", type=int, default=2000, help="instances whose inputs the training walks start from")
    ap.add_argument("--test-tasks", type=int, default=100, help="held-out instances (walks and agent runs)")
    ap.add_argument("--walk", type=int, default=3, help="tools in each random walk")
    ap.add_argument("--steps", type=int, default=9000, help="training steps of each world model")
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--slip", type=float, default=0.5, help="probability that the expert's action is a wrong one first")
    ap.add_argument("--name", default="agent_world", help="results file: benchmarks/results/NAME.json")
    ap.add_argument("--seed", type=int, default=0, help="seed of the world model's initial weights and data order")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--run-dir", default="runs/bench-agent-world")
    ap.add_argument("--tool-models", default=None, help="a benchmarks/agent_tool_dpo.py run directory: its DPO-tuned tool "
                    "policies choose the actions in a second agent stage")
    a = ap.parse_args(argv)
    from wandering_light.agent.bootstrap import packaged_bootstraps
    unknown = [b for b in a.bootstraps if b not in packaged_bootstraps()]
    if unknown:
        print(f"error: unknown bootstrap {unknown[0]!r}; known: {', '.join(packaged_bootstraps())}", file=sys.stderr)
        return 2
    missing = [b for b in a.bootstraps if a.tool_models and not (Path(a.tool_models) / b / "dpo" / "model" / "config.json").exists()]
    if missing:
        print(f"error: no tool policy {Path(a.tool_models) / missing[0] / 'dpo' / 'model'} (run benchmarks/agent_tool_dpo.py first)", file=sys.stderr)
        return 2
    import torch
    torch.set_num_threads(a.threads)
    t0 = time.perf_counter()
    figures = {name: one_bootstrap(name, a, Path(a.run_dir)) for name in a.bootstraps}
    figures["expectation_accuracy_by_bootstrap"] = {k: v["agent"]["expectation_accuracy"] for k, v in figures.items()}
    if a.tool_models: figures["expectation_accuracy_with_tool_policy"] = {k: figures[k]["agent_tool_policy"]["expectation_accuracy"] for k in a.bootstraps}
    figures["settings"] = {k: getattr(a, k) for k in (*SETTINGS, "threads")}
    figures["wall_seconds_this_call"] = round(time.perf_counter() - t0, 1)      # a resumed run skips finished stages
    report(a.name, figures, argv, script="agent_world")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
