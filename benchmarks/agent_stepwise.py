"""The agent with the step-wise model inside (`agent.stepwise`), on the held-out tasks of benchmarks/agent.py.

The model is the step-wise checkpoint that `benchmarks/stepwise.py` trains from scratch on this CPU (RUN/sft/model,
default runs/bench-stepwise): it has never seen an agent trace. The held-out tasks are `agent.training.task_split`'s
test tasks with the same settings as benchmarks/agent.py (its first 60 are agent.json's tasks), less any task whose
(input, target) occurs in the step-wise model's training split (counted in `excluded_seen_in_step_training`). Each task
has 8 hidden held-out examples that decide success. Figures:

- `agent_success`: actions are plans (`actions="plan"`: the first 4 plans guided search finds, the policy's
  log-probabilities as its prior, at most `--plan-budget` tool applications per search), the world model's predictions
  as expectations, 4 ticks, one retry per tick; after a plan that fits only the visible examples the agent undoes it and
  searches past it;
- `single_shot_best_of_4_success`: the same policy, one tick, no retry: the likeliest of the 4 plans;
  `single_shot_pass_at_4`: some plan of the 4 solves it; `single_shot_random_choice`: the expected success of a uniform
  choice among the lint-clean plans (the policy's order against chance);
- `agent_tool_success`: one tool per action (`actions="tool"`, the policy's 4 likeliest tools), 4 ticks;
- `expectation_accuracy_world`: how often the world model's expectation equalled the values the action produced in the
  agent's runs (by function type in the notes); an unreadable prediction falls back to the search's values, is counted
  in `unread_world_predictions` and left out of the accuracy;
- `search_applications_per_task`: tool applications the plan searches spent (mean and median over tasks);
- `belief_*`, `offered_*`: the evaluator's P(yes) for "will this plan pass the held-out examples?"
  (`StepwiseAgentPolicy.belief`: the share of the shortest plans found that behave as the plan does on the probes, 1% of
  the task generator's prior mass of that behaviour breaking ties) on the single shot's four offered plans, recomputed
  outside the loop: success of the first plan, of the plan it believes in most, of an oracle, and of a uniform guess
  among the behaviours of the shortest plans found (what choosing is worth when nothing tells equally short pipelines
  apart: the reference is the first shortest pipeline BFS meets); the share of the gap between first and oracle that the
  belief closes; its AUROC and ECE, raw, after a Platt map (`self_knowledge.recalibrate`) fitted on `--val-tasks`
  validation tasks (`task_split` with seed 1, none of them a test task or in the step-wise training data), and after one
  fitted on every other test task and applied to the rest, both ways;
- reference points: the scripted expert (it knows the answer); agent.json's model agent on the first 60 tasks.

How the agent came to use its retries (the 30-minute model of benchmarks/stepwise.py, runs/bench-stepwise-cmp, both
cores; agent / single-shot best-of-4 / pass@4, 195 tasks): guided search that dropped a state reached a second time
94.4% / 88.2% / 93.8%, 11 failures (6 gave up: the plans they needed passed through values an earlier plan had reached);
keeping those routes (`GuidedSolver.search`) 96.9% / 87.7% / 96.4%; probes on top (`--probes 24`) 96.9% / 87.7% /
96.9%, all 6 failures out of ticks, each tick's retry spent on an action from the target values; debugging a failure on
a tick's last attempt at the start of the next tick (`agent.loop`) 98.5% (--probes 0, 132 search applications a task)
and 99.0% (--probes 24, 194 search and 906 probe applications a task). A plan budget of 1000 instead of 300 changed
nothing before the first change (94.4%).

How the belief was chosen (the same model; the single shot's offered plans on the 195 test tasks / on 393 tasks of
`task_split` with seed 1; success of the plan each rule chooses among the four, then the share of the gap to the oracle
it closes, with a first plan at 87.7% / 85.5% and an oracle at 96.9% / 98.0%): the generator's prior mass of each
behaviour among the plans found (the belief before) 90.3% / 88.8% (0.28 / 0.27); the policy's own path probabilities
summed the same way 88.2% / 85.2%; the number of plans found of each behaviour 76.9% / 74.6%; the shortest plans' shares
alone, ties to the likeliest plan, 89.7% / 88.0%; with 1% of the prior mass to break ties (the belief now) 90.8% / 89.3%
(0.33 / 0.31); a uniform guess among the shortest plans' behaviours 88.1% / 84.8%. AUROC 0.918 / 0.920 before, 0.921 /
0.923 now; ECE after a Platt map fitted on the other set, 0.083 / 0.068 before, 0.035 / 0.036 now. The rule was chosen
after seeing both sets.

Usage: python benchmarks/agent_stepwise.py [--save] [--run-dir runs/bench-stepwise] [--test-tasks 200] [--plan-budget 300] [--views 1] [--probes 24] [--val-tasks 200]
                                            [--world RUN/world/model]
"""
import argparse, json, statistics, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report, solve_rate as rate

