"""The GEMM options, declared once: how a whole GEMM kernel runs (docs/gemm.md).

`GEMM_OPTIONS` is the table: each option's name, the kind of its value, the values it
takes, its default and a line of doc. Two places read it:

* `tc.matmul`'s attr-dict (``{schedule = "warp_specialized", raster = 8, persistent =
  true}``), whose entries the op parses into its declared properties (`MatmulOptions`:
  an option left out is chosen by tc-expand-matmul);
* the loop level's kernel attribute ``tc.schedule = #tc.gemm_schedule<warp_specialized,
  persistent, mma_depth = 2, cluster = 2, epilogue = tma, l2_promotion = 256>``
  (`GemmScheduleAttr`), which tc-expand-matmul writes and the GEMM lowering reads through
  `tc_kernel.kernel_schedule` as a `GemmSchedule` with every default filled in.

`raster` is the op's only: at the loop level the grouped order is already in the block
index arithmetic and in `tc.grid`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import auto

from xdsl.dialects.builtin import IntAttr, IntegerAttr, IntegerType, NoneAttr, StringAttr, UnitAttr
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from lower_tc.layout.limits import MAX_CLUSTER, MAX_INDEX
from lower_tc.layout.split_k import MAX_GLOBAL_SPLIT, REDUCES, SPLIT_K_VALUES, split_k_range_problem
from lower_tc.layout.stream_k import MAX_GROUPS


class OptionKind(StrEnum):
    """What an option's value is: a name (a string in the op's attr-dict, a bare word in
    #tc.gemm_schedule), an integer, or a flag (true/false; a bare word when set)."""

    NAME = auto()
    INTEGER = auto()
    FLAG = auto()


@dataclass(frozen=True)
class GemmOption:
    """One GEMM option: its name and kind, the values it takes (`values`, or `low` and
    up to `high` for an integer without a list), its default at the loop level, what it is
    (for messages) and what it does."""

    name: str
    kind: OptionKind
    #: The default at the loop level (`GemmSchedule`); at the op level an option left out
    #: is chosen by tc-expand-matmul (its pass option, else layout/gemm.py's defaults).
    default: str | int | bool | None
    #: What a value of the right type is, for "wrong type" messages.
    what: str
    #: The values allowed, for "out of range" messages.
    allowed: str
    doc: str
    values: tuple[str | int, ...] = ()
    low: int | None = None
    high: int | None = None
    #: An entry of #tc.gemm_schedule (False: the op's only).
    on_kernel: bool = True

    def value_problem(self, value: str | int | bool, shown: str) -> str | None:
        """Why `value` (of the right kind, written `shown`) is out of range, or None."""
        if self.kind is OptionKind.FLAG:
            return None
        if self.values:
            ok = value in self.values
        else:
            assert isinstance(value, int)
            ok = (self.low is None or value >= self.low) and (self.high is None or value <= self.high)
        return None if ok else f"{self.name} is {self.allowed}, not {shown}"

    def python_problem(self, value: object) -> str | None:
        """Why a Python value (lower_tc.matmul's `options`) is not one this option takes:
        its type, then its range; or None."""
        if self.kind is OptionKind.FLAG:
            return None if isinstance(value, bool) else f"{self.name} is {self.what}"
        if self.kind is OptionKind.NAME:
            if not isinstance(value, str):
                return f"{self.name} is {self.what}"
        elif isinstance(value, bool) or not isinstance(value, int):
            return f"{self.name} is {self.what}"
        return self.value_problem(value, repr(value))  # type: ignore[arg-type]

    def from_attr(self, attr: Attribute) -> str | int | bool | None:
        """The value an attr-dict entry gives (a string, a non-boolean integer, true or
        false), or None where it is of the wrong type."""
        if self.kind is OptionKind.NAME:
            return attr.data if isinstance(attr, StringAttr) else None
        if not isinstance(attr, IntegerAttr) or not isinstance(attr.type, IntegerType):
            return None
        is_bool = attr.type.width.data == 1
        if self.kind is OptionKind.FLAG:
            return bool(attr.value.data) if is_bool else None
        return None if is_bool else attr.value.data

    def type_problem(self, attr: Attribute) -> str | None:
        """Why an attr-dict entry is not of this option's type, or None."""
        return None if self.from_attr(attr) is not None else f"{self.name} is {self.what}, not {attr}"


