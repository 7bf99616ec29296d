"""Fuzz surfaces of the agent: model-written action blocks through the restricted interpreter, expectation text, raw
completions through the block parser and the whole agent loop, and trace records read back (see `fuzzing.py`).

Escapes are watched with an audit hook that is live only while a case runs: a block that opened a file, imported,
ran `exec`, started a process or touched the network, or read a dunder attribute other than the `__code__` the
executor reads of its own tools, is an escape; so is a returned object that is not a plain value (a type, a module,
a function). A view whose values changed under a block is a leak (the next block would see it).
"""
from __future__ import annotations
import json, math, sys, time
from contextlib import contextmanager
from hypothesis import strategies as st
from fuzzing import surface, Violation
from wandering_light.typed_list import TypedList
from wandering_light.common_functions import basic_fns
from wandering_light.trajectory import parse_pipeline
from wandering_light.agent.blocks import (Trace, Candidate, completion_body, format_value, format_typed, parse_rendered,
                                          TraceError)
from wandering_light.agent.interpreter import Interpreter, InterpreterError, AgentView, ERROR_KINDS
from wandering_light.agent.candidates import as_state
from wandering_light.agent.loop import AgentLoop, AgentConfig, AgentTask
from wandering_light.agent.policies import action_text, STANDARD_EVALUATION

LIMIT_S = 1.0                       # the interpreter's time limit in these checks
_WATCHED = ("open", "import", "exec", "os.", "subprocess.", "socket.", "shutil.", "ctypes.", "sys._getframe",
            "builtins.input", "code.__new__", "function.__new__", "object.__setattr__", "object.__delattr__")

# -- the escape watch -------------------------------------------------------------------------------------------------

_seen: list | None = None

def _audit(event: str, args):
    if _seen is None or not event.startswith(_WATCHED + ("object.__getattr__",)): return
    if event == "object.__getattr__" and len(args) == 2 and args[1] in ("__code__", "__defaults__", "__kwdefaults__") \
            and getattr(args[0], "__module__", "").startswith("wandering_light."): return  # the executor, on its tools
    if event == "exec" and args and getattr(args[0], "co_filename", "").startswith("<applier "): return  # and its appliers
    if event == "open" and args and isinstance(args[0], str) and (args[0] == "<unknown>" or args[0].endswith(
            (".py", ".pyc", ".so"))): return            # the source line of a SyntaxError; a lazy import of a module
    _seen.append(f"{event} {str(args)[:120]}")

sys.addaudithook(_audit)

@contextmanager
def _watch():
    "Collect the watched audit events raised inside the block (they are escapes)."
    global _seen
    _seen = []
    try: yield _seen
    finally: _seen = None

_PLAIN = (int, float, complex, bool, str, bytes, bytearray, list, tuple, dict, set, frozenset, range, type(None),
          type(Ellipsis), TypedList, AgentView)

def _no_objects(v):
    "An escape if `v` holds anything but plain values (a type, a module, a function, a frame...)."
    stack, n = [v], 0
    while stack and n < 200_000:
        x = stack.pop(); n += 1
        if type(x) not in _PLAIN: raise Violation("escape", f"a block returned a {type(x).__name__}: {str(x)[:80]}")
        if isinstance(x, TypedList): stack.extend(x.items)
        elif isinstance(x, dict): stack.extend(x.keys()); stack.extend(x.values())
        elif isinstance(x, (list, tuple, set, frozenset)): stack.extend(x)

def _error_ok(e: InterpreterError):
    if e.kind not in ERROR_KINDS or not isinstance(e.message, str) or len(str(e)) > 600:
        raise Violation("exception", f"a malformed error: {e.kind!r}, {str(e)[:200]!r}")

def _timed(what: str, f, limit: float = LIMIT_S):
    "`f()` (or the `InterpreterError` it raised), a hang past `limit` + 1 s of this process's CPU time."
    t0 = time.process_time()          # CPU, not wall: a block that does no work must not read as a hang on a loaded
    try: r = f()                      # machine (a 5 ms load once took 2.27 s beside a training run); a block that
    except InterpreterError as e: _error_ok(e); r = e    # waits is stopped by the harness's wall-clock alarm
    took = time.process_time() - t0
    if took > limit + 1: raise Violation("hang", f"{what} took {took:.2f} s (limit {limit:g} s)")
    return r

