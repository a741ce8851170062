"""Metamorphic variants of fixtures (DESIGN.md, "Tests and measurements").

    ci/variants FIXTURE... [--out DIR] [--no-eager-check]
    ci/variants --check-fresh [--out DIR]

For each fixture `fixtures/<group>/<name>.py` this writes up to three variants,
`<out>/<group>__<name>__<transform>.py` (default out: fixtures/variants):

  rename     every user-defined function and class, and every attribute a class statement
             defines or its methods store, gets another name (rules must not depend on
             names); special names (__init__, __call__ ...) keep theirs;
  wrap       every module-level function that is compiled gets an empty wrapper: the
             original body moves to `<f>_tdc_inner`, and `<f>` (keeping the compile
             decorator, or being what torch.compile receives) just calls it;
  constants  every nonzero float literal is doubled (changes values and, through
             arange / linspace bounds, shapes).

A variant is a fixture of its own: its golden comes from real torch through the oracle,
never from the original's. Its header keeps the original's directives (without
seed-example / version-probe) and adds `# tdc: variant-of <fixture> <transform>`.
A transform that changes nothing is not written; a variant that torch rejects in eager
mode where the original did not (e.g. a doubled bound that breaks a reshape) is
dropped with a message, since it would test nothing.
"""

import argparse
import ast
import copy
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRANSFORMS = ('rename', 'wrap', 'constants')
DROPPED_DIRECTIVES = ('seed-example', 'version-probe', 'variant-of')


def header_lines(source):
    """The `# tdc:` lines at the top of a fixture, without those a variant must not copy."""
    lines = []
    for line in source.splitlines():
        if not line.startswith('# tdc:'):
            break
        words = line[len('# tdc:'):].split()
        if words and words[0] not in DROPPED_DIRECTIVES:
            lines.append(line)
    return lines


def is_compile_call(node):
    """`torch.compile(...)` or `torch.compiler.compile(...)`."""
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    return ast.unparse(f) in ('torch.compile', 'torch.compiler.compile')


def is_special(name):
    return name.startswith('__') and name.endswith('__')


def defined_names(tree):
    """The functions and classes the program defines."""
    return {n.name for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and not is_special(n.name)}


def class_body_names(tree):
    """The names class statements' bodies bind: methods and class-level names."""
    names = set()
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for stmt in cls.body:
            if isinstance(stmt, ast.FunctionDef):
                names.add(stmt.name)
            elif isinstance(stmt, ast.Assign):
                names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
    return {n for n in names if not is_special(n)}


def class_attributes(tree):
    """The attributes class statements define and their methods store (`self.x = ...`)."""
    names = class_body_names(tree)
    for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
        for node in ast.walk(cls):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
    return {n for n in names if not is_special(n)}


class Renamer(ast.NodeTransformer):
    def __init__(self, names, attributes):
        self.names = names
        self.attributes = attributes

    def new(self, name):
        return name + '_renamed' if name in self.names else name

    def visit_FunctionDef(self, node):
        self.generic_visit(node)
        node.name = self.new(node.name)
        return node

    visit_ClassDef = visit_FunctionDef

    def visit_Name(self, node):
        node.id = self.new(node.id)
        return node

    def visit_arg(self, node):  # a parameter named like a function reads as that name
        node.arg = self.new(node.arg)
        return node

    def visit_Attribute(self, node):
        self.generic_visit(node)
        if node.attr in self.attributes:
            node.attr = node.attr + '_renamed'
        return node

    def visit_Global(self, node):
        node.names = [self.new(n) for n in node.names]
        return node

    visit_Nonlocal = visit_Global


def rename(tree):
    names = defined_names(tree)
    if not names:
        return None
    # A class body's own names are its attributes: renamed with them.
    return Renamer(names | class_body_names(tree), class_attributes(tree)).visit(tree)


