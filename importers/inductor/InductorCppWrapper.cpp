#include "importers/inductor/InductorCppWrapper.h"

#include "importers/PyLexer.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

namespace fxkit {

namespace {

/// One C++ token with its 1-based position in the file.
struct CTok {
  enum Kind { Ident, Number, Punct, End } kind = End;
  std::string text;
  int line = 0, col = 0;
};

/// A C++ expression of the entry function (calls, names, numbers, `&x`, casts, braces).
struct CExpr {
  enum Kind { Name, Number, Call, Unary, Binary, Braces, Member, Index } kind = Name;
  std::string text; ///< name, number, operator, member name
  std::vector<CExpr> kids;
  int line = 0, col = 0;
};

/// Deep enough for Inductor's nesting (a view inside a wrapper inside a call), small enough
/// that hostile input cannot exhaust the stack.
constexpr int kMaxDepth = 64;

class CppReader {
public:
  CppReader(std::string_view text, const std::string &file) : text_(text), file_(file) {}
  Expected<InductorWrapper> read();

private:
  Error error(int line, int col, std::string message) const {
    return Error(std::move(message), SourceLoc{file_, line, col},
                 std::string(sourceLine(text_, line)));
  }
  Error error(const CTok &t, std::string m) const { return error(t.line, t.col, std::move(m)); }
  Error error(const CExpr &e, std::string m) const { return error(e.line, e.col, std::move(m)); }

  Status tokenize(size_t begin, size_t end, int line);
  Expected<CExpr> expr(size_t &i, int depth);
  Expected<CExpr> primary(size_t &i, int depth);
  Status launchers(size_t begin, size_t end, int line);
  Status body();
  Status statement(size_t begin, size_t end, std::string &py);
  Expected<std::string> python(const CExpr &e, int depth);
  Expected<std::string> array(const CExpr &e);
  Expected<std::string> handleOut(const CExpr &e);

  std::string_view text_;
  const std::string &file_;
  std::vector<std::string> out_; ///< the synthesized Python module, line by line (0-based)
  std::vector<CTok> toks_;
  std::map<std::string, std::string> arrays_;  ///< int_array_N -> Python tuple text
  std::map<std::string, size_t> launcherArgs_; ///< kernel -> arguments a launch passes
  struct Launch {
    std::vector<std::string> grid;
    int64_t numWarps = 0, sharedMemBytes = 0;
  };
  std::map<std::string, Launch> launches_; ///< kernel -> its launcher's grid and launch
  std::vector<std::string> inputs_;
  int inputsLine_ = 0;
  std::vector<std::string> outputs_;
  int outputsLine_ = 0;
  std::string indent_ = "    ";
  /// Line -> column of the first C++ statement on it: errors the Python importer finds in a
  /// rewritten statement point at the C++ statement, whose columns differ from the rewrite's.
  std::map<int, int> stmtCol_;
  std::map<std::string, std::string> inlined_; ///< var_N -> its Python expression
};

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

Status CppReader::tokenize(size_t begin, size_t end, int line) {
  toks_.clear();
  size_t lineStart = begin;
  // The column of `begin` in its line: find the line's start.
  while (lineStart > 0 && text_[lineStart - 1] != '\n')
    --lineStart;
  for (size_t i = begin; i < end;) {
    char c = text_[i];
    int col = int(i - lineStart) + 1;
    if (c == '\n') {
      ++line;
      lineStart = ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < end && text_[i + 1] == '/') {
      size_t nl = text_.find('\n', i);
      size_t stop = nl == std::string_view::npos || nl > end ? end : nl;
      // Comments are kept as tokens: provenance comments become Python comments.
      toks_.push_back(
          {CTok::Punct, "//" + std::string(text_.substr(i + 2, stop - i - 2)), line, col});
      i = stop;
      continue;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < end && (std::isalnum(static_cast<unsigned char>(text_[j])) || text_[j] == '_' ||
                         (text_[j] == ':' && j + 1 < end && text_[j + 1] == ':'))) {
        j += text_[j] == ':' ? 2 : 1;
      }
      toks_.push_back({CTok::Ident, std::string(text_.substr(i, j - i)), line, col});
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < end && (std::isalnum(static_cast<unsigned char>(text_[j])) || text_[j] == '.'))
        ++j;
      std::string num(text_.substr(i, j - i));
      // Integer suffixes (12288L, 1UL) carry no meaning in Python.
      while (!num.empty() &&
             (num.back() == 'L' || num.back() == 'U' || num.back() == 'l' || num.back() == 'u'))
        num.pop_back();
      toks_.push_back({CTok::Number, num, line, col});
      i = j;
      continue;
    }
    if (std::string_view("(){}[],;&*+-/%<>.=!").find(c) != std::string_view::npos) {
      toks_.push_back({CTok::Punct, std::string(1, c), line, col});
      ++i;
      continue;
    }
    return error(line, col, std::string("unexpected character '") + c + "' in C++ code");
  }
  toks_.push_back({CTok::End, "", line, 1});
  return Status::ok();
}

