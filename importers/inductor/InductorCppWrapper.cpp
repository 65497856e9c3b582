#include "importers/inductor/InductorCppWrapper.h"

#include "importers/inductor/CppWrapperSyntax.h"
#include "ir/Try.h"
#include "ir/ops/OpRegistry.h"
#include "support/PyLexer.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace fxkit {

using inductor::CExpr;
using inductor::CStmt;
using inductor::CTok;

namespace {

/// Deep enough for Inductor's nesting (a view inside a wrapper inside a call), small enough
/// that hostile input cannot exhaust the stack.
constexpr int kMaxDepth = 64;
/// Output indices and Python tuple sizes past this are refused: `call()` returns a tuple as long
/// as the largest output index, and PyTuple_New(n) makes n items (a mutated
/// `output_handles[2^62]` had fxkit write 2^62 Nones).
constexpr uint64_t kMaxCount = uint64_t(1) << 20;

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) {
      lines.push_back(text.substr(pos));
      break;
    }
    lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return lines;
}

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos)
    return {};
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

bool isIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// A Python string literal.
std::string pyQuote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\\' || c == '\'') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string tupleText(const std::vector<std::string> &items) {
  std::string s = "(";
  for (size_t i = 0; i < items.size(); ++i)
    s += (i ? ", " : "") + items[i];
  return s + (items.size() == 1 ? ",)" : ")");
}

std::string listText(const std::vector<std::string> &items) {
  std::string s = "[";
  for (size_t i = 0; i < items.size(); ++i)
    s += (i ? ", " : "") + items[i];
  return s + "]";
}

/// `buf0_handle` -> `buf0`, `buf0_handle_restrided` -> `buf0`; other handle names stay.
std::string handleBase(const std::string &h) {
  if (h.ends_with("_handle"))
    return h.substr(0, h.size() - 7);
  if (size_t at = h.find("_handle_"); at != std::string::npos && at > 0)
    return h.substr(0, at);
  return h;
}

/// The suffix after a prefix such as `cached_torch_dtype_`, or "".
std::string after(std::string_view s, std::string_view prefix) {
  return s.starts_with(prefix) ? std::string(s.substr(prefix.size())) : std::string();
}

/// Devices of the C shim's per-device functions (`aoti_torch_cuda_mm_out`).
constexpr std::string_view kShimDevices[] = {"cuda", "cpu", "xpu", "mps", "mtia"};

/// Integer C++ types: a cast to one of these drops a fraction (int(x) in Python).
bool isIntType(std::string_view t) {
  static const std::set<std::string_view> ints = {
      "int64_t", "int32_t", "int16_t", "int8_t", "uint64_t", "uint32_t",  "uint16_t", "uint8_t",
      "int",     "long",    "size_t",  "short",  "unsigned", "long long", "bool"};
  return ints.count(t) > 0;
}
bool isFloatType(std::string_view t) {
  return t == "double" || t == "float" || t == "c10::Half" || t == "c10::BFloat16" ||
         t == "at::Half" || t == "at::BFloat16" || t == "half" || t == "bfloat16";
}

/// ATen ops of the C shim's fallbacks (torchgen/aoti/fallback_ops.py) that the op registry does
/// not declare: their schemas as native_functions.yaml writes them, to bind a shim call's
/// positional C arguments to the op's arguments.
constexpr std::string_view kExtraSchemas[] = {
    "_embedding_bag_forward_only(Tensor weight, Tensor indices, Tensor offsets, bool "
    "scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, "
    "bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)",
    "_scaled_dot_product_flash_attention(Tensor query, Tensor key, Tensor value, float "
    "dropout_p=0.0, bool is_causal=False, bool return_debug_mask=False, *, float? scale=None) "
    "-> (Tensor output, Tensor logsumexp, Tensor cum_seq_q, Tensor cum_seq_k, SymInt max_q, "
    "SymInt max_k, Tensor rng_state, Tensor unused, Tensor debug_attn_mask)",
    "_scaled_dot_product_flash_attention_backward(Tensor grad_out, Tensor query, Tensor key, "
    "Tensor value, Tensor out, Tensor logsumexp, Tensor cum_seq_q, Tensor cum_seq_k, SymInt "
    "max_q, SymInt max_k, float dropout_p, bool is_causal, Tensor philox_seed, Tensor "
    "philox_offset, *, float? scale=None) -> (Tensor grad_query, Tensor grad_key, Tensor "
    "grad_value)",
    "_scaled_dot_product_cudnn_attention(Tensor query, Tensor key, Tensor value, Tensor? "
    "attn_bias, bool compute_log_sumexp, float dropout_p=0.0, bool is_causal=False, bool "
    "return_debug_mask=False, *, float? scale=None) -> (Tensor output, Tensor logsumexp, Tensor "
    "cum_seq_q, Tensor cum_seq_k, SymInt max_q, SymInt max_k, Tensor philox_seed, Tensor "
    "philox_offset, Tensor debug_attn_mask)",
    "_scaled_dot_product_cudnn_attention_backward(Tensor grad_out, Tensor query, Tensor key, "
    "Tensor value, Tensor out, Tensor logsumexp, Tensor philox_seed, Tensor philox_offset, "
    "Tensor attn_bias, Tensor cum_seq_q, Tensor cum_seq_k, SymInt max_q, SymInt max_k, float "
    "dropout_p, bool is_causal, *, float? scale=None) -> (Tensor, Tensor, Tensor)",
    "repeat_interleave.Tensor(Tensor repeats, *, SymInt? output_size=None) -> Tensor",
    "randint.low_out(SymInt low, SymInt high, SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)",
    "randint.out(SymInt high, SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)",
    "_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool "
    "return_counts=False) -> (Tensor, Tensor, Tensor)",
    "searchsorted.Tensor(Tensor sorted_sequence, Tensor self, *, bool out_int32=False, bool "
    "right=False, str? side=None, Tensor? sorter=None) -> Tensor",
    "bucketize.Tensor(Tensor self, Tensor boundaries, *, bool out_int32=False, bool "
    "right=False) -> Tensor",
    "histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor",
    "_cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor",
    "masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor",
};

/// Op schemas by C shim name: `topk` (overload default), `index_Tensor` (index.Tensor),
/// `randint_low_out`; also by `name.overload` for aoti_torch_call_dispatcher.
struct SchemaTable {
  std::map<std::string, OpSchema, std::less<>> byShim;
  std::map<std::string, OpSchema, std::less<>> byName;

  static const SchemaTable &instance() {
    static const SchemaTable table;
    return table;
  }

private:
  SchemaTable() {
    auto add = [&](const OpSchema &s) {
      std::string ov = s.overload.empty() ? "default" : s.overload;
      byShim.try_emplace(s.overload.empty() ? s.name : s.name + "_" + s.overload, s);
      byName.try_emplace(s.name + "." + ov, s);
    };
    for (const OpInfo &op : OpRegistry::instance().ops())
      if (op.target.starts_with("torch.ops.aten."))
        add(op.schema);
    for (std::string_view text : kExtraSchemas)
      if (auto s = parseSchema(text))
        add(*s);
  }
};

/// A schema default as the Python wrapper would write it, to leave out defaulted arguments
/// (exporters/PyRepr.h spells every Argument, but importers cannot depend on exporters; schema
/// defaults are only None, bools, numbers, strings and lists of them).
std::string defaultText(const Argument &a) {
  switch (a.kind()) {
  case Argument::Kind::None:
    return "None";
  case Argument::Kind::Bool:
    return a.asBool() ? "True" : "False";
  case Argument::Kind::Int:
    return std::to_string(a.asInt());
  case Argument::Kind::Float: {
    std::ostringstream s;
    s << a.asFloat();
    return s.str();
  }
  case Argument::Kind::String:
    return pyQuote(a.asString());
  case Argument::Kind::List:
  case Argument::Kind::Tuple: {
    std::vector<std::string> items;
    for (const Argument &x : a.items())
      items.push_back(defaultText(x));
    return listText(items);
  }
  case Argument::Kind::NodeRef:
  case Argument::Kind::Dict:
  case Argument::Kind::DType:
  case Argument::Kind::Device:
  case Argument::Kind::Layout:
  case Argument::Kind::MemoryFormat:
  case Argument::Kind::Sym:
  case Argument::Kind::Opaque:
  case Argument::Kind::Slice:
    break;
  }
  return "<no default text>";
}

/// Whether a Python value's text equals a schema default.
bool equalsDefault(const std::string &value, const Argument &def) {
  if (def.kind() == Argument::Kind::Float) {
    char *end = nullptr;
    double v = std::strtod(value.c_str(), &end);
    return end && *end == '\0' && !value.empty() && v == def.asFloat();
  }
  if (def.kind() == Argument::Kind::Int && (value == "True" || value == "False"))
    return false;
  return value == defaultText(def);
}

/// A `call_<kernel>` launcher of the C++ source: the kernel arguments a launch passes (the
/// launcher's parameters before device_idx_, stream_), those it reads as scalars from 0-d
/// tensors (`aoti_torch_item_*`), and the launch configuration.
struct Launcher {
  std::vector<std::string> params;
  std::set<size_t> unwrap;
  std::vector<std::string> grid;
  int64_t numWarps = 0, sharedMemBytes = 0;
};

/// An `extern "C"` C++ kernel defined in the C++ source (CPU kernels of cpp_wrapper_cpu).
struct CppKernel {
  std::vector<std::string> types; ///< parameter types (`const float*`), as cpp_pybinding lists
  std::string source;             ///< the definition
  int line = 0;
};

/// What a C++ variable of the entry function stands for in the Python wrapper.
struct Var {
  enum class Kind : uint8_t {
    Scalar,       ///< an integer, float or bool
    Tensor,       ///< a tensor (RAIIAtenTensorHandle, auto of a tensor expression)
    Handle,       ///< an AtenTensorHandle a shim call fills
    IntArray,     ///< `int_array_N`: sizes or strides (py: the Python tuple)
    Stream,       ///< cudaStream_t
    Sizes,        ///< `auto x_size = x.sizes()` (py: the tensor)
    Strides,      ///< `auto x_stride = x.strides()`
    PyObject,     ///< Python object plumbing (custom_op_wrapper, a module)
    PyArgs,       ///< `RAIIPyObject py_args_N(PyTuple_New(n))`: items
    PyList,       ///< `PyObject* l = PyList_New(n)`: items
    DispatchVars, ///< `std::array<StableIValue, n> dispatch_vars{..}`: items
    Tma,          ///< a TMA descriptor: items are block_shape, global_shape, strides lists
  };
  Var() = default;
  explicit Var(Kind k, std::string p = {}, bool b = false, bool f = false)
      : kind(k), py(std::move(p)), bound(b), isFloat(f) {}

  Kind kind = Kind::Scalar;
  std::string py;       ///< the Python expression; a Python name when `bound`
  bool bound = false;   ///< py is a name an emitted Python statement bound
  bool isFloat = false; ///< Scalar: a float
  std::vector<std::string> items;
};

/// One line of the Python call() the C++ entry function becomes, with the C++ position it
/// came from.
struct PyLine {
  enum Kind { Simple, Header, Comment };
  Kind kind = Simple;
  int indent = 1;
  std::string code;
  std::string comment; ///< trailing `# ...`
  int line = 0, col = 0;
};

class CppReader {
public:
  CppReader(std::string_view text, const std::string &file) : text_(text), file_(file) {}

  /// The Python module; fills lineMap_ for the lines after the original ones.
  Expected<std::string> translate();
  Expected<InductorWrapper> read();

private:
  Error error(int line, int col, std::string message) const {
    return Error(std::move(message), SourceLoc{file_, line, col},
                 std::string(sourceLine(text_, line)));
  }
  Error error(const CExpr &e, std::string m) const { return error(e.line, e.col, std::move(m)); }
  Error error(const CStmt &s, std::string m) const { return error(s.line, s.col, std::move(m)); }
  /// A count or index (a Number) that sizes what fxkit builds: at most kMaxCount. `what` names
  /// it in the error ("output_handles[N]").
  Expected<size_t> boundedNumber(const CExpr &number, const std::string &what) const {
    errno = 0;
    uint64_t k = std::strtoull(number.text.c_str(), nullptr, 10);
    if (errno == ERANGE || k > kMaxCount)
      return error(number, what + ": " + number.text + " is past " + std::to_string(kMaxCount) +
                               " (no program has that many)");
    return static_cast<size_t>(k);
  }

  // --- the C++ source outside the entry function -------------------------------------------
  Status launchers(size_t begin, size_t end, int line);
  void cppKernels(size_t begin, size_t end, int line);

  // --- Python output ------------------------------------------------------------------------
  void emit(const CStmt &at, const std::string &code) { emit(at.line, at.col, code); }
  void emit(int line, int col, const std::string &code);
  void emitComment(int line, int col, const std::string &text);
  void trailing(const CStmt &s);
  void openBlock(int line, int col, const std::string &header, bool guard);
  void closeBlock(int line);

  // --- variables ------------------------------------------------------------------------------
  Var *find(const std::string &name) {
    auto it = vars_.find(name);
    return it == vars_.end() ? nullptr : &it->second;
  }
  void declare(const std::string &name, Var v);
  void pushScope() { scopes_.emplace_back(); }
  void popScope(int line);

  // --- statements -----------------------------------------------------------------------------
  Status statements(const std::vector<CStmt> &ss);
  Status statement(const std::vector<CStmt> &ss, size_t &i);
  Status declaration(const std::vector<CStmt> &ss, size_t &i);
  Status scalarDeclaration(const std::vector<CStmt> &ss, size_t i);
  Status expressionStatement(const std::vector<CStmt> &ss, size_t &i);
  Status assignment(const CStmt &s, const CExpr &e);
  Status ifStatement(const CStmt &s);
  /// `for (init; cond; step) body`: init, then `while cond:` with body and step.
  Status forStatement(const CStmt &s);
  Status call(const std::vector<CStmt> &ss, size_t i, const CExpr &c);
  Status shim(const std::vector<CStmt> &ss, size_t i, const CExpr &c);
  Status launch(const CStmt &s, const CExpr &c, const Launcher &l, const std::string &kernel);
  Status fallback(const std::vector<CStmt> &ss, size_t i, const CExpr &c, const std::string &fn,
                  const std::string &op, const OpSchema *schema);
  Status externOut(const CStmt &s, const CExpr &c, const std::string &op);
  Status dispatcher(const std::vector<CStmt> &ss, size_t i, const CExpr &c);
  Status pythonCall(const std::vector<CStmt> &ss, size_t i, const std::string &tuple,
                    const CExpr &call);
  Status outputsOf(const std::vector<CStmt> &ss, size_t i, const std::string &source,
                   std::vector<std::pair<std::string, std::optional<size_t>>> &outs);
  /// Emits `T = call` and the results' names (`b = T[k]`, or `b = T` for one result).
  void emitResults(const CStmt &at, const std::string &call, const std::string &tuple,
                   const std::vector<std::pair<std::string, std::optional<size_t>>> &outs,
                   bool isTuple);
  /// Binds the results a later statement assigns from a dispatcher's or Python call's result
  /// (`buf5 = to<AtenTensorHandle>(dispatch_vars[0])`); those nothing else reads stay unnamed.
  Status nameResults(const std::string &tuple, bool isTuple,
                     std::vector<std::pair<std::string, std::optional<size_t>>> &outs);
  /// Whether an unbacked size is read from one of `names` right after the current statement
  /// (`auto u1 = buf6.size(0);`): the Python wrapper keeps such a fallback's result.
  bool unbackedFollows(const std::vector<std::string> &names) const;
  std::string tupleName(const std::vector<std::string> &outNames, const std::string &fallback);

  // --- expressions ----------------------------------------------------------------------------
  Expected<std::string> py(const CExpr &e, int depth = 0);
  Expected<std::string> pyCall(const CExpr &e, int depth);
  Expected<std::string> pyObjectValue(const CExpr &e, int depth);
  Expected<std::string> castTo(const std::string &type, const CExpr &x, int depth);
  Expected<std::string> arrayArg(const CExpr &e);
  Expected<std::string> listArg(const CExpr &ptr, bool optional, ArgType type);
  Expected<std::string> optionalValue(const CExpr &e, ArgType type);
  Expected<std::string> scalarArg(const CExpr &e, ArgType type);
  bool isFloatExpr(const CExpr &e) const;
  bool isTensorExpr(const CExpr &e) const;
  /// `inputs[k]`, `input_handles[k]` (also inside std::move(..) or RAIIAtenTensorHandle(..)):
  /// the index expression; null otherwise.
  static const CExpr *inputIndex(const CExpr &e);
  /// Registers the C++ variable `name` as input k of the entry function.
  Status input(const CStmt &s, const CExpr &index, const std::string &name, bool scalar);
  /// `&name` (through casts): the name; "" otherwise.
  static std::string addressOf(const CExpr &e);
  /// Times `name` occurs in ss[from..] (nested statements too).
  static size_t references(const std::vector<CStmt> &ss, size_t from, const std::string &name);
  /// Times `name` occurs after the current statement, in its block and the enclosing ones.
  size_t laterReferences(const std::string &name) const;
  /// Whether `name.reset()` comes later in ss[from..] or in the enclosing statements.
  bool resetLater(const std::vector<CStmt> &ss, size_t from, const std::string &name) const;

