#include "reference/lang/ast_fields.h"

#include <utility>

namespace tdc::lang {
namespace {

void VisitArguments(const Arguments& n, FieldVisitor& v) {
  v.Children("posonlyargs", n.posonlyargs);
  v.Children("args", n.args);
  v.Child("vararg", n.vararg.get());
  v.Children("kwonlyargs", n.kwonlyargs);
  v.Children("kw_defaults", n.kw_defaults);
  v.Child("kwarg", n.kwarg.get());
  v.Children("defaults", n.defaults);
}

// Every field of `node`, by its kind.
void Visit(const Node& node, FieldVisitor& v) {
  switch (node.kind) {
    // Expressions.
    case NodeKind::kBoolOp: {
      const auto& n = As<BoolOp>(node);
      v.Tag("op", BoolOpClassName(n.op));
      v.Children("values", n.values);
      return;
    }
    case NodeKind::kBinOp: {
      const auto& n = As<BinOp>(node);
      v.Child("left", n.left.get());
      v.Tag("op", BinaryOpClassName(n.op));
      v.Child("right", n.right.get());
      return;
    }
    case NodeKind::kUnaryOp: {
      const auto& n = As<UnaryOp>(node);
      v.Tag("op", UnaryOpClassName(n.op));
      v.Child("operand", n.operand.get());
      return;
    }
    case NodeKind::kLambda: {
      const auto& n = As<Lambda>(node);
      v.Child("args", n.args.get());
      v.Child("body", n.body.get());
      return;
    }
    case NodeKind::kIfExp: {
      const auto& n = As<IfExp>(node);
      v.Child("test", n.test.get());
      v.Child("body", n.body.get());
      v.Child("orelse", n.orelse.get());
      return;
    }
    case NodeKind::kDict: {
      const auto& n = As<Dict>(node);
      v.Children("keys", n.keys);
      v.Children("values", n.values);
      return;
    }
    case NodeKind::kListComp: {
      const auto& n = As<ListComp>(node);
      v.Child("elt", n.elt.get());
      v.Children("generators", n.generators);
      return;
    }
    case NodeKind::kCompare: {
      const auto& n = As<Compare>(node);
      v.Child("left", n.left.get());
      std::vector<std::string_view> ops;
      for (CompareOp op : n.ops) ops.push_back(CompareOpClassName(op));
      v.Tags("ops", ops);
      v.Children("comparators", n.comparators);
      return;
    }
    case NodeKind::kCall: {
      const auto& n = As<Call>(node);
      v.Child("func", n.func.get());
      v.Children("args", n.args);
      v.Children("keywords", n.keywords);
      return;
    }
    case NodeKind::kConstant: {
      const auto& n = As<Constant>(node);
      v.Value("value", n.value);
      v.OptionalIdentifier("kind", n.kind_u);
      return;
    }
    case NodeKind::kAttribute: {
      const auto& n = As<Attribute>(node);
      v.Child("value", n.value.get());
      v.Identifier("attr", n.attr);
      v.Tag("ctx", ExprContextClassName(n.ctx));
      return;
    }
    case NodeKind::kSubscript: {
      const auto& n = As<Subscript>(node);
      v.Child("value", n.value.get());
      v.Child("slice", n.slice.get());
      v.Tag("ctx", ExprContextClassName(n.ctx));
      return;
    }
    case NodeKind::kStarred: {
      const auto& n = As<Starred>(node);
      v.Child("value", n.value.get());
      v.Tag("ctx", ExprContextClassName(n.ctx));
      return;
    }
    case NodeKind::kName: {
      const auto& n = As<Name>(node);
      v.Identifier("id", n.id);
      v.Tag("ctx", ExprContextClassName(n.ctx));
      return;
    }
    case NodeKind::kList: {
      const auto& n = As<List>(node);
      v.Children("elts", n.elts);
      v.Tag("ctx", ExprContextClassName(n.ctx));
      return;
    }
    case NodeKind::kTuple: {
      const auto& n = As<Tuple>(node);
      v.Children("elts", n.elts);
      v.Tag("ctx", ExprContextClassName(n.ctx));
      return;
    }
    case NodeKind::kSlice: {
      const auto& n = As<Slice>(node);
      v.Child("lower", n.lower.get());
      v.Child("upper", n.upper.get());
      v.Child("step", n.step.get());
      return;
    }
    case NodeKind::kUnsupportedExpr:
      return;
    // Statements.
    case NodeKind::kFunctionDef: {
      const auto& n = As<FunctionDef>(node);
      v.Identifier("name", n.name);
      v.Child("args", n.args.get());
      v.Children("body", n.body);
      v.Children("decorator_list", n.decorator_list);
      v.Child("returns", n.returns.get());
      return;
    }
    case NodeKind::kClassDef: {
      const auto& n = As<ClassDef>(node);
      v.Identifier("name", n.name);
      v.Children("bases", n.bases);
      v.Children("keywords", n.keywords);
      v.Children("body", n.body);
      v.Children("decorator_list", n.decorator_list);
      return;
    }
    case NodeKind::kReturn:
      v.Child("value", As<Return>(node).value.get());
      return;
    case NodeKind::kDelete:
      v.Children("targets", As<Delete>(node).targets);
      return;
    case NodeKind::kAssign: {
      const auto& n = As<Assign>(node);
      v.Children("targets", n.targets);
      v.Child("value", n.value.get());
      return;
    }
    case NodeKind::kAugAssign: {
      const auto& n = As<AugAssign>(node);
      v.Child("target", n.target.get());
      v.Tag("op", BinaryOpClassName(n.op));
      v.Child("value", n.value.get());
      return;
    }
    case NodeKind::kFor: {
      const auto& n = As<For>(node);
      v.Child("target", n.target.get());
      v.Child("iter", n.iter.get());
      v.Children("body", n.body);
      v.Children("orelse", n.orelse);
      return;
    }
    case NodeKind::kWhile: {
      const auto& n = As<While>(node);
      v.Child("test", n.test.get());
      v.Children("body", n.body);
      v.Children("orelse", n.orelse);
      return;
    }
    case NodeKind::kIf: {
      const auto& n = As<If>(node);
      v.Child("test", n.test.get());
      v.Children("body", n.body);
      v.Children("orelse", n.orelse);
      return;
    }
    case NodeKind::kWith: {
      const auto& n = As<With>(node);
      v.Children("items", n.items);
      v.Children("body", n.body);
      return;
    }
    case NodeKind::kRaise: {
      const auto& n = As<Raise>(node);
      v.Child("exc", n.exc.get());
      v.Child("cause", n.cause.get());
      return;
    }
    case NodeKind::kTry: {
      const auto& n = As<Try>(node);
      v.Children("body", n.body);
      v.Children("handlers", n.handlers);
      v.Children("orelse", n.orelse);
      v.Children("finalbody", n.finalbody);
      return;
    }
    case NodeKind::kAssert: {
      const auto& n = As<Assert>(node);
      v.Child("test", n.test.get());
      v.Child("msg", n.msg.get());
      return;
    }
    case NodeKind::kImport:
      v.Children("names", As<Import>(node).names);
      return;
    case NodeKind::kImportFrom: {
      const auto& n = As<ImportFrom>(node);
      v.OptionalIdentifier("module", n.module);
      v.Children("names", n.names);
      v.Int("level", n.level);
      return;
    }
    case NodeKind::kGlobal:
      v.Identifiers("names", As<Global>(node).names);
      return;
    case NodeKind::kNonlocal:
      v.Identifiers("names", As<Nonlocal>(node).names);
      return;
    case NodeKind::kExprStmt:
      v.Child("value", As<ExprStmt>(node).value.get());
      return;
    case NodeKind::kPass:
    case NodeKind::kBreak:
    case NodeKind::kContinue:
    case NodeKind::kUnsupportedStmt:
      return;
    // The other nodes.
    case NodeKind::kModule:
      v.Children("body", As<Module>(node).body);
      v.Children("type_ignores", NodeList());
      return;
    case NodeKind::kComprehension: {
      const auto& n = As<Comprehension>(node);
      v.Child("target", n.target.get());
      v.Child("iter", n.iter.get());
      v.Children("ifs", n.ifs);
      v.Int("is_async", n.is_async);
      return;
    }
    case NodeKind::kExceptHandler: {
      const auto& n = As<ExceptHandler>(node);
      v.Child("type", n.type.get());
      v.OptionalIdentifier("name", n.name);
      v.Children("body", n.body);
      return;
    }
    case NodeKind::kArguments:
      VisitArguments(As<Arguments>(node), v);
      return;
    case NodeKind::kArg: {
      const auto& n = As<Arg>(node);
      v.Identifier("arg", n.arg);
      v.Child("annotation", n.annotation.get());
      return;
    }
    case NodeKind::kKeyword: {
      const auto& n = As<Keyword>(node);
      v.OptionalIdentifier("arg", n.arg);
      v.Child("value", n.value.get());
      return;
    }
    case NodeKind::kAlias: {
      const auto& n = As<Alias>(node);
      v.Identifier("name", n.name);
      v.OptionalIdentifier("asname", n.asname);
      return;
    }
    case NodeKind::kWithItem: {
      const auto& n = As<WithItem>(node);
      v.Child("context_expr", n.context_expr.get());
      v.Child("optional_vars", n.optional_vars.get());
      return;
    }
  }
}

}  // namespace

void VisitFields(const Node& node, FieldVisitor& visitor) { Visit(node, visitor); }

std::string_view ClassName(const Node& node) {
  if (node.kind == NodeKind::kUnsupportedStmt) return As<UnsupportedStmt>(node).class_name;
  if (node.kind == NodeKind::kUnsupportedExpr) return As<UnsupportedExpr>(node).class_name;
  if (node.kind == NodeKind::kListComp && As<ListComp>(node).generator) return "GeneratorExp";
  // The kinds whose CPython class is not named as they are: the `Expr` statement, and the
  // helper nodes CPython names in lower case.
  static constexpr std::pair<NodeKind, std::string_view> kCPythonNames[] = {
      {NodeKind::kExprStmt, "Expr"},       {NodeKind::kComprehension, "comprehension"},
      {NodeKind::kArguments, "arguments"}, {NodeKind::kArg, "arg"},
      {NodeKind::kKeyword, "keyword"},     {NodeKind::kAlias, "alias"},
      {NodeKind::kWithItem, "withitem"}};
  for (const auto& [kind, name] : kCPythonNames) {
    if (node.kind == kind) return name;
  }
  return NodeKindName(node.kind);
}

}  // namespace tdc::lang
