#include "reference/runtime/interp/code_objects.h"

#include "reference/runtime/interp/stdlib_modules_support.h"
#include "reference/runtime/not_modeled.h"

namespace tdc::runtime {

namespace {

// The class of code objects, made when the program first reads one.
Ref<PyType> CodeType(Interpreter& in) {
  auto& objects = in.process().code_objects();
  if (!objects.empty()) return objects.front().object->type;
  Ref<PyType> type = LibraryClass(in, "code", "builtins");
  RefuseOtherAttributes(in, type);
  return type;
}

}  // namespace

Value CodeObjectOf(Interpreter& in, const PyFunction& f) {
  const auto* code = std::get_if<UserCode>(&f.code);
  if (code == nullptr) RefuseNotModeled("the __code__ of a library function is not modeled");
  RefuseInCompiledRegion(in, "a function's __code__");
  auto& objects = in.process().code_objects();
  for (const auto& o : objects) {
    if (o.def == code->def) return o.object;
  }
  Ref<PyInstance> object = in.heap().NewInstance(CodeType(in));
  // The def's name, whatever the function's __name__ became.
  const bool lambda = code->def->kind == lang::NodeKind::kLambda;
  if (!lambda && code->def->kind != lang::NodeKind::kFunctionDef) {
    RefuseNotModeled("the __code__ of a function other than a def's or a lambda's is not modeled");
  }
  object->attrs->SetStr(
      "co_name", in.heap().Str(lambda ? "<lambda>" : lang::As<lang::FunctionDef>(*code->def).name));
  // `<code object f at 0x..., file "...", line N>`: the file is the fixture's path.
  object->repr_not_modeled = true;
  objects.push_back({code->def, code->keep_alive, object});
  return object;
}

const lang::Node* DefOfCodeObject(Interpreter& in, const Value& v) {
  for (const auto& o : in.process().code_objects()) {
    if (Value(o.object) == v) return o.def;
  }
  return nullptr;
}

}  // namespace tdc::runtime
