"""Crash safety: `kill -9` at random points of `wl data`, `wl eval`, `wl agent`, `wl sft`, `wl grpo` and `wl selfplay`, then
resume with the same command and run directory, and compare the final outputs with an uninterrupted run.

For each command: one uninterrupted reference run of a tiny configuration (tiny models, a few steps, no network), timed;
then trials until at least `--kills` kills (default 20) have landed. A trial starts a fresh run directory and runs the
command; at a seeded random time in (0, reference wall time) the whole process group gets SIGKILL; the same command
is started again on the same directory (and may be killed again, up to `--chain` kills per trial: a resumed run is
killed too), and finally it runs to completion. Then:

- every file parses: `.json`, `.jsonl`, `.jsonl.gz`, the safetensors of checkpoints and models; no temporary file is
  left behind (`torn_files`); lines of an append-only log that a kill cut short are counted apart (`torn_lines`: the
  readers skip them, but none should remain);
- nothing is lost or duplicated: the records of the results (tasks of `wl data`, result lines of `wl eval`, traces of
  `wl agent`, keyed events of `metrics.jsonl`, GRPO's logged completions per step, self-play rounds) are compared with
  the reference run's, by key (`lost`: a reference record missing; `duplicated`: a record that appears more often);
- for the deterministic commands (data, eval, agent) the records must also be equal to the reference's
  (`mismatched`, timings left out); training resumed from a checkpoint need not give bit-identical losses, so only
  its structure is compared (steps, keys, completions per step);
- the resumed command exits 0 (`resume_failures` otherwise, with its log's last lines as an example).

Each command runs in a child process forked from this one after the package (torch, transformers, TRL) is imported,
through the same `cli.main` as the `wl` console script, in its own process group; `--subprocess` starts a fresh
interpreter for every run instead (slower: each run pays the imports). Prints one JSON object; `--save` also writes
`benchmarks/results/crash.json`.

Usage: python benchmarks/crash.py [--save] [--kills 20] [--chain 4] [--seed 0] [--commands data,eval,...] [--subprocess]
"""
from __future__ import annotations
import argparse, gzip, json, os, random, shutil, signal, sys, tempfile, time, traceback
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import report

ALL = ("data", "eval", "agent", "sft", "grpo", "selfplay")
ENV = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "WANDB_MODE": "offline",
       "TOKENIZERS_PARALLELISM": "false", "OMP_NUM_THREADS": "1"}


# ---------------------------------------------------------------- the commands, at toy size
def argv_for(cmd: str, run: Path, fx: dict) -> list[str]:
    "The `wl` arguments of `cmd` writing into `run`; `fx` holds the fixtures (a data directory, an SFT model)."
    train = ["--threads", "1", "--quiet", "--no-eval", "--resume"]
    return {
        "data": ["data", "--out", str(run), "--tasks", "300", "--method", "expansion", "--proposer", "20", "--quiet"],
        "eval": ["eval", "--run-dir", str(run), "--num-samples", "60", "--solver-names", "bfs,random", "--budget", "3",
                 "--quiet", "--no-plots"],
        "agent": ["agent", "--out", str(run), "--generate", "10", "--seed", "1", "--quiet"],
        "sft": ["sft", "--run-dir", str(run), "--data", str(fx.get("data")), "--max-steps", "8", "--batch-size", "8",
                "--save-every", "2", "--logging-steps", "1", *train],
        "grpo": ["grpo", "--run-dir", str(run), "--data", str(fx.get("data")), "--model-name", str(fx.get("model")),
                 "--max-steps", "6", "--batch-size", "8", "--num-generations", "4", "--save-every", "2",
                 "--logging-steps", "1", "--select-from", "0", *train],
        "selfplay": ["selfplay", "--run-dir", str(run), "--data", str(fx.get("data")), "--solver-model", str(fx.get("model")),
                     "--proposer-model", "tiny", "--rounds", "1", "--proposer-steps", "2", "--solver-steps", "2",
                     "--batch-size", "8", "--num-generations", "4", "--min-tasks", "8", "--eval-tasks", "10",
                     "--proposer-samples", "4", "--threads", "1", "--quiet", "--resume"],
    }[cmd]