# -- values the blocks see ---------------------------------------------------------------------------------------------

def _nest(v, k):
    for _ in range(k): v = [v]
    return v

STATES = [TypedList([1, 2, 3]), TypedList([2 ** 9999, -(2 ** 9000)]), TypedList(["ab", "x" * 9999, "\U0010ffff\x00"]),
          TypedList([[1, 2], [3]]), TypedList([math.nan, math.inf, -0.0]), TypedList([], int),
          TypedList([_nest(1, 99)]), TypedList([{"a": (1, 2)}, {}]), TypedList([(1, "a"), ()]),
          TypedList([list(range(2000))] * 4), TypedList([range(10 ** 4)]), TypedList([b"\x00\xff" * 100])]

def _view(i: int) -> AgentView:
    s = STATES[i % len(STATES)]
    return AgentView(s, STATES[(i + 1) % len(STATES)], s, previous=STATES[(i + 2) % len(STATES)], expectation=s, tick=2)

def _snapshot(view: AgentView):
    return [repr(view.get(a).items) if isinstance(view.get(a), TypedList) else repr(view.get(a))
            for a in ("state", "target", "inputs", "previous", "expectation", "tick")]

# -- action blocks -----------------------------------------------------------------------------------------------------

TOOLS = sorted(basic_fns.names)
BUILTINS = ["len", "min", "max", "sum", "abs", "round", "sorted", "all", "any", "list", "tuple", "str", "int", "float", "bool"]
VIEW = ["agent.state", "agent.target", "agent.inputs", "agent.tick", "agent.previous", "agent.expectation"]
HUGE = ["2 ** 9999", "-(2 ** 9999)", "10 ** 3000", "2 ** 10001", "10 ** 10 ** 10", "9" * 3100, "'x' * 9999",
        "'\\U0010ffff' * 5000", "'ab' * 10 ** 9", "[0] * 9999", "[[0] * 99] * 99", "(1,) * 9999", "b'\\x00' * 9999",
        "1e308 * 10", "-0.0", "float('nan')", "1j", "...", "None", "True", "'" + "y" * 9000 + "'"]
HOSTILE = ["open('/etc/passwd')", "__import__('os')", "agent.__class__", "().__class__.__bases__[0].__subclasses__()",
           "eval('1')", "getattr(agent, 'state')", "agent.get('state')", "globals()", "type(agent)", "x.__dict__",
           "agent.state.items", "lambda: 1", "[i for i in agent.state]", "f'{x}'", "'%s' % x", "sorted(x, key=len)",
           "(y := 1)", "x @ y", "~x", "x << 2", "act(agent)", "agent", "inc", "print(1)", "x.append(1)", "agent.__slots__",
           "agent.state.__class__.__init__.__globals__", "vars()", "dir()", "compile('1', 'a', 'eval')"]

_atom = st.one_of(st.sampled_from(["x", "y", "z", "1", "0", "-1", "2.5", "'a'", "[]", "()", "{}", "[1, 2, 3]"] + VIEW),
                  st.sampled_from(HUGE), st.integers(-2 ** 80, 2 ** 80).map(str), st.text(max_size=30).map(repr),
                  st.floats(allow_nan=True).map(lambda f: repr(f) if math.isfinite(f) else "1e999"))

def _extend(e):
    return st.one_of(
        st.tuples(st.sampled_from(["[{}, {}]", "({}, {})", "{{{}, {}}}", "{{{}: {}}}", "{} + {}", "{} * {}", "{} ** {}",
                                   "{} // {}", "{} % {}", "{} / {}", "{} - {}", "{} in {}", "{} not in {}", "{} == {}",
                                   "{} < {}", "{} >= {}", "{} and {}", "{} or {}", "{}[{}]", "{}[{}:]", "{}[:{}:-1]",
                                   "sum({}, {})", "round({}, {})", "{} if {} else x"]), e, e)
          .map(lambda t: "(" + t[0].format(t[1], t[2]) + ")"),
        st.tuples(st.sampled_from(TOOLS + BUILTINS), e).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(st.sampled_from(["-{}", "not {}", "[{}]", "({},)", "{} is None"]), e).map(lambda t: t[0].format(t[1])))

