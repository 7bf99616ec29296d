"""Fuzzed surfaces: model completions to every parser that reads them (issue 17, "errors as values, always").

A model writes text; every parser that reads it promises a parsed value or an error value, quickly, with bounded memory,
and never an exception to its caller. The generators aim at depth (brackets and operators nested thousands deep),
size (huge numeric literals, `range(10**18)`, long lines, many lines), time (texts that make a careless regular
expression backtrack) and type confusion (None, bytes, numbers and lists where text belongs; the right format with the
wrong types; real tool names in the wrong order), not only at random text.

Surfaces: `completion_pipeline` (one-shot induction: `parse_completion` and the `LLMSolver`'s judging),
`completion_step` (`parse_step`, `parse_answer`, `parse_block_type`, and a policy's `{tool: log-prob}` answers, NaN
and huge numbers included, read by step-wise rollouts and guided search), `completion_world` (world-model results:
`parse_value`, `stepwise.parse_result`), `completion_proposal` (`parse_proposal` and the proposer evaluation's scoring),
`completion_reward` (the GRPO reward sets: a number for any text).
"""
from __future__ import annotations
import math
from hypothesis import strategies as st
from fuzzing import surface, Violation

import tempfile
from pathlib import Path
from wandering_light import prompts as P
from wandering_light.backends import Completion
from wandering_light.common_functions import basic_fns
from wandering_light.evals.evaluate_proposer import _solves, score_proposals
from wandering_light.executor import Executor, Limits, oversize
from wandering_light.llm_solvers import LLMSolver
from wandering_light.solver import SolveResult
from wandering_light.stepwise import GuidedSolver, Policy, parse_result   # imported here: torch's import time is no case's
from wandering_light.tasks import InductionTask
from wandering_light.training.reward import InductionRewards, ProposalRewards, score_induction
from wandering_light.typed_list import TypedList

FS = basic_fns
NAMES = list(FS.names)
MAX_MESSAGE = 500            # an error message is one short line, whatever the completion
LIMITS = Limits()

# --- text generators -------------------------------------------------------------------------------------------------
_CONFUSE = {"a": "а", "e": "е", "o": "о", "i": "і", "c": "с", "p": "р", "x": "х", "_": "＿"}   # Cyrillic and fullwidth

def _confusable(name: str, k: int) -> str:
    "A tool name with its k-th confusable letter swapped for a look-alike."
    idx = [i for i, ch in enumerate(name) if ch in _CONFUSE]
    if not idx: return name + "\u200b"
    i = idx[k % len(idx)]
    return name[:i] + _CONFUSE[name[i]] + name[i + 1:]

names = st.one_of(st.sampled_from(NAMES), st.sampled_from(["stop", "STOP", "Stop.", "none", "", " ", ".", ",", "..."]),
                  st.builds(_confusable, st.sampled_from(NAMES), st.integers(0, 5)),
                  st.sampled_from(NAMES).map(str.upper), st.sampled_from(NAMES).map(lambda n: n + "()"),
                  st.text(max_size=12))

SEPS = [", ", ",", " , ", " ", "\n", ";", " -> ", " | ", ",,", "\t", "\u3001", "\uff0c"]
pipelines = st.builds(lambda ns, sep: sep.join(ns), st.lists(names, max_size=12), st.sampled_from(SEPS))

def _rep(unit: str, n: int) -> str: return unit * n

_UNITS = ["[", "(", "{", "[[", "-", "+", "~", "not ", "1j+", "a[0]", ".b", "()", "lambda:", "(1,", "frozenset({",
          " ", "\t", "\n", ",", "```", "```x\n", "<think>", "</think>", "Input:", "Functions:", "Answer:", "9", "f",
          "\u200b", "\ud800", "\x00", "é", "𝟗", "double, ", "inc,", "stop "]
repeated = st.builds(_rep, st.sampled_from(_UNITS), st.integers(0, 120_000))

