/* template.c: a tdconform backend in plain C99, the one to copy when starting a backend.
 *
 * It compiles float32 elementwise graphs at both levels (the Dynamo graph and AOT autograd's
 * ATen graph): each node is one loop over contiguous float buffers, its operands tensors
 * (broadcast as torch does) or Python numbers. Opaque nodes (a custom op `ns.op.overload`, an
 * allowed function) go back to the host through host->run_node. Anything else it declines
 * with TDC_STATUS_NOT_SUPPORTED, which tdconform reports as NOT_SUPPORTED (or FAIL on the
 * must-pass core set): a vendor grows kOps and Compute() from here.
 *
 * Built once as the template (it must pass conformance/core-set.txt) and again with one of
 * the TDC_BROKEN_* macros as a deliberately broken backend whose verdict a test asserts
 * (conformance/executor/broken_backends_test.cc).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(TDC_BROKEN_HANG_ON_SIN)
#include <unistd.h>
#endif

#include "tdconform_backend.h" /* conformance/abi/, or include/tdconform/ installed */

/* ---- the ops it computes ---------------------------------------------------------------- */

typedef enum op_kind {
  OP_ADD,
  OP_SUB,
  OP_MUL,
  OP_DIV,
  OP_POW, /* binary: IsBinary */
  OP_NEG,
  OP_ABS,
  OP_RELU,
  OP_SIGMOID,
  OP_TANH,
  OP_SIN,
  OP_COS,
  OP_TAN,
  OP_EXP,
  OP_LOG,
  OP_SQRT,
  OP_GELU,
  OP_GETITEM, /* operator.getitem on an opaque node's results */
  OP_OPAQUE   /* handed to the host */
} op_kind;

typedef struct op_row {
  const char* target;
  op_kind kind;
} op_row;

/* Every target it implements, at both levels: the Dynamo forms (function, operator, method)
 * and the ATen overload. */
static const op_row kOps[] = {
    {"operator.add", OP_ADD},
    {"torch.add", OP_ADD},
    {"add", OP_ADD},
    {"aten.add.Tensor", OP_ADD},
    {"operator.sub", OP_SUB},
    {"torch.sub", OP_SUB},
    {"sub", OP_SUB},
    {"aten.sub.Tensor", OP_SUB},
    {"operator.mul", OP_MUL},
    {"torch.mul", OP_MUL},
    {"mul", OP_MUL},
    {"aten.mul.Tensor", OP_MUL},
    {"operator.truediv", OP_DIV},
    {"torch.div", OP_DIV},
    {"div", OP_DIV},
    {"aten.div.Tensor", OP_DIV},
    {"operator.pow", OP_POW},
    {"torch.pow", OP_POW},
    {"pow", OP_POW},
    {"aten.pow.Tensor_Tensor", OP_POW},
    {"aten.pow.Tensor_Scalar", OP_POW},
    {"aten.pow.Scalar", OP_POW},
    {"operator.neg", OP_NEG},
    {"torch.neg", OP_NEG},
    {"neg", OP_NEG},
    {"aten.neg.default", OP_NEG},
    {"torch.abs", OP_ABS},
    {"abs", OP_ABS},
    {"aten.abs.default", OP_ABS},
    {"torch.relu", OP_RELU},
    {"relu", OP_RELU},
    {"aten.relu.default", OP_RELU},
    {"torch.sigmoid", OP_SIGMOID},
    {"sigmoid", OP_SIGMOID},
    {"aten.sigmoid.default", OP_SIGMOID},
    {"torch.tanh", OP_TANH},
    {"tanh", OP_TANH},
    {"aten.tanh.default", OP_TANH},
    {"torch.sin", OP_SIN},
    {"sin", OP_SIN},
    {"aten.sin.default", OP_SIN},
    {"torch.cos", OP_COS},
    {"cos", OP_COS},
    {"aten.cos.default", OP_COS},
    {"torch.tan", OP_TAN},
    {"tan", OP_TAN},
    {"aten.tan.default", OP_TAN},
    {"torch.nn.functional.gelu", OP_GELU},
    {"aten.gelu.default", OP_GELU},
    {"torch.exp", OP_EXP},
    {"exp", OP_EXP},
    {"aten.exp.default", OP_EXP},
    {"torch.log", OP_LOG},
    {"log", OP_LOG},
    {"aten.log.default", OP_LOG},
    {"torch.sqrt", OP_SQRT},
    {"sqrt", OP_SQRT},
    {"aten.sqrt.default", OP_SQRT},
};
#define NUM_OPS (sizeof kOps / sizeof kOps[0])
static const char* kOpNames[NUM_OPS];