Expected<CExpr> CppReader::primary(size_t &i, int depth) {
  if (depth > kMaxDepth)
    return error(toks_[i], "C++ expression nested too deeply");
  const CTok &t = toks_[i];
  CExpr e;
  e.line = t.line;
  e.col = t.col;
  if (t.kind == CTok::Punct && (t.text == "&" || t.text == "-" || t.text == "!" || t.text == "*")) {
    ++i;
    auto sub = primary(i, depth + 1);
    if (!sub)
      return sub;
    e.kind = CExpr::Unary;
    e.text = t.text;
    e.kids.push_back(sub.take());
    return e;
  }
  if (t.kind == CTok::Punct && t.text == "(") {
    // A cast `(void**)&x` is dropped; otherwise a parenthesized expression.
    if (toks_[i + 1].kind == CTok::Ident && toks_[i + 1].text == "void") {
      size_t j = i;
      while (toks_[j].kind != CTok::End && toks_[j].text != ")")
        ++j;
      if (toks_[j].kind == CTok::End)
        return error(t, "unbalanced parentheses");
      i = j + 1;
      return primary(i, depth + 1);
    }
    ++i;
    auto inner = expr(i, depth + 1);
    if (!inner)
      return inner;
    if (toks_[i].text != ")")
      return error(toks_[i], "expected ')'");
    ++i;
    return inner;
  }
  if (t.kind == CTok::Punct && t.text == "{") {
    e.kind = CExpr::Braces;
    ++i;
    while (toks_[i].text != "}") {
      auto x = expr(i, depth + 1);
      if (!x)
        return x;
      e.kids.push_back(x.take());
      if (toks_[i].text == ",")
        ++i;
      else if (toks_[i].text != "}")
        return error(toks_[i], "expected ',' or '}'");
    }
    ++i;
    return e;
  }
  if (t.kind == CTok::Number) {
    e.kind = CExpr::Number;
    e.text = t.text;
    ++i;
    return e;
  }
  if (t.kind != CTok::Ident)
    return error(t, "expected an expression, found '" + t.text + "'");
  e.kind = CExpr::Name;
  e.text = t.text;
  ++i;
  // `std::array<int64_t, 2>{..}`: the template arguments say nothing the braces do not.
  if (e.text == "std::array" && toks_[i].text == "<") {
    while (toks_[i].kind != CTok::End && toks_[i].text != ">")
      ++i;
    if (toks_[i].kind == CTok::End)
      return error(t, "unterminated template argument list");
    ++i;
    auto braces = primary(i, depth + 1);
    if (!braces)
      return braces;
    if (braces->kind != CExpr::Braces)
      return error(*braces, "expected '{' after std::array<..>");
    e = braces.take();
  }
  for (;;) {
    const CTok &n = toks_[i];
    if (n.text == "(") {
      CExpr call;
      call.kind = CExpr::Call;
      call.line = e.line;
      call.col = e.col;
      call.kids.push_back(std::move(e));
      ++i;
      while (toks_[i].text != ")") {
        auto x = expr(i, depth + 1);
        if (!x)
          return x;
        call.kids.push_back(x.take());
        if (toks_[i].text == ",")
          ++i;
        else if (toks_[i].text != ")")
          return error(toks_[i], "expected ',' or ')' in call");
      }
      ++i;
      e = std::move(call);
    } else if (n.text == "." && toks_[i + 1].kind == CTok::Ident) {
      CExpr m;
      m.kind = CExpr::Member;
      m.text = toks_[i + 1].text;
      m.line = e.line;
      m.col = e.col;
      m.kids.push_back(std::move(e));
      i += 2;
      e = std::move(m);
    } else if (n.text == "[") {
      ++i;
      CExpr ix;
      ix.kind = CExpr::Index;
      ix.line = e.line;
      ix.col = e.col;
      ix.kids.push_back(std::move(e));
      if (toks_[i].text != "]") {
        auto x = expr(i, depth + 1);
        if (!x)
          return x;
        ix.kids.push_back(x.take());
      }
      if (toks_[i].text != "]")
        return error(toks_[i], "expected ']'");
      ++i;
      e = std::move(ix);
    } else {
      return e;
    }
  }
}

