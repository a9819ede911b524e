"""Global-memory operands of tc ops: the geometry of a 2-d matrix (static or known at
launch) and what TMA needs of it. `tc.copy via tma` and the GEMM windows share these rules."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import IntAttr, MemRefType, NoneAttr, StridedLayoutAttr
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.tc_attrs import Operand
from lower_tc.dialects.tc_types import TileType, check_global_memory, element_bits
from lower_tc.layout import Major, element_type
from lower_tc.layout.limits import index_problem, tma_stride_problem
from lower_tc.layout.strided import distinct_elements


@dataclass(frozen=True)
class Matrix:
    """A GEMM operand's geometry, where sizes may be dynamic (None: known at launch).

    Row-major (the default layout, or ``strided<[ld, 1]>``) or column-major
    (``strided<[1, ld]>``); `ld` is None when dynamic, and for the default layout it is
    the column count. A batch of matrices (a 3-d memref, batch first: ``strided<[sb, ld,
    1]>`` or ``strided<[sb, 1, ld]>``, dense by default) has `batched` set, `batch`
    matrices (None: known at launch) `batch_stride` elements apart; a plain matrix is a
    batch of 1 with stride 0. A 4-d memref (attention's batch x heads x sequence x head
    dim, in any stride order: BHSD, BSHD) is `outer` such batches `outer_stride` elements
    apart (static sizes only); None for 2-d and 3-d."""

    rows: int | None
    cols: int | None
    row_major: bool
    ld: int | None
    batched: bool = False
    batch: int | None = 1
    batch_stride: int | None = 0
    outer: int | None = None
    outer_stride: int | None = None

    @property
    def static(self) -> bool:
        return None not in (self.rows, self.cols, self.ld, self.batch, self.batch_stride)

    @property
    def nested(self) -> bool:
        """A batch of batches (a 4-d memref)."""
        return self.outer is not None

    @property
    def shape(self) -> tuple[int | None, ...]:
        """The memref's sizes, outermost first."""
        inner = (self.rows, self.cols)
        return ((self.outer,) if self.nested else ()) + ((self.batch,) if self.batched else ()) + inner

    @property
    def strides(self) -> tuple[int | None, ...]:
        """The memref's element strides, outermost first."""
        inner = (self.ld, 1) if self.row_major else (1, self.ld)
        return ((self.outer_stride,) if self.nested else ()) + ((self.batch_stride,) if self.batched else ()) + inner

    @property
    def extent(self) -> int | None:
        """Elements one matrix spans (ld times its non-contiguous extent), None if dynamic."""
        other = self.rows if self.row_major else self.cols
        return None if other is None or self.ld is None else other * self.ld

    @property
    def broadcast(self) -> bool:
        """The same matrix for every batch: a plain matrix, or a batch of 1."""
        return not self.batched or self.batch == 1