def agent_tasks(run: Path, n: int, seed: int = 0, train_tasks: int = 12000, seed_batches: int = 4000,
                exclude=frozenset()) -> tuple[list, list]:
    """`task_split`'s `n` test tasks for `seed` (benchmarks/agent.py's settings) less those whose (input, target) occurs in
    the step-wise run's training split (RUN/data) or in `exclude`; and all `n`."""
    from wandering_light.agent.training import task_split
    from wandering_light.tasks import read_tasks
    seen = {(t.input.answer_key(), t.output.answer_key()) for t in read_tasks(run / "data" / "train.jsonl.gz")} | set(exclude)
    test = task_split(train_tasks, n, seed=seed, n_batches=seed_batches)[1]
    return [t for t in test if (t.input.answer_key(), t.target.answer_key()) not in seen], test

def agent_config():
    "The agent's settings in this benchmark: 4 ticks, one retry a tick, 4 candidates, no escalation threshold."
    from wandering_light.agent.loop import AgentConfig
    return AgentConfig(budget=4, max_retries=1, n=4, max_n=4, threshold=0.0)

def belief_rows(plan, tasks, judge) -> list[dict]:
    """For each task, the single shot's four offered plans as (the policy's belief that it passes the held-out examples,
    whether it does), and the success of a uniform guess among the behaviours (on the probes) of the shortest plans found."""
    from wandering_light.agent.training import solves
    from wandering_light.agent.policies import action_text
    rows = []
    for t in tasks:
        plan.begin(None, None)
        ranked = plan.ranked(t.input, t.target, 4)             # what the single shot searched; it offered the first 4
        b, ok = plan.belief(ranked, t.input.item_type), [solves(t, action_text([plan.policy.functions[n] for n in r]), judge) for r in ranked]
        short, least = {}, min(map(len, ranked), default=0)    # behaviour of each shortest plan -> whether it passes
        for r, y in zip(ranked, ok):
            if len(r) == least:                                # a behaviour passes if one of its plans does
                k = plan._signature(r, t.input.item_type); short[k] = short.get(k, False) or y
        rows.append({"offered": list(zip(b[:4], ok[:4])), "uniform_shortest": sum(short.values()) / len(short) if short else 0.0})
    return rows

