// Which non-ASCII characters may appear in identifiers (PEP 3131's XID_Start and
// XID_Continue), as CPython's tokenizer checks them.
#ifndef TDCONFORM_REFERENCE_LANG_IDENTIFIERS_H_
#define TDCONFORM_REFERENCE_LANG_IDENTIFIERS_H_

namespace tdc::lang {

// Approximations of the Unicode properties: the subset does not ship Unicode's tables,
// so letters of every script are accepted and the punctuation, symbol, separator and
// control blocks that source files meet are rejected (see SEMANTICS.md, "Identifiers").
bool IsIdentifierStart(char32_t c);
bool IsIdentifierContinue(char32_t c);

}  // namespace tdc::lang

#endif  // TDCONFORM_REFERENCE_LANG_IDENTIFIERS_H_
