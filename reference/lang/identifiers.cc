#include "reference/lang/identifiers.h"

#include "reference/base/code_point_ranges.h"
#include "reference/base/py_repr.h"

namespace tdc::lang {
namespace {

// Blocks of punctuation and symbols (neither XID_Start nor XID_Continue), with the few
// letters inside them cut out.
constexpr CodePointRange kNotIdentifier[] = {
    {0xA1, 0xA9},       {0xAB, 0xB4},       {0xB6, 0xB6},       {0xB8, 0xB9},
    {0xBB, 0xBF},       {0xD7, 0xD7},       {0xF7, 0xF7},       {0x2010, 0x203E},
    {0x2041, 0x2053},   {0x2055, 0x2070},   {0x2072, 0x207E},   {0x2080, 0x208F},
    {0x20A0, 0x20CF},   {0x2190, 0x2BFF},   {0x2E00, 0x2E7F},   {0x3001, 0x3004},
    {0x3008, 0x3020},   {0xFE10, 0xFE19},   {0xFE30, 0xFE32},   {0xFE35, 0xFE4C},
    {0xFE50, 0xFE6B},   {0xFF01, 0xFF0F},   {0xFF1A, 0xFF20},   {0xFF3B, 0xFF3E},
    {0xFF40, 0xFF40},   {0xFF5B, 0xFF65},   {0x1F000, 0x1FAFF}};

// XID_Continue but not XID_Start: combining marks, connector punctuation and digits.
constexpr CodePointRange kContinueOnly[] = {
    {0xB7, 0xB7},     {0x300, 0x36F},   {0x387, 0x387},     {0x483, 0x487},
    {0x591, 0x5BD},   {0x660, 0x669},   {0x6F0, 0x6F9},     {0x966, 0x96F},
    {0x203F, 0x2040}, {0x2054, 0x2054}, {0xFE33, 0xFE34},   {0xFE4D, 0xFE4F},
    {0xFF10, 0xFF19}, {0xFF3F, 0xFF3F}, {0x1D7CE, 0x1D7FF}};

}  // namespace

bool IsIdentifierContinue(char32_t c) {
  if (c < 0x80) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
  }
  if (!IsPrintable(c)) return false;
  return !InRanges(c, kNotIdentifier);
}

bool IsIdentifierStart(char32_t c) {
  if (c >= '0' && c <= '9') return false;
  return IsIdentifierContinue(c) &&
         !InRanges(c, kContinueOnly);
}

}  // namespace tdc::lang
