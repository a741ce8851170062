"""The tdconform Python subset, stated as the CPython AST node classes it allows.

This is a second statement of the subset, independent of the C++ front end
(reference/lang), used by the cross-checks: a program is in the subset when
ast.parse accepts it and every node that ast.walk yields has a class named here.
The grammar itself is documented in reference/SEMANTICS.md.

Written in the subset itself (the AST equality test parses every .py in the repo).
"""

import ast
import importlib.util
import warnings

STATEMENTS = [
    'Module', 'FunctionDef', 'ClassDef', 'Return', 'Delete', 'Assign', 'AugAssign', 'For',
    'While', 'If', 'With', 'Raise', 'Try', 'Assert', 'Import', 'ImportFrom',
    'Global', 'Nonlocal', 'Expr', 'Pass', 'Break', 'Continue',
]

EXPRESSIONS = [
    'BoolOp', 'BinOp', 'UnaryOp', 'Lambda', 'IfExp', 'Dict', 'ListComp', 'GeneratorExp',
    'Compare', 'Call', 'Constant', 'Attribute', 'Subscript', 'Starred', 'Name',
    'List', 'Tuple', 'Slice',
]

EXPR_CONTEXTS = ['Load', 'Store', 'Del']
BOOL_OPS = ['And', 'Or']
OPERATORS = [
    'Add', 'Sub', 'Mult', 'MatMult', 'Div', 'Mod', 'Pow', 'LShift', 'RShift',
    'BitOr', 'BitXor', 'BitAnd', 'FloorDiv',
]
UNARY_OPS = ['Invert', 'Not', 'UAdd', 'USub']
COMPARE_OPS = ['Eq', 'NotEq', 'Lt', 'LtE', 'Gt', 'GtE', 'Is', 'IsNot', 'In', 'NotIn']
HELPERS = ['comprehension', 'ExceptHandler', 'arguments', 'arg', 'keyword', 'alias', 'withitem']

SUBSET_NODES = frozenset(
    STATEMENTS + EXPRESSIONS + EXPR_CONTEXTS + BOOL_OPS + OPERATORS + UNARY_OPS
    + COMPARE_OPS + HELPERS)


def decoded_lines(source):
    """The source's lines as CPython's tokenizer sees them (str, newlines removed).

    `source` is bytes (decoded by its coding cookie / BOM, default UTF-8) or str.
    """
    if isinstance(source, bytes):
        text = importlib.util.decode_source(source)
    else:
        text = source.replace('\r\n', '\n').replace('\r', '\n')
    return text.split('\n')


def char_column(lines, lineno, col_offset):
    """1-based character column of a CPython col_offset (a UTF-8 byte offset)."""
    line = lines[lineno - 1].encode('utf-8')
    return len(line[:col_offset].decode('utf-8', errors='replace')) + 1


def first_unsupported(tree, source):
    """(line, col1, node name) of the first node outside the subset in ast.walk
    (breadth-first) order, or None when the whole tree is in the subset."""
    lines = decoded_lines(source)
    for node in ast.walk(tree):
        name = type(node).__name__
        if name not in SUBSET_NODES:
            # Every node class outside the subset that can be reached first carries a
            # position (match_case has none, but its Match parent is reached before it).
            return (node.lineno, char_column(lines, node.lineno, node.col_offset), name)
    return None


def parse_quietly(source, filename='<unknown>'):
    """ast.parse with warnings (e.g. invalid escape sequences) silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return ast.parse(source, filename)


def cpython_diagnostic(source):
    """What CPython says about `source`, in the form of a .diag line without the file
    name: 'LINE:COL: error: MESSAGE', or None when the program is in the subset and
    compiles. A program in the subset that ast.parse accepts may still fail compile():
    its symbol table's and code generator's SyntaxErrors (reference/lang/compile_errors.h),
    whose offset counts bytes."""
    try:
        tree = parse_quietly(source)
    except SyntaxError as e:
        return '%s:%s: error: %s' % (e.lineno, e.offset, e.msg)
    found = first_unsupported(tree, source)
    if found is not None:
        line, col, name = found
        return "%d:%d: error: unsupported construct '%s' (not in the tdconform subset)" % (
            line, col, name)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            compile(source, '<fixture>', 'exec', dont_inherit=True)
    except SyntaxError as e:
        return '%s:%s: error: %s' % (e.lineno, e.offset, e.msg)
    return None


def all_node_class_names():
    """Every concrete node class that CPython's parser can produce (the deprecated
    aliases such as Num and Index, defined in ast.py rather than _ast, are left out)."""
    import _ast
    names = []
    pending = [ast.AST]
    while pending:
        cls = pending.pop()
        subs = cls.__subclasses__()
        pending.extend(subs)
        concrete_subs = [c for c in subs if hasattr(_ast, c.__name__)]
        if not concrete_subs and cls is not ast.AST and hasattr(_ast, cls.__name__):
            names.append(cls.__name__)
    return sorted(set(names))


if __name__ == '__main__':
    import sys
    missing = sorted(SUBSET_NODES - set(all_node_class_names()))
    if missing:
        print('not AST node classes: %s' % ', '.join(missing))
        sys.exit(1)
    print('in the subset (%d): %s' % (len(SUBSET_NODES), ', '.join(sorted(SUBSET_NODES))))
    outside = [n for n in all_node_class_names() if n not in SUBSET_NODES]
    print('outside (%d): %s' % (len(outside), ', '.join(outside)))
