#include "reference/runtime/interp/py_regex.h"

#include <fmt/format.h>

#include <functional>

#include "reference/runtime/not_modeled.h"

namespace tdc::runtime::regex {

// ---- Syntax tree ---------------------------------------------------------------------

// \d \w \s and their negations (sre's CATEGORY codes).
enum class ClassEscape { kDigit, kNotDigit, kWord, kNotWord, kSpace, kNotSpace };

struct CharSet {
  bool negated = false;
  std::vector<std::pair<char32_t, char32_t>> ranges;
  std::vector<ClassEscape> escapes;
};

struct Item {
  enum class Kind { kLiteral, kAny, kSet, kGroup, kStart, kEnd } kind = Kind::kLiteral;
  char32_t literal = 0;
  CharSet set;
  std::shared_ptr<const Alternation> group;
  int capture = -1;  // the group's index, -1 for (?:...)
  size_t min = 1, max = 1;
  bool greedy = true;
};

using Sequence = std::vector<Item>;

struct Alternation {
  std::vector<Sequence> branches;
};

constexpr size_t kUnbounded = static_cast<size_t>(-1);

namespace {

[[noreturn]] void Refuse(std::string_view pattern, std::string_view what) {
  RefuseNotModeled(fmt::format("re pattern '{}': {} is not modeled", pattern, what));
}

bool IsAsciiLetterOrDigit(char32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

class Parser {
 public:
  explicit Parser(std::string_view pattern) : source_(pattern), text_(Decode(pattern)) {}

  Pattern Run() {
    auto root = std::make_shared<Alternation>(ParseAlternation());
    if (pos_ < text_.size()) Refuse(source_, "an unbalanced ')'");  // re.error
    return Pattern{std::string(source_), std::move(root), groups_};
  }

 private:
  bool AtEnd() const { return pos_ >= text_.size(); }
  char32_t Peek() const { return text_[pos_]; }

  Alternation ParseAlternation() {
    Alternation alt;
    alt.branches.push_back(ParseSequence());
    while (!AtEnd() && Peek() == '|') {
      ++pos_;
      alt.branches.push_back(ParseSequence());
    }
    return alt;
  }

  Sequence ParseSequence() {
    Sequence seq;
    while (!AtEnd() && Peek() != '|' && Peek() != ')') {
      char32_t c = text_[pos_++];
      Item item;
      switch (c) {
        case '.':
          item.kind = Item::Kind::kAny;
          break;
        case '^':
          item.kind = Item::Kind::kStart;
          break;
        case '$':
          item.kind = Item::Kind::kEnd;
          break;
        case '[':
          item.kind = Item::Kind::kSet;
          item.set = ParseSet();
          break;
        case '(':
          item = ParseGroup();
          break;
        case '\\':
          item = ParseEscape();
          break;
        case '*':
        case '+':
        case '?':
          Refuse(source_, "a repeat of nothing");  // re.error "nothing to repeat"
        case '{':
          if (ParseRepeatBounds(nullptr)) Refuse(source_, "a repeat of nothing");
          item.literal = c;
          break;
        default:
          item.literal = c;
          break;
      }
      ParseQuantifier(item);
      seq.push_back(std::move(item));
    }
    return seq;
  }

  // After `{`: `m}`, `m,}`, `,n}`, `m,n}` (sre_parse); otherwise the `{` is a literal and
  // nothing is consumed. `out` (when given) gets {min, max}.
  bool ParseRepeatBounds(std::pair<size_t, size_t>* out) {
    size_t p = pos_;
    auto digits = [&]() {
      std::string d;
      while (p < text_.size() && text_[p] >= '0' && text_[p] <= '9')
        d += static_cast<char>(text_[p++]);
      return d;
    };
    if (p < text_.size() && text_[p] == '}') return false;
    std::string lo = digits(), hi;
    bool comma = p < text_.size() && text_[p] == ',';
    if (comma) {
      ++p;
      hi = digits();
    } else {
      hi = lo;
    }
    if (p >= text_.size() || text_[p] != '}') return false;
    if (lo.size() > 9 || hi.size() > 9) Refuse(source_, "a repeat count this large");
    size_t min = lo.empty() ? 0 : std::stoul(lo);
    size_t max = hi.empty() ? kUnbounded : std::stoul(hi);
    if (max < min) Refuse(source_, "a repeat with min > max");  // re.error
    if (out != nullptr) {
      *out = {min, max};
      pos_ = p + 1;
    }
    return true;
  }

  void ParseQuantifier(Item& item) {
    if (AtEnd()) return;
    char32_t c = Peek();
    std::pair<size_t, size_t> bounds;
    if (c == '*') {
      bounds = {0, kUnbounded};
      ++pos_;
    } else if (c == '+') {
      bounds = {1, kUnbounded};
      ++pos_;
    } else if (c == '?') {
      bounds = {0, 1};
      ++pos_;
    } else if (c == '{') {
      ++pos_;
      if (!ParseRepeatBounds(&bounds)) {
        --pos_;
        return;
      }
    } else {
      return;
    }
    if (item.kind == Item::Kind::kStart || item.kind == Item::Kind::kEnd) {
      Refuse(source_, "a repeated anchor");  // re.error "nothing to repeat"
    }
    if (item.kind == Item::Kind::kGroup && CanMatchEmpty(*item.group)) {
      // sre's handling of zero-width iterations is not modeled.
      Refuse(source_, "a repeated group that can match the empty string");
    }
    item.min = bounds.first;
    item.max = bounds.second;
    if (!AtEnd() && Peek() == '?') {
      item.greedy = false;
      ++pos_;
    } else if (!AtEnd() && Peek() == '+') {
      Refuse(source_, "a possessive quantifier");
    }
    if (!AtEnd() && (Peek() == '*' || Peek() == '+' || Peek() == '?')) {
      Refuse(source_, "a multiple repeat");  // re.error
    }
    if (!AtEnd() && Peek() == '{') {
      ++pos_;
      bool repeat = ParseRepeatBounds(nullptr);
      --pos_;
      if (repeat) Refuse(source_, "a multiple repeat");
    }
  }

  static bool CanMatchEmpty(const Alternation& alt) {
    for (const Sequence& seq : alt.branches) {
      bool empty = true;
      for (const Item& item : seq) {
        bool item_empty = item.min == 0 || item.kind == Item::Kind::kStart ||
                          item.kind == Item::Kind::kEnd ||
                          (item.kind == Item::Kind::kGroup && CanMatchEmpty(*item.group));
        if (!item_empty) {
          empty = false;
          break;
        }
      }
      if (empty) return true;
    }
    return false;
  }

  Item ParseGroup() {
    Item item;
    item.kind = Item::Kind::kGroup;
    if (!AtEnd() && Peek() == '?') {
      if (pos_ + 1 < text_.size() && text_[pos_ + 1] == ':') {
        pos_ += 2;
      } else {
        Refuse(source_, "a (?...) extension other than (?:...)");
      }
    } else {
      item.capture = static_cast<int>(++groups_);
    }
    item.group = std::make_shared<Alternation>(ParseAlternation());
    if (AtEnd() || Peek() != ')') Refuse(source_, "a missing ')'");  // re.error
    ++pos_;
    return item;
  }

  // The character an escape stands for outside a class, or a class escape.
  std::optional<ClassEscape> ClassEscapeOf(char32_t c) const {
    switch (c) {
      case 'd':
        return ClassEscape::kDigit;
      case 'D':
        return ClassEscape::kNotDigit;
      case 'w':
        return ClassEscape::kWord;
      case 'W':
        return ClassEscape::kNotWord;
      case 's':
        return ClassEscape::kSpace;
      case 'S':
        return ClassEscape::kNotSpace;
      default:
        return std::nullopt;
    }
  }

  char32_t EscapedLiteral(char32_t c) const {
    switch (c) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'f':
        return '\f';
      case 'v':
        return '\v';
      case 'a':
        return '\a';
      default:
        break;
    }
    // Other letters and digits are classes, anchors, backreferences, code escapes or
    // errors in sre_parse: none is modeled. Any other character stands for itself.
    if (IsAsciiLetterOrDigit(c)) Refuse(source_, fmt::format("the escape \\{}", Encode({&c, 1})));
    return c;
  }

  Item ParseEscape() {
    if (AtEnd()) Refuse(source_, "a trailing backslash");  // re.error
    char32_t c = text_[pos_++];
    Item item;
    if (std::optional<ClassEscape> e = ClassEscapeOf(c)) {
      item.kind = Item::Kind::kSet;
      item.set.escapes.push_back(*e);
      return item;
    }
    item.literal = EscapedLiteral(c);
    return item;
  }

  CharSet ParseSet() {
    CharSet set;
    if (!AtEnd() && Peek() == '^') {
      set.negated = true;
      ++pos_;
    }
    bool first = true;
    while (true) {
      if (AtEnd()) Refuse(source_, "an unterminated character set");  // re.error
      char32_t c = text_[pos_++];
      if (c == ']' && !first) break;
      first = false;
      if (c == '[') Refuse(source_, "'[' inside a character set");  // FutureWarning
      if ((c == '-' || c == '&' || c == '~' || c == '|') && !AtEnd() && Peek() == c) {
        Refuse(source_, "a doubled set operator in a character set");  // FutureWarning
      }
      char32_t lo = c;
      if (c == '\\') {
        if (AtEnd()) Refuse(source_, "an unterminated character set");
        char32_t e = text_[pos_++];
        if (std::optional<ClassEscape> ce = ClassEscapeOf(e)) {
          if (!AtEnd() && Peek() == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] != ']') {
            Refuse(source_, "a range from a class escape");  // re.error "bad character range"
          }
          set.escapes.push_back(*ce);
          continue;
        }
        if (e == 'b') Refuse(source_, "\\b in a character set");
        lo = EscapedLiteral(e);
      }
      char32_t hi = lo;
      if (!AtEnd() && Peek() == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] != ']') {
        ++pos_;
        hi = text_[pos_++];
        if (hi == '\\') {
          if (AtEnd()) Refuse(source_, "an unterminated character set");
          char32_t e = text_[pos_++];
          if (ClassEscapeOf(e) || e == 'b') Refuse(source_, "a range to a class escape");
          hi = EscapedLiteral(e);
        } else if (hi == '[') {
          Refuse(source_, "'[' inside a character set");
        }
        if (hi < lo) Refuse(source_, "a bad character range");  // re.error
      }
      set.ranges.emplace_back(lo, hi);
    }
    return set;
  }

