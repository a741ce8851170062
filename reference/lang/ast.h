// The abstract syntax tree of the tdconform Python subset. Node classes and their fields
// mirror CPython 3.11's `ast` module one to one (see ast_fields.cc for field order), so
// that `ast.dump` output can be reproduced byte for byte. Trees are immutable once the
// parser returns them.
#ifndef TDCONFORM_REFERENCE_LANG_AST_H_
#define TDCONFORM_REFERENCE_LANG_AST_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/base/source_location.h"

namespace tdc::lang {

enum class NodeKind {
#define TDC_AST_NODE(Name, Category, HasPositions) k##Name,
#include "reference/lang/ast_nodes.def"
#undef TDC_AST_NODE
};

// Case labels for the node kinds outside one category of ast_nodes.def. A switch over an
// expression's (a statement's) kind lists the kinds of its category one by one and the
// others with these three lines, so that it needs no `default` (DESIGN.md Style) and a new
// kind of its category is a compile error in it:
//   #define TDC_AST_NODE(Name, Category, HasPositions) TDC_AST_CASE_UNLESS_EXPR_##Category(Name)
//   #include "reference/lang/ast_nodes.def"
//   #undef TDC_AST_NODE
#define TDC_AST_CASE(Name) case NodeKind::k##Name:
#define TDC_AST_CASE_UNLESS_EXPR_Expr(Name)
#define TDC_AST_CASE_UNLESS_EXPR_Stmt(Name) TDC_AST_CASE(Name)
#define TDC_AST_CASE_UNLESS_EXPR_Other(Name) TDC_AST_CASE(Name)
#define TDC_AST_CASE_UNLESS_STMT_Expr(Name) TDC_AST_CASE(Name)
#define TDC_AST_CASE_UNLESS_STMT_Stmt(Name)
#define TDC_AST_CASE_UNLESS_STMT_Other(Name) TDC_AST_CASE(Name)

// CPython's class name of a node kind ("Expr" for kExprStmt). For Unsupported nodes the
// real name is on the node.
std::string_view NodeKindName(NodeKind kind);
bool NodeKindHasPositions(NodeKind kind);
// Whether nodes of `kind` are statements (ast_nodes.def's category Stmt).
bool NodeKindIsStatement(NodeKind kind);

enum class BinaryOp {
#define TDC_BINARY_OP(Enum, Class, Spelling) Enum,
#include "reference/lang/operators.def"
#undef TDC_BINARY_OP
};
std::string_view BinaryOpClassName(BinaryOp op);

enum class BoolOpKind { kAnd, kOr };
enum class UnaryOpKind { kInvert, kNot, kUAdd, kUSub };
enum class CompareOp { kEq, kNotEq, kLt, kLtE, kGt, kGtE, kIs, kIsNot, kIn, kNotIn };
enum class ExprContext { kLoad, kStore, kDel };

std::string_view BoolOpClassName(BoolOpKind op);
std::string_view UnaryOpClassName(UnaryOpKind op);
std::string_view CompareOpClassName(CompareOp op);
std::string_view ExprContextClassName(ExprContext ctx);

struct Node {
  explicit Node(NodeKind k) : kind(k) {}
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  const NodeKind kind;
  SourceSpan span;
};

struct Expr : Node {
  using Node::Node;
};
struct Stmt : Node {
  using Node::Node;
};

using NodePtr = std::unique_ptr<Node>;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using ExprList = std::vector<ExprPtr>;
using StmtList = std::vector<StmtPtr>;

template <typename Base, NodeKind K>
struct NodeOf : Base {
  static constexpr NodeKind kKind = K;
  NodeOf() : Base(K) {}
};

// Checked downcast: `As<Name>(expr)`.
template <typename T>
const T& As(const Node& node) {
  return static_cast<const T&>(node);
}
template <typename T>
T& As(Node& node) {
  return static_cast<T&>(node);
}

// ---- Helper nodes --------------------------------------------------------------------

struct Arg : NodeOf<Node, NodeKind::kArg> {
  std::string arg;
  ExprPtr annotation;  // Optional.
};
using ArgPtr = std::unique_ptr<Arg>;

struct Arguments : NodeOf<Node, NodeKind::kArguments> {
  std::vector<ArgPtr> posonlyargs;
  std::vector<ArgPtr> args;
  ArgPtr vararg;  // Optional.
  std::vector<ArgPtr> kwonlyargs;
  ExprList kw_defaults;  // One per kwonlyarg; null where it has no default.
  ArgPtr kwarg;          // Optional.
  ExprList defaults;     // For the last len(defaults) of posonlyargs + args.
};

struct Keyword : NodeOf<Node, NodeKind::kKeyword> {
  std::optional<std::string> arg;  // None for `**mapping`.
  ExprPtr value;
};

struct Alias : NodeOf<Node, NodeKind::kAlias> {
  std::string name;  // Dotted for `import a.b`; "*" for `from m import *`.
  std::optional<std::string> asname;
};

struct Comprehension : NodeOf<Node, NodeKind::kComprehension> {
  ExprPtr target;
  ExprPtr iter;
  ExprList ifs;
  int is_async = 0;
};

struct ExceptHandler : NodeOf<Node, NodeKind::kExceptHandler> {
  ExprPtr type;  // Optional.
  std::optional<std::string> name;
  StmtList body;
};

struct WithItem : NodeOf<Node, NodeKind::kWithItem> {
  ExprPtr context_expr;
  ExprPtr optional_vars;  // Optional.
};

struct Module : NodeOf<Node, NodeKind::kModule> {
  StmtList body;
};

// ---- Constants -----------------------------------------------------------------------

struct ConstantValue {
  enum class Kind { kNone, kBool, kInt, kFloat, kComplex, kStr, kBytes, kEllipsis };
  Kind kind = Kind::kNone;
  bool boolean = false;
  std::string integer;  // Decimal digits: literals have arbitrary precision.
  double real = 0;      // kFloat, and the imaginary part of kComplex.
  std::string text;     // kStr: UTF-8 (surrogates encoded as 3 bytes); kBytes: raw bytes.
};

// ---- Expressions ---------------------------------------------------------------------

struct BoolOp : NodeOf<Expr, NodeKind::kBoolOp> {
  BoolOpKind op = BoolOpKind::kAnd;
  ExprList values;
};
struct BinOp : NodeOf<Expr, NodeKind::kBinOp> {
  ExprPtr left;
  BinaryOp op = BinaryOp::kAdd;
  ExprPtr right;
};
struct UnaryOp : NodeOf<Expr, NodeKind::kUnaryOp> {
  UnaryOpKind op = UnaryOpKind::kNot;
  ExprPtr operand;
};
struct Lambda : NodeOf<Expr, NodeKind::kLambda> {
  std::unique_ptr<Arguments> args;
  ExprPtr body;
};
struct IfExp : NodeOf<Expr, NodeKind::kIfExp> {
  ExprPtr test;
  ExprPtr body;
  ExprPtr orelse;
};
struct Dict : NodeOf<Expr, NodeKind::kDict> {
  ExprList keys;  // Null for `**mapping`.
  ExprList values;
};
// A list comprehension, or a generator expression (CPython's GeneratorExp, with the same
// fields and scope; the runtime models one consumed at once: Interpreter::ConsumeGenerator).
struct ListComp : NodeOf<Expr, NodeKind::kListComp> {
  ExprPtr elt;
  std::vector<std::unique_ptr<Comprehension>> generators;
  bool generator = false;
};
struct Compare : NodeOf<Expr, NodeKind::kCompare> {
  ExprPtr left;
  std::vector<CompareOp> ops;
  ExprList comparators;
};
struct Call : NodeOf<Expr, NodeKind::kCall> {
  ExprPtr func;
  ExprList args;
  std::vector<std::unique_ptr<Keyword>> keywords;
};
struct Constant : NodeOf<Expr, NodeKind::kConstant> {
  ConstantValue value;
  std::optional<std::string> kind_u;  // "u" for u"..." strings (CPython's `kind`).
};
struct Attribute : NodeOf<Expr, NodeKind::kAttribute> {
  ExprPtr value;
  std::string attr;
  ExprContext ctx = ExprContext::kLoad;
};
struct Subscript : NodeOf<Expr, NodeKind::kSubscript> {
  ExprPtr value;
  ExprPtr slice;
  ExprContext ctx = ExprContext::kLoad;
};
struct Starred : NodeOf<Expr, NodeKind::kStarred> {
  ExprPtr value;
  ExprContext ctx = ExprContext::kLoad;
};
struct Name : NodeOf<Expr, NodeKind::kName> {
  std::string id;
  ExprContext ctx = ExprContext::kLoad;
};
struct List : NodeOf<Expr, NodeKind::kList> {
  ExprList elts;
  ExprContext ctx = ExprContext::kLoad;
};
struct Tuple : NodeOf<Expr, NodeKind::kTuple> {
  ExprList elts;
  ExprContext ctx = ExprContext::kLoad;
};
struct Slice : NodeOf<Expr, NodeKind::kSlice> {
  ExprPtr lower;  // Each optional.
  ExprPtr upper;
  ExprPtr step;
};
// Any expression outside the subset (NamedExpr, Set, GeneratorExp, JoinedStr, ...).
struct UnsupportedExpr : NodeOf<Expr, NodeKind::kUnsupportedExpr> {
  std::string class_name;
};

// ---- Statements ----------------------------------------------------------------------

struct FunctionDef : NodeOf<Stmt, NodeKind::kFunctionDef> {
  std::string name;
  std::unique_ptr<Arguments> args;
  StmtList body;
  ExprList decorator_list;
  ExprPtr returns;  // Optional.
};
// The parameters of a function's code: a def statement's or a lambda's.
inline const Arguments& ParametersOf(const Node& def) {
  return def.kind == NodeKind::kFunctionDef ? *As<FunctionDef>(def).args : *As<Lambda>(def).args;
}
struct ClassDef : NodeOf<Stmt, NodeKind::kClassDef> {
  std::string name;
  ExprList bases;
  std::vector<std::unique_ptr<Keyword>> keywords;
  StmtList body;
  ExprList decorator_list;
};
struct Return : NodeOf<Stmt, NodeKind::kReturn> {
  ExprPtr value;  // Optional.
};
struct Delete : NodeOf<Stmt, NodeKind::kDelete> {
  ExprList targets;
};
struct Assign : NodeOf<Stmt, NodeKind::kAssign> {
  ExprList targets;
  ExprPtr value;
};
struct AugAssign : NodeOf<Stmt, NodeKind::kAugAssign> {
  ExprPtr target;
  BinaryOp op = BinaryOp::kAdd;
  ExprPtr value;
};
struct For : NodeOf<Stmt, NodeKind::kFor> {
  ExprPtr target;
  ExprPtr iter;
  StmtList body;
  StmtList orelse;
};
struct While : NodeOf<Stmt, NodeKind::kWhile> {
  ExprPtr test;
  StmtList body;
  StmtList orelse;
};
struct If : NodeOf<Stmt, NodeKind::kIf> {
  ExprPtr test;
  StmtList body;
  StmtList orelse;
};
struct With : NodeOf<Stmt, NodeKind::kWith> {
  std::vector<std::unique_ptr<WithItem>> items;
  StmtList body;
};
struct Raise : NodeOf<Stmt, NodeKind::kRaise> {
  ExprPtr exc;    // Optional.
  ExprPtr cause;  // Optional.
};
struct Try : NodeOf<Stmt, NodeKind::kTry> {
  StmtList body;
  std::vector<std::unique_ptr<ExceptHandler>> handlers;
  StmtList orelse;
  StmtList finalbody;
};
struct Assert : NodeOf<Stmt, NodeKind::kAssert> {
  ExprPtr test;
  ExprPtr msg;  // Optional.
};
struct Import : NodeOf<Stmt, NodeKind::kImport> {
  std::vector<std::unique_ptr<Alias>> names;
};
struct ImportFrom : NodeOf<Stmt, NodeKind::kImportFrom> {
  std::optional<std::string> module;
  std::vector<std::unique_ptr<Alias>> names;
  int level = 0;
};
struct Global : NodeOf<Stmt, NodeKind::kGlobal> {
  std::vector<std::string> names;
};
struct Nonlocal : NodeOf<Stmt, NodeKind::kNonlocal> {
  std::vector<std::string> names;
};
struct ExprStmt : NodeOf<Stmt, NodeKind::kExprStmt> {
  ExprPtr value;
};
struct Pass : NodeOf<Stmt, NodeKind::kPass> {};
struct Break : NodeOf<Stmt, NodeKind::kBreak> {};
struct Continue : NodeOf<Stmt, NodeKind::kContinue> {};
// Any statement outside the subset (AsyncFunctionDef, Match, AnnAssign, ...).
struct UnsupportedStmt : NodeOf<Stmt, NodeKind::kUnsupportedStmt> {
  std::string class_name;
};

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_AST_H_
