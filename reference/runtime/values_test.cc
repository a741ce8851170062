// Python semantics of runtime values: dict keys, repr/str, ==, truth, type names, the
// exception table and PyError, modules. Expected texts are what CPython 3.11.7 / torch
// 2.13.0 print for the same values (checked with .venv/bin/python).
#include "reference/runtime/values.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "reference/runtime/heap.h"
#include "reference/runtime/modules.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {
namespace {

class Values : public ::testing::Test {
 protected:
  Value Int(int64_t v) { return heap_.Int(v); }
  Value Float(double v) { return heap_.Float(v); }
  Value NewStr(std::string s) { return heap_.Str(std::move(s)); }
  Ref<PyTuple> Tuple(std::vector<Value> items) { return heap_.NewTuple(std::move(items)); }
  Ref<PyList> List(std::vector<Value> items) { return heap_.NewList(std::move(items)); }
  Ref<PyTensor> Tensor1(std::vector<double> values) {
    std::vector<Scalar> scalars;
    for (double v : values) scalars.push_back(Scalar::Float(v, DType::kFloat32));
    return heap_.NewTensor(
        TensorFromValues(DType::kFloat32, {static_cast<int64_t>(values.size())}, scalars));
  }

  Heap heap_;
};

// --- dict keys ---------------------------------------------------------------------------

// {1: 'a', 1.0: 'b', True: 'c'} == {1: 'c'}: one key, the first key object, last value.
TEST_F(Values, EqualNumbersAreOneDictKey) {
  Ref<PyDict> d = heap_.NewDict();
  d->Set(Int(1), NewStr("a"));
  d->Set(Float(1.0), NewStr("b"));
  d->Set(heap_.True(), NewStr("c"));
  EXPECT_EQ(d->size(), 1u);
  EXPECT_EQ(Repr(d), "{1: 'c'}");
  EXPECT_EQ(Repr(d->Get(Float(1.0))), "'c'");
  EXPECT_FALSE(d->Get(Float(1.5)));
  EXPECT_FALSE(d->Get(Int(2)));
}

TEST_F(Values, TupleKeysCompareByValue) {
  Ref<PyDict> d = heap_.NewDict();
  d->Set(Tuple({Int(1), NewStr("x")}), Int(7));
  EXPECT_EQ(Repr(d->Get(Tuple({Float(1.0), NewStr("x")}))), "7");
  EXPECT_FALSE(d->Get(Tuple({Int(1), NewStr("y")})));
  EXPECT_FALSE(d->Get(Tuple({Int(1)})));
}

TEST_F(Values, StrKeysAndStrShortcutsAgree) {
  Ref<PyDict> d = heap_.NewDict();
  d->Set(NewStr("name"), Int(1));  // a run-time str key
  EXPECT_EQ(Repr(d->GetStr("name")), "1");
  d->SetStr("name", Int(2));  // the same key, found without making an object
  EXPECT_EQ(d->size(), 1u);
  EXPECT_EQ(Repr(d->Get(heap_.Intern("name"))), "2");
  EXPECT_TRUE(d->EraseStr("name"));
  EXPECT_FALSE(d->EraseStr("name"));
  EXPECT_EQ(d->size(), 0u);
}

TEST_F(Values, UnhashableKeyRaisesTypeError) {
  Ref<PyDict> d = heap_.NewDict();
  try {
    d->Set(List({Int(1)}), Int(1));
    FAIL() << "no error";
  } catch (const PyError& e) {
    EXPECT_EQ(e.type(), ExcType::kTypeError);
    EXPECT_STREQ(e.what(), "TypeError: unhashable type: 'list'");
  }
  // A tuple holding a list is unhashable too.
  EXPECT_THROW(d->Get(Tuple({Int(1), heap_.NewDict()})), PyError);
}

// Deleting and reinserting a key moves it to the end, as Python's dict does; a rebinding
// keeps the position.
TEST_F(Values, DictKeepsInsertionOrder) {
  Ref<PyDict> d = heap_.NewDict();
  d->SetStr("a", Int(1));
  d->SetStr("b", Int(2));
  d->SetStr("c", Int(3));
  d->SetStr("a", Int(10));
  EXPECT_EQ(Repr(d), "{'a': 10, 'b': 2, 'c': 3}");
  d->EraseStr("b");
  d->SetStr("b", Int(20));
  EXPECT_EQ(Repr(d), "{'a': 10, 'c': 3, 'b': 20}");
  // Many deletions compact the table without losing order.
  for (int i = 0; i < 40; ++i) d->SetStr("t" + std::to_string(i), Int(i));
  for (int i = 0; i < 40; ++i) d->EraseStr("t" + std::to_string(i));
  d->SetStr("z", Int(0));
  EXPECT_EQ(Repr(d), "{'a': 10, 'c': 3, 'b': 20, 'z': 0}");
}

// Lookup checks identity before ==, so a NaN key finds itself but not another NaN.
TEST_F(Values, NanKeyIsFoundOnlyByIdentity) {
  Ref<PyDict> d = heap_.NewDict();
  Value nan = Float(std::nan(""));
  d->Set(nan, Int(1));
  EXPECT_TRUE(d->Get(nan));
  EXPECT_FALSE(d->Get(Float(std::nan(""))));
}

TEST_F(Values, FunctionsAndTensorsAreKeysByIdentity) {
  Ref<PyDict> d = heap_.NewDict();
  Ref<PyTensor> t = Tensor1({1});
  d->Set(t, Int(1));
  EXPECT_TRUE(d->Get(t));
  EXPECT_FALSE(d->Get(Tensor1({1})));
}

// --- repr / str ----------------------------------------------------------------------------

TEST_F(Values, ReprOfScalarsAndContainers) {
  EXPECT_EQ(Repr(heap_.None()), "None");
  EXPECT_EQ(Repr(heap_.True()), "True");
  EXPECT_EQ(Repr(heap_.False()), "False");
  EXPECT_EQ(Repr(Int(-5)), "-5");
  EXPECT_EQ(Repr(Int(100003 * 7)), "700021");
  EXPECT_EQ(Repr(Float(1.5)), "1.5");
  EXPECT_EQ(Repr(Float(1e16)), "1e+16");
  EXPECT_EQ(Repr(Float(-0.0)), "-0.0");
  EXPECT_EQ(Repr(NewStr("it's")), "\"it's\"");
  EXPECT_EQ(Str(NewStr("it's")), "it's");
  EXPECT_EQ(Str(Float(1e-5)), "1e-05");
  EXPECT_EQ(Repr(Tuple({})), "()");
  EXPECT_EQ(Repr(Tuple({Int(1)})), "(1,)");
  EXPECT_EQ(Repr(Tuple({Int(1), Int(2)})), "(1, 2)");
  EXPECT_EQ(Repr(List({})), "[]");
  EXPECT_EQ(Repr(List({Int(1), Int(2)})), "[1, 2]");
  Ref<PyDict> d = heap_.NewDict();
  EXPECT_EQ(Repr(d), "{}");
  d->SetStr("a", List({Int(1), Tuple({Float(2.5)})}));
  EXPECT_EQ(Repr(d), "{'a': [1, (2.5,)]}");
  EXPECT_EQ(Str(d), "{'a': [1, (2.5,)]}");
}

// l = []; l.append(l); repr(l) == '[[...]]'.
TEST_F(Values, ReprOfARecursiveList) {
  Ref<PyList> l = List({});
  l->items().push_back(l);
  EXPECT_EQ(Repr(l), "[[...]]");
  l->Clear();  // break the cycle
}

TEST_F(Values, ReprOfObjectsNeverShowsIds) {
  Ref<PyFunction> fn = heap_.NewFunction(UserCode{}, heap_.Intern("inner"),
                                         heap_.Intern("outer.<locals>.inner"), nullptr);
  EXPECT_EQ(Repr(fn), "<function outer.<locals>.inner>");
  fn->SetAttr("__qualname__", heap_.Intern("renamed"));
  EXPECT_EQ(Repr(fn), "<function renamed>");
  EXPECT_EQ(Repr(heap_.NewBuiltin("len", nullptr)), "<built-in function len>");
  EXPECT_EQ(Repr(heap_.NewModule("torch.compiler")), "<module 'torch.compiler'>");
  EXPECT_EQ(Repr(heap_.NewCell(Int(1))), "<cell: int object>");
  EXPECT_EQ(Repr(heap_.NewCell()), "<cell: empty>");
  EXPECT_EQ(Repr(Tensor1({1, 2})), "tensor(shape=[2], dtype=torch.float32)");
}

// BaseException_repr / BaseException_str / KeyError_str.
TEST_F(Values, ExceptionReprAndStr) {
  Value runtime_error = heap_.NewException(ExcType::kRuntimeError, "x");
  EXPECT_EQ(Repr(runtime_error), "RuntimeError('x')");
  EXPECT_EQ(Str(runtime_error), "x");
  Value empty = heap_.NewException(ExcType::kRuntimeError, Ref<PyTuple>());
  EXPECT_EQ(Repr(empty), "RuntimeError()");
  EXPECT_EQ(Str(empty), "");
  Value two = heap_.NewException(ExcType::kRuntimeError, Tuple({NewStr("a"), Int(1)}));
  EXPECT_EQ(Repr(two), "RuntimeError('a', 1)");
  EXPECT_EQ(Str(two), "('a', 1)");
  Value key_error = heap_.NewException(ExcType::kKeyError, "a");
  EXPECT_EQ(Repr(key_error), "KeyError('a')");
  EXPECT_EQ(Str(key_error), "'a'");
  Value unsupported = heap_.NewException(ExcType::kUnsupported, "msg");
  EXPECT_EQ(Repr(unsupported), "Unsupported('msg')");
}

// --- ==, truth, type names -------------------------------------------------------------------

TEST_F(Values, EqualityFollowsPython) {
  EXPECT_TRUE(PyEquals(Int(1), Float(1.0)));
  EXPECT_TRUE(PyEquals(heap_.True(), Int(1)));
  EXPECT_FALSE(PyEquals(Float(0.5), Int(0)));
  EXPECT_FALSE(PyEquals(Int(1), NewStr("1")));
  EXPECT_TRUE(PyEquals(heap_.None(), heap_.None()));
  EXPECT_FALSE(PyEquals(heap_.None(), heap_.False()));
  // int == float is exact: 2**53 + 1 != float(2**53 + 1) (which rounds to 2**53).
  EXPECT_FALSE(PyEquals(Int(9007199254740993), Float(9007199254740992.0)));
  EXPECT_TRUE(PyEquals(Int(9007199254740992), Float(9007199254740992.0)));
  EXPECT_FALSE(PyEquals(Int(std::numeric_limits<int64_t>::max()), Float(9.3e18)));
  EXPECT_TRUE(PyEquals(List({Int(1), Int(2)}), List({Float(1.0), Int(2)})));
  EXPECT_FALSE(PyEquals(Tuple({Int(1)}), List({Int(1)})));
  EXPECT_FALSE(PyEquals(List({Int(1)}), List({Int(1), Int(1)})));
  Ref<PyDict> a = heap_.NewDict();
  Ref<PyDict> b = heap_.NewDict();
  a->SetStr("x", Int(1));
  a->SetStr("y", Int(2));
  b->SetStr("y", Float(2.0));
  b->SetStr("x", Int(1));
  EXPECT_TRUE(PyEquals(a, b));  // order does not matter
  b->SetStr("x", Int(3));
  EXPECT_FALSE(PyEquals(a, b));
  // nan != nan, but a container holding the same nan object equals itself.
  Value nan = Float(std::nan(""));
  EXPECT_FALSE(PyEquals(nan, nan));
  EXPECT_TRUE(PyEquals(List({nan}), List({nan})));
  EXPECT_FALSE(PyEquals(List({nan}), List({Float(std::nan(""))})));
  // Tensors and functions compare by identity here.
  Ref<PyTensor> t = Tensor1({1});
  EXPECT_TRUE(PyEquals(t, t));
  EXPECT_FALSE(PyEquals(t, Tensor1({1})));
}

TEST_F(Values, Truthiness) {
  for (const Value& falsy :
       {heap_.None(), heap_.False(), Int(0), Float(0.0), Float(-0.0), NewStr(""), Value(Tuple({})),
        Value(List({})), Value(heap_.NewDict()), Value(Tensor1({0}))}) {
    EXPECT_FALSE(IsTruthy(falsy)) << Repr(falsy);
  }
  for (const Value& truthy :
       {heap_.True(), Int(-1), Float(0.1), NewStr("0"), Value(Tuple({heap_.None()})),
        Value(List({Int(0)})), Value(Tensor1({0.5})), Value(heap_.NewCell())}) {
    EXPECT_TRUE(IsTruthy(truthy)) << Repr(truthy);
  }
}

// bool(torch.ones(2)) / bool(torch.ones(0)) raise RuntimeError with torch's text.
TEST_F(Values, TruthOfATensorWithoutOneElementRaises) {
  try {
    IsTruthy(Tensor1({1, 2}));
    FAIL() << "no error";
  } catch (const TorchError& e) {
    EXPECT_EQ(e.type(), "RuntimeError");
    EXPECT_STREQ(e.what(), "Boolean value of Tensor with more than one value is ambiguous");
  }
  try {
    IsTruthy(Tensor1({}));
    FAIL() << "no error";
  } catch (const TorchError& e) {
    EXPECT_STREQ(e.what(), "Boolean value of Tensor with no values is ambiguous");
  }
}

TEST_F(Values, TypeNames) {
  EXPECT_EQ(TypeName(heap_.None()), "NoneType");
  EXPECT_EQ(TypeName(heap_.True()), "bool");
  EXPECT_EQ(TypeName(Int(1)), "int");
  EXPECT_EQ(TypeName(Float(1)), "float");
  EXPECT_EQ(TypeName(NewStr("ab")), "str");
  EXPECT_EQ(TypeName(Tuple({})), "tuple");
  EXPECT_EQ(TypeName(List({})), "list");
  EXPECT_EQ(TypeName(heap_.NewDict()), "dict");
  EXPECT_EQ(TypeName(heap_.NewCell()), "cell");
  EXPECT_EQ(TypeName(heap_.NewFunction(UserCode{}, NewStr("f"), NewStr("f"), nullptr)), "function");
  EXPECT_EQ(TypeName(heap_.NewBuiltin("len", nullptr)), "builtin_function_or_method");
  EXPECT_EQ(TypeName(heap_.NewModule("operator")), "module");
  EXPECT_EQ(TypeName(Tensor1({1})), "Tensor");
  EXPECT_EQ(TypeName(heap_.NewException(ExcType::kSkipFrame, "m")), "SkipFrame");
}

// The model's int is int64: leaving the range raises OverflowError instead of wrapping.
TEST_F(Values, IntArithmeticBeyondInt64IsRefused) {
  EXPECT_EQ(Repr(IntMul(heap_, 3037000499, 3037000499)), "9223372030926249001");
  EXPECT_EQ(Repr(IntSub(heap_, std::numeric_limits<int64_t>::min() + 1, 1)),
            "-9223372036854775808");
  // Python's ints are unbounded: beyond int64 the run is refused (DESIGN D13), never wrapped.
  EXPECT_THROW(IntAdd(heap_, std::numeric_limits<int64_t>::max(), 1), NotModeled);
  EXPECT_THROW(IntMul(heap_, 3037000500, 3037000500), NotModeled);
  EXPECT_THROW(IntSub(heap_, std::numeric_limits<int64_t>::min(), 1), NotModeled);
}

// functools.update_wrapper's attributes: the slots are fields, the rest is __dict__.
TEST_F(Values, FunctionAttributes) {
  Ref<PyDict> globals = heap_.NewDict();
  globals->SetStr("__name__", heap_.Intern("__main__"));
  Ref<PyFunction> fn = heap_.NewFunction(UserCode{}, heap_.Intern("f"), heap_.Intern("f"), globals);
  EXPECT_EQ(Str(fn->GetAttr("__module__")), "__main__");
  EXPECT_EQ(Repr(fn->GetAttr("__doc__")), "None");
  EXPECT_EQ(Repr(fn->GetAttr("__defaults__")), "None");
  EXPECT_FALSE(fn->attrs);  // no __dict__ until an attribute is set
  EXPECT_FALSE(fn->GetAttr("marker"));
  fn->SetAttr("marker", heap_.True());
  ASSERT_TRUE(fn->attrs);
  EXPECT_EQ(Repr(fn->GetAttr("marker")), "True");
  fn->SetAttr("__name__", heap_.Intern("g"));
  EXPECT_EQ(fn->name_text(), "g");
  EXPECT_FALSE(fn->attrs->GetStr("__name__"));
  EXPECT_EQ(Repr(fn->GetAttr("__dict__")), "{'marker': True}");
}

// --- exceptions ------------------------------------------------------------------------------

TEST(Exceptions, SubclassChecksFollowTheMro) {
  EXPECT_TRUE(IsSubclass(ExcType::kUnsupported, ExcType::kRuntimeError));
  EXPECT_TRUE(IsSubclass(ExcType::kUnsupported, ExcType::kTorchDynamoException));
  EXPECT_TRUE(IsSubclass(ExcType::kUnsupported, ExcType::kException));
  EXPECT_TRUE(IsSubclass(ExcType::kUnsupported, ExcType::kBaseException));
  EXPECT_TRUE(IsSubclass(ExcType::kBackendCompilerFailed, ExcType::kShortenTraceback));
  EXPECT_TRUE(IsSubclass(ExcType::kObservedKeyError, ExcType::kObservedLookupError));
  EXPECT_FALSE(IsSubclass(ExcType::kObservedKeyError, ExcType::kKeyError));
  EXPECT_TRUE(IsSubclass(ExcType::kKeyError, ExcType::kLookupError));
  EXPECT_TRUE(IsSubclass(ExcType::kNotImplementedError, ExcType::kRuntimeError));
  EXPECT_TRUE(IsSubclass(ExcType::kUnboundLocalError, ExcType::kNameError));
  EXPECT_FALSE(IsSubclass(ExcType::kRuntimeError, ExcType::kUnsupported));
  EXPECT_FALSE(IsSubclass(ExcType::kFailOnRecompileLimitHit, ExcType::kRuntimeError));
  EXPECT_FALSE(IsSubclass(ExcType::kAssertionError, ExcType::kRuntimeError));
  EXPECT_FALSE(IsSubclass(ExcType::kBaseException, ExcType::kException));
}

TEST(Exceptions, NamesAndModules) {
  EXPECT_EQ(ExcQualifiedName(ExcType::kUnsupported), "torch._dynamo.exc.Unsupported");
  EXPECT_EQ(ExcQualifiedName(ExcType::kRuntimeError), "RuntimeError");
  EXPECT_EQ(ExcTypeModule(ExcType::kKeyError), "builtins");
  EXPECT_EQ(ExcTypeByName("SkipFrame"), ExcType::kSkipFrame);
  EXPECT_EQ(ExcTypeByName("torch._dynamo.exc.RecompileError"), ExcType::kRecompileError);
  EXPECT_EQ(ExcTypeByName("IncorrectUsage"), std::nullopt);  // gone in 2.13.0
}

TEST_F(Values, PyErrorFromTorchError) {
  PyError error = ToPyError(heap_, TorchError("IndexError", "Dimension out of range"));
  EXPECT_EQ(error.type(), ExcType::kIndexError);
  EXPECT_STREQ(error.what(), "IndexError: Dimension out of range");
  EXPECT_EQ(Str(error.exception()), "Dimension out of range");
  EXPECT_TRUE(IsSubclass(error.type(), ExcType::kLookupError));
  EXPECT_THROW(ToPyError(heap_, TorchError("NoSuchError", "m")), std::logic_error);
}

TEST_F(Values, RaiseThrowsAPyErrorWithTheQualifiedName) {
  try {
    Raise(heap_, ExcType::kUnsupported, "Call to `torch._dynamo.graph_break()`");
    FAIL() << "no error";
  } catch (const PyError& e) {
    EXPECT_STREQ(e.what(), "torch._dynamo.exc.Unsupported: Call to `torch._dynamo.graph_break()`");
    EXPECT_TRUE(IsSubclass(e.type(), ExcType::kRuntimeError));
  }
}

// --- modules -----------------------------------------------------------------------------------

TEST_F(Values, ModulesFormATree) {
  Modules modules = MakeModules(heap_);
  const Ref<PyModule>& torch = modules[ModuleId::kTorch];
  EXPECT_EQ(torch->name(), "torch");
  EXPECT_EQ(Str(torch->GetAttr("__name__")), "torch");
  EXPECT_EQ(torch->GetAttr("compiler").get(), modules[ModuleId::kTorchCompiler].get());
  Value dynamo = torch->GetAttr("_dynamo");
  ASSERT_TRUE(Is<PyModule>(dynamo));
  EXPECT_EQ(DynCast<PyModule>(dynamo)->GetAttr("config").get(),
            modules[ModuleId::kTorchDynamoConfig].get());
  EXPECT_EQ(Repr(modules[ModuleId::kTorchDynamoConfig]), "<module 'torch._dynamo.config'>");
  EXPECT_EQ(ModuleByName("functools"), ModuleId::kFunctools);
  EXPECT_EQ(ModuleByName("torch.nn.functional"), ModuleId::kTorchNnFunctional);
  EXPECT_EQ(DynCast<PyModule>(DynCast<PyModule>(torch->GetAttr("nn"))->GetAttr("functional")),
            modules[ModuleId::kTorchNnFunctional].get());
  EXPECT_EQ(ModuleByName("torch.optim"), std::nullopt);  // not modeled
  EXPECT_FALSE(modules[ModuleId::kOperator]->GetAttr("torch"));
  EXPECT_TRUE(torch->immortal());
}

}  // namespace
}  // namespace tdc::runtime
