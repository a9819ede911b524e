"""Whether torch on this device has an fp8 (e4m3) attention to compare lower-tc's with
(issue 23: "against cuDNN's fp8 attention where torch exposes it"): SDPA with each backend
on e4m3 tensors, cuDNN's Python frontend, and the private op SDPA's cuDNN backend calls,
whose fp8 output is checked against float64 (4 heads of 512 x 128, plain and causal).

    python bench/attention_fp8_backends.py        # torch (the device's), prints what it finds
"""
import math
import torch
print("torch", torch.__version__, "cuda", torch.version.cuda, "cudnn", torch.backends.cudnn.version(), torch.cuda.get_device_name())
try:
    import cudnn
    print("cudnn frontend", cudnn.backend_version())
except Exception as e:
    print("no cuDNN Python frontend:", type(e).__name__, e)
from torch.nn.attention import SDPBackend, sdpa_kernel
q = torch.randn(1, 8, 256, 128, device="cuda").to(torch.float8_e4m3fn)
for be in (SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION, SDPBackend.MATH):
    try:
        with sdpa_kernel(be):
            o = torch.nn.functional.scaled_dot_product_attention(q, q, q)
        print(be, "e4m3: ran,", o.dtype)
    except Exception as e:
        print(be, "e4m3:", type(e).__name__, str(e).splitlines()[0][:200])
op = torch.ops.aten._scaled_dot_product_cudnn_attention
for causal in (False, True):
    h, s, d = 4, 512, 128
    q8, k8, v8 = (torch.randn(1, h, s, d, device="cuda").to(torch.float8_e4m3fn) for _ in range(3))
    try:
        o = op(q8, k8, v8, None, False, 0.0, causal, False)[0]
    except Exception as e:
        print("aten._scaled_dot_product_cudnn_attention e4m3:", type(e).__name__, str(e).splitlines()[0][:200])
        continue
    qd, kd, vd = (t.double() for t in (q8, k8, v8))
    sc = qd @ kd.transpose(-1, -2) / math.sqrt(d)
    if causal:
        sc = sc.masked_fill(torch.ones(s, s, device="cuda", dtype=torch.bool).triu(1), float("-inf"))
    ref = torch.softmax(sc, -1) @ vd
    bad = torch.isnan(o.float())
    print(f"aten._scaled_dot_product_cudnn_attention e4m3 causal={causal}: ran, O {o.dtype}, "
          f"NaN in {int(bad.sum())} of {o.numel()}, max |O - float64| {float((o.double() - ref).abs().max())}")
