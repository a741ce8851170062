// The AST as CPython's `ast.dump(tree, include_attributes=True)` prints it.
#ifndef TDCONFORM_REFERENCE_LANG_AST_DUMP_H_
#define TDCONFORM_REFERENCE_LANG_AST_DUMP_H_

#include <string>

#include "reference/lang/ast.h"

namespace tdc::lang {

// Byte-identical to CPython 3.11's `ast.dump(node, include_attributes=True)` for trees
// inside the subset (Unsupported nodes print as `ClassName(...)` without fields).
std::string DumpAst(const Node& node);

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_AST_DUMP_H_
