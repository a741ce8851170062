#include "conformance/runner/generated.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "fuzz/generators.h"
#include "fuzz/reference_run.h"
#include "reference/base/case_id.h"
#include "reference/base/read_file.h"
#include "reference/compare/comparator.h"
#include "reference/dynamo/run_compiled.h"
#include "reference/graph/golden_json.h"

namespace tdc::conformance {

namespace {

constexpr const char* kLevels[] = {"dynamo", "aten"};

// One generated program: where its expected outcome comes from, and its seed.
struct ProgramKey {
  std::string expected;  // reference | torch
  uint64_t seed = 0;
  friend auto operator<=>(const ProgramKey&, const ProgramKey&) = default;
};

std::optional<ProgramKey> KeyOf(const std::string& text, std::string* profile) {
  CaseIdParse parsed = ParseCaseId(text);
  if (!parsed.id || parsed.id->suite != "fuzz" || !parsed.id->name.starts_with("seed_"))
    return std::nullopt;
  for (const CaseParam& p : parsed.id->params) {
    if (p.key == "profile") *profile = p.value;
  }
  try {
    return ProgramKey{parsed.id->group, std::stoull(parsed.id->name.substr(5))};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string Stem(const GeneratedFiles& files, const ProgramKey& key) {
  return fmt::format("{}/{}/seed_{}", files.dir, key.expected, key.seed);
}

std::optional<std::string> WriteFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) return fmt::format("tdconform: error: cannot write {}", path);
  return std::nullopt;
}

// Runs the oracle's recorder on `files` (argv, no shell), its output into `log`; whether it
// recorded a program shows in its golden file.
void RecordWithTorch(const std::string& python, const std::vector<std::string>& files,
                     const std::string& log) {
  std::vector<std::string> args = {python, "-m", "conformance.oracle", "record"};
  args.insert(args.end(), files.begin(), files.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t child = fork();
  if (child < 0) return;
  if (child == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
    }
    execvp(argv[0], argv.data());
    _exit(127);
  }
  waitpid(child, nullptr, 0);
}

std::optional<graph::Golden> ReadGoldenFile(const std::string& path) {
  std::optional<std::string> text = ReadFile(path);
  return text ? graph::ReadGolden(*text).golden : std::nullopt;
}

// The first difference between torch's outcome and the reference's in `profile`, if any.
std::optional<std::string> Disagreement(const graph::Golden& torch, const graph::Golden& reference,
                                        const std::string& profile) {
  compare::CompareOptions options;
  options.mode = compare::Mode::kCompile;
  options.profile = profile;
  compare::CompareResult result = compare::Compare(torch, reference, options);
  if (result.error) return *result.error;
  if (result.differences.empty()) return std::nullopt;
  return compare::FormatDifference(result.differences.front());
}

}  // namespace

std::variant<graph::Golden, std::string> ReferenceGolden(const fuzz::Program& program,
                                                         const std::string& file) {
  graph::Golden golden;
  golden.meta.fixture = file;
  golden.meta.fixture_sha256 = golden.meta.oracle_sha256 = std::string(64, '0');
  golden.meta.torch_version = "reference";
  golden.meta.header.profiles = dynamo::KnownProfiles();
  for (const std::string& profile : dynamo::KnownProfiles()) {
    fuzz::ReferenceRun run = fuzz::RunOnReference(program, file, {}, profile);
    if (!run.error.empty()) return run.error;
    golden.eager = run.eager;
    golden.compiled.emplace_back(profile, run.compiled);
  }
  return golden;
}

std::vector<std::string> GeneratedCaseIds(const GeneratedOptions& options) {
  std::vector<std::string> ids;
  for (int i = 0; i < options.count; ++i) {
    const std::string name = fmt::format("seed_{}", options.seed + static_cast<uint64_t>(i));
    for (const std::string& profile : dynamo::KnownProfiles()) {
      for (const char* level : kLevels) {
        ids.push_back(FormatCaseId({"fuzz",
                                    options.vs_torch ? "torch" : "reference",
                                    name,
                                    {{"profile", profile}, {"level", level}}}));
      }
    }
  }
  return ids;
}

std::variant<std::map<std::string, Verdict>, std::string> PrepareGenerated(
    const std::vector<std::string>& ids, const GeneratedFiles& files) {
  // The programs the ids name, and each one's cases.
  std::map<ProgramKey, std::vector<std::pair<std::string, std::string>>> programs;  // id, profile
  for (const std::string& id : ids) {
    std::string profile;
    if (std::optional<ProgramKey> key = KeyOf(id, &profile))
      programs[*key].emplace_back(id, profile);
  }
  std::map<std::string, Verdict> decided;
  if (programs.empty()) return decided;
  std::vector<std::string> to_record;
  std::map<ProgramKey, graph::Golden> by_reference;
  for (const auto& [key, cases] : programs) {
    std::error_code error;
    std::filesystem::create_directories(fmt::format("{}/{}", files.dir, key.expected), error);
    const std::string stem = Stem(files, key);
    const fuzz::Program program = fuzz::SampleProgram(key.seed);
    if (auto failed = WriteFile(stem + ".py", fuzz::PrintFixture(program))) return *failed;
    auto golden = ReferenceGolden(program, stem + ".py");
    if (auto* diagnostic = std::get_if<std::string>(&golden)) {
      for (const auto& [id, profile] : cases) {
        decided[id] = Verdict::Of(CaseStatus::kHarnessError, CasePhase::kTrace, "reference_error",
                                  *diagnostic);
      }
      continue;
    }
    if (key.expected == "reference") {
      if (auto failed =
              WriteFile(stem + ".golden.json", graph::WriteGolden(std::get<graph::Golden>(golden))))
        return *failed;
      continue;
    }
    // Recorded afresh: an old golden must not stand in for one torch did not write. The
    // reference's outcome goes beside it, for a disagreement's folder.
    std::filesystem::remove(stem + ".golden.json", error);
    if (auto failed = WriteFile(stem + ".reference.json",
                                graph::WriteGolden(std::get<graph::Golden>(golden)))) {
      return *failed;
    }
    to_record.push_back(stem + ".py");
    by_reference.emplace(key, std::get<graph::Golden>(std::move(golden)));
  }
  if (to_record.empty()) return decided;
  const std::string log = files.dir + "/torch/record.log";
  RecordWithTorch(files.python, to_record, log);
  for (const auto& [key, reference] : by_reference) {
    const std::string golden_file = Stem(files, key) + ".golden.json";
    std::optional<graph::Golden> torch = ReadGoldenFile(golden_file);
    for (const auto& [id, profile] : programs[key]) {
      if (!torch) {
        decided[id] =
            Verdict::Of(CaseStatus::kHarnessError, CasePhase::kParse, "not_recorded",
                        fmt::format("torch did not record {} (see {})", golden_file, log));
      } else if (auto difference = Disagreement(*torch, reference, profile)) {
        decided[id] = Verdict::Of(CaseStatus::kHarnessError, CasePhase::kCompare,
                                  "reference_disagrees_with_torch", *difference);
      }
    }
  }
  return decided;
}

}  // namespace tdc::conformance
