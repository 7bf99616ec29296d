"""The four faces of `wandering_light.envs`, each driven by its own library, on one seed: the same tasks and the same
scores through reasoning-gym, verifiers, an OpenEnv server started as a real process on 127.0.0.1, and TRL's tool
environment. Bad input to every face scores 0 (or is a clear error), never a crash."""
import socket, subprocess, sys, time
import pytest

pytest.importorskip("reasoning_gym"); pytest.importorskip("verifiers"); pytest.importorskip("openenv")
import reasoning_gym
from openenv.core import GenericEnvClient
from wandering_light.envs.source import EnvConfig, make_entries, score_answer
from wandering_light.envs.faces import (ENV_NAME, load_environment, rubric_score, InductionToolEnv, trl_dataset)

SEED, SIZE = 11, 4
KNOBS = dict(distances=(1, 2), types=("int", "str"), palette_size=8)
CFG = EnvConfig(**KNOBS)

def _answers(entry):
    "The certified answer, a wrong tool, and bad input of every kind: unknown tool, malformed, huge, not text."
    wrong = next(n for n in entry["metadata"]["palette"] if n not in entry["answer"].split(", "))
    return [entry["answer"], wrong, "no_such_tool", ",,, ;", "inc, " * 20_000, ""]

@pytest.fixture(scope="module")
def server():
    with socket.socket() as s: s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "wandering_light.envs.faces", "--port", str(port), "--distances", "1", "2",
           "--types", "int", "str", "--palette-size", "8"]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        # A generous deadline: the server imports its libraries first, which took over 30 s on a loaded 2-core machine.
        deadline = time.monotonic() + 120
        while True:
            if p.poll() is not None: pytest.fail(f"server exited: {p.stdout.read().decode()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2): break
            except OSError:
                if time.monotonic() > deadline: pytest.fail("server did not start in 120 s")
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        p.terminate(); p.wait(10)

def test_same_seed_same_tasks_and_scores(server):
    entries = make_entries(CFG, SEED, SIZE)
    expected = [[score_answer(a, e) for a in _answers(e)] for e in entries]
    assert all(row[0] == 1.0 for row in expected) and all(row[2:] == [0.0] * 4 for row in expected)
    # reasoning-gym: create_dataset by name
    ds = reasoning_gym.create_dataset(ENV_NAME, seed=SEED, size=SIZE, **KNOBS)
    assert [ds[i] for i in range(SIZE)] == entries
    assert [[ds.score_answer(a, e) for a in _answers(e)] for e in entries] == expected
    # verifiers: the SingleTurnEnv's dataset and Rubric
    env = load_environment(seed=SEED, size=SIZE, **KNOBS)
    rows = [env.dataset[i] for i in range(SIZE)]
    assert [r["question"] for r in rows] == [e["question"] for e in entries]
    assert [[rubric_score(env, r, [{"role": "assistant", "content": a}]) for a in _answers(e)]
            for r, e in zip(rows, entries)] == expected
    # OpenEnv: openenv-core's own client over WebSocket to the server process
    got = []
    with GenericEnvClient(base_url=server).sync() as client:
        for i, e in enumerate(entries):
            row = []
            for a in _answers(e):
                r = client.reset(seed=SEED, index=i)
                assert r.observation["prompt"] == e["question"]
                r = client.step({"answer": a})
                assert r.done
                row.append(r.reward)
            got.append(row)
        assert client.state()["index"] == SIZE - 1
    assert got == expected
    # TRL: the environment_factory class on the rows GRPOTrainer would pass to reset
    trows = trl_dataset(seed=SEED, size=SIZE, **KNOBS)
    scores = []
    for row, e in zip(trows, entries):
        env_ = InductionToolEnv()
        out = []
        for a in _answers(e):
            env_.reset(**row); env_.submit(a); out.append(env_.get_reward())
        scores.append(out)
    assert scores == expected

def test_openenv_step_wise_and_bad_moves(server):
    e = make_entries(CFG, SEED, 1)[0]
    with GenericEnvClient(base_url=server).sync() as client:
        client.reset(seed=SEED, index=0)
        r = client.step({"tool": "x" * 50_000})
        assert r.observation["message"].startswith("error") and not r.done and r.reward == 0.0
        r = client.step({"tool": "no_such_tool"})
        assert r.observation["message"].startswith("error")
        for name in e["answer"].split(", "): r = client.step({"tool": name})
        assert r.done and r.reward == 1.0
        assert client.state()["solved"] is True
    with GenericEnvClient(base_url=server).sync() as client:
        client.reset(seed=SEED, index=0)
        with pytest.raises(Exception, match="(?i)valid|extra|forbid"):
            client.step({"shell": "rm -rf /"})           # not an action field: rejected by the server, as an error
        r = client.step({"answer": "inc"})                # the session survives the bad request
        assert r.done