SCHEDULES = ("pipelined", "warp_specialized")
EPILOGUES = ("tma", "registers")
#: How an fp8 wgmma GEMM accumulates: in the tensor core's own partial sums ("fast", about
#: 14 bits of mantissa on Hopper) or with each K step's partial sums added into f32
#: registers ("promoted": what cuBLAS's default mode and DeepGEMM do).
ACCUMULATIONS = ("fast", "promoted")
#: L2 promotion sizes in bytes (the tensor map's CU_TENSOR_MAP_L2_PROMOTION_L2_<bytes>B).
L2_PROMOTIONS = (0, 64, 128, 256)
#: mma_depth's static bound; the lowering checks the ring's (stages - 1, stages <= 16).
MAX_MMA_DEPTH = 15

#: Why split-K does not go with an option (the S CTAs of a cluster share one tile).
SPLIT_K_CONFLICTS = {
    "persistent": "the cluster's CTAs compute one tile together and leave (not persistent)",
    "cluster = 2": "the cluster is split_k's, its CTAs sharing one tile's K",
    "epilogue = tma": "the reduced tile is stored from registers",
}
#: The same for split-K through the global workspace (reduce = global).
GLOBAL_SPLIT_K_CONFLICTS = {
    "persistent": "each CTA computes one tile's slice of K and leaves (not persistent)",
}
#: Why a global split's first tiles cannot be left unsplit in a cluster of 2 sharing B.
PAIRED_UNSPLIT = ("a cluster of 2 pairs the CTAs of one rank in two tiles (the same K range); unsplit tiles "
                  "and split ones would pair CTAs over different K ranges")

#: Why stream-K needs, or does not go with, an option.
STREAM_K_CONFLICTS = {
    "a persistent walk": "one CTA per SM runs its share of the K steps, unit after unit (persistent)",
    "split_k": "stream-K shares the K steps itself, across tiles",
    "cluster": "its CTAs share K steps, not B's loads",
    "mma_depth": "a unit may be one K step, so the consumers leave one wgmma group in flight",
}

#: The GEMM options, in the order they print.
GEMM_OPTIONS: tuple[GemmOption, ...] = (
    GemmOption(
        "schedule", OptionKind.NAME, "pipelined",
        what='a string ("pipelined" or "warp_specialized")',
        allowed="one of pipelined, warp_specialized",
        doc="one loop for every thread, or warp-specialised: a TMA producer, MMA consumers",
        values=SCHEDULES,
    ),
    GemmOption(
        "raster", OptionKind.INTEGER, 0,
        what="an integer (a group size of tile rows)",
        allowed=f"a group size of tile rows, 0 (none) to {MAX_INDEX}",
        doc="CTAs walk the tiles in groups of this many tile rows (static sizes); 0: row by row",
        low=0, high=MAX_INDEX, on_kernel=False,
    ),
    GemmOption(
        "persistent", OptionKind.FLAG, False,
        what="true or false", allowed="true or false",
        doc="one CTA per SM walks the tiles (warp-specialised, raster >= 1, static sizes)",
    ),
    GemmOption(
        "mma_depth", OptionKind.INTEGER, 1,
        what="an integer (the wgmma groups left in flight)",
        allowed=f"the number of wgmma groups left in flight, 1 to {MAX_MMA_DEPTH}",
        doc="wgmma groups the consumers leave in flight (warp-specialised sm_90a; < stages)",
        low=1, high=MAX_MMA_DEPTH,
    ),
    GemmOption(
        "cluster", OptionKind.INTEGER, 1,
        what="an integer (CTAs per cluster)",
        allowed="1 or 2 (CTAs sharing B's loads)",
        doc="CTAs per cluster: 2 multicasts B's loads (sm_90a) or makes a CTA pair (sm_100a)",
        values=(1, 2),
    ),
    GemmOption(
        "epilogue", OptionKind.NAME, None,
        what='a string ("tma" or "registers")',
        allowed="one of tma, registers",
        doc="D stored by TMA from staged pieces or from registers; unset: TMA where it applies",
        values=EPILOGUES,
    ),
    GemmOption(
        "l2_promotion", OptionKind.INTEGER, None,
        what="an integer (bytes)",
        allowed="0, 64, 128 or 256 (bytes)",
        doc="the TMA loads' L2 promotion in bytes; unset: the tensor maps' default (none)",
        values=L2_PROMOTIONS,
    ),
    GemmOption(
        "split_k", OptionKind.INTEGER, 1,
        what="an integer (CTAs sharing a tile's K)",
        allowed=f"1 to {MAX_GLOBAL_SPLIT} (CTAs sharing a tile's K; 1 to {MAX_CLUSTER} with reduce = cluster)",
        doc="CTAs that split a tile's K and sum their partial tiles (sm_90a, not persistent)",
        values=SPLIT_K_VALUES,
    ),
    GemmOption(
        "reduce", OptionKind.NAME, "cluster",
        what='a string ("cluster" or "global")',
        allowed="one of cluster, global",
        doc="how split-K's CTAs sum their partial tiles: a cluster's shared memory, or a workspace in global memory",
        values=REDUCES,
    ),
    GemmOption(
        "unsplit", OptionKind.INTEGER, 0,
        what="an integer (tiles computed by one CTA each)",
        allowed=f"a count of tiles, 0 to {MAX_INDEX}",
        doc="with reduce = global: the walk's first this many tiles take one CTA each, the others split_k (fills the last wave)",
        low=0, high=MAX_INDEX,
    ),
    GemmOption(
        "stream_k", OptionKind.INTEGER, 0,
        what="an integer (groups of CTAs sharing tiles' K steps)",
        allowed=f"0 (off) or the groups of CTAs, 1 to {MAX_GROUPS}",
        doc="G > 0: persistent CTAs, one per SM, in G groups (group g takes every Gth tile from g), share the last waves' "
            "K steps across tiles and sum partial tiles through global memory (sm_90a)",
        low=0, high=MAX_GROUPS,
    ),
    GemmOption(
        "accumulation", OptionKind.NAME, "fast",
        what='a string ("fast" or "promoted")',
        allowed="one of fast, promoted",
        doc="fp8 (sm_90a): the tensor core's partial sums (fast), or each K step's added into f32 registers (promoted)",
        values=ACCUMULATIONS,
    ),
    GemmOption(
        "swap_ab", OptionKind.FLAG, False,
        what="true or false", allowed="true or false",
        doc="compute D^T = B^T A^T (sm_90a, one matrix, static sizes): the small M becomes wgmma's N; unset: chosen for M <= 80, N >= 1024",
        on_kernel=False,
    ),
)
OPTIONS_BY_NAME: dict[str, GemmOption] = {o.name: o for o in GEMM_OPTIONS}
#: The entries of #tc.gemm_schedule after its schedule.
KERNEL_OPTIONS: tuple[GemmOption, ...] = tuple(o for o in GEMM_OPTIONS if o.on_kernel and o.name != "schedule")


