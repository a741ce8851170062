// The interpreter: runs a parsed fixture program over the runtime's objects, statement by
// statement, as CPython 3.11 does (evaluation order, scoping, argument binding, exception
// handling, and the moments objects die). Library behaviour (builtins, torch) lives in
// the values it calls; Dynamo takes part only through the FrameHook (D5).
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_INTERPRETER_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_INTERPRETER_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "reference/lang/ast.h"
#include "reference/runtime/interp/process.h"
#include "reference/runtime/interp/scopes.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {

// A parsed program with its scopes; functions keep it alive through UserCode.
struct Program {
  std::string filename;  // repo-relative, as tracebacks and code objects show it
  std::string source;    // the text, for tracebacks that quote lines
  std::unique_ptr<lang::Module> module;
  ScopeTable scopes;
  // Where each line of `source` begins: every traced op quotes its line (a node's origin),
  // so finding one must not scan the text.
  std::vector<size_t> line_starts;
  // Line `line` (1-based) without its newline, or "" past the end.
  std::string_view Line(int64_t line) const;
};

// One executing function or module body.
struct Frame {
  std::shared_ptr<const Program> program;
  const Scope* scope = nullptr;
  Ref<PyDict> globals;
  Ref<PyFunction> function;        // null for the module body and a class body
  Ref<PyDict> class_namespace;     // a class body's namespace (its kNamespace names)
  std::vector<Value> fast;         // the scope's locals, in varnames order
  std::vector<Ref<PyCell>> cells;  // the scope's cellvars, then its freevars
  int64_t line = 0;                // the statement being executed
  // The grad mode it was called under (a context a decorator or its caller entered): what a
  // nested resume function resuming it first is called under.
  bool grad_enabled_at_start = true;
  const lang::Stmt* stmt = nullptr;  // that statement
  const lang::Call* call = nullptr;  // the call being made, while its callee runs
  // Operands an enclosing expression has evaluated and not yet consumed (CPython's value
  // stack minus the call being made): a binary operator's left side while the right one
  // is evaluated, a call's callee and earlier arguments while a later one is.
  std::vector<Value> stack;
  // The indices of `stack` holding a with statement's __exit__, outermost first.
  std::vector<size_t> with_exits;
  // While the second copy of a while statement's test runs (at the end of its body): its
  // jumps are other instructions than the first copy's.
  bool in_loop_end_test = false;
  // Nonzero while operands wait on CPython's stack in a form `stack` does not follow (a dict
  // or an argument list built as it goes): a graph break then is refused.
  int opaque_stack = 0;
  // A call of the statement being run again that was already made (ResumeFrame): it
  // evaluates to `made_value` once, without being made again.
  const lang::Call* made_call = nullptr;
  Value made_value;
};

// Gives `refusal` the position of `node` in `f`'s program unless an inner node did already.
void LocateNotModeled(NotModeled& refusal, const Frame& f, const lang::Node& node);

// Thrown by the frame hook through the frames above `frame`: the frame runs its code again
// from statement `stmt` (in its body or in if statements there: Interpreter::CanResumeAt)
// with the locals `fast`, the call `made` of that statement evaluating to `value`. Dynamo
// throws it where torch runs a resume function's code eagerly that the reference had run
// traced (is_compiling() is False there now).
struct ResumeFrame {
  const Frame* frame;
  const lang::Stmt* stmt;
  const lang::Call* made;
  Value value;
  std::vector<Value> fast;
};

// Where the program reads a tensor's data as a Python value (FrameHook::OnTensorData).
enum class TensorDataRead {
  kBranch,  // the value a conditional jump of the code tests: an if, while or assert
            // statement's test (through its `not`s, or an operand of its `and` / `or` /
            // ternary), an operand of `and` / `or` or a ternary's test in any expression
  kNot,     // `not` on a value (UNARY_NOT)
  kTruth,   // any other truth test: a chained comparison's, any(), a comprehension's `if`
  kInt,     // int(t)
  kFloat,   // float(t)
};

