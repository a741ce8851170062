"""A small random generator of programs in the tdconform Python subset.

    gen_subset_programs.py --out DIR --count N --seed S [--stats] [--min 5]

Grammar-based and depth-bounded; the same seed gives the same files. Every program is
checked before it is written: CPython's ast.parse accepts it (with warnings as errors),
compile() accepts it (so break/continue/return/nonlocal are placed legally) and
subset_nodes.first_unsupported finds nothing. The programs are parsed, never run.

Coverage is measured on the output, not on the generator's choices:
subset_coverage.count_constructs re-reads each program (ast, tokenize, symtable) and
counts the constructs of issue 2 item 4. --stats prints the table and fails when a
construct occurs fewer than --min times in the set.

Written in the subset itself (the AST equality test parses every .py in the repo).
"""

import argparse
import ast
import os
import random
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import subset_coverage  # noqa: E402
import subset_nodes  # noqa: E402

# Precedence levels, lowest first (the Python grammar's expression ladder).
P_LAMBDA = 0
P_IFEXP = 1
P_OR = 2
P_AND = 3
P_NOT = 4
P_CMP = 5
P_BOR = 6
P_BXOR = 7
P_BAND = 8
P_SHIFT = 9
P_ARITH = 10
P_TERM = 11
P_UNARY = 12
P_POWER = 13
P_ATOM = 15

BINARY_OPS = [
    ('+', P_ARITH), ('-', P_ARITH), ('*', P_TERM), ('@', P_TERM), ('/', P_TERM),
    ('%', P_TERM), ('//', P_TERM), ('**', P_POWER), ('<<', P_SHIFT), ('>>', P_SHIFT),
    ('|', P_BOR), ('^', P_BXOR), ('&', P_BAND),
]
AUG_OPS = ['+=', '-=', '*=', '@=', '/=', '%=', '//=', '**=', '<<=', '>>=', '|=', '^=', '&=']
COMPARE_OPS = ['==', '!=', '<', '<=', '>', '>=', 'is', 'is not', 'in', 'not in']

VAR_NAMES = [
    'a', 'b', 'c', 'x', 'y', 'z', 'i', 'j', 'k', 'n', 'acc', 'total', 'items', 'data',
    'value', 'result', 'tmp', 'obj', 'key', 'w1', 'out', 'out2', 'xs', 'ys',
]
SOFT_KEYWORD_NAMES = ['match', 'case', '_', 'type']
GLOBAL_NAMES = ['counter', 'CONFIG', 'state', 'cache', 'registry']
PARAM_NAMES = ['p', 'q', 'r', 's', 'alpha', 'beta', 'm', 'v', 'u', 't', 'lo', 'hi']
FUNC_NAMES = ['f', 'g', 'h', 'helper', 'inner', 'fn', 'a_fn', 'b_fn', 'step', 'forward', 'body']
ATTR_NAMES = ['shape', 'dtype', 'append', 'real', 'T', 'add', 'data', 'compiler', 'disable',
              'x', 'value', 'numel']
CALLEES = ['f', 'g', 'print', 'len', 'range', 'torch.add', 'torch.sub', 'torch.relu',
           'torch.sigmoid', 'helper', 'list', 'dict', 'tuple', 'max', 'min', 'isinstance']
MODULES = ['os', 'sys', 'math', 'torch', 'torch.nn', 'functools', 'collections.abc', 'operator']
EXCEPTIONS = ['ValueError', 'TypeError', 'RuntimeError', 'KeyError', 'Exception',
              'torch._dynamo.exc.Unsupported', 'AssertionError']
DECORATORS_BARE = ['torch.compiler.disable', 'staticmethod', 'functools.wraps', 'deco',
                   'torch.compiler.allow_in_graph', 'torch._dynamo.disable']
DECORATORS_CALLED = ['torch.compile(backend=backend)', 'torch.compiler.disable(recursive=False)',
                     'functools.lru_cache(maxsize=None)', 'deco(1, k=2)', 'wrap()',
                     'torch.compile(backend=backend, fullgraph=False)']
INDENT_UNITS = ['    ', '    ', '    ', '  ', '\t', '        ', ' ']

INT_LITERALS = {
    'decimal': ['0', '1', '2', '3', '7', '10', '42', '100', '255', '1000', '65536'],
    'hex': ['0x1F', '0xff', '0XAB', '0x0', '0xDEAD_BEEF'],
    'octal': ['0o17', '0O777', '0o0', '0o1_7'],
    'binary': ['0b1010', '0B11', '0b0', '0b_1111_0000'],
    'underscore': ['1_000', '1_000_000', '0_0', '12_34_56'],
    'big': ['123456789012345678901234567890', '18446744073709551616', '0xFFFFFFFFFFFFFFFFFFFF',
            '99999999999999999999999', '0b1' + '0' * 70, '340_282_366_920_938_463_463_374_607_431_768_211_456'],
}
FLOAT_LITERALS = {
    'plain': ['1.5', '0.1', '3.14', '2.0', '0.25', '100.0', '1_000.000_1', '0.0'],
    'trailing_dot': ['1.', '0.', '10.', '3.'],
    'leading_dot': ['.5', '.25', '.001', '.1e3'],
    'exponent': ['1e10', '1E5', '3.14e+2', '2.5e-5', '1e-7', '6.02e23', '1.e2'],
    'repr_exponent': ['1e16', '1e22', '1e300', '1e-300', '1234567890123456789.0', '0.00001',
                      '1.7976931348623157e308', '5e-324', '1e400', '4.9e-324'],
}
IMAG_LITERALS = ['2j', '1.5J', '1e3j', '0j', '.5j', '10_0j', '3.j']

