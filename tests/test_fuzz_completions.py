"""A short run of every completion surface (`fuzz_completions.py`); `benchmarks/fuzz.py` runs 10,000 cases of each."""
import pytest
from fuzzing import run_surface, assert_clean
import fuzz_completions  # registers the surfaces

@pytest.mark.parametrize("name,n", [("completion_pipeline", 300), ("completion_step", 300), ("completion_world", 300),
                                    ("completion_proposal", 300), ("completion_reward", 300)])
def test_surface(name, n): assert_clean(run_surface(name, n))