// Frame interception (DESIGN D5): Dynamo implements this; the eager interpreter runs
// with none. OnCall sees every call made through Interpreter::Call before it runs
// (functions, builtins, methods); returning a value replaces the call. OnReturn sees a
// user function's frame as it returns normally, with its result.
class FrameHook {
 public:
  virtual ~FrameHook() = default;
  virtual std::optional<Value> OnCall(const Value& callee, CallArgs& args) = 0;
  virtual void OnReturn(const Frame& frame, const Value& result) = 0;
  // `frame` read its local `name` (Dynamo guards only the values a trace reads).
  virtual void OnLoadLocal(const Frame& frame, const std::string& name) {
    (void)frame;
    (void)name;
  }
  // `frame` stored tensor `value` in its variable `name`: its own local or cell variable
  // (`own_variable`), or an enclosing frame's (a nonlocal).
  virtual void OnStoreTensor(const Frame& frame, const std::string& name, const Value& value,
                             bool own_variable) {
    (void)frame;
    (void)name;
    (void)value;
    (void)own_variable;
  }
  // `frame` read the contents of closure cell `cell`, its variable `name`.
  virtual void OnLoadCell(const Frame& frame, const std::string& name, const PyCell& cell) {
    (void)frame;
    (void)name;
    (void)cell;
  }
  // The program used `v` other than by moving it (storing it in a local, binding it to a
  // parameter, returning it, putting it in a list, tuple or dict): an operator, a test, an
  // attribute, an item, a call of something not a user function. Dynamo guards a frame
  // value only once it is used (its lazy variables are realized then).
  virtual void OnUse(const Value& v) { (void)v; }
  // The program subscripts `container` with `key` (BINARY_SUBSCR): a use of the container,
  // which for a tuple or list takes out one item only (Dynamo guards that item, not the
  // others, once it is used).
  virtual void OnItemRead(const Value& container, const Value& key) {
    (void)key;
    OnUse(container);
  }
  // Grad mode was set to `enabled` (torch.no_grad / enable_grad entered or left).
  virtual void OnGradModeSet(bool enabled) { (void)enabled; }
  // The program is about to read `tensor`'s data as a Python value at `read`; `test` is the
  // if statement's test for kBranch (null otherwise). Eager code reads the value; Dynamo
  // cannot at trace time (its tensors have no data) and breaks the graph there.
  virtual void OnTensorData(const Value& tensor, TensorDataRead read, const lang::Expr* test) {
    (void)tensor;
    (void)read;
    (void)test;
  }
  // A raise statement of the program raises `exception` (Dynamo observes it while tracing).
  virtual void OnRaise(const Value& exception) { (void)exception; }
  // Binding a call's arguments to the parameters of `function` raised `error` (TypeError),
  // before its frame was pushed.
  virtual void OnBindFailure(const PyFunction& function, const PyError& error) {
    (void)function;
    (void)error;
  }
  // `error` leaves `frame` unhandled; the frames stand as they were where it was raised in it.
  virtual void OnErrorLeavingFrame(const Frame& frame, const PyError& error) {
    (void)frame;
    (void)error;
  }
  // `frame` begins executing statement `stmt`.
  virtual void OnStatement(const Frame& frame, const lang::Stmt& stmt) {
    (void)frame;
    (void)stmt;
  }
  // A with statement of `frame` is about to enter context manager `manager` (Dynamo cannot
  // enter every manager it meets).
  virtual void OnEnterContext(const Frame& frame, const Value& manager) {
    (void)frame;
    (void)manager;
  }
  // The program is about to set or delete an attribute of a class statement's class or
  // instance `object` (Dynamo refuses a store into a class in traced code).
  virtual void OnStoreAttribute(const Value& object) { (void)object; }
  // The program is about to change `object` in place: an item of a list or dict, an
  // attribute, a global of a module's dict, a cell's contents (Dynamo runs some calls
  // again, which must not change what outlives them twice).
  virtual void OnMutate(const Value& object) { (void)object; }
  // A class statement's class made `instance` (before its __init__ runs).
  virtual void OnNewInstance(const Value& instance) { (void)instance; }
  // A context manager decorated a function: `wrapper` is the function around it
  // (ContextDecorator; Dynamo calls a grad mode's one a traced frame made through a polyfill).
  virtual void OnNewContextWrapper(const Value& wrapper) { (void)wrapper; }
  // Attribute `name` of a class statement's instance was found on its class.
  virtual void OnClassAttributeRead(const Value& instance, std::string_view name) {
    (void)instance;
    (void)name;
  }
  // The program read attribute `name` of a class statement's class or instance, which has
  // none (torch guards the absence when it traces such a read).
  virtual void OnMissingAttribute(const Value& object, std::string_view name) {
    (void)object;
    (void)name;
  }
  // An attribute expression or getattr() of the program reads the dunder attribute `name`
  // (`__name__`, `__module__`, ...) of `object` (Dynamo answers it for some callables, not
  // for torch's own). The interpreter's own reads (__enter__ of a with statement) are not
  // told.
  virtual void OnDunderRead(const Value& object, std::string_view name) {
    (void)object;
    (void)name;
  }
  // The program made a view of `tensor` through a property (`x.T`), not through the op table.
  virtual void OnTensorViewProperty(const Value& tensor, std::string_view name) {
    (void)tensor;
    (void)name;
  }
  // An attribute expression or getattr() of the program reads attribute `name` of
  // `function`, not a dunder one (an attribute the program may have set on it).
  virtual void OnFunctionAttributeRead(const PyFunction& function, std::string_view name) {
    (void)function;
    (void)name;
  }
  // `frame` read the module global `name` of `globals`, bound to `value`.
  virtual void OnLoadGlobal(const PyDict& globals, const std::string& name, const Value& value) {
    (void)globals;
    (void)name;
    (void)value;
  }
};

