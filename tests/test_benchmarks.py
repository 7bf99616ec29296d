"""Every benchmark script imports cleanly: a syntax or import error in one is caught here, not when a long run reaches it."""
import importlib.util, sys
from pathlib import Path
import pytest

BENCH = Path(__file__).parent.parent / "benchmarks"
SCRIPTS = sorted(p for p in BENCH.glob("*.py") if not p.name.startswith("_"))

def test_there_are_benchmarks():
    assert len(SCRIPTS) >= 10 and (BENCH / "_common.py").exists()

@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.stem)
def test_benchmark_imports(path, monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)                   # top level only: `main` runs under `if __name__ == "__main__"`
    assert callable(getattr(mod, "main", None)), f"{path.name} has no main(argv)"

def test_agent_dpo_keeps_saved_bootstraps_of_the_same_settings(tmp_path, monkeypatch):
    "A --save on one bootstrap keeps another's saved figures, with their command, only if the settings are the same."
    monkeypatch.syspath_prepend(str(BENCH))
    import json, agent_dpo
    f, settings = tmp_path / "agent_dpo.json", {"lr": 1e-4, "loss": ["sigmoid", "sft"]}
    assert agent_dpo.saved_bootstraps(settings, f) == {}
    fig = {"held_out_success": {"start": 0.1, "dpo": 0.2, "sft": 0.1}, "points_dpo_minus_start": 10.0}
    f.write_text(json.dumps({"command": "python benchmarks/agent_dpo.py --bootstraps a --save",
                             "figures": {"a": fig, "bootstraps_lifted_3_points": 1, "settings": settings}}))
    kept = agent_dpo.saved_bootstraps(settings, f)
    assert list(kept) == ["a"] and kept["a"]["command"].endswith("--bootstraps a --save") and kept["a"]["points_dpo_minus_start"] == 10.0
    assert agent_dpo.saved_bootstraps(settings | {"lr": 1e-3}, f) == {}

def test_agent_dpo_held_out_is_distinct_and_ends(monkeypatch):
    "Held-out instances are distinct and unseen by what the agent is shown; a bootstrap that cannot make enough exits in one line."
    monkeypatch.syspath_prepend(str(BENCH))
    import agent_dpo
    from types import SimpleNamespace as NS
    pool = [NS(input=i % 3, target=t) for i in range(6) for t in (None, "x")]      # 6 distinct visible parts, repeated
    bs = NS(name="toy", tasks=lambda k, seed=0: [pool[j % len(pool)] for j in range(k)])
    got = agent_dpo.held_out(bs, 3, 0, {agent_dpo.visible(pool[0])})
    assert len(got) == 3 and len({agent_dpo.visible(t) for t in got}) == 3 and agent_dpo.visible(pool[0]) not in map(agent_dpo.visible, got)
    with pytest.raises(SystemExit, match="made only 5 new instances"): agent_dpo.held_out(bs, 6, 0, {agent_dpo.visible(pool[0])})

def test_same_settings_keeps_a_run_directory_to_one_set(tmp_path, monkeypatch):
    "A run directory remembers the settings it was made with; other settings end in a one-line exit that names them."
    monkeypatch.syspath_prepend(str(BENCH))
    from types import SimpleNamespace as NS
    from _common import same_settings
    keys = ("steps", "lr")
    same_settings(tmp_path, NS(steps=10, lr=1e-3, quiet=True), keys)
    same_settings(tmp_path, NS(steps=10, lr=1e-3, quiet=False), keys)        # an option outside the settings may change
    with pytest.raises(SystemExit, match=r"made with other settings \(--steps 10\)"):
        same_settings(tmp_path, NS(steps=11, lr=1e-3, quiet=True), keys)

def test_more_rounds_forgets_selfplay_and_the_stages_after_it(tmp_path, monkeypatch):
    "A finished self-play run asked for more rounds forgets the self-play stage and those after it, not the ones before."
    monkeypatch.syspath_prepend(str(BENCH))
    import json, selfplay
    from _common import stage
    for name, r in [("settings", 1), ("selfplay", {"rounds": [{}, {}, {}]}), ("upstream", 2), ("one_value_share", 3)]:
        stage(tmp_path, name, lambda r=r: r)
    selfplay.more_rounds(tmp_path, 2)                                          # played 2 rounds, asked for 2: kept
    assert list(json.loads((tmp_path / "stages.json").read_text())) == ["settings", "selfplay", "upstream", "one_value_share"]
    selfplay.more_rounds(tmp_path, 3)
    assert list(json.loads((tmp_path / "stages.json").read_text())) == ["settings"]
    selfplay.more_rounds(tmp_path, 4)                                          # nothing left to forget: no error
    assert stage(tmp_path, "upstream", lambda: 5)["result"] == 5               # a forgotten stage runs again

