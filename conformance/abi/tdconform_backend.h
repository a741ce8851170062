/* tdconform_backend.h: the backend ABI of tdconform (DESIGN.md D6), version 1.2.
 *
 * A backend is a shared library exporting one function, tdc_backend_get_api, which returns
 * a table of functions. tdconform loads the library, checks the table's version, asks the
 * backend what it can do, and then for every graph a conformance case produces: asks
 * whether the backend can compile it, compiles it, runs it on the case's inputs, compares
 * the outputs with the reference's, and releases it. This header is plain C (C99) and the
 * only thing a vendor needs besides one example backend (conformance/backends/template.c).
 *
 * Graphs are canonical graph form v1 (DESIGN.md D2, fixtures/SCHEMA.md §7): FX nodes with
 * normalized targets (`torch.sin`, `operator.add`, `aten.add.Tensor`), arguments naming
 * earlier nodes by index, with the tensor constants they read (tdc_graph.constants).
 * Parameters and buffers arrive as graph inputs (placeholders) like any other tensor.
 *
 * COMPATIBILITY POLICY
 * - TDC_ABI_VERSION_MAJOR changes when a change breaks either side: a field removed or
 *   moved, a meaning changed. tdconform refuses a backend of another major version
 *   (BACKEND_ERROR, phase load, reason abi_version) and runs none of its cases.
 * - TDC_ABI_VERSION_MINOR changes when something is added: fields at the end of a struct,
 *   functions at the end of a table, values at the end of an enum, capability bits. Every
 *   struct that can grow starts with `struct_size`, set by whoever fills it in: a reader
 *   reads only the fields that fit in struct_size and takes the documented default (zero,
 *   NULL) for the rest. A backend built against an older minor version works with a newer
 *   tdconform and the reverse; a backend that needs a newer host field checks the host's
 *   minor version (passed to tdc_backend_get_api and in tdc_host_api) first.
 * - Enum values and capability bits are never renumbered.
 *
 * OWNERSHIP
 * - Everything the host passes in (graphs, tensors, strings, the host table) is owned by
 *   the host and valid only during the call it is passed to, except the tdc_host_api
 *   table, valid until destroy() returns. A backend that needs a graph after compile()
 *   copies what it needs.
 * - Everything the backend returns by pointer (the api table, info strings, capability
 *   lists) is owned by the backend and stays valid while the library is loaded.
 * - Handles (tdc_backend, tdc_compiled) are created by the backend and released by the
 *   host, exactly once each: destroy() for a tdc_backend, release() for a tdc_compiled,
 *   always before destroy() of the backend that made it. live_handles() reports the
 *   compiled handles not yet released; after the host released all of them it must be 0
 *   (otherwise FAIL, phase abi, reason leaked_handles).
 * - Output tensors of run() are allocated by the backend through host->alloc_tensor and
 *   owned by the host. Messages are written into a buffer the host provides: at most
 *   message_size bytes including the terminating NUL, truncated if longer.
 *
 * THREADS AND RE-ENTRANCY
 * - tdc_backend_get_api, get_info and get_capabilities may be called from any thread at any
 *   time. One tdc_backend instance is used by one thread at a time (the host serializes
 *   calls on an instance); distinct instances may be used concurrently.
 * - During run(), the backend may call the host's functions (alloc_tensor, run_node) on the
 *   calling thread, any number of times. The host never calls back into the backend from
 *   inside those functions.
 * - A backend must not keep global state that makes one instance's results depend on
 *   another's (cases must not leak into each other).
 */
#ifndef TDCONFORM_BACKEND_H_
#define TDCONFORM_BACKEND_H_

#include <stddef.h>
#include <stdint.h>

#define TDC_ABI_VERSION_MAJOR 1
#define TDC_ABI_VERSION_MINOR 2

#if defined(_WIN32)
#define TDC_BACKEND_EXPORT __declspec(dllexport)
#else
#define TDC_BACKEND_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* What every call that can fail returns. */
typedef enum tdc_status {
  TDC_STATUS_OK = 0,
  /* The backend lacks a capability this graph needs (an op, a dtype, a feature). On a
   * capability the backend declared, or on the must-pass core set, the case FAILs. */
  TDC_STATUS_NOT_SUPPORTED = 1,
  /* The backend declines this graph cleanly (it has the capabilities but will not compile
   * this graph). FAIL on the must-pass core set, NOT_SUPPORTED elsewhere. */
  TDC_STATUS_REJECTED = 2,
  /* Anything else: the backend's fault; the message says what. */
  TDC_STATUS_ERROR = 3
} tdc_status;

