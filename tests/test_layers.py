"""The package imports in one direction: text → records → rules → reports → pages → command line.

Every import of a ``gouji_record`` module by another (at the top of a module or inside a function)
goes to a lower layer, or within a layer of the application; nothing imports in a circle."""

import ast
from pathlib import Path

import gouji_record

PACKAGE = Path(gouji_record.__file__).parent

#: The layers, lowest first. A module may import from its own layer's package or from below.
LAYERS = [
    {"errors", "bilingual"},  # the exception family; texts in both languages
    {"cards", "width"},
    {"model"},
    {"notation"},  # reading and writing text
    {"rules"},  # plays, rulesets, the engine
    # the application: a record through the engine, and what is made of it
    {"extras", "replay", "judging", "transfers", "canonical", "match", "buying", "eventlog", "interchange", "report", "batch", "selfplay", "sink", "lexer",
     "stats", "selection", "review", "archive", "cluster"},
    {"render"},
    {"cli", "cli_common", "cli_show", "cli_events", "__init__"},  # the command line
]


def layer_of(module: str) -> int:
    top = module.split(".")[0]
    return next(i for i, names in enumerate(LAYERS) if top in names)


def imports() -> dict[str, set[str]]:
    """Module name (relative to the package, dotted) → the package modules it imports."""
    out: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(parts)
        package = parts[:-1] if parts[-1] != "__init__" else parts[:-1]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = list(package[: len(package) - (node.level - 1)])
                target = ".".join(base + ([node.module] if node.module else []))
                if not node.module:  # from . import x
                    found |= {".".join(base + [a.name]) for a in node.names}
                elif target:
                    found.add(target)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                found |= {n.removeprefix("gouji_record.") for n in names if n.startswith("gouji_record.")}
        out[name] = {m for m in found if m and m != name}
    return out


def test_no_module_imports_from_a_layer_above_it():
    wrong = [
        f"{module} imports {target}"
        for module, targets in imports().items()
        for target in targets
        if layer_of(target) > layer_of(module)
    ]
    assert wrong == []


def test_notation_and_rules_do_not_import_each_other():
    crossing = [
        f"{module} imports {target}"
        for module, targets in imports().items()
        for target in targets
        if {module.split(".")[0], target.split(".")[0]} == {"notation", "rules"}
    ]
    assert crossing == []


def test_no_circle_of_imports():
    graph = imports()
    state: dict[str, int] = {}  # 1: on the path, 2: done
    circles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            nxt = nxt if nxt in graph else nxt + ".__init__"
            if state.get(nxt) == 1:
                circles.append(path[path.index(nxt) :] + [nxt])
            elif nxt in graph and not state.get(nxt):
                visit(nxt, path + [nxt])
        state[node] = 2

    for start in sorted(graph):
        if not state.get(start):
            visit(start, [start])
    assert circles == []


def test_the_layer_table_names_every_module():
    assert all(layer_of(module) >= 0 for module in imports())