_expr = st.recursive(_atom, _extend, max_leaves=12)

def _deep(k: int, kind: int) -> str:
    return [("[" * k) + "1" + ("]" * k), "-" * k + "1", "inc(" * k + "1" + ")" * k, "(" * k + "x" + ")" * k,
            "not " * k + "x", " + ".join(["x"] * k)][kind]

_growth = st.tuples(st.sampled_from(["x = [x]", "x = [x, x]", "x = x + x", "x = x * 2", "x = (x, x)", "x = {1: x}",
                                     "x = str(x)", "x = sorted(x)", "x = list(x)", "x = repeat(x)", "x = inc(x)",
                                     "y = x in [x] * 999", "y = x == x", "x = sum([x, x], [])", "x = [x] * 99",
                                     "y = {x: 1}", "y = x[::-1]", "x = x + [x]"]), st.integers(1, 3000)) \
    .map(lambda t: [t[0]] * t[1])

BUILD = ["n = [0] * 9999", "n = [n, n, n, n, n]", "h = [1] * 9999", "h = [[1]] * 9999", "s = 'xy' * 4999", "b = 2 ** 9999",
         "t = tuple(n)", "d = {1: n}", "h = [b] * 9999", "n = agent.state", "h = [agent.state] * 999", "s = str(agent.state)"]
COSTLY = ["y = n in h", "y = n == n", "y = [n] < [n]", "y = {t: 1}", "y = str(n)", "y = sorted(n)", "y = sum(h, [])",
          "y = s in s", "y = b * b", "y = str(b)", "y = max(n)", "y = list(n)", "y = n[::-1]", "y = [n] * 2", "y = n + n",
          "y = d[1]", "y = str(h)", "y = sorted(h)", "y = h in [h]", "y = {s, s}", "y = s * 2", "y = len(n)", "y = inc(h)",
          "y = int(s)", "y = float(s)", "y = b // 3", "y = b ** 2", "y = -b", "y = abs(b)", "y = min(h)", "y = tuple(h)"]
_bomb = st.tuples(st.lists(st.sampled_from(BUILD), min_size=1, max_size=4), st.sampled_from(COSTLY), st.integers(1, 800)) \
    .map(lambda t: t[0] + [t[1]] * t[2])

_stmt = st.one_of(_bomb, _growth, 
    st.tuples(st.sampled_from(["x", "y", "z", "a, b"]), _expr).map(lambda t: [f"{t[0]} = {t[1]}"]),
    _expr.map(lambda e: [f"x += {e}"]), _expr.map(lambda e: [f"assert {e}, x"]), _expr.map(lambda e: [f"return {e}"]),
    st.tuples(_expr, _expr, _expr).map(lambda t: [f"if {t[0]}:", f"    x = {t[1]}", "else:", f"    y = {t[2]}"]),
    st.sampled_from(HOSTILE).map(lambda h: [f"x = {h}"]),
    st.sampled_from(["import os", "while True:\n        pass", "for i in range(10 ** 9):\n        pass",
                     "try:\n        x = 1\n    except Exception:\n        pass", "global x", "del x", "def g(a):\n        return a",
                     "with open('f') as f:\n        pass", "raise ValueError('x')", "class A:\n        pass"]).map(lambda s: [s]),
    st.tuples(st.integers(1, 400), st.integers(0, 5)).map(lambda t: [f"x = {_deep(*t)}"]),
    _growth, st.just(["pass"]))

def _block(lines: list, mode: str, name: str = "act") -> str:
    reg = {"action": f"agent.add_action('Try it', {name})", "evaluation": f"agent.add_evaluation('Is it right?', {name})",
           "backtrack": "agent.undo(1)"}[mode]
    body = "\n".join("    " + l for l in lines) if lines else "    pass"
    return f"def {name}(agent):\n    x = agent.state\n    y = agent.target\n{body}\n\n{reg}\n"

_mutate = st.one_of(st.just(None), st.just(None), st.just(None), st.tuples(st.sampled_from(["cut", "insert", "replace"]), st.integers(0, 60_000),
                                             st.text(max_size=40)))

