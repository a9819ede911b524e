"""The tensor-core MMAs on shared-memory tiles: ``tc.wgmma`` (sm_90a) and ``tc.tcgen05_mma``
(sm_100a)."""

from __future__ import annotations

import math
from typing import ClassVar

from xdsl.dialects.builtin import FloatAttr, Float32Type, UnitAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.tc_acc_ops import WGMMA_ACCUMULATORS, wgmma_ns, wgmma_valid_n
from lower_tc.dialects.tc_tile_ops import TileTransposeOp
from lower_tc.dialects.tc_kernel import _check_target, enclosing_kernel, in_attention_loop, in_gemm_k_loop, in_gemm_kernel, kernel_target, lost_gemm_loop
from lower_tc.dialects.tc_types import AFragType, AccType, TileType
from lower_tc.layout import LayoutError, Major, element_type
from lower_tc.layout.gemm import WIDE_WGMMA_MAX_BM, WIDE_WGMMA_NS
from lower_tc.layout.instr_desc import InstrDescriptor
from lower_tc.layout.targets import Arch, check_operand_type


def _check_pair(a: TileType | AFragType, b: TileType, acc: AccType, b_share: int = 1) -> None:
    """A x B fills the accumulator (A a tile, or a register fragment); with b_share = 2 (a CTA pair's MMA) this CTA's B tile
    holds half of the accumulator's columns and the peer's the other half."""
    if a.k != b.k:
        raise VerifyException(f"A has K = {a.k} but B has K = {b.k}")
    if (acc.m, acc.n) != (a.mn, b.mn * b_share):
        what = f"{a.mn}x{b.mn}" if b_share == 1 else f"{a.mn}x({b_share}x{b.mn}) (B's columns shared by the CTA pair)"
        raise VerifyException(
            f"the accumulator is {acc.m}x{acc.n} but A x B is {what}"
        )
    kpi = element_type(a.dtype).k_per_instruction
    if a.k % kpi:
        raise VerifyException(
            f"K = {a.k} is not a whole number of {kpi}-element (32-byte) instruction K-slices"
        )


#: The accumulator rows of sm_100a's single-tile attention ops: tcgen05's M = 128 layout
#: (row r in lane r), where each thread holds a whole row.
TMEM_TILE_ROWS = 128


def check_tmem_tile_f32(op: Operation, *accs: Attribute) -> None:
    """The rules of tc.acc_softmax and tc.acc_to_a on sm_100a: a single-tile kernel or an
    attention loop (not a GEMM's K loop), f32 accumulators of 128 rows in tensor memory (a
    tcgen05.mma's M = 128: each thread's lane holds one whole row)."""
    if in_gemm_kernel(op) and not in_attention_loop(op):
        raise VerifyException(f"{op.name} on sm_100a is for single-tile kernels and attention loops, not a GEMM's K loop")
    for acc in accs:
        assert isinstance(acc, AccType)
        if acc.dtype != "f32" or acc.m != TMEM_TILE_ROWS:
            raise VerifyException(f"{op.name} on sm_100a works on a tcgen05 accumulator of {TMEM_TILE_ROWS} rows in f32 "
                                  f"(one row a thread), not {acc.m}x{acc.n}x{acc.dtype}")


def _check_acc_consumed(mma: Operation, acc: SSAValue) -> None:
    """An MMA updates its accumulator in place (registers or tensor memory), so the
    input value no longer exists afterwards: only the MMA's result may be used."""
    for use in acc.uses:
        if use.operation is not mma and _follows(mma, use.operation):
            raise VerifyException(
                f"the accumulator is used again after this MMA (by {use.operation.name}), "
                "but the MMA updates it in place: use the MMA's result instead"
            )


def _follows(op: Operation, other: Operation) -> bool:
    """Whether `other` comes after `op` in op's block. Searched both ways from `op` at
    once, so the cost is the distance between them, not the block's length (a chain of
    10,000 MMAs, each checking the uses of its accumulator, stays linear)."""
    if other.parent is None or other.parent is not op.parent:
        return False
    forward, backward = op.next_op, op.prev_op
    while forward is not None or backward is not None:
        if forward is other:
            return True
        if backward is other:
            return False
        forward = forward.next_op if forward is not None else None
        backward = backward.prev_op if backward is not None else None
    return False


