// A code cache holding one entry whose guards are `tensors` tensors, and the frame values
// of a warm call that passes them all: the look-up every call after the first makes
// (CodeCache::Lookup), for the benchmark and the callgrind scenario.
#ifndef TDCONFORM_PERF_GUARD_LOOKUP_H_
#define TDCONFORM_PERF_GUARD_LOOKUP_H_

#include <cstdint>
#include <vector>

#include "reference/dynamo/code_cache.h"
#include "reference/lang/ast.h"
#include "reference/runtime/interp/process.h"

namespace tdc::perf {

class WarmCache {
 public:
  explicit WarmCache(int64_t tensors);
  // The look-up of a warm call: the cached entry (null would mean a guard failed).
  const dynamo::CacheEntry* Lookup() { return cache_.Lookup(key_, frame_values_, {}); }

 private:
  runtime::Process process_;
  dynamo::RuleSet rules_;
  dynamo::CodeCache cache_{rules_, process_};
  lang::Pass code_;  // stands for the def statement whose code the cache keys
  dynamo::CodeKey key_{.def = &code_};
  std::vector<runtime::Value> frame_values_;
};

}  // namespace tdc::perf

#endif  // TDCONFORM_PERF_GUARD_LOOKUP_H_
