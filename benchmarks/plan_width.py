"""How wide and how deep the `stepwise-plan` solver imagines, and what its world model's mistakes cost it.

It takes a finished main job (`wl quickstart`: its policy, its world model and its held-out tasks in `--run-dir`;
`--world DIR` plans with another world model instead, e.g. one trained longer). For each plan shape `KxD` of `--shapes`
(the policy's K likeliest tools imagined at each level, D tools ahead: `plan_k` and `plan_depth` of the main job) it
rolls the policy out once, greedily, on each task of the run's held-out tasks and of the upstream 480-task set, each step
planned in imagination, as the job's `stepwise-plan` row does (`main_job.planned_solver`: the world model also reads
the target where no plan reaches it, or at every level with the profile's `plan_read`). Unless `--no-oracle`, every shape runs a second time with the executor in the world model's place:
a world model that is never wrong. That row is not a solver (it runs tools to plan, which a rollout of budget 1 may not
do); it is the ceiling of the shape: what the plan solves with this policy if the world model were perfect, so the gap
between the two rows is what the world model's mistakes cost at that shape. `--oracle-shapes` adds shapes measured
with the executor only: the ceilings of plans too slow to run with the world model here.
Figures per set: the world model along the tasks' certified routes (`benchmarks/stepwise.py`'s `route_eval`: the
pairs a plan must imagine right to see the target; exact match by pair, whole routes by distance); per shape: success (and by certified distance), the world's questions (tool results imagined), the
seconds of the rollouts, and each success and seconds as a ratio to the job's own shape (`--base`, default the run's
`plan_k`x`plan_depth` with its world model). Each row is kept in RUN/plan_width.json as it finishes (a world model's
rows under its path), so an interrupted run resumes where it stopped; a resumed run's ratios may then compare rows
measured at different times, and this machine's speed varies by 10-20% within an hour.
What a row costs here (2 cores, the quickstart's `mini` models, 300 held-out tasks): 3x3 about a minute, 6x3 three,
12x3 nine; 12x4 with a world model did not finish in 39 minutes, so it is not a default (ask for its ceiling with
`--oracle-shapes 12x4`: 24 s).
Usage: python benchmarks/plan_width.py [--save] [--run-dir runs/quickstart] [--world DIR] [--shapes 3x3,6x3,12x3]
                                       [--no-oracle] [--oracle-shapes 12x4] [--sets heldout,upstream480] [--name plan_width]
"""
import argparse, json, re, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import planned_job, report
from stepwise import perfect_world, route_eval

def shapes(text: str) -> list[tuple[int, int]]:
    "`'3x3,12x4'` -> [(3, 3), (12, 4)]: K tools a level, D levels; a one-line exit on anything else."
    out = [tuple(map(int, m.groups())) for s in text.split(",") if (m := re.fullmatch(r"(\d+)x(\d+)", s.strip()))]
    if not out or len(out) != len(text.split(",")) or min(min(s) for s in out) < 1:
        sys.exit(f"error: --shapes takes KxD pairs such as 3x3,12x4, not {text!r}")
    return out

def label(shape: tuple) -> str: return f"{shape[0]}x{shape[1]}"

