// Positions in source text, counted as CPython's ast module counts them.
#ifndef TDCONFORM_REFERENCE_BASE_SOURCE_LOCATION_H_
#define TDCONFORM_REFERENCE_BASE_SOURCE_LOCATION_H_

namespace tdc {

// A point in a file. `line` is 1-based; `col` is the 0-based UTF-8 byte offset within
// the line (CPython's `col_offset`).
struct SourcePos {
  int line = 0;
  int col = 0;
  friend bool operator==(const SourcePos&, const SourcePos&) = default;
};

// A half-open range [begin, end), the `lineno/col_offset/end_lineno/end_col_offset`
// attributes of an AST node.
struct SourceSpan {
  SourcePos begin;
  SourcePos end;
  friend bool operator==(const SourceSpan&, const SourceSpan&) = default;
};

}  // namespace tdc

#endif  // TDCONFORM_REFERENCE_BASE_SOURCE_LOCATION_H_