def _deep(open_: str, close: str, n: int, core: str = "1") -> str: return open_ * n + core + close * n

deep = st.builds(_deep, st.sampled_from(["[", "(", "{", "frozenset({", "set([", "[(", "-(", "((1,", "{1: "]),
                 st.sampled_from(["]", ")", "}", "})", "])", ")]", ")", ",))", "}"]), st.integers(0, 6000),
                 st.sampled_from(["1", "", "x", "[]", "'a'"]))

huge_numbers = st.one_of(
    st.builds(lambda n: "9" * n, st.integers(1, 30_000)),
    st.builds(lambda n: "9" * n, st.integers(300, 4_300)),          # parses as an int, too large for a float
    st.builds(lambda n: "0x" + "f" * n, st.integers(1, 30_000)),
    st.builds(lambda n: "0b" + "1" * n, st.integers(1, 30_000)),
    st.builds(lambda n: "0o" + "7" * n, st.integers(1, 30_000)),
    st.builds(lambda n: "1" + "_0" * n, st.integers(1, 9_000)),
    st.builds(lambda n: f"1e{n}", st.integers(0, 10**6)),
    st.builds(lambda a, b: f"{a}**{b}", st.integers(2, 10), st.integers(1, 10**6)),
    st.sampled_from(["10**18", "2**64", "-0", "-0.0", "nan", "inf", "-inf", "1e309", "(1e308*10)", "infj", "nanj",
                     "(-0-0j)", "1_000_000", "0.1+0.2", "True+1"]))

def _range_text(a: str, b: str | None, c: str | None) -> str:
    return "range(" + ", ".join(x for x in (a, b, c) if x is not None) + ")"

range_texts = st.builds(_range_text, huge_numbers | st.integers(-10**30, 10**30).map(str),
                        st.none() | huge_numbers | st.integers(-10**30, 10**30).map(str),
                        st.none() | st.sampled_from(["1", "-1", "0", "2", "10**9", "0x" + "f" * 40]))

complex_texts = st.builds(lambda re, sign, im: f"({re}{sign}{im}j)", huge_numbers | st.integers().map(str),
                          st.sampled_from(["+", "-", "*", ""]), huge_numbers | st.sampled_from(["1", "0", "-0", "1e400"]))

scalar_texts = st.one_of(huge_numbers, range_texts, complex_texts, st.integers().map(str), st.floats().map(repr),
                         st.text(max_size=20).map(repr), st.binary(max_size=10).map(repr),
                         st.builds(lambda n: repr("a" * n), st.integers(0, 25_000)),
                         st.builds(lambda n: repr(b"b" * n), st.integers(0, 25_000)),
                         st.sampled_from(["None", "True", "False", "...", "x", "print(1)", "__import__('os')",
                                          "open('/etc/passwd')", "bytearray(b'ab')", "set()", "frozenset()",
                                          "set([1, [2]])", "{[1]: 2}", "{**{}}", "f'{1}'", "[*range(9)]",
                                          "(yield)", "b'x'*10**9", "'a'*10**9", "[0]*10**9"]))

def _list_of(items: list[str], close: bool) -> str: return "[" + ", ".join(items) + ("]" if close else "")

value_texts = st.one_of(
    scalar_texts, deep,
    st.builds(_list_of, st.lists(scalar_texts, max_size=20), st.booleans()),
    st.builds(_list_of, st.lists(st.one_of(huge_numbers, complex_texts, range_texts), min_size=1, max_size=4), st.just(True)),
    st.builds(_list_of, st.lists(deep, min_size=1, max_size=3), st.just(True)),
    st.recursive(scalar_texts, lambda inner: st.one_of(
        st.builds(_list_of, st.lists(inner, max_size=4), st.just(True)),
        st.lists(inner, max_size=3).map(lambda xs: "(" + ", ".join(xs) + ",)"),
        st.lists(inner, max_size=3).map(lambda xs: "{" + ", ".join(xs) + "}"),
        st.lists(st.tuples(inner, inner), max_size=3).map(lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}"),
        st.lists(inner, max_size=3).map(lambda xs: "frozenset({" + ", ".join(xs) + "})")), max_leaves=10))

