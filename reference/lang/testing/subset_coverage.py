"""Construct coverage of programs in the tdconform subset, read from the programs.

count_constructs(text) re-reads one program (ast, tokenize, symtable) and counts the
constructs of issue 2 item 4 it contains; coverage_table summarises a set. It knows
nothing of how gen_subset_programs.py makes its choices, so the coverage it reports is
what the programs hold. Written in the subset itself.
"""

import ast
import io
import re
import symtable
import tokenize

# Soft keywords (and `_`), valid as plain names.
SOFT_KEYWORD_NAMES = ['match', 'case', '_', 'type']

CONSTRUCTS = [
    'import', 'import_as', 'import_dotted', 'from_import', 'from_import_as',
    'from_import_relative', 'from_import_star', 'from_import_parens',
    'def', 'decorator_bare', 'decorator_called', 'param_default', 'kwonly_param',
    'kwonly_default', 'bare_star', 'vararg', 'kwarg', 'posonly', 'param_annotation',
    'return_annotation', 'nested_def', 'closure', 'docstring', 'lambda', 'lambda_params',
    'return_value', 'return_bare', 'return_tuple',
    'assign', 'assign_chained', 'assign_unpack', 'assign_starred', 'assign_nested_unpack',
    'assign_attribute', 'assign_subscript',
    'augassign_Add', 'augassign_Sub', 'augassign_Mult', 'augassign_MatMult', 'augassign_Div',
    'augassign_Mod', 'augassign_Pow', 'augassign_LShift', 'augassign_RShift',
    'augassign_BitOr', 'augassign_BitXor', 'augassign_BitAnd', 'augassign_FloorDiv',
    'augassign_attribute', 'augassign_subscript',
    'del', 'del_multi', 'del_attribute', 'del_subscript',
    'if', 'elif', 'if_else', 'for', 'for_range', 'for_list', 'for_tuple', 'for_unpack',
    'for_else', 'while', 'while_else', 'break', 'continue',
    'with', 'with_multi', 'with_as', 'with_parenthesised', 'with_as_tuple',
    'try', 'except_bare', 'except_as', 'except_tuple', 'try_else', 'try_finally',
    'raise', 'raise_from', 'raise_bare', 'assert', 'assert_msg', 'pass', 'global', 'nonlocal',
    'name', 'soft_keyword_name', 'attribute', 'call', 'call_keyword', 'call_star',
    'call_dstar', 'call_multiline',
    'binop_Add', 'binop_Sub', 'binop_Mult', 'binop_MatMult', 'binop_Div', 'binop_Mod',
    'binop_Pow', 'binop_LShift', 'binop_RShift', 'binop_BitOr', 'binop_BitXor',
    'binop_BitAnd', 'binop_FloorDiv',
    'compare_Eq', 'compare_NotEq', 'compare_Lt', 'compare_LtE', 'compare_Gt', 'compare_GtE',
    'compare_Is', 'compare_IsNot', 'compare_In', 'compare_NotIn', 'compare_chained',
    'and', 'or', 'not', 'unary_minus', 'unary_plus', 'invert', 'power_unary_assoc',
    'precedence_mix', 'ifexp',
    'int_decimal', 'int_hex', 'int_octal', 'int_binary', 'int_underscore', 'int_big',
    'float_exponent', 'float_trailing_dot', 'float_leading_dot', 'float_negative_exponent',
    'float_repr_exponent', 'float_inf', 'imaginary',
    'str_single_quote', 'str_double_quote', 'str_triple_single', 'str_triple_double',
    'escape_newline', 'escape_tab', 'escape_backslash', 'escape_quote', 'escape_hex',
    'escape_unicode', 'escape_octal', 'escape_line_continuation', 'raw_string', 'u_prefix',
    'str_both_quotes', 'str_non_ascii', 'implicit_concat', 'implicit_concat_multiline',
    'bytes', 'True', 'False', 'None', 'Ellipsis',
    'tuple', 'tuple_single', 'tuple_empty', 'list', 'list_empty', 'dict', 'dict_empty',
    'dict_unpack', 'starred_display',
    'subscript', 'slice', 'slice_step', 'slice_extended', 'subscript_ellipsis',
    'listcomp', 'listcomp_multi_for', 'listcomp_if', 'listcomp_unpack',
    'comment', 'blank_line', 'backslash_continuation', 'semicolon', 'inline_suite',
    'deep_parens', 'tab_indent', 'crlf', 'no_final_newline', 'non_ascii_col_offset',
]

