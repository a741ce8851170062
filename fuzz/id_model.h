// The fuzz oracle's reading of the id model (SEMANTICS §6) for the helpers' module-level
// steps: which registry a helper's function object is in when the program calls it.
#ifndef TDCONFORM_FUZZ_ID_MODEL_H_
#define TDCONFORM_FUZZ_ID_MODEL_H_

#include <optional>
#include <set>
#include <vector>

#include "fuzz/program.h"

namespace tdc::fuzz {

// What Dynamo does with a call to a helper: the registry its function object's id is in.
enum class Registry { kNone, kAllowed, kDisallowed };

// The helpers' module-level steps under the id model of SEMANTICS §6 (I3-I6, I10),
// written from its text: function objects take ids from one LIFO stack of freed ids;
// allow_in_graph makes one deregistration function that lives in the finalizer; a dying
// function first runs its finalizers (newest first: deregister its id, then the
// deregistration function dies), then frees its own id; disallow_in_graph has no
// finalizer (spec §2.4, §2.5, pytorch#196171).
class IdModel {
 public:
  explicit IdModel(const std::vector<HelperStep>& steps) {
    for (const HelperStep& step : steps) Apply(step);
  }
  Registry RegistryOf(int helper) const {
    int id = bound_[helper]->id;
    if (allowed_.count(id) != 0) return Registry::kAllowed;
    return disallowed_.count(id) != 0 ? Registry::kDisallowed : Registry::kNone;
  }

 private:
  struct Function {
    int id;
    std::vector<int> deregistrations;  // ids of allow_in_graph's deregistration functions
  };

  int Allocate() {
    if (free_.empty()) return next_id_++;
    int id = free_.back();
    free_.pop_back();
    return id;
  }
  void Die(const Function& f) {
    for (auto d = f.deregistrations.rbegin(); d != f.deregistrations.rend(); ++d) {
      allowed_.erase(f.id);
      free_.push_back(*d);
    }
    free_.push_back(f.id);
  }
  void Allow(Function& f) {
    // Already allowed (and not disallowed): allow_in_graph returns at once.
    if (allowed_.count(f.id) != 0) return;
    disallowed_.erase(f.id);
    allowed_.insert(f.id);
    f.deregistrations.push_back(Allocate());
  }
  void Apply(const HelperStep& step) {
    std::optional<Function>& bound = bound_[step.helper];
    switch (step.kind) {
      case HelperStep::Kind::kDef: {
        std::optional<Function> old = std::move(bound);
        bound = Function{Allocate(), {}};  // the new function exists before the old one dies
        if (old) Die(*old);
        return;
      }
      case HelperStep::Kind::kAllow:
        Allow(*bound);
        return;
      case HelperStep::Kind::kAllowThenDisallow:
        Allow(*bound);
        allowed_.erase(bound->id);
        disallowed_.insert(bound->id);
        return;
      case HelperStep::Kind::kDel:
        Die(*bound);
        bound.reset();
        return;
      case HelperStep::Kind::kCount:
        return;
    }
  }

  std::optional<Function> bound_[kHelpers];
  std::vector<int> free_;
  int next_id_ = 0;
  std::set<int> allowed_, disallowed_;
};

}  // namespace tdc::fuzz

#endif  // TDCONFORM_FUZZ_ID_MODEL_H_