/* Tensor element types (torch.<name>). */
typedef enum tdc_dtype {
  TDC_DTYPE_FLOAT16 = 0,
  TDC_DTYPE_BFLOAT16 = 1,
  TDC_DTYPE_FLOAT32 = 2,
  TDC_DTYPE_FLOAT64 = 3,
  TDC_DTYPE_COMPLEX64 = 4,
  TDC_DTYPE_COMPLEX128 = 5,
  TDC_DTYPE_UINT8 = 6,
  TDC_DTYPE_UINT16 = 7,
  TDC_DTYPE_UINT32 = 8,
  TDC_DTYPE_UINT64 = 9,
  TDC_DTYPE_INT8 = 10,
  TDC_DTYPE_INT16 = 11,
  TDC_DTYPE_INT32 = 12,
  TDC_DTYPE_INT64 = 13,
  TDC_DTYPE_BOOL = 14 /* one byte per element, 0 or 1 */
} tdc_dtype;

/* Where a tensor's data lives. */
typedef enum tdc_device {
  TDC_DEVICE_CPU = 0, /* data is host memory */
  TDC_DEVICE_CUDA = 1 /* data is a device pointer of device_index */
} tdc_device;

/* The level a graph is given at: the FX graph Dynamo hands a backend, or the forward graph
 * AOT autograd lowers it to (ATen ops). */
typedef enum tdc_graph_level {
  TDC_GRAPH_LEVEL_DYNAMO = 0,
  TDC_GRAPH_LEVEL_ATEN = 1
} tdc_graph_level;

/* FX node ops. */
typedef enum tdc_node_op {
  TDC_NODE_PLACEHOLDER = 0,
  TDC_NODE_CALL_FUNCTION = 1,
  TDC_NODE_CALL_METHOD = 2,
  TDC_NODE_CALL_MODULE = 3,
  TDC_NODE_GET_ATTR = 4,
  TDC_NODE_OUTPUT = 5
} tdc_node_op;

/* The kinds of a node argument (fixtures/SCHEMA.md §7). */
typedef enum tdc_arg_kind {
  TDC_ARG_TENSOR = 0, /* not in v1 graphs (tensors are inputs); reserved */
  TDC_ARG_INT = 1,
  TDC_ARG_FLOAT = 2,
  TDC_ARG_BOOL = 3,
  TDC_ARG_STR = 4,
  TDC_ARG_NONE = 5,
  TDC_ARG_ELLIPSIS = 6,
  TDC_ARG_TUPLE = 7,
  TDC_ARG_LIST = 8,
  TDC_ARG_DICT = 9,
  TDC_ARG_DTYPE = 10,
  TDC_ARG_DEVICE = 11,
  TDC_ARG_CALLABLE = 12,
  TDC_ARG_REPR = 13,
  TDC_ARG_REF = 14,
  TDC_ARG_SLICE = 15,
  TDC_ARG_LAYOUT = 16,
  TDC_ARG_MEMORY_FORMAT = 17
} tdc_arg_kind;

/* torch.layout and torch.memory_format values (TDC_ARG_LAYOUT, TDC_ARG_MEMORY_FORMAT). */
typedef enum tdc_layout {
  TDC_LAYOUT_STRIDED = 0,
  TDC_LAYOUT_SPARSE_COO = 1,
  TDC_LAYOUT_SPARSE_CSR = 2,
  TDC_LAYOUT_SPARSE_CSC = 3,
  TDC_LAYOUT_SPARSE_BSR = 4,
  TDC_LAYOUT_SPARSE_BSC = 5,
  TDC_LAYOUT_MKLDNN = 6,
  TDC_LAYOUT_JAGGED = 7
} tdc_layout;
typedef enum tdc_memory_format {
  TDC_MEMORY_FORMAT_CONTIGUOUS = 0,
  TDC_MEMORY_FORMAT_CHANNELS_LAST = 1,
  TDC_MEMORY_FORMAT_CHANNELS_LAST_3D = 2,
  TDC_MEMORY_FORMAT_PRESERVE = 3
} tdc_memory_format;

/* Features DESIGN.md does not cover yet: a case needing one the backend does not declare
 * is NOT_SUPPORTED without being run. v1 cases need none of them. */
#define TDC_FEATURE_DYNAMIC_SHAPES (UINT64_C(1) << 0)
#define TDC_FEATURE_TRAINING (UINT64_C(1) << 1) /* inputs requiring grad, backward graphs */
#define TDC_FEATURE_REDUCED_PRECISION (UINT64_C(1) << 2) /* float16, bfloat16 */
#define TDC_FEATURE_MUTATION (UINT64_C(1) << 3)          /* in-place ops and aliasing in graphs */
#define TDC_FEATURE_NN_MODULE (UINT64_C(1) << 4)
#define TDC_FEATURE_USER_CONTEXT_MANAGERS (UINT64_C(1) << 5)
#define TDC_FEATURE_EXPORT (UINT64_C(1) << 6)

