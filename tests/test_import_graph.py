"""The layers, read off the import graph: imports go one way, with no cycles.

The graph is built with the standard `ast` module from every file of the package, the
`lower_tc.*` names mapped onto the folders as pyproject.toml's package-dir maps them
(generic import-graph tools cannot follow that mapping). Every import counts: at module
level, inside functions, and under `if TYPE_CHECKING:`. The rules, each failure naming the
two files:

- no cycle between modules;
- layers: layout (0) < dialects (1) < passes (2) < lowering (3) < the root package
  `lower_tc`; a module imports only its own layer and the ones below, and nothing imports
  the root (it only re-exports);
- `layout` imports neither xDSL nor CUDA;
- `lowering/runtime` imports neither xDSL nor dialects or passes, not even through another
  module;
- rooms inside a layer: in `lowering/`, backend < runtime < {parse, reference_program,
  descriptor_report} < {compile, pictures} < api < cli; in `passes/`, the passes do not import
  one another, and only tc-lower-to-ptx imports its lowering (`passes/to_ptx/`), which
  imports no pass;
- a function-level import of a lower_tc module only in the lazy registries allowlisted
  below, and every function-level import in `lowering/` (an optional dependency, a command
  that must start without xDSL) says why in a comment.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import ROOT, package_dirs

#: Layer of each top-level package; the root package `lower_tc` sits above them all.
LAYERS = {"lower_tc.layout": 0, "lower_tc.dialects": 1, "lower_tc.passes": 2, "lower_tc.lowering": 3}
ROOT_LAYER = 4

#: The rooms of lowering/, in order: a room imports only rooms before it (and itself).
LOWERING_ROOMS = {
    "backend": 0, "runtime": 1, "parse": 2, "reference_program": 2, "descriptor_report": 2,
    "compile": 3, "pictures": 3, "api": 4, "cli": 5,
}
#: The one pass that may import the lowering to PTX (passes/to_ptx/).
TO_PTX_PASS = "lower_tc.passes.lower_to_ptx"

#: Function-level imports of lower_tc modules that are lazy registries: (importer, imported).
#: Each must carry a comment in the code saying why it is lazy.
LAZY_REGISTRIES = {
    # dialects are registered by name and built when a parser first meets one of their ops
    ("lower_tc.dialects", "lower_tc.dialects.tc"),
    ("lower_tc.dialects", "lower_tc.dialects.ptx"),
    # the ptx target is registered by name and its printer imported when it prints
    ("lower_tc.dialects", "lower_tc.dialects.ptx.printer"),
    # passes are registered by name and imported when used
    ("lower_tc.passes", "lower_tc.passes.convert_linalg"),
    ("lower_tc.passes", "lower_tc.passes.expand_matmul"),
    ("lower_tc.passes", "lower_tc.passes.expand_attention"),
    ("lower_tc.passes", "lower_tc.passes.choose_swizzle"),
    ("lower_tc.passes", "lower_tc.passes.assign_smem"),
    ("lower_tc.passes", "lower_tc.passes.compute_descriptors"),
    ("lower_tc.passes", "lower_tc.passes.lower_to_ptx"),
    ("lower_tc.passes", "lower_tc.passes.ptx_lower_loops"),
    # stock xdsl-opt's cubin target (the plugin) imports the assembler only when it runs
    ("lower_tc.plugin", "lower_tc.lowering.cubin_target"),
    # the `lower-tc` dispatcher imports only the sub-tool it runs (`desc` starts without xDSL)
    ("lower_tc.lowering.cli.main", "lower_tc.lowering.cli.desc"),
    ("lower_tc.lowering.cli.main", "lower_tc.lowering.cli.run"),
    ("lower_tc.lowering.cli.main", "lower_tc.lowering.cli.driver"),
}


@dataclass(frozen=True)
class Import:
    """One import statement's target in one module."""

    target: str  # the module imported (a lower_tc module resolved to the deepest one named)
    line: int
    where: str  # "module", "function" or "type_checking"
    commented: bool  # a comment on its line or the line above


@dataclass
class Module:
    name: str
    path: Path
    imports: list[Import] = field(default_factory=list)

    @property
    def is_package(self) -> bool:
        return self.path.name == "__init__.py"


# -- building the graph ----------------------------------------------------------------------


