"""The stepwise30 recipe (`wl quickstart --profile stepwise30`) at another model size on a GPU, its figures and wall time.

Issue 13 asks, where the device tool lends a GPU, for the `base` size trained with the same recipe. A session holds
that machine for 15 minutes in all, start and transfers included, so the recipe's 10 + 20 training minutes cannot run
there: this runs its stages (`training.main_job`) with the size, batch and minutes given here, everything else the
recipe's, and evaluates the models on `--device`, one solver at a time in the order of `--solvers` (the planned rollout
first: a call stopped at its limit still brings back what finished). After each stage and each solver the figures so
far go to NAME.json (in `--out` too, when given).

`--data-only` makes the run's data and held-out sample and stops: make them here, on the CPU, and carry the run
directory, so that the device's minutes go to training (benchmarks/stepwise30_gpu.sh runs the rest there).

Usage: python benchmarks/stepwise30_gpu.py --run-dir gpu/s30 [--data-only] [--size base] [--batch 128] [--lr 5e-4]
           [--world-lr 3e-4] [--sft-minutes 2] [--world-minutes 3] [--world-examples 300000] [--device cuda]
           [--solvers stepwise-plan,stepwise,oneshot,guided] [--out DIR] [--name stepwise30_gpu_base] [--save]
"""
import argparse, json, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report

SETTINGS = ("size", "batch", "lr", "world_lr", "sft_minutes", "world_minutes", "world_examples")

def profile(a) -> dict:
    "The stepwise30 recipe's sizes with this run's size, batch, learning rates, minutes and world rows."
    from wandering_light.training.main_job import PROFILES
    return PROFILES["stepwise30"] | {"sft_model": a.size, "sft_batch": a.batch, "sft_lr": a.lr, "world_lr": a.world_lr,
                                     "sft_minutes": a.sft_minutes, "world_minutes": a.world_minutes,
                                     "world_examples": a.world_examples, "sft_eval_every": 10**6}

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run-dir", default="gpu/s30"); ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--size", default="base"); ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=5e-4); ap.add_argument("--world-lr", type=float, default=3e-4)
    ap.add_argument("--sft-minutes", type=float, default=2.0); ap.add_argument("--world-minutes", type=float, default=3.0)
    ap.add_argument("--world-examples", type=int, default=300_000)
    ap.add_argument("--device", default="cuda"); ap.add_argument("--solvers", default="stepwise-plan,stepwise,oneshot,guided")
    ap.add_argument("--data-only", action="store_true"); ap.add_argument("--out", default=None)
    ap.add_argument("--name", default="stepwise30_gpu_base"); ap.add_argument("--save", action="store_true")
    a = ap.parse_args(argv)
    import torch
    from wandering_light.training.main_job import stage_data, stage_sft, stage_world, solvers, heldout_file, UPSTREAM
    from wandering_light.tasks import DEFAULT_EVAL_SET
    from wandering_light.evals.run_evaluation import run_evaluation
    from wandering_light.utils import RunDir, UserError
    if a.device != "cpu" and not a.data_only and not torch.cuda.is_available(): sys.exit(f"error: --device {a.device}: torch sees no GPU here")
    p, path, t0 = profile(a), Path(a.run_dir), time.perf_counter()
    try: run = RunDir(path, {"profile": "stepwise30", "seed": a.seed, **p})
    except UserError as e: sys.exit(f"error: {e}")
    figures = {"settings": {k: getattr(a, k) for k in SETTINGS}, "device": a.device, "seed": a.seed, "stage_wall_seconds": {}}
    def save():
        figures["wall_seconds_this_call"] = round(time.perf_counter() - t0, 1)
        out = report(a.name, figures, argv, script="stepwise30_gpu")
        if a.out: Path(a.out).mkdir(parents=True, exist_ok=True); (Path(a.out) / f"{a.name}.json").write_text(json.dumps(out, indent=2))
    def stage(name, fn):
        t = time.perf_counter(); r = fn(); figures["stage_wall_seconds"][name] = round(time.perf_counter() - t, 1); return r
    stage("data", lambda: stage_data(run, p, a.seed, True))
    held = heldout_file(path, p, a.seed)             # the same sample as the main job's evaluation takes
    if a.data_only: return 0
    sft = stage("sft", lambda: stage_sft(run, p, a.seed, None, True))
    figures["sft"] = {k: sft.get(k) for k in ("steps", "train_seconds", "stopped")}; save()
    world = stage("world", lambda: stage_world(run, p, a.seed, None, True))
    figures["world"] = {k: world.get(k) for k in ("steps", "train_seconds", "stopped")}
    from stepwise import route_eval
    r = stage("world_routes", lambda: route_eval(held, path / "world" / "model", device=a.device))
    figures["world_heldout_route_pairs"] = r; save()
    built, sets = solvers(run, p, a.device), [("heldout", held, None), (UPSTREAM, DEFAULT_EVAL_SET, None)]
    for name in a.solvers.split(","):
        for set_name, f, n in sets:
            s = stage(f"eval-{set_name}-{name}", lambda: run_evaluation(f, [], num_samples=n, run_dir=path / f"eval-{set_name}-{name}",
                                                                     seed=a.seed, solvers={name: built[name]}, progress=False))[name]
            figures.setdefault(set_name, {})[name] = {"success_rate": round(s["success_rate"], 4),
                                                      "by_distance": {d: round(v["success_rate"], 4) for d, v in s["by_distance"].items()}}
            save()
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