Expected<CExpr> CppReader::expr(size_t &i, int depth) {
  if (depth > kMaxDepth)
    return error(toks_[i], "C++ expression nested too deeply");
  auto lhs = primary(i, depth + 1);
  if (!lhs)
    return lhs;
  CExpr e = lhs.take();
  while (toks_[i].kind == CTok::Punct &&
         std::string_view("+-*/%").find(toks_[i].text) != std::string_view::npos &&
         toks_[i].text.size() == 1) {
    std::string op = toks_[i].text;
    ++i;
    auto rhs = primary(i, depth + 1);
    if (!rhs)
      return rhs;
    CExpr b;
    b.kind = CExpr::Binary;
    b.text = op;
    b.line = e.line;
    b.col = e.col;
    b.kids.push_back(std::move(e));
    b.kids.push_back(rhs.take());
    e = std::move(b);
  }
  return e;
}

/// `std::array<int64_t, n>{..}.cbegin()` (after parsing: a call of member cbegin of braces).
bool isArrayPointer(const CExpr &e) {
  return e.kind == CExpr::Call && e.kids.size() == 1 && e.kids[0].kind == CExpr::Member &&
         e.kids[0].text == "cbegin" && e.kids[0].kids[0].kind == CExpr::Braces;
}

std::string tuple(const std::vector<std::string> &items) {
  std::string s = "(";
  for (size_t i = 0; i < items.size(); ++i)
    s += (i ? ", " : "") + items[i];
  return s + (items.size() == 1 ? ",)" : ")");
}

Expected<std::string> CppReader::array(const CExpr &e) {
  if (e.kind == CExpr::Name) {
    auto it = arrays_.find(e.text);
    if (it == arrays_.end())
      return error(e, "unknown array '" + e.text + "'");
    return it->second;
  }
  if (isArrayPointer(e)) {
    std::vector<std::string> items;
    for (const CExpr &x : e.kids[0].kids[0].kids) {
      auto s = python(x, 1);
      if (!s)
        return s;
      items.push_back(s.take());
    }
    return tuple(items);
  }
  return error(e, "expected an int_array name or std::array<..>{..}.cbegin()");
}

Expected<std::string> CppReader::python(const CExpr &e, int depth) {
  if (depth > kMaxDepth)
    return error(e, "C++ expression nested too deeply");
  switch (e.kind) {
  case CExpr::Number:
    return e.text;
  case CExpr::Name:
    if (e.text == "nullptr")
      return std::string("None");
    if (e.text == "true" || e.text == "false")
      return std::string(e.text == "true" ? "True" : "False");
    if (e.text.find("::") != std::string::npos)
      return error(e, "unsupported name '" + e.text + "'");
    if (auto it = inlined_.find(e.text); it != inlined_.end())
      return it->second;
    return e.text;
  case CExpr::Unary: {
    if (e.text != "-")
      return error(e, "unsupported operator '" + e.text + "'");
    auto s = python(e.kids[0], depth + 1);
    if (!s)
      return s;
    return "-" + *s;
  }
  case CExpr::Binary: {
    auto a = python(e.kids[0], depth + 1);
    if (!a)
      return a;
    auto b = python(e.kids[1], depth + 1);
    if (!b)
      return b;
    // C++ integer division of sizes is Python's floor division (sizes are non-negative).
    return "(" + *a + " " + (e.text == "/" ? std::string("//") : e.text) + " " + *b + ")";
  }
  case CExpr::Call: {
    const std::string &callee = e.kids[0].kind == CExpr::Name ? e.kids[0].text : "";
    // `x.size(d)`: a size of an input, as the Python wrapper reads it.
    if (e.kids[0].kind == CExpr::Member && e.kids[0].text == "size" && e.kids.size() == 2 &&
        e.kids[0].kids[0].kind == CExpr::Name) {
      auto d = python(e.kids[1], depth + 1);
      if (!d)
        return d;
      return e.kids[0].kids[0].text + ".size(" + *d + ")";
    }
    if (callee == "wrap_with_raii_handle_if_needed" && e.kids.size() == 2)
      return python(e.kids[1], depth + 1);
    if (callee == "reinterpret_tensor_wrapper") {
      if (e.kids.size() != 6)
        return error(e, "reinterpret_tensor_wrapper takes (tensor, rank, sizes, strides, "
                        "offset)");
      auto base = python(e.kids[1], depth + 1);
      if (!base)
        return base;
      auto sz = array(e.kids[3]);
      if (!sz)
        return sz;
      auto st = array(e.kids[4]);
      if (!st)
        return st;
      auto off = python(e.kids[5], depth + 1);
      if (!off)
        return off;
      return "reinterpret_tensor(" + *base + ", " + *sz + ", " + *st + ", " + *off + ")";
    }
    return error(e, "unsupported call '" + (callee.empty() ? std::string("?") : callee) +
                        "' in an argument");
  }
  default:
    return error(e, "unsupported C++ expression");
  }
}

