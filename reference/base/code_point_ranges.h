// Inclusive ranges of Unicode code points: the form of the character tables that stand
// in for Unicode's database (py_repr's printability, lang's identifier characters).
#ifndef TDCONFORM_REFERENCE_BASE_CODE_POINT_RANGES_H_
#define TDCONFORM_REFERENCE_BASE_CODE_POINT_RANGES_H_

#include <span>

namespace tdc {

struct CodePointRange {
  char32_t lo, hi;
};

inline bool InRanges(char32_t c, std::span<const CodePointRange> ranges) {
  for (const CodePointRange& r : ranges) {
    if (c >= r.lo && c <= r.hi) return true;
  }
  return false;
}

}  // namespace tdc

#endif  // TDCONFORM_REFERENCE_BASE_CODE_POINT_RANGES_H_
