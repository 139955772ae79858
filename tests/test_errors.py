"""The error registry holds: every error raised names a registered code of its kind, every
code has words in both catalogs, and the protocol's documented codes are the registry's."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from unomas.error_codes import ERRORS, PARTS, placeholders
from unomas.errors import RecordError, Refusal, SettingsError
from unomas.i18n import LANGUAGES, error_text, translator

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "unomas"


@dataclass(frozen=True)
class Site:
    """One place in the source that gives an error its code."""

    where: str
    kind: str | None
    """The class built there, or None for a code passed on to a function that raises it."""
    code: ast.expr | None


def _modules() -> dict[str, ast.Module]:
    return {str(path.relative_to(ROOT)): ast.parse(path.read_text("utf-8")) for path in sorted(SOURCE.rglob("*.py"))}


def _kinds(modules: dict[str, ast.Module]) -> dict[str, list[str]]:
    """Every UnoError subclass of the source, with the names of its bases."""
    classes = {
        node.name: [base.id if isinstance(base, ast.Name) else ast.unparse(base) for base in node.bases]
        for tree in modules.values()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
    }
    kinds = {"UnoError": ["ValueError"]}
    while True:
        more = {name: bases for name, bases in classes.items() if name not in kinds and set(bases) & set(kinds)}
        if not more:
            return kinds
        kinds.update(more)


def _lineage(kind: str, kinds: dict[str, list[str]]) -> set[str]:
    """``kind`` and every class it derives from."""
    found = {kind}
    for base in kinds.get(kind, []):
        found |= _lineage(base, kinds)
    return found


def _code_position(kind: str, kinds: dict[str, list[str]], modules: dict[str, ast.Module]) -> int | None:
    """Where a call of ``kind`` takes its code: the position of its ``__init__``'s ``code``
    parameter (the nearest ``__init__`` up its bases), or None if the class fixes its code."""
    for tree in modules.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name == kind:
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                        names = [a.arg for a in item.args.posonlyargs + item.args.args][1:]
                        return names.index("code") if "code" in names else None
    bases = [base for base in kinds.get(kind, []) if base in kinds]
    return _code_position(bases[0], kinds, modules) if bases else 0


def _called(node: ast.Call) -> str | None:
    func = node.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


def _argument(node: ast.Call, position: int, name: str) -> ast.expr | None:
    if position < len(node.args):
        return node.args[position]
    return next((k.value for k in node.keywords if k.arg == name), None)


def _unpacked_refusals(scope: ast.AST) -> set[str]:
    """Names a function binds to the code of a ``refusal(...)``'s ``(code, params)``, whose
    returns :func:`_sites` checks where they are written."""
    calls = {
        target.id
        for node in ast.walk(scope)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and _called(node.value) == "refusal"
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    return {
        node.targets[0].elts[0].id
        for node in ast.walk(scope)
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Tuple)
        and isinstance(node.targets[0].elts[0], ast.Name)
        and isinstance(node.value, ast.Name)
        and node.value.id in calls
    }


def _sites(modules: dict[str, ast.Module]) -> Iterator[Site]:
    """Every construction of an error (``Kind(code, …)``, ``Kind.caused_by(code, …)``, a
    subclass's ``super().__init__(code, …)``), every refusal returned as ``(code, params)``,
    and every call of a function that passes a code it is given on to one of them."""
    kinds = _kinds(modules)
    positions = {kind: _code_position(kind, kinds, modules) for kind in kinds}
    passers: dict[str, tuple[str, int, str]] = {}
    for path, tree in modules.items():
        owners = {id(item): c.name for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for item in c.body}
        for scope in ast.walk(tree):
            if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            owner = owners.get(id(scope))
            if owner in kinds and scope.name in ("__init__", "caused_by", "located"):
                continue  # the class's own plumbing: its callers name the code
            params = [a.arg for a in scope.args.posonlyargs + scope.args.args]
            unpacked = _unpacked_refusals(scope)
            for node in ast.walk(scope):
                where = f"{path}:{node.lineno}" if isinstance(node, ast.expr | ast.stmt) else path
                if isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 2:
                    first = node.value.elts[0]
                    if isinstance(first, ast.Constant) and isinstance(node.value.elts[1], ast.Dict):
                        yield Site(where, "IllegalAction", first)
                if not isinstance(node, ast.Call):
                    continue
                called = _called(node)
                if called in kinds and positions[called] is not None:
                    position = positions[called]
                    assert position is not None
                    kind = called
                elif called == "caused_by" and isinstance(node.func, ast.Attribute):
                    position, kind = 0, ast.unparse(node.func.value)
                else:
                    continue
                code = _argument(node, position, "code")
                if isinstance(code, ast.Name) and code.id in unpacked:
                    continue
                if isinstance(code, ast.Name) and code.id in params:
                    position = params.index(code.id) - (params[:1] in (["self"], ["cls"]))
                    passers[scope.name] = (path, position, code.id)
                    continue
                yield Site(where, kind, code)
    for path, tree in modules.items():
        defined = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        for node in ast.walk(tree):
            called = _called(node) if isinstance(node, ast.Call) else None
            if not isinstance(node, ast.Call) or called not in passers:
                continue
            home, position, name = passers[called]
            if home == path or called not in defined:  # not a function of the same name of another module
                code = _argument(node, position, name) or _default(modules[home], called, name)
                yield Site(f"{path}:{node.lineno}", None, code)


def _default(tree: ast.Module, function: str, name: str) -> ast.expr | None:
    """The default of parameter ``name`` of ``function`` in ``tree``, if it has one."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == function:
            names = [a.arg for a in node.args.posonlyargs + node.args.args]
            defaulted = names[len(names) - len(node.args.defaults) :]
            return dict(zip(defaulted, node.args.defaults, strict=True)).get(name)
    return None


def _constants(modules: dict[str, ast.Module]) -> dict[str, str]:
    """Module-level ``NAME = "text"`` of the source, by name."""
    return {
        target.id: node.value.value
        for tree in modules.values()
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def problems(modules: dict[str, ast.Module]) -> list[str]:
    """What is wrong at each site: no code given, a code not registered, or one registered
    for another kind of error."""
    kinds = _kinds(modules)
    constants = _constants(modules)
    found = []
    for site in _sites(modules):
        code = site.code
        if isinstance(code, ast.Name) and code.id in constants:
            code = ast.Constant(constants[code.id])
        if not (isinstance(code, ast.Constant) and isinstance(code.value, str)):
            found.append(f"{site.where}: no registered code ({ast.unparse(code) if code else 'none'})")
        elif code.value not in ERRORS:
            found.append(f"{site.where}: {code.value!r} is not registered")
        elif site.kind is not None and ERRORS[code.value].kind not in _lineage(site.kind, kinds):
            found.append(f"{site.where}: {code.value!r} is a {ERRORS[code.value].kind}, raised as a {site.kind}")
    return found


def test_every_error_raised_in_the_source_names_a_registered_code_of_its_kind() -> None:
    modules = _modules()
    assert len(list(_sites(modules))) > 250
    assert problems(modules) == []


def test_every_registered_code_is_raised_somewhere() -> None:
    """No dead entries: each code is written in the source outside the registry."""
    text = "".join(path.read_text("utf-8") for path in SOURCE.rglob("*.py") if path.name != "error_codes.py")
    assert [code for code in ERRORS if f'"{code}"' not in text] == []


def test_the_scan_finds_an_english_only_error_an_unknown_code_and_one_of_another_kind() -> None:
    modules = {
        "a.py": ast.parse(
            "from unomas.errors import IllegalAction, SettingsError\n"
            "def f(x):\n"
            "    raise SettingsError(f'players must be 2 to 10, not {x}')\n"
            "def g():\n"
            "    raise SettingsError('setup.too_nice')\n"
            "def h():\n"
            "    raise IllegalAction('setup.players_range', value=1)\n"
            "def passes(code):\n"
            "    raise SettingsError(code)\n"
            "def k():\n"
            "    passes('setup.nope')\n"
        ),
        "errors.py": ast.parse((SOURCE / "errors.py").read_text("utf-8")),
    }
    assert [problem.split(": ", 1)[1] for problem in problems(modules)] == [
        "no registered code (f'players must be 2 to 10, not {x}')",
        "'setup.too_nice' is not registered",
        "'setup.players_range' is a SettingsError, raised as a IllegalAction",
        "'setup.nope' is not registered",
    ]


def test_an_unregistered_code_or_one_of_another_kind_is_refused_at_once() -> None:
    with pytest.raises(KeyError):
        SettingsError("setup.too_nice")
    with pytest.raises(AssertionError):
        RecordError("setup.players_range", value=1)


@pytest.mark.parametrize("code", sorted(ERRORS))
def test_every_code_has_english_and_spanish_words_with_its_placeholders(code: str) -> None:
    entry = ERRORS[code]
    english, spanish = translator("en"), translator("es")
    assert code in vars(english)["_catalog"] or entry.template in vars(english)["_catalog"], code
    assert english.gettext(entry.template) == entry.template
    words = spanish.gettext(entry.template)
    if re.sub(r"\{\w+\}", "", entry.template).strip():  # a template that is only a placeholder has no words
        assert words != entry.template, f"{code} has no Spanish words"
    assert set(placeholders(words)) == set(placeholders(entry.template)), code
    assert set(placeholders(entry.template)) <= set(entry.params)


def test_every_part_of_a_record_has_spanish_words() -> None:
    for part in PARTS:
        assert translator("es").gettext(part) != part, part


def test_an_error_reads_in_each_language_from_its_code_and_params() -> None:
    error = Refusal("room.not_found", room="ABC123")
    assert error.message == ERRORS["room.not_found"].english({"room": "ABC123"})
    assert error_text(error.code, error.params, "es") == "No hay ninguna sala ABC123."
    for lang in LANGUAGES:
        assert "{" not in error_text("setup.players_range", {"value": 11}, lang)


def test_the_protocol_s_table_of_codes_is_the_registry_s() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text("utf-8")
    table = text[text.index("## Refusal codes") :]
    rows = {code: int(status) for code, status in re.findall(r"^\| `([a-z_]+\.[a-z_]+)` \| (\d+) \|", table, re.M)}
    for code, status in rows.items():
        assert code in ERRORS, f"docs/protocol.md lists {code}, which is not registered"
        assert ERRORS[code].status == status, code
    refusals = {code for code, entry in ERRORS.items() if entry.kind == "Refusal"}
    assert refusals <= set(rows), f"docs/protocol.md lacks {sorted(refusals - set(rows))}"
