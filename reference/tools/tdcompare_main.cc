// tdcompare: the command line of the one golden comparator (fixtures/SCHEMA.md §10).
#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "reference/tools/compare_command.h"

int main(int argc, char** argv) {
  CLI::App app{
      "tdcompare: compare two golden documents (eager and compiled, never meta).\n"
      "Exit status: 0 equal, 1 different, 2 malformed input or bad usage."};
  tdc::tools::CompareCommand command;
  app.add_option("EXPECTED", command.expected_file, "The reference document (e.g. a golden)")
      ->required();
  app.add_option("ACTUAL", command.actual_file, "The document to check")->required();
  app.add_option("--mask", command.masks,
                 "Leave out a field wherever it occurs (a schema field name; `aten` = "
                 "aten_graph and aten_error); repeatable");
  app.add_option("--profile", command.profile, "Compare only this profile's compiled outcome");
  std::string mode;
  app.add_option("--mode", mode, "Compare only the eager or only the compiled outcomes")
      ->check(CLI::IsMember({"eager", "compile"}));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : tdc::tools::kCompareError;
  }
  if (!mode.empty()) command.mode = tdc::compare::ParseMode(mode);
  return tdc::tools::RunCompare(command, std::cout, std::cerr);
}
