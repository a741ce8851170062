// tdfuzz: generated programs run under the reference against the independent oracle
// (--vs-oracle, no torch) or against real torch through the oracle's recorder
// (--vs-torch), with a report of the program shapes covered (fuzz-anchors §6).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz/generators.h"
#include "fuzz/partition_oracle.h"
#include "fuzz/reference_run.h"
#include "fuzz/serialize.h"
#include "fuzz/shapes.h"
#include "fuzz/shrink.h"
#include "reference/base/read_file.h"
#include "reference/compare/comparator.h"
#include "reference/graph/golden_json.h"

namespace tdc::fuzz {
namespace {

struct Options {
  bool vs_torch = false;
  bool vs_oracle = false;
  bool print = false;
  int count = 100;
  uint64_t seed = 1;
  std::string out = "build/tdfuzz";
  std::string python = ".venv/bin/python";
  std::string replay;
  int shrink = 3;  // disagreements shrunk (each shrink step records a program with torch)
  std::vector<std::string> disabled_rules;  // --vs-oracle, --replay: Dynamo rules switched off
  std::string profile = "torch-2.13";  // the compiled runs' (torch-2.13-ngb: nested graph breaks)
  bool nested() const { return profile == "torch-2.13-ngb"; }
};

// --replay FILE.case: the program as a fixture, and both partitions.
int Replay(const Options& o) {
  FileContents text = ReadRegularFile(o.replay);
  if (!text.bytes) {
    fmt::print(stderr, "{}: error: {}\n", o.replay, text.error);
    return 2;
  }
  std::string error;
  std::optional<Program> program = Parse(*text.bytes, &error);
  if (!program) {
    fmt::print(stderr, "{}: {}\n", o.replay, error);
    return 2;
  }
  ReferenceRun run = RunOnReference(*program, o.replay, o.disabled_rules, o.profile);
  fmt::print("{}\nreference: {}{}\noracle:    {}\n", PrintFixture(*program), run.error,
             FormatPartition(run.partition),
             FormatPartition(PredictPartition(*program, o.nested())));
  return 0;
}

// Each disagreement printed shrunk (statement deletion while it still disagrees), in the
// canonical text.
int VsOracle(const Options& o) {
  ShapeReport report;
  int failed = 0;
  auto disagrees = [&](const Program& p) {
    ReferenceRun run = RunOnReference(p, "fuzz/program.py", o.disabled_rules, o.profile);
    return !run.error.empty() ||
           FormatPartition(run.partition) != FormatPartition(PredictPartition(p, o.nested()));
  };
  for (int i = 0; i < o.count; ++i) {
    Program program = SampleProgram(o.seed + static_cast<uint64_t>(i), 60, kEveryExtension);
    report.Add(program);
    if (!disagrees(program)) continue;
    ++failed;
    Program small = Shrink(program, disagrees);
    ReferenceRun run = RunOnReference(small, "fuzz/program.py", o.disabled_rules, o.profile);
    fmt::print("seed {} (shrunk to {} statements): reference {}{} / oracle {}\n{}\n", o.seed + i,
               StatementCount(small), run.error, FormatPartition(run.partition),
               FormatPartition(PredictPartition(small, o.nested())), Serialize(small));
  }
  fmt::print("{}", report.Format());
  fmt::print("tdfuzz --vs-oracle --profile {}: {} programs, {} disagreements\n", o.profile, o.count,
             failed);
  return failed == 0 ? 0 : 1;
}

// Writes `program` as `<stem>.py`; its path.
std::string WriteProgram(const std::string& stem, const Program& program) {
  std::filesystem::create_directories(std::filesystem::path(stem).parent_path());
  std::string file = stem + ".py";
  std::ofstream(file, std::ios::binary) << PrintFixture(program);
  return file;
}

// Records `files` with real torch through the oracle (its fork server, 2 children).
void RecordWithTorch(const Options& o, const std::vector<std::string>& files,
                     const std::string& log) {
  std::string command = o.python + " -m conformance.oracle record";
  for (const std::string& f : files) command += " " + f;
  command += " > " + log + " 2>&1";
  if (std::system(command.c_str()) != 0)
    fmt::print(stderr, "tdfuzz: the oracle failed on some programs (see {})\n", log);
}

// The comparator's differences between torch's golden of `file` (nullopt: none recorded)
// and the reference's outcome of `program`.
// Torch's golden of `file`, as recorded.
graph::GoldenReadResult TorchGolden(const std::string& file) {
  std::ifstream in(std::filesystem::path(file).replace_extension(".golden.json"));
  std::stringstream text;
  text << in.rdbuf();
  return graph::ReadGolden(text.str());
}

// The partition torch's golden of `file` shows in the profile.
Partition TorchPartition(const Options& o, const std::string& file) {
  graph::GoldenReadResult golden = TorchGolden(file);
  if (!golden.golden) return {};
  for (const auto& [profile, compiled] : golden.golden->compiled) {
    if (profile == o.profile) return PartitionOf(compiled);
  }
  return {};
}

std::optional<std::vector<compare::Difference>> DiffersFromTorch(const Options& o,
                                                                 const std::string& file,
                                                                 const Program& program) {
  graph::GoldenReadResult golden = TorchGolden(file);
  if (!golden.golden) return std::nullopt;
  ReferenceRun run = RunOnReference(program, file, {}, o.profile);
  graph::Golden actual;
  actual.eager = run.eager;
  actual.compiled.emplace_back(o.profile, run.compiled);
  compare::CompareOptions options;
  options.profile = o.profile;
  return compare::Compare(*golden.golden, actual, options).differences;
}

// A difference's field with its indices dropped: shrinking keeps to one kind of failure.
std::string Signature(const compare::Difference& d) {
  static const std::regex kIndex(R"(\[\d+\])");
  return std::regex_replace(d.path, kIndex, "[]");
}

// Shrinks a disagreement by statement deletion while the same field keeps differing, and
// writes it with both outcomes under `<out>/disagreements/`.
void ShrinkAndWrite(const Options& o, uint64_t seed, const Program& program,
                    const std::string& signature) {
  std::string scratch = fmt::format("{}/shrink/case_{}", o.out, seed);
  auto still_differs = [&](const Program& candidate) {
    std::string file = WriteProgram(scratch, candidate);
    RecordWithTorch(o, {file}, scratch + ".log");
    std::optional<std::vector<compare::Difference>> diffs = DiffersFromTorch(o, file, candidate);
    return diffs &&
           std::ranges::any_of(*diffs, [&](const auto& d) { return Signature(d) == signature; });
  };
  Program small = Shrink(program, still_differs);
  std::string stem = fmt::format("{}/disagreements/case_{}", o.out, seed);
  std::string file = WriteProgram(stem, small);
  RecordWithTorch(o, {file}, stem + ".log");
  std::ofstream(stem + ".case", std::ios::binary) << Serialize(small);
  ReferenceRun run = RunOnReference(small, file, {}, o.profile);
  graph::Golden reference;
  reference.meta.fixture = file;
  reference.eager = run.eager;
  reference.compiled.emplace_back(o.profile, run.compiled);
  std::ofstream(stem + ".reference.json", std::ios::binary) << graph::WriteGolden(reference);
  fmt::print(
      "{}: shrunk to {} statements ({}); torch's outcome in .golden.json, the reference's in "
      ".reference.json\n",
      file, StatementCount(small), signature);
}

// Why --vs-torch cannot run here, or nullopt. The oracle runs from the checkout (the
// working directory: `python -m conformance.oracle`) and records only fixtures inside
// it; an --out elsewhere would cost every recording and fail each, so it is refused
// before the first.
std::optional<std::string> VsTorchSetupError(const Options& o) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path root = fs::weakly_canonical(fs::current_path(ec), ec);
  if (ec || !fs::is_directory(root / "conformance" / "oracle", ec)) {
    return "run --vs-torch from the checkout's root (there is no conformance/oracle/ here)";
  }
  fs::path out = fs::weakly_canonical(fs::absolute(o.out, ec), ec);
  fs::path rel = ec ? fs::path() : out.lexically_relative(root);
  if (rel.empty() || *rel.begin() == "..") {
    return fmt::format(
        "--out {}: outside the checkout {} (the oracle records only files inside it)", o.out,
        root.string());
  }
  return std::nullopt;
}

int VsTorch(const Options& o) {
  if (std::optional<std::string> error = VsTorchSetupError(o)) {
    fmt::print(stderr, "tdfuzz: error: {}\n", *error);
    return 2;
  }
  std::vector<Program> programs;
  std::vector<std::string> files;
  for (int i = 0; i < o.count; ++i) {
    programs.push_back(SampleProgram(o.seed + static_cast<uint64_t>(i), 60, kEveryExtension));
    files.push_back(WriteProgram(fmt::format("{}/case_{}", o.out, o.seed + i), programs.back()));
  }
  RecordWithTorch(o, files, o.out + "/record.log");
  ShapeReport report;
  int failed = 0, unrecorded = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    report.Add(programs[i]);
    std::optional<std::vector<compare::Difference>> diffs =
        DiffersFromTorch(o, files[i], programs[i]);
    if (!diffs) {
      ++unrecorded;
      continue;
    }
    if (diffs->empty()) continue;
    fmt::print("{}: differs from torch\n", files[i]);
    for (const auto& d : *diffs) fmt::print("  {}\n", compare::FormatDifference(d));
    // Whom the independent oracle sides with.
    fmt::print("  torch:  {}\n  oracle: {}\n", FormatPartition(TorchPartition(o, files[i])),
               FormatPartition(PredictPartition(programs[i], o.nested())));
    if (failed++ < o.shrink) ShrinkAndWrite(o, o.seed + i, programs[i], Signature(diffs->front()));
  }
  fmt::print("{}", report.Format());
  fmt::print("tdfuzz --vs-torch --profile {}: {} programs, {} recorded, {} disagreements\n",
             o.profile, o.count, o.count - unrecorded, failed);
  return failed == 0 && unrecorded == 0 ? 0 : 1;
}

}  // namespace
}  // namespace tdc::fuzz

