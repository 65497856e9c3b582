#pragma once
/// \file The C++ that Inductor's C++ wrapper codegens write into `inductor_entry_impl`
/// (torch/_inductor/codegen/cpp_wrapper_cpu.py, cpp_wrapper_gpu.py and the base wrapper.py), as
/// tokens, expressions and statements. The subset is what those codegens emit: declarations
/// (`auto`, scalar and handle types, `static constexpr int64_t a[] = {..}`, templates such as
/// `std::array<StableIValue, 3> v{..}`, constructor and brace initializers, `[[maybe_unused]]`,
/// `alignas(64)`), expression statements and assignments, `{ }` scopes, `if`/`else`, `while`,
/// `for`, `break`, `continue`, `return`, `throw`; expressions with C++'s operators and
/// precedence, the ternary operator, calls, members (`.`, `->`), subscripts, casts (`(T)x`,
/// `static_cast<T>(x)`), template names (`std::numeric_limits<double>::infinity()`), brace
/// lists, string literals (raw strings too), and `//` and `/* */` comments, which are kept.
/// What it does not know is an error with file:line:col; InductorCppWrapper.cpp gives the
/// statements their meaning.

#include "ir/Error.h"

#include <string>
#include <string_view>
#include <vector>

namespace fxkit::inductor {

struct CTok {
  enum Kind { Ident, Number, String, Char, Punct, Comment, End };
  Kind kind = End;
  /// Identifiers keep their `::` qualification; numbers lose their suffixes (`12L` -> `12`, hex
  /// in decimal); strings are decoded; comments are the text after `//` (or inside `/* */`).
  std::string text;
  int line = 0, col = 0;
  bool isFloat = false; ///< Number: has a fraction, an exponent or an `f` suffix
};

struct CExpr {
  enum Kind {
    Name,     ///< text: the (qualified) identifier; `std::numeric_limits<double>::max` kept whole
    Number,   ///< text: the literal without suffix
    String,   ///< text: the decoded literal (adjacent literals joined)
    Char,     ///< text: the decoded character
    Call,     ///< kids[0](kids[1..])
    Unary,    ///< text: - + ! ~ & * ++ --; kids[0] (`i++` is kept as `++i`)
    Binary,   ///< text: the operator (also `=` and compound assignments); kids[0] op kids[1]
    Ternary,  ///< kids[0] ? kids[1] : kids[2]
    Braces,   ///< {kids...}; text: the type before it (`std::array<int64_t, 2>`) or ""
    Member,   ///< kids[0].text or kids[0]->text (arrow)
    Index,    ///< kids[0][kids[1]]
    Cast,     ///< (text)kids[0]
    Template, ///< text<targs...>: `static_cast<int64_t>`, `std::array<int64_t, 2>`
  };
  Kind kind = Name;
  std::string text;
  std::vector<std::string> targs; ///< Template: the template arguments, as text
  std::vector<CExpr> kids;
  int line = 0, col = 0;
  bool isFloat = false; ///< Number
  bool arrow = false;   ///< Member
};

struct CStmt {
  enum Kind { Expr, Decl, Block, If, While, For, Break, Continue, Return, Throw, Comment, Empty };
  enum Init { NoInit, Assign, Ctor, Brace };
  Kind kind = Empty;
  int line = 0, col = 0;
  int endLine = 0; ///< line of the statement's last token (`;` or `}`)
  /// Decl: the type as written, without specifiers (`int64_t`, `auto`, `PyObject*`,
  /// `std::array<StableIValue, 5>`); `specifiers`: static, constexpr, const, alignas(64), ...
  std::string type;
  std::vector<std::string> specifiers;
  std::string name;
  bool isArray = false; ///< `name[]`
  Init init = NoInit;
  /// Expr: [expression]; Decl: the initializer (Assign: [value]; Ctor, Brace: the arguments);
  /// If, While: [condition]; For: [condition, step] (`1` and an empty name when absent);
  /// Return: [value] or none; Throw: [value].
  std::vector<CExpr> exprs;
  std::vector<CStmt> body;   ///< Block: its statements; If: then; While, For: the body
  std::vector<CStmt> orelse; ///< If: else; For: the init statement, if any
  bool hasElse = false;
  /// Comment: its text; otherwise a comment after the statement on its last line (`// reuse`).
  std::string comment;
};

/// Tokenizes text[begin, end), whose first character is on `line` of `fileName`.
Expected<std::vector<CTok>> tokenizeCpp(std::string_view text, size_t begin, size_t end, int line,
                                        const std::string &fileName);

/// Parses tokens (ending with End) into statements; nesting deeper than `maxDepth` is an error.
Expected<std::vector<CStmt>> parseCppStatements(const std::vector<CTok> &tokens,
                                                std::string_view text, const std::string &fileName,
                                                int maxDepth = 64);

} // namespace fxkit::inductor
