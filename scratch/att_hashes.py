"""PTX hashes of bench/attention_loop.py's 16-bit and fp8 V^T cases (run from a checkout's root)."""
import hashlib, sys
sys.path.insert(0, "bench")
import attention_loop as al
from lower_tc.lowering.compile import compile_source
seen = set()
for c in al.CHECKS + al.BENCH + al.TUNE + al.FP8_BENCH + al.FP8_TUNE + getattr(al, "MOSAIC", []):
    if getattr(c, "v_given", False) or c.name in seen:
        continue
    seen.add(c.name)
    for which, src in (("loop", c.source()), ("op", c.op_source())):
        try:
            ptx = compile_source(src, c.name)[0].ptx
            print(c.name, which, hashlib.sha256(ptx.encode()).hexdigest()[:16], flush=True)
        except Exception as e:  # noqa: BLE001
            print(c.name, which, "ERROR", type(e).__name__, str(e)[:80], flush=True)
