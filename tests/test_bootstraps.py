"""Bootstraps (`agent.bootstrap`): every packaged one solved by its expert, checked against wrong answers and hostile
blocks, and run from the command line (a .py file, a notebook, a packaged name; a bad one is one line, status 2)."""
import contextlib, io, json, subprocess, sys
import pytest
from wandering_light.cli import agent_main
from wandering_light.utils import cli_main
from wandering_light.agent.bootstrap import load_bootstrap, packaged_bootstraps
from wandering_light.agent.loop import AgentConfig
from wandering_light.agent.policies import ScriptedPolicy, STANDARD_EVALUATION, action_text, expectation_text

NAMES = ["induction", "vigenere", "sorting"]
WL = [sys.executable, "-c", "from wandering_light.cli import entry; entry()"]

def test_the_packaged_bootstraps():
    assert packaged_bootstraps() == sorted(NAMES)

@pytest.mark.parametrize("name", NAMES)
def test_expert_solves_seeded_instances(name):
    bs = load_bootstrap(name)
    tasks = bs.tasks(10, seed=7)
    assert [t.to_json() for t in tasks] == [t.to_json() for t in bs.tasks(10, seed=7)]      # seeded
    loop = bs.loop(config=AgentConfig(seed=7), slip_prob=0.3)
    assert loop.interp.functions is bs.tools                                                # its palette and nothing else
    results = [loop.run(t).result for t in tasks]
    assert all(r["solved"] for r in results), [r for r in results if not r["solved"]]

def _script(bs, task, actions, retries=0):
    "Run scripted action blocks on a task (no scorer: every block is played as written)."
    want = task.target if task.target is not None else task.answer
    s = {"orientation": ["# Go."], "action": list(actions), "debug": ["# That failed."] * (retries + 1),
         "expectation": [expectation_text(want)] * (retries + 1), "evaluation": [STANDARD_EVALUATION] * (retries + 1)}
    return bs.loop(ScriptedPolicy(s), "none", AgentConfig(budget=1, max_retries=retries)).run(task)

def _written(values) -> str:
    return f"def act(agent):\n    return {list(values.items)!r}\n\nagent.add_action(\"Write the answers\", act)"

@pytest.mark.parametrize("name", NAMES)
def test_wrong_answers_fail_the_check(name):
    bs = load_bootstrap(name)
    task = bs.loop().prepare(bs.tasks(1, seed=3)[0])                  # with its held-out examples
    right = action_text(task.reference)
    assert _script(bs, task, [right]).result["solved"]
    want = task.target if task.target is not None else task.answer
    written = _script(bs, task, [_written(want)])                    # right values, no program: held-out examples fail
    assert not written.result["solved"] and written.result["visible"] == [len(want)] * 2
    wrong = next(f for f in bs.tools if f.in_cls is task.input.item_type and f.name != task.reference.names[0])
    assert not _script(bs, task, [action_text([wrong])]).result["solved"]

HOSTILE = ["import os", "return agent.state.__class__.__mro__", "return open('/etc/passwd')",
           "return eval('1')", "return upper(agent.state)", "x = [0] * 10**9"]

@pytest.mark.parametrize("name", NAMES)
def test_hostile_blocks_are_error_blocks_and_the_run_goes_on(name):
    bs = load_bootstrap(name)
    task = bs.tasks(1, seed=5)[0]
    acts = [f"def act(agent):\n    {line}\n    return agent.state\n\nagent.add_action(\"Try\", act)" for line in HOSTILE]
    trace = _script(bs, task, acts + [action_text(task.reference)], retries=len(acts))
    errors = [b for b in trace.blocks if b.type == "error"]
    assert len(errors) == len(HOSTILE), [b.body for b in errors]
    assert trace.result["solved"] and trace.result["errors"] == len(HOSTILE)

def _agent(*argv) -> tuple[int, str]:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        rc = cli_main(agent_main, [*argv, "--quiet"], prog="wl")
    return rc, err.getvalue()

def test_induction_bootstrap_is_the_default_path(tmp_path):
    for out, extra in (("plain", []), ("boot", ["--bootstrap", "induction"])):
        assert _agent("--generate", "6", "--seed", "2", "--out", str(tmp_path / out), *extra)[0] == 0
    read = lambda d: [json.loads(l) for l in (tmp_path / d / "results" / "traces.jsonl").read_text().splitlines()]
    plain, boot = read("plain"), read("boot")
    assert [t["result"] for t in boot] == [t["result"] for t in plain]
    assert [[b["body"] for b in t["blocks"]] for t in boot] == [[b["body"] for b in t["blocks"]] for t in plain]

CAESAR = '''
import random
from wandering_light.function_def import tool
from wandering_light.typed_list import TypedList
from wandering_light.agent.views import AgentTask
from wandering_light.agent.bootstrap import answer_check, plan_search

def _shift(s, k): return "".join(chr((ord(c) - 65 + k) % 26 + 65) for c in s)

@tool
def back_one(s: str) -> str:
    "Shift every letter back by one."
    return _shift(s, -1)

def make_tasks(n, seed):
    rng = random.Random(seed)
    words = lambda k: TypedList(["".join(rng.choice("ABCDEFGH") for _ in range(5)) for _ in range(k)])
    out = []
    for i in range(n):
        plain, held = words(3), words(2)
        enc = lambda xs: TypedList([_shift(x, 1) for x in xs.items])
        out.append(AgentTask(enc(plain), None, id=f"c{i}", answer=plain, heldout_inputs=enc(held), heldout_targets=held))
    return out

check = answer_check
def planner(view, state): return (back_one,)
'''

def test_a_file_and_a_notebook_run_from_the_command_line(tmp_path):
    (tmp_path / "caesar.py").write_text(CAESAR)
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": "#| export\n" + CAESAR}
    nb = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "caesar_nb.ipynb").write_text(json.dumps(nb))
    for f in ("caesar.py", "caesar_nb.ipynb"):
        rc, err = _agent("--bootstrap", str(tmp_path / f), "--generate", "3", "--out", str(tmp_path / f"run-{f}"))
        assert rc == 0, err
        traces = (tmp_path / f"run-{f}" / "results" / "traces.jsonl").read_text().splitlines()
        assert [json.loads(t)["result"]["solved"] for t in traces] == [True] * 3

def test_a_bad_bootstrap_is_one_line_and_status_2(tmp_path):
    (tmp_path / "raises.py").write_text("raise RuntimeError('boom')\n")
    (tmp_path / "empty.py").write_text("X = 1\n")
    for spec, msg in [("nosuch", "unknown bootstrap 'nosuch'"), (str(tmp_path / "no.py"), "no such file"),
                      (str(tmp_path / "raises.py"), "failed to load: RuntimeError: boom"),
                      (str(tmp_path / "empty.py"), "needs make_tasks")]:
        rc, err = _agent("--bootstrap", spec, "--generate", "2", "--out", str(tmp_path / "r"))
        assert rc == 2 and len(err.strip().splitlines()) == 1 and msg in err, err
    r = subprocess.run([*WL, "agent", "--bootstrap", str(tmp_path / "no.py"), "--generate", "2", "--out",
                        str(tmp_path / "r2")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip().splitlines() == [f"wl: error: bootstrap {tmp_path / 'no.py'}: no such file"]