STR_WORDS = ['abc', 'hello', 'x', 'tensor', '0', '%s', '{}', 'a b', 'graph break', '', ' ',
             'explicit break', 'R-disable', 'ok']
STR_NON_ASCII = ['\u00e9', '\u03c0', '\u4e2d', '\u00fc', '\u2192', 'caf\u00e9']
# Octal escapes have three digits: a digit that follows cannot extend them.
STR_ESCAPES = ['\\n', '\\t', '\\\\', '\\x41', '\\101', '\\000', '\\007', '\\r', '\\a', '\\x7f']
STR_ONLY_ESCAPES = ['\\u00e9', '\\u03c0', '\\U0001F600', '\\u200b', '\\xa0']
RAW_PIECES = ['\\d', '\\w+', '\\\\', 'C:\\path', '\\n', '[a-z]\\s*']


def pick(g, seq):
    return g['rng'].choice(seq)


def chance(g, p):
    return g['rng'].random() < p


def wrap(text, prec, minprec):
    """Parenthesise `text` (of precedence `prec`) when its context needs `minprec`."""
    if prec < minprec:
        return ('(' + text + ')', P_ATOM)
    return (text, prec)


def leaf(g, ctx):
    r = g['rng'].random()
    if r < 0.55:
        return (load_name(g, ctx), P_ATOM)
    return (constant(g), P_ATOM)


def load_name(g, ctx):
    if chance(g, 0.04):
        return pick(g, SOFT_KEYWORD_NAMES)
    if ctx['func'] is not None and ctx['func']['params'] and chance(g, 0.3):
        return pick(g, sorted(ctx['func']['params']))
    return pick(g, VAR_NAMES)


def store_name(g, ctx):
    if chance(g, 0.03):
        name = pick(g, SOFT_KEYWORD_NAMES)
    else:
        name = pick(g, VAR_NAMES)
    func = ctx['func']
    if func is not None and name not in func['globals'] and name not in func['nonlocals']:
        func['locals'].add(name)
    return name


def number(g):
    r = g['rng'].random()
    if r < 0.55:
        kind = pick(g, ['decimal', 'decimal', 'decimal', 'hex', 'octal', 'binary', 'underscore', 'big'])
        return pick(g, INT_LITERALS[kind])
    if r < 0.9:
        kind = pick(g, ['plain', 'plain', 'trailing_dot', 'leading_dot', 'exponent', 'repr_exponent'])
        return pick(g, FLOAT_LITERALS[kind])
    return pick(g, IMAG_LITERALS)


def string_body(g, quote, raw, is_bytes):
    """Source text between the quotes of one string literal."""
    triple = len(quote) == 3
    q = quote[0]
    other = '"' if q == "'" else "'"
    pieces = []
    for _ in range(g['rng'].randint(0, 4)):
        r = g['rng'].random()
        if r < 0.35:
            pieces.append(pick(g, STR_WORDS))
        elif r < 0.45:
            pieces.append(other)
        elif r < 0.52 and triple:
            pieces.append('it' + q + 's')
        elif r < 0.58 and triple:
            pieces.append('\n')
        elif r < 0.64 and not is_bytes:
            pieces.append(pick(g, STR_NON_ASCII))
        elif raw:
            pieces.append(pick(g, RAW_PIECES))
        elif r < 0.68:
            pieces.append('\\' + q)
        elif r < 0.71:
            pieces.append('ab\\\ncd')
        elif r < 0.8 and not is_bytes:
            pieces.append(pick(g, STR_ONLY_ESCAPES))
        else:
            pieces.append(pick(g, STR_ESCAPES))
    return ''.join(pieces)


def string_token(g, is_bytes):
    if is_bytes:
        prefix = pick(g, ['b', 'b', 'B', 'rb', 'br', 'Rb'])
    else:
        prefix = pick(g, ['', '', '', '', '', 'r', 'R', 'u', 'U'])
    quote = pick(g, ["'", '"', "'", '"', "'''", '"""'])
    raw = 'r' in prefix.lower()
    return prefix + quote + string_body(g, quote, raw, is_bytes) + quote


def string_literal(g, ctx):
    is_bytes = chance(g, 0.15)
    if chance(g, 0.15):
        # Implicit concatenation, in parentheses, across lines, with a comment between.
        parts = [string_token(g, is_bytes) for _ in range(g['rng'].randint(2, 3))]
        sep = '\n' + ctx['indent'] + '    '
        text = '(' + parts[0]
        for part in parts[1:]:
            if chance(g, 0.3):
                text += '  # ' + pick(g, ['continued', 'part', 'more'])
            text += sep + part
        return text + ')'
    if chance(g, 0.08):
        return string_token(g, is_bytes) + ' ' + string_token(g, is_bytes)
    return string_token(g, is_bytes)


def constant(g, ctx=None):
    r = g['rng'].random()
    if r < 0.5:
        return number(g)
    if r < 0.8:
        return string_literal(g, ctx or {'indent': ''})
    return pick(g, ['True', 'False', 'None', '...'])


