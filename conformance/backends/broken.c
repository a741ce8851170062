/* broken.c: the deliberately broken backends, each the template with one fault, whose verdicts
 * conformance/executor/executor_test.cc asserts (DESIGN.md D7: every status a backend can earn
 * has a backend that earns it).
 *
 * template.c is linked in with its entry point renamed tdc_template_get_api (and hidden: it is
 * not exported from the library), so this file sees only its table, as a vendor's wrapper
 * would. Every broken backend hands out its own compiled handle around the template's, which
 * records what the graph holds; one small function per fault then overrides entries of the
 * table. TDC_BROKEN_FAULT (a string, set by CMake's TDC_BROKEN_BACKENDS) names the fault.
 */
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tdconform_backend.h"

/* template.c's tdc_backend_get_api. */
const tdc_backend_api* tdc_template_get_api(uint16_t host_abi_major, uint16_t host_abi_minor);

static const tdc_backend_api* Base(void) {
  return tdc_template_get_api(TDC_ABI_VERSION_MAJOR, TDC_ABI_VERSION_MINOR);
}

static void Say(char* message, size_t size, const char* text) {
  if (message != NULL && size > 0) snprintf(message, size, "%s", text);
}

/* ---- the wrapped handle ------------------------------------------------------------------- */

typedef struct wrapped {
  tdc_compiled* inner; /* the template's */
  int has_add, has_sin, has_opaque;
  int runs;            /* how many times run() ran it */
  tdc_tensor first[8]; /* reuses_outputs: the outputs of its first run */
  size_t num_first;
} wrapped;

static int IsAny(const char* target, const char* const* names) {
  for (; *names != NULL; ++names) {
    if (strcmp(target, *names) == 0) return 1;
  }
  return 0;
}

/* Whether a call node runs on the host: its target is none the template declares (the
 * template compiles such a graph only when it hands those nodes back). */
static int IsOpaque(const tdc_node* n) {
  tdc_capabilities caps;
  size_t i;
  if (n->op != TDC_NODE_CALL_FUNCTION || strcmp(n->target, "operator.getitem") == 0) return 0;
  memset(&caps, 0, sizeof caps);
  Base()->get_capabilities(&caps);
  for (i = 0; i < caps.num_ops; ++i) {
    if (strcmp(n->target, caps.ops[i]) == 0) return 0;
  }
  return 1;
}

static int HasCall(const tdc_graph* g, const char* const* targets) {
  size_t i;
  for (i = 0; i < g->num_nodes; ++i) {
    const tdc_node* n = &g->nodes[i];
    if ((n->op == TDC_NODE_CALL_FUNCTION || n->op == TDC_NODE_CALL_METHOD) &&
        IsAny(n->target, targets))
      return 1;
  }
  return 0;
}

static const char* const kAdds[] = {"operator.add", "torch.add", "add", "aten.add.Tensor", NULL};
static const char* const kSins[] = {"torch.sin", "sin", "aten.sin.default", NULL};
static const char* const kCoses[] = {"torch.cos", "cos", "aten.cos.default", NULL};

static tdc_status Compile(tdc_backend* backend, const tdc_graph* graph, int32_t device,
                          tdc_compiled** out, char* message, size_t size) {
  size_t i;
  wrapped* w = (wrapped*)calloc(1, sizeof *w);
  tdc_status s;
  if (w == NULL) return TDC_STATUS_ERROR;
  s = Base()->compile(backend, graph, device, &w->inner, message, size);
  if (s != TDC_STATUS_OK) {
    free(w);
    return s;
  }
  w->has_add = HasCall(graph, kAdds);
  w->has_sin = HasCall(graph, kSins);
  for (i = 0; i < graph->num_nodes; ++i) w->has_opaque |= IsOpaque(&graph->nodes[i]);
  *out = (tdc_compiled*)w;
  return TDC_STATUS_OK;
}

static tdc_status Run(tdc_backend* backend, tdc_compiled* c, const tdc_tensor* inputs,
                      size_t num_inputs, tdc_tensor* outputs, size_t num_outputs, char* message,
                      size_t size) {
  wrapped* w = (wrapped*)c;
  ++w->runs;
  return Base()->run(backend, w->inner, inputs, num_inputs, outputs, num_outputs, message, size);
}

