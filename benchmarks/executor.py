"""Executor throughput against a plain Python loop calling the same tools on the same values.

For a fixed mix of values (batches of every type), every type-compatible tool of the built-in library is applied to
every batch, repeatedly: once through `Executor.apply` (type check, error capture, output type and size checks), once
as `[f(x) for x in batch]` with only a try/except around it. Figures are applications (tool calls on one value) per
second, and the ratio executor / plain loop (aim: >= 0.5).
Usage: python benchmarks/executor.py [--save] [--repeat N]
"""
import sys, time
sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
from _common import report
from wandering_light.typed_list import TypedList
from wandering_light.common_functions import basic_fns
from wandering_light.executor import Executor, ExecutionError

BATCHES = [[3, -1, 4, 0, 1024], ["ab", "Hello", "", "x y z", "Racecar"], [[3, 1, 2], [], [5], [1.5, 2], ["a", "b"]],
           [2.5, -0.5, 1.0, 0.0, 123.456], [{"a": 1}, {}, {"b": 2, "c": 3}], [True, False, True],
           [(1, None), (), ("a", "b")], [{1, 2}, set(), {"a"}], [b"ab", b"", b"\xff\x10"], [bytearray(b"abc"), bytearray()],
           [complex(1, 2), complex(-0.0, 3.0)], [range(0, 3), range(5, 0, -1), range(0)]]

def main(argv):
    repeat = int(argv[argv.index("--repeat") + 1]) if "--repeat" in argv else 200
    ex = Executor(basic_fns)
    pairs = [(f, TypedList(b)) for b in BATCHES for f in basic_fns.for_type(type(b[0]))]
    n_apps = sum(len(tl) for _, tl in pairs) * repeat

    def run_executor():
        apply = ex.apply
        for _ in range(repeat):
            for f, tl in pairs:
                try: apply(f, tl)
                except ExecutionError: pass

    def run_plain():
        for _ in range(repeat):
            for f, tl in pairs:
                fn, items = f.fn, tl.items
                try: [fn(x) for x in items]
                except Exception: pass

    best = {}
    for name, fn in (("plain", run_plain), ("executor", run_executor)) * 3:
        t0 = time.perf_counter(); fn(); dt = time.perf_counter() - t0
        best[name] = min(best.get(name, dt), dt)
    figures = {"pairs": len(pairs), "applications": n_apps,
               "executor_apps_per_s": round(n_apps / best["executor"]),
               "plain_loop_apps_per_s": round(n_apps / best["plain"]),
               "ratio_executor_to_plain": round(best["plain"] / best["executor"], 3)}
    report("executor", figures, argv)

if __name__ == "__main__": main(sys.argv[1:])
