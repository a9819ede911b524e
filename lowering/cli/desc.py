"""`lower-tc desc`: encode and decode matrix descriptors, and draw a tile (`show`), for
kernel debugging. Starts without xDSL: layout math, the reports
(lowering/descriptor_report.py) and the tile picture only.

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
    element_type,
)
from lower_tc.layout.limits import SMEM_WINDOW
from lower_tc.layout.targets import check_operand_type
from lower_tc.lowering.cli.output import OutputError, write_files
from lower_tc.lowering.descriptor_report import decode_report, format_decode, format_encode, layout_report
from lower_tc.lowering.pictures.picture import tile_svg
from lower_tc.lowering.pictures.tile import PictureError, TilePicture

PROG = "lower-tc desc"


class UsageError(Exception):
    """Bad command-line input: reported in one line, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        flag = re.fullmatch(r"argument (\S+): expected one argument", message)
        if flag:  # argparse took a value such as "-0x80" for a flag
            message += f" (a value starting with '-' is written {flag.group(1)}=VALUE)"
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
    cmd.add_argument("--max-swizzle", help="with --swizzle auto only: the widest mode allowed")
    cmd.add_argument("--mn", required=True, help="extent along M (operand A) or N (operand B)")
    cmd.add_argument("--k", required=True, help="extent along K")
    cmd.add_argument(
        "--order", choices=["mn-first", "k-first"], help="how atoms follow each other (default mn-first)"
    )
    cmd.add_argument(
        "--atom-strides", help="explicit byte strides between atoms: MN,K (instead of --order)"
    )
    cmd.add_argument("--addr", default="0", help="start address in shared memory (bytes)")
    cmd.add_argument(
        "--swizzle-origin",
        help="address the data's XOR pattern starts at (default: absolute address bits); "
        "for swizzled tiles only",
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


def _check_flags(args: argparse.Namespace) -> None:
    """Refuse flags that would be silently ignored beside the others (as the IR refuses
    `order` beside `strides` in #tc.layout)."""
    if args.order is not None and args.atom_strides is not None:
        raise UsageError("give either --order or --atom-strides, not both (explicit strides place every atom)")
    mode = args.swizzle.lower()
    if args.max_swizzle is not None and mode != "auto":
        raise UsageError("--max-swizzle applies only to --swizzle auto")
    if args.swizzle_origin is not None and mode == "none":
        raise UsageError("--swizzle-origin applies only to a swizzled tile: --swizzle none has no XOR pattern")


def _check_capacity(layout: TileLayout) -> None:
    """A tile must lie inside the shared memory a block can address."""
    end = layout.address + layout.footprint
    if end > SMEM_WINDOW:
        raise UsageError(
            f"tile ends at {end:#x}, beyond the {SMEM_WINDOW // 1024} KiB of shared memory a block can address"
        )


def placed_tile(args: argparse.Namespace) -> tuple[TileLayout, Arch, str | None]:
    """The tile the flags of `encode` and `show` describe, its target, and the chooser's
    reason when --swizzle is auto (None otherwise)."""
    _check_flags(args)
    arch = Arch.parse(args.arch)
    dtype = element_type(args.dtype)
    major = Major.parse(args.major)
    mn, k = parse_number(args.mn), parse_number(args.k)
    check_operand_type(arch, dtype.name, major is Major.MN)
    strides, address = _strides(args.atom_strides), parse_number(args.addr)
    origin = parse_number(args.swizzle_origin) if args.swizzle_origin is not None else None
    order = args.order or "mn-first"

    def placed(mode: Swizzle) -> TileLayout:
        """The tile with `mode`, at --addr with --atom-strides and --swizzle-origin."""
        return TileLayout.make(dtype, mn, k, major, mode, order, strides, address, origin)

    reason = None
    if args.swizzle.lower() == "auto":
        maximum = Swizzle.parse(args.max_swizzle) if args.max_swizzle is not None else None
        extent = k if major is Major.K else mn

        def fits(mode: Swizzle) -> None:  # the widest mode that fits the placement and the arch
            check_operand_layout(placed(mode), arch)

        choice = choose_placed_swizzle(dtype, major, extent, arch, fits, maximum=maximum)
        swizzle, reason = choice.swizzle, choice.reason
        if origin is not None and swizzle is Swizzle.NONE:  # said, not silently dropped
            reason += "; --swizzle-origin does not apply: no XOR pattern"
    else:
        swizzle = Swizzle.parse(args.swizzle)
    layout = placed(swizzle)
    _check_capacity(layout)
    return layout, arch, reason


def encode_report(args: argparse.Namespace) -> dict[str, Any]:
    return layout_report(*placed_tile(args))


def run_encode(args: argparse.Namespace) -> int:
    report = encode_report(args)
    print(json.dumps(report, indent=2) if args.json else format_encode(report))
    return 0


def run_show(args: argparse.Namespace) -> int:
    """`desc show`: the tile's picture, written only once it is complete."""
    layout, arch, reason = placed_tile(args)
    report = layout_report(layout, arch, reason)
    global_major = Major.parse(args.global_major) if args.global_major else None
    try:
        svg = tile_svg(TilePicture(layout, args.name, report, global_major=global_major))
    except PictureError as err:
        raise UsageError(str(err)) from None
    try:
        write_files({args.output: svg})  # whole or not at all: the old file stays on failure
    except OutputError as err:
        raise UsageError(str(err)) from None
    return 0


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
        run = {"decode": run_decode, "encode": run_encode, "show": run_show}[args.command]
        return run(args)
    except (UsageError, LayoutError) as err:
        print(f"{PROG}: error: {err}", file=sys.stderr)
        return 2