static int IsBinary(op_kind k) { return k <= OP_POW; }

/* The target's kind; -1 when it is not one of kOps. */
static int FindOp(const char* target) {
  size_t i;
  for (i = 0; i < NUM_OPS; ++i) {
    if (strcmp(kOps[i].target, target) == 0) return (int)kOps[i].kind;
  }
  return -1;
}

/* A call the host runs: not a torch, ATen or Python operator function. */
static int IsOpaque(const char* target) {
  return strncmp(target, "torch.", 6) != 0 && strncmp(target, "aten.", 5) != 0 &&
         strncmp(target, "operator.", 9) != 0 && strncmp(target, "builtins.", 9) != 0 &&
         strncmp(target, "higher_order.", 13) != 0;
}

static float Unary(op_kind k, float x) {
  switch (k) {
    case OP_NEG:
      return -x;
    case OP_ABS:
      return fabsf(x);
    case OP_RELU:
      return x > 0.0f ? x : (x == x ? 0.0f : x);
    case OP_SIGMOID:
      return 1.0f / (1.0f + expf(-x));
    case OP_TANH:
      return tanhf(x);
    case OP_SIN:
      return sinf(x);
    case OP_COS:
      return cosf(x);
    case OP_TAN:
      return tanf(x);
    case OP_GELU:
      return 0.5f * x * (1.0f + erff(x * 0.70710678118654752f)); /* approximate='none' */
    case OP_EXP:
      return expf(x);
    case OP_LOG:
      return logf(x);
    case OP_SQRT:
      return sqrtf(x);
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_DIV:
    case OP_POW:
    case OP_GETITEM:
    case OP_OPAQUE:
      break;
  }
  return x;
}

static float Binary(op_kind k, float a, float b) {
  float r = 0.0f; /* set by every case below */
  switch (k) {
    case OP_ADD:
      r = a + b;
      break;
    case OP_SUB:
      r = a - b;
      break;
    case OP_MUL:
      r = a * b;
      break;
    case OP_DIV:
      r = a / b;
      break;
    case OP_POW:
    case OP_NEG:
    case OP_ABS:
    case OP_RELU:
    case OP_SIGMOID:
    case OP_TANH:
    case OP_SIN:
    case OP_COS:
    case OP_TAN:
    case OP_EXP:
    case OP_LOG:
    case OP_SQRT:
    case OP_GELU:
    case OP_GETITEM:
    case OP_OPAQUE:
      r = powf(a, b);
      break;
  }
#if defined(TDC_BROKEN_WRONG_NUMERICS)
  if (k == OP_ADD) r *= 1.001f; /* 0.1% off: far outside float32's tolerance */
#endif
  return r;
}

/* ---- compiled graphs --------------------------------------------------------------------- */

/* An operand: an earlier node's value or a Python number. */
typedef struct operand {
  int node; /* -1 for a number */
  float number;
} operand;

typedef struct step {
  int op;   /* tdc_node_op */
  int kind; /* op_kind, for call nodes */
  operand a, b;
  int item;        /* OP_GETITEM: which result */
  size_t num_refs; /* OP_OPAQUE: the nodes its tensor arguments name, in order */
  int* refs;
} step;

struct tdc_compiled {
  size_t num_steps;
  step* steps;
  size_t num_outputs;
  int* outputs;
  int has_sin;
  int runs; /* how many times run() ran it */
};

struct tdc_backend {
  const tdc_host_api* host;
  size_t live;
};

static void Say(char* message, size_t size, const char* text) {
  if (message != NULL && size > 0) snprintf(message, size, "%s", text);
}

static void FreeCompiled(tdc_compiled* c) {
  size_t i;
  if (c == NULL) return;
  for (i = 0; i < c->num_steps; ++i) free(c->steps[i].refs);
  free(c->steps);
  free(c->outputs);
  free(c);
}

