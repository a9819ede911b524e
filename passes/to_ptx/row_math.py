"""The arithmetic of the online softmax's running rows that the wgmma and the tensor-memory
lowerings share (online_softmax.py, online_softmax_tmem.py): the scale's constant in log2
units, a maximum read as 0 where it is -inf (so that exp2(-inf - -inf) never makes a NaN),
the factor that carries a sum or an O to a new maximum, and a sum's reciprocal (0 where
the sum is 0); each with its factor known at launch where the op has one."""

from __future__ import annotations

import math

from xdsl.dialects.builtin import i1
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import ptx, tc
from lower_tc.dialects.diagnostics import error_at
from lower_tc.passes.to_ptx.emit import PtxBuilder
from lower_tc.passes.to_ptx.kernel import KernelLowering
from lower_tc.passes.to_ptx.softmax import f32_immediate
from lower_tc.passes.to_ptx.values import f32

NEG_INF = f32_immediate(-math.inf)
NAN = f32_immediate(math.nan)
#: The smallest normal f32 (2^-126): what a zero factor of the scores becomes.
FLT_MIN = f32_immediate(2.0**-126)


def scale_constant(kl: KernelLowering, op: tc.AccRowMaxOp | tc.AccExpOp, what: str) -> SSAValue:
    """scale x log2 e: the scores' factor into the rows' log2 units (`what` says what for);
    times the op's factor known at launch where it has one, made NaN where that product is
    below 0 or NaN (a negative factor would turn the row maximum into a minimum: every O
    NaN instead of a wrong softmax), and at least the smallest normal f32 where it is 0 or
    below that (a masked score, -inf, stays -inf instead of -inf x 0 = NaN: a zero factor
    makes every unmasked score equal, a uniform softmax)."""
    b = kl.b
    scale = op.scale.value.data
    key = (op.factor, scale)
    if op.factor is not None and key in kl.launch_scales:  # computed once (an attention loop's, before the loop)
        return kl.launch_scales[key]
    c = b.val(ptx.MovImmOp, result=f32, type="f32", value=f32_immediate(scale * math.log2(math.e)),
              comment=f"{what}: scores times {scale:g} x log2 e" + (" x a factor known at launch" if op.factor else ""))
    if op.factor is None:
        return c
    c = b.val(ptx.MulOp, [c, launch_factor(kl, op, op.factor)], f32, type="f32")
    valid = b.val(ptx.SetpOp, [c, b.val(ptx.MovImmOp, result=f32, type="f32", value=f32_immediate(0.0))], i1, cmp="ge", type="f32")
    c = b.val(ptx.MaxOp, [c, b.val(ptx.MovImmOp, result=f32, type="f32", value=FLT_MIN)], f32, type="f32")
    kl.launch_scales[key] = b.val(ptx.SelpOp, [c, b.val(ptx.MovImmOp, result=f32, type="f32", value=NAN), valid], f32, type="f32")
    return kl.launch_scales[key]


def scores_factor_once(kl: KernelLowering, loop_body: list[Operation]) -> None:
    """The scores' factor known at launch of a loop's tc.acc_row_max and tc.acc_exp,
    computed here (before the loop) and kept (`kl.launch_scales`), so that their lowering
    in each block takes it rather than computing it again."""
    for op in loop_body:
        if isinstance(op, tc.AccRowMaxOp | tc.AccExpOp) and op.factor is not None:
            kl.b.located(op, lambda o: scale_constant(kl, o, "the scores' factor"))


def launch_factor(kl: KernelLowering, op: Operation, factor: SSAValue) -> SSAValue:
    """The register of `factor`, an f32 read by memref.load before (scalars.py)."""
    reg = kl.scalars.get(factor)
    if reg is None:
        error_at(op, f"{op.name}'s factor is an f32 read by memref.load (or a product of such, arith.mulf) before the op")
    return reg


def row_divisor(kl: KernelLowering, op: tc.AccRowDivOp, l: SSAValue, comment: str | None) -> SSAValue:
    """1 / l, 0 where l is 0 (`inverse_or_zero`), times the op's factor known at launch."""
    inverse = inverse_or_zero(kl, l, comment)
    if op.factor is None:
        return inverse
    return kl.b.val(ptx.MulOp, [inverse, launch_factor(kl, op, op.factor)], f32, type="f32")


def finite(kl: KernelLowering, m: SSAValue) -> SSAValue:
    """m, or 0 where m is -inf (module docstring)."""
    b = kl.b
    blind = b.val(ptx.SetpOp, [m, b.val(ptx.MovImmOp, result=f32, type="f32", value=NEG_INF)], i1, cmp="eq", type="f32")
    return b.val(ptx.SelpOp, [b.val(ptx.MovImmOp, result=f32, type="f32", value=f32_immediate(0.0)), m, blind], f32, type="f32")


def carry_factor(kl: KernelLowering, old: SSAValue, new: SSAValue, comment: str | None = None) -> SSAValue:
    """exp2(old - new), new read as 0 where it is -inf."""
    finite_new = finite(kl, new)
    return kl.b.val(ptx.Ex2Op, [kl.b.val(ptx.SubOp, [old, finite_new], f32, type="f32", comment=comment)], f32, type="approx.ftz.f32")


def seen_whole(b: PtxBuilder, k: SSAValue, n: int, q: SSAValue, keys: int | None, causal: int | None) -> SSAValue:
    """The predicate of a block every row of which sees all n keys from register k: they
    are below `keys`, and (causally) the last is seen by the first query, register q."""
    end = b.add_imm(k, n)
    whole = None
    if keys is not None:
        whole = b.val(ptx.SetpOp, [end], i1, cmp="le", type="s32", imm=keys, comment=f"the block is seen whole: keys < {keys}"
                      + (f", key <= query + {causal}" if causal is not None else ""))
    if causal is not None:
        last = b.val(ptx.SubOp, [b.add_imm(end, -1 - causal), q], type="s32")
        within = b.val(ptx.SetpOp, [last], i1, cmp="le", type="s32", imm=0)
        whole = within if whole is None else b.val(ptx.AndOp, [whole, within], i1, type="pred")
    assert whole is not None
    return whole


def inverse_or_zero(kl: KernelLowering, l: SSAValue, comment: str | None) -> SSAValue:
    """1 / l (rcp.approx.ftz: rcp.rn is a subroutine call, which serializes wgmma:
    softmax.py), 0 where l is 0."""
    b = kl.b
    inverse = b.val(ptx.RcpOp, [l], f32, type="approx.ftz.f32", comment=comment)
    empty = b.val(ptx.SetpOp, [l, b.val(ptx.MovImmOp, result=f32, type="f32", value=f32_immediate(0.0))], i1, cmp="eq", type="f32")
    return b.val(ptx.SelpOp, [b.val(ptx.MovImmOp, result=f32, type="f32", value=f32_immediate(0.0)), inverse, empty], f32, type="f32")


__all__ = ["NAN", "NEG_INF", "carry_factor", "finite", "inverse_or_zero", "launch_factor", "row_divisor", "scale_constant",
           "scores_factor_once", "seen_whole"]
