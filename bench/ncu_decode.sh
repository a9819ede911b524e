#!/usr/bin/env bash
# Nsight Compute on decoding GEMMs (D = x W^T, W as nn.Linear's weight: B K-major), the
# default kernel at each M given: time, DRAM and L2 traffic, L2 hit rate, the traffic that
# crosses between the L2's two partitions, SM and tensor-pipe activity. Whether a larger
# activation (M) costs DRAM re-reads, L2 bandwidth or shared-memory bandwidth.
#
#   OUT=... bash bench/ncu_decode.sh N K DTYPE M [M ...] ["@OPTIONS"]
#
# e.g. bash bench/ncu_decode.sh 4096 14336 bf16 8 64. A trailing "@..." adds tc.matmul
# options to every launch ("@swap_ab = true"). Run on the device after lower-tc is installed
# (PYTHONPATH set). Profiles the third launch of `lower-tc run --bench` at each M (caches
# flushed before it, clocks as the driver sets them); appends to $OUT/ncu_decode.txt.
set -u
n=$1; k=$2; dt=$3; shift 3
: "${OUT:?set OUT to a folder for the results}"
opts=""
[[ "${!#}" == @* ]] && { opts=" {${!##@}}"; set -- "${@:1:$#-1}"; }
mlir_dt=$dt; [ "$dt" = e4m3 ] && mlir_dt=f8E4M3FN; [ "$dt" = e5m2 ] && mlir_dt=f8E5M2
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,lts__t_sector_hit_rate.pct,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors_srcunit_ltcfabric.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__cycles_active.avg.pct_of_peak_sustained_elapsed
{
  echo "# ncu, decoding ${n}x${k} ${dt}${opts}: $(date -u +'%Y-%m-%d %H:%M UTC'), $(nvidia-smi --query-gpu=name --format=csv,noheader)"
  for m in "$@"; do
    src=/tmp/ncu_decode_${m}x${n}x${k}_${dt}.mlir
    cat > "$src" <<MLIR
func.func @gemm(%A: memref<${m}x${k}x${mlir_dt}>, %B: memref<${k}x${n}x${mlir_dt}, strided<[1, ${k}]>>, %D: memref<${m}x${n}xbf16>) attributes {tc.target = "sm_90a"} {
  tc.matmul %A, %B to %D${opts} : memref<${m}x${k}x${mlir_dt}>, memref<${k}x${n}x${mlir_dt}, strided<[1, ${k}]>>, memref<${m}x${n}xbf16>
  func.return
}
MLIR
    echo "## M = $m: $(python3 -P -m lower_tc.lowering.cli -t mlir -p tc-expand-matmul "$src" 2>&1 \
      | grep -o 'tc.grid = \[[0-9]*\|stages = [0-9]* : i64} : !tc.tile<[0-9x]*' | tr '\n' ' ')"
    ncu --launch-skip 2 --launch-count 1 --clock-control none --cache-control all --metrics "$metrics" \
      python3 -P -m lower_tc.lowering.cli run "$src" --bench --warmup 2 --runs 1 2>&1 \
      | grep -E "^\s+(gpu__|sm__|smsp__|dram__|lts__|l1tex__)|==ERROR==|error"
  done
} | tee -a "$OUT/ncu_decode.txt"
