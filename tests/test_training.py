"""Training runs as a user starts them: GRPO stopped by a signal and resumed, wandb (offline) and TensorBoard tracking,
and two CPU processes under `accelerate launch` (slow). Each runs the real scripts in subprocesses on tiny data (the
SFT model a GRPO test starts from is trained in this process)."""
import json, os, random, signal, subprocess, sys, time
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "WANDB_MODE": "offline", "WANDB_SILENT": "true", "HF_HUB_OFFLINE": "1"}

def _easy(path: Path, n=300, seed=0):
    "Tasks whose one-tool answer follows from the input's type (quick to learn)."
    from wandering_light.typed_list import TypedList
    from wandering_light.executor import Executor
    from wandering_light.tasks import InductionTask, write_tasks
    rng, out = random.Random(seed), []
    makers = {int: ("inc", lambda: rng.randint(-9, 9)), str: ("upper", lambda: "".join(rng.choice("abc") for _ in range(3))),
              bool: ("bool_not", lambda: rng.random() < 0.5)}
    for _ in range(n):
        t = rng.choice(list(makers)); f, make = makers[t]
        xs = TypedList([make() for _ in range(3)], t)
        y = Executor().run([f], xs).output
        if y != xs: out.append(InductionTask(xs, y, [f], True, 1, 1))
    write_tasks(path, out)
    return path

def _events(run: Path, kind=None):
    evs = [json.loads(l) for l in (run / "metrics.jsonl").read_text().splitlines() if l.strip()]
    return [e for e in evs if kind is None or e.get("kind") == kind]

def _sft(tmp: Path, data: Path, steps=20) -> Path:
    """The starting model of a GRPO test, trained in this process (what is under test is the GRPO script that follows;
    a subprocess here would import torch, transformers and TRL once more)."""
    from wandering_light.training.sft import parse_args, run_sft
    run_sft(parse_args(["--data", str(data), "--run-dir", str(tmp / "sft"), "--max-steps", str(steps), "--batch-size", "16",
                        "--learning-rate", "1.5e-3", "--no-eval", "--quiet", "--threads", "1", "--save-every", "100"]))
    return tmp / "sft" / "model"

