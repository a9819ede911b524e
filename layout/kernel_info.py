"""The launch contract: what a compiled kernel promises the code that launches it.

The lowering (passes/to_ptx) builds a `KernelInfo` for every kernel; the runner, the timing
and the benchmarks read it. It crosses a boundary only as JSON: in the ptx.kernel's `info`
property and the comment line above each kernel in the PTX (`// lower-tc kernel NAME: {...}`),
through `to_json` and `from_json`. Plain data, no xDSL, no CUDA.

The JSON (docs/gemm.md, "Launching") has two shapes today: a single-tile kernel's (name,
target, threads, smem_bytes, args, tensor_maps: one CTA, no grid) and a whole GEMM's, which
adds grid, size_params, gemm and, for a cluster launch, cluster. The optional sections are
fields that are None here and absent from the JSON. Inside them null means "known only at
launch": an argument's shape or stride, a tensor map's global dimensions and strides, the
GEMM's M, N, K. `resolve_sizes` (lowering/runtime/sizes.py) fills those in from the sizes the
caller gives and returns a resolved KernelInfo.

Versioning: the JSON's top-level "version" is raised by a change of the contract's meaning;
`from_json` refuses JSON without it or of a version it does not read (`READ_VERSIONS`).
Version 2 added `workspace` (scratch memory the launcher passes after the arguments'
addresses: split-K through global memory); a kernel without one is still written as
version 1, so a reader of version 1 refuses exactly the kernels it could not launch.
Version 3 added stream-K (`workspace.stream_k_tiles`, a persistent grid's `steps`): its
workspace is sized by another rule, so a stream-K kernel is written as version 3 and the
others as before. Version 4 (SPLIT_K_CLAIMS_VERSION) is a split-K workspace's: S u32 slice
words per tile after the counters (room a sum spread over the tile's CTAs uses: its 64-bit
word a tile), and counts that a spread sum leaves at a multiple of S rather than 0; a
reader of version 2 would size it too small, so such a kernel is written as version 4.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Union

from lower_tc.layout.gemm import GemmConfig
from lower_tc.layout.split_k import workspace_bytes
from lower_tc.layout.stream_k import workspace_bytes as stream_k_workspace_bytes

#: The newest version of this contract (the JSON's top-level "version"), written for a
#: kernel with a workspace; one without is written as BASE_VERSION.
KERNEL_INFO_VERSION = 2
BASE_VERSION = 1
#: The version of a stream-K kernel's contract (its workspace's other rule).
STREAM_K_VERSION = 3
#: The version of a split-K kernel's contract (its workspace's slice claims: the docstring).
SPLIT_K_CLAIMS_VERSION = 4
#: The versions `from_json` reads.
READ_VERSIONS = (1, 2, 3, 4)
#: The PTX parameter of the workspace's address (after the arguments' .u64 addresses;
#: every argument's parameter starts with "p_").
WORKSPACE_PARAM = "workspace"

#: A dimension or stride that is known only at launch.
Size = Union[int, None]


class KernelInfoError(ValueError):
    """JSON that is not a kernel's launch metadata (a missing or mistyped field)."""


