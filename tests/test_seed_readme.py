"""The upstream ("seed") README's command lines, run verbatim (issue 16).

Each line below is copied character for character from the upstream README (github.com/abhishekraok/wandering-light)
and run through `bash -c`, as a reader would paste it, from a fresh folder holding only a `wandering_light` link to
this package (so relative paths resolve as in a checkout, and nothing is written into the repository).

What "works verbatim" means here, line by line:
- a line that names a hosted model (the `gemini` solver) or a hub checkpoint: the verbatim line fails at once with one
  line that names the missing API key or the unreachable hub (the hub is offline here), exit status 2; and the same
  line with the hosted part replaced (BFS for `gemini`, a tiny local checkpoint for a hub name) runs to the end;
- the training lines (`--full-run` and all): they start, parse every flag, write their run's config, and are then
  interrupted by the test (a full run takes hours); exit 130 and "interrupted", no traceback;
- `streamlit run wandering_light/evals/dashboard.py` is not tested: streamlit is not a dependency of this project.

The lines that load torch or train are marked slow (`pytest --slow`); the others cost a few seconds.
"""
import json, os, signal, subprocess, sys, time
from pathlib import Path
import pytest

REPO = Path(__file__).resolve().parent.parent

CREATE_DATA = "python wandering_light/evals/create_data.py --save"
EVAL_API = ('python wandering_light/evals/run_evaluation.py --eval_file=evals/data/eval_data_v20250831_160239.py '
            '--solver_names=["gemini"] --num_samples 100 --budget 1')
SFT_QUICK = "python wandering_light/training/sft.py --no-eval"
SFT_FULL = "python wandering_light/training/sft.py --full-run "
GRPO = "python wandering_light/training/rl_grpo.py --batch-size 32 --model-name $SFT_OUTPUT_DIR --full-run --wandb-run-name $NAME"
EVAL_LOCAL = ("python wandering_light/evals/run_evaluation.py --budget=1 --eval_file=wandering_light/evals/data/random_inputs_500.py  "
              "--solver_names=[trained_local] --budget 1 --model-name abhishekraok/induction-basicfns-opt125m-longsft")
PROPOSER = (" python wandering_light/evals/evaluate_proposer.py --model abhishekraok/proposer-basicfns-opt125m-sft2k "
            "--solver-model abhishekraok/induction-basicfns-opt125m-longsft")
SOLVER_HUB, PROPOSER_HUB = "abhishekraok/induction-basicfns-opt125m-longsft", "abhishekraok/proposer-basicfns-opt125m-sft2k"


def env(**extra) -> dict:
    "The environment of a README line: this interpreter first on PATH (`python`), offline hubs, no API keys, one thread."
    e = {k: v for k, v in os.environ.items() if k not in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "GEMINI_BASE_URL")}
    e.update(PATH=f"{Path(sys.executable).parent}{os.pathsep}{e.get('PATH', '')}", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1",
             WANDB_MODE="offline", WANDB_SILENT="true", OMP_NUM_THREADS="1", PYTHONUNBUFFERED="1", TQDM_DISABLE="1", **extra)
    return e


@pytest.fixture
def checkout(tmp_path) -> Path:
    "A folder that looks like the root of a checkout: `wandering_light` links to this package."
    (tmp_path / "wandering_light").symlink_to(REPO / "wandering_light", target_is_directory=True)
    return tmp_path


def run(line: str, cwd: Path, timeout: float = 300, **extra) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=env(**extra), capture_output=True, text=True, timeout=timeout)


def one_line_error(r: subprocess.CompletedProcess, *parts: str):
    "Exit status 2 and exactly one line on stderr (after any progress bars), holding every part, no traceback."
    lines = [l for l in r.stderr.replace("\r", "\n").splitlines() if l.strip()]
    assert r.returncode == 2, (r.returncode, r.stdout[-2000:], r.stderr[-2000:])
    assert "Traceback" not in r.stderr and lines and lines[-1].startswith("wl: error: "), r.stderr[-2000:]
    errors = [l for l in lines if "error" in l.lower()]
    assert len(errors) == 1 and all(p in errors[0] for p in parts), (errors, parts)


