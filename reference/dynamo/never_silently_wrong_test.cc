// DESIGN D13, never silently wrong: programs that reach what the reference does not model
// (config keys and values torch 2.13.0 has, stances, modules, attributes of torch,
// torch._dynamo and torch.compiler) end with the outcome `unsupported`, its reason and
// location, in both profiles, never with an ordinary outcome. The controls beside them are
// names and operators torch 2.13.0 does not have: those raise the error it raises (its
// text, checked with real torch), so the refusals are not a blanket over every unknown one.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "reference/dynamo/run_compiled.h"

namespace tdc::dynamo {
namespace {

struct Probe {
  const char* program;  // after `import torch`, from line 3 of "probe.py"
  const char* reason;   // what the refusal must say
  int line = 3;         // where it is reached: the program's first line unless given
  // The one profile it is refused in (the other answers it as torch does); null: both.
  const char* only_profile = nullptr;
};

constexpr Probe kProbes[] = {
    // Config keys torch has that the reference does not model, read and written.
    {"out = torch._dynamo.config.inline_inbuilt_nn_modules",
     "torch._dynamo.config.inline_inbuilt_nn_modules is not modeled"},
    {"out = torch._dynamo.config.capture_autograd_function",
     "torch._dynamo.config.capture_autograd_function is not modeled"},
    {"out = torch._dynamo.config.dead_code_elimination",
     "torch._dynamo.config.dead_code_elimination is not modeled"},
    {"out = torch._dynamo.config.guard_nn_modules",
     "torch._dynamo.config.guard_nn_modules is not modeled"},
    {"torch._dynamo.config.allow_rnn = True", "torch._dynamo.config.allow_rnn is not modeled"},
    {"torch._dynamo.config.accumulated_cache_size_limit = 1",
     "torch._dynamo.config.accumulated_cache_size_limit is not modeled"},
    {"torch._dynamo.config.force_parameter_static_shapes = False",
     "torch._dynamo.config.force_parameter_static_shapes is not modeled"},
    {"torch._dynamo.config.dynamic_shapes = False",
     "torch._dynamo.config.dynamic_shapes is not modeled"},
    // Values of modeled keys the reference does not model under Dynamo.
    {"torch._dynamo.config.automatic_dynamic_shapes = True",
     "torch._dynamo.config.automatic_dynamic_shapes = True is not modeled"},
    {"torch._dynamo.config.assume_static_by_default = False",
     "torch._dynamo.config.assume_static_by_default = False is not modeled"},
    {"torch._dynamo.config.recompile_limit = 0",
     "torch._dynamo.config.recompile_limit = 0 is not modeled"},
    {"torch._dynamo.config.cache_size_limit = -1",
     "torch._dynamo.config.cache_size_limit = -1 is not modeled"},
    {"torch._dynamo.config.accumulated_recompile_limit = 0",
     "torch._dynamo.config.accumulated_recompile_limit = 0 is not modeled"},
    {"torch._dynamo.config.capture_scalar_outputs = True",
     "torch._dynamo.config.capture_scalar_outputs = True is not modeled"},
    {"torch._dynamo.config.capture_dynamic_output_shape_ops = True",
     "torch._dynamo.config.capture_dynamic_output_shape_ops = True is not modeled"},
    {"torch._dynamo.config.error_on_recompile = True",
     "torch._dynamo.config.error_on_recompile = True is not modeled"},

    {"torch._dynamo.config.verbose = 1", "torch._dynamo.config.verbose = 1 is not modeled"},
    {"torch._dynamo.config.specialize_int = True",
     "torch._dynamo.config.specialize_int = True is not modeled"},
    {"torch._dynamo.config.disable = True", "torch._dynamo.config.disable = True is not modeled"},
    {"torch._dynamo.config.recompile_limit = True",
     "torch._dynamo.config.recompile_limit = True is not modeled"},
    {"torch._dynamo.config.nested_graph_breaks = 1",
     "torch._dynamo.config.nested_graph_breaks = 1 is not modeled"},
    {"with torch._dynamo.config.patch(recompile_limit=0):\n    out = 1",
     "torch._dynamo.config.recompile_limit = 0 is not modeled"},
    {"with torch._dynamo.config.patch('automatic_dynamic_shapes', True):\n    out = 1",
     "torch._dynamo.config.automatic_dynamic_shapes = True is not modeled"},
    {"with torch._dynamo.config.patch({'inline_inbuilt_nn_modules': False}):\n    out = 1",
     "torch._dynamo.config.inline_inbuilt_nn_modules is not modeled"},
    // Stances whose compiled calls the reference does not model.
    {"torch.compiler.set_stance('eager_then_compile')\nout = torch.compile(torch.sin, "
     "backend=backend)(torch.ones(2))",
     "set_stance(\"eager_then_compile\") is not modeled", 4},
    {"torch.compiler.set_stance('aot_eager_then_compile')\nout = torch.compile(torch.sin, "
     "backend=backend)(torch.ones(2))",
     "set_stance(\"aot_eager_then_compile\") is not modeled", 4},
    // force_backend is modeled for "eager", "aot_eager" and the injected backend (S32).
    {"with torch.compiler.set_stance('default', force_backend='inductor'):\n"
     "    out = torch.compile(torch.sin, backend=backend)(torch.ones(2))",
     "set_stance(force_backend=\"inductor\") is not modeled", 4},
    {"def f(x):\n    return x.sin()\n"
     "with torch.compiler.set_stance('default', force_backend='eager'):\n"
     "    out = torch.compile(f, backend=backend, fullgraph=True)(torch.ones(2))",
     "set_stance(force_backend=...) on a fullgraph=True function is not modeled", 6},
    {"def b(gm, example_inputs):\n    return gm.forward\n"
     "with torch.compiler.set_stance('default', force_backend=b):\n"
     "    out = torch.compile(torch.sin, backend=backend)(torch.ones(2))",
     "a graph handed to a backend other than the injected one is not modeled", 6},
    {"torch.compiler.set_stance('default', skip_guard_eval_unsafe=True)",
     "set_stance(skip_guard_eval_unsafe=True) is not modeled under Dynamo"},
    // Modules the reference does not model.
    {"import random", "module 'random' is not modeled"},
    {"import itertools", "module 'itertools' is not modeled"},
    {"import sys", "module 'sys' is not modeled"},
    {"import math", "module 'math' is not modeled"},
    {"import collections", "module 'collections' is not modeled"},
    {"import torch._dynamo.bytecode_transformation",
     "module 'torch._dynamo.bytecode_transformation' is not modeled"},
    {"from torch._dynamo.types import CacheEntry", "torch._dynamo.types.CacheEntry is not modeled"},
    {"from torch._dynamo.eval_frame import reset_code",
     "torch._dynamo.eval_frame.reset_code is not modeled"},
    // The parts of modeled library objects the reference does not model.
    {"from torch._dynamo.utils import counters\nout = counters['frames']['ok']",
     "torch._dynamo.utils.counters: counters['frames']['ok'] is not modeled", 4},
    {"from torch._dynamo.utils import counters\nout = counters['stats']",
     "torch._dynamo.utils.counters: category 'stats' is not modeled", 4},
    // A leaf function's call (invoke_leaf_function) and its grad hooks.
    {"from torch._dynamo.decorators import leaf_function\n"
     "@leaf_function\ndef f(x):\n    return (x,)\n"
     "f.register_fake(lambda x: (x,))\nout = f(torch.ones(2))",
     "a call of a @leaf_function (torch's invoke_leaf_function higher-order op, its autograd "
     "and escaped-gradient checks) is not modeled",
     8},
    {"from torch._dynamo.decorators import leaf_function\n"
     "@leaf_function\ndef f(x):\n    return (x,)\n"
     "def g(x):\n    return f(x)\n"
     "out = torch.compile(g, backend=backend)(torch.ones(2))",
     "a call of a @leaf_function (torch's invoke_leaf_function higher-order op, its autograd "
     "and escaped-gradient checks) is not modeled",
     8},
    // verbose=True with a break in a resume function (shown uncollapsed by torch).
    {"def f(x):\n    x = x + 1\n    torch._dynamo.graph_break()\n    x = x + 2\n"
     "    torch._dynamo.graph_break()\n    return x\n"
     "torch._dynamo.config.verbose = True\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "torch._dynamo.config.verbose = True: a graph break's user stack through a resume "
     "function (torch's verbose log shows the frames uncollapsed) is not modeled",
     7},
    {"from torch._dynamo.utils import counters\nout = len(counters)",
     "torch._dynamo.utils.counters: counters.__len__ is not modeled", 4},
    {"import re\nout = re.findall('a', 'a')", "re.findall is not modeled", 4},
    {"import re\nout = re.search('a(?=b)', 'ab')",
     "re pattern 'a(?=b)': a (?...) extension other than (?:...) is not modeled", 4},
    {"import torch.fx", "module 'torch.fx' is not modeled"},
    {"import numpy", "module 'numpy' is not modeled"},
    // Attributes torch 2.13.0 has that the runtime lacks.
    {"out = torch.vmap", "torch.vmap is not modeled"},
    {"out = torch.export", "torch.export is not modeled"},
    {"out = torch.func", "torch.func is not modeled"},
    {"out = torch._dynamo.mark_static", "torch._dynamo.mark_static is not modeled"},
    {"out = torch._dynamo.maybe_mark_dynamic", "torch._dynamo.maybe_mark_dynamic is not modeled"},
    {"out = torch._dynamo.explain", "torch._dynamo.explain is not modeled"},
    {"out = torch._dynamo.list_backends", "torch._dynamo.list_backends is not modeled"},
    {"out = torch.compiler.list_backends", "torch.compiler.list_backends is not modeled"},
    {"out = torch.compiler.cudagraph_mark_step_begin",
     "torch.compiler.cudagraph_mark_step_begin is not modeled"},
    {"from torch._dynamo import override_cudagraphs",
     "torch._dynamo.override_cudagraphs is not modeled"},
    {"@torch._dynamo.assume_constant_result\ndef k(x):\n    return x\n"
     "def f(x):\n    return x + k(x)\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "an assume_constant_result function returning a Tensor is not modeled", 7},
    {"out = torch.library.define", "torch.library.define is not modeled"},
    {"out = torch.nn.functional.silu", "torch.nn.functional.silu is not modeled"},
    {"out = 'a b'.splitlines()", "str.splitlines is not modeled"},
    {"out = '\xc3\x89'.lower()", "str.lower() of non-ASCII text is not modeled"},
    {"out = torch.ones(2).to", "Tensor.to is not modeled"},
    // Class statements (SEMANTICS §3.9): Dynamo tracing their classes, instances and bound
    // methods waits for the classes issue; what the eager model leaves out is refused too.
    // An instance the frame receives (its own free variable included), reads from a global,
    // reaches through their attributes or makes is traced (goldens classes/*); one in a list,
    // and a store into its class once traced, are not modeled yet.
    {"class C:\n    def __init__(self):\n        self.w = 2\ndef f(x, c):\n    c.w = x + 1\n"
     "    return x * 2\nout = torch.compile(f, backend=backend)(torch.ones(2), C())",
     "a tensor the graph computes stored in L['c'], where it outlives the frame, is not modeled",
     9},
    {"class C:\n    def __init__(self):\n        self.w = 2\ndef f(x, c):\n    return x * c.w\n"
     "c = C()\nout = torch.compile(f, backend=backend)(torch.ones(2), c)\nC.k = 1",
     "a store into class C after Dynamo traced an instance of it is not modeled", 10},
    {"class C:\n    def __init__(self):\n        self.w = 2\nclass M:\n    def __init__(self):\n"
     "        self.layers = [C()]\ndef f(x, m):\n    return x * m.layers[0].w\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2), M())",
     "a class statement's instance (of C) in traced code is not modeled", 10},
    {"class C:\n    def __init__(self):\n        self.w = 2\ndef f(x, cs):\n"
     "    return x * cs[0].w\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2), [C()])",
     "a class statement's instance (of C) in traced code is not modeled", 7},
    {"class C:\n    def __init__(self):\n        self.w = 2\ndef f(x, c):\n"
     "    return x * getattr(c, 'k', 3)\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2), C())",
     "reading the absent attribute 'k' of a class statement's instance (of C) in traced code is "
     "not modeled",
     7},
    {"class C:\n    def __init__(self):\n        self.w = 2\ndef f(x, c):\n    try:\n"
     "        return x * c.k\n    except AttributeError:\n        return x\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2), C())",
     "reading the absent attribute 'k' of a class statement's instance (of C) in traced code is "
     "not modeled",
     8},
    {"class C:\n    def __init__(self, x):\n        self.t = x + 1\ndef f(x):\n    return C(x)\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "a tensor the graph computes stored in an instance the graph hands on, where it outlives the "
     "frame, is not modeled",
     8},
    {"class C:\n    def g(self, x):\n        return x + 1\nm = C().g\ndef f(x):\n    return m(x)\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "a bound method of a class statement's instance (of C) in traced code is not modeled", 8},
    {"class C:\n    def __add__(self, o):\n        return 1",
     "class C defines __add__, a special name the reference does not model"},
    {"class C(metaclass=type):\n    pass",
     "class keyword arguments (metaclass=...) are not modeled"},
    {"class A:\n    pass\nclass B:\n    pass\nclass C(A, B):\n    pass",
     "a class with more than one base is not modeled", 7},
    {"def f():\n    class C:\n        pass\n    return C\nout = f()",
     "a class statement inside a function or a class body is not modeled", 4},
    {"class E(Exception):\n    pass", "a class deriving from Exception is not modeled"},
    {"class M(type):\n    pass", "a class deriving from type is not modeled"},
    {"class C:\n    f = len",
     "class C's attribute f is a 'builtin_function_or_method', which is not modeled"},
    {"class C:\n    pass\nout = repr(C())", "repr() of a <run_path>.C object is not modeled", 5},
    {"class C:\n    pass\nout = C.__dict__",
     "C.__dict__ (of a class statement's class) is not modeled", 5},
    {"class C:\n    pass\nout = C().__class__",
     "C.__class__ (of a class statement's class) is not modeled", 5},
    {"class C:\n    def f(self):\n        return super().__eq__(self)\nout = C().f()",
     "super().__eq__ reaching object is not modeled", 5},
    {"class M:\n    def __enter__(self):\n        return 1\n    def __exit__(self, *args):\n"
     "        return False\ndef f(x):\n    with M():\n        return x + [][0]\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "an exception leaving the with block of a class statement's instance (of M) in traced code "
     "is not modeled",
     9},
    // A break under a class statement's context manager two calls below the compiled frame
    // under nested graph breaks (torch steps back), and skip_frame() under one.
    {"class M:\n    def __enter__(self):\n        return 1\n    def __exit__(self, *args):\n"
     "        return False\ndef h(x):\n    with M():\n        torch._dynamo.graph_break()\n"
     "    return x\ndef g(x):\n    return h(x) * 2\ndef f(x):\n    return g(x) + 1\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "a graph break under a class statement's context manager entered two calls below the "
     "compiled frame or deeper, under nested graph breaks",
     10, "torch-2.13-ngb"},
    {"class M:\n    def __enter__(self):\n        return 1\n    def __exit__(self, *args):\n"
     "        return False\ndef f(x):\n    with M():\n        torch._dynamo.skip_frame()\n"
     "    return x\nout = torch.compile(f, backend=backend)(torch.ones(2))",
     "a graph break that skips or steps back its frame (skip_frame(), step_unsupported(), `not` "
     "on a tensor, an unsupported context manager) inside the with block of a class statement's "
     "context manager",
     10},
    {"def g(s):\n    return 1\nout = property(g, g, g)",
     "property() with other than a getter and a setter is not modeled", 5},
    {"out = staticmethod()", "staticmethod() with other than one argument is not modeled"},
    // A super object live at a graph break: torch would have to rebuild it for the resume
    // function.
    {"class B:\n    def g(self, x):\n        return x + 1\nclass C(B):\n    def g(self, x):\n"
     "        s = super()\n        torch._dynamo.graph_break()\n        return s.g(x) * 2\n"
     "def f(x, c):\n    return c.g(torch.sin(x))\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2), C())",
     "a super, property, staticmethod or classmethod object, live at a graph break, is not "
     "modeled",
     9},
    {"class C:\n    pass\nout = id(C())",
     "id() of a class statement's instance (of C) is not modeled (SEMANTICS", 5},
    {"def g():\n    pass\ng.a = 1\ng.a += 1",
     "augmented assignment to an attribute of other than a class statement's instance", 6},
    // Op arguments of a kind the reference's ops do not take (a device other than the CPU,
    // a str where torch takes a dtype, a dtype name).
    {"out = torch.arange(1.0, 5.0, device='cuda')",
     "arange(device='cuda') is not modeled: the reference computes on the CPU only"},
    {"out = torch.zeros(2, dtype='float32')",
     "zeros(dtype=...) with an argument of type 'str' is not modeled"},
    {"out = torch.add(torch.ones(2), 'a')",
     "add() with an argument of type 'str' (position 2) is not modeled"},
    // A leaf autograd tracks (requires_grad=False is the default the factories model).
    {"out = torch.zeros(2, requires_grad=True)", "zeros(requires_grad=True) is not modeled"},
    // Stores of a computed tensor torch replays after the graph, outputting the tensor: into
    // a container inside the frame's list, and a changed list of the frame's returned inside
    // a tuple (torch loads it from its source and replays; the order is not modeled).
    {"def f(x, d):\n    d[0].append(x + 1)\n    return x * 2\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2), [[]])",
     "a tensor the graph computes stored in L['d'], where it outlives the frame", 6},
    {"def f(x, lst):\n    lst.append(x + 1)\n    return lst, x * 2\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2), [])",
     "a changed dict or list the frame was given, inside a value the graph hands on", 6},
    // A skipped frame runs again from its start: what its first run changed in place would
    // change twice (Dynamo::RefuseChangedTwice).
    {"def f(x, lst):\n    lst.append(1)\n    y = torch.sin(x)\n    torch._dynamo.skip_frame()\n"
     "    return y\nout = torch.compile(f, backend=backend)(torch.ones(2), [])",
     "the reference runs a call of f again (a graph break or a skipped frame), and its first run "
     "changed in place what outlives it",
     6},
    {"g = None\ndef f(x):\n    global g\n    g = x + 1\n    return x * 2\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "a tensor the graph computes stored in the global 'g', where it outlives the frame", 8},
    // Calls traced code makes that Dynamo handles in ways the reference does not model.
    {"def f(x):\n    torch.library.custom_op('m::g', mutates_args=())\n    return x + 1\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "torch.library.custom_op called in traced code", 4},
    {"def f(x):\n    with torch._dynamo.error_on_graph_break(x):\n        return x + 1\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "error_on_graph_break() traced with an argument that is not a Python constant", 4},
    // An assert on a traced tensor becomes torch._assert_async, which the compiled graph
    // checks when it runs: one that fails there, or has a message torch would pass as it is.
    {"def f(x):\n    assert x.sum() > 100\n    return x\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "an assert on a traced tensor that fails", 4},
    {"def f(x):\n    assert x > 0\n    return x\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "an assert on a traced tensor without exactly one element", 4},
    {"def f(x):\n    assert x.sum() > 0, 42\n    return x\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "an assert on a traced tensor with a message that is not a str", 4},
    // Generator expressions other than the only argument of a builtin consuming them at once,
    // and any in a compiled region (Dynamo's generator tracing).
    {"g = (x for x in [1, 2])\nout = list(g)",
     "a generator expression other than the only argument of any(), all(), sum()"},
    {"out = min(x for x in [1, 2])",
     "a generator expression other than the only argument of any(), all(), sum()"},
    {"def f(x):\n    return sum(x * i for i in range(2))\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "a generator expression in a compiled region is not modeled", 4},
    // set_code_exec_strategy with a strategy other than (SKIP, DEFAULT) or (DEFAULT, DEFAULT),
    // one not made of FrameActions (torch aborts), and a code object read in a compiled region.
    {"from torch._dynamo.types import FrameAction, FrameExecStrategy\n"
     "def f(x):\n    return x + 1\n"
     "torch._dynamo.eval_frame.set_code_exec_strategy(f.__code__, "
     "FrameExecStrategy(FrameAction.RUN_ONLY, FrameAction.DEFAULT))",
     "set_code_exec_strategy() with FrameExecStrategy(RUN_ONLY, DEFAULT) is not modeled", 6},
    {"from torch._dynamo.types import FrameExecStrategy\nout = FrameExecStrategy(1, 2)",
     "torch._dynamo.types.FrameExecStrategy other than (cur_action, recursive_action)", 4},
    {"def g(x):\n    return x\n"
     "def f(x):\n    return x + len(g.__code__.co_name)\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "a function's __code__", 6},
    // counters["resumes"] once a step graph break in an inlined frame (nested graph breaks)
    // made resume functions: torch makes one of the stepping frame too.
    {"from torch._dynamo.utils import counters\n"
     "def inner(x):\n    x = x + 1\n    y = x * 2\n    torch._dynamo.step_unsupported()\n"
     "    return y + 1\n"
     "def outer(x):\n    y = inner(x * 5)\n    return y - 1\n"
     "torch.compile(outer, backend=backend)(torch.ones(2))\n"
     "out = counters['resumes']['torch_dynamo_resume_in_outer_at_10']",
     "counters['resumes'] after a step graph break in an inlined frame is not modeled", 13,
     "torch-2.13-ngb"},
    // Grad-mode context managers Dynamo enters in ways the reference does not model (probed
    // on torch 2.13.0 where said): ones an earlier trace made, live after a break, of both
    // modes (torch rebuilds each, setting its mode, in an order not probed) or entered under
    // another mode (not probed); one another frame of the trace made (a
    // torch.set_grad_enabled(False) passed on records nothing and leaks the mode); one from
    // outside whose graph break's call leaves the mode changed after the frame called
    // torch.set_grad_enabled (not probed); one from outside under fullgraph (not probed).
    {"def f(x):\n    c = torch.no_grad()\n    d = torch.enable_grad()\n    x = x + 1\n"
     "    torch._dynamo.graph_break()\n    with c:\n        x = x * 2\n"
     "    with d:\n        x = x * 3\n    return x\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "grad-mode context managers of both modes made before a graph break and live after it", 7},
    {"def f(x):\n    c = torch.no_grad()\n    x = x + 1\n    torch._dynamo.graph_break()\n"
     "    with torch.enable_grad():\n        with c:\n            x = x * 2\n    return x\n"
     "with torch.no_grad():\n    out = torch.compile(f, backend=backend)(torch.ones(2))",
     "entering a no_grad context manager made before a graph break under a grad mode it does not "
     "set",
     8},
    {"def g(x, c):\n    with c:\n        return x * 2\n"
     "def f(x):\n    return g(x + 1, torch.set_grad_enabled(False))\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "entering a set_grad_enabled context manager another frame of the trace made", 4},
    {"def g(x, c):\n    with c:\n        return x * 2\n"
     "def f(x, c):\n    torch.set_grad_enabled(False)\n    y = g(x + 1, c)\n    return y - 1\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2), torch.set_grad_enabled(True))",
     "a graph break's call that leaves grad mode changed, after the frame set the mode otherwise",
     8},
    // An op failing in traced code: torch's compile raises TorchRuntimeError (its fake-tensor
    // run fails), which the traced code's own try block cannot catch.
    {"def f(x):\n    try:\n        return x + torch.ones(3)\n    except RuntimeError:\n"
     "        return x\nout = torch.compile(f, backend=backend)(torch.ones(2))",
     "add raising an error in traced code", 5},
    // config.suppress_errors where it suppresses an error (the frame then runs eagerly), and
    // with fail_on_recompile_limit_hit (optimize() raises AssertionError).
    {"torch._dynamo.config.suppress_errors = True\ndef g(x):\n    return x + 1\n"
     "g = torch._dynamo.forbid_in_graph(g)\ndef f(x):\n    return g(x)\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "config.suppress_errors suppressing AssertionError from a frame's conversion", 9},
    {"torch._dynamo.config.suppress_errors = True\n"
     "torch._dynamo.config.fail_on_recompile_limit_hit = True\n"
     "out = torch.compile(torch.sin, backend=backend)",
     "torch.compile with config.suppress_errors and fail_on_recompile_limit_hit", 5},
    // warnings: a category (and the filters deciding whether a warning raises).
    {"import warnings\nwarnings.warn('a', stacklevel=2)",
     "warnings.warn with arguments other than one str message", 4},
    // A builtin name CPython has and the runtime lacks.
    {"out = UserWarning", "the builtin UserWarning is not modeled"},
    {"import warnings\nwarnings.simplefilter('error')", "warnings.simplefilter is not modeled", 4},
    // repr() and str() the program reads where CPython's text shows another object's address,
    // a file or torch's tensor format (a function's or object()'s own address is the model's
    // id, as id() gives it).
    {"out = repr(torch.add)",
     "repr() of a 'builtin_function_or_method' object (a builtin's or class's text) is not "
     "modeled"},
    {"out = str(torch.no_grad())",
     "repr() of a 'no_grad' object (its class's repr) is not modeled"},
    // ...and a message CPython builds with repr() (list.index's "x is not in list").
    {"try:\n    [1].index(torch.zeros(1))\nexcept ValueError as e:\n    out = str(e)",
     "repr() of a 'Tensor' object (torch's tensor print format)", 4},
    {"import contextlib\nout = repr(contextlib.nullcontext().__enter__)",
     "repr() of a 'method' object (another object's address) is not modeled", 4},
    {"out = str(torch.ones(2))", "repr() of a 'Tensor' object (torch's tensor print format)"},
    {"out = '{}'.format(torch)", "repr() of a 'module' object (its file) is not modeled"},
    // Types CPython makes objects of (type(None)() is None) or raises its own errors for; and
    // object() with arguments in traced code (eagerly a TypeError).
    {"out = type(None)()", "calling the type 'NoneType' is not modeled"},
    {"out = type(len)()", "calling the type 'builtin_function_or_method' is not modeled"},
    {"def f(x):\n    object(1)\n    return x\nout = torch.compile(f, "
     "backend=backend)(torch.ones(2))",
     "object() with arguments in traced code is not modeled", 4},
    // unittest: the decorator skip returns (tests it would skip), the rest of the module.
    {"import unittest\nout = unittest.skip('a')(len)",
     "the decorator unittest.skip returns is not modeled", 4},
    {"import unittest\nout = unittest.TestCase", "unittest.TestCase is not modeled", 4},
    // os.environ: the machine's variables, and any use in a compiled region (Dynamo breaks at
    // os.putenv); unittest.mock beyond patch.dict as a context manager.
    {"import os\nout = os.environ['HOME']",
     "os.environ['HOME'] (a variable the program did not set: its value is the machine's) is not "
     "modeled",
     4},
    {"import os\nout = len(os.environ)",
     "the length, iteration or comparison of os.environ (the machine's variables) is not modeled",
     4},
    {"import os\nout = repr(os.environ)", "repr() of a os._Environ object is not modeled", 4},
    {"import os\nout = os.path", "os.path is not modeled", 4},
    {"import os\nos.environ['A=B'] = '1'",
     "os.environ[...] = ... with an empty name, or '=' or a NUL in it", 4},
    {"import os\ndef f(x):\n    os.environ['A'] = '1'\n    return x + 1\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "os.environ in a compiled region is not modeled", 5},
    {"import os\nfrom unittest.mock import patch\nwith patch.dict(os.environ, clear=True):\n"
     "    pass",
     "unittest.mock.patch.dict(os.environ, clear=True) is not modeled", 5},
    {"from unittest.mock import patch\ndef f(x):\n    with patch.dict({}, {'a': 1}):\n"
     "        return x + 1\nout = torch.compile(f, backend=backend)(torch.ones(2))",
     "unittest.mock.patch.dict in a compiled region is not modeled", 5},
    {"from unittest.mock import patch\nout = patch.dict({}, {})(len)",
     "unittest.mock.patch.dict as a decorator is not modeled", 4},
    {"from unittest.mock import patch\nout = patch.object(torch, 'x', 1)",
     "unittest.mock._patch_object is not modeled", 4},
    // patch_dynamo_config: a patch it accepts changes Dynamo's config while it traces, eagerly
    // or traced; an argument that is not a constant shows its VariableTracker under Dynamo.
    {"with torch._dynamo.patch_dynamo_config(verbose=True):\n    pass",
     "torch._dynamo.patch_dynamo_config with a patch it allows (Dynamo's config changed while "
     "it traces) is not modeled"},
    {"def f(x):\n    with torch._dynamo.patch_dynamo_config('verbose', True):\n"
     "        return x + 1\nout = torch.compile(f, backend=backend)(torch.ones(2))",
     "torch._dynamo.patch_dynamo_config with a patch it allows (Dynamo's config changed while "
     "it traces) is not modeled",
     4},
    {"def f(x):\n    with torch._dynamo.patch_dynamo_config(verbose=x + 1):\n"
     "        return x + 1\nout = torch.compile(f, backend=backend)(torch.ones(2))",
     "patch_dynamo_config() traced with an argument that is not a Python constant (its "
     "VariableTracker, which Dynamo's error shows, is not modeled)",
     4},
    // contextlib.nullcontext(enter_result) live across a break (torch raises
    // InternalTorchDynamoError rebuilding it, probed), or from outside the trace (not probed).
    {"import contextlib\ndef f(x):\n    c = contextlib.nullcontext(2)\n    x = x + 1\n"
     "    torch._dynamo.graph_break()\n    with c as k:\n        return x * k\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "a contextlib.nullcontext(enter_result) made before a graph break and live after it", 7},
    {"import contextlib\ndef f(x, c):\n    with c as k:\n        return x * k\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2), contextlib.nullcontext(2))",
     "entering a contextlib.nullcontext(enter_result) the frame did not make in the trace", 5},
    // Classic profile: the object a break's call returned, and the rebuilt one beside it
    // (under nested graph breaks both are rebuilt: fixture-checked against torch).
    {"def g(c):\n    torch._dynamo.graph_break()\n    return c\n"
     "def f(x):\n    c = torch.set_grad_enabled(True)\n    d = g(c)\n"
     "    with d:\n        x = x + 1\n    return x, c\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "a grad-mode context manager the trace made, returned by a graph break's call and live "
     "after it besides",
     8, "torch-2.13"},
    {"def f(x, c):\n    with c:\n        return x * 2\n"
     "out = torch.compile(f, backend=backend, fullgraph=True)(torch.ones(2), torch.no_grad())",
     "entering a no_grad context manager made outside the traced code under fullgraph", 4},
    // tolist() of an empty integer tensor: torch traces it reading nothing.
    {"def f(x):\n    return x.tolist()\n"
     "out = torch.compile(f, backend=backend)(torch.zeros(0, dtype=torch.long))",
     "tolist() of an empty integer tensor", 4},
    // `not t` under fullgraph: torch captures the read and fails to guard on it.
    {"def f(x):\n    return x + (not (x.sum() > 0))\n"
     "out = torch.compile(f, backend=backend, fullgraph=True)(torch.ones(2))",
     "`not` on a traced tensor under fullgraph", 4},
    // A break while CPython builds operands as it goes (a dict display with **).
    {"def f(x, d):\n    return {**d, 'b': torch._dynamo.graph_break()}\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2), {'a': 1})",
     "a graph break while its frame's stack holds operands in a form the reference does not "
     "model",
     4},
    // Tensor operators torch has that the reference does not model, on either side.
    {"out = torch.zeros(2, dtype=torch.long) & 4", "the tensor operator & is not modeled"},
    {"out = 2 % torch.ones(2)", "the tensor operator % is not modeled"},
    // The shifts: a number on the left (torch.bitwise_left_shift.Scalar_Tensor), and a bool
    // tensor under Dynamo (eager promotes it; torch's meta kernel rejects it).
    {"out = 3 << torch.zeros(2, dtype=torch.long)",
     "a Python number on the left of the tensor operator << is not modeled"},
    {"def f(m):\n    return m >> 1\n"
     "out = torch.compile(f, backend=backend)(torch.tensor([True, False]))",
     "rshift of a bool tensor in traced code (torch 2.13.0 raises TorchRuntimeError", 4},
    // A custom op's registrations torch has and the reference does not model.
    {"@torch.library.custom_op('m::p', mutates_args=())\n"
     "def p(x: torch.Tensor) -> torch.Tensor:\n    return x.clone()\n"
     "p.register_kernel('cuda')",
     "CustomOpDef.register_kernel other than register_kernel(\"cpu\"[, fn])", 6},
    // A Library op's kernel for another device, and the accumulated recompile limit where
    // torch's error was not probed.
    {"lib = torch.library.Library('tdcs', 'DEF')\nlib.define('k(Tensor x) -> Tensor')\n"
     "torch.library.register_kernel('tdcs::k', 'cuda', lambda x: x, lib=lib)",
     "torch.library.register_kernel for a device other than \"cpu\"", 5},
    {"torch._dynamo.config.accumulated_recompile_limit = 1\n"
     "f = torch.compile(lambda x: x.sin(), backend=backend, fullgraph=True)\n"
     "f(torch.ones(2))\nout = f(torch.ones(3))",
     "config.accumulated_recompile_limit reached under fail_on_recompile_limit_hit, fullgraph "
     "or error_on_graph_break",
     6},
    // substitute_in_graph where torch's answer rests on what the reference does not keep:
    // whether a builtin is a function in CPython, annotations, torch's own rule maps, and
    // the constant folding of can_constant_fold_through.
    {"torch._dynamo.substitute_in_graph(len)",
     "substitute_in_graph of the builtin len: whether CPython's is a function is not modeled"},
    {"torch._dynamo.substitute_in_graph(print, is_embedded_type=True)",
     "substitute_in_graph(is_embedded_type=True) is not modeled"},
    {"def o(x: int):\n    return x\ndef p(x):\n    return x\n"
     "torch._dynamo.substitute_in_graph(o)(p)",
     "inspect.signature of o, whose parameters are annotated", 7},
    {"torch._dynamo.substitute_in_graph(torch.compiler.disable, skip_signature_check=True)("
     "lambda *a, **k: 0)",
     "substitute_in_graph of <function disable>: torch's own rules for it are not modeled"},
    {"def o(x):\n    return x\ndef p(x):\n    return x\n"
     "torch._dynamo.substitute_in_graph(o, can_constant_fold_through=True)(p)\n"
     "def f(x):\n    return o(x)\nout = torch.compile(f, backend=backend)(torch.ones(2))",
     "a call of a substitute_in_graph polyfill with can_constant_fold_through", 9},
    // torch.cond in traced code beyond a constant predicate's branch and breaks in branches:
    // the cond node, a speculated subgraph's names, step_unsupported, exceptions, nesting.
    {"def f(x):\n    return torch.cond(x.sum() > 0, lambda y: y + 1, lambda y: y - 1, (x,))\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "torch.cond on a traced tensor predicate whose branches trace without a graph break", 4},
    {"def b(y):\n    if y.sum() > 0:\n        return y\n    return -y\n"
     "def f(x):\n    return torch.cond(x.sum() > 0, b, b, (x,))\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "a data-dependent branch in a branch of torch.cond on a traced predicate", 4},
    {"def f(x):\n    return torch.cond(x.sum() > 0, lambda y: y, lambda y: -y, (x,))\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "a speculated branch of torch.cond that changes an object or returns other than new "
     "tensors",
     4},
    {"def b(y):\n    torch._dynamo.step_unsupported()\n    return y\n"
     "def f(x):\n    return torch.cond(True, b, b, (x,))\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "step_unsupported() in a branch of torch.cond", 4},
    {"def b(y):\n    raise ValueError('v')\n"
     "def f(x):\n    return torch.cond(True, b, b, (x,))\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "an exception leaving a branch of torch.cond in traced code", 6},
    {"def b(y):\n    return torch.cond(True, lambda z: z, lambda z: z, (y,))\n"
     "def f(x):\n    return torch.cond(True, b, b, (x,))\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "torch.cond in a branch of torch.cond in traced code", 4},
    // torch.library.Library beyond define and a CPU kernel, and its ops in traced code.
    {"lib = torch.library.Library('aten', 'DEF')",
     "torch.library.Library other than Library(<namespace>, \"DEF\" or \"FRAGMENT\")"},
    {"lib = torch.library.Library('tdcq', 'DEF')\nlib.define('k(Tensor x) -> Tensor')\n"
     "out = torch.ops.tdcq.k(torch.ones(2))",
     "calling torch.library op k without a CPU kernel", 5},
    {"lib = torch.library.Library('tdcr', 'DEF')\nlib.define('k(Tensor x) -> Tensor')\n"
     "lib.impl('k', lambda x: x, 'CPU')\ndef f(x):\n    return torch.ops.tdcr.k(x)\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "a call of tdcr.k, an op torch.library.Library defined without a fake kernel, in traced code",
     7},
    // A builtin Dynamo has no handler for, on an argument whose VariableTracker class the
    // reference does not know.
    {"def f(x):\n    print({'a': 1})\n    return x\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "the VariableTracker class of a 'dict' argument is not modeled", 4},
    {"def f(x):\n    print(x.shape)\n    return x\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "the VariableTracker class of a 'Size' argument is not modeled", 4},
    // An attribute of an object whose type the attribute table does not list.
    {"out = torch.float32.__class__", "dtype.__class__ is not modeled"},
    // A dunder attribute of torch's callables in traced code (Dynamo's GetAttrVariable).
    {"def f(x):\n    return x + len(torch.sin.__name__)\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "reading __name__ of <built-in method sin of type object at 0x?> in traced code", 4},
    {"def f(x):\n    return x + torch.ops.aten.sin.__name__.count('s')\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "reading __name__ of", 4},
    {"def f(x):\n    return x + len(torch.nn.functional.relu.__qualname__)\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "reading __qualname__ of <function relu at 0x?> in traced code", 4},
    // Builtins' keyword arguments CPython accepts, and the types' other forms.
    {"out = sorted([3, 1], reverse=True)", "sorted() with a keyword argument is not modeled"},
    {"out = max([1, 2], key=len)", "max() with a keyword argument is not modeled"},
    {"out = list(zip([1], [2, 3], strict=True))", "zip() with a keyword argument is not modeled"},
    {"out = int('12', 16)", "int() with other than one positional argument is not modeled"},
    {"d = {}\nd.update([(1, 2)])", "dict.update() of other than one dict", 4},
    // A compiled function with *args / **kwargs called with as many values as its cached
    // code's from other sources (torch guards len(args) and the kwargs' keys).
    {"def f(*args, **kwargs):\n    return args[0] + 1\ncf = torch.compile(f, backend=backend)\n"
     "out = cf(torch.ones(2), True)\nout2 = cf(torch.ones(2), flag=True)",
     "a compiled function with *args or **kwargs called with other arguments", 7},
    // A dict argument the trace read, at the next call (torch guards its keys and the
    // values read).
    {"def f(d):\n    return d['a'] * d['b']\ncf = torch.compile(f, backend=backend)\n"
     "out = cf({'a': torch.ones(2), 'b': 3.0})\nout2 = cf({'a': torch.ones(2), 'b': 4.0})",
     "a compiled frame called again after the dict it read (d) changed", 7},
    // ... a module global's, a list item's, and one the frame itself changed (torch
    // recompiles at each call); a dict holding a function is guarded by identity inside.
    {"CFG = {'k': 2}\ndef f(x):\n    return x * CFG['k']\ncf = torch.compile(f, "
     "backend=backend)\nout = cf(torch.ones(2))\nCFG['k'] = 3\nout2 = cf(torch.ones(2))",
     "a compiled frame called again after the dict it read (G['CFG']) changed", 9},
    {"def f(x, ds):\n    return x * ds[0]['k']\ncf = torch.compile(f, backend=backend)\n"
     "ds = [{'k': 2}]\nout = cf(torch.ones(2), ds)\nds[0]['k'] = 3\n"
     "out2 = cf(torch.ones(2), ds)",
     "a compiled frame called again after the dict it read (ds[0]) changed", 9},
    {"CFG = {'k': 2}\ndef f(x):\n    CFG['k'] = CFG['k'] + 1\n    return x * CFG['k']\n"
     "cf = torch.compile(f, backend=backend)\nout = cf(torch.ones(2))\n"
     "out2 = cf(torch.ones(2))",
     "a compiled frame called again after the dict it read (G['CFG']) changed", 9},
    {"OPS = {'f': torch.sin}\ndef f(x):\n    return OPS['f'](x)\ncf = torch.compile(f, "
     "backend=backend)\nout = cf(torch.ones(2))\nout2 = cf(torch.ones(2))",
     "a compiled frame called again after the dict it read (G['OPS']) held a value guarded by "
     "identity",
     8},
    {"print('a', file=None)", "print() with file= is not modeled"},
    {"out = '%d' % 3", "printf-style string formatting (str % values) is not modeled"},
    // A cell closed over by a def after the break (LOAD_CLOSURE, not in the code layout); an
    // exception a handler caught raised again.
    {"def f(x):\n    y = x + 1\n    torch._dynamo.graph_break()\n    def inner():\n"
     "        return y\n    return inner()\nout = torch.compile(f, backend=backend)(torch.ones(2))",
     "a tensor the graph computes held in the closure cell 'y' at a graph break, closed over", 5},
    {"def h():\n    raise ValueError('v')\ndef g():\n    try:\n        h()\n"
     "    except ValueError as e:\n        return e\ndef f(x):\n    raise g()\ntry:\n"
     "    torch.compile(f, backend=backend)(torch.ones(2))\nexcept ValueError:\n    pass",
     "raising again an exception caught in traced code is not modeled", 11},
    // An exception leaving a compiled frame through a with block (torch logs its break at
    // the with statement's line), or leaving a resume function whose trace inlined a call.
    {"def f(x):\n    with torch.no_grad():\n        return {'a': x}['b']\n"
     "try:\n    torch.compile(f, backend=backend)(torch.ones(2))\nexcept KeyError:\n    pass",
     "an exception leaving a compiled frame unhandled through a with block or a try", 7},
    {"def g(x):\n    return x + 1\ndef f(x):\n    torch._dynamo.graph_break()\n    y = g(x)\n"
     "    raise ValueError('v')\ntry:\n    torch.compile(f, backend=backend)(torch.ones(2))\n"
     "except ValueError:\n    pass",
     "an exception leaving a resume function whose trace inlined calls", 10},
    {"def f(x):\n    return x.T + 1\nout = torch.compile(f, backend=backend)(torch.ones(2, 3))",
     "Tensor.T in traced code is not modeled", 4},
    // A graph-computed tensor in a closure cell an inlined function made, handed on (torch
    // replays its store among the containers'); a cell of the frame's own at a break outside
    // a call, read later.
    {"def make(x):\n    y = x + 1\n    def inner():\n        return y\n    return inner\n"
     "def f(x):\n    return make(x)\nout = torch.compile(f, backend=backend)(torch.ones(2))()",
     "a tensor the graph computes held in a closure cell an inlined function made", 10},
    {"def f(x):\n    y = x + 1\n    def inner():\n        return y\n    if x.sum() > 0:\n"
     "        return y * 2\n    return x\nout = torch.compile(f, backend=backend)(torch.ones(2))",
     "a tensor the graph computes held in the closure cell 'y' at a graph break outside a call", 7},
    // torch.Size's own methods.
    {"out = torch.ones(2).shape.numel()", "Size.numel is not modeled"},
    // Tensor.__pos__ (a pos node under Dynamo), __invert__ and __abs__.
    {"out = +torch.ones(2)", "the tensor operator unary + is not modeled"},
    {"out = ~torch.ones(2, dtype=torch.bool)", "the tensor operator unary ~ is not modeled"},
    {"out = abs(torch.ones(2))", "abs() of a tensor is not modeled"},
    // In-place writes into a tensor: its other names see them in torch.
    {"x = torch.ones(2)\ny = x\nx += 1\nout = y",
     "an augmented assignment to a tensor (Add, in place in torch) is not modeled", 5},
    {"x = torch.ones(2)\nx[0] = 5.0\nout = x", "Tensor.__setitem__ is not modeled", 4},
    {"x = torch.ones(2)\ndel x[0]", "Tensor.__delitem__ is not modeled", 4},
    {"def f(x):\n    return x + len(getattr(torch.sin, '__name__'))\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "reading __name__ of <built-in method sin of type object at 0x?> in traced code", 4},
    {"def f(x):\n    return x + len(x.add.__name__)\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "reading __name__ of <bound method <built-in function Tensor.add> of tensor(", 4},
    {"out = list(enumerate([5], torch.tensor(2)))", "enumerate() with a 'Tensor' start"},
    {"out = int('0' * 4300 + '7')", "int() of a str of more than 4300 digits is not modeled"},
    {"def g(x):\n    return x\ndef f(x):\n    return x + len(g.__qualname__)\n"
     "out = torch.compile(f, backend=backend)(torch.ones(2))",
     "reading __qualname__ of <function g at 0x?> in traced code", 6},
    // Tensors compared as a container's items: Dynamo makes == nodes (the same tensor too)
    // whose or a branch reads (probed: `y in [x, y]` broke the graph there); CPython compares
    // containers' tensors with == and reads the truth.
    {"def f(x, y):\n    return x + (1 if y in [x, y] else 2)\n"
     "out = torch.compile(f, backend=backend)(torch.ones(1), torch.ones(1))",
     "comparing a tensor as a container's item in traced code", 4},
    {"def f(x):\n    return x + [x].index(x)\n"
     "out = torch.compile(f, backend=backend)(torch.ones(1))",
     "comparing a tensor as a container's item in traced code", 4},
    {"out = [torch.ones(1)] == [torch.ones(1)]",
     "== or != between containers holding tensors is not modeled"},
    {"out = (1, torch.ones(1)) < (1, torch.ones(1))",
     "ordering containers holding tensors is not modeled"},
    // Augmented assignment to a slice (BUILD_SLICE, then the item protocol with it).
    {"xs = [1, 2]\nxs[0:1] += [5]\nout = xs",
     "augmented assignment to a slice is outside the reference", 4},
    // An attribute set on a function: torch guards its value (probed: changed, it
    // recompiles), which the reference's cache does not track.
    {"def g(x):\n    return x * g.scale\ng.scale = 3\n"
     "out = torch.compile(g, backend=backend)(torch.ones(1))",
     "reading the attribute 'scale' of a function, or asking hasattr() for it", 4},
    // hasattr() of a function and its __dict__: torch keeps the first answer unguarded
    // (probed: `hasattr(g, "tag")` stays False, `g.__dict__.get("s", 3)` stays 3 after the
    // attribute is set), while the reference's cache hit runs the code again.
    {"def g(x):\n    return x * (2 if hasattr(g, 'tag') else 3)\n"
     "out = torch.compile(g, backend=backend)(torch.ones(1))",
     "reading the attribute 'tag' of a function, or asking hasattr() for it", 4},
    {"def g(x):\n    return x * g.__dict__.get('s', 3)\n"
     "out = torch.compile(g, backend=backend)(torch.ones(1))",
     "reading a function's __dict__ in traced code is not modeled", 4},
    // Arguments that do not bind to an inlined function's parameters: torch breaks the
    // graph there (gb7312) rather than raising in the trace (probed: the call then runs
    // eagerly and raises; inside a try block the frame is skipped).
    {"def g(x, k):\n    return x * k\ndef f(x):\n    try:\n        return g(x)\n"
     "    except TypeError:\n        return x - 1\n"
     "out = torch.compile(f, backend=backend)(torch.ones(1))",
     "a call of g whose arguments do not bind in traced code", 7},
};

struct Control {
  const char* program;
  const char* exception;  // the exception torch 2.13.0 raises, as the golden records it
};

constexpr Control kControls[] = {
    {"out = torch.foo_bar", "AttributeError: module 'torch' has no attribute 'foo_bar'"},
    {"out = torch._dynamo.foo_bar",
     "AttributeError: module 'torch._dynamo' has no attribute 'foo_bar'"},
    {"out = torch.compiler.foo_bar",
     "AttributeError: module 'torch.compiler' has no attribute 'foo_bar'"},
    {"out = torch._dynamo.config.foo_bar",
     "AttributeError: torch._dynamo.config.foo_bar does not exist"},
    {"torch._dynamo.config.foo_bar = 1",
     "AttributeError: torch._dynamo.config.foo_bar does not exist"},
    {"out = 2 @ torch.ones(2)", "TypeError: unsupported operand type(s) for @: 'int' and 'Tensor'"},
    {"out = foo_bar", "NameError: name 'foo_bar' is not defined"},
    // A class statement's classes raise what CPython raises (checked with CPython 3.11).
    {"class C:\n    pass\nout = C().missing",
     "AttributeError: 'C' object has no attribute 'missing'"},
    {"class C:\n    def __init__(self, a):\n        self.a = a\nout = C()",
     "TypeError: C.__init__() missing 1 required positional argument: 'a'"},
    {"class C:\n    pass\nout = C(1)", "TypeError: C() takes no arguments"},
    {"class C:\n    pass\nc = C()\nc[0] = 1",
     "TypeError: 'C' object does not support item assignment"},
    {"out = list(enumerate([1], 'a'))",
     "TypeError: 'str' object cannot be interpreted as an integer"},
    {"out = min()", "TypeError: min expected at least 1 argument, got 0"},
    {"out = torch.ones(2).foo_bar", "AttributeError: 'Tensor' object has no attribute 'foo_bar'"},
    {"class C:\n    def f(self):\n        return super().missing\nout = C().f()",
     "AttributeError: 'super' object has no attribute 'missing'"},
    {"out = torch.ones(2) + torch.ones(3)",
     "RuntimeError: The size of tensor a (2) must match the size of tensor b (3) at non-singleton "
     "dimension 0"},
    {"@torch.library.custom_op('m::p', mutates_args=())\n"
     "def p(x: torch.Tensor) -> torch.Tensor:\n    return x.clone()\n"
     "out = p.foo_bar",
     "AttributeError: 'CustomOpDef' object has no attribute 'foo_bar'"},
    {"torch.compiler.set_stance('bogus')\nout = torch.compile(torch.sin, "
     "backend=backend)(torch.ones(2))",
     "RuntimeError: invalid torch.compile stance 'DynamoStance(stance='bogus', "
     "skip_guard_eval_unsafe=False, backend=None)'"},
};

graph::CompiledOutcome RunProbe(const std::string& program, const char* profile) {
  CompileRunOptions options;
  options.profile = profile;
  auto result =
      RunCompiled("# tdc: profiles all\nimport torch\n" + program + "\n", "probe.py", options);
  if (auto* diagnostic = std::get_if<std::string>(&result)) {
    ADD_FAILURE() << *diagnostic;
    return {};
  }
  return std::get<graph::CompiledOutcome>(std::move(result));
}

TEST(NeverSilentlyWrong, EachProbeIsRefusedWithItsReasonAndLocation) {
  EXPECT_GE(std::size(kProbes), 40u);
  for (const char* profile : {"torch-2.13", "torch-2.13-ngb"}) {
    for (const Probe& probe : kProbes) {
      if (probe.only_profile != nullptr && std::string_view(probe.only_profile) != profile)
        continue;
      std::string shown = probe.program;
      std::replace(shown.begin(), shown.end(), '\n', ' ');  // one line in the trace
      SCOPED_TRACE(fmt::format("{}: {}", profile, shown));
      graph::CompiledOutcome outcome = RunProbe(probe.program, profile);
      ASSERT_TRUE(outcome.unsupported)
          << "an ordinary outcome"
          << (outcome.exception ? ": " + outcome.exception->type + ": " + outcome.exception->message
                                : std::string());
      EXPECT_EQ(outcome.unsupported->reason.find(probe.reason), 0u) << outcome.unsupported->reason;
      EXPECT_TRUE(outcome.unsupported->where.starts_with(fmt::format("probe.py:{}:", probe.line)))
          << outcome.unsupported->where;
    }
  }
}

TEST(NeverSilentlyWrong, NamesTorchLacksRaiseWhatTorchRaises) {
  for (const char* profile : {"torch-2.13", "torch-2.13-ngb"}) {
    for (const Control& control : kControls) {
      SCOPED_TRACE(fmt::format("{}: {}", profile, control.program));
      graph::CompiledOutcome outcome = RunProbe(control.program, profile);
      EXPECT_FALSE(outcome.unsupported) << outcome.unsupported->reason;
      ASSERT_TRUE(outcome.exception);
      EXPECT_EQ(outcome.exception->type + ": " + outcome.exception->message, control.exception);
    }
  }
}

}  // namespace
}  // namespace tdc::dynamo
