#!/usr/bin/env python3
"""Fail if `nbdev-export` or `nbdev-clean` would change any file.

Works on a scratch copy of the project (tracked and untracked-but-not-ignored files), so the working tree is never
touched; prints the files that would change and exits 1.
"""
import filecmp, os, shutil, subprocess, sys, tempfile
from pathlib import Path

root = Path(__file__).resolve().parent.parent
bindir = Path(sys.executable).parent

def project_files():
    try:
        out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=root, check=True,
                             capture_output=True).stdout.decode()
        return [f for f in out.split("\0") if f and (root / f).is_file()]
    except (OSError, subprocess.CalledProcessError):   # not a git checkout: the parts nbdev reads and writes
        return [str(p.relative_to(root)) for d in ("nbs", "wandering_light") for p in (root / d).rglob("*")
                if p.is_file() and "__pycache__" not in p.parts] + ["pyproject.toml"]

def main():
    files = project_files()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for f in files:
            (tmp / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(root / f, tmp / f)
        env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}
        env.pop("IN_TEST", None)
        for cmd in (["nbdev-export"], ["nbdev-clean"]):
            r = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True)
            if r.returncode: sys.exit(f"{cmd[0]} failed:\n{r.stdout}{r.stderr}")
        changed = []
        for p in sorted(tmp.rglob("*")):
            if not p.is_file() or "__pycache__" in p.parts: continue
            rel = p.relative_to(tmp)
            if rel.parts[0] not in ("nbs", "wandering_light"): continue
            orig = root / rel
            if not orig.exists() or not filecmp.cmp(p, orig, shallow=False): changed.append(str(rel))
        for f in files:
            if f.startswith(("nbs/", "wandering_light/")) and not (tmp / f).exists(): changed.append(f + " (removed)")
    if changed:
        print("nbdev-export / nbdev-clean would change these files (run `nbdev-clean && nbdev-export` and commit):")
        for c in changed: print("  " + c)
        sys.exit(1)
    print(f"notebooks are clean and the package is exported ({len(files)} files checked)")

if __name__ == "__main__": main()