PRECEDENCE_CLASS = {
    'BitOr': 1, 'BitXor': 2, 'BitAnd': 3, 'LShift': 4, 'RShift': 4, 'Add': 5, 'Sub': 5,
    'Mult': 6, 'MatMult': 6, 'Div': 6, 'Mod': 6, 'FloorDiv': 6, 'Pow': 7,
}
SIMPLE_ESCAPES = {'n': 'escape_newline', 't': 'escape_tab', '\\': 'escape_backslash',
                  "'": 'escape_quote', '"': 'escape_quote', 'x': 'escape_hex',
                  'u': 'escape_unicode', 'U': 'escape_unicode', '\n': 'escape_line_continuation'}


def bump(counts, key, n=1):
    counts[key] = counts.get(key, 0) + n


def count_constructs(text):
    """{construct: occurrences} for one program, read from its AST, tokens and symtable."""
    counts = {}
    data = text.encode('utf-8')
    tree = ast.parse(data)
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    norm = text.replace('\r\n', '\n')
    lines = norm.split('\n')
    for node in ast.walk(tree):
        count_node(node, parents, lines, counts)
    count_tokens(data, counts)
    table = symtable.symtable(norm, 'prog', 'exec')
    pending = list(table.get_children())
    while pending:
        t = pending.pop()
        pending.extend(t.get_children())
        if t.get_type() == 'function' and t.get_name() not in ['lambda', 'listcomp'] \
                and t.get_frees():
            bump(counts, 'closure')
    if '\r\n' in text:
        bump(counts, 'crlf')
    if not text.endswith('\n'):
        bump(counts, 'no_final_newline')
    return counts


def source_at(lines, lineno, col):
    """The text of line `lineno` from byte offset `col` on."""
    return lines[lineno - 1].encode('utf-8')[col:].decode('utf-8', errors='replace')