/* Reads an operand; 0 when it is neither a REF to a tensor node nor a number. */
static int Operand(const tdc_arg* arg, operand* out) {
  out->node = -1;
  out->number = 0.0f;
  if (arg->kind == TDC_ARG_REF) {
    out->node = (int)arg->integer;
    return 1;
  }
  if (arg->kind == TDC_ARG_INT || arg->kind == TDC_ARG_BOOL) {
    out->number = (float)arg->integer;
    return 1;
  }
  if (arg->kind == TDC_ARG_FLOAT) {
    out->number = (float)arg->number;
    return 1;
  }
  return 0;
}

/* Builds the steps of `g`; NOT_SUPPORTED with a message for anything outside the template. */
static tdc_status Plan(const tdc_graph* g, tdc_compiled** out, char* message, size_t size) {
  char text[256];
  size_t i, j;
  tdc_compiled* c = (tdc_compiled*)calloc(1, sizeof *c);
  if (c == NULL) return TDC_STATUS_ERROR;
  c->steps = (step*)calloc(g->num_nodes, sizeof *c->steps);
  c->num_steps = g->num_nodes;
  for (i = 0; i < g->num_nodes; ++i) {
    const tdc_node* n = &g->nodes[i];
    step* s = &c->steps[i];
    s->op = n->op;
    if (n->op == TDC_NODE_PLACEHOLDER) {
      if (n->ndim < 0 || n->dtype != TDC_DTYPE_FLOAT32 || n->ndim > 8) {
        Say(message, size, "an input that is not a float32 tensor of rank 8 or less");
        FreeCompiled(c);
        return TDC_STATUS_NOT_SUPPORTED;
      }
      continue;
    }
    if (n->op == TDC_NODE_OUTPUT) {
      const tdc_arg* list = n->num_args > 0 ? &n->args[0] : NULL;
      c->num_outputs = list != NULL ? list->num_items : 0;
      c->outputs = (int*)calloc(c->num_outputs + 1, sizeof(int));
      for (j = 0; j < c->num_outputs; ++j) c->outputs[j] = (int)list->items[j].integer;
      continue;
    }
    if (n->op != TDC_NODE_CALL_FUNCTION && n->op != TDC_NODE_CALL_METHOD) {
      snprintf(text, sizeof text, "node %u: a %s node", (unsigned)i,
               n->op == TDC_NODE_GET_ATTR ? "get_attr" : "module");
      Say(message, size, text);
      FreeCompiled(c);
      return TDC_STATUS_NOT_SUPPORTED;
    }
    s->kind = FindOp(n->target);
    if (s->kind < 0 && strcmp(n->target, "operator.getitem") == 0 && n->num_args == 2 &&
        n->args[0].kind == TDC_ARG_REF && c->steps[n->args[0].integer].kind == OP_OPAQUE) {
      s->kind = OP_GETITEM;
      s->a.node = (int)n->args[0].integer;
      s->item = (int)n->args[1].integer;
      continue;
    }
    if (s->kind < 0 && n->op == TDC_NODE_CALL_FUNCTION && IsOpaque(n->target)) {
      s->kind = OP_OPAQUE;
      s->refs = (int*)calloc(n->num_args + 1, sizeof(int));
      for (j = 0; j < n->num_args; ++j) {
        if (n->args[j].kind == TDC_ARG_REF) s->refs[s->num_refs++] = (int)n->args[j].integer;
      }
      continue;
    }
    if (s->kind < 0 || n->num_kwargs != 0 ||
        n->num_args != (IsBinary((op_kind)s->kind) ? 2u : 1u) || !Operand(&n->args[0], &s->a) ||
        (n->num_args == 2 && !Operand(&n->args[1], &s->b)) ||
        (s->a.node < 0 && (n->num_args == 1 || s->b.node < 0))) {
      snprintf(text, sizeof text, "node %u: %s with these arguments is outside the template",
               (unsigned)i, n->target);
      Say(message, size, text);
      FreeCompiled(c);
      return TDC_STATUS_NOT_SUPPORTED;
    }
    if (s->kind == OP_SIN) c->has_sin = 1;
#if defined(TDC_BROKEN_CLAIMS_THEN_FAILS)
    if (s->kind == OP_COS) { /* declared in kOps, yet refused */
      Say(message, size, "cos is not supported after all");
      FreeCompiled(c);
      return TDC_STATUS_NOT_SUPPORTED;
    }
#endif
  }
  *out = c;
  return TDC_STATUS_OK;
}

/* ---- the ABI table ------------------------------------------------------------------------ */

