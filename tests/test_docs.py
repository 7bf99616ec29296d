"""The docs build: README.md is what nbs/index.ipynb generates, and nbdev's notebook processing runs clean."""
import os, shutil, subprocess, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

def test_readme_is_fresh():
    r = subprocess.run([sys.executable, "tools/build_readme.py", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr

# What `nbdev-proc-nbs` does, minus its attempt to download and install Quarto (which the docs workflow installs). nbdev
# reads pyproject.toml again for every cell it processes (about 6,000 parses, 17 of this test's 75 s when profiled):
# here each parse is kept for as long as the file is unchanged. The process ends without Python's exit handlers: IPython
# would reset each of the 66 notebook shells it ran the docs' cells in, each with a full garbage collection (104 s of CPU
# with them, 34 s without, measured one after the other with other work running).
PROC = """
import copy, functools, os, tomllib
from pathlib import Path
import nbdev.config as C
_parsed = functools.lru_cache(maxsize=None)(lambda p, mtime: tomllib.loads(Path(p).read_text(encoding="utf-8")))
C._load_toml = lambda p: copy.deepcopy(_parsed(str(Path(p).resolve()), Path(p).stat().st_mtime_ns))
from nbdev.config import get_config
from nbdev.quarto import refresh_quarto_yml, nbdev_sidebar, proc_nbs
cfg = get_config(); os.chdir(cfg.config_path)
refresh_quarto_yml(); nbdev_sidebar.__wrapped__(path=cfg.nbs_path)
proc_nbs(cfg.nbs_path, n_workers=0)
import sys; sys.stdout.flush(); sys.stderr.flush(); os._exit(0)
"""

def test_proc_nbs_runs_clean():
    with tempfile.TemporaryDirectory() as tmp:
        for d in ("nbs", "wandering_light", "benchmarks", "tests"):
            shutil.copytree(ROOT / d, Path(tmp) / d, ignore=shutil.ignore_patterns("__pycache__", "_proc"))
        shutil.copy(ROOT / "pyproject.toml", tmp)
        r = subprocess.run([sys.executable, "-c", PROC], cwd=tmp, capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": tmp})
        out = r.stdout + r.stderr
        assert r.returncode == 0, out
        assert "Found cells containing imports and other code" not in out, out
        assert "Error" not in out, out
        assert (Path(tmp) / "_proc" / "index.ipynb").exists()