def test_grpo_sigterm_then_resume(tmp_path):
    "SIGTERM stops GRPO cleanly with a checkpoint; --resume finishes; every step's completions are logged once."
    data = _easy(tmp_path / "easy.jsonl")
    model = _sft(tmp_path, data)
    run = tmp_path / "grpo"
    cmd = [PY, "wandering_light/training/rl_grpo.py", "--batch-size", "16", "--model-name", str(model), "--data", str(data),
           "--run-dir", str(run), "--max-steps", "12", "--save-every", "100", "--logging-steps", "2", "--no-eval",
           "--select-from", "0", "--quiet", "--threads", "1"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    t0 = time.time()
    while not any(e.get("step", 0) >= 4 for e in (_events(run, "rewards") if (run / "metrics.jsonl").exists() else [])):
        assert proc.poll() is None, proc.stderr.read()[-3000:]
        assert time.time() - t0 < 300
        time.sleep(0.1)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err[-3000:]
    assert "continue with --resume" in out
    stopped = _events(run, "stopped")[0]["step"]
    assert 4 <= stopped < 12 and (run / "checkpoints" / f"checkpoint-{stopped}" / "trainer_state.json").exists()
    r = subprocess.run(cmd + ["--resume"], cwd=ROOT, env=ENV, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    recs = [json.loads(l) for l in (run / "results" / "completions.jsonl").read_text().splitlines()]
    assert sorted({x["step"] for x in recs}) == list(range(12))
    assert all(sum(x["step"] == s for x in recs) == 16 for s in range(12))      # each step's batch once
    keys = [e["key"] for e in _events(run) if "key" in e]
    assert len(keys) == len(set(keys))
    assert json.loads((run / "summary.json").read_text())["steps"] == 12

def test_wandb_offline_and_tensorboard(tmp_path):
    """--wandb-run-name logs to wandb (offline here) and --log-with tensorboard writes event files, beside metrics.jsonl:
    both from one run, which reports to the two trackers at once."""
    data = _easy(tmp_path / "easy.jsonl", 120)
    r = subprocess.run([PY, "wandering_light/training/sft.py", "--data", str(data), "--max-steps", "6", "--batch-size", "8",
                        "--logging-steps", "2", "--eval-every", "3", "--eval-tasks", "5", "--quiet", "--threads", "1",
                        "--run-dir", str(tmp_path / "run"), "--wandb-run-name", "wl-test", "--log-with", "tensorboard"],
                       cwd=ROOT, env=ENV, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    runs = list((tmp_path / "run" / "wandb").glob("offline-run-*"))
    assert runs and any(p.suffix == ".wandb" for p in runs[0].iterdir()), list((tmp_path / "run").rglob("*"))[:20]
    ev = list((tmp_path / "run" / "tensorboard").rglob("events.out.tfevents.*"))
    assert ev
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    acc = EventAccumulator(str(ev[0].parent)); acc.Reload()
    tags = acc.Tags()["scalars"]
    assert "train/loss" in tags and any("eval/heldout/success_rate" in t for t in tags), tags
    assert _events(tmp_path / "run", "train")

@pytest.mark.slow
def test_accelerate_two_cpu_processes(tmp_path):
    "The same scripts under `accelerate launch` with two CPU processes (data-parallel): SFT, then GRPO, a few steps."
    data = _easy(tmp_path / "easy.jsonl")
    acc = [PY, "-m", "accelerate.commands.launch", "--num_processes", "2", "--cpu", "--num_machines", "1",
           "--mixed_precision", "no", "--dynamo_backend", "no"]
    env = {**ENV, "OMP_NUM_THREADS": "1"}
    r = subprocess.run(acc + ["wandering_light/training/sft.py", "--data", str(data), "--run-dir", str(tmp_path / "sft"),
                              "--max-steps", "8", "--batch-size", "8", "--logging-steps", "2", "--eval-every", "4",
                              "--eval-tasks", "10", "--save-every", "4", "--quiet"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    s = json.loads((tmp_path / "sft" / "summary.json").read_text())
    assert s["steps"] == 8
    keys = [e["key"] for e in _events(tmp_path / "sft") if "key" in e]
    assert len(keys) == len(set(keys))                     # the main process logs; the other one does not
    r = subprocess.run(acc + ["wandering_light/training/rl_grpo.py", "--model-name", str(tmp_path / "sft" / "model"),
                              "--data", str(data), "--run-dir", str(tmp_path / "grpo"), "--max-steps", "3",
                              "--batch-size", "8", "--num-generations", "4", "--no-eval", "--select-from", "0", "--quiet"],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    assert json.loads((tmp_path / "grpo" / "summary.json").read_text())["steps"] == 3
    (tmp_path / "ran.txt").write_text("ok")

# `python SCRIPT --help` for each script, each in a child forked from one process that has loaded the third-party
# libraries (torch, transformers, TRL: most of a start-up) but nothing of ours: a child runs the file as Python runs a
# script (its folder first on sys.path, `__main__`), its output in OUT/<i>.txt; the parent prints each exit status.
HELP_EACH = r"""
import json, os, runpy, sys
for lib in ("torch", "transformers", "trl", "peft", "datasets"): __import__(lib)
out, scripts, codes = sys.argv[1], sys.argv[2:], []
for i, script in enumerate(scripts):
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.path.join(out, f"{i}.txt"), os.O_WRONLY | os.O_CREAT); os.dup2(fd, 1); os.dup2(fd, 2)
        sys.argv, sys.path[0], code = [script, "--help"], os.path.dirname(os.path.abspath(script)), 1
        try: runpy.run_path(script, run_name="__main__")
        except SystemExit as e: code = e.code if isinstance(e.code, int) else int(e.code is not None)
        except BaseException: import traceback; traceback.print_exc()
        sys.stdout.flush(); sys.stderr.flush(); os._exit(code)
    codes.append(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
print(json.dumps(codes))
"""

def test_scripts_run_as_files_with_readable_help(tmp_path):
    """Each trainer runs as a file from the repository root (one shared `rerun_as_module` line, no sys.path bootstrap);
    its --help lists our options and points at --help-all for TRL's; the packaged recipes load."""
    scripts = ("wandering_light/training/sft.py", "wandering_light/training/rl_grpo.py",
               "wandering_light/training/selfplay.py", "wandering_light/training/lora.py")
    bad = tmp_path / "bad.py"; bad.write_text("raise ValueError('broken')\n")         # the check can fail: a broken script
    r = subprocess.run([PY, "-c", HELP_EACH, str(tmp_path), *scripts, str(bad)], cwd=ROOT, env=ENV, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    codes = json.loads(r.stdout.splitlines()[-1])
    assert len(codes) == len(scripts) + 1 and codes[-1] == 1, codes
    assert "ValueError: broken" in (tmp_path / f"{len(scripts)}.txt").read_text()
    helps = {}
    for i, (script, code) in enumerate(zip(scripts, codes)):
        helps[script] = (tmp_path / f"{i}.txt").read_text()
        assert code == 0 and "usage:" in helps[script] and "Traceback" not in helps[script], (script, helps[script][-2000:])
    r_stdout = helps["wandering_light/training/sft.py"]
    assert "--batch-size" in r_stdout and "--help-all" in r_stdout and "--adam_beta1" not in r_stdout
    from wandering_light.training.sft import parse_args
    from wandering_light.training.core import recipe_path
    assert all(recipe_path(n).exists() for n in ("sft_full", "grpo_full", "quickstart", "smoke"))
    assert parse_args(["--full-run"]).max_steps == 3400 and parse_args(["--config", str(recipe_path("sft_full"))]).recipe == "full"
