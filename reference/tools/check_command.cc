#include "reference/tools/check_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>

#include "reference/base/read_file.h"
#include "reference/lang/ast_dump.h"
#include "reference/lang/parser.h"

namespace tdc::tools {
namespace {

lang::ParseResult ParseFile(const std::string& path) {
  FileContents source = ReadRegularFile(path);
  if (!source.bytes) {
    lang::ParseResult result;
    result.error = Diagnostic{DiagnosticKind::kIoError, path, 1, 1, source.error};
    return result;
  }
  return lang::ParseSubset(*source.bytes, path);
}

// The expected diagnostic of an error fixture, if it has one.
std::optional<std::string> ExpectedDiagnostic(const std::string& path) {
  std::filesystem::path sidecar(path);
  sidecar.replace_extension(".diag");
  std::optional<std::string> text = ReadFile(sidecar.string());
  if (!text) return std::nullopt;
  while (!text->empty() && (text->back() == '\n' || text->back() == '\r')) text->pop_back();
  return text;
}

// Why `path` fails the check, or nullopt when it passes.
std::optional<std::string> CheckOne(const std::string& path) {
  lang::ParseResult result = ParseFile(path);
  std::optional<std::string> expected = ExpectedDiagnostic(path);
  if (!expected) {
    if (result.error) return FormatDiagnostic(*result.error);
    return std::nullopt;
  }
  if (!result.error) {
    return fmt::format("{}:1:1: error: expected the diagnostic '{}', but the file is valid", path,
                       *expected);
  }
  std::string actual = FormatDiagnosticWithoutFile(*result.error);
  if (actual == *expected) return std::nullopt;
  return fmt::format("{}\n  expected: {}", FormatDiagnostic(*result.error), *expected);
}

}  // namespace

int RunCheck(const std::vector<std::string>& files, std::ostream& out) {
  int passed = 0;
  int failed = 0;
  for (const std::string& file : files) {
    if (std::optional<std::string> failure = CheckOne(file)) {
      fmt::print(out, "{}\n", *failure);
      ++failed;
    } else {
      ++passed;
    }
  }
  fmt::print(out, "{} passed, {} failed\n", passed, failed);
  return failed == 0 && passed > 0 ? 0 : 1;
}

int RunDumpAst(const std::string& file, std::ostream& out, std::ostream& err) {
  lang::ParseResult result = ParseFile(file);
  if (result.error) {
    fmt::print(err, "{}\n", FormatDiagnostic(*result.error));
    return 1;
  }
  fmt::print(out, "{}\n", lang::DumpAst(*result.module));
  return 0;
}

}  // namespace tdc::tools
