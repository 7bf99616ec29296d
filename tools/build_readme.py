#!/usr/bin/env python3
"""Build README.md from nbs/index.ipynb.

nbdev's own `nbdev-readme` renders through Quarto, which this project's machines do not have, so this does the same
job in Python: run the notebook's code (with nbdev's notebook shell, in nbs/), then write its markdown cells as they
are, code cells as fenced Python, and their outputs (markdown outputs as markdown, text as fenced blocks). Cell
directives are honoured: `#| hide` hides a cell (it still runs), `#| echo: false` shows only its output,
`#| eval: false` shows only its code. With --check, compare with the committed README.md instead of writing it.
"""
import os, re, sys
from pathlib import Path
from fastcore.nbio import read_nb
from execnb.shell import CaptureShell

ROOT = Path(__file__).resolve().parent.parent
DIRECTIVE = re.compile(r"^#\|\s*([\w-]+)\s*:?\s*(.*)$")

def directives(src):
    d, body = {}, []
    for line in src.splitlines():
        m = DIRECTIVE.match(line)
        if m and not body: d[m.group(1)] = m.group(2).strip() or True
        else: body.append(line)
    return d, "\n".join(body).strip("\n")

def render_outputs(outputs):
    parts = []
    for o in outputs:
        if o.get("output_type") == "stream" and o.get("name") == "stdout":
            parts.append("```\n" + "".join(o["text"]).rstrip("\n") + "\n```")
        elif o.get("output_type") in ("execute_result", "display_data"):
            data = o.get("data", {})
            if "text/markdown" in data: parts.append("".join(data["text/markdown"]).strip("\n"))
            elif "text/plain" in data: parts.append("```\n" + "".join(data["text/plain"]).rstrip("\n") + "\n```")
        elif o.get("output_type") == "error":
            sys.exit(f"index.ipynb raised {o.get('ename')}: {o.get('evalue')}")
    return parts

def build() -> str:
    nb = read_nb(ROOT / "nbs" / "index.ipynb")
    shell, out = CaptureShell(), []
    cwd = os.getcwd(); os.chdir(ROOT / "nbs")
    try:
        for cell in nb.cells:
            if cell.cell_type == "markdown":   # images are relative to nbs/ in the notebook, to the root in README.md
                out.append(re.sub(r"\]\((?!https?:|/)([^)]+)\)", lambda m: f"](nbs/{m.group(1)})" if (ROOT / "nbs" / m.group(1)).exists() else m.group(0),
                                  cell.source.strip("\n")))
                continue
            d, body = directives(cell.source)
            if str(d.get("eval", "")).lower() != "false":
                shell.cell(cell)
                if shell.exc: sys.exit(f"index.ipynb: a cell failed: {shell.exc!r}\n{cell.source}")
            if "hide" in d: continue
            if str(d.get("echo", "")).lower() != "false" and body: out.append("```python\n" + body + "\n```")
            out.extend(render_outputs(cell.get("outputs", [])))
    finally: os.chdir(cwd)
    return "<!-- generated from nbs/index.ipynb by tools/build_readme.py: edit the notebook, not this file -->\n\n" + \
           "\n\n".join(p for p in out if p) + "\n"

if __name__ == "__main__":
    text = build()
    if "--check" in sys.argv:
        if (ROOT / "README.md").read_text() != text: sys.exit("README.md is out of date: run `make readme`")
        print("README.md is up to date")
    else:
        (ROOT / "README.md").write_text(text); print("wrote README.md")
