// Processes a backend left behind. Each case is a process group killed whole at its end
// (executor.h), but a process that left its group (setsid) escapes that: tdconform makes
// itself their subreaper (prctl PR_SET_CHILD_SUBREAPER), so such orphans become its children
// rather than init's, and kills every child it still has when the run ends, however it ends.
#ifndef TDCONFORM_CONFORMANCE_RUNNER_STRAYS_H_
#define TDCONFORM_CONFORMANCE_RUNNER_STRAYS_H_

namespace tdc::conformance {

class KillStraysAtEnd {
 public:
  KillStraysAtEnd();  // becomes the subreaper
  ~KillStraysAtEnd() { KillNow(); }
  KillStraysAtEnd(const KillStraysAtEnd&) = delete;
  KillStraysAtEnd& operator=(const KillStraysAtEnd&) = delete;

  // Kills and reaps every child process (no case may be running).
  void KillNow();
};

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_RUNNER_STRAYS_H_