def expr(g, ctx, depth, minprec):
    """An expression whose precedence is at least `minprec`, as source text."""
    if depth <= 0:
        text, prec = leaf(g, ctx)
        if text[0].isdigit() or text[0] == '.':
            prec = P_ATOM
        return wrap(text, prec, minprec)[0]
    kinds = [
        ('leaf', 6), ('binop', 8), ('unary', 2), ('not', 1), ('boolop', 2), ('compare', 4),
        ('ifexp', 1.5), ('lambda', 1), ('call', 5), ('attribute', 3), ('subscript', 3),
        ('list', 1.5), ('tuple', 1.5), ('dict', 1.2), ('listcomp', 1.2), ('parens', 0.8),
        ('power_unary', 0.4), ('constant', 2),
    ]
    kind = weighted(g, kinds)
    d = depth - 1
    if kind == 'leaf':
        return expr(g, ctx, 0, minprec)
    if kind == 'constant':
        return wrap(constant(g, ctx), P_ATOM, minprec)[0]
    if kind == 'binop':
        op, prec = pick(g, BINARY_OPS)
        if op == '**':
            left = expr(g, ctx, d, P_ATOM)
            right = expr(g, ctx, d, P_UNARY)
        else:
            left = expr(g, ctx, d, prec)
            right = expr(g, ctx, d, prec + 1)
        return wrap(left + ' ' + op + ' ' + right, prec, minprec)[0]
    if kind == 'power_unary':
        # -2**-3 and friends: unary minus binds looser than ** on its left, tighter on its right.
        base = pick(g, ['2', 'x', '1.5', 'n', '(a)'])
        exp = pick(g, ['-', '+', '~', '-'])
        text = pick(g, ['-', '+', '~']) + base + ' ** ' + exp + expr(g, ctx, 0, P_UNARY)
        return wrap(text, P_UNARY, minprec)[0]
    if kind == 'unary':
        op = pick(g, ['-', '+', '~'])
        return wrap(op + expr(g, ctx, d, P_UNARY), P_UNARY, minprec)[0]
    if kind == 'not':
        return wrap('not ' + expr(g, ctx, d, P_NOT), P_NOT, minprec)[0]
    if kind == 'boolop':
        op = pick(g, ['and', 'or'])
        prec = P_AND if op == 'and' else P_OR
        values = [expr(g, ctx, d, prec + 1) for _ in range(g['rng'].randint(2, 3))]
        return wrap((' ' + op + ' ').join(values), prec, minprec)[0]
    if kind == 'compare':
        n = 1 if chance(g, 0.75) else g['rng'].randint(2, 3)
        text = expr(g, ctx, d, P_BOR)
        for _ in range(n):
            text += ' ' + pick(g, COMPARE_OPS) + ' ' + expr(g, ctx, d, P_BOR)
        return wrap(text, P_CMP, minprec)[0]
    if kind == 'ifexp':
        text = (expr(g, ctx, d, P_OR) + ' if ' + expr(g, ctx, d, P_OR) + ' else '
                + expr(g, ctx, d, P_LAMBDA))
        return wrap(text, P_IFEXP, minprec)[0]
    if kind == 'lambda':
        params = lambda_params(g)
        head = 'lambda ' + params if params else 'lambda'
        return wrap(head + ': ' + expr(g, ctx, d, P_LAMBDA), P_LAMBDA, minprec)[0]
    if kind == 'call':
        return wrap(call(g, ctx, d), P_ATOM, minprec)[0]
    if kind == 'attribute':
        base = expr(g, ctx, d, P_ATOM)
        if base[0].isdigit() or base[0] == '.':
            base = '(' + base + ')'
        return wrap(base + '.' + pick(g, ATTR_NAMES), P_ATOM, minprec)[0]
    if kind == 'subscript':
        return wrap(expr(g, ctx, d, P_ATOM) + '[' + subscript_slice(g, ctx, d) + ']', P_ATOM,
                    minprec)[0]
    if kind == 'list':
        return list_display(g, ctx, d)
    if kind == 'tuple':
        return tuple_display(g, ctx, d)
    if kind == 'dict':
        return dict_display(g, ctx, d)
    if kind == 'listcomp':
        return listcomp(g, ctx, d)
    # parens: deeply parenthesised expressions.
    return parens_expr(g, ctx, d)


def parens_expr(g, ctx, d):
    n = g['rng'].randint(1, 4)
    return '(' * n + expr(g, ctx, d, P_LAMBDA) + ')' * n


def weighted(g, kinds):
    total = 0.0
    for _, w in kinds:
        total += w
    r = g['rng'].random() * total
    for name, w in kinds:
        r -= w
        if r < 0:
            return name
    return kinds[-1][0]


def elements(g, ctx, d, n, allow_star):
    items = []
    for _ in range(n):
        if allow_star and chance(g, 0.12):
            items.append('*' + expr(g, ctx, d, P_BOR))
        else:
            items.append(expr(g, ctx, d, P_LAMBDA if chance(g, 0.5) else P_IFEXP))
    return items


def list_display(g, ctx, d):
    n = g['rng'].randint(0, 4)
    items = elements(g, ctx, d, n, True)
    trailing = ',' if items and chance(g, 0.15) else ''
    return '[' + ', '.join(items) + trailing + ']'


