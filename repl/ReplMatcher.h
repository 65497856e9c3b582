#pragma once
/// \file The node matcher language of the REPL's `find`: terms `KEY OP VALUE`, all of which
/// must hold (`find op=aten.mul.Tensor users>1`).
///
/// Keys: `op` (the target, with or without `torch.ops.`), `name`, `kind` (placeholder,
/// call_function, ...), `type` (the value's type text), `dtype` (f16, float16, torch.half),
/// `users` and `inputs` (counts), `kernel` (the kernels that compute the node once the graph is
/// lowered and fused, `kernel=fused_*`; on a graph read with Inductor's provenance, the kernel
/// calls Inductor recorded for the node, by handle `name:N` or name), `post` and `pre` (the
/// post-grad and pre-grad nodes of the node's Inductor provenance: `find post=add_3` on a wrapper
/// lists the kernel calls computing post-grad node add_3). Text keys take `=` and `!=` with
/// `*`/`?` globs; counts take `=`, `!=`, `<`, `<=`, `>`, `>=`.

#include "ir/Error.h"
#include "ir/Node.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

/// One parsed `KEY OP VALUE` term.
struct NodeMatchTerm {
  enum class Key { Op, Name, Kind, Type, DType, Users, Inputs, Kernel, PostGrad, PreGrad };
  enum class Cmp { Eq, Ne, Lt, Le, Gt, Ge };
  Key key;
  Cmp cmp;
  std::string value; ///< the glob, dtype or kind text
  int64_t count = 0; ///< for Users and Inputs
};

/// The AND of its terms; an empty matcher matches every node.
struct NodeMatcher {
  std::vector<NodeMatchTerm> terms;
  /// Node name -> kernels computing it, for `kernel` terms (see needsKernels); a node absent
  /// from it is in no kernel.
  const std::map<std::string, std::vector<std::string>, std::less<>> *kernels = nullptr;
  /// `kernel` terms ask Inductor's provenance of each node instead (the caller sets this for a
  /// graph whose nodes carry provenance, and then leaves `kernels` unset).
  bool inductorKernels = false;
  bool matches(const Node &node) const;
  /// Whether a term asks about kernels (the caller compiles the graph and sets `kernels`, or
  /// sets `inductorKernels`).
  bool needsKernels() const;
};

/// Parses the words after `find`. Errors name the bad term and what was expected.
Expected<NodeMatcher> parseNodeMatcher(const std::vector<std::string> &terms);

/// Shell-style glob: `*` any run of characters, `?` one character, everything else literal.
bool globMatch(std::string_view pattern, std::string_view text);

} // namespace fxkit