def discover(root: Path, mapping: dict[str, Path]) -> dict[str, Module]:
    """Every module of the package: name -> Module, files placed by the deepest mapped folder."""
    by_folder = sorted(((folder, name) for name, folder in mapping.items()), key=lambda p: -len(p[0].parts))
    modules: dict[str, Module] = {}
    for folder, package in by_folder:
        for path in sorted(folder.rglob("*.py")):
            if "__pycache__" in path.parts or any(m.path == path for m in modules.values()):
                continue
            parts = path.relative_to(folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            name = ".".join((package, *parts))
            modules.setdefault(name, Module(name, path))
    for m in modules.values():
        m.imports = list(_imports(m, modules))
    return modules


def _imports(module: Module, modules: dict[str, Module]) -> Iterator[Import]:
    source = module.path.read_text()
    lines = source.splitlines()
    tree = ast.parse(source, str(module.path))
    package = module.name if module.is_package else module.name.rpartition(".")[0]

    def commented(line: int) -> bool:
        """A comment above the import, or beside it (a type-checker or linter pragma is no reason)."""
        above = lines[line - 2].strip() if line >= 2 else ""
        beside = lines[line - 1].partition("#")[2].strip()
        return above.startswith("#") or bool(beside and not re.match(r"(type:|noqa|pragma)", beside))

    def visit(node: ast.AST, where: str) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                yield from visit(child, "type_checking" if where == "type_checking" else "function")
            elif isinstance(child, ast.If) and _is_type_checking(child.test):
                for stmt in child.body:
                    yield from visit(ast.Module(body=[stmt], type_ignores=[]), "type_checking")
                for stmt in child.orelse:
                    yield from visit(ast.Module(body=[stmt], type_ignores=[]), where)
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    yield Import(_deepest(alias.name, modules), child.lineno, where, commented(child.lineno))
            elif isinstance(child, ast.ImportFrom):
                base = _absolute(child, package)
                for alias in child.names:
                    full = f"{base}.{alias.name}"
                    target = full if full in modules else _deepest(base, modules)
                    yield Import(target, child.lineno, where, commented(child.lineno))
            else:
                yield from visit(child, where)

    yield from visit(tree, "module")


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - node.level + 1])
    return f"{base}.{node.module}" if node.module else base


def _deepest(name: str, modules: dict[str, Module]) -> str:
    """`name`, or the deepest lower_tc module it lies in (an attribute's module)."""
    while name not in modules and "." in name and name.startswith("lower_tc"):
        name = name.rpartition(".")[0]
    return name


def layer(name: str) -> int:
    for package, level in LAYERS.items():
        if name == package or name.startswith(package + "."):
            return level
    return ROOT_LAYER


def rel(module: Module) -> str:
    try:
        return str(module.path.relative_to(ROOT))
    except ValueError:
        return str(module.path)


# -- the rules -------------------------------------------------------------------------------


def cycles(modules: dict[str, Module]) -> list[list[str]]:
    """The cycles of each strongly connected component of more than one module: every
    pair of modules that import each other, and a shortest cycle through each module
    that no such pair names."""
    edges = {n: sorted({i.target for i in m.imports if i.target in modules and i.target != n}) for n, m in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def connect(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(modules) + 100))
    for v in sorted(modules):
        if v not in index:
            connect(v)
    found = []
    for component in components:  # each pair that imports each other, else a shortest cycle
        pairs = [[a, b, a] for a in component for b in component if a < b and b in edges[a] and a in edges[b]]
        found += pairs
        named = {v for pair in pairs for v in pair}
        inside = set(component)
        for start in component:  # every module of the component is named in some cycle
            if start not in named:
                cycle = _shortest_cycle(start, edges, inside)
                assert cycle is not None
                found.append(cycle)
                named.update(cycle)
    return found


def _shortest_cycle(start: str, edges: dict[str, list[str]], inside: set[str]) -> list[str] | None:
    """A shortest path from `start` back to it inside the component (breadth first)."""
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in edges[v]:
                if w == start:
                    return paths[v] + [start]
                if w in inside and w not in paths:
                    paths[w] = paths[v] + [w]
                    nxt.append(w)
        frontier = nxt
    return None


def cycle_violations(modules: dict[str, Module]) -> list[str]:
    return [
        "import cycle: " + " -> ".join(rel(modules[n]) for n in cycle)
        for cycle in cycles(modules)
    ]


def layer_violations(modules: dict[str, Module]) -> list[str]:
    out = []
    for m in modules.values():
        for i in m.imports:
            if i.target == "lower_tc" and m.name != "lower_tc":
                out.append(f"{rel(m)}:{i.line} imports the root package lower_tc (lower_tc/__init__.py only re-exports)")
            elif i.target in modules and layer(i.target) > layer(m.name):
                out.append(f"{rel(m)}:{i.line} imports {rel(modules[i.target])} ({i.target}): against the layer order")
    return sorted(set(out), key=out.index)


def _room(name: str, package: str) -> str | None:
    """The first name below `package` (a room of lowering/, a pass module of passes/)."""
    if not name.startswith(package + "."):
        return None
    return name[len(package) + 1 :].split(".")[0]