@dataclass(frozen=True)
class ArgInfo:
    """One kernel argument: a matrix, or a batch of matrices, in global memory (the PTX
    parameter holds its address). A batched argument's shape and strides have three
    entries (batch, rows, cols); a matrix's two (rows, cols); an attention kernel's batch
    of batches four (batch, heads, rows, cols), all known at compile time."""

    param: str  # the PTX parameter, e.g. "p_A"
    shape: tuple[Size, ...]  # [batch,] rows, cols
    strides: tuple[Size, ...]  # in elements; the last or the one before is 1 (row- or column-major)
    dtype: str  # element type name, e.g. "bf16"
    output: bool  # the kernel writes it

    @property
    def static(self) -> bool:
        """Every size is known at compile time."""
        return None not in self.shape and None not in self.strides

    @property
    def batched(self) -> bool:
        """A batch of matrices (three dimensions)."""
        return len(self.shape) == 3

    @property
    def rows(self) -> Size:
        return self.shape[-2]

    @property
    def cols(self) -> Size:
        return self.shape[-1]

    @property
    def batch(self) -> Size:
        """The number of matrices (1 for a plain matrix)."""
        return self.shape[0] if self.batched else 1

    @property
    def batch_stride(self) -> Size:
        """Elements from one matrix of the batch to the next (0 for a plain matrix)."""
        return self.strides[0] if self.batched else 0

    @property
    def row_major(self) -> bool:
        return self.strides[-1] == 1

    @property
    def ld(self) -> Size:
        """The leading dimension: the stride of the non-contiguous dimension of a matrix."""
        return self.strides[-2] if self.row_major else self.strides[-1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "param": self.param, "shape": list(self.shape), "strides": list(self.strides),
            "dtype": self.dtype, "output": self.output,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ArgInfo:
        shape, strides = _dims(d["shape"]), _dims(d["strides"])
        if len(shape) != len(strides):
            raise KernelInfoError(f"argument {d['param']}: {len(shape)} sizes but {len(strides)} strides")
        return cls(d["param"], shape, strides, d["dtype"], bool(d["output"]))


#: What a size parameter holds, of its argument (`ArgInfo`'s properties of these names).
SIZE_PARAM_KINDS = ("rows", "cols", "ld", "batch", "batch_stride")


@dataclass(frozen=True)
class SizeParam:
    """A .u32 kernel parameter holding one size of an argument known only at launch."""

    param: str  # the PTX parameter, e.g. "p_A_rows"
    arg: int  # the argument's index
    what: str  # "rows", "cols", "ld", "batch" or "batch_stride" (SIZE_PARAM_KINDS)
    value: int | None = None  # filled in by resolve_sizes; never in the compiled JSON

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"param": self.param, "arg": self.arg, "what": self.what}
        if self.value is not None:
            out["value"] = self.value
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SizeParam:
        return cls(d["param"], int(d["arg"]), d["what"], d.get("value"))


@dataclass(frozen=True)
class TensorMap:
    """A TMA tensor map the launcher encodes (cuTensorMapEncodeTiled) into a parameter."""

    param: str  # the PTX parameter (128 bytes), e.g. "tmap_0"
    arg: int  # the argument whose memory it maps
    dtype: str
    box: tuple[int, ...]  # elements per dimension, contiguous first (a batch dimension last, box 1)
    swizzle: str  # the tile's swizzle ("128b", ...)
    tma_swizzle_code: int  # CUtensorMapSwizzle: none 0, 32B 1, 64B 2, 128B 3
    global_dims: tuple[int, ...] | None  # contiguous first, the batch last; None: known at launch
    global_strides: tuple[int, ...] | None  # bytes, beyond dimension 0 (the batch's last); None: known at launch
    l2_promotion: int | None = None  # CUtensorMapL2promotion code (the schedule's l2_promotion); None: 0, not in the JSON

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "param": self.param, "arg": self.arg, "dtype": self.dtype,
            "global_dims": _list_or_none(self.global_dims),
            "global_strides": _list_or_none(self.global_strides),
            "box": list(self.box), "swizzle": self.swizzle, "tma_swizzle_code": self.tma_swizzle_code,
        }
        if self.l2_promotion is not None:
            out["l2_promotion"] = self.l2_promotion
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> TensorMap:
        return cls(
            d["param"], int(d["arg"]), d["dtype"], tuple(d["box"]), d["swizzle"], int(d["tma_swizzle_code"]),
            _tuple_or_none(d["global_dims"]), _tuple_or_none(d["global_strides"]), d.get("l2_promotion"),
        )