@dataclass(frozen=True)
class MatmulOptions:
    """The options a `tc.matmul` gives; None where it leaves one to tc-expand-matmul."""

    schedule: str | None = None
    raster: int | None = None
    persistent: bool | None = None
    mma_depth: int | None = None
    cluster: int | None = None
    epilogue: str | None = None
    l2_promotion: int | None = None
    split_k: int | None = None
    reduce: str | None = None
    unsplit: int | None = None
    stream_k: int | None = None
    accumulation: str | None = None
    swap_ab: bool | None = None


@dataclass(frozen=True)
class GemmSchedule:
    """How a loop-level GEMM kernel runs: its #tc.gemm_schedule, defaults filled in."""

    schedule: str = "pipelined"
    persistent: bool = False
    mma_depth: int = 1
    cluster: int = 1
    epilogue: str | None = None  # None: TMA stores wherever they apply (sm_90a)
    l2_promotion: int | None = None  # bytes; None: the tensor maps' default
    split_k: int = 1  # CTAs that split each tile's K (layout/split_k.py)
    reduce: str = "cluster"  # how they sum their partial tiles: a cluster's shared memory or a global workspace
    unsplit: int = 0  # with reduce = global: the walk's first this many tiles take one CTA each (layout/split_k.py)
    stream_k: int = 0  # G > 0: persistent CTAs in G groups share the last waves' K steps across tiles (layout/stream_k.py)
    accumulation: str = "fast"  # fp8: "promoted" adds each K step's partial sums into f32 registers

    @property
    def promoted(self) -> bool:
        return self.accumulation == "promoted"

    @property
    def warp_specialized(self) -> bool:
        return self.schedule == "warp_specialized"

    @property
    def cluster_split(self) -> int:
        """CTAs of a split-K cluster (1 where K is not split or is split through the
        global workspace)."""
        return self.split_k if self.reduce == "cluster" else 1

    @property
    def global_split(self) -> bool:
        """Split-K through the global workspace (layout/split_k.py)."""
        return self.split_k > 1 and self.reduce == "global"

    def problem(self) -> tuple[str, str] | None:
        """(the option at fault, why) where a value is out of range or the options do not
        go together; None where they do. The target's rules are `kernel_schedule`'s."""
        for option in GEMM_OPTIONS:
            if not option.on_kernel:
                continue
            value = getattr(self, option.name)
            if value is not None and value != option.default:
                why = option.value_problem(value, str(value))
                if why:
                    return option.name, why
        if not self.warp_specialized:
            for name, entry, set_ in (
                ("persistent", "persistent", self.persistent),
                ("mma_depth", f"mma_depth = {self.mma_depth}", self.mma_depth != 1),
                ("cluster", f"cluster = {self.cluster}", self.cluster != 1),
            ):
                if set_:
                    return name, (f"{name} is for the warp-specialised schedule "
                                  f"(#tc.gemm_schedule<warp_specialized, {entry}>)")
        why = split_k_range_problem(self.split_k, self.reduce)
        if why:
            return "split_k", why
        if self.reduce != "cluster" and self.split_k == 1:
            return "reduce", (f"reduce = {self.reduce} is how split-K's CTAs sum their partial tiles: "
                              f"it needs split_k = S (2 to {MAX_GLOBAL_SPLIT})")
        if self.unsplit and not self.global_split:
            return "unsplit", (f"unsplit = {self.unsplit} leaves the walk's first tiles unsplit and splits the others "
                               f"through global memory: it needs split_k = S (2 to {MAX_GLOBAL_SPLIT}) with reduce = global")
        if self.stream_k:
            for conflict, set_ in (("a persistent walk", not self.persistent), (f"split_k = {self.split_k}", self.split_k != 1),
                                   (f"cluster = {self.cluster}", self.cluster != 1), (f"mma_depth = {self.mma_depth}", self.mma_depth != 1)):
                if set_:
                    what = "needs" if conflict == "a persistent walk" else "does not go with"
                    return "stream_k", f"stream_k = {self.stream_k} {what} {conflict}: {STREAM_K_CONFLICTS[conflict.split(' =')[0]]}"
        if self.unsplit and self.cluster != 1:
            return "unsplit", f"unsplit = {self.unsplit} does not go with cluster = {self.cluster}: {PAIRED_UNSPLIT}"
        if self.split_k != 1:
            conflicts = GLOBAL_SPLIT_K_CONFLICTS if self.global_split else SPLIT_K_CONFLICTS
            for conflict, set_ in (("persistent", self.persistent), ("cluster = 2", self.cluster != 1), ("epilogue = tma", self.epilogue == "tma")):
                if set_ and conflict in conflicts:
                    return "split_k", f"split_k = {self.split_k} does not go with {conflict}: {conflicts[conflict]}"
        if self.promoted and self.mma_depth != 1:
            return "accumulation", (f"accumulation = promoted waits for each K step's MMAs before it adds their sums: "
                                    f"it does not go with mma_depth = {self.mma_depth}")
        return None

    def entries(self) -> list[str]:
        """The attribute's entries, defaults left out: ``warp_specialized, persistent, ...``."""
        out = [self.schedule]
        for option in KERNEL_OPTIONS:
            value = getattr(self, option.name)
            if value == option.default:
                continue
            out.append(option.name if option.kind is OptionKind.FLAG else f"{option.name} = {value}")
        return out


