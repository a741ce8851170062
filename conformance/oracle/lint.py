"""The fixture lint of DESIGN.md D1, with Python's ``ast``; it runs before every recording.

A fixture is recorded by real torch and predicted by the reference, so it must stay
inside what both sides agree to model: it compiles only through the injected ``backend``
(never binding it), uses no dynamic shapes, no random numbers and no in-place tensor
methods, never sets a profile's config keys, binds its results as ``out`` names, and
starts with a ``# tdc:`` header (SCHEMA.md §2). In-place mutation that the AST cannot
see (``x += 1`` on a tensor) is caught at record time by ``mutation.py``.
"""

import ast
import dataclasses
import re

from conformance.oracle import header as header_lib
from conformance.oracle import profiles

RESULT_NAME = re.compile(r"out(_\w+|\d+)?")
_INPLACE_METHOD = re.compile(r"[A-Za-z0-9]\w*[A-Za-z0-9]_|[A-Za-z]_")
# Trailing-underscore methods that change autograd's flag, not a tensor's data.
_FLAG_METHODS = frozenset({"requires_grad_"})

# Dotted names (after import aliases are resolved) that compile without the injected
# backend or outside torch.compile.
_OTHER_COMPILE_ENTRIES = {
    "torch._dynamo.optimize": "torch._dynamo.optimize",
    "torch._dynamo.optimize_assert": "torch._dynamo.optimize_assert",
    "torch._dynamo.export": "torch._dynamo.export",
    "torch.export": "torch.export",
    "torch.compiler.compile": "torch.compiler.compile",
}

# Random generators (D1: inputs are built deterministically).
_RANDOM_TORCH = re.compile(
    r"rand\w*|randn\w*|randint\w*|randperm|normal|manual_seed|seed|initial_seed"
    r"|bernoulli|multinomial|poisson|Generator|get_rng_state|set_rng_state|random"
    r"|dropout\w*|alpha_dropout|feature_alpha_dropout|rrelu")
_RANDOM_MODULES = ("random", "numpy.random", "secrets")


@dataclasses.dataclass(frozen=True)
class LintError:
    """One violation: 1-based line and column (as CPython counts them) and a message."""

    line: int
    col: int
    message: str

    def format(self, filename: str) -> str:
        return f"{filename}:{self.line}:{self.col}: error: {self.message}"


class _Aliases(ast.NodeVisitor):
    """Maps names bound by imports to the dotted module path they stand for."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if a.asname:
                self.names[a.asname] = a.name
            else:
                top = a.name.split(".")[0]
                self.names[top] = top

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module and node.level == 0:
            for a in node.names:
                self.names[a.asname or a.name] = f"{node.module}.{a.name}"


def _dotted(node: ast.AST, aliases: dict[str, str]) -> str | None:
    """The dotted path an expression names through an import (``torch.compile``), or None
    (its root is not an imported name: a local variable called ``random`` is no module)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in aliases:
        return None
    parts.append(aliases[node.id])
    return ".".join(reversed(parts))


def _pos(node: ast.AST) -> tuple[int, int]:
    return node.lineno, node.col_offset + 1


