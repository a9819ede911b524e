#!/usr/bin/env bash
# Nsight Compute on a GEMM with the default kernel and with stream-K, side by side: time,
# SM and memory throughput, DRAM and L2 traffic, the tensor pipe.
#
#   OUT=... bash bench/ncu_stream_k.sh M N K "OPTIONS" ["OPTIONS" ...]
#
# e.g. bash bench/ncu_stream_k.sh 256 7168 16384 "" "stream_k = 2" "stream_k = 1". bf16, A
# and B row-major, D bf16, each variant a tc.matmul with those options (and, with "@",
# a configuration: "stream_k = 2 @ bm = 128, bn = 256, bk = 64, stages = 4"). Run on the
# device after lower-tc is installed (PYTHONPATH set). Profiles the third launch of
# `lower-tc run --bench` of each; writes $OUT/ncu_stream_k.txt. SECTIONS="WarpStateStats ..."
# adds those ncu sections (their lines are printed whole).
set -u
m=$1; n=$2; k=$3; shift 3
: "${OUT:?set OUT to a folder for the results}"
metrics=gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed
{
  echo "# ncu, ${m}x${n}x${k} bf16: $(date -u +'%Y-%m-%d %H:%M UTC'), $(nvidia-smi --query-gpu=name --format=csv,noheader)"
  for variant in "$@"; do
    options=${variant%%@*}; config=""
    [[ "$variant" == *@* ]] && config=" config #tc.gemm_config<${variant#*@}>"
    src=/tmp/ncu_sk_$RANDOM.mlir
    cat > "$src" <<MLIR
func.func @gemm(%A: memref<${m}x${k}xbf16>, %B: memref<${k}x${n}xbf16>, %D: memref<${m}x${n}xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D${config} {${options}} : memref<${m}x${k}xbf16>, memref<${k}x${n}xbf16>, memref<${m}x${n}xbf16>
  func.return
}
MLIR
    echo "## options {${options}}${config}"
    sections=""
    for sec in ${SECTIONS:-}; do sections="$sections --section $sec"; done
    ncu --launch-skip 2 --launch-count 1 --metrics "$metrics" $sections \
      python3 -P -m lower_tc.lowering.cli run "$src" --bench --warmup 2 --runs 1 2>&1 \
      | grep -E "^\s+(gpu__|sm__|dram__|lts__)|remark|error|^\s+[A-Z][A-Za-z /-]+\s+(%|cycle|inst|byte|Kbyte|Mbyte|Gbyte|us|ms|warp)"
  done
} | tee "$OUT/ncu_stream_k.txt"
