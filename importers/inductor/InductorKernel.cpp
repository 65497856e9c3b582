#include "importers/inductor/InductorKernel.h"

#include "ir/Try.h"

#include <algorithm>
#include <cctype>

namespace fxkit::inductor {

size_t InductorKernel::runtimeParamCount() const {
  return static_cast<size_t>(std::count_if(params.begin(), params.end(),
                                           [](const KernelParam &p) { return !p.isConstexpr(); }));
}

std::vector<std::string> bracketListAfter(std::string_view comment, std::string_view label) {
  std::vector<std::string> out;
  size_t at = comment.find(label);
  if (at == std::string_view::npos)
    return out;
  size_t open = comment.find('[', at + label.size());
  size_t close = comment.find(']', open);
  if (open == std::string_view::npos || close == std::string_view::npos)
    return out;
  std::string_view inner = comment.substr(open + 1, close - open - 1);
  while (!inner.empty()) {
    size_t comma = inner.find(',');
    std::string_view item = inner.substr(0, comma);
    while (!item.empty() && item.front() == ' ')
      item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ')
      item.remove_suffix(1);
    if (!item.empty())
      out.emplace_back(item);
    if (comma == std::string_view::npos)
      break;
    inner.remove_prefix(comma + 1);
  }
  return out;
}

namespace {

using TK = Token::Kind;

/// Where a string literal's body starts in the file, so that errors found while reading the
/// kernel source point at the file, not at the string.
struct BodyOrigin {
  int line = 1;
  int col = 1;
};

Error relocate(Error err, const BodyOrigin &origin, std::string_view text,
               const std::string &fileName) {
  if (err.loc.line > 0) {
    if (err.loc.line == 1)
      err.loc.col += origin.col - 1;
    err.loc.line += origin.line - 1;
    err.snippet = std::string(sourceLine(text, err.loc.line));
  }
  err.loc.file = fileName;
  return err;
}

/// The literal token of a String expression and the view of its body (between the quotes).
Expected<std::pair<std::string_view, BodyOrigin>> stringBody(const PyExpr &e,
                                                             const std::vector<Token> &toks,
                                                             std::string_view text,
                                                             const std::string &fileName) {
  auto it = std::lower_bound(toks.begin(), toks.end(), e, [](const Token &t, const PyExpr &x) {
    return t.line < x.line || (t.line == x.line && t.col < x.col);
  });
  if (it == toks.end() || it->kind != TK::String || it->line != e.line || it->col != e.col)
    return Error("expected the kernel source as one string literal",
                 SourceLoc{fileName, e.line, e.col}, std::string(sourceLine(text, e.line)));
  std::string_view s = it->text;
  size_t q = s.find_first_of("'\"");
  size_t quote = s.substr(q, 3) == std::string(3, s[q]) && s.size() >= q + 6 ? 3 : 1;
  return std::make_pair(s.substr(q + quote, s.size() - q - 2 * quote),
                        BodyOrigin{e.line, e.col + static_cast<int>(q + quote)});
}

Error errorAt(const PyExpr &e, std::string message, std::string_view text,
              const std::string &fileName) {
  return Error(std::move(message), SourceLoc{fileName, e.line, e.col},
               std::string(sourceLine(text, e.line)));
}

const PyExpr *dictGet(const PyExpr &dict, std::string_view key) {
  if (dict.kind != PyExpr::Kind::Dict)
    return nullptr;
  for (size_t i = 0; i + 1 < dict.items.size(); i += 2)
    if (dict.items[i].kind == PyExpr::Kind::String && dict.items[i].text == key)
      return &dict.items[i + 1];
  return nullptr;
}

/// The value of `keyword=...` in the decorator of a Triton kernel's source.
Expected<const PyExpr *> decoratorKeyword(std::string_view keyword,
                                          const std::vector<Token> &bodyToks,
                                          std::vector<PyExpr> &storage, std::string_view body,
                                          const std::string &fileName) {
  for (size_t i = 0; i + 1 < bodyToks.size(); ++i) {
    if (!bodyToks[i].isIdent(keyword) || !bodyToks[i + 1].is("="))
      continue;
    size_t pos = i + 2;
    PyExprParser parser(bodyToks, body, fileName);
    FXKIT_ASSIGN_OR_RETURN(auto e, parser.parseExpression(pos));
    storage.push_back(std::move(e));
    return &storage.back();
  }
  return static_cast<const PyExpr *>(nullptr);
}

/// The parameters of the kernel's `@triton.jit` function (the first top-level `def` after the
/// `@triton_heuristics.*` decorator; a user-defined kernel's helpers follow it), each with
/// whether it is annotated `tl.constexpr`. Empty when the source has no such `def`.
Expected<std::vector<std::pair<std::string, bool>>>
jitParams(const std::vector<Token> &toks, std::string_view body, const std::string &fileName) {
  std::vector<std::pair<std::string, bool>> out;
  size_t i = 0;
  while (i + 1 < toks.size() && !(toks[i].is("@") && toks[i + 1].isIdent("triton_heuristics")))
    ++i;
  while (i < toks.size() && !(toks[i].isIdent("def") && toks[i].col == 1))
    ++i;
  if (i + 2 >= toks.size() || toks[i + 1].kind != TK::Ident || !toks[i + 2].is("("))
    return out;
  size_t pos = i + 3;
  PyExprParser parser(toks, body, fileName);
  while (pos < toks.size() && !toks[pos].is(")")) {
    if (toks[pos].is("*") || toks[pos].is("**"))
      return parser.errorAt(pos, "starred parameters of a Triton kernel are not supported");
    if (toks[pos].kind != TK::Ident)
      return parser.errorAt(pos, "expected a parameter name in the kernel's definition");
    std::string name(toks[pos].text);
    bool constexprParam = false;
    ++pos;
    if (pos < toks.size() && toks[pos].is(":")) {
      ++pos;
      FXKIT_ASSIGN_OR_RETURN(auto annotation, parser.parseExpression(pos));
      std::string d = annotation.dotted();
      constexprParam = d == "constexpr" || d.ends_with(".constexpr");
    }
    if (pos < toks.size() && toks[pos].is("=")) {
      ++pos;
      FXKIT_TRY(parser.parseExpression(pos));
    }
    out.push_back({std::move(name), constexprParam});
    if (pos < toks.size() && toks[pos].is(","))
      ++pos;
    else if (pos >= toks.size() || !toks[pos].is(")"))
      return parser.errorAt(pos, "expected ',' or ')' in the kernel's parameter list");
  }
  return out;
}

Status readTritonSource(InductorKernel &k, std::string_view body, const BodyOrigin &origin,
                        const PyExpr &sourceExpr, std::string_view text,
                        const std::string &fileName) {
  auto fail = [&](Error e) { return Status(relocate(std::move(e), origin, text, fileName)); };
  auto toks = lexPython(body, fileName);
  if (!toks)
    return fail(toks.takeError());
  for (size_t i = 0; i + 3 < toks->size(); ++i)
    if ((*toks)[i].is("@") && (*toks)[i + 1].isIdent("triton_heuristics") &&
        (*toks)[i + 2].is(".") && (*toks)[i + 3].kind == TK::Ident)
      k.heuristic = (*toks)[i + 3].text;
  std::vector<PyExpr> storage;
  storage.reserve(6); // decoratorKeyword's results point into it
  auto meta = decoratorKeyword("triton_meta", *toks, storage, body, fileName);
  if (!meta)
    return fail(meta.takeError());
  if (!*meta)
    return Status(
        errorAt(sourceExpr, "kernel '" + k.name + "' has no triton_meta", text, fileName));
  const PyExpr *signature = dictGet(**meta, "signature");
  if (!signature || signature->kind != PyExpr::Kind::Dict)
    return fail(Error("triton_meta of kernel '" + k.name + "' has no 'signature' dict",
                      SourceLoc{fileName, (*meta)->line, (*meta)->col}));
  for (size_t i = 0; i + 1 < signature->items.size(); i += 2) {
    const PyExpr &name = signature->items[i];
    const PyExpr &type = signature->items[i + 1];
    if (name.kind != PyExpr::Kind::String || type.kind != PyExpr::Kind::String)
      return fail(Error("triton_meta signature entries must be 'name': 'type' strings",
                        SourceLoc{fileName, name.line, name.col}));
    k.params.push_back({name.text, type.text});
  }
  if (const PyExpr *constants = dictGet(**meta, "constants");
      constants && constants->kind == PyExpr::Kind::Dict)
    for (size_t i = 0; i + 1 < constants->items.size(); i += 2)
      if (constants->items[i].kind == PyExpr::Kind::String)
        k.constants.push_back(constants->items[i].text);
  auto inductorMeta = decoratorKeyword("inductor_meta", *toks, storage, body, fileName);
  if (!inductorMeta)
    return fail(inductorMeta.takeError());
  if (*inductorMeta)
    if (const PyExpr *mutated = dictGet(**inductorMeta, "mutated_arg_names");
        mutated && mutated->kind == PyExpr::Kind::List)
      for (const PyExpr &m : mutated->items)
        if (m.kind == PyExpr::Kind::String)
          k.mutatedArgs.push_back(m.text);
  if (*inductorMeta)
    for (size_t i = 0; i + 1 < (*inductorMeta)->items.size(); i += 2) {
      const PyExpr &key = (*inductorMeta)->items[i], &value = (*inductorMeta)->items[i + 1];
      if (key.kind != PyExpr::Kind::String)
        continue;
      if (value.kind == PyExpr::Kind::Int)
        k.inductorMetaInts.push_back({key.text, value.value});
      else if (value.kind == PyExpr::Kind::Const && (value.text == "True" || value.text == "False"))
        k.inductorMetaInts.push_back({key.text, value.text == "True" ? 1 : 0});
    }
  auto sizeHints = decoratorKeyword("size_hints", *toks, storage, body, fileName);
  if (!sizeHints)
    return fail(sizeHints.takeError());
  if (*sizeHints && (*sizeHints)->kind == PyExpr::Kind::Dict)
    for (size_t i = 0; i + 1 < (*sizeHints)->items.size(); i += 2) {
      const PyExpr &key = (*sizeHints)->items[i], &value = (*sizeHints)->items[i + 1];
      if (key.kind != PyExpr::Kind::String || value.kind != PyExpr::Kind::Int)
        return fail(Error("size_hints entries must be 'name': integer",
                          SourceLoc{fileName, key.line, key.col}));
      k.sizeHints.push_back({key.text, value.value});
    }
  for (auto [keyword, field] :
       {std::pair{"reduction_hint", &k.reductionHint}, std::pair{"tile_hint", &k.tileHint}}) {
    auto hint = decoratorKeyword(keyword, *toks, storage, body, fileName);
    if (!hint)
      return fail(hint.takeError());
    if (*hint && (*hint)->kind == PyExpr::Kind::Attribute)
      *field = (*hint)->text;
  }
  auto minElem = decoratorKeyword("min_elem_per_thread", *toks, storage, body, fileName);
  if (!minElem)
    return fail(minElem.takeError());
  if (*minElem && (*minElem)->kind == PyExpr::Kind::Int)
    k.minElemPerThread = (*minElem)->value;
  auto def = jitParams(*toks, body, fileName);
  if (!def)
    return fail(def.takeError());
  std::vector<std::string> extra;
  if (*inductorMeta)
    if (const PyExpr *e = dictGet(**inductorMeta, "extra_launcher_args");
        e && (e->kind == PyExpr::Kind::List || e->kind == PyExpr::Kind::Tuple))
      for (const PyExpr &x : e->items)
        if (x.kind == PyExpr::Kind::String)
          extra.push_back(x.text);
  auto isConstant = [&](const std::string &name) {
    return std::find(k.constants.begin(), k.constants.end(), name) != k.constants.end();
  };
  auto signatureType = [&](const std::string &name) -> std::string {
    for (const KernelParam &p : k.params)
      if (p.name == name)
        return p.type;
    return {};
  };
  // Without a `def` (a hand-written snippet), the signature's parameters stand for it.
  std::vector<std::pair<std::string, bool>> params = *def;
  if (params.empty())
    for (const KernelParam &p : k.params)
      params.push_back({p.name, false});
  for (const auto &[name, declaredConstexpr] : params) {
    bool constexprParam = declaredConstexpr || signatureType(name) == "constexpr";
    if (constexprParam && !isConstant(name))
      continue; // the autotuning config supplies it
    k.launchArgs.push_back(name);
  }
  for (std::string &e : extra)
    k.launchArgs.push_back(std::move(e));
  return Status::ok();
}

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return std::string(s);
}

/// Parameter names of `extern "C" ... kernel(const float* in_ptr0, ...)`.
Status readCppSource(InductorKernel &k, std::string_view body, const PyExpr &sourceExpr,
                     std::string_view text, const std::string &fileName) {
  size_t externC = body.find("extern \"C\"");
  size_t open = externC == std::string_view::npos ? externC : body.find('(', externC);
  size_t close = open == std::string_view::npos ? open : body.find(')', open);
  if (close == std::string_view::npos)
    return Status(errorAt(sourceExpr,
                          "C++ kernel '" + k.name + "' has no extern \"C\" function signature",
                          text, fileName));
  std::string_view list = body.substr(open + 1, close - open - 1);
  std::vector<std::string> names;
  while (!trim(list).empty()) {
    size_t comma = list.find(',');
    std::string param = trim(list.substr(0, comma));
    size_t end = param.size();
    size_t begin = end;
    while (begin > 0 &&
           (std::isalnum(static_cast<unsigned char>(param[begin - 1])) || param[begin - 1] == '_'))
      --begin;
    if (begin == end)
      return Status(errorAt(sourceExpr,
                            "cannot read parameter '" + param + "' of C++ kernel '" + k.name + "'",
                            text, fileName));
    names.push_back(param.substr(begin));
    if (comma == std::string_view::npos)
      break;
    list.remove_prefix(comma + 1);
  }
  if (names.size() != k.params.size())
    return Status(errorAt(sourceExpr,
                          "C++ kernel '" + k.name + "' declares " + std::to_string(names.size()) +
                              " parameters but its binding lists " +
                              std::to_string(k.params.size()) + " types",
                          text, fileName));
  for (size_t i = 0; i < names.size(); ++i)
    k.params[i].name = names[i];
  return Status::ok();
}

} // namespace

