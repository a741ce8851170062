"""Measures when CPython 3.11 (+ torch 2.13.0) reuses the id of a dead object.

This is the evidence behind SEMANTICS.md section 6 ("Object ids"). Each probe is a small
fixture-shaped program (module level code, run with ``runpy.run_path`` as the oracle runs
fixtures, DESIGN D1/D11) that binds ``out_reused = id(new) == old_id`` (and sometimes more
``out_*`` booleans). Every probe runs REPS times in each of three harness modes:

  fresh      a new interpreter per run: ``python -c 'runpy.run_path(...)'``
  fork       a fork server like the oracle's (ATEN_CPU_CAPABILITY=default, one thread,
             torch + torch._dynamo + functorch.compile imported in the parent), one
             ``os.fork()`` child per run, TORCHDYNAMO_DISABLE unset
  fork-eager the same parent, child sets TORCHDYNAMO_DISABLE=1 first (the oracle's eager
             mode)
  oracle-eager / oracle-compile
             the project's own oracle (conformance/oracle server.run_jobs + child.Job,
             eager mode and compile mode under profile torch-2.13): byte-for-byte
             the way goldens are recorded

Usage (the machine's Python 3.11 with torch 2.13.0):
  .venv/bin/python reference/runtime/testing/id_reuse_probe.py            # table
  .venv/bin/python reference/runtime/testing/id_reuse_probe.py --json     # JSON
  .venv/bin/python reference/runtime/testing/id_reuse_probe.py --reps 5 --case def_del_def
  .venv/bin/python reference/runtime/testing/id_reuse_probe.py --sizes    # size classes

A cell of the table reads "T" (all runs True), "F" (all False) or "k/n" (True in k of
n runs: unstable). The "model" column is what SEMANTICS.md section 6 predicts; a
disagreement is flagged with "!!" (in fixtures it would be an allocator_divergence).
"""

import argparse
import json
import os
import runpy
import subprocess
import sys
import tempfile
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

# name -> (what it shows, the model's prediction {out_name: bool}, program text)
# Programs are fixture-shaped: module level, results in out_* names.
CASES = {}


def case(name, doc, predicted, src):
    CASES[name] = (doc, predicted, textwrap.dedent(src).lstrip("\n"))


# --- Python functions (class 160: 136-byte PyFunctionObject + 16-byte GC header) -------
case("def_del_def", "def f; del f; def g (fixture S3 shape, no torch)",
     {"out_reused": True}, """
def f(x):
    return x + 1
old_id = id(f)
del f
def g(x):
    return x + 2
out_reused = id(g) == old_id
""")

case("s03_allow_in_graph", "S3 verbatim: allow_in_graph(f); del f; def g",
     {"out_reused": True}, """
import torch
def do_allow_in_graph(x):
    return x + 1
torch._dynamo.allow_in_graph(do_allow_in_graph)
old_id = id(do_allow_in_graph)
del do_allow_in_graph
def dont_allow_in_graph(x):
    torch._dynamo.graph_break()
    return x + 1
out_reused = id(dont_allow_in_graph) == old_id
""")

case("disallow_del_def", "allow+disallow_in_graph(f); del f; def g (#196171 shape)",
     {"out_reused": True}, """
import torch
def f(x):
    return x + 1
torch._dynamo.allow_in_graph(f)
torch._dynamo.disallow_in_graph(f)
old_id = id(f)
del f
def g(x):
    return x + 2
out_reused = id(g) == old_id
""")

case("lambda_del_lambda", "f = lambda; del f; g = lambda",
     {"out_reused": True}, """
f = lambda x: x + 1
old_id = id(f)
del f
g = lambda x: x + 2
out_reused = id(g) == old_id
""")

case("rebind_def", "def f; def f again (rebinding): new f is made before old f dies",
     {"out_reused": False, "out_reused_next": True}, """
def f(x):
    return x + 1
old_id = id(f)
def f(x):
    return x + 2
out_reused = id(f) == old_id
def h(x):
    return x + 3
out_reused_next = id(h) == old_id
""")

