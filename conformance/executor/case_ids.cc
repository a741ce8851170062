// Case ids (D8) and the cases they name: the fixture, profile and level a `fixtures:` or
// `fuzz:` id runs, and the `torch:` ids of the torch engine beside the Dynamo-level ones.
#include <fmt/format.h>

#include <algorithm>
#include <regex>

#include "conformance/executor/executor.h"
#include "reference/base/case_id.h"
#include "reference/dynamo/run_compiled.h"

namespace tdc::conformance {

std::string GoldenFileOf(const std::string& fixture) {
  return fixture.substr(0, fixture.size() - 3) + ".golden.json";
}

std::string CaseIdOf(const std::string& fixture, const std::string& profile,
                     tdc_graph_level level) {
  std::string path = fixture.substr(std::string("fixtures/").size());
  path = path.substr(0, path.size() - 3);
  const size_t slash = path.rfind('/');
  CaseId id{"fixtures",
            path.substr(0, slash),
            path.substr(slash + 1),
            {{"profile", profile}, {"level", level == TDC_GRAPH_LEVEL_ATEN ? "aten" : "dynamo"}}};
  return FormatCaseId(id);
}

std::variant<CaseSpec, std::string> ResolveCase(std::string_view text,
                                                const std::string& generated_dir) {
  CaseIdParse parsed = ParseCaseId(text);
  if (!parsed.id) return parsed.error;
  const CaseId& id = *parsed.id;
  CaseSpec spec;
  spec.id = std::string(text);
  if (id.suite == "fixtures" || id.suite == "torch") {
    spec.fixture = fmt::format("fixtures/{}/{}.py", id.group, id.name);
    spec.torch_engine = id.suite == "torch";
  } else if (id.suite == "fuzz") {
    static const std::regex kSeed("seed_[0-9]+");
    if (id.group != "reference" && id.group != "torch") {
      return fmt::format("a generated case's expected outcome is 'reference' or 'torch', not '{}'",
                         id.group);
    }
    if (!std::regex_match(id.name, kSeed))
      return fmt::format("a generated case is seed_<n>, not '{}'", id.name);
    spec.fixture =
        fmt::format("{}/{}/{}.py", generated_dir.empty() ? "." : generated_dir, id.group, id.name);
  } else {
    return fmt::format("unknown suite '{}' (fixtures, torch, fuzz)", id.suite);
  }
  std::string level;
  for (const CaseParam& p : id.params) {
    if (p.key == "profile")
      spec.profile = p.value;
    else if (p.key == "level")
      level = p.value;
    else
      return fmt::format("unknown parameter '{}' (profile, level)", p.key);
  }
  if (!dynamo::IsKnownProfile(spec.profile))
    return fmt::format("unknown profile '{}'", spec.profile);
  if (spec.torch_engine) {
    if (!level.empty())
      return "a torch: case has no level (torch.compile hands its backend Dynamo's graphs)";
    return spec;
  }
  if (level != "dynamo" && level != "aten")
    return fmt::format("level '{}' is neither dynamo nor aten", level);
  spec.level = level == "aten" ? TDC_GRAPH_LEVEL_ATEN : TDC_GRAPH_LEVEL_DYNAMO;
  return spec;
}

std::vector<std::string> TorchCaseIds(const std::vector<std::string>& ids) {
  std::vector<std::string> torch;
  for (const std::string& text : ids) {
    CaseIdParse parsed = ParseCaseId(text);
    if (!parsed.id || parsed.id->suite != "fixtures") continue;
    CaseId id = *parsed.id;
    auto level =
        std::ranges::find_if(id.params, [](const CaseParam& p) { return p.key == "level"; });
    if (level == id.params.end() || level->value != "dynamo") continue;
    id.params.erase(level);
    id.suite = "torch";
    torch.push_back(FormatCaseId(id));
  }
  return torch;
}

}  // namespace tdc::conformance
