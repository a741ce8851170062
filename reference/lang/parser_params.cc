// Parameter lists of `def` and `lambda` (CPython's params / lambda_params).
#include "reference/lang/parser_internal.h"

namespace tdc::lang {
namespace {

ArgPtr ParseParam(Parser& p, bool is_lambda) {
  const Token& name = p.ExpectName();
  auto arg = MakeNode<Arg>(name.span.begin, name.span.end);
  arg->arg = name.text;
  if (!is_lambda && p.AcceptOp(":")) {
    arg->annotation = p.ParseExpression();
    arg->span.end = p.LastEnd();
  }
  return arg;
}

}  // namespace

std::unique_ptr<Arguments> Parser::ParseParameters(bool is_lambda, std::string_view closer) {
  auto args = std::make_unique<Arguments>();
  bool seen_star = false;
  bool seen_default = false;
  while (!AtOp(closer)) {
    if (args->kwarg != nullptr) {
      ErrorAt(Peek().span.begin, "arguments cannot follow var-keyword argument");
    }
    if (AtOp("/")) {
      if (seen_star || !args->posonlyargs.empty() || args->args.empty()) Fail();
      Next();
      args->posonlyargs = std::move(args->args);
      args->args.clear();
    } else if (AtOp("*")) {
      if (seen_star) Fail();
      const Token& star = Next();
      SourcePos star_pos = star.span.begin;
      seen_star = true;
      if (AtOp(",") || AtOp(closer)) {
        // A bare `*` must be followed by keyword-only parameters.
        bool bad = AtOp(closer) || Peek(1).IsOp(closer) || Peek(1).IsOp("**");
        if (bad) {
          if (!is_lambda) ErrorAt(star_pos, "named arguments must follow bare *");
          if (AtOp(",")) Next();
          ErrorAt(Peek().span.begin, "named arguments must follow bare *");
        }
      } else {
        args->vararg = ParseParam(*this, is_lambda);
      }
    } else if (AtOp("**")) {
      Next();
      args->kwarg = ParseParam(*this, is_lambda);
    } else {
      ArgPtr param = ParseParam(*this, is_lambda);
      ExprPtr default_value;
      if (AcceptOp("=")) default_value = ParseExpression();
      if (seen_star) {
        args->kwonlyargs.push_back(std::move(param));
        args->kw_defaults.push_back(std::move(default_value));
      } else {
        if (default_value) {
          seen_default = true;
          args->defaults.push_back(std::move(default_value));
        } else if (seen_default) {
          ErrorAt(param->span.begin, "non-default argument follows default argument");
        }
        args->args.push_back(std::move(param));
      }
    }
    if (!AcceptOp(",")) break;
  }
  return args;
}

}  // namespace tdc::lang