class Interpreter {
 public:
  explicit Interpreter(Process& process) : process_(process) {}

  Process& process() { return process_; }
  Heap& heap() { return process_.heap(); }

  // Runs `program`'s module body with `globals` as its namespace. An uncaught Python
  // exception propagates as PyError.
  void RunModule(std::shared_ptr<const Program> program, const Ref<PyDict>& globals);

  // callee(*args): functions, builtins, bound methods, types.
  Value Call(const Value& callee, CallArgs args);
  // The same, without offering this call to the frame hook (calls it makes are offered).
  Value CallDirect(const Value& callee, CallArgs args);
  // getattr(object, name) and setattr, with Python's AttributeError text.
  Value GetAttr(const Value& object, std::string_view name);
  void SetAttr(const Value& object, std::string_view name, Value value);
  // The items of an iterable (list, tuple, dict keys, str characters, range results).
  std::vector<Value> Iterate(const Value& iterable);

  void set_frame_hook(FrameHook* hook) { hook_ = hook; }
  // A context manager's decorator made `wrapper` (ContextDecorator).
  void NoteContextWrapper(const Value& wrapper) {
    if (hook_ != nullptr) hook_->OnNewContextWrapper(wrapper);
  }
  // Whether a ResumeFrame can start at `stmt` of a function's `body`: it is one of the
  // body's statements or inside if statements there (no block to enter again).
  static bool CanResumeAt(const lang::StmtList& body, const lang::Stmt& stmt);
  // torch._C._set_grad_enabled: sets the process's grad mode and tells the frame hook when
  // it changes (Dynamo's GradModeVariable records a node only then).
  void SetGradEnabled(bool enabled) {
    const bool changed = process_.grad_enabled != enabled;
    process_.grad_enabled = enabled;
    if (hook_ != nullptr && changed) hook_->OnGradModeSet(enabled);
  }
  // Tells the frame hook the program used `v` (FrameHook::OnUse).
  void Use(const Value& v) {
    if (hook_ != nullptr && v) hook_->OnUse(v);
  }
  // Tells the frame hook the program subscripts `container` (FrameHook::OnItemRead).
  void ReadItem(const Value& container, const Value& key) {
    if (hook_ != nullptr && container) hook_->OnItemRead(container, key);
  }
  // Tells the frame hook the program stores into `v`'s attributes (FrameHook::OnStoreAttribute).
  void StoreAttribute(const Value& v) {
    if (hook_ != nullptr && v) hook_->OnStoreAttribute(v);
  }
  // Tells the frame hook (FrameHook::OnMutate).
  void Mutate(const Value& object) {
    if (hook_ != nullptr) hook_->OnMutate(object);
  }
  // Tells the frame hook (FrameHook::OnClassAttributeRead).
  void ClassAttributeRead(const Value& instance, std::string_view name) {
    if (hook_ != nullptr && !internal_lookup_) hook_->OnClassAttributeRead(instance, name);
  }
  // Tells the frame hook (FrameHook::OnMissingAttribute).
  void MissingAttribute(const Value& object, std::string_view name) {
    if (hook_ != nullptr && !internal_lookup_) hook_->OnMissingAttribute(object, name);
  }
  // Tells the frame hook (FrameHook::OnTensorViewProperty).
  void TensorViewProperty(const Value& tensor, std::string_view name) {
    if (hook_ != nullptr && !internal_lookup_) hook_->OnTensorViewProperty(tensor, name);
  }
  // An attribute expression or getattr() of the program reads `name` of `object`: tells the
  // frame hook of a dunder attribute (FrameHook::OnDunderRead) or of one of a function's
  // (FrameHook::OnFunctionAttributeRead).
  void ProgramAttributeRead(const Value& object, std::string_view name) {
    if (hook_ == nullptr || internal_lookup_) return;
    if (name.starts_with("__")) {
      hook_->OnDunderRead(object, name);
    } else if (const auto* function = DynCast<PyFunction>(object)) {
      hook_->OnFunctionAttributeRead(*function, name);
    }
  }
  // Whether an InternalLookup lives.
  bool InInternalLookup() const { return internal_lookup_; }
  // While one lives, attribute reads are the reference's own (a marker torch checks on the
  // real object, not a read of the program): the frame hook is not told of them.
  class InternalLookup {
   public:
    explicit InternalLookup(Interpreter& in) : in_(in), was_(in.internal_lookup_) {
      in.internal_lookup_ = true;
    }
    ~InternalLookup() { in_.internal_lookup_ = was_; }
    InternalLookup(const InternalLookup&) = delete;
    InternalLookup& operator=(const InternalLookup&) = delete;