int main(int argc, char** argv) {
  tdc::fuzz::Options o;
  CLI::App app{
      "tdfuzz: generated programs on the reference, against the independent oracle or real torch"};
  app.add_flag("--vs-torch", o.vs_torch,
               "compare with real torch 2.13.0 through the oracle's recorder");
  app.add_flag("--vs-oracle", o.vs_oracle,
               "compare the reference's partition with the independent oracle's");
  app.add_flag("--print", o.print, "print the program of --seed");
  app.add_option("--count", o.count, "programs to run")
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  app.add_option("--seed", o.seed, "the first program's seed (program i uses seed + i)");
  app.add_option("--out", o.out, "where --vs-torch writes programs and goldens");
  app.add_option("--shrink", o.shrink, "how many disagreements to shrink (default 3)")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
  app.add_option("--replay", o.replay, "a .case file (fuzz/corpus): print it and both partitions");
  app.add_option("--disable-rule", o.disabled_rules,
                 "--vs-oracle, --replay: switch a Dynamo rule off (R-<label>)");
  app.add_option("--profile", o.profile, "the profile the compiled runs predict")
      ->check(CLI::IsMember({"torch-2.13", "torch-2.13-ngb"}));
  CLI11_PARSE(app, argc, argv);
  if (o.print) {
    std::cout << tdc::fuzz::PrintFixture(
        tdc::fuzz::SampleProgram(o.seed, 60, tdc::fuzz::kEveryExtension));
    return 0;
  }
  if (!o.replay.empty()) return tdc::fuzz::Replay(o);
  if (o.vs_torch) return tdc::fuzz::VsTorch(o);
  return tdc::fuzz::VsOracle(o);
}