def tuple_display(g, ctx, d):
    r = g['rng'].random()
    if r < 0.15:
        return '()'
    if r < 0.35:
        return '(' + elements(g, ctx, d, 1, False)[0] + ',)'
    items = elements(g, ctx, d, g['rng'].randint(2, 4), True)
    trailing = ',' if chance(g, 0.15) else ''
    return '(' + ', '.join(items) + trailing + ')'


def dict_display(g, ctx, d):
    items = []
    for _ in range(g['rng'].randint(0, 3)):
        if chance(g, 0.2):
            items.append('**' + expr(g, ctx, d, P_BOR))
        else:
            items.append(expr(g, ctx, d, P_IFEXP) + ': ' + expr(g, ctx, d, P_IFEXP))
    trailing = ',' if items and chance(g, 0.15) else ''
    return '{' + ', '.join(items) + trailing + '}'


def comp_target(g):
    r = g['rng'].random()
    if r < 0.7:
        return pick(g, ['i', 'j', 'x', 'y', 'e', 'row', 'k'])
    if r < 0.9:
        return pick(g, ['i', 'k']) + ', ' + pick(g, ['v', 'w'])
    return '(' + pick(g, ['a', 'p']) + ', ' + pick(g, ['b', 'q']) + ')'


def listcomp(g, ctx, d):
    text = '[' + expr(g, ctx, d, P_IFEXP) + ' for ' + comp_target(g) + ' in ' + expr(g, ctx, d, P_OR)
    for _ in range(g['rng'].randint(0, 2)):
        text += ' if ' + expr(g, ctx, d, P_OR)
    if chance(g, 0.4):
        text += ' for ' + pick(g, ['m', 'u', 't']) + ' in ' + expr(g, ctx, d, P_OR)
        if chance(g, 0.5):
            text += ' if ' + expr(g, ctx, d, P_OR)
    return text + ']'


def subscript_slice(g, ctx, d):
    r = g['rng'].random()
    if r < 0.4:
        return expr(g, ctx, d, P_IFEXP)
    if r < 0.75:
        return slice_text(g, ctx, d)
    if r < 0.9:
        parts = []
        for _ in range(g['rng'].randint(2, 3)):
            parts.append(slice_text(g, ctx, d) if chance(g, 0.5) else expr(g, ctx, d, P_IFEXP))
        return ', '.join(parts)
    return '...'


def slice_text(g, ctx, d):
    def part():
        return expr(g, ctx, d, P_IFEXP) if chance(g, 0.6) else ''
    form = g['rng'].randint(0, 3)
    if form == 0:
        return part() + ':' + part()
    if form == 1:
        return part() + ':' + part() + ':' + part()
    if form == 2:
        return '::' + expr(g, ctx, 0, P_IFEXP)
    return expr(g, ctx, d, P_IFEXP) + ':' + expr(g, ctx, d, P_IFEXP)


def call(g, ctx, d):
    if chance(g, 0.7):
        func = pick(g, CALLEES)
    else:
        func = expr(g, ctx, d, P_ATOM)
        if func[0].isdigit() or func[0] == '.':
            func = '(' + func + ')'
    positional = []
    for _ in range(g['rng'].randint(0, 3)):
        if chance(g, 0.12):
            positional.append('*' + expr(g, ctx, d, P_BOR))
        else:
            positional.append(expr(g, ctx, d, P_LAMBDA if chance(g, 0.3) else P_IFEXP))
    keywords = []
    used = []
    seen_dstar = False
    for _ in range(g['rng'].randint(0, 2) if chance(g, 0.5) else 0):
        r = g['rng'].random()
        if r < 0.15:
            keywords.append('**' + expr(g, ctx, d, P_BOR))
            seen_dstar = True
        elif r < 0.22 and not seen_dstar:
            keywords.append('*' + expr(g, ctx, d, P_BOR))
        else:
            name = pick(g, ['dim', 'k', 'alpha', 'out', 'backend', 'key', 'reason', 'recursive'])
            if name in used:
                continue
            used.append(name)
            keywords.append(name + '=' + expr(g, ctx, d, P_IFEXP))
    args = positional + keywords
    if args and chance(g, 0.07):
        sep = ',\n' + ctx['indent'] + '        '
        return func + '(\n' + ctx['indent'] + '        ' + sep.join(args) + ',\n' + ctx['indent'] + ')'
    trailing = ',' if args and chance(g, 0.05) else ''
    return func + '(' + ', '.join(args) + trailing + ')'


def param_list(g, annotate, allow_posonly):
    """A parameter list obeying the rules: unique names, no default before a non-default,
    at least one keyword-only parameter after a bare '*'."""
    names = list(PARAM_NAMES)
    g['rng'].shuffle(names)
    parts = []
    used = []
    seen_default = False

    def one(kind):
        name = names.pop()
        used.append(name)
        text = name
        if annotate and chance(g, 0.35):
            text += ': ' + pick(g, ['int', 'float', 'torch.Tensor', "'T'", 'list[int]',
                                    'int | None', 'tuple[int, ...]', 'dict[str, int]'])
        return text

    def default(text):
        sep = ' = ' if ':' in text else '='
        return text + sep + pick(g, ['1', 'None', '0.5', "'x'", '()', '[]', 'True', '-1', '2 ** 3'])

    n_pos = g['rng'].randint(0, 3)
    n_posonly = g['rng'].randint(1, 2) if allow_posonly and chance(g, 0.18) else 0
    for idx in range(n_posonly + n_pos):
        text = one('pos')
        if seen_default or chance(g, 0.25):
            text = default(text)
            seen_default = True
        parts.append(text)
        if idx == n_posonly - 1:
            parts.append('/')
    star = g['rng'].random()
    n_kwonly = 0
    if star < 0.2:
        parts.append('*' + one('var'))
        n_kwonly = g['rng'].randint(0, 2)
    elif star < 0.35:
        parts.append('*')
        n_kwonly = g['rng'].randint(1, 2)
    for _ in range(n_kwonly):
        text = one('kw')
        if chance(g, 0.5):
            text = default(text)
        parts.append(text)
    if chance(g, 0.18):
        parts.append('**' + one('kwarg'))
    return (', '.join(parts), used)


