// The fuzzers' programs (research/fuzz-anchors.md §6.1, milestone 1): a tree of user
// functions over one tensor `x`, each with one policy, printed as a runnable fixture.
// Every function but the entry f0 is called from exactly one place, so caching and
// dedup effects are absent except for the switch that calls the entry twice, and for
// the helpers: h0 and h1 (`return torch.tanh(x)`), callable from anywhere, whose
// module-level steps (def / allow / allow then disallow / del) make new functions reuse
// the ids of dead ones (spec §2.4, §2.5; SEMANTICS §6).
#ifndef TDCONFORM_FUZZ_PROGRAM_H_
#define TDCONFORM_FUZZ_PROGRAM_H_

#include <iterator>
#include <string>
#include <vector>

namespace tdc::fuzz {

// Tensor ops that keep a positive tensor positive and finite, so every program is valid
// by construction (|v| >= 1e-3 for the sizes generated). kMulGlobal multiplies by the
// module global K (1.5, rebound to 1.25 under Program::new_constant). Then (issue 26) tensor
// indexing that keeps the tensor's size: kRotate, `torch.cat([x[1:], x[:1]])` (two slices),
// and kIndexIdentity, `x[None][0]` (an unsqueeze, then a select).
enum class OpKind {
  kMulUp,
  kMulDown,
  kAddQuarter,
  kTanh,
  kSigmoid,
  kSqrt,
  kMulGlobal,
  kRotate,
  kIndexIdentity,
  kCount
};
// The ops before the indexing ones (a generator without the indexing extension draws these).
constexpr int kElementwiseOps = static_cast<int>(OpKind::kRotate);

// The simplest first: choices shrink towards index 0. kNonstrictTrace and kCustomOp (issue
// 12): one opaque node for Dynamo; AOT autograd traces through the first, not the second.
enum class Policy {
  kNone,
  kDisable,
  kDisableNonrecursive,
  kAllowInGraph,
  kNonstrictTrace,
  kCustomOp,
  kCount
};

struct Stmt {
  enum class Kind {
    kOp,
    kCall,
    kGraphBreak,
    kIfCompiling,         // equivalent branches: x * 2 while compiling, x + x otherwise
    kIfCompilingDiffers,  // different branches: x * 1.5 while compiling, x * 0.75 otherwise
    kCallHelper,
    // Frames that cannot resume (issue 11, spec §2.7, §2.8, §3.3):
    kSkipFrame,        // torch._dynamo.skip_frame()
    kStepUnsupported,  // torch._dynamo.step_unsupported()
    kTryBreak,         // try: x = <op>; graph_break() / except RuntimeError: pass
    kLoop,             // for _ in range(2): x = <op>
    kLoopBreak,        // for _ in range(2): x = <op>; graph_break()
    // Branches on the tensor's data (issue 26, SEMANTICS R-data-dependent-branch): Dynamo
    // cannot know which way they go, and breaks the graph at each conditional jump.
    kIfData,     // if x.sum() > <threshold>: x = <op> / else: x = <else_op>
    kWhileData,  // while x.sum() < <threshold>: x = <op> (an op that grows x: kGrowingOps)
    // Calls whose callee's break is its caller's to handle where the caller cannot resume
    // (issue 26, spec §3.3, §3.4, SEMANTICS R-step-graph-break):
    kCallInLoop,  // for _ in range(2): x = f<callee>(x)
    kCallInTry,   // try: x = f<callee>(x) / finally: pass
    kCount
  } kind = Kind::kOp;
  // kOp, the op inside kTryBreak, kLoop, kLoopBreak and kWhileData, kIfData's first arm.
  OpKind op = OpKind::kMulUp;
  // kCall, kCallInLoop, kCallInTry: an index into Program::functions; kCallHelper: the
  // helper's number.
  int callee = 0;
  OpKind else_op = OpKind::kMulUp;  // kIfData's else arm
  int threshold = 0;                // kIfData, kWhileData: an index into kThresholds
};

// The thresholds a data-dependent test compares `x.sum()` with. Values whose sum comes
// near one are never generated (values.h, checkable.h: the oracle computes in double precision what
// torch computes in float32).
constexpr double kThresholds[] = {3.3, 4.6, 6.4};
constexpr int kThresholdCount = static_cast<int>(std::size(kThresholds));
// The ops a while loop's body may run: each multiplies the sum by at least 1.25 or adds at
// least 1 to it (four elements or more, positive), so the loop ends after a few turns.
constexpr OpKind kGrowingOps[] = {OpKind::kMulUp, OpKind::kAddQuarter, OpKind::kMulGlobal};
bool IsGrowingOp(OpKind op);
bool IsDataBranch(const Stmt& s);
// kCall, kCallInLoop or kCallInTry: a call of a function f<i>.
bool IsCall(const Stmt& s);

constexpr int kHelpers = 2;

// One module-level step on helper h<helper>, printed after the functions f<i> are
// defined. A step on a helper that is not bound at that point is not printed (so any
// step list is a valid program), nor one that would come between a death and the def
// that takes its id (EffectiveHelperSteps); every helper still unbound is defined.
struct HelperStep {
  enum class Kind { kDef, kAllow, kAllowThenDisallow, kDel, kCount } kind = Kind::kDef;
  int helper = 0;
};

struct Function {
  Policy policy = Policy::kNone;
  std::vector<Stmt> body;  // then `return x`
};

struct Program {
  std::vector<Function> functions;  // functions[0] is the compiled entry, f0
  bool fullgraph = false;
  bool call_twice = false;
  // Then called once more with a 6-element input: every code compiled so far recompiles
  // (its shape guard fails), but codes marked skipped stay skipped.
  bool new_shape = false;
  // Then K is rebound to 1.25 and the entry called once more with the first input: the
  // codes whose trace read K (inlined an `x * K`; an allowed body is not traced) compile
  // again, the others hit their entries (spec §1.2 step 5, SEMANTICS R-global-guard).
  bool new_constant = false;
  bool disallow_sigmoid = false;  // torch._dynamo.disallow_in_graph(torch.sigmoid)
  std::vector<HelperStep> helper_steps;
};

// The steps as printed: those on an unbound helper dropped, and any but a def of an
// unbound helper while a death waits for the def that observes it; then a kDef for each
// helper left unbound.
std::vector<HelperStep> EffectiveHelperSteps(const Program& program);

// Whether a statement of `f` can end its frame without a resume function (issue 11): a
// skip_frame(), a step_unsupported(), a break in a try block or a loop (a loop's op may be
// the disallowed sigmoid, a call there may break). Offered again from the eager rest, calls there
// compile as frames of their own, so moving statements in or out of such a function changes graphs.
bool CanEndItsFrame(const Function& f);

// The FX targets of the nodes an op records under Dynamo (SCHEMA §7.1), and its ATen ops
// (one each but for the indexing ops').
const std::vector<std::string>& OpTargets(OpKind op);
const std::vector<std::string>& AtenOps(OpKind op);
bool IsIndexing(OpKind op);
// The program as a fixture (fixtures/SCHEMA.md §2 header, D1 lint-clean).
std::string PrintFixture(const Program& program);
// Number of statements and helper steps, counting nested ones once.
size_t StatementCount(const Program& program);

}  // namespace tdc::fuzz

#endif  // TDCONFORM_FUZZ_PROGRAM_H_
