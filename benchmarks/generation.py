"""Local generation throughput: batched (left-padded) against one prompt at a time, in the same run.

A model of a named size is built from scratch (random weights: the work per token does not depend on training), and
`wandering_light.models.generate` completes the same induction prompts (random tasks rendered by
`wandering_light.prompts`) twice: one `generate` call per prompt, and one call for all prompts in batches of
`--batch-size`. Every sequence generates exactly `--new-tokens` tokens (`ignore_eos`), greedy, with per-token
log-probabilities (what the solvers ask for). Each mode runs `--repeat` times, alternating; the best time counts.
Figures: sequences per second each way, and the ratio batched / one-at-a-time; the greedy outputs of the two modes are
also compared (1 = token-identical).
Usage: python benchmarks/generation.py [--save] [--size tiny] [--prompts 32] [--new-tokens 32] [--batch-size 16]
                                       [--threads 1] [--repeat 2]
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
    report("generation", figures, argv)

if __name__ == "__main__": main(sys.argv[1:])
