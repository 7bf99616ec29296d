"""Fuzz every surface that takes untrusted input, many cases each, and count what broke.

The surfaces are the `tests/fuzz_*.py` modules (one harness: tests/fuzzing.py). For each, hypothesis generates
hostile cases aimed at depth, size, time and type confusion; each case's check calls the real entry point. Counted
per surface: cases, escapes, cross-tool leaks, hangs past the limit (+1 s), exceptions that reached the caller, and
records lost or duplicated; the first examples of each violation are kept. The target is zero of every kind.
Usage: python benchmarks/fuzz.py [--save] [--cases N] [--surfaces a,b]
"""
import sys, time
from pathlib import Path
ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "benchmarks"), str(ROOT / "tests")]
for k, v in {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}.items():
    __import__("os").environ.setdefault(k, v)
from _common import report
import fuzzing

def main(argv):
    n = int(argv[argv.index("--cases") + 1]) if "--cases" in argv else 10_000
    surfaces = fuzzing.load_surfaces()
    names = argv[argv.index("--surfaces") + 1].split(",") if "--surfaces" in argv else sorted(surfaces)
    unknown = [s for s in names if s not in surfaces]
    if unknown: sys.exit(f"fuzz.py: error: unknown surface(s) {', '.join(unknown)}; known: {', '.join(sorted(surfaces))}")
    figures, t0 = {}, time.perf_counter()
    for name in names:
        rep = fuzzing.run_surface(name, n)
        figures[name] = rep.as_dict()
        print(f"{name}: {rep.counts['cases']} cases, {rep.violations()} violations, {rep.seconds:.0f} s", file=sys.stderr)
    total = {k: sum(f[k] for f in figures.values()) for k in ("cases", *fuzzing.KINDS)}
    report("fuzz", {"total": total, "surfaces": figures, "wall_s": round(time.perf_counter() - t0)}, argv,
           notes={"target": "0 of every violation kind over >= 10,000 cases per surface",
                  "limits": {s: surfaces[s].limit_s for s in names}})
    return 1 if any(total[k] for k in fuzzing.KINDS) else 0

if __name__ == "__main__": sys.exit(main(sys.argv[1:]))
