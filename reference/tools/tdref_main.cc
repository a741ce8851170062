// tdref: the reference's command line. Verbs grow with the reference (run, explain, ...).
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "reference/tools/check_command.h"

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

  CLI11_PARSE(app, argc, argv);
  if (check->parsed()) return tdc::tools::RunCheck(check_files, std::cout);
  if (dump->parsed()) return tdc::tools::RunDumpAst(dump_file, std::cout, std::cerr);
  return 2;
}