def count_node(node, parents, lines, counts):
    kind = type(node).__name__
    parent = parents.get(id(node))
    if hasattr(node, 'col_offset') and hasattr(node, 'lineno'):
        before = lines[node.lineno - 1].encode('utf-8')[:node.col_offset]
        if [b for b in before if b > 127]:
            bump(counts, 'non_ascii_col_offset')
    if kind == 'Import':
        bump(counts, 'import')
        for alias in node.names:
            if alias.asname:
                bump(counts, 'import_as')
            if '.' in alias.name:
                bump(counts, 'import_dotted')
    elif kind == 'ImportFrom':
        bump(counts, 'from_import')
        if node.level:
            bump(counts, 'from_import_relative')
        if [a for a in node.names if a.asname]:
            bump(counts, 'from_import_as')
        if node.names[0].name == '*':
            bump(counts, 'from_import_star')
        if '(' in source_at(lines, node.lineno, node.col_offset).split('import', 1)[-1][:3]:
            bump(counts, 'from_import_parens')
    elif kind == 'FunctionDef':
        bump(counts, 'def')
        for deco in node.decorator_list:
            if isinstance(deco, ast.Call):
                bump(counts, 'decorator_called')
            elif isinstance(deco, (ast.Name, ast.Attribute)):
                bump(counts, 'decorator_bare')
        args = node.args
        if args.defaults:
            bump(counts, 'param_default')
        if args.kwonlyargs:
            bump(counts, 'kwonly_param')
            if args.vararg is None:
                bump(counts, 'bare_star')
        if [d for d in args.kw_defaults if d is not None]:
            bump(counts, 'kwonly_default')
        if args.vararg:
            bump(counts, 'vararg')
        if args.kwarg:
            bump(counts, 'kwarg')
        if args.posonlyargs:
            bump(counts, 'posonly')
        every = args.posonlyargs + args.args + args.kwonlyargs + [a for a in [args.vararg, args.kwarg] if a]
        if [a for a in every if a.annotation is not None]:
            bump(counts, 'param_annotation')
        if node.returns is not None:
            bump(counts, 'return_annotation')
        up = parents.get(id(node))
        while up is not None:
            if isinstance(up, ast.FunctionDef):
                bump(counts, 'nested_def')
                break
            up = parents.get(id(up))
        first = node.body[0]
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                and isinstance(first.value.value, str):
            bump(counts, 'docstring')
        count_inline(node, lines, counts)
    elif kind == 'Lambda':
        bump(counts, 'lambda')
        a = node.args
        if a.defaults or a.kwonlyargs or a.vararg or a.kwarg or a.posonlyargs:
            bump(counts, 'lambda_params')
    elif kind == 'Return':
        if node.value is None:
            bump(counts, 'return_bare')
        else:
            bump(counts, 'return_value')
            if isinstance(node.value, ast.Tuple):
                bump(counts, 'return_tuple')
    elif kind == 'Assign':
        bump(counts, 'assign')
        if len(node.targets) > 1:
            bump(counts, 'assign_chained')
        for t in node.targets:
            if isinstance(t, (ast.Tuple, ast.List)):
                bump(counts, 'assign_unpack')
                if [e for e in t.elts if isinstance(e, ast.Starred)]:
                    bump(counts, 'assign_starred')
                if [e for e in t.elts if isinstance(e, (ast.Tuple, ast.List))]:
                    bump(counts, 'assign_nested_unpack')
            elif isinstance(t, ast.Attribute):
                bump(counts, 'assign_attribute')
            elif isinstance(t, ast.Subscript):
                bump(counts, 'assign_subscript')
    elif kind == 'AugAssign':
        bump(counts, 'augassign_' + type(node.op).__name__)
        if isinstance(node.target, ast.Attribute):
            bump(counts, 'augassign_attribute')
        if isinstance(node.target, ast.Subscript):
            bump(counts, 'augassign_subscript')
    elif kind == 'Delete':
        bump(counts, 'del')
        if len(node.targets) > 1 or isinstance(node.targets[0], (ast.Tuple, ast.List)):
            bump(counts, 'del_multi')
        for t in node.targets:
            if isinstance(t, ast.Attribute):
                bump(counts, 'del_attribute')
            if isinstance(t, ast.Subscript):
                bump(counts, 'del_subscript')
    elif kind == 'If':
        if source_at(lines, node.lineno, node.col_offset).startswith('elif'):
            bump(counts, 'elif')
        else:
            bump(counts, 'if')
        if node.orelse and not (len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If)
                                and source_at(lines, node.orelse[0].lineno,
                                              node.orelse[0].col_offset).startswith('elif')):
            bump(counts, 'if_else')
        count_inline(node, lines, counts)
    elif kind == 'For':
        bump(counts, 'for')
        it = node.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == 'range':
            bump(counts, 'for_range')
        if isinstance(it, ast.List):
            bump(counts, 'for_list')
        if isinstance(it, ast.Tuple):
            bump(counts, 'for_tuple')
        if isinstance(node.target, (ast.Tuple, ast.List)):
            bump(counts, 'for_unpack')
        if node.orelse:
            bump(counts, 'for_else')
        count_inline(node, lines, counts)
    elif kind == 'While':
        bump(counts, 'while')
        if node.orelse:
            bump(counts, 'while_else')
        count_inline(node, lines, counts)
    elif kind in ['Break', 'Continue', 'Pass', 'Global', 'Nonlocal']:
        bump(counts, kind.lower())
    elif kind == 'With':
        bump(counts, 'with')
        if len(node.items) > 1:
            bump(counts, 'with_multi')
        if [i for i in node.items if i.optional_vars is not None]:
            bump(counts, 'with_as')
        if [i for i in node.items if isinstance(i.optional_vars, (ast.Tuple, ast.List))]:
            bump(counts, 'with_as_tuple')
        head = source_at(lines, node.lineno, node.col_offset)[4:].lstrip()
        first = node.items[0].context_expr
        if head.startswith('(') and (len(node.items) > 1 or node.items[0].optional_vars is not None) \
                and not (first.lineno == node.lineno and
                         source_at(lines, first.lineno, first.col_offset) == head):
            last = node.items[-1]
            end = last.optional_vars if last.optional_vars is not None else last.context_expr
            rest = source_at(lines, end.end_lineno, end.end_col_offset).lstrip(' ,\t')
            if rest.startswith(')') or rest == '':
                bump(counts, 'with_parenthesised')
        count_inline(node, lines, counts)
    elif kind == 'Try':
        bump(counts, 'try')
        for h in node.handlers:
            if h.type is None:
                bump(counts, 'except_bare')
            if h.name:
                bump(counts, 'except_as')
            if isinstance(h.type, ast.Tuple):
                bump(counts, 'except_tuple')
        if node.orelse:
            bump(counts, 'try_else')
        if node.finalbody:
            bump(counts, 'try_finally')
    elif kind == 'Raise':
        bump(counts, 'raise')
        if node.cause is not None:
            bump(counts, 'raise_from')
        if node.exc is None:
            bump(counts, 'raise_bare')
    elif kind == 'Assert':
        bump(counts, 'assert')
        if node.msg is not None:
            bump(counts, 'assert_msg')
    elif kind == 'Name':
        bump(counts, 'name')
        if node.id in SOFT_KEYWORD_NAMES:
            bump(counts, 'soft_keyword_name')
    elif kind == 'Attribute':
        bump(counts, 'attribute')
    elif kind == 'Call':
        bump(counts, 'call')
        if [k for k in node.keywords if k.arg is not None]:
            bump(counts, 'call_keyword')
        if [k for k in node.keywords if k.arg is None]:
            bump(counts, 'call_dstar')
        if [a for a in node.args if isinstance(a, ast.Starred)]:
            bump(counts, 'call_star')
        if node.end_lineno > node.lineno + 1:
            bump(counts, 'call_multiline')
    elif kind == 'BinOp':
        op = type(node.op).__name__
        bump(counts, 'binop_' + op)
        for child in [node.left, node.right]:
            if isinstance(child, ast.BinOp) and \
                    PRECEDENCE_CLASS[type(child.op).__name__] != PRECEDENCE_CLASS[op]:
                bump(counts, 'precedence_mix')
    elif kind == 'Compare':
        for op in node.ops:
            bump(counts, 'compare_' + type(op).__name__)
        if len(node.ops) > 1:
            bump(counts, 'compare_chained')
    elif kind == 'BoolOp':
        bump(counts, 'and' if isinstance(node.op, ast.And) else 'or')
    elif kind == 'UnaryOp':
        name = {'Not': 'not', 'USub': 'unary_minus', 'UAdd': 'unary_plus', 'Invert': 'invert'}
        bump(counts, name[type(node.op).__name__])
        inner = node.operand
        if isinstance(inner, ast.BinOp) and isinstance(inner.op, ast.Pow) \
                and isinstance(inner.right, ast.UnaryOp) and not isinstance(inner.right.op, ast.Not):
            bump(counts, 'power_unary_assoc')
    elif kind == 'IfExp':
        bump(counts, 'ifexp')
    elif kind == 'Constant':
        count_constant(node, counts)
    elif kind in ['Tuple', 'List'] and isinstance(node.ctx, ast.Load):
        key = kind.lower()
        if not (isinstance(parent, ast.Subscript) and parent.slice is node):
            bump(counts, key)
        if kind == 'Tuple' and len(node.elts) == 1:
            bump(counts, 'tuple_single')
        if not node.elts:
            bump(counts, key + '_empty')
        if [e for e in node.elts if isinstance(e, ast.Starred)]:
            bump(counts, 'starred_display')
    elif kind == 'Dict':
        bump(counts, 'dict')
        if not node.keys:
            bump(counts, 'dict_empty')
        if [k for k in node.keys if k is None]:
            bump(counts, 'dict_unpack')
    elif kind == 'Subscript':
        bump(counts, 'subscript')
        s = node.slice
        if isinstance(s, ast.Tuple) and [e for e in s.elts if isinstance(e, ast.Slice)]:
            bump(counts, 'slice_extended')
        if isinstance(s, ast.Constant) and s.value is Ellipsis:
            bump(counts, 'subscript_ellipsis')
    elif kind == 'Slice':
        bump(counts, 'slice')
        if node.step is not None:
            bump(counts, 'slice_step')
    elif kind == 'ListComp':
        bump(counts, 'listcomp')
        if len(node.generators) > 1:
            bump(counts, 'listcomp_multi_for')
        if [c for c in node.generators if c.ifs]:
            bump(counts, 'listcomp_if')
        if [c for c in node.generators if isinstance(c.target, ast.Tuple)]:
            bump(counts, 'listcomp_unpack')