def test_same_training_resumes_only_what_was_trained(tmp_path, monkeypatch):
    "A checkpoint's own config decides: other settings (a seed, a learning rate) end in a one-line exit that names them."
    monkeypatch.syspath_prepend(str(BENCH))
    import json
    from _common import same_training
    sft = tmp_path / "sft"
    same_training(sft, {"seed": 1, "learning_rate": 3e-4})                    # nothing trained yet: anything goes
    sft.mkdir(); (sft / "config.json").write_text(json.dumps({"seed": 1, "learning_rate": 0.0003, "model_name": "mini"}))
    same_training(sft, {"seed": 1, "learning_rate": 3e-4})                    # the same settings resume
    with pytest.raises(SystemExit, match=r"holds a model trained with seed 1, not 0: give another --run-dir"):
        same_training(sft, {"seed": 0, "learning_rate": 3e-4})
    with pytest.raises(SystemExit, match=r"learning_rate 0.0003, not 0.001; model_name 'mini', not 'tiny'"):
        same_training(sft, {"learning_rate": 1e-3, "model_name": "tiny"})

def test_world_model_starts_from_a_checkpoint_of_its_size(tmp_path, monkeypatch):
    "--init-from: a checkpoint of --size is what training starts from; a missing one or one of another shape is a one-line exit."
    monkeypatch.syspath_prepend(str(BENCH))
    from world_model import start_from
    from wandering_light.models import build_tokenizer, build_model, save_model
    tok = build_tokenizer(); save_model(build_model("mini", tok), tok, tmp_path / "policy")
    assert start_from(None, "mini") == "mini" and start_from(str(tmp_path / "policy"), "mini") == str(tmp_path / "policy")
    with pytest.raises(SystemExit, match=r"is not a tiny model \(num_hidden_layers 2\): give the --size it has"):
        start_from(str(tmp_path / "policy"), "tiny")
    with pytest.raises(SystemExit, match="no checkpoint at"):
        start_from(str(tmp_path / "none"), "mini")

def test_selfplay_start_minutes_from_solver0_or_beside_the_checkpoint(tmp_path, monkeypatch):
    "The start solver's minutes: the run's solver0 stage, or the summary beside a --solver-from checkpoint (None without one)."
    monkeypatch.syspath_prepend(str(BENCH))
    import json, selfplay
    start = {"solver0": {"result": {"train_seconds": 84.0}}}
    assert selfplay.start_minutes(start, None) == 1.4
    (tmp_path / "sft" / "model").mkdir(parents=True)
    assert selfplay.start_minutes(start, str(tmp_path / "sft" / "model")) is None
    (tmp_path / "sft" / "summary.json").write_text(json.dumps({"train_seconds": 900.1}))
    assert selfplay.start_minutes(start, str(tmp_path / "sft" / "model")) == 15.0

def test_worldcheck_reads_the_target_with_a_weight(tmp_path, monkeypatch):
    "With --world-score the worldcheck stage adds a row for reading alone, and its plans count what they read (with --world-read too)."
    monkeypatch.syspath_prepend(str(BENCH))
    import stepwise as bench
    from wandering_light.models import build_tokenizer, build_model, save_model
    from wandering_light.tasks import read_tasks, write_tasks, DEFAULT_EVAL_SET
    tok = build_tokenizer()
    save_model(build_model("mini", tok), tok, tmp_path / "model")
    write_tasks(tmp_path / "few.jsonl.gz", read_tasks(DEFAULT_EVAL_SET)[:3])
    out = bench.world_check_eval(tmp_path / "model", {"few": tmp_path / "few.jsonl.gz"}, str(tmp_path / "model"), 2, [1], score=1.0)
    rows = out["few"]
    assert out["score"] == 1.0 and list(rows) == ["policy", "score", "depth_1"]
    assert rows["score"]["scored"] > 0 and "scored" not in rows["policy"] and rows["depth_1"]["questions"] > 0
    assert all(0 <= r["success_rate"] <= 1 for r in rows.values())
    plain = bench.world_check_eval(tmp_path / "model", {"few": tmp_path / "few.jsonl.gz"}, str(tmp_path / "model"), 2, [1])
    assert list(plain["few"]) == ["policy", "depth_1"] and "score" not in plain
    read = bench.world_check_eval(tmp_path / "model", {"few": tmp_path / "few.jsonl.gz"}, str(tmp_path / "model"), 2, [2],
                                  score=1.0, read=-1000.0)             # each plan reads at both levels, writes at the first only
    assert read["read_floor"] == -1000.0 and read["few"]["depth_2"]["scored"] > 0

