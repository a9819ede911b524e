#!/usr/bin/env bash
# Everything lower-tc checks on a lent H100, in one call of the `device` tool:
#
#   bash bench/device_run.sh SHARD      # SHARD: which part of the sweep, e.g. 0/2 (or "none")
#   bash bench/device_run.sh 0/1        # everything in one call (about 6 minutes on an H100)
#   bash bench/device_run.sh 0/2; bash bench/device_run.sh 1/2    # the same in two calls
#
# run from the repository root with `.whl` carried (xDSL and its pure-Python
# dependencies, lit, filecheck: see docs/sweep.md) and OUT set to a folder for the
# results. It installs lower-tc, records the device, then runs the GPU tests, every
# example through `lower-tc run`, the base-offset experiment (first shard only) and the
# given shard of the hardware sweep. Each step's output goes to $OUT; a step that fails
# does not stop the next.
set -u
shard=${1:?usage: bench/device_run.sh SHARD}
: "${OUT:?set OUT to a folder for the results}"
export PYTHONUNBUFFERED=1
source bench/device_install.sh  # lower-tc and .whl into /tmp/site; PYTHONPATH, py

{ date -u +"%Y-%m-%d %H:%M UTC"; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
  ptxas --version | tail -1; python3 --version; echo "shard $shard"; } | tee -a "$OUT/env.txt"

if [ "${shard%%/*}" = "0" ] || [ "$shard" = "none" ]; then  # the first shard also runs the rest
  echo "== GPU tests"
  $py -m pytest -q -p no:cacheprovider -m gpu -rs tests 2>&1 | tee "$OUT/pytest_gpu.txt" | tail -15
  echo "== examples through lower-tc run"
  for f in examples/*.mlir; do
    # an example with sizes known at launch names them in a comment: --shape NAME=RxC ...
    shapes=$(grep -o -- '--shape [^ ]*' "$f" | tr '\n' ' ')
    echo "--- $f $shapes"; $py -m lower_tc.lowering.cli run "$f" --seed 11 $shapes; echo "exit status $?"
  done 2>&1 | tee "$OUT/run_examples.txt" | tail -30
  echo "== base-offset experiment"
  $py bench/base_offset.py --out "$OUT/base_offset.tsv" > "$OUT/base_offset.txt" 2>&1
  echo "exit status $?"; tail -4 "$OUT/base_offset.txt"
fi
if [ "$shard" != "none" ]; then
  echo "== sweep shard $shard"
  name=sweep_${shard%/*}
  echo "== sweep shard $shard" >> "$OUT/sweep_log.txt"
  $py bench/sweep.py --shard "$shard" --out "$OUT/$name.tsv" > "$OUT/$name.log" 2>&1
  echo "exit status $?" | tee -a "$OUT/$name.log"; cat "$OUT/$name.log" >> "$OUT/sweep_log.txt"
  rm "$OUT/$name.log"; tail -30 "$OUT/sweep_log.txt"
fi