case("rebind_lambda", "f = lambda; f = lambda (rebinding), then h = lambda",
     {"out_reused": False, "out_reused_next": True}, """
f = lambda x: x + 1
old_id = id(f)
f = lambda x: x + 2
out_reused = id(f) == old_id
h = lambda x: x + 3
out_reused_next = id(h) == old_id
""")

case("rebind_to_none", "f = None (rebinding to a non-function), then def g",
     {"out_reused": True}, """
def f(x):
    return x + 1
old_id = id(f)
f = None
def g(x):
    return x + 2
out_reused = id(g) == old_id
""")

case("temp_lambda", "id(lambda) of a temporary, then a new lambda",
     {"out_reused": True}, """
old_id = id(lambda x: x + 1)
g = lambda x: x + 2
out_reused = id(g) == old_id
""")

case("temp_in_expr", "id(lambda) == id(lambda) in one expression",
     {"out_reused": True}, """
out_reused = id(lambda x: x + 1) == id(lambda x: x + 2)
""")

case("scope_exit_inner", "inner def dies when the outer call returns; then def g",
     {"out_reused": True}, """
def outer():
    def inner(x):
        return x + 1
    return id(inner)
old_id = outer()
def g(x):
    return x + 2
out_reused = id(g) == old_id
""")

case("closure_del_remake", "closure made by a factory; del; factory again",
     {"out_reused": True}, """
def make(k):
    def inner(x):
        return x + k
    return inner
f = make(1)
old_id = id(f)
del f
g = make(2)
out_reused = id(g) == old_id
""")

case("closure_del_def", "closure made by a factory; del; plain def",
     {"out_reused": True}, """
def make(k):
    def inner(x):
        return x + k
    return inner
f = make(1)
old_id = id(f)
del f
def g(x):
    return x
out_reused = id(g) == old_id
""")

case("lifo_two", "def f1; def f2; del f1; del f2; def g; def h (LIFO order)",
     {"out_g_is_f2": True, "out_h_is_f1": True, "out_g_is_f1": False}, """
def f1(x):
    return x
def f2(x):
    return x
id1 = id(f1)
id2 = id(f2)
del f1
del f2
def g(x):
    return x
def h(x):
    return x
out_g_is_f2 = id(g) == id2
out_h_is_f1 = id(h) == id1
out_g_is_f1 = id(g) == id1
out_same_pool = (id1 >> 14) == (id2 >> 14)  # 16 KiB pymalloc pools (SEMANTICS 6.4 D-a)
""")

case("intervening_func", "del f; an unrelated function is created; def g",
     {"out_reused": False, "out_other_reused": True}, """
def f(x):
    return x
old_id = id(f)
del f
other = lambda x: x
def g(x):
    return x
out_reused = id(g) == old_id
out_other_reused = id(other) == old_id
""")

case("intervening_list", "del f; a list and a tensor are created (other classes); def g",
     {"out_reused": True}, """
import torch
def f(x):
    return x
old_id = id(f)
del f
keep = [1, 2, 3]
t = torch.ones(3)
def g(x):
    return x
out_reused = id(g) == old_id
""")

case("func_then_other_kind", "del f; a list / dict / tensor does not take f's id",
     {"out_list": False, "out_dict": False, "out_tensor": False}, """
import torch
def f(x):
    return x
old_id = id(f)
del f
a = [1, 2]
out_list = id(a) == old_id
d = {"k": 1}
out_dict = id(d) == old_id
t = torch.ones(2)
out_tensor = id(t) == old_id
""")

case("func_with_attrs", "f with attributes (__dict__) and defaults; del; def g",
     {"out_reused": True}, """
def f(x, y=2):
    return x + y
f.marker = True
f.__qualname__ = "renamed"
old_id = id(f)
del f
def g(x, *, z=3):
    return x + z
out_reused = id(g) == old_id
""")

case("old_func_many_between", "f made early, 300 lambdas kept alive since; del f; def g",
     {"out_reused": True}, """
def f(x):
    return x
old_id = id(f)
keep = [lambda x, i=i: x + i for i in range(300)]
del f
def g(x):
    return x
out_reused = id(g) == old_id
""")

