#pragma once
/// \file FXKIT_TRY and FXKIT_ASSIGN_OR_RETURN: the one way to pass an Error up from a `Status`
/// or an `Expected<T>` (ir/Error.h) without writing `if (!x) return x.takeError();` by hand.
/// A header of its own, not part of ir/Error.h, so that adopting it rebuilds only the files
/// that use it.
///
/// The C++ wrappers that exporters/wrapper/WrapperCppWriter.cpp generates define a macro named
/// FXKIT_TRY of their own (over `fxkit::rt::Status`); their runtime header
/// (backends/opencl/rt/WrapperRuntime.h) includes no fxkit header, which
/// tests/layering/check-layering.sh checks, so the two definitions never meet in one
/// translation unit. Should they ever, the check below makes that a clear error instead of a
/// silent redefinition.

#include "ir/Error.h"

#include <utility>

#if defined(FXKIT_TRY) || defined(FXKIT_ASSIGN_OR_RETURN)
#error "FXKIT_TRY is already defined: ir/Try.h and the generated wrappers' macro met"
#endif

/// Evaluates `expr` (a Status or an Expected, temporary or named) once and returns its Error
/// from the enclosing function (which returns a Status or any Expected) if it holds one.
#define FXKIT_TRY(...)                                                                             \
  do {                                                                                             \
    auto &&fxkit_try_result_ = (__VA_ARGS__);                                                      \
    if (!fxkit_try_result_)                                                                        \
      return fxkit_try_result_.takeError();                                                        \
  } while (0)

#define FXKIT_TRY_CONCAT_INNER_(a, b) a##b
#define FXKIT_TRY_CONCAT_(a, b) FXKIT_TRY_CONCAT_INNER_(a, b)
#define FXKIT_ASSIGN_OR_RETURN_IMPL_(tmp, decl, ...)                                              \
  auto tmp = (__VA_ARGS__);                                                                        \
  if (!tmp)                                                                                        \
    return tmp.takeError();                                                                        \
  decl = std::move(*tmp)

/// Evaluates `expr` (an Expected<T>); returns its Error from the enclosing function if it holds
/// one, else declares or assigns `decl` (`auto x`, `T x`, or an existing variable) from its
/// value, moved out. A statement, not an expression: it declares a hidden temporary in the
/// enclosing scope, so it cannot be the single statement of an unbraced `if` or loop.
#define FXKIT_ASSIGN_OR_RETURN(decl, ...)                                                          \
  FXKIT_ASSIGN_OR_RETURN_IMPL_(FXKIT_TRY_CONCAT_(fxkit_expected_, __COUNTER__), decl, __VA_ARGS__)
