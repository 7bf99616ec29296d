"""Local generation throughput: batched (left-padded) against one prompt at a time, in the same run.

A model of a named size is built from scratch (random weights: the work per token does not depend on training), and
`wandering_light.models.generate` completes the same induction prompts (random tasks rendered by
`wandering_light.prompts`) twice: one `generate` call per prompt, and one call for all prompts in batches of
`--batch-size`. Every sequence generates exactly `--new-tokens` tokens (`ignore_eos`), greedy, with per-token
log-probabilities (what the solvers ask for). Each mode runs `--repeat` times, alternating; the best time counts.
Figures: sequences per second each way, and the ratio batched / one-at-a-time; the greedy outputs of the two modes are
also compared (1 = token-identical).

`generate` decodes greedy calls in its own loop (`models._greedy`: a key-value cache, each row dropped from its batch
once it ends); the same batched call with `models.FAST_GREEDY = False` goes through transformers' `generate`. Figures:
sequences per second both ways on the prompts above (every row the same length: only the per-step work differs) and
their ratio, and whether the outputs are identical. With `--world-model DIR` (a world model the main job trained, e.g.
RUN/world/model), also its questions: one value and a tool from the routes of RUN/data/test.jsonl.gz (DIR's run),
answered until the line ends, as the planner asks them, by our loop in batches of 128 (the planner's) against
transformers' `generate` in batches of 32 (the planner's before); questions per second, the ratio, identical answers.

The server part (skip it with --no-server) starts `wl serve SIZE` in a subprocess (the same named size: the same
weights, built from the same seed) and sends the same prompts through the `openai` client, one request per prompt,
sequentially; the baseline is the same work as direct calls in this process (`backends.LocalBackend.complete`, one
prompt per call). Figures: requests per second each way and their ratio (the cost of HTTP, JSON and the client), the
same for one request holding all prompts (the completions API takes a list) against one direct batched call, and
whether the server's greedy texts equal the direct ones (1 = identical).
Usage: python benchmarks/generation.py [--save] [--size tiny] [--prompts 32] [--new-tokens 32] [--batch-size 16]
                                       [--threads 1] [--repeat 2] [--no-server]
                                       [--world-model RUN/world/model] [--world-questions 600]
"""
import argparse, random, sys, time
sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
from _common import report
import torch
from wandering_light import prompts as P
from wandering_light.models import build_model, build_tokenizer, count_parameters, generate
from wandering_light.trajectory import random_walk

def make_prompts(n: int, seed: int = 0) -> list[str]:
    rng, out = random.Random(seed), []
    starts = [[1, 2, 3], [-5, 17], ["ab", "Hello"], [[3, 1], [2]], [2.5, -0.5]]
    while len(out) < n:
        w = random_walk(rng.choice(starts), rng.randint(1, 3), rng=rng)
        if w is not None: out.append(P.induction_prompt(w.input, w.output))
    return out

def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--size", default="tiny")
    ap.add_argument("--prompts", type=int, default=32)
    ap.add_argument("--new-tokens", type=int, default=32)
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads (the reference machine has 2 shared cores)")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--no-server", action="store_true", help="skip the server part")
    ap.add_argument("--world-model", default=None, help="a trained world model (RUN/world/model): time its questions too")
    ap.add_argument("--world-questions", type=int, default=600, help="world-model questions to time")
    a = ap.parse_args(argv)
    torch.set_num_threads(a.threads)
    tok = build_tokenizer()
    model = build_model(a.size, tok, seed=0).to(a.device)
    prompts = make_prompts(a.prompts)
    kw = dict(max_new_tokens=a.new_tokens, ignore_eos=True, logprobs=True)
    generate(model, tok, prompts[:2], **kw)                       # warm-up

    def one_at_a_time(): return [generate(model, tok, p, **kw)[0][0] for p in prompts]
    def batched(): return [g[0] for g in generate(model, tok, prompts, batch_size=a.batch_size, **kw)]

    best, outs = {}, {}
    for _ in range(a.repeat):
        for name, fn in (("single", one_at_a_time), ("batched", batched)):
            t0 = time.perf_counter(); outs[name] = fn(); dt = time.perf_counter() - t0
            best[name] = min(best.get(name, dt), dt)
    same = all(x.token_ids == y.token_ids for x, y in zip(outs["single"], outs["batched"]))
    n, toks = len(prompts), len(prompts) * a.new_tokens
    figures = {"model_size": a.size, "parameters": count_parameters(model), "device": a.device, "threads": a.threads,
               "prompts": n, "new_tokens": a.new_tokens, "batch_size": a.batch_size,
               "mean_prompt_tokens": round(sum(len(tok(p)["input_ids"]) for p in prompts) / n, 1),
               "single_sequences_per_s": round(n / best["single"], 2),
               "batched_sequences_per_s": round(n / best["batched"], 2),
               "single_tokens_per_s": round(toks / best["single"], 1),
               "batched_tokens_per_s": round(toks / best["batched"], 1),
               "ratio_batched_to_single": round(best["single"] / best["batched"], 2),
               "greedy_outputs_identical": int(same)}
    figures.update(greedy_figures(a, model, tok, prompts))
    if a.world_model: figures.update(world_figures(a))
    if not a.no_server: figures.update(server_figures(a, model, tok, prompts))
    report("generation", figures, argv)