@irdl_op_definition
class WgmmaOp(IRDLOperation):
    """``%d = tc.wgmma %a, %b, %acc : !tc.tile<...>, !tc.tile<...>, !tc.acc<...>`` (sm_90a).

    One wgmma.mma_async per 32-byte K-slice of the tiles, accumulating into
    %acc. With ``a_in_registers``, A is first loaded from its tile into the
    warpgroup's registers (the register form of wgmma). A may also be a
    ``!tc.afrag`` (``tc.acc_to_a``): already in registers, read as it is.
    """

    name = "tc.wgmma"
    ACC: ClassVar = VarConstraint("ACC", base(AccType))
    a = operand_def(TileType | AFragType)
    b = operand_def(TileType)
    acc = operand_def(ACC)
    result = result_def(ACC)
    a_in_registers = opt_prop_def(UnitAttr)
    assembly_format = (
        "$a `,` $b `,` $acc (`a_in_registers` $a_in_registers^)? attr-dict "
        "`:` type($a) `,` type($b) `,` type($acc)"
    )

    def __init__(self, a: SSAValue, b: SSAValue, acc: SSAValue, a_in_registers: bool = False):
        super().__init__(
            operands=[a, b, acc],
            result_types=[acc.type],
            properties={"a_in_registers": UnitAttr()} if a_in_registers else {},
        )

    def verify_(self) -> None:
        a, b, acc = self.a.type, self.b.type, self.acc.type
        assert isinstance(a, TileType | AFragType) and isinstance(b, TileType) and isinstance(acc, AccType)
        _check_target(self, Arch.SM90A)
        fragment = isinstance(a, AFragType)  # A already in registers (tc.acc_to_a): 64 rows, 16-bit
        if fragment and self.a_in_registers is not None:
            raise VerifyException("A is a register fragment already: `a_in_registers` loads a tile's A into registers")
        if not fragment and a.mn != 64 and not (in_gemm_kernel(self) and a.mn % 64 == 0 and a.mn <= 256):
            raise VerifyException(lost_gemm_loop(enclosing_kernel(self)) or f"wgmma has M = 64: the A tile is {a.mn}x{a.k}")
        pair = {a.dtype, b.dtype}
        same_kind = a.dtype == b.dtype or pair <= {"e4m3", "e5m2"} or pair <= {"s8", "u8"}
        if not same_kind:
            raise VerifyException(f"wgmma cannot multiply {a.dtype} by {b.dtype}")
        try:
            if not fragment:  # a fragment has no shared-memory layout to check
                check_operand_type(Arch.SM90A, a.dtype, a.major is Major.MN)
            check_operand_type(Arch.SM90A, b.dtype, b.major is Major.MN)
        except LayoutError as err:
            raise VerifyException(str(err)) from None
        ns = wgmma_valid_n(a.dtype) if fragment else wgmma_ns(self, a.dtype, b.mn)
        if b.mn not in ns:
            rule = "8, 16, 24, then multiples of 16" if a.dtype in ("s8", "u8") else "a multiple of 8"
            more = f", or {', '.join(map(str, WIDE_WGMMA_NS))} (several wgmmas a K-slice)" if max(ns) > 256 else ""
            raise VerifyException(f"wgmma N must be {rule} from 8 to 256{more}, not {b.mn}")
        if b.mn > 256 and a.mn > WIDE_WGMMA_MAX_BM:
            raise VerifyException(f"an N = {b.mn} accumulator holds {b.mn // 2} registers a thread: at most "
                                  f"{WIDE_WGMMA_MAX_BM // 64} consumer warpgroups (A of at most {WIDE_WGMMA_MAX_BM} rows), not {a.mn // 64}")
        _check_pair(a, b, acc)
        if acc.dtype not in WGMMA_ACCUMULATORS[a.dtype]:
            allowed = " or ".join(WGMMA_ACCUMULATORS[a.dtype])
            raise VerifyException(f"wgmma with {a.dtype} accumulates in {allowed}, not {acc.dtype}")
        if self.a_in_registers is not None and a.major is not Major.K:  # type: ignore[union-attr]  # (a tile: refused above for a fragment)
            raise VerifyException("wgmma with A in registers needs a K-major A tile")
        _check_acc_consumed(self, self.acc)


