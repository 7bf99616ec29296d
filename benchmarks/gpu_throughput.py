"""Training and inference throughput of the model sizes on one device, to size a GPU call before spending it.

For each size and batch: a training step (forward, backward and AdamW on random DSL-token rows of `--length` tokens, bf16
autocast on a GPU) timed over `--steps` steps after 3 warm-ups, reported as steps and examples per second; and the
forward pass of one row and of `--batch-forward` rows (what a planner's or a rollout's query costs), in milliseconds.
Ratios are against the `mini` size's figures in the same run.

Usage: python benchmarks/gpu_throughput.py [--device cuda] [--sizes mini,small,base] [--batches 64,128,256,512]
                                           [--length 128] [--steps 20] [--save] [--name gpu_throughput]
"""
import argparse, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from _common import report

def sync(device):
    import torch
    if device.startswith("cuda"): torch.cuda.synchronize()

def train_rate(model, batch, length, steps, device) -> float:
    "Training steps a second at `batch` rows of `length` random tokens."
    import torch
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    ids = torch.randint(10, model.config.vocab_size, (batch, length), device=device)
    amp = torch.autocast("cuda", dtype=torch.bfloat16) if device.startswith("cuda") else torch.autocast("cpu", enabled=False)
    def step():
        with amp: loss = model(input_ids=ids, labels=ids).loss
        loss.backward(); opt.step(); opt.zero_grad(set_to_none=True)
    for _ in range(3): step()
    sync(device); t = time.perf_counter()
    for _ in range(steps): step()
    sync(device); return steps / (time.perf_counter() - t)

def forward_ms(model, batch, length, device, reps=20) -> float:
    "Milliseconds for one forward pass of `batch` rows (no gradients)."
    import torch
    ids = torch.randint(10, model.config.vocab_size, (batch, length), device=device)
    amp = torch.autocast("cuda", dtype=torch.bfloat16) if device.startswith("cuda") else torch.autocast("cpu", enabled=False)
    with torch.no_grad(), amp:
        for _ in range(3): model(input_ids=ids)
        sync(device); t = time.perf_counter()
        for _ in range(reps): model(input_ids=ids)
        sync(device)
    return 1000 * (time.perf_counter() - t) / reps

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", default="cuda"); ap.add_argument("--sizes", default="mini,small,base")
    ap.add_argument("--batches", default="64,128,256,512"); ap.add_argument("--length", type=int, default=128)
    ap.add_argument("--steps", type=int, default=20); ap.add_argument("--batch-forward", type=int, default=64)
    ap.add_argument("--save", action="store_true"); ap.add_argument("--name", default="gpu_throughput")
    a = ap.parse_args(argv)
    import torch
    from wandering_light.models import build_model, build_tokenizer, count_parameters
    if a.device != "cpu" and not torch.cuda.is_available(): sys.exit(f"error: --device {a.device}: torch sees no GPU here")
    tok, figures = build_tokenizer(), {"length": a.length, "steps": a.steps, "sizes": {}}
    for size in a.sizes.split(","):
        model = build_model(size, tok).to(a.device).train()
        row = {"parameters": count_parameters(model), "train": {}}
        for b in map(int, a.batches.split(",")):
            r = train_rate(model, b, a.length, a.steps, a.device)
            row["train"][b] = {"steps_per_s": round(r, 2), "examples_per_s": round(r * b)}
        model.eval()
        row["forward_ms"] = {1: round(forward_ms(model, 1, a.length, a.device), 2),
                             a.batch_forward: round(forward_ms(model, a.batch_forward, a.length, a.device), 2)}
        figures["sizes"][size] = row; del model
        if a.device.startswith("cuda"): torch.cuda.empty_cache()
    if "mini" in figures["sizes"]:
        base = figures["sizes"]["mini"]
        for size, row in figures["sizes"].items():
            row["examples_per_s_vs_mini"] = {b: round(v["examples_per_s"] / base["train"][b]["examples_per_s"], 3)
                                             for b, v in row["train"].items() if b in base["train"]}
    report(a.name, figures, argv)
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
