"""Fuzzed surfaces of the DSL layer: untrusted tool code, one tool against the next, and task files."""
from __future__ import annotations
import json, math, os, tempfile
from pathlib import Path
from hypothesis import strategies as st
from fuzzing import Violation, surface
from wandering_light.typed_list import TypedList, oversize
from wandering_light.function_def import FunctionDef
from wandering_light.executor import Executor, ExecResult, Limits, Sandbox
from wandering_light.solver import BFSSolve
from wandering_light.tasks import read_tasks
from wandering_light.utils import UserError

LIMITS = Limits(timeout_s=0.5, memory_mb=256)
_sandbox: list = []
def _executor(*tools: FunctionDef) -> Executor:
    "An executor whose palette is `tools`, sharing one worker with every case (a case that kills it must not break the next)."
    if not _sandbox: _sandbox.append(Sandbox(LIMITS))
    return Executor(list(tools), limits=LIMITS, sandbox=_sandbox[0])

CANARY = Path(tempfile.gettempdir()) / f"wl-fuzz-canary-{os.getpid()}"

# ---- untrusted code text -------------------------------------------------------------------------------------------
_names = st.sampled_from("x y math statistics hashlib len sorted sum range list str int __import__ __builtins__ open "
                         "eval exec getattr type object globals vars print".split())
_attrs = st.sampled_from("floor sqrt mean sha256 __class__ __bases__ __subclasses__ __globals__ __dict__ format mro "
                         "gi_frame f_back append upper real".split())
_atoms = st.one_of(_names, st.integers(-10**6, 10**6).map(str), st.text(max_size=6).map(repr),
                   st.sampled_from(["10 ** 10 ** 6", "'x' * 10 ** 9", "[0] * 10 ** 9", "range(10 ** 18)", "2 ** 64",
                                    "math.inf", "float('nan')", "b'\\x00' * 3"]))
def _expr(depth):
    return st.recursive(_atoms, lambda e: st.one_of(
        st.tuples(e, st.sampled_from("+ - * / // % ** << >> & | ^ == < in".split()), e).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(e, _attrs).map(lambda t: f"{t[0]}.{t[1]}"),
        st.tuples(e, e).map(lambda t: f"{t[0]}({t[1]})"),
        st.lists(e, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]"),
        st.tuples(e, e).map(lambda t: f"{t[0]}[{t[1]}]"),
        e.map(lambda s: f"[v for v in {s}]")), max_leaves=depth)

_deep = st.tuples(st.sampled_from(["(", "[", "-", "not ", "~", "x + ", "lambda y: ", "f(", "{1: "]),
                  st.integers(50, 100_000)).map(
    lambda t: t[0] * t[1] + "x" + {"(": ")", "[": "]", "f(": ")", "{1: ": "}"}.get(t[0], "") * t[1])
_escapes = st.sampled_from([
    f"open({str(CANARY)!r}, 'w').write('x')",
    f"__import__('os').system('touch {CANARY}')",
    "().__class__.__base__.__subclasses__()",
    "[c for c in ().__class__.__mro__[1].__subclasses__() if 'wrap' in c.__name__]",
    "math.__loader__", "statistics.mean.__globals__['sys']", "hashlib.sha256.__self__",
    "x.__class__.__init__.__globals__", "(lambda: 0).__code__", "(v for v in [1]).gi_frame.f_back.f_globals",
    "'{0.__class__.__mro__}'.format(x)", "getattr(x, '__class__')", "type(x).__subclasses__(object)",
    "globals()", "vars(math)", "eval('1')", "exec('y = 1')", "compile('1', 'f', 'eval')",
])
_loops = st.sampled_from(["while True:\n    pass", "y = 0\nwhile True:\n    y = y + 1",
                          "return [i for i in range(10 ** 12)]", "return sorted(range(10 ** 8))",
                          "return str(7 ** 10 ** 7)", "def f(y):\n    return f(y)\nreturn f(x)"])
_bodies = st.one_of(
    _expr(12).map(lambda e: f"return {e}"),
    _expr(6),                                                     # a bare expression
    st.tuples(_expr(4), _expr(4)).map(lambda t: f"y = {t[0]}\nreturn {t[1]}"),
    st.tuples(_names, _attrs, _expr(3)).map(lambda t: f"{t[0]}.{t[1]} = {t[2]}\nreturn x"),
    _deep, _escapes.map(lambda s: f"return {s}"), _escapes,
    st.text(max_size=60),                                         # any text at all
    st.binary(max_size=20).map(lambda b: b.decode("latin-1")),
    st.integers(20_000, 300_000).map(lambda n: "return x" + " " * n),   # length, not depth
    _loops,
)
_code_cases = st.tuples(_bodies, st.sampled_from([int, str, list, float]),
                        st.sampled_from([[1], ["ab"], [[1, 2]], [2.5]]))

