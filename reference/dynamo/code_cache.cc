// The code cache's look-up, its entries' guards and its compile ids (spec §1.3, §2.14).
#include "reference/dynamo/code_cache.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>

#include "reference/runtime/not_modeled.h"

namespace tdc::dynamo {

std::string GraphEnding::Describe() const {
  return fmt::format("line {}, {}{}", line, at_return ? "return" : "graph break",
                     empty ? ", empty" : "");
}

std::string CodeCache::Failure(const CacheEntry& entry,
                               const std::vector<Value>& frame_values) const {
  // torch checks the global state (grad mode) before the frame's values.
  if (rules_.on(Rule::kGradModeGuard) && entry.grad_enabled != process_.grad_enabled) {
    return "GLOBAL_STATE changed: grad_mode ";
  }
  // Another number of values: *args of another length, other **kwargs (torch's len(args)
  // and keys guards fail; their text is not modeled).
  if (entry.input_names.size() != frame_values.size()) return std::string(kOtherCallForm);
  for (const GuardedValue& g : entry.guards) {
    std::string why = GuardFailure(g, GuardedInput(g, frame_values[g.index]));
    if (!why.empty()) return why;
  }
  for (const GlobalGuard& g : entry.globals) {
    std::string why = g.Failure();
    if (!why.empty()) return why;
  }
  return "";
}

namespace {

// torch's backend_match on two BackendKeys: the same kind, and the same object or (a backend
// named by a string) the same registered backend.
bool SameBackend(const BackendKey& cached, const BackendKey& current) {
  if (!current.backend) return true;
  if (cached.forced != current.forced) return false;
  if (cached.backend == current.backend) return true;
  const auto* a = runtime::DynCast<runtime::PyStr>(cached.backend);
  const auto* b = runtime::DynCast<runtime::PyStr>(current.backend);
  return a != nullptr && b != nullptr && a->value() == b->value();
}

}  // namespace

BackendKey BackendToMatch(const runtime::CompileCallback& callback) {
  if (callback.run_only) return {};
  return {callback.backend, callback.forced_backend};
}

const CacheEntry* CodeCache::Lookup(const CodeKey& key, const std::vector<Value>& frame_values,
                                    const BackendKey& backend) {
  auto code = codes_.find(key);
  if (code == codes_.end() || !rules_.on(Rule::kCacheHit)) return nullptr;
  std::vector<CacheEntry>& cache = code->second.cache;  // least recently used first
  auto hit = std::find_if(cache.rbegin(), cache.rend(), [&](const CacheEntry& entry) {
    return SameBackend(entry.backend, backend) && Failure(entry, frame_values).empty();
  });
  if (hit == cache.rend()) return nullptr;
  std::rotate(hit.base() - 1, hit.base(), cache.end());
  return &cache.back();
}

int64_t CodeCache::RecompileLimit() const {
  // apis_config.cc models positive ints only.
  Value limit =
      process_.modules()[runtime::ModuleId::kTorchDynamoConfig]->GetAttr("recompile_limit");
  return runtime::DynCast<runtime::PyInt>(limit)->value();
}

CodeCache::Limit CodeCache::AtRecompileLimit(const CodeKey& key) {
  if (!rules_.on(Rule::kRecompileLimit)) return Limit::kNone;
  const CodeState& code = Of(key);
  const auto entries = static_cast<int64_t>(code.cache.size());
  Value accumulated = process_.modules()[runtime::ModuleId::kTorchDynamoConfig]->GetAttr(
      "accumulated_recompile_limit");
  const int64_t accumulated_limit = runtime::DynCast<runtime::PyInt>(accumulated)->value();
  if (entries >= accumulated_limit || code.compiles >= accumulated_limit)
    return Limit::kAccumulated;
  return entries >= RecompileLimit() ? Limit::kRecompile : Limit::kNone;
}

CodeCache::Compile CodeCache::BeginCompile(const CodeKey& key) {
  CodeState& code = Of(key);
  if (code.frame_id < 0) code.frame_id = next_frame_id_++;
  Compile compile{fmt::format("{}/{}", code.frame_id, code.compiles), code.compiles > 0};
  ++code.compiles;
  return compile;
}

CacheEntry CodeCache::EntryFor(const Trace& t) const {
  std::vector<GuardedValue> guards;
  const bool lazy = rules_.on(Rule::kLazyGuards);
  const bool cells = rules_.on(Rule::kClosureGuard);
  auto kept = [&](const GuardedValue& g, bool read) {
    return (cells || !g.cell) && (!lazy || read);
  };
  // A dict is kept once its local is read: its reads are not tracked (GuardFailure).
  std::copy_if(t.guards.begin(), t.guards.end(), std::back_inserter(guards),
               [&](const GuardedValue& g) {
                 return kept(g, t.reads.Read(g) || (g.dict && t.reads.ReadsLocal(LocalOf(g))));
               });
  std::vector<GlobalGuard> globals = t.global_guards.items();
  for (GlobalGuard& global : globals) {
    // Read, so guarded itself; an item only once used (torch: G['T'][1] == 1, not T[0]).
    std::erase_if(global.guards, [&](const GuardedValue& g) {
      return !kept(g, t.reads.ReadCell(g) && (g.items.empty() || t.reads.UsesItem(g)));
    });
  }
  CacheEntry entry;
  entry.compile_id = t.compile_id;
  entry.guards = std::move(guards);
  entry.grad_enabled = t.grad_enabled;
  entry.globals = std::move(globals);
  entry.backend = t.callback ? BackendToMatch(*t.callback) : BackendKey{};
  for (const auto& [value, source] : t.inputs) entry.input_names.push_back(source);
  return entry;
}

std::string CodeCache::FailOnRecompileMessage(const CodeKey& key, const std::string& filename,
                                              const std::string& name, int64_t first_line,
                                              const std::vector<Value>& frame_values) {
  const CodeState& code = Of(key);
  std::string message = fmt::format(
      "Detected recompile when torch.compile stance is 'fail_on_recompile'. filename: '{}', "
      "function name: '{}', line number: {}",
      filename, name, first_line);
  // A first compile is refused too; its message has no guard to list (golden
  // guards/reset_clears_caches).
  if (!code.cache.empty()) message += "\n    triggered by the following guard failure(s):";
  // Most recently used entry first, each with the first guard it fails.
  for (auto entry = code.cache.rbegin(); entry != code.cache.rend(); ++entry) {
    std::string failure = Failure(*entry, frame_values);
    if (failure == kOtherCallForm) {
      runtime::RefuseNotModeled(
          "fail_on_recompile's message for a call with other *args or **kwargs (torch's "
          "len(args) and keys guards) is not modeled");
    }
    if (failure.empty()) {
      runtime::RefuseNotModeled(
          "fail_on_recompile meeting a cache entry of another backend (BACKEND_MATCH) is not "
          "modeled");
    }
    message += fmt::format("\n    - {}: {}", entry->compile_id, failure);
  }
  return message;
}

void CodeCache::Reset() {
  codes_.clear();
  next_frame_id_ = 0;
}

}  // namespace tdc::dynamo