/* A strided tensor. Element (i0, i1, ...) is at data + sum(ik * strides[k]) elements. */
typedef struct tdc_tensor {
  int32_t dtype;          /* tdc_dtype */
  int32_t device;         /* tdc_device */
  int32_t device_index;   /* 0 on CPU */
  int32_t ndim;           /* 0 for a scalar tensor */
  const int64_t* shape;   /* ndim sizes */
  const int64_t* strides; /* ndim strides, in elements */
  void* data;
} tdc_tensor;

/* A node argument. Which members hold it depends on `kind`; the others are zero/NULL. */
typedef struct tdc_arg tdc_arg;
struct tdc_arg {
  int32_t kind;     /* tdc_arg_kind */
  int64_t integer;  /* INT; BOOL (0 or 1); REF (the index of an earlier node); DTYPE
                     * (tdc_dtype); LAYOUT (tdc_layout); MEMORY_FORMAT (tdc_memory_format) */
  double number;    /* FLOAT */
  const char* text; /* STR, DEVICE ("cpu", "cuda:0"), CALLABLE and REPR (their names):
                     * NUL-terminated UTF-8 */
  size_t
      num_items; /* TUPLE, LIST; SLICE: 3 (start, stop, step); DICT: 2 per entry, key then value */
  const tdc_arg* items;
};

/* A keyword argument. */
typedef struct tdc_kwarg {
  const char* name;
  tdc_arg value;
} tdc_kwarg;

/* One FX node. A placeholder describes a graph input (the inputs of run(), in placeholder
 * order); the last node is the output node, whose first argument is a TUPLE or LIST of REFs
 * naming the graph's outputs (the outputs of run(), in that order). */
typedef struct tdc_node {
  int32_t op;         /* tdc_node_op */
  const char* target; /* call_function: `torch.sin`, `operator.add`, `aten.add.Tensor`, a custom
                       * op `mylib.foo.default`, an allowed function's qualname; call_method:
                       * the method's name; placeholder and output: "" */
  size_t num_args;
  const tdc_arg* args;
  size_t num_kwargs;
  const tdc_kwarg* kwargs;
  /* Placeholders only (zero/NULL otherwise). */
  const char* type;      /* "tensor", or the Python type of a non-tensor input */
  int32_t dtype;         /* tdc_dtype of a tensor input */
  int32_t ndim;          /* a tensor input's rank; -1 when not a tensor */
  const int64_t* shape;  /* ndim sizes */
  int32_t requires_grad; /* 0 or 1 */
  const char* source;    /* Dynamo's source (`L['x']`); NULL at the ATen level */
} tdc_node;

/* A graph. */
typedef struct tdc_graph {
  uint32_t struct_size;
  int32_t level; /* tdc_graph_level */
  size_t num_nodes;
  const tdc_node* nodes; /* FX order: a REF names an earlier node */
  const char* name;      /* the case and graph it comes from, for messages; may be NULL */
  /* The tensor constants its get_attr nodes read (an ATen graph's `_tensor_constant0`):
   * the get_attr node whose target is constant_names[i] reads constants[i]. */
  size_t num_constants;
  const char* const* constant_names;
  const tdc_tensor* constants;
  /* 1.2: in can_compile() and compile(), the tensors the graph's first run() will get, one per
   * placeholder in order (read-only copies, valid during the call): what Dynamo hands a
   * torch.compile backend as its example inputs, real tensors with their values, shapes
   * and strides, so a backend that specializes on layout (a transposed input stays
   * transposed) compiles for what it will run. 0 and NULL from a 1.1 host. */
  size_t num_example_inputs;
  const tdc_tensor* example_inputs;
} tdc_graph;

