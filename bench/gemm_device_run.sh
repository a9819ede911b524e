#!/usr/bin/env bash
# The GEMM sweep and the benchmark against cuBLAS, in one call of the `device` tool:
#
#   OUT=... LOWER_TC_COMMIT=$(git rev-parse --short HEAD) bash bench/gemm_device_run.sh [SHARDS]
#
# run from the repository root with `.whl` carried (docs/sweep.md, "Rerunning"). It installs
# lower-tc, records the device, runs the GEMM sweep (bench/gemm_sweep.py) in SHARDS processes
# at once (default 4: the checks' float64 references are CPU work; the GPU runs one kernel
# at a time per process), then bench/gemm.py alone on the idle GPU. Writes to $OUT:
# env.txt, gemm_sweep.tsv (all shards), gemm_sweep_log.txt, gemm_h100.json, ablation_h100.json,
# ncu_gemm.txt (bench/ncu_gemm.sh on the default kernel at 8192^3). STEPS="sweep bench ncu"
# (the default) chooses the steps, so that they can go to separate calls of 10 minutes.
set -u
steps=${STEPS:-sweep bench ncu}
shards=${1:-4}
: "${OUT:?set OUT to a folder for the results}"
export PYTHONUNBUFFERED=1
source bench/device_install.sh  # lower-tc and .whl into /tmp/site; PYTHONPATH, py
{ date -u +"%Y-%m-%d %H:%M UTC"; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
  ptxas --version | tail -1; python3 --version; echo "commit ${LOWER_TC_COMMIT:-unknown}"; } | tee "$OUT/env.txt"
if [[ " $steps " == *" sweep "* ]]; then
echo "== GEMM sweep in $shards shards"
start=$(date +%s)
for i in $(seq 0 $((shards - 1))); do
  $py bench/gemm_sweep.py --shard "$i/$shards" --out "/tmp/gemm_sweep_$i.tsv" > "/tmp/gemm_sweep_$i.log" 2>&1 &
done
wait
head -1 /tmp/gemm_sweep_0.tsv > "$OUT/gemm_sweep.tsv"
for i in $(seq 0 $((shards - 1))); do tail -n +2 "/tmp/gemm_sweep_$i.tsv" >> "$OUT/gemm_sweep.tsv"; cat "/tmp/gemm_sweep_$i.log"; done | tee "$OUT/gemm_sweep_log.txt"
echo "sweep took $(( $(date +%s) - start )) s" | tee -a "$OUT/gemm_sweep_log.txt"
fi
if [[ " $steps " == *" bench "* ]]; then
echo "== bench/gemm.py"
$py bench/gemm.py --out "$OUT/gemm_h100.json" --ablation "$OUT/ablation_h100.json" 2>&1 | tee "$OUT/gemm_bench_log.txt"
fi
if [[ " $steps " == *" ncu "* ]]; then
echo "== ncu on the default GEMM at 8192^3 bf16"
OUT="$OUT" bash bench/ncu_gemm.sh 8192 8192 8192 bf16 2>&1 | tail -25
fi
