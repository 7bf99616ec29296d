"""Shared pytest setup: offline model hubs, and the --slow switch."""
import os
import pytest

for k, v in {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "WANDB_MODE": "offline",
             "TOKENIZERS_PARALLELISM": "false", "WANDB_SILENT": "true"}.items():
    os.environ.setdefault(k, v)

SCREENSHOTS = pytest.StashKey()            # where tests/test_browser.py saved its screenshots

def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if SCREENSHOTS in config.stash:
        terminalreporter.write_line(f"browser test screenshots: {config.stash[SCREENSHOTS]}")

def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", default=False,
                     help="also run notebook cells marked `#| slow` and tests marked slow")

def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"): return
    skip = pytest.mark.skip(reason="slow: run with --slow")
    for item in items:
        if "slow" in item.keywords: item.add_marker(skip)