/* The host's side of the ABI, given to create(). */
typedef struct tdc_host_api {
  uint32_t struct_size;
  uint16_t abi_major;
  uint16_t abi_minor;
  void* context; /* passed back as the first argument of every function below */
  /* Allocates a tensor the host owns, contiguous, on `device`: a run's outputs are
   * allocated here. Fills in `out`, whose shape and strides stay valid with its data.
   * TDC_STATUS_ERROR for a negative size, or a tensor whose byte size overflows or passes
   * 4 GiB (an empty one's counting each size 0 as 1: its strides). */
  tdc_status (*alloc_tensor)(void* context, int32_t dtype, int32_t device, int32_t device_index,
                             int32_t ndim, const int64_t* shape, tdc_tensor* out);
  /* Runs node `node_index` of the graph being run (only during run()) on the host: an
   * opaque node (a custom op, an allowed function's body, a nonstrict_trace call) or any
   * op the backend leaves to the host. `inputs` are the
   * tensors among the values of the node's REF arguments, in the order they appear (args
   * then kwargs, depth first). The node's results (a tensor, or the tensors of a tuple in
   * order) are written to `outputs`, allocated and owned by the host, `*num_outputs` of
   * them, at most `max_outputs`. TDC_STATUS_ERROR for an index that is no call node of the
   * graph being run. */
  tdc_status (*run_node)(void* context, size_t node_index, const tdc_tensor* inputs,
                         size_t num_inputs, tdc_tensor* outputs, size_t max_outputs,
                         size_t* num_outputs, char* message, size_t message_size);
} tdc_host_api;

/* Who the backend is, for reports and expectation files. */
typedef struct tdc_backend_info {
  uint32_t struct_size;
  const char* name; /* a short id: [a-z0-9_-]+ */
  const char* version;
  const char* vendor;
  /* 1.1: where and how it computes, for the report's header: a device's model, its driver
   * and runtime versions, the math settings used (TF32, deterministic kernels). NULL (a 1.0
   * backend): nothing to say. */
  const char* environment;
} tdc_backend_info;

/* What the backend can do. A case needing something missing here is NOT_SUPPORTED
 * without being run; a capability declared here and then failed is a FAIL. */
typedef struct tdc_capabilities {
  uint32_t struct_size;
  uint32_t graph_levels; /* bit (1u << tdc_graph_level) per level it compiles */
  uint64_t dtypes;       /* bit (1 << tdc_dtype) per dtype */
  uint32_t devices;      /* bit (1u << tdc_device) per device */
  uint64_t features;     /* TDC_FEATURE_* */
  /* The targets it implements itself; other nodes it runs through host->run_node or
   * declines. NULL with num_ops 0 means every target. */
  size_t num_ops;
  const char* const* ops;
} tdc_capabilities;

typedef struct tdc_backend tdc_backend;   /* an instance, opaque */
typedef struct tdc_compiled tdc_compiled; /* a compiled graph, opaque */

/* The backend's table. */
typedef struct tdc_backend_api {
  uint32_t struct_size;
  uint16_t abi_major; /* TDC_ABI_VERSION_MAJOR the backend was built with */
  uint16_t abi_minor;
  void (*get_info)(tdc_backend_info* out);         /* the host sets out->struct_size */
  void (*get_capabilities)(tdc_capabilities* out); /* the host sets out->struct_size */
  /* A new instance. 1.1: NOT_SUPPORTED when the backend cannot compute on this machine at
   * all (its device is absent): every case is then NOT_SUPPORTED (phase load, reason
   * backend_unavailable) with the message, the must-pass core set's too, so a run where
   * nothing else happened does not succeed. A 1.0 host takes it as an error. */
  tdc_status (*create)(const tdc_host_api* host, tdc_backend** out, char* message,
                       size_t message_size);
  void (*destroy)(tdc_backend* backend);
  /* Whether it will compile `graph` (cheap; no compilation). OK, NOT_SUPPORTED or REJECTED. */
  tdc_status (*can_compile)(tdc_backend* backend, const tdc_graph* graph, char* message,
                            size_t message_size);
  /* Compiles `graph` for `device` (a tdc_device, index 0). */
  tdc_status (*compile)(tdc_backend* backend, const tdc_graph* graph, int32_t device,
                        tdc_compiled** out, char* message, size_t message_size);
  /* Runs a compiled graph: `inputs` in placeholder order (read-only: they are the program's
   * tensors); `outputs` (num_outputs entries, the output node's) filled in with tensors
   * from host->alloc_tensor. */
  tdc_status (*run)(tdc_backend* backend, tdc_compiled* compiled, const tdc_tensor* inputs,
                    size_t num_inputs, tdc_tensor* outputs, size_t num_outputs, char* message,
                    size_t message_size);
  void (*release)(tdc_backend* backend, tdc_compiled* compiled);
  /* The compiled handles of `backend` not yet released. */
  size_t (*live_handles)(const tdc_backend* backend);
} tdc_backend_api;

/* The one exported entry point: the backend's table (static storage), or NULL when it
 * cannot serve a host of that version. */
typedef const tdc_backend_api* (*tdc_backend_get_api_fn)(uint16_t host_abi_major,
                                                         uint16_t host_abi_minor);
TDC_BACKEND_EXPORT const tdc_backend_api* tdc_backend_get_api(uint16_t host_abi_major,
                                                              uint16_t host_abi_minor);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TDCONFORM_BACKEND_H_ */
