// The object-id model of SEMANTICS.md §6. The first group encodes every row of the §6.3
// table whose model column is T or F: each test is the probe program of the same name in
// reference/runtime/testing/id_reuse_probe.py, written as the heap operations CPython
// performs for it (what is made, in which order, and what dies when), and asserts the
// model column. The second group checks rules I1-I11 directly.
#include "reference/runtime/heap.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>
#include <string>

namespace tdc::runtime {
namespace {

// A fixture program's module namespace and the library calls the probes make.
class Program : public ::testing::Test {
 protected:
  Program() : globals_(heap_.NewDict()) { globals_->SetStr("__name__", heap_.Intern("__main__")); }

  // A user function (def or lambda); the heap needs no code node to place it.
  Ref<PyFunction> Function(std::string_view name, std::string_view qualname = "") {
    return heap_.NewFunction(UserCode{}, heap_.Intern(name),
                             heap_.Intern(qualname.empty() ? name : qualname), globals_);
  }
  // `def name(...)` / `name = lambda ...` at module level: the function is made, then
  // bound (a previous value dies after the store, I3). Returns id(name).
  ObjectId Def(std::string_view name) { return Bind(name, Function(name)); }
  ObjectId Bind(std::string_view name, Value value) {
    const ObjectId id = value->id();
    globals_->SetStr(name, std::move(value));
    return id;
  }
  void Del(std::string_view name) { ASSERT_TRUE(globals_->EraseStr(name)) << name; }
  Value Get(std::string_view name) { return globals_->GetStr(name); }
  ObjectId Id(std::string_view name) { return Get(name)->id(); }

  // `def deco(fn): @functools.wraps(fn) def wrapper(*a, **k): return fn(*a, **k);
  // return wrapper`: deco's frame makes a cell for fn, then the closure tuple and the
  // wrapper; update_wrapper copies the names, makes wrapper.__dict__ and sets __wrapped__.
  Ref<PyFunction> Deco(const Value& fn) {
    Ref<PyCell> cell = heap_.NewCell(fn);
    Ref<PyFunction> wrapper = Function("wrapper", "deco.<locals>.wrapper");
    wrapper->closure = heap_.NewTuple({cell});
    CopyWrapperAttributes(*wrapper, fn);
    return wrapper;
  }

  // `def make(k): def inner(x): return x + k; return inner`: the call makes a cell for
  // k, then the closure tuple and inner.
  Ref<PyFunction> Make(int64_t k) {
    Ref<PyCell> cell = heap_.NewCell(heap_.Int(k));
    Ref<PyFunction> inner = Function("inner", "make.<locals>.inner");
    inner->closure = heap_.NewTuple({cell});
    return inner;
  }

  // torch.compiler.disable(fn) (I10): one `_fn` function that outlives the call; its
  // closure holds fn and the DisableContext (an object of a class no probe tracks; None
  // stands in for it here).
  Ref<PyFunction> Disable(const Value& fn) {
    Ref<PyCell> fn_cell = heap_.NewCell(fn);
    Ref<PyCell> context_cell = heap_.NewCell(heap_.None());
    NativeCode body = [](PyFunction&, CallArgs&) -> Value { return nullptr; };
    Ref<PyFunction> wrapper =
        heap_.NewFunction(std::move(body), heap_.Intern("_fn"),
                          heap_.Intern("DisableContext.__call__.<locals>._fn"), globals_);
    wrapper->closure = heap_.NewTuple({fn_cell, context_cell});
    CopyWrapperAttributes(*wrapper, fn);
    wrapper->SetAttr("marker", heap_.True());
    return wrapper;
  }

  // torch._dynamo.allow_in_graph(fn) (I10): records id(fn) and registers a finalizer whose
  // deregistration callable (one function object) lives until it has run.
  FinalizerHandle AllowInGraph(const Value& fn) {
    const ObjectId id = fn->id();
    allowed_.insert(id);
    Ref<PyFunction> deregister = Function("<deregister>");
    return heap_.AddFinalizer(fn, [this, deregister, id] { allowed_.erase(id); });
  }
  // disallow_in_graph(fn) makes no object (I10); the finalizer stays registered.
  void DisallowInGraph(const Value& fn) { allowed_.erase(fn->id()); }

  // torch.ones(n) and friends: a new tensor object per result.
  Ref<PyTensor> NewTensor(int64_t n, double fill = 1) {
    std::vector<Scalar> values(static_cast<size_t>(n), Scalar::Float(fill, DType::kFloat32));
    return heap_.NewTensor(TensorFromValues(DType::kFloat32, {n}, values));
  }
  // t.view(sizes): a view's base is the root tensor's object (I8).
  Ref<PyTensor> View(const Ref<PyTensor>& t, Shape sizes) {
    Tensor view = t->tensor();
    view.strides = ContiguousStrides(sizes);
    view.sizes = std::move(sizes);
    return heap_.NewTensor(std::move(view), t->base() ? t->base() : t);
  }

  Heap heap_;
  Ref<PyDict> globals_;  // declared after heap_: dropped before it
  std::set<ObjectId> allowed_;