case("two_pools_order", "free a (full old pool) then b (current pool); next alloc",
     {"out_new_is_b": True}, """
a = lambda: 0
keep = [lambda i=i: i for i in range(300)]
b = lambda: 1
id_a = id(a)
id_b = id(b)
del a
del b
n = lambda: 2
out_new_is_b = id(n) == id_b
out_new_is_a = id(n) == id_a
""")

# --- wrappers ------------------------------------------------------------------------
case("wraps_del_wraps", "functools.wraps wrapper; del; new wrapper (base kept alive)",
     {"out_reused": True}, """
import functools
def deco(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper
def base1(x):
    return x
def base2(x):
    return x
w = deco(base1)
old_id = id(w)
del w
w2 = deco(base2)
out_reused = id(w2) == old_id
""")

case("wraps_decorator_form", "@deco def f (wraps); del f; @deco def g",
     {"out_reused": False, "out_new_inner_is_old_wrapper": True,
      "out_new_wrapper_is_old_inner": True}, """
import functools
def deco(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper
@deco
def f(x):
    return x
old_id = id(f)
old_inner_id = id(f.__wrapped__)
del f
@deco
def g(x):
    return x
out_reused = id(g) == old_id
out_new_inner_is_old_wrapper = id(g.__wrapped__) == old_id
out_new_wrapper_is_old_inner = id(g) == old_inner_id
""")

case("disable_del_disable", "torch.compiler.disable(base1) wrapper; del; disable(base2)",
     {"out_reused": True}, """
import torch
def base1(x):
    return x
def base2(x):
    return x
w = torch.compiler.disable(base1)
old_id = id(w)
del w
w2 = torch.compiler.disable(base2)
out_reused = id(w2) == old_id
""")

case("disable_decorator_form", "@torch.compiler.disable def f; del f; @disable def g",
     {"out_reused": False, "out_new_inner_is_old_wrapper": True,
      "out_new_wrapper_is_old_inner": True}, """
import torch
@torch.compiler.disable
def f(x):
    return x
old_id = id(f)
old_inner_id = id(f.__wrapped__)
del f
@torch.compiler.disable
def g(x):
    return x
out_reused = id(g) == old_id
out_new_inner_is_old_wrapper = id(g.__wrapped__) == old_id
out_new_wrapper_is_old_inner = id(g) == old_inner_id
""")

case("disable_del_def", "@torch.compiler.disable def f; del f; plain def g; def h",
     {"out_reused": True, "out_g_is_old_inner": False, "out_h_is_old_inner": True}, """
import torch
@torch.compiler.disable
def f(x):
    return x
old_id = id(f)
old_inner_id = id(f.__wrapped__)
del f
def g(x):
    return x
def h(x):
    return x
out_reused = id(g) == old_id
out_g_is_old_inner = id(g) == old_inner_id
out_h_is_old_inner = id(h) == old_inner_id
out_same_pool = (old_id >> 14) == (old_inner_id >> 14)
""")

# --- tensors (class 80: 48-byte torch.Tensor + 16 GC header + 16 managed-dict) -----
case("tensor_del_new", "t = torch.ones(3); del t; u = torch.ones(3)",
     {"out_reused": True}, """
import torch
t = torch.ones(3)
old_id = id(t)
del t
u = torch.ones(3)
out_reused = id(u) == old_id
""")

case("tensor_rebind", "t = ones; t = zeros (rebinding); then u = ones",
     {"out_reused": False, "out_reused_next": True}, """
import torch
t = torch.ones(3)
old_id = id(t)
t = torch.zeros(3)
out_reused = id(t) == old_id
u = torch.ones(3)
out_reused_next = id(u) == old_id
""")

case("tensor_temp", "id(torch.ones(3)) temporary; then u = torch.zeros(3)",
     {"out_reused": True}, """
import torch
old_id = id(torch.ones(3))
u = torch.zeros(3)
out_reused = id(u) == old_id
""")

case("tensor_op_result", "t = a + 1; del t; u = a * 2 (op results)",
     {"out_reused": True}, """
import torch
a = torch.arange(4.0)
t = a + 1
old_id = id(t)
del t
u = a * 2
out_reused = id(u) == old_id
out_same_pool = (id(u) >> 14) == (old_id >> 14)
""")

