"""Write the expected diagnostic of error fixtures, as CPython 3.11 states it.

    make_error_diag.py FILE.py...

For each FILE.py writes FILE.diag holding one line, `LINE:COL: error: MESSAGE` (the form
of `tdref check` without the file name): the SyntaxError that ast.parse raises (lineno,
offset, msg), or else the first node outside the subset in ast.walk order
(subset_nodes.first_unsupported), or else the SyntaxError that compile() raises. Refuses a file that is a valid program of the subset.
Expected diagnostics are produced by running CPython, never typed by hand.
Written in the subset itself.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import subset_nodes  # noqa: E402


def main(argv):
    if not argv:
        print('usage: make_error_diag.py FILE.py...')
        return 2
    status = 0
    for path in argv:
        with open(path, 'rb') as f:
            diag = subset_nodes.cpython_diagnostic(f.read())
        if diag is None:
            print('%s: CPython accepts it and it lies in the subset; not an error fixture' % path)
            status = 1
            continue
        out = os.path.splitext(path)[0] + '.diag'
        with open(out, 'w', encoding='utf-8', newline='\n') as f:
            f.write(diag + '\n')
        print('%s: %s' % (out, diag))
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
