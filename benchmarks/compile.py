"""Training speed of a torch.compile'd model against the eager one on this CPU: the same step-wise SFT run twice.

Both runs train the tiny model from scratch on the same data (generated here, or `--data`), batch 16, for `--steps`
steps, with `wl sft --task steps` as benchmarks/stepwise.py runs it; the second adds `--torch-compile`. The figure is the
time per step after the first `--skip` steps (compiling, warm-up), from each run's own metrics log, and their ratio.
Usage: python benchmarks/compile.py [--save] [--steps 1500] [--skip 500] [--data DIR] [--run-dir runs/bench-compile] [--threads 2]
"""
import argparse, shutil, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report

def ms_per_step(run: Path, skip: int) -> float:
    "Training milliseconds per step between step `skip` and the last logged step of the SFT run in `run`."
    from wandering_light.utils import read_events
    pts = [(r["step"], r["train_seconds"]) for r in read_events(run, "train")
           if r.get("step") and r.get("train_seconds") is not None]
    a = next(p for p in pts if p[0] >= skip); b = pts[-1]
    return 1000 * (b[1] - a[1]) / (b[0] - a[0])

def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--skip", type=int, default=500)
    ap.add_argument("--data", default=None)
    ap.add_argument("--run-dir", default="runs/bench-compile")
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args(argv)
    if a.skip >= a.steps: sys.exit("error: --skip must be below --steps")
    from wandering_light.training.sft import parse_args as sft_args, run_sft
    run = Path(a.run_dir); run.mkdir(parents=True, exist_ok=True)
    data = ["--data", a.data] if a.data else ["--tasks", "4000"]
    figures = {}
    for name, extra in [("eager", []), ("compiled", ["--torch-compile"])]:
        shutil.rmtree(run / name, ignore_errors=True)             # a timing: never resumed
        s = run_sft(sft_args(["--task", "steps", "--model-name", "tiny", *data, "--run-dir", str(run / name),
            "--max-steps", str(a.steps), "--batch-size", "16", "--learning-rate", "1e-3", "--warmup-ratio", "0.02",
            "--max-length", "256", "--world-share", "0.1", "--oneshot-share", "0.1", "--no-eval", "--save-steps", str(a.steps),
            "--logging-steps", "50", "--threads", str(a.threads), "--quiet", *extra]))
        figures[name] = {"ms_per_step": round(ms_per_step(run / name, a.skip), 2),
                         "train_seconds": s["train_seconds"], "train_loss": round(s["train_loss"], 4)}
    figures["ratio_eager_to_compiled_ms_per_step"] = round(figures["eager"]["ms_per_step"] / figures["compiled"]["ms_per_step"], 3)
    figures["steps"], figures["skipped"] = a.steps, a.skip
    report("compile", figures, argv)

if __name__ == "__main__":
    main(sys.argv[1:])
