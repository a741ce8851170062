// PEP 263 coding declarations. The reference reads every source file as UTF-8 (PEP 3120),
// so a file that declares another encoding (`# -*- coding: latin-1 -*-`, which CPython
// honours) would be read wrongly: it is refused as outside the subset instead.
#ifndef TDCONFORM_REFERENCE_LANG_CODING_DECLARATION_H_
#define TDCONFORM_REFERENCE_LANG_CODING_DECLARATION_H_

#include <optional>
#include <string>
#include <string_view>

#include "reference/base/diagnostic.h"

namespace tdc::lang {

// The refusal (kUnsupported, at the declaration) of a coding declaration on line 1 or 2
// naming an encoding other than UTF-8, or nullopt.
std::optional<Diagnostic> RefuseNonUtf8Coding(std::string_view source, const std::string& filename);

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_CODING_DECLARATION_H_