  std::string_view source_;
  std::u32string text_;
  size_t pos_ = 0;
  size_t groups_ = 0;
};

// ---- Matching -------------------------------------------------------------------------

bool InEscape(ClassEscape e, char32_t c) {
  if (c >= 0x80) RefuseNotModeled("re: \\d, \\w and \\s on a non-ASCII character are not modeled");
  bool digit = c >= '0' && c <= '9';
  bool word = digit || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  // str.isspace() of ASCII: \t \n \v \f \r, \x1c-\x1f and space.
  bool space = (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f) || c == ' ';
  switch (e) {
    case ClassEscape::kDigit:
      return digit;
    case ClassEscape::kNotDigit:
      return !digit;
    case ClassEscape::kWord:
      return word;
    case ClassEscape::kNotWord:
      return !word;
    case ClassEscape::kSpace:
      return space;
    case ClassEscape::kNotSpace:
      return !space;
  }
  return false;
}

bool InSet(const CharSet& set, char32_t c) {
  bool in = false;
  for (const auto& [lo, hi] : set.ranges) in = in || (c >= lo && c <= hi);
  for (ClassEscape e : set.escapes) in = InEscape(e, c) || in;
  return in != set.negated;
}

using Continuation = std::function<bool(size_t)>;

class Matcher {
 public:
  Matcher(const std::u32string& subject, size_t groups) : s_(subject), spans(groups + 1) {}

