"""The import graph keeps one direction: the estimator's modules never import the page, the page imports the
estimator's boundary only (calculator.api and the declarations its requests and answers are written in), and no
module of calculator/ imports itself back through a cycle."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit
PACKAGE = Path(__file__).resolve().parents[2] / "calculator"
#: What calculator/page/ may import from the estimator: its boundary.
BOUNDARY = {"calculator.api", "calculator.inputs", "calculator.values", "calculator.vocab", "calculator.errors",
            "calculator.hub"}
#: The exporters' boundary (the page's second wheel): only page/run.py imports it, inside the functions that run
#: once the worker has loaded it (test_the_first_wheel_imports_without_the_exporters).
LATER_BOUNDARY = {"calculator.export"}


def _module(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def _runtime_nodes(tree: ast.AST):
    """Every node that runs at import, leaving out ``if TYPE_CHECKING:`` blocks (annotations only)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            continue
        yield node
        yield from _runtime_nodes(node)


@functools.cache           # read once for the module's tests (the package does not change while they run)
def _imports() -> dict[str, frozenset[str]]:
    """Every module of calculator/ and the calculator modules it imports (``from . import x`` counts as x)."""
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        name = _module(path)
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        found: set[str] = set()
        for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")
                if node.level:
                    base = base[:len(base) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if not target.startswith("calculator"):
                    continue
                subs = [f"{target}.{a.name}" for a in node.names]
                found |= {s for s in subs if (PACKAGE.parent / s.replace(".", "/")).with_suffix(".py").exists()
                          or (PACKAGE.parent / s.replace(".", "/") / "__init__.py").exists()} or {target}
            elif isinstance(node, ast.Import):
                found |= {a.name for a in node.names if a.name.startswith("calculator")}
        graph[name] = frozenset(found - {name})
    return graph


def test_the_page_imports_the_boundary_only():
    for module, targets in _imports().items():
        if module.startswith("calculator.page"):
            allowed = BOUNDARY | (LATER_BOUNDARY if module == "calculator.page.run" else set())
            outside = {t for t in targets if not t.startswith("calculator.page")} - allowed - {"calculator"}
            assert not outside, f"{module} imports {sorted(outside)}"


def test_the_first_wheel_imports_without_the_exporters():
    """What the page's first wheel holds (sitebuild/wheel.py leaves calculator/export/ out) imports and renders the
    estimator with the exporters unreachable: page/run.py imports them only when "Run it" asks."""
    import subprocess
    import sys

    code = (
        "import importlib.abc, sys\n"
        "class NoExport(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'calculator.export' or name.startswith('calculator.export.') or name == 'ruamel':\n"
        "            raise ImportError(name)\n"
        "sys.meta_path.insert(0, NoExport())\n"
        "import json\n"
        "from calculator.page import Page\n"
        "from calculator.page.text import STRING_TABLES\n"
        "strings = json.loads((STRING_TABLES / 'en.json').read_text(encoding='utf-8'))['calc']\n"
        "out = json.loads(Page(json.dumps(strings), 'en').render(json.dumps({'kind': 'estimator', 'raw': {}})))\n"
        "assert out['ok'], out\n"
        "assert 'calculator.export' not in sys.modules\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=PACKAGE.parent, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_the_estimator_never_imports_the_page():
    for module, targets in _imports().items():
        if not module.startswith("calculator.page") and module != "calculator.__main__":
            assert not {t for t in targets if t.startswith("calculator.page")}, module


def test_no_cycles():
    graph = _imports()
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in graph.get(node, ()):
            if nxt not in graph:
                continue
            if state.get(nxt) == 1 and not _package_of(nxt, node):
                raise AssertionError(" -> ".join(path + [nxt]))
            if nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in graph:
        if node not in state:
            visit(node, [node])


def _package_of(package: str, module: str) -> bool:
    """A package's __init__ importing its own submodules (and they it, for their package) is not a cycle."""
    return module.startswith(package + ".") or package.startswith(module + ".")


# The layering of issue 37: the declarations sit below the physics and the catalogue, and nothing below the boundary
# calls back into it.
#: What the kinds of value (calculator/values.py) may import: they check scalars; the kinds that look a value up
#: are given the catalogue and the config reader where the registry is made (inputs.VALUE_KINDS).
VALUES_MAY_IMPORT = {"calculator.errors", "calculator.models"}


def test_the_kinds_of_value_import_neither_the_catalogue_nor_the_config_reader():
    assert _imports()["calculator.values"] <= VALUES_MAY_IMPORT, sorted(_imports()["calculator.values"])


def test_a_setup_checks_itself_with_rules_of_its_own_and_no_module_fills_a_hook_in_it():
    """A TrainingSetup checks its own fields (``__post_init__``) against rules declared in the typed layer itself: the
    layer imports nothing of the package but the errors, and holds no list or slot that a higher module fills at
    import (which made a setup's behaviour depend on what had been imported before). So ``calculator.models``
    imported alone, in a fresh interpreter, refuses a negative micro-batch, a NaN and a string for an enum."""
    import subprocess
    import sys

    assert _imports()["calculator.models"] == {"calculator.errors"}, sorted(_imports()["calculator.models"])
    for path in PACKAGE.rglob("*.py"):       # no module writes into a name of the typed layer (a hook it fills)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typed = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
                 and (n.module or "").split(".")[-1] == "models" for a in n.names} | {"models"}
        writes = [n.lineno for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AugAssign))
                  for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                  if isinstance(t, (ast.Subscript, ast.Attribute)) and isinstance(t.value, ast.Name)
                  and t.value.id in typed and path.name != "models.py"]
        assert writes == [], f"{path.relative_to(PACKAGE)} writes into the typed layer at lines {writes}"
    program = """
import sys, types
package = types.ModuleType("calculator")     # the package without its __init__ (which imports the API)
package.__path__ = ["calculator"]
sys.modules["calculator"] = package
from calculator.models import ModelArch, TrainingSetup
from calculator.errors import InputError
loaded = sorted(m for m in sys.modules if m.startswith("calculator."))   # nothing filled a hook: nothing else ran
assert loaded == ["calculator.errors", "calculator.models"], loaded
model = object.__new__(ModelArch)          # no catalogue: any ModelArch is one
for change, code in (({"micro_batch_size": -4}, "out_of_range"), ({"lora_dropout": float("nan")}, "out_of_range"),
                     ({"method": "lora"}, "wrong_type")):
    try:
        TrainingSetup(model=model, **change)
    except InputError as e:
        assert (e.code, e.field) == (code, next(iter(change))), (e.code, e.field)
    else:
        raise AssertionError(f"made {change}")
print("refused")
"""
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=60,
                         cwd=PACKAGE.parent)
    assert run.returncode == 0 and run.stdout.strip() == "refused", run.stderr
