#!/usr/bin/env python3
"""Write the GRPO completion logs that the reward explorer (nbs/30e_widgets_rewards) is tested on:

- `grpo_completions_sample.jsonl`: induction, 6 steps of 3 groups of 4 completions;
- `grpo_proposal_completions_sample.jsonl`: proposal, 3 steps of 2 groups of 4 completions.

The *policy* is simulated (induction: at step s it answers with the task's certified label with probability
0.15 + 0.15 s, else with a random well-typed pipeline or a malformed answer; proposal: a random input from an example's
type with a random pipeline of one or two tools), but everything after the completion is the real thing: prompts from
`prompts`, and scoring and logging by `training.reward` (`InductionRewards`, `ProposalRewards` with live random-search
attempts), which writes the log format the explorer reads. Needs `wandering_light.training.reward`.

    PYTHONPATH=. python tests/data/make_grpo_sample.py
"""
import json, random
from pathlib import Path
from wandering_light.common_functions import basic_fns
from wandering_light.prompts import induction_prompt, proposer_completion, proposer_prompt
from wandering_light.solver import RandomSolve
from wandering_light.tasks import DEFAULT_EVAL_SET, random_input, read_tasks
from wandering_light.training.reward import InductionRewards, ProposalRewards

HERE = Path(__file__).parent
MALFORMED = ["double, , inc", "Answer: I am not sure", "str_reverse, teleport", ""]

def random_pipeline(rng, t, n):
    names = []
    for _ in range(n):
        options = basic_fns.for_type(t)
        if not options: break
        f = rng.choice(options); names.append(f.name); t = f.out_cls
    return names

def induction(path: Path, steps=6, groups=3, size=4):
    rng = random.Random(0)
    tasks = [t for t in read_tasks(DEFAULT_EVAL_SET) if t.distance in (1, 2, 3)]
    rs = InductionRewards(log=path)
    for step in range(steps):
        p_label = 0.15 + 0.15 * step
        prompts, comps, cols = [], [], {"input": [], "output": [], "certified_length": [], "task_id": []}
        for _ in range(groups):
            i = rng.randrange(len(tasks)); t = tasks[i]
            for _ in range(size):
                u = rng.random()
                text = (t.pipeline if u < p_label else rng.choice(MALFORMED) if u < p_label + 0.15 else
                        ", ".join(random_pipeline(rng, t.input.item_type, rng.randint(1, 3))))
                prompts.append(induction_prompt(t.input, t.output)); comps.append(" " + text)
                for k, v in (("input", t.input.to_string()), ("output", t.output.to_string()),
                             ("certified_length", t.distance), ("task_id", i)): cols[k].append(v)
        rs(prompts, comps, step=step, **cols)

def proposal(path: Path, steps=3, groups=2, size=4):
    rng = random.Random(1)
    tasks = [t for t in read_tasks(DEFAULT_EVAL_SET) if t.distance in (1, 2)]
    solver = RandomSolve(budget=12, seed=0)
    def attempts(new_tasks):             # the live solver: four tries of random search on each proposed task
        return [[solver.solve(t.input, t.output) is not None for _ in range(4)] for t in new_tasks]
    rs = ProposalRewards(attempts, log=path)
    for step in range(steps):
        prompts, comps, exs = [], [], []
        for _ in range(groups):
            examples = rng.sample(tasks, 2)
            prompt = proposer_prompt([e.trajectory() for e in examples])
            ex_json = json.dumps([e.to_record(compact=True) for e in examples])
            for _ in range(size):
                if rng.random() < 0.15: text = " " + rng.choice(MALFORMED)
                else:
                    inp = random_input(examples[0].input.item_type, rng)
                    text = proposer_completion(inp, random_pipeline(rng, inp.item_type, rng.randint(1, 2)))
                prompts.append(prompt); comps.append(text); exs.append(ex_json)
        rs(prompts, comps, step=step, examples=exs)

if __name__ == "__main__":
    for f, make in (("grpo_completions_sample.jsonl", induction), ("grpo_proposal_completions_sample.jsonl", proposal)):
        p = HERE / f
        p.unlink(missing_ok=True)
        make(p)
        print(f"wrote {sum(1 for _ in open(p))} completions to {p}")
