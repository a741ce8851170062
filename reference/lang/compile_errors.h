// The SyntaxErrors CPython 3.11 raises after parsing, when it compiles a module: those of
// its symbol table (symtable.c: global and nonlocal declarations, duplicate parameters,
// `import *` in a function) and of its code generator (compile.c: return, break and continue
// outside their blocks, starred assignment targets, repeated keywords, __debug__ as a
// target, statically nested blocks). ast.parse raises none of them, so a program the parser
// and the subset accept may still be one CPython refuses to run.
#ifndef TDCONFORM_REFERENCE_LANG_COMPILE_ERRORS_H_
#define TDCONFORM_REFERENCE_LANG_COMPILE_ERRORS_H_

#include <optional>
#include <string>

#include "reference/base/diagnostic.h"
#include "reference/lang/ast.h"

namespace tdc::lang {

// The first error compile() raises for `module` (a tree in the subset), in CPython's order:
// the symbol table's before the code generator's; nullopt when it compiles. Its column is
// CPython's offset for these errors: the UTF-8 byte offset plus one, not a character column.
std::optional<Diagnostic> FirstCompileError(const Module& module, const std::string& filename);

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_COMPILE_ERRORS_H_