def _apply(src: str, m) -> str:
    if m is None: return src
    op, at, text = m
    at = at % (len(src) + 1)
    return src[:at] if op == "cut" else src[:at] + text + src[at:] if op == "insert" else text

action_cases = st.tuples(st.one_of(st.lists(_stmt, max_size=6).map(lambda ls: [l for s in ls for l in s]), _bomb, _growth),
                         st.sampled_from(["action"] * 4 + ["evaluation", "backtrack"]), _mutate,
                         st.integers(0, len(STATES) - 1))

_INTERP: dict = {}

def _interp(timeout_s: float = LIMIT_S) -> Interpreter:
    if timeout_s not in _INTERP: _INTERP[timeout_s] = Interpreter(basic_fns, timeout_s=timeout_s)
    return _INTERP[timeout_s]

def _run_block(src: str, mode: str, view: AgentView, interp: Interpreter) -> list:
    "Load `src` and call what it registers (at most two functions): the results or errors."
    blk = _timed("loading the block", lambda: interp.load(src, mode))
    if isinstance(blk, InterpreterError): return []
    return [_timed("calling the block", lambda: interp.call(f, view)) for _, f in (blk.actions + blk.evaluations)[:2]]

@surface("action_blocks", action_cases, limit_s=3 * (LIMIT_S + 1) - 1)
def check_action_block(case):
    "A model's block: a value or an `InterpreterError` within the limit, no escape, the values it saw unchanged."
    lines, mode, m, si = case
    src, view = _apply(_block(lines, mode), m), _view(si)
    before = _snapshot(view)
    with _watch() as seen: results = _run_block(src, mode, view, _interp())
    if seen: raise Violation("escape", "; ".join(seen[:3]))
    if _snapshot(view) != before: raise Violation("leak", "the block changed the values of its view")
    for r in results:
        if isinstance(r, InterpreterError): continue
        _no_objects(r)
        try: s = as_state(r, view.state)                # what the loop does with an action's result
        except InterpreterError: continue
        json.loads(s.to_string()); format_typed(s); s.search_key(); s == view.target

# -- expectations ------------------------------------------------------------------------------------------------------

_key = st.one_of(st.integers(-2 ** 70, 2 ** 70), st.text(max_size=8), st.booleans(), st.floats(allow_nan=False))
_leaf = st.one_of(st.integers(-2 ** 300, 2 ** 300), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=20),
                  st.binary(max_size=20), st.booleans(), st.none(), st.complex_numbers(allow_nan=True),
                  st.builds(range, st.integers(-50, 50), st.integers(-50, 50), st.integers(1, 5)),
                  st.binary(max_size=10).map(bytearray))
_data = st.recursive(_leaf, lambda c: st.one_of(st.lists(c, max_size=4), st.lists(c, max_size=4).map(tuple),
                                                 st.dictionaries(_key, c, max_size=3), st.frozensets(_key, max_size=3),
                                                 st.sets(_key, max_size=3)), max_leaves=10)
_values = _data.flatmap(lambda v: st.lists(st.just(v) | _data.filter(lambda w, t=type(v): type(w) is t), min_size=1,
                                           max_size=4))
_TYPES = ["int", "float", "str", "bool", "list", "tuple", "dict", "set", "frozenset", "bytes", "bytearray", "complex",
          "range", "NoneType", "Int", "", "builtins.int", "list[int]", "os.system", "x" * 5000, "\x00", "__class__"]
