"""Every public function or method that raises says so in a ``Raises:`` section of its docstring,
naming each error it raises itself, as python-chess documents its own (docs/api.md "Errors"; issue 38).

Found by reading the package's source: a public function (no ``_`` in its name, nor in its class's)
whose own body holds ``raise Name(...)`` (not a bare ``raise``, which passes on what it caught, nor
a private control-flow error such as ``_Decline``, caught inside the package, nor an abstract
method's ``NotImplementedError``). The command line's
commands are left out: their docstring is their ``--help`` (click). Every function the package root
gives raises on input it does not take, through what it calls where not itself: each has the section."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import gouji_record as gj

PACKAGE = Path(gj.__file__).parent


def _is_command(node: ast.FunctionDef) -> bool:
    """Whether ``node`` is a click command or group (``@main.command(…)``, ``@click.group``)."""
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in {"command", "group"}:
            return True
    return False


def _raised(node: ast.FunctionDef) -> tuple[list[str], bool]:
    """The names of the errors ``node``'s own body raises as ``raise Name(…)`` or ``raise Name``,
    and whether it raises anything else (``raise self.illegal(…)``: an error made by a call)."""
    names, other = [], False
    todo = list(node.body)
    while todo:
        item = todo.pop()
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue  # (a function defined inside raises when it is called, not this one)
        if isinstance(item, ast.Raise) and item.exc is not None:
            made = item.exc.func if isinstance(item.exc, ast.Call) else item.exc
            name = made.id if isinstance(made, ast.Name) else made.attr if isinstance(made, ast.Attribute) else None
            if name == "NotImplementedError":
                continue  # (an abstract method's: its overrides say what they raise)
            if name is not None and name[:1].isupper():
                names.append(name)
            elif name is None or not name.startswith("_"):
                other = True
        todo.extend(ast.iter_child_nodes(item))
    return [n for n in names if not n.startswith("_")], other


def undocumented() -> list[str]:
    """``FILE:LINE NAME: what is missing`` for each public function that raises without saying so."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        scopes: list[tuple[ast.AST, str]] = [(tree, "")]
        while scopes:
            scope, prefix = scopes.pop()
            for node in ast.iter_child_nodes(scope):
                if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                    scopes.append((node, f"{prefix}{node.name}."))
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or _is_command(node):
                    continue
                if node.name.startswith("_") and node.name != "__init__":
                    continue
                names, other = _raised(node)
                if not names and not other:
                    continue
                doc = ast.get_docstring(node) or ""
                if node.name == "__init__":  # (a class documents its constructor)
                    doc += ast.get_docstring(scope) or ""
                where = f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {prefix}{node.name}"
                section = doc.partition("Raises:")[2]
                if not section:
                    out.append(f"{where}: no Raises: section (raises {', '.join(names) or 'an error it makes'})")
                elif missing := sorted({n for n in names if n not in section}):
                    out.append(f"{where}: its Raises: section does not name {', '.join(missing)}")
    return sorted(out)


def test_every_public_function_that_raises_says_what_in_a_raises_section():
    assert undocumented() == []


def test_the_checker_finds_a_function_that_raises_without_saying_so(tmp_path, monkeypatch):
    # the checker itself: a function that raises and says nothing, one whose section names another
    # error, one that says it, and a command whose docstring is its --help
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(
        "def silent(x):\n    '''Nothing said.'''\n    raise ValueError(x)\n"
        "def other(x):\n    '''Raises:\n        KeyError: never.\n    '''\n    raise ValueError(x)\n"
        "def said(x):\n    '''Raises:\n        ValueError: always.\n    '''\n    raise ValueError(x)\n"
        "@main.command()\ndef cmd(x):\n    '''The help.'''\n    raise ValueError(x)\n"
        "def _private(x):\n    raise ValueError(x)\n"
    )
    monkeypatch.setattr(__import__(__name__), "PACKAGE", tmp_path / "pkg")
    assert undocumented() == [
        "pkg/m.py:1 silent: no Raises: section (raises ValueError)",
        "pkg/m.py:4 other: its Raises: section does not name ValueError",
    ]


def test_every_function_the_root_gives_says_what_it_raises():
    functions = [name for name in gj.__all__ if inspect.isfunction(getattr(gj, name))]
    assert len(functions) == 19 and [n for n in functions if "Raises:" not in inspect.getdoc(getattr(gj, n))] == []
    assert "Raises:" in inspect.getdoc(gj.Action.from_text)
