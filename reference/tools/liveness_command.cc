#include "reference/tools/liveness_command.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "reference/base/diagnostic.h"
#include "reference/base/read_file.h"
#include "reference/dynamo/code_layout.h"
#include "reference/dynamo/liveness.h"
#include "reference/lang/ast_fields.h"
#include "reference/lang/parser.h"
#include "reference/runtime/interp/scopes.h"

namespace tdc::tools {
namespace {

// Every FunctionDef and Lambda of a module, nested ones included.
class FunctionFinder : public lang::FieldVisitor {
 public:
  std::vector<const lang::Node*> functions;

  void Walk(const lang::Node* node) {
    if (node == nullptr) return;
    if (node->kind == lang::NodeKind::kFunctionDef || node->kind == lang::NodeKind::kLambda) {
      functions.push_back(node);
    }
    lang::VisitFields(*node, *this);
  }
  void Child(std::string_view, const lang::Node* child) override { Walk(child); }
  void Children(std::string_view, const lang::NodeList& children) override {
    for (const lang::Node* c : children) Walk(c);
  }
};

nlohmann::json Live(const runtime::Scope& scope, const dynamo::CodeLayout& layout, size_t at) {
  std::vector<std::string> live = dynamo::LiveLocalsAt(scope, layout, at);
  std::sort(live.begin(), live.end());
  return live;
}

}  // namespace

int RunLiveness(const std::string& file, std::ostream& out, std::ostream& err) {
  FileContents source = ReadRegularFile(file);
  if (!source.bytes) {
    err << file << ": " << source.error << "\n";
    return 1;
  }
  lang::ParseResult parsed = lang::ParseSubset(*source.bytes, file);
  if (parsed.error) {
    err << FormatDiagnostic(*parsed.error) << "\n";
    return 1;
  }
  runtime::ScopeTable scopes = runtime::AnalyzeScopes(*parsed.module);
  FunctionFinder finder;
  finder.Walk(parsed.module.get());
  for (const lang::Node* def : finder.functions) {
    const runtime::Scope& scope = scopes.Of(def);
    const dynamo::CodeLayout layout(*def);
    nlohmann::json function = {
        {"name", def->kind == lang::NodeKind::kLambda ? "<lambda>"
                                                      : lang::As<lang::FunctionDef>(*def).name},
        {"line", def->span.begin.line},
        {"col", def->span.begin.col},
        {"calls", nlohmann::json::array()},
        {"statements", nlohmann::json::array()}};
    for (const auto& [call, at] : layout.positions().after_call) {
      function["calls"].push_back({{"line", call->span.begin.line},
                                   {"col", call->span.begin.col},
                                   {"end_line", call->span.end.line},
                                   {"end_col", call->span.end.col},
                                   {"live", Live(scope, layout, at)}});
    }
    for (const auto& [stmt, at] : layout.positions().statement) {
      function["statements"].push_back({{"line", stmt->span.begin.line},
                                        {"col", stmt->span.begin.col},
                                        {"end_line", stmt->span.end.line},
                                        {"end_col", stmt->span.end.col},
                                        {"kind", lang::ClassName(*stmt)},
                                        {"live", Live(scope, layout, at)}});
    }
    out << function.dump() << "\n";
  }
  return 0;
}

}  // namespace tdc::tools
