"""The dashboard as a person uses it: `wl dashboard` (Voila) started on a free port, driven in Debian's Chromium by
Playwright. Each test works one tab, checks what the page shows against the files it was served from, and saves a
screenshot into the test's run directory (printed at the end; `WL_DOC_IMAGES=1` also copies them into nbs/images/ for
the docs).

Needs /usr/bin/chromium (`apt-get install chromium`; `make test` installs it where it runs as root) and the
`playwright` and `voila` packages; without them the tests are skipped, with the reason shown. Playwright never
downloads a browser here: it is pointed at the installed Chromium.
"""
import importlib.util, json, os, queue, shutil, signal, statistics, subprocess, sys, tempfile, threading
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
CHROMIUM = os.environ.get("WL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]

def _missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM}: install Debian's chromium (`apt-get install -y chromium` as root; `make test` does)"
    for mod in ("playwright", "voila"):
        if importlib.util.find_spec(mod) is None: return f"the {mod} package is not installed (pip install -e '.[dev]')"
    return None

pytestmark = [pytest.mark.browser, pytest.mark.skipif(_missing() is not None, reason=str(_missing()))]

TIMEOUT_MS = 60_000
from conftest import SCREENSHOTS

@pytest.fixture(scope="module")
def run_dir(tmp_path_factory, pytestconfig):
    "The run directory of this test module: the served data and the screenshots (named in pytest's summary)."
    d = tmp_path_factory.mktemp("browser-run")
    (d / "screenshots").mkdir()
    pytestconfig.stash[SCREENSHOTS] = d / "screenshots"
    yield d
    if os.environ.get("WL_DOC_IMAGES"):
        (ROOT / "nbs" / "images").mkdir(exist_ok=True)
        for p in sorted((d / "screenshots").glob("*.png")): shutil.copy(p, ROOT / "nbs" / "images" / p.name)

@pytest.fixture(scope="module")
def runs(run_dir):
    "A runs folder: four real evaluation runs, the sample agent traces and the sample GRPO completion log."
    from wandering_light.evals.run_evaluation import run_evaluation
    root = run_dir / "runs"
    kw = dict(num_samples=40, sample="random", progress=False, plots=False)
    for b in (1, 2, 3): run_evaluation(solver_names=["bfs"], budget=b, run_dir=root / "eval" / f"bfs-b{b}", **kw)
    run_evaluation(solver_names=["bfs", "random"], budget=20, run_dir=root / "eval" / "bfs+random-b20", **kw)
    (root / "agent" / "results").mkdir(parents=True)
    shutil.copy(DATA / "agent_traces_sample.jsonl", root / "agent" / "results" / "traces.jsonl")
    (root / "grpo" / "results").mkdir(parents=True)
    shutil.copy(DATA / "grpo_completions_sample.jsonl", root / "grpo" / "results" / "completions.jsonl")
    return root

