// tdfuzz: generated programs run under the reference against the independent oracle
// (--vs-oracle, no torch) or against real torch through the oracle's recorder
// (--vs-torch), with a report of the program shapes covered (fuzz-anchors §6).
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "fuzz/generators.h"
#include "fuzz/partition_oracle.h"
#include "fuzz/reference_run.h"
#include "fuzz/shapes.h"
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
};

std::string ShowPartition(const Partition& p) {
  std::string out = p.unsupported ? "Unsupported; " : "";
  for (const auto& g : p.graphs) out += fmt::format("[{}] ", fmt::join(g, " "));
  return out;
}

int VsOracle(const Options& o) {
  ShapeReport report;
  int failed = 0;
  for (int i = 0; i < o.count; ++i) {
    Program program = SampleProgram(o.seed + static_cast<uint64_t>(i));
    report.Add(program);
    ReferenceRun run = RunOnReference(program);
    Partition expected = PredictPartition(program);
    if (!run.error.empty() || ShowPartition(run.partition) != ShowPartition(expected)) {
      ++failed;
      fmt::print("seed {}: reference {}{} / oracle {}\n{}\n", o.seed + i, run.error, ShowPartition(run.partition),
                 ShowPartition(expected), PrintFixture(program));
    }
  }
  fmt::print("{}", report.Format());
  fmt::print("tdfuzz --vs-oracle: {} programs, {} disagreements\n", o.count, failed);
  return failed == 0 ? 0 : 1;
}

// Writes each program as `<out>/case_<seed>.py`; their paths.
std::vector<std::string> WritePrograms(const Options& o, std::vector<Program>& programs) {
  std::filesystem::create_directories(o.out);
  std::vector<std::string> files;
  for (int i = 0; i < o.count; ++i) {
    programs.push_back(SampleProgram(o.seed + static_cast<uint64_t>(i)));
    std::string file = fmt::format("{}/case_{}.py", o.out, o.seed + i);
    std::ofstream(file, std::ios::binary) << PrintFixture(programs.back());
    files.push_back(file);
  }
  return files;
}

int VsTorch(const Options& o) {
  std::vector<Program> programs;
  std::vector<std::string> files = WritePrograms(o, programs);
  std::string command = o.python + " -m conformance.oracle record";
  for (const std::string& f : files) command += " " + f;
  command += " > " + o.out + "/record.log 2>&1";
  if (std::system(command.c_str()) != 0) {
    fmt::print(stderr, "tdfuzz: the oracle failed to record some programs (see {}/record.log)\n", o.out);
  }
  ShapeReport report;
  int failed = 0, unrecorded = 0;
  compare::CompareOptions options;
  options.profile = "torch-2.13";
  options.masked = *compare::MaskFields("aten");
  for (size_t i = 0; i < files.size(); ++i) {
    report.Add(programs[i]);
    std::ifstream in(std::filesystem::path(files[i]).replace_extension(".golden.json"));
    std::stringstream text;
    text << in.rdbuf();
    graph::GoldenReadResult golden = graph::ReadGolden(text.str());
    if (!golden.golden) {
      ++unrecorded;
      continue;
    }
    ReferenceRun run = RunOnReference(programs[i], files[i]);
    graph::Golden actual;
    actual.eager = run.eager;
    actual.compiled.emplace_back("torch-2.13", run.compiled);
    compare::CompareResult result = compare::Compare(*golden.golden, actual, options);
    if (!run.error.empty() || !result.differences.empty()) {
      ++failed;
      fmt::print("{}: differs from torch\n", files[i]);
      for (const auto& d : result.differences) fmt::print("  {}\n", compare::FormatDifference(d));
    }
  }
  fmt::print("{}", report.Format());
  fmt::print("tdfuzz --vs-torch: {} programs, {} recorded, {} disagreements\n", o.count, o.count - unrecorded, failed);
  return failed == 0 && unrecorded == 0 ? 0 : 1;
}

}  // namespace
}  // namespace tdc::fuzz

int main(int argc, char** argv) {
  tdc::fuzz::Options o;
  CLI::App app{"tdfuzz: generated programs on the reference, against the independent oracle or real torch"};
  app.add_flag("--vs-torch", o.vs_torch, "compare with real torch 2.13.0 through the oracle's recorder");
  app.add_flag("--vs-oracle", o.vs_oracle, "compare the reference's partition with the independent oracle's");
  app.add_flag("--print", o.print, "print the program of --seed");
  app.add_option("--count", o.count, "programs to run");
  app.add_option("--seed", o.seed, "the first program's seed (program i uses seed + i)");
  app.add_option("--out", o.out, "where --vs-torch writes programs and goldens");
  CLI11_PARSE(app, argc, argv);
  if (o.print) {
    std::cout << tdc::fuzz::PrintFixture(tdc::fuzz::SampleProgram(o.seed));
    return 0;
  }
  if (o.vs_torch) return tdc::fuzz::VsTorch(o);
  return tdc::fuzz::VsOracle(o);
}