static void Release(tdc_backend* backend, tdc_compiled* c) {
  wrapped* w = (wrapped*)c;
  Base()->release(backend, w->inner);
  free(w);
}

static int64_t Numel(const tdc_tensor* t) {
  int64_t n = 1;
  int32_t d;
  for (d = 0; d < t->ndim; ++d) n *= t->shape[d];
  return n;
}

/* The host's table, as create() was given it (for the faults that call the host). */
static const tdc_host_api* g_host = NULL;

static tdc_status Create(const tdc_host_api* host, tdc_backend** out, char* message, size_t size) {
  g_host = host;
  return Base()->create(host, out, message, size);
}

/* ---- the faults ---------------------------------------------------------------------------- */

/* Graphs with an add come out 0.1% off: far outside float32's tolerance. */
static tdc_status RunWrongNumerics(tdc_backend* backend, tdc_compiled* c, const tdc_tensor* inputs,
                                   size_t num_inputs, tdc_tensor* outputs, size_t num_outputs,
                                   char* message, size_t size) {
  size_t i;
  int64_t k;
  tdc_status s = Run(backend, c, inputs, num_inputs, outputs, num_outputs, message, size);
  if (s != TDC_STATUS_OK || !((wrapped*)c)->has_add) return s;
  for (i = 0; i < num_outputs; ++i) {
    for (k = 0; k < Numel(&outputs[i]); ++k) ((float*)outputs[i].data)[k] *= 1.001f;
  }
  return s;
}
static void BreakWrongNumerics(tdc_backend_api* api) { api->run = RunWrongNumerics; }

/* Every output one unit in the last place up: within tolerance, so the case passes. */
static tdc_status RunUlpDrift(tdc_backend* backend, tdc_compiled* c, const tdc_tensor* inputs,
                              size_t num_inputs, tdc_tensor* outputs, size_t num_outputs,
                              char* message, size_t size) {
  size_t i;
  int64_t k;
  tdc_status s = Run(backend, c, inputs, num_inputs, outputs, num_outputs, message, size);
  if (s != TDC_STATUS_OK) return s;
  for (i = 0; i < num_outputs; ++i) {
    for (k = 0; k < Numel(&outputs[i]); ++k) {
      float* x = &((float*)outputs[i].data)[k];
      *x = nextafterf(*x, INFINITY);
    }
  }
  return s;
}
static void BreakUlpDrift(tdc_backend_api* api) { api->run = RunUlpDrift; }

/* A NULL pointer written: the pointer is read through volatile, so the compiler cannot see it
 * is NULL and replace the store with a trap of its own. */
static int* volatile null_target = NULL;
static tdc_status RunSegv(tdc_backend* backend, tdc_compiled* c, const tdc_tensor* inputs,
                          size_t num_inputs, tdc_tensor* outputs, size_t num_outputs, char* message,
                          size_t size) {
  *null_target = 1;
  return Run(backend, c, inputs, num_inputs, outputs, num_outputs, message, size);
}
static void BreakSegvInRun(tdc_backend_api* api) { api->run = RunSegv; }

/* Graphs with sin never finish running. */
static tdc_status RunHangOnSin(tdc_backend* backend, tdc_compiled* c, const tdc_tensor* inputs,
                               size_t num_inputs, tdc_tensor* outputs, size_t num_outputs,
                               char* message, size_t size) {
  while (((wrapped*)c)->has_sin) sleep(1);
  return Run(backend, c, inputs, num_inputs, outputs, num_outputs, message, size);
}
static void BreakHangOnSin(tdc_backend_api* api) { api->run = RunHangOnSin; }

/* Aborts instead of handing a custom op (an opaque node) to the host. */
static tdc_status RunAbortOnCustomOp(tdc_backend* backend, tdc_compiled* c,
                                     const tdc_tensor* inputs, size_t num_inputs,
                                     tdc_tensor* outputs, size_t num_outputs, char* message,
                                     size_t size) {
  if (((wrapped*)c)->has_opaque) abort();
  return Run(backend, c, inputs, num_inputs, outputs, num_outputs, message, size);
}
static void BreakAbortOnCustomOp(tdc_backend_api* api) { api->run = RunAbortOnCustomOp; }