  std::string_view text_;
  const std::string &file_;
  std::vector<std::string> out_; ///< the original module, line by line, C++ blanked
  std::map<std::string, Launcher> launchers_;
  std::map<std::string, CppKernel> cppKernels_;
  std::vector<PyLine> body_;
  int indent_ = 1;
  struct Open {
    int statements = 0;
    bool guard = false;
  };
  std::vector<Open> open_;
  std::map<std::string, Var> vars_;
  struct Scope {
    std::vector<std::pair<std::string, std::optional<Var>>> shadowed;
    int guards = 0; ///< with-blocks of device guards opened in this scope
  };
  std::vector<Scope> scopes_;
  /// Statement lists being translated with the index of the current statement, innermost
  /// last (for looking ahead past the current block).
  std::vector<std::pair<const std::vector<CStmt> *, size_t>> context_;
  std::map<size_t, std::string> inputs_;
  size_t inputCount_ = 0;
  int inputsLine_ = 0, inputsCol_ = 1;
  std::map<size_t, std::string> outputs_;
  int outputsLine_ = 0, outputsCol_ = 1;
  std::set<std::string> scalarInputs_;
  /// Result name -> the fallback result (tuple) deleted with it (see emitResults).
  std::map<std::string, std::string> deleteWith_;
  /// Python line (1-based, of the module) -> C++ line and column.
  std::map<int, std::pair<int, int>> lineMap_;
};

// === The C++ source around the entry function =================================================

Status CppReader::launchers(size_t begin, size_t end, int line) {
  // `static inline void call_<kernel>(params){`: the kernel's arguments, then the device
  // index, the stream and optional kernels/cubin directory.
  std::string_view src = text_.substr(begin, end - begin);
  size_t pos = 0;
  constexpr std::string_view kHead = "static inline void call_";
  // Line numbers counted on from the last offset asked for (offsets only grow), not from the
  // start each time: a file of thousands of launchers was O(n^2) (a 1 MB fuzzed one: 1.5 s).
  size_t countedTo = 0;
  int counted = 0;
  auto lineOf = [&](size_t offset) {
    if (offset < countedTo)
      countedTo = 0, counted = 0;
    counted += static_cast<int>(std::count(src.begin() + countedTo, src.begin() + offset, '\n'));
    countedTo = offset;
    return line + counted;
  };
  while ((pos = src.find(kHead, pos)) != std::string_view::npos) {
    size_t open = src.find('(', pos);
    size_t close = src.find("){", pos);
    int at = lineOf(pos);
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
      return error(at, 1, "malformed kernel launcher definition");
    std::string name(src.substr(pos + kHead.size(), open - pos - kHead.size()));
    Launcher l;
    std::string_view params = src.substr(open + 1, close - open - 1);
    int angle = 0;
    size_t start = 0;
    for (size_t k = 0; k <= params.size(); ++k) {
      char c = k < params.size() ? params[k] : ',';
      angle += c == '<' ? 1 : c == '>' ? -1 : 0;
      if (c != ',' || angle > 0)
        continue;
      std::string p = trim(params.substr(start, k - start));
      start = k + 1;
      if (size_t eq = p.find('='); eq != std::string::npos)
        p = trim(p.substr(0, eq));
      size_t b = p.size();
      while (b > 0 && isIdentChar(p[b - 1]))
        --b;
      std::string pname = p.substr(b);
      if (pname.empty() || pname == "device_idx_" || pname == "stream_" || pname == "cubin_dir_" ||
          pname == "kernels_")
        continue;
      l.params.push_back(pname);
    }
    // The body ends at its closing brace, or at the next launcher where a malformed one has
    // none (so no launcher's searches run over all the others).
    size_t bodyEnd = std::min(src.find("\n}", close), src.find(kHead, close));
    std::string_view body = src.substr(
        close, bodyEnd == std::string_view::npos ? std::string_view::npos : bodyEnd - close);
    int bodyLine = lineOf(close);
    for (int d = 0; d < 3; ++d) {
      std::string head = "uint32_t grid_" + std::to_string(d) + " = ";
      size_t g = body.find(head);
      size_t semi = g == std::string_view::npos ? g : body.find(';', g);
      if (semi == std::string_view::npos)
        return error(bodyLine, 1, "launcher 'call_" + name + "' computes no " + head.substr(9, 6));
      l.grid.push_back(trim(body.substr(g + head.size(), semi - g - head.size())));
    }
    // `aoti_torch_item_float64(in_ptr1, &var_2)`: a 0-d tensor the launch reads as a scalar
    // (the Python wrapper passes `in_ptr1.item()`).
    for (size_t it = body.find("aoti_torch_item_"); it != std::string_view::npos;
         it = body.find("aoti_torch_item_", it + 1)) {
      size_t paren = body.find('(', it), comma = body.find(',', it);
      if (paren == std::string_view::npos || comma == std::string_view::npos || comma < paren)
        continue;
      std::string arg = trim(body.substr(paren + 1, comma - paren - 1));
      for (size_t k = 0; k < l.params.size(); ++k)
        if (l.params[k] == arg)
          l.unwrap.insert(k);
    }
    std::string launchHead = "launchKernel(" + name + ", grid_0, grid_1, grid_2, ";
    size_t lk = body.find(launchHead);
    if (lk == std::string_view::npos)
      return error(bodyLine, 1, "launcher 'call_" + name + "' has no '" + launchHead + "...'");
    std::istringstream nums(std::string(body.substr(lk + launchHead.size(), 40)));
    char comma = 0;
    if (!(nums >> l.numWarps >> comma >> l.sharedMemBytes) || comma != ',')
      return error(bodyLine, 1,
                   "launcher 'call_" + name +
                       "': expected warps and shared memory after the grid in launchKernel");
    launchers_[name] = std::move(l);
    pos = close;
  }
  return Status::ok();
}

void CppReader::cppKernels(size_t begin, size_t end, int line) {
  // `extern "C"  void  cpp_fused_x(const float* in_ptr0, ...)` followed by its body (a
  // declaration ends with ';').
  std::string_view src = text_.substr(begin, end - begin);
  constexpr std::string_view kExtern = "extern \"C\"";
  for (size_t pos = src.find(kExtern); pos != std::string_view::npos;
       pos = src.find(kExtern, pos + 1)) {
    size_t open = src.find('(', pos), close = src.find(')', pos);
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
      continue;
    size_t n = open;
    while (n > pos && std::isspace(static_cast<unsigned char>(src[n - 1])))
      --n;
    size_t b = n;
    while (b > pos && isIdentChar(src[b - 1]))
      --b;
    std::string name(src.substr(b, n - b));
    size_t next = src.find_first_not_of(" \t\r\n", close + 1);
    if (name.empty() || next == std::string_view::npos || src[next] != '{')
      continue;
    // The body: braces counted (kernels have no braces inside strings or comments that matter).
    int depth = 0;
    size_t stop = next;
    for (; stop < src.size(); ++stop) {
      depth += src[stop] == '{' ? 1 : src[stop] == '}' ? -1 : 0;
      if (depth == 0)
        break;
    }
    if (stop == src.size())
      continue;
    CppKernel k;
    k.source = std::string(src.substr(pos, stop + 1 - pos));
    k.line = line + static_cast<int>(std::count(src.begin(), src.begin() + pos, '\n'));
    std::string_view params = src.substr(open + 1, close - open - 1);
    while (!trim(params).empty()) {
      size_t comma = params.find(',');
      std::string p = trim(params.substr(0, comma));
      size_t e = p.size();
      while (e > 0 && isIdentChar(p[e - 1]))
        --e;
      std::string type;
      for (char ch : p.substr(0, e)) // one space between words, as cpp_pybinding lists types
        if (!std::isspace(static_cast<unsigned char>(ch)))
          type += ch;
        else if (!type.empty() && type.back() != ' ')
          type += ' ';
      k.types.push_back(trim(type));
      if (comma == std::string_view::npos)
        break;
      params.remove_prefix(comma + 1);
    }
    cppKernels_.try_emplace(name, std::move(k));
  }
}

// === Python output ============================================================================

void CppReader::emit(int line, int col, const std::string &code) {
  if (!open_.empty())
    ++open_.back().statements;
  if (!body_.empty()) {
    PyLine &b = body_.back();
    if (b.kind == PyLine::Simple && b.line == line && b.indent == indent_ && b.comment.empty()) {
      b.code += "; " + code;
      return;
    }
  }
  body_.push_back({PyLine::Simple, indent_, code, "", line, col});
}

void CppReader::emitComment(int line, int col, const std::string &text) {
  body_.push_back({PyLine::Comment, indent_, "# " + trim(text), "", line, col});
}

void CppReader::trailing(const CStmt &s) {
  if (s.comment.empty() || body_.empty())
    return;
  PyLine &b = body_.back();
  if (b.kind == PyLine::Simple && b.line == s.endLine && b.comment.empty())
    b.comment = trim(s.comment);
}

void CppReader::openBlock(int line, int col, const std::string &header, bool guard) {
  if (!open_.empty())
    ++open_.back().statements;
  body_.push_back({PyLine::Header, indent_, header, "", line, col});
  ++indent_;
  open_.push_back({0, guard});
}

void CppReader::closeBlock(int line) {
  if (open_.back().statements == 0)
    body_.push_back({PyLine::Simple, indent_, "pass", "", line, 1});
  --indent_;
  open_.pop_back();
}

void CppReader::declare(const std::string &name, Var v) {
  if (!scopes_.empty()) {
    auto it = vars_.find(name);
    scopes_.back().shadowed.push_back(
        {name, it == vars_.end() ? std::nullopt : std::optional<Var>(it->second)});
  }
  vars_[name] = std::move(v);
}

void CppReader::popScope(int line) {
  Scope &s = scopes_.back();
  for (; s.guards > 0; --s.guards)
    closeBlock(line);
  for (auto it = s.shadowed.rbegin(); it != s.shadowed.rend(); ++it) {
    if (it->second)
      vars_[it->first] = *it->second;
    else
      vars_.erase(it->first);
  }
  scopes_.pop_back();
}

// === Expressions ==============================================================================

const CExpr *CppReader::inputIndex(const CExpr &e) {
  if (e.kind == CExpr::Call && e.kids.size() == 2 && e.kids[0].kind == CExpr::Name &&
      (e.kids[0].text == "std::move" || e.kids[0].text == "RAIIAtenTensorHandle"))
    return inputIndex(e.kids[1]);
  if (e.kind == CExpr::Index && e.kids[0].kind == CExpr::Name &&
      (e.kids[0].text == "inputs" || e.kids[0].text == "input_handles"))
    return &e.kids[1];
  return nullptr;
}

Status CppReader::input(const CStmt &s, const CExpr &index, const std::string &name, bool scalar) {
  if (index.kind != CExpr::Number)
    return error(index, "expected inputs[<integer>]");
  size_t k = std::strtoull(index.text.c_str(), nullptr, 10);
  if (inputs_.count(k))
    return error(index, "input " + index.text + " is taken twice");
  if (inputs_.empty()) {
    inputsLine_ = s.line;
    inputsCol_ = s.col;
  }
  inputs_[k] = name;
  if (scalar)
    scalarInputs_.insert(name);
  return Status::ok();
}

std::string CppReader::addressOf(const CExpr &e) {
  const CExpr *x = &e;
  while (x->kind == CExpr::Cast)
    x = &x->kids[0];
  if (x->kind == CExpr::Unary && x->text == "&" && x->kids[0].kind == CExpr::Name)
    return x->kids[0].text;
  return {};
}

size_t CppReader::references(const std::vector<CStmt> &ss, size_t from, const std::string &name) {
  size_t n = 0;
  std::function<void(const CExpr &)> expr = [&](const CExpr &e) {
    if (e.kind == CExpr::Name && e.text == name)
      ++n;
    for (const CExpr &k : e.kids)
      expr(k);
  };
  std::function<void(const std::vector<CStmt> &, size_t)> stmts = [&](const std::vector<CStmt> &v,
                                                                      size_t start) {
    for (size_t k = start; k < v.size(); ++k) {
      for (const CExpr &e : v[k].exprs)
        expr(e);
      stmts(v[k].body, 0);
      stmts(v[k].orelse, 0);
    }
  };
  stmts(ss, from);
  return n;
}

size_t CppReader::laterReferences(const std::string &name) const {
  size_t n = 0;
  for (const auto &c : context_)
    n += references(*c.first, c.second + 1, name);
  return n;
}

bool CppReader::resetLater(const std::vector<CStmt> &ss, size_t from,
                           const std::string &name) const {
  auto isReset = [&](const CStmt &s) {
    if (s.kind != CStmt::Expr || s.exprs[0].kind != CExpr::Call)
      return false;
    const CExpr &callee = s.exprs[0].kids[0];
    return callee.kind == CExpr::Member && callee.text == "reset" &&
           callee.kids[0].kind == CExpr::Name && callee.kids[0].text == name;
  };
  for (size_t k = from; k < ss.size(); ++k)
    if (isReset(ss[k]))
      return true;
  for (size_t c = context_.size(); c-- > 0;) {
    const auto &[list, at] = context_[c];
    if (list == &ss)
      continue;
    for (size_t k = at + 1; k < list->size(); ++k)
      if (isReset((*list)[k]))
        return true;
  }
  return false;
}

bool CppReader::isFloatExpr(const CExpr &e) const {
  switch (e.kind) {
  case CExpr::Number:
    return e.isFloat;
  case CExpr::Name: {
    auto it = vars_.find(e.text);
    return it != vars_.end() && it->second.kind == Var::Kind::Scalar && it->second.isFloat;
  }
  case CExpr::Unary:
    return isFloatExpr(e.kids[0]);
  case CExpr::Binary:
    if (e.text == "+" || e.text == "-" || e.text == "*" || e.text == "/")
      return isFloatExpr(e.kids[0]) || isFloatExpr(e.kids[1]);
    return false;
  case CExpr::Ternary:
    return isFloatExpr(e.kids[1]) || isFloatExpr(e.kids[2]);
  case CExpr::Cast:
    return isFloatType(e.text);
  case CExpr::Call: {
    const CExpr &f = e.kids[0];
    if (f.kind == CExpr::Template)
      return (f.text == "static_cast" || f.text == "c10::convert") && !f.targs.empty() &&
             isFloatType(f.targs[0]);
    if (f.kind == CExpr::Name) {
      if (f.text == "float" || f.text == "double")
        return true;
      static const std::set<std::string_view> real = {
          "std::sqrt",  "std::exp",  "std::log", "std::sin",   "std::cos",
          "std::tan",   "std::tanh", "std::pow", "std::floor", "std::ceil",
          "std::trunc", "std::fabs", "std::log2"};
      if (real.count(f.text))
        return true;
      if (f.text.starts_with("std::numeric_limits<"))
        return f.text.find("<double>") != std::string::npos ||
               f.text.find("<float>") != std::string::npos;
    }
    return false;
  }
  default:
    return false;
  }
}

bool CppReader::isTensorExpr(const CExpr &e) const {
  switch (e.kind) {
  case CExpr::Name: {
    auto it = vars_.find(e.text);
    return it != vars_.end() &&
           (it->second.kind == Var::Kind::Tensor || it->second.kind == Var::Kind::Handle);
  }
  case CExpr::Call: {
    const CExpr &f = e.kids[0];
    if (f.kind == CExpr::Name) {
      static const std::set<std::string_view> wrappers = {
          "wrap_with_raii_handle_if_needed", "RAIIAtenTensorHandle",
          "reinterpret_tensor_wrapper",      "borrow_arrayref_tensor_as_tensor",
          "copy_arrayref_tensor_to_tensor",  "temporary_reference"};
      if (wrappers.count(f.text))
        return true;
      if (f.text == "std::move" && e.kids.size() == 2)
        return isTensorExpr(e.kids[1]);
    }
    if (f.kind == CExpr::Member && (f.text == "get" || f.text == "release"))
      return isTensorExpr(f.kids[0]);
    return false;
  }
  case CExpr::Cast:
    return isTensorExpr(e.kids[0]);
  default:
    return false;
  }
}