 private:
  void CopyWrapperAttributes(PyFunction& wrapper, const Value& fn) {
    const auto* wrapped = DynCast<PyFunction>(fn);
    for (const char* attr : {"__module__", "__name__", "__qualname__", "__doc__"}) {
      wrapper.SetAttr(attr, wrapped->GetAttr(attr));
    }
    wrapper.GetAttr("__dict__");  // wrapper.__dict__.update(fn.__dict__) makes the dict
    wrapper.SetAttr("__wrapped__", fn);
  }
};

// --- §6.3 rows ---------------------------------------------------------------------------

using IdReuseProbe = Program;

TEST_F(IdReuseProbe, DefDelDef) {
  const ObjectId old_id = Def("f");
  Del("f");
  EXPECT_EQ(Def("g"), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, S03AllowInGraph) {
  Def("do_allow_in_graph");
  AllowInGraph(Get("do_allow_in_graph"));
  const ObjectId old_id = Id("do_allow_in_graph");
  Del("do_allow_in_graph");
  EXPECT_TRUE(allowed_.empty());                  // the finalizer deregistered the id
  EXPECT_EQ(Def("dont_allow_in_graph"), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, DisallowDelDef) {
  Def("f");
  AllowInGraph(Get("f"));
  DisallowInGraph(Get("f"));
  const ObjectId old_id = Id("f");
  Del("f");
  EXPECT_EQ(Def("g"), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, LambdaDelLambda) {
  const ObjectId old_id = Bind("f", Function("<lambda>"));
  Del("f");
  EXPECT_EQ(Bind("g", Function("<lambda>")), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, RebindDef) {
  const ObjectId old_id = Def("f");
  EXPECT_NE(Def("f"), old_id);  // out_reused: F (new f is made before old f dies)
  EXPECT_EQ(Def("h"), old_id);  // out_reused_next: T
}

TEST_F(IdReuseProbe, RebindLambda) {
  const ObjectId old_id = Bind("f", Function("<lambda>"));
  EXPECT_NE(Bind("f", Function("<lambda>")), old_id);  // out_reused: F
  EXPECT_EQ(Bind("h", Function("<lambda>")), old_id);  // out_reused_next: T
}

TEST_F(IdReuseProbe, RebindToNone) {
  const ObjectId old_id = Def("f");
  Bind("f", heap_.None());
  EXPECT_EQ(Def("g"), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, TempLambda) {
  // old_id = id(lambda x: x + 1): the temporary dies when id() returns.
  const ObjectId old_id = Function("<lambda>")->id();
  EXPECT_EQ(Bind("g", Function("<lambda>")), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, TempInExpr) {
  // id(lambda) == id(lambda): the first lambda is dead before the second is made.
  const ObjectId first = Function("<lambda>")->id();
  const ObjectId second = Function("<lambda>")->id();
  EXPECT_EQ(first, second);  // out_reused: T
}

TEST_F(IdReuseProbe, ScopeExitInner) {
  Def("outer");
  ObjectId old_id = 0;
  {  // old_id = outer(): the local `inner` dies when the call returns
    Ref<PyFunction> inner = Function("inner", "outer.<locals>.inner");
    old_id = inner->id();
  }
  EXPECT_EQ(Def("g"), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, ClosureDelRemake) {
  Def("make");
  const ObjectId old_id = Bind("f", Make(1));
  Del("f");
  EXPECT_EQ(Bind("g", Make(2)), old_id);  // T
}

TEST_F(IdReuseProbe, ClosureDelDef) {
  Def("make");
  const ObjectId old_id = Bind("f", Make(1));
  Del("f");
  EXPECT_EQ(Def("g"), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, LifoTwo) {
  const ObjectId id1 = Def("f1");
  const ObjectId id2 = Def("f2");
  Del("f1");
  Del("f2");
  const ObjectId g = Def("g");
  const ObjectId h = Def("h");
  EXPECT_EQ(g, id2);  // out_g_is_f2: T
  EXPECT_EQ(h, id1);  // out_h_is_f1: T
  EXPECT_NE(g, id1);  // out_g_is_f1: F
}

TEST_F(IdReuseProbe, InterveningFunc) {
  const ObjectId old_id = Def("f");
  Del("f");
  const ObjectId other = Bind("other", Function("<lambda>"));
  EXPECT_NE(Def("g"), old_id);  // out_reused: F
  EXPECT_EQ(other, old_id);     // out_other_reused: T
}

TEST_F(IdReuseProbe, InterveningList) {
  const ObjectId old_id = Def("f");
  Del("f");
  Bind("keep", heap_.NewList({heap_.Int(1), heap_.Int(2), heap_.Int(3)}));
  Bind("t", NewTensor(3));
  EXPECT_EQ(Def("g"), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, FuncThenOtherKind) {
  const ObjectId old_id = Def("f");
  Del("f");
  EXPECT_NE(Bind("a", heap_.NewList({heap_.Int(1), heap_.Int(2)})), old_id);  // out_list: F
  Ref<PyDict> d = heap_.NewDict();
  d->Set(heap_.Intern("k"), heap_.Int(1));
  EXPECT_NE(Bind("d", d), old_id);             // out_dict: F
  EXPECT_NE(Bind("t", NewTensor(2)), old_id);  // out_tensor: F
}

TEST_F(IdReuseProbe, FuncWithAttrs) {
  // def f(x, y=2): the defaults (2,) are a code constant.
  Ref<PyFunction> f = Function("f");
  f->defaults = heap_.ConstantTuple({heap_.ConstantInt(2)});
  const ObjectId old_id = Bind("f", f);
  f->SetAttr("marker", heap_.True());  // makes f.__dict__
  f->SetAttr("__qualname__", heap_.Intern("renamed"));
  f.Reset();
  Del("f");
  // def g(x, *, z=3): the kwdefaults dict is built before the function.
  Ref<PyDict> kwdefaults = heap_.NewDict();
  kwdefaults->SetStr("z", heap_.Int(3));
  Ref<PyFunction> g = Function("g");
  g->kwdefaults = kwdefaults;
  EXPECT_EQ(Bind("g", g), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, OldFuncManyBetween) {
  const ObjectId old_id = Def("f");
  {  // keep = [lambda x, i=i: x + i for i in range(300)]: 3.11 runs the comprehension as
     // a function object that dies when it returns.
    Ref<PyFunction> listcomp = Function("<listcomp>");
    Ref<PyList> keep = heap_.NewList();
    for (int64_t i = 0; i < 300; ++i) {
      Ref<PyFunction> fn = Function("<lambda>", "<listcomp>.<lambda>");
      fn->defaults = heap_.NewTuple({heap_.Int(i)});
      keep->items().push_back(fn);
    }
    Bind("keep", keep);
  }
  Del("f");
  EXPECT_EQ(Def("g"), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, TwoPoolsOrder) {
  const ObjectId id_a = Bind("a", Function("<lambda>"));
  {
    Ref<PyFunction> listcomp = Function("<listcomp>");
    Ref<PyList> keep = heap_.NewList();
    for (int64_t i = 0; i < 300; ++i) {
      Ref<PyFunction> fn = Function("<lambda>");
      fn->defaults = heap_.NewTuple({heap_.Int(i)});
      keep->items().push_back(fn);
    }
    Bind("keep", keep);
  }
  const ObjectId id_b = Bind("b", Function("<lambda>"));
  Del("a");
  Del("b");
  const ObjectId n = Bind("n", Function("<lambda>"));
  EXPECT_EQ(n, id_b);  // out_new_is_b: T (out_new_is_a is not predicted)
  (void)id_a;
}

TEST_F(IdReuseProbe, WrapsDelWraps) {
  Def("deco");
  Def("base1");
  Def("base2");
  const ObjectId old_id = Bind("w", Deco(Get("base1")));
  Del("w");
  EXPECT_EQ(Bind("w2", Deco(Get("base2"))), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, WrapsDecoratorForm) {
  Def("deco");
  // @deco def f: the inner function is made first, then the wrapper is bound to f.
  const ObjectId old_id = Bind("f", Deco(Function("f")));
  const ObjectId old_inner_id = DynCast<PyFunction>(Get("f"))->GetAttr("__wrapped__")->id();
  Del("f");
  const ObjectId g = Bind("g", Deco(Function("g")));
  const ObjectId g_inner = DynCast<PyFunction>(Get("g"))->GetAttr("__wrapped__")->id();
  EXPECT_NE(g, old_id);        // out_reused: F
  EXPECT_EQ(g_inner, old_id);  // out_new_inner_is_old_wrapper: T
  EXPECT_EQ(g, old_inner_id);  // out_new_wrapper_is_old_inner: T
}

TEST_F(IdReuseProbe, DisableDelDisable) {
  Def("base1");
  Def("base2");
  const ObjectId old_id = Bind("w", Disable(Get("base1")));
  Del("w");
  EXPECT_EQ(Bind("w2", Disable(Get("base2"))), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, DisableDecoratorForm) {
  const ObjectId old_id = Bind("f", Disable(Function("f")));
  const ObjectId old_inner_id = DynCast<PyFunction>(Get("f"))->GetAttr("__wrapped__")->id();
  Del("f");
  const ObjectId g = Bind("g", Disable(Function("g")));
  const ObjectId g_inner = DynCast<PyFunction>(Get("g"))->GetAttr("__wrapped__")->id();
  EXPECT_NE(g, old_id);        // out_reused: F
  EXPECT_EQ(g_inner, old_id);  // out_new_inner_is_old_wrapper: T
  EXPECT_EQ(g, old_inner_id);  // out_new_wrapper_is_old_inner: T
}

TEST_F(IdReuseProbe, DisableDelDef) {
  const ObjectId old_id = Bind("f", Disable(Function("f")));
  const ObjectId old_inner_id = DynCast<PyFunction>(Get("f"))->GetAttr("__wrapped__")->id();
  Del("f");
  const ObjectId g = Def("g");
  const ObjectId h = Def("h");
  EXPECT_EQ(g, old_id);        // out_reused: T
  EXPECT_NE(g, old_inner_id);  // out_g_is_old_inner: F
  EXPECT_EQ(h, old_inner_id);  // out_h_is_old_inner: T
}

TEST_F(IdReuseProbe, TensorDelNew) {
  const ObjectId old_id = Bind("t", NewTensor(3));
  Del("t");
  EXPECT_EQ(Bind("u", NewTensor(3)), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, TensorRebind) {
  const ObjectId old_id = Bind("t", NewTensor(3));
  EXPECT_NE(Bind("t", NewTensor(3, 0)), old_id);  // out_reused: F
  EXPECT_EQ(Bind("u", NewTensor(3)), old_id);     // out_reused_next: T
}

TEST_F(IdReuseProbe, TensorTemp) {
  const ObjectId old_id = NewTensor(3)->id();     // id(torch.ones(3))
  EXPECT_EQ(Bind("u", NewTensor(3, 0)), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, TensorOpResult) {
  Bind("a", NewTensor(4));
  const ObjectId old_id = Bind("t", NewTensor(4));  // a + 1
  Del("t");
  EXPECT_EQ(Bind("u", NewTensor(4)), old_id);  // a * 2; out_reused: T
}

TEST_F(IdReuseProbe, TensorViewAlive) {
  Ref<PyTensor> t = NewTensor(4);
  const ObjectId old_id = Bind("t", t);
  Bind("v", View(t, {2, 2}));
  t.Reset();
  Del("t");
  EXPECT_NE(Bind("u", NewTensor(4, 0)), old_id);                 // out_reused: F
  EXPECT_EQ(DynCast<PyTensor>(Get("v"))->base()->id(), old_id);  // out_base_preserved: T
}

TEST_F(IdReuseProbe, TensorThenList) {
  const ObjectId old_id = Bind("t", NewTensor(3));
  Del("t");
  EXPECT_NE(Bind("a", heap_.NewList({heap_.Int(1), heap_.Int(2)})), old_id);  // out_list: F
  Ref<PyDict> d = heap_.NewDict();
  d->Set(heap_.Intern("k"), heap_.Int(1));
  EXPECT_NE(Bind("d", d), old_id);  // out_dict: F
}

TEST_F(IdReuseProbe, ListDelList) {
  Bind("x", heap_.ConstantInt(1));
  Bind("y", heap_.ConstantInt(2));
  const ObjectId old_id = Bind("a", heap_.NewList({Get("x"), Get("y")}));
  Del("a");
  EXPECT_EQ(Bind("b", heap_.NewList({Get("y"), Get("x"), Get("x")})), old_id);  // T
}

TEST_F(IdReuseProbe, TupleDelTupleSameLen) {
  Bind("x", heap_.ConstantInt(1));
  Bind("y", heap_.ConstantInt(2));
  const ObjectId old_id = Bind("a", heap_.NewTuple({Get("x"), Get("y")}));
  Del("a");
  EXPECT_EQ(Bind("b", heap_.NewTuple({Get("y"), Get("x")})), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, TupleDelTupleOtherLen) {
  Bind("x", heap_.ConstantInt(1));
  Bind("y", heap_.ConstantInt(2));
  const ObjectId old_id = Bind("a", heap_.NewTuple({Get("x"), Get("y")}));
  Del("a");
  EXPECT_NE(Bind("b", heap_.NewTuple({Get("x"), Get("y"), Get("x")})), old_id);  // F
}

TEST_F(IdReuseProbe, DictDelDict) {
  Ref<PyDict> a = heap_.NewDict();
  a->Set(heap_.Intern("k"), heap_.ConstantInt(1));
  const ObjectId old_id = Bind("a", std::move(a));
  Del("a");
  Ref<PyDict> b = heap_.NewDict();
  b->Set(heap_.Intern("j"), heap_.ConstantInt(2));
  EXPECT_EQ(Bind("b", std::move(b)), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, FloatDelFloat) {
  Bind("x", heap_.ConstantFloat(3.0));
  const ObjectId old_id = Bind("a", heap_.Float(3.0 * 1.5));
  Del("a");
  EXPECT_EQ(Bind("b", heap_.Float(3.0 * 2.5)), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, BigintDelBigint) {
  Bind("n", heap_.ConstantInt(100003));
  const ObjectId old_id = Bind("a", IntMul(heap_, 100003, 7));
  Del("a");
  EXPECT_EQ(Bind("b", IntMul(heap_, 100003, 11)), old_id);  // out_reused: T
}

TEST_F(IdReuseProbe, SmallintCached) {
  Bind("n", heap_.ConstantInt(5));
  const ObjectId a = Bind("a", IntAdd(heap_, 5, 1));   // n + 1
  const ObjectId b = Bind("b", heap_.ConstantInt(6));  // 3 + 3, folded by the compiler
  EXPECT_EQ(a, b);                                     // out_same_small: T
  // def c1(): return (1, 2): the tuple is a constant of c1's code object, returned by
  // every call.
  const Ref<PyTuple> c1_const = heap_.ConstantTuple({heap_.ConstantInt(1), heap_.ConstantInt(2)});
  const ObjectId first_call = Value(c1_const)->id();
  const ObjectId second_call = Value(c1_const)->id();
  EXPECT_EQ(first_call, second_call);  // out_same_const: T
  EXPECT_TRUE(c1_const->immortal());
}

TEST_F(IdReuseProbe, WrapsBaseDiesToo) {
  Def("deco");
  // w = deco(lambda x: x): only the wrapper holds the lambda.
  const ObjectId old_id = Bind("w", Deco(Function("<lambda>")));
  const ObjectId old_base_id = DynCast<PyFunction>(Get("w"))->GetAttr("__wrapped__")->id();
  Del("w");
  EXPECT_EQ(Bind("a", Function("<lambda>")), old_id);       // out_first_is_old_wrapper: T
  EXPECT_EQ(Bind("b", Function("<lambda>")), old_base_id);  // out_second_is_old_base: T
}

TEST_F(IdReuseProbe, TensorTwoLifo) {
  const ObjectId id1 = Bind("t1", NewTensor(2));
  const ObjectId id2 = Bind("t2", NewTensor(2, 0));
  Del("t1");
  Del("t2");
  EXPECT_EQ(Bind("u1", NewTensor(2)), id2);  // out_u1_is_t2: T
  EXPECT_EQ(Bind("u2", NewTensor(2)), id1);  // out_u2_is_t1: T
}

TEST_F(IdReuseProbe, TensorThenSize) {
  // torch.Size is a tuple subclass of its own class; the runtime has no Size kind yet,
  // so `m.shape` is a tuple here. Either way it is not the tensor class (I4).
  Bind("m2", NewTensor(6));
  Bind("m4", NewTensor(6));
  const ObjectId old_id = Bind("t", NewTensor(3));
  Del("t");
  const ObjectId s2 = Bind("s2", heap_.NewTuple({heap_.Int(2), heap_.Int(3)}));
  EXPECT_NE(s2, old_id);  // out_2d_size_is_old_tensor: F
  Del("s2");
  const ObjectId s4 =
      Bind("s4", heap_.NewTuple({heap_.Int(1), heap_.Int(1), heap_.Int(2), heap_.Int(3)}));
  EXPECT_NE(s4, old_id);  // out_4d_size_is_old_tensor: F
}

TEST_F(IdReuseProbe, FinalizeCallbackAllocs) {
  Bind("calls", heap_.NewList());
  Def("cb");
  Def("f");
  // weakref.finalize(f, cb); cb: tmp = [lambda: i for i in range(3)];
  // calls.append(len(tmp)). Everything cb makes dies before it returns (I7).
  heap_.AddFinalizer(Get("f"), [this] {
    Ref<PyFunction> listcomp = Function("<listcomp>");
    Ref<PyCell> i = heap_.NewCell();
    Ref<PyList> tmp = heap_.NewList();
    for (int64_t k = 0; k < 3; ++k) {
      i->contents = heap_.Int(k);
      Ref<PyFunction> fn = Function("<lambda>");
      fn->closure = heap_.NewTuple({i});
      tmp->items().push_back(fn);
    }
    listcomp.Reset();
    DynCast<PyList>(Get("calls"))->items().push_back(heap_.Int(3));
  });
  const ObjectId old_id = Id("f");
  Del("f");
  EXPECT_EQ(Def("g"), old_id);  // out_reused: T
  Ref<PyList> expected = heap_.NewList({heap_.Int(3)});
  EXPECT_TRUE(PyEquals(Get("calls"), expected));  // out_called: T
}

TEST_F(IdReuseProbe, ListCompTempFuncs) {
  std::vector<ObjectId> ids;
  {
    Ref<PyList> fs = heap_.NewList();
    for (int k = 0; k < 3; ++k) fs->items().push_back(Function("<lambda>"));
    for (const Value& f : fs->items()) ids.push_back(f->id());
    Bind("fs", std::move(fs));
  }
  Del("fs");
  const std::vector<ObjectId> fresh = {Bind("n0", Function("<lambda>")),
                                       Bind("n1", Function("<lambda>")),
                                       Bind("n2", Function("<lambda>"))};
  EXPECT_EQ(fresh[0], ids[0]);                                        // out_first_is_last_freed: T
  EXPECT_NE(fresh[0], ids[2]);                                        // out_first_is_item2: F
  EXPECT_NE(fresh, std::vector<ObjectId>(ids.rbegin(), ids.rend()));  // out_order_reversed: F
  EXPECT_EQ(fresh, ids);                                              // out_order_same: T
}

TEST_F(IdReuseProbe, DictValuesOrder) {
  std::vector<ObjectId> ids;
  {
    Ref<PyDict> d = heap_.NewDict();
    for (const char* key : {"a", "b", "c"}) {
      Ref<PyFunction> fn = Function("<lambda>");
      ids.push_back(fn->id());
      d->Set(heap_.Intern(key), fn);
    }
    Bind("d", std::move(d));
  }
  Del("d");
  EXPECT_EQ(Bind("n0", Function("<lambda>")), ids[2]);  // out_first_is_last_value: T
}

// --- rules I1-I11 -------------------------------------------------------------------------

using HeapRules = Program;

// The free stack of a class, bottom to top.
std::vector<ObjectId> Stack(const Heap& heap, ObjectKind kind, size_t tuple_length = 0) {
  return heap.FreeIds(kind, tuple_length);
}

// I6 step 1: the callback runs before the id is freed, so nothing made inside it can take
// the dying object's id, and the id is pushed after the callback's transients.
TEST_F(HeapRules, FinalizerRunsWhileIdIsTaken) {
  Ref<PyFunction> f = Function("f");
  const ObjectId f_id = f->id();
  bool ran = false;
  ObjectId transient_id = 0;
  heap_.AddFinalizer(f, [&] {
    ran = true;
    const std::vector<ObjectId> free_now = Stack(heap_, ObjectKind::kFunction);
    EXPECT_EQ(std::count(free_now.begin(), free_now.end(), f_id), 0);
    transient_id = Function("transient")->id();
  });
  f.Reset();
  ASSERT_TRUE(ran);
  EXPECT_NE(transient_id, f_id);
  EXPECT_EQ(Stack(heap_, ObjectKind::kFunction), (std::vector<ObjectId>{transient_id, f_id}));
}

// Several finalize callbacks on one object run newest first (measured on 3.11.7:
// finalize(f, append, 1); finalize(f, append, 2); finalize(f, append, 3); del f gives
// [3, 2, 1]).
TEST_F(HeapRules, SeveralFinalizersRunNewestFirst) {
  Ref<PyFunction> f = Function("f");
  std::vector<int> order;
  for (int k = 1; k <= 3; ++k) heap_.AddFinalizer(f, [&order, k] { order.push_back(k); });
  f.Reset();
  EXPECT_EQ(order, (std::vector<int>{3, 2, 1}));
}

TEST_F(HeapRules, DetachedFinalizerDoesNotRunAndDropsItsCaptures) {
  Ref<PyFunction> f = Function("f");
  Ref<PyFunction> captured = Function("captured");
  const ObjectId captured_id = captured->id();
  bool ran = false;
  FinalizerHandle handle = heap_.AddFinalizer(f, [&ran, captured] { ran = true; });
  captured.Reset();
  EXPECT_TRUE(heap_.FinalizerAlive(handle));
  EXPECT_TRUE(Stack(heap_, ObjectKind::kFunction).empty());  // the callback holds it
  EXPECT_TRUE(heap_.DetachFinalizer(handle));
  EXPECT_EQ(Stack(heap_, ObjectKind::kFunction), std::vector<ObjectId>{captured_id});
  EXPECT_FALSE(heap_.FinalizerAlive(handle));
  EXPECT_FALSE(heap_.DetachFinalizer(handle));
  f.Reset();
  EXPECT_FALSE(ran);
}

TEST_F(HeapRules, FinalizerIsGoneAfterItRan) {
  Ref<PyFunction> f = Function("f");
  FinalizerHandle handle = heap_.AddFinalizer(f, [] {});
  f.Reset();
  EXPECT_FALSE(heap_.FinalizerAlive(handle));
  EXPECT_FALSE(heap_.DetachFinalizer(handle));
}

// A Python exception raised by a callback is ignored; the death still completes.
TEST_F(HeapRules, FinalizerExceptionIsIgnored) {
  Ref<PyFunction> f = Function("f");
  const ObjectId f_id = f->id();
  heap_.AddFinalizer(f, [this] { Raise(heap_, ExcType::kRuntimeError, "in callback"); });
  f.Reset();
  EXPECT_EQ(Stack(heap_, ObjectKind::kFunction), std::vector<ObjectId>{f_id});
}

// weakref.ref(1) raises "TypeError: cannot create weak reference to 'int' object".
TEST_F(HeapRules, FinalizerOnObjectWithoutWeakrefsRaisesTypeError) {
  try {
    heap_.AddFinalizer(heap_.NewList(), [] {});
    FAIL() << "no error";
  } catch (const PyError& e) {
    EXPECT_EQ(e.type(), ExcType::kTypeError);
    EXPECT_STREQ(e.what(), "TypeError: cannot create weak reference to 'list' object");
  }
  EXPECT_NO_THROW(heap_.AddFinalizer(NewTensor(1), [] {}));
}

// I10: allow_in_graph's deregistration function dies during fn's step (1), so after
// `del fn` the function stack is [..., deregister, fn].
TEST_F(HeapRules, AllowInGraphClosureDiesBeforeTheFunction) {
  Ref<PyFunction> fn = Function("fn");
  const ObjectId fn_id = fn->id();
  AllowInGraph(fn);
  ASSERT_TRUE(Stack(heap_, ObjectKind::kFunction).empty());
  fn.Reset();
  const std::vector<ObjectId> stack = Stack(heap_, ObjectKind::kFunction);
  ASSERT_EQ(stack.size(), 2u);
  EXPECT_EQ(stack[1], fn_id);
  EXPECT_NE(stack[0], fn_id);
}

// I9: a wrapper that alone holds its wrapped function frees it first.
TEST_F(HeapRules, WrapperFreesTheWrappedFunctionFirst) {
  Ref<PyFunction> inner = Function("inner");
  const ObjectId inner_id = inner->id();
  Ref<PyFunction> wrapper = Deco(inner);
  const ObjectId wrapper_id = wrapper->id();
  inner.Reset();
  wrapper.Reset();
  EXPECT_EQ(Stack(heap_, ObjectKind::kFunction), (std::vector<ObjectId>{inner_id, wrapper_id}));
}

// I6: list and tuple items die last to first, then the container.
TEST_F(HeapRules, SequenceItemsDieLastToFirst) {
  std::vector<Value> tensors = {NewTensor(1), NewTensor(1), NewTensor(1)};
  const std::vector<ObjectId> ids = {tensors[0]->id(), tensors[1]->id(), tensors[2]->id()};
  Ref<PyList> list = heap_.NewList(tensors);
  Ref<PyTuple> tuple = heap_.NewTuple(std::move(tensors));
  const ObjectId tuple_id = tuple->id();
  tuple.Reset();  // the list still holds the tensors
  EXPECT_TRUE(Stack(heap_, ObjectKind::kTensor).empty());
  EXPECT_EQ(Stack(heap_, ObjectKind::kTuple, 3), std::vector<ObjectId>{tuple_id});
  const ObjectId list_id = list->id();
  list.Reset();
  EXPECT_EQ(Stack(heap_, ObjectKind::kTensor), (std::vector<ObjectId>{ids[2], ids[1], ids[0]}));
  EXPECT_EQ(Stack(heap_, ObjectKind::kList), std::vector<ObjectId>{list_id});

  Ref<PyTuple> floats = heap_.NewTuple({heap_.Float(0.5), heap_.Float(1.5)});
  const std::vector<ObjectId> float_ids = {floats->items()[0]->id(), floats->items()[1]->id()};
  floats.Reset();
  EXPECT_EQ(Stack(heap_, ObjectKind::kFloat), (std::vector<ObjectId>{float_ids[1], float_ids[0]}));
}

// list.clear() drops items last to first too.
TEST_F(HeapRules, ListClearDropsLastToFirst) {
  Ref<PyList> list = heap_.NewList({heap_.Float(1.5), heap_.Float(2.5)});
  const std::vector<ObjectId> ids = {list->items()[0]->id(), list->items()[1]->id()};
  list->Clear();
  EXPECT_TRUE(list->items().empty());
  EXPECT_EQ(Stack(heap_, ObjectKind::kFloat), (std::vector<ObjectId>{ids[1], ids[0]}));
}

// I6 / dict_dealloc: per entry in insertion order, the key then the value. `del d[k]`
// (delitem_common) drops the stored key, then the value.
TEST_F(HeapRules, DictDropsKeysAndValuesInInsertionOrder) {
  Ref<PyDict> d = heap_.NewDict();
  std::vector<ObjectId> ids;
  {
    std::vector<Value> strs;
    for (const char* text : {"k1", "v1", "k2", "v2", "k3", "v3"}) {
      strs.push_back(heap_.Str(text));
      ids.push_back(strs.back()->id());
    }
    for (size_t i = 0; i < strs.size(); i += 2) d->Set(strs[i], strs[i + 1]);
  }
  ObjectId probe_id = 0;
  {
    Value probe = heap_.Str("k2");  // an equal key, not the stored one
    probe_id = probe->id();
    EXPECT_TRUE(d->Erase(probe));
    EXPECT_EQ(Stack(heap_, ObjectKind::kStr), (std::vector<ObjectId>{ids[2], ids[3]}));
  }
  d.Reset();
  EXPECT_EQ(Stack(heap_, ObjectKind::kStr),
            (std::vector<ObjectId>{ids[2], ids[3], probe_id, ids[0], ids[1], ids[4], ids[5]}));
}

// func_clear then func_dealloc: globals, module, defaults, kwdefaults, doc, __dict__,
// closure, name, qualname; the native code's captures last; then the function. Each
// reference below alone holds a function (or str), so the order shows on those stacks.
TEST_F(HeapRules, FunctionDropsReferencesInCPythonOrder) {
  std::vector<ObjectId> fn_order;  // the function ids in the order they must die
  auto only_held = [&](std::string_view name) {
    Ref<PyFunction> held = Function(name);
    fn_order.push_back(held->id());
    return held;
  };
  Ref<PyDict> globals = heap_.NewDict();
  globals->SetStr("__name__", heap_.Str("mod"));
  globals->SetStr("g", only_held("in_globals"));
  Ref<PyFunction> in_defaults = only_held("in_defaults");
  Ref<PyFunction> in_kwdefaults = only_held("in_kwdefaults");
  Ref<PyFunction> in_dict = only_held("in_dict");
  Ref<PyFunction> in_closure = only_held("in_closure");
  Ref<PyFunction> captured = only_held("captured");
  NativeCode body = [captured](PyFunction&, CallArgs&) -> Value { return captured; };
  Ref<PyFunction> fn =
      heap_.NewFunction(std::move(body), heap_.Str("fname"), heap_.Str("fqual"), globals);
  fn_order.push_back(fn->id());
  const ObjectId globals_id = globals->id();
  const ObjectId module_id = fn->module->id();
  const ObjectId name_id = fn->name->id();
  const ObjectId qualname_id = fn->qualname->id();
  fn->defaults = heap_.NewTuple({in_defaults});
  Ref<PyDict> kwdefaults = heap_.NewDict();
  kwdefaults->SetStr("k", in_kwdefaults);
  const ObjectId kwdefaults_id = kwdefaults->id();
  fn->kwdefaults = std::move(kwdefaults);
  fn->doc = heap_.Str("the doc");
  const ObjectId doc_id = fn->doc->id();
  fn->SetAttr("marker", in_dict);
  const ObjectId attrs_id = fn->attrs->id();
  fn->closure = heap_.NewTuple({heap_.NewCell(in_closure)});
  for (Ref<PyFunction>* r : {&in_defaults, &in_kwdefaults, &in_dict, &in_closure, &captured}) {
    r->Reset();
  }
  globals.Reset();
  ASSERT_TRUE(Stack(heap_, ObjectKind::kFunction).empty());

  fn.Reset();
  EXPECT_EQ(Stack(heap_, ObjectKind::kFunction), fn_order);
  // The globals dict dies first; its "__name__" value is also fn's __module__, so that
  // str dies second.
  EXPECT_EQ(Stack(heap_, ObjectKind::kDict),
            (std::vector<ObjectId>{globals_id, kwdefaults_id, attrs_id}));
  EXPECT_EQ(Stack(heap_, ObjectKind::kStr),
            (std::vector<ObjectId>{module_id, doc_id, name_id, qualname_id}));
}

// I8: the base's object lives while a view does; it dies inside the view's death.
TEST_F(HeapRules, TensorBaseLivesWhileAViewDoes) {
  Ref<PyTensor> t = NewTensor(4);
  const ObjectId base_id = t->id();
  Ref<PyTensor> v = View(t, {2, 2});
  Ref<PyTensor> vv = View(v, {4});
  EXPECT_EQ(vv->base().get(), t.get());  // a view of a view has the root as its base
  const ObjectId v_id = v->id();
  const ObjectId vv_id = vv->id();
  t.Reset();
  v.Reset();
  EXPECT_EQ(Stack(heap_, ObjectKind::kTensor), std::vector<ObjectId>{v_id});
  EXPECT_EQ(vv->base()->id(), base_id);
  vv.Reset();
  EXPECT_EQ(Stack(heap_, ObjectKind::kTensor), (std::vector<ObjectId>{v_id, base_id, vv_id}));
}

// I2: shared objects never die and keep their ids.
TEST_F(HeapRules, SharedObjectsAreNeverReleased) {
  std::vector<Value> shared = {
      heap_.None(),
      heap_.True(),
      heap_.Int(256),
      heap_.ConstantInt(1000),
      heap_.ConstantFloat(0.5),
      heap_.Intern("name"),
      heap_.Str("x"),
      heap_.Str(""),
      heap_.NewTuple({}),
      heap_.ConstantTuple({heap_.ConstantInt(1), heap_.ConstantInt(2)}),
      heap_.NewBuiltin("len", [](CallArgs&) -> Value { return nullptr; }),
      heap_.NewModule("operator"),
  };
  std::vector<ObjectId> ids;
  for (const Value& v : shared) {
    EXPECT_TRUE(v->immortal()) << Repr(v);
    ids.push_back(v->id());
  }
  const size_t live = heap_.live_objects();
  shared.clear();
  EXPECT_EQ(heap_.live_objects(), live);
  EXPECT_EQ(heap_.None()->id(), ids[0]);
  EXPECT_EQ(heap_.Int(256)->id(), ids[2]);
  EXPECT_EQ(heap_.ConstantInt(256)->id(), ids[2]);
  EXPECT_EQ(heap_.Intern("name")->id(), ids[5]);
  EXPECT_EQ(heap_.Intern("x")->id(), ids[6]);  // one-character strs are singletons
  EXPECT_EQ(heap_.Intern("")->id(), ids[7]);
  EXPECT_EQ(heap_.NewTuple({})->id(), ids[8]);
  for (ObjectKind kind :
       {ObjectKind::kNone, ObjectKind::kBool, ObjectKind::kInt, ObjectKind::kFloat,
        ObjectKind::kStr, ObjectKind::kBuiltin, ObjectKind::kModule}) {
    EXPECT_TRUE(Stack(heap_, kind).empty()) << ObjectKindName(kind);
  }
  EXPECT_TRUE(Stack(heap_, ObjectKind::kTuple, 2).empty());
  // Run-time values outside the shared set are heap objects: 257, "xy", 0.5.
  const ObjectId big_id = heap_.Int(257)->id();
  EXPECT_EQ(Stack(heap_, ObjectKind::kInt), std::vector<ObjectId>{big_id});
  const ObjectId str_id = heap_.Str("xy")->id();
  EXPECT_EQ(Stack(heap_, ObjectKind::kStr), std::vector<ObjectId>{str_id});
  const ObjectId float_id = heap_.Float(0.5)->id();
  EXPECT_EQ(Stack(heap_, ObjectKind::kFloat), std::vector<ObjectId>{float_id});
}

// I3: a rebinding stores the new value before the old one dies.
TEST_F(HeapRules, RebindingStoresBeforeTheOldValueDies) {
  Ref<PyFunction> old_fn = Function("f");
  Bind("f", old_fn);
  Ref<PyFunction> new_fn = Function("f");
  bool checked = false;
  heap_.AddFinalizer(old_fn, [&] {
    checked = true;
    EXPECT_EQ(Get("f").get(), new_fn.get());
  });
  old_fn.Reset();
  Bind("f", new_fn);
  EXPECT_TRUE(checked);
}

// Deaths walk a chain with an explicit stack: a 200000-deep list chain frees cleanly.
TEST_F(HeapRules, LongChainsDieWithoutDeepRecursion) {
  const size_t live_before = heap_.live_objects();
  Value chain = heap_.None();
  for (int i = 0; i < 200000; ++i) chain = heap_.NewList({chain});
  EXPECT_EQ(heap_.live_objects(), live_before + 200000);
  chain.Reset();
  EXPECT_EQ(heap_.live_objects(), live_before);
  EXPECT_EQ(Stack(heap_, ObjectKind::kList).size(), 200000u);
}

// Teardown frees everything: cycles, finalizers that never ran, native captures.
TEST(HeapTeardown, FreesCyclesAndCaptures) {
  auto token = std::make_shared<int>(0);
  bool finalizer_ran = false;
  {
    Heap heap;
    Ref<PyList> cycle = heap.NewList();
    cycle->items().push_back(cycle);
    NativeCode body = [token](PyFunction&, CallArgs&) -> Value { return nullptr; };
    Ref<PyFunction> fn =
        heap.NewFunction(std::move(body), heap.Intern("f"), heap.Intern("f"), nullptr);
    fn->SetAttr("self", fn);  // a function whose __dict__ holds itself
    heap.AddFinalizer(fn, [&finalizer_ran, cycle] { finalizer_ran = true; });
    cycle.Reset();
    fn.Reset();
    EXPECT_EQ(token.use_count(), 2);  // the cycle keeps the function alive
  }
  EXPECT_EQ(token.use_count(), 1);
  EXPECT_FALSE(finalizer_ran);  // the program had ended
}

// I1: ids of different heaps are unrelated; each starts with empty stacks.
TEST(HeapTeardown, EachHeapStartsEmpty) {
  Heap a;
  { Ref<PyList> dead = a.NewList(); }
  Heap b;
  EXPECT_EQ(a.FreeIds(ObjectKind::kList).size(), 1u);
  EXPECT_TRUE(b.FreeIds(ObjectKind::kList).empty());
}

// A module filled on first use makes its objects inside a StartupScope: they take fresh ids,
// what dies there frees none, and the program's freed ids stay on top of their stacks.
TEST(HeapStartupScope, LeavesTheProgramsFreeStacksAsTheyWere) {
  Heap heap;
  ObjectId freed = 0;
  {
    Ref<PyList> dead = heap.NewList();
    freed = dead->id();
  }
  ASSERT_EQ(heap.FreeIds(ObjectKind::kList), std::vector<ObjectId>{freed});
  Ref<PyList> kept;
  {
    Heap::StartupScope startup(heap);
    kept = heap.NewList();
    EXPECT_NE(kept->id(), freed);
    {
      Heap::StartupScope inner(heap);
      Ref<PyList> transient = heap.NewList();
    }
    Ref<PyList> transient = heap.NewList();
  }
  EXPECT_EQ(heap.FreeIds(ObjectKind::kList), std::vector<ObjectId>{freed});
  EXPECT_EQ(heap.NewList()->id(), freed);
  // Outside the scope, what the library made frees its id when it dies, as any object's.
  const ObjectId library = kept->id();
  kept.Reset();
  EXPECT_EQ(heap.FreeIds(ObjectKind::kList).back(), library);
}

}  // namespace
}  // namespace tdc::runtime
