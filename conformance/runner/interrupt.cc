#include "conformance/runner/interrupt.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <csignal>

namespace tdc::conformance {

namespace {

int g_pipe[2] = {-1, -1};
volatile std::sig_atomic_t g_signal = 0;
struct sigaction g_previous_int, g_previous_term;

void OnSignal(int signal) {
  if (g_signal == 0) g_signal = signal;
  const char byte = 1;
  ssize_t ignored = write(g_pipe[1], &byte, 1);
  (void)ignored;
}

}  // namespace

StopOnSignals::StopOnSignals() {
  if (pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) g_pipe[0] = g_pipe[1] = -1;
  struct sigaction action {};
  action.sa_handler = &OnSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocked poll returns at once
  sigaction(SIGINT, &action, &g_previous_int);
  sigaction(SIGTERM, &action, &g_previous_term);
}

StopOnSignals::~StopOnSignals() {
  sigaction(SIGINT, &g_previous_int, nullptr);
  sigaction(SIGTERM, &g_previous_term, nullptr);
  for (int& fd : g_pipe) {
    if (fd >= 0) close(fd);
    fd = -1;
  }
}

int StopOnSignals::fd() const { return g_pipe[0]; }
int StopOnSignals::signal() const { return g_signal; }

void StopOnSignals::DieOfItIfAny() {
  const int signal = g_signal;
  if (signal == 0) return;
  std::signal(signal, SIG_DFL);
  raise(signal);
}

}  // namespace tdc::conformance
