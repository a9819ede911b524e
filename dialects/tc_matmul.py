"""The op level of a whole GEMM: `tc.matmul`, D = A x B (+ C) over whole global matrices
as one kernel, with its tile configuration (`#tc.gemm_config`) and its options (declared
properties, dialects/tc_schedule.py). `tc-expand-matmul` turns it into the loop level
(dialects/tc_gemm.py)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import BoolAttr, I64, IntAttr, IntegerAttr, MemRefType, StringAttr, UnitAttr, i64
from xdsl.ir import Attribute, ParametrizedAttribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
)
from xdsl.irdl.operations import AttrSizedOperandSegments
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from lower_tc.dialects.tc_attrs import Operand
from lower_tc.dialects.tc_gemm import SUB_BYTE_GEMM, check_output
from lower_tc.dialects.tc_globals import Matrix, check_batch_stride, check_index_sizes, check_ld, matrix, tma_dtype_problem
from lower_tc.dialects.tc_kernel import kernel_target
from lower_tc.dialects.tc_schedule import GEMM_OPTIONS, OPTIONS_BY_NAME, MatmulOptions, OptionKind
from lower_tc.dialects.tc_types import dtype_name
from lower_tc.layout import Arch, LayoutError, element_type
from lower_tc.layout.gemm import GemmConfig, accumulators, config_problem, default_accumulator, operand_pair_problem
from lower_tc.layout.targets import check_operand_type
from lower_tc.layout.split_k import split_k_range_problem

#: The keys of #tc.gemm_config, in order.
CONFIG_KEYS = ("bm", "bn", "bk", "stages")


@irdl_attr_definition
class GemmConfigAttr(ParametrizedAttribute):
    """A GEMM tile configuration: ``#tc.gemm_config<bm = 128, bn = 128, bk = 64, stages = 4>``.

    The CTA computes a BM x BN tile of D, stepping K by BK with `stages` shared-memory
    buffers; BM/64 warpgroups each own 64 rows."""

    name = "tc.gemm_config"

    bm: IntAttr
    bn: IntAttr
    bk: IntAttr
    stages: IntAttr

    @property
    def config(self) -> GemmConfig:
        return GemmConfig(self.bm.data, self.bn.data, self.bk.data, self.stages.data)

    @classmethod
    def from_config(cls, c: GemmConfig) -> "GemmConfigAttr":
        return cls(IntAttr(c.bm), IntAttr(c.bn), IntAttr(c.bk), IntAttr(c.stages))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<bm = {self.bm.data}, bn = {self.bn.data}, bk = {self.bk.data}, stages = {self.stages.data}>"
        )

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values = []
        with parser.in_angle_brackets():
            for i, key in enumerate(CONFIG_KEYS):
                if i:
                    parser.parse_punctuation(",")
                parser.parse_keyword(key)
                parser.parse_punctuation("=")
                values.append(IntAttr(parser.parse_integer(allow_boolean=False)))
        return tuple(values)


def _option_attr(kind: OptionKind, value: str | int | bool) -> Attribute:
    """An option's property: a string, an i64 or a boolean."""
    if kind is OptionKind.NAME:
        return StringAttr(str(value))
    if kind is OptionKind.FLAG:
        return BoolAttr(int(bool(value)), 1)
    return IntegerAttr(int(value), i64)


def _parse_options(parser: Parser) -> tuple[MatmulOptions, dict[str, Attribute]]:
    """tc.matmul's attr-dict: (the GEMM options, the other dialects' attributes). An
    unknown bare or ``tc.`` name, a value of the wrong type and one out of range are
    errors at the entry."""
    options: dict[str, str | int | bool] = {}
    others: dict[str, Attribute] = {}
    where: dict[str, tuple[int, int]] = {}

    def entry() -> None:
        start = parser.pos
        name = parser.parse_optional_identifier_or_str_literal()
        if name is None:
            parser.raise_error("expected an option or an attribute name", start, start + 1)
        value: Attribute = UnitAttr()
        if parser.parse_optional_punctuation("="):
            value = parser.parse_attribute()
        end = parser.pos
        if name in options or name in others:
            parser.raise_error(f"{name} is given twice", start, end)
        option = OPTIONS_BY_NAME.get(name)
        if option is None:
            if "." in name and not name.startswith("tc."):
                others[name] = value  # another dialect's attribute
                return
            known = ", ".join(o.name for o in GEMM_OPTIONS)
            parser.raise_error(f"unknown option '{name}' of tc.matmul (options: {known})", start, end)
        why = option.type_problem(value)
        if why:
            parser.raise_error(why, start, end)
        given = option.from_attr(value)
        assert given is not None
        why = option.value_problem(given, str(given))
        if why:
            parser.raise_error(why, start, end)
        options[name] = given  # type: ignore[assignment]
        where[name] = (start, end)

    parser.parse_optional_comma_separated_list(parser.Delimiter.BRACES, entry)
    split_k = options.get("split_k")
    if isinstance(split_k, int):  # its range depends on how the split sums (reduce, in any order)
        why = split_k_range_problem(split_k, str(options.get("reduce", "cluster")))
        if why:
            parser.raise_error(why, *where["split_k"])
    return MatmulOptions(**options), others  # type: ignore[arg-type]