/// `&buf0_handle` -> `buf0`.
Expected<std::string> CppReader::handleOut(const CExpr &e) {
  if (e.kind == CExpr::Unary && e.text == "&" && e.kids[0].kind == CExpr::Name &&
      e.kids[0].text.ends_with("_handle"))
    return e.kids[0].text.substr(0, e.kids[0].text.size() - 7);
  return error(e, "expected '&<name>_handle'");
}

/// Keyword names of `extern_kernels.convolution` after its two tensors, in the order the C++
/// shim passes them (arrays with their lengths folded).
constexpr const char *kConvolutionArgs[] = {"bias",       "stride",         "padding", "dilation",
                                            "transposed", "output_padding", "groups"};

Status CppReader::statement(size_t b, size_t e, std::string &py) {
  const CTok &first = toks_[b];
  auto text = [&](size_t k) -> const std::string & { return toks_[b + k].text; };
  size_t n = e - b;
  auto parseAll = [&](size_t from) -> Expected<CExpr> {
    size_t i = b + from;
    auto x = expr(i, 0);
    if (!x)
      return x;
    if (i != e)
      return error(toks_[i], "unexpected '" + toks_[i].text + "' in statement");
    return x;
  };
  // Fixed boilerplate with no meaning for the graph.
  if (n == 2 && text(0) == "py::gil_scoped_release_simple")
    return Status::ok();
  if (n == 2 && text(0) == "cudaStream_t")
    return Status::ok();
  if (n == 2 && text(0) == "AtenTensorHandle" && text(1).ends_with("_handle"))
    return Status::ok();
  if (n == 5 && text(0) == "RAIIAtenTensorHandle" && text(3) == text(1) + "_handle")
    return Status::ok();
  // Size symbols: `int64_t s0;` filled by aoti_torch_get_size, or `int64_t s0 = expr;`.
  if (n == 2 && text(0) == "int64_t" && toks_[b + 1].kind == CTok::Ident)
    return Status::ok();
  if (n >= 4 && text(0) == "int64_t" && toks_[b + 1].kind == CTok::Ident && text(2) == "=") {
    auto v = parseAll(3);
    if (!v)
      return v.takeError();
    auto s = python(*v, 0);
    if (!s)
      return s.takeError();
    py = text(1) + " = " + *s;
    return Status::ok();
  }
  if (first.text == "AOTICudaGuard" && n == 5 && toks_[b + 3].kind == CTok::Number) {
    py = "with torch.cuda._DeviceGuard(" + text(3) + "):";
    indent_ += "    ";
    return Status::ok();
  }
  if (first.text == "static" && n >= 8 && text(1) == "constexpr" && text(2) == "int64_t" &&
      text(4) == "[" && text(5) == "]" && text(6) == "=") {
    auto v = parseAll(7);
    if (!v)
      return v.takeError();
    if (v->kind != CExpr::Braces)
      return error(*v, "expected '{...}'");
    std::vector<std::string> items;
    for (const CExpr &x : v->kids) {
      auto s = python(x, 1);
      if (!s)
        return s.takeError();
      items.push_back(s.take());
    }
    arrays_[text(3)] = tuple(items);
    return Status::ok();
  }
  if (first.text == "auto" && n >= 4 && toks_[b + 1].kind == CTok::Ident && text(2) == "=") {
    const std::string &name = text(1);
    auto v = parseAll(3);
    if (!v)
      return v.takeError();
    if (v->kind == CExpr::Call && v->kids[0].kind == CExpr::Name) {
      const std::string &callee = v->kids[0].text;
      if (callee == "steal_from_raw_handles_to_raii_handles" && name == "inputs")
        return Status::ok();
      if (callee == "std::move" && v->kids.size() == 2) {
        const CExpr &a = v->kids[1];
        if (a.kind == CExpr::Index && a.kids.size() == 2 && a.kids[0].kind == CExpr::Name &&
            a.kids[0].text == "inputs" && a.kids[1].kind == CExpr::Number) {
          if (std::to_string(inputs_.size()) != a.kids[1].text)
            return error(a, "inputs must be taken in order");
          if (inputs_.empty())
            inputsLine_ = first.line;
          inputs_.push_back(name);
          return Status::ok();
        }
        if (a.kind == CExpr::Name) {
          // A buffer that takes over another's storage: Python's `b1 = b0; del b0  # reuse`.
          py = name + " = " + a.text + "; del " + a.text + "  # reuse";
          return Status::ok();
        }
      }
    }
    auto s = python(*v, 0);
    if (!s)
      return s.takeError();
    if (name.starts_with("var_")) {
      // Inductor's temporaries for views passed on (mostly to the outputs): the Python
      // wrapper writes the view inline where it is used, so this does too.
      inlined_[name] = s.take();
      return Status::ok();
    }
    py = name + " = " + *s;
    return Status::ok();
  }
  if (first.text == "output_handles") {
    // `output_handles[i] = x.release()` is the one assignment form.
    if (n == 10 && text(1) == "[" && text(3) == "]" && text(4) == "=" && text(6) == "." &&
        text(7) == "release" && text(8) == "(" && text(9) == ")") {
      if (std::to_string(outputs_.size()) != text(2))
        return error(toks_[b + 2], "outputs must be written in order");
      auto it = inlined_.find(text(5));
      outputs_.push_back(it != inlined_.end() ? it->second : text(5));
      outputsLine_ = first.line;
      return Status::ok();
    }
    return error(first, "expected 'output_handles[i] = x.release()'");
  }
  auto v = parseAll(0);
  if (!v)
    return v.takeError();
  if (v->kind != CExpr::Call)
    return error(*v, "unsupported statement in inductor_entry_impl");
  if (v->kids[0].kind == CExpr::Member && v->kids[0].text == "reset" && v->kids.size() == 1 &&
      v->kids[0].kids[0].kind == CExpr::Name) {
    py = "del " + v->kids[0].kids[0].text;
    return Status::ok();
  }
  if (v->kids[0].kind != CExpr::Name)
    return error(*v, "unsupported call in inductor_entry_impl");
  std::string callee = v->kids[0].text;
  std::vector<const CExpr *> args;
  for (size_t k = 1; k < v->kids.size(); ++k)
    args.push_back(&v->kids[k]);
  auto pyArg = [&](size_t k) { return python(*args[k], 1); };
  if (callee.starts_with("call_")) {
    std::string kernel = callee.substr(5);
    auto it = launcherArgs_.find(kernel);
    if (it == launcherArgs_.end())
      return error(*v, "launch of unknown kernel '" + kernel + "' (no launcher '" + callee +
                           "' defined in the C++ source)");
    // The launcher takes the kernel's arguments, the device index and the stream.
    if (args.size() != it->second + 2)
      return error(*v, "'" + callee + "' takes " + std::to_string(it->second + 2) +
                           " arguments, not " + std::to_string(args.size()));
    std::string call = kernel + ".run(";
    for (size_t k = 0; k < it->second; ++k) {
      auto a = pyArg(k);
      if (!a)
        return a.takeError();
      call += *a + ", ";
    }
    auto stream = pyArg(args.size() - 1);
    if (!stream)
      return stream.takeError();
    py = call + "stream=" + *stream + ")";
    return Status::ok();
  }
  if (callee != "AOTI_TORCH_ERROR_CODE_CHECK" || args.size() != 1 || args[0]->kind != CExpr::Call ||
      args[0]->kids[0].kind != CExpr::Name)
    return error(*v, "unsupported call '" + callee + "' in inductor_entry_impl");
  const CExpr &shim = *args[0];
  std::string fn = shim.kids[0].text;
  std::vector<const CExpr *> sa;
  for (size_t k = 1; k < shim.kids.size(); ++k)
    sa.push_back(&shim.kids[k]);
  auto arg = [&](size_t k) { return python(*sa[k], 1); };
  if (fn == "aoti_torch_empty_strided") {
    if (sa.size() != 7)
      return error(shim, "aoti_torch_empty_strided takes 7 arguments");
    auto out = handleOut(*sa[6]);
    if (!out)
      return out.takeError();
    auto sz = array(*sa[1]);
    if (!sz)
      return sz.takeError();
    auto st = array(*sa[2]);
    if (!st)
      return st.takeError();
    if (sa[3]->kind != CExpr::Name || !sa[3]->text.starts_with("cached_torch_dtype_"))
      return error(*sa[3], "expected cached_torch_dtype_<dtype>");
    if (sa[4]->kind != CExpr::Name || !sa[4]->text.starts_with("cached_torch_device_type_"))
      return error(*sa[4], "expected cached_torch_device_type_<device>");
    std::string device = sa[4]->text.substr(25);
    py = *out + " = empty_strided_" + device + "(" + *sz + ", " + *st + ", torch." +
         sa[3]->text.substr(19) + ")";
    return Status::ok();
  }
  if (fn == "aoti_torch_get_size" || fn == "aoti_torch_get_stride") {
    if (sa.size() != 3 || sa[2]->kind != CExpr::Unary || sa[2]->text != "&" ||
        sa[2]->kids[0].kind != CExpr::Name)
      return error(shim, "expected " + fn + "(tensor, dim, &symbol)");
    auto x = arg(0);
    if (!x)
      return x.takeError();
    auto d = arg(1);
    if (!d)
      return d.takeError();
    py = sa[2]->kids[0].text + " = " + *x + (fn.ends_with("size") ? ".size(" : ".stride(") + *d +
         ")";
    return Status::ok();
  }
  if (fn == "aoti_torch_get_current_cuda_stream") {
    if (sa.size() != 2 || sa[1]->kind != CExpr::Unary || sa[1]->text != "&" ||
        sa[1]->kids[0].kind != CExpr::Name)
      return error(shim, "expected aoti_torch_get_current_cuda_stream(i, (void**)&stream)");
    auto dev = arg(0);
    if (!dev)
      return dev.takeError();
    py = sa[1]->kids[0].text + " = get_raw_stream(" + *dev + ")";
    return Status::ok();
  }
  // Fallback ops: `aoti_torch_<device>_<op>`.
  std::string op;
  for (std::string_view prefix : {"aoti_torch_cuda_", "aoti_torch_cpu_"})
    if (fn.starts_with(prefix))
      op = fn.substr(prefix.size());
  if (op.empty())
    return error(shim, "unsupported call '" + fn + "' in inductor_entry_impl");
  if (op == "mm_out" || op == "bmm_out" || op == "addmm_out") {
    size_t want = op == "addmm_out" ? 6 : 3;
    if (sa.size() != want)
      return error(shim, fn + " takes " + std::to_string(want) + " arguments");
    std::vector<std::string> a;
    for (size_t k = 0; k < sa.size(); ++k) {
      auto s = arg(k);
      if (!s)
        return s.takeError();
      a.push_back(s.take());
    }
    std::string name = op.substr(0, op.size() - 4);
    if (op == "addmm_out") // (out, self, mat1, mat2, beta, alpha)
      py = "extern_kernels.addmm(" + a[1] + ", " + a[2] + ", " + a[3] + ", alpha=" + a[5] +
           ", beta=" + a[4] + ", out=" + a[0] + ")";
    else
      py = "extern_kernels." + name + "(" + a[1] + ", " + a[2] + ", out=" + a[0] + ")";
    return Status::ok();
  }
  // Other fallbacks return new tensors through trailing `&<name>_handle` arguments; arrays are
  // passed as (pointer, length) pairs.
  std::vector<std::string> outs, ins;
  size_t k = 0;
  for (; k < sa.size(); ++k) {
    if (sa[k]->kind == CExpr::Unary && sa[k]->text == "&")
      break;
    if (isArrayPointer(*sa[k])) {
      auto s = array(*sa[k]);
      if (!s)
        return s.takeError();
      ins.push_back(s.take());
      ++k; // the length
      continue;
    }
    auto s = arg(k);
    if (!s)
      return s.takeError();
    ins.push_back(s.take());
  }
  for (; k < sa.size(); ++k) {
    auto o = handleOut(*sa[k]);
    if (!o)
      return o.takeError();
    outs.push_back(o.take());
  }
  if (outs.empty())
    return error(shim, fn + " returns no tensor ('&<name>_handle' arguments)");
  if (op == "convolution") {
    if (ins.size() != 9 || outs.size() != 1)
      return error(shim, "aoti_torch_*_convolution takes input, weight, bias, stride, padding, "
                         "dilation, transposed, output_padding, groups and one output");
    py = outs[0] + " = extern_kernels.convolution(" + ins[0] + ", " + ins[1];
    for (size_t j = 0; j < 7; ++j) {
      std::string value = ins[2 + j];
      if (std::string(kConvolutionArgs[j]) == "transposed")
        value = value == "0" ? "False" : "True";
      if (j == 0)
        continue;
      py += std::string(", ") + kConvolutionArgs[j] + "=" + value;
    }
    py += ", bias=" + ins[2] + ")";
    return Status::ok();
  }
  std::string call = "torch.ops.aten." + op + ".default(";
  for (size_t j = 0; j < ins.size(); ++j)
    call += (j ? ", " : "") + ins[j];
  call += ")";
  if (outs.size() == 1) {
    py = outs[0] + " = " + call;
    return Status::ok();
  }
  // Several results: the op's tuple, then one getitem per result, as the Python wrapper does.
  std::string t = outs[0] + "_tuple";
  py = t + " = " + call;
  for (size_t j = 0; j < outs.size(); ++j)
    py += "; " + outs[j] + " = " + t + "[" + std::to_string(j) + "]";
  // The tuple lives no longer than the statement, as `del buf6` after the getitems says in
  // the Python wrapper.
  py += "; del " + t;
  return Status::ok();
}

