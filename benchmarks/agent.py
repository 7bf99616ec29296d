"""The agent with a trained tiny model as its policy and evaluator, against single-shot best-of-4 with the same model.

Everything is built in the run: tasks (random walks relabelled with certified shortest pipelines, `agent.training.
task_split`: training and held-out tasks from disjoint seed batches, no held-out (input, target) pair in training),
expert traces with slips and alternatives, block and label examples, and a tiny model trained from scratch on them with
TRL's SFTTrainer (`agent.training.train_agent_model`; the run directory resumes, and a finished model is reused).
Then, on the same held-out tasks, each with 8 hidden held-out examples that decide success:

- `agent_success`: the model as policy and logit evaluator in the agent loop, within 4 ticks (4 sampled candidates per
  action and expectation, ranked by the model's own P(yes); one retry per tick after a failure);
- `single_shot_best_of_4_success`: the same model, one tick, 4 sampled actions, its evaluator picks one, no feedback
  and no retry; `single_shot_pass_at_4` is the share of tasks where any of those 4 would have solved it (an oracle
  choice); `agent_minus_single_shot_points` is the difference in percentage points;
- `expectation_accuracy_*`: how often the model's expectation equals the values its action produced, in the agent's runs
  and in a probe that asks it for the expectation of each action the expert took (by function type and output type in
  the notes);
- calibration of P(yes) for "Will this action reach the target?" on every action candidate the agent's model scored,
  against what running it showed: ECE (10 bins), AUROC, Brier score (other questions in the notes);
- reference points on the same tasks: the scripted expert (it knows the answer) and a random policy with the linter.

The recipe (defaults): 12,000 training tasks from 2,000 input batches (the other 2,000 batches make the held-out
tasks); the expert applies its whole plan in one action (`chunking="all"`) and slips with probability 0.5, so the
traces that span several blocks are failures and recoveries (wrong values -> debug -> undo -> the plan; an error ->
debug -> retry). Only 19% of its traces hold a slip (378 of the first 2,000): a slip that fails the linter (a type
error) is never chosen, since the expert's clean plan is among its candidates. The window drops the Tools, Task and Current values views (the diff to the target keeps the values);
2,800 steps of 16 whole-tick examples for the policy, 300 steps of labels for the evaluator; candidates sampled at
temperature 0.7. An action that already failed from the same values is linted as a repeat (`agent.loop.lint_block`),
so a retry is never the same mistake twice.

Usage: python benchmarks/agent.py [--save] [--train-tasks 12000] [--test-tasks 60] [--policy-steps 2800]
                                  [--label-steps 300] [--batch-size 16] [--run-dir runs/bench-agent] [--threads 2]
"""
import argparse, json, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report, solve_rate as rate
import torch
from wandering_light.agent.loop import (AgentConfig, AgentLoop, ExpertPolicy, RandomPolicy, LintScorer, calibration,
                                        grounded_labels, Q_REACH)
