"""The `ptx` dialect: ops that mirror PTX instructions one to one.

Registers are SSA values typed i1 (a predicate), i16, i32, i64 or f32; an
accumulator or fragment is one value of type ``!ptx.regs<64xf32>``, a run of
registers the printer allocates together and that instructions like
``wgmma.mma_async`` read and write in place, as PTX does. Control flow is
PTX's own: ``ptx.label`` and ``ptx.bra``. Each op knows its PTX syntax
(`render`); `printer` only allocates register names and prints.

An op's modifiers (its type, immediate, offset, comparison, ...) are declared
properties with typed constraints (`modifiers`): ``ptx.build`` refuses a wrong one
when the op is built, and the verifier refuses one in hand-written IR. A
``comment`` attribute is printed as a PTX comment before the op's line.

Kernels are ``ptx.kernel`` ops (a ``.visible .entry``); read-only tables the
lowering computes at compile time are ``ptx.table`` ops (``.global`` arrays).

The ops, by family: `kernel`, `moves` (registers), `arith`, `control` (branches and
barriers), `memory`, `mbarrier`, `tma`, `wgmma`, `tcgen05`, `wmma`.
"""

from __future__ import annotations

from xdsl.ir import Dialect

from lower_tc.dialects.ptx.arith import (
    AddOp, AndOp, CvtaToGlobalOp, CvtOp, DivOp, Ex2Op, Lg2Op, MaxOp, MinOp, MovOp, MulLoOp, MulOp, MulWideOp, OrOp,
    PrmtOp, RcpOp, RemOp, SelpOp, SetpOp, ShflBflyOp, ShflIdxOp, ShlOp, ShrOp, SubOp, XorOp,
)
from lower_tc.dialects.ptx.base import COMMENT, Names, PtxOp, RegsType, brace, build, cta_group, regs_list
from lower_tc.dialects.ptx.control import (
    BarArriveOp, BarRedOrOp, BarSyncOp, BraOp, ClusterBarrierOp, ElectSyncOp, FenceGpuOp, FenceProxyAsyncOp, GriddepWaitOp,
    LabelOp, RetOp,
)
from lower_tc.dialects.ptx.kernel import PTX_VERSION, TARGET_ATTR, VERSION_ATTR, KernelOp, TableOp
from lower_tc.dialects.ptx.mbarrier import (
    FenceMbarrierInitOp, MapaOp, MbarrierArriveClusterOp, MbarrierArriveExpectTxOp, MbarrierArriveOp,
    MbarrierInitOp, MbarrierInvalOp, MbarrierTryWaitParityOp,
)
from lower_tc.dialects.ptx.memory import AtomAddOp, AtomCasOp, CvtFromRegOp, CvtToRegOp, LdAcquireOp, LdOp, LdRegsOp, StmatrixOp, StOp, StRelaxedOp
from lower_tc.dialects.ptx.modifiers import ModifierError
from lower_tc.dialects.ptx.moves import (
    AssignOp, DeclRegsOp, FillOp, GlobalTimerOp, LdParamOp, MovImmOp, PackOp, ParamAddrOp, RegOfOp, SetMaxNRegOp, SregOp,
    SymAddrOp, UnpackOp,
)
from lower_tc.dialects.ptx.tcgen05 import (
    Tcgen05AllocOp, Tcgen05CommitOp, Tcgen05DeallocOp, Tcgen05FenceOp, Tcgen05LdOp, Tcgen05MmaOp,
    Tcgen05RelinquishOp, Tcgen05StOp, Tcgen05WaitLdOp, Tcgen05WaitStOp,
)
from lower_tc.dialects.ptx.tma import (
    CpAsyncBulkCommitGroupOp, CpAsyncBulkTensorOp, CpAsyncBulkTensorStoreOp, CpAsyncBulkWaitGroupOp,
    PrefetchTensormapOp,
)
from lower_tc.dialects.ptx.wgmma import WgmmaCommitGroupOp, WgmmaFenceOp, WgmmaMmaAsyncOp, WgmmaWaitGroupOp
from lower_tc.dialects.ptx.wmma import WmmaLoadOp, WmmaMmaOp, WmmaStoreOp

#: Every ptx op, family by family.
OPS = [
    KernelOp, TableOp,
    LdParamOp, ParamAddrOp, SregOp, GlobalTimerOp, MovImmOp, SymAddrOp, FillOp, PackOp, UnpackOp, SetMaxNRegOp,
    AssignOp, RegOfOp, DeclRegsOp,
    AddOp, SubOp, MulLoOp, MulWideOp, ShlOp, ShrOp, AndOp, OrOp, CvtOp, CvtaToGlobalOp, XorOp, DivOp,
    RemOp, MinOp, MovOp, SelpOp, SetpOp, MaxOp, MulOp, Ex2Op, Lg2Op, RcpOp, ShflBflyOp, ShflIdxOp, PrmtOp,
    LabelOp, BraOp, BarSyncOp, BarArriveOp, BarRedOrOp, FenceGpuOp, FenceProxyAsyncOp, ClusterBarrierOp, ElectSyncOp, RetOp,
    GriddepWaitOp,
    LdOp, StOp, StRelaxedOp, AtomAddOp, AtomCasOp, LdAcquireOp, LdRegsOp, CvtToRegOp, CvtFromRegOp, StmatrixOp,
    MbarrierInitOp, FenceMbarrierInitOp, MbarrierArriveExpectTxOp, MbarrierArriveOp,
    MbarrierTryWaitParityOp, MbarrierInvalOp, MapaOp, MbarrierArriveClusterOp,
    PrefetchTensormapOp, CpAsyncBulkTensorOp, CpAsyncBulkTensorStoreOp, CpAsyncBulkCommitGroupOp,
    CpAsyncBulkWaitGroupOp,
    WgmmaFenceOp, WgmmaCommitGroupOp, WgmmaWaitGroupOp, WgmmaMmaAsyncOp,
    Tcgen05AllocOp, Tcgen05RelinquishOp, Tcgen05DeallocOp, Tcgen05MmaOp, Tcgen05CommitOp, Tcgen05FenceOp,
    Tcgen05LdOp, Tcgen05StOp, Tcgen05WaitLdOp, Tcgen05WaitStOp,
    WmmaLoadOp, WmmaMmaOp, WmmaStoreOp,
]

PTX = Dialect("ptx", OPS, [RegsType])

__all__ = [
    "PTX", "OPS", "COMMENT", "Names", "PtxOp", "RegsType", "ModifierError", "build", "brace", "cta_group",
    "regs_list", "TARGET_ATTR", "VERSION_ATTR", "PTX_VERSION",
    *(name for name, value in list(globals().items()) if value in OPS),
]
