"""Property-based fuzz tests (hypothesis) of the DSL layer: JSON round trips, the executor's no-raise promise, search."""
import json, math
from hypothesis import given, settings, strategies as st, HealthCheck
from wandering_light.typed_list import TypedList, to_json_value, from_json_value, value_key
from wandering_light.common_functions import basic_fns
from wandering_light.executor import Executor, ExecResult
from wandering_light.solver import bfs

scalars = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8),
                    st.booleans(), st.none(), st.binary(max_size=6),
                    st.builds(complex, st.floats(allow_nan=False), st.floats(allow_nan=False)),
                    st.builds(range, st.integers(-5, 5), st.integers(-5, 5), st.sampled_from([1, 2, -1])))
hashables = st.one_of(st.integers(-100, 100), st.text(max_size=4), st.booleans(), st.none())
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.lists(inner, max_size=4).map(tuple),
    st.dictionaries(st.text(max_size=4), inner, max_size=3), st.dictionaries(hashables, inner, max_size=3),
    st.sets(hashables, max_size=4), st.frozensets(hashables, max_size=3),
    st.binary(max_size=4).map(bytearray)), max_leaves=12)

@settings(max_examples=300, deadline=None)
@given(values)
def test_json_round_trip(v):
    back = from_json_value(json.loads(json.dumps(to_json_value(v))))
    assert type(back) is type(v)
    assert value_key(back, True, True) == value_key(v, True, True)

@settings(max_examples=150, deadline=None)
@given(st.lists(values, min_size=1, max_size=4))
def test_typed_list_text_round_trip(items):
    t = type(items[0])
    items = [x for x in items if type(x) is t]
    tl = TypedList(items, t)
    assert TypedList.from_str(tl.to_string()) == tl

TYPED_BATCHES = st.one_of(
    st.lists(st.integers(-50, 50), min_size=1, max_size=4), st.lists(st.text(max_size=6), min_size=1, max_size=4),
    st.lists(st.floats(-1e3, 1e3), min_size=1, max_size=4),
    st.lists(st.lists(st.integers(-9, 9), max_size=3), min_size=1, max_size=4),
    st.lists(st.dictionaries(st.text(max_size=2), st.integers(-5, 5), max_size=3), min_size=1, max_size=3))
NAMES = basic_fns.names

@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TYPED_BATCHES, st.lists(st.sampled_from(NAMES), max_size=5))
def test_executor_never_raises(items, names):
    r = Executor().run(names, items)
    assert isinstance(r, ExecResult)
    if r.success: assert len(r.states) == len(names) + 1
    else: assert r.error and r.error_kind

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TYPED_BATCHES)
def test_bfs_paths_replay(items):
    e = bfs(items, 2)
    ex = Executor()
    for i in range(1, min(e.num_states, 40)):
        r = ex.run(e.path(i), e.state(0))
        assert r.success and r.output.search_key(strict=True) == e.state(i).search_key(strict=True)