Expected<std::string> CppReader::castTo(const std::string &type, const CExpr &x, int depth) {
  auto s = py(x, depth + 1);
  if (!s)
    return s;
  std::string t = type;
  if (t.starts_with("const "))
    t = t.substr(6);
  if (isIntType(t) && isFloatExpr(x)) {
    // std::floor & co. already give integers in Python.
    if (x.kind == CExpr::Call && x.kids[0].kind == CExpr::Name &&
        (x.kids[0].text == "std::floor" || x.kids[0].text == "std::ceil" ||
         x.kids[0].text == "std::trunc" || x.kids[0].text == "std::nearbyint"))
      return s;
    return "int(" + *s + ")";
  }
  if (isFloatType(t) && !isFloatExpr(x))
    return "float(" + *s + ")";
  return s;
}

Expected<std::string> CppReader::arrayArg(const CExpr &e) {
  // int_array_N, or std::array<int64_t, n>{..}.cbegin() / .data()
  if (e.kind == CExpr::Name) {
    Var *v = find(e.text);
    if (!v || v->kind != Var::Kind::IntArray)
      return error(e, "expected an int_array name or std::array<..>{..}.cbegin()");
    return v->py;
  }
  if (e.kind == CExpr::Call && e.kids.size() == 1 && e.kids[0].kind == CExpr::Member &&
      (e.kids[0].text == "cbegin" || e.kids[0].text == "data") &&
      e.kids[0].kids[0].kind == CExpr::Braces) {
    std::vector<std::string> items;
    for (const CExpr &x : e.kids[0].kids[0].kids) {
      auto s = py(x, 1);
      if (!s)
        return s;
      items.push_back(s.take());
    }
    return tupleText(items);
  }
  return error(e, "expected an int_array name or std::array<..>{..}.cbegin()");
}

Expected<std::string> CppReader::pyObjectValue(const CExpr &e, int depth) {
  // Python objects a custom-op fallback builds its arguments from.
  if (e.kind == CExpr::Name) {
    if (e.text == "Py_None")
      return std::string("None");
    Var *v = find(e.text);
    if (v && v->kind == Var::Kind::PyList)
      return listText(v->items);
    return error(e, "unsupported Python object '" + e.text + "'");
  }
  if (e.kind == CExpr::Call && e.kids[0].kind == CExpr::Name) {
    const std::string &f = e.kids[0].text;
    auto arg = [&](size_t k) { return py(e.kids[k], depth + 1); };
    if ((f == "PyLong_FromLongLong" || f == "PyFloat_FromDouble" || f == "PyBool_FromLong" ||
         f == "PyUnicode_FromString") &&
        e.kids.size() == 2) {
      auto s = arg(1);
      if (!s)
        return s;
      if (f == "PyBool_FromLong")
        return std::string(*s == "0" || *s == "False" ? "False" : "True");
      if (f == "PyUnicode_FromString" && e.kids[1].kind != CExpr::String)
        return error(e, "expected a string literal");
      if (f == "PyFloat_FromDouble" && !isFloatExpr(e.kids[1]))
        return "float(" + *s + ")";
      return s;
    }
    if (f == "PyComplex_FromDoubles" && e.kids.size() == 3) {
      auto re = arg(1), im = arg(2);
      if (!re)
        return re;
      if (!im)
        return im;
      return "complex(" + *re + ", " + *im + ")";
    }
    if (f == "PyCapsule_New" && e.kids.size() == 4)
      return py(e.kids[1], depth + 1);
    if (f == "Py_NewRef" && e.kids.size() == 2)
      return pyObjectValue(e.kids[1], depth + 1);
    if ((f == "torch::getTHPDtype" || f == "torch::getTHPLayout" ||
         f == "torch::utils::getTHPMemoryFormat") &&
        e.kids.size() == 2)
      return py(e.kids[1], depth + 1);
    if (f == "THPDevice_New" && e.kids.size() == 2 && e.kids[1].kind == CExpr::Call &&
        e.kids[1].kids.size() == 3) {
      auto type = py(e.kids[1].kids[1], depth + 1);
      if (!type)
        return type;
      auto index = py(e.kids[1].kids[2], depth + 1);
      if (!index)
        return index;
      return "device(type=" + *type + ", index=" + *index + ")";
    }
  }
  return error(e, "unsupported Python object argument");
}

Expected<std::string> CppReader::pyCall(const CExpr &e, int depth) {
  const CExpr &f = e.kids[0];
  size_t nargs = e.kids.size() - 1;
  auto arg = [&](size_t k) { return py(e.kids[k + 1], depth + 1); };
  if (f.kind == CExpr::Template) {
    if ((f.text == "static_cast" || f.text == "reinterpret_cast" || f.text == "const_cast" ||
         f.text == "c10::convert") &&
        nargs == 1 && !f.targs.empty())
      return castTo(f.targs[0], e.kids[1], depth);
    std::string_view last = f.text;
    if (size_t q = last.rfind("::"); q != std::string_view::npos)
      last = last.substr(q + 2);
    if (last == "to" && nargs == 1) // torch::stable::detail::to<T>(v)
      return arg(0);
    if (f.text == "std::get" && nargs == 1 && !f.targs.empty()) {
      auto x = arg(0);
      if (!x)
        return x;
      return *x + "[" + f.targs[0] + "]";
    }
    return error(e, "unsupported template call '" + f.text + "'");
  }
  if (f.kind == CExpr::Member) {
    const std::string &m = f.text;
    const CExpr &obj = f.kids[0];
    if ((m == "get" || m == "release" || m == "data_ptr") && nargs == 0)
      return py(obj, depth + 1);
    if ((m == "cbegin" || m == "data" || m == "begin") && nargs == 0 && obj.kind == CExpr::Braces) {
      std::vector<std::string> items;
      for (const CExpr &x : obj.kids) {
        auto s = py(x, depth + 1);
        if (!s)
          return s;
        items.push_back(s.take());
      }
      return listText(items);
    }
    if ((m == "size" || m == "stride") && nargs == 1) {
      auto x = py(obj, depth + 1);
      if (!x)
        return x;
      auto d = arg(0);
      if (!d)
        return d;
      return *x + "." + m + "(" + *d + ")";
    }
    if ((m == "numel" || m == "storage_offset" || m == "dim") && nargs == 0) {
      auto x = py(obj, depth + 1);
      if (!x)
        return x;
      return *x + "." + m + "()";
    }
    return error(e, "unsupported method call '." + m + "()'");
  }
  if (f.kind != CExpr::Name)
    return error(e, "unsupported call in an expression");
  const std::string &n = f.text;
  static const std::set<std::string_view> passThrough = {"std::move",
                                                         "wrap_with_raii_handle_if_needed",
                                                         "RAIIAtenTensorHandle",
                                                         "temporary_reference",
                                                         "borrow_arrayref_tensor_as_tensor",
                                                         "copy_arrayref_tensor_to_tensor",
                                                         "scalar_to_tensor_handle",
                                                         "torch::stable::detail::from",
                                                         "from"};
  if (passThrough.count(n) && nargs == 1) {
    if (e.kids[1].kind == CExpr::Name && e.kids[1].text == "std::nullopt")
      return std::string("None");
    return arg(0);
  }
  if (n == "reinterpret_tensor_wrapper" && nargs == 5) {
    auto x = arg(0);
    if (!x)
      return x;
    auto sz = arrayArg(e.kids[3]);
    if (!sz)
      return sz;
    auto st = arrayArg(e.kids[4]);
    if (!st)
      return st;
    auto off = arg(4);
    if (!off)
      return off;
    return "reinterpret_tensor(" + *x + ", " + *sz + ", " + *st + ", " + *off + ")";
  }
  // An operand that is itself an operation, parenthesized for a Python operator.
  auto operand = [&](size_t k) -> Expected<std::string> {
    auto s = arg(k);
    if (!s)
      return s;
    const CExpr *px = &e.kids[k + 1];
    // Through casts that print nothing: static_cast<int64_t>(7L + s0) is `7 + s0`.
    while ((px->kind == CExpr::Cast) ||
           (px->kind == CExpr::Call && px->kids.size() == 2 &&
            px->kids[0].kind == CExpr::Template && px->kids[0].text == "static_cast"))
      px = px->kind == CExpr::Cast ? &px->kids[0] : &px->kids[1];
    const CExpr &x = *px;
    bool compound = x.kind == CExpr::Binary || x.kind == CExpr::Ternary ||
                    (x.kind == CExpr::Unary && x.text != "&") ||
                    (x.kind == CExpr::Number && x.text.starts_with("-"));
    return compound ? "(" + *s + ")" : *s;
  };
  if (n == "c10::div_floor_integer" && nargs == 2) {
    auto a = operand(0), b = operand(1);
    if (!a)
      return a;
    if (!b)
      return b;
    return "(" + *a + " // " + *b + ")";
  }
  if ((n == "std::min" || n == "std::max") && nargs >= 1) {
    std::vector<std::string> items;
    const std::vector<CExpr> &xs = nargs == 1 && e.kids[1].kind == CExpr::Braces
                                       ? e.kids[1].kids
                                       : std::vector<CExpr>(e.kids.begin() + 1, e.kids.end());
    for (const CExpr &x : xs) {
      auto s = py(x, depth + 1);
      if (!s)
        return s;
      items.push_back(s.take());
    }
    std::string out = n == "std::min" ? "min(" : "max(";
    for (size_t k = 0; k < items.size(); ++k)
      out += (k ? ", " : "") + items[k];
    return out + ")";
  }
  static const std::map<std::string_view, std::string_view> math = {
      {"std::floor", "math.floor"}, {"std::ceil", "math.ceil"},  {"std::trunc", "math.trunc"},
      {"std::sqrt", "math.sqrt"},   {"std::exp", "math.exp"},    {"std::log", "math.log"},
      {"std::log2", "math.log2"},   {"std::sin", "math.sin"},    {"std::cos", "math.cos"},
      {"std::tan", "math.tan"},     {"std::tanh", "math.tanh"},  {"std::abs", "abs"},
      {"std::fabs", "abs"},         {"std::nearbyint", "round"}, {"std::to_string", "str"},
      {"std::round", "round"},      {"std::asin", "math.asin"},  {"std::acos", "math.acos"},
      {"std::atan", "math.atan"},   {"std::sinh", "math.sinh"},  {"std::cosh", "math.cosh"}};
  if (auto it = math.find(n); it != math.end()) {
    std::string out = std::string(it->second) + "(";
    for (size_t k = 0; k < nargs; ++k) {
      auto s = arg(k);
      if (!s)
        return s;
      out += (k ? ", " : "") + *s;
    }
    return out + ")";
  }
  if (n == "std::pow" && nargs == 2) {
    auto a = operand(0), b = operand(1);
    if (!a)
      return a;
    if (!b)
      return b;
    return "(" + *a + " ** " + *b + ")";
  }
  if (n.starts_with("std::numeric_limits<") && nargs == 0) {
    bool real = n.find("<double>") != std::string::npos || n.find("<float>") != std::string::npos;
    if (n.ends_with("::infinity"))
      return std::string("math.inf");
    if (n.ends_with("::quiet_NaN"))
      return std::string("math.nan");
    if (n.find("<int64_t>") != std::string::npos && n.ends_with("::max"))
      return std::string("9223372036854775807");
    if (n.find("<int64_t>") != std::string::npos &&
        (n.ends_with("::min") || n.ends_with("::lowest")))
      return std::string("-9223372036854775808");
    if (real && n.ends_with("::max"))
      return std::string("1.7976931348623157e+308");
    if (real && n.ends_with("::lowest"))
      return std::string("-1.7976931348623157e+308");
    return error(e, "unsupported '" + n + "()'");
  }
  if ((isIntType(n) || isFloatType(n)) && nargs == 1) // float(x), int64_t(x)
    return castTo(n, e.kids[1], depth);
  return error(e, "unsupported call '" + n + "' in an expression");
}

Expected<std::string> CppReader::py(const CExpr &e, int depth) {
  if (depth > kMaxDepth)
    return error(e, "C++ expression nested too deeply");
  switch (e.kind) {
  case CExpr::Number:
    return e.text;
  case CExpr::String:
    return pyQuote(e.text);
  case CExpr::Char:
    return error(e, "unsupported character literal");
  case CExpr::Name: {
    const std::string &n = e.text;
    if (n == "nullptr" || n == "NULL" || n == "std::nullopt")
      return std::string("None");
    if (n == "true" || n == "false")
      return std::string(n == "true" ? "True" : "False");
    if (Var *v = find(n)) {
      switch (v->kind) {
      case Var::Kind::Scalar:
      case Var::Kind::Tensor:
      case Var::Kind::Handle:
      case Var::Kind::Stream:
      case Var::Kind::IntArray:
        if (v->py.empty())
          return error(e, "'" + n + "' is used before it is set");
        return v->py;
      case Var::Kind::Sizes:
      case Var::Kind::Strides:
        return error(e, "'" + n + "' can only be indexed");
      case Var::Kind::PyObject:
      case Var::Kind::PyArgs:
      case Var::Kind::PyList:
      case Var::Kind::DispatchVars:
      case Var::Kind::Tma:
        return error(e, "'" + n + "' is not a value of the program");
      }
    }
    for (std::string_view p :
         {"cached_torch_dtype_", "cached_torch_layout_", "cached_torch_memory_format_"})
      if (std::string rest = after(n, p); !rest.empty())
        return "torch." + rest;
    if (std::string dev = after(n, "cached_torch_device_type_"); !dev.empty())
      return pyQuote(dev);
    if (n.find("::") != std::string::npos)
      return error(e, "unsupported name '" + n + "'");
    return n;
  }
  case CExpr::Unary: {
    const CExpr &x = e.kids[0];
    if (e.text == "&") {
      // `&var_0` (an optional scalar), `&temporary_reference(x.get())` (an optional tensor).
      return py(x, depth + 1);
    }
    if (e.text == "*")
      return error(e, "unsupported dereference");
    if (e.text == "++" || e.text == "--")
      return error(e, "unsupported '" + e.text + "' inside an expression");
    auto s = py(x, depth + 1);
    if (!s)
      return s;
    bool compound = x.kind == CExpr::Binary || x.kind == CExpr::Ternary;
    if (e.text == "!")
      return "not " + (compound ? "(" + *s + ")" : *s);
    return e.text + (compound ? "(" + *s + ")" : *s);
  }
  case CExpr::Binary: {
    if (e.text == "=" || e.text == "+=" || e.text == "-=" || e.text == "*=" || e.text == "/=")
      return error(e, "assignment inside an expression");
    static const std::map<std::string_view, int> prec = {
        {"||", 1}, {"&&", 2}, {"|", 3},  {"^", 4}, {"&", 5}, {"==", 6}, {"!=", 6}, {"<", 7},
        {"<=", 7}, {">", 7},  {">=", 7}, {"+", 9}, {"-", 9}, {"*", 10}, {"/", 10}, {"%", 10}};
    auto arithmetic = [](int p) { return p >= 9; };
    int mine = prec.at(e.text);
    auto side = [&](const CExpr &k, bool right) -> Expected<std::string> {
      auto s = py(k, depth + 1);
      if (!s)
        return s;
      bool paren = false;
      if (k.kind == CExpr::Ternary) {
        paren = true;
      } else if (k.kind == CExpr::Binary) {
        int theirs = prec.at(k.text);
        paren =
            !(arithmetic(mine) && arithmetic(theirs)) || theirs < mine || (right && theirs == mine);
        // a + b + c, a * b * c: Python groups them the same way.
        if (!right && theirs == mine && arithmetic(mine))
          paren = false;
      }
      return paren ? "(" + *s + ")" : *s;
    };
    auto a = side(e.kids[0], false);
    if (!a)
      return a;
    auto b = side(e.kids[1], true);
    if (!b)
      return b;
    std::string op = e.text;
    if (op == "&&")
      op = "and";
    else if (op == "||")
      op = "or";
    else if (op == "/" && !isFloatExpr(e.kids[0]) && !isFloatExpr(e.kids[1]))
      op = "//";
    bool tight = op == "*" || op == "/" || op == "//" || op == "%";
    return *a + (tight ? op : " " + op + " ") + *b;
  }
  case CExpr::Ternary: {
    auto c = py(e.kids[0], depth + 1), a = py(e.kids[1], depth + 1), b = py(e.kids[2], depth + 1);
    if (!c)
      return c;
    if (!a)
      return a;
    if (!b)
      return b;
    return "(" + *a + " if " + *c + " else " + *b + ")";
  }
  case CExpr::Cast:
    return castTo(e.text, e.kids[0], depth);
  case CExpr::Call:
    return pyCall(e, depth);
  case CExpr::Braces: {
    std::vector<std::string> items;
    for (const CExpr &x : e.kids) {
      auto s = py(x, depth + 1);
      if (!s)
        return s;
      items.push_back(s.take());
    }
    if (e.text == "c10::complex" && items.size() == 2)
      return "complex(" + items[0] + ", " + items[1] + ")";
    return listText(items);
  }
  case CExpr::Index: {
    const CExpr &base = e.kids[0];
    if (base.kind == CExpr::Name)
      if (Var *v = find(base.text);
          v && (v->kind == Var::Kind::Sizes || v->kind == Var::Kind::Strides)) {
        auto d = py(e.kids[1], depth + 1);
        if (!d)
          return d;
        return v->py + (v->kind == Var::Kind::Sizes ? ".size(" : ".stride(") + *d + ")";
      }
    auto b = py(base, depth + 1);
    if (!b)
      return b;
    auto d = py(e.kids[1], depth + 1);
    if (!d)
      return d;
    return *b + "[" + *d + "]";
  }
  case CExpr::Member:
    return error(e, "unsupported member '" + e.text + "'");
  case CExpr::Template:
    return error(e, "unsupported template name '" + e.text + "'");
  }
  return error(e, "unsupported C++ expression");
}

