#include "perf/guard_lookup.h"

#include <fmt/format.h>

#include "reference/runtime/constructors.h"

namespace tdc::perf {

WarmCache::WarmCache(int64_t tensors) {
  dynamo::CacheEntry entry;
  for (int64_t i = 0; i < tensors; ++i) {
    frame_values_.push_back(process_.heap().NewTensor(runtime::Ones({4, 3})));
    auto guards =
        dynamo::Guards(frame_values_.back(), fmt::format("L['x{}']", i), static_cast<size_t>(i));
    entry.guards.insert(entry.guards.end(), guards.begin(), guards.end());
    entry.input_names.push_back(fmt::format("L['x{}']", i));
  }
  cache_.Of(key_).cache.push_back(std::move(entry));
}

}  // namespace tdc::perf
