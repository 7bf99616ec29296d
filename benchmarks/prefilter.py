"""The self-play proposer's pre-filter, measured again on a finished run's models: which P(solve) keeps it at the edge?

A `benchmarks/selfplay.py` run keeps every round's proposer and solver (RUN/selfplay/round-K/...), and the pre-filter only
measures (the loop trains the solver on the raw proposals), so other pre-filters can be measured round by round on the
same models without running the loop again. Each filter `K:W` of `--filters` samples K candidates per proposer prompt and
keeps the one whose P(solve) is nearest 0.5, where P(solve) is the greedy route's probability (W = 0, what `wl selfplay
--proposer-candidates` measures by default) or `Policy.solve_mass` over the W likeliest routes at each step (W >= 1,
`--proposer-filter-width`); the kept proposals get the round's figures (frac_non_zero_std, distinct_rate, parse_rate, ...)
with the run's own settings (samples, solver attempts, temperature, grammar, seed). The raw figures and the run's own
pre-filtered ones are copied from its round events beside them: a filter equal to the run's (same K, W = 0) must
reproduce its logged figures, which checks the re-measurement. Each round and filter is a stage, so a stopped run resumes.
Usage: python benchmarks/prefilter.py [--run-dir runs/bench-sp-filter] [--filters 4:0,4:8,8:8] [--rounds 0-10]
                                      [--threads 2] [--name prefilter] [--save] [--quiet]
"""
import argparse, json, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report, stage, worst_figures

KEYS = ("parse_rate", "frac_non_zero_std", "distinct_rate", "avg_function_count", "solver_success_rate")

def parse_filters(text: str) -> list[tuple[int, int]]:
    "`K:W,K:W` as pairs: K candidates (2 or more), W routes (0: greedy route); a one-line exit on a bad one."
    try: out = [tuple(int(x) for x in f.split(":")) for f in text.split(",") if f]
    except ValueError: out = []
    if not out or any(len(f) != 2 or f[0] < 2 or f[1] < 0 for f in out):
        sys.exit(f"error: --filters {text!r}: give K:W pairs, K candidates (2 or more) and W routes (0 or more), e.g. 4:0,8:8")
    return out

def load_config(sp: Path):
    "The self-play arm's `SelfPlayConfig`, from its config.json (read only)."
    import dataclasses
    from wandering_light.training.selfplay import SelfPlayConfig
    saved = json.loads((sp / "config.json").read_text())
    return SelfPlayConfig(**{f.name: saved[f.name] for f in dataclasses.fields(SelfPlayConfig) if f.name in saved})

def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--run-dir", default="runs/bench-sp-filter", help="a finished benchmarks/selfplay.py run directory")
    ap.add_argument("--filters", default="4:0,4:8,8:8", help="K:W pairs: K candidates per prompt, P(solve) over W routes (0: greedy)")
    ap.add_argument("--rounds", default=None, help="first-last rounds to measure (default: every logged round)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--name", default="prefilter")
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    ap.add_argument("--verbose", action="store_true", help="also the libraries' own progress bars")
    a = ap.parse_args(argv)
    filters, run = parse_filters(a.filters), Path(a.run_dir)
    sp = run / "selfplay"
    if not (sp / "config.json").is_file():
        sys.exit(f"error: {sp} holds no self-play arm (no config.json): give a benchmarks/selfplay.py run directory")
    from wandering_light.utils import read_events
    events = {e["round"]: e for e in read_events(sp, "round") if e.get("proposer")}
    if not events: sys.exit(f"error: {sp} has no measured self-play round yet")
    lo, hi = (int(x) for x in a.rounds.split("-")) if a.rounds else (min(events), max(events))
    rounds = [k for k in sorted(events) if lo <= k <= hi]
    import torch
    torch.set_num_threads(a.threads)
    from tqdm.auto import tqdm
    from wandering_light.training.core import quiet_progress, start_model
    from wandering_light.training.selfplay import base_tasks, proposer_figures
    quiet_progress(a.verbose)                         # no bar per model loaded: one bar over the rounds and filters
    cfg = load_config(sp)
    base = base_tasks(cfg, sp)[0]
    out, bar = {}, tqdm(total=len(rounds) * len(filters), desc="rounds x filters", disable=a.quiet)
    for k in rounds:
        e, models = events[k], None
        for cands, width in filters:
            def measure():                                # the round's two models loaded once, and only if a stage needs them
                nonlocal models
                models = models or [start_model(e[m], cfg.seed)[:2] for m in ("solver", "proposer_model")]
                t0 = time.perf_counter()
                f = proposer_figures(cfg, sp, k, *models, base, cands, width)
                return f | {"seconds": round(time.perf_counter() - t0, 1)}
            out.setdefault(k, {})[f"{cands}:{width}"] = stage(run, f"prefilter-round-{k}-{cands}:{width}", measure)["result"]
            bar.update()
    bar.close()
    pick = lambda f: {key: round(f[key], 3) for key in KEYS if f.get(key) is not None}
    by_round = [{"round": k, "raw": pick(events[k]["proposer"]),
                 **({"logged_prefilter": pick(events[k]["proposer_filtered"])} if events[k].get("proposer_filtered") else {}),
                 **{name: pick(f) | {"seconds": f["seconds"]} for name, f in out[k].items()}} for k in rounds]
    later = [r for r in by_round if r["round"] >= 1]
    worst = {name: worst_figures([r[name] for r in later]) for name in ["raw", *out[rounds[0]]]} if later else {}
    held = {name: sum(r[name]["frac_non_zero_std"] >= 0.6 for r in later) for name in ["raw", *out[rounds[0]]]}
    own = f"{cfg.proposer_candidates}:{cfg.proposer_filter_width or 0}"          # the run's own filter, measured again
    again = [r[own] == r["logged_prefilter"] | {"seconds": r[own]["seconds"]} for r in by_round if own in r and "logged_prefilter" in r]
    report(a.name, {"run": str(run), "config": {"proposer_samples": cfg.proposer_samples, "solver_attempts": cfg.solver_attempts,
                                                "logged_candidates": cfg.proposer_candidates, "constrained": cfg.constrained},
                    "by_round": by_round, "worst_over_rounds_1_on": worst, "rounds_1_on_at_0.6_or_more": held,
                    "rounds_1_on": len(later), "threads": a.threads}
           | ({"run_filter_remeasured_as_logged": f"{sum(again)} of {len(again)} rounds"} if again else {}), argv, script="prefilter")

if __name__ == "__main__":
    main(sys.argv[1:])
