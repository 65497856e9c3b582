#pragma once
/// \file An object file of compileCppToObject loaded into an ORC LLJIT of its own: its
/// undefined symbols resolve to this process's (the executable exports them: ENABLE_EXPORTS),
/// its static constructors run at load, and its static destructors (those registered with
/// `__cxa_atexit` included) run when the JitObject goes, before the JIT frees the code.

#include "ir/Error.h"

#include <memory>
#include <span>
#include <string>

namespace fxkit::llvmjit {

class JitObject {
public:
  /// Links `object` (named `name` in messages) and runs its constructors.
  static Expected<std::unique_ptr<JitObject>> load(std::span<const char> object,
                                                   const std::string &name);
  /// Runs the destructors, then frees the code.
  ~JitObject();
  JitObject(const JitObject &) = delete;
  JitObject &operator=(const JitObject &) = delete;

  /// The address of a symbol the object defines (or the process, for one it uses).
  Expected<void *> lookup(const std::string &symbol);

  struct Impl;

private:
  JitObject();
  std::unique_ptr<Impl> impl_;
};

} // namespace fxkit::llvmjit