Status CppReader::launchers(size_t begin, size_t end, int line) {
  // `static inline void call_<kernel>(params){`: the kernel's arguments, then the device
  // index, the stream and an optional cubin directory.
  std::string_view src = text_.substr(begin, end - begin);
  size_t pos = 0;
  constexpr std::string_view kHead = "static inline void call_";
  while ((pos = src.find(kHead, pos)) != std::string_view::npos) {
    size_t open = src.find('(', pos);
    size_t close = src.find("){", pos);
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) {
      int l = line + int(std::count(src.begin(), src.begin() + pos, '\n'));
      return error(l, 1, "malformed kernel launcher definition");
    }
    std::string name(src.substr(pos + kHead.size(), open - pos - kHead.size()));
    size_t count = 0;
    std::string_view params = src.substr(open + 1, close - open - 1);
    size_t start = 0;
    while (start <= params.size()) {
      size_t comma = params.find(',', start);
      std::string_view p = params.substr(
          start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
      if (p.find("device_idx_") == std::string_view::npos &&
          p.find("stream_") == std::string_view::npos &&
          p.find("cubin_dir_") == std::string_view::npos && !trim(p).empty())
        ++count;
      if (comma == std::string_view::npos)
        break;
      start = comma + 1;
    }
    launcherArgs_[name] = count;
    // The body up to the launcher's closing brace: grid dimensions and the launch.
    size_t bodyEnd = src.find("\n}", close);
    std::string_view bodyText = src.substr(
        close, bodyEnd == std::string_view::npos ? std::string_view::npos : bodyEnd - close);
    int bodyLine = line + int(std::count(src.begin(), src.begin() + close, '\n'));
    Launch launch;
    for (int d = 0; d < 3; ++d) {
      std::string head = "uint32_t grid_" + std::to_string(d) + " = ";
      size_t at = bodyText.find(head);
      size_t semi = at == std::string_view::npos ? at : bodyText.find(';', at);
      if (semi == std::string_view::npos)
        return error(bodyLine, 1, "launcher 'call_" + name + "' computes no " + head.substr(9, 6));
      launch.grid.push_back(trim(bodyText.substr(at + head.size(), semi - at - head.size())));
    }
    std::string launchHead = "launchKernel(" + name + ", grid_0, grid_1, grid_2, ";
    size_t at = bodyText.find(launchHead);
    if (at == std::string_view::npos)
      return error(bodyLine, 1, "launcher 'call_" + name + "' has no '" + launchHead + "...'");
    std::istringstream nums(std::string(bodyText.substr(at + launchHead.size(), 40)));
    char comma = 0;
    if (!(nums >> launch.numWarps >> comma >> launch.sharedMemBytes) || comma != ',')
      return error(bodyLine, 1,
                   "launcher 'call_" + name +
                       "': expected warps and shared memory "
                       "after the grid in launchKernel");
    launches_[name] = std::move(launch);
    pos = close;
  }
  return Status::ok();
}