// === Statements ===============================================================================

Status CppReader::statements(const std::vector<CStmt> &ss) {
  context_.push_back({&ss, 0});
  for (size_t i = 0; i < ss.size(); ++i) {
    context_.back().second = i;
    if (Status st = statement(ss, i); !st) {
      context_.pop_back();
      return st;
    }
  }
  context_.pop_back();
  return Status::ok();
}

Status CppReader::statement(const std::vector<CStmt> &ss, size_t &i) {
  const CStmt &s = ss[i];
  switch (s.kind) {
  case CStmt::Comment:
    emitComment(s.line, s.col, s.comment);
    return Status::ok();
  case CStmt::Empty:
    return Status::ok();
  case CStmt::Decl: {
    Status st = declaration(ss, i);
    trailing(ss[i]);
    return st;
  }
  case CStmt::Expr: {
    Status st = expressionStatement(ss, i);
    trailing(ss[i]);
    return st;
  }
  case CStmt::Block: {
    pushScope();
    Status st = statements(s.body);
    if (st)
      popScope(s.endLine);
    return st;
  }
  case CStmt::If:
    return ifStatement(s);
  case CStmt::While: {
    const CExpr &c = s.exprs[0];
    std::string header;
    if ((c.kind == CExpr::Number && c.text != "0") || (c.kind == CExpr::Name && c.text == "true")) {
      header = "while True:";
    } else {
      FXKIT_ASSIGN_OR_RETURN(auto cond, py(c));
      header = "while " + cond + ":";
    }
    openBlock(s.line, s.col, header, false);
    pushScope();
    FXKIT_TRY(statements(s.body));
    popScope(s.endLine);
    closeBlock(s.endLine);
    return Status::ok();
  }
  case CStmt::For:
    return forStatement(s);
  case CStmt::Break:
  case CStmt::Continue:
    emit(s, s.kind == CStmt::Break ? "break" : "continue");
    return Status::ok();
  case CStmt::Return:
    return error(s, "unsupported 'return' in inductor_entry_impl");
  case CStmt::Throw: {
    // throw std::runtime_error("message" [+ std::to_string(x)])
    const CExpr &t = s.exprs[0];
    if (t.kind != CExpr::Call || t.kids.size() != 2 || t.kids[0].kind != CExpr::Name ||
        t.kids[0].text.find("error") == std::string::npos)
      return error(s, "expected 'throw std::runtime_error(message)'");
    const CExpr &m = t.kids[1];
    std::string message;
    if (m.kind == CExpr::Binary && m.text == "+" && m.kids[0].kind == CExpr::String &&
        m.kids[1].kind == CExpr::Call && m.kids[1].kids[0].kind == CExpr::Name &&
        m.kids[1].kids[0].text == "std::to_string") {
      // AssertScalar: "Expected <condition> but received " + std::to_string(u0); the Python
      // wrapper raises RuntimeError('<condition>').
      std::string lit = m.kids[0].text;
      if (lit.starts_with("Expected ") && lit.ends_with(" but received ")) {
        message = pyQuote(lit.substr(9, lit.size() - 9 - 14));
      } else {
        FXKIT_ASSIGN_OR_RETURN(auto v, py(m));
        message = v;
      }
    } else {
      FXKIT_ASSIGN_OR_RETURN(auto v, py(m));
      message = v;
    }
    emit(s, "raise RuntimeError(" + message + ")");
    return Status::ok();
  }
  }
  return error(s, "unsupported statement");
}

Status CppReader::forStatement(const CStmt &s) {
  pushScope();
  if (Status st = statements(s.orelse); !st) // the init statement
    return st;
  const CExpr &c = s.exprs[0];
  std::string header = "while True:";
  if (!(c.kind == CExpr::Number && c.text == "1")) {
    FXKIT_ASSIGN_OR_RETURN(auto cond, py(c));
    header = "while " + cond + ":";
  }
  openBlock(s.line, s.col, header, false);
  pushScope();
  std::vector<CStmt> body = s.body;
  CStmt step;
  step.kind = CStmt::Expr;
  step.line = step.endLine = s.line;
  step.col = s.col;
  const CExpr &e = s.exprs[1];
  step.exprs.push_back(e);
  if (!(e.kind == CExpr::Name && e.text.empty()))
    body.push_back(step);
  FXKIT_TRY(statements(body));
  popScope(s.endLine);
  closeBlock(s.endLine);
  popScope(s.endLine);
  return Status::ok();
}

Status CppReader::ifStatement(const CStmt &s) {
  const CExpr &c = s.exprs[0];
  // Python object plumbing: `if (!py_args_0) { throw ...; }`, `if (PyErr_Occurred()) {..}`.
  bool plumbing = false;
  std::function<void(const CExpr &)> scan = [&](const CExpr &e) {
    if (e.kind == CExpr::Name) {
      Var *v = find(e.text);
      if ((v && (v->kind == Var::Kind::PyObject || v->kind == Var::Kind::PyArgs ||
                 v->kind == Var::Kind::PyList)) ||
          e.text == "PyErr_Occurred")
        plumbing = true;
    }
    for (const CExpr &k : e.kids)
      scan(k);
  };
  scan(c);
  if (plumbing)
    return Status::ok();
  FXKIT_ASSIGN_OR_RETURN(auto cond, py(c));
  openBlock(s.line, s.col, "if " + cond + ":", false);
  pushScope();
  FXKIT_TRY(statements(s.body));
  popScope(s.endLine);
  closeBlock(s.endLine);
  if (s.hasElse) {
    int line = s.orelse.empty() ? s.endLine : s.orelse.front().line;
    openBlock(line, 1, "else:", false);
    pushScope();
    FXKIT_TRY(statements(s.orelse));
    popScope(s.endLine);
    closeBlock(s.endLine);
  }
  return Status::ok();
}

Status CppReader::declaration(const std::vector<CStmt> &ss, size_t &i) {
  const CStmt &s = ss[i];
  const std::string &type = s.type;
  const std::string &name = s.name;
  auto first = [&]() -> const CExpr * { return s.exprs.empty() ? nullptr : &s.exprs[0]; };
  // Fixed boilerplate: the GIL, profiling, the kernel context of error messages.
  static const std::set<std::string_view> ignored = {
      "py::gil_scoped_release_simple",
      "py::gil_scoped_release",
      "py::gil_scoped_acquire_simple",
      "py::gil_scoped_acquire",
      "KernelContextGuard",
      "RAIIAtenRecordFunctionHandle",
      "torch::aot_inductor::RAIIAtenRecordFunctionHandle",
      "C10IValueHandle",
      "RAIIC10IValueHandle"};
  if (ignored.count(type) || type.starts_with("std::unordered_map<"))
    return Status::ok();
  // Device guards: `AOTICudaGuard device_guard(0);` opens the device's with-block.
  if (type.starts_with("AOTI") && type.ends_with("Guard")) {
    if (type.find("StreamGuard") != std::string::npos)
      return Status::ok(); // AOT mode: the stream and device of run_impl
    if (s.init != CStmt::Ctor || s.exprs.size() != 1 || s.exprs[0].kind != CExpr::Number)
      return error(s, "expected '" + type + " " + name + "(N);'");
    std::string ns = type.find("Xpu") != std::string::npos ? "xpu" : "cuda";
    openBlock(s.line, s.col, "with torch." + ns + "._DeviceGuard(" + s.exprs[0].text + "):", true);
    if (!scopes_.empty())
      ++scopes_.back().guards;
    declare(name, Var{Var::Kind::PyObject, ns});
    return Status::ok();
  }
  // Streams, filled by aoti_torch_get_current_cuda_stream.
  if (type == "cudaStream_t" || type == "hipStream_t" || type == "sycl::queue*" ||
      type == "DeviceStreamType") {
    declare(name, Var{Var::Kind::Stream});
    return Status::ok();
  }
  // Arrays: `static constexpr int64_t int_array_0[] = {..}`, `const int64_t *int_array_1=nullptr`.
  if (s.isArray ||
      (type.ends_with("*") && s.init == CStmt::Assign && first()->kind == CExpr::Name &&
       first()->text == "nullptr" && !type.starts_with("PyObject"))) {
    Var v{Var::Kind::IntArray};
    if (s.isArray) {
      if (s.init != CStmt::Assign || first()->kind != CExpr::Braces)
        return error(s, "expected '" + name + "[] = {...}'");
      std::vector<std::string> items;
      for (const CExpr &x : first()->kids) {
        FXKIT_ASSIGN_OR_RETURN(auto t, py(x));
        items.push_back(std::move(t));
      }
      v.py = tupleText(items);
      v.items = std::move(items);
    } else {
      v.py = "()";
    }
    declare(name, std::move(v));
    return Status::ok();
  }
  if (type == "AtenTensorHandle") {
    Var v{Var::Kind::Handle};
    if (s.init == CStmt::Assign) {
      FXKIT_ASSIGN_OR_RETURN(auto t, py(*first()));
      v.py = std::move(t);
    } else if (s.init != CStmt::NoInit) {
      return error(s, "unsupported initializer of an AtenTensorHandle");
    }
    declare(name, std::move(v));
    return Status::ok();
  }
  // The inputs: `auto x = std::move(inputs[i]);` (older wrappers:
  // `RAIIAtenTensorHandle x(input_handles[i]);`).
  if (s.exprs.size() == 1 && s.init != CStmt::Brace)
    if (const CExpr *k = inputIndex(s.exprs[0])) {
      FXKIT_TRY(input(s, *k, name, false));
      declare(name, Var{Var::Kind::Tensor, name, true});
      return Status::ok();
    }
  if (type == "RAIIAtenTensorHandle" || type == "ConstantHandle") {
    if (s.init == CStmt::NoInit) {
      declare(name, Var{Var::Kind::Tensor}); // set later: a fallback's result, a branch's
      return Status::ok();
    }
    if (s.init == CStmt::Ctor && s.exprs.size() == 1 && s.exprs[0].kind == CExpr::Name) {
      // RAIIAtenTensorHandle buf0(buf0_handle): the tensor the handle was filled with.
      Var *h = find(s.exprs[0].text);
      if (!h || h->py.empty())
        return error(s.exprs[0], "'" + s.exprs[0].text + "' is used before it is set");
      Var v{Var::Kind::Tensor, h->py, h->bound};
      if (h->bound && h->py != name) {
        emit(s, name + " = " + h->py);
        v.py = name;
      }
      declare(name, std::move(v));
      return Status::ok();
    }
    if (s.init == CStmt::Assign && first()->kind == CExpr::Call &&
        first()->kids[0].kind == CExpr::Name &&
        first()->kids[0].text == "scalar_to_tensor_handle") {
      // A symbolic output wrapped as a 0-d tensor: the Python wrapper returns the value.
      FXKIT_ASSIGN_OR_RETURN(auto v, py(first()->kids[1]));
      declare(name, Var{Var::Kind::Scalar, std::move(v), false, isFloatExpr(first()->kids[1])});
      return Status::ok();
    }
    if (s.init != CStmt::Assign)
      return error(s, "unsupported initializer of an RAIIAtenTensorHandle");
  }
  // Python objects of a custom op's fallback through Python.
  if (type == "RAIIPyObject" || type == "PyObject*") {
    Var v{Var::Kind::PyObject};
    const CExpr *init = s.init == CStmt::NoInit ? nullptr : first();
    if (init && init->kind == CExpr::Call && init->kids[0].kind == CExpr::Name) {
      const std::string &f = init->kids[0].text;
      if ((f == "PyTuple_New" || f == "PyList_New") && init->kids.size() == 2 &&
          init->kids[1].kind == CExpr::Number) {
        v.kind = f == "PyTuple_New" ? Var::Kind::PyArgs : Var::Kind::PyList;
        FXKIT_ASSIGN_OR_RETURN(size_t n, boundedNumber(init->kids[1], f + " size"));
        v.items.assign(n, "None");
      } else if (f == "PyObject_CallObject" && init->kids.size() == 3) {
        declare(name, v);
        std::string tuple = name.starts_with("py_") ? name.substr(3) : name + "_result";
        return pythonCall(ss, i, tuple, *init);
      }
    }
    declare(name, std::move(v));
    return Status::ok();
  }
  // Dispatcher arguments: std::array<StableIValue, N> dispatch_vars{from(..), ..}.
  if (type.starts_with("std::array<StableIValue")) {
    Var v{Var::Kind::DispatchVars};
    for (const CExpr &x : s.exprs) {
      FXKIT_ASSIGN_OR_RETURN(auto t, py(x));
      v.items.push_back(std::move(t));
    }
    declare(name, std::move(v));
    return Status::ok();
  }
  // TMA descriptors (user-defined Triton kernels with host-side descriptors).
  if (type == "CUtensorMap" || type == "StableTMADescriptor") {
    declare(name, Var{Var::Kind::Tma});
    return Status::ok();
  }
  // The inputs: `auto inputs = steal_from_raw_handles_to_raii_handles(input_handles, N);` and
  // `auto x = std::move(inputs[i]);`.
  if (s.init == CStmt::Assign && first()->kind == CExpr::Call &&
      first()->kids[0].kind == CExpr::Name) {
    const CExpr &v = *first();
    const std::string &callee = v.kids[0].text;
    if (callee == "steal_from_raw_handles_to_raii_handles" ||
        callee == "alloc_tensors_by_stealing_from_handles") {
      if (v.kids.size() == 3 && v.kids[2].kind == CExpr::Number)
        inputCount_ = std::strtoull(v.kids[2].text.c_str(), nullptr, 10);
      declare(name, Var{Var::Kind::PyObject});
      return Status::ok();
    }
  }
  // `auto x_size = x.sizes();` / `x.strides()`: indexed by later statements.
  if (s.init == CStmt::Assign && first()->kind == CExpr::Call && first()->kids.size() == 1 &&
      first()->kids[0].kind == CExpr::Member &&
      (first()->kids[0].text == "sizes" || first()->kids[0].text == "strides")) {
    FXKIT_ASSIGN_OR_RETURN(auto t, py(first()->kids[0].kids[0]));
    declare(name, Var{first()->kids[0].text == "sizes" ? Var::Kind::Sizes : Var::Kind::Strides,
                      std::move(t)});
    return Status::ok();
  }
  // Tensors: temporaries inline; `auto buf1 = std::move(buf0);  // reuse`; views.
  if (s.init != CStmt::NoInit && s.exprs.size() == 1 && isTensorExpr(*first())) {
    const CExpr &v = *first();
    bool temporary =
        name.starts_with("var_") || name.starts_with("tmp_var_") || name.ends_with("_as_strided");
    if (temporary) {
      FXKIT_ASSIGN_OR_RETURN(auto t, py(v));
      declare(name, Var{Var::Kind::Tensor, std::move(t), false});
      return Status::ok();
    }
    if (v.kind == CExpr::Call && v.kids[0].kind == CExpr::Name && v.kids[0].text == "std::move" &&
        v.kids[1].kind == CExpr::Name) {
      // The Python wrapper's `b1 = b0; del b0  # reuse` (without the del when b0 is freed
      // later, as memory planning's pools do).
      const std::string &from = v.kids[1].text;
      Var *src = find(from);
      if (src->py.empty())
        return error(v.kids[1], "'" + from + "' is used after it was moved or freed");
      std::string code = name + " = " + src->py;
      if (src->bound && !resetLater(ss, i + 1, from)) {
        code += "; del " + src->py;
        src->bound = false;
        src->py.clear();
      }
      emit(s, code);
      declare(name, Var{Var::Kind::Tensor, name, true});
      return Status::ok();
    }
    FXKIT_ASSIGN_OR_RETURN(auto t, py(v));
    emit(s, name + " = " + t);
    declare(name, Var{Var::Kind::Tensor, name, true});
    return Status::ok();
  }
  // `std::optional tmp_var_0{x}` (a dispatcher's optional argument).
  if (type == "std::optional" || type.starts_with("std::optional<")) {
    if (s.exprs.size() != 1)
      return error(s, "expected one value in the std::optional");
    FXKIT_ASSIGN_OR_RETURN(auto t, py(s.exprs[0]));
    declare(name, Var{Var::Kind::Scalar, std::move(t), false, isFloatExpr(s.exprs[0])});
    return Status::ok();
  }
  return scalarDeclaration(ss, i);
}