# ---- `python wandering_light/evals/create_data.py --save`

def test_create_data_save(checkout):
    r = run(CREATE_DATA, checkout)
    assert r.returncode == 0, r.stderr
    saved = sorted((checkout / "evals/data").iterdir())
    assert [p.name.startswith("eval_data_v") for p in saved] == [False, True] and saved[0].name == "eval_data_latest.jsonl.gz"
    assert f"saved 500 tasks to evals/data/{saved[1].name}" in r.stdout
    from wandering_light.tasks import read_tasks
    ts = read_tasks(saved[0])
    assert len(ts) == 500 and [t.length for t in ts[::100]] == [1, 2, 3, 4, 5]


# ---- `run_evaluation.py ... --solver_names=["gemini"] ...` (a hosted model)

def test_eval_api_line_without_key(checkout):
    "Verbatim, with no Gemini key: one line naming the variables to set; no run directory is made."
    r = run(EVAL_API, checkout)
    one_line_error(r, "solver 'gemini'", "no API key: set GEMINI_API_KEY or GOOGLE_API_KEY")
    assert not (checkout / "runs").exists()


def test_eval_api_line_with_bfs(checkout):
    "The same line with the hosted solver replaced by BFS runs the upstream `.py` file (read, never imported) to the end."
    r = run(EVAL_API.replace('["gemini"]', '["bfs"]'), checkout)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "bfs: solved 99/100 (99.0%)" in r.stdout, r.stdout
    assert "eval_data_v20250831_160239.py.gz: 56 of 500 specs left out" in r.stderr
    run_dir = checkout / "runs/eval/eval_data_v20250831_160239-bfs-b1-n100-s0"
    assert json.loads((run_dir / "summary.json").read_text())["bfs"]["tasks"] == 100
    # upstream's --output_dir: the run directory goes under it
    r = run(EVAL_API.replace('["gemini"]', "[bfs,random]") + " --output_dir results", checkout)
    assert r.returncode == 0 and "random: solved" in r.stdout, r.stderr[-2000:]
    assert (checkout / "results/eval_data_v20250831_160239-bfs+random-b1-n100-s0/summary.json").exists()


@pytest.mark.parametrize("args,parts", [
    ("--solver_names=[oracle]", ["solver 'oracle': unknown solver 'oracle'; known: ", "bfs", "gemini", "trained_local"]),
    ("--eval_file=hostile.py", ["hostile.py:1: Import statement", "read, never run"]),
    ("--eval_file=deep.py", ["deep.py"]),
    ("--eval_file=broken.py", ["broken.py:1: syntax error"]),
])
def test_eval_bad_input(checkout, args, parts):
    "Bad input on the script's command line: one line, exit status 2, and nothing in the file is run."
    (checkout / "hostile.py").write_text("import os\nos.system('touch pwned')\n")
    (checkout / "deep.py").write_text("x = " + "[" * 200_000 + "]" * 200_000 + "\n")
    (checkout / "broken.py").write_text("eval_trajectory_specs = TrajectorySpecList([\n")
    r = run(f"python wandering_light/evals/run_evaluation.py --solver_names=[bfs] --quiet {args}", checkout)
    one_line_error(r, *parts)
    assert not (checkout / "pwned").exists()


