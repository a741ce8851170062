// Dynamo's code cache (torch's per-code cache entries and frame state, spec §1.3, §2.14):
// for every code object converted, its frame id, how many times it compiled, its cache
// entries with the guards each was compiled under, and whether it is skipped from now on.
// It outlives traces: Dynamo holds one for the run, and torch._dynamo.reset() clears it.
#ifndef TDCONFORM_REFERENCE_DYNAMO_CODE_CACHE_H_
#define TDCONFORM_REFERENCE_DYNAMO_CODE_CACHE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reference/dynamo/guards.h"
#include "reference/dynamo/rules.h"
#include "reference/dynamo/trace.h"
#include "reference/runtime/interp/process.h"

namespace tdc::dynamo {

// A compile callback's backend as torch's cache lookup compares them (the innermost backend
// of the callback, compared with ==): torch.compile's _TorchCompileWrapper equals another
// of the same backend (a name: the same registered backend; a callable: the same object);
// set_stance's force_backend is that backend itself, which equals only itself (probed on
// torch 2.13.0: forcing a function's own backend compiles it again, once).
struct BackendKey {
  Value backend;  // null: any backend (a run-only callback: torch's callback False)
  bool forced = false;
};
// The backend a frame's cache entries must have been compiled for under `callback`.
BackendKey BackendToMatch(const runtime::CompileCallback& callback);

// One compiled entry of a code's cache: its compile id and the guards of its frame values
// (in the frame's argument order).
// Failure()'s text for a call with another number of values than the entry's.
inline constexpr std::string_view kOtherCallForm = "(another call form)";

struct CacheEntry {
  std::string compile_id;
  // Its compile's invocation (index in Records::invocations), when it sent a graph to the
  // recording backend.
  std::optional<size_t> invocation;
  // Where its graph ended: a cache hit's trace must end there as well (Dynamo's compiled
  // code does; a trace that goes elsewhere is a difference the guards did not catch, refused).
  GraphEnding ending;
  std::vector<GuardedValue> guards;
  bool grad_enabled = true;  // the global grad-mode guard
  std::vector<GlobalGuard> globals;
  // The backend it was compiled for: a frame called under another backend misses it
  // (torch's cache lookup, BACKEND_MATCH).
  BackendKey backend = {};
  // The sources of the frame's values it was compiled for (L['x'], L['args'][0], ...).
  std::vector<std::string> input_names;
};

// What Dynamo knows of one code object across calls.
struct CodeState {
  int64_t frame_id = -1;  // -1 until first converted (R-frame-id)
  int64_t compiles = 0;
  std::vector<CacheEntry> cache;  // least recently used first
  // Marked skipped: "no ops traced" runs the code without the callback from now on
  // (callees too); a skip_frame() or another frame-skipping break runs it eagerly with the
  // callback on, its callees offered (probed on torch 2.13.0: a new shape recompiles them).
  enum class Skip { kNone, kNoOps, kSkipFrame } skip = Skip::kNone;
  // Offered once with no tensor in its frame: torch skips the code from then on (probed on
  // torch 2.13.0, its later calls convert nothing); the reference only counts it once in
  // counters["frames"].
  bool converted_without_tensors = false;
};

class CodeCache {
 public:
  // `process` is read for the global state guards check (grad mode).
  CodeCache(const RuleSet& rules, const runtime::Process& process)
      : rules_(rules), process_(process) {}

  // The state of `key`'s code (a fresh one the first time).
  CodeState& Of(const CodeKey& key) { return codes_[key]; }
  // The code's state if it has one, else null.
  const CodeState* Find(const CodeKey& key) const {
    auto it = codes_.find(key);
    return it == codes_.end() ? nullptr : &it->second;
  }

  // The entry of `key`'s cache compiled for `backend` (BackendToMatch; null: any) that the
  // frame values pass, or null; the one that does (the most recently used first) moves to the
  // front, as torch's lookup does.
  const CacheEntry* Lookup(const CodeKey& key, const std::vector<Value>& frame_values,
                           const BackendKey& backend);
  // The first guard of `entry` the frame fails, as torch words it; empty when it passes.
  std::string Failure(const CacheEntry& entry, const std::vector<Value>& frame_values) const;
  // torch._dynamo.config.recompile_limit (8 unless the program sets it): the entries a code
  // may have.
  int64_t RecompileLimit() const;
  // Whether `key`'s code may compile again (R-recompile-limit), and which limit stops it:
  // config.accumulated_recompile_limit on the code's entries (checked first by torch's
  // cache_size.py), recompile_limit on its entries, or accumulated_recompile_limit on its
  // compiles so far (checked last; the reference checks it with the first, which can only
  // name the accumulated limit where torch would name recompile_limit: both stop the
  // compile alike).
  enum class Limit { kNone, kAccumulated, kRecompile };
  Limit AtRecompileLimit(const CodeKey& key);

  // A new compile of `key`'s code: its compile id (`frame/compile`, the frame id given on
  // the first), and whether it is a recompile.
  struct Compile {
    std::string id;
    bool recompile;
  };
  Compile BeginCompile(const CodeKey& key);
  // The cache entry for what `t` read (R-lazy-guards, R-closure-guard).
  CacheEntry EntryFor(const Trace& t) const;

  // The fail_on_recompile stance's RuntimeError message for a frame of `key`'s code (at
  // `filename`, `name`, `first_line`) that would compile again: each cache entry's failing
  // guard, most recently used first (spec §2.14, S29).
  // An entry whose guards pass but whose backend differs (BACKEND_MATCH) is refused: its
  // message is not modeled.
  std::string FailOnRecompileMessage(const CodeKey& key, const std::string& filename,
                                     const std::string& name, int64_t first_line,
                                     const std::vector<Value>& frame_values);

  // torch._dynamo.reset(): every code forgotten, frame ids start again at 0.
  void Reset();

 private:
  const RuleSet& rules_;
  const runtime::Process& process_;
  std::map<CodeKey, CodeState> codes_;
  int64_t next_frame_id_ = 0;
};

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_CODE_CACHE_H_