Status CppReader::body() {
  std::map<int, std::string> py; // line -> Python statements on it
  std::map<int, std::string> indentOf;
  size_t start = 0;
  int lastEndLine = 0;
  for (size_t i = 0; i < toks_.size(); ++i) {
    const CTok &t = toks_[i];
    if (t.kind == CTok::Punct && t.text.starts_with("//")) {
      std::string c = "# " + trim(t.text.substr(2));
      if (i == start) {
        // A comment after a statement on its line (`// reuse`), or on a line of its own
        // (provenance, which gives launches their origins).
        if (t.line == lastEndLine && py.count(t.line)) {
          py[t.line] += "  " + c;
        } else if (!py.count(t.line)) {
          py[t.line] = c;
          indentOf[t.line] = indent_;
        }
        start = i + 1;
        continue;
      }
      return error(t, "comment inside a statement");
    }
    if (t.kind == CTok::End) {
      if (i != start)
        return error(toks_[start], "statement without ';'");
      break;
    }
    if (t.text != ";")
      continue;
    if (i == start)
      return error(t, "empty statement");
    std::string code;
    std::string indentBefore = indent_;
    if (Status st = statement(start, i, code); !st)
      return st;
    if (!code.empty()) {
      int line = toks_[start].line;
      stmtCol_.try_emplace(line, toks_[start].col);
      auto [it, fresh] = py.try_emplace(line, code);
      if (fresh)
        indentOf[line] = indentBefore;
      else
        it->second += "; " + code;
    }
    lastEndLine = t.line;
    start = i + 1;
  }
  for (const auto &[line, code] : py)
    out_[line - 1] = indentOf[line] + code;
  if (inputs_.empty())
    return error(toks_.front(), "inductor_entry_impl takes no inputs (no 'std::move(inputs[0])')");
  std::string unpack;
  for (const std::string &n : inputs_)
    unpack += n + ", ";
  unpack.resize(unpack.size() - (inputs_.size() > 1 ? 2 : 1));
  out_[inputsLine_ - 1] = "    " + unpack + " = args";
  if (outputs_.empty())
    return error(toks_.back(), "inductor_entry_impl writes no output_handles");
  std::string ret = "return (";
  for (const std::string &n : outputs_)
    ret += n + ", ";
  out_[outputsLine_ - 1] = indent_ + ret + ")";
  return Status::ok();
}