Status CppReader::scalarDeclaration(const std::vector<CStmt> &ss, size_t i) {
  const CStmt &s = ss[i];
  std::string type = s.type;
  if (type.ends_with(" const"))
    type = type.substr(0, type.size() - 6);
  static const std::set<std::string_view> scalarTypes = {
      "auto",      "int64_t",        "int32_t",      "int16_t",      "int8_t",
      "uint64_t",  "uint32_t",       "uint16_t",     "uint8_t",      "int",
      "long",      "size_t",         "bool",         "double",       "float",
      "c10::Half", "c10::BFloat16",  "at::Half",     "at::BFloat16", "CUdeviceptr",
      "char*",     "decltype(auto)", "unsigned int", "long long",    "void*"};
  if (!scalarTypes.count(type))
    return error(s, "unsupported declaration of type '" + s.type + "'");
  const std::string &name = s.name;
  bool isFloat = isFloatType(type);
  if (s.init == CStmt::NoInit) {
    // Set later through a pointer: aoti_torch_item_*, aoti_torch_get_size, a fallback's int
    // result.
    declare(name, Var{Var::Kind::Scalar, "", false, isFloat});
    return Status::ok();
  }
  if (s.exprs.size() != 1)
    return error(s, "expected one value for '" + name + "'");
  const CExpr &v = s.exprs[0];
  if (type == "auto")
    isFloat = isFloatExpr(v);
  FXKIT_ASSIGN_OR_RETURN(auto t, py(v));
  if (name.starts_with("var_") || name.starts_with("tmp_var_")) {
    // Arguments the codegen names (`double var_0 = 0.25;` passed as `&var_0`): inline.
    declare(name, Var{Var::Kind::Scalar, std::move(t), false, isFloat});
    return Status::ok();
  }
  // A fallback's integer result (`int64_t buf0_4 = 64;` before `..(&buf0_4)`): the op sets it.
  for (size_t k = i + 1; k < ss.size(); ++k) {
    if (ss[k].kind == CStmt::Decl || ss[k].kind == CStmt::Comment)
      continue;
    bool out = false;
    std::function<void(const CExpr &)> scan = [&](const CExpr &e) {
      if (addressOf(e) == name)
        out = true;
      for (const CExpr &kid : e.kids)
        scan(kid);
    };
    for (const CExpr &e : ss[k].exprs)
      scan(e);
    if (out && ss[k].kind == CStmt::Expr) {
      declare(name, Var{Var::Kind::Scalar, "", false, isFloat});
      return Status::ok();
    }
    break;
  }
  // `float x = float(x_tmp)` after reading a float16 scalar input into x_tmp: the input is x.
  if (v.kind == CExpr::Call && v.kids.size() == 2 && v.kids[1].kind == CExpr::Name &&
      scalarInputs_.count(v.kids[1].text) && v.kids[1].text == name + "_tmp") {
    for (auto &[k, n] : inputs_)
      if (n == v.kids[1].text)
        n = name;
    scalarInputs_.insert(name);
    declare(name, Var{Var::Kind::Scalar, name, true, isFloat});
    return Status::ok();
  }
  emit(s, name + " = " + t);
  declare(name, Var{Var::Kind::Scalar, name, true, isFloat});
  return Status::ok();
}

Status CppReader::expressionStatement(const std::vector<CStmt> &ss, size_t &i) {
  const CStmt &s = ss[i];
  const CExpr &e = s.exprs[0];
  if (e.kind == CExpr::Binary &&
      (e.text == "=" || e.text == "+=" || e.text == "-=" || e.text == "*=" || e.text == "/="))
    return assignment(s, e);
  if (e.kind == CExpr::Unary && (e.text == "++" || e.text == "--")) {
    // i++: i += 1
    CExpr one;
    one.kind = CExpr::Number;
    one.text = "1";
    one.line = e.line;
    one.col = e.col;
    CExpr inc;
    inc.kind = CExpr::Binary;
    inc.text = e.text == "++" ? "+=" : "-=";
    inc.line = e.line;
    inc.col = e.col;
    inc.kids = {e.kids[0], one};
    return assignment(s, inc);
  }
  if (e.kind != CExpr::Call)
    return error(e, "unsupported statement in inductor_entry_impl");
  const CExpr &f = e.kids[0];
  if (f.kind == CExpr::Member) {
    const CExpr &obj = f.kids[0];
    if (f.text == "reset" && e.kids.size() == 1 && obj.kind == CExpr::Name) {
      Var *v = find(obj.text);
      if (!v)
        return error(obj, "'" + obj.text + "' is not declared");
      if ((v->kind == Var::Kind::Tensor || v->kind == Var::Kind::Handle) && v->bound) {
        if (auto it = deleteWith_.find(v->py); it != deleteWith_.end()) {
          emit(s, "del " + it->second);
          deleteWith_.erase(it);
        }
        emit(s, "del " + v->py);
        v->bound = false;
        v->py.clear();
      }
      return Status::ok();
    }
    if (f.text == "set_index" && obj.kind == CExpr::Name && e.kids.size() == 2) {
      // device_guard.set_index(N): the next with-block of the device.
      Var *g = find(obj.text);
      if (!g || g->kind != Var::Kind::PyObject || (g->py != "cuda" && g->py != "xpu"))
        return error(obj, "'" + obj.text + "' is not a device guard");
      if (e.kids[1].kind != CExpr::Number)
        return error(e.kids[1], "expected a device index");
      if (!scopes_.empty() && scopes_.back().guards > 0 && !open_.empty() && open_.back().guard) {
        closeBlock(s.line);
        --scopes_.back().guards;
      }
      openBlock(s.line, s.col,
                "with torch." + g->py + "._DeviceGuard(" + e.kids[1].text + "):", true);
      if (!scopes_.empty())
        ++scopes_.back().guards;
      return Status::ok();
    }
    if (obj.kind == CExpr::Name && obj.text == "inputs" && f.text == "clear")
      return Status::ok();
    return error(e, "unsupported call '." + f.text + "()' in inductor_entry_impl");
  }
  if (f.kind != CExpr::Name)
    return error(e, "unsupported call in inductor_entry_impl");
  return call(ss, i, e);
}

Status CppReader::call(const std::vector<CStmt> &ss, size_t i, const CExpr &c) {
  const CStmt &s = ss[i];
  const std::string &fn = c.kids[0].text;
  if (fn == "AOTI_TORCH_ERROR_CODE_CHECK") {
    if (c.kids.size() != 2 || c.kids[1].kind != CExpr::Call ||
        c.kids[1].kids[0].kind != CExpr::Name)
      return error(c, "expected AOTI_TORCH_ERROR_CODE_CHECK(<shim call>)");
    return shim(ss, i, c.kids[1]);
  }
  if (fn.starts_with("aoti_torch_"))
    return shim(ss, i, c);
  if (fn.starts_with("call_")) {
    std::string kernel = fn.substr(5);
    auto it = launchers_.find(kernel);
    if (it == launchers_.end())
      return error(c, "launch of unknown kernel '" + kernel + "' (no launcher '" + fn +
                          "' defined in the C++ source)");
    return launch(s, c, it->second, kernel);
  }
  if (auto it = cppKernels_.find(fn); it != cppKernels_.end()) {
    if (c.kids.size() - 1 != it->second.types.size())
      return error(c, "C++ kernel '" + fn + "' takes " + std::to_string(it->second.types.size()) +
                          " arguments, not " + std::to_string(c.kids.size() - 1));
    std::string code = fn + "(";
    for (size_t k = 1; k < c.kids.size(); ++k) {
      FXKIT_ASSIGN_OR_RETURN(auto a, py(c.kids[k]));
      code += (k > 1 ? ", " : "") + a;
    }
    emit(s, code + ")");
    return Status::ok();
  }
  if (fn == "PyTuple_SetItem" || fn == "PyList_SetItem") {
    if (c.kids.size() != 4 || c.kids[1].kind != CExpr::Name || c.kids[2].kind != CExpr::Number)
      return error(c, "expected " + fn + "(object, index, value)");
    Var *v = find(c.kids[1].text);
    if (!v || v->kind != (fn == "PyTuple_SetItem" ? Var::Kind::PyArgs : Var::Kind::PyList))
      return error(c.kids[1], "'" + c.kids[1].text + "' is not a Python " +
                                  (fn == "PyTuple_SetItem" ? "tuple" : "list"));
    size_t k = std::strtoull(c.kids[2].text.c_str(), nullptr, 10);
    if (k >= v->items.size())
      return error(c.kids[2],
                   "index " + c.kids[2].text + " is past the end of '" + c.kids[1].text + "'");
    FXKIT_ASSIGN_OR_RETURN(auto value, pyObjectValue(c.kids[3], 1));
    v->items[k] = std::move(value);
    return Status::ok();
  }
  static const std::set<std::string_view> nothing = {
      "Py_INCREF", "Py_DECREF", "printf", "RECORD_FUNCTION", "AOTI_TORCH_WARN", "fflush"};
  if (nothing.count(fn))
    return Status::ok();
  if (fn == "init1DTMADescriptor" || fn == "init2DTMADescriptor" || fn == "init3DTMADescriptor" ||
      fn == "init4DTMADescriptor" || fn == "init5DTMADescriptor") {
    // initND(&desc, reinterpret_cast<void*>(*(&var_N)), dims.., block_dims.., element_size)
    int rank = fn[4] - '0';
    if (static_cast<int>(c.kids.size()) != 4 + 2 * rank)
      return error(c, fn + " takes " + std::to_string(3 + 2 * rank) + " arguments");
    std::string desc = addressOf(c.kids[1]);
    if (desc.empty())
      return error(c.kids[1], "expected &<descriptor>");
    const CExpr *ptr = &c.kids[2];
    while ((ptr->kind == CExpr::Call && ptr->kids.size() == 2) || ptr->kind == CExpr::Cast ||
           (ptr->kind == CExpr::Unary && (ptr->text == "*" || ptr->text == "&")))
      ptr = ptr->kind == CExpr::Call ? &ptr->kids[1] : &ptr->kids[0];
    FXKIT_ASSIGN_OR_RETURN(auto base, py(*ptr));
    std::vector<std::string> dims, blocks;
    for (int k = 0; k < rank; ++k) {
      FXKIT_ASSIGN_OR_RETURN(auto d, py(c.kids[3 + k]));
      dims.push_back(std::move(d));
      FXKIT_ASSIGN_OR_RETURN(auto b, py(c.kids[3 + rank + k]));
      blocks.push_back(std::move(b));
    }
    FXKIT_ASSIGN_OR_RETURN(auto elem, py(c.kids[3 + 2 * rank]));
    std::string code = desc + " = triton.tools.experimental_descriptor.create_" +
                       std::to_string(rank) + "d_tma_descriptor(" + base + ".data_ptr()";
    for (const std::string &d : dims)
      code += ", " + d;
    for (const std::string &b : blocks)
      code += ", " + b;
    emit(s, code + ", " + elem + ")");
    if (Var *v = find(desc)) {
      v->kind = Var::Kind::Tensor;
      v->py = desc;
      v->bound = true;
    }
    return Status::ok();
  }
  if (fn == "initTMADescriptor") {
    // initTMADescriptor(&desc.m, ptr, element_size, rank, desc.block_shape, ..): the Python
    // wrapper's TensorDescriptor.from_tensor(tensor, block_shape).
    if (c.kids.size() != 8 || c.kids[1].kind != CExpr::Unary ||
        c.kids[1].kids[0].kind != CExpr::Member || c.kids[1].kids[0].kids[0].kind != CExpr::Name)
      return error(c, "expected initTMADescriptor(&desc.m, ptr, element_size, rank, "
                      "desc.block_shape, desc.global_shape, desc.strides)");
    std::string desc = c.kids[1].kids[0].kids[0].text;
    Var *v = find(desc);
    if (!v || v->kind != Var::Kind::Tma)
      return error(c.kids[1], "'" + desc + "' is not a TMA descriptor");
    const CExpr *ptr = &c.kids[2];
    while ((ptr->kind == CExpr::Call && ptr->kids.size() == 2) || ptr->kind == CExpr::Cast ||
           (ptr->kind == CExpr::Unary && (ptr->text == "*" || ptr->text == "&")))
      ptr = ptr->kind == CExpr::Call ? &ptr->kids[1] : &ptr->kids[0];
    FXKIT_ASSIGN_OR_RETURN(auto base, py(*ptr));
    emit(s, desc + " = triton.tools.tensor_descriptor.TensorDescriptor.from_tensor(" + base + ", " +
                listText(v->items) + ")");
    v->kind = Var::Kind::Tensor;
    v->py = desc;
    v->bound = true;
    return Status::ok();
  }
  return error(c, "unsupported call '" + fn + "' in inductor_entry_impl");
}

Status CppReader::assignment(const CStmt &s, const CExpr &e) {
  if (e.text != "=") {
    // x += y: x = x + y.
    CExpr sum;
    sum.kind = CExpr::Binary;
    sum.text = e.text.substr(0, 1);
    sum.line = e.line;
    sum.col = e.col;
    sum.kids = e.kids;
    CExpr assign = e;
    assign.text = "=";
    assign.kids[1] = std::move(sum);
    return assignment(s, assign);
  }
  const CExpr &lhs = e.kids[0];
  const CExpr &rhs = e.kids[1];
  if (lhs.kind == CExpr::Index && lhs.kids[0].kind == CExpr::Name &&
      lhs.kids[0].text == "output_handles") {
    if (lhs.kids[1].kind != CExpr::Number)
      return error(lhs.kids[1], "expected output_handles[<integer>]");
    FXKIT_ASSIGN_OR_RETURN(size_t k, boundedNumber(lhs.kids[1], "output index"));
    std::string value;
    if (rhs.kind == CExpr::Index && rhs.kids[0].kind == CExpr::Name &&
        rhs.kids[0].text == "output_handles" && rhs.kids[1].kind == CExpr::Number) {
      // The same tensor returned twice.
      FXKIT_ASSIGN_OR_RETURN(size_t from, boundedNumber(rhs.kids[1], "output index"));
      auto it = outputs_.find(from);
      if (it == outputs_.end())
        return error(rhs, "output " + rhs.kids[1].text + " is not set yet");
      value = it->second;
    } else if (rhs.kind == CExpr::Call && rhs.kids.size() == 1 &&
               rhs.kids[0].kind == CExpr::Member && rhs.kids[0].text == "release") {
      FXKIT_ASSIGN_OR_RETURN(auto v, py(rhs.kids[0].kids[0]));
      value = std::move(v);
    } else {
      return error(s, "expected 'output_handles[i] = x.release()'");
    }
    if (outputs_.count(k))
      return error(lhs, "output " + lhs.kids[1].text + " is set twice");
    outputs_[k] = value;
    outputsLine_ = s.line;
    outputsCol_ = s.col;
    return Status::ok();
  }
  if (lhs.kind == CExpr::Index && lhs.kids[0].kind == CExpr::Member &&
      lhs.kids[0].kids[0].kind == CExpr::Name) {
    // desc.block_shape[i] = v (a stable TMA descriptor's block shape; the global shape and
    // strides are the tensor's).
    Var *v = find(lhs.kids[0].kids[0].text);
    if (v && v->kind == Var::Kind::Tma) {
      if (lhs.kids[0].text == "block_shape") {
        FXKIT_ASSIGN_OR_RETURN(auto x, py(rhs));
        v->items.push_back(std::move(x));
      }
      return Status::ok();
    }
  }
  if (lhs.kind != CExpr::Name)
    return error(lhs, "unsupported assignment");
  Var *v = find(lhs.text);
  if (!v)
    return error(lhs, "'" + lhs.text + "' is not declared");
  if (v->kind == Var::Kind::PyObject)
    return Status::ok(); // custom_op_wrapper = PyObject_GetAttrString(..)
  if (v->kind == Var::Kind::Tensor && rhs.kind == CExpr::Call) {
    // `buf5 = to<AtenTensorHandle>(dispatch_vars[0]);` and `buf2 = reinterpret_cast<..>(
    // PyCapsule_GetPointer(py_buf1.get(), NULL));`: the call's results, already named.
    std::function<bool(const CExpr &)> fromCall = [&](const CExpr &x) {
      if (x.kind == CExpr::Name)
        if (Var *src = find(x.text))
          return src->kind == Var::Kind::DispatchVars || src->kind == Var::Kind::PyObject;
      for (const CExpr &k : x.kids)
        if (fromCall(k))
          return true;
      return false;
    };
    if (fromCall(rhs)) {
      if (v->py.empty())
        return error(s, "'" + lhs.text + "' is not a result of the call before it");
      return Status::ok();
    }
  }
  if (v->kind != Var::Kind::Tensor && v->kind != Var::Kind::Scalar)
    return error(lhs, "unsupported assignment to '" + lhs.text + "'");
  FXKIT_ASSIGN_OR_RETURN(auto x, py(rhs));
  emit(s, lhs.text + " = " + x);
  v->py = lhs.text;
  v->bound = true;
  if (v->kind == Var::Kind::Scalar)
    v->isFloat = isFloatExpr(rhs);
  return Status::ok();
}

