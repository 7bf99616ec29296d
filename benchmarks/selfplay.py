"""Self-play against a random-task control: does a proposer that aims at the solver's edge make a better curriculum?

Stages (each resumable in the run directory, default runs/bench-selfplay):
1. data: certified tasks by forward expansion with route labels and proposer examples (`wl data`), the packaged eval
   set's inputs excluded;
2. the two starting models, both tiny and from scratch: a step-wise solver (`wl sft --task steps`, --solver-minutes of
   training) and a proposer (`wl sft --task proposer`, --proposer-minutes, then --proposer-minutes2 more from that checkpoint);
3. `wl selfplay --solver stepwise` twice from the same checkpoints and seeds:
   - arm `selfplay`: each round the proposer's GRPO is rewarded by the solver's learnability (its step-wise solve rate over
     sampled rollouts, best near one half), its certified proposals are harvested (edge proposals first), and the solver
     takes SFT steps on their optimal-next-tool labels;
   - arm `control`: the same solver SFT steps on the same number of random certified tasks from the same data;
   every round both arms log held-out step-wise success and the calibration of the policy's confidence; the self-play arm
   also logs the proposer's figures (parse_rate, frac_non_zero_std, distinct_rate, avg_function_count, the distance mix);
4. figures: both curves, the gap after the same solver compute, the proposer's figures round by round, a plot.
With `--solver-labels own` both arms' solvers learn only from their own shortest successful sampled rollouts of the
round's tasks (no search labels), so tasks beyond the solver teach it nothing; with `own-trim` each win is first cut
to the shortest sub-sequence of its tools that still solves the task (found by running them), so no detour is learnt.
With `--constrained` the proposer samples under the proposal grammar (`prompts.ProposalGrammar`), in its GRPO rounds and
in its figures: every proposal parses and type-checks, so parse_rate is 1 by construction and what the figures measure
is the rest (the learnability spread, distinct_rate, the distance mix). A proposer trained so must be sampled so: a
hand-written check (not kept; `evaluate_proposer`, 128 proposals at temperature 0.7 from base-task prompts) found the
round-10 proposer of `--constrained` (selfplay_grammar.json) writing 100% well-formed proposals under the grammar and
1.6% without it, against 43% without it for the starting proposer and 89% for round 10 of selfplay_own.json (GRPO's loss
reads the model's own log-probabilities, and a masked token is never sampled, so never the one a negative advantage
pushes down; see the GRPO chapter).
A variant of the proposer's reward (`--depth-power`, `--novelty-window`, `--novelty-by`: see `training.reward`) is
measured in its own run directory from the same start (`--start-from`: an earlier run's data and starting models, whose
stages are not run again) and saved under its own name (`--name`).
With `--ask-lengths 1,2,3` each proposer prompt names the number of functions to use, in turn, and only a proposal of
that certified distance earns learnability: the loop, not the proposer, sets the depth mix. The start proposer first
learns such prompts (`wl sft --task proposer --ask-length`, --ask-minutes from its checkpoint; stage `proposer_ask`).
`--ask-lengths auto` sets the mix each round from where the last round's proposals were at the solver's edge.
From a strong start (`--solver-from runs/split15m/sft/model`: the 15-minute `mini` step-wise policy of
stepwise_split15_mini.json, 75.2% of the upstream set alone, in place of solver0's 1.4-minute `tiny` one; its training
inputs are all in this data's train split, which shares their basis, and none of its held-out ones; `--start-from
runs/bench-sp --solver-labels oracle --depth-power 1 --novelty-window 64 --novelty-by tool --constrained --ask-lengths
auto`; the committed runs reused runs/bench-sp-auto's proposer_ask stage, copied, rather than training their own):
at the default solver rate of 5e-4 both arms lose held-out success round by round, self-play more (50.3% at the start;
43.3% against 46.7% after round 10, selfplay_strong.json); at 1e-4 both stay level (50.0% against 50.7%,
selfplay_strong_lr.json). A policy already trained on 384,000 step examples gains nothing measurable from 19,200 more,
on the edge or not, and at the higher rate the edge tasks pull it further off.
`--proposer-samples` sets how many proposals each round's proposer figures are measured on (128 halves the variance of
64); `--proposer-candidates K` also measures the proposer with the solver's P(solve) as a pre-filter (`wl selfplay
--proposer-candidates`: K candidates per prompt, the one whose greedy-route probability is nearest 0.5 kept), recorded
as `proposer_prefiltered_by_round` beside the raw figures; `--filter-width W` makes that P(solve) one sampled rollout's
chance of success over the W likeliest routes at each step (`Policy.solve_mass`). The pre-filter only measures, so
`benchmarks/prefilter.py` measures other pre-filters on a finished run's saved round models without running it again.
`--min-values N` (`wl selfplay --proposal-min-values`) makes a proposal whose input holds fewer than N distinct values
define no task (sampled with at least N values under --constrained): one value pins few tools down, and the proposer of
selfplay_prefilter_mass_seed1.json drifted to such inputs (`one_value_share_by_round`, the share of each round's certified
proposals with one distinct value). `--share-power P` multiplies the proposer's learnability by (1 - first_step_share) ** P,
`training.reward.first_step_share` being the share of the tools taking a task's input that begin one of its shortest
routes; `first_step_share` in the figures is its mean over each round's certified proposals, beside 300 random train tasks.
`--proposal-inputs data` (`wl selfplay --proposal-inputs`) gives each proposer prompt a base task's input and has the
proposer write only the pipeline: the solver's self-play tasks then keep the data's inputs, as the control's and the
held-out tasks do, and differ from the control's only in the pipelines the proposer chose at the solver's edge.
`--solver-replay N` (`wl selfplay --solver-replay`) has each solver round, in both arms, train on the tasks learnt in
the N rounds before as well as its own, with the same steps: each arm keeps what it gathered over the rounds.
`--harvest-candidates K` (`wl selfplay --harvest-candidates`) has the pre-filter choose the solver's self-play tasks: after
its GRPO, the round's proposer writes K candidates for each of --round-tasks prompts, and the one whose P(solve) (over
--filter-width routes) is nearest 0.5 is kept.
A finished run given a larger `--rounds` (same --run-dir and options) goes on from its last round in both arms.
Usage: python benchmarks/selfplay.py [--save] [--rounds 10] [--solver-minutes 6] [--proposer-minutes 4] [--run-dir DIR]
                                     [--depth-power P] [--novelty-window N] [--novelty-by pipeline|tool]
                                     [--ask-lengths 1,2,3|auto] [--ask-minutes 3]
                                     [--solver-labels oracle|own|own-trim] [--start-from DIR] [--constrained] [--solver-attempts 4]
                                     [--seed 0] [--solver-from CHECKPOINT] [--name selfplay] [--proposer-samples 64]
                                     [--proposer-candidates K] [--filter-width W] [--min-values N] [--share-power P]
                                     [--proposal-inputs write|data] [--solver-replay N] [--harvest-candidates K]
"""
import argparse, json, shutil, statistics, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import forget_stages, report, stage, worst_figures