def lambda_params(g):
    if chance(g, 0.35):
        return ''
    return param_list(g, False, True)[0]


def new_scope(parent):
    return {'locals': set(), 'params': set(), 'globals': set(), 'nonlocals': set(),
            'parent': parent}


def child_ctx(ctx, unit, **changes):
    new = dict(ctx)
    new['indent'] = ctx['indent'] + unit
    new['depth'] = ctx['depth'] + 1
    for key in changes:
        new[key] = changes[key]
    return new


# ----------------------------------------------------------------------------------
# Statements. Each returns a list of source lines (with the indentation of ctx).

def simple_statement(g, ctx):
    """One simple statement as text (it may span lines inside brackets or after '\\')."""
    kinds = [('assign', 10), ('augassign', 5), ('expr', 5), ('del', 1.5), ('pass', 1),
             ('assert', 1.5), ('raise', 1.2), ('import', 1.2)]
    if ctx['func'] is not None:
        kinds.append(('return', 3))
    if ctx['loop']:
        kinds.append(('break', 1.5))
        kinds.append(('continue', 1.5))
    kind = weighted(g, kinds)
    e = g['max_expr_depth']
    if kind == 'assign':
        return assign(g, ctx, e)
    if kind == 'augassign':
        return aug_target(g, ctx) + ' ' + pick(g, AUG_OPS) + ' ' + expr(g, ctx, e, P_LAMBDA)
    if kind == 'expr':
        r = g['rng'].random()
        if r < 0.6:
            return call(g, ctx, e - 1)
        if r < 0.7:
            return string_literal(g, ctx)
        return expr(g, ctx, e, P_LAMBDA)
    if kind == 'del':
        return 'del ' + del_targets(g, ctx)
    if kind == 'pass':
        return 'pass'
    if kind == 'assert':
        text = 'assert ' + expr(g, ctx, e, P_LAMBDA)
        if chance(g, 0.5):
            text += ', ' + pick(g, ["'message'", '"x must be positive"', 'msg', "'%d' % n"])
        return text
    if kind == 'raise':
        r = g['rng'].random()
        if r < 0.15:
            return 'raise'
        exc = pick(g, EXCEPTIONS)
        if chance(g, 0.5):
            exc += '(' + pick(g, ["'bad value'", 'x', '', '"graph break"']) + ')'
        if r < 0.5:
            return 'raise ' + exc + ' from ' + pick(g, ['e', 'None', 'err', 'exc.__cause__'])
        return 'raise ' + exc
    if kind == 'import':
        return import_statement(g, ctx)
    if kind == 'return':
        r = g['rng'].random()
        if r < 0.15:
            return 'return'
        if r < 0.3:
            return 'return ' + expr(g, ctx, e - 1, P_IFEXP) + ', ' + expr(g, ctx, e - 1, P_IFEXP)
        if r < 0.4:
            return 'return \\\n' + ctx['indent'] + '    ' + expr(g, ctx, e, P_LAMBDA)
        return 'return ' + expr(g, ctx, e, P_LAMBDA)
    return kind  # break / continue


def aug_target(g, ctx):
    r = g['rng'].random()
    if r < 0.7:
        return store_name(g, ctx)
    if r < 0.85:
        return load_name(g, ctx) + '.' + pick(g, ATTR_NAMES)
    return load_name(g, ctx) + '[' + subscript_slice(g, ctx, 1) + ']'


def target(g, ctx, allow_star):
    """An assignment target; returns (text, has_star)."""
    r = g['rng'].random()
    if r < 0.6:
        return (store_name(g, ctx), False)
    if r < 0.7:
        return (load_name(g, ctx) + '.' + pick(g, ATTR_NAMES), False)
    if r < 0.8:
        return (load_name(g, ctx) + '[' + subscript_slice(g, ctx, 1) + ']', False)
    names = [store_name(g, ctx) for _ in range(g['rng'].randint(2, 3))]
    star = allow_star and chance(g, 0.4)
    if star:
        idx = g['rng'].randint(0, len(names) - 1)
        names[idx] = '*' + names[idx]
    if chance(g, 0.2):
        names[-1] = '(' + names[-1] + ', ' + store_name(g, ctx) + ')'
    form = g['rng'].randint(0, 2)
    if form == 0:
        return (', '.join(names), star)
    if form == 1:
        return ('(' + ', '.join(names) + ')', star)
    return ('[' + ', '.join(names) + ']', star)


