// tdref: the reference's command line. Verbs grow with the reference (run, explain, ...).
#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "reference/runtime/memory_budget.h"
#include "reference/tools/check_command.h"
#include "reference/tools/liveness_command.h"
#include "reference/tools/run_command.h"
#include "reference/tools/verify_command.h"

namespace {

// `--max-steps`: the step budget of a run (reference/runtime/interp/step_budget.h).
void AddMaxSteps(CLI::App* command, int64_t* max_steps) {
  command
      ->add_option("--max-steps", *max_steps,
                   "refuse the run (outcome `unsupported`) once it has executed this many "
                   "statements and comprehension items")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, std::numeric_limits<int64_t>::max()));
}

// `--max-memory`: the memory budget of each run, in MiB (reference/runtime/memory_budget.h).
void AddMaxMemory(CLI::App* command, int64_t* mib) {
  command
      ->add_option("--max-memory", *mib,
                   "refuse the run (outcome `unsupported`) once its tensors hold more than this "
                   "many MiB at once")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, std::numeric_limits<int64_t>::max() >> 20));
}

// `--mode`, `--profile`, `--disable-rule` and `--max-steps`, shared by run and verify.
void AddRunOptions(CLI::App* command, tdc::tools::RunOptions* options) {
  command->add_option("--mode", options->mode, "eager, or compile (Dynamo)")
      ->capture_default_str()
      ->check(CLI::IsMember({"eager", "compile"}));
  command->add_option("--profile", options->profile, "compile mode: the profile to predict")
      ->capture_default_str();
  command
      ->add_option("--disable-rule", options->disabled_rules,
                   "compile mode: switch off a rule (SEMANTICS.md label, R-...); repeatable")
      ->allow_extra_args(false);  // one value per use, so files may follow
  AddMaxSteps(command, &options->max_steps);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tdref: the tdconform reference for TorchDynamo's fine-grained tracing APIs"};
  app.require_subcommand(1);

  std::vector<std::string> check_files;
  CLI::App* check = app.add_subcommand(
      "check", "Parse fixtures and check that they stay inside the tdconform subset");
  check->add_option("files", check_files, "Python files")->required();

  std::string dump_file;
  CLI::App* dump = app.add_subcommand(
      "dump-ast", "Print the AST as CPython's ast.dump(..., include_attributes=True) does");
  dump->add_option("file", dump_file, "Python file")->required();

  std::string liveness_file;
  CLI::App* liveness = app.add_subcommand(
      "liveness",
      "Print the locals live at each call and statement of every function (JSON lines): "
      "what a resume function there is handed");
  liveness->add_option("file", liveness_file, "Python file")->required();

  std::string run_file;
  tdc::tools::RunOptions run_options;
  bool run_json = false;
  CLI::App* run =
      app.add_subcommand("run", "Run a fixture program on the reference and print its outcome");
  run->add_option("file", run_file, "Python file")->required();
  AddRunOptions(run, &run_options);
  run->add_flag("--json", run_json, "print the outcome as a golden document (fixtures/SCHEMA.md)");

  std::vector<std::string> verify_files;
  tdc::tools::VerifyOptions verify_options;
  CLI::App* verify = app.add_subcommand(
      "verify", "Run fixtures and compare their outcomes with their goldens (exit 0 when equal)");
  verify->add_option("files", verify_files, "Python files, each with a .golden.json beside it")
      ->required();
  AddRunOptions(verify, &verify_options.run);
  verify
      ->add_option("--mask", verify_options.masks,
                   "Leave out a field wherever it occurs (a schema field name; `aten` = "
                   "aten_graph and aten_error); repeatable")
      ->allow_extra_args(false);
  verify->add_option("--switch-off", verify_options.switch_off,
                     "Compile mode: the switch-off test of a rule (R-...): run only the files "
                     "whose golden's header cites it, with it off; exit 0 when one differs");
  verify->add_flag("--expect-unsupported", verify_options.expect_unsupported,
                   "The fixtures whose header says `# tdc: awaits ...`: pass where the reference "
                   "refuses the program (outcome `unsupported`, DESIGN D13) or agrees with the "
                   "golden, fail on any other answer");

  std::string explain_file;
  tdc::tools::RunOptions explain_options;
  explain_options.mode = "compile";
  CLI::App* explain = app.add_subcommand(
      "explain", "Run a fixture under the reference's Dynamo and say what it decided and why");
  explain->add_option("file", explain_file, "Python file")->required();
  explain->add_option("--profile", explain_options.profile, "the profile predicted (torch-2.13)");
  explain
      ->add_option("--disable-rule", explain_options.disabled_rules,
                   "switch off a rule (SEMANTICS.md label, R-...); repeatable")
      ->allow_extra_args(false);
  AddMaxSteps(explain, &explain_options.max_steps);

  int64_t max_memory_mib = tdc::runtime::kDefaultMaxMemoryBytes >> 20;
  for (CLI::App* command : {run, verify, explain}) AddMaxMemory(command, &max_memory_mib);

  CLI11_PARSE(app, argc, argv);
  tdc::runtime::SetMaxMemoryBytes(max_memory_mib << 20);
  auto dispatch = [&]() -> int {
    if (explain->parsed())
      return tdc::tools::RunExplain(explain_file, explain_options, std::cout, std::cerr);
    if (run->parsed()) {
      return tdc::tools::RunRun(run_file, run_options, run_json, std::cout, std::cerr);
    }
    if (verify->parsed()) {
      return tdc::tools::RunVerify(verify_files, verify_options, std::cout, std::cerr);
    }
    if (check->parsed()) return tdc::tools::RunCheck(check_files, std::cout);
    if (dump->parsed()) return tdc::tools::RunDumpAst(dump_file, std::cout, std::cerr);
    if (liveness->parsed()) return tdc::tools::RunLiveness(liveness_file, std::cout, std::cerr);
    return 2;
  };
  // The last line of defence against an input no check above foresaw: an error and exit
  // 3, never an abort (a modeled limit should have refused it first, located).
  try {
    return dispatch();
  } catch (const std::bad_alloc&) {
    std::cerr << "tdref: error: out of memory (an input the reference's limits did not catch)\n";
  } catch (const std::exception& e) {
    std::cerr << "tdref: internal error: " << e.what() << "\n";
  }
  return 3;
}