def room_violations(modules: dict[str, Module]) -> list[str]:
    out = []
    for m in modules.values():
        for i in m.imports:
            if i.target not in modules:
                continue
            src, dst = _room(m.name, "lower_tc.lowering"), _room(i.target, "lower_tc.lowering")
            if src and dst and src != dst and LOWERING_ROOMS.get(dst, 9) >= LOWERING_ROOMS.get(src, 9):
                out.append(f"{rel(m)}:{i.line} imports {rel(modules[i.target])}: lowering/{dst} is not a room below lowering/{src}")
            src, dst = _room(m.name, "lower_tc.passes"), _room(i.target, "lower_tc.passes")
            if not (src and dst) or src == dst:
                continue
            if dst == "to_ptx" and m.name != TO_PTX_PASS:
                out.append(f"{rel(m)}:{i.line} imports {rel(modules[i.target])}: only tc-lower-to-ptx uses the lowering to PTX")
            elif dst != "to_ptx":
                out.append(f"{rel(m)}:{i.line} imports {rel(modules[i.target])}: passes do not import one another (shared rules live in the dialects)")
    return sorted(set(out), key=out.index)


def _external(i: Import, prefixes: tuple[str, ...]) -> bool:
    return any(i.target == p or i.target.startswith(p + ".") for p in prefixes)


def layout_violations(modules: dict[str, Module]) -> list[str]:
    return [
        f"{rel(m)}:{i.line} imports {i.target}: layout imports neither xDSL nor CUDA"
        for m in modules.values() if layer(m.name) == 0
        for i in m.imports if _external(i, ("xdsl", "cuda"))
    ]


def runtime_violations(modules: dict[str, Module]) -> list[str]:
    """Direct or through other lower_tc modules (what runs when the runtime is imported or
    called: TYPE_CHECKING imports aside)."""
    forbidden = ("xdsl", "lower_tc.dialects", "lower_tc.passes")
    out = []
    for m in modules.values():
        if not m.name.startswith("lower_tc.lowering.runtime"):
            continue
        seen = {m.name: [m.name]}
        todo = [m.name]
        while todo:
            v = todo.pop()
            for i in modules[v].imports:
                if i.where == "type_checking":
                    continue
                if _external(i, forbidden):
                    chain = " -> ".join(rel(modules[n]) for n in seen[v])
                    out.append(f"{rel(m)} imports {i.target} (through {chain}:{i.line}): the runtime imports no xDSL, dialects or passes")
                elif i.target in modules and i.target not in seen:
                    seen[i.target] = seen[v] + [i.target]
                    todo.append(i.target)
    return sorted(set(out))


def function_import_violations(modules: dict[str, Module]) -> list[str]:
    out = []
    for m in modules.values():
        for i in m.imports:
            if i.where != "function":
                continue
            ours = i.target.startswith("lower_tc")
            if ours and (m.name, i.target) not in LAZY_REGISTRIES:
                target = rel(modules[i.target]) if i.target in modules else i.target
                out.append(f"{rel(m)}:{i.line} imports {target} inside a function (not a lazy registry)")
            elif (ours or layer(m.name) == 3) and not i.commented:
                out.append(f"{rel(m)}:{i.line} imports {i.target} inside a function without a comment saying why")
    return sorted(set(out), key=out.index)


RULES = {
    "cycles": cycle_violations,
    "layers": layer_violations,
    "rooms": room_violations,
    "layout": layout_violations,
    "runtime": runtime_violations,
    "function-level": function_import_violations,
}


@pytest.fixture(scope="module")
def graph() -> dict[str, Module]:
    return discover(ROOT, package_dirs(ROOT))


@pytest.mark.parametrize("rule", RULES)
def test_the_package_keeps_its_layers(graph, rule) -> None:
    violations = RULES[rule](graph)
    assert not violations, f"{len(violations)} {rule} violation(s):\n" + "\n".join(violations)


def test_the_graph_sees_every_folder_and_kind_of_import(graph) -> None:
    """The mapping is followed (modules of every folder, named by package-dir) and imports
    of each kind are found, so that an empty violation list means something."""
    assert {"lower_tc", "lower_tc.layout.kernel_info", "lower_tc.dialects.tc", "lower_tc.passes.to_ptx.kernel",
            "lower_tc.lowering.runtime.run", "lower_tc.lowering.cli.main"} <= graph.keys()
    assert graph["lower_tc.lowering.runtime.run"].path == ROOT / "lowering" / "runtime" / "run.py"
    kinds = {(m.name, i.target, i.where) for m in graph.values() for i in m.imports}
    assert ("lower_tc.lowering.compile", "lower_tc.passes", "module") in kinds
    assert ("lower_tc.lowering.cli.main", "lower_tc.lowering.cli.desc", "function") in kinds
    assert ("lower_tc", "lower_tc.dialects", "type_checking") in kinds
    assert ("lower_tc.lowering.runtime.session", "cuda.bindings", "function") in kinds