def assign(g, ctx, e):
    r = g['rng'].random()
    if r < 0.12:
        # Tuple unpacking of a tuple display without parentheses.
        left = store_name(g, ctx) + ', ' + store_name(g, ctx)
        return left + ' = ' + expr(g, ctx, e - 1, P_IFEXP) + ', ' + expr(g, ctx, e - 1, P_IFEXP)
    if r < 0.2:
        text, _ = target(g, ctx, True)
        return text + ' = ' + store_name(g, ctx) + ' = ' + expr(g, ctx, e, P_LAMBDA)
    if r < 0.26:
        return store_name(g, ctx) + ' = \\\n' + ctx['indent'] + '    ' + expr(g, ctx, e, P_LAMBDA)
    if r < 0.31:
        op, prec = pick(g, BINARY_OPS[:7])
        left = expr(g, ctx, e - 1, prec)
        right = expr(g, ctx, e - 1, prec + 1)
        return (store_name(g, ctx) + ' = ' + left + ' ' + op + ' \\\n' + ctx['indent'] + '        '
                + right)
    if r < 0.36:
        return store_name(g, ctx) + ' = ' + parens_expr(g, ctx, e)
    text, _ = target(g, ctx, True)
    return text + ' = ' + expr(g, ctx, e, P_LAMBDA)


def del_targets(g, ctx):
    def one():
        r = g['rng'].random()
        if r < 0.5:
            return load_name(g, ctx)
        if r < 0.75:
            return load_name(g, ctx) + '.' + pick(g, ATTR_NAMES)
        return load_name(g, ctx) + '[' + subscript_slice(g, ctx, 1) + ']'
    n = g['rng'].randint(1, 3)
    items = [one() for _ in range(n)]
    r = g['rng'].random()
    if n > 1 and r < 0.2:
        return '(' + ', '.join(items) + ')'
    if n > 1 and r < 0.35:
        return '[' + ', '.join(items) + ']'
    return ', '.join(items)


def import_statement(g, ctx):
    r = g['rng'].random()
    if r < 0.35:
        names = []
        for _ in range(g['rng'].randint(1, 2)):
            mod = pick(g, MODULES)
            if chance(g, 0.35):
                mod += ' as ' + pick(g, ['np', 'nn', 'F', 'o', 'mod'])
            names.append(mod)
        return 'import ' + ', '.join(names)
    level = ''
    if chance(g, 0.15):
        level = pick(g, ['.', '..', '. ', '...'])
    module = pick(g, MODULES)
    if level and chance(g, 0.4):
        module = ''
    if chance(g, 0.06) and ctx['func'] is None:
        return 'from ' + level + module + ' import *'
    names = []
    for _ in range(g['rng'].randint(1, 3)):
        name = pick(g, ['disable', 'compile', 'path', 'sqrt', 'reduce', 'Tensor', 'partial'])
        if chance(g, 0.35):
            name += ' as ' + pick(g, ['d', 'c', 'p', 'sq', 'T'])
        names.append(name)
    body = ', '.join(names)
    if chance(g, 0.25):
        body = '(' + body + (',' if chance(g, 0.5) else '') + ')'
    return 'from ' + level + module + ' import ' + body


def statement_line(g, ctx):
    """A line of simple statements: one, or several joined by semicolons."""
    stmts = [simple_statement(g, ctx)]
    if chance(g, 0.08):
        for _ in range(g['rng'].randint(1, 2)):
            stmts.append(simple_statement(g, ctx))
    text = '; '.join(stmts)
    if len(stmts) > 1 and chance(g, 0.3):
        text += ';'
    elif chance(g, 0.03):
        text += ';'
    if chance(g, 0.07):
        text += '  # ' + pick(g, ['note', 'TODO', 'graph break here', 'caf\u00e9 \u2192 ok'])
    return [ctx['indent'] + text]


def decoration_lines(g, ctx):
    """Comment lines and blank lines that may sit between statements."""
    lines = []
    if chance(g, 0.08):
        indent = ctx['indent'] if chance(g, 0.7) else pick(g, ['', ' ', ctx['indent'] + '   '])
        lines.append(indent + '# ' + pick(g, ['a comment', 'R-disable: skip', '\u00e9t\u00e9',
                                              'x = 1  # not code', '']))
    if chance(g, 0.06):
        lines.append(pick(g, ['', '', '   ', '\t']))
    return lines


def block(g, ctx, n_min, n_max):
    """The statements of a block (indentation already in ctx)."""
    lines = []
    for _ in range(g['rng'].randint(n_min, n_max)):
        lines.extend(decoration_lines(g, ctx))
        lines.extend(statement(g, ctx))
    return lines


def statement(g, ctx):
    if ctx['depth'] >= g['max_depth']:
        return statement_line(g, ctx)
    kinds = [('simple', 12), ('if', 2), ('for', 1.6), ('while', 1), ('with', 1.2), ('try', 1.2),
             ('def', 1.8 if ctx['depth'] < 2 else 0.6)]
    kind = weighted(g, kinds)
    if kind == 'simple':
        return statement_line(g, ctx)
    if kind == 'if':
        return if_statement(g, ctx)
    if kind == 'for':
        return for_statement(g, ctx)
    if kind == 'while':
        return while_statement(g, ctx)
    if kind == 'with':
        return with_statement(g, ctx)
    if kind == 'try':
        return try_statement(g, ctx)
    return def_statement(g, ctx)