def check_single_tile_f32(op: Operation, *accs: Attribute, rows: tuple[Attribute, ...] = ()) -> None:
    """The rules of the ops on attention's accumulators (tc.acc_softmax, the online
    softmax's: dialects/tc_rows_ops.py): sm_90a, a single-tile kernel or an attention loop
    (tc_kernel.is_attention_loop), f32 accumulators of 64 rows (one warpgroup's wgmma
    fragment; in an attention loop 64, 128, 192 or 256, 64 a warpgroup), and `rows` (the
    `!tc.rows` operands) of the accumulators' rows."""
    _check_target(op, Arch.SM90A)
    loop = in_attention_loop(op)
    if in_gemm_kernel(op) and not loop:
        raise VerifyException(f"{op.name} is for single-tile kernels and attention loops (whose scf.for carries a !tc.rows)")
    allowed = (64, 128, 192, 256) if loop else (64,)
    for acc in accs:
        assert isinstance(acc, AccType)
        if acc.dtype != "f32" or acc.m not in allowed:
            where = "of 64 rows" if not loop else "of 64, 128, 192 or 256 rows"
            raise VerifyException(f"{op.name} works on a wgmma accumulator {where} in f32, not {acc.m}x{acc.n}x{acc.dtype}")
    want = accs[0].m if accs else None  # type: ignore[attr-defined]
    for r in rows:
        m = r.m  # type: ignore[attr-defined]
        if m not in allowed:
            raise VerifyException(f"{op.name}: a !tc.rows of {m} rows belongs in an attention loop (a single tile has 64)")
        if want is not None and m != want:
            raise VerifyException(f"{op.name}: the rows are {m} but the accumulator has {want} rows")


def check_softmax_scale(scale: FloatAttr) -> None:
    """A softmax's scale: a finite number above 0."""
    value = scale.value.data
    if not (math.isfinite(value) and value > 0):
        raise VerifyException(f"the softmax scale is a finite number above 0, not {value}")


@irdl_op_definition
class AccSoftmaxOp(IRDLOperation):
    """``%p = tc.acc_softmax %s scale 0.125 : !tc.acc<64x64xf32>`` (sm_90a): the softmax of
    each row of `scale` x S, in the accumulator's layout (attention's P for a block of keys
    that is the whole row). Each thread holds two rows' N/4 elements each; a row's maximum
    and sum are reduced across the four threads of its quad (shfl.sync.bfly 1 and 2), the
    exponentials are exp2((s - max) x scale x log2 e) (ex2.approx)."""

    name = "tc.acc_softmax"
    ACC: ClassVar = VarConstraint("ACC", base(AccType))
    acc = operand_def(ACC)
    result = result_def(ACC)
    scale = prop_def(FloatAttr[Float32Type])
    assembly_format = "$acc `scale` $scale attr-dict `:` type($acc)"

    def __init__(self, acc: SSAValue, scale: float):
        super().__init__(operands=[acc], result_types=[acc.type], properties={"scale": FloatAttr(scale, Float32Type())})

    def verify_(self) -> None:
        if kernel_target(self) is Arch.SM100A:
            check_tmem_tile_f32(self, self.acc.type)
        else:
            check_single_tile_f32(self, self.acc.type)
        check_softmax_scale(self.scale)