_hostile_exp = st.one_of(
    st.tuples(st.sampled_from(_TYPES), st.lists(st.one_of(_atom, st.sampled_from(HUGE + HOSTILE)), max_size=5))
      .map(lambda t: f'expect({t[0]!r}, [{", ".join(t[1])}])'),
    st.tuples(st.sampled_from(_TYPES), st.integers(1, 400), st.integers(0, 5))
      .map(lambda t: f'expect({t[0]!r}, [{_deep(t[1], t[2])}])'),
    st.sampled_from(['expect("int", [1] * 10 ** 9)', 'expect("range", [range(10 ** 18)])', 'expect("set", [set([[1]])])',
                     'expect("int", x)', 'expect(int, [1])', 'expect("int")', 'expect("int", [1], [2])',
                     'expect("int", [1])\nexpect("int", [2])', 'import os', 'agent.undo(1)', 'expect("list", [[1]] * 9999)',
                     'expect("complex", [complex(inf, nan), complex(1e308 * 10, 0)])', 'expect("bytes", [b"\\x00" * 99999])',
                     'expect("frozenset", [frozenset({frozenset({1})})])', 'expect("str", ["a" * 9999 * 9999])',
                     'expect("int", [2 ** 2 ** 2 ** 2 ** 2])', 'expect("range", [range(1, 2, 0)])',
                     'expect("bytearray", [bytearray("x")])', 'expect("set", [{1: 2}])', "expect('tuple', [(" * 50 + ")])"]),
    st.text(max_size=200))

expectation_cases = st.one_of(_values.map(lambda vs: ("values", vs)),
                              st.tuples(_hostile_exp, _mutate).map(lambda t: ("text", _apply(t[0], t[1]))))

def _within_reach(vs) -> bool:
    "Whether `format_value` text of `vs` is small and shallow enough that the loader must read it back."
    from wandering_light.agent.blocks import value_extent
    w, d = value_extent(vs)
    return d <= 12 and w <= 2_000

@surface("expectations", expectation_cases, limit_s=LIMIT_S)
def check_expectation(case):
    "Expectation text: an expected `TypedList` or an `InterpreterError`; what `format_value` wrote reads back the same."
    kind, x = case
    if kind == "values":
        src = f'expect({TypedList(list(x)).type_name.split(".")[-1]!r}, {format_value(list(x))})'
    else: src = x
    with _watch() as seen: blk = _timed("loading the expectation", lambda: _interp().load(src, "expectation"))
    if seen: raise Violation("escape", "; ".join(seen[:3]))
    if isinstance(blk, InterpreterError):
        if kind == "values" and _within_reach(x) and blk.kind != "limit":
            raise Violation("lost", f"written values do not read back: {blk}")
        return
    exp = blk.expectation
    _no_objects(exp); json.loads(exp.to_string()); format_typed(exp); exp.answer_key()
    if kind == "values" and exp.search_key(True) != TypedList(list(x)).search_key(True):
        raise Violation("lost", f"written values read back different: {format_value(list(x))[:200]} -> {format_typed(exp)[:200]}")

# -- completions through the loop ---------------------------------------------------------------------------------------

GOOD = {"orientation": "# Apply double, then inc.", "debug": "# That failed; try again.",
        "action": action_text(parse_pipeline("double, inc")), "expectation": 'expect("int", [3, 5, 7])',
        "evaluation": STANDARD_EVALUATION, "backtrack": "# Undo it.\nagent.undo(1)"}
_DELIMS = ["#endblock", "#endblock -- done", "#startblock type: action", "#endblock-", " #endblock", "#startblockx",
           "#index 3 | tick 1", "\r#endblock", "#endblock\r", "\r", "\r\n", "\x00", "\u2028", "\x0c"]

_completion = st.one_of(
    st.sampled_from(list(GOOD.values())),
    st.tuples(st.sampled_from(list(GOOD.values())), st.sampled_from(_DELIMS), st.text(max_size=60), st.integers(0, 400))
      .map(lambda t: t[0][:t[3]] + "\n" + t[1] + t[2] + "\n" + t[0][t[3]:]),
    action_cases.map(lambda c: _apply(_block(c[0], "action" if c[1] == "backtrack" else c[1]), c[2])),
    _hostile_exp, st.text(max_size=300), st.sampled_from(["", "\n\n", "#" + "x" * 100_000, "x" * 60_000,
                                                           "(" * 5000, "# ok\n" * 5000, None, b"#endblock", 7]))

completion_cases = st.tuples(st.fixed_dictionaries({t: st.lists(_completion | st.just(GOOD[t]), max_size=3)
                                                    for t in GOOD}), st.sampled_from(["action", "backtrack"]),
                             st.integers(-len(STATES), len(STATES) - 1))