case("tensor_view_alive", "t = ones; v = t.view(...); del t: v._base keeps t alive",
     {"out_reused": False, "out_base_preserved": True}, """
import torch
t = torch.ones(4)
v = t.view(2, 2)
old_id = id(t)
del t
u = torch.zeros(4)
out_reused = id(u) == old_id
out_base_preserved = id(v._base) == old_id
""")

case("tensor_then_list", "del t; a list / dict does not take the tensor's id (other kinds)",
     {"out_list": False, "out_dict": False}, """
import torch
t = torch.ones(3)
old_id = id(t)
del t
a = [1, 2]
out_list = id(a) == old_id
d = {"k": 1}
out_dict = id(d) == old_id
""")

# --- containers and numbers (per-type free lists) -----------------------------------
case("list_del_list", "a = [x, y]; del a; b = [y, x]",
     {"out_reused": True}, """
x = 1
y = 2
a = [x, y]
old_id = id(a)
del a
b = [y, x, x]
out_reused = id(b) == old_id
""")

case("tuple_del_tuple_same_len", "a = (x, y); del a; b = (y, x) (tuple free list, len 2)",
     {"out_reused": True}, """
x = 1
y = 2
a = (x, y)
old_id = id(a)
del a
b = (y, x)
out_reused = id(b) == old_id
""")

case("tuple_del_tuple_other_len", "a = (x, y); del a; b = (x, y, x) (other length)",
     {"out_reused": False}, """
x = 1
y = 2
a = (x, y)
old_id = id(a)
del a
b = (x, y, x)
out_reused = id(b) == old_id
""")

case("dict_del_dict", "a = {'k': x}; del a; b = {'j': y}",
     {"out_reused": True}, """
x = 1
y = 2
a = {"k": x}
old_id = id(a)
del a
b = {"j": y}
out_reused = id(b) == old_id
""")

case("float_del_float", "a = x * 1.5 (computed); del a; b = x * 2.5",
     {"out_reused": True}, """
x = 3.0
a = x * 1.5
old_id = id(a)
del a
b = x * 2.5
out_reused = id(b) == old_id
""")

case("bigint_del_bigint", "a = n * 7 (> 256, computed); del a; b = n * 11",
     {"out_reused": True}, """
n = 100003
a = n * 7
old_id = id(a)
del a
b = n * 11
out_reused = id(b) == old_id
""")

case("smallint_cached", "small ints and constants are shared, never freed",
     {"out_same_small": True, "out_same_const": True}, """
n = 5
a = n + 1
b = 3 + 3
out_same_small = id(a) == id(b)
def c1():
    return (1, 2)
out_same_const = id(c1()) == id(c1())
""")


case("wraps_base_dies_too", "w = deco(lambda); del w: base dies inside w's dealloc first",
     {"out_first_is_old_wrapper": True, "out_second_is_old_base": True}, """
import functools
def deco(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper
w = deco(lambda x: x)
old_id = id(w)
old_base_id = id(w.__wrapped__)
del w
a = lambda x: x + 1
b = lambda x: x + 2
out_first_is_old_wrapper = id(a) == old_id
out_second_is_old_base = id(b) == old_base_id
""")

case("tensor_two_lifo", "t1, t2 = ones, zeros; del t1; del t2; u1, u2 (LIFO)",
     {"out_u1_is_t2": True, "out_u2_is_t1": True}, """
import torch
t1 = torch.ones(2)
t2 = torch.zeros(2)
id1 = id(t1)
id2 = id(t2)
del t1
del t2
u1 = torch.ones(2)
u2 = torch.ones(2)
out_u1_is_t2 = id(u1) == id2
out_u2_is_t1 = id(u2) == id1
""")

case("compiled_fn_del_def", "torch.compile(f, backend=backend) wrapper; del; def g "
     "(not predicted: torch.compile makes and frees several functions, SEMANTICS 6.4 D-c)",
     {}, """
import torch
def f(x):
    return x + 1
cf = torch.compile(f, backend=backend)
old_id = id(cf)
del cf
def g(x):
    return x
out_reused = id(g) == old_id
""")


