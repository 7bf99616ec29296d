"""The house's shape: every module imports alone, and no two modules import each other, directly or around a loop.

A cycle works until someone imports the 'wrong' module first; so each module is imported first, with no other module
of ours loaded (in a child forked from an interpreter that holds only the third-party libraries), and the package's
import graph (every import between our modules, late ones inside functions too, but not a module's import of its own
parent package) must have no cycle at all.
"""
import ast, subprocess, sys
from pathlib import Path
import pytest

PKG = Path(__file__).resolve().parent.parent / "wandering_light"

def modules() -> dict[str, Path]:
    "Dotted name -> file of every module in the package (private `_modidx` aside)."
    out = {}
    for p in sorted(PKG.rglob("*.py")):
        if p.name == "_modidx.py": continue
        parts = list(p.relative_to(PKG.parent).with_suffix("").parts)
        if parts[-1] == "__init__": parts.pop()
        out[".".join(parts)] = p
    return out

def import_statements(name: str, path: Path) -> list[tuple[str, list[str]]]:
    "Every import in module `name`, inside functions too, as (module, names): `from .x import y` is ('pkg.x', ['y'])."
    pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for n in ast.walk(ast.parse(path.read_text())):
        if isinstance(n, ast.Import): out += [(a.name, []) for a in n.names]
        elif isinstance(n, ast.ImportFrom):
            base = n.module or ""
            if n.level:
                up = pkg.split(".")[: len(pkg.split(".")) - (n.level - 1)]
                base = ".".join(up + ([base] if base else []))
            out.append((base, [a.name for a in n.names]))
    return out

def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    "Our modules that `name` imports anywhere, inside functions too: a late import is still a dependency."
    targets = {t for base, names in import_statements(name, path) for t in (base, *(f"{base}.{x}" for x in names))}
    return {t for t in targets if t in known and t != name}

def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    "A list of modules forming an import cycle, or None."
    state, stack = {}, []
    def visit(m):
        state[m] = 1; stack.append(m)
        for d in sorted(graph[m]):
            if state.get(d) == 1: return stack[stack.index(d):] + [d]
            if d not in state and (c := visit(d)): return c
        state[m] = 2; stack.pop()
    for m in sorted(graph):
        if m not in state and (c := visit(m)): return c

def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None

def test_no_import_cycle():
    mods = modules()
    graph = {m: imports_of(m, p, set(mods)) - {m.rpartition(".")[0]} for m, p in mods.items()}
    assert find_cycle(graph) is None, "import cycle: " + " -> ".join(find_cycle(graph))

def libraries(mods: dict[str, Path]) -> list[str]:
    "The third-party imports of our modules (anywhere in them), as `module` or `module:name`: what a fresh interpreter loads."
    out = set()
    for m, p in mods.items():
        for base, names in import_statements(m, p):
            if base.split(".")[0] not in (*sys.stdlib_module_names, PKG.name): out |= {f"{base}:{x}" for x in names} or {base}
    return sorted(out)

# One fresh interpreter loads those libraries once (torch, transformers, trl: most of a cold import's time; a lazy
# package's names are fetched, so that what they load is loaded too), checks that none of them pulled in our package,
# then forks a child per module that imports it first: the child starts with no module of ours loaded, as a fresh
# interpreter would, without paying for the libraries again.
FORK_EACH = r"""
import importlib, os, sys
for lib in sys.argv[1].split(","):
    mod, _, name = lib.partition(":")
    try: getattr(importlib.import_module(mod), name) if name else importlib.import_module(mod)
    except Exception: pass          # missing (an optional extra) or not a name: the module that needs it fails alone below
ours = sorted(m for m in sys.modules if m.split(".")[0] == sys.argv[3])
if ours: sys.exit(f"the libraries loaded our modules: {ours}")
for m in sys.argv[2].split(","):
    r, w = os.pipe(); pid = os.fork()
    if pid == 0:
        os.close(r); code = 0
        try: importlib.import_module(m)
        except BaseException as e: os.write(w, f"{type(e).__name__}: {e}".encode()[:2000]); code = 1
        os._exit(code)
    os.close(w)
    with os.fdopen(r) as f: err = f.read()
    if os.waitpid(pid, 0)[1]: print(f"FAILED {m}: {err or 'the child died'}", flush=True)
"""

def test_every_module_imports_alone():
    mods = modules()
    r = subprocess.run([sys.executable, "-c", FORK_EACH, ",".join(libraries(mods)), ",".join(mods), PKG.name],
                       capture_output=True, text=True, timeout=600)
    bad = [line for line in r.stdout.splitlines() if line.startswith("FAILED ")]      # libraries may print as they load
    assert r.returncode == 0 and not bad, "modules that fail to import alone:\n" + "\n".join(bad) + r.stderr[-2000:]

def test_a_module_that_cannot_import_alone_is_named(tmp_path):
    "The check above can fail: a module importing a missing name is reported with its error, its neighbours not."
    pkg = tmp_path / "toypkg"; pkg.mkdir()
    (pkg / "__init__.py").write_text(""); (pkg / "good.py").write_text("import json\n")
    (pkg / "bad.py").write_text("from toypkg.good import nothing_here\n")
    r = subprocess.run([sys.executable, "-c", FORK_EACH, "json", "toypkg.good,toypkg.bad", "toypkg"],
                       capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["FAILED toypkg.bad: ImportError: cannot import name 'nothing_here' from 'toypkg.good' "
                                     f"({pkg / 'good.py'})"], r.stdout

# Imports that point down the chapter list, each for a stated reason; anything else must point up (or sideways).
SHIMS = {"wandering_light.llm_utils", "wandering_light.widgets"}     # old paths that re-export the chapters after them
FORWARD_OK = {
    ("wandering_light.agent.loop", "wandering_light.agent.exports"): "re-exported from the old path for one release",
    ("wandering_light.agent.solver", "wandering_light.agent.models"): "a late import: only `model=` agents need it",
}

def chapter(path: Path) -> str | None:
    "The notebook a generated module comes from (its header names it), e.g. '05_solver'."
    import re
    m = re.search(r"File to edit: [./]*nbs/(\S+)\.ipynb", path.read_text()[:800])
    return m.group(1) if m else None

def test_imports_follow_the_chapters():
    "Data flows down the chapter list: a module imports only from chapters before its own (the map in index.ipynb)."
    mods = modules()
    bad = []
    for m, p in mods.items():
        for d in sorted(imports_of(m, p, set(mods)) - {m.rpartition(".")[0]}):
            a, b = chapter(p), chapter(mods[d])
            if a and b and b > a and m not in SHIMS and (m, d) not in FORWARD_OK: bad.append(f"{m} ({a}) imports {d} ({b})")
    assert not bad, "\n".join(bad)