# ---------------------------------------------------------------- running and killing
class Runner:
    "Start a `wl` command in its own process group: forked from this (pre-imported) process, or a fresh interpreter."
    def __init__(self, fork: bool):
        self.fork = fork
        os.environ.update(ENV)
        if fork:                      # import once here; every child starts warm (no thread is started by importing)
            import torch, trl, transformers  # noqa: F401
            from wandering_light import cli, tasks  # noqa: F401
            from wandering_light.evals import run_evaluation  # noqa: F401
            from wandering_light.training import sft, rl_grpo, selfplay  # noqa: F401
            from wandering_light.agent import loop, exports, views  # noqa: F401
            torch.set_num_threads(1)

    def start(self, argv: list[str], log: Path) -> int:
        "The pid (and process group) of the started command; its output goes to `log`."
        if not self.fork:
            import subprocess
            with open(log, "ab") as f:
                p = subprocess.Popen([sys.executable, "-c", "from wandering_light.cli import entry; entry()", *argv],
                                     stdout=f, stderr=f, start_new_session=True)
            self._popen = p
            return p.pid
        sys.stdout.flush(); sys.stderr.flush()
        pid = os.fork()
        if pid == 0:                                    # the child: the `wl` entry point, then exit without cleanup
            rc = 1
            try:
                os.setsid()
                fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
                os.dup2(fd, 1); os.dup2(fd, 2)
                from wandering_light.cli import main
                from wandering_light.utils import cli_main
                rc = cli_main(main, argv)
            except SystemExit as e: rc = e.code if isinstance(e.code, int) else 1
            except BaseException: traceback.print_exc()
            finally:
                try: sys.stdout.flush(); sys.stderr.flush()
                finally: os._exit(rc)
        return pid

    def poll(self, pid: int) -> int | None:
        "The exit status, or None while it runs."
        if not self.fork: return self._popen.poll()
        got, status = os.waitpid(pid, os.WNOHANG)
        return None if got == 0 else os.waitstatus_to_exitcode(status)

    def kill(self, pid: int):
        "SIGKILL the whole process group (the command and any worker it started), then reap it."
        try: os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError: pass
        if self.fork:
            try: os.waitpid(pid, 0)
            except ChildProcessError: pass
        else: self._popen.wait()

    def run(self, argv: list[str], log: Path, kill_at: float | None = None, timeout: float = 1800) -> tuple[str, int | None, float]:
        "Run until it exits (`('exit', rc, s)`), or until `kill_at` seconds, then SIGKILL (`('killed', None, s)`)."
        t0 = time.monotonic(); pid = self.start(argv, log)
        limit = timeout if kill_at is None else kill_at
        while True:
            rc = self.poll(pid)
            if rc is not None: return "exit", rc, time.monotonic() - t0
            if time.monotonic() - t0 >= limit:
                self.kill(pid)
                return ("killed" if kill_at is not None else "timeout"), None, time.monotonic() - t0
            time.sleep(0.02)


# ---------------------------------------------------------------- reading what a run left
def _lines(path: Path) -> tuple[list, int, bool]:
    "(parsed records, unparseable lines, whether the file ends with a newline) of a JSON Lines file."
    data = gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()
    recs, bad = [], 0
    for line in data.split(b"\n"):
        if not line.strip(): continue
        try: recs.append(json.loads(line))
        except (ValueError, RecursionError): bad += 1
    return recs, bad, (not data or data.endswith(b"\n"))

def scan(run: Path) -> dict:
    "Every file of a run directory checked: torn (unreadable, or a temporary left behind) files and torn log lines."
    torn, torn_lines, examples = 0, 0, []
    for p in sorted(run.rglob("*")):
        if not p.is_file() or p.name == ".lock" or "wandb" in p.parts: continue
        bad = None
        try:
            if p.name.startswith(".tmp") or p.name.endswith(".tmp"): bad = "temporary file left behind"
            elif p.suffix == ".json": json.loads(p.read_text(encoding="utf-8"))
            elif p.name.endswith((".jsonl", ".jsonl.gz")):
                _, n, ends = _lines(p)
                torn_lines += n
                if not ends: bad = "last line cut short"
            elif p.suffix == ".safetensors":
                from safetensors import safe_open
                with safe_open(str(p), "pt") as f: list(f.keys())
        except Exception as e: bad = f"{type(e).__name__}: {str(e)[:120]}"
        if bad:
            torn += 1
            if len(examples) < 5: examples.append(f"{p.relative_to(run)}: {bad}")
    return {"torn_files": torn, "torn_lines": torn_lines, "examples": examples}

def _canon(r) -> str: return json.dumps(r, sort_keys=True, default=str)

def _compare(got: list, ref: list, key, strict: bool) -> dict:
    "lost / duplicated records by key (and, if `strict`, records unequal to the reference's)."
    gk, rk = Counter(map(key, got)), Counter(map(key, ref))
    out = {"lost": sum((rk - gk).values()), "duplicated": sum((gk - rk).values()), "mismatched": 0}
    if strict:
        rmap = {key(r): _canon(r) for r in ref}
        out["mismatched"] = sum(1 for r in got if key(r) in rmap and _canon(r) != rmap[key(r)])
    return out