  bool Alt(const Alternation& alt, size_t pos, const Continuation& k) {
    for (const Sequence& seq : alt.branches) {
      if (Seq(seq, 0, pos, k)) return true;
    }
    return false;
  }

  const std::u32string& s_;
  Spans spans;

 private:
  bool Seq(const Sequence& seq, size_t i, size_t pos, const Continuation& k) {
    if (i == seq.size()) return k(pos);
    const Item& item = seq[i];
    Continuation next = [&, i](size_t p) { return Seq(seq, i + 1, p, k); };
    return Repeat(item, 0, pos, next);
  }

  // sre's order: a greedy item takes one more iteration before trying the rest, a lazy one
  // the rest first. An optional iteration that consumes nothing ends the repetition (only
  // a required one may be empty: an anchor, an unrepeated group; Parse refuses repeating a
  // group that can match empty).
  bool Repeat(const Item& item, size_t count, size_t pos, const Continuation& k) {
    auto more = [&](size_t p) {
      return (p != pos || count < item.min) && Repeat(item, count + 1, p, k);
    };
    if (item.greedy) {
      if (count < item.max && One(item, pos, more)) return true;
      return count >= item.min && k(pos);
    }
    if (count >= item.min && k(pos)) return true;
    return count < item.max && One(item, pos, more);
  }

