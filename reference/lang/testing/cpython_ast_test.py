"""The front end graded against CPython: `tdref dump-ast FILE` must print, byte for byte,
ast.dump(ast.parse(source), include_attributes=True) followed by a newline.

    cpython_ast_test.py --tdref PATH [--generated N] [--seed S] [--keep DIR] FILES/DIRS...

Directories are searched recursively for .py files. A file with a .diag sidecar (an
expected-error fixture, see fixtures/errors) is skipped, and so is any fixtures/errors
folder. A file that CPython rejects fails. A valid file outside the subset (the oracle's
own Python, which needs classes) cannot be dumped by tdref; for it, tdref must instead
report the same first unsupported construct, at the same place, as CPython's tree shows
(subset_nodes.first_unsupported). N generated programs
(gen_subset_programs.py) are written into a temporary folder and checked the same way;
--keep DIR copies the failing ones there.

Ends with `N passed, M failed`; exits 1 when a file failed or when there was nothing to
check. Written in the subset itself.
"""

import argparse
import ast
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_subset_programs  # noqa: E402
import subset_nodes  # noqa: E402

SKIP_DIRS = ['__pycache__', '.git', '.venv', 'node_modules']
CONTEXT = 40


def is_error_fixture_dir(path):
    parts = os.path.normpath(path).split(os.sep)
    return len(parts) >= 2 and parts[-1] == 'errors' and parts[-2] == 'fixtures'


def has_sidecar(path):
    return os.path.exists(os.path.splitext(path)[0] + '.diag')


def collect(paths):
    """The .py files to check, in a stable order."""
    files = []
    for path in paths:
        if os.path.isfile(path):
            files.append(path)
            continue
        if not os.path.isdir(path):
            raise SystemExit('no such file or directory: %s' % path)
        for root, dirs, names in os.walk(path):
            dirs[:] = sorted([d for d in dirs if d not in SKIP_DIRS and not d.startswith('.')
                              and not is_error_fixture_dir(os.path.join(root, d))])
            for name in sorted(names):
                full = os.path.join(root, name)
                if name.endswith('.py') and not has_sidecar(full):
                    files.append(full)
    return files


def expected_dump(data):
    """(expected stdout bytes, None, None), (None, expected stderr diagnostic without the
    file name, None) for a valid program outside the subset, or (None, None, why the
    file cannot be checked)."""
    try:
        tree = subset_nodes.parse_quietly(data)
    except SyntaxError as e:
        return (None, None, 'CPython rejects it (%s:%s: %s); an invalid program belongs in '
                'fixtures/errors with a .diag' % (e.lineno, e.offset, e.msg))
    diag = subset_nodes.cpython_diagnostic(data)
    if diag is not None:
        return (None, diag, None)
    return ((ast.dump(tree, include_attributes=True) + '\n').encode('utf-8'), None, None)


def excerpt(data, pos):
    start = max(0, pos - CONTEXT)
    piece = data[start:pos + CONTEXT].decode('utf-8', errors='replace')
    return ('...' if start > 0 else '') + piece.replace('\n', '\\n')


def first_difference(want, got):
    n = min(len(want), len(got))
    idx = 0
    while idx < n and want[idx] == got[idx]:
        idx += 1
    return idx


def check_file(tdref, path, label):
    """None when tdref agrees with CPython on `path`, else a report (text)."""
    with open(path, 'rb') as f:
        data = f.read()
    want, want_diag, why = expected_dump(data)
    if why is not None:
        return '%s: %s' % (label, why)
    try:
        proc = subprocess.run([tdref, 'dump-ast', path], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=60)
    except subprocess.TimeoutExpired:
        return '%s: tdref dump-ast timed out' % label
    except OSError as e:
        return '%s: cannot run %s: %s' % (label, tdref, e)
    got = proc.stdout
    if want_diag is not None:
        err = proc.stderr.decode('utf-8', errors='replace').strip()
        expected_err = '%s:%s' % (path, want_diag)
        if proc.returncode == 1 and err == expected_err:
            return None
        return '%s: outside the subset; expected tdref to say\n  %s\ngot (exit %d)\n  %s' % (
            label, expected_err, proc.returncode, err)
    if proc.returncode == 0 and got == want:
        return None
    lines = ['%s: tdref dump-ast differs from CPython (exit %d)' % (label, proc.returncode)]
    err = proc.stderr.decode('utf-8', errors='replace').strip()
    if err:
        lines.append('  stderr:   %s' % err.split('\n')[0][:300])
    pos = first_difference(want, got)
    lines.append('  first difference at byte %d (expected %d bytes, got %d)'
                 % (pos, len(want), len(got)))
    lines.append('  expected: %s' % excerpt(want, pos))
    lines.append('  got:      %s' % excerpt(got, pos))
    return '\n'.join(lines)


def run_all(tdref, jobs):
    """jobs: [(path, label)] -> [(label, report or None)] in order."""
    workers = max(2, 2 * (os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(check_file, tdref, path, label) for path, label in jobs]
        return [(jobs[i][1], futures[i].result()) for i in range(len(jobs))]


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--tdref', required=True, help='path of the tdref executable')
    parser.add_argument('--generated', type=int, default=0, help='generated programs to add')
    parser.add_argument('--seed', type=int, default=20250, help='generator seed')
    parser.add_argument('--keep', help='copy failing generated programs into this folder')
    parser.add_argument('--max-reports', type=int, default=20,
                        help='print details of at most this many failures')
    parser.add_argument('paths', nargs='*')
    args = parser.parse_args(argv)

    if not os.access(args.tdref, os.X_OK):
        print('tdref is not an executable file: %s' % args.tdref)
        return 1
    jobs = [(path, path) for path in collect(args.paths)]
    with tempfile.TemporaryDirectory(prefix='tdc_gen_') as tmp:
        generated = gen_subset_programs.generate(args.seed, args.generated)
        for name, text in generated:
            path = os.path.join(tmp, name)
            with open(path, 'wb') as f:
                f.write(text.encode('utf-8'))
            jobs.append((path, 'generated/%s (seed %d)' % (name, args.seed)))
        results = run_all(args.tdref, jobs)
        failed = [r for r in results if r[1] is not None]
        for idx in range(len(failed)):
            if idx < args.max_reports:
                print(failed[idx][1])
            else:
                print('%s: differs (details left out)' % failed[idx][0])
        if args.keep and failed:
            os.makedirs(args.keep, exist_ok=True)
            for label, _ in failed:
                if label.startswith('generated/'):
                    name = label.split('/')[1].split(' ')[0]
                    shutil.copy(os.path.join(tmp, name), os.path.join(args.keep, name))
    if failed and args.generated:
        print('regenerate the programs with: gen_subset_programs.py --seed %d --count %d --out DIR'
              % (args.seed, args.generated))
    print('%d passed, %d failed' % (len(results) - len(failed), len(failed)))
    if not results:
        print('nothing was checked')
        return 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