Expected<InductorWrapper> CppReader::read() {
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
    // the entry function below says what the program does.
    i = close + 1;
  }
  bool sawCpp = false;
  for (; i < lines.size(); ++i) {
    std::string t = trim(lines[i]);
    if (t == "cpp_wrapper_src = (") {
      if (i + 1 >= lines.size() || trim(lines[i + 1]) != "r'''")
        return error(int(i) + 2, 1, "expected r''' after 'cpp_wrapper_src = ('");
      size_t close = i + 2;
      while (close < lines.size() && trim(lines[close]) != "'''")
        ++close;
      if (close + 1 >= lines.size() || trim(lines[close + 1]) != ")")
        return error(int(i) + 1, 1, "unterminated C++ source string");
      size_t entry = i + 2;
      while (entry < close && !lines[entry].starts_with("void inductor_entry_impl("))
        ++entry;
      if (entry == close)
        return error(int(i) + 1, 1, "no 'void inductor_entry_impl(' in the C++ source");
      if (Status st = launchers(offset[i + 2], offset[entry], int(i) + 3); !st)
        return st.takeError();
      size_t open = entry;
      while (open < close && trim(lines[open]) != ") {")
        ++open;
      size_t stop = open;
      while (stop < close && !lines[stop].starts_with("}"))
        ++stop;
      if (open == close || stop == close)
        return error(int(entry) + 1, 1, "unterminated inductor_entry_impl");
      if (Status st = tokenize(offset[open + 1], offset[stop], int(open) + 2); !st)
        return st.takeError();
      out_[entry] = "def call(args):";
      if (Status st = body(); !st)
        return st.takeError();
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
    if (t == "call = _wrap_func(inductor_entry)")
      continue;
    out_[i] = std::string(lines[i]);
  }
  if (!sawCpp)
    return error(1, 1, "no 'cpp_wrapper_src = (' string: not Inductor's C++ wrapper code");
  std::string module;
  for (const std::string &l : out_)
    module += l + "\n";
  auto w = importInductorWrapper(module, file_);
  if (!w) {
    // Lines are those of this file; show its line, not the rewritten one.
    Error err = w.takeError();
    if (err.loc.line > 0) {
      err.snippet = std::string(sourceLine(text_, err.loc.line));
      if (auto it = stmtCol_.find(err.loc.line); it != stmtCol_.end())
        err.loc.col = it->second;
    }
    return err;
  }
  for (inductor::InductorKernel &k : w->info->kernels)
    if (auto it = launches_.find(k.name); it != launches_.end()) {
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

} // namespace fxkit
