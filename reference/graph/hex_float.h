// Python's float.hex() text, exactly: how every floating-point number is written in a
// golden (fixtures/SCHEMA.md §6). Writing then reading gives back the same bits (NaN
// payloads and signs aside: Python writes every NaN as "nan").
#ifndef TDCONFORM_REFERENCE_GRAPH_HEX_FLOAT_H_
#define TDCONFORM_REFERENCE_GRAPH_HEX_FLOAT_H_

#include <optional>
#include <string>
#include <string_view>

namespace tdc::graph {

// float.hex(value): "0x1.8000000000000p+1", "-0x0.0p+0", "0x0.0000000000001p-1022"
// (subnormals), "inf", "-inf", "nan".
std::string FormatHexFloat(double value);

// The inverse of FormatHexFloat, accepting only its canonical output (13 lower-case
// fraction digits, the exponent Python chooses), so that a golden read and written back
// is byte-identical. nullopt for anything else ("0x1.8p+1", "1.5", "NaN", "+inf").
std::optional<double> ParseHexFloat(std::string_view text);

}  // namespace tdc::graph

#endif  // TDCONFORM_REFERENCE_GRAPH_HEX_FLOAT_H_