@irdl_op_definition
class AccToAOp(IRDLOperation):
    """``%p = tc.acc_to_a %s : !tc.acc<64x64xf32> to !tc.afrag<64x64xbf16>`` (sm_90a): an
    f32 accumulator rounded to 16-bit and kept in registers as the A operand of a later
    tc.wgmma (attention's P from S). Its K columns are the accumulator's N columns; each
    thread packs its own registers (layout/fragments.py: two n8 blocks of the accumulator
    are one k16 slice of A), so no data moves between threads. 8-bit: each quad exchanges
    bytes (layout/fragments.py `quad_exchange`), unless ``{accumulator_order}``: K in the
    order the accumulator holds it (`ACCUMULATOR_ORDER`), each thread's own bytes, for a B
    stored so (tc.tile_transpose {accumulator_order})."""

    name = "tc.acc_to_a"
    acc = operand_def(AccType)
    result = result_def(AFragType)
    accumulator_order = opt_prop_def(UnitAttr)
    assembly_format = "$acc attr-dict `:` type($acc) `to` type($result)"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, acc: SSAValue, result_type: AFragType, accumulator_order: bool = False):
        props = {"accumulator_order": UnitAttr()} if accumulator_order else {}
        super().__init__(operands=[acc], result_types=[result_type], properties=props)

    def verify_(self) -> None:
        acc, frag = self.acc.type, self.result.type
        assert isinstance(acc, AccType) and isinstance(frag, AFragType)
        if self.attributes:  # the attr-dict holds the property: a misspelling would be kept and ignored
            raise VerifyException(f"tc.acc_to_a takes {{accumulator_order}}, not {', '.join(sorted(self.attributes))}")
        if kernel_target(self) is Arch.SM100A:  # P into tensor memory, the A of a tc.tcgen05_mma
            check_tmem_tile_f32(self, acc)
            if frag.dtype not in ("bf16", "f16"):
                raise VerifyException(f"tc.acc_to_a on sm_100a rounds to bf16 or f16, not {frag.dtype}")
            if (acc.m, acc.n) != (frag.mn, frag.k):
                raise VerifyException(f"the accumulator is {acc.m}x{acc.n} but the fragment is {frag.mn}x{frag.k}: "
                                      "A's K columns are the accumulator's N columns")
            if acc.n % 16:
                raise VerifyException(f"the accumulator's N = {acc.n} is not whole 16-column K-slices of A")
            return
        _check_target(self, Arch.SM90A)
        if in_gemm_k_loop(self):
            raise VerifyException("tc.acc_to_a is for single-tile kernels and attention loops (a GEMM loop's accumulators are its own)")
        if frag.mn != 64 and not in_attention_loop(self):
            raise VerifyException(f"an A fragment is one warpgroup's 64 rows (wgmma's M), not {frag.mn}")
        if acc.dtype != "f32":
            raise VerifyException(f"tc.acc_to_a rounds an f32 accumulator, not {acc.dtype}")
        if (acc.m, acc.n) != (frag.mn, frag.k):
            raise VerifyException(f"the accumulator is {acc.m}x{acc.n} but the fragment is {frag.mn}x{frag.k}: "
                                  "A's K columns are the accumulator's N columns")
        k = 32 if frag.dtype in ("e4m3", "e5m2") else 16
        if acc.n % k:
            raise VerifyException(f"the accumulator's N = {acc.n} is not whole {k}-column K-slices of A")
        if self.accumulator_order is not None:
            if k != 32:
                raise VerifyException(f"accumulator_order is for 8-bit fragments (a {frag.dtype} one is its own "
                                      "registers' pairs in K order already)")
            for use in self.result.uses:
                mma = use.operation
                b = mma.b if isinstance(mma, WgmmaOp) else None
                if b is None or not any(isinstance(u.operation, TileTransposeOp) and u.operation.dst is b
                                        and u.operation.accumulator_order is not None for u in b.uses):
                    raise VerifyException("a fragment in accumulator_order multiplies a B whose keys are in that order: "
                                          "the destination of a tc.tile_transpose {accumulator_order}")