class _Checker(ast.NodeVisitor):
    """Walks the module once and collects every violation."""

    def __init__(self, aliases: dict[str, str]) -> None:
        self.aliases = aliases
        self.errors: list[LintError] = []
        self.decorator_calls: set[int] = set()
        self.compile_funcs: set[int] = set()   # the `torch.compile` nodes that are called

    def error(self, node: ast.AST, message: str) -> None:
        self.errors.append(LintError(*_pos(node), message))

    # --- compile only with torch.compile(..., backend=backend) -------------------------
    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for d in node.decorator_list:
            if isinstance(d, ast.Call):
                self.decorator_calls.add(id(d))
        self._check_binding_name(node, node.name)
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for d in node.decorator_list:
            if isinstance(d, ast.Call):
                self.decorator_calls.add(id(d))
        self._check_binding_name(node, node.name)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _dotted(node.func, self.aliases)
        if name == "torch.compile":
            self.compile_funcs.add(id(node.func))
            self._check_compile_call(node)
        elif name and name.endswith(".patch") and name.startswith("torch._dynamo.config"):
            for kw in node.keywords:
                if kw.arg in profiles.PROFILE_KEYS:
                    self.error(kw, f"fixture sets the profile config key '{kw.arg}' "
                                   "(profiles are set by the oracle, SCHEMA.md §3)")
        if isinstance(node.func, ast.Attribute) and _INPLACE_METHOD.fullmatch(node.func.attr) \
                and node.func.attr not in _FLAG_METHODS:
            self.error(node.func, f"in-place tensor method '{node.func.attr}' "
                                  "(in-place mutation is outside the fixture subset)")
        self.generic_visit(node)

    def _check_compile_call(self, node: ast.Call) -> None:
        is_decorator = id(node) in self.decorator_calls
        form = ("@torch.compile(backend=backend, ...)" if is_decorator
                else "torch.compile(f, backend=backend, ...)")
        if any(isinstance(a, ast.Starred) for a in node.args) or any(
                kw.arg is None for kw in node.keywords):
            self.error(node, f"torch.compile with *args or **kwargs: write {form}")
            return
        want_args = 0 if is_decorator else 1
        if len(node.args) != want_args:
            self.error(node, f"torch.compile must be written {form}")
        backends = [kw for kw in node.keywords if kw.arg == "backend"]
        if not backends or not (isinstance(backends[0].value, ast.Name)
                                and backends[0].value.id == "backend"):
            self.error(node, f"torch.compile must pass the injected backend: {form}")
        for kw in node.keywords:
            if kw.arg == "dynamic" and not (isinstance(kw.value, ast.Constant)
                                            and kw.value.value in (False, None)):
                self.error(kw, "torch.compile with dynamic other than False/None "
                               "(dynamic shapes are a later profile)")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        # The whole chain is checked once, here; only its root expression is descended
        # into (`f().x` visits the call), so `torch.random.seed` is one error, not two.
        self._check_reference(node)
        root = node.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name):  # a Name root is part of the chain checked
            self.visit(root)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self._check_binding_name(node, node.id)
        self._check_reference(node)

    def _check_reference(self, node: ast.Attribute | ast.Name) -> None:
        name = _dotted(node, self.aliases)
        if name is None:
            return
        if name == "torch.compile" and id(node) not in self.compile_funcs:
            # (a Call marks its func in compile_funcs before visiting it)
            self.error(node, "torch.compile used other than as "
                             "torch.compile(f, backend=backend, ...) or "
                             "@torch.compile(backend=backend, ...)")
        for entry in _OTHER_COMPILE_ENTRIES:
            if name == entry or name.startswith(entry + "."):
                self.error(node, f"{_OTHER_COMPILE_ENTRIES[entry]}: compile only with "
                                 "torch.compile(f, backend=backend, ...)")
                return
        last = name.rsplit(".", 1)[-1]
        if (name.startswith("torch.") and _RANDOM_TORCH.fullmatch(last)) or any(
                name == m or name.startswith(m + ".") for m in _RANDOM_MODULES):
            self.error(node, f"random generator '{name}' (inputs are built "
                             "deterministically: arange, linspace, ones, tensor([...]))")
        if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                and node.attr in profiles.PROFILE_KEYS
                and name.startswith("torch._dynamo.config.")):
            self.error(node, f"fixture sets the profile config key '{node.attr}' "
                             "(profiles are set by the oracle, SCHEMA.md §3)")

    # --- never bind `backend` ---------------------------------------------------------
    def _check_binding_name(self, node: ast.AST, name: str) -> None:
        if name == "backend":
            self.error(node, "fixture binds 'backend' (the oracle injects it)")

    def visit_arg(self, node: ast.arg) -> None:
        self._check_binding_name(node, node.arg)
        self.generic_visit(node)

    def visit_alias(self, node: ast.alias) -> None:
        bound = node.asname or node.name.split(".")[0]
        self._check_binding_name(node, bound)
        if any(node.name == m or node.name.startswith(m + ".") for m in _RANDOM_MODULES):
            self.error(node, f"random generator module '{node.name}'")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if any(module == m or module.startswith(m + ".") for m in _RANDOM_MODULES):
            self.error(node, f"random generator module '{module}'")
        for a in node.names:
            full = f"{module}.{a.name}"
            if full == "torch.compile" or any(full == e or full.startswith(e + ".")
                                              for e in _OTHER_COMPILE_ENTRIES):
                self.error(a, f"importing {full}: compile only with "
                              "torch.compile(f, backend=backend, ...)")
            elif module.startswith("torch") and _RANDOM_TORCH.fullmatch(a.name):
                self.error(a, f"random generator '{full}'")
            self._check_binding_name(a, a.asname or a.name)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self._check_binding_name(node, node.name)
        self.generic_visit(node)

    def visit_Global(self, node: ast.Global) -> None:
        if "backend" in node.names:
            self.error(node, "fixture declares 'backend' global (the oracle injects it)")

    visit_Nonlocal = visit_Global


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp,
           ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _module_results(tree: ast.Module) -> list[str]:
    """Names matching the result pattern bound in the module's own scope."""
    found = []
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, _SCOPES):
            continue  # a scope of its own (its decorators and defaults bind nothing)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) \
                and RESULT_NAME.fullmatch(node.id):
            found.append(node.id)
        todo.extend(ast.iter_child_nodes(node))
    return found


def _code_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for stmt in tree.body:
        first = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
        lines.add(first)
    return lines


def lint_source(source: str) -> tuple[header_lib.Header | None, list[LintError]]:
    """Lints one fixture's text; returns its parsed header and every violation, sorted."""
    try:
        tree = ast.parse(source)
    except SyntaxError as e:
        return None, [LintError(e.lineno or 1, e.offset or 1, e.msg)]
    header, header_errors = header_lib.parse(source, _code_lines(tree))
    errors = [LintError(e.line, e.col, e.message) for e in header_errors]
    aliases = _Aliases()
    aliases.visit(tree)
    checker = _Checker(aliases.names)
    checker.visit(tree)
    errors += checker.errors
    if not _module_results(tree):
        errors.append(LintError(1, 1, "no result: bind at least one module-level name "
                                      "matching ^out(_\\w+|\\d+)?$"))
    errors = sorted(set(errors), key=lambda e: (e.line, e.col, e.message))
    return header, errors


def lint_file(path: str) -> tuple[header_lib.Header | None, list[LintError]]:
    """Lints one fixture file."""
    with open(path, encoding="utf-8") as f:
        return lint_source(f.read())