def _both_ways(a, fn) -> tuple[dict, dict]:
    "Best seconds and outputs of `fn()` with `generate`'s own greedy loop and with transformers' `generate`, alternating."
    import wandering_light.models as M
    best, outs = {}, {}
    try:
        for _ in range(a.repeat):
            for name, fast in (("ours", True), ("transformers", False)):
                M.FAST_GREEDY = fast
                t0 = time.perf_counter(); outs[name] = fn(fast); dt = time.perf_counter() - t0
                best[name] = min(best.get(name, dt), dt)
    finally: M.FAST_GREEDY = True
    return best, outs

def greedy_figures(a, model, tok, prompts) -> dict:
    "The batched call above through our greedy loop against transformers' `generate`."
    kw = dict(max_new_tokens=a.new_tokens, ignore_eos=True, logprobs=True, batch_size=a.batch_size)
    best, outs = _both_ways(a, lambda fast: [g[0].token_ids for g in generate(model, tok, prompts, **kw)])
    return {"own_loop_sequences_per_s": round(len(prompts) / best["ours"], 2),
            "transformers_sequences_per_s": round(len(prompts) / best["transformers"], 2),
            "ratio_own_loop_to_transformers": round(best["transformers"] / best["ours"], 2),
            "own_loop_outputs_identical": int(outs["ours"] == outs["transformers"])}

def world_figures(a) -> dict:
    "A trained world model's questions, as the planner asks them, through our loop (batches of 128) and transformers' (32)."
    from pathlib import Path
    from wandering_light.models import load_model
    from wandering_light.steps import step_rows
    from wandering_light.stepwise import world_input_digits
    from wandering_light.tasks import read_tasks, default_functions
    model, tok = load_model(a.world_model, device=a.device)
    tasks, fs, qs = read_tasks(Path(a.world_model).parents[1] / "data" / "test.jsonl.gz"), default_functions(), []
    random.Random(0).shuffle(tasks)
    for t in tasks:                                                  # distinct, as the planner's cache leaves them
        qs = list(dict.fromkeys(qs + [P.world_prompt(x, fs[r["tool"]], world_input_digits(model)) for r in step_rows(t)
                                      for x in r["values"].singletons()]))
        if len(qs) >= a.world_questions: break
    qs = qs[:a.world_questions]
    ask = lambda fast: [g[0].text for g in generate(model, tok, qs, max_new_tokens=96, stop=["\n"], logprobs=False,
                                                    batch_size=128 if fast else 32)]
    best, outs = _both_ways(a, ask)
    return {"world_model": a.world_model, "world_questions": len(qs),
            "world_own_loop_questions_per_s": round(len(qs) / best["ours"], 1),
            "world_transformers_questions_per_s": round(len(qs) / best["transformers"], 1),
            "world_ratio_own_loop_to_transformers": round(best["transformers"] / best["ours"], 2),
            "world_answers_identical": int(outs["ours"] == outs["transformers"])}

def server_figures(a, model, tok, prompts) -> dict:
    "Requests per second through `wl serve` and the openai client, against direct calls in this process."
    import openai
    from wandering_light.backends import LocalBackend
    from wandering_light.serve import ServerProcess
    direct = LocalBackend(model, tok, a.size, batch_size=a.batch_size)
    kw = dict(max_tokens=a.new_tokens, temperature=0.0, ignore_eos=True, logprobs=True)
    with ServerProcess([a.size, "--threads", a.threads, "--device", a.device, "--batch-size", a.batch_size]) as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="none", max_retries=0, timeout=600)
        req = dict(model=a.size, max_tokens=a.new_tokens, temperature=0, logprobs=0, extra_body={"ignore_eos": True})
        client.completions.create(prompt=prompts[0], **req)                        # warm-up
        def over_http(): return [client.completions.create(prompt=p, **req).choices[0].text for p in prompts]
        def direct_calls(): return [direct.complete([p], **kw)[0][0].text for p in prompts]
        def http_batch(): return [c.text for c in sorted(client.completions.create(prompt=prompts, **req).choices, key=lambda c: c.index)]
        def direct_batch(): return [c[0].text for c in direct.complete(prompts, **kw)]
        best, outs = {}, {}
        for _ in range(a.repeat):
            for name, fn in (("http", over_http), ("direct", direct_calls), ("http_batch", http_batch), ("direct_batch", direct_batch)):
                t0 = time.perf_counter(); outs[name] = fn(); dt = time.perf_counter() - t0
                best[name] = min(best.get(name, dt), dt)
    n = len(prompts)
    return {"server_requests_per_s": round(n / best["http"], 2), "direct_calls_per_s": round(n / best["direct"], 2),
            "ratio_server_to_direct": round(best["direct"] / best["http"], 3),
            "server_batch_sequences_per_s": round(n / best["http_batch"], 2),
            "direct_batch_sequences_per_s": round(n / best["direct_batch"], 2),
            "ratio_server_batch_to_direct_batch": round(best["direct_batch"] / best["http_batch"], 3),
            "server_outputs_identical": int(outs["http"] == outs["direct"] == outs["http_batch"] == outs["direct_batch"])}

if __name__ == "__main__": main(sys.argv[1:])
