#include "reference/lang/literals.h"

#include <fmt/format.h>

#include <cctype>
#include <cstdlib>
#include <vector>

#include "reference/base/py_repr.h"
#include "reference/base/utf8.h"

namespace tdc::lang {
namespace {

// Converts digits in `base` (2, 8 or 16) to a decimal string of arbitrary length.
std::string ToDecimal(std::string_view digits, int base) {
  std::vector<int> decimal{0};  // Little-endian decimal digits.
  for (char c : digits) {
    int d = std::isdigit(static_cast<unsigned char>(c))
                ? c - '0'
                : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
    int carry = d;
    for (int& digit : decimal) {
      int v = digit * base + carry;
      digit = v % 10;
      carry = v / 10;
    }
    while (carry > 0) {
      decimal.push_back(carry % 10);
      carry /= 10;
    }
  }
  std::string out;
  for (auto it = decimal.rbegin(); it != decimal.rend(); ++it) out += static_cast<char>('0' + *it);
  return out;
}

std::string WithoutUnderscores(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c != '_') out += c;
  }
  return out;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads exactly `count` hex digits at `i`; -1 when they are not all there.
long ReadHex(std::string_view body, size_t i, int count) {
  long value = 0;
  for (int k = 0; k < count; ++k) {
    if (i + k >= body.size() || HexValue(body[i + k]) < 0) return -1;
    value = value * 16 + HexValue(body[i + k]);
  }
  return value;
}

bool DecodeEscapes(std::string_view body, bool is_bytes, std::string& out, std::string& error) {
  for (size_t i = 0; i < body.size();) {
    if (body[i] != '\\' || i + 1 >= body.size()) {
      out += body[i++];
      continue;
    }
    char c = body[i + 1];
    size_t start = i;
    i += 2;
    switch (c) {
      case '\n':
        break;
      case '\\':
        out += '\\';
        break;
      case '\'':
        out += '\'';
        break;
      case '"':
        out += '"';
        break;
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7': {
        int value = c - '0';
        for (int k = 0; k < 2 && i < body.size() && body[i] >= '0' && body[i] <= '7'; ++k) {
          value = value * 8 + (body[i++] - '0');
        }
        if (is_bytes) {
          out += static_cast<char>(value & 0xFF);
        } else {
          AppendUtf8(out, static_cast<char32_t>(value));
        }
        break;
      }
      case 'x':
      case 'u':
      case 'U': {
        int count = c == 'x' ? 2 : c == 'u' ? 4 : 8;
        if (is_bytes && c != 'x') {
          out += body.substr(start, 2);
          break;
        }
        long value = ReadHex(body, i, count);
        if (value < 0 || value > 0x10FFFF) {
          if (is_bytes) {
            error = fmt::format("(value error) invalid \\x escape at position {}", start);
            return false;
          }
          size_t digits = 0;
          while (i + digits < body.size() && HexValue(body[i + digits]) >= 0) ++digits;
          error = fmt::format(
              "(unicode error) 'unicodeescape' codec can't decode bytes in position {}-{}: "
              "truncated \\{}{} escape",
              start, i + digits - 1, c, std::string(count, 'X'));
          return false;
        }
        i += count;
        if (is_bytes) {
          out += static_cast<char>(value);
        } else {
          AppendUtf8(out, static_cast<char32_t>(value));
        }
        break;
      }
      case 'N':
        if (!is_bytes) {
          error = "\\N{...} escapes are not supported by the tdconform subset";
          return false;
        }
        out += body.substr(start, 2);
        break;
      default:
        // Unknown escapes keep their backslash (CPython warns, and keeps both characters).
        out += body.substr(start, 2);
        break;
    }
  }
  return true;
}

}  // namespace

ConstantValue NumberValue(std::string_view spelling) {
  ConstantValue v;
  std::string s = WithoutUnderscores(spelling);
  char last = s.back();
  if (last == 'j' || last == 'J') {
    v.kind = ConstantValue::Kind::kComplex;
    v.real = std::strtod(s.substr(0, s.size() - 1).c_str(), nullptr);
    return v;
  }
  if (s.size() > 2 && s[0] == '0' && std::isalpha(static_cast<unsigned char>(s[1]))) {
    char base = static_cast<char>(std::tolower(static_cast<unsigned char>(s[1])));
    v.kind = ConstantValue::Kind::kInt;
    v.integer = ToDecimal(s.substr(2), base == 'x' ? 16 : base == 'o' ? 8 : 2);
    return v;
  }
  if (s.find_first_of(".eE") != std::string::npos) {
    v.kind = ConstantValue::Kind::kFloat;
    v.real = std::strtod(s.c_str(), nullptr);
    return v;
  }
  v.kind = ConstantValue::Kind::kInt;
  size_t first = s.find_first_not_of('0');
  v.integer = first == std::string::npos ? "0" : s.substr(first);
  return v;
}

std::optional<StringPiece> DecodeString(std::string_view spelling, StringError& error) {
  StringPiece piece;
  bool raw = false;
  size_t i = 0;
  for (; i < spelling.size() && spelling[i] != '\'' && spelling[i] != '"'; ++i) {
    switch (std::tolower(static_cast<unsigned char>(spelling[i]))) {
      case 'r':
        raw = true;
        break;
      case 'b':
        piece.is_bytes = true;
        break;
      case 'f':
        piece.is_fstring = true;
        break;
      case 'u':
        // CPython sets Constant.kind = 'u' only for a lowercase u.
        piece.has_u_prefix = spelling[i] == 'u';
        break;
    }
  }
  std::string_view quoted = spelling.substr(i);
  size_t quote_len = quoted.size() >= 6 && quoted[0] == quoted[1] && quoted[1] == quoted[2] ? 3 : 1;
  std::string_view body = quoted.substr(quote_len, quoted.size() - 2 * quote_len);
  if (!piece.is_bytes) {
    // CPython decodes a str literal's body as UTF-8 (PEP 3120); its error comes after
    // every literal of the concatenation is read, like an escape's.
    if (std::optional<Utf8Error> bad = FirstUtf8Error(body)) {
      error = {"(unicode error) " + Utf8ErrorMessage(*bad), false};
      return std::nullopt;
    }
  }
  if (piece.is_fstring) return piece;
  if (piece.is_bytes) {
    for (char c : body) {
      if (static_cast<unsigned char>(c) >= 0x80) {
        error = {"bytes can only contain ASCII literal characters", true};
        return std::nullopt;
      }
    }
  }
  if (raw) {
    piece.value = std::string(body);
    return piece;
  }
  if (!DecodeEscapes(body, piece.is_bytes, piece.value, error.message)) return std::nullopt;
  return piece;
}

}  // namespace tdc::lang