def count_inline(node, lines, counts):
    if node.body[0].lineno == node.lineno:
        bump(counts, 'inline_suite')


def count_constant(node, counts):
    value = node.value
    if value is True or value is False or value is None:
        bump(counts, repr(value))
    elif value is Ellipsis:
        bump(counts, 'Ellipsis')
    elif isinstance(value, int):
        if abs(value) > 2 ** 64:
            bump(counts, 'int_big')
    elif isinstance(value, float):
        if value in [float('inf'), float('-inf')]:
            bump(counts, 'float_inf')
        elif 'e' in repr(value):
            bump(counts, 'float_repr_exponent')
    elif isinstance(value, str):
        if "'" in value and '"' in value:
            bump(counts, 'str_both_quotes')
        if [ch for ch in value if ord(ch) > 127]:
            bump(counts, 'str_non_ascii')
        if node.kind == 'u':
            bump(counts, 'u_prefix')


def count_tokens(data, counts):
    previous = []
    open_run = 0
    for tok in tokenize.tokenize(io.BytesIO(data).readline):
        kind = tok.type
        text = tok.string
        if kind == tokenize.OP and text == '(':
            open_run += 1
            if open_run == 3:
                bump(counts, 'deep_parens')
        else:
            open_run = 0
        if kind == tokenize.COMMENT:
            bump(counts, 'comment')
        elif kind == tokenize.NL and tok.line.strip() == '':
            bump(counts, 'blank_line')
        elif kind == tokenize.OP and text == ';':
            bump(counts, 'semicolon')
        elif kind == tokenize.INDENT and '\t' in text:
            bump(counts, 'tab_indent')
        elif kind == tokenize.NUMBER:
            count_number(text, counts)
        elif kind == tokenize.STRING:
            count_string(text, counts)
            if previous and previous[0] == tokenize.STRING:
                bump(counts, 'implicit_concat')
                if previous[1] != tok.start[0]:
                    bump(counts, 'implicit_concat_multiline')
        if kind not in [tokenize.NL, tokenize.COMMENT]:
            previous = [kind, tok.end[0]]
    for line in data.decode('utf-8').replace('\r\n', '\n').split('\n'):
        stripped = line.rstrip()
        if stripped.endswith('\\') and not stripped.lstrip().startswith('#'):
            bump(counts, 'backslash_continuation')
    # A backslash-newline inside a string literal is counted by count_string instead.
    n_in_strings = counts.get('escape_line_continuation', 0)
    if n_in_strings:
        bump(counts, 'backslash_continuation', -min(n_in_strings, counts.get('backslash_continuation', 0)))