@surface("code_text", _code_cases, limit_s=LIMITS.timeout_s + 1.5)
def check_code_text(case):
    code, out_t, items = case
    in_t = type(items[0])
    tool = FunctionDef("tool", in_t, out_t, code=code)
    r = _executor(tool).run([tool], items)
    if not isinstance(r, ExecResult): raise Violation("exception", f"run returned {type(r).__name__}")
    if CANARY.exists():
        CANARY.unlink(); raise Violation("escape", f"tool code wrote {CANARY}")
    if r.success:
        if oversize(r.output[0], LIMITS): raise Violation("escape", "an oversize value came back")
        if "root:x:0:0" in repr(r.output[0])[:10_000]: raise Violation("escape", "tool code read /etc/passwd")
    elif not (r.error and r.error_kind): raise Violation("exception", f"a failure without a kind: {r!r}")

# ---- one tool against the next -------------------------------------------------------------------------------------
_targets = st.sampled_from(["math.floor", "math.pi", "math.sqrt", "statistics.mean", "statistics.mean.cache",
                            "hashlib.sha256", "len", "sorted", "int", "str.upper", "list.append", "math"])
_poisons = st.one_of(
    st.tuples(_targets, st.sampled_from(["lambda y: 0", "abs", "0", "None", "[]"])).map(lambda t: f"{t[0]} = {t[1]}\nreturn x"),
    _targets.map(lambda t: f"del {t}\nreturn x"),
    _targets.map(lambda t: f"try:\n    {t}.seen = x\nexcept Exception:\n    pass\nreturn x"),
    st.sampled_from(["math = None\nreturn x", "len = sum\nreturn x", "global math\nmath = 0\nreturn x",
                     "statistics.__dict__['mean'] = abs\nreturn x", "sorted.__defaults__ = (1,)\nreturn x",
                     "x.__class__.__add__ = None\nreturn x", "[].__class__.append = None\nreturn x"]))
VICTIM = FunctionDef("victim", float, str, code="return str((math.floor(x), math.pi, statistics.mean([x, 1.0]), "
                     "hashlib.sha256(str(x).encode()).hexdigest()[:8], len(sorted([3, 1]))))")
def _victim_truth(x: float) -> str:
    import hashlib, statistics
    return str((math.floor(x), math.pi, statistics.mean([x, 1.0]), hashlib.sha256(str(x).encode()).hexdigest()[:8], 2))

@surface("cross_tool", st.tuples(_poisons, st.floats(-1e6, 1e6)), limit_s=LIMITS.timeout_s + 1.5)
def check_cross_tool(case):
    poison, x = case
    poisoner = FunctionDef("poison", int, int, code=poison)
    ex = _executor(poisoner, VICTIM)
    r = ex.run([poisoner], [1])
    if not isinstance(r, ExecResult): raise Violation("exception", "run returned no ExecResult")
    v = ex.run([VICTIM], [x])
    if not v.success: raise Violation("leak", f"the victim failed after {poison!r}: {v.error}")
    if v.output[0] != _victim_truth(x): raise Violation("leak", f"after {poison!r} the victim gave {v.output[0]}")

# ---- task files ------------------------------------------------------------------------------------------------------
_hostile_values = st.sampled_from([
    '{"__range__": [0, 1000000000000000000, 1]}', '[{"__range__": [0, 100000000000]}]', '{"__bytes__": 1000000000}',
    '{"__bytearray__": "x"}', '{"__complex__": [1]}', '{"__complex__": 5}', '{"__float__": []}', '{"__float__": "big"}',
    '{"__set__": [[1]]}', '{"__dict_items__": [[[1], 2]]}', '{"__dict_items__": [1, 2]}', '{"__tuple__": null}',
    "1" * 5000, "9" * 300, '"' + "x" * 20_000 + '"', "[" + ",".join(["1"] * 20_000) + "]", "NaN", "-Infinity",
    '{"__range__": [0, 10, 0]}', '{"__range__": ["a"]}', "true", "null", '{"a": {"b": {"c": []}}}'])
def _nested(t):
    opener, n = t
    return opener * n + "1" + {"[": "]", '{"k": ': "}", '{"__tuple__": [': "]}"}[opener] * n
