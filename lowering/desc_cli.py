"""`lower-tc desc`: encode and decode matrix descriptors, and draw a tile (`show`), for
kernel debugging.

Bad input gets one line on stderr and exit status 2; a decoded descriptor the
hardware would reject is printed with its problems and exit status 1.
"""

from __future__ import annotations

import argparse
import re
import json
import sys
from typing import Any, NoReturn

from lower_tc.layout import (
    Arch,
    LayoutError,
    Major,
    Swizzle,
    TileLayout,
    check_operand_layout,
    choose_placed_swizzle,
    decode_descriptor,
    descriptor_for_layout,
    element_type,
    k_slices,
)
from lower_tc.layout.descriptor import DecodedDescriptor
from lower_tc.layout.targets import check_operand_type

PROG = "lower-tc desc"


class UsageError(Exception):
    """Bad command-line input: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


_NUMBER = re.compile(
    r"-?(0[xX][0-9a-fA-F]+(_[0-9a-fA-F]+)*|0[oO][0-7]+(_[0-7]+)*|0[bB][01]+(_[01]+)*|[0-9]+(_[0-9]+)*)"
)


def parse_number(text: str) -> int:
    """Decimal, 0x hex, 0o octal or 0b binary in ASCII digits, optionally grouped by
    single underscores (0x4000_0040_0001_0040); anything else is a usage error
    (Python's int() would also take other scripts' digits)."""
    if not _NUMBER.fullmatch(text):
        raise UsageError(f"malformed number '{text}'")
    if len(text) > 100:  # no field is that wide; Python refuses long decimals itself
        raise UsageError(f"number too long: '{text[:20]}...' ({len(text)} characters)")
    return int(text, 10) if re.fullmatch(r"-?0[0-9_]+", text) else int(text, 0)


def _tile_flags(cmd: argparse.ArgumentParser) -> None:
    """The flags that place a tile: shared by `encode` and `show`, so both read one tile."""
    cmd.add_argument("--arch", required=True, choices=[a.value for a in Arch])
    cmd.add_argument("--dtype", required=True, help="f16, bf16, tf32, e4m3, e5m2, e2m3, e3m2, e2m1, s8, u8")
    cmd.add_argument("--major", required=True, choices=["k", "mn"])
    cmd.add_argument(
        "--swizzle", required=True, help="none, 32b, 64b, 128b, 128b_base32b (tcgen05, MN-major tf32) or auto"
    )
    cmd.add_argument("--max-swizzle", help="with --swizzle auto: the widest mode allowed")
    cmd.add_argument("--mn", required=True, help="extent along M (operand A) or N (operand B)")
    cmd.add_argument("--k", required=True, help="extent along K")
    cmd.add_argument("--order", default="mn-first", choices=["mn-first", "k-first"])
    cmd.add_argument("--atom-strides", help="explicit byte strides between atoms: MN,K")
    cmd.add_argument("--addr", default="0", help="start address in shared memory (bytes)")
    cmd.add_argument(
        "--swizzle-origin",
        help="address the data's XOR pattern starts at (default: absolute address bits)",
    )


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    dec = sub.add_parser("decode", help="print every field of a 64-bit descriptor")
    dec.add_argument("value", help="the descriptor, e.g. 0x4000004000010040")
    dec.add_argument("--arch", required=True, choices=[a.value for a in Arch])
    dec.add_argument("--json", action="store_true", help="machine-readable output")

    enc = sub.add_parser("encode", help="the descriptors of a tile, one per K-slice")
    _tile_flags(enc)
    enc.add_argument("--json", action="store_true", help="machine-readable output")

    show = sub.add_parser("show", help="draw a tile, its swizzle, descriptors and banks (SVG)")
    _tile_flags(show)
    show.add_argument("-o", "--output", required=True, help="the SVG file to write")
    show.add_argument("--name", default="A", help="the operand's name in hover titles (default A)")
    show.add_argument(
        "--global-major",
        choices=["k", "mn"],
        help="bank view: the global matrix the thread copy reads is contiguous along this "
        "dimension (default: the tile's --major)",
    )
    return parser


# -- decode ---------------------------------------------------------------------


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


def run_decode(args: argparse.Namespace) -> int:
    arch = Arch.parse(args.arch)
    value = parse_number(args.value)
    if not 0 <= value < 1 << 64:
        raise UsageError(f"descriptor '{args.value}' is not a 64-bit value")
    report = decode_report(decode_descriptor(value, arch), arch)
    print(json.dumps(report, indent=2) if args.json else format_decode(report, arch))
    return 0 if report["valid"] else 1


# -- encode ---------------------------------------------------------------------


def _strides(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    parts = text.split(",")
    if len(parts) != 2:
        raise UsageError(f"--atom-strides takes two numbers, MN,K: '{text}'")
    return parse_number(parts[0]), parse_number(parts[1])


def placed_tile(args: argparse.Namespace) -> tuple[TileLayout, Arch, str | None]:
    """The tile the flags of `encode` and `show` describe, its target, and the chooser's
    reason when --swizzle is auto (None otherwise)."""
    arch = Arch.parse(args.arch)
    dtype = element_type(args.dtype)
    major = Major.parse(args.major)
    mn, k = parse_number(args.mn), parse_number(args.k)
    check_operand_type(arch, dtype.name, major is Major.MN)
    strides, address = _strides(args.atom_strides), parse_number(args.addr)
    origin = parse_number(args.swizzle_origin) if args.swizzle_origin else None

    def placed(mode: Swizzle) -> TileLayout:
        """The tile with `mode`, at --addr with --atom-strides and --swizzle-origin."""
        return TileLayout.make(dtype, mn, k, major, mode, args.order, strides, address, origin)

    reason = None
    if args.swizzle.lower() == "auto":
        maximum = Swizzle.parse(args.max_swizzle) if args.max_swizzle else None
        extent = k if major is Major.K else mn

        def fits(mode: Swizzle) -> None:  # the widest mode that fits the placement and the arch
            check_operand_layout(placed(mode), arch)

        choice = choose_placed_swizzle(dtype, major, extent, arch, fits, maximum=maximum)
        swizzle, reason = choice.swizzle, choice.reason
    else:
        if args.max_swizzle:
            raise UsageError("--max-swizzle applies only to --swizzle auto")
        swizzle = Swizzle.parse(args.swizzle)
    return placed(swizzle), arch, reason


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


def encode_report(args: argparse.Namespace) -> dict[str, Any]:
    return layout_report(*placed_tile(args))


def _stride_roles(major: str, swizzle: str) -> tuple[str, str]:
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
    lbo_role, sbo_role = _stride_roles(r["major"], r["swizzle"])
    code = sw.sm90_code if arch is Arch.SM90A else sw.sm100_code
    a_mn, a_k = r["atom_shape"]
    rows = [
        f"tile       {r['mn']}x{r['k']} {r['dtype']}, {r['major'].upper()}-major, swizzle "
        f"{r['swizzle']}, start {r['start_address']:#x}",
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


def run_encode(args: argparse.Namespace) -> int:
    report = encode_report(args)
    print(json.dumps(report, indent=2) if args.json else format_encode(report))
    return 0


def run_show(args: argparse.Namespace) -> int:
    """`desc show`: the tile's picture, written only once it is complete."""
    from lower_tc.lowering.picture import PictureError, TilePicture, tile_svg

    layout, arch, reason = placed_tile(args)
    report = layout_report(layout, arch, reason)
    global_major = Major.parse(args.global_major) if args.global_major else None
    try:
        svg = tile_svg(TilePicture(layout, args.name, report, global_major=global_major))
    except PictureError as err:
        raise UsageError(str(err)) from None
    try:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(svg)
    except OSError as err:
        raise UsageError(f"cannot write {args.output}: {err.strerror or err}") from None
    return 0


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
        run = {"decode": run_decode, "encode": run_encode, "show": run_show}[args.command]
        return run(args)
    except (UsageError, LayoutError) as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 2