class _RawPolicy:
    "Proposes the raw completions of a case, block type by block type (gives up when they run out)."
    name = "raw"
    def __init__(self, texts: dict, decision: str): self.texts, self.decision = texts, decision
    def begin(self, task, rng): self._left = {k: list(v) for k, v in self.texts.items()}
    def propose(self, ctx, n):
        q = self._left.get(ctx.block_type) or []
        return [q.pop(0)] if q else []
    def decide(self, ctx, options): return self.decision if self.decision in options else options[0]

COMPLETION_LIMIT_S = 0.25           # the interpreter's limit inside the loop: a run has at most ~12 limited phases

@surface("agent_completions", completion_cases, limit_s=12 * COMPLETION_LIMIT_S + 1)
def check_completions(case):
    "Raw completions through the agent loop: a complete trace that writes as JSON and text and reads back the same."
    texts, decision, si = case
    task = (AgentTask(TypedList([1, 2, 3]), TypedList([3, 5, 7]), parse_pipeline("double, inc"), id="fuzz") if si < 0
            else AgentTask(STATES[si], STATES[(si + 5) % len(STATES)], None, id=f"fuzz{si}"))   # odd values, on view
    loop = AgentLoop(_RawPolicy(texts, decision), config=AgentConfig(budget=1, max_retries=1, heldout=2, distance_depth=1))
    loop.interp.timeout_s = COMPLETION_LIMIT_S
    with _watch() as seen: t = loop.run(task)
    if seen: raise Violation("escape", "; ".join(seen[:3]))
    if not t.complete: raise Violation("lost", f"the trace did not end: {t.types}")
    back = Trace.from_json(json.loads(json.dumps(t.to_json())))
    if back.render() != t.render(): raise Violation("lost", "the JSON round trip renders differently")
    read = [(b.type, b.index, b.tick, b.title, b.body) for b in parse_rendered(t.render())]
    if read != [(b.type, b.index, b.tick, b.title, b.body) for b in t.blocks]:
        raise Violation("lost", "the rendered trace reads back different blocks")

# -- trace records read back -------------------------------------------------------------------------------------------

def _good_trace() -> dict:
    loop = AgentLoop(_RawPolicy({k: [v] for k, v in GOOD.items()}, "action"), config=AgentConfig(budget=1, max_retries=0))
    return loop.run(AgentTask(TypedList([1, 2, 3]), TypedList([3, 5, 7]), parse_pipeline("double, inc"), id="t")).to_json()

_GOOD_TRACE = json.dumps(_good_trace())
_json = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.floats(), st.text(max_size=20),
                               st.sampled_from(["9" * 5000, "observation", "outcome", "#endblock", "a\rb", ""])),
                     lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3), max_leaves=8)
_path = st.lists(st.sampled_from(["blocks", "task", "meta", "result", "schema", 0, 1, 2, -1, "type", "body", "index", "tick",
                                  "title", "candidates", "outcome", "timestamps", "p_yes", "lint", "chosen"]), min_size=1, max_size=4)
trace_cases = st.lists(st.tuples(_path, _json), min_size=1, max_size=4)

def _poke(d, path, value):
    "Set `value` at `path` inside the JSON `d` where the path exists (a key or an index), else at its last reachable level."
    for k in path[:-1]:
        nxt = d.get(k) if isinstance(d, dict) and isinstance(k, str) else d[k] if isinstance(d, list) and isinstance(k, int) and -len(d) <= k < len(d) else None
        if not isinstance(nxt, (dict, list)): break
        d = nxt
    k = path[-1]
    if isinstance(d, dict) and isinstance(k, str): d[k] = value
    elif isinstance(d, list) and isinstance(k, int) and -len(d) <= k < len(d): d[k] = value

@surface("agent_traces", trace_cases, limit_s=LIMIT_S)
def check_trace_record(case):
    "A trace record changed anywhere: `Trace.from_json` gives a trace that writes again, or a `TraceError`."
    d = json.loads(_GOOD_TRACE)
    for path, value in case: _poke(d, path, value)
    try: t = Trace.from_json(d)
    except TraceError: return
    back = Trace.from_json(json.loads(json.dumps(t.to_json())))
    if back.render() != t.render(): raise Violation("lost", "a trace read back renders differently after a JSON round trip")