#: The operand types tc.matmul multiplies (on either target).
MATMUL_OPERAND_TYPES = ("f16", "bf16", "tf32", "e4m3", "e5m2", "s8", "u8")


def _check_operand_dtype(dtype: str) -> None:
    """A, B: a type the tensor cores read and TMA loads. f32 is read as tf32, which the
    memref says; 4- and 6-bit types need a tensor-map type lower-tc does not emit."""
    if dtype in MATMUL_OPERAND_TYPES:
        return
    if dtype == "f32":
        raise VerifyException(
            "the tensor cores read f32 operands as tf32 (10 mantissa bits): declare A and B as "
            "tf32 memrefs (memref<...xtf32>, the same 4-byte elements) to multiply them so"
        )
    if dtype != "s32" and element_type(dtype).padded:
        raise VerifyException(f"tc.matmul does not take {dtype}: its tiles are TMA loads, and {tma_dtype_problem(dtype)}; {SUB_BYTE_GEMM}")
    raise VerifyException(f"tc.matmul multiplies {', '.join(MATMUL_OPERAND_TYPES)}, not {dtype}")


def _check_batches(a: Matrix, b: Matrix, d: Matrix) -> None:
    """A batched GEMM: D is a batch (3-d) whenever A or B is; A and B each have D's batch,
    or are the same matrix for every batch (2-d, or a batch of 1)."""
    if not d.batched:
        if a.batched or b.batched:
            raise VerifyException("A or B is a batch of matrices (3-d), so D must be one: batch x M x N")
        return
    for what, g in (("A", a), ("B", b)):
        if g.batched and g.batch not in (1, None) and d.batch is not None and g.batch != d.batch:
            raise VerifyException(
                f"{what} has a batch of {g.batch} but D of {d.batch}: {what} has D's batch, or a batch of 1 "
                "(or is 2-d) for the same matrix in every batch"
            )


