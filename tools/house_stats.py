#!/usr/bin/env python3
"""Measure how the house reads: exported-cell sizes in the notebooks and function sizes, docstrings and hand-written
argparse calls in the package. Prints one JSON object (`--by-cell` also lists the largest cells).

    python tools/house_stats.py            # the figures
    python tools/house_stats.py --by-cell  # and the 20 largest exported cells
"""
import ast, json, re, statistics, sys
from pathlib import Path

root = Path(__file__).resolve().parent.parent
EXPORT = re.compile(r"^#\|\s*export(s|i)?\b")

def exported_cells():
    "Yield (notebook, index, line count) of every exported code cell; the `#|` directive lines are not counted."
    for nb in sorted((root / "nbs").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts: continue
        for i, c in enumerate(json.loads(nb.read_text())["cells"]):
            src = "".join(c["source"]).splitlines() if c["cell_type"] == "code" else []
            if any(EXPORT.match(l) for l in src):
                n = sum(1 for l in src if not l.startswith("#|"))
                yield str(nb.relative_to(root / "nbs")), i, n

def package_defs():
    "Yield (module, name, kind, lines, has docstring, public) of every function and class in the package, methods too."
    for py in sorted((root / "wandering_light").rglob("*.py")):
        if py.name == "_modidx.py": continue
        tree = ast.parse(py.read_text())
        mod = str(py.relative_to(root))
        def walk(node, prefix, public):
            for n in ast.iter_child_nodes(node):
                if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    name = prefix + n.name
                    pub = public and not n.name.startswith("_")
                    if any(getattr(getattr(d, "func", d), "id", None) == "tool" for d in getattr(n, "decorator_list", [])):
                        kind = "tool"   # a library tool: its name and types document it, and its docstring would
                        yield mod, name, kind, n.end_lineno - n.lineno + 1, True, pub   # change the basis digest
                        continue
                    kind = "class" if isinstance(n, ast.ClassDef) else "function"
                    yield mod, name, kind, n.end_lineno - n.lineno + 1, ast.get_docstring(n) is not None, pub
                    if isinstance(n, ast.ClassDef): yield from walk(n, name + ".", pub)
        yield from walk(tree, "", True)

def main():
    cells = list(exported_cells())
    sizes = [n for *_, n in cells]
    defs = list(package_defs())
    src = {p: p.read_text() for p in (root / "wandering_light").rglob("*.py") if p.name != "_modidx.py"}
    out = {
        "exported_cells": len(cells),
        "median_cell_lines": statistics.median(sizes) if sizes else 0,
        "cells_over_60": sum(n > 60 for n in sizes), "cells_over_80": sum(n > 80 for n in sizes),
        "cells_over_100": sum(n > 100 for n in sizes), "largest_cell": max(sizes, default=0),
        "functions_over_60_lines": sum(1 for m, name, k, n, doc, pub in defs if k == "function" and n > 60),
        "classes_over_100_lines": sum(1 for m, name, k, n, doc, pub in defs if k == "class" and n > 100),
        "public_definitions": sum(1 for d in defs if d[-1]),
        "public_without_docstring": sum(1 for m, name, k, n, doc, pub in defs if pub and not doc),
        "add_argument_calls": sum(s.count(".add_argument(") for s in src.values()),
        "script_bootstraps": sum("__package__ = " in s for s in src.values()),
        "package_lines": sum(s.count("\n") for s in src.values()),
    }
    print(json.dumps(out, indent=1))
    if "--by-cell" in sys.argv:
        for nb, i, n in sorted(cells, key=lambda c: -c[2])[:20]: print(f"{n:5d}  {nb} cell {i}")
    if "--long" in sys.argv:
        for m, name, k, n, doc, pub in sorted(defs, key=lambda d: -d[3]):
            if n > 60: print(f"{n:5d}  {k:8} {m}:{name}")
    if "--nodoc" in sys.argv:
        for m, name, k, n, doc, pub in defs:
            if pub and not doc: print(f"  {m}:{name}")

if __name__ == "__main__": main()
