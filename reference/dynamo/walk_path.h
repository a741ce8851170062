// The containers a recursive walk of a value's items is inside. A container met again
// inside itself (`a.append(a)`) would be walked forever, its names growing with each turn,
// so the walk refuses it (DESIGN D13) before going on.
#ifndef TDCONFORM_REFERENCE_DYNAMO_WALK_PATH_H_
#define TDCONFORM_REFERENCE_DYNAMO_WALK_PATH_H_

#include <algorithm>
#include <string>
#include <vector>

#include "reference/runtime/not_modeled.h"
#include "reference/runtime/stack_guard.h"
#include "reference/runtime/values.h"

namespace tdc::dynamo {

using WalkPath = std::vector<const runtime::Object*>;

// Refuses `v` when the walk is inside it already (`what` says which walk and where).
inline void RefuseIfInside(const WalkPath& path, const runtime::Value& v, const std::string& what) {
  runtime::CheckStackLeft();
  if (std::find(path.begin(), path.end(), v.get()) != path.end()) runtime::RefuseNotModeled(what);
}

// Holds `v` on the path while its items are walked; taken off however the walk ends (a
// refusal of an item may unwind through __exit__ methods the trace still runs).
class Inside {
 public:
  Inside(WalkPath& path, const runtime::Value& v) : path_(path) { path_.push_back(v.get()); }
  ~Inside() { path_.pop_back(); }
  Inside(const Inside&) = delete;
  Inside& operator=(const Inside&) = delete;

 private:
  WalkPath& path_;
};

}  // namespace tdc::dynamo

#endif  // TDCONFORM_REFERENCE_DYNAMO_WALK_PATH_H_
