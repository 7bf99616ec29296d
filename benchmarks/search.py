"""Exhaustive breadth-first expansion from five fixed roots with the 118-tool library.

Semantics (as the upstream project's state-graph expansion): every type-compatible tool is applied to every state,
a failed application is an absent edge, a self-loop is skipped, and a state is counted once (new states, the root
excluded). Figures:
- new states per root at depths 4 and 5, with the exact search key (the default) and with the upstream key that
  ignores dict order (`dict_order=False`); the upstream published counts are checked against the latter;
- time, states/s and transitions/s of the search;
- speed-ups over two baselines: the upstream implementation's published timings (3.0 s to depth 4, 20.4 s to depth 5,
  on a machine like ours; not re-measured here) and a straightforward implementation of the same semantics on our
  executor, measured in this run (`naive_bfs` below: one `Executor.apply` per transition, dedup on `search_key`);
- the ratio of search transitions/s to a plain loop that applies the same tools to the same values (replaying every
  transition of the search, calling each tool on each value directly);
- peak resident memory of a process that runs the depth-5 and the depth-6 expansion.
Usage: python benchmarks/search.py [--save] [--no-depth6]
"""
import json, subprocess, sys, time
sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
from _common import report
from wandering_light.typed_list import TypedList
from wandering_light.common_functions import basic_fns
from wandering_light.executor import Executor, ExecutionError
from wandering_light.solver import SearchSpace, bfs

ROOTS = [[3, -1, 4], ["ab", "Hello", ""], [[3, 1, 2], [], [5]], [2.5, -0.5, 1.0], [{"a": 1}, {}, {"b": 2, "c": 3}]]
UPSTREAM = {4: {"counts": [3883, 3160, 2449, 6589, 949], "seconds": 3.0},
            5: {"counts": [21835, 17331, 14103, 40858, 5068], "seconds": 20.4}}

def naive_bfs(root, max_depth, ex):
    "The same semantics without interning or memoisation: apply each tool to each state's whole list."
    root = TypedList(root)
    seen, layer, new = {root.search_key()}, [root], 0
    for _ in range(max_depth):
        nxt = []
        for s in layer:
            k0 = s.search_key()
            for f in ex.functions.for_type(s.item_type):
                try: r = ex.apply(f, s)
                except ExecutionError: continue
                k = r.search_key()
                if k == k0 or k in seen: continue
                seen.add(k); nxt.append(r); new += 1
        layer = nxt
    return new

def run(depth, dict_order=True):
    t0 = time.perf_counter()
    exps = [bfs(r, depth, SearchSpace(basic_fns), dict_order=dict_order) for r in ROOTS]
    return exps, time.perf_counter() - t0

def plain_replay(exps):
    "Time a plain loop making every application the searches made: each tool on each value of each expanded state."
    work = []
    for e in exps:
        sp = e.space
        for i, (t, vids) in enumerate(e.keys):
            if e.depth[i] < e.max_depth:
                vals = [sp.values[v] for v in vids]
                work.extend((f.fn, vals) for f in basic_fns.for_type(t))
    t0 = time.perf_counter()
    for fn, vals in work:
        try: [fn(x) for x in vals]
        except Exception: pass
    return len(work), time.perf_counter() - t0

# peak resident set of the process itself (VmHWM; ru_maxrss would include the parent's peak from before exec)
_HWM = "int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM')).split()[1]) / 1024"

def child_peak(depth):
    "Run the expansion of all roots to `depth` in a fresh process; its time and peak memory (and the idle baseline)."
    code = (f"import time, json\nfrom wandering_light.solver import bfs, SearchSpace\nROOTS = {ROOTS!r}\n"
            f"t0 = time.perf_counter(); n = sum(bfs(r, {depth}, SearchSpace()).new_states for r in ROOTS)\n"
            f"print(json.dumps({{'states': n, 'seconds': round(time.perf_counter() - t0, 2), 'peak_rss_mb': round({_HWM}, 1)}}))")
    base = f"import json\nimport wandering_light.solver\nprint(json.dumps({{'peak_rss_mb': round({_HWM}, 1)}}))"
    out = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    out["baseline_rss_mb"] = json.loads(subprocess.run([sys.executable, "-c", base], capture_output=True, text=True,
                                                       check=True).stdout)["peak_rss_mb"]
    return out

def main(argv):
    figures, ex = {}, Executor(basic_fns)
    for depth in (4, 5):
        best = None
        for _ in range(3):
            exps, dt = run(depth)
            if best is None or dt < best[1]: best = (exps, dt)
        exps, dt = best
        counts = [e.new_states for e in exps]
        loose, _ = run(depth, dict_order=False)
        loose_counts = [e.new_states for e in loose]
        trans = sum(e.transitions for e in exps)
        t0 = time.perf_counter(); naive = [naive_bfs(r, depth, ex) for r in ROOTS]; naive_dt = time.perf_counter() - t0
        figures[f"depth{depth}"] = {
            "new_states": counts, "total_new_states": sum(counts),
            "new_states_upstream_key": loose_counts,
            "upstream_counts_reproduced": loose_counts == UPSTREAM[depth]["counts"],
            "exact_key_equals_upstream_key": counts == loose_counts,
            "seconds": round(dt, 3), "states_per_s": round(sum(counts) / dt), "transitions": trans,
            "transitions_per_s": round(trans / dt),
            "speedup_vs_upstream_published": round(UPSTREAM[depth]["seconds"] / dt, 1),
            "naive_seconds": round(naive_dt, 3), "naive_counts_agree": naive == loose_counts,
            "speedup_vs_naive_same_run": round(naive_dt / dt, 1)}
        if depth == 5:
            n_plain, plain_dt = plain_replay(exps)
            assert n_plain == trans, (n_plain, trans)
            figures["depth5"]["plain_loop_transitions_per_s"] = round(n_plain / plain_dt)
            figures["depth5"]["ratio_search_to_plain_loop"] = round((trans / dt) / (n_plain / plain_dt), 3)
    figures["memory_depth5"] = child_peak(5)
    if "--no-depth6" not in argv: figures["memory_depth6"] = child_peak(6)
    report("search", figures, argv)

if __name__ == "__main__": main(sys.argv[1:])