def _truncate(text: str, frac: float) -> str: return text[:int(len(text) * frac)]

def _wrap(text: str, how: str) -> str:
    return {"plain": text, "think": f"<think>{text[:50]}</think>{text}", "open_think": f"{text}<think>more",
            "fence": f"```python\n{text}\n```", "open_fence": f"```\n{text}", "answer": f"Answer: {text}",
            "final": f"Final answer:{text}", "space": f" {text}\n", "junk": text + "\x00\ud800 junk ,,, )]}",
            "lines": "\n\n" + text + "\n" * 3 + "trailing"}[how]

WRAPS = ["plain", "think", "open_think", "fence", "open_fence", "answer", "final", "space", "junk", "lines"]

def wrapped(base): return st.builds(_wrap, base, st.sampled_from(WRAPS))
def truncated(base): return st.builds(_truncate, base, st.floats(0, 1))

non_text = st.one_of(st.none(), st.binary(max_size=30), st.integers(), st.floats(), st.lists(st.text(max_size=5), max_size=3),
                     st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2), st.just(b"double, inc"),
                     st.just(bytearray(b"inc")), st.just(b"\xff\xfe[1]\nFunctions: inc"))

# well-formed values near and over the limits, rendered as a model would write them
_edge_ints = st.one_of(st.integers(-10**6, 10**6), st.integers(-2**10_050, 2**10_050),
                       st.sampled_from([2**9_999, -2**9_999, 2**10_000, 2**10_001 - 1, 10**3000]))
_edge_strs = st.one_of(st.text(max_size=10), st.builds(lambda n: "s" * n, st.integers(9_990, 10_010)))
_edge_ranges = st.builds(lambda a, n, s: range(a, a + n * s, s), st.integers(-2**70, 2**70),
                         st.integers(0, 10**19), st.sampled_from([1, 2, -1, 10**9]))
_batches = st.one_of(st.lists(_edge_ints, min_size=1, max_size=20), st.lists(_edge_strs, min_size=1, max_size=3),
                     st.lists(st.lists(st.integers(-9, 9), max_size=6), min_size=1, max_size=5),
                     st.lists(_edge_ranges, min_size=1, max_size=2), st.lists(st.floats(), min_size=1, max_size=5),
                     st.lists(st.booleans(), min_size=1, max_size=5),
                     st.lists(st.dictionaries(st.text(max_size=3), st.integers(-5, 5), max_size=3), min_size=1, max_size=3))

def _render(xs) -> str:
    "A batch as a model would write it; a value `repr` cannot write (an int over 4300 digits) in hex."
    try: return P.render_value(xs)
    except ValueError: return "[" + ", ".join(hex(x) if type(x) is int else P.render_value(x) for x in xs) + "]"

rendered = _batches.map(_render)

@st.composite
def typed_pipelines(draw, start: type | None = None, min_tools: int = 0) -> str:
    "Tool names that chain from `start` (a random type if None), sometimes in the wrong order."
    t = start or draw(st.sampled_from([int, str, list, float, bool, dict]))
    out = []
    for _ in range(draw(st.integers(min_tools, 9))):
        fits = [f.name for f in FS.for_type(t)]
        if not fits: break
        f = FS[draw(st.sampled_from(fits))]
        out.append(f.name); t = f.out_cls
    if out and draw(st.booleans()): out = draw(st.permutations(out))        # real names, wrong order
    return ", ".join(out)

def _proposal(inp: str, label: str, funcs: str, flabel: str) -> str: return f"{label}{inp}\n{flabel}{funcs}"

