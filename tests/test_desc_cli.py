"""`lower-tc desc`: output, JSON schema and one-line errors with exit status 2."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from lower_tc.layout import Arch, TileLayout, k_slices
from lower_tc.lowering.cli.main import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["desc", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_decode_text(capsys) -> None:
    code, out, _ = run(capsys, "decode", "0x4000004000010040", "--arch", "sm_90a")
    assert code == 0
    assert "start address  0x00400" in out and "SBO               1024" in out
    assert "swizzle           128b  code 1" in out and out.rstrip().endswith("valid")


def test_decode_json_sm100_flags_missing_version(capsys) -> None:
    code, out, _ = run(capsys, "decode", "0x4000004000010040", "--arch", "sm_100a", "--json")
    report = json.loads(out)
    assert code == 1
    assert report["desc"] == "0x4000004000010040"
    assert (report["start_address"], report["lbo"], report["sbo"]) == (1024, 16, 1024)
    assert (report["lbo_enc"], report["sbo_enc"], report["base_offset"]) == (1, 64, 0)
    assert report["swizzle"] == "128b" and report["version"] == 0 and report["lbo_mode"] == 0
    assert "version bits 46-48" in report["problems"][0]


def test_decode_reserved_swizzle(capsys) -> None:
    code, out, _ = run(capsys, "decode", hex(1 << 46 | 5 << 61), "--arch", "sm_100a", "--json")
    report = json.loads(out)
    assert code == 1 and report["swizzle"] is None and report["swizzle_code"] == 5


def test_encode_json_matches_library(capsys) -> None:
    code, out, _ = run(
        capsys, "encode", "--arch", "sm_90a", "--dtype", "bf16", "--major", "k",
        "--swizzle", "128b", "--mn", "64", "--k", "64", "--addr", "0x400", "--json",
    )
    report = json.loads(out)
    assert code == 0
    expected = k_slices(TileLayout.make("bf16", 64, 64, "k", "128b", address=0x400), Arch.SM90A)
    assert [s["desc"] for s in report["k_slices"]] == [
        f"{s.descriptor.encode():#018x}" for s in expected
    ]
    assert [s["k"] for s in report["k_slices"]] == [0, 16, 32, 48]
    assert [s["start_address"] for s in report["k_slices"]] == [0x400, 0x420, 0x440, 0x460]
    assert (report["lbo"], report["sbo"], report["lbo_enc"], report["sbo_enc"]) == (16, 1024, 1, 64)
    assert report["swizzle"] == "128b" and report["base_offset"] == 0
    assert report["canonical"].startswith("Sw<3,4,3> o smem_ptr[16b](unset) o ((8,8),")


def test_encode_auto_prints_reason(capsys) -> None:
    code, out, _ = run(
        capsys, "encode", "--arch", "sm_100a", "--dtype", "bf16", "--major", "mn",
        "--swizzle", "auto", "--max-swizzle", "64b", "--mn", "64", "--k", "32",
    )
    assert code == 0
    assert "swizzle    64b: capped by the maximum 64b" in out
    assert "tcgen05" in out and out.count("desc 0x") == 2


@pytest.mark.parametrize(
    "arch, placement, expected, why",
    [
        ("sm_100a", ["--addr", "0x200"], "64b", "start 0x200 is not a multiple of the 1024-byte 128b"),
        ("sm_100a", ["--addr", "0x80"], "none", "start 0x80 is not a multiple of the 256-byte 32b"),
        ("sm_90a", ["--addr", "0x80"], "128b", None),  # Hopper reads any 128-byte phase
        ("sm_90a", ["--atom-strides", "1152,9216"], "none", "only strides of whole patterns"),
    ],
)
def test_encode_auto_steps_down_to_a_placement_the_arch_reads(capsys, arch, placement, expected, why) -> None:
    """auto never picks a mode that the descriptor code would then refuse for the arch."""
    code, out, err = run(
        capsys, "encode", "--arch", arch, "--dtype", "bf16", "--major", "k", "--swizzle", "auto",
        "--mn", "64", "--k", "64", *placement, "--json",
    )
    assert code == 0, err
    report = json.loads(out)
    assert report["swizzle"] == expected
    if why:
        assert report["swizzle_reason"].startswith(f"{expected}: the widest mode its placement allows (")
        assert why in report["swizzle_reason"]


def test_encode_sm100_tf32_mn_major_takes_base32b(capsys) -> None:
    """tcgen05 transposes tf32 only with 128B swizzle of 32-byte atomicity: auto picks it,
    and its 4-row atoms make SBO the stride between groups of 4 K rows (512 bytes here)."""
    code, out, _ = run(
        capsys, "encode", "--arch", "sm_100a", "--dtype", "tf32", "--major", "mn",
        "--swizzle", "auto", "--mn", "32", "--k", "16", "--order", "k-first", "--json",
    )
    report = json.loads(out)
    assert code == 0 and report["swizzle"] == "128b_base32b"
    assert "the only mode tcgen05 reads MN-major tf32 with" in report["swizzle_reason"]
    assert (report["lbo"], report["sbo"]) == (2048, 512)
    assert report["canonical"] == "Sw<2,5,2> o smem_ptr[32b](unset) o ((4,8,1),(4,4)):((1,4,512),(32,128))"
    assert [int(s["desc"], 16) >> 61 for s in report["k_slices"]] == [1, 1]
    assert [s["start_address"] for s in report["k_slices"]] == [0, 1024]  # 8 K rows = 2 atoms


def test_encode_refuses_base32b_for_other_kinds(capsys) -> None:
    code, _, err = run(
        capsys, "encode", "--arch", "sm_100a", "--dtype", "bf16", "--major", "mn",
        "--swizzle", "128b_base32b", "--mn", "64", "--k", "32",
    )
    assert code == 2
    assert "128b_base32b is for MN-major tf32 only" in err


@pytest.mark.parametrize(
    "argv,message",
    [
        (["--dtype", "bf17"], "unknown element type 'bf17'"),
        (["--dtype", "e4m3", "--major", "mn"], "cannot transpose e4m3"),
        (["--mn", "60"], "MN extent 60 is not a whole number"),
        (["--k", "0x3G"], "malformed number '0x3G'"),
        (["--swizzle", "256b"], "unknown swizzle mode '256b'"),
        (["--addr", "0x408"], "not 128-byte aligned"),
        (["--atom-strides", "1024"], "two numbers"),
        (["--max-swizzle", "64b"], "only to --swizzle auto"),
        (["--swizzle", "128b_base32b"], "exists only for MN-major"),
        (["--k", "\u0666\u0664"], "malformed number"),  # Arabic-Indic digits: int() takes them
        (["--k", "_64"], "malformed number '_64'"),
        (["--k", "1" * 5000], "number too long"),  # int() would raise its own ValueError
        (["--addr", "-128"], "tile start -128 is negative"),
        (["--swizzle-origin", "0x100000000"], "outside the 256 KiB shared-memory window"),
        (["--mn", "800000000000"], "exceed the 256 KiB shared-memory window"),  # at once
        (["--atom-strides", "1152,9216"], "only strides of whole patterns were measured"),
        # flags that would be silently ignored beside others
        (["--atom-strides", "1024,8192", "--order", "k-first"], "give either --order or --atom-strides, not both"),
        (["--atom-strides", "1024,8192", "--order", "mn-first"], "give either --order or --atom-strides, not both"),
        (["--swizzle", "none", "--swizzle-origin", "0x80"], "--swizzle-origin applies only to a swizzled tile"),
        (["--max-swizzle", ""], "--max-swizzle applies only to --swizzle auto"),
        # a stranger's numbers
        (["--swizzle-origin", ""], "malformed number ''"),
        (["--mn", "-64"], "tile shape -64x64 must be positive"),
        (["--mn", str(2**64)], "exceed the 256 KiB shared-memory window"),
        (["--addr", str(2**64)], "beyond the 256 KiB shared-memory window"),
        (["--addr", "-0x400"], "(a value starting with '-' is written --addr=VALUE)"),
        (["--atom-strides", f"1024,{2**64}"], f"atom stride along K ({2**64} bytes) must be below 256 KiB"),
        (["--atom-strides", "1024,262144"], "atom stride along K (262144 bytes) must be below 256 KiB"),
        (["--addr", "0x38000"], "tile ends at 0x3a000, beyond the 228 KiB of shared memory a block can address"),
    ],
)
def test_encode_errors_are_one_line_exit_2(capsys, argv, message) -> None:
    base = {"--arch": "sm_90a", "--dtype": "bf16", "--major": "k", "--swizzle": "128b",
            "--mn": "64", "--k": "64"}
    for flag, value in zip(argv[::2], argv[1::2]):
        base[flag] = value
    args = [x for kv in base.items() for x in kv]
    code, out, err = run(capsys, "encode", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and err.startswith("lower-tc desc: error:")


@pytest.mark.parametrize(
    "argv",
    [["decode", "0xZZ", "--arch", "sm_90a"], ["decode", "0x1", "--arch", "sm_91a"],
     ["decode", hex(1 << 64), "--arch", "sm_90a"], ["encode", "--arch", "sm_90a"], []],
)
def test_decode_and_usage_errors(capsys, argv) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1


def test_encode_takes_the_last_bytes_of_shared_memory(capsys) -> None:
    """A tile may end exactly at the 228 KiB a block can address, not a byte beyond."""
    argv = ["--arch", "sm_90a", "--dtype", "bf16", "--major", "k", "--swizzle", "128b", "--mn", "64", "--k", "64"]
    assert run(capsys, "encode", *argv, "--addr", hex(228 * 1024 - 8192))[0] == 0
    code, _, err = run(capsys, "encode", *argv, "--addr", hex(228 * 1024 - 8192 + 1024))
    assert code == 2 and "beyond the 228 KiB" in err


def test_show_refuses_the_same_conflicts(capsys, tmp_path) -> None:
    """`show` reads its tile through the same flags: the same refusals, and no file."""
    svg = tmp_path / "t.svg"
    code, out, err = run(
        capsys, "show", "--arch", "sm_90a", "--dtype", "bf16", "--major", "k", "--swizzle", "128b",
        "--mn", "64", "--k", "64", "--order", "k-first", "--atom-strides", "1024,8192", "-o", str(svg),
    )
    assert code == 2 and out == "" and err.count("\n") == 1 and "not both" in err
    assert not svg.exists()


def test_auto_says_when_the_origin_does_not_apply(capsys) -> None:
    """--swizzle auto may settle on none, which has no pattern for --swizzle-origin to place:
    the reason says so rather than dropping the flag silently."""
    code, out, err = run(
        capsys, "encode", "--arch", "sm_90a", "--dtype", "bf16", "--major", "k", "--swizzle", "auto",
        "--mn", "64", "--k", "64", "--addr", "0x10", "--swizzle-origin", "0x80",
    )
    assert code == 0, err
    assert "--swizzle-origin does not apply: no XOR pattern" in out
    assert "start 0x10, swizzle origin 0x80" in out


def test_encode_prints_the_swizzle_origin(capsys) -> None:
    code, out, _ = run(
        capsys, "encode", "--arch", "sm_90a", "--dtype", "bf16", "--major", "k", "--swizzle", "128b",
        "--mn", "64", "--k", "64", "--addr", "0x400", "--swizzle-origin", "0x80", "--json",
    )
    report = json.loads(out)
    assert code == 0 and report["swizzle_origin"] == 0x80 and report["base_offset"] == 1


def test_decode_notes_a_start_beyond_shared_memory(capsys) -> None:
    """A start address the 14-bit field holds but no block has (228 KiB and up) is noted
    (the encoding itself is well formed, as MatrixDescriptor builds it)."""
    code, out, _ = run(capsys, "decode", "0x4000000000003900", "--arch", "sm_90a")
    assert code == 0
    assert "note: start address 0x39000 lies beyond the 228 KiB of shared memory a block can address" in out
    code, out, _ = run(capsys, "decode", "0x40000000000038f0", "--arch", "sm_90a")
    assert code == 0 and "note:" not in out


def test_console_script_installed() -> None:
    exe = shutil.which("lower-tc") or shutil.which("lower-tc", path=str(
        __import__("pathlib").Path(sys.executable).parent))
    assert exe, "the lower-tc console script is not installed"
    done = subprocess.run(
        [exe, "desc", "decode", "0x4000004000010040", "--arch", "sm_90a", "--json"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["sbo"] == 1024


BIG = """func.func @big(%A: memref<64x256xbf16>, %B: memref<256x256xbf16>, %D: memref<64x256xf32>) attributes {tc.target = "sm_90a"} {
  %a = tc.smem_tile : !tc.tile<64x256xbf16, #tc.layout<k, swizzle = auto>>
  %b = tc.smem_tile : !tc.tile<256x256xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %A to %a as a : memref<64x256xbf16>, !tc.tile<64x256xbf16, #tc.layout<k, swizzle = auto>>
  tc.copy %B to %b as b : memref<256x256xbf16>, !tc.tile<256x256xbf16, #tc.layout<k, swizzle = auto>>
  %acc = tc.acc_zero : !tc.acc<64x256xf32>
  %d = tc.wgmma %a, %b, %acc : !tc.tile<64x256xbf16, #tc.layout<k, swizzle = auto>>, !tc.tile<256x256xbf16, #tc.layout<k, swizzle = auto>>, !tc.acc<64x256xf32>
  tc.acc_store %d to %D : !tc.acc<64x256xf32>, memref<64x256xf32>
  func.return
}
"""


def test_a_reader_that_stops_early_is_not_an_error(tmp_path) -> None:
    """`lower-tc big.mlir | head`: a closed pipe ends lower-tc quietly, without a traceback
    or an error message."""
    import subprocess
    import sys

    src = tmp_path / "big.mlir"
    src.write_text(BIG)
    code = "import sys; from lower_tc.lowering.cli.main import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen([sys.executable, "-c", code, str(src)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.close()  # the reader is gone before lower-tc writes a byte: every write fails
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert b"Traceback" not in err and b"error" not in err


def test_numbers_may_be_grouped_by_underscores(capsys) -> None:
    code, out, _ = run(capsys, "decode", "0x4000_0040_0001_0040", "--arch", "sm_90a", "--json")
    assert code == 0 and json.loads(out)["desc"] == "0x4000004000010040"


def test_auto_swizzle_fits_the_placement(capsys) -> None:
    """--swizzle auto with a start that no swizzled tile may have: the widest mode that
    fits (none), and the reason names what ruled the wider ones out."""
    code, out, err = run(capsys, "encode", "--arch", "sm_90a", "--dtype", "bf16", "--major", "k",
                         "--swizzle", "auto", "--mn", "64", "--k", "64", "--addr", "0x10", "--json")
    assert code == 0, err
    reply = json.loads(out)
    assert reply["swizzle"] == "none"
    assert "128b, 64b, 32b: tile start 0x10 is not 128-byte aligned" in reply["swizzle_reason"]


@pytest.mark.parametrize("argv,lbo_role,sbo_role", [
    (["--arch", "sm_90a", "--dtype", "bf16", "--major", "k", "--swizzle", "none"],
     "next 16-byte column of core matrices along K", "next 8 rows along M/N"),
    (["--arch", "sm_90a", "--dtype", "bf16", "--major", "mn", "--swizzle", "none"],
     "next 8 rows along K (core matrix)", "next 16-byte core matrix along M/N"),
    (["--arch", "sm_90a", "--dtype", "bf16", "--major", "mn", "--swizzle", "64b"],
     "next atom along M/N", "next 8 rows along K"),
    (["--arch", "sm_100a", "--dtype", "tf32", "--major", "mn", "--swizzle", "128b_base32b"],
     "next atom along M/N", "next 4 rows along K"),
])
def test_encode_says_what_lbo_and_sbo_step_over(capsys, argv, lbo_role, sbo_role) -> None:
    """The canonical layouts' roles (DESIGN.md fact 4): MN-major swaps them against K-major
    without swizzle and again with it; 128b_base32b's atom is 4 K rows deep."""
    code, out, err = run(capsys, "encode", *argv, "--mn", "128", "--k", "32")
    assert code == 0, err
    lbo_line = next(line for line in out.splitlines() if line.strip().startswith("LBO"))
    sbo_line = next(line for line in out.splitlines() if line.strip().startswith("SBO"))
    assert lbo_line.endswith(f"({lbo_role})") and sbo_line.endswith(f"({sbo_role})")
