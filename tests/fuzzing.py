"""One harness for every fuzzed surface: a hypothesis strategy of hostile cases and a check that says what went wrong.

A surface is registered with `@surface(name, strategy, limit_s)`; its check takes one case and returns normally when
the code under test behaved (an error *value* or a clean one-line error is behaving), or raises `Violation(kind, msg)`:

- `escape`: untrusted code or a model's text reached something it must not (files, imports, dunders, the network);
- `leak`: one tool or request saw what another did;
- `hang`: the call ran past its limit (the harness also measures this itself: limit_s + 1 s at most);
- `exception`: an exception reached the caller (the harness counts any exception other than `Violation` as this);
- `lost`: a record was lost, duplicated or half-written.

`run_surface(name, n)` runs n cases and returns counts; tests run a few hundred per surface and assert every count but
`cases` is zero; `benchmarks/fuzz.py` runs 10,000 per surface and writes `benchmarks/results/fuzz.json`.
"""
from __future__ import annotations
import importlib, pkgutil, signal, time, traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from hypothesis import given, settings, HealthCheck, Phase

KINDS = ("escape", "leak", "hang", "exception", "lost")

class Violation(Exception):
    "A broken promise found by a fuzzer; `kind` is one of `KINDS`."
    def __init__(self, kind: str, message: str):
        assert kind in KINDS, kind
        super().__init__(f"{kind}: {message}"); self.kind = kind

class _Alarm(BaseException): pass

@dataclass
class Surface:
    name: str
    strategy: object
    check: object
    limit_s: float

SURFACES: dict[str, Surface] = {}

def surface(name: str, strategy, limit_s: float = 10.0):
    "Register `check(case)` as the fuzzer of surface `name`, fed by the hypothesis `strategy`."
    def deco(check):
        SURFACES[name] = Surface(name, strategy, check, limit_s); return check
    return deco

def load_surfaces() -> dict[str, Surface]:
    "Import every `tests/fuzz_*.py` module, which registers its surfaces."
    here = Path(__file__).parent
    for m in sorted(here.glob("fuzz_*.py")): importlib.import_module(m.stem)
    return SURFACES

@dataclass
class Report:
    name: str
    counts: Counter = field(default_factory=Counter)
    examples: list = field(default_factory=list)
    seconds: float = 0.0
    def violations(self) -> int: return sum(self.counts[k] for k in KINDS)
    def as_dict(self) -> dict:
        return {"cases": self.counts["cases"], **{k: self.counts[k] for k in KINDS},
                "seconds": round(self.seconds, 1), "examples": self.examples[:5]}

def _short(case) -> str:
    "A short repr that cannot fail (a huge int's repr raises ValueError)."
    try: return repr(case)[:400]
    except Exception: return f"<a {type(case).__name__} too large to show>"

def _one(s: Surface, case, rep: Report):
    rep.counts["cases"] += 1
    old = signal.signal(signal.SIGALRM, lambda *a: (_ for _ in ()).throw(_Alarm()))
    signal.setitimer(signal.ITIMER_REAL, s.limit_s + 5)
    t0 = time.monotonic(); kind, msg = None, None
    try: s.check(case)
    except Violation as v: kind, msg = v.kind, str(v)
    except _Alarm: kind, msg = "hang", f"still running after {s.limit_s + 5:g} s (limit {s.limit_s:g} s)"
    except Exception as e: kind, msg = "exception", f"{type(e).__name__}: {str(e)[:300]} | " + \
        " / ".join(traceback.format_exc(limit=-3).splitlines()[-6:-1])[:500]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0); signal.signal(signal.SIGALRM, old)
    took = time.monotonic() - t0
    if kind is None and took > s.limit_s + 1: kind, msg = "hang", f"took {took:.1f} s (limit {s.limit_s:g} s)"
    if kind is not None:
        rep.counts[kind] += 1
        if len(rep.examples) < 20: rep.examples.append({"kind": kind, "message": msg[:800], "case": _short(case)})

def run_surface(name: str, n: int) -> Report:
    "Run `n` generated cases (fewer if the strategy runs out) of surface `name`; never stops at the first violation."
    s, rep = SURFACES[name], Report(name)
    @settings(max_examples=n, deadline=None, database=None, derandomize=True, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(s.strategy)
    def go(case): _one(s, case, rep)
    t0 = time.monotonic(); go(); rep.seconds = time.monotonic() - t0
    return rep

def assert_clean(rep: Report):
    "The test form: no violation of any kind, with the first examples in the message."
    assert rep.counts["cases"] > 0, f"{rep.name}: no case ran"
    assert rep.violations() == 0, f"{rep.name}: {dict(rep.counts)}\n" + "\n".join(map(str, rep.examples[:5]))