@pytest.fixture(scope="module")
def server(runs):
    "`wl dashboard --runs RUNS --port PORT`, a real subprocess; yields the page's address."
    from wandering_light.procs import free_port
    port = free_port()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(x for x in (str(ROOT), os.environ.get("PYTHONPATH")) if x)}
    proc = subprocess.Popen([sys.executable, "-c", "from wandering_light.cli import entry; entry()", "dashboard",
                             "--runs", runs.name, "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, cwd=runs.parent)
    lines, log = queue.Queue(), []
    threading.Thread(target=lambda: [lines.put(l) for l in proc.stdout], daemon=True).start()
    threading.Thread(target=lambda: [log.append(l) for l in proc.stderr], daemon=True).start()
    try: first = lines.get(timeout=120)
    except queue.Empty: first = ""
    url = f"http://127.0.0.1:{port}/"
    if not first.startswith(f"wl dashboard: serving {url}"):
        proc.kill(); pytest.fail(f"wl dashboard did not start: {first!r}\n{''.join(log)[-3000:]}")
    yield url
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(30) == 0, "".join(log)[-3000:]

@pytest.fixture(scope="module")
def page(server, run_dir):
    "Chromium (Debian's, headless, a fresh profile) showing the dashboard."
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as profile:
        ctx = pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
                                                    viewport={"width": 1280, "height": 900})
        pg = ctx.new_page()
        pg.set_default_timeout(TIMEOUT_MS)
        pg.goto(server, timeout=TIMEOUT_MS)
        ready = ".wl-dashboard .wl-run-dashboard .wl-runs-table table"
        pg.wait_for_function(f"() => document.querySelector({ready!r}) || document.body.innerText.includes('Traceback')",
                             timeout=120_000)
        if not pg.query_selector(ready): pytest.fail(f"the dashboard failed in the page:\n{pg.inner_text('body')[-3000:]}")
        yield pg
        ctx.close()

def tab(page, name):
    page.locator(".wl-tabs .lm-TabBar-tab", has_text=name).click()

def shot(page, run_dir, name):
    "Screenshot the whole dashboard (Voila scrolls inside the page, so grow the window to the content first)."
    page.evaluate("() => document.querySelectorAll('*').forEach(e => { if (e.scrollTop) e.scrollTop = 0; })")
    h = page.locator(".wl-dashboard").evaluate("e => e.getBoundingClientRect().top + e.scrollHeight")
    page.set_viewport_size({"width": 1280, "height": int(min(max(h + 24, 900), 8000))})
    page.wait_for_timeout(400)                  # let images and layout settle
    page.screenshot(path=str(run_dir / "screenshots" / f"dashboard_{name}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})

def table_rows(page, selector) -> list[list[str]]:
    "The cell texts of the first table under `selector` (header row first), once the table is there."
    page.locator(selector).first.locator("table").first.wait_for()
    return page.locator(selector).first.evaluate(
        "el => Array.from(el.querySelector('table').rows).map(r => Array.from(r.cells).map(c => c.innerText.trim()))")

def options(select) -> list[str]:
    "The option labels of an ipywidgets <select> (its option values; the shown text has non-breaking spaces)."
    return select.evaluate("s => Array.from(s.options).map(o => o.value)")

def results(runs, run, solver):
    return [json.loads(l) for l in (runs / run / "results" / f"{solver}.jsonl").read_text().splitlines() if l.strip()]

def test_runs(page, runs, run_dir):
    from playwright.sync_api import expect
    tab(page, "Runs")
    rows = table_rows(page, ".wl-runs-table")
    assert rows[0][:4] == ["started", "run", "eval set", "solver"]
    assert sorted((r[1], r[3]) for r in rows[1:]) == [("eval/bfs+random-b20", "bfs"), ("eval/bfs+random-b20", "random"),
                                                      ("eval/bfs-b1", "bfs"), ("eval/bfs-b2", "bfs"), ("eval/bfs-b3", "bfs")]
    for r in rows[1:]:                                     # solved / tasks as in each results file
        lines = results(runs, r[1], r[3])
        assert (int(r[5]), int(r[6])) == (sum(x["success"] for x in lines), len(lines)), r
    expect(page.locator(".wl-runs-plot")).to_be_visible()
    page.locator(".wl-filter-solvers select").select_option(["random"])
    expect(page.locator(".wl-runs-table")).not_to_contain_text("eval/bfs-b1")
    assert [(r[1], r[3]) for r in table_rows(page, ".wl-runs-table")[1:]] == [("eval/bfs+random-b20", "random")]
    page.locator(".wl-filter-solvers select").select_option(["bfs", "random"])
    expect(page.locator(".wl-runs-table")).to_contain_text("eval/bfs-b1")
    # pick a run: its figures are those of its results files
    sel = page.locator(".wl-run-select select")
    label = next(o for o in options(sel) if o.startswith("eval/bfs-b2 "))
    sel.select_option(value=label)
    expect(page.locator(".wl-run-detail")).to_contain_text("eval/bfs-b2")
    lines = results(runs, "eval/bfs-b2", "bfs")
    solved = sum(x["success"] for x in lines)
    detail = table_rows(page, ".wl-run-detail")
    assert detail[1][:2] == ["bfs", f"{solved}/{len(lines)}"], detail
    by_d = {}
    for x in lines: by_d.setdefault(str(x["certified_length"]), []).append(x["success"])
    dist = page.locator(".wl-run-detail table").nth(1).evaluate(
        "t => Array.from(t.rows).map(r => Array.from(r.cells).map(c => c.innerText.trim()))")
    assert dict(zip(dist[0][1:], dist[1][1:])) == {d: f"{sum(v)}/{len(v)}" for d, v in by_d.items()}, dist
    page.locator(".wl-result-filter button", has_text="failures").click()
    expect(page.locator(".wl-run-results")).to_contain_text(f"{len(lines) - solved} of {len(lines) - solved} failures shown")
    shot(page, run_dir, "runs")

def test_tasks(page, run_dir):
    from playwright.sync_api import expect
    from wandering_light.tasks import DEFAULT_EVAL_SET, read_tasks
    tasks = read_tasks(DEFAULT_EVAL_SET)
    tab(page, "Tasks")
    ex = page.locator(".wl-task-explorer")
    dist = ex.locator(".widget-dropdown", has_text="distance").locator("select")
    dist.select_option(value=next(o for o in options(dist) if o.startswith("2 ")))
    n2 = sum(t.distance == 2 for t in tasks)
    expect(page.locator(".wl-task-count")).to_have_text(f"{n2} of {len(tasks)} tasks")
    first = next(t for t in tasks if t.distance == 2)
    expect(page.locator(".wl-task")).to_contain_text(repr(first.output)[:30])
    page.locator(".wl-pipeline input").fill(first.pipeline)
    page.locator(".wl-pipeline input").press("Enter")
    expect(page.locator(".wl-pipeline-result")).to_contain_text("reaches the output")
    assert table_rows(page, ".wl-pipeline-result")[-1][2] == repr(first.output)
    page.locator(".wl-solve").click()
    expect(page.locator(".wl-solve-result")).to_contain_text("step 2 of 2")
    expect(page.locator(".wl-solve-result")).to_contain_text("solved:")
    page.locator(".wl-step-prev").click()
    expect(page.locator(".wl-solve-result")).to_contain_text("step 1 of 2")
    shot(page, run_dir, "tasks")

def test_traces(page, run_dir):
    from playwright.sync_api import expect
    from wandering_light.widgets.traces import render_block
    trace = json.loads((DATA / "agent_traces_sample.jsonl").read_text().splitlines()[0])
    blocks = trace["blocks"]
    tab(page, "Traces")
    pos, block = page.locator(".wl-position"), page.locator(".wl-block")
    expect(pos).to_contain_text(f"block 0 of {len(blocks) - 1}")
    expect(page.locator(".wl-prev")).to_be_disabled()
    for k in range(1, 6):
        page.locator(".wl-next").click()
        expect(pos).to_contain_text(f"block {k} of {len(blocks) - 1} · {blocks[k]['type']}")
    assert block.inner_text().strip() == render_block(blocks[5]).strip()
    cands = table_rows(page, ".wl-candidates")
    assert [r[2] for r in cands[1:]] == [f"{c['score']:.3f}" for c in blocks[5]["candidates"]], cands
    page.locator(".wl-prev").click()
    expect(pos).to_contain_text(f"block 4 of {len(blocks) - 1} · {blocks[4]['type']}")
    page.locator(".wl-next-error").click()
    err = next(i for i, b in enumerate(blocks) if b["type"] == "error")
    expect(pos).to_contain_text(f"block {err} of {len(blocks) - 1} · error")
    expect(page.locator(".wl-expectation")).to_contain_text(blocks[err]["outcome"]["message"])
    assert block.inner_text().strip() == render_block(blocks[err]).strip()
    page.locator(".wl-next").click(); page.locator(".wl-next").click()      # debug, then the retried action
    expect(pos).to_contain_text(f"block {err + 2} of {len(blocks) - 1} · action")
    end = next(b for b in blocks[err + 2:] if b["type"] == "outcome")["outcome"]
    rows = dict((r[0], r[1]) for r in table_rows(page, ".wl-expectation")[1:])
    assert rows["expectation held"] == "yes" and rows["solved"] == "yes", rows
    for q, a in end["evaluations"].items(): assert rows[q] == a
    # the backtracking trace: its first action was chosen from several candidates, scored and rewarded
    second = json.loads((DATA / "agent_traces_sample.jsonl").read_text().splitlines()[1])
    sel = page.locator(".wl-trace-select select")
    sel.select_option(value=next(o for o in options(sel) if o.startswith("1: ")))
    first_action = next(i for i, b in enumerate(second["blocks"]) if b["type"] == "action")
    expect(pos).to_contain_text(f"block 0 of {len(second['blocks']) - 1}")
    for _ in range(first_action): page.locator(".wl-next").click()
    expect(pos).to_contain_text(f"block {first_action} of {len(second['blocks']) - 1} · action")
    cands = table_rows(page, ".wl-candidates")
    want = second["blocks"][first_action]["candidates"]
    assert len(want) > 1 and [(r[1], r[-3]) for r in cands[1:]] == [("✓" if c["chosen"] else "", f"{c['reward']:.3f}") for c in want], cands
    shot(page, run_dir, "traces")

def test_rewards(page, run_dir):
    from playwright.sync_api import expect
    log = [json.loads(l) for l in (DATA / "grpo_completions_sample.jsonl").read_text().splitlines()]
    tab(page, "Rewards")
    expect(page.locator(".wl-grpo-step-summary")).to_contain_text("step 0:")
    page.locator(".wl-grpo-next").click()
    step1 = [d for d in log if d["step"] == 1]
    expect(page.locator(".wl-grpo-step-summary")).to_contain_text(
        f"step 1: 3 groups, 12 completions; mean reward {statistics.fmean(d['reward'] for d in step1):.3f}")
    group = [d for d in step1 if d["group"] == 0]
    expect(page.locator(".wl-grpo-group-view")).to_contain_text("step 1, group 0")
    rows = page.locator(".wl-grpo-group-view table").last.evaluate(
        "t => Array.from(t.rows).map(r => Array.from(r.cells).map(c => c.innerText.trim()))")
    assert [r[-2] for r in rows[1:]] == [f"{d['reward']:.3f}" for d in group], rows
    assert [r[-1] for r in rows[1:]] == ["yes" if d["correct"] else "no" for d in group], rows
    expect(page.locator(".wl-grpo-group-view")).to_contain_text(             # the spread the trainer logged
        f"mean reward {group[0]['group_mean']:.3f}, spread (std) {group[0]['group_std']:.3f}")
    shot(page, run_dir, "rewards")
