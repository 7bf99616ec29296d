"""The step policy reading its prompts in batches of like length (`StepPolicy.read_once`) against batches in the order given.

It takes a finished main job (`wl quickstart`: its policy, its world model and its held-out tasks in `--run-dir`) and
records every batch of (state, target) questions the policy is asked while the job's `stepwise-plan` solver rolls out
the first `--tasks` held-out tasks (each step planned with the world model: the evaluation's heaviest user of the
policy). It then reads those batches again, `--repeats` times each way, both in this process: as before (the baseline:
each run of `batch_size` questions in the order asked, one forward pass each, padded to its longest prompt) and as now
(all of a batch's questions sorted by prompt length first). Figures: the seconds of each way (the best of the repeats),
the baseline's over the new (the speed-up), the prompt tokens each way computes (pad tokens included) and the real ones,
and how far the answers differ: the largest difference of a log-probability, and the questions whose likeliest tool differs.
Usage: python benchmarks/policy_read.py [--save] [--run-dir runs/quickstart] [--tasks 150] [--repeats 3]
"""
import argparse, json, sys, time
from pathlib import Path
from types import SimpleNamespace
sys.path.insert(0, str(Path(__file__).parent))
from _common import report

def record(run: Path, p: dict, tasks: int) -> tuple:
    "The policy and every batch of questions it was asked while `stepwise-plan` rolled out the first `tasks` held-out tasks."
    from wandering_light.stepwise import StepPolicy
    from wandering_light.tasks import read_tasks
    from wandering_light.training.main_job import solvers
    solver = solvers(SimpleNamespace(path=run), p)["stepwise-plan"]
    policy, asked = solver.policy.inner, []
    read = policy.read_once
    def keep(states, targets):
        asked.append((list(states), list(targets)))
        return read(states, targets)
    policy.read_once = keep
    solver.solve_batch_detailed([(t.input, t.output) for t in read_tasks(run / "heldout_test.jsonl.gz")[:tasks]])
    policy.read_once = read
    return policy, asked

def tokens(policy, asked, sort: bool) -> int:
    "The prompt tokens the forward passes compute, pad tokens included, in batches of `batch_size` (sorted or as asked)."
    from wandering_light import prompts as P
    total = 0
    for states, targets in asked:
        n = [len(policy.tok(P.step_prompt(s, t) + " ")["input_ids"]) for s, t in zip(states, targets)]
        n = sorted(n) if sort else n
        total += sum(max(n[k:k + policy.bs]) * len(n[k:k + policy.bs]) for k in range(0, len(n), policy.bs))
    return total

def timed(fn, repeats: int) -> tuple[float, list]:
    "The best seconds of `repeats` calls of `fn`, and its last result."
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter(); out = fn(); best = min(best, time.perf_counter() - t0)
    return best, out

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--run-dir", default="runs/quickstart", help="a finished `wl quickstart` run (its models and held-out tasks)")
    ap.add_argument("--tasks", type=int, default=150, help="held-out tasks of the run to roll out")
    ap.add_argument("--repeats", type=int, default=3, help="times each way reads the recorded questions (the best counts)")
    a = ap.parse_args(argv)
    run = Path(a.run_dir)
    if not all((run / f).exists() for f in ("config.json", "heldout_test.jsonl.gz", "sft/model", "world/model")):
        sys.exit(f"error: {run} is not a finished `wl quickstart` run with a world model (run `make quickstart` first)")
    if a.tasks < 1 or a.repeats < 1: sys.exit("error: --tasks and --repeats must be 1 or more")
    import torch
    from wandering_light.training.main_job import PROFILE_KEYS
    job = json.loads((run / "config.json").read_text())
    policy, asked = record(run, {k: job[k] for k in PROFILE_KEYS if k in job}, a.tasks)
    bs = policy.bs
    # as before: each run of `bs` questions in the order asked is one call, so one forward pass padded to its longest prompt
    old_s, old = timed(lambda: [x for s, t in asked for k in range(0, len(s), bs) for x in policy.read_once(s[k:k + bs], t[k:k + bs])], a.repeats)
    new_s, new = timed(lambda: [x for s, t in asked for x in policy.read_once(s, t)], a.repeats)
    pairs = [(o, n) for o, n in zip(old, new) if o and n]
    gap = max(abs(o[k] - n[k]) for o, n in pairs for k in o)
    turned = sum(max(o, key=o.get) != max(n, key=n.get) for o, n in pairs)
    from wandering_light import prompts as P
    real = sum(len(policy.tok(P.step_prompt(s, t) + " ")["input_ids"]) for ss, tt in asked for s, t in zip(ss, tt))
    figures = {"tasks": a.tasks, "threads": torch.get_num_threads(), "batch_size": bs, "batches": len(asked),
               "questions": sum(len(s) for s, _ in asked), "seconds_as_asked": round(old_s, 2), "seconds_by_length": round(new_s, 2),
               "ratio_as_asked_to_by_length": round(old_s / new_s, 2), "prompt_tokens_real": real,
               "prompt_tokens_as_asked": tokens(policy, asked, False), "prompt_tokens_by_length": tokens(policy, asked, True),
               "max_logprob_difference": float(f"{gap:.3g}"), "questions_whose_top_tool_differs": turned}
    report("policy_read", figures, argv, notes={"run": str(run)})

if __name__ == "__main__": main(sys.argv[1:])
