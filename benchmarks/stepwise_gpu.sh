#!/usr/bin/env bash
# The step-wise benchmark's base size on the device tool's GPU machine (issue 13: "train the base size with the same
# recipe and record its figures and wall time"). Run there from the repository root with `.whl` (the wheels that
# machine lacks: trl, datasets, peft, accelerate, fastcore, dill, multiprocess, and this checkout's transformers and
# tokenizers; `python -m pip download --no-deps --only-binary=:all: --python-version 3.12 --platform
# manylinux2014_x86_64 -d .whl trl==1.16.0 datasets==5.2.0 peft==0.21.2 accelerate==1.15.0 fastcore==2.2.39 dill==0.4.1
# multiprocess==0.70.19 transformers==5.23.0 tokenizers==0.23.3`, .whl being git-ignored) and RUN (a run directory
# holding the data, heldout_test.jsonl.gz and deep.jsonl.gz) carried.
# Stages go in two calls of benchmarks/stepwise.py so that the first report (eval, world) is out before deep search;
# the SFT event log is copied to $OUT every few seconds, so a call stopped at its time limit still brings back the
# learning curve and the step time.
# Make the data here first, so that the device call spends its time training: `python benchmarks/stepwise.py --run-dir
# gpu/run --data-only` (the seeded data stage, the held-out sample and the deep pool: 189 s and 95 s on 2 cores, with
# gpu/ in .git/info/exclude); carry `.whl` and `gpu`, and run `LIMIT=530 bash benchmarks/stepwise_gpu.sh` with the
# tool's timeout_s at 580.
# Measured on one H100 (2026-11-28, one call, 526 s of the 580): SFT 295 s from start to saved model, of which 180 s
# training (the first 50 steps in 19 s, then 72 ms a step of 64 for `base` in bf16) and 8 in-training evaluations, the
# final evaluation 192 s (step-wise, guided with budget 250 and one-shot on 980 tasks), the world model 10 s; no time
# was left for deep search (LIMIT), and the 15-minute device budget allowed no second call. An earlier try on an H200
# (2026-11-27) made its data there and tokenized longer: neither of its two calls reached the final evaluation.
set -u
T0=$SECONDS; LIMIT=${LIMIT:-540}       # seconds this script may take in all: deep search gets what is left
RUN=${RUN:-gpu/run}; OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
pipi() { python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site "$@"; }
[ -n "${SKIP_INSTALL:-}" ] || pipi .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1 HF_HUB_OFFLINE=1 TOKENIZERS_PARALLELISM=false
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null
python3 -c "import torch, transformers, trl, datasets, pyarrow; print(torch.__version__, transformers.__version__, trl.__version__, datasets.__version__, pyarrow.__version__, torch.cuda.is_available())" || exit 1
NAME=${NAME:-stepwise_gpu_base_table}
ARGS="--run-dir $RUN --device ${DEVICE:-cuda} --size ${SIZE:-base} --batch-size ${BATCH:-64} --learning-rate ${LR:-3e-4} --minutes ${MINUTES:-3}
      --s-per-step ${SPS:-0.077} --guided-budget ${GUIDED:-250} --no-baselines --threads 8 --num-proc 12 --name $NAME --save"
(while sleep 5; do cp "$RUN/sft/metrics.jsonl" "$OUT/sft_metrics.jsonl" 2>/dev/null; done) & copier=$!
trap 'kill $copier 2>/dev/null' EXIT
keep() { cp benchmarks/results/$NAME.json "$RUN/stages.json" "$OUT/" 2>/dev/null
         cp "$RUN/sft/metrics.jsonl" "$OUT/sft_metrics.jsonl" 2>/dev/null; }
python3 benchmarks/stepwise.py $ARGS --stages eval,world > "$OUT/log_eval.txt" 2>&1; rc=$?; keep; tail -c 2500 "$OUT/log_eval.txt"
echo "eval and world done at $((SECONDS - T0)) s"
[ $rc = 0 ] || exit $rc
left=$((LIMIT - (SECONDS - T0))); [ $left -gt 30 ] || exit 0
timeout $left python3 benchmarks/stepwise.py $ARGS --stages eval,world,deep --deep ${DEEP:-12} --deep-budget ${DEEP_BUDGET:-2000} > "$OUT/log_deep.txt" 2>&1
rc=$?; keep; tail -c 1500 "$OUT/log_deep.txt"; echo "deep rc $rc at $((SECONDS - T0)) s"; exit 0