/* The second output is never written. */
static tdc_status RunIgnoreSecondOutput(tdc_backend* backend, tdc_compiled* c,
                                        const tdc_tensor* inputs, size_t num_inputs,
                                        tdc_tensor* outputs, size_t num_outputs, char* message,
                                        size_t size) {
  tdc_status s = Run(backend, c, inputs, num_inputs, outputs, num_outputs, message, size);
  if (s == TDC_STATUS_OK && num_outputs > 1) memset(&outputs[1], 0, sizeof outputs[1]);
  return s;
}
static void BreakIgnoreSecondOutput(tdc_backend_api* api) { api->run = RunIgnoreSecondOutput; }

/* cos is declared (the template's ops list it), yet refused. */
static tdc_status CanCompileNoCos(tdc_backend* backend, const tdc_graph* graph, char* message,
                                  size_t size) {
  tdc_status s = Base()->can_compile(backend, graph, message, size);
  if (s != TDC_STATUS_OK || !HasCall(graph, kCoses)) return s;
  Say(message, size, "cos is not supported after all");
  return TDC_STATUS_NOT_SUPPORTED;
}
static tdc_status CompileNoCos(tdc_backend* backend, const tdc_graph* graph, int32_t device,
                               tdc_compiled** out, char* message, size_t size) {
  if (HasCall(graph, kCoses)) {
    Say(message, size, "cos is not supported after all");
    return TDC_STATUS_NOT_SUPPORTED;
  }
  return Compile(backend, graph, device, out, message, size);
}
static void BreakClaimsThenFails(tdc_backend_api* api) {
  api->can_compile = CanCompileNoCos;
  api->compile = CompileNoCos;
}

static tdc_status RejectAll(tdc_backend* backend, const tdc_graph* graph, char* message,
                            size_t size) {
  (void)backend;
  (void)graph;
  Say(message, size, "this backend rejects every graph");
  return TDC_STATUS_REJECTED;
}
static void BreakRejectsAll(tdc_backend_api* api) { api->can_compile = RejectAll; }

/* Compiled graphs are never let go: live_handles stays above 0. */
static void KeepHandle(tdc_backend* backend, tdc_compiled* c) {
  (void)backend;
  (void)c;
}
static void BreakLeaks(tdc_backend_api* api) { api->release = KeepHandle; }

/* A table of another major version, whatever the host's. */
static void BreakAbiMajor(tdc_backend_api* api) { api->abi_major = TDC_ABI_VERSION_MAJOR + 1; }

/* A cached call (a graph run again) comes out wrong, as a backend with stale state would. */
static tdc_status RunWrongOnRerun(tdc_backend* backend, tdc_compiled* c, const tdc_tensor* inputs,
                                  size_t num_inputs, tdc_tensor* outputs, size_t num_outputs,
                                  char* message, size_t size) {
  size_t i;
  tdc_status s = Run(backend, c, inputs, num_inputs, outputs, num_outputs, message, size);
  if (s != TDC_STATUS_OK || ((wrapped*)c)->runs < 2) return s;
  for (i = 0; i < num_outputs; ++i) ((float*)outputs[i].data)[0] += 1.0f;
  return s;
}
static void BreakWrongOnRerun(tdc_backend_api* api) { api->run = RunWrongOnRerun; }

/* Every later run of a graph writes its (right) results into the first run's outputs and
 * hands those out again, as a backend returning its inference buffer does: what the program
 * kept from the first call changes (FAIL compare/output_aliased). */
