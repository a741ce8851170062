// The argument binding rules of torch's Python argument parser that ops.def relies on.
#include "reference/runtime/op_signature.h"

#include <gtest/gtest.h>

#include "reference/runtime/op_table.h"

namespace tdc::runtime {
namespace {

OpValue Int(int64_t v) { return OpValue::Of(Scalar::Int(v)); }
OpValue SomeTensor() { return OpValue::Of(EmptyTensor(DType::kFloat32, {2, 3})); }

std::string TypeErrorOf(const std::function<void()>& call) {
  try {
    call();
  } catch (const TorchError& e) {
    EXPECT_EQ(e.type(), "TypeError");
    return e.what();
  }
  return "(no error)";
}

TEST(OpSignatureTest, ParsesTypesDefaultsAndKeywordOnly) {
  Signature s = ParseSignature(
      "self: Tensor, dim: int[1]? = None, keepdim: bool = False, *, "
      "dtype: ScalarType? = None");
  ASSERT_EQ(s.params.size(), 4u);
  EXPECT_EQ(s.params[1].type, ParamType::kIntListOrInt);
  EXPECT_TRUE(s.params[1].accepts_none);
  EXPECT_FALSE(s.params[2].keyword_only);
  EXPECT_TRUE(s.params[3].keyword_only);
  ASSERT_TRUE(s.params[2].default_value);
  EXPECT_FALSE(s.params[2].default_value->scalar.b);
  EXPECT_FALSE(s.params[0].default_value);
}

TEST(OpSignatureTest, MalformedSignatureIsATableBug) {
  EXPECT_THROW(ParseSignature("self Tensor"), std::logic_error);
  EXPECT_THROW(ParseSignature("self: Tensr"), std::logic_error);
  EXPECT_THROW(ParseSignature("n: int = x"), std::logic_error);
}

TEST(OpSignatureTest, IntListAsSeparateIntsOnlyWhenItIsTheOnlyPositional) {
  Signature view = ParseSignature("self: Tensor, size: int[]");
  BoundArgs a = Bind(view, "view", Surface::kMethod, {SomeTensor(), Int(3), Int(2)}, {});
  EXPECT_EQ(a.Ints("size"), (Shape{3, 2}));
  // torch.reshape(input, shape) has two positional parameters: no varargs.
  Signature reshape = ParseSignature("self: Tensor, shape: int[]");
  EXPECT_EQ(TypeErrorOf([&] {
              Bind(reshape, "reshape", Surface::kFunction, {SomeTensor(), Int(3), Int(2)}, {});
            }),
            "reshape() takes 2 positional arguments but 3 were given");
}

TEST(OpSignatureTest, OneIntForADimListDeclaredIntOne) {
  Signature sum = ParseSignature("self: Tensor, dim: int[1]? = None, keepdim: bool = False");
  EXPECT_EQ(Bind(sum, "sum", Surface::kMethod, {SomeTensor(), Int(1)}, {}).Ints("dim"), (Shape{1}));
  EXPECT_TRUE(Bind(sum, "sum", Surface::kMethod, {SomeTensor()}, {}).IsNone("dim"));
  Signature permute = ParseSignature("self: Tensor, dims: int[]");
  EXPECT_EQ(Bind(permute, "permute", Surface::kMethod, {SomeTensor(), Int(1)}, {}).Ints("dims"),
            (Shape{1}));
  EXPECT_NE(TypeErrorOf([&] {
              Bind(permute, "permute", Surface::kFunction, {SomeTensor(), Int(1)}, {});
            }),
            "(no error)");
}

TEST(OpSignatureTest, MethodReceiverBindsSelfWhereverItIs) {
  const OpInfo* where = FindMethod("where");
  ASSERT_NE(where, nullptr);
  OpValue cond = OpValue::Of(EmptyTensor(DType::kBool, {2}));
  BoundArgs a = Bind(where->signature, "where", Surface::kMethod, {SomeTensor(), cond, Int(1)}, {});
  EXPECT_EQ(a.TensorArg("condition").dtype, DType::kBool);
  EXPECT_EQ(a.TensorArg("self").dtype, DType::kFloat32);
}

TEST(OpSignatureTest, FunctionFormNamesSelfInput) {
  Signature s = ParseSignature("self: Tensor");
  EXPECT_EQ(
      Bind(s, "relu", Surface::kFunction, {}, {{"input", SomeTensor()}}).TensorArg("self").dim(),
      2);
  EXPECT_EQ(TypeErrorOf([&] {
              Bind(s, "relu", Surface::kFunction, {}, {{"self", SomeTensor()}});
            }),
            "relu() got an unexpected keyword argument 'self'");
}

TEST(OpSignatureTest, KeywordErrors) {
  Signature s = ParseSignature("size: int[], *, dtype: ScalarType? = None");
  EXPECT_EQ(TypeErrorOf([&] {
              Bind(s, "ones", Surface::kFunction, {Int(2), Int(3)}, {{"dtyp", OpValue::None()}});
            }),
            "ones() got an unexpected keyword argument 'dtyp'");
  EXPECT_EQ(TypeErrorOf([&] {
              Bind(s, "ones", Surface::kFunction, {Int(2)}, {{"size", Int(2)}});
            }),
            "ones() got multiple values for argument 'size'");
  // dtype is keyword-only: a second positional is too many, not a dtype.
  Signature full = ParseSignature("size: int[], fill_value: Number, *, dtype: ScalarType? = None");
  EXPECT_EQ(TypeErrorOf([&] {
              Bind(full, "full", Surface::kFunction,
                   {OpValue::List({Int(2)}), Int(1), OpValue::OfDType(DType::kInt64)}, {});
            }),
            "full() takes 2 positional arguments but 3 were given");
}

TEST(OpSignatureTest, TypeMismatchAndMissingArguments) {
  Signature s = ParseSignature("self: Tensor, dim0: int, dim1: int");
  EXPECT_EQ(TypeErrorOf([&] {
              Bind(s, "transpose", Surface::kMethod, {SomeTensor(), Int(0)}, {});
            }),
            "transpose() missing 1 required positional arguments: \"dim1\"");
  // A bool is not an int to torch's parser.
  EXPECT_EQ(TypeErrorOf([&] {
              Bind(s, "transpose", Surface::kMethod,
                   {SomeTensor(), Int(0), OpValue::Of(Scalar::Bool(true))}, {});
            }),
            "transpose(): argument 'dim1' must be int, not bool");
}

TEST(OpTableTest, SurfacesFindTheirRows) {
  EXPECT_EQ(FindFunction("torch.add")->name, "add");
  EXPECT_EQ(FindMethod("view")->name, "view");
  EXPECT_EQ(FindPythonOperator("operator.truediv")->name, "div");
  EXPECT_EQ(FindFunction("torch.view"), nullptr);
  EXPECT_EQ(FindMethod(""), nullptr);
  EXPECT_TRUE(FindOp("item")->Has(kBreaksGraph));
  EXPECT_FALSE(FindOp("add")->Has(kBreaksGraph));
  EXPECT_EQ(FindOp("where")->Arity(), 3u);
  EXPECT_EQ(FindOp("arange")->RequiredArity(), 1u);
}

}  // namespace
}  // namespace tdc::runtime