def _metric_keys(run: Path) -> list[str]:
    p = run / "metrics.jsonl"
    return [e["key"] for e in _lines(p)[0] if isinstance(e, dict) and "key" in e] if p.exists() else []

def _no_time(r: dict, *keys) -> dict: return {k: v for k, v in r.items() if k not in ("time", "time_s", "train_seconds", *keys)}

def records(cmd: str, run: Path) -> dict[str, tuple[list, object, bool]]:
    "Named record sets of a finished run: (records, key function, whether they must equal the reference's)."
    out: dict = {"metric keys": ([{"key": k} for k in _metric_keys(run)], lambda r: r["key"], False)}
    if cmd == "data":
        for f in sorted(run.glob("*.jsonl.gz")): out[f.name] = (_lines(f)[0], _canon, True)
        out["summary.json"] = ([json.loads((run / "summary.json").read_text())], lambda r: "summary", True)
    elif cmd == "eval":
        for f in sorted((run / "results").glob("*.jsonl")):
            out[f.name] = ([_no_time(r) for r in _lines(f)[0]], lambda r: (r["solver"], r["task"]), True)
    elif cmd == "agent":
        tr = [{"task_index": t["meta"]["task_index"], "result": t["result"]} for t in _lines(run / "results" / "traces.jsonl")[0]]
        out["traces.jsonl"] = (tr, lambda r: r["task_index"], True)
        for f in ("sft", "preference_groups", "preference_pairs", "labels"):
            out[f + ".jsonl"] = ([{"n": len(_lines(run / "results" / f"{f}.jsonl")[0])}], lambda r: "count", True)
    else:
        subs = [run] if cmd != "selfplay" else [run] + sorted(p.parent for p in run.glob("round-*/*/config.json"))
        for d in subs:
            name = str(d.relative_to(run)) if d != run else "."
            if d != run: out[f"{name}/metric keys"] = ([{"key": k} for k in _metric_keys(d)], lambda r: r["key"], False)
            s = d / "summary.json"
            if d != run or (s.exists() and cmd != "selfplay"):
                steps = json.loads(s.read_text()).get("steps") if s.exists() else None
                out[f"{name}/summary steps"] = ([{"steps": steps}], lambda r: r["steps"], True)
            c = d / "results" / "completions.jsonl"
            if c.exists():
                out[f"{name}/completions per step"] = ([{"step": r.get("step")} for r in _lines(c)[0]], lambda r: r["step"], False)
            out[f"{name}/model"] = ([{"model": (d / "model" / "config.json").exists()}], lambda r: r["model"], True)
        if cmd == "selfplay":
            out["summary rounds"] = ([{"round": e["round"]} for e in json.loads((run / "summary.json").read_text())["rounds"]],
                                     lambda r: r["round"], True)
    return out

def check(cmd: str, run: Path, ref: dict) -> dict:
    "Compare a resumed run's records with the reference's, and scan its files."
    res = {"lost": 0, "duplicated": 0, "mismatched": 0, **scan(run)}
    try: got = records(cmd, run)
    except Exception as e:
        res["lost"] += 1; res["examples"].append(f"unreadable results: {type(e).__name__}: {str(e)[:200]}"); return res
    for name, (ref_recs, key, strict) in ref.items():
        g = got.get(name, ([], key, strict))[0]
        c = _compare(g, ref_recs, key, strict)
        for k in ("lost", "duplicated", "mismatched"):
            res[k] += c[k]
            if c[k] and len(res["examples"]) < 8: res["examples"].append(f"{name}: {c[k]} {k}")
    extra = sorted(set(got) - set(ref))
    if extra: res["examples"].append(f"record sets not in the reference: {extra[:5]}")
    return res


