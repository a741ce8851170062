// The containers a recursive walk of a value's items is inside. A container met again
// inside itself (`a.append(a)`) would be walked forever, and a walk that builds something
// per item (an op argument, a graph argument, pytree leaves) would hold the container's
// items once per turn until memory ran out, so the walk refuses it (DESIGN D13) on its
// second turn.
#ifndef TDCONFORM_REFERENCE_RUNTIME_WALK_PATH_H_
#define TDCONFORM_REFERENCE_RUNTIME_WALK_PATH_H_

#include <algorithm>
#include <string_view>
#include <vector>

#include "reference/runtime/not_modeled.h"
#include "reference/runtime/stack_guard.h"
#include "reference/runtime/values.h"

namespace tdc::runtime {

using WalkPath = std::vector<const Object*>;

// Whether the walk is inside `v` already; refuses the run when the C++ stack is nearly
// spent (a deep but finite nesting).
inline bool IsInside(const WalkPath& path, const Value& v) {
  CheckStackLeft();
  return std::find(path.begin(), path.end(), v.get()) != path.end();
}

// Refuses `v` when the walk is inside it already (`what` says which walk and where).
inline void RefuseIfInside(const WalkPath& path, const Value& v, std::string_view what) {
  if (IsInside(path, v)) RefuseNotModeled(std::string(what));
}

// Holds `v` on the path while its items are walked; taken off however the walk ends (a
// refusal of an item may unwind through __exit__ methods the trace still runs).
class Inside {
 public:
  Inside(WalkPath& path, const Value& v) : path_(path) { path_.push_back(v.get()); }
  ~Inside() { path_.pop_back(); }
  Inside(const Inside&) = delete;
  Inside& operator=(const Inside&) = delete;

 private:
  WalkPath& path_;
};

}  // namespace tdc::runtime

#endif  // TDCONFORM_REFERENCE_RUNTIME_WALK_PATH_H_
