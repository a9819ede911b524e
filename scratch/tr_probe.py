"""Probe: where V's transposition costs (timing variants, wrong results on purpose)."""
import sys, statistics, json
sys.path.insert(0, "bench")
import torch
import lower_tc
from attention_loop import AttentionCase
from lower_tc.passes.to_ptx.attention import transpose
from lower_tc.lowering.runtime.timing import attention_flops

orig_stage = transpose.VTransposer.stage
orig_prepare = transpose.VTransposer.prepare.__func__
from lower_tc.passes.to_ptx.attention import specialized as spec
import dataclasses
def grouped(g, r):
    spec.TRANSPOSER_REGISTERS = r
    transpose.VTransposer.prepare = classmethod(lambda cls, *a, **k: dataclasses.replace(orig_prepare(cls, *a, **k), group=g))
from lower_tc.dialects import ptx as P
def ld_only(self, s):
    b, plan = self.b, self.plan
    from lower_tc.passes.to_ptx.gemm.tma_loads import stage_tile
    src, so = stage_tile(b, self.smem, s, self.src); dst, do = stage_tile(b, self.smem, s, self.dst)
    acc = b.imm(0)
    for n in range(plan.iterations):
        for j in range(4):
            off = b.val(P.XorOp, [self.offsets[j]], type="b32", imm=plan.step_xor[n][j])
            w = b.val(P.LdOp, [b.val(P.AddOp, [src, off], type="u32")], space="shared", type="b32", vec=1, offset=so)
            acc = b.val(P.XorOp, [acc, w], type="b32")
    b.emit(P.StOp, [b.val(P.AddOp, [dst, self.offsets[4]], type="u32"), acc], space="shared", type="b32", vec=1, offset=do)
def ld_wide(self, s, vec):
    b, plan = self.b, self.plan
    from lower_tc.passes.to_ptx.gemm.tma_loads import stage_tile
    from xdsl.dialects.builtin import i32
    src, so = stage_tile(b, self.smem, s, self.src); dst, do = stage_tile(b, self.smem, s, self.dst)
    acc = b.imm(0)
    count = 0
    for n in range(plan.iterations):
        for j in range(4):
            count += 1
            if count % vec:
                continue
            off = b.val(P.XorOp, [self.offsets[j]], type="b32", imm=plan.step_xor[n][j])
            off = b.val(P.AndOp, [off], type="b32", imm=~(4 * vec - 1) & 0xFFFFFFFF)
            ws = b.emit(P.LdOp, [b.val(P.AddOp, [src, off], type="u32")], [i32] * vec, space="shared", type="b32", vec=vec, offset=so).res
            for w in ws:
                acc = b.val(P.XorOp, [acc, w], type="b32")
    b.emit(P.StOp, [b.val(P.AddOp, [dst, self.offsets[4]], type="u32"), acc], space="shared", type="b32", vec=1, offset=do)
def st_only(self, s):
    b, plan = self.b, self.plan
    from lower_tc.passes.to_ptx.gemm.tma_loads import stage_tile
    dst, do = stage_tile(b, self.smem, s, self.dst)
    for n in range(plan.iterations):
        for i in range(4):
            off = b.val(P.XorOp, [self.offsets[4 + i]], type="b32", imm=plan.step_xor[n][4 + i])
            b.emit(P.StOp, [b.val(P.AddOp, [dst, off], type="u32"), off], space="shared", type="b32", vec=1, offset=do)
def variant(name):
    grouped(8, 56)
    if name == "ldonly":
        transpose.VTransposer.stage = ld_only; return
    if name in ("ld2", "ld4"):
        transpose.VTransposer.stage = lambda self, s, v=int(name[2]): ld_wide(self, s, v); return
    if name == "stonly":
        transpose.VTransposer.stage = st_only; return
    if name.startswith("grp"):
        g, r = name[3:].split("r")
        grouped(int(g), int(r))
    if name == "none":
        transpose.VTransposer.stage = lambda self, s: None
    elif name == "half":
        def half(self, s):
            import dataclasses
            p = self.plan
            small = dataclasses.replace(p, iterations=p.iterations // 2)
            object.__setattr__(self, "plan", small)
            orig_stage(self, s)
            object.__setattr__(self, "plan", p)
        transpose.VTransposer.stage = half
    else:
        transpose.VTransposer.stage = orig_stage

rows = []
ONLY = sys.argv[1:] == ["ncu"]
for d, bm, bn, st in ((256, 128, 64, 3),) if ONLY else ((256, 128, 64, 3), (128, 128, 128, 4)):
    for causal in (False,):
        s = 8192
        h = 16384 // s * (2048 // d)
        q = torch.randn(1, h, s, d, device="cuda").to(torch.float8_e4m3fn)
        k = torch.randn(1, h, s, d, device="cuda").to(torch.float8_e4m3fn)
        v = torch.randn(1, h, s, d, device="cuda").to(torch.float8_e4m3fn)
        vt = v.transpose(-1, -2).contiguous()
        o = torch.empty(1, h, s, d, device="cuda", dtype=torch.bfloat16)
        kernels = {}
        for name in ("vt", "given", "ldonly", "ld2", "ld4", "none"):
            variant(name if name != "vt" else "given")
            case = AttentionCase(h, s, d=d, bm=bm, bn=bn, stages=st, causal=causal, dtype="e4m3", v_given=name != "vt")
            from lower_tc.lowering.compile import compile_source
            from lower_tc.lowering.runtime.callable import Kernel
            ck = compile_source(case.source(), case.name + name, assemble=True)[0]
            kern = Kernel(ck.cubin, ck.info)
            arg = vt if name == "vt" else v
            kernels[name] = (lambda kern=kern, arg=arg: kern(q[0], k[0], arg[0], o[0]))
            flops = attention_flops(kern.info)
        variant("given")
        if ONLY:
            kernels["vt"](); kernels["given"](); torch.cuda.synchronize(); break
        times = {n: [] for n in kernels}
        for n, f in kernels.items():
            for _ in range(3): f()
        for _ in range(10):
            for n, f in kernels.items():
                a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                a.record()
                for _ in range(10): f()
                b.record(); b.synchronize()
                times[n].append(a.elapsed_time(b) / 10)
        row = {"d": d, "causal": causal, **{n: round(flops / (statistics.median(t) * 1e-3) / 1e12, 1) for n, t in times.items()}}
        print(json.dumps(row), flush=True)
