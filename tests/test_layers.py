"""The package imports in one direction, the way the data goes (docs/architecture.md): text →
records → rules → a hand judged → matches and the one verdict → bots → running over many hands →
other formats → the analyzer → pages → command line.

Every import of a ``gouji_record`` module by another (at the top of a module or inside a function)
goes to a lower layer or within its own folder (one layer each: each folder is one idea); nothing
imports in a circle; every module is in the table."""

import ast
from pathlib import Path

import gouji_record

PACKAGE = Path(gouji_record.__file__).parent

#: The layers, lowest first: each a folder of the package (or root modules of one kind). A module may
#: import from its own layer or from below.
LAYERS = [
    {"errors", "bilingual"},  # the exception family; texts in both languages
    {"cards", "width"},  # cards and counts; the width of text
    {"model"},  # the records (pydantic)
    {"notation"},  # reading and writing .gjn text
    {"rules"},  # plays, rulesets, the engine, events
    {"judging"},  # a hand judged on its own: replay, purchases, transfers, located diagnostics
    {"matches"},  # tribute between hands; each hand judged within its match: the one verdict
    {"bots"},  # self-play; the bot protocol, bot programs, the referee
    {"running"},  # many hands and machines: streaming, workers, Dask, outputs written whole
    {"formats"},  # JSON records, event logs, Parquet
    {"analysis"},  # review, stats, filter
    {"render"},  # the HTML pages
    {"editor"},  # gouji edit: the record editor's web application
    {"cli"},  # the command line
    {"api", "__init__"},  # the public API (the root gives it, imported when first asked for)
]


def layer_of(module: str) -> int:
    """The layer of ``module`` (dotted, relative to the package); -1 for one the table lacks."""
    top = module.split(".")[0]
    return next((i for i, names in enumerate(LAYERS) if top in names), -1)


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
    unlisted = sorted(module for module in imports() if layer_of(module) < 0)
    assert unlisted == []


def test_an_unlisted_module_is_caught():
    """The check above can fail: a module the table lacks is named, not skipped."""
    assert layer_of("no_such_room.module") == -1 and layer_of("rules.engine") == LAYERS.index({"rules"})


def test_the_architecture_map_names_every_module_in_its_folder():
    """docs/architecture.md's table of layers matches the code: the row of each folder names each of
    its modules, and a row names each module of the package root."""
    import re

    text = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = [line for line in text.split("## The layers", 1)[1].splitlines() if line.startswith("| ")][1:]
    named = [set(re.findall(r"`([\w/]+)`", row.split("|")[2])) for row in rows]
    missing = []
    for module in imports():
        parts = module.split(".")
        if parts[-1] == "__init__" and len(parts) > 1:
            continue
        if len(parts) == 1:
            if not any(parts[0] in names for names in named):
                missing.append(module)
        elif not any(f"{parts[0]}/" in names and parts[1] in names for names in named):
            missing.append(module)
    assert missing == []