FAKE = {
    "pyproject.toml": """
        [tool.setuptools.package-dir]
        "lower_tc" = "lower_tc"
        "lower_tc.layout" = "layout"
        "lower_tc.dialects" = "dialects"
        "lower_tc.passes" = "passes"
        "lower_tc.passes.to_ptx" = "passes/to_ptx"
        "lower_tc.lowering" = "lowering"
        "lower_tc.lowering.runtime" = "lowering/runtime"
    """,
    "lower_tc/__init__.py": "",
    "layout/__init__.py": "",
    "layout/a.py": "import xdsl.ir\nfrom lower_tc.dialects import b\n",
    "dialects/__init__.py": "",
    "dialects/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from lower_tc.dialects.c import C\n",
    "dialects/c.py": "from lower_tc.dialects import b\n\ndef f():\n    from lower_tc.layout import a\n",
    "passes/__init__.py": "",
    "passes/early.py": "from lower_tc.passes.to_ptx import x\n",
    "passes/later.py": "from lower_tc.passes import early\n",
    "passes/to_ptx/__init__.py": "",
    "passes/to_ptx/x.py": "",
    "lowering/__init__.py": "",
    "lowering/tool.py": "import lower_tc\nfrom lower_tc.dialects import b\n\ndef g():\n    import numpy\n",
    "lowering/runtime/__init__.py": "",
    "lowering/runtime/r.py": "from lower_tc.lowering import tool\n",
}


def test_each_rule_names_the_files_that_break_it(tmp_path) -> None:
    """A small package that breaks every rule once: each is found, named by its files."""
    for name, text in FAKE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    fake = discover(tmp_path, package_dirs(tmp_path))
    found = {rule: check(fake) for rule, check in RULES.items()}
    assert [v.replace(str(tmp_path) + "/", "") for v in found["cycles"]] == [
        "import cycle: dialects/b.py -> dialects/c.py -> dialects/b.py",
        "import cycle: layout/a.py -> dialects/b.py -> dialects/c.py -> layout/a.py",
    ]
    assert any("layout/a.py:2 imports" in v and "dialects/b.py" in v for v in found["layers"])
    assert any("lowering/tool.py:1 imports the root package" in v for v in found["layers"])
    assert any("layout/a.py:1 imports xdsl.ir" in v for v in found["layout"])
    assert any("lowering/runtime/r.py imports lower_tc.dialects.b" in v and "lowering/tool.py" in v for v in found["runtime"])
    assert any("dialects/c.py:4 imports" in v and "layout/a.py" in v for v in found["function-level"])
    assert any("lowering/tool.py:5 imports numpy inside a function without a comment" in v for v in found["function-level"])
    assert sorted(v.replace(str(tmp_path) + "/", "") for v in found["rooms"]) == [
        "lowering/runtime/r.py:1 imports lowering/tool.py: lowering/tool is not a room below lowering/runtime",
        "passes/early.py:1 imports passes/to_ptx/x.py: only tc-lower-to-ptx uses the lowering to PTX",
        "passes/later.py:1 imports passes/early.py: passes do not import one another (shared rules live in the dialects)",
    ]


def _modules_after(code: str) -> set[str]:
    probe = f"import sys\n{code}\nprint(' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    return set(done.stdout.split())


@pytest.mark.parametrize("code", [
    "import lower_tc.layout, lower_tc.layout.kernel_info",
    "import lower_tc.lowering.runtime.run, lower_tc.lowering.runtime.timing",
    "from lower_tc.lowering.cli.main import main\nmain(['desc', 'decode', '0x4000004000010040', '--arch', 'sm_90a'])",
    "import lower_tc",
    "import lower_tc\nlower_tc.Kernel, lower_tc.LaunchError, lower_tc.ArgumentError, lower_tc.reinterpret",
], ids=["layout", "runtime", "desc", "root", "root-runtime"])
def test_light_entry_points_load_no_xdsl(code: str) -> None:
    """What the rules promise, seen in a fresh interpreter: the layout core, the runtime,
    `lower-tc desc`, `import lower_tc` and its runtime re-exports (Kernel, the launch
    errors) run without importing xDSL (nor CUDA, which a launch imports when it needs it)."""
    loaded = _modules_after(code)
    assert not any(m == "xdsl" or m.startswith("xdsl.") for m in loaded)
    assert not any(m.startswith("cuda") for m in loaded)
