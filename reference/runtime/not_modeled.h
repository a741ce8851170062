// DESIGN D13, never silently wrong: what the reference does not model (a construct, module,
// attribute, config key or value, stance, op, dtype, keyword) ends the run with the outcome
// `unsupported`, never with an ordinary outcome that merely looks plausible.
//
// NotModeled is the C++ exception that carries the refusal. It is no PyError, so no
// `except` clause of the program can catch it (torch would not have raised anything there);
// `with` blocks still run their exits as it unwinds. The interpreter fills in where the
// program was (the innermost expression or statement it was evaluating) on the way out.
#ifndef TDCONFORM_REFERENCE_RUNTIME_NOT_MODELED_H_
#define TDCONFORM_REFERENCE_RUNTIME_NOT_MODELED_H_

#include <exception>
#include <string>

namespace tdc::runtime {

class NotModeled : public std::exception {
 public:
  explicit NotModeled(std::string reason) : reason_(std::move(reason)) {}

  const std::string& reason() const { return reason_; }
  // `file:line:col` (1-based, the column in characters as diagnostics count it); empty
  // until the interpreter locates it.
  const std::string& where() const { return where_; }
  bool located() const { return !where_.empty(); }
  void Locate(std::string where) { where_ = std::move(where); }
  const char* what() const noexcept override { return reason_.c_str(); }

 private:
  std::string reason_;
  std::string where_;
};

// Refuses the run: `reason` says what is not modeled ("torch._dynamo.config.verbose = True").
[[noreturn]] inline void RefuseNotModeled(std::string reason) {
  throw NotModeled(std::move(reason));
}

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_NOT_MODELED_H_