def _token(parser: AttrParser) -> str:
    return parser._current_token.text  # pyright: ignore[reportPrivateUsage]


@irdl_attr_definition
class GemmScheduleAttr(ParametrizedAttribute):
    """How a loop-level GEMM kernel runs, on the kernel as ``tc.schedule``:
    ``#tc.gemm_schedule<warp_specialized, persistent, mma_depth = 2, cluster = 2,
    epilogue = tma, l2_promotion = 256>``. The schedule comes first; the other entries
    (any order, each at most once) are left out at their defaults (GEMM_OPTIONS)."""

    name = "tc.gemm_schedule"

    schedule: StringAttr
    persistent: UnitAttr | NoneAttr
    mma_depth: IntAttr
    cluster: IntAttr
    epilogue: StringAttr | NoneAttr
    l2_promotion: IntAttr | NoneAttr
    split_k: IntAttr
    reduce: StringAttr
    unsplit: IntAttr
    stream_k: IntAttr
    accumulation: StringAttr

    @classmethod
    def from_schedule(cls, s: GemmSchedule) -> "GemmScheduleAttr":
        return cls(
            StringAttr(s.schedule),
            UnitAttr() if s.persistent else NoneAttr(),
            IntAttr(s.mma_depth),
            IntAttr(s.cluster),
            StringAttr(s.epilogue) if s.epilogue is not None else NoneAttr(),
            IntAttr(s.l2_promotion) if s.l2_promotion is not None else NoneAttr(),
            IntAttr(s.split_k),
            StringAttr(s.reduce),
            IntAttr(s.unsplit),
            IntAttr(s.stream_k),
            StringAttr(s.accumulation),
        )

    @property
    def value(self) -> GemmSchedule:
        return GemmSchedule(
            schedule=self.schedule.data,
            persistent=isinstance(self.persistent, UnitAttr),
            mma_depth=self.mma_depth.data,
            cluster=self.cluster.data,
            epilogue=self.epilogue.data if isinstance(self.epilogue, StringAttr) else None,
            l2_promotion=self.l2_promotion.data if isinstance(self.l2_promotion, IntAttr) else None,
            split_k=self.split_k.data,
            reduce=self.reduce.data,
            unsplit=self.unsplit.data,
            stream_k=self.stream_k.data,
            accumulation=self.accumulation.data,
        )

    def verify(self) -> None:
        problem = self.value.problem()
        if problem is not None:
            raise VerifyException(problem[1])

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{', '.join(self.value.entries())}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        """Every error is located: at the unknown or repeated key, at the value of the
        wrong type or out of range, at the option that does not go with the schedule."""
        given: dict[str, str | int | bool] = {}
        where: dict[str, tuple[int, int]] = {}
        with parser.in_angle_brackets():
            start = parser.pos
            schedule = parser.parse_optional_identifier()
            if schedule not in SCHEDULES:
                shown = schedule if schedule is not None else _token(parser)
                parser.raise_error(
                    f"#tc.gemm_schedule starts with its schedule, pipelined or warp_specialized, not {shown}",
                    start, max(parser.pos, start + 1),
                )
            while parser.parse_optional_punctuation(","):
                start = parser.pos
                key = parser.parse_optional_identifier()
                option = OPTIONS_BY_NAME.get(key) if key is not None else None
                if option is None or not option.on_kernel or option.name == "schedule":
                    parser.raise_error(_unknown_key(key if key is not None else _token(parser)), start, max(parser.pos, start + 1))
                assert key is not None and option is not None
                if key in given:
                    parser.raise_error(f"{key} is given twice", start, parser.pos)
                if option.kind is OptionKind.FLAG:
                    if parser.parse_optional_punctuation("="):
                        parser.raise_error(f"{key} is a flag: write `{key}` or leave it out", start, parser.pos)
                    given[key] = True
                    where[key] = (start, parser.pos)
                    continue
                parser.parse_punctuation("=", f" after {key}")
                at = parser.pos
                value: str | int | None
                if option.kind is OptionKind.NAME:
                    value = parser.parse_optional_identifier()
                    what = f"a name ({' or '.join(str(v) for v in option.values)})"
                else:
                    value = parser.parse_optional_integer(allow_boolean=False)
                    what = option.what
                if value is None:
                    parser.raise_error(f"{key} is {what}, not {_token(parser)}", at, max(parser.pos, at + 1))
                why = option.value_problem(value, str(value))
                if why:
                    parser.raise_error(why, at, parser.pos)
                given[key] = value
                where[key] = (start, parser.pos)
            s = GemmSchedule(schedule=schedule, **given)  # type: ignore[arg-type]
            problem = s.problem()
            if problem is not None:
                parser.raise_error(problem[1], *where[problem[0]])
        return tuple(cls.from_schedule(s).parameters)


def _unknown_key(key: str) -> str:
    keys = ", ".join(o.name for o in KERNEL_OPTIONS)
    if key == "raster":
        return (f"raster is tc.matmul's option only: at the loop level the grouped order is in the "
                f"block index arithmetic and tc.grid (#tc.gemm_schedule keys: {keys})")
    return f"unknown key '{key}' of #tc.gemm_schedule (keys after the schedule: {keys})"


__all__ = [
    "ACCUMULATIONS",
    "EPILOGUES",
    "GEMM_OPTIONS",
    "GLOBAL_SPLIT_K_CONFLICTS",
    "PAIRED_UNSPLIT",
    "GemmOption",
    "GemmSchedule",
    "GemmScheduleAttr",
    "KERNEL_OPTIONS",
    "L2_PROMOTIONS",
    "MatmulOptions",
    "OPTIONS_BY_NAME",
    "OptionKind",
    "SCHEDULES",
    "SPLIT_K_CONFLICTS",
    "STREAM_K_CONFLICTS",
]
