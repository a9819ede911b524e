#!/usr/bin/env bash
# Nsight Compute on lower-tc's default GEMM: SM throughput and tensor-pipe utilisation.
#
#   OUT=... bash bench/ncu_gemm.sh [M N K] [DTYPE]     # default 8192 8192 8192 bf16
#
# run on the device after lower-tc is installed (PYTHONPATH set, as bench/gemm_device_run.sh
# does). It writes the default tc.matmul for that shape (A, B row-major, D bf16), times it
# with `lower-tc run --bench` under ncu, and profiles the third launch (after two warm-up
# ones) with the SpeedOfLight and ComputeWorkloadAnalysis sections, plus the tensor pipe's
# active cycles where this ncu knows the metric. Writes $OUT/ncu_gemm.txt.
set -u
m=${1:-8192}; n=${2:-8192}; k=${3:-8192}; dt=${4:-bf16}
: "${OUT:?set OUT to a folder for the results}"
src=/tmp/ncu_gemm_${m}x${n}x${k}_${dt}.mlir
b_layout=""
[ "$dt" != "bf16" ] && [ "$dt" != "f16" ] && b_layout=", strided<[1, $k]>"  # 8-bit B is K-major (column-major)
cat > "$src" <<MLIR
func.func @gemm(%A: memref<${m}x${k}x${dt}>, %B: memref<${k}x${n}x${dt}${b_layout}>, %D: memref<${m}x${n}xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D : memref<${m}x${k}x${dt}>, memref<${k}x${n}x${dt}${b_layout}>, memref<${m}x${n}xbf16>
  func.return
}
MLIR
sed -i 's/xe4m3/xf8E4M3FN/g; s/xe5m2/xf8E5M2/g' "$src"
metrics=sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum
{
  echo "# ncu on the default GEMM ${m}x${n}x${k} ${dt}: $(date -u +'%Y-%m-%d %H:%M UTC'), $(nvidia-smi --query-gpu=name --format=csv,noheader)"
  ncu --version | tail -1
  ncu --launch-skip 2 --launch-count 1 --section SpeedOfLight --section ComputeWorkloadAnalysis \
    python3 -P -m lower_tc.lowering.cli run "$src" --bench --warmup 2 --runs 1 2>&1
  echo "## the tensor pipe (metric $metrics)"
  ncu --launch-skip 2 --launch-count 1 --metrics "$metrics" \
    python3 -P -m lower_tc.lowering.cli run "$src" --bench --warmup 2 --runs 1 2>&1 | tail -8
} > "$OUT/ncu_gemm.txt"
tail -40 "$OUT/ncu_gemm.txt"
