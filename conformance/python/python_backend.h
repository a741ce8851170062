// The Python backend library (libtdc_backend_python.so, DESIGN.md D15): a torch.compile backend
// callable, `py:MODULE:ATTR`, behind the C ABI (tdconform_backend.h) through embedded CPython.
// The loader (conformance/loader/python_loader.cc) opens the library and configures it with
// the callable before taking its table, so every case, its statuses, phases, reports and
// failure folders are those of any `.so`.
#ifndef TDCONFORM_CONFORMANCE_PYTHON_PYTHON_BACKEND_H_
#define TDCONFORM_CONFORMANCE_PYTHON_PYTHON_BACKEND_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// Starts the interpreter (once a process), imports torch and MODULE and takes ATTR: 0 when
// the callable is there, else 1 with the reason (python_init, python_import, python_attr)
// and the error with its traceback written into `reason` and `message`.
typedef int (*tdc_python_backend_configure_fn)(const char* module, const char* attr, char* reason,
                                               size_t reason_size, char* message,
                                               size_t message_size);
#define TDC_PYTHON_BACKEND_CONFIGURE "tdc_python_backend_configure"

// `--engine torch` (conformance/python/engine_torch.py), in a case's process: runs the fixture
// under real torch.compile at `profile` with the configured callable as its backend. Returns
// malloc'd JSON text ({"ok", "outcome" | "error", "faults"}) the caller frees, or null with
// the Python error in `message` (tdconform's failure, not the backend's).
typedef char* (*tdc_python_engine_run_fn)(const char* fixture, const char* profile, char* message,
                                          size_t message_size);
#define TDC_PYTHON_ENGINE_RUN "tdc_python_engine_run"

#ifdef __cplusplus
}
#endif

#endif  // TDCONFORM_CONFORMANCE_PYTHON_PYTHON_BACKEND_H_
