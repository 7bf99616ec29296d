"""A script written against the upstream `wandering_light` public API runs unchanged on ours.

`SCRIPT` uses only upstream's import paths and names, the way a user of upstream writes them: tools from code text,
an executor over a palette, planned random walks, executed trajectories, BFS and random solvers from upstream's
factories, and upstream's `EvaluateSolver`. It runs in a fresh interpreter, as a user would run it; the test reads what
it printed. Every answer a solver gives is run again by the executor, and the script prints whether it checked out.
"""
import os, subprocess, sys, textwrap, time
from pathlib import Path

SCRIPT = textwrap.dedent('''
    import random

    from wandering_light.evals.evaluate_solver import EvaluateSolver
    from wandering_light.executor import Executor
    from wandering_light.function_def import FunctionDef, FunctionDefList, FunctionDefSet
    from wandering_light.solver import create_bfs_solver, create_random_solver
    from wandering_light.trajectory import TrajectoryList, TrajectorySpec, TrajectorySpecList
    from wandering_light.typed_list import TypedList

    random.seed(0)

    def int_fn(name, code):
        return FunctionDef(name=name, input_type="builtins.int", output_type="builtins.int", code=code)

    palette = FunctionDefList()
    for name, code in [("add_one", "return x + 1"), ("twice", "return x * 2"), ("negate", "return -x")]:
        palette.append(int_fn(name, code))
    available = FunctionDefSet(list(palette))
    print("palette:", available.to_string())

    executor = Executor(available)
    print("execute:", executor.execute(palette[0], TypedList([1, 2, 3])))

    # The executor runs only its palette: another tool, or another definition under a palette name, is refused.
    for outsider in [int_fn("square", "return x * x"), int_fn("add_one", "return x + 100")]:
        try:
            executor.execute(outsider, TypedList([3]))
            print("refused: NO (ran", outsider.name + ")")
        except ValueError as e:
            print("refused:", outsider.name, "-", e)

    # Random walks, planned then executed.
    rng = random.Random(1)
    specs = TrajectorySpecList()
    for start in [[1, 2], [5], [0, -3], [7, 8, 9], [4], [10, 20]]:
        specs.append(TrajectorySpec.create_random_walk(TypedList(start), 2, list(palette), rng=rng))
    trajectories = TrajectoryList()
    for spec in specs:
        result = executor.execute_trajectory(spec)
        if result.success:
            trajectories.append(result.trajectory)
        else:
            print("walk failed:", result.error_msg)
    for t in trajectories:
        assert t.to_spec().function_defs == t.function_defs
        print("walk:", t.input, "->", t.function_defs.to_string(), "->", t.output)

    # Solve each walk's input -> output with BFS, and a one-step task at random; check every answer by running it.
    def check(name, solver, inp, out):
        res = solver.solve(inp, out, available)
        if not res.success:
            print("solve", name + ":", inp, "->", out, "unsolved:", res.error_msg)
            return
        rerun = executor.execute_trajectory(TrajectorySpec(inp, res.trajectory.function_defs))
        ok = rerun.success and rerun.trajectory.output == out
        print("solve", name + ":", inp, "->", out, "=", res.trajectory.function_defs.to_string(), "checked:", ok)

    bfs = create_bfs_solver(budget=200, max_depth=2)
    for t in trajectories:
        check("bfs", bfs, t.input, t.output)
    check("random", create_random_solver(budget=60, path_length=1), TypedList([1, 2]), TypedList([2, 4]))

    # Evaluate, three ways.
    r1 = EvaluateSolver.evaluate_using_trajectories(bfs, trajectories, available)
    r2 = EvaluateSolver.evaluate_using_random_walk(bfs, [TypedList([1, 2]), TypedList([6])], 4, available, 2)
    r3 = EvaluateSolver.evaluate_using_trajectory_specs(create_bfs_solver(budget=200, max_depth=1), specs, available)
    for label, r in [("trajectories", r1), ("random_walk", r2), ("specs", r3)]:
        print("eval", label + ":", r.total_samples, r.success_count, round(r.success_rate, 3),
              round(r.avg_solution_length, 3), len(r.failures), len(r.detailed_results))
    print("DONE")
''')


def test_upstream_script_runs_unchanged(tmp_path):
    path = tmp_path / "upstream_style.py"
    path.write_text(SCRIPT)
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=180, cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stderr[-3000:]
    lines = r.stdout.splitlines()
    assert lines[-1] == "DONE", r.stdout
    assert time.monotonic() - t0 < 120
    assert "palette: add_one, twice, negate" in lines
    assert "execute: TL<int>([2, 3, 4])" in lines
    refused = [l for l in lines if l.startswith("refused:")]
    assert len(refused) == 2 and not any("NO" in l for l in refused), refused
    assert "not in this executor's palette" in refused[0] and "differs from the palette's add_one" in refused[1]
    walks = [l for l in lines if l.startswith("walk:")]
    assert len(walks) == 6 and not any(l.startswith("walk failed") for l in lines)
    solved = [l for l in lines if l.startswith("solve ")]
    assert len(solved) == 7 and all(l.endswith("checked: True") for l in solved), solved   # every answer re-executed
    assert any(l.startswith("solve random: TL<int>([1, 2]) -> TL<int>([2, 4]) = twice") for l in solved)
    evals = {l.split(":")[0]: [float(x) for x in l.split(":")[1].split()] for l in lines if l.startswith("eval ")}
    # all walks have two tools, so BFS of depth 2 solves all of them, with answers of at most two tools
    total, ok, rate, avg, fails, details = evals["eval trajectories"]
    assert (total, ok, rate, fails, details) == (6, 6, 1.0, 0, 6) and 0 < avg <= 2
    total, ok, rate, avg, fails, details = evals["eval random_walk"]
    assert (total, ok, rate, fails) == (4, 4, 1.0, 0) and 0 < avg <= 2
    assert evals["eval specs"] == [6, 0, 0.0, 0.0, 6, 6]     # depth 1: no walk of these seeds has a one-tool shortcut
