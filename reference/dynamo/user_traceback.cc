#include "reference/dynamo/user_traceback.h"

#include <fmt/format.h>

#include "reference/lang/ast_fields.h"

namespace tdc::dynamo {
namespace {

std::string Strip(const std::string& s, size_t& leading) {
  leading = s.find_first_not_of(" \t\f");
  if (leading == std::string::npos) {
    leading = s.size();
    return "";
  }
  size_t last = s.find_last_not_of(" \t\f\r\n");
  return s.substr(leading, last - leading + 1);
}

// CPython 3.11 (traceback.StackSummary.format_frame_summary): carets under the position
// range, to the end of the line when it goes on past it, left out when they would
// underline the whole stripped line.
std::string Carets(const TracebackEntry& e, const std::string& stripped, size_t leading) {
  if (!e.where || e.where->begin.line != e.line || e.where->end.line < e.line) return "";
  size_t begin = static_cast<size_t>(e.where->begin.col);
  size_t end = e.where->end.line == e.line ? static_cast<size_t>(e.where->end.col)
                                           : leading + stripped.size();
  if (begin < leading || end <= begin) return "";
  begin -= leading;
  end -= leading;
  if (begin == 0 && end >= stripped.size()) return "";
  return fmt::format("    {}{}\n", std::string(begin, ' '), std::string(end - begin, '^'));
}

// Finds the node of which `target` is a direct child.
class ParentFinder : public lang::FieldVisitor {
 public:
  explicit ParentFinder(const lang::Node* target) : target_(target) {}
  const lang::Node* parent = nullptr;

  void Walk(const lang::Node* node) {
    if (node == nullptr || parent != nullptr) return;
    current_.push_back(node);
    lang::VisitFields(*node, *this);
    current_.pop_back();
  }
  void Child(std::string_view, const lang::Node* child) override { Visit(child); }
  void Children(std::string_view, const lang::NodeList& children) override {
    for (const lang::Node* c : children) Visit(c);
  }

 private:
  void Visit(const lang::Node* child) {
    if (parent != nullptr || child == nullptr) return;
    if (child == target_) {
      parent = current_.back();
      return;
    }
    Walk(child);
  }
  const lang::Node* target_;
  std::vector<const lang::Node*> current_;
};

}  // namespace

SourceSpan CallPosition(const lang::Stmt* stmt, const lang::Call& call) {
  if (stmt != nullptr && stmt->kind == lang::NodeKind::kWith) {
    for (const auto& item : lang::As<lang::With>(*stmt).items) {
      if (item->context_expr.get() == &call) return {call.span.begin, stmt->span.end};
    }
  }
  return call.span;
}

SourceSpan SpanAfterCall(const lang::Stmt& stmt, const lang::Call& call) {
  ParentFinder finder(&call);
  finder.Walk(&stmt);
  bool in_expression = finder.parent != nullptr && finder.parent != &stmt;
  if (!in_expression) return call.span;
  // A method called on the call's value (`f(x).sin()`): CPython 3.11 places LOAD_METHOD at
  // the method call, not at its attribute.
  if (finder.parent->kind == lang::NodeKind::kAttribute) {
    ParentFinder outer(finder.parent);
    outer.Walk(&stmt);
    if (outer.parent != nullptr && outer.parent->kind == lang::NodeKind::kCall &&
        lang::As<lang::Call>(*outer.parent).func.get() == finder.parent) {
      return outer.parent->span;
    }
  }
  return finder.parent->span;
}

std::string FormatUserTraceback(const std::vector<TracebackEntry>& entries) {
  std::string out;
  for (const TracebackEntry& e : entries) {
    out += fmt::format("  File \"{}\", line {}, in {}\n", e.file, e.line, e.name);
    size_t leading = 0;
    std::string stripped = Strip(e.text, leading);
    if (stripped.empty()) continue;
    out += fmt::format("    {}\n", stripped);
    out += Carets(e, stripped, leading);
  }
  if (!out.empty()) out.pop_back();
  return " " + out;
}

namespace {

// A frame of torch's at a `return <call>` statement indented once: carets span the whole
// return expression (the call), as 3.11 prints them.
TracebackEntry TorchReturnFrame(const char* file, int64_t line, const char* name,
                                const char* text) {
  std::string t = fmt::format("    {}", text);
  SourceSpan where{{static_cast<int>(line), 11},
                   {static_cast<int>(line), static_cast<int>(t.size())}};
  return TracebackEntry{file, line, name, t, where};
}

}  // namespace

std::vector<TracebackEntry> CompiledFunctionPolyfillFrames() {
  constexpr const char* kFile = "<torch>/_dynamo/polyfills/__init__.py";
  return {TorchReturnFrame(kFile, 492, "getattr_and_trace_no_nested_graph_breaks",
                           "return getattr_and_trace(*args, **kwargs)"),
          TorchReturnFrame(kFile, 487, "getattr_and_trace", "return fn(*args[2:], **kwargs)")};
}

TracebackEntry TorchCondFrame() {
  return TorchReturnFrame("<torch>/_higher_order_ops/cond.py", 196, "cond",
                          "return cond_op(pred, true_fn, false_fn, operands)");
}

}  // namespace tdc::dynamo