def suite(g, header, ctx, body_ctx_changes, n_min, n_max):
    """`header:` followed by an indented block, or (sometimes) an inline suite."""
    unit = pick(g, INDENT_UNITS) if chance(g, 0.15) else g['unit']
    inner = child_ctx(ctx, unit, **body_ctx_changes)
    if chance(g, 0.08):
        stmts = [simple_statement(g, inner)]
        if chance(g, 0.4):
            stmts.append(simple_statement(g, inner))
        if '\n' not in stmts[0]:
            return [ctx['indent'] + header + ': ' + '; '.join(stmts)]
        # A statement spanning lines cannot open an inline suite; keep it (the names it
        # binds are already recorded) as the first line of an indented block.
        return [ctx['indent'] + header + ':'] + [inner['indent'] + s for s in stmts]
    head = ctx['indent'] + header + ':'
    if chance(g, 0.05):
        head += '  # ' + pick(g, ['header comment', 'loop'])
    return [head] + block(g, inner, n_min, n_max)


def if_statement(g, ctx):
    lines = suite(g, 'if ' + expr(g, ctx, 2, P_IFEXP), ctx, {}, 1, 3)
    for _ in range(g['rng'].randint(0, 2) if chance(g, 0.5) else 0):
        lines += suite(g, 'elif ' + expr(g, ctx, 2, P_IFEXP), ctx, {}, 1, 2)
    if chance(g, 0.45):
        lines += suite(g, 'else', ctx, {}, 1, 2)
    return lines


def for_statement(g, ctx):
    r = g['rng'].random()
    if r < 0.3:
        args = pick(g, ['3', 'n', '0, 10', '1, 10, 2', 'len(xs)', '10 - 1, -1, -1'])
        it = 'range(' + args + ')'
    elif r < 0.5:
        it = '[' + ', '.join([constant(g, ctx) for _ in range(g['rng'].randint(0, 4))]) + ']'
    elif r < 0.7:
        n = g['rng'].randint(0, 3)
        items = [expr(g, ctx, 1, P_IFEXP) for _ in range(n)]
        it = '(' + ', '.join(items) + (',' if n == 1 else '') + ')'
        if n >= 2 and chance(g, 0.3):
            it = ', '.join(items)
    else:
        it = expr(g, ctx, 2, P_LAMBDA)
    tgt, _ = target(g, ctx, True)
    lines = suite(g, 'for ' + tgt + ' in ' + it, ctx, {'loop': True}, 1, 3)
    if chance(g, 0.2):
        lines += suite(g, 'else', ctx, {}, 1, 2)
    return lines


def while_statement(g, ctx):
    test = pick(g, ['True', 'n > 0', 'i < 10', 'not done', 'x', 'a and b', '1']) if chance(g, 0.6) \
        else expr(g, ctx, 2, P_IFEXP)
    lines = suite(g, 'while ' + test, ctx, {'loop': True}, 1, 3)
    if chance(g, 0.25):
        lines += suite(g, 'else', ctx, {}, 1, 2)
    return lines


def with_item(g, ctx, allow_as):
    item = pick(g, ['torch.no_grad()', 'open(path)', 'lock', 'ctx', 'torch.enable_grad()',
                    'cm(1, 2)']) if chance(g, 0.6) else expr(g, ctx, 1, P_IFEXP)
    if allow_as and chance(g, 0.5):
        tgt, _ = target(g, ctx, True)
        if ',' in tgt and tgt[0] not in '([':
            tgt = '(' + tgt + ')'
        item += ' as ' + tgt
    return item


def with_statement(g, ctx):
    n = g['rng'].randint(1, 3)
    items = [with_item(g, ctx, True) for _ in range(n)]
    if chance(g, 0.3):
        sep = ', '
        if chance(g, 0.3):
            sep = ',\n' + ctx['indent'] + '      '
        header = 'with (' + sep.join(items) + (',' if chance(g, 0.2) else '') + ')'
    else:
        header = 'with ' + ', '.join(items)
    return suite(g, header, ctx, {}, 1, 3)


def try_statement(g, ctx):
    lines = suite(g, 'try', ctx, {}, 1, 3)
    n = g['rng'].randint(0, 3)
    has_bare = False
    for idx in range(n):
        r = g['rng'].random()
        if r < 0.2 and idx == n - 1:
            header = 'except'
            has_bare = True
        elif r < 0.45:
            header = 'except (' + pick(g, EXCEPTIONS) + ', ' + pick(g, EXCEPTIONS) + ')'
        else:
            header = 'except ' + pick(g, EXCEPTIONS)
        if not has_bare and chance(g, 0.5):
            name = pick(g, ['e', 'err', 'exc'])
            if ctx['func'] is not None:
                ctx['func']['locals'].add(name)
            header += ' as ' + name
        lines += suite(g, header, ctx, {}, 1, 2)
    if n > 0 and chance(g, 0.3):
        lines += suite(g, 'else', ctx, {}, 1, 2)
    if n == 0 or chance(g, 0.35):
        lines += suite(g, 'finally', ctx, {}, 1, 2)
    return lines