def count_number(text, counts):
    low = text.lower()
    if low.endswith('j'):
        bump(counts, 'imaginary')
        return
    if low.startswith('0x'):
        bump(counts, 'int_hex')
    elif low.startswith('0o'):
        bump(counts, 'int_octal')
    elif low.startswith('0b'):
        bump(counts, 'int_binary')
    elif re.match(r'^[0-9_]+$', low):
        bump(counts, 'int_decimal')
    else:
        if 'e' in low:
            bump(counts, 'float_exponent')
            if 'e-' in low:
                bump(counts, 'float_negative_exponent')
        if re.match(r'^[0-9_]+\.$', low) or re.match(r'^[0-9_]+\.e', low):
            bump(counts, 'float_trailing_dot')
        if low.startswith('.'):
            bump(counts, 'float_leading_dot')
    if '_' in low:
        bump(counts, 'int_underscore' if re.match(r'^[0-9a-fox_]+$', low) and '.' not in low else 'float_underscore')


def count_string(text, counts):
    m = re.match(r'^([A-Za-z]*)', text)
    prefix = m.group(1).lower()
    body = text[len(prefix):]
    if body.startswith("'''"):
        bump(counts, 'str_triple_single')
        body = body[3:-3]
    elif body.startswith('"""'):
        bump(counts, 'str_triple_double')
        body = body[3:-3]
    elif body.startswith("'"):
        bump(counts, 'str_single_quote')
        body = body[1:-1]
    else:
        bump(counts, 'str_double_quote')
        body = body[1:-1]
    if 'b' in prefix:
        bump(counts, 'bytes')
    if 'r' in prefix:
        bump(counts, 'raw_string')
        return
    idx = 0
    while idx < len(body):
        if body[idx] == '\\' and idx + 1 < len(body):
            ch = body[idx + 1]
            if ch in SIMPLE_ESCAPES:
                bump(counts, SIMPLE_ESCAPES[ch])
            elif ch in '01234567':
                bump(counts, 'escape_octal')
            idx += 2
        else:
            idx += 1


def merge(total, counts, programs):
    for key in counts:
        bump(total, key, counts[key])
        bump(programs, key)


def coverage_table(sources, minimum):
    """(table text, [constructs below minimum])."""
    total = {}
    programs = {}
    for text in sources:
        merge(total, count_constructs(text), programs)
    rows = ['%-28s %11s %9s' % ('construct', 'occurrences', 'programs')]
    low = []
    for key in CONSTRUCTS:
        n = total.get(key, 0)
        mark = '' if n >= minimum else '   < %d' % minimum
        rows.append('%-28s %11d %9d%s' % (key, n, programs.get(key, 0), mark))
        if n < minimum:
            low.append(key)
    return ('\n'.join(rows), low)