def sft_options(data: Path, threads: int) -> list[str]:
    "The SFT options every starting model of this benchmark shares."
    return ["--data", str(data), "--batch-size", "64", "--learning-rate", "1e-3", "--warmup-ratio", "0.02", "--max-length",
            "256", "--no-eval", "--quiet", "--threads", str(threads), "--save-steps", "200", "--logging-steps", "50"]

def start_models(run: Path, a) -> dict:
    "Stages 1-2: the data and the two starting checkpoints."
    from wandering_light.tasks import create_data
    from wandering_light.steps import STEP_DISTANCE_WEIGHTS
    from wandering_light.training.sft import parse_args as sft_args, run_sft
    resume = lambda d: ["--resume"] if (d / "config.json").exists() else []
    data = stage(run, "data", lambda: create_data(run / "data", a.tasks, 0, walks_per_root=16, method="expansion",
                                                   roots_per_shard=500, progress=False, routes=True, n_proposer=a.tasks // 4,
                                                   weights=STEP_DISTANCE_WEIGHTS))
    common = ["--model-name", "tiny", *sft_options(run / "data", a.threads)]
    solver = None if a.solver_from else stage(run, "solver0", lambda: run_sft(sft_args(   # --solver-from: none to train
        ["--task", "steps", "--run-dir", str(run / "solver0"), "--time-limit", str(a.solver_minutes),
         "--max-steps", str(int(a.solver_minutes * 60 / 0.6)), *common, *resume(run / "solver0")])))
    proposer = stage(run, "proposer0", lambda: run_sft(sft_args(
        ["--task", "proposer", "--run-dir", str(run / "proposer0"), "--time-limit", str(a.proposer_minutes),
         "--max-steps", str(int(a.proposer_minutes * 60 / 0.6)), *common, *resume(run / "proposer0")])))
    proposer1 = stage(run, "proposer1", lambda: run_sft(sft_args(          # a second stretch from the first checkpoint
        ["--task", "proposer", "--run-dir", str(run / "proposer1"), "--time-limit", str(a.proposer_minutes2),
         "--max-steps", str(int(a.proposer_minutes2 * 60 / 1.8)), *common[2:], "--model-name", str(run / "proposer0" / "model"),
         *resume(run / "proposer1")]))) if a.proposer_minutes2 else None
    return {"data": data, "solver0": solver, "proposer0": proposer, "proposer1": proposer1}

