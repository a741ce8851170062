// Where each name of a program lives, decided before the program runs as CPython's
// symtable does: module names are globals; in a function (def, lambda, list
// comprehension) a name bound anywhere in its body is local unless declared `global` or
// `nonlocal`; a name only read is free when an enclosing function binds it, else an
// implicit global; a local that an inner function reads is a cell. A class body's names
// live in its namespace (CPython's LOAD_NAME / STORE_NAME); the functions defined in it
// do not see them, and one that names `super` gets the class's `__class__` cell.
#ifndef TDCONFORM_REFERENCE_RUNTIME_INTERP_SCOPES_H_
#define TDCONFORM_REFERENCE_RUNTIME_INTERP_SCOPES_H_

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "reference/lang/ast.h"

namespace tdc::runtime {

// kNamespace: a class body's name, read from its namespace, then globals and builtins.
enum class NameKind { kLocal, kCell, kFree, kGlobal, kNamespace };

struct Scope {
  const lang::Node* node = nullptr;  // Module, FunctionDef, Lambda, ListComp or ClassDef
  const Scope* parent = nullptr;
  bool is_module = false;
  bool is_class = false;
  std::map<std::string, NameKind> names;
  // CPython orders co_cellvars and co_freevars by name; a closure tuple holds the cells
  // of the free variables in that order.
  std::vector<std::string> cellvars;
  std::vector<std::string> freevars;
  // co_varnames: the parameters (positional, keyword-only, *args, **kwargs), then the
  // other locals in order of first binding; a call's locals die in this order (I3).
  std::vector<std::string> varnames;
  std::unordered_map<std::string, size_t> local_slot;  // kLocal names -> index in varnames
  std::unordered_map<std::string, size_t> cell_slot;   // cellvars, then freevars
  size_t param_count = 0;
  // The scope's qualname ("f", "C.f", "f.<locals>.g").
  std::string qualname;

  // How the scope reads or writes `name` (an unlisted name is an implicit global, or in
  // the module a global).
  NameKind KindOf(const std::string& name) const;
};

class ScopeTable {
 public:
  const Scope& Of(const lang::Node* node) const { return *scopes_.at(node); }
  // The scopes nested directly in `parent` (its defs, lambdas and comprehensions), in no
  // particular order.
  std::vector<const Scope*> ChildrenOf(const Scope& parent) const;

 private:
  friend ScopeTable AnalyzeScopes(const lang::Module& module);
  std::unordered_map<const lang::Node*, std::unique_ptr<Scope>> scopes_;
};

ScopeTable AnalyzeScopes(const lang::Module& module);

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_INTERP_SCOPES_H_
