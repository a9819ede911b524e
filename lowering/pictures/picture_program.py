"""What `lower-tc -t svg` and `-t html` draw of a program: its kernels, their placed
tiles, the descriptors each MMA carries, and the shared-memory map.

Runs on IR after tc-compute-descriptors (the default pipeline stops there for these
targets). Tile numbers come from the tile types (`TileType.tile_layout`) through
`descriptor_report.layout_report`, the function `lower-tc desc encode` prints; MMA tables
read the ``#tc.desc`` attributes tc-compute-descriptors attached. Errors name their
op (`error_at`), so the driver prints them located.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.ir import Operation, SSAValue

from lower_tc.dialects import tc
from lower_tc.layout import Arch, LayoutError, TileLayout
from lower_tc.layout.gemm import ring_footprint, ring_stride
from lower_tc.lowering.descriptor_report import layout_report
from lower_tc.lowering.pictures.tile import MAX_EXTENT, TilePicture
from lower_tc.dialects.diagnostics import error_at, location
from lower_tc.passes.to_ptx.emit import placed_layout


@dataclass
class TileEntry:
    """One tc.smem_tile of a kernel, placed, with its picture's inputs."""

    name: str  # unique in its kernel, safe in a file name
    op: Operation
    layout: TileLayout
    picture: TilePicture
    stages: int = 1  # a ring (tc.smem_tile {stages = N}): N buffers, `stride` bytes apart
    stride: int = 0

    @property
    def end(self) -> int:
        return self.layout.address + ring_footprint(self.layout.footprint, self.stages)


@dataclass
class MmaEntry:
    """One MMA and the descriptors tc-compute-descriptors attached to it."""

    op_name: str
    where: str
    a: str  # tile name, or where A comes from
    b: str
    descs: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # "A"/"B" -> slices
    idesc: dict[str, Any] | None = None


@dataclass
class KernelEntry:
    name: str
    target: str
    tiles: list[TileEntry]
    mmas: list[MmaEntry]

    @property
    def tiles_end(self) -> int:
        """One past the last tile byte (rings included): the lowering's scratch
        (mbarriers, tensor-memory slots) follows, aligned as the lowering needs."""
        return max((t.end for t in self.tiles), default=0)


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name) or "_"


def _desc_rows(attr: Any) -> list[dict[str, Any]]:
    if not isinstance(attr, ArrayAttr):
        return []
    rows = []
    for d in attr.data:
        assert isinstance(d, tc.DescAttr)
        rows.append({
            "k": d.k.data, "start": d.start.data, "lbo": d.lbo.data, "sbo": d.sbo.data,
            "base_offset": d.base_offset.data, "swizzle": d.swizzle.data, "value": d.value.data,
        })
    return rows


def _where(op: Operation) -> str:
    return location(op) or ""


def collect(module: ModuleOp) -> list[KernelEntry]:
    """Every kernel of `module` with its tiles and MMAs; tiles must be placed."""
    kernels = []
    for kernel in tc.tc_kernels(module):
        name = tc.kernel_name(kernel)
        attr = kernel.attributes[tc.TARGET_ATTR]
        target = attr.data if isinstance(attr, StringAttr) else str(attr)
        tiles = _tiles(kernel, name)
        by_value = {t.op.results[0]: t for t in tiles}
        mmas = []
        for op in kernel.walk():
            if isinstance(op, tc.WgmmaOp | tc.Tcgen05MmaOp):
                mmas.append(_mma(op, by_value))
        kernels.append(KernelEntry(name, target, tiles, mmas))
    return kernels


def _tiles(kernel: Operation, kernel_name: str) -> list[TileEntry]:
    entries: list[TileEntry] = []
    seen: set[str] = set()
    for i, op in enumerate(o for o in kernel.walk() if isinstance(o, tc.SmemTileOp)):
        layout = placed_layout(op, "pictures show placed tiles: run tc-choose-swizzle and tc-assign-smem first")
        if layout.mn > MAX_EXTENT or layout.k > MAX_EXTENT:
            error_at(
                op,
                f"tile {layout.mn}x{layout.k} is too large to draw: pictures show at most "
                f"{MAX_EXTENT} x {MAX_EXTENT} elements",
            )
        name = _safe(op.tile.name_hint or f"tile{i}")
        if name in seen:
            name = f"{name}_{i}"
        seen.add(name)
        pic = _picture(op.tile, layout, name)
        pic.context = f"{kernel_name} %{name}"
        stages = op.ring_stages
        stride = ring_stride(layout.footprint)
        if stages > 1:
            pic.notes.append(
                f"a ring of {stages} buffers: stage 0 is drawn; stage s starts s x {stride} bytes "
                "later, with the same layout and the descriptors plus that offset"
            )
        entries.append(TileEntry(name, op, layout, pic, stages, stride))
    return entries


