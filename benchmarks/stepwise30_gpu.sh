#!/usr/bin/env bash
# benchmarks/stepwise30_gpu.py on the device tool's GPU machine, in one call. Make the data here first
# (`python benchmarks/stepwise30_gpu.py --run-dir gpu/s30 --data-only`, 58 s on 2 cores; gpu/ is in .git/info/exclude)
# and the wheels that machine lacks (`.whl`, git-ignored: `python -m pip download --no-deps --only-binary=:all:
# --python-version 3.12 --platform manylinux2014_x86_64 -d .whl trl==1.16.0 datasets==5.2.0 fastcore==2.2.39
# transformers==5.23.0 dill==0.4.1 multiprocess==0.70.19 fsspec==2026.9.0`); carry `.whl` and `gpu`, and run
# `bash benchmarks/stepwise30_gpu.sh` with the tool's timeout_s 590. The figures so far reach $OUT after every stage and
# solver, so a call stopped at LIMIT still brings back what finished.
# Measured on one H200 (4 December 2026, one call of 572 s; benchmarks/results/stepwise30_gpu_base.json): `base` at
# batch 128 in bf16, the policy 1,196 steps in 2.0 training minutes (stage 156 s), the world model 2,405 steps in 3.0
# (stage 224 s), 55.1% exact on the 1,255 held-out route pairs (seed 1's `mini` world model, 20 CPU minutes: 77.2% of its own); the
# planned rollout's evaluation of the 500 held-out tasks had not ended when LIMIT stopped it, about 145 s in, so no
# success rate came back. A later call should give the evaluation at least 300 s, or evaluate `--solvers stepwise` first.
set -u
LIMIT=${LIMIT:-545}; OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null
python3 -c "import torch, transformers, trl, datasets, pyarrow, peft, accelerate, fastcore; import wandering_light.training.main_job
print(torch.__version__, transformers.__version__, trl.__version__, datasets.__version__, pyarrow.__version__, peft.__version__, torch.cuda.is_available())" || exit 1
timeout "$LIMIT" python3 benchmarks/stepwise30_gpu.py --run-dir "${RUN:-gpu/s30}" --out "$OUT" --save "$@" > "$OUT/log.txt" 2>&1
echo "rc $? after $SECONDS s"; grep -v '^ ' "$OUT/log.txt" | tail -c 3000
