"""What `lower-tc desc` reports of a descriptor or a placed tile, as data and as text.

`desc decode` and `desc encode` print these reports; the tile pictures (`desc show`, and
`-t svg`/`-t html` of a program) annotate exactly the same numbers and text, so both sides
import this module (layout math only: no xDSL).
"""

from __future__ import annotations

from typing import Any

from lower_tc.layout import Arch, Swizzle, TileLayout, descriptor_for_layout, element_type, k_slices
from lower_tc.layout.descriptor import DecodedDescriptor


def decode_report(decoded: DecodedDescriptor, arch: Arch) -> dict[str, Any]:
    desc = decoded.descriptor
    value = decoded.value
    report: dict[str, Any] = {
        "desc": f"{value:#018x}",
        "arch": arch.value,
        "start_address": (value & 0x3FFF) << 4,
        "start_enc": value & 0x3FFF,
        "lbo": ((value >> 16) & 0x3FFF) << 4,
        "lbo_enc": (value >> 16) & 0x3FFF,
        "sbo": ((value >> 32) & 0x3FFF) << 4,
        "sbo_enc": (value >> 32) & 0x3FFF,
        "base_offset": (value >> 49) & 7,
        "swizzle": desc.swizzle.value if desc else None,
        "swizzle_code": decoded.swizzle_code,
    }
    if arch.is_tcgen05:
        report["version"] = (value >> 46) & 7
        report["lbo_mode"] = (value >> 52) & 1
    report["valid"] = decoded.valid
    report["problems"] = decoded.problems
    report["notes"] = decoded.notes
    return report


def format_decode(report: dict[str, Any], arch: Arch) -> str:
    code_bits = "62-63" if arch is Arch.SM90A else "61-63"
    swz = report["swizzle"] or "RESERVED"
    rows = [
        f"descriptor {report['desc']} ({arch.value}, {arch.family})",
        f"  start address  {report['start_address']:#07x}  enc {report['start_enc']:#06x}  bits 0-13",
        f"  LBO            {report['lbo']:7d}  enc {report['lbo_enc']:#06x}  bits 16-29",
        f"  SBO            {report['sbo']:7d}  enc {report['sbo_enc']:#06x}  bits 32-45",
        f"  base offset    {report['base_offset']:7d}           bits 49-51",
        f"  swizzle        {swz:>7}  code {report['swizzle_code']}    bits {code_bits}",
    ]
    if arch.is_tcgen05 and report["lbo_mode"]:  # the field holds an address, not a stride
        rows[2] = f"  LBO address    {report['lbo']:#07x}  enc {report['lbo_enc']:#06x}  bits 16-29"
    if arch.is_tcgen05:
        mode = "absolute" if report["lbo_mode"] else "relative"
        rows.insert(5, f"  version        {'0b' + format(report['version'], '03b'):>7}           bits 46-48")
        rows.insert(6, f"  LBO mode       {mode:>8}          bit 52")
    rows += [f"  note: {n}" for n in report["notes"]]
    if report["valid"]:
        rows.append("valid")
    else:
        rows += [f"INVALID: {p}" for p in report["problems"]]
    return "\n".join(rows)


def layout_report(layout: TileLayout, arch: Arch, reason: str | None = None) -> dict[str, Any]:
    """What `desc encode --json` prints for a placed tile; `desc show` and the
    pictures of `-t svg`/`-t html` annotate exactly these numbers."""
    tile = descriptor_for_layout(layout, arch)
    slices = k_slices(layout, arch)
    return {
        "arch": arch.value,
        "dtype": layout.dtype.name,
        "major": layout.major.value,
        "mn": layout.mn,
        "k": layout.k,
        "swizzle": layout.swizzle.value,
        "swizzle_reason": reason,
        "atom_shape": list(layout.atom_shape),
        "atoms": list(layout.atoms),
        "atom_strides": list(layout.strides),
        "start_address": layout.address,
        "swizzle_origin": layout.swizzle_origin,
        "lbo": tile.lbo,
        "sbo": tile.sbo,
        "lbo_enc": tile.lbo >> 4,
        "sbo_enc": tile.sbo >> 4,
        "base_offset": tile.base_offset,
        "canonical": layout.canonical(),
        "k_slices": [
            {"k": s.k, "start_address": s.start_address, "desc": f"{s.descriptor.encode():#018x}"}
            for s in slices
        ],
    }


def stride_roles(major: str, swizzle: str) -> tuple[str, str]:
    """What LBO and SBO step over, in words (DESIGN.md fact 4)."""
    if swizzle == "none":
        if major == "k":
            return "next 16-byte column of core matrices along K", "next 8 rows along M/N"
        return "next 8 rows along K (core matrix)", "next 16-byte core matrix along M/N"
    if major == "k":
        return "unused with swizzle, encoded as 1", "next 8 rows along M/N"
    k_rows = 4 if swizzle == "128b_base32b" else 8  # its atom is 4 K rows deep
    return "next atom along M/N", f"next {k_rows} rows along K"


def format_encode(r: dict[str, Any]) -> str:
    arch = Arch.parse(r["arch"])
    sw = Swizzle.parse(r["swizzle"])
    lbo_role, sbo_role = stride_roles(r["major"], r["swizzle"])
    code = sw.sm90_code if arch is Arch.SM90A else sw.sm100_code
    a_mn, a_k = r["atom_shape"]
    rows = [
        f"tile       {r['mn']}x{r['k']} {r['dtype']}, {r['major'].upper()}-major, swizzle "
        f"{r['swizzle']}, start {r['start_address']:#x}"
        + (f", swizzle origin {r['swizzle_origin']:#x}" if r["swizzle_origin"] is not None else ""),
        f"atoms      {r['atoms'][0]}x{r['atoms'][1]} atoms of {a_mn}x{a_k}, strides "
        f"MN {r['atom_strides'][0]} B, K {r['atom_strides'][1]} B",
        f"canonical  {r['canonical']}",
    ]
    if r["swizzle_reason"]:
        rows.append(f"swizzle    {r['swizzle_reason']}")
    rows += [
        f"descriptor {arch.value} ({arch.family}): swizzle {r['swizzle']} (code {code}), "
        f"base offset {r['base_offset']}",
        f"  LBO {r['lbo']:6d} B  enc {r['lbo_enc']:#06x}  ({lbo_role})",
        f"  SBO {r['sbo']:6d} B  enc {r['sbo_enc']:#06x}  ({sbo_role})",
        f"K-slices   {len(r['k_slices'])} x 32 bytes of K "
        f"({element_type(r['dtype']).k_per_instruction} x {r['dtype']} each)",
    ]
    for s in r["k_slices"]:
        rows.append(
            f"  k={s['k']:<4d} start {s['start_address']:#07x} (enc {s['start_address'] >> 4:#06x})"
            f"  desc {s['desc']}"
        )
    return "\n".join(rows)



__all__ = ["decode_report", "format_decode", "format_encode", "layout_report", "stride_roles"]
