// The kernel tests generated from the op table: for every ops.def row, the calls that
// real torch 2.13.0 made of the op (testdata/ops/<op>.json, written by `ci/oracle
// op-values`) replayed through CallOp, comparing every recorded field. An op without a
// value file fails.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "reference/compare/tolerance.h"
#include "reference/graph/hex_float.h"
#include "reference/graph/test_files.h"
#include "reference/runtime/op_table.h"

namespace tdc::runtime {
namespace {

using nlohmann::json;

std::optional<json> ValueFile(std::string_view op) {
  auto text =
      graph::testing::ReadSourceFile("reference/runtime/testdata/ops/" + std::string(op) + ".json");
  if (!text) return std::nullopt;
  return json::parse(*text);
}

DType DTypeOf(const json& name) { return graph::ParseDType(name.get<std::string>()).value(); }

Scalar ElementOf(const json& v, DType dtype) {
  if (IsFloating(dtype))
    return Scalar::Float(graph::ParseHexFloat(v.get<std::string>()).value(), dtype);
  if (dtype == DType::kBool) return Scalar::Bool(v.get<bool>());
  return Scalar::Int(v.get<int64_t>());
}

Tensor TensorOf(const json& a) {
  DType dtype = DTypeOf(a["dtype"]);
  std::vector<Scalar> storage;
  for (const json& v : a["storage"]) storage.push_back(ElementOf(v, dtype));
  Tensor base = TensorFromValues(dtype, {static_cast<int64_t>(storage.size())}, storage);
  base.sizes = a["sizes"].get<Shape>();
  base.strides = a["strides"].get<Shape>();
  base.storage_offset = a["offset"].get<int64_t>();
  return base;
}

// The recorder's encoding of a Python value (record_op_values.py value_json).
OpValue ValueOf(const json& a) {
  std::string kind = a["kind"];
  if (kind == "tensor") return OpValue::Of(TensorOf(a));
  if (kind == "none") return OpValue::None();
  if (kind == "dtype") return OpValue::OfDType(DTypeOf(a["value"]));
  if (kind == "bool") return OpValue::Of(Scalar::Bool(a["value"].get<bool>()));
  if (kind == "int") return OpValue::Of(Scalar::Int(a["value"].get<int64_t>()));
  if (kind == "float") {
    return OpValue::Of(Scalar::Float(graph::ParseHexFloat(a["value"].get<std::string>()).value()));
  }
  std::vector<OpValue> items;
  for (const json& item : a["items"]) items.push_back(ValueOf(item));
  return kind == "list" ? OpValue::List(std::move(items)) : OpValue::Tuple(std::move(items));
}

// Python equality of two non-tensor results, exact for floats (NaN equals NaN).
bool SameValue(const OpValue& got, const OpValue& want) {
  if (got.kind != want.kind) return false;
  if (got.kind == OpValue::Kind::kScalar) {
    if (got.scalar.dtype != want.scalar.dtype) return false;
    double g = got.scalar.AsDouble(), w = want.scalar.AsDouble();
    if (IsFloating(got.scalar.dtype))
      return std::memcmp(&g, &w, sizeof g) == 0 || (g != g && w != w);
    return got.scalar.AsInt() == want.scalar.AsInt();
  }
  if (got.kind == OpValue::Kind::kDType) return got.dtype == want.dtype;
  if (got.IsSequence()) {
    if (got.items.size() != want.items.size()) return false;
    for (size_t i = 0; i < got.items.size(); ++i) {
      if (!SameValue(got.items[i], want.items[i])) return false;
    }
  }
  return got.kind != OpValue::Kind::kTensor;
}

void CollectTensors(const OpValue& v, std::vector<const Tensor*>& out) {
  if (v.kind == OpValue::Kind::kTensor) out.push_back(&v.tensor);
  for (const OpValue& item : v.items) CollectTensors(item, out);
}

// Ops whose torch kernel is exact are compared bit for bit; the others within the
// tolerance table (SEMANTICS.md §5.4).
bool IsExact(const OpInfo& op) {
  static const std::set<std::string_view> kApproximate = {
      "pow",  "sigmoid", "tanh", "sin",    "cos",  "tan",         "exp", "log",
      "sqrt", "sum",     "mean", "matmul", "gelu", "vector_norm", "fft"};
  return kApproximate.count(op.name) == 0;
}

bool SameFloat(double got, double want, DType dtype, bool exact) {
  if (exact) return std::memcmp(&got, &want, sizeof got) == 0 || (got != got && want != want);
  return compare::WithinTolerance(want, got, compare::ToleranceTable::Default(dtype));
}

void CheckTensor(const OpInfo& op, const Tensor& got, const json& want,
                 const std::vector<const Tensor*>& inputs, bool check_values) {
  DType dtype = DTypeOf(want["dtype"]);
  ASSERT_EQ(graph::DTypeName(got.dtype), want["dtype"].get<std::string>());
  ASSERT_EQ(got.sizes, want["sizes"].get<Shape>());
  EXPECT_EQ(got.strides, want["strides"].get<Shape>());
  EXPECT_EQ(got.storage_offset, want["offset"].get<int64_t>());
  bool aliases = false;
  for (const Tensor* in : inputs) aliases = aliases || in->SharesStorageWith(got);
  EXPECT_EQ(aliases, want["aliases_input"].get<bool>()) << "whether the result is a view";
  if (!check_values) return;
  std::vector<Scalar> values = got.Values();
  ASSERT_EQ(values.size(), want["values"].size());
  bool exact = IsExact(op);
  for (size_t k = 0; k < values.size(); ++k) {
    Scalar w = ElementOf(want["values"][k], dtype);
    if (IsFloating(dtype)) {
      EXPECT_TRUE(SameFloat(values[k].AsDouble(), w.f, dtype, exact))
          << "element " << k << ": got " << graph::FormatHexFloat(values[k].AsDouble()) << " want "
          << graph::FormatHexFloat(w.f);
    } else {
      EXPECT_EQ(values[k].AsInt(), w.AsInt()) << "element " << k;
    }
  }
}

void CheckCall(const OpInfo& op, const json& c) {
  Surface surface = c["surface"] == "method" ? Surface::kMethod : Surface::kFunction;
  std::vector<OpValue> args;
  for (const json& a : c["args"]) args.push_back(ValueOf(a));
  std::vector<std::pair<std::string, OpValue>> kwargs;
  for (const auto& [k, v] : c["kwargs"].items()) kwargs.emplace_back(k, ValueOf(v));
  std::vector<const Tensor*> inputs;
  for (const OpValue& a : args) CollectTensors(a, inputs);
  OpValue got;
  try {
    got = CallOp(op, surface, args, kwargs);
  } catch (const TorchError& e) {
    ASSERT_TRUE(c.contains("error")) << "unexpected " << e.type() << ": " << e.what();
    EXPECT_EQ(e.type(), c["error"]["type"].get<std::string>());
    EXPECT_EQ(e.what(), c["error"]["message"].get<std::string>());
    return;
  }
  ASSERT_FALSE(c.contains("error"))
      << "expected " << c["error"]["type"] << ": " << c["error"]["message"];
  const json& want = c["expect"];
  if (want.contains("value")) {
    EXPECT_TRUE(SameValue(got, ValueOf(want["value"]))) << "want " << want["value"].dump();
    return;
  }
  if (want.contains("tuple")) {  // a tuple of tensors (torch.return_types.max)
    ASSERT_EQ(got.kind, OpValue::Kind::kTuple);
    ASSERT_EQ(got.items.size(), want["tuple"].size());
    for (size_t i = 0; i < got.items.size(); ++i) {
      SCOPED_TRACE("tuple item " + std::to_string(i));
      ASSERT_EQ(got.items[i].kind, OpValue::Kind::kTensor);
      CheckTensor(op, got.items[i].tensor, want["tuple"][i], inputs, c["check_values"].get<bool>());
    }
    return;
  }
  ASSERT_EQ(got.kind, OpValue::Kind::kTensor);
  CheckTensor(op, got.tensor, want, inputs, c["check_values"].get<bool>());
}

// One test per ops.def row: every call torch made of the op, through each surface.
class OpKernelTest : public ::testing::TestWithParam<const OpInfo*> {};

TEST_P(OpKernelTest, MatchesTorchOnEveryRecordedCall) {
  const OpInfo& op = *GetParam();
  std::optional<json> file = ValueFile(op.name);
  ASSERT_TRUE(file) << "no recorded values for " << op.name << ": run ci/oracle op-values";
  EXPECT_EQ((*file)["op"], op.name);
  EXPECT_TRUE((*file)["torch"].get<std::string>().starts_with("2.13.0"));
  EXPECT_EQ((*file)["capability"], "default");
  const json& cases = (*file)["cases"];
  ASSERT_FALSE(cases.empty());
  std::set<std::string> surfaces;
  for (size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("call " + std::to_string(i) + ": " + cases[i]["surface"].get<std::string>() +
                 " args " + cases[i]["args"].dump().substr(0, 300));
    surfaces.insert(cases[i]["surface"]);
    CheckCall(op, cases[i]);
  }
  // Every surface the table declares was exercised.
  EXPECT_EQ(surfaces.count("function") > 0, !op.function.empty());
  EXPECT_EQ(surfaces.count("method") > 0, !op.method.empty());
}

std::vector<const OpInfo*> TableRows() {
  std::vector<const OpInfo*> rows;
  for (const OpInfo& op : AllOps()) rows.push_back(&op);
  return rows;
}

INSTANTIATE_TEST_SUITE_P(OpsDef, OpKernelTest, ::testing::ValuesIn(TableRows()),
                         [](const ::testing::TestParamInfo<const OpInfo*>& row) {
                           return std::string(row.param->name);
                         });

TEST(OpValueFilesTest, EveryFileIsAnOpsDefRow) {
  std::filesystem::path dir =
      std::filesystem::path(TDC_SOURCE_DIR) / "reference/runtime/testdata/ops";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    ++files;
    EXPECT_NE(FindOp(entry.path().stem().string()), nullptr) << entry.path();
  }
  EXPECT_EQ(files, static_cast<int>(AllOps().size()));
}

}  // namespace
}  // namespace tdc::runtime