def rollouts(model: str, world, p: dict, shape: tuple, tasks: list) -> dict:
    "One planned greedy rollout per task, as the job plans (profile `p`) but to `shape`: success, by distance, questions, seconds."
    from wandering_light.training.main_job import planned_solver
    s = planned_solver(model, world, p | {"plan_k": shape[0], "plan_depth": shape[1]})
    t0 = time.perf_counter()
    ok = [r.trajectory is not None for r in s.solve_batch_detailed([(t.input, t.output) for t in tasks])]
    secs, by = time.perf_counter() - t0, {}
    for t, o in zip(tasks, ok): by.setdefault(str(len(t.functions or [])), []).append(o)
    return {"success": round(sum(ok) / len(ok), 4), "by_distance": {d: round(sum(v) / len(v), 4) for d, v in sorted(by.items())},
            "world_questions": s.policy.questions, "seconds": round(secs, 1)}

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--run-dir", default="runs/quickstart", help="a finished `wl quickstart` run (its models and held-out tasks)")
    ap.add_argument("--world", default=None, help="plan with this world model's checkpoint (default: the run's RUN/world/model)")
    ap.add_argument("--shapes", default="3x3,6x3,12x3", help="plan shapes KxD: K tools a level, D levels")
    ap.add_argument("--base", default=None, help="the shape the ratios are against (default: the run's plan_k x plan_depth)")
    ap.add_argument("--no-oracle", action="store_true", help="leave out the rows planned with the executor as the world")
    ap.add_argument("--oracle-shapes", default="", help="more shapes KxD measured with the executor as the world only (ceilings of "
                    "shapes too slow to run with the world model)")
    ap.add_argument("--sets", default="heldout,upstream480", help="task sets: heldout (the run's), upstream480")
    ap.add_argument("--name", default="plan_width", help="results file: benchmarks/results/NAME.json")
    a = ap.parse_args(argv)
    asked, extra = shapes(a.shapes), shapes(a.oracle_shapes) if a.oracle_shapes else []
    if extra and a.no_oracle: sys.exit("error: --oracle-shapes needs the oracle rows (leave out --no-oracle)")
    names = [s for s in a.sets.split(",") if s]
    if not names or set(names) - {"heldout", "upstream480"}: sys.exit(f"error: --sets takes heldout and/or upstream480, not {a.sets!r}")
    run, p = planned_job(a.run_dir)
    world = a.world or str(run / "world" / "model")
    if not (Path(world) / "config.json").exists(): sys.exit(f"error: no world model at {world}")
    base = shapes(a.base)[0] if a.base else (p.get("plan_k", 3), p.get("plan_depth", 3))
    todo = list(dict.fromkeys([base, *asked]))
    ceilings = [s for s in extra if s not in todo]
    from wandering_light.tasks import read_tasks, resolve_task_file, DEFAULT_EVAL_SET
    files = {"heldout": run / "heldout_test.jsonl.gz", "upstream480": Path(resolve_task_file(DEFAULT_EVAL_SET))}
    keep = run / "plan_width.json"                      # rows measured so far: a world model's rows name it
    done = json.loads(keep.read_text()) if keep.exists() else {"rows": {}}
    row = lambda set_name, shape, kind: f"{set_name}/{label(shape)}/" + (f"world_model@{world}" if kind == "world_model" else kind)
    from wandering_light.trajectory import default_functions
    model, oracle, counts = str(run / "sft" / "model"), perfect_world(default_functions())[0], {}
    for set_name in names:
        tasks = read_tasks(files[set_name])
        counts[set_name] = len(tasks)
        if (key := f"{set_name}/routes@{world}") not in done["rows"]:     # the world model along the certified routes
            done["rows"][key] = route_eval(files[set_name], Path(world))
            keep.write_text(json.dumps(done, indent=1))
        for shape in todo + ceilings:
            for kind, w in ([("world_model", world)] if shape in todo else []) + ([] if a.no_oracle else [("perfect_world", oracle)]):
                key = row(set_name, shape, kind)
                if key in done["rows"]: continue
                done["rows"][key] = rollouts(model, w, p, shape, tasks)
                print(key, done["rows"][key], file=sys.stderr, flush=True)
                keep.write_text(json.dumps(done, indent=1))
    rows, figures = done["rows"], {"world": world, "base_shape": label(base), "tasks": counts}
    for set_name in names:
        b = rows[row(set_name, base, "world_model")]
        out = figures.setdefault(set_name, {"world_model_on_routes": rows[f"{set_name}/routes@{world}"]})
        for shape in todo + ceilings:
            for kind in ("world_model", "perfect_world"):
                if (r := rows.get(row(set_name, shape, kind))) is None: continue
                out[f"{label(shape)}/{kind}"] = {**r, "success_ratio_to_base": round(r["success"] / b["success"], 3) if b["success"] else None,
                                          "seconds_ratio_to_base": round(r["seconds"] / b["seconds"], 2) if b["seconds"] else None}
    report(a.name, figures, argv, notes={"run": str(run)}, script="plan_width")

if __name__ == "__main__": main(sys.argv[1:])