@dataclass(frozen=True)
class GridFromArg:
    """A grid dimension known at launch: ceil(size `dim` of argument `arg` / `tile`),
    times `times` (the CTAs of a split-K cluster sharing each tile; 1 otherwise)."""

    arg: int
    dim: int  # an index into the argument's shape: (rows, cols) or (batch, rows, cols)
    tile: int
    times: int = 1

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"arg": self.arg, "dim": self.dim, "tile": self.tile}
        if self.times != 1:
            out["times"] = self.times
        return out

    def count(self, size: int) -> int:
        """The blocks along this dimension for an argument size of `size`."""
        return -(-size // self.tile) * self.times


@dataclass(frozen=True)
class PersistentGrid:
    """A persistent kernel's grid x: one CTA per SM, at most one per tile (`tiles` of them)
    or, with `steps` (stream-K, whose CTAs share the tiles' K steps: `steps` of them in
    all), at most one per K step however few the tiles; the launcher sizes it to the GPU,
    in whole clusters."""

    tiles: int
    steps: int = 0

    @property
    def most(self) -> int:
        """The most CTAs the grid takes."""
        return self.steps or self.tiles

    def to_dict(self) -> dict[str, Any]:
        return {"persistent": self.tiles, **({"steps": self.steps} if self.steps else {})}


#: One grid dimension: a count, a size known at launch, or the persistent form (x only).
GridEntry = Union[int, GridFromArg, PersistentGrid]


def grid_entry_to_json(entry: GridEntry) -> Any:
    return entry if isinstance(entry, int) else entry.to_dict()


def grid_entry_from_json(value: Any) -> GridEntry:
    if isinstance(value, int):
        return value
    if isinstance(value, Mapping) and "persistent" in value:
        return PersistentGrid(int(value["persistent"]), int(value.get("steps", 0)))
    if isinstance(value, Mapping):
        return GridFromArg(int(value["arg"]), int(value["dim"]), int(value["tile"]), int(value.get("times", 1)))
    raise KernelInfoError(f"a grid entry is a count, {{arg, dim, tile}} or {{persistent}}, not {value!r}")


@dataclass(frozen=True)
class GemmInfo:
    """A whole GEMM's facts: which arguments are A, B, C and D (indices), the problem's
    M, N, K (None: known at launch), the accumulator type and the tile configuration.

    A batched GEMM (D has a batch dimension) has `batch` matrices D (None: known at
    launch); A or B without a batch dimension, or with a batch of 1, is the same matrix
    for every one. A plain GEMM has batch 1 and no "batch" key in the JSON.

    `a_transposed` (`b_transposed`): A (B) is the transpose of its argument, which holds
    K x M (N x K); the kernel reads it through a `tc.transpose` view. They are in the JSON
    only where true. C may be D (the same argument: D += A x B).

    `d_transposed`: the kernel computes D^T = B^T A^T (swap-AB, docs/gemm.md): its D
    (and C) is the transpose of its argument, which holds N x M (M and N are the kernel's,
    the argument's columns and rows); in the JSON only where true.

    `split_k` (S > 1, in the JSON only then): each tile's K is split over S CTAs, which sum
    their partial tiles and store D once: the CTAs of a cluster (`cluster` is [S, 1, 1]),
    or with `reduce` "global" (in the JSON only then) S consecutive CTAs along x through
    the kernel's `workspace`; `unsplit` (F > 0, in the JSON only then): the grid's first F
    CTAs along x take a tile each over all of K, the split tiles follow."""

    a: int
    b: int
    d: int
    c: int | None
    m: Size
    n: Size
    k: Size
    acc: str
    config: GemmConfig
    batched: bool = False
    batch: Size = 1
    a_transposed: bool = False
    b_transposed: bool = False
    split_k: int = 1
    reduce: str = "cluster"
    unsplit: int = 0
    d_transposed: bool = False

    def to_dict(self) -> dict[str, Any]:
        c = self.config
        out = {
            "a": self.a, "b": self.b, "d": self.d, "c": self.c, "m": self.m, "n": self.n, "k": self.k,
            "acc": self.acc, "config": {"bm": c.bm, "bn": c.bn, "bk": c.bk, "stages": c.stages},
        }
        if self.batched:
            out["batch"] = self.batch
        for key in ("a_transposed", "b_transposed", "d_transposed"):
            if getattr(self, key):
                out[key] = True
        if self.split_k != 1:
            out["split_k"] = self.split_k
        if self.reduce != "cluster":
            out["reduce"] = self.reduce
        if self.unsplit:
            out["unsplit"] = self.unsplit
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GemmInfo:
        c = d["config"]
        return cls(
            int(d["a"]), int(d["b"]), int(d["d"]), d.get("c"), d["m"], d["n"], d["k"], d["acc"],
            GemmConfig(int(c["bm"]), int(c["bn"]), int(c["bk"]), int(c["stages"])),
            batched="batch" in d, batch=d.get("batch", 1),
            a_transposed=bool(d.get("a_transposed", False)), b_transposed=bool(d.get("b_transposed", False)),
            split_k=int(d.get("split_k", 1)), reduce=str(d.get("reduce", "cluster")), unsplit=int(d.get("unsplit", 0)),
            d_transposed=bool(d.get("d_transposed", False)),
        )


@dataclass(frozen=True)
class AttentionInfo:
    """A loop-level attention kernel's facts: which arguments are Q, K (as its argument:
    keys x head dim), V and O (and the log-sum-exp's, where stored), the softmax's scale, the mask (`causal`: query i sees key j
    iff j <= i + causal; `keys`: the keys' count where masked; None: no such mask), and the
    block of queries a CTA takes and of keys an iteration takes, and fp8's descaling factors'
    arguments (each (batch, K heads) f32, read at a CTA's batch and K head). An additive key: a reader
    that does not know it sees a kernel it cannot check (so the version stays)."""

    q: int
    k: int
    v: int
    o: int
    scale: float
    causal: int | None = None
    keys: int | None = None
    block_m: int = 64
    block_n: int = 64
    lse: int | None = None  # the argument the log-sum-exp goes to, (heads, S_q) f32; None: none
    v_transposed: bool = False  # V's argument is V^T (head dim x keys), read through a tc.transpose view
    # fp8's descaling factors: the (batch, K heads) f32 arguments whose product multiplies the
    # scores (Q's and K's), and O (V's); () where none
    qk_descale: tuple[int, ...] = ()
    v_descale: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"q": self.q, "k": self.k, "v": self.v, "o": self.o, "scale": self.scale,
                               "block_m": self.block_m, "block_n": self.block_n}
        if self.lse is not None:
            out["lse"] = self.lse
        if self.v_transposed:
            out["v_transposed"] = True
        if self.causal is not None:
            out["causal"] = self.causal
        if self.keys is not None:
            out["keys"] = self.keys
        if self.qk_descale:
            out["qk_descale"] = list(self.qk_descale)
        if self.v_descale:
            out["v_descale"] = list(self.v_descale)
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> AttentionInfo:
        causal, keys = d.get("causal"), d.get("keys")
        return cls(int(d["q"]), int(d["k"]), int(d["v"]), int(d["o"]), float(d["scale"]),
                   int(causal) if causal is not None else None, int(keys) if keys is not None else None,
                   int(d.get("block_m", 64)), int(d.get("block_n", 64)),
                   int(d["lse"]) if d.get("lse") is not None else None, bool(d.get("v_transposed", False)),
                   tuple(int(i) for i in d.get("qk_descale", ())), tuple(int(i) for i in d.get("v_descale", ())))


