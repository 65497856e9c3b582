#pragma once
/// \file Statements of Inductor's generated Python modules: logical lines, indentation blocks,
/// and the simple and compound statements output_code.py uses. Comment lines are kept and
/// attached to the statement that follows them (Inductor writes provenance there); a comment
/// after code on the same line (`# reuse`) is kept as the line's trailing comment.

#include "importers/inductor/PyExpr.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit::inductor {

struct PyStmt {
  enum class Kind : uint8_t {
    Expr,     ///< value
    Assign,   ///< targets = value (several targets for `a = b = value`)
    Del,      ///< del targets...
    Return,   ///< return value (Const None when bare)
    Import,   ///< import / from ... import (nothing kept)
    Pass,     ///< pass
    Assert,   ///< assert value[, message]
    Raise,    ///< raise value (Const None when bare)
    Compound, ///< keyword header: body
  };
  Kind kind = Kind::Expr;
  int line = 0;
  int col = 0;    ///< 1-based column of the first token
  int indent = 0; ///< columns of indentation of its line
  std::vector<PyExpr> targets;
  PyExpr value;
  PyExpr message; ///< Assert: the message after the comma (Const None when there is none)
  /// Compound only: def, class, with, if, elif, else, for, while, try, except, finally.
  std::string keyword;
  std::string name;                ///< def/class name; `with ... as name`
  std::vector<std::string> params; ///< def parameters, without defaults
  std::vector<PyStmt> body;
  /// The body was not parsed (the caller said so): its lines are only skipped.
  bool bodySkipped = false;
  int bodyEndLine = 0; ///< last line of the body
  /// Comment lines right before this statement, text after '#' with one leading space removed.
  std::vector<std::string> comments;
  /// Comment after the code of this statement's line (shared by `a = b; del b  # reuse`).
  std::string trailingComment;
  /// Index of this statement among those of its physical line (0 for the first).
  int indexInLine = 0;
};

/// Says, for a compound statement whose header was just read, whether its body is parsed
/// (true) or only skipped by indentation (false).
using BodyFilter = std::function<bool(const PyStmt &header, int depth)>;

/// Parses a whole module into its top-level statements. `maxDepth` limits block nesting and
/// expression nesting alike.
Expected<std::vector<PyStmt>> parsePyModule(const std::vector<Token> &tokens, std::string_view text,
                                            const std::string &fileName, const BodyFilter &filter,
                                            int maxDepth = 64);

} // namespace fxkit::inductor