Status CppReader::launch(const CStmt &s, const CExpr &c, const Launcher &l,
                         const std::string &kernel) {
  size_t nargs = c.kids.size() - 1;
  // The launcher takes the kernel's arguments, the device index and the stream (AOT mode adds
  // the kernels and the cubin directory).
  size_t extra = nargs == l.params.size() + 4 ? 4 : 2;
  if (nargs != l.params.size() + extra)
    return error(c, "'call_" + kernel + "' takes " + std::to_string(l.params.size() + 2) +
                        " arguments, not " + std::to_string(nargs));
  std::string code = kernel + ".run(";
  for (size_t k = 0; k < l.params.size(); ++k) {
    FXKIT_ASSIGN_OR_RETURN(auto a, py(c.kids[k + 1]));
    code += a + (l.unwrap.count(k) ? ".item()" : "") + ", ";
  }
  const CExpr &stream = c.kids[l.params.size() + 2];
  FXKIT_ASSIGN_OR_RETURN(auto st, py(stream));
  emit(s, code + "stream=" + st + ")");
  return Status::ok();
}

/// Keyword names of `extern_kernels.convolution` after its two tensors, in the order the C++
/// shim passes them (arrays with their lengths folded).
constexpr const char *kConvolutionArgs[] = {"bias",       "stride",         "padding", "dilation",
                                            "transposed", "output_padding", "groups"};

Status CppReader::shim(const std::vector<CStmt> &ss, size_t i, const CExpr &c) {
  const CStmt &s = ss[i];
  const std::string &fn = c.kids[0].text;
  std::vector<const CExpr *> a;
  for (size_t k = 1; k < c.kids.size(); ++k)
    a.push_back(&c.kids[k]);
  auto arg = [&](size_t k) { return py(*a[k], 1); };
  auto need = [&](size_t n) -> Status {
    if (a.size() != n)
      return error(c, fn + " takes " + std::to_string(n) + " arguments, not " +
                          std::to_string(a.size()));
    return Status::ok();
  };
  auto out = [&](size_t k) -> Expected<std::string> {
    std::string h = addressOf(*a[k]);
    if (h.empty())
      return error(*a[k], "expected '&<handle>'");
    if (!find(h))
      return error(*a[k], "'" + h + "' is not declared");
    return h;
  };
  if (fn == "aoti_torch_empty_strided") {
    FXKIT_TRY(need(7));
    FXKIT_ASSIGN_OR_RETURN(auto h, out(6));
    FXKIT_ASSIGN_OR_RETURN(auto sz, arrayArg(*a[1]));
    FXKIT_ASSIGN_OR_RETURN(auto st, arrayArg(*a[2]));
    std::string dt = a[3]->kind == CExpr::Name ? after(a[3]->text, "cached_torch_dtype_") : "";
    if (dt.empty())
      return error(*a[3], "expected cached_torch_dtype_<dtype>");
    std::string dev =
        a[4]->kind == CExpr::Name ? after(a[4]->text, "cached_torch_device_type_") : "";
    if (dev.empty())
      return error(*a[4], "expected cached_torch_device_type_<device>");
    std::string name = handleBase(h);
    std::string code =
        dev == "cpu" || dev == "cuda" || dev == "xpu" || dev == "mtia"
            ? name + " = empty_strided_" + dev + "(" + sz + ", " + st + ", torch." + dt + ")"
            : name + " = empty_strided(" + sz + ", " + st + ", device=" + pyQuote(dev) +
                  ", dtype=torch." + dt + ")";
    emit(s, code);
    Var *v = find(h);
    v->py = name;
    v->bound = true;
    return Status::ok();
  }
  if (fn == "aoti_torch_as_strided") {
    // An allocation larger than its layout (make_allocation's allocation_shape).
    FXKIT_TRY(need(4));
    FXKIT_ASSIGN_OR_RETURN(auto h, out(3));
    FXKIT_ASSIGN_OR_RETURN(auto base, arg(0));
    FXKIT_ASSIGN_OR_RETURN(auto sz, arrayArg(*a[1]));
    FXKIT_ASSIGN_OR_RETURN(auto st, arrayArg(*a[2]));
    std::string alloc = base + " = empty_strided";
    if (!body_.empty() && body_.back().code.starts_with(alloc) &&
        body_.back().code.find(';') == std::string::npos) {
      body_.back().code += ".as_strided(" + sz + ", " + st + ")";
    } else {
      emit(s, base + " = reinterpret_tensor(" + base + ", " + sz + ", " + st + ", 0)");
    }
    Var *v = find(h);
    v->py = base;
    v->bound = true;
    return Status::ok();
  }
  if (fn == "aoti_torch__alloc_from_pool") {
    FXKIT_TRY(need(7));
    FXKIT_ASSIGN_OR_RETURN(auto h, out(6));
    auto pool = arg(0), off = arg(1), dt = arg(2);
    FXKIT_TRY(pool);
    FXKIT_TRY(off);
    FXKIT_TRY(dt);
    FXKIT_ASSIGN_OR_RETURN(auto sz, arrayArg(*a[4]));
    FXKIT_ASSIGN_OR_RETURN(auto st, arrayArg(*a[5]));
    Var *v = find(h);
    v->py = "alloc_from_pool(" + *pool + ", " + *off + ", " + *dt + ", " + sz + ", " + st + ")";
    v->bound = false;
    return Status::ok();
  }
  if (fn == "aoti_torch_get_size" || fn == "aoti_torch_get_stride") {
    FXKIT_TRY(need(3));
    FXKIT_ASSIGN_OR_RETURN(auto h, out(2));
    auto x = arg(0), d = arg(1);
    FXKIT_TRY(x);
    FXKIT_TRY(d);
    emit(s, h + " = " + *x + (fn.ends_with("size") ? ".size(" : ".stride(") + *d + ")");
    Var *v = find(h);
    v->py = h;
    v->bound = true;
    return Status::ok();
  }
  if (fn.starts_with("aoti_torch_get_current_") && fn.ends_with("_stream")) {
    FXKIT_TRY(need(2));
    FXKIT_ASSIGN_OR_RETURN(auto h, out(1));
    FXKIT_ASSIGN_OR_RETURN(auto d, arg(0));
    emit(s, h + " = get_raw_stream(" + d + ")");
    Var *v = find(h);
    v->py = h;
    v->bound = true;
    return Status::ok();
  }
  if (fn.starts_with("aoti_torch_item_")) {
    FXKIT_TRY(need(2));
    FXKIT_ASSIGN_OR_RETURN(auto h, out(1));
    Var *v = find(h);
    std::string dt = fn.substr(16);
    v->isFloat = dt.starts_with("float") || dt.starts_with("bfloat");
    const CExpr &t = *a[0];
    if (const CExpr *k = inputIndex(t)) {
      // A scalar input: the graph's input, as the Python wrapper's `arg0_1` int.
      FXKIT_TRY(input(s, *k, h, true));
      v->py = h;
      v->bound = true;
      return Status::ok();
    }
    FXKIT_ASSIGN_OR_RETURN(auto x, py(t));
    std::string item = x + ".item()";
    // `int64_t u0_raw; item(buf0, &u0_raw); auto u0 = u0_raw;`: the Python wrapper writes
    // `u0 = buf0.item()` (also `1 if buf0.item() else 0`, and a branch's `if buf1.item():`).
    bool inlineIt = false;
    if (i + 1 < ss.size() && references(ss, i + 1, h) == 1) {
      const CStmt &next = ss[i + 1];
      inlineIt = next.kind == CStmt::If || (next.kind == CStmt::Decl && !next.exprs.empty());
      if (next.kind == CStmt::If || next.kind == CStmt::Decl) {
        size_t there = 0;
        for (const CExpr &e : next.exprs) {
          std::vector<CStmt> one(1);
          one[0].exprs.push_back(e);
          there += references(one, 0, h);
        }
        inlineIt = inlineIt && there == 1;
      }
    }
    if (inlineIt) {
      v->py = item;
      v->bound = false;
    } else {
      emit(s, h + " = " + item);
      v->py = h;
      v->bound = true;
    }
    return Status::ok();
  }
  if (fn == "aoti_torch__reinterpret_tensor") {
    // (self, ndim, sizes, strides, offset, &out): what reinterpret_tensor_wrapper calls.
    FXKIT_TRY(need(6));
    FXKIT_ASSIGN_OR_RETURN(auto h, out(5));
    auto x = arg(0), off = arg(4);
    FXKIT_TRY(x);
    FXKIT_TRY(off);
    FXKIT_ASSIGN_OR_RETURN(auto sz, arrayArg(*a[2]));
    FXKIT_ASSIGN_OR_RETURN(auto st, arrayArg(*a[3]));
    Var *v = find(h);
    v->py = "reinterpret_tensor(" + *x + ", " + sz + ", " + st + ", " + *off + ")";
    v->bound = false;
    return Status::ok();
  }
  if (fn == "aoti_torch_new_tensor_handle") {
    // A second handle of the same tensor: the Python wrapper names the tensor itself.
    FXKIT_TRY(need(2));
    FXKIT_ASSIGN_OR_RETURN(auto h, out(1));
    FXKIT_ASSIGN_OR_RETURN(auto x, arg(0));
    Var *v = find(h);
    v->py = std::move(x);
    v->bound = false;
    return Status::ok();
  }
  if (fn == "aoti_torch_new_uninitialized_tensor") {
    FXKIT_TRY(need(1));
    FXKIT_ASSIGN_OR_RETURN(auto h, out(0));
    Var *v = find(h);
    v->py = "None"; // an undefined tensor: the Python wrapper passes None
    v->bound = false;
    return Status::ok();
  }
  if (fn == "aoti_torch_assign_tensors_out") {
    // A subgraph's input taking the outer tensor.
    FXKIT_TRY(need(2));
    FXKIT_ASSIGN_OR_RETURN(auto h, out(1));
    FXKIT_ASSIGN_OR_RETURN(auto x, arg(0));
    std::string name = handleBase(h);
    emit(s, name + " = " + x);
    Var *v = find(h);
    v->py = name;
    v->bound = true;
    return Status::ok();
  }
  if (fn == "aoti_torch_copy_") {
    FXKIT_TRY(need(3));
    auto dst = arg(0), src = arg(1), nb = arg(2);
    FXKIT_TRY(dst);
    FXKIT_TRY(src);
    FXKIT_TRY(nb);
    std::string blocking = *nb == "0" || *nb == "False" ? "False" : *nb == "1" ? "True" : *nb;
    emit(s, *dst + ".copy_(" + *src + ", " + blocking + ")");
    return Status::ok();
  }
  if (fn == "aoti_torch_zero_") {
    FXKIT_TRY(need(1));
    FXKIT_ASSIGN_OR_RETURN(auto x, arg(0));
    emit(s, x + ".zero_()");
    return Status::ok();
  }
  if (fn == "aoti_torch_clone") {
    // A constant returned as an output (NOTE(return_constant) in cpp_wrapper_cpu.py).
    FXKIT_TRY(need(2));
    const CExpr *o = a[1]->kind == CExpr::Unary && a[1]->text == "&" ? &a[1]->kids[0] : nullptr;
    if (!o || o->kind != CExpr::Index || o->kids[0].kind != CExpr::Name ||
        o->kids[0].text != "output_handles" || o->kids[1].kind != CExpr::Number)
      return error(*a[1], "expected &output_handles[<integer>]");
    FXKIT_ASSIGN_OR_RETURN(auto x, arg(0));
    FXKIT_ASSIGN_OR_RETURN(size_t k, boundedNumber(o->kids[1], "output index"));
    outputs_[k] = std::move(x);
    outputsLine_ = s.line;
    outputsCol_ = s.col;
    return Status::ok();
  }
  // Debugging aids with no effect on the program.
  if (fn == "aoti_torch_check_inf_and_nan" || fn == "aoti_torch_print_tensor_handle" ||
      fn == "aoti_torch_save_tensor_handle")
    return Status::ok();
  if (fn == "aoti_torch_call_dispatcher")
    return dispatcher(ss, i, c);
  if (fn == "aoti_torch_proxy_executor_call_function") {
    // AOT mode's fallback through the proxy executor: the extern node's index, its integer and
    // tensor arguments (outputs among the tensors).
    FXKIT_TRY(need(6));
    FXKIT_ASSIGN_OR_RETURN(auto idx, arg(1));
    std::vector<std::string> parts;
    for (size_t k : {size_t(3), size_t(5)}) {
      if (a[k]->kind == CExpr::Name && a[k]->text == "nullptr") {
        parts.push_back("[]");
        continue;
      }
      FXKIT_ASSIGN_OR_RETURN(auto l, py(*a[k], 1));
      parts.push_back(std::move(l));
    }
    emit(s, "torch.ops.aot_inductor.proxy_executor_call_function.default(" + idx + ", " + parts[0] +
                ", " + parts[1] + ")");
    return Status::ok();
  }
  // Per-device shims: aoti_torch_<device>_<op>.
  std::string op;
  for (std::string_view d : kShimDevices)
    if (std::string rest = after(fn, "aoti_torch_" + std::string(d) + "_"); !rest.empty())
      op = rest;
  if (op.empty() && fn == "aoti_torch__mm_plus_mm_out")
    op = "_mm_plus_mm_out";
  if (op.empty())
    return error(c, "unsupported call '" + fn + "' in inductor_entry_impl");
  if (op.ends_with("_view_dtype") || op == "view_dtype") {
    FXKIT_TRY(need(3));
    FXKIT_ASSIGN_OR_RETURN(auto h, out(2));
    auto x = arg(0), dt = arg(1);
    FXKIT_TRY(x);
    FXKIT_TRY(dt);
    Var *v = find(h);
    v->py = "aten.view.dtype(" + *x + ", " + *dt + ")";
    v->bound = false;
    return Status::ok();
  }
  static const std::set<std::string_view> externKernels = {
      "mm_out",      "bmm_out",         "addmm_out",      "baddbmm_out",
      "_int_mm_out", "_mm_plus_mm_out", "_scaled_mm_out", "addbmm_out"};
  if (externKernels.count(op))
    return externOut(s, c, op.substr(0, op.size() - 4));
  if (op.starts_with("scatter") && op.ends_with("_out")) {
    // ScatterFallback: aoti_torch_cuda_scatter_reduce_two_out(out, x, dim, index, src, "mean",
    // include_self) -> aten.scatter_reduce_.two(x, dim, index, src, reduce='mean',
    // include_self=False); aoti_torch_cuda_scatter_src_out(out, x, dim, index, src[, reduce]).
    std::string base = op.substr(0, op.size() - 4);
    std::string name = "scatter_", overload;
    if (base.starts_with("scatter_reduce_")) {
      name = "scatter_reduce_";
      overload = base.substr(15);
    } else if (base.size() > 8) {
      overload = base.substr(8);
    } else {
      overload = "src";
    }
    if (a.size() < 5)
      return error(c, fn + " takes at least 5 arguments");
    std::string code = "aten." + name + "." + overload + "(";
    for (size_t k = 1; k < 5; ++k) {
      FXKIT_ASSIGN_OR_RETURN(auto x, arg(k));
      code += (k > 1 ? ", " : "") + x;
    }
    if (a.size() > 5) {
      FXKIT_ASSIGN_OR_RETURN(auto r, arg(5));
      code += ", reduce=" + r;
    }
    if (a.size() > 6) {
      FXKIT_ASSIGN_OR_RETURN(auto inc, arg(6));
      code += std::string(", include_self=") + (inc == "0" ? "False" : "True");
    }
    emit(s, code + ")");
    return Status::ok();
  }
  if (op == "index_put_out" || op == "index_put__out") {
    // IndexPutFallback: (out, x, indices, n, values, accumulate) -> aten.index_put_(x, [..],
    // values, accumulate).
    FXKIT_TRY(need(6));
    FXKIT_ASSIGN_OR_RETURN(auto x, arg(1));
    FXKIT_ASSIGN_OR_RETURN(auto idx, listArg(*a[2], false, ArgType::OptionalTensorList));
    auto values = arg(4), acc = arg(5);
    FXKIT_TRY(values);
    FXKIT_TRY(acc);
    emit(s, "aten.index_put_(" + x + ", " + idx + ", " + *values + ", " +
                (*acc == "0" || *acc == "False" ? "False" : "True") + ")");
    return Status::ok();
  }
  if (op == "convolution") {
    // ExternKernelAlloc: `buf = extern_kernels.convolution(x, w, stride=.., .., bias=b)`.
    std::vector<std::string> in;
    size_t k = 0;
    for (; k < a.size() && addressOf(*a[k]).empty(); ++k) {
      const CExpr &x = *a[k];
      if (x.kind == CExpr::Call && x.kids[0].kind == CExpr::Member &&
          (x.kids[0].text == "cbegin" || x.kids[0].text == "data")) {
        FXKIT_ASSIGN_OR_RETURN(auto t, arrayArg(x));
        in.push_back(std::move(t));
        ++k; // the length
        continue;
      }
      FXKIT_ASSIGN_OR_RETURN(auto t, arg(k));
      in.push_back(std::move(t));
    }
    if (in.size() != 9 || k + 1 != a.size())
      return error(c, fn + " takes input, weight, bias, stride, padding, dilation, transposed, "
                           "output_padding, groups and one output");
    FXKIT_ASSIGN_OR_RETURN(auto h, out(k));
    std::string name = handleBase(h);
    std::string code = name + " = extern_kernels.convolution(" + in[0] + ", " + in[1];
    for (size_t j = 1; j < 7; ++j) {
      std::string value = in[2 + j];
      if (std::string(kConvolutionArgs[j]) == "transposed")
        value = value == "0" ? "False" : "True";
      code += std::string(", ") + kConvolutionArgs[j] + "=" + value;
    }
    emit(s, code + ", bias=" + in[2] + ")");
    Var *v = find(h);
    v->py = name;
    v->bound = true;
    return Status::ok();
  }
  const SchemaTable &table = SchemaTable::instance();
  auto it = table.byShim.find(op);
  return fallback(ss, i, c, fn, op, it == table.byShim.end() ? nullptr : &it->second);
}