static void GetInfo(tdc_backend_info* out) {
  out->name = "template";
  out->version = "1.0";
  out->vendor = "tdconform";
}

static void GetCapabilities(tdc_capabilities* out) {
  size_t i;
  for (i = 0; i < NUM_OPS; ++i) kOpNames[i] = kOps[i].target;
  out->graph_levels = (1u << TDC_GRAPH_LEVEL_DYNAMO) | (1u << TDC_GRAPH_LEVEL_ATEN);
  out->dtypes = (uint64_t)1 << TDC_DTYPE_FLOAT32;
  out->devices = 1u << TDC_DEVICE_CPU;
  out->features = 0;
  out->num_ops = NUM_OPS;
  out->ops = kOpNames;
}

static tdc_status Create(const tdc_host_api* host, tdc_backend** out, char* message, size_t size) {
  tdc_backend* b;
  if (host == NULL || host->alloc_tensor == NULL || host->run_node == NULL) {
    Say(message, size, "the host table lacks alloc_tensor or run_node");
    return TDC_STATUS_ERROR;
  }
  b = (tdc_backend*)calloc(1, sizeof *b);
  if (b == NULL) return TDC_STATUS_ERROR;
  b->host = host;
  *out = b;
  return TDC_STATUS_OK;
}

static void Destroy(tdc_backend* backend) { free(backend); }

static tdc_status CanCompile(tdc_backend* backend, const tdc_graph* graph, char* message,
                             size_t size) {
  tdc_compiled* c = NULL;
  tdc_status s;
  (void)backend;
#if defined(TDC_BROKEN_REJECTS_ALL)
  (void)graph;
  Say(message, size, "this backend rejects every graph");
  return TDC_STATUS_REJECTED;
#endif
  s = Plan(graph, &c, message, size);
  FreeCompiled(c);
  return s;
}

static tdc_status Compile(tdc_backend* backend, const tdc_graph* graph, int32_t device,
                          tdc_compiled** out, char* message, size_t size) {
  tdc_status s;
  if (device != TDC_DEVICE_CPU) {
    Say(message, size, "the template runs on the CPU only");
    return TDC_STATUS_NOT_SUPPORTED;
  }
  s = Plan(graph, out, message, size);
  if (s == TDC_STATUS_OK) ++backend->live;
  return s;
}

/* A node's value: a contiguous float32 tensor (its own buffer, or one the host allocated
 * for an opaque node's results). */
typedef struct value {
  int32_t ndim;
  int64_t shape[8];
  int64_t numel;
  float* data;
  int owned;
  size_t num_results; /* an opaque node's */
  tdc_tensor results[8];
} value;

static void SetShape(value* v, int32_t ndim, const int64_t* shape) {
  int32_t d;
  v->ndim = ndim;
  v->numel = 1;
  for (d = 0; d < ndim; ++d) {
    v->shape[d] = shape[d];
    v->numel *= shape[d];
  }
}

static int Allocate(value* v) {
  v->data = (float*)malloc((size_t)v->numel * sizeof(float) + 1);
  v->owned = 1;
  return v->data != NULL;
}

/* A float32 tensor of rank 8 or less as a contiguous value. */
static int Gather(const tdc_tensor* t, value* v) {
  int64_t k, index[8] = {0};
  int32_t d;
  if (t->dtype != TDC_DTYPE_FLOAT32 || t->ndim < 0 || t->ndim > 8) return 0;
  SetShape(v, t->ndim, t->shape);
  if (!Allocate(v)) return 0;
  for (k = 0; k < v->numel; ++k) {
    int64_t offset = 0;
    for (d = 0; d < t->ndim; ++d) offset += index[d] * t->strides[d];
    v->data[k] = ((const float*)t->data)[offset];
    for (d = t->ndim - 1; d >= 0; --d) {
      if (++index[d] < t->shape[d]) break;
      index[d] = 0;
    }
  }
  return 1;
}

/* The broadcast shape of `a` and `b` into `out` (torch's rules: aligned at the last dim, a
 * size-1 dim stretching); 0 when they do not broadcast. */
static int BroadcastShape(const value* a, const value* b, value* out) {
  int64_t shape[8];
  int32_t ndim = a->ndim > b->ndim ? a->ndim : b->ndim, d;
  for (d = 0; d < ndim; ++d) {
    int32_t da = d - (ndim - a->ndim), db = d - (ndim - b->ndim);
    int64_t sa = da >= 0 ? a->shape[da] : 1, sb = db >= 0 ? b->shape[db] : 1;
    if (sa != sb && sa != 1 && sb != 1) return 0;
    shape[d] = sa == 1 ? sb : sa;
  }
  SetShape(out, ndim, shape);
  return 1;
}

