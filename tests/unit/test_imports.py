"""The import graph of ``jiyi``: no cycles, and the SDK never reaches the server.

The graph is read from the source with ``ast``, every ``import`` counted — at module level,
inside functions (lazy imports) and under ``TYPE_CHECKING`` alike: a cycle hidden in a
function body is still a cycle, it only fails later. An edge goes to the module named (a
package's ``__init__`` only when it is the thing imported), as Python resolves it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from functools import cache
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


@cache
def modules() -> dict[str, tuple[Path, bool]]:
    """Every module of jiyi: dotted name → (file, is a package)."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in sorted((SRC / "jiyi").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def imports_of(name: str) -> set[str]:
    """The jiyi modules ``name`` imports anywhere in its source."""
    mods = modules()
    path, package = mods[name]
    here = name if package else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name in mods}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[: len(here.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in mods:  # ``from pkg import module``
                    out.add(sub)
                elif target in mods:  # ``from module import name``
                    out.add(target)
    out.discard(name)
    return out


@cache
def graph() -> dict[str, frozenset[str]]:
    return {name: frozenset(imports_of(name)) for name in modules()}


def cycles() -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    g = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in g:
        if root in index:
            continue
        work = [(root, iter(sorted(g[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(g[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def reachable(start: str) -> set[str]:
    g = graph()
    seen = {start}
    todo = [start]
    while todo:
        for nxt in g[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_the_graph_reader_sees_every_kind_of_import() -> None:
    # Guards the reader itself: a lazy import in a function, a ``from package import
    # module`` and a relative-free ``from module import name`` are all edges.
    assert "jiyi.cli.serve" in imports_of("jiyi.cli.main")  # lazy, inside try
    assert "jiyi.server.routes_memories" in imports_of("jiyi.server.app")
    assert "jiyi.errors" in imports_of("jiyi.server.errors")
    assert len(modules()) > 100


def test_no_module_of_jiyi_imports_itself_in_a_circle() -> None:
    assert cycles() == []


def test_the_sdk_does_not_import_the_server() -> None:
    sdk = {name for name in modules() if name == "jiyi.client" or name.startswith("jiyi.client.")}
    reached = set().union(*(reachable(name) for name in sdk))
    assert sorted(n for n in reached if n == "jiyi.server" or n.startswith("jiyi.server.")) == []


def test_importing_the_sdk_loads_neither_the_server_nor_fastapi() -> None:
    # The running interpreter's view, package __init__ files included.
    code = (
        "import sys, jiyi.client; from jiyi.client import Client, AsyncClient; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('fastapi', 'starlette', "
        "'uvicorn') or m == 'jiyi.server' or m.startswith('jiyi.server.')); print(bad)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]"