Status CppReader::externOut(const CStmt &s, const CExpr &c, const std::string &op) {
  // (out, args...) -> extern_kernels.<op>(args..., out=out); addmm and baddbmm pass
  // (out, self, mat1, mat2, beta, alpha).
  std::vector<std::string> a;
  for (size_t k = 1; k < c.kids.size(); ++k) {
    FXKIT_ASSIGN_OR_RETURN(auto x, py(c.kids[k], 1));
    a.push_back(std::move(x));
  }
  bool scaled = op == "addmm" || op == "baddbmm" || op == "addbmm";
  if (a.size() < 2 || (scaled && a.size() != 6))
    return error(c, "unexpected arguments of " + c.kids[0].text);
  std::string code = "extern_kernels." + op + "(";
  if (scaled) {
    code += a[1] + ", " + a[2] + ", " + a[3] + ", alpha=" + a[5] + ", beta=" + a[4];
  } else {
    for (size_t k = 1; k < a.size(); ++k)
      code += (k > 1 ? ", " : "") + a[k];
  }
  emit(s, code + ", out=" + a[0] + ")");
  return Status::ok();
}

Expected<std::string> CppReader::listArg(const CExpr &ptr, bool optional, ArgType type) {
  // std::array<T, n>{..}.cbegin(), &temporary_reference(std::array..cbegin()) (optional),
  // nullptr (None when optional, [] otherwise).
  const CExpr *p = &ptr;
  if (p->kind == CExpr::Unary && p->text == "&")
    p = &p->kids[0];
  if (p->kind == CExpr::Call && p->kids[0].kind == CExpr::Name &&
      p->kids[0].text == "temporary_reference" && p->kids.size() == 2)
    p = &p->kids[1];
  if (p->kind == CExpr::Name && p->text == "nullptr")
    return std::string(optional ? "None" : "[]");
  const CExpr *items = nullptr;
  if (p->kind == CExpr::Call && p->kids.size() == 1 && p->kids[0].kind == CExpr::Member &&
      p->kids[0].kids[0].kind == CExpr::Braces)
    items = &p->kids[0].kids[0];
  else if (p->kind == CExpr::Name)
    if (Var *v = find(p->text); v && v->kind == Var::Kind::IntArray)
      return listText(v->items);
  if (!items)
    return error(ptr, "expected std::array<..>{..}.cbegin() for a list argument");
  std::vector<std::string> out;
  for (const CExpr &x : items->kids) {
    const CExpr *y = &x;
    if (y->kind == CExpr::Unary && y->text == "&") // Tensor?[]: &temporary_reference(x.get())
      y = &y->kids[0];
    auto s = py(*y, 1);
    if (!s)
      return s;
    std::string v = s.take();
    if (type == ArgType::BoolList)
      v = v == "0" ? "False" : v == "1" ? "True" : v;
    out.push_back(v);
  }
  return listText(out);
}

Expected<std::string> CppReader::scalarArg(const CExpr &e, ArgType type) {
  auto s = py(e, 1);
  if (!s)
    return s;
  if (type == ArgType::Bool)
    return std::string(*s == "0" ? "False" : *s == "1" ? "True" : *s);
  return s;
}

Expected<std::string> CppReader::optionalValue(const CExpr &e, ArgType type) {
  // nullptr -> None; &var_0 -> its value; &temporary_reference(x.get()) -> x.
  if (e.kind == CExpr::Name && e.text == "nullptr")
    return std::string("None");
  return scalarArg(e, type);
}

std::string CppReader::tupleName(const std::vector<std::string> &outNames,
                                 const std::string &fallback) {
  // The fallback kernel's own buffer: the name before its first result (FallbackKernel
  // registers its buffer, then one MultiOutput per result: buf14 -> buf15, buf16, ..).
  for (const std::string &n : outNames) {
    if (n.size() > 3 && n.starts_with("buf") &&
        std::all_of(n.begin() + 3, n.end(), [](char ch) { return std::isdigit(ch) != 0; })) {
      long k = std::strtol(n.c_str() + 3, nullptr, 10);
      std::string t = "buf" + std::to_string(k - 1);
      if (k > 0 && !find(t))
        return t;
    }
    break;
  }
  return fallback;
}

Status CppReader::nameResults(const std::string &tuple, bool isTuple,
                              std::vector<std::pair<std::string, std::optional<size_t>>> &outs) {
  std::vector<std::pair<std::string, std::optional<size_t>>> used;
  for (const auto &o : outs) {
    Var *r = find(o.first);
    if (!r)
      return error(1, 1, "'" + o.first + "' is not declared");
    // The assignment from the call is one reference; the program reads it if there are more.
    if (isTuple && outs.size() > 1 && laterReferences(o.first) <= 1) {
      r->py = tuple + "[" + std::to_string(o.second.value_or(0)) + "]";
      r->bound = false;
      continue;
    }
    r->py = o.first;
    r->bound = true;
    used.push_back(o);
  }
  outs = std::move(used);
  return Status::ok();
}

bool CppReader::unbackedFollows(const std::vector<std::string> &names) const {
  const auto &[list, at] = context_.back();
  for (size_t k = at + 1; k < list->size(); ++k) {
    const CStmt &s = (*list)[k];
    if (s.kind == CStmt::Comment)
      continue;
    if (s.kind != CStmt::Decl)
      return false;
    if (s.type == "RAIIAtenTensorHandle")
      continue;
    const CExpr *v = s.exprs.empty() ? nullptr : &s.exprs[0];
    return v && v->kind == CExpr::Call && v->kids[0].kind == CExpr::Member &&
           (v->kids[0].text == "size" || v->kids[0].text == "stride") &&
           v->kids[0].kids[0].kind == CExpr::Name &&
           std::find(names.begin(), names.end(), v->kids[0].kids[0].text) != names.end();
  }
  return false;
}

void CppReader::emitResults(const CStmt &at, const std::string &call, const std::string &tuple,
                            const std::vector<std::pair<std::string, std::optional<size_t>>> &outs,
                            bool isTuple) {
  if (outs.empty()) {
    emit(at, call);
    return;
  }
  emit(at, tuple + " = " + call);
  for (const auto &o : outs) {
    std::string value = isTuple && o.second ? tuple + "[" + std::to_string(*o.second) + "]" : tuple;
    emit(at, o.first + " = " + value);
  }
  std::vector<std::string> names;
  for (const auto &o : outs)
    names.push_back(o.first);
  if (!unbackedFollows(names)) {
    emit(at, "del " + tuple);
    return;
  }
  // The Python wrapper deletes such a result with its first named result.
  if (!names.empty())
    deleteWith_[names.front()] = tuple;
}

Status CppReader::fallback(const std::vector<CStmt> &ss, size_t i, const CExpr &c,
                           const std::string &fn, const std::string &op, const OpSchema *schema) {
  const CStmt &s = ss[i];
  std::vector<const CExpr *> a;
  for (size_t k = 1; k < c.kids.size(); ++k)
    a.push_back(&c.kids[k]);
  std::vector<std::string> positional, keywords;
  std::string target;
  size_t k = 0;
  // Results: `&<name>_handle` (a tensor), `&<name>` (an int), nullptr (an unused result).
  struct Result {
    std::string handle; ///< the C++ variable it is written to; "" for nullptr
    bool tensor = true;
  };
  std::vector<Result> res;
  bool outFirst = false;
  if (schema) {
    std::string ov = schema->overload.empty() ? "default" : schema->overload;
    target = "torch.ops.aten." + schema->name + "." + ov;
    // `.out` overloads take the out tensors first (ExternKernelOut inserts `out` at 0).
    std::vector<const ArgSpec *> outArgs;
    for (const ArgSpec &spec : schema->args)
      if (spec.kwargOnly && spec.type == ArgType::Tensor && spec.name.starts_with("out"))
        outArgs.push_back(&spec);
    outFirst = !outArgs.empty();
    std::vector<std::string> outValues;
    if (outFirst) {
      for (size_t o = 0; o < outArgs.size(); ++o, ++k) {
        if (k >= a.size())
          return error(c, fn + ": too few arguments for " + target);
        FXKIT_ASSIGN_OR_RETURN(auto v, py(*a[k], 1));
        outValues.push_back(std::move(v));
      }
    }
    std::vector<std::pair<const ArgSpec *, std::string>> bound;
    for (const ArgSpec &spec : schema->args) {
      if (outFirst && spec.kwargOnly && spec.type == ArgType::Tensor &&
          spec.name.starts_with("out"))
        continue;
      bool list = spec.type == ArgType::TensorList || spec.type == ArgType::IntList ||
                  spec.type == ArgType::SymIntList || spec.type == ArgType::FloatList ||
                  spec.type == ArgType::BoolList || spec.type == ArgType::ScalarList ||
                  spec.type == ArgType::OptionalTensorList || spec.type == ArgType::StrList ||
                  spec.type == ArgType::ComplexList || spec.type == ArgType::Device;
      if (k + (list ? 2 : 1) > a.size())
        return error(c, fn + ": too few arguments for " + target + " (at '" + spec.name + "')");
      Expected<std::string> v = std::string();
      if (spec.type == ArgType::Device) {
        const CExpr &d = *a[k];
        if (d.kind == CExpr::Name && d.text == "nullptr") {
          v = std::string("None");
        } else {
          auto type = py(d, 1), index = py(*a[k + 1], 1);
          FXKIT_TRY(type);
          FXKIT_TRY(index);
          v = "device(type=" + *type + ", index=" + *index + ")";
        }
      } else if (list) {
        v = listArg(*a[k], spec.optional, spec.type);
      } else if (spec.optional) {
        v = optionalValue(*a[k], spec.type);
      } else {
        v = scalarArg(*a[k], spec.type);
      }
      FXKIT_TRY(v);
      bound.push_back({&spec, v.take()});
      k += list ? 2 : 1;
    }
    // The Python wrapper writes the FX node's arguments: positional ones up to the last that
    // differs from its default, keyword-only ones that differ.
    size_t last = 0;
    for (size_t b = 0; b < bound.size(); ++b)
      if (!bound[b].first->kwargOnly &&
          !(bound[b].first->hasDefault &&
            equalsDefault(bound[b].second, bound[b].first->defaultValue)))
        last = b + 1;
    for (size_t b = 0; b < bound.size(); ++b) {
      const ArgSpec &spec = *bound[b].first;
      if (!spec.kwargOnly) {
        if (b < last)
          positional.push_back(bound[b].second);
      } else if (!(spec.hasDefault && equalsDefault(bound[b].second, spec.defaultValue))) {
        keywords.push_back(spec.name + "=" + bound[b].second);
      }
    }
    for (size_t o = 0; o < outValues.size(); ++o)
      keywords.push_back(outArgs[o]->name + "=" + outValues[o]);
    if (outFirst) {
      if (k != a.size())
        return error(c, fn + ": " + std::to_string(a.size() - k) + " arguments more than " +
                            target + " takes");
    } else {
      for (; k < a.size(); ++k) {
        std::string h = addressOf(*a[k]);
        if (h.empty() && !(a[k]->kind == CExpr::Name && a[k]->text == "nullptr"))
          return error(*a[k], "expected '&<result>' or nullptr for a result of " + target);
        Var *v = h.empty() ? nullptr : find(h);
        if (!h.empty() && !v)
          return error(*a[k], "'" + h + "' is not declared");
        res.push_back({h, !v || v->kind == Var::Kind::Handle});
      }
      if (res.size() != schema->returns.size())
        return error(c, fn + ": " + target + " has " + std::to_string(schema->returns.size()) +
                            " results, the call passes " + std::to_string(res.size()));
    }
  } else {
    // No schema: inputs up to the first `&result`, arrays as lists (their lengths dropped).
    target = "torch.ops.aten." + op + ".default";
    for (; k < a.size() && addressOf(*a[k]).empty(); ++k) {
      const CExpr &x = *a[k];
      bool array = x.kind == CExpr::Call && x.kids.size() == 1 && x.kids[0].kind == CExpr::Member &&
                   x.kids[0].kids[0].kind == CExpr::Braces;
      if (array || (x.kind == CExpr::Unary && x.text == "&")) {
        FXKIT_ASSIGN_OR_RETURN(auto t, array ? listArg(x, false, ArgType::IntList) : py(x, 1));
        positional.push_back(std::move(t));
        if (array)
          ++k;
        continue;
      }
      if (x.kind == CExpr::Name && after(x.text, "cached_torch_device_type_") != "" &&
          k + 1 < a.size()) {
        auto type = py(x, 1), index = py(*a[k + 1], 1);
        FXKIT_TRY(type);
        FXKIT_TRY(index);
        positional.push_back("device(type=" + *type + ", index=" + *index + ")");
        ++k;
        continue;
      }
      FXKIT_ASSIGN_OR_RETURN(auto t, py(x, 1));
      positional.push_back(std::move(t));
    }
    for (; k < a.size(); ++k) {
      std::string h = addressOf(*a[k]);
      if (h.empty() && !(a[k]->kind == CExpr::Name && a[k]->text == "nullptr"))
        return error(*a[k], "expected '&<result>' or nullptr after the first result of " + fn);
      Var *v = h.empty() ? nullptr : find(h);
      if (!h.empty() && !v)
        return error(*a[k], "'" + h + "' is not declared");
      res.push_back({h, !v || v->kind == Var::Kind::Handle});
    }
  }
  std::string callText = target + "(";
  for (size_t p = 0; p < positional.size(); ++p)
    callText += (p ? ", " : "") + positional[p];
  for (size_t p = 0; p < keywords.size(); ++p)
    callText += (p || !positional.empty() ? ", " : "") + keywords[p];
  callText += ")";
  if (outFirst) {
    emit(s, callText);
    return Status::ok();
  }
  std::vector<std::string> tensorNames;
  std::string intTuple;
  for (const Result &r : res) {
    if (r.handle.empty())
      continue;
    if (r.tensor) {
      tensorNames.push_back(handleBase(r.handle));
    } else if (size_t u = r.handle.rfind('_'); u != std::string::npos && intTuple.empty()) {
      intTuple = r.handle.substr(0, u); // `buf0_4`: the 4th result of buf0
    }
  }
  std::string tuple = !intTuple.empty() ? intTuple : tupleName(tensorNames, fn + "_result");
  std::vector<std::pair<std::string, std::optional<size_t>>> outs;
  for (size_t r = 0; r < res.size(); ++r) {
    const Result &one = res[r];
    if (one.handle.empty())
      continue;
    Var *v = find(one.handle);
    if (one.tensor) {
      // A result nothing reads is not named (the Python wrapper writes no getitem for it).
      std::string name = handleBase(one.handle);
      if (laterReferences(name) == 0 && res.size() > 1) {
        v->py = tuple + "[" + std::to_string(r) + "]";
        v->bound = false;
        continue;
      }
      outs.push_back({name, r});
      v->py = name;
      v->bound = true;
    } else if (laterReferences(one.handle) > 0) {
      outs.push_back({one.handle, r});
      v->py = one.handle;
      v->bound = true;
    }
  }
  emitResults(s, callText, tuple, outs, res.size() > 1);
  return Status::ok();
}

