"""The `wl` command as a user runs it: a real subprocess, exit statuses, one-line errors."""
import subprocess, sys
from pathlib import Path

WL = [sys.executable, "-c", "from wandering_light.cli import entry; entry()"]

def wl(*args, timeout=120):
    return subprocess.run([*WL, *args], capture_output=True, text=True, timeout=timeout)

def test_help_lists_commands():
    r = wl("--help")
    assert r.returncode == 0 and "quickstart" in r.stdout

def test_unknown_command_is_one_line():
    r = wl("frobnicate")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == ["wl: error: unknown command 'frobnicate'; run `wl --help` for the list"]

# The main job end to end as a user starts it (`wl quickstart --smoke`, a process of its own) runs in
# nbs/16_main_job.ipynb, which then reads the finished run back: one smoke job for both.

def test_bad_argument_exits_nonzero_without_traceback():
    r = wl("quickstart", "--threads", "-1")
    assert r.returncode == 2 and "Traceback" not in r.stderr and "--threads must be 0 or more" in r.stderr

def test_closed_pipe_is_quiet():
    p = subprocess.Popen([*WL, "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()          # the reader goes away at once, like `wl --help | head -0`
    err = p.stderr.read().decode(); p.wait(timeout=60)
    assert "Traceback" not in err, err

# ---- issue 17: bad run directories, empty task files, out-of-range numbers, torn files: one line, non-zero exit ----
import dataclasses, importlib, json, math
import pytest

RUN_DIR_COMMANDS = {            # every command that takes a run directory, with the least it needs to reach it
    "data": ["data", "--tasks", "3", "--quiet", "--out"],
    "eval": ["eval", "--num-samples", "2", "--quiet", "--no-plots", "--run-dir"],
    "agent": ["agent", "--generate", "1", "--quiet", "--out"],
    "sft": ["sft", "--max-steps", "1", "--quiet", "--no-eval", "--run-dir"],
    "grpo": ["grpo", "--model-name", "tiny", "--max-steps", "1", "--quiet", "--no-eval", "--run-dir"],
    "selfplay": ["selfplay", "--solver-model", "tiny", "--proposer-model", "tiny", "--quiet", "--run-dir"],
    "quickstart": ["quickstart", "--smoke", "--quiet", "--run-dir"],
}

def _many(argvs: dict) -> dict:
    """Run several `wl` commands through the console script's own code path (`cli_main(main, argv)`), in this process:
    a fresh interpreter each would import torch each time. (The tests above and `test_negative_budget_through_wl` run
    real subprocesses.)"""
    import contextlib, io
    from wandering_light.cli import main
    from wandering_light.utils import cli_main
    got = {}
    for k, a in argvs.items():
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err): rc = cli_main(main, a)
        got[k] = (rc, out.getvalue(), err.getvalue())
    return got

def _one_line(rc, err, *want):
    assert rc == 2 and "Traceback" not in err, err[-2000:]
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("wl: error: ") and all(w in lines[0] for w in want), lines

def test_run_dir_that_is_a_file(tmp_path):
    "A file where the run directory (or one of its parents) should be: one line, status 2, for every command that takes one."
    f = tmp_path / "a_file"; f.write_text("not a folder\n")
    got = _many({**{k: [*a, str(f)] for k, a in RUN_DIR_COMMANDS.items()},
                 **{k + "/under": [*a, str(f / "run")] for k, a in RUN_DIR_COMMANDS.items() if k in ("data", "sft", "agent")}})
    for k, (rc, out, err) in got.items():
        _one_line(rc, err, "a_file")
    assert f.read_text() == "not a folder\n"

def test_wrong_model_fails_before_the_data(tmp_path):
    "A model that is no checkpoint: one line, status 2, from `sft`, `grpo` and `selfplay`, before any task data is made."
    empty = tmp_path / "empty"; empty.mkdir()
    got = _many({k: [k, "--model-name", str(empty), "--max-steps", "1", "--quiet", "--no-eval", "--run-dir", str(tmp_path / k)]
                 for k in ("sft", "grpo")} |
                {"selfplay": ["selfplay", "--solver-model", str(empty), "--proposer-model", "tiny", "--quiet",
                              "--run-dir", str(tmp_path / "selfplay")]})
    for k, (rc, out, err) in got.items():
        _one_line(rc, err, "is not a model checkpoint")
        assert not list((tmp_path / k).rglob("*.jsonl.gz")), list((tmp_path / k).rglob("*"))

def test_empty_task_files(tmp_path):
    "An empty task file, or one of blank lines only, is not a success: `verify`, `eval` and `agent` say so (status 2)."
    (tmp_path / "empty.jsonl").write_text(""); (tmp_path / "blank.jsonl").write_text("\n   \n\n")
    argvs = {}
    for n in ("empty", "blank"):
        f = str(tmp_path / f"{n}.jsonl")
        argvs |= {f"verify/{n}": ["verify", "--quiet", f], f"eval/{n}": ["eval", f, "--run-dir", str(tmp_path / f"e-{n}")],
                  f"agent/{n}": ["agent", "--tasks", f, "--out", str(tmp_path / f"a-{n}"), "--quiet"]}
    argvs["sft/empty"] = ["sft", "--data", str(tmp_path / "empty.jsonl"), "--run-dir", str(tmp_path / "s"), "--quiet"]
    argvs["selfplay/blank"] = ["selfplay", "--data", str(tmp_path / "blank.jsonl"), "--solver-model", "tiny",
                               "--proposer-model", "tiny", "--run-dir", str(tmp_path / "sp"), "--quiet"]
    for k, (rc, out, err) in _many(argvs).items():
        _one_line(rc, err, {"sft/empty": "no training tasks", "selfplay/blank": "no tasks to start from"}.get(k, "no tasks"))

CONFIGS = {        # command: (module, options dataclass, the required options)
    "quickstart": ("wandering_light.training.main_job", "MainJobConfig", []),
    "data": ("wandering_light.tasks", "DataConfig", ["--out", "d"]),
    "verify": ("wandering_light.tasks", "VerifyConfig", ["f.jsonl"]),
    "eval": ("wandering_light.evals.run_evaluation", "EvalConfig", []),
    "serve": ("wandering_light.serve", "ServeConfig", []),
    "synthesize": ("wandering_light.synthesize", "SynthesizeConfig", ["--out", "d"]),
    "sft": ("wandering_light.training.sft", "SFTRunConfig", []),
    "grpo": ("wandering_light.training.rl_grpo", "GRPORunConfig", ["--model-name", "x"]),
    "dpo": ("wandering_light.training.dpo", "DPORunConfig", ["--model-name", "x", "--pairs", "p.jsonl"]),
    "selfplay": ("wandering_light.training.selfplay_options", "SelfPlayConfig", ["--solver-model", "a", "--proposer-model", "b"]),
    "evaluate-proposer": ("wandering_light.evals.evaluate_proposer", "ProposerEvalConfig", ["--model", "m"]),
    "classify": ("wandering_light.self_knowledge", "ClassifyConfig", ["t.jsonl", "--policy", "p", "--load", "f.json"]),
    "agent": ("wandering_light.cli", "AgentArgs", ["--out", "d", "--generate", "2"]),
    "dashboard": ("wandering_light.cli", "DashboardConfig", []),
}

def _numeric_options():
    from wandering_light.utils import _number_kind, _own_fields
    from wandering_light.cli import COMMANDS
    assert set(CONFIGS) >= set(COMMANDS) - {"merge-lora"}, "a command without an entry here: add it"   # merge-lora: no numbers
    for cmd, (mod, name, req) in CONFIGS.items():
        cls = getattr(importlib.import_module(mod), name)
        for f in dataclasses.fields(cls):
            if f.name in _own_fields(cls) and _number_kind(f) and f.metadata.get("min", 0) is not None:
                yield cmd, cls, req, f

def test_every_numeric_option_is_bounded():
    """Every number option of our own, in every command: a negative value, NaN and infinity are refused in one line before
    anything runs (the bounds live in the fields' metadata; `utils.check_config` applies them, min 0 by default)."""
    from wandering_light.utils import UserError, parse_config
    checked = 0
    for cmd, cls, req, f in _numeric_options():
        flag = "--" + f.name.replace("_", "-")
        for bad in ["-1", "nan", "inf", "-1e30"]:
            try: parse_config(cls, [*req, flag, bad], prog=f"wl {cmd}")
            except UserError as e: assert "\n" not in str(e) and (flag in str(e) or f"--{f.name}" in str(e)), (cmd, bad, e)
            else: pytest.fail(f"wl {cmd} {flag} {bad} was accepted")
        checked += 1
    assert checked >= 60, checked

def test_negative_budget_through_wl(tmp_path):
    "The reported case, as a user types it."
    r = wl("eval", "--budget", "-1", "--run-dir", str(tmp_path / "r"))          # a real subprocess
    _one_line(r.returncode, r.stderr, "--budget must be 1 or more (got -1)")
    assert not (tmp_path / "r").exists()

def test_torn_config_json(tmp_path):
    "A run directory whose config.json was cut short: one line that says what to do, for the commands that resume it."
    argvs = {}
    for k in ("data", "eval", "agent", "sft"):
        d = tmp_path / k; d.mkdir(); (d / "config.json").write_text('{"seed": 0, "n_ta')
        argvs[k] = [*RUN_DIR_COMMANDS[k], str(d)] + (["--resume"] if k == "sft" else [])
    for k, (rc, out, err) in _many(argvs).items():
        _one_line(rc, err, "config.json: unreadable", "delete it")