case("tensor_then_size", "del t; s = m.shape: a torch.Size (tuple subclass, 48 + 8*ndim "
     "bytes) does not take t's id, not even where the byte classes match (ndim 3, 4)",
     {"out_2d_size_is_old_tensor": False, "out_4d_size_is_old_tensor": False}, """
import torch
m2 = torch.ones(2, 3)
m4 = torch.ones(1, 1, 2, 3)
t = torch.ones(3)
old_id = id(t)
del t
s2 = m2.shape
out_2d_size_is_old_tensor = id(s2) == old_id
del s2
s4 = m4.shape
out_4d_size_is_old_tensor = id(s4) == old_id
""")

case("finalize_callback_allocs", "weakref.finalize(f, cb) where cb makes and drops "
     "functions; del f; def g",
     {"out_reused": True, "out_called": True}, """
import weakref
calls = []
def cb():
    tmp = [lambda: i for i in range(3)]
    calls.append(len(tmp))
def f(x):
    return x
weakref.finalize(f, cb)
old_id = id(f)
del f
def g(x):
    return x
out_reused = id(g) == old_id
out_called = calls == [3]
""")

case("list_comp_temp_funcs", "a list of 3 lambdas dies (del); 3 new lambdas get the "
     "ids in list order (a list frees its items last to first)",
     {"out_first_is_last_freed": True, "out_order_same": True, "out_order_reversed": False,
      "out_first_is_item2": False}, """
fs = [lambda: 0, lambda: 1, lambda: 2]
ids = [id(f) for f in fs]
del fs
n0 = lambda: 10
n1 = lambda: 11
n2 = lambda: 12
out_first_is_last_freed = id(n0) == ids[0]
out_first_is_item2 = id(n0) == ids[2]
out_order_reversed = [id(n0), id(n1), id(n2)] == ids[::-1]
out_order_same = [id(n0), id(n1), id(n2)] == ids
""")


case("dict_values_order", "a dict of 3 lambdas dies; 3 new lambdas (which value's id "
     "ends on top?)",
     {"out_first_is_last_value": True}, """
d = {"a": lambda: 0, "b": lambda: 1, "c": lambda: 2}
ids = [id(v) for v in d.values()]
del d
n0 = lambda: 10
out_first_is_last_value = id(n0) == ids[2]
out_first_is_first_value = id(n0) == ids[0]
""")


# --- harness ------------------------------------------------------------------------

