#include "conformance/runner/failure_folder.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

namespace tdc::conformance {

namespace fs = std::filesystem;

namespace {

using Json = nlohmann::ordered_json;

// One-space indent, UTF-8 as is: the oracle's json.dumps(doc, indent=1, ensure_ascii=False).
void WriteJson(const fs::path& path, const Json& doc) {
  std::ofstream(path, std::ios::binary)
      << doc.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

// Fills `folder` with the case's files.
void FillFolder(const fs::path& folder, const std::string& generated_dir, const CaseResult& result,
                const std::string& repro) {
  Json about = {{"id", result.id}, {"verdict", ToJson(result.verdict)}, {"repro", repro}};
  std::error_code error;
  if (auto spec = ResolveCase(result.id, generated_dir);
      auto* found = std::get_if<CaseSpec>(&spec)) {
    about["program"] = found->fixture;
    fs::copy_file(found->fixture, folder / "program.py", error);
    const std::string stem = found->fixture.substr(0, found->fixture.size() - 3);
    fs::copy_file(stem + ".golden.json", folder / "expected.json",
                  fs::copy_options::overwrite_existing, error);
    // A generated program's outcome on the reference, where torch's is expected (generated.h).
    fs::copy_file(stem + ".reference.json", folder / "reference.json", error);
  }
  WriteJson(folder / "case.json", about);
  std::map<int, Json> graphs;  // by the order they ran
  for (const CaseRecord& r : result.records) {
    if (r.kind == "outcome" || r.kind == "expected") {
      // A golden document, written as the oracle writes them (golden_json.h); `expected`
      // replaces the copied golden.
      WriteJson(folder / (r.kind == "outcome" ? "actual.json" : "expected.json"), r.body);
    } else if (r.kind == "graph") {
      graphs[r.body.value("index", -1)] = r.body;
    } else if (r.kind == "backend_outputs") {
      graphs[r.body.value("index", -1)]["backend_outputs"] = r.body.value("outputs", Json::array());
    }
  }
  if (graphs.empty()) return;
  fs::create_directory(folder / "graphs", error);
  for (const auto& [index, graph] : graphs)
    WriteJson(folder / "graphs" / fmt::format("{}.json", index), graph);
}

}  // namespace

bool KeepsFolder(const CaseResult& result) {
  return CountsAs(result.verdict.status) == Counts::kFailed;
}

std::optional<std::string> UpdateFailureFolder(const std::string& dir,
                                               const std::string& generated_dir,
                                               const CaseResult& result, const std::string& repro) {
  const fs::path target = fs::path(dir) / result.id;
  std::error_code error;
  if (!KeepsFolder(result)) {
    fs::remove_all(target, error);
    return std::nullopt;
  }
  const fs::path temporary = fs::path(dir) / fmt::format(".{}.tmp{}", result.id, getpid());
  fs::remove_all(temporary, error);
  if (!fs::create_directories(temporary, error)) {
    return fmt::format("tdconform: error: cannot create {}: {}", temporary.string(),
                       error.message());
  }
  FillFolder(temporary, generated_dir, result, repro);
  // An old folder is swapped out in one step (RENAME_EXCHANGE), then removed.
  const bool replacing = fs::exists(target);
  const int renamed =
      replacing ? renameat2(AT_FDCWD, temporary.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE)
                : rename(temporary.c_str(), target.c_str());
  if (renamed != 0) {
    fs::remove_all(temporary, error);
    return fmt::format("tdconform: error: cannot write {}", target.string());
  }
  if (replacing) fs::remove_all(temporary, error);
  return std::nullopt;
}

}  // namespace tdc::conformance