@dataclass(frozen=True)
class WorkspaceInfo:
    """Scratch memory in global memory that the kernel needs (split-K through global
    memory, layout/split_k.py): a slot of `partial_bytes` per split CTA of the launched grid
    (every CTA but the first `unsplit` along x, which compute a tile each), then a u32
    counter per tile of `split_k` CTAs, then `split_k` u32 slice words per tile (a sum
    spread over the tile's CTAs, layout/split_k.py SPREAD_MAX_CTAS, keeps a 64-bit word a
    tile, count and given-up ranks, from the counters' start). Its address is the .u64
    parameter WORKSPACE_PARAM. It must be zero before the first launch; each launch leaves
    it ready for the next (the partials rewritten, the counters reset to 0 or, spread, on at
    the next multiple of split_k), so one workspace serves launches that run one after
    another (one stream), not two at once."""

    partial_bytes: int
    split_k: int
    unsplit: int = 0  # the grid's first CTAs along x that compute a whole tile (no slot)
    stream_k_tiles: int = 0  # stream-K (T > 0): the tiles its CTAs share (layout/stream_k.py); split_k is then 1
    stream_k_groups: int = 1  # stream-K's groups of CTAs

    def bytes(self, ctas: int) -> int:
        """The workspace's size for a grid of `ctas` CTAs."""
        if self.stream_k_tiles:
            return stream_k_workspace_bytes(ctas, self.stream_k_tiles, self.partial_bytes, self.stream_k_groups)
        return workspace_bytes(max(ctas - self.unsplit, 0), self.split_k, self.partial_bytes)

    def to_dict(self) -> dict[str, Any]:
        """`unsplit` only where there are such CTAs: a reader that does not know it sizes
        the workspace for every CTA, more than enough (so the version stays)."""
        out: dict[str, Any] = {"partial_bytes": self.partial_bytes, "split_k": self.split_k}
        if self.unsplit:
            out["unsplit"] = self.unsplit
        if self.stream_k_tiles:
            out["stream_k_tiles"] = self.stream_k_tiles
            out["stream_k_groups"] = self.stream_k_groups
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> WorkspaceInfo:
        info = cls(int(d["partial_bytes"]), int(d["split_k"]), int(d.get("unsplit", 0)), int(d.get("stream_k_tiles", 0)),
                   int(d.get("stream_k_groups", 1)))
        if info.stream_k_tiles:
            if (info.partial_bytes <= 0 or info.split_k != 1 or info.unsplit or info.stream_k_tiles < 0 or info.stream_k_groups < 1
                    or info.stream_k_tiles % info.stream_k_groups):
                raise KernelInfoError(f"a stream-K workspace has positive partial_bytes and stream_k_tiles, groups dividing the tiles, "
                                      f"split_k 1 and no unsplit, not {dict(d)!r}")
        elif info.partial_bytes <= 0 or info.split_k < 2 or info.unsplit < 0:
            raise KernelInfoError(f"a workspace has positive partial_bytes, split_k >= 2 and unsplit >= 0, not {dict(d)!r}")
        return info