# ---------------------------------------------------------------- one command
def crash_command(cmd: str, work: Path, runner: Runner, fx: dict, kills: int = 20, chain: int = 4, seed: int = 0,
                  max_trials: int | None = None) -> dict:
    "The reference run, then trials of kills and resumes until `kills` kills landed; the counts."
    t_start = time.monotonic()
    ref_dir = work / f"{cmd}-reference"
    how, rc, ref_s = runner.run(argv_for(cmd, ref_dir, fx), work / f"{cmd}-reference.log")
    if rc != 0:
        raise RuntimeError(f"the reference run of {cmd} failed ({how} {rc}): " + (work / f"{cmd}-reference.log").read_text()[-2000:])
    ref = records(cmd, ref_dir)
    fx.setdefault("reference_dirs", {})[cmd] = ref_dir
    rng = random.Random(f"{seed}:{cmd}")
    tot = Counter(); points, examples, trial = [], [], 0
    while tot["kills"] < kills and trial < (max_trials or 4 * kills):
        d, log = work / f"{cmd}-trial{trial:02d}", work / f"{cmd}-trial{trial:02d}.log"
        for _ in range(chain):
            if tot["kills"] >= kills: break
            t = rng.uniform(0.05 * ref_s, ref_s)
            how, rc, took = runner.run(argv_for(cmd, d, fx), log, kill_at=t)
            if how != "killed":
                if rc != 0: tot["resume_failures"] += 1; examples.append(f"trial {trial}: exit {rc}: " + log.read_text()[-600:])
                break
            tot["kills"] += 1; points.append(round(t, 2))
        how, rc, _ = runner.run(argv_for(cmd, d, fx), log)      # resume to completion
        tot["resumes"] += 1
        if rc != 0:
            tot["resume_failures"] += 1; examples.append(f"trial {trial}: resume {how} {rc}: " + log.read_text()[-800:])
        else:
            c = check(cmd, d, ref)
            for k in ("lost", "duplicated", "mismatched", "torn_files", "torn_lines"): tot[k] += c[k]
            examples += [f"trial {trial}: {e}" for e in c["examples"]]
        trial += 1
        if d.exists(): shutil.rmtree(d, ignore_errors=True)
    return {"kills": tot["kills"], "trials": trial, "resumes": tot["resumes"], "lost": tot["lost"],
            "duplicated": tot["duplicated"], "mismatched": tot["mismatched"], "torn_files": tot["torn_files"],
            "torn_lines": tot["torn_lines"], "resume_failures": tot["resume_failures"],
            "reference_wall_s": round(ref_s, 2), "wall_s": round(time.monotonic() - t_start, 1),
            "kill_points_s": points, "examples": examples[:6]}


def fixtures(work: Path, runner: Runner, cmds) -> dict:
    "A small `wl data` directory (training data), and an SFT model for GRPO and self-play."
    fx: dict = {}
    if any(c in cmds for c in ("sft", "grpo", "selfplay")):
        fx["data"] = work / "fixture-data"
        how, rc, _ = runner.run(["data", "--out", str(fx["data"]), "--tasks", "300", "--method", "expansion",
                                 "--proposer", "40", "--quiet"], work / "fixture-data.log")
        assert rc == 0, (work / "fixture-data.log").read_text()[-2000:]
    if any(c in cmds for c in ("grpo", "selfplay")):
        m = work / "fixture-sft"
        how, rc, _ = runner.run(argv_for("sft", m, fx), work / "fixture-sft.log")
        assert rc == 0, (work / "fixture-sft.log").read_text()[-2000:]
        fx["model"] = m / "model"
    return fx


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--save", action="store_true"); ap.add_argument("--subprocess", action="store_true")
    ap.add_argument("--kills", type=int, default=20); ap.add_argument("--chain", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0); ap.add_argument("--commands", default=",".join(ALL))
    ap.add_argument("--keep", help="work in this folder and keep it (default: a temporary folder, removed)")
    a = ap.parse_args(argv)
    cmds = [c for c in a.commands.split(",") if c]
    assert set(cmds) <= set(ALL), cmds
    runner = Runner(fork=not a.subprocess)
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="wl-crash-"))
    work.mkdir(parents=True, exist_ok=True)
    t0, figures = time.monotonic(), {}
    try:
        fx = fixtures(work, runner, cmds)
        for c in cmds:
            figures[c] = crash_command(c, work, runner, fx, a.kills, a.chain, a.seed)
            print(f"{c}: " + json.dumps({k: v for k, v in figures[c].items() if k not in ("kill_points_s", "examples")}),
                  file=sys.stderr, flush=True)
    finally:
        if not a.keep: shutil.rmtree(work, ignore_errors=True)
    keys = ("kills", "lost", "duplicated", "mismatched", "torn_files", "torn_lines", "resume_failures")
    figures["total"] = {k: sum(figures[c][k] for c in cmds) for k in keys}
    figures["total"]["min_kills_per_command"] = min(figures[c]["kills"] for c in cmds)
    figures["total"]["wall_s"] = round(time.monotonic() - t0, 1)
    report("crash", figures, argv, notes={"mode": "subprocess" if a.subprocess else "fork after import",
                                          "cpus_shared": "the 2-core development machine, shared with other jobs"})


if __name__ == "__main__":
    main(sys.argv[1:])