Status CppReader::outputsOf(const std::vector<CStmt> &ss, size_t i, const std::string &source,
                            std::vector<std::pair<std::string, std::optional<size_t>>> &outs) {
  // `buf5 = torch::stable::detail::to<AtenTensorHandle>(dispatch_vars[0]);` or
  // `buf2 = reinterpret_cast<AtenTensorHandle>(PyCapsule_GetPointer(py_buf1.get(), NULL));`
  // (`PyList_GET_ITEM(py_buf1.get(), k)` for one of several results), after the call.
  for (size_t k = i + 1; k < ss.size(); ++k) {
    const CStmt &s = ss[k];
    // Comments, and the checks of the Python call's result (`if (!py_buf1) {..}`).
    if (s.kind == CStmt::Comment || s.kind == CStmt::Empty || s.kind == CStmt::If)
      continue;
    if (s.kind != CStmt::Expr || s.exprs[0].kind != CExpr::Binary || s.exprs[0].text != "=" ||
        s.exprs[0].kids[0].kind != CExpr::Name)
      break;
    const CExpr &rhs = s.exprs[0].kids[1];
    std::optional<size_t> index;
    bool uses = false;
    std::function<void(const CExpr &)> scan = [&](const CExpr &e) {
      if (e.kind == CExpr::Name && e.text == source)
        uses = true;
      if (e.kind == CExpr::Index && e.kids[0].kind == CExpr::Name && e.kids[0].text == source &&
          e.kids[1].kind == CExpr::Number)
        index = std::strtoull(e.kids[1].text.c_str(), nullptr, 10);
      if (e.kind == CExpr::Call && e.kids[0].kind == CExpr::Name &&
          e.kids[0].text == "PyList_GET_ITEM" && e.kids.size() == 3 &&
          e.kids[2].kind == CExpr::Number)
        index = std::strtoull(e.kids[2].text.c_str(), nullptr, 10);
      for (const CExpr &kid : e.kids)
        scan(kid);
    };
    scan(rhs);
    if (!uses)
      break;
    const std::string &name = s.exprs[0].kids[0].text;
    Var *v = find(name);
    if (!v || v->kind != Var::Kind::Tensor)
      return error(s.exprs[0].kids[0], "'" + name + "' is not a declared RAIIAtenTensorHandle");
    outs.push_back({name, index});
  }
  return Status::ok();
}

Status CppReader::dispatcher(const std::vector<CStmt> &ss, size_t i, const CExpr &c) {
  // aoti_torch_call_dispatcher("aten::_unique2", "", dispatch_vars.data()): the op with the
  // arguments of dispatch_vars; results come back in it.
  const CStmt &s = ss[i];
  if (c.kids.size() != 4 || c.kids[1].kind != CExpr::String || c.kids[2].kind != CExpr::String)
    return error(c, "expected aoti_torch_call_dispatcher(\"ns::op\", \"overload\", vars)");
  const CExpr *vars = &c.kids[3];
  if (vars->kind == CExpr::Call && vars->kids.size() == 1 && vars->kids[0].kind == CExpr::Member)
    vars = &vars->kids[0].kids[0];
  Var *v = vars->kind == CExpr::Name ? find(vars->text) : nullptr;
  if (!v || v->kind != Var::Kind::DispatchVars)
    return error(c.kids[3], "expected <dispatch_vars>.data()");
  std::string qualified = c.kids[1].text;
  size_t colons = qualified.find("::");
  if (colons == std::string::npos)
    return error(c.kids[1], "expected \"namespace::op\"");
  std::string ns = qualified.substr(0, colons), opName = qualified.substr(colons + 2);
  std::string ov = c.kids[2].text.empty() ? "default" : c.kids[2].text;
  std::string target = "torch.ops." + ns + "." + opName + "." + ov;
  std::vector<std::pair<std::string, std::optional<size_t>>> outs;
  FXKIT_TRY(outputsOf(ss, i, vars->text, outs));
  // Arguments: all of the schema's, positionally; a known schema says which are bools and
  // which may be left out.
  std::vector<std::string> args = v->items;
  const OpSchema *schema = nullptr;
  if (ns == "aten") {
    const SchemaTable &table = SchemaTable::instance();
    if (auto it = table.byName.find(opName + "." + ov); it != table.byName.end())
      schema = &it->second;
  }
  std::string callText = target + "(";
  if (schema && schema->args.size() <= args.size()) {
    std::vector<std::string> positional, keywords;
    size_t last = 0;
    for (size_t b = 0; b < schema->args.size(); ++b) {
      const ArgSpec &spec = schema->args[b];
      if (spec.type == ArgType::Bool && (args[b] == "0" || args[b] == "1"))
        args[b] = args[b] == "1" ? "True" : "False";
      if (!spec.kwargOnly && !(spec.hasDefault && equalsDefault(args[b], spec.defaultValue)))
        last = b + 1;
    }
    for (size_t b = 0; b < schema->args.size(); ++b) {
      const ArgSpec &spec = schema->args[b];
      if (!spec.kwargOnly && b < last)
        positional.push_back(args[b]);
      else if (spec.kwargOnly && !(spec.hasDefault && equalsDefault(args[b], spec.defaultValue)))
        keywords.push_back(spec.name + "=" + args[b]);
    }
    for (size_t p = 0; p < positional.size(); ++p)
      callText += (p ? ", " : "") + positional[p];
    for (size_t p = 0; p < keywords.size(); ++p)
      callText += (p || !positional.empty() ? ", " : "") + keywords[p];
  } else {
    // Without a schema the array holds the arguments and, after them, room for the results.
    for (size_t p = 0; p < args.size(); ++p)
      callText += (p ? ", " : "") + args[p];
  }
  callText += ")";
  std::vector<std::string> names;
  for (const auto &o : outs)
    names.push_back(o.first);
  std::string tuple = tupleName(names, vars->text + "_result");
  bool isTuple = !(schema && schema->returns.size() == 1) && !(outs.size() == 1 && !schema);
  FXKIT_TRY(nameResults(tuple, isTuple, outs));
  emitResults(s, callText, tuple, outs, isTuple);
  return Status::ok();
}

Status CppReader::pythonCall(const std::vector<CStmt> &ss, size_t i, const std::string &tuple,
                             const CExpr &call) {
  // RAIIPyObject py_buf1(PyObject_CallObject(custom_op_wrapper, py_args_0)): py_args_0 holds
  // the op's name, then its arguments.
  const CStmt &s = ss[i];
  if (call.kids[2].kind != CExpr::Name)
    return error(call, "expected PyObject_CallObject(custom_op_wrapper, <args>)");
  Var *args = find(call.kids[2].text);
  if (!args || args->kind != Var::Kind::PyArgs || args->items.empty())
    return error(call.kids[2], "'" + call.kids[2].text + "' is not a tuple of arguments");
  std::string op = args->items[0];
  if (op.size() < 2 || op.front() != '\'')
    return error(call.kids[2],
                 "the first item of '" + call.kids[2].text + "' must be the op's name");
  op = op.substr(1, op.size() - 2);
  if (op.starts_with("aten."))
    op = "torch.ops." + op;
  std::string callText = op + "(";
  for (size_t k = 1; k < args->items.size(); ++k)
    callText += (k > 1 ? ", " : "") + args->items[k];
  callText += ")";
  std::string result = s.name;
  std::vector<std::pair<std::string, std::optional<size_t>>> outs;
  FXKIT_TRY(outputsOf(ss, i, result, outs));
  bool isTuple = false;
  for (const auto &o : outs)
    isTuple = isTuple || o.second.has_value();
  FXKIT_TRY(nameResults(tuple, isTuple, outs));
  emitResults(s, callText, tuple, outs, isTuple);
  return Status::ok();
}

// === The module ===============================================================================

Expected<std::string> CppReader::translate() {
  std::vector<std::string_view> lines = splitLines(text_);
  out_.assign(lines.size(), "");
  std::vector<size_t> offset(lines.size() + 1, 0);
  for (size_t i = 0; i < lines.size(); ++i)
    offset[i + 1] = offset[i] + lines[i].size() + 1;
  size_t i = 0;
  // The docstring: the autotuning block, whose kernel definitions are the module's kernels.
  if (!lines.empty() && trim(lines[0]).starts_with("r\"\"\"")) {
    size_t close = 1;
    while (close < lines.size() && trim(lines[close]) != "\"\"\"")
      ++close;
    if (close == lines.size())
      return error(1, 1, "unterminated docstring");
    size_t wait = 1;
    while (wait < close && trim(lines[wait]) != "async_compile.wait(globals())")
      ++wait;
    if (wait < close) {
      // The block's title line (`Compile-time auto-tuning block:`) is prose, not Python.
      size_t first = 1;
      while (first < wait && !trim(lines[first]).starts_with("import ") &&
             !trim(lines[first]).starts_with("from "))
        ++first;
      for (size_t k = first; k <= wait; ++k)
        out_[k] = std::string(lines[k]);
      if (wait + 1 < close && trim(lines[wait + 1]) == "del async_compile")
        out_[wait + 1] = std::string(lines[wait + 1]);
    }
    // The rest of the docstring runs the kernels on example values once, for autotuning;
    // the entry function says what the program does.
    i = close + 1;
  }
  std::vector<CStmt> entry;
  bool sawCpp = false;
  int entryLine = 0;
  size_t entryEnd = 0;
  for (; i < lines.size(); ++i) {
    std::string t = trim(lines[i]);
    bool main = t == "cpp_wrapper_src = (";
    if (main || t == "kernel_src = (") {
      if (i + 1 >= lines.size() || trim(lines[i + 1]) != "r'''")
        return error(static_cast<int>(i) + 2, 1, "expected r''' after '" + t + "'");
      size_t close = i + 2;
      while (close < lines.size() && trim(lines[close]) != "'''")
        ++close;
      if (close + 1 >= lines.size() || trim(lines[close + 1]) != ")")
        return error(static_cast<int>(i) + 1, 1, "unterminated C++ source string");
      cppKernels(offset[i + 2], offset[close], static_cast<int>(i) + 3);
      if (!main) {
        i = close + 1;
        continue;
      }
      size_t fnLine = i + 2;
      while (fnLine < close && !lines[fnLine].starts_with("void inductor_entry_impl("))
        ++fnLine;
      if (fnLine == close)
        return error(static_cast<int>(i) + 1, 1,
                     "no 'void inductor_entry_impl(' in the C++ source");
      FXKIT_TRY(launchers(offset[i + 2], offset[fnLine], static_cast<int>(i) + 3));
      size_t open = fnLine;
      while (open < close && trim(lines[open]) != ") {")
        ++open;
      size_t stop = open;
      while (stop < close && !lines[stop].starts_with("} // inductor_entry_impl"))
        ++stop;
      if (stop == close) {
        stop = open;
        while (stop < close && !lines[stop].starts_with("}"))
          ++stop;
      }
      if (open == close || stop == close)
        return error(static_cast<int>(fnLine) + 1, 1, "unterminated inductor_entry_impl");
      FXKIT_ASSIGN_OR_RETURN(auto toks, inductor::tokenizeCpp(text_, offset[open + 1], offset[stop],
                                                              static_cast<int>(open) + 2, file_));
      FXKIT_ASSIGN_OR_RETURN(auto stmts,
                             inductor::parseCppStatements(toks, text_, file_, kMaxDepth));
      entry = std::move(stmts);
      entryLine = static_cast<int>(fnLine) + 1;
      entryEnd = stop;
      sawCpp = true;
      i = close + 1;
      continue;
    }
    if (t.starts_with("def _wrap_func(")) {
      // The Python side of the binding: converts tensors to handles and back.
      ++i;
      while (i < lines.size() && (lines[i].empty() || lines[i].starts_with(" ")))
        ++i;
      --i;
      continue;
    }
    if (t == "call = _wrap_func(inductor_entry)" || t == "kernel_src = ''")
      continue;
    out_[i] = std::string(lines[i]);
  }
  if (!sawCpp)
    return error(1, 1, "no 'cpp_wrapper_src = (' string: not Inductor's C++ wrapper code");
  // Translate the entry function's statements (the launchers and C++ kernels are known).
  pushScope();
  FXKIT_TRY(statements(entry));
  int endLine = static_cast<int>(entryEnd) + 1;
  popScope(endLine);
  while (!open_.empty())
    closeBlock(endLine);
  if (inputs_.empty())
    return error(entryLine, 1, "inductor_entry_impl takes no inputs (no 'std::move(inputs[0])')");
  if (inputs_.rbegin()->first + 1 != inputs_.size())
    return error(inputsLine_, inputsCol_, "the inputs are not taken one by one from inputs[0]");
  if (inputCount_ && inputCount_ != inputs_.size())
    return error(inputsLine_, inputsCol_,
                 "steal_from_raw_handles_to_raii_handles takes " + std::to_string(inputCount_) +
                     " inputs, the entry function uses " + std::to_string(inputs_.size()));
  if (outputs_.empty() && outputsLine_ == 0)
    outputsLine_ = endLine;
  // The module: the original lines, then the C++ kernels as cpp_pybinding definitions, then
  // call().
  std::string module;
  for (const std::string &l : out_)
    module += l + "\n";
  int next = static_cast<int>(out_.size()) + 1;
  auto add = [&](const std::string &code, int line, int col) {
    module += code + "\n";
    lineMap_[next++] = {line, col};
  };
  for (const auto &[name, k] : cppKernels_) {
    std::string types;
    for (size_t t = 0; t < k.types.size(); ++t)
      types += (t ? ", " : "") + pyQuote(k.types[t]);
    add(name + " = async_compile.cpp_pybinding([" + types + "], r'''", k.line, 1);
    for (std::string_view l : splitLines(k.source))
      add(std::string(l), k.line, 1);
    add("''')", k.line, 1);
  }
  add("def call(args):", entryLine, 1);
  std::string unpack;
  for (const auto &[idx, name] : inputs_)
    unpack += name + ", ";
  unpack.resize(unpack.size() - (inputs_.size() > 1 ? 2 : 1));
  add("    " + unpack + " = args", inputsLine_, inputsCol_);
  for (const PyLine &l : body_) {
    std::string code = std::string(4 * static_cast<size_t>(l.indent), ' ') + l.code;
    if (!l.comment.empty())
      code += "  # " + l.comment;
    add(code, l.line, l.col);
  }
  std::string ret = "    return (";
  size_t count = outputs_.empty() ? 0 : outputs_.rbegin()->first + 1;
  for (size_t k = 0; k < count; ++k) {
    auto it = outputs_.find(k);
    ret += (it == outputs_.end() ? std::string("None") : it->second) + ", ";
  }
  add(count == 0 ? "    return ()" : ret + ")", outputsLine_, outputsCol_);
  return module;
}

Expected<InductorWrapper> CppReader::read() {
  FXKIT_ASSIGN_OR_RETURN(auto module, translate());
  auto w = importInductorWrapper(module, file_);
  if (!w) {
    // Lines of the translated call() are named by the C++ statement they came from.
    Error err = w.takeError();
    if (auto it = lineMap_.find(err.loc.line); it != lineMap_.end()) {
      err.loc.line = it->second.first;
      err.loc.col = it->second.second;
    }
    if (err.loc.line > 0)
      err.snippet = std::string(sourceLine(text_, err.loc.line));
    return err;
  }
  for (inductor::InductorKernel &k : w->info->kernels)
    if (auto it = launchers_.find(k.name); it != launchers_.end()) {
      k.launchGrid = it->second.grid;
      k.numWarps = it->second.numWarps;
      k.sharedMemBytes = it->second.sharedMemBytes;
    }
  return w;
}

} // namespace

bool looksLikeInductorCppWrapper(std::string_view content) {
  return content.find("cpp_wrapper_src") != std::string_view::npos &&
         content.find("inductor_entry_impl") != std::string_view::npos;
}

Expected<InductorWrapper> importInductorCppWrapper(std::string_view text,
                                                   const std::string &fileName) {
  return CppReader(text, fileName).read();
}

Expected<std::string> translateInductorCppWrapper(std::string_view text,
                                                  const std::string &fileName) {
  return CppReader(text, fileName).translate();
}

} // namespace fxkit
