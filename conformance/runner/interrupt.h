// SIGINT and SIGTERM during a run: instead of dying with its case processes left behind and
// its reports unwritten, tdconform notes the signal on a self-pipe the runner polls with the
// cases' pipes (runner.h, RunnerOptions::stop_fd), kills what is running, writes the reports
// marked interrupted with every case that finished (report.h), and then dies of the signal.
#ifndef TDCONFORM_CONFORMANCE_RUNNER_INTERRUPT_H_
#define TDCONFORM_CONFORMANCE_RUNNER_INTERRUPT_H_

namespace tdc::conformance {

class StopOnSignals {
 public:
  StopOnSignals();   // installs the handlers
  ~StopOnSignals();  // restores the previous ones
  StopOnSignals(const StopOnSignals&) = delete;
  StopOnSignals& operator=(const StopOnSignals&) = delete;

  // Readable once a signal came.
  int fd() const;
  // The signal that came, 0 when none.
  int signal() const;
  // Dies of that signal (default action), when one came.
  void DieOfItIfAny();
};

}  // namespace tdc::conformance

#endif  // TDCONFORM_CONFORMANCE_RUNNER_INTERRUPT_H_