proposals = st.builds(_proposal, value_texts, st.sampled_from(["", "Input: ", "New task:\nInput: ", "Input (int): ",
                                                                "input" + " " * 50_000 + "x", "New task:" + " " * 60_000,
                                                                "Input (" + " " * 1000, "INPUT:"]),
                      pipelines, st.sampled_from(["Functions: ", "functions:", "Functions:" + " " * 40_000, "", "Function: "]))

pipeline_completions = st.one_of(typed_pipelines(int).map(lambda p: " " + p), wrapped(typed_pipelines()), wrapped(pipelines),
                                 truncated(wrapped(pipelines)), repeated, deep, wrapped(repeated), st.text(max_size=200),
                                 non_text)

@st.composite
def good_proposals(draw) -> str:
    "The right format: a batch, then tools that mostly chain from its type (sometimes not, or in the wrong order)."
    xs = draw(_batches)
    start = type(xs[0]) if draw(st.integers(0, 3)) else None
    return _proposal(_render(xs), draw(st.sampled_from(["", "Input: ", "New task:\nInput: "])),
                     draw(typed_pipelines(start, min_tools=1)), "Functions: ")

proposal_completions = st.one_of(good_proposals(), good_proposals(), wrapped(good_proposals()), truncated(good_proposals()),
                                 wrapped(proposals), truncated(wrapped(proposals)), repeated, deep, st.text(max_size=200),
                                 st.builds(lambda a, b: a + "\n" + b, repeated, proposals), non_text)
world_completions = st.one_of(complex_texts, st.builds(_list_of, st.lists(complex_texts, max_size=3), st.just(True)),
                              rendered, rendered.map(lambda t: " " + t + "\n"), truncated(rendered), wrapped(value_texts),
                              truncated(value_texts), repeated, deep, st.text(max_size=200), non_text)
INPUT_TYPES = [int, str, list, float, bool, dict, None]

# --- checks ----------------------------------------------------------------------------------------------------------
def short_line(what: str, msg):
    "A message is one line of bounded length."
    if not isinstance(msg, str) or "\n" in msg or len(msg) > MAX_MESSAGE:
        raise Violation("exception", f"{what}: the message is not one short line ({type(msg).__name__}, "
                                     f"{len(msg) if isinstance(msg, str) else '?'} chars): {str(msg)[:120]!r}")

def check_value_bounded(what: str, v):
    "A value built from model text is within the executor's limits and renders (repr works on it)."
    why = oversize(v, LIMITS)
    if why: raise Violation("exception", f"{what}: accepted an oversize value ({why})")
    try: P.render_value(v)
    except Exception as e: raise Violation("exception", f"{what}: the value parsed but does not render: {type(e).__name__}: {e}")

def check_parsed_pipeline(r, max_length: int, item_type):
    if not isinstance(r, P.ParsedPipeline): raise Violation("exception", f"not a ParsedPipeline: {type(r).__name__}")
    if r.ok:
        if len(r.pipeline) > max_length: raise Violation("exception", f"{len(r.pipeline)} tools > max_length {max_length}")
        if any(n not in FS for n in r.names): raise Violation("exception", f"unknown tools accepted: {r.names}")
        if item_type is not None: r.pipeline.output_type(item_type)
    else:
        if r.error not in P.PARSE_ERRORS: raise Violation("exception", f"unknown error kind {r.error!r}")
        short_line("parse_completion", r.message)

# --- one-shot induction: parse_completion, the LLM solver's judging, the proposer evaluation's solver check ------------
class _Canned:
    "A backend stub that answers every prompt with the same completions (whatever they are)."
    api, name, model_name = "completions", "canned", "canned"
    def __init__(self, texts): self.texts = texts
    def complete(self, prompts, n=1, **kw):
        return [[Completion(t) for t in self.texts] for _ in prompts]
    def chat(self, conversations, n=1, **kw): return self.complete(conversations, n)

TASK_IN, TASK_OUT = TypedList([1, 2, 3]), TypedList([4, 6, 8])      # inc, double

