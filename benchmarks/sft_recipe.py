"""The main job's SFT stage at other model sizes and learning rates: what ten CPU minutes of step-wise SFT buy.

Each arm is a model size (`models.MODEL_SIZES`) and a learning rate, written `SIZE:LR` (`--arms tiny:1e-3 mini:6e-4`).
The data and the held-out tasks are those of a finished `wl quickstart` run (`--from`); every other option is the
main job's (`training.main_job.sft_config` of the quickstart profile: step-wise examples with world-model and one-shot
ones beside them, the tool set, batches of 16, 10.4 training minutes with the schedule on the clock). A finished
quickstart run in `--runs` whose profile had an arm's size and learning rate, and the same task files,
is that arm's run: its SFT and its evaluation are read back, not trained again (a run from before 30 November had no
`sft_model` and `sft_lr` in its profile: it was `tiny` at 1e-3). Any other arm is trained into RUN/SIZE-lrLR/sft and
evaluated step-wise (one greedy rollout avoiding repeats, the `stepwise` solver at budget 1) on the upstream 480-task
set and the held-out tasks. Every run resumes; finished ones are read back. Training runs one at a time, on both
cores; run nothing else meanwhile (the step counts depend on it).
Figures: per arm, step-wise success on both sets, by distance, the SFT steps the clock allowed, and where it came from.
Trials beside it, not kept (30 November 2026; a hand-written script, not kept: this SFT stage at `mini` 6e-4 on
runs/qs-job's data, one greedy rollout avoiding repeats; upstream set / runs/qs-job's 300 held-out tasks; one run each,
nothing else running): the reference 76.0% / 49.3%, again with seed 1 75.8% / 49.3%; without world-model examples
(world_share 0) 76.0% / 50.0%; batches of 32 at 1e-3 (9,687 steps, 1.2 times the examples) 76.0% / 47.7%; 3 layers
of 96 (intermediate 288) 72.3% / 48.0% in 14,999 steps; training tasks drawn
from a pool of 160,000 weighted towards rare last tools (each task by its last tool's frequency to the -0.75; bool
targets 10.6% of the tasks against 6.5%, the same distance counts) 73.8% / 46.0% (distance 1 up, 2 and 3 down); the
same reference model planning one tool ahead with its own world-model examples (`WorldPlanner`, depth 1, k 3)
75.4% / 48.7%. Integers from -100 to 100 as single tokens of the DSL tokenizer (the same day, the same script with
`models.build_tokenizer` patched; other numbers byte by byte as now; the upstream set's step prompts 51.1 tokens on
average against 52.8): 74.6% / 45.0% in 15,320 steps, distance 1 88.5% against 90.2%: reading `-7` as one token did not
teach `inc` from `dec`.
Reading the target with the model's own world-model examples (`stepwise.WorldScorer` with the policy as its own world
model: its 5 likeliest tools re-weighed by the log-probability of the target as their result, one teacher-forced pass,
no tool application more; hand-written scripts, not kept; a `wl quickstart` run at abe7f58, its data and held-out tasks,
one run each, nothing else running; upstream set / held-out): the job's model itself, 77.9% / 53.3% alone in 21,502
steps, reads to 77.1% / 50.7% (weight 1; 77.1% / 51.3% at 0.5): its whole-batch world examples do not read well.
Taught them one value at a time instead (`world_per_value`, floats to six digits, `world_tools any`), a share of 0.15:
72.7% / 45.3% alone in 24,616 steps, 76.3% / 52.0% reading (distance 1 86.9% to 96.7% upstream, 76.9% to 98.1%
held-out); a share of 0.3: 71.5% / 43.0% alone in 27,087 steps, 77.1% / 49.0% reading (77.7% / 48.3% at weight 2).
Reading mends distance 1, but the model taught to read is the weaker step-wise policy at distances 2 and 3, and the
two cancel: not kept.
Compiled (`sft_compile`, the same run's data and held-out tasks, the same day; a read-back of seconds beside it): 23,451 steps against 21,502, and
72.7% / 49.0% against 77.9% / 53.3%: not kept (the spread of one run to the next is of that size).
The job's minutes split between a policy and a separate world model (hand-written scripts, not kept; the same data and
held-out tasks, the same day, nothing else running): this SFT stage for 6.4 training minutes (13,755 steps) and a
`mini` world model (`benchmarks/world_model.py --minutes 3.5 --world-digits 6 --world-tools any --size mini`, 9,627
steps; 43.7% of the world stage's pairs exact, against 18.0% for the job's model): 9.9 training minutes in all. One
greedy rollout of the policy alone 73.5% / 44.7%; reading the target with the world model (`WorldScorer`, weight 1)
77.9% / 47.0%; planning two tools ahead, 5 a level, reading where no imagined path is found (`WorldPlanner`)
**84.4%** / 50.7% (upstream distance 1 97.3%, 2 86.6%, 3 59.8%), past 80% on the upstream set, but its rollouts took
93 s and 152 s against 4 s and 6 s for the policy alone: with the policy's stage (443 s of wall time), the world
model's (283 s: its SFT stage in `world_model.py`, data built and tokenized) and the job's data and evaluation (51 s and 50 s in its run), added up, about 18
minutes, past the job's 15 as it stands. With 3 tools a level: 83.8% / 50.3% in 54 s and 81 s of rollouts (about 16
minutes in all, before trimming the stages' own measurements); the policy trained again with seed 1 (13,307 steps),
the same world model: alone 74.6% / 46.3%, reading 77.7% / 49.3%, two tools ahead, 3 a level, 83.8% / 53.0%. The job's 10.4-minute model with the same world model: 77.9% / 53.3% alone, 80.2% / 53.7%
reading, 85.0% / 55.3% two tools ahead (13.9 training minutes). The split, 6.4 policy minutes and 3.4 world minutes,
3 a level, was the quickstart profile from f8b67c8 (its first run from a fresh clone: quickstart_split_depth2.json);
since 82e57bd it gives the policy 6.2 minutes and imagines three tools ahead (quickstart_split.json).
Usage: python benchmarks/sft_recipe.py [--save] [--from runs/quickstart] [--runs RUN ...] [--arms SIZE:LR ...]
                                       [--run-dir runs/bench-sft-recipe]
"""
import argparse, json, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import POLICY_ALONE, job_sft, report
from tool_set import brief, evaluate