_values = st.one_of(_hostile_values, st.tuples(st.sampled_from(["[", '{"k": ', '{"__tuple__": [']), st.integers(50, 20_000)).map(_nested),
                    st.integers(-10, 10).map(str), st.text(max_size=8).map(json.dumps))
_types = st.sampled_from(["builtins.int", "builtins.list", "builtins.range", "builtins.bytes", "builtins.dict",
                          "builtins.complex", "builtins.float", "builtins.tuple", "os.system", "int", "", "builtins.object"])
_batch = st.tuples(_types, st.lists(_values, max_size=3)).map(lambda t: '{"type": "%s", "items": [%s]}' % (t[0], ", ".join(t[1])))
_field = st.one_of(_batch.map(json.dumps), _batch, st.sampled_from(["1", "null", '"x"', "[]", '{"type": "builtins.int"}']))
_record = st.tuples(_field, _field, st.sampled_from(['', ', "relabeled_functions": ["inc"]', ', "relabeled_functions": "inc, x"',
                                                     ', "relabeled_functions": 5', ', "certified": "yes"'])).map(
    lambda t: '{"input": %s, "output": %s%s}' % t)
_line = st.one_of(_record, _record.map(lambda s: s[: len(s) // 2]), st.sampled_from(["", "[]", "1", "{", "\x00", "\ufeff{}"]),
                  st.text(max_size=40))

@surface("task_files", st.lists(_line, min_size=1, max_size=3), limit_s=5.0)
def check_task_files(lines):
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "tasks.jsonl"
        p.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
        try: tasks = read_tasks(p)
        except UserError as e:
            if "\n" in str(e).strip() or len(str(e)) > 2000: raise Violation("exception", f"a multi-line error: {str(e)[:200]}")
            return
    for t in tasks:
        for v in (*t.input.items, *t.output.items):
            if why := oversize(v): raise Violation("escape", f"a value read from a task file is {why}")
        r = BFSSolve(2, timeout_s=1.0).solve_detailed(t.input, t.output)
        if r.stop_reason not in (None, "timeout", "oversize"): raise Violation("exception", f"bfs stopped: {r.stop_reason}")

# ---- pipelines and inputs from anywhere ------------------------------------------------------------------------------
def _deep_list(n: int):
    v: list = []
    for _ in range(n): v = [v]
    return v
_names_any = st.sampled_from(["inc", "double", "reverse", "sort", "length", "to_str", "no_such_tool", "", " ", "inc,",
                              "__class__", "x" * 1000])
_pipelines = st.one_of(st.lists(_names_any, max_size=6), st.lists(_names_any, max_size=6).map(", ".join),
                       st.none(), st.integers(), st.binary(max_size=8), st.lists(st.one_of(st.none(), st.integers()), max_size=3),
                       st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
class _Make:
    "A named recipe for a hostile input, built inside the check (hypothesis never has to show a huge value)."
    def __init__(self, name, make): self.name, self.make = name, make
    def __repr__(self): return self.name
_hostile_inputs = st.sampled_from([
    _Make("deep list 4000", lambda: [_deep_list(4000)]), _Make("deep list 101", lambda: [_deep_list(101)]),
    _Make("huge range", lambda: [range(10**18)]), _Make("range in a list", lambda: [[range(10**12)]]),
    _Make("2**100000", lambda: [2 ** 100_000]), _Make("[2**100000]", lambda: [[2 ** 100_000]]),
    _Make("200k str", lambda: ["x" * 200_000]), _Make("deep dict", lambda: [{"k": _deep_list(300)}]),
    _Make("object", lambda: [object()]), _Make("empty", lambda: []), _Make("None", lambda: None),
    _Make("int", lambda: 5), _Make("text", lambda: "abc"), _Make("self-containing", lambda: (lambda l: (l.append(l), [l])[1])([]))])
_items = st.one_of(
    st.lists(st.integers(-10**6, 10**6), max_size=4), st.lists(st.text(max_size=5), max_size=3),
    st.lists(st.one_of(st.integers(), st.text(max_size=2), st.none()), max_size=4),   # mixed types
    _hostile_inputs)

@surface("executor_run", st.tuples(_pipelines, _items), limit_s=3.0)
def check_executor_run(case):
    pipeline, items = case
    if isinstance(items, _Make): items = items.make()
    r = Executor().run(pipeline, items)
    if not isinstance(r, ExecResult): raise Violation("exception", f"run returned {type(r).__name__}")
    if r.success:
        for v in r.output.items:
            if why := oversize(v): raise Violation("escape", f"an oversize value came out: {why}")
    elif not (r.error and r.error_kind): raise Violation("exception", f"a failure without a kind: {r!r}")