@irdl_op_definition
class MatmulOp(IRDLOperation):
    """D = A x B (+ C) over whole global matrices, as one kernel:
    ``tc.matmul %A, %B to %D [plus %C] [acc f32] [config #tc.gemm_config<...>]
    [{schedule = "warp_specialized", raster = 8, ...}] : ...``.

    A is M x K, B is K x N, each row- or column-major with a leading dimension of a
    multiple of 16 bytes (TMA); D and C are M x N, row-major. A batched GEMM has 3-d
    operands, batch first (any batch stride of a multiple of 16 bytes for A and B; D's
    matrices must not overlap): D and C are batch x M x N, and A or B may be 2-d, or a
    batch of 1, for the same matrix in every batch. `tc-expand-matmul`
    turns it into the loop level; without a configuration it chooses one from the shape
    and the types.

    The attr-dict's entries that name a GEMM option (tc_schedule.GEMM_OPTIONS) are the
    op's declared properties below. The parser refuses, at the entry, a bare name that is
    not an option, a ``tc.`` name, a value of the wrong type and one out of range; a name
    with another dialect's prefix (``foo.bar``) stays a discardable attribute. The
    verifier checks the ranges again (for an op built in Python); options that do not go
    together are tc-expand-matmul's errors."""

    name = "tc.matmul"
    a = operand_def(MemRefType)
    b = operand_def(MemRefType)
    dst = operand_def(MemRefType)
    c = opt_operand_def(MemRefType)
    acc = opt_prop_def(StringAttr)
    config = opt_prop_def(GemmConfigAttr)
    # the GEMM options (tc_schedule.GEMM_OPTIONS), each absent where not given
    schedule = opt_prop_def(StringAttr)
    raster = opt_prop_def(IntegerAttr[I64])
    persistent = opt_prop_def(BoolAttr)
    mma_depth = opt_prop_def(IntegerAttr[I64])
    cluster = opt_prop_def(IntegerAttr[I64])
    epilogue = opt_prop_def(StringAttr)
    l2_promotion = opt_prop_def(IntegerAttr[I64])
    split_k = opt_prop_def(IntegerAttr[I64])
    reduce = opt_prop_def(StringAttr)
    unsplit = opt_prop_def(IntegerAttr[I64])
    stream_k = opt_prop_def(IntegerAttr[I64])
    accumulation = opt_prop_def(StringAttr)
    swap_ab = opt_prop_def(BoolAttr)
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self, a: SSAValue, b: SSAValue, dst: SSAValue, c: SSAValue | None = None,
        acc: str | None = None, config: GemmConfigAttr | None = None,
        options: MatmulOptions = MatmulOptions(),
    ):
        props: dict[str, Attribute] = {}
        if acc is not None:
            props["acc"] = StringAttr(acc)
        if config is not None:
            props["config"] = config
        for option in GEMM_OPTIONS:
            value = getattr(options, option.name)
            if value is not None:
                props[option.name] = _option_attr(option.kind, value)
        super().__init__(operands=[a, b, dst, [c] if c is not None else []], properties=props)

    @property
    def options(self) -> MatmulOptions:
        """The options the op gives (None where it leaves one to tc-expand-matmul)."""
        values = {}
        for option in GEMM_OPTIONS:
            attr = self.properties.get(option.name)
            values[option.name] = option.from_attr(attr) if attr is not None else None
        return MatmulOptions(**values)

    @classmethod
    def parse(cls, parser: Parser) -> "MatmulOp":
        a = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        b = parser.parse_unresolved_operand()
        parser.parse_keyword("to")
        dst = parser.parse_unresolved_operand()
        c = parser.parse_unresolved_operand() if parser.parse_optional_keyword("plus") else None
        acc = None
        if parser.parse_optional_keyword("acc"):
            acc = parser.parse_identifier()
        config = None
        if parser.parse_optional_keyword("config"):
            config = parser.parse_attribute()
            if not isinstance(config, GemmConfigAttr):
                parser.raise_error("expected #tc.gemm_config<bm = .., bn = .., bk = .., stages = ..>")
        options, attrs = _parse_options(parser)
        parser.parse_punctuation(":")
        types: list[Attribute] = []
        while not types or parser.parse_optional_punctuation(","):
            start = parser.pos
            types.append(parser.parse_type())
            if not isinstance(types[-1], MemRefType):
                what = "ABDC"[len(types) - 1] if len(types) <= 4 else "an operand"
                parser.raise_error(f"{what} is {types[-1]}: tc.matmul's operands are memrefs (global memory)",
                                   start, parser.pos)
        want = 4 if c is not None else 3
        if len(types) != want:
            parser.raise_error(f"expected {want} types (A, B, D{', C' if c is not None else ''})")
        op = cls(
            parser.resolve_operand(a, types[0]),
            parser.resolve_operand(b, types[1]),
            parser.resolve_operand(dst, types[2]),
            parser.resolve_operand(c, types[3]) if c is not None else None,
            acc,
            config,
            options,
        )
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.a)
        printer.print_string(", ")
        printer.print_operand(self.b)
        printer.print_string(" to ")
        printer.print_operand(self.dst)
        if self.c is not None:
            printer.print_string(" plus ")
            printer.print_operand(self.c)
        if self.acc is not None:
            printer.print_string(f" acc {self.acc.data}")
        if self.config is not None:
            printer.print_string(" config ")
            printer.print_attribute(self.config)
        self._print_options(printer)
        printer.print_string(" : ")
        types = [self.a.type, self.b.type, self.dst.type] + ([self.c.type] if self.c is not None else [])
        for i, t in enumerate(types):
            if i:
                printer.print_string(", ")
            printer.print_attribute(t)

    def _print_options(self, printer: Printer) -> None:
        """The options as they are written (``raster = 8``, not ``8 : i64``), in the
        table's order, then the other dialects' attributes, in one attr-dict."""
        options = [(o, self.properties[o.name]) for o in GEMM_OPTIONS if o.name in self.properties]
        if not options and not self.attributes:
            return

        def entry(item: tuple[str, Attribute]) -> None:
            name, attr = item
            option = OPTIONS_BY_NAME.get(name)
            if option is not None and option.kind is OptionKind.INTEGER and isinstance(attr, IntegerAttr):
                printer.print_string(f"{name} = {attr.value.data}")
                return
            printer.print_identifier_or_string_literal(name)
            if not isinstance(attr, UnitAttr):
                printer.print_string(" = ")
                printer.print_attribute(attr)

        printer.print_string(" ")
        with printer.in_braces():
            printer.print_list([(o.name, attr) for o, attr in options] + list(self.attributes.items()), entry)

    @property
    def problem(self) -> tuple[int | None, int | None, int | None]:
        """(M, N, K), None where dynamic (D gives M and N where A and B do not)."""
        a, b, d = (matrix(v.type, w, batched=True) for v, w in ((self.a, "A"), (self.b, "B"), (self.dst, "D")))
        m = a.rows if a.rows is not None else d.rows
        n = b.cols if b.cols is not None else d.cols
        k = a.cols if a.cols is not None else b.rows
        return m, n, k

    @property
    def batched(self) -> bool:
        """D is a batch of matrices (a 3-d memref)."""
        return len(self.dst.type.get_shape()) == 3  # type: ignore[union-attr]

    @property
    def batch(self) -> int | None:
        """D's batch (1 when not batched, None when known at launch)."""
        return matrix(self.dst.type, "D", batched=True).batch

    @property
    def types(self) -> tuple[str, str]:
        return dtype_name(self.a.type.element_type), dtype_name(self.b.type.element_type)  # type: ignore[union-attr]

    def _verify_options(self) -> None:
        """Each option in its range (the combinations are tc-expand-matmul's to check);
        no option or tc name among the discardable attributes (an op built in Python)."""
        for option in GEMM_OPTIONS:
            attr = self.properties.get(option.name)
            if attr is None:
                continue
            value = option.from_attr(attr)
            if value is None:
                raise VerifyException(option.type_problem(attr) or "")
            why = option.value_problem(value, str(value))
            if why:
                raise VerifyException(why)
        given = self.options
        if given.split_k is not None:
            why = split_k_range_problem(given.split_k, given.reduce or "cluster")
            if why:
                raise VerifyException(why)
        for name in self.attributes:
            if "." not in name or name.startswith("tc."):
                raise VerifyException(f"'{name}' is not an attribute of tc.matmul: its options are properties (tc_schedule.GEMM_OPTIONS)")

    @property
    def acc_type(self) -> str:
        return self.acc.data if self.acc is not None else default_accumulator(self.types[0])

    def verify_(self) -> None:
        self._verify_options()
        arch = kernel_target(self) or Arch.SM90A
        ga, gb, gd = (matrix(v.type, w, batched=True) for v, w in ((self.a, "A"), (self.b, "B"), (self.dst, "D")))
        _check_batches(ga, gb, gd)

        def differ(x: int | None, y: int | None) -> bool:
            return x is not None and y is not None and x != y

        def text(x: int | None) -> str:
            return "?" if x is None else str(x)

        if differ(ga.cols, gb.rows):
            raise VerifyException(f"A is {text(ga.rows)}x{text(ga.cols)} but B is {text(gb.rows)}x{text(gb.cols)}: their K differ")
        if differ(gd.rows, ga.rows) or differ(gd.cols, gb.cols):
            raise VerifyException(f"D must be M x N = {text(ga.rows)}x{text(gb.cols)}")
        for name, size in zip("MNK", self.problem):
            if size == 0:
                raise VerifyException(f"{name} is 0: tc.matmul multiplies matrices of at least one row, column and K element (M, N, K >= 1)")
        a, b = self.types
        for dtype in (a, b):
            _check_operand_dtype(dtype)
        problem = operand_pair_problem(a, b, arch)
        if problem:
            raise VerifyException(problem)
        acc = self.acc_type
        allowed = accumulators(a, arch)
        if acc not in allowed:
            raise VerifyException(f"{a} x {b} accumulates in {' or '.join(allowed) or 'nothing'}, not {acc}")
        for what, mem, role in (("A", self.a.type, Operand.A), ("B", self.b.type, Operand.B)):
            assert isinstance(mem, MemRefType)
            geometry = matrix(mem, what, batched=True)
            row_major = geometry.row_major
            # which dimension is contiguous decides the tile's major-ness (TMA does not transpose)
            k_contiguous = row_major if role is Operand.A else not row_major
            dtype = a if role is Operand.A else b
            try:
                check_operand_type(arch, dtype, not k_contiguous)
            except LayoutError as err:
                raise VerifyException(
                    f"{err} ({what} is {'row' if row_major else 'column'}-major, so its tiles "
                    f"would be {'K' if k_contiguous else 'MN'}-major)"
                ) from None
            check_index_sizes(geometry, what)
            check_ld(geometry, mem, what, f"{what}'s leading dimension is {{}} bytes: TMA needs a multiple of 16")
            check_batch_stride(geometry, mem, what, tma=True, output=False)
        check_output(self.dst.type, acc, "D")
        if self.c is not None:
            check_output(self.c.type, acc, "C", written=False)
            if self.c.type.get_shape() != self.dst.type.get_shape():  # type: ignore[union-attr]
                raise VerifyException("C must have D's shape")
        if self.config is not None:
            why = config_problem(self.config.config, a, b, acc, arch)
            if why:
                raise VerifyException(why)


MATMUL_OPS = [MatmulOp]
MATMUL_ATTRS = [GemmConfigAttr]

__all__ = ["MATMUL_ATTRS", "MATMUL_OPS", "GemmConfigAttr", "MatmulOp"]