  bool One(const Item& item, size_t pos, const Continuation& k) {
    switch (item.kind) {
      case Item::Kind::kLiteral:
        return pos < s_.size() && s_[pos] == item.literal && k(pos + 1);
      case Item::Kind::kAny:
        return pos < s_.size() && s_[pos] != '\n' && k(pos + 1);
      case Item::Kind::kSet:
        return pos < s_.size() && InSet(item.set, s_[pos]) && k(pos + 1);
      case Item::Kind::kStart:
        return pos == 0 && k(pos);
      case Item::Kind::kEnd:
        return (pos == s_.size() || (pos + 1 == s_.size() && s_[pos] == '\n')) && k(pos);
      case Item::Kind::kGroup: {
        if (item.capture < 0) return Alt(*item.group, pos, k);
        auto g = static_cast<size_t>(item.capture);
        return Alt(*item.group, pos, [&, g, pos](size_t end) {
          Span saved = spans[g];
          spans[g] = std::make_pair(pos, end);
          if (k(end)) return true;
          spans[g] = saved;
          return false;
        });
      }
    }
    return false;
  }
};

}  // namespace

Pattern Parse(std::string_view pattern) { return Parser(pattern).Run(); }

std::optional<Spans> Find(const Pattern& pattern, const std::u32string& subject, size_t start,
                          Anchor anchor, bool must_advance) {
  for (size_t at = start; at <= subject.size(); ++at) {
    Matcher m(subject, pattern.groups);
    size_t end = 0;
    bool found = m.Alt(*pattern.root, at, [&](size_t p) {
      if (anchor == Anchor::kFullMatch && p != subject.size()) return false;
      if (must_advance && at == start && p == start) return false;
      end = p;
      return true;
    });
    if (found) {
      m.spans[0] = std::make_pair(at, end);
      return m.spans;
    }
    if (anchor != Anchor::kSearch) break;
  }
  return std::nullopt;
}

std::u32string Decode(std::string_view utf8) {
  std::u32string out;
  for (size_t i = 0; i < utf8.size();) {
    auto c = static_cast<unsigned char>(utf8[i]);
    size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
    char32_t cp = n == 1 ? c : (c & (0x7f >> n));
    for (size_t j = 1; j < n && i + j < utf8.size(); ++j)
      cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + j]) & 0x3f);
    out.push_back(cp);
    i += n;
  }
  return out;
}

std::string Encode(std::u32string_view text) {
  std::string out;
  for (char32_t c : text) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xc0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xe0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (c & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (c & 0x3f));
    }
  }
  return out;
}

}  // namespace tdc::runtime::regex