static tdc_status RunReusingOutputs(tdc_backend* backend, tdc_compiled* c, const tdc_tensor* inputs,
                                    size_t num_inputs, tdc_tensor* outputs, size_t num_outputs,
                                    char* message, size_t size) {
  wrapped* w = (wrapped*)c;
  size_t i;
  tdc_status s = Run(backend, c, inputs, num_inputs, outputs, num_outputs, message, size);
  if (s != TDC_STATUS_OK || num_outputs > sizeof w->first / sizeof w->first[0]) return s;
  if (w->runs == 1) {
    memcpy(w->first, outputs, num_outputs * sizeof *outputs);
    w->num_first = num_outputs;
    return s;
  }
  for (i = 0; i < num_outputs && i < w->num_first; ++i) {
    const int64_t bytes = Numel(&outputs[i]) * (int64_t)sizeof(float);
    if (outputs[i].dtype != TDC_DTYPE_FLOAT32 || w->first[i].dtype != TDC_DTYPE_FLOAT32 ||
        Numel(&w->first[i]) != Numel(&outputs[i]))
      continue;
    memcpy(w->first[i].data, outputs[i].data, (size_t)bytes);
    outputs[i] = w->first[i];
  }
  return s;
}
static void BreakReusesOutputs(tdc_backend_api* api) { api->run = RunReusingOutputs; }

/* ---- hostile faults: a backend trying to fool the harness or to break it (issue 32) ---------- */

/* A helper process, named `name` (its /proc/<pid>/comm), forked once per process and kept
 * alive with every descriptor the case's process has; with `new_session`, out of its process
 * group too. */
static void ForkHelper(const char* name, int new_session) {
  static int forked = 0;
  if (forked++) return;
  if (fork() == 0) {
    if (new_session) setsid();
    prctl(PR_SET_NAME, name);
    sleep(600);
    _exit(0);
  }
}
static tdc_status RunForkingHelper(tdc_backend* backend, tdc_compiled* c, const tdc_tensor* inputs,
                                   size_t num_inputs, tdc_tensor* outputs, size_t num_outputs,
                                   char* message, size_t size) {
  ForkHelper("tdc_orphan", 0);
  return Run(backend, c, inputs, num_inputs, outputs, num_outputs, message, size);
}
static void BreakForksKeepingPipe(tdc_backend_api* api) { api->run = RunForkingHelper; }
static tdc_status RunEscapingHelper(tdc_backend* backend, tdc_compiled* c, const tdc_tensor* inputs,
                                    size_t num_inputs, tdc_tensor* outputs, size_t num_outputs,
                                    char* message, size_t size) {
  ForkHelper("tdc_escapee", 1);
  return Run(backend, c, inputs, num_inputs, outputs, num_outputs, message, size);
}
static void BreakEscapesGroup(tdc_backend_api* api) { api->run = RunEscapingHelper; }

/* Info and messages that are no UTF-8, with terminal escapes: every graph is an ERROR. */
static void BadUtf8Info(tdc_backend_info* out) {
  out->name = "bad\xff\xfeutf8";
  out->version = "\x1b[1m1.0\x1b[0m";
  out->vendor = "\xc0\xaf";
}
static tdc_status CanCompileBadUtf8(tdc_backend* backend, const tdc_graph* graph, char* message,
                                    size_t size) {
  (void)backend;
  (void)graph;
  Say(message, size, "\x1b[31merror\x1b[0m: \xff\xfe\xed\xa0\x80 end");
  return TDC_STATUS_ERROR;
}
static void BreakBadUtf8(tdc_backend_api* api) {
  api->get_info = BadUtf8Info;
  api->can_compile = CanCompileBadUtf8;
}

/* The message buffer filled to its last byte, without a NUL. */
static tdc_status CanCompileNoNul(tdc_backend* backend, const tdc_graph* graph, char* message,
                                  size_t size) {
  (void)backend;
  (void)graph;
  if (message != NULL) memset(message, 'x', size);
  return TDC_STATUS_ERROR;
}
static void BreakNoNul(tdc_backend_api* api) { api->can_compile = CanCompileNoNul; }

/* Writes into the (read-only) inputs after computing its outputs. */
static tdc_status RunWritingInputs(tdc_backend* backend, tdc_compiled* c, const tdc_tensor* inputs,
                                   size_t num_inputs, tdc_tensor* outputs, size_t num_outputs,
                                   char* message, size_t size) {
  size_t i;
  tdc_status s = Run(backend, c, inputs, num_inputs, outputs, num_outputs, message, size);
  for (i = 0; i < num_inputs; ++i) {
    if (inputs[i].dtype == TDC_DTYPE_FLOAT32 && Numel(&inputs[i]) > 0)
      ((float*)inputs[i].data)[0] += 1.0f;
  }
  return s;
}
static void BreakWritesInputs(tdc_backend_api* api) { api->run = RunWritingInputs; }

