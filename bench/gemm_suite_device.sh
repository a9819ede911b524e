#!/usr/bin/env bash
# Issue 22's GEMM suite (bench/gemm_suite.py) in one call of the `device` tool:
#
#   OUT=... LOWER_TC_COMMIT=$(git rev-parse --short HEAD) bash bench/gemm_suite_device.sh CHUNK [CHUNK ...]
#
# run from the repository root with `.whl` carried (docs/sweep.md, "Rerunning"; add absl-py
# to it: JAX's hopper_matmul_mgpu imports jax._src.test_util, which needs absl). Each CHUNK
# is one quoted string of the suite's filters, e.g. "--dtype bf16 --layout rowmajor
# --category square" (quote a name with spaces inside it: "--shapes 'square 8192^3'"); chunk i writes $OUT/suite_<i>.json and $OUT/suite_<i>.md (or
# $OUT/suite_<NAME>.* where the chunk starts with NAME=, e.g. "squares=--category square").
# It installs lower-tc, records the device (env.txt), runs the chunks one after another in
# one process each, then merges whatever this call wrote into $OUT/suite.json and suite.md.
# The chunks share BUDGET_S seconds (default 540, from the script's start): a chunk starts
# no case past it, and what it did not reach is listed. To finish such a chunk in a later
# call, put its suite_<NAME>.json in a folder of the work tree (untracked, so it is carried)
# and set RESUME_DIR to that folder: the chunk starts from it (--resume) and skips its cases.
# SUITE_SCRIPT=bench/gemm_tune_suite.py runs the tuning candidates' study instead (same
# filters); it compiles each chunk's kernels first on every CPU (--compile --jobs).
set -u
: "${OUT:?set OUT to a folder for the results}"
script=${SUITE_SCRIPT:-bench/gemm_suite.py}
[ $# -ge 1 ] || { echo "usage: OUT=... bash bench/gemm_suite_device.sh CHUNK [CHUNK ...]"; exit 2; }
start=$(date +%s)
budget=${BUDGET_S:-540}
export PYTHONUNBUFFERED=1
export XLA_PYTHON_CLIENT_PREALLOCATE=false
source bench/device_install.sh  # lower-tc and .whl into /tmp/site; PYTHONPATH, py
{ date -u +"%Y-%m-%d %H:%M UTC"; nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,power.limit --format=csv,noheader
  ptxas --version | tail -1; python3 --version
  python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda)" 2>&1 | tail -1
  python3 -c "import jax; print('jax', jax.__version__)" 2>&1 | tail -1
  echo "commit ${LOWER_TC_COMMIT:-unknown}"; } | tee "$OUT/env.txt"
i=0
written=()
for chunk in "$@"; do
  i=$((i + 1))
  name=$i
  if [[ "$chunk" =~ ^([A-Za-z0-9_-]+)=(.*)$ ]]; then name=${BASH_REMATCH[1]}; chunk=${BASH_REMATCH[2]}; fi
  left=$(( budget - ($(date +%s) - start) ))
  if [ "$left" -le 10 ]; then echo "== chunk $name not started: the budget of $budget s is spent"; continue; fi
  resume=()
  if [ -n "${RESUME_DIR:-}" ] && [ -f "$RESUME_DIR/suite_$name.json" ]; then
    cp "$RESUME_DIR/suite_$name.json" "$OUT/suite_$name.json" && resume=(--resume)
  fi
  echo "== chunk $name: $chunk ${resume[*]+${resume[*]}} (budget ${left} s)"
  eval "words=($chunk)"  # the chunk's words, shell-quoted as typed: --shapes 'qkv, M=16'
  if [ "$script" != bench/gemm_suite.py ]; then $py "$script" "${words[@]}" --compile --jobs "$(nproc)" 2>&1 | tee "$OUT/compile_$name.log"; fi
  $py "$script" "${words[@]}" ${resume[@]+"${resume[@]}"} --budget-s "$left" --commit "${LOWER_TC_COMMIT:-unknown}" \
    --out "$OUT/suite_$name.json" --table "$OUT/suite_$name.md" 2>&1 | tee "$OUT/suite_$name.log"
  [ -f "$OUT/suite_$name.json" ] && written+=("$OUT/suite_$name.json")
done
if [ ${#written[@]} -gt 0 ]; then
  $py "$script" --from-json "${written[@]}" --out "$OUT/suite.json" --table "$OUT/suite.md"
fi
echo "took $(( $(date +%s) - start )) s"
