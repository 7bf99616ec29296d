"""A short run of the agent's fuzz surfaces (`fuzz_agent.py`): model-written action blocks, expectation text, raw
completions through the agent loop, and trace records read back. `benchmarks/fuzz.py` runs 10,000 cases of each."""
from fuzzing import run_surface, assert_clean
import fuzz_agent  # noqa: F401  (registers the surfaces)

def test_action_blocks(): assert_clean(run_surface("action_blocks", 300))

def test_expectations(): assert_clean(run_surface("expectations", 300))

def test_agent_completions(): assert_clean(run_surface("agent_completions", 200))

def test_agent_traces(): assert_clean(run_surface("agent_traces", 300))