def matrix(t: Attribute, what: str, batched: bool = False, nested: bool = False) -> Matrix:
    """The geometry of a 2-d global matrix of a GEMM, static or dynamic; with `batched`,
    a 3-d memref is a batch of them; with `nested` too, a static 4-d memref is a batch
    of batches (attention's batch x heads)."""
    rank = len(t.get_shape()) if isinstance(t, MemRefType) else 0
    ranks = (2, 3, 4) if nested else (2, 3) if batched else (2,)
    if not isinstance(t, MemRefType) or rank not in ranks:
        kinds = {3: " or a 3-d one (a batch of matrices)", 4: ", a 3-d one (a batch of matrices) or a 4-d one (a batch of batches)"}
        raise VerifyException(f"{what} must be a 2-d memref" + kinds.get(ranks[-1], ""))
    check_global_memory(t, what)
    dims = [d if d >= 0 else None for d in t.get_shape()]
    if rank == 4 and None in dims:
        raise VerifyException(f"{what} is a 4-d memref (a batch of batches): its sizes must be known at compile time")
    rows, cols = dims[-2:]
    batch = dims[-3] if rank >= 3 else 1
    outer = dims[0] if rank == 4 else None
    layout = t.layout
    if isinstance(layout, NoneAttr):
        if rank == 2:
            return Matrix(rows, cols, True, cols)
        dense = None if rows is None or cols is None else rows * cols
        return Matrix(rows, cols, True, cols, True, batch, dense, outer, None if outer is None else dense * batch)  # type: ignore[operator]
    shape = "row-major (default, or strided<[ld, 1]>) or column-major (strided<[1, ld]>)"
    if rank == 3:
        shape = "row-major (default, or strided<[sb, ld, 1]>) or column-major (strided<[sb, 1, ld]>)"
    if rank == 4:
        shape = "row-major (default, or strided<[so, sb, ld, 1]>) or column-major (strided<[so, sb, 1, ld]>)"
    if not isinstance(layout, StridedLayoutAttr):
        raise VerifyException(f"{what} must be {shape}, not {layout}")
    if not (isinstance(layout.offset, IntAttr) and layout.offset.data == 0):
        raise VerifyException(f"{what} needs offset 0 in its strided layout")
    strides = t.get_strides()
    s0, s1 = strides[-2:]
    sb = strides[-3] if rank >= 3 else 0
    so = strides[0] if rank == 4 else None
    if s1 == 1:
        m = Matrix(rows, cols, True, s0, rank >= 3, batch, sb, outer, so)
    elif s0 == 1:
        m = Matrix(rows, cols, False, s1, rank >= 3, batch, sb, outer, so)
    else:
        text = ", ".join("?" if x is None else str(x) for x in strides)
        raise VerifyException(f"{what} has strides [{text}]; it must be {shape}")
    extent = m.cols if m.row_major else m.rows
    if m.ld is not None and extent is not None and m.ld < extent:
        raise VerifyException(
            f"{what} has a leading dimension of {m.ld}, less than its contiguous extent {extent}"
        )
    if m.batched and m.batch_stride is not None and m.batch_stride < 1 and m.batch != 1:
        raise VerifyException(f"{what} has a batch stride of {m.batch_stride}: its matrices are at least one element apart (a matrix for every batch is a 2-d memref)")
    if m.nested and m.outer_stride is not None and m.outer_stride < 1 and m.outer != 1:
        raise VerifyException(f"{what} has an outer stride of {m.outer_stride}: its batches are at least one element apart")
    return m


def check_tma_source(tile: TileType, src: MemRefType, role: Operand, what: str = "the copy's source", batched: bool = False,
                     nested: bool = False) -> None:
    """What a TMA copy of `src` (named `what` in messages) into `tile` needs: a type TMA
    loads (not 4 or 6 bits), the tile contiguous along the global matrix's contiguous
    dimension (TMA does not transpose), no swizzle origin (TMA swizzles on absolute
    address bits), 128-byte-aligned placement and a leading dimension of a multiple of 16
    bytes below 2^40 bytes (and, `batched`, a batch of them a TMA stride apart; `nested`,
    batches of batches likewise)."""
    geometry = matrix(src, what, batched, nested)
    why = tma_dtype_problem(tile.dtype)
    if why:
        raise VerifyException(f"{why}: copy via threads")
    if tile.layout.origin.data >= 0:
        raise VerifyException(
            "TMA swizzles on absolute address bits: a tile with a swizzle origin "
            "must be copied via threads"
        )
    row_contiguous = geometry.row_major
    dims = ("M", "K") if role is Operand.A else ("K", "N")
    contiguous_dim = dims[1] if row_contiguous else dims[0]
    contiguous_major = Major.K if contiguous_dim == "K" else Major.MN
    if tile.major is not contiguous_major:
        other = "column" if row_contiguous else "row"
        raise VerifyException(
            f"TMA cannot transpose: operand {role}'s global matrix is contiguous along "
            f"{contiguous_dim}, so its tile must be {contiguous_major}-major for a TMA "
            f"copy; store it {other}-major or copy via threads"
        )
    lay = tile.layout
    places = [("offset", lay.offset.data)] if lay.has_offset else []
    places += [(f"atom stride along {d}", v.data) for d, v in zip(("MN", "K"), lay.strides.data)]
    for place, value in places:
        if value % 128:
            raise VerifyException(
                f"TMA writes shared memory at 128-byte-aligned addresses: the tile's "
                f"{place} {value} is not a multiple of 128 (docs/base-offset.md)"
            )
    check_ld(geometry, src, what, "TMA needs a leading dimension of a multiple of 16 bytes, not {}")
    check_batch_stride(geometry, src, what, tma=True, output=False)


