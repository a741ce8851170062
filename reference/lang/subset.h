// The tdconform subset of Python: which AST classes the reference runs.
#ifndef TDCONFORM_REFERENCE_LANG_SUBSET_H_
#define TDCONFORM_REFERENCE_LANG_SUBSET_H_

#include "reference/lang/ast.h"
#include "reference/lang/ast_fields.h"

namespace tdc::lang {

// The first node outside the subset in `ast.walk` order (breadth first, children in
// field order), or null. The parser marks such nodes as Unsupported; no descendant of
// an unsupported node can come before it in that order, so their subtrees are dropped.
const Node* FirstUnsupported(const Module& module);

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_SUBSET_H_
