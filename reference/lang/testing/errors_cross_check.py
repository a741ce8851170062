"""Cross-checks the error fixtures against CPython and tdref.

    errors_cross_check.py --tdref PATH [--min-count N] DIR

For every NAME.py in DIR (recursively) with its NAME.diag (`LINE:COL: error: MESSAGE`):
  (a) the .diag is what CPython 3.11 says now (ast.parse's SyntaxError, or the first node
      outside the subset in ast.walk order; see subset_nodes.cpython_diagnostic);
  (b) `tdref check COPY` on a copy of NAME.py without its sidecar fails with the line
      `COPY:` + the .diag, and the summary `0 passed, 1 failed`;
  (c) `tdref check NAME.py` in place passes (the sidecar matches): `1 passed, 0 failed`;
  (d) `tdref dump-ast NAME.py` exits 1 with the line `NAME.py:` + the .diag on stderr.
Each mismatch is reported. Ends with `N passed, M failed`; exits 1 when a fixture failed
or when DIR holds fewer than --min-count fixtures. Written in the subset itself.
"""

import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import subset_nodes  # noqa: E402


def collect(root):
    files = []
    for base, dirs, names in os.walk(root):
        dirs[:] = sorted([d for d in dirs if d != '__pycache__' and not d.startswith('.')])
        for name in sorted(names):
            if name.endswith('.py'):
                files.append(os.path.join(base, name))
    return files


def run(argv):
    """(exit status, stdout lines, stderr lines) of a tdref command."""
    try:
        proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    except subprocess.TimeoutExpired:
        return (None, [], ['timed out'])
    except OSError as e:
        return (None, [], ['cannot run: %s' % e])
    out = proc.stdout.decode('utf-8', errors='replace').splitlines()
    err = proc.stderr.decode('utf-8', errors='replace').splitlines()
    return (proc.returncode, out, err)


def diagnostics_for(path, lines):
    """The diagnostics (text after `path:`) among `lines`."""
    prefix = path + ':'
    return [line[len(prefix):] for line in lines if line.startswith(prefix)]


def check_fixture(tdref, path, scratch):
    """[problem, ...] for one fixture; empty when it passes."""
    problems = []
    sidecar = os.path.splitext(path)[0] + '.diag'
    if not os.path.exists(sidecar):
        return ['no sidecar %s (write it with make_error_diag.py)' % os.path.basename(sidecar)]
    with open(sidecar, encoding='utf-8') as f:
        recorded = f.read()
    if recorded.count('\n') != 1 or not recorded.endswith('\n'):
        problems.append('the .diag must hold exactly one line')
    want = recorded.rstrip('\n')
    with open(path, 'rb') as f:
        data = f.read()

    # (a) The recorded diagnostic is CPython's.
    now = subset_nodes.cpython_diagnostic(data)
    if now is None:
        problems.append('(a) CPython accepts it and it lies in the subset: not an error fixture')
    elif now != want:
        problems.append('(a) stale .diag: CPython now says   %s\n      the .diag says        %s'
                        % (now, want))

    # (b) tdref reports the same diagnostic when no sidecar excuses the file.
    copy = os.path.join(scratch, os.path.basename(path))
    shutil.copyfile(path, copy)
    status, out, err = run([tdref, 'check', copy])
    got = diagnostics_for(copy, out + err)
    if got != [want]:
        problems.append('(b) tdref check (no sidecar) says  %s\n      expected                      %s'
                        % (' | '.join(got) if got else '(no diagnostic line: %s)'
                           % ' | '.join(out + err)[:300], want))
    if status != 1 or not out or out[-1] != '0 passed, 1 failed':
        problems.append('(b) tdref check (no sidecar): exit %s, last line %r; expected exit 1 and '
                        "'0 passed, 1 failed'" % (status, out[-1] if out else None))

    # (c) In place, the sidecar makes it pass.
    status, out, err = run([tdref, 'check', path])
    if status != 0 or not out or out[-1] != '1 passed, 0 failed':
        problems.append("(c) tdref check (with sidecar): exit %s, last line %r; expected exit 0 and "
                        "'1 passed, 0 failed'" % (status, out[-1] if out else None))

    # (d) dump-ast refuses it with the same diagnostic.
    status, out, err = run([tdref, 'dump-ast', path])
    got = diagnostics_for(path, err)
    if status != 1 or got != [want]:
        problems.append('(d) tdref dump-ast: exit %s, stderr %s; expected exit 1 and %s:%s'
                        % (status, ' | '.join(err)[:300] or '(empty)', path, want))
    return problems


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--tdref', required=True, help='path of the tdref executable')
    parser.add_argument('--min-count', type=int, default=1,
                        help='fail when DIR holds fewer fixtures than this')
    parser.add_argument('dir')
    args = parser.parse_args(argv)

    if not os.access(args.tdref, os.X_OK):
        print('tdref is not an executable file: %s' % args.tdref)
        return 1
    files = collect(args.dir)
    workers = max(2, 2 * (os.cpu_count() or 1))
    with tempfile.TemporaryDirectory(prefix='tdc_err_') as tmp:
        scratch = []
        for idx in range(len(files)):
            # One folder per fixture: the copies must not find each other's sidecars.
            folder = os.path.join(tmp, str(idx))
            os.mkdir(folder)
            scratch.append(folder)
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(check_fixture, args.tdref, files[i], scratch[i])
                       for i in range(len(files))]
            results = [f.result() for f in futures]
    failed = 0
    for idx in range(len(files)):
        if results[idx]:
            failed += 1
            print('%s:' % files[idx])
            for problem in results[idx]:
                print('    ' + problem)
    print('%d passed, %d failed' % (len(files) - failed, failed))
    if len(files) < args.min_count:
        print('only %d error fixtures in %s; at least %d are required'
              % (len(files), args.dir, args.min_count))
        return 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