def arm_name(size: str, lr: float) -> str: return f"{size}-lr{lr:g}"

def parse_arm(text: str) -> tuple[str, float]:
    "`SIZE:LR` as (size, learning rate), or a one-line exit."
    from wandering_light.models import MODEL_SIZES
    size, _, lr = text.partition(":")
    try: rate = float(lr)
    except ValueError: sys.exit(f"error: an arm is SIZE:LR, like mini:6e-4, not {text!r}")
    if size not in MODEL_SIZES or not rate > 0: sys.exit(f"error: an arm is SIZE:LR with a size of {', '.join(MODEL_SIZES)} and a positive rate, not {text!r}")
    return size, rate

def data_digest(run: Path) -> str:
    "A digest of a run's task files (their contents: gzip headers differ by write time)."
    import gzip, hashlib
    h = hashlib.sha256()
    for f in ("train", "validation", "test"): h.update(gzip.decompress((run / "data" / f"{f}.jsonl.gz").read_bytes()))
    return h.hexdigest()

def read_back(run: Path, sets: dict) -> tuple[int, dict]:
    "A finished quickstart run's SFT steps and step-wise figures."
    steps = json.loads((run / "sft" / "summary.json").read_text())["steps"]
    return steps, {n: brief(json.loads((run / f"eval-{n}" / "summary.json").read_text())["stepwise"]) for n in sets}

def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--from", dest="source", default="runs/quickstart")
    ap.add_argument("--runs", nargs="*", default=[], help="other finished quickstart runs on the same data, read back as their arms")
    ap.add_argument("--arms", nargs="+", default=["tiny:1e-3", "mini:1e-3", "tiny:6e-4", "mini:6e-4"])
    ap.add_argument("--run-dir", default="runs/bench-sft-recipe")
    a = ap.parse_args(argv)
    from wandering_light.tasks import DEFAULT_EVAL_SET
    from wandering_light.training.main_job import PROFILES, sft_config
    from wandering_light.training.sft import run_sft
    src, run = Path(a.source), Path(a.run_dir)
    for r in [src, *map(Path, a.runs)]:
        if not (r / "summary.json").exists(): sys.exit(f"error: {r} is not a finished `wl quickstart` run (no summary.json)")
    data = data_digest(src)
    alone = lambda r: json.loads((r / "config.json").read_text()).get("sft_minutes", POLICY_ALONE["sft_minutes"]) == POLICY_ALONE["sft_minutes"]
    own = {job_sft(r): r for r in [*map(Path, a.runs), src] if data_digest(r) == data and alone(r)}   # the same stage only
    sets = {"upstream480": DEFAULT_EVAL_SET, "heldout": src / "heldout_test.jsonl.gz"}
    arms, steps, where = {}, {}, {}
    for size, lr in map(parse_arm, a.arms):
        key = arm_name(size, lr)
        if (size, lr) in own:
            steps[key], arms[key] = read_back(own[size, lr], sets)
            where[key] = str(own[size, lr])
            continue
        p = PROFILES["quickstart"] | POLICY_ALONE | {"sft_model": size, "sft_lr": lr}
        s = run_sft(sft_config(src / "data", run / key / "sft", p, 0))
        steps[key], where[key] = s["steps"], str(run / key)
        arms[key] = {n: brief(r) for n, r in evaluate(run / key / "sft" / "model", sets, run / key).items()}
    report("sft_recipe", {"arms": arms, "sft_steps": steps, "runs": where, "source_run": str(src)}, argv)

if __name__ == "__main__": main(sys.argv[1:])