def compiled_function_names(tree):
    """Module-level functions that are compiled: decorated with torch.compile, or the
    first argument of a torch.compile call anywhere."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and any(
                is_compile_call(d) or ast.unparse(d) == 'torch.compile'
                for d in node.decorator_list):
            names.add(node.name)
    for node in ast.walk(tree):
        if is_compile_call(node) and node.args and isinstance(node.args[0], ast.Name):
            names.add(node.args[0].id)
    top = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    return names & top


def wrapper_for(fn, inner_name, decorators):
    call = ast.Call(func=ast.Name(id=inner_name, ctx=ast.Load()),
                    args=[ast.Starred(value=ast.Name(id='args', ctx=ast.Load()),
                                      ctx=ast.Load())],
                    keywords=[ast.keyword(arg=None, value=ast.Name(id='kwargs',
                                                                   ctx=ast.Load()))])
    return ast.FunctionDef(
        name=fn.name,
        args=ast.arguments(posonlyargs=[], args=[], vararg=ast.arg(arg='args'),
                           kwonlyargs=[], kw_defaults=[], kwarg=ast.arg(arg='kwargs'),
                           defaults=[]),
        body=[ast.Return(value=call)], decorator_list=decorators, returns=None,
        lineno=fn.lineno)


def wrap(tree):
    targets = compiled_function_names(tree)
    if not targets:
        return None
    body = []
    for node in tree.body:
        if not (isinstance(node, ast.FunctionDef) and node.name in targets):
            body.append(node)
            continue
        inner_name = node.name + '_tdc_inner'
        compile_decorators = [d for d in node.decorator_list
                              if is_compile_call(d) or ast.unparse(d) == 'torch.compile']
        inner = copy.deepcopy(node)
        inner.name = inner_name
        inner.decorator_list = [d for d in node.decorator_list if d not in compile_decorators]
        body.append(inner)
        body.append(wrapper_for(node, inner_name, compile_decorators))
    tree.body = body
    return tree


class FloatDoubler(ast.NodeTransformer):
    def __init__(self):
        self.changed = False

    def visit_Constant(self, node):
        if isinstance(node.value, float) and node.value != 0.0:
            self.changed = True
            return ast.copy_location(ast.Constant(value=node.value * 2.0), node)
        return node


def constants(tree):
    doubler = FloatDoubler()
    tree = doubler.visit(tree)
    return tree if doubler.changed else None


APPLY = {'rename': rename, 'wrap': wrap, 'constants': constants}


def variant_source(fixture_rel, source, transform):
    tree = APPLY[transform](ast.parse(source))
    if tree is None:
        return None
    ast.fix_missing_locations(tree)
    lines = header_lines(source)
    lines.append('# tdc: variant-of %s %s' % (fixture_rel, transform))
    lines.append('# Written by ci/variants from %s (%s); do not edit: re-run ci/variants.'
                 % (fixture_rel, transform))
    return '\n'.join(lines) + '\n' + ast.unparse(tree) + '\n'


EAGER_RUNNER = r'''
import os, runpy, sys
os.environ["TORCHDYNAMO_DISABLE"] = "1"
try:
    runpy.run_path(sys.argv[1], init_globals={"backend": "eager"})
except BaseException as e:
    print(type(e).__name__)
'''


def eager_exception(path):
    """The exception type name an eager run of `path` ends with ('' for none)."""
    python = os.path.join(REPO, '.venv', 'bin', 'python')
    proc = subprocess.run([python, '-c', EAGER_RUNNER, path], capture_output=True,
                          text=True, timeout=300, cwd=REPO)
    return proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ''


def check_fresh(variants_dir):
    """Every variant equals what ci/variants writes from its original now: variants are
    generated, never edited by hand. Returns the number of stale variants."""
    stale = 0
    names = sorted(n for n in os.listdir(variants_dir) if n.endswith('.py'))
    for name in names:
        path = os.path.join(variants_dir, name)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        directive = [l for l in text.splitlines() if l.startswith('# tdc: variant-of ')]
        if not directive:
            print('%s: no variant-of directive' % name)
            stale += 1
            continue
        fixture_rel, transform = directive[0].split()[3:5]
        with open(os.path.join(REPO, fixture_rel), encoding='utf-8') as f:
            expected = variant_source(fixture_rel, f.read(), transform)
        if expected != text:
            print('%s: differs from ci/variants %s (re-run ci/variants)' % (name, fixture_rel))
            stale += 1
    print('%d passed, %d failed' % (len(names) - stale, stale))
    return stale


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('fixtures', nargs='*')
    parser.add_argument('--out', default=os.path.join(REPO, 'fixtures', 'variants'))
    parser.add_argument('--no-eager-check', action='store_true')
    parser.add_argument('--check-fresh', action='store_true',
                        help='check that every variant in --out is what ci/variants writes')
    args = parser.parse_args(argv)
    if args.check_fresh:
        return 1 if check_fresh(args.out) else 0
    os.makedirs(args.out, exist_ok=True)
    written = 0
    for path in args.fixtures:
        rel = os.path.relpath(os.path.abspath(path), REPO)
        parts = rel.split(os.sep)
        if parts[0] != 'fixtures' or len(parts) != 3 or parts[1] in ('errors', 'variants'):
            print('ci/variants: %s: not a fixture (fixtures/<group>/<name>.py)' % rel,
                  file=sys.stderr)
            return 2
        group, name = parts[1], os.path.splitext(parts[2])[0]
        with open(path, encoding='utf-8') as f:
            source = f.read()
        original_exception = None if args.no_eager_check else eager_exception(path)
        for transform in TRANSFORMS:
            text = variant_source(rel, source, transform)
            if text is None:
                continue
            out = os.path.join(args.out, '%s__%s__%s.py' % (group, name, transform))
            tmp = out + '.tmp'
            with open(tmp, 'w', encoding='utf-8') as f:
                f.write(text)
            if original_exception is not None:
                got = eager_exception(tmp)
                if got and got != original_exception:
                    os.remove(tmp)
                    print('ci/variants: dropped %s: eager run raises %s'
                          % (os.path.relpath(out, REPO), got))
                    continue
            os.replace(tmp, out)
            written += 1
            print('ci/variants: wrote %s' % os.path.relpath(out, REPO))
    print('ci/variants: %d variants written' % written)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