def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--tasks", type=int, default=20_000)
    ap.add_argument("--solver-minutes", type=float, default=6.0)
    ap.add_argument("--proposer-minutes", type=float, default=4.0)
    ap.add_argument("--proposer-minutes2", type=float, default=10.0, help="more proposer SFT from its first checkpoint")
    ap.add_argument("--proposer-steps", type=int, default=6)
    ap.add_argument("--proposer-temperature", type=float, default=0.7)
    ap.add_argument("--proposer-samples", type=int, default=64, help="proposals sampled each round for the proposer's figures")
    ap.add_argument("--proposer-candidates", type=int, default=1, help="also measure the proposer with the solver's P(solve) "
                    "as pre-filter: this many candidates per prompt, the one nearest 0.5 kept (1: raw figures only)")
    ap.add_argument("--filter-width", type=int, default=0, help="the pre-filter's P(solve): 0, the greedy route's probability; "
                    "W, one sampled rollout's chance over the W likeliest routes at each step (Policy.solve_mass)")
    ap.add_argument("--harvest-candidates", type=int, default=1, help="the self-play arm's round tasks: sampled afresh from the "
                    "round's proposer, this many candidates a prompt, the one of P(solve) nearest 0.5 kept (1: the GRPO's proposals)")
    ap.add_argument("--eval-tasks", type=int, default=300, help="held-out (validation split) tasks measured every round")
    ap.add_argument("--solver-steps", type=int, default=30)
    ap.add_argument("--round-tasks", type=int, default=192)
    ap.add_argument("--solver-lr", type=float, default=5e-4)
    ap.add_argument("--proposer-lr", type=float, default=2e-4)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--only-start", action="store_true", help="stop after the starting models")
    ap.add_argument("--run-dir", default="runs/bench-selfplay")
    ap.add_argument("--depth-power", type=float, default=0.0, help="the proposer's learnability times (distance / 4) ** P")
    ap.add_argument("--novelty-window", type=int, default=0, help="repeats of the last N valid proposals earn less novelty")
    ap.add_argument("--novelty-by", default="pipeline", choices=["pipeline", "tool"],
                    help="what the novelty window counts as a repeat: the input type and pipeline, or each tool")
    ap.add_argument("--solver-labels", default="oracle", choices=["oracle", "own", "own-trim"],
                    help="the solver learns from search's optimal next tools (oracle) or its own shortest successful rollouts (own; "
                    "own-trim: each cut to the shortest sub-sequence of its tools that still solves the task)")
    ap.add_argument("--solver-attempts", type=int, default=4, help="the solver's sampled rollouts per task: the proposer's "
                    "learnability and figures, and with --solver-labels own the rollouts each round task is tried by")
    ap.add_argument("--constrained", action="store_true", help="the proposer samples under the proposal grammar")
    ap.add_argument("--start-from", default=None, help="an earlier run directory of this benchmark: its data and start models")
    ap.add_argument("--solver-from", default=None, help="a step-wise checkpoint both arms start from instead of the run's "
                    "solver0 (e.g. runs/split15m/sft/model); its training inputs must keep to the data's train split")
    ap.add_argument("--seed", type=int, default=0, help="wl selfplay's seed: both arms' sampling, their task draws and the held-out sample")
    ap.add_argument("--ask-lengths", default=None, help="each proposer prompt asks for a task of this many functions, in "
                    "turn (e.g. 1,2,3; auto: a mix set each round, see wl selfplay); the start proposer first learns such prompts for --ask-minutes")
    ap.add_argument("--ask-minutes", type=float, default=3.0, help="SFT of the start proposer on prompts that name their target's length")
    ap.add_argument("--min-values", type=int, default=None, help="a proposal defines a task only if its input has this many "
                    "distinct values (wl selfplay --proposal-min-values; default: any)")
    ap.add_argument("--share-power", type=float, default=None, help="the proposer's learnability times (1 - its first-step "
                    "share) to this power (wl selfplay --learnability-share-power; default: off)")
    ap.add_argument("--proposal-inputs", default=None, choices=["write", "data"], help="who writes a proposal's input: the "
                    "proposer (write), or the data, each prompt giving a base task's input (wl selfplay --proposal-inputs)")
    ap.add_argument("--solver-replay", type=int, default=None, help="each solver round also trains on the tasks learnt in "
                    "the N rounds before (wl selfplay --solver-replay; default: off)")
    ap.add_argument("--name", default="selfplay", help="results file: benchmarks/results/NAME.json (and NAME_arms.png)")
    a = ap.parse_args(argv)
    import torch
    torch.set_num_threads(a.threads)
    if a.solver_from and not (Path(a.solver_from) / "config.json").exists():
        sys.exit(f"error: {a.solver_from} is not a checkpoint directory (no config.json)")
    run = Path(a.run_dir); run.mkdir(parents=True, exist_ok=True)
    base = Path(a.start_from) if a.start_from else run                  # where the data and the starting models are
    start = start_models(base, a)
    solver0 = Path(a.solver_from) if a.solver_from else base / "solver0" / "model"
    if a.only_start: print(json.dumps(start, indent=1, default=str)[:3000]); return
    from wandering_light.training.selfplay import parse_args as sp_args, run_selfplay
    proposer = base / ("proposer1" if a.proposer_minutes2 else "proposer0") / "model"
    if a.ask_lengths: proposer = Path(ask_proposer(run, proposer, a)["result"]["model"])
    sp = run / "selfplay"
    more_rounds(run, a.rounds)
    res = stage(run, "selfplay", lambda: run_selfplay(sp_args(
        ["--solver-model", str(solver0), "--proposer-model", str(proposer),
         "--solver-kind", "stepwise", "--control", "--rounds", str(a.rounds), "--proposer-steps", str(a.proposer_steps),
         "--solver-steps", str(a.solver_steps), "--batch-size", "32", "--num-generations", "8", "--round-tasks", str(a.round_tasks),
         "--solver-attempts", str(a.solver_attempts), "--solver-lr", str(a.solver_lr), "--proposer-lr", str(a.proposer_lr),
         "--data", str(base / "data"), "--eval-tasks", str(a.eval_tasks), "--proposer-samples", str(a.proposer_samples),
         "--proposer-candidates", str(a.proposer_candidates),
         *(["--proposer-filter-width", str(a.filter_width)] if a.filter_width else []),
         *(["--harvest-candidates", str(a.harvest_candidates)] if a.harvest_candidates > 1 else []),
         *(["--proposal-min-values", str(a.min_values)] if a.min_values else []),
         *(["--learnability-share-power", str(a.share_power)] if a.share_power else []),
         *(["--proposal-inputs", a.proposal_inputs] if a.proposal_inputs else []),
         *(["--solver-replay", str(a.solver_replay)] if a.solver_replay else []),
         "--learnability-depth-power", str(a.depth_power), "--novelty-window", str(a.novelty_window),
         "--novelty-by", a.novelty_by,
         "--proposer-temperature", str(a.proposer_temperature), "--solver-labels", a.solver_labels, "--run-dir", str(sp),
         *(["--constrained"] if a.constrained else []), *(["--ask-lengths", a.ask_lengths] if a.ask_lengths else []),
         "--threads", str(a.threads), "--seed", str(a.seed), "--quiet", *(["--resume"] if (sp / "config.json").exists() else [])])))
    final = stage(run, "upstream", lambda: upstream_eval(sp, a.rounds, solver0))["result"]
    openness = stage(run, "first_step_share", lambda: first_step_shares(sp, base / "data", a.rounds))["result"]
    single = stage(run, "one_value_share", lambda: one_value_shares(sp, a.rounds))["result"]
    figures = summarise(res["result"], final, start, sp, run if a.ask_lengths else None, a.solver_from) | {"heldout_tasks": a.eval_tasks, "threads": a.threads,
        "first_step_share": openness, "one_value_share_by_round": single,
        "plot": f"benchmarks/results/{a.name}_arms.png (a copy of RUN/selfplay/plots/arms.png)",
        "recipe": {"rounds": a.rounds, "round_tasks": a.round_tasks, "solver_steps": a.solver_steps, "solver_batch": 64,
                   "solver_lr": a.solver_lr, "proposer_steps": a.proposer_steps, "proposer_batch": 32,
                   "proposer_lr": a.proposer_lr, "proposer_temperature": a.proposer_temperature, "solver_attempts": a.solver_attempts,
                   "proposer_samples": a.proposer_samples, "proposer_candidates": a.proposer_candidates,
                   "filter_width": a.filter_width, "harvest_candidates": a.harvest_candidates, "min_values": a.min_values, "share_power": a.share_power,
                   "proposal_inputs": a.proposal_inputs, "solver_replay": a.solver_replay,
                   "learnability_depth_power": a.depth_power, "novelty_window": a.novelty_window,
                   "novelty_by": a.novelty_by, "solver_labels": a.solver_labels,
                   "constrained": a.constrained, "start_from": a.start_from, "seed": a.seed,
                   "ask_lengths": a.ask_lengths, "ask_minutes": a.ask_minutes if a.ask_lengths else None,
                   "solver_from": a.solver_from}}
    if a.save: shutil.copy(sp / "plots" / "arms.png", Path(__file__).parent / "results" / f"{a.name}_arms.png")
    report(a.name, figures, argv, script="selfplay")