def test_executor_world_is_never_wrong_and_routes_are_measured(tmp_path, monkeypatch):
    "`--world executor` predicts each tool's true result (None where it fails); `route_eval` counts a model's misses along routes."
    monkeypatch.syspath_prepend(str(BENCH))
    import stepwise as bench
    from wandering_light.models import build_tokenizer, build_model, save_model
    from wandering_light.tasks import read_tasks, write_tasks, default_functions, DEFAULT_EVAL_SET
    from wandering_light.typed_list import TypedList
    fs, tasks = default_functions(), read_tasks(DEFAULT_EVAL_SET)[:6]
    predict, score = bench.perfect_world(fs)
    for t in tasks:                                  # imagined along the certified route, it reaches the target
        v = t.input
        for f in t.functions: v = predict([(v, fs[f])])[0]
        assert v == t.output, t
    assert predict([(TypedList([1, 2]), fs["upper"])]) == [None]     # an int batch to a str tool: a failure, not a guess
    two = TypedList([1, 2])
    assert score([(two, fs["double"], TypedList([2, 4])), (two, fs["double"], TypedList([2, 5]))]) == [0.0, -20.0]
    tok = build_tokenizer()
    save_model(build_model("mini", tok), tok, tmp_path / "model")
    write_tasks(tmp_path / "few.jsonl.gz", tasks)
    r = bench.route_eval(tmp_path / "few.jsonl.gz", tmp_path / "model", worst=100)
    assert r["tasks"] == 6 and r["pairs"] == sum(len(t.functions) for t in tasks)
    assert sum(r["most_missed_tools"].values()) == r["pairs"] - round(r["exact_match"] * r["pairs"])
    assert set(r["whole_route_by_distance"]) == {str(t.distance) for t in tasks} and 0 <= r["whole_route"] <= 1
    last = bench.last_step_read(tmp_path / "few.jsonl.gz", tmp_path / "model")      # the route's last step, written and read
    assert last["tasks"] == 6 and last["unwritten"] == 6 - round(last["written"] * 6)
    assert 0 <= last["read_top"] <= 1 and 0 <= last["read_top_where_unwritten"] <= 1 and last["mean_other_tools"] > 0

def test_quickstart_refuses_in_one_line_and_keeps_the_run(tmp_path, monkeypatch):
    "A bad job option, or a run directory that holds another job, is a one-line exit before anything runs; the directory is left as it was."
    monkeypatch.syspath_prepend(str(BENCH))
    import json, quickstart
    with pytest.raises(SystemExit, match=r"^error: --plan-read must be 0.0 or less"):
        quickstart.main(["--run-dir", str(tmp_path / "a"), "--plan-read", "1"])
    assert not (tmp_path / "a").exists()
    other = tmp_path / "b"; other.mkdir(); (other / "config.json").write_text(json.dumps({"profile": "smoke", "seed": 7}))
    with pytest.raises(SystemExit, match=r"^error: .*holds a run with a different config"):
        quickstart.main(["--run-dir", str(other)])
    assert sorted(p.name for p in other.iterdir()) == [".lock", "config.json"]        # the job's lock file, nothing more
    assert json.loads((other / "config.json").read_text()) == {"profile": "smoke", "seed": 7}

def test_plan_width_refuses_bad_options_in_one_line(monkeypatch):
    "`--shapes` takes KxD pairs; anything else, or options that contradict each other or name no run, is a one-line exit."
    monkeypatch.syspath_prepend(str(BENCH))
    import re, plan_width
    assert plan_width.shapes("3x3,12x4") == [(3, 3), (12, 4)] and plan_width.label((12, 4)) == "12x4"
    for bad in ("3x", "3x3,", "0x3", "3x3b4", "three"):
        with pytest.raises(SystemExit, match=r"^error: --shapes takes KxD pairs"):
            plan_width.shapes(bad)
    for args, said in [(["--oracle-shapes", "12x4", "--no-oracle"], "--oracle-shapes needs the oracle rows"),
                       (["--sets", "upstream"], "--sets takes heldout and/or upstream480"),
                       (["--run-dir", "/nonexistent/run"], "is not a finished `wl quickstart` run")]:
        with pytest.raises(SystemExit, match="^error: .*" + re.escape(said)):
            plan_width.main(args)

def test_prefilter_reads_a_run_without_touching_it(tmp_path, monkeypatch):
    "Bad --filters and a directory with no self-play arm end in one line; a run's config loads, and nothing is written there."
    monkeypatch.syspath_prepend(str(BENCH))
    import json, prefilter
    assert prefilter.parse_filters("4:0,8:8") == [(4, 0), (8, 8)]
    for bad in ("4", "1:8", "4:-1", "a:b", ""):
        with pytest.raises(SystemExit, match="give K:W pairs"): prefilter.parse_filters(bad)
    with pytest.raises(SystemExit, match="holds no self-play arm"): prefilter.main(["--run-dir", str(tmp_path / "none")])
    assert not (tmp_path / "none").exists()
    sp = tmp_path / "run" / "selfplay"; sp.mkdir(parents=True)
    (sp / "config.json").write_text(json.dumps({"solver_model": "s", "proposer_model": "p", "proposer_samples": 128,
                                                "solver_kind": "stepwise", "_made_at": str(sp)}))
    with pytest.raises(SystemExit, match="no measured self-play round yet"): prefilter.main(["--run-dir", str(tmp_path / "run")])
    cfg = prefilter.load_config(sp)
    assert (cfg.proposer_samples, cfg.solver_kind, cfg.proposer_filter_width) == (128, "stepwise", None)
    assert sorted(p.name for p in sp.iterdir()) == ["config.json"]