/* The flat index in `v` of the output element at `index` (of rank `ndim`), broadcasting. */
static int64_t BroadcastOffset(const value* v, const int64_t* index, int32_t ndim) {
  int64_t offset = 0;
  int32_t d;
  for (d = 0; d < v->ndim; ++d) {
    int64_t i = index[d + ndim - v->ndim];
    offset = offset * v->shape[d] + (v->shape[d] == 1 ? 0 : i);
  }
  return offset;
}

static tdc_status Compute(const step* s, value* values, value* out, char* message, size_t size) {
  value number;
  const value* a;
  const value* b;
  int64_t k, index[8] = {0};
  int32_t d;
  memset(&number, 0, sizeof number);
  number.numel = 1;
  a = s->a.node >= 0 ? &values[s->a.node] : &number;
  b = IsBinary((op_kind)s->kind) && s->b.node >= 0 ? &values[s->b.node] : &number;
  if (!BroadcastShape(a, b, out)) {
    Say(message, size, "operands that do not broadcast");
    return TDC_STATUS_ERROR;
  }
  if (!Allocate(out)) return TDC_STATUS_ERROR;
  for (k = 0; k < out->numel; ++k) {
    float x = s->a.node >= 0 ? a->data[BroadcastOffset(a, index, out->ndim)] : s->a.number;
    if (IsBinary((op_kind)s->kind)) {
      float y = s->b.node >= 0 ? b->data[BroadcastOffset(b, index, out->ndim)] : s->b.number;
      out->data[k] = Binary((op_kind)s->kind, x, y);
    } else {
      out->data[k] = Unary((op_kind)s->kind, x);
    }
    for (d = out->ndim - 1; d >= 0; --d) {
      if (++index[d] < out->shape[d]) break;
      index[d] = 0;
    }
  }
  return TDC_STATUS_OK;
}

static tdc_status RunOpaque(tdc_backend* backend, const tdc_compiled* c, size_t i, value* values,
                            char* message, size_t size) {
  const step* s = &c->steps[i];
  tdc_tensor inputs[16];
  int64_t strides[16][8];
  size_t j;
  int32_t d;
  tdc_status status;
  if (s->num_refs > 16) {
    Say(message, size, "an opaque node with more than 16 tensor arguments");
    return TDC_STATUS_NOT_SUPPORTED;
  }
  for (j = 0; j < s->num_refs; ++j) {
    const value* v = &values[s->refs[j]];
    if (v->ndim > 0) strides[j][v->ndim - 1] = 1;
    for (d = v->ndim - 2; d >= 0; --d) strides[j][d] = strides[j][d + 1] * v->shape[d + 1];
    memset(&inputs[j], 0, sizeof inputs[j]);
    inputs[j].dtype = TDC_DTYPE_FLOAT32;
    inputs[j].device = TDC_DEVICE_CPU;
    inputs[j].ndim = v->ndim;
    inputs[j].shape = v->shape;
    inputs[j].strides = strides[j];
    inputs[j].data = v->data;
  }
#if defined(TDC_BROKEN_ABORT_ON_CUSTOM_OP)
  abort(); /* instead of handing the custom op to the host */
#endif
  status = backend->host->run_node(backend->host->context, i, inputs, s->num_refs,
                                   values[i].results, 8, &values[i].num_results, message, size);
  if (status != TDC_STATUS_OK) return status;
  for (j = 0; j < values[i].num_results; ++j) {
    if (values[i].results[j].dtype != TDC_DTYPE_FLOAT32 || values[i].results[j].ndim > 8) {
      Say(message, size, "an opaque node's result is not a float32 tensor of rank 8 or less");
      return TDC_STATUS_NOT_SUPPORTED;
    }
  }
  return TDC_STATUS_OK;
}

/* `v` as the host's result tensor `t` (contiguous: the host allocated it). */
static void FromResult(value* v, const tdc_tensor* t) {
  SetShape(v, t->ndim, t->shape);
  v->data = (float*)t->data;
  v->owned = 0;
}

