"""Short fuzz runs of the DSL surfaces (tests/fuzz_dsl.py): hostile tool code, one tool against the next, task files.
`benchmarks/fuzz.py` runs 10,000 cases of each."""
import pytest
from fuzzing import run_surface, assert_clean
import fuzz_dsl  # registers the surfaces

@pytest.mark.parametrize("name,n", [("code_text", 150), ("cross_tool", 60), ("task_files", 150), ("executor_run", 200)])
def test_surface(name, n):
    assert_clean(run_surface(name, n))
