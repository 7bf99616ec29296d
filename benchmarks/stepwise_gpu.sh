#!/usr/bin/env bash
# The step-wise benchmark's base size on the device tool's GPU machine (issue 13: "train the base size with the same
# recipe and record its figures and wall time"). Run there from the repository root with `.whl` (the wheels that
# machine lacks: trl, datasets, peft, accelerate, fastcore, dill, multiprocess, and this checkout's transformers and
# tokenizers; `python -m pip download --no-deps --only-binary=:all: --python-version 3.12 --platform
# manylinux2014_x86_64 -d .whl trl==1.16.0 datasets==5.2.0 peft==0.21.2 accelerate==1.15.0 fastcore==2.2.39 dill==0.4.1
# multiprocess==0.70.19 transformers==5.23.0 tokenizers==0.23.3`, .whl being git-ignored) and RUN (a run directory
# holding the CPU run's data, heldout_test.jsonl.gz and deep.jsonl.gz) carried.
# Stages go in two calls of benchmarks/stepwise.py so that the first report (eval, world) is out before deep search;
# the SFT event log is copied to $OUT every few seconds, so a call stopped at its time limit still brings back the
# learning curve and the step time.
# Measured on one H200 (2026-11-27, two calls; the device tool's 15-minute budget allowed no third): 99 s from the
# command's start to the first training step (wheels, imports, tokenizing the 100,000 tasks' examples with 12
# processes); the first 50 steps 19.8 s; then 77 ms a step of batch 64 for `base` (bf16, as TRL sets on that GPU): 830
# examples a second, against 350 for `tiny` on the 2-core CPU (results/stepwise_2threads_compile.json); each
# in-training evaluation (200 held-out tasks and the 480 upstream ones, step-wise) about 7 s. MINUTES=5 did not finish
# its final evaluation inside a 560-second call: with one call under the tool's 10-minute limit, keep MINUTES at 3.5 or
# less, or evaluate in a second call.
set -u
RUN=${RUN:-runs/gpu-base-table}; OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
pipi() { python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site "$@"; }
[ -n "${SKIP_INSTALL:-}" ] || pipi .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null
python3 -c "import torch, transformers, trl, datasets, pyarrow; print(torch.__version__, transformers.__version__, trl.__version__, datasets.__version__, pyarrow.__version__, torch.cuda.is_available())" || exit 1
ARGS="--run-dir $RUN --device ${DEVICE:-cuda} --size ${SIZE:-base} --batch-size ${BATCH:-64} --learning-rate ${LR:-3e-4} --minutes ${MINUTES:-3.5}
      --s-per-step ${SPS:-0.077} --guided-budget ${GUIDED:-250} --no-baselines --threads 8 --num-proc 12 --name ${NAME:-stepwise_gpu_base_table} --save"
(while sleep 5; do cp "$RUN/sft/metrics.jsonl" "$OUT/sft_metrics.jsonl" 2>/dev/null; done) & copier=$!
trap 'kill $copier 2>/dev/null' EXIT
keep() { cp benchmarks/results/${NAME:-stepwise_gpu_base_table}.json "$RUN/stages.json" "$OUT/" 2>/dev/null
         cp "$RUN/sft/metrics.jsonl" "$OUT/sft_metrics.jsonl" 2>/dev/null; }
python3 benchmarks/stepwise.py $ARGS --stages eval,world > "$OUT/log_eval.txt" 2>&1; rc=$?; keep; tail -c 3000 "$OUT/log_eval.txt"
[ $rc = 0 ] || exit $rc
python3 benchmarks/stepwise.py $ARGS --stages eval,world,deep --deep ${DEEP:-8} --deep-budget ${DEEP_BUDGET:-2000} > "$OUT/log_deep.txt" 2>&1; rc=$?; keep
tail -c 1500 "$OUT/log_deep.txt"; exit $rc
