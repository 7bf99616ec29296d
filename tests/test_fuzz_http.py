"""A short run of the `http` fuzz surface (tests/fuzz_http.py): hostile requests to `wl serve`, in process and over sockets."""
import fuzzing
import fuzz_http   # registers the surface; its server process is stopped below

def test_fuzz_http():
    try: fuzzing.assert_clean(fuzzing.run_surface("http", 300))
    finally: fuzz_http.close()