Expected<InductorKernel> parseKernelDefinition(const std::string &name, const PyExpr &call,
                                               const std::vector<Token> &fileTokens,
                                               const std::vector<std::string> &comments,
                                               std::string_view text, const std::string &fileName) {
  InductorKernel k;
  k.name = name;
  k.loc = SourceLoc{fileName, call.line, call.col};
  k.comments = comments;
  for (const std::string &c : comments) {
    if (c.starts_with("kernel path: "))
      k.kernelPath = c.substr(13);
    if (auto nodes = bracketListAfter(c, "Topologically Sorted Source Nodes: "); !nodes.empty())
      k.sourceNodes = std::move(nodes);
    if (auto ops = bracketListAfter(c, "Original ATen: "); !ops.empty())
      k.atenOps = std::move(ops);
  }
  std::string callee = call.callee();
  auto args = call.args();
  if (callee == "async_compile.triton") {
    k.kind = InductorKernel::Kind::Triton;
    if (args.size() != 2 || args[0].kind != PyExpr::Kind::String ||
        args[1].kind != PyExpr::Kind::String)
      return errorAt(call, "expected async_compile.triton('name', '''source''', ...)", text,
                     fileName);
    for (const PyExpr &kw : call.keywords) {
      if (kw.key == "device_str" && kw.kind == PyExpr::Kind::String)
        k.deviceStr = kw.text;
      else
        return errorAt(kw, "unknown argument '" + kw.key + "' of async_compile.triton", text,
                       fileName);
    }
    k.source = args[1].text;
    FXKIT_ASSIGN_OR_RETURN(auto body, stringBody(args[1], fileTokens, text, fileName));
    FXKIT_TRY(readTritonSource(k, body.first, body.second, args[1], text, fileName));
    return k;
  }
  if (callee == "async_compile.cpp_pybinding") {
    k.kind = InductorKernel::Kind::Cpp;
    if (args.size() != 2 || args[0].kind != PyExpr::Kind::List ||
        args[1].kind != PyExpr::Kind::String || !call.keywords.empty())
      return errorAt(call, "expected async_compile.cpp_pybinding([types], r'''source''')", text,
                     fileName);
    for (const PyExpr &t : args[0].items) {
      if (t.kind != PyExpr::Kind::String)
        return errorAt(t, "C++ kernel argument types must be strings", text, fileName);
      k.params.push_back({"", t.text});
    }
    k.source = args[1].text;
    FXKIT_TRY(readCppSource(k, k.source, args[1], text, fileName));
    return k;
  }
  return errorAt(call, "unsupported kernel definition '" + callee + "'", text, fileName);
}

} // namespace fxkit::inductor