def belief_figures(rows, val_rows) -> dict:
    """The first offered plan, the one the belief ranks first, an oracle, a uniform guess among the shortest plans'
    behaviours; the belief's AUROC and ECE over every offered plan, raw and after a Platt map fitted on the validation
    tasks (`val_rows`) or on every other task (applied to the rest, both ways)."""
    from wandering_light.calibration import auroc, expected_calibration_error
    from wandering_light.self_knowledge import recalibrate
    offered = [r["offered"] for r in rows]
    flat = lambda rs: ([p for r in rs for p, _ in r], [y for r in rs for _, y in r])
    (ps, ys), n, cal = flat(offered), len(rows), []
    for fit, held in ((offered[0::2], offered[1::2]), (offered[1::2], offered[0::2])):
        (fp, fy), (hp, hy) = flat(fit), flat(held)
        cal += zip(recalibrate(fp, fy)(hp), hy)
    first, best = (sum(r[0][1] for r in offered if r) / n, sum(max(r, key=lambda x: x[0])[1] for r in offered if r) / n)
    oracle = sum(any(y for _, y in r) for r in offered) / n
    return {"offered_first_success": round(first, 4), "offered_choice_by_belief_success": round(best, 4),
            "offered_pass_at_4": round(oracle, 4),
            "offered_uniform_guess_among_shortest_behaviours": round(sum(r["uniform_shortest"] for r in rows) / n, 4),
            "belief_gap_closed": round((best - first) / (oracle - first), 3) if oracle > first else None,
            "belief_auroc": round(auroc(ps, ys), 4), "belief_ece": round(expected_calibration_error(ps, ys), 4),
            "belief_ece_recalibrated_validation": round(expected_calibration_error(recalibrate(*flat([r["offered"] for r in val_rows]))(ps), ys), 4),
            "belief_ece_recalibrated_2fold": round(expected_calibration_error(*map(list, zip(*cal))), 4),
            "belief_candidates": len(ps), "belief_validation_tasks": len(val_rows)}

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--run-dir", default="runs/bench-stepwise", help="a benchmarks/stepwise.py run: its sft/model and data/")
    ap.add_argument("--test-tasks", type=int, default=200)
    ap.add_argument("--train-tasks", type=int, default=12000, help="as benchmarks/agent.py: the split's training side")
    ap.add_argument("--seed-batches", type=int, default=4000, help="as benchmarks/agent.py")
    ap.add_argument("--plan-budget", type=int, default=300, help="tool applications per plan search")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--name", default="agent_stepwise", help="results file: benchmarks/results/NAME.json")
    ap.add_argument("--probes", type=int, default=24, help="probe values that tell plans apart (StepwiseAgentPolicy probes; 0: off)")
    ap.add_argument("--val-tasks", type=int, default=200, help="validation tasks (task_split seed 1) for the belief's Platt map")
    ap.add_argument("--world", default=None, help="a separate world model that writes the expectations (the main job's RUN/world/model); "
                    "default: the policy's own world-model prompt")
    ap.add_argument("--views", type=int, default=1, help="the policy reads each state in this many rotated orders of its pairs (StepPolicy views)")
    a = ap.parse_args(argv)
    run = Path(a.run_dir)
    if not (run / "sft" / "model" / "config.json").exists():
        print(f"error: no step-wise model in {run}/sft/model: run `python benchmarks/stepwise.py --run-dir {run}` first",
              file=sys.stderr)
        return 2
    if a.world and not (Path(a.world) / "config.json").exists():
        print(f"error: no world model in {a.world} (a checkpoint directory with config.json)", file=sys.stderr)
        return 2
    import torch
    torch.set_num_threads(a.threads)
    from wandering_light.agent.training import run_agent, pass_at_n, random_choice_rate, expectation_accuracy
    from wandering_light.agent.loop import AgentConfig, AgentLoop, ExpertPolicy
    from wandering_light.agent.candidates import LintScorer
    from wandering_light.agent.stepwise import StepwiseAgentPolicy, WORLD_NOTE
    from wandering_light.stepwise import StepPolicy
    t_start = time.perf_counter()
    kept, test = agent_tasks(run, a.test_tasks, 0, a.train_tasks, a.seed_batches)
    policy = StepPolicy.load(run / "sft" / "model", views=a.views)
    world = StepPolicy.load(a.world) if a.world else None
    judge = AgentLoop(ExpertPolicy(), LintScorer(), config=AgentConfig())
    plan = StepwiseAgentPolicy(policy, actions="plan", expect="world", budget=a.plan_budget, probes=a.probes, world=world)
    one = AgentConfig(budget=1, max_retries=0, n=4, max_n=4, threshold=0.0)
    four = agent_config()
    t0 = time.perf_counter()
    single = run_agent(plan, LintScorer(), kept, one, progress=True, desc="single shot")
    single_s = time.perf_counter() - t0
    offered = belief_rows(plan, kept, judge) if a.probes else None
    if a.probes:                                    # validation tasks: another split, none in the step-wise training data
        val, _ = agent_tasks(run, a.val_tasks, 1, a.train_tasks, a.seed_batches,
                             exclude={(t.input.answer_key(), t.target.answer_key()) for t in kept})   # nor a test task
        val_offered = belief_rows(plan, val, judge)
    t0 = time.perf_counter()
    plan.work = dict.fromkeys(plan.work, 0)
    agent, per_task = [], []
    for t in kept:                                  # one task at a time, to count each task's search applications
        before = plan.work["applications"]
        agent += run_agent(plan, LintScorer(), [t], four)
        per_task.append(plan.work["applications"] - before)
    agent_s, t0 = time.perf_counter() - t0, time.perf_counter()
    tool = run_agent(StepwiseAgentPolicy(policy, actions="tool", expect="world", world=world), LintScorer(), kept, four, progress=True,
                     desc="one tool per action")
    tool_s = time.perf_counter() - t0
    expert = run_agent(ExpertPolicy(slip_prob=0.0), LintScorer(), kept, AgentConfig(budget=4))
    exp = expectation_accuracy(agent, judge, keep=lambda body: WORLD_NOTE in body)   # fallbacks left out
    old = json.loads((Path(__file__).parent / "results" / "agent.json").read_text())["figures"]
    first = {t.id for t in test[:60]}
    first60 = [i for i, t in enumerate(kept) if t.id in first]
    figures = {
        "test_tasks": len(kept), "excluded_seen_in_step_training": len(test) - len(kept),
        "agent_success": rate(agent), "single_shot_best_of_4_success": rate(single),
        "agent_minus_single_shot_points": round(100 * (rate(agent) - rate(single)), 1),
        "single_shot_pass_at_4": round(pass_at_n(single, kept, judge), 4),
        "single_shot_random_choice": round(random_choice_rate(single, kept, judge), 4),
        "agent_tool_success": rate(tool), "expert_success": rate(expert),
        "first60_tasks_kept": len(first60), "agent_success_first60": rate([agent[i] for i in first60]) if first60 else None,
        "model_agent_success_first60_agent_json": old["agent_success"],
        "expectation_accuracy_world": exp["accuracy"], "expectation_checks": exp["n"],
        "unread_world_predictions": plan.work["unread_predictions"],
        "search_applications_per_task_mean": round(statistics.mean(per_task), 1),
        "search_applications_per_task_median": statistics.median(per_task),
        "backtracks": sum(t.result["backtracks"] for t in agent),
        "single_shot_seconds": round(single_s, 1), "agent_seconds": round(agent_s, 1), "tool_seconds": round(tool_s, 1),
        **(belief_figures(offered, val_offered) if offered else {}),
        "wall_seconds": round(time.perf_counter() - t_start, 1), "threads": a.threads, "views": a.views, "probes": a.probes,
        "probe_applications_per_task_mean": round(plan.work["probe_applications"] / max(1, len(kept)), 1),
    }
    notes = {"model": str(run / "sft" / "model"), "world_model": a.world or "the policy's own", "plan_budget": a.plan_budget, "expectation_accuracy_world": exp,
             "stop_reasons": {k: sum(t.result["stop_reason"] == k for t in agent) for k in ("solved", "budget", "gave_up")},
             "by_reference_length": {str(d): rate([x for x, t in zip(agent, kept) if len(t.reference) == d])
                                     for d in sorted({len(t.reference) for t in kept})}}
    report(a.name, figures, argv, notes, script="agent_stepwise")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