def def_statement(g, ctx):
    lines = []
    for _ in range(g['rng'].randint(0, 2) if chance(g, 0.5) else 0):
        r = g['rng'].random()
        if r < 0.45:
            deco = pick(g, DECORATORS_BARE)
        elif r < 0.95:
            deco = pick(g, DECORATORS_CALLED)
        else:
            deco = pick(g, ['decos[0]', 'a.b.c', '(lambda fn: fn)'])
        lines.append(ctx['indent'] + '@' + deco)
    name = pick(g, FUNC_NAMES)
    outer = ctx['func']
    if outer is not None:
        outer['locals'].add(name)
    params, used = param_list(g, True, True)
    header = 'def ' + name + '(' + params + ')'
    if chance(g, 0.3):
        header += ' -> ' + pick(g, ['int', 'None', 'torch.Tensor', "'Result'", 'tuple[int, int]',
                                    'list'])
    scope = new_scope(outer)
    scope['params'] = set(used)
    unit = pick(g, INDENT_UNITS) if chance(g, 0.15) else g['unit']
    inner = child_ctx(ctx, unit, func=scope, loop=False)
    if chance(g, 0.06):
        stmt = simple_statement(g, inner)
        if '\n' in stmt:
            return lines + [ctx['indent'] + header + ':', inner['indent'] + stmt]
        return lines + [ctx['indent'] + header + ': ' + stmt]
    body = []
    if chance(g, 0.2):
        body.append(inner['indent'] + pick(g, ['"""Docstring."""', "'''Two\n" + inner['indent']
                                               + "lines.'''", '"one line"']))
    if chance(g, 0.2):
        names = g['rng'].sample(GLOBAL_NAMES, g['rng'].randint(1, 2))
        scope['globals'].update(names)
        body.append(inner['indent'] + 'global ' + ', '.join(names))
        body.append(inner['indent'] + names[0] + ' ' + pick(g, AUG_OPS) + ' 1')
    if outer is not None:
        candidates = sorted((outer['locals'] | outer['params']) - used_set(used)
                            - outer['globals'] - outer['nonlocals'] - scope['globals'])
        if candidates and chance(g, 0.5):
            names = g['rng'].sample(candidates, min(len(candidates), g['rng'].randint(1, 2)))
            scope['nonlocals'].update(names)
            body.append(inner['indent'] + 'nonlocal ' + ', '.join(names))
            body.append(inner['indent'] + names[0] + ' = ' + expr(g, inner, 1, P_LAMBDA))
        elif candidates:
            # A closure: read a variable of the enclosing function.
            body.append(inner['indent'] + 'return ' + pick(g, candidates) + ' + '
                        + expr(g, inner, 1, P_ARITH + 1))
            return lines + [ctx['indent'] + header + ':'] + block(g, inner, 0, 2) + body
    body += block(g, inner, 1, 4)
    if chance(g, 0.5):
        body.append(inner['indent'] + 'return ' + expr(g, inner, 2, P_LAMBDA))
    return lines + [ctx['indent'] + header + ':'] + body


def used_set(names):
    return set(names)


def program(g):
    ctx = {'indent': '', 'func': None, 'loop': False, 'depth': 0}
    lines = []
    if chance(g, 0.3):
        lines.append('# ' + pick(g, ['tdc: profiles all', 'generated program', 'coding: utf-8']))
    if chance(g, 0.2):
        lines.append(pick(g, ['"""Module docstring."""', "'''A generated\nprogram.'''"]))
    if chance(g, 0.6):
        lines.append(import_statement(g, ctx))
    lines += block(g, ctx, 3, 9)
    newline = '\r\n' if chance(g, 0.03) else '\n'
    text = newline.join(lines).replace('\r\n', '\n')
    if newline != '\n':
        text = text.replace('\n', '\r\n')
    if not chance(g, 0.04):
        text += newline
    return text


def check_program(text, name):
    """Assert the contract: CPython accepts it and it lies in the subset."""
    data = text.encode('utf-8')
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        tree = ast.parse(data, name)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        compile(data, name, 'exec')
    found = subset_nodes.first_unsupported(tree, data)
    assert found is None, '%s: outside the subset: %r' % (name, found)
    return tree


def generate(seed, count):
    """[(file name, source text)] for `count` programs from `seed`."""
    rng = random.Random(seed)
    result = []
    for idx in range(count):
        g = {'rng': random.Random(rng.getrandbits(64)), 'max_depth': 3, 'max_expr_depth': 3,
             'unit': pick({'rng': rng}, INDENT_UNITS)}
        g['max_depth'] = g['rng'].randint(2, 4)
        g['max_expr_depth'] = g['rng'].randint(2, 4)
        name = 'gen_%04d.py' % idx
        text = program(g)
        try:
            check_program(text, name)
        except SyntaxError as e:
            raise AssertionError('generated %s (seed %d) is rejected by CPython: %s\n%s'
                                 % (name, seed, e, text))
        result.append((name, text))
    return result


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--out', help='directory to write gen_NNNN.py into')
    parser.add_argument('--count', type=int, default=300)
    parser.add_argument('--seed', type=int, default=20250)
    parser.add_argument('--stats', action='store_true', help='print construct coverage')
    parser.add_argument('--min', type=int, default=5, help='least occurrences per construct')
    args = parser.parse_args(argv)
    programs = generate(args.seed, args.count)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        for name, text in programs:
            with open(os.path.join(args.out, name), 'wb') as f:
                f.write(text.encode('utf-8'))
    if args.stats:
        table, low = subset_coverage.coverage_table([text for _, text in programs], args.min)
        print(table)
        print('%d programs, %d constructs, %d below %d'
              % (len(programs), len(subset_coverage.CONSTRUCTS), len(low), args.min))
        if low:
            print('FAIL: too few occurrences of: %s' % ', '.join(low))
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
