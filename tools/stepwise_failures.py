"""Where a step-wise model's greedy rollouts go wrong: each failed task walked against certified search to its first step
off a shortest route, with the rank the model gave an optimal tool there. Prints JSON.

Usage: python tools/stepwise_failures.py MODEL_DIR [--tasks FILE] [--max-steps 8] [--out FILE]
(the tasks default to the packaged upstream 480-task set; `--out` also keeps one row per failure)."""
import argparse, json, math, sys
from collections import Counter
from pathlib import Path

def first_wrong_step(policy, oracle, task, rollout) -> dict:
    "The first step whose tool is not optimal (rank: 0-based place of the best optimal tool in the model's order)."
    for k, tool in enumerate(rollout.tools):
        state = rollout.states[k]
        best = {n for n, v in oracle.logprobs([state], [task.output])[0].items() if v > -5}
        if tool.name in best: continue
        lp = policy.logprobs([state], [task.output])[0]
        order = sorted(lp, key=lp.get, reverse=True)
        return {"distance": task.distance, "step": k, "type": state.item_type.__name__, "chose": tool.name,
                "optimal": sorted(best), "rank": min(order.index(b) for b in best) if best else None,
                "p_chosen": round(math.exp(lp[tool.name]), 3)}
    return {"distance": task.distance, "step": None, "end": rollout.end, "tools": [t.name for t in rollout.tools]}

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model"); ap.add_argument("--tasks", default=None); ap.add_argument("--max-steps", type=int, default=8)
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    if not Path(a.model).is_dir(): sys.exit(f"error: no model directory at {a.model}")
    from wandering_light.tasks import read_tasks, DEFAULT_EVAL_SET
    from wandering_light.stepwise import StepPolicy, OraclePolicy
    tasks = read_tasks(a.tasks or DEFAULT_EVAL_SET)
    policy, oracle = StepPolicy.load(a.model), OraclePolicy(max_depth=4)
    rs = policy.rollouts([(t.input, t.output) for t in tasks], a.max_steps)
    rows = [first_wrong_step(policy, oracle, t, r) for t, r in zip(tasks, rs) if not r.reached]
    if a.out: Path(a.out).write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(json.dumps({"model": a.model, "tasks": len(tasks), "failed": len(rows),
                      "ends": dict(Counter(r.end for t, r in zip(tasks, rs) if not r.reached)),
                      "first_wrong_step": {f"d{d}/step{s}": n for (d, s), n in sorted(Counter((r["distance"], r["step"]) for r in rows).items(), key=str)},
                      "rank_of_optimal": {str(k): n for k, n in sorted(Counter(r.get("rank") for r in rows).items(), key=str)},
                      "by_type": dict(Counter(r.get("type") for r in rows).most_common())}, indent=1))

if __name__ == "__main__": main()