def _picture(value: SSAValue, layout: TileLayout, name: str) -> TilePicture:
    """The picture's inputs: operand role, descriptor report, the real copy's source."""
    role = None
    arch = None
    copy = None
    window: Operation | None = None
    for use in value.uses:
        user = use.operation
        if isinstance(user, tc.CopyOp) and user.dst is value:
            copy = user
            role = role or str(user.operand.data.value).upper()
        elif user.name == "tc.window_load" and copy is None:  # a GEMM's TMA load of one window
            window = user
            role = role or str(user.properties["operand"].data.value).upper()  # type: ignore[attr-defined]
        elif isinstance(user, tc.WgmmaOp | tc.Tcgen05MmaOp):
            in_regs = user.a_in_registers if isinstance(user, tc.WgmmaOp) else user.a_in_tmem
            if user.a is value:
                role = "A"
                if in_regs is None:
                    arch = Arch.SM90A if isinstance(user, tc.WgmmaOp) else Arch.SM100A
            if user.b is value:
                role = role or "B"
                arch = Arch.SM90A if isinstance(user, tc.WgmmaOp) else Arch.SM100A
    notes = []
    report = None
    if arch is not None:
        try:
            report = layout_report(layout, arch)
        except LayoutError as err:
            error_at(value.owner if isinstance(value.owner, Operation) else None, str(err))
    else:
        notes.append("no MMA reads this tile from shared memory through a descriptor")
    strides = None
    copy_note = None
    if copy is not None:
        s_row, s_col = tc.matrix_strides(copy.src.type, "the copy's source")
        strides = (s_row, s_col) if copy.operand.data is tc.Operand.A else (s_col, s_row)
        if copy.via.data is tc.CopyVia.TMA:
            copy_note = ("this tile is filled by TMA (no thread stores): shown is what a copy "
                         "`via threads` from the same source would store")
    elif window is not None:
        s_row, s_col = tc.matrix_strides(window.operands[0].type, "the window's source")
        strides = (s_row, s_col) if role == "A" else (s_col, s_row)
        copy_note = ("this tile is filled by TMA (tc.window_load, no thread stores): shown is what a "
                     "copy `via threads` from the same source would store")
    else:
        copy_note = "no tc.copy fills this tile: shown is a copy from a dense matrix contiguous along its major dimension"
    label = role or name
    return TilePicture(
        layout, label, report, copy_strides=strides, copy_note=copy_note, notes=notes
    )


def _mma(op: Operation, tiles: dict[SSAValue, TileEntry]) -> MmaEntry:
    def name(v: SSAValue) -> str:
        t = tiles.get(v)
        return t.name if t else (v.name_hint or "?")

    a_src = name(op.a)
    if isinstance(op, tc.WgmmaOp) and op.a_in_registers is not None:
        a_src += " (in registers)"
    if isinstance(op, tc.Tcgen05MmaOp) and op.a_in_tmem is not None:
        a_src += " (in tensor memory)"
    entry = MmaEntry(op.name, _where(op), a_src, name(op.b))
    for key, role in (("tc.a_descs", "A"), ("tc.b_descs", "B")):
        rows = _desc_rows(op.attributes.get(key))
        if rows:
            entry.descs[role] = rows
    idesc = op.attributes.get("tc.idesc")
    if isinstance(idesc, tc.IdescAttr):
        entry.idesc = {
            "kind": idesc.kind.data, "a": idesc.a.data, "b": idesc.b.data, "d": idesc.d.data,
            "m": idesc.m.data, "n": idesc.n.data, "a_major": idesc.a_major.data,
            "b_major": idesc.b_major.data, "value": idesc.value.data,
        }
    return entry