def more_rounds(run: Path, rounds: int) -> None:
    """A finished run asked for more --rounds than it played: forget its self-play stages, so that `wl selfplay --resume`
    plays the new rounds in both arms (the rounds played are kept) and the stages after it measure the last round."""
    f = run / "stages.json"
    done = json.loads(f.read_text()) if f.exists() else {}
    if "selfplay" in done and len(done["selfplay"]["result"]["rounds"]) - 1 < rounds: forget_stages(run, "selfplay")

def ask_proposer(run: Path, start: Path, a) -> dict:
    "The start proposer, taught for --ask-minutes more on prompts that name their target's length (stage `proposer_ask`)."
    from wandering_light.training.sft import parse_args as sft_args, run_sft
    d = run / "proposer-ask"
    return stage(run, "proposer_ask", lambda: run_sft(sft_args(
        ["--task", "proposer", "--ask-length", "--model-name", str(start), *sft_options(Path(a.start_from or run) / "data", a.threads),
         "--run-dir", str(d), "--time-limit", str(a.ask_minutes), "--max-steps", str(int(a.ask_minutes * 60 / 0.6)),
         *(["--resume"] if (d / "config.json").exists() else [])])))

def asked_hits(sp: Path) -> list[dict]:
    "Per round: the proposer GRPO's certified proposals by asked length, and the share of them at the asked distance."
    from wandering_light.training.reward import CompletionLog
    out = []
    for k in range(1, 1000):
        f = sp / f"round-{k}" / "proposer" / "results" / "completions.jsonl"
        if not f.exists(): break
        rs = [r for r in CompletionLog(f).read() if r.get("certified_length") and r.get("asked_length")]
        by = {n: [r["certified_length"] == n for r in rs if r["asked_length"] == n] for n in sorted({r["asked_length"] for r in rs})}
        out.append({"round": k, "certified_by_asked": {n: len(v) for n, v in by.items()},
                    "at_asked_distance": {n: round(statistics.fmean(v), 3) for n, v in by.items() if v}})
    return out