from wandering_light.agent.models import Window, model_agent
from wandering_light.agent.training import (task_split, expert_traces, random_traces, policy_examples, label_examples,
                                            train_agent_model, run_agent, pass_at_n, expectation_accuracy,
                                            expectation_probe)

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--train-tasks", type=int, default=12000)
    ap.add_argument("--test-tasks", type=int, default=60)
    ap.add_argument("--policy-steps", type=int, default=2800)
    ap.add_argument("--label-steps", type=int, default=300)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--seed-batches", type=int, default=4000, help="random input batches the tasks start from (half train, half test)")
    ap.add_argument("--slip-prob", type=float, default=0.5, help="the expert's slip probability in the training traces")
    ap.add_argument("--chunking", default="all", choices=["all", "random", "one"], help="how many planned tools the expert applies per tick")
    ap.add_argument("--temperature", type=float, default=0.7, help="the model's sampling temperature for candidates")
    ap.add_argument("--run-dir", default="runs/bench-agent", help="training run directory (resumed; a finished model is reused)")
    ap.add_argument("--threads", type=int, default=2, help="torch CPU threads (the reference machine has 2 shared cores)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--policy-from", help="a checkpoint of the policy phase (a trainer checkpoint directory of an earlier run "
                    "on the same data) to use instead of training the policy; its step count is reported as policy_steps")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    t_start = time.perf_counter()

    train, test = task_split(a.train_tasks, a.test_tasks, seed=a.seed, n_batches=a.seed_batches)
    window = Window(drop_views=("Tools", "Task", "Current values"), max_chars=4000)
    t0 = time.perf_counter()
    ex = expert_traces(train, seed=a.seed, n=4, slip_prob=a.slip_prob, chunking=a.chunking, progress=True)
    rnd = random_traces(train[: min(len(train) // 4, 1500)], seed=a.seed, progress=True)
    prow = policy_examples(ex, window)
    lrow = label_examples(ex + rnd, window, max_rows=a.label_steps * a.batch_size, seed=a.seed)
    data_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    schedule = a.policy_steps
    if a.policy_from:
        from wandering_light.models import load_model, save_model
        src = Path(a.policy_from)
        a.policy_steps = json.loads((src / "trainer_state.json").read_text())["global_step"]
        dst = Path(a.run_dir) / "phases" / "policy"
        if not (dst / "config.json").exists(): save_model(*load_model(src, device="cpu"), dst)
    ckpt = train_agent_model(a.run_dir, prow, lrow, window, policy_steps=a.policy_steps, label_steps=a.label_steps,
                             batch_size=a.batch_size, seed=a.seed)
    train_s = time.perf_counter() - t0
    policy, scorer = model_agent(ckpt, device="cpu", temperature=a.temperature)

    t0 = time.perf_counter()
    single = run_agent(policy, scorer, test, AgentConfig(budget=1, max_retries=0, n=4, max_n=4, threshold=0.0, seed=a.seed),
                       progress=True, desc="single shot")
    single_s = time.perf_counter() - t0
    judge = AgentLoop(policy, scorer, config=AgentConfig(seed=a.seed))
    t0 = time.perf_counter()
    agent = run_agent(policy, scorer, test, AgentConfig(budget=4, max_retries=1, n=4, max_n=4, threshold=0.0, seed=a.seed),
                      progress=True, desc="agent")
    agent_s = time.perf_counter() - t0
    expert = run_agent(ExpertPolicy(slip_prob=0.0), LintScorer(), test, AgentConfig(budget=4, seed=a.seed))
    randoms = run_agent(RandomPolicy(), LintScorer(), test, AgentConfig(budget=4, max_retries=1, n=4, max_n=4, seed=a.seed))
    exp_agent = expectation_accuracy(agent, judge)
    probe = expectation_probe(policy, expert, judge)
    cal = calibration(grounded_labels(agent))
    reach = cal.get(Q_REACH, {})
    solved = [t for t in agent if t.result["solved"]]
    figures = {
        "train_tasks": len(train), "test_tasks": len(test), "policy_examples": len(prow), "label_examples": len(lrow),
        "policy_steps": a.policy_steps, "label_steps": a.label_steps, "batch_size": a.batch_size, "threads": a.threads,
        "agent_success": rate(agent),
        "single_shot_best_of_4_success": rate(single),
        "agent_minus_single_shot_points": round(100 * (rate(agent) - rate(single)), 1),
        "single_shot_pass_at_4": round(pass_at_n(single, test, judge), 4),
        "agent_mean_ticks_when_solved": round(sum(t.result["ticks"] for t in solved) / len(solved), 3) if solved else None,
        "expert_success": rate(expert), "random_policy_success": rate(randoms),
        "expectation_accuracy_agent": exp_agent["accuracy"], "expectation_checks_agent": exp_agent["n"],
        "expectation_accuracy_probe": probe["accuracy"], "expectation_checks_probe": probe["n"],
        "reach_calibration_ece": reach.get("ece"), "reach_calibration_auroc": reach.get("auroc"),
        "reach_calibration_brier": reach.get("brier"), "reach_labels": reach.get("scored"), "reach_base_rate": reach.get("yes"),
        "data_seconds": round(data_s, 1), "train_seconds": round(train_s, 1), "single_shot_seconds": round(single_s, 1),
        "agent_seconds": round(agent_s, 1), "wall_seconds": round(time.perf_counter() - t_start, 1),
    }
    notes = {"expectation_accuracy_agent": exp_agent, "expectation_accuracy_probe": probe, "calibration": cal,
             "stop_reasons": {k: sum(t.result["stop_reason"] == k for t in agent) for k in ("solved", "budget", "gave_up")},
             "model": str(ckpt), "window": window.to_json(),
             "trained_from_scratch_this_run": train_s > 30 and not a.policy_from,
             "policy_from": a.policy_from, "policy_schedule_steps": schedule}
    report("agent", figures, argv, notes)
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