static tdc_status Run(tdc_backend* backend, tdc_compiled* c, const tdc_tensor* inputs,
                      size_t num_inputs, tdc_tensor* outputs, size_t num_outputs, char* message,
                      size_t size) {
  value* values = (value*)calloc(c->num_steps, sizeof *values);
  size_t i, next_input = 0;
  tdc_status status = TDC_STATUS_OK;
  if (values == NULL) return TDC_STATUS_ERROR;
#if defined(TDC_BROKEN_SEGV_IN_RUN)
  *(volatile int*)values[0].results[7].data = 1; /* a NULL pointer written */
#endif
#if defined(TDC_BROKEN_HANG_ON_SIN)
  while (c->has_sin) sleep(1);
#endif
  for (i = 0; i < c->num_steps && status == TDC_STATUS_OK; ++i) {
    const step* s = &c->steps[i];
    if (s->op == TDC_NODE_OUTPUT) continue;
    if (s->op == TDC_NODE_PLACEHOLDER) {
      if (next_input >= num_inputs || !Gather(&inputs[next_input++], &values[i])) {
        Say(message, size, "the inputs do not match the placeholders");
        status = TDC_STATUS_ERROR;
      }
    } else if (s->kind == OP_OPAQUE) {
      status = RunOpaque(backend, c, i, values, message, size);
      if (status == TDC_STATUS_OK && values[i].num_results > 0)
        FromResult(&values[i], &values[i].results[0]);
    } else if (s->kind == OP_GETITEM) {
      const value* of = &values[s->a.node];
      if (s->item < 0 || (size_t)s->item >= of->num_results) {
        Say(message, size, "operator.getitem past an opaque node's results");
        status = TDC_STATUS_ERROR;
      } else {
        FromResult(&values[i], &of->results[s->item]);
      }
    } else {
      status = Compute(s, values, &values[i], message, size);
    }
  }
  for (i = 0; i < num_outputs && i < c->num_outputs && status == TDC_STATUS_OK; ++i) {
    const value* v = &values[c->outputs[i]];
#if defined(TDC_BROKEN_IGNORE_SECOND_OUTPUT)
    if (i == 1) continue;
#endif
    status = backend->host->alloc_tensor(backend->host->context, TDC_DTYPE_FLOAT32, TDC_DEVICE_CPU,
                                         0, v->ndim, v->shape, &outputs[i]);
    if (status != TDC_STATUS_OK) break;
    memcpy(outputs[i].data, v->data, (size_t)v->numel * sizeof(float));
#if defined(TDC_BROKEN_WRONG_ON_RERUN)
    if (c->runs > 0) ((float*)outputs[i].data)[0] += 1.0f; /* a stale state on a cached call */
#endif
#if defined(TDC_BROKEN_ULP_DRIFT)
    {
      int64_t k;
      for (k = 0; k < v->numel; ++k) {
        float* x = &((float*)outputs[i].data)[k];
        *x = nextafterf(*x, INFINITY); /* one unit in the last place */
      }
    }
#endif
  }
  for (i = 0; i < c->num_steps; ++i) {
    if (values[i].owned) free(values[i].data);
  }
  ++c->runs;
  free(values);
  return status;
}

static void Release(tdc_backend* backend, tdc_compiled* compiled) {
  FreeCompiled(compiled);
#if !defined(TDC_BROKEN_LEAKS)
  --backend->live;
#else
  (void)backend;
#endif
}

static size_t LiveHandles(const tdc_backend* backend) { return backend->live; }

static const tdc_backend_api kApi = {
    sizeof(tdc_backend_api),
#if defined(TDC_BROKEN_ABI_MAJOR)
    TDC_ABI_VERSION_MAJOR + 1,
#else
    TDC_ABI_VERSION_MAJOR,
#endif
    TDC_ABI_VERSION_MINOR,
    GetInfo,
    GetCapabilities,
    Create,
    Destroy,
    CanCompile,
    Compile,
    Run,
    Release,
    LiveHandles,
};

TDC_BACKEND_EXPORT const tdc_backend_api* tdc_backend_get_api(uint16_t host_abi_major,
                                                              uint16_t host_abi_minor) {
  (void)host_abi_minor;
#if !defined(TDC_BROKEN_ABI_MAJOR)
  if (host_abi_major != TDC_ABI_VERSION_MAJOR) return NULL;
#else
  (void)host_abi_major;
#endif
  return &kApi;
}