def mean_first_step_share(tasks: list) -> float | None:
    """Mean over `tasks` of `reward.first_step_share`: the share of the tools taking a task's input that begin one of its
    shortest routes, i.e. how many ways the task leaves open at its first step."""
    from wandering_light.training.reward import first_step_share
    shares = [s for s in map(first_step_share, tasks) if s is not None]
    return round(statistics.fmean(shares), 3) if shares else None

def round_proposals(sp: Path, k: int) -> list:
    "Round `k`'s certified proposals the solver was given: those kept by --harvest-candidates, or its GRPO's harvest."
    from wandering_light.tasks import read_tasks
    from wandering_light.training.selfplay import harvest
    f = sp / f"round-{k}" / "unsure" / "train.jsonl.gz"
    return read_tasks(f) if f.exists() else harvest(sp / f"round-{k}" / "proposer" / "results" / "completions.jsonl")

def first_step_shares(sp: Path, data: Path, rounds: int, n: int = 300) -> dict:
    "`mean_first_step_share` of each round's harvested proposals, and of `n` random tasks of the data's train split (the control's kind)."
    import random
    from wandering_light.tasks import read_tasks
    train = read_tasks(data / "train.jsonl.gz")
    return {"data_train": mean_first_step_share(random.Random(0).sample(train, min(n, len(train)))),
            "proposals_by_round": [mean_first_step_share(round_proposals(sp, k)) for k in range(1, rounds + 1)]}