/* Calls the host's functions with what they must refuse (a size that overflows, a negative
 * size, a node index past the graph), then runs as the template: an ERROR naming the first
 * call the host accepted. */
static tdc_status RunAbusingHost(tdc_backend* backend, tdc_compiled* c, const tdc_tensor* inputs,
                                 size_t num_inputs, tdc_tensor* outputs, size_t num_outputs,
                                 char* message, size_t size) {
  static const int64_t kHuge[] = {(int64_t)1 << 32, (int64_t)1 << 32};
  static const int64_t kNegative[] = {-1};
  tdc_tensor t;
  size_t produced = 0;
  memset(&t, 0, sizeof t);
  if (g_host->alloc_tensor(g_host->context, TDC_DTYPE_FLOAT32, TDC_DEVICE_CPU, 0, 2, kHuge, &t) ==
      TDC_STATUS_OK) {
    Say(message, size, "alloc_tensor accepted 2**32 x 2**32 floats");
    return TDC_STATUS_ERROR;
  }
  if (g_host->alloc_tensor(g_host->context, TDC_DTYPE_FLOAT32, TDC_DEVICE_CPU, 0, 1, kNegative,
                           &t) == TDC_STATUS_OK) {
    Say(message, size, "alloc_tensor accepted a size of -1");
    return TDC_STATUS_ERROR;
  }
  if (g_host->run_node(g_host->context, (size_t)1 << 40, NULL, 0, &t, 1, &produced, NULL, 0) ==
      TDC_STATUS_OK) {
    Say(message, size, "run_node accepted node 2**40");
    return TDC_STATUS_ERROR;
  }
  return Run(backend, c, inputs, num_inputs, outputs, num_outputs, message, size);
}
static void BreakAbusesHost(tdc_backend_api* api) { api->run = RunAbusingHost; }

/* Writes a PASS verdict and the end of the case on every pipe it has, then exits: the case's
 * process's word was once taken as the verdict. */
static tdc_status CreateForgingVerdict(const tdc_host_api* host, tdc_backend** out, char* message,
                                       size_t size) {
  static const char kForged[] =
      "verdict {\"status\":\"PASS\",\"phase\":null,\"reason\":\"\",\"message\":\"\"}\ndone\n";
  struct stat st;
  int fd;
  (void)host;
  (void)out;
  (void)message;
  (void)size;
  for (fd = 3; fd < 1024; ++fd) {
    if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) && write(fd, kForged, sizeof kForged - 1) < 0)
      continue;
  }
  _exit(0);
}
static void BreakForgesVerdict(tdc_backend_api* api) { api->create = CreateForgingVerdict; }

/* Appends a division by zero to the program TDC_HOSTILE_FIXTURE names, then creates as the
 * template: a suite file changed by a backend was once blamed on the backend. */
static tdc_status CreateWritingFixture(const tdc_host_api* host, tdc_backend** out, char* message,
                                       size_t size) {
  const char* path = getenv("TDC_HOSTILE_FIXTURE");
  FILE* f = path != NULL ? fopen(path, "a") : NULL;
  if (f != NULL) {
    fputs("\n1 / 0\n", f);
    fclose(f);
  }
  return Create(host, out, message, size);
}
static void BreakWritesFixture(tdc_backend_api* api) { api->create = CreateWritingFixture; }

/* Computes wrong numbers and leaves a helper, out of its case's process group, that writes a
 * PASS verdict into every pipe the harness holds (opened through /proc/<harness>/fd) for 5 s:
 * the judge's pipe among them once it exists. */
