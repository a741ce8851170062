// tdc_time_fixtures: the reference's side of perf/vs_torch.py. Runs each fixture in compile
// mode once, then `--repeat` times timed, in this process (read, parse, trace, lower: what `tdref
// run` does for one file) and prints one JSON line per fixture: the seconds of each run and whether
// the outcome agrees with the fixture's golden (`tdref verify`'s comparison; with
// `--dynamo-only` the ATen graphs are neither made nor compared).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "reference/tools/run_command.h"
#include "reference/tools/verify_command.h"

namespace {

using Clock = std::chrono::steady_clock;

nlohmann::json TimeOne(const std::string& file, const tdc::tools::RunOptions& options, int repeat) {
  nlohmann::json line = {{"file", file}, {"profile", options.profile}, {"aten", options.aten}};
  std::vector<double> seconds;
  std::ostringstream errors;
  // One untimed run first, as perf/vs_torch.py gives torch.
  if (!tdc::tools::RunToGolden(file, options, errors)) {
    line["error"] = errors.str();
    return line;
  }
  for (int i = 0; i < repeat; ++i) {
    Clock::time_point start = Clock::now();
    bool ran = tdc::tools::RunToGolden(file, options, errors).has_value();
    seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    if (!ran) {
      line["error"] = errors.str();
      return line;
    }
  }
  line["seconds"] = seconds;
  tdc::tools::VerifyOptions verify;
  verify.run = options;
  if (!options.aten) verify.masks.push_back("aten");
  std::ostringstream quiet;
  line["agrees"] = tdc::tools::RunVerify({file}, verify, quiet, quiet) == 0;
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Times fixtures through the reference in compile mode, one JSON line each"};
  std::vector<std::string> files;
  tdc::tools::RunOptions options;
  options.mode = "compile";
  int repeat = 5;
  bool dynamo_only = false;
  app.add_option("files", files, "fixture programs, each with its golden beside it")->required();
  app.add_option("--profile", options.profile, "the profile predicted")->capture_default_str();
  app.add_option("--repeat", repeat, "runs per fixture")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_flag("--dynamo-only", dynamo_only,
               "no ATen capture (invocations carry Dynamo graphs only)");
  CLI11_PARSE(app, argc, argv);
  options.aten = !dynamo_only;
  for (const std::string& file : files) std::cout << TimeOne(file, options, repeat).dump() << "\n";
  return 0;
}