def one_value_shares(sp: Path, rounds: int) -> list:
    "Per round: the share of the harvested (certified) proposals whose input holds a single distinct value."
    out = []
    for k in range(1, rounds + 1):
        h = round_proposals(sp, k)
        out.append(round(sum(t.input.distinct() < 2 for t in h) / len(h), 3) if h else None)
    return out

def upstream_eval(sp: Path, rounds: int, solver0: Path) -> dict:
    "Both arms' last solvers (and their common start, `solver0`), greedy step-wise on the upstream 480-task set."
    from wandering_light.tasks import read_tasks, DEFAULT_EVAL_SET
    from wandering_light.models import load_model
    from wandering_light.stepwise import evaluate_stepwise
    tasks, out = read_tasks(DEFAULT_EVAL_SET), {}
    for name, path in [("start", solver0), ("selfplay", sp / f"round-{rounds}" / "solver" / "model"),
                       ("control", sp / "control" / f"round-{rounds}" / "solver" / "model")]:
        r = evaluate_stepwise(*load_model(path, device="cpu"), tasks)
        out[name] = {"success_rate": round(r["success_rate"], 4), "by_distance": {d: round(v["success_rate"], 3) for d, v in r["by_distance"].items()}}
    return out

def start_minutes(start: dict, solver_from: str | None) -> float | None:
    "The start solver's training minutes: the run's solver0, or what the summary beside a --solver-from checkpoint says."
    if not solver_from: return round(start["solver0"]["result"]["train_seconds"] / 60, 2)
    f = Path(solver_from).parent / "summary.json"
    return round(json.loads(f.read_text())["train_seconds"] / 60, 2) if f.exists() else None

