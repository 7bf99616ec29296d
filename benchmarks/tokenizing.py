"""Tokenizing training rows: `steps.tokenized_examples` against the way it worked before 2 December, in the same run.

The rows are those the main job's two training stages tokenize before their first step, from certified tasks made as
its data stage makes them (`--tasks`, default 6,000; the quickstart makes 40,000): the SFT stage's step rows (with
world-model and one-shot rows beside them, target spans and tool sets) and the world stage's rows (what every tool that
takes a step's values returns, one value at a time, floats to three digits). The baseline is the code before: a batched
tokenizer call, then a Python test of every token against every span of its row. Both must give the same
`input_ids` and `labels` (checked). Figures: rows, seconds of each, and the baseline's seconds over the new ones.
Usage: python benchmarks/tokenizing.py [--save] [--tasks 6000] [--run-dir runs/bench-tokenize]
"""
import argparse, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report

def before(tokenizer, rows, batch_size: int = 1000) -> list[dict]:
    "The labelling as it was: a tokenizer call a batch, then each token tested against each span in Python."
    from wandering_light.steps import TARGET_OFFSET
    out = []
    for s in range(0, len(rows), batch_size):
        part = rows[s:s + batch_size]
        enc = tokenizer([r["prompt"] + r["completion"] + r.get("tail", "") for r in part], return_offsets_mapping=True)
        for r, ids, offs in zip(part, enc["input_ids"], enc["offset_mapping"]):
            n, c = len(r["prompt"]), len(r["prompt"]) + len(r["completion"])
            spans = [*(r.get("spans") or ()), *((a + c, b + c) for a, b in r.get("tail_spans") or ())]
            lab = [i if n <= a < c else i + TARGET_OFFSET if b > a and any(x <= a < y for x, y in spans) else -100
                   for i, (a, b) in zip(ids, offs)]
            eos = tokenizer.eos_token_id
            out.append({"input_ids": [*ids, eos], "labels": [*lab, -100 if r.get("tail") else eos]})
    return out

def timed(fn) -> tuple:
    t0 = time.perf_counter(); r = fn()
    return r, round(time.perf_counter() - t0, 2)

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--tasks", type=int, default=6000, help="certified training tasks to make rows from")
    ap.add_argument("--run-dir", default="runs/bench-tokenize", help="where the tasks are made (kept and reused)")
    a = ap.parse_args(argv)
    from wandering_light.tasks import create_data
    from wandering_light.tasks import read_tasks
    from wandering_light.steps import STEP_DISTANCE_WEIGHTS, step_examples, tokenized_examples
    from wandering_light.models import build_tokenizer
    data = Path(a.run_dir) / f"data-{a.tasks}"
    create_data(data, a.tasks, 0, walks_per_root=16, method="expansion", roots_per_shard=max(25, min(500, a.tasks // 40)),
                progress=False, routes=True, weights=STEP_DISTANCE_WEIGHTS, workers=0)
    tasks, tok = read_tasks(data / "train.jsonl.gz"), build_tokenizer()
    sets = {"sft_step_rows": step_examples(tasks, 0.1, 0.1, 0, spans=True, tool_set=True),
            "world_rows": step_examples(tasks, 1.0, 0.0, 0, spans=True, steps=False, world_values=True, world_digits=3,
                                        world_tools="any")}
    figures = {"tasks": len(tasks)}
    for name, rows in sets.items():
        old, t_old = timed(lambda: before(tok, rows))
        new, t_new = timed(lambda: tokenized_examples(tok, rows))
        if old != new: sys.exit(f"error: {name}: the two tokenizations differ")
        figures[name] = {"rows": len(rows), "tokens": sum(len(r["input_ids"]) for r in new), "seconds_before": t_old,
                         "seconds_now": t_new, "ratio_before_to_now": round(t_old / t_new, 2)}
    report("tokenizing", figures, argv)

if __name__ == "__main__": main(sys.argv[1:])