@surface("completion_pipeline", st.tuples(pipeline_completions, st.sampled_from(INPUT_TYPES), st.integers(1, 64)), limit_s=2.0)
def check_pipeline(case):
    text, item_type, max_length = case
    check_parsed_pipeline(P.parse_completion(text, FS, item_type, max_length), max_length, item_type)
    res = LLMSolver(_Canned([text, " inc, double"]), budget=2, functions=FS).solve_detailed(TASK_IN, TASK_OUT)
    if not isinstance(res, SolveResult) or res.trajectory is None:
        raise Violation("lost", f"the solver lost the correct completion beside this one: {res!r}"[:300])
    if res.trajectory.output != TASK_OUT: raise Violation("exception", "the solver returned a wrong trajectory")
    got = _solves(text, InductionTask(TASK_IN, TASK_OUT, ["inc", "double"]), FS, Executor(FS), max_length)
    if got is not None and got not in (["inc", "double"],):
        ex = Executor(FS).run(got, TASK_IN)
        if not (ex.success and ex.output == TASK_OUT): raise Violation("exception", f"_solves accepted a wrong pipeline {got}")

# --- step-wise: parse_step, yes/no answers, agent block types ----------------------------------------------------------
step_completions = st.one_of(pipeline_completions, wrapped(names), names)
BLOCK_OPTIONS = ["orientation", "action", "expectation", "evaluation"]

class _Answers(Policy):
    "A policy that answers every state with the same (hostile) `{tool: log-prob}`, as a diverged model might."
    def __init__(self, answer): super().__init__(FS); self.answer = answer
    def logprobs(self, states, targets): return [dict(self.answer) for _ in states]

policy_answers = st.dictionaries(st.one_of(names, st.integers(), st.none()),
                                 st.one_of(st.floats(), st.integers(-10**400, 10**400), st.none(), st.text(max_size=3)),
                                 max_size=8)
ENDS = {"reached", "step_failed", "invalid", "no_tool", "too_long", "budget"}

@surface("completion_step", st.tuples(step_completions, st.sampled_from(INPUT_TYPES), policy_answers), limit_s=2.0)
def check_step(case):
    text, item_type, answer = case
    for temperature in (0.0, 1.0):
        rs = _Answers(answer).rollouts([(TASK_IN, TASK_OUT), (["ab"], ["AB"])], max_steps=3, temperature=temperature)
        if len(rs) != 2 or any(r.end not in ENDS for r in rs): raise Violation("exception", f"rollouts ended {rs!r:.200}")
    if not isinstance(GuidedSolver(_Answers(answer), budget=20, functions=FS).solve_detailed(TASK_IN, TASK_OUT), SolveResult):
        raise Violation("exception", "the guided solver gave no SolveResult")
    r = P.parse_step(text, FS, item_type)
    if not isinstance(r, P.ParsedStep): raise Violation("exception", f"not a ParsedStep: {type(r).__name__}")
    if r.ok and r.tool is not None:
        if r.tool.name not in FS: raise Violation("exception", f"unknown tool accepted: {r.tool.name}")
        if item_type is not None and r.tool.in_cls is not item_type:
            raise Violation("exception", f"{r.tool.name} does not take {item_type.__name__}")
    if not r.ok:
        if r.error not in P.PARSE_ERRORS: raise Violation("exception", f"unknown error kind {r.error!r}")
        short_line("parse_step", r.message)
    if P.parse_answer(text) not in (True, False, None): raise Violation("exception", "parse_answer gave a non-answer")
    if P.parse_block_type(text, BLOCK_OPTIONS) not in BLOCK_OPTIONS + [None]:
        raise Violation("exception", "parse_block_type gave a type outside its options")

# --- world model: values as text ---------------------------------------------------------------------------------------
@surface("completion_world", st.tuples(world_completions, st.sampled_from(NAMES)), limit_s=2.0)
def check_world(case):
    text, tool = case
    try: v = P.parse_value(text)
    except ValueError as e: short_line("parse_value", str(e))
    else: check_value_bounded("parse_value", v)
    f = FS[tool]
    tl = parse_result(text, f.out_cls)
    if tl is not None:
        if not isinstance(tl, TypedList) or tl.item_type is not f.out_cls:
            raise Violation("exception", f"parse_result gave {tl!r:.100} for a {f.out_cls.__name__} result")
        for x in tl: check_value_bounded("parse_result", x)