@dataclass(frozen=True)
class KernelInfo:
    """What one compiled kernel promises its launcher (see the module's docstring)."""

    name: str  # the .entry's name
    target: str  # "sm_90a" or "sm_100a"
    threads: int  # block size (x; y and z are 1)
    smem_bytes: int  # dynamic shared memory
    args: tuple[ArgInfo, ...]
    tensor_maps: tuple[TensorMap, ...] = ()
    #: A whole GEMM's launch: its grid (None: one CTA, a single-tile kernel), the .u32
    #: parameters of sizes known at launch, and the GEMM's facts.
    grid: tuple[GridEntry, GridEntry, GridEntry] | None = None
    size_params: tuple[SizeParam, ...] | None = None
    gemm: GemmInfo | None = None
    cluster: tuple[int, int, int] | None = None  # CTAs per cluster (None: no cluster launch)
    workspace: WorkspaceInfo | None = None  # scratch memory the launcher passes (None: none)
    attention: AttentionInfo | None = None  # a loop-level attention kernel's facts (None: not one)
    #: The kernel's first instruction is `griddepcontrol.wait`, so it may be launched while
    #: the kernel before it in the stream finishes (programmatic dependent launch: the
    #: launcher sets the attribute). An additive key: a reader that does not know it
    #: launches the kernel as any other, and the wait returns at once.
    dependent_launch: bool = False

    @property
    def version(self) -> int:
        """The contract version the JSON is written in (the module's docstring)."""
        if self.workspace is not None and self.workspace.stream_k_tiles:
            return STREAM_K_VERSION
        return SPLIT_K_CLAIMS_VERSION if self.workspace is not None else BASE_VERSION

    @property
    def launch_grid(self) -> tuple[GridEntry, GridEntry, GridEntry]:
        """The grid to launch (one CTA where the kernel names none)."""
        return self.grid if self.grid is not None else (1, 1, 1)

    @property
    def cluster_size(self) -> int:
        """CTAs per cluster along x (1 without a cluster launch)."""
        return self.cluster[0] if self.cluster is not None else 1

    @property
    def static(self) -> bool:
        """Every size is known at compile time (nothing for resolve_sizes to fill in)."""
        return all(a.static for a in self.args)

    # -- the JSON boundary ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready form."""
        out: dict[str, Any] = {
            "version": self.version, "name": self.name, "target": self.target, "threads": self.threads,
            "smem_bytes": self.smem_bytes, "args": [a.to_dict() for a in self.args],
            "tensor_maps": [t.to_dict() for t in self.tensor_maps],
        }
        if self.grid is not None:
            out["grid"] = [grid_entry_to_json(g) for g in self.grid]
        if self.size_params is not None:
            out["size_params"] = [p.to_dict() for p in self.size_params]
        if self.gemm is not None:
            out["gemm"] = self.gemm.to_dict()
        if self.cluster is not None:
            out["cluster"] = list(self.cluster)
        if self.workspace is not None:
            out["workspace"] = self.workspace.to_dict()
        if self.attention is not None:
            out["attention"] = self.attention.to_dict()
        if self.dependent_launch:
            out["dependent_launch"] = True
        return out

    def to_json(self) -> str:
        """The JSON text, keys sorted (what the ptx.kernel's `info` property holds)."""
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> KernelInfo:
        if "version" not in d:
            raise KernelInfoError(f"not a kernel's launch metadata: it has no version (this lower-tc reads versions {_versions()})")
        version = d["version"]
        if version not in READ_VERSIONS:
            raise KernelInfoError(f"kernel metadata version {version}: this lower-tc reads versions {_versions()}")
        if d.get("workspace") is not None and version < KERNEL_INFO_VERSION:
            raise KernelInfoError(f"kernel metadata version {version} has no workspace: a workspace is version {KERNEL_INFO_VERSION}'s")
        if isinstance(d.get("workspace"), Mapping) and d["workspace"].get("stream_k_tiles") and version < STREAM_K_VERSION:
            raise KernelInfoError(f"kernel metadata version {version} has no stream-K workspace: it is version {STREAM_K_VERSION}'s")
        try:
            grid = d.get("grid")
            size_params = d.get("size_params")
            return cls(
                name=d["name"], target=d["target"], threads=int(d["threads"]), smem_bytes=int(d["smem_bytes"]),
                args=tuple(ArgInfo.from_dict(a) for a in d.get("args", ())),
                tensor_maps=tuple(TensorMap.from_dict(t) for t in d.get("tensor_maps", ())),
                grid=_grid(grid) if grid is not None else None,
                size_params=tuple(SizeParam.from_dict(p) for p in size_params) if size_params is not None else None,
                gemm=GemmInfo.from_dict(d["gemm"]) if d.get("gemm") is not None else None,
                cluster=_triple(d["cluster"]) if d.get("cluster") is not None else None,
                workspace=WorkspaceInfo.from_dict(d["workspace"]) if d.get("workspace") is not None else None,
                attention=AttentionInfo.from_dict(d["attention"]) if d.get("attention") is not None else None,
                dependent_launch=bool(d.get("dependent_launch", False)),
            )
        except KernelInfoError:
            raise
        except (KeyError, TypeError, ValueError) as err:
            raise KernelInfoError(f"not a kernel's launch metadata: {type(err).__name__}: {err}") from None

    @classmethod
    def from_json(cls, text: str) -> KernelInfo:
        return cls.from_dict(json.loads(text))