def summarise(res: dict, upstream: dict, start: dict, sp: Path, ask_run: Path | None = None, solver_from: str | None = None) -> dict:
    "The figures: both curves, the gap, the proposer's figures per round and their worst over the rounds."
    from wandering_light.utils import read_events
    rounds, control = res["rounds"], res["control"]
    curve = lambda rs: [round(e["solver_success"], 4) for e in rs]
    pf, pre = [e["proposer"] for e in rounds if e["proposer"]], [e["proposer_filtered"] for e in rounds if e.get("proposer_filtered")]
    by_round = lambda ps: [{k: round(v, 3) for k, v in p.items() if k != "num_samples"} for p in ps]
    worst = lambda ps: worst_figures(ps[1:]) if len(ps) > 1 else None
    harvests = {arm: sorted(read_events(d, "harvest"), key=lambda e: e["round"]) for arm, d in (("selfplay", sp), ("control", sp / "control"))}
    harv = harvests["selfplay"]
    peak = lambda xs: max(range(len(xs)), key=xs.__getitem__)
    def span(d):     # rounds 1 on: each round's wall_s (a resumed run's pause left out), else the time since the round before
        ev = read_events(d, "round")
        return round(sum(e.get("wall_s", e["time"] - p["time"]) for p, e in zip(ev, ev[1:])) / 60, 1)
    sp_c, ct_c = curve(rounds), curve(control)
    return {
        "heldout_success_by_round": {"selfplay": sp_c, "control": ct_c},
        "heldout_by_distance_by_round": {arm: [{d: round(v["success_rate"], 3) for d, v in e["solver_by_distance"].items()} for e in rs]
                                         for arm, rs in (("selfplay", rounds), ("control", control))},
        "heldout_tasks_by_distance": {d: v["tasks"] for d, v in rounds[0]["solver_by_distance"].items()},
        "gap_after_last_round_points": round(100 * (sp_c[-1] - ct_c[-1]), 1),
        "gain_over_start_points": {"selfplay": round(100 * (sp_c[-1] - sp_c[0]), 1), "control": round(100 * (ct_c[-1] - ct_c[0]), 1)},
        "best_round": {"selfplay": peak(sp_c), "control": peak(ct_c)},
        "upstream480_stepwise": upstream,
        "calibration_by_round": {"selfplay": [e["calibration"] for e in rounds], "control": [e["calibration"] for e in control]},
        "proposer_by_round": by_round(pf), "proposer_worst_over_rounds_1_on": worst(pf),
        "harvest_by_round": [{k: e[k] for k in ("round", "certified", "used", "tasks", "learnt", "learnt_proposals", "trained",
                                                     "proposal_distances")
                          if k in e} for e in harv],
        **{f"{what}_by_round": {arm: [e.get(what) for e in hs] for arm, hs in harvests.items()} for what in ("learnt", "trained")},
        "start": {"solver_train_minutes": start_minutes(start, solver_from),
                  "proposer_train_minutes": round(sum(start[k]["result"]["train_seconds"] for k in ("proposer0", "proposer1")
                                                      if start.get(k)) / 60, 2)},
        "arm_wall_minutes_round_0_to_last": {"selfplay": span(sp), "control": span(sp / "control")},
    } | ({"proposer_prefiltered_by_round": by_round(pre), "proposer_prefiltered_worst_over_rounds_1_on": worst(pre)} if pre else {}) | (
         {"asked_lengths_by_round": asked_hits(sp), "proposer_ask_train_minutes":
          round(json.loads((ask_run / "stages.json").read_text())["proposer_ask"]["result"]["train_seconds"] / 60, 2)} if ask_run else {})

if __name__ == "__main__":
    main(sys.argv[1:])