# --- proposals: parse_proposal and the proposer evaluation ---------------------------------------------------------------
@surface("completion_proposal", st.tuples(proposal_completions, st.integers(1, 16), st.integers(1, 8)), limit_s=2.0)
def check_proposal_parse(case):
    text, max_items, max_length = case
    r = P.parse_proposal(text, FS, max_items, max_length)
    if not isinstance(r, P.ParsedProposal): raise Violation("exception", f"not a ParsedProposal: {type(r).__name__}")
    if r.ok:
        if not isinstance(r.input, TypedList) or not 1 <= len(r.input) <= max_items:
            raise Violation("exception", f"bad input accepted: {r.input!r:.100}")
        for x in r.input: check_value_bounded("parse_proposal", x)
        if not 1 <= len(r.pipeline) <= max_length: raise Violation("exception", f"{len(r.pipeline)} tools accepted")
        r.pipeline.output_type(r.input.item_type)
        str(r)
    else:
        if r.error not in P.PARSE_ERRORS: raise Violation("exception", f"unknown error kind {r.error!r}")
        short_line("parse_proposal", r.message)
    ev = score_proposals(["prompt"], [text], lambda tasks: [[["inc"], None]] * len(tasks), FS, max_length)
    if len(ev.samples) != 1 or ev.samples[0].parsed != P.parse_proposal(text, FS, max_length=max_length).ok:
        raise Violation("lost", f"score_proposals lost the sample, or disagrees with parse_proposal: {ev.samples!r:.200}")
    if not all(map(math.isfinite, ev.figures().values())): raise Violation("exception", f"non-finite figures {ev}")

# --- GRPO rewards: a finite number for any text, and every completion logged once --------------------------------------
def _conversational(text): return [{"role": "assistant", "content": text}]

reward_completions = st.one_of(pipeline_completions, proposal_completions, pipeline_completions.map(_conversational),
                               st.just([]), st.just([{"role": "assistant"}]), st.just([{"content": None}]))

def _check_rewards(kind: str, rs, out: dict, k: int):
    if set(out) != set(rs.names): raise Violation("exception", f"{kind}: components {sorted(out)}")
    for name, vals in out.items():
        if len(vals) != k or not all(isinstance(v, float) and math.isfinite(v) for v in vals):
            raise Violation("exception", f"{kind} {name}: not {k} finite floats: {vals!r:.200}")
    recs = rs.log.read()
    if len(recs) != k: raise Violation("lost", f"{kind}: {len(recs)} log records for {k} completions")

# a valid proposal is certified by search (5 s at most, `check_proposal`'s SearchLimits), so two may take 11 s
@surface("completion_reward", st.lists(reward_completions, min_size=1, max_size=2), limit_s=12.0)
def check_rewards(completions):
    k = len(completions)
    with tempfile.TemporaryDirectory() as d:
        ind = InductionRewards(FS, log=Path(d) / "induction.jsonl", strict=False)
        out = ind(["p"] * k, completions, input=[TASK_IN.to_string()] * k, output=[TASK_OUT.to_string()] * k,
                  certified_length=[2] * k)
        _check_rewards("induction", ind, out, k)
        prop = ProposalRewards(lambda tasks: [[True, False, False]] * len(tasks), FS, log=Path(d) / "proposal.jsonl")
        _check_rewards("proposal", prop, prop(["p"] * k, completions), k)
    for c in completions:
        r = score_induction(c, TASK_IN, TASK_OUT, 2, FS, strict=True).reward
        if not (isinstance(r, float) and math.isfinite(r)): raise Violation("exception", f"strict induction reward {r!r}")