   private:
    Interpreter& in_;
    bool was_;
  };
  // Tells the frame hook the program reads tensor `v`'s data (FrameHook::OnTensorData).
  void ReadTensorData(const Value& v, TensorDataRead read, const lang::Expr* test = nullptr) {
    if (hook_ != nullptr && v) hook_->OnTensorData(v, read, test);
  }
  // The innermost running frame (null outside any code).
  const Frame* current_frame() const { return frames_.empty() ? nullptr : frames_.back(); }
  // Every running frame, outermost (the module body) first.
  const std::vector<Frame*>& frames() const { return frames_; }

 private:
  enum class Flow { kNext, kReturn, kBreak, kContinue };

  Value CallUser(const Ref<PyFunction>& function, CallArgs& args);
  void BindArguments(Frame& frame, const PyFunction& function, const lang::Arguments& params,
                     CallArgs& args);

  Flow ExecBlock(Frame& f, const lang::StmtList& body, Value& result);
  // A class statement's class (classes.cc), and calling one.
  Value MakeClass(Frame& f, const lang::ClassDef& def);
  Value Instantiate(PyType& type, CallArgs& args);
  // `target op= value` (augmented_assignment.cc): a name, an attribute of a class
  // statement's instance, an item.
  void ExecAugAssign(Frame& f, const lang::AugAssign& a);
  // The target's `current` value with the operator applied to the value of `a` (evaluated
  // with `current` waiting on the stack as BINARY_OP's left operand).
  Value AugmentedValue(Frame& f, const lang::AugAssign& a, Value current);
  void AugAssignAttribute(Frame& f, const lang::AugAssign& a);
  void AugAssignItem(Frame& f, const lang::AugAssign& a);
  // Runs `body` from the statement holding `stmt` (CanResumeAt) to its end.
  Flow ExecFrom(Frame& f, const lang::StmtList& body, const lang::Stmt& stmt, Value& result);
  // Runs a function's body, again from a ResumeFrame point each time one comes for `f`.
  Flow ExecFunctionBody(Frame& f, const lang::StmtList& body, Value& result);
  // Exec and Eval run ExecNode / EvalNode and locate a NotModeled refusal at the innermost
  // node it leaves (DESIGN D13: its `file:line:col`).
  Flow Exec(Frame& f, const lang::Stmt& stmt, Value& result);
  Flow ExecNode(Frame& f, const lang::Stmt& stmt, Value& result);
  Flow ExecTry(Frame& f, const lang::Try& stmt, Value& result);
  Flow ExecWith(Frame& f, const lang::With& stmt, size_t item, Value& result);
  Flow ExecFor(Frame& f, const lang::For& stmt, Value& result);
  Flow ExecWhile(Frame& f, const lang::While& stmt, Value& result);
  // Whether the conditional jumps on if or while statement `stmt`'s test go to its body
  // (`loop_end`: a while's second copy of the test, at the end of its body).
  bool JumpsToBody(Frame& f, const lang::Stmt& stmt, const lang::Expr& test, bool loop_end);
  // compiler_jump_if: whether the jumps on `e` go to their target, which they do when `e`'s
  // truth is `cond`; each value a conditional jump tests is read by BranchTruth.
  bool JumpIf(Frame& f, const lang::Expr& e, bool cond);
  void ExecImport(Frame& f, const lang::Stmt& stmt);
  void Assign(Frame& f, const lang::Expr& target, Value value);
  void Delete(Frame& f, const lang::Expr& target);
  void ExecRaise(Frame& f, const lang::Raise& stmt);

