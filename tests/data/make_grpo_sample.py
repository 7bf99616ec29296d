#!/usr/bin/env python3
"""Write `grpo_completions_sample.jsonl`: a small GRPO completion log for the reward explorer (nbs/30_widgets).

A stand-in until `training.rl_grpo` writes logs of its own: the *policy* is simulated (at step s it answers with the
task's certified label with probability 0.15 + 0.15 s, else with a random well-typed pipeline or a malformed answer),
but everything after the completion is real: prompts come from `prompts.induction_prompt`, completions are parsed with
`prompts.parse_completion` and run with the `Executor`. The reward components are simple stand-ins (documented in the
chapter), not the training module's reward functions.

    PYTHONPATH=. python tests/data/make_grpo_sample.py
"""
import json, random
from pathlib import Path
from wandering_light.common_functions import basic_fns
from wandering_light.executor import Executor
from wandering_light.prompts import induction_prompt, parse_completion
from wandering_light.tasks import DEFAULT_EVAL_SET, read_tasks

STEPS, GROUPS, GROUP_SIZE = 6, 3, 4
MALFORMED = ["double, , inc", "Answer: I am not sure", "str_reverse, teleport", ""]

def random_pipeline(rng, t, n):
    names = []
    for _ in range(n):
        options = basic_fns.for_type(t)
        if not options: break
        f = rng.choice(options); names.append(f.name); t = f.out_cls
    return ", ".join(names)

def main():
    rng, ex = random.Random(0), Executor(basic_fns)
    tasks = [t for t in read_tasks(DEFAULT_EVAL_SET) if t.distance in (1, 2, 3)]
    lines = []
    for step in range(STEPS):
        p_label = 0.15 + 0.15 * step
        for group in range(GROUPS):
            task = rng.choice(tasks)
            for k in range(GROUP_SIZE):
                u = rng.random()
                if u < p_label: text = task.pipeline
                elif u < p_label + 0.15: text = rng.choice(MALFORMED)
                else: text = random_pipeline(rng, task.input.item_type, rng.randint(1, 3))
                parsed = parse_completion(text, basic_fns, task.input.item_type)
                out, err = None, None
                if parsed.ok:
                    r = ex.run(parsed.pipeline, task.input)
                    if r.success: out = r.output
                    else: err = f"{r.error_kind}: {r.error}"
                success = out is not None and out == task.output
                n = len(parsed.names)
                rewards = {"correct": 1.0 if success else 0.0,
                           "brevity": round(-0.1 * (n - task.distance), 3) if success and n > task.distance else 0.0,
                           "format": -0.5 if not parsed.ok else 0.0}
                lines.append({"step": step, "group": group, "index": k,
                              "prompt": induction_prompt(task.input, task.output),
                              "task": {"input": task.input.to_string(), "output": task.output.to_string(),
                                       "certified_length": task.distance},
                              "completion": text, "pipeline": parsed.names if parsed.ok else None,
                              "parse_error": None if parsed.ok else f"{parsed.error}: {parsed.message}",
                              "output": None if out is None else out.to_string(), "exec_error": err,
                              "rewards": rewards, "reward": round(sum(rewards.values()), 6), "success": success})
    path = Path(__file__).with_name("grpo_completions_sample.jsonl")
    path.write_text("".join(json.dumps(l) + "\n" for l in lines))
    print(f"wrote {len(lines)} completions to {path}")

if __name__ == "__main__": main()