static tdc_status CreateForgingJudge(const tdc_host_api* host, tdc_backend** out, char* message,
                                     size_t size) {
  static const char kForged[] =
      "verdict {\"status\":\"PASS\",\"phase\":null,\"reason\":\"\",\"message\":\"\"}\n";
  const pid_t harness = getppid();
  if (fork() == 0) {
    int round, fd, opened;
    char path[64];
    setsid();
    prctl(PR_SET_NAME, "tdc_forger");
    for (round = 0; round < 5000; ++round) {
      for (fd = 0; fd < 64; ++fd) {
        snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)harness, fd);
        opened = open(path, O_WRONLY | O_NONBLOCK);
        if (opened < 0) continue;
        if (write(opened, kForged, sizeof kForged - 1) < 0) { /* a full or closed pipe */
        }
        close(opened);
      }
      poll(NULL, 0, 1); /* 1 ms */
    }
    _exit(0);
  }
  return Create(host, out, message, size);
}
static void BreakForgesJudge(tdc_backend_api* api) {
  api->create = CreateForgingJudge;
  api->run = RunWrongNumerics;
}

/* get_info never returns: loading it once hung the whole run. */
static void HangingInfo(tdc_backend_info* out) {
  (void)out;
  for (;;) sleep(1);
}
static void BreakHangsInInfo(tdc_backend_api* api) { api->get_info = HangingInfo; }

/* A library constructor that never returns (dlopen itself blocks). */
__attribute__((constructor)) static void HangInConstructorIfAsked(void) {
  if (strcmp(TDC_BROKEN_FAULT, "hangs_in_constructor") == 0) {
    for (;;) sleep(1);
  }
}

typedef struct fault_row {
  const char* name; /* libtdc_backend_broken_<name>.so */
  void (*apply)(tdc_backend_api* api);
} fault_row;

static const fault_row kFaults[] = {
    {"wrong_numerics", BreakWrongNumerics},
    {"ulp_drift", BreakUlpDrift},
    {"segv_in_run", BreakSegvInRun},
    {"hang_on_sin", BreakHangOnSin},
    {"abort_on_custom_op", BreakAbortOnCustomOp},
    {"ignore_second_output", BreakIgnoreSecondOutput},
    {"claims_then_fails", BreakClaimsThenFails},
    {"rejects_all", BreakRejectsAll},
    {"leaks", BreakLeaks},
    {"abi_major", BreakAbiMajor},
    {"wrong_on_rerun", BreakWrongOnRerun},
    {"reuses_outputs", BreakReusesOutputs},
    {"forks_keeping_pipe", BreakForksKeepingPipe},
    {"escapes_group", BreakEscapesGroup},
    {"bad_utf8", BreakBadUtf8},
    {"no_nul", BreakNoNul},
    {"writes_inputs", BreakWritesInputs},
    {"abuses_host", BreakAbusesHost},
    {"forges_verdict", BreakForgesVerdict},
    {"writes_fixture", BreakWritesFixture},
    {"hangs_in_info", BreakHangsInInfo},
    {"forges_judge", BreakForgesJudge},
    {"slow_load", NULL},
    {"hangs_in_constructor", NULL},
    {"chdir_on_load", NULL},
};

/* The template's table with the wrapped handle and this library's fault; NULL for a fault
 * kFaults does not list. Filled on each call, always the same way. */
TDC_BACKEND_EXPORT const tdc_backend_api* tdc_backend_get_api(uint16_t host_abi_major,
                                                              uint16_t host_abi_minor) {
  static tdc_backend_api api;
  size_t i;
  (void)host_abi_minor;
  /* The loading faults act in the entry point itself. */
  if (strcmp(TDC_BROKEN_FAULT, "slow_load") == 0) {
    for (;;) sleep(1);
  }
  if (strcmp(TDC_BROKEN_FAULT, "chdir_on_load") == 0 && chdir("/") != 0) return NULL;
  /* abi_major's table is handed to any host: refusing it is the host's job. */
  if (host_abi_major != TDC_ABI_VERSION_MAJOR && strcmp(TDC_BROKEN_FAULT, "abi_major") != 0)
    return NULL;
  api = *Base();
  api.create = Create;
  api.compile = Compile;
  api.run = Run;
  api.release = Release;
  for (i = 0; i < sizeof kFaults / sizeof kFaults[0]; ++i) {
    if (strcmp(kFaults[i].name, TDC_BROKEN_FAULT) == 0) {
      if (kFaults[i].apply != NULL) kFaults[i].apply(&api);
      return &api;
    }
  }
  return NULL;
}
