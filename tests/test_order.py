"""The suite's order for two xdist workers (conftest.longest_first): the longest tests lead both halves, in turn."""
from types import SimpleNamespace as NS
from conftest import longest_first

def test_longest_tests_lead_both_halves_and_a_whole_module_stays_in_one():
    ids = ([f"tests/test_a.py::t{i}" for i in range(4)] + [f"tests/test_browser.py::b{i}" for i in range(3)] +
           ["tests/test_y.py::y", "tests/test_z.py::z"])
    longest = ["tests/test_z.py::z", "tests/test_a.py::t3", "tests/test_a.py::t0"]
    got = [it.nodeid for it in longest_first([NS(nodeid=n) for n in ids], longest, ("tests/test_browser.py",))]
    assert sorted(got) == sorted(ids)                                         # nothing lost, nothing doubled
    # 9 tests: the first half (5) would end inside test_browser, so it takes all of that module
    assert got == ["tests/test_z.py::z", "tests/test_a.py::t0", "tests/test_a.py::t1", "tests/test_a.py::t2",
                   "tests/test_browser.py::b0", "tests/test_browser.py::b1", "tests/test_browser.py::b2",
                   "tests/test_a.py::t3", "tests/test_y.py::y"], got
    cut = [it.nodeid for it in longest_first([NS(nodeid=n) for n in ids], longest, ())]   # no whole module: cut at 5
    assert cut[5:] == ["tests/test_a.py::t3", "tests/test_browser.py::b1", "tests/test_browser.py::b2", "tests/test_y.py::y"], cut
