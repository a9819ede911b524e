#!/usr/bin/env bash
# Nsight Compute on fp8's promoted 128 x 192 GEMM at 4096^3, assembled by each assembler:
#
#   OUT=... bash bench/ncu_fp8_promoted.sh
#
# run on the device after lower-tc is installed (PYTHONPATH set, as bench/gemm_device_run.sh
# does). It writes one tc.matmul (e4m3, B K-major, D bf16, accumulation = "promoted", config
# 128 x 192 x 128, 4 stages), times it with `lower-tc run --bench` under ncu with
# LOWER_TC_ASSEMBLER=nvjitlink and =ptxas, and profiles the third launch (SpeedOfLight,
# WarpStateStats, LaunchStats). nvJitLink ignores setmaxnreg (docs/performance.md), so its
# cubin's consumers spill; the ptxas program's do not. Writes $OUT/ncu_fp8_promoted.txt.
set -u
: "${OUT:?set OUT to a folder for the results}"
src=/tmp/ncu_fp8_promoted.mlir
cat > "$src" <<'MLIR'
func.func @promoted(%A: memref<4096x4096xf8E4M3FN>, %B: memref<4096x4096xf8E4M3FN, strided<[1, 4096]>>, %D: memref<4096x4096xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D acc f32 config #tc.gemm_config<bm = 128, bn = 192, bk = 128, stages = 4> {accumulation = "promoted"} : memref<4096x4096xf8E4M3FN>, memref<4096x4096xf8E4M3FN, strided<[1, 4096]>>, memref<4096x4096xbf16>
  func.return
}
MLIR
{
  echo "# ncu on fp8 promoted 128x192 at 4096^3: $(date -u +'%Y-%m-%d %H:%M UTC'), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader), commit ${LOWER_TC_COMMIT:-unknown}"
  ncu --version | tail -1
  for which in nvjitlink ptxas; do
    echo "## LOWER_TC_ASSEMBLER=$which"
    LOWER_TC_ASSEMBLER=$which LOWER_TC_NO_CACHE=1 ncu --launch-skip 2 --launch-count 1 --section SpeedOfLight \
      --section WarpStateStats --section LaunchStats \
      python3 -P -W always -m lower_tc.lowering.cli run "$src" --bench --warmup 2 --runs 1 2>&1 | grep -v "^==PROF=="
  done
} > "$OUT/ncu_fp8_promoted.txt" 2>&1
grep -E "^## |Duration|Registers Per Thread|Stack Size|Compute \(SM\) Throughput|L1TEX|SetmaxnregIgnored" "$OUT/ncu_fp8_promoted.txt" | head -30