def tma_dtype_problem(dtype: str) -> str | None:
    """Why TMA cannot load tiles of `dtype`, or None: 4- and 6-bit types sit in padded
    16-byte chunks in shared memory, which needs a tensor-map type lower-tc does not emit."""
    etype = element_type(dtype)
    if not etype.padded:
        return None
    return (f"TMA copies of {dtype} tiles need the padded 16U{etype.bits}_ALIGN16B "
            "tensor-map type, which lower-tc does not emit yet")


def check_ld(geometry: Matrix, mem: MemRefType, what: str, message: str) -> None:
    """TMA's rules for the leading dimension of `what`: a multiple of 16 bytes (`message`,
    formatted with the bytes) and below 2^40 bytes (cuTensorMapEncodeTiled's global strides;
    both checked at launch when it is dynamic)."""
    if geometry.ld is None:
        return
    bits = element_bits(mem.element_type)
    if geometry.ld * bits % 128:
        raise VerifyException(message.format(geometry.ld * bits // 8))
    why = tma_stride_problem(geometry.ld * bits // 8, f"{what}'s leading dimension")
    if why:
        raise VerifyException(why)


def check_index_sizes(geometry: Matrix, what: str) -> None:
    """A GEMM kernel computes row and column coordinates of its global matrices (TMA's
    are .s32) in 32-bit registers: each static size must fit one (layout/limits.py), and
    none is 0 (TMA's dimensions are at least 1)."""
    sizes = [("row count", geometry.rows), ("column count", geometry.cols)]
    if geometry.batched:
        sizes.append(("batch", geometry.batch))
    if geometry.nested:
        sizes.append(("outer batch", geometry.outer))
    for name, size in sizes:
        if size == 0:
            raise VerifyException(f"{what}'s {name} is 0: a GEMM's matrices have at least one row and one column" + (", and a batch at least one matrix" if geometry.batched else ""))
        if size is not None:
            why = index_problem(size, f"{what}'s {name}")
            if why:
                raise VerifyException(why)


def check_batch_stride(geometry: Matrix, mem: MemRefType, what: str, tma: bool, output: bool) -> None:
    """A batch's stride: a TMA stride (a multiple of 16 bytes below 2^40 bytes) where its
    matrices are TMA loads or stores (`tma`), and for an output (`output`) at least one
    matrix's extent, so that no two matrices of the batch share an element. A batch of 1
    (the same matrix for every batch) has no stride to check; one known at launch is
    checked then."""
    if not geometry.batched or geometry.batch_stride is None:
        return
    bits = element_bits(mem.element_type)
    if tma:
        for size, stride, name in ((geometry.batch, geometry.batch_stride, "batch stride"), (geometry.outer, geometry.outer_stride, "outer stride")):
            if size is not None and size > 1 and stride is not None:
                why = tma_stride_problem(stride * bits // 8, f"{what}'s {name}")
                if why:
                    raise VerifyException(why)
    if output and geometry.static and not distinct_elements(geometry.shape, geometry.strides):  # type: ignore[arg-type]
        strides = ", ".join(map(str, geometry.strides))
        raise VerifyException(
            f"{what}'s strides [{strides}] put two of its elements at one address: the matrices of the batch "
            "would overlap (a batch stride of at least one matrix's extent, or matrices side by side in one row, are apart)"
        )


def check_row_pitch(geometry: Matrix, mem: MemRefType, what: str) -> None:
    """The epilogue that stores D (and reads C) from registers steps rows by the leading
    dimension in bytes, a 32-bit immediate of mul.wide.s32: it must fit one."""
    if geometry.ld is None:
        return
    pitch = geometry.ld * element_bits(mem.element_type) // 8
    why = index_problem(pitch, f"{what}'s row pitch ({geometry.ld} elements) in bytes")
    if why:
        raise VerifyException(why)


__all__ = ["Matrix", "check_batch_stride", "check_index_sizes", "check_ld", "check_row_pitch", "check_tma_source", "matrix", "tma_dtype_problem"]
