// tdref: the reference's command line. Verbs grow with the reference (run, explain, ...).
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "reference/tools/check_command.h"
#include "reference/tools/run_command.h"

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

  std::string run_file, run_mode = "eager";
  bool run_json = false;
  CLI::App* run = app.add_subcommand("run", "Run a fixture program on the reference and print its outcome");
  run->add_option("file", run_file, "Python file")->required();
  run->add_option("--mode", run_mode, "eager (compile comes with the Dynamo issues)");
  run->add_flag("--json", run_json, "print the outcome as a golden document (fixtures/SCHEMA.md)");

  std::vector<std::string> verify_files;
  std::string verify_mode = "eager";
  CLI::App* verify = app.add_subcommand(
      "verify", "Run a fixture and compare its outcome with its golden (exit 0 when equal)");
  verify->add_option("files", verify_files, "Python files, each with a .golden.json beside it")->required();
  verify->add_option("--mode", verify_mode, "eager");

  CLI11_PARSE(app, argc, argv);
  if (run->parsed()) return tdc::tools::RunRun(run_file, run_mode, run_json, std::cout, std::cerr);
  if (verify->parsed()) return tdc::tools::RunVerify(verify_files, verify_mode, std::cout, std::cerr);
  if (check->parsed()) return tdc::tools::RunCheck(check_files, std::cout);
  if (dump->parsed()) return tdc::tools::RunDumpAst(dump_file, std::cout, std::cerr);
  return 2;
}
