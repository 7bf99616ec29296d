"""The `wl` command as a user runs it: a real subprocess, exit statuses, one-line errors."""
import subprocess, sys
from pathlib import Path

WL = [sys.executable, "-c", "from wandering_light.cli import entry; entry()"]

def wl(*args, timeout=120):
    return subprocess.run([*WL, *args], capture_output=True, text=True, timeout=timeout)

def test_help_lists_commands():
    r = wl("--help")
    assert r.returncode == 0 and "quickstart" in r.stdout

def test_unknown_command_is_one_line():
    r = wl("frobnicate")
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == ["wl: error: unknown command 'frobnicate'; run `wl --help` for the list"]

def test_quickstart_smoke_runs(tmp_path):
    "The main job end to end at toy size, as a user runs it: data, SFT, GRPO, evaluation, report."
    r = wl("quickstart", "--smoke", "--run-dir", str(tmp_path / "qs"), "--quiet", timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "upstream480/bfs" in r.stdout and "report:" in r.stdout
    report = (tmp_path / "qs" / "report.md").read_text()
    assert "## SFT" in report and "## GRPO" in report and "### upstream480" in report

def test_bad_argument_exits_nonzero_without_traceback():
    r = wl("quickstart", "--threads", "-1")
    assert r.returncode == 2 and "Traceback" not in r.stderr and "--threads must be 0 or more" in r.stderr

def test_closed_pipe_is_quiet():
    p = subprocess.Popen([*WL, "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()          # the reader goes away at once, like `wl --help | head -0`
    err = p.stderr.read().decode(); p.wait(timeout=60)
    assert "Traceback" not in err, err
