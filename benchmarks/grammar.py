"""Sampling under the proposal grammar: the first-character check of `GrammarLogits.allowed` against checking each token.

At each step of constrained decoding (`generate(..., grammar=P.ProposalGrammar())`, what the proposer's GRPO and
`evaluate_proposer` sample with), the likeliest 48 tokens are checked against the grammar, and all the others when none
of those fits. An untrained proposer (self-play starts one from scratch) is the worst case: its likeliest tokens rarely
fit, so most steps check the whole vocabulary. `allowed` checks each first character once (`ProposalGrammar.viable`)
and skips every token that begins with a dead one; the baseline is the same grammar without `viable`, so every token
is checked alone (what `GrammarLogits` did before). A model of a named size is built from scratch (random weights),
and both ways sample the same proposer prompts (`evaluate_proposer.proposer_prompts` over the packaged eval set), the
same seed, each way `--repeat` times, alternating; the best time counts. Figures: proposals per second each way, their
ratio, and whether the two ways sampled the same texts (1 = identical: the check keeps exactly the same tokens).
Usage: python benchmarks/grammar.py [--save] [--size tiny] [--prompts 16] [--samples 4] [--new-tokens 64] [--threads 1]
                                    [--repeat 2]
"""
import argparse, sys, time
sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
from _common import report
import torch
from wandering_light import prompts as P
from wandering_light.evals.evaluate_proposer import proposer_prompts
from wandering_light.models import build_model, build_tokenizer, generate
from wandering_light.tasks import DEFAULT_EVAL_SET, read_tasks

class EachToken:
    "The grammar `g` without `viable`: `GrammarLogits.allowed` then checks every token alone (the baseline)."
    def __init__(self, g): self.g = g
    def allows(self, text, piece, left): return self.g.allows(text, piece, left)
    def complete(self, text): return self.g.complete(text)

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--save", action="store_true")
    ap.add_argument("--size", default="tiny")
    ap.add_argument("--prompts", type=int, default=16)
    ap.add_argument("--samples", type=int, default=4, help="proposals sampled per prompt")
    ap.add_argument("--new-tokens", type=int, default=64)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=2)
    a = ap.parse_args(argv)
    if min(a.prompts, a.samples, a.new_tokens, a.threads, a.repeat) < 1: sys.exit("error: every number must be 1 or more")
    torch.set_num_threads(a.threads)
    tok = build_tokenizer()
    model = build_model(a.size, tok, seed=0)
    prompts = proposer_prompts(read_tasks(DEFAULT_EVAL_SET), a.prompts, seed=0)
    g = P.ProposalGrammar()
    ways = {"first_char": g, "each_token": EachToken(g)}
    best, texts = {k: float("inf") for k in ways}, {}
    for _ in range(a.repeat):
        for k, grammar in ways.items():
            t0 = time.perf_counter()
            gens = generate(model, tok, prompts, max_new_tokens=a.new_tokens, num_return_sequences=a.samples,
                            temperature=1.0, seed=0, grammar=grammar)
            best[k] = min(best[k], time.perf_counter() - t0)
            texts[k] = [x.text for gs in gens for x in gs]
    n = a.prompts * a.samples
    figures = {"proposals": n, "size": a.size,
               "proposals_per_s": {k: round(n / v, 2) for k, v in best.items()},
               "speedup_first_char_over_each_token": round(best["each_token"] / best["first_char"], 2),
               "identical_texts": int(texts["first_char"] == texts["each_token"]),
               "parsed_share": round(sum(P.parse_proposal(t).ok for t in texts["first_char"]) / n, 3)}
    report("grammar", figures, argv)

if __name__ == "__main__":
    main(sys.argv[1:])