@pytest.mark.slow
def test_eval_local_line(checkout, tiny_checkpoint):
    "With a local checkpoint for `--model-name`, the whole line runs (about a minute and a half: 448 generations on a CPU)."
    # the hub is unreachable here, so the line's hub name is replaced by a tiny local checkpoint (untrained: it solves little)
    r = run(EVAL_LOCAL.replace(SOLVER_HUB, str(tiny_checkpoint)), checkout, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "trained_local: solved " in r.stdout and "/448 " in r.stdout, r.stdout


def test_eval_local_line_hub_name(checkout):
    "The verbatim line names a hub checkpoint, unreachable here: one line naming it and the offline hub, exit 2."
    one_line_error(run(EVAL_LOCAL, checkout), f"model '{SOLVER_HUB}' is not in the local Hugging Face cache", "offline")


# ---- `evaluate_proposer.py --model ... --solver-model ...`

def test_proposer_line_hub_names(checkout):
    one_line_error(run(PROPOSER, checkout), f"model '{PROPOSER_HUB}' is not in the local Hugging Face cache", "offline")


@pytest.mark.slow
def test_proposer_line_local(checkout, tiny_checkpoint):
    "The hub names replaced by a tiny local checkpoint (the hub is unreachable here): the line runs to its EvalResult."
    line = PROPOSER.replace(PROPOSER_HUB, str(tiny_checkpoint)).replace(SOLVER_HUB, str(tiny_checkpoint))
    r = run(line, checkout, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "parse_rate" in r.stdout, r.stdout


# ---- training lines: started, flags parsed, config written, then interrupted

@pytest.fixture(scope="module")
def tiny_checkpoint(tmp_path_factory) -> Path:
    "A tiny model built from scratch and saved as a checkpoint directory (no download)."
    path = tmp_path_factory.mktemp("tiny") / "checkpoint"
    code = ("import torch; torch.set_num_threads(1); from wandering_light.models import build_model, build_tokenizer, save_model; "
            f"t = build_tokenizer(); save_model(build_model('tiny', t), t, {str(path)!r})")
    subprocess.run([sys.executable, "-c", code], check=True, env=env(), capture_output=True, timeout=300)
    return path


def start_then_interrupt(line: str, cwd: Path, config: str, wait_s: float = 300, **extra) -> tuple[dict, str]:
    "Start `line`, wait for a run config matching the glob `config`, interrupt it (Ctrl-C); the config, and stderr."
    p = subprocess.Popen(["bash", "-c", "exec " + line.strip()], cwd=cwd, env=env(**extra), stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + wait_s
        while not (found := sorted(cwd.glob(config))):
            assert p.poll() is None, f"it stopped before writing {config}: {p.stderr.read()[-2000:]}"
            assert time.monotonic() < deadline, f"no {config} after {wait_s} s"
            time.sleep(0.5)
        time.sleep(1.0)                      # the config is written atomically; give the job a moment past it
        os.killpg(p.pid, signal.SIGINT)
        err = p.communicate(timeout=120)[1]
    finally:
        if p.poll() is None: os.killpg(p.pid, signal.SIGKILL); p.wait()
    assert p.returncode == 130 and "wl: interrupted" in err and "Traceback" not in err, (p.returncode, err[-2000:])
    return json.loads(found[0].read_text()), err


@pytest.mark.slow
@pytest.mark.parametrize("line,recipe,steps,tasks", [(SFT_QUICK, "quick", 150, 4000), (SFT_FULL, "full", 3400, 240000)])
def test_sft_lines(checkout, line, recipe, steps, tasks):
    cfg, _ = start_then_interrupt(line, checkout, "runs/sft-induction/config.json")
    assert (cfg["recipe"], cfg["max_steps"], cfg["tasks"], cfg["model_name"]) == (recipe, steps, tasks, "tiny"), cfg


@pytest.mark.slow
def test_grpo_line(checkout, tiny_checkpoint):
    "`$SFT_OUTPUT_DIR` is a local checkpoint (here a tiny untrained one), as the README says; `$NAME` a run name."
    cfg, _ = start_then_interrupt(GRPO, checkout, "runs/grpo-induction/config.json",
                                  SFT_OUTPUT_DIR=str(tiny_checkpoint), NAME="seed-readme")
    # (the wandb run name goes to the tracker, offline here, not into config.json)
    assert (cfg["model_name"], cfg["per_device_train_batch_size"], cfg["recipe"]) == (str(tiny_checkpoint), 32, "full"), cfg