def _versions() -> str:
    *rest, last = (str(v) for v in READ_VERSIONS)
    return f"{', '.join(rest)} and {last}" if rest else last


def _dims(values: Any) -> tuple[Size, ...]:
    """A matrix's two sizes (or strides), a batch's three, or a batch of batches' four
    (attention's batch x heads; static)."""
    out = tuple(values)
    if len(out) not in (2, 3, 4):
        raise KernelInfoError(f"an argument has 2, 3 or 4 dimensions, not {len(out)}")
    return out


def _triple(values: Any) -> tuple[int, int, int]:
    x, y, z = values
    return int(x), int(y), int(z)


def _grid(values: Any) -> tuple[GridEntry, GridEntry, GridEntry]:
    x, y, z = (grid_entry_from_json(v) for v in values)
    return x, y, z


def _list_or_none(values: tuple[int, ...] | None) -> list[int] | None:
    return list(values) if values is not None else None


def _tuple_or_none(values: Any) -> tuple[int, ...] | None:
    return tuple(values) if values is not None else None


__all__ = [
    "BASE_VERSION", "KERNEL_INFO_VERSION", "READ_VERSIONS", "SPLIT_K_CLAIMS_VERSION", "STREAM_K_VERSION", "WORKSPACE_PARAM", "ArgInfo", "GemmInfo", "GridEntry",
    "GridFromArg", "KernelInfo", "KernelInfoError", "PersistentGrid", "SIZE_PARAM_KINDS", "SizeParam", "TensorMap",
    "WorkspaceInfo",
]