  Value Eval(Frame& f, const lang::Expr& e);
  Value EvalNode(Frame& f, const lang::Expr& e);
  Value EvalCall(Frame& f, const lang::Call& call);
  Value EvalListComp(Frame& f, const lang::ListComp& comp);
  // Hands on each item comprehension `comp` makes, in order, until on_item returns false;
  // whether it made them all.
  bool ForEachComprehensionItem(Frame& f, const lang::ListComp& comp,
                                const std::function<bool(Value)>& on_item);
  // ---- generator_exp.cc
  // A call whose only argument is generator expression `comp` (callee evaluated): the value
  // of a builtin consuming it at once (any, all, sum, sorted, list, tuple), nullopt for any
  // other callee.
  std::optional<Value> ConsumeGenerator(Frame& f, const Value& callee, const lang::ListComp& comp);
  Value MakeFunction(Frame& f, const lang::Node& def, const std::string& name,
                     const lang::Arguments* params);
  Value Constant(Frame& f, const lang::Constant& c);
  // A def's docstring (its first statement, a str literal), or null.
  Value Docstring(Frame& f, const lang::StmtList& body);

  Value LoadName(Frame& f, const std::string& name);
  void StoreName(Frame& f, const std::string& name, Value value);
  void DeleteName(Frame& f, const std::string& name);
  // Unbinds without an error when unbound (the end of an `except ... as name` block).
  void ClearName(Frame& f, const std::string& name);

  Process& process_;
  FrameHook* hook_ = nullptr;
  bool internal_lookup_ = false;  // InternalLookup
  std::vector<Frame*> frames_;
  // The exceptions being handled (innermost last): a bare `raise` re-raises the last.
  std::vector<Value> handling_;
  // Literal constants per node: a code object's co_consts, shared by every execution.
  std::unordered_map<const lang::Node*, Value> constants_;
};

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_INTERPRETER_H_