@irdl_op_definition
class Tcgen05MmaOp(IRDLOperation):
    """``%d = tc.tcgen05_mma %a, %b, %acc : ...`` (sm_100a): accumulates in tensor memory.

    With ``cta_pair``, the MMA of a CTA pair (``tcgen05.mma.cta_group::2``, M = 256): this
    CTA holds A's 128 rows and its 128 x N share of the accumulator, and B's tile is its
    half of B's N columns; the peer CTA holds the other half of each, at the same offsets."""

    name = "tc.tcgen05_mma"
    ACC: ClassVar = VarConstraint("ACC", base(AccType))
    a = operand_def(TileType | AFragType)  # an !tc.afrag: tc.acc_to_a's P, already in tensor memory
    b = operand_def(TileType)
    acc = operand_def(ACC)
    result = result_def(ACC)
    a_in_tmem = opt_prop_def(UnitAttr)
    cta_pair = opt_prop_def(UnitAttr)
    assembly_format = (
        "$a `,` $b `,` $acc (`a_in_tmem` $a_in_tmem^)? (`cta_pair` $cta_pair^)? attr-dict "
        "`:` type($a) `,` type($b) `,` type($acc)"
    )

    def __init__(self, a: SSAValue, b: SSAValue, acc: SSAValue):
        super().__init__(operands=[a, b, acc], result_types=[acc.type])

    @property
    def ctas(self) -> int:
        """CTAs that one MMA spans: 2 with cta_pair (cta_group::2), else 1."""
        return 2 if self.cta_pair is not None else 1

    @property
    def a_from_fragment(self) -> bool:
        """A is an !tc.afrag (tc.acc_to_a's): read from tensor memory, where it was stored."""
        return isinstance(self.a.type, AFragType)

    def instr_descriptor(self) -> InstrDescriptor:
        a, b, acc = self.a.type, self.b.type, self.acc.type
        assert isinstance(a, TileType | AFragType) and isinstance(b, TileType) and isinstance(acc, AccType)
        return InstrDescriptor(
            a.dtype, b.dtype, acc.dtype, acc.m * self.ctas, acc.n,
            isinstance(a, TileType) and a.major is Major.MN, b.major is Major.MN,
        )

    def verify_(self) -> None:
        a, b, acc = self.a.type, self.b.type, self.acc.type
        assert isinstance(a, TileType | AFragType) and isinstance(b, TileType) and isinstance(acc, AccType)
        _check_target(self, Arch.SM100A)
        if isinstance(a, AFragType):
            if self.a_in_tmem is not None or self.cta_pair is not None:
                raise VerifyException("an !tc.afrag A is read from tensor memory already: no a_in_tmem, no cta_pair")
            if acc.m != TMEM_TILE_ROWS:
                raise VerifyException(f"an !tc.afrag A (tc.acc_to_a's) holds {TMEM_TILE_ROWS} rows in tensor memory: "
                                      f"the accumulator has M = {acc.m}")
            _check_pair(a, b, acc)
            try:
                check_operand_type(Arch.SM100A, b.dtype, b.major is Major.MN)
                self.instr_descriptor().check()
            except LayoutError as err:
                raise VerifyException(str(err)) from None
            _check_acc_consumed(self, self.acc)
            return
        if self.cta_pair is not None:
            if acc.m != 128:
                raise VerifyException(
                    f"a CTA pair's tcgen05.mma (cta_group::2, M = 256) holds 128 accumulator rows in each CTA, not {acc.m}"
                )
            if self.a_in_tmem is not None:
                raise VerifyException("lower-tc's CTA-pair tcgen05.mma reads A from shared memory, not tensor memory")
        elif acc.m == 256:  # the instruction descriptor's M = 256 is the pair's
            raise VerifyException(
                "tcgen05.mma with M = 256 spans a CTA pair (cta_group::2): mark it cta_pair, with 128 accumulator rows in each CTA"
            )
        _check_pair(a, b, acc, self.ctas)
        try:
            check_operand_type(Arch.SM100A, a.dtype, a.major is Major.MN)
            check_operand_type(Arch.SM100A, b.dtype, b.major is Major.MN)
            self.instr_descriptor().check()
        except LayoutError as err:
            raise VerifyException(str(err)) from None
        if self.a_in_tmem is not None:
            if a.major is not Major.K:
                raise VerifyException("tcgen05.mma with A in tensor memory needs a K-major A tile")
            if element_type(a.dtype).padded:
                raise VerifyException(
                    f"A from tensor memory holds {a.dtype} in 8-bit containers (tcgen05.cp "
                    "expansion), which lower-tc does not emit: keep A in shared memory"
                )
            if acc.m == 128 and acc.n % 16:
                raise VerifyException(
                    f"tcgen05.mma with A in tensor memory and M = 128 needs N a multiple of 16, "
                    f"not {acc.n} (CUTLASS's UMMA TS atoms; lower-tc keeps their rule)"
                )
        _check_acc_consumed(self, self.acc)


#: This module's ops, in the order dialects/tc.py registers them.
MMA_OPS = [AccSoftmaxOp, AccToAOp, WgmmaOp, Tcgen05MmaOp]
