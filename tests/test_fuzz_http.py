"""A short run of the `http` fuzz surface (tests/fuzz_http.py): hostile requests to `wl serve`, in process and over sockets."""
import fuzzing
import fuzz_http  # noqa: F401  (registers the surface)

def test_fuzz_http():
    fuzzing.assert_clean(fuzzing.run_surface("http", 300))
