"""The step policy reading its prompts in batches of like length (`StepPolicy.read_once`) against batches in the order given.

It takes a finished main job (`wl quickstart`: its policy, its world model and its held-out tasks in `--run-dir`) and
records every batch of (state, target) questions the policy is asked while the job's `stepwise-plan` solver rolls out
the first `--tasks` held-out tasks (each step planned with the world model: the evaluation's heaviest user of the
policy). It then reads those batches again, `--repeats` times each way, all in this process: as before (the baseline:
each run of `batch_size` questions in the order asked, one forward pass each, padded to its longest prompt); sorted by
prompt length and cut every `batch_size` questions (`rows`); and as now, sorted and cut by `batch_size` and
`batch_tokens` (`length_batches`: short prompts in big batches, long ones in small). Figures: the seconds of each way
(the best of the repeats), the baseline's over each (the speed-up), the prompt tokens each way computes (pad tokens
included) and the real ones, and how far the answers differ from the baseline's: the largest difference of a
log-probability, and the questions whose likeliest tool differs.
Usage: python benchmarks/policy_read.py [--save] [--run-dir runs/quickstart] [--tasks 150] [--repeats 3]
"""
import argparse, sys, time
from pathlib import Path
from types import SimpleNamespace
sys.path.insert(0, str(Path(__file__).parent))
from _common import planned_job, report

def record(run: Path, p: dict, tasks: int) -> tuple:
    "The policy and every batch of questions it was asked while `stepwise-plan` rolled out the first `tasks` held-out tasks."
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

def prompt_lengths(policy, asked) -> list[list[int]]:
    "The token count of each question's prompt, as `read_once` tokenizes it, call by call."
    from wandering_light import prompts as P
    from wandering_light.models import _prompt_ids
    return [[len(i) for i in _prompt_ids(policy.tok, [P.step_prompt(s, t) + " " for s, t in zip(ss, tt)])] for ss, tt in asked]

def padded(lengths: list[list[int]], cut) -> int:
    "The prompt tokens the forward passes compute, pad tokens included, in the batches `cut(lengths)` makes of each call."
    return sum(max(n[k] for k in b) * len(b) for n in lengths for b in cut(n))

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
    run, p = planned_job(a.run_dir)
    if a.tasks < 1 or a.repeats < 1: sys.exit("error: --tasks and --repeats must be 1 or more")
    import torch
    policy, asked = record(run, p, a.tasks)
    from wandering_light.stepwise import length_batches
    bs, budget, inf = policy.bs, policy.batch_tokens, 10 ** 9
    def read(batch_tokens, chunk):
        policy.batch_tokens = batch_tokens          # `chunk`: questions a call; each call's batches as `read_once` makes them
        return [x for s, t in asked for k in range(0, len(s), chunk) for x in policy.read_once(s[k:k + chunk], t[k:k + chunk])]
    old_s, old = timed(lambda: read(inf, bs), a.repeats)                    # as before: a call (a pass) per `bs` as asked
    rows_s, rows = timed(lambda: read(inf, inf), a.repeats)                 # sorted, cut every `bs`
    new_s, new = timed(lambda: read(budget, inf), a.repeats)                # sorted, cut by `bs` and `batch_tokens`
    def differ(got):
        pairs = [(o, n) for o, n in zip(old, got) if o and n]
        return {"max_logprob_difference": float(f"{max(abs(o[k] - n[k]) for o, n in pairs for k in o):.3g}"),
                "questions_whose_top_tool_differs": sum(max(o, key=o.get) != max(n, key=n.get) for o, n in pairs)}
    by_len = lambda n: sorted(range(len(n)), key=lambda k: n[k])
    cuts = {"as_asked": lambda n: [range(k, min(k + bs, len(n))) for k in range(0, len(n), bs)],
            "by_length_rows": lambda n: length_batches(by_len(n), sorted(n), bs, inf),
            "by_length_tokens": lambda n: length_batches(by_len(n), sorted(n), bs, budget)}
    lengths = prompt_lengths(policy, asked)
    figures = {"tasks": a.tasks, "threads": torch.get_num_threads(), "batch_size": bs, "batch_tokens": budget,
               "calls": len(asked), "questions": sum(len(s) for s, _ in asked), "prompt_tokens_real": sum(map(sum, lengths)),
               "seconds_as_asked": round(old_s, 2), "seconds_by_length_rows": round(rows_s, 2),
               "seconds_by_length_tokens": round(new_s, 2), "ratio_as_asked_to_by_length_rows": round(old_s / rows_s, 2),
               "ratio_as_asked_to_by_length_tokens": round(old_s / new_s, 2),
               **{f"prompt_tokens_{k}": padded(lengths, c) for k, c in cuts.items()},
               "by_length_rows_against_as_asked": differ(rows), "by_length_tokens_against_as_asked": differ(new)}
    report("policy_read", figures, argv, notes={"run": str(run)})

if __name__ == "__main__": main(sys.argv[1:])
