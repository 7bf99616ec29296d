"""Shared helpers for the benchmarks: machine description and the JSON result format of DESIGN.md section 4."""
import json, os, platform, sys, time
from importlib import metadata
from pathlib import Path

def machine() -> dict:
    def ver(p):
        try: return metadata.version(p)
        except metadata.PackageNotFoundError: return None
    out = {"cpus": os.cpu_count(), "python": platform.python_version(), "torch": ver("torch"),
           "platform": platform.platform(), "processor": platform.machine()}
    if "torch" in sys.modules and sys.modules["torch"].cuda.is_available():    # only where the benchmark itself loaded torch
        out["gpu"] = sys.modules["torch"].cuda.get_device_name()
    return out

# The quickstart profile's SFT stage as these benchmarks measured it: 10.4 training minutes, evaluated every 2,000 steps
# (the profile has since given 3.4 of those minutes to a world model; sft_recipe.py and tool_set.py keep the old stage).
POLICY_ALONE = {"sft_minutes": 10.4, "sft_eval_every": 2_000}

def job_sft(run: Path) -> tuple[str, float]:
    "The model size and learning rate of a `wl quickstart` run's SFT stage (a run from before 30 November: tiny at 1e-3)."
    job = json.loads((Path(run) / "config.json").read_text())
    return job.get("sft_model", "tiny"), float(job.get("sft_lr", 1e-3))

def solve_rate(traces) -> float:
    "The share of agent traces that solved their task (4 decimals)."
    return round(sum(bool(t.result.get("solved")) for t in traces) / len(traces), 4)

def report(name: str, figures: dict, argv=None, notes: dict | None = None, script: str | None = None) -> dict:
    "Print the result JSON; with --save also write benchmarks/results/NAME.json (`script`: the benchmark, if not NAME)."
    argv = sys.argv[1:] if argv is None else argv
    out = {"benchmark": name, "command": " ".join(["python", f"benchmarks/{script or name}.py", *argv]),
           "machine": machine(), "figures": figures}
    if notes: out["notes"] = notes
    text = json.dumps(out, indent=2)
    print(text)
    if "--save" in argv:
        p = Path(__file__).parent / "results" / f"{name}.json"
        p.parent.mkdir(exist_ok=True); p.write_text(text + "\n")
    return out

def worst_figures(ps: list[dict]) -> dict:
    "The worst of the proposer figures the self-play targets name, over `ps` (one dict of figures per round), to 3 decimals."
    return {k: round(min(p[k] for p in ps), 3) for k in ("parse_rate", "frac_non_zero_std", "distinct_rate")}

def stage(run: Path, name: str, fn):
    "Run a stage once: its result is kept in RUN/stages.json, so a resumed benchmark skips finished stages."
    f = run / "stages.json"
    if name not in (json.loads(f.read_text()) if f.exists() else {}):
        t0 = time.perf_counter(); r = fn()
        done = json.loads(f.read_text()) if f.exists() else {}      # re-read: a stage may have written it meanwhile
        done[name] = {"result": r, "wall_s": round(time.perf_counter() - t0, 1)}
        f.write_text(json.dumps(done, indent=1))
    return json.loads(f.read_text())[name]

def forget_stages(run: Path, first: str) -> None:
    "Forget stage `first` and every stage finished after it (stages.json keeps them in the order they finished)."
    f = run / "stages.json"
    done = json.loads(f.read_text()) if f.exists() else {}
    if first in done:
        names = list(done)
        f.write_text(json.dumps({k: done[k] for k in names[:names.index(first)]}, indent=1))

def same_settings(run: Path, a, keys) -> None:
    "Keep a run directory to one set of settings (the options `keys` of `a`): otherwise exit with a one-line error."
    same = {k: getattr(a, k) for k in keys}
    made = stage(run, "settings", lambda: same)["result"]
    if made != same:
        diff = ", ".join(f"--{k.replace('_', '-')} {made[k]}" for k in keys if made.get(k) != same[k])
        sys.exit(f"error: {run} was made with other settings ({diff}): pass them again, or use another --run-dir")

def same_training(sft_dir: Path, asked: dict) -> None:
    """Resume a training run only with the settings it was trained with (`asked`, as in its `config.json`): else a one-line
    error. Unlike `same_settings`, it reads the checkpoint's own record, so run directories made before it are checked too."""
    cfg = Path(sft_dir) / "config.json"
    was = json.loads(cfg.read_text()) if cfg.exists() else asked
    if differ := [f"{k} {was.get(k)!r}, not {v!r}" for k, v in asked.items() if was.get(k) != v]:
        sys.exit(f"error: {Path(sft_dir).parent} holds a model trained with {'; '.join(differ)}: give another --run-dir")

def stepwise_checkpoint(path: Path) -> Path:
    "A checkpoint that benchmarks/stepwise.py trained; without one, exit with a one-line error that says so."
    if not (Path(path) / "config.json").exists(): sys.exit(f"error: no checkpoint at {path}: run benchmarks/stepwise.py first")
    return Path(path)

def stepwise_eval_sets(bench: Path) -> dict:
    "The two task sets the step-wise benchmarks report on: the upstream 480 and benchmarks/stepwise.py's 500 held-out tasks."
    from wandering_light.tasks import read_tasks, resolve_task_file, DEFAULT_EVAL_SET
    return {"upstream480": read_tasks(resolve_task_file(DEFAULT_EVAL_SET)),
            "heldout500": read_tasks(Path(bench) / "heldout_test.jsonl.gz")}

def planned_job(run_dir) -> tuple[Path, dict]:
    """A finished `wl quickstart` run with a world model (its models and held-out tasks) and its profile's settings, or a
    one-line exit that says to run it first."""
    run = Path(run_dir)
    if not all((run / f).exists() for f in ("config.json", "heldout_test.jsonl.gz", "sft/model", "world/model")):
        sys.exit(f"error: {run} is not a finished `wl quickstart` run with a world model (run `make quickstart` first)")
    from wandering_light.training.main_job import PROFILE_KEYS
    job = json.loads((run / "config.json").read_text())
    return run, {k: job[k] for k in PROFILE_KEYS if k in job}