def _write_programs(tmpdir):
    paths = {}
    for name, (_, _, src) in CASES.items():
        path = os.path.join(tmpdir, name + ".py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(src)
        paths[name] = path
    return paths


def _outs(g):
    return {k: bool(v) for k, v in sorted(g.items())
            if k.startswith("out") and isinstance(v, bool)}


CHILD = ("import json, runpy, sys\n"
         "g = runpy.run_path(sys.argv[1], init_globals={'backend': 'eager'})\n"
         "print(json.dumps({k: v for k, v in sorted(g.items()) "
         "if k.startswith('out') and isinstance(v, bool)}))\n")


def run_fresh(path):
    env = dict(os.environ, ATEN_CPU_CAPABILITY="default", OMP_NUM_THREADS="1")
    env.pop("TORCHDYNAMO_DISABLE", None)
    proc = subprocess.run([sys.executable, "-c", CHILD, path], capture_output=True,
                          text=True, env=env, timeout=300)
    if proc.returncode != 0:
        return {"error": proc.stderr[-500:]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


_prepared = False


def prepare_fork_server():
    """The oracle's fork-server parent (conformance/oracle/server.py prepare())."""
    global _prepared
    if _prepared:
        return
    os.environ["ATEN_CPU_CAPABILITY"] = "default"
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = "1"
    os.environ.pop("TORCHDYNAMO_DISABLE", None)
    import torch
    torch.set_num_threads(1)
    import functorch.compile  # noqa: F401
    import torch._dynamo  # noqa: F401
    import torch._dynamo.testing  # noqa: F401
    import torch._functorch.aot_autograd  # noqa: F401
    _prepared = True


def run_forked(path, eager):
    prepare_fork_server()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        status = 0
        try:
            os.close(read_fd)
            if eager:
                os.environ["TORCHDYNAMO_DISABLE"] = "1"
            import torch
            import torch._dynamo
            torch.set_num_threads(1)
            torch._dynamo.reset()
            g = runpy.run_path(path, init_globals={"backend": "eager"})
            data = json.dumps(_outs(g)).encode()
        except BaseException as exc:  # report, never raise in the child
            data = json.dumps({"error": repr(exc)}).encode()
            status = 1
        view = memoryview(data)
        while view:
            view = view[os.write(write_fd, view):]
        os._exit(status)
    os.close(write_fd)
    chunks = []
    while True:
        chunk = os.read(read_fd, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read_fd)
    os.waitpid(pid, 0)
    return json.loads(b"".join(chunks))


ORACLE_MODES = {"oracle-eager": ("eager", None), "oracle-compile": ("compile", "torch-2.13")}


def _oracle_batch(mode, paths, reps):
    """In a subprocess (the oracle's server must import torch itself): runs every path
    reps times through conformance/oracle's own fork server (server.run_jobs with
    child.Job), i.e. exactly as `ci/oracle record` executes fixtures."""
    code = ("import json, sys\n"
            f"sys.path.insert(0, {REPO!r})\n"
            "from conformance.oracle import server\n"
            "server.prepare()\n"
            "from conformance.oracle.child import Job\n"
            "mode, profile, reps = sys.argv[1], (sys.argv[2] or None), int(sys.argv[3])\n"
            "paths = sys.argv[4:]\n"
            "jobs = [Job(fixture=p, mode=mode, profile=profile, capture_aten=False)\n"
            "        for p in paths for _ in range(reps)]\n"
            "res = server.run_jobs(jobs, parallel=4)\n"
            "out = []\n"
            "for r in res:\n"
            "    if not r.get('ok'):\n"
            "        out.append({'error': r.get('error', '')[-300:]}); continue\n"
            "    outs = r['outcome']['outs']\n"
            "    out.append({k: v['bool'] for k, v in outs.items() if 'bool' in v})\n"
            "print(json.dumps(out))\n")
    kind, profile = ORACLE_MODES[mode]
    env = dict(os.environ)
    env.pop("TORCHDYNAMO_DISABLE", None)
    proc = subprocess.run([sys.executable, "-c", code, kind, profile or "", str(reps)]
                          + list(paths), capture_output=True, text=True, env=env,
                          cwd=REPO, timeout=1200)
    if proc.returncode != 0:
        return [[{"error": proc.stderr[-500:]}] * reps for _ in paths]
    flat = json.loads(proc.stdout.strip().splitlines()[-1])
    return [flat[i * reps:(i + 1) * reps] for i in range(len(paths))]


MODES = ("fresh", "fork", "fork-eager", "oracle-eager", "oracle-compile")


def measure(names, reps, modes):
    results = {}
    with tempfile.TemporaryDirectory(prefix="tdc-idprobe-") as tmp:
        paths = _write_programs(tmp)
        # fresh and oracle runs are subprocesses; the fork modes import torch into *this*
        # process (the fork-server parent), so run them last
        modes = sorted(modes, key=lambda m: m.startswith("fork"))
        for mode in modes:
            if mode in ORACLE_MODES:
                batch = _oracle_batch(mode, [paths[n] for n in names], reps)
                for name, runs in zip(names, batch):
                    results.setdefault(name, {})[mode] = runs
                continue
            for name in names:
                runs = []
                for _ in range(reps):
                    if mode == "fresh":
                        runs.append(run_fresh(paths[name]))
                    else:
                        runs.append(run_forked(paths[name], eager=(mode == "fork-eager")))
                results.setdefault(name, {})[mode] = runs
    return results


def summarize(name, runs_by_mode):
    """{out: {mode: "T"|"F"|"k/n"|"err"}} plus the model's prediction."""
    doc, predicted, _ = CASES[name]
    rows = []
    outs = sorted({k for runs in runs_by_mode.values() for r in runs for k in r
                   if k != "error"} | set(predicted))
    for out in outs:
        cells = {}
        for mode, runs in runs_by_mode.items():
            vals = [r.get(out) for r in runs]
            if any("error" in r for r in runs) or None in vals:
                cells[mode] = "err"
            elif all(vals):
                cells[mode] = "T"
            elif not any(vals):
                cells[mode] = "F"
            else:
                cells[mode] = f"{sum(vals)}/{len(vals)}"
        model = predicted.get(out)
        agree = all(c == ("T" if model else "F") for c in cells.values()) \
            if model is not None else None
        rows.append({"case": name, "out": out, "doc": doc, "cells": cells,
                     "stable": all(c in ("T", "F") for c in cells.values()),
                     "model": model, "model_agrees": agree})
    return rows


def sizes():
    """The allocation request of each kind, hence its pymalloc size class (16-byte
    classes up to 512 bytes in 3.11 on 64-bit)."""
    import gc
    import functools
    import torch

    def f():
        pass

    def req(obj):
        # what PyType_GenericAlloc / PyObject_GC_New ask pymalloc for: basicsize (+ items)
        # + the pre-header: 16 bytes of GC header for GC types, 16 more for a 3.11
        # "managed dict" (a class-statement type with __dict__, e.g. torch.Tensor)
        t = type(obj)
        n = t.__basicsize__ + t.__itemsize__ * (len(obj) if isinstance(obj, tuple) else 0)
        if isinstance(obj, int) and not isinstance(obj, bool):
            n = obj.__sizeof__()
        if t.__flags__ & (1 << 14):  # Py_TPFLAGS_HAVE_GC
            n += 16
        if t.__flags__ & (1 << 4):  # Py_TPFLAGS_MANAGED_DICT (3.11)
            n += 16
        return n

    out = {}
    for label, obj in [("function", f), ("lambda", lambda: 0),
                       ("functools.wraps wrapper", functools.wraps(f)(lambda: 0)),
                       ("torch.compiler.disable wrapper", torch.compiler.disable(f)),
                       ("torch.Tensor", torch.ones(3)), ("list", [1]), ("dict", {"a": 1}),
                       ("tuple(len 2)", (f, f)), ("float", 2.5), ("int (10**9)", 10**9),
                       ("cell", (lambda y: (lambda: y))(1).__closure__[0]),
                       ("torch.Size (2-d)", torch.ones(2, 3).shape),
                       ("torch.Size (4-d)",
                        torch.ones(1, 1, 2, 3).shape)]:
        n = req(obj)
        out[label] = {"type": type(obj).__qualname__, "request_bytes": n,
                      "size_class": (n + 15) // 16 * 16 if n <= 512 else "malloc"}
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="print JSON instead of a table")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--case", action="append", help="only these cases (repeatable)")
    ap.add_argument("--mode", action="append", choices=MODES, help="only these modes")
    ap.add_argument("--sizes", action="store_true", help="print size classes and exit")
    args = ap.parse_args(argv)
    if args.sizes:
        print(json.dumps(sizes(), indent=1))
        return 0
    names = args.case or list(CASES)
    modes = args.mode or list(MODES)
    results = measure(names, args.reps, modes)
    rows = [row for name in names for row in summarize(name, results[name])]
    if args.json:
        print(json.dumps({"python": sys.version, "reps": args.reps, "modes": modes,
                          "rows": rows, "raw": results}, indent=1))
        return 0
    head = f"{'case':28} {'out':20} " + " ".join(f"{m:>10}" for m in modes) + \
        f" {'model':>6}  doc"
    print(head)
    print("-" * len(head))
    bad = 0
    for row in rows:
        model = {True: "T", False: "F", None: "-"}[row["model"]]
        flag = "" if row["model_agrees"] in (True, None) else " !!"
        bad += bool(flag)
        print(f"{row['case']:28} {row['out']:20} " +
              " ".join(f"{row['cells'][m]:>10}" for m in modes) +
              f" {model:>6}{flag}  {row['doc']}")
    print(f"\n{len(rows)} observations, {reps_note(args.reps)}, "
          f"{bad} disagree with the model")
    return 0


def reps_note(reps):
    return f"{reps} runs per mode"


if __name__ == "__main__":
    sys.exit(main())
