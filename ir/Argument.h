#pragma once
/// \file Arguments of FX nodes: a small tree of scalars, node references and containers.
///
/// One Argument is 48 bytes: a kind, one 8-byte scalar slot, one pointer slot and the
/// children of a container. Strings are interned (they repeat across nodes).

#include "ir/DType.h"
#include "ir/SymExpr.h"
#include "ir/TensorType.h"

#include <cassert>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

class Node;

class Argument {
public:
  enum class Kind : uint8_t {
    None,
    Bool,
    Int,
    Float,        ///< double, printed like Python's repr (inf, nan, 1e-05)
    String,       ///< printed bare in FX text, quoted in Python
    NodeRef,      ///< %name
    List,         ///< [a, b]
    Tuple,        ///< (a, b) / (a,)
    Dict,         ///< {key: value}; children alternate key (String) and value
    DType,        ///< torch.float32
    Device,       ///< cuda:0 in FX text, device(type='cuda', index=0) in Python
    Layout,       ///< torch.strided, torch.sparse_coo
    MemoryFormat, ///< torch.contiguous_format, torch.channels_last
    Sym,          ///< a symbolic integer expression (wrapper IR)
    Opaque,       ///< a Python object FX prints verbatim (Ellipsis, ...): kept as text
    /// slice(start, stop, step): Python's slice object, items() its three parts. Its parts may
    /// be nodes (Dynamo's `x[:, :s27]` with a symbolic bound), printed by bare name as FX's
    /// str() of a slice does, and they count as uses.
    Slice,
  };

  Argument() = default; ///< None

  static Argument none() { return Argument(); }
  static Argument boolean(bool v);
  static Argument integer(int64_t v);
  static Argument floating(double v);
  static Argument string(std::string_view v);
  static Argument node(Node *n);
  static Argument list(std::vector<Argument> items);
  static Argument tuple(std::vector<Argument> items);
  /// Keys and values in insertion order.
  static Argument dict(std::vector<std::pair<std::string, Argument>> entries);
  static Argument dtype(fxkit::DType d);
  static Argument device(const Device &d);
  static Argument layout(std::string_view name);       ///< name without "torch."
  static Argument memoryFormat(std::string_view name); ///< name without "torch."
  static Argument sym(SymExpr e);
  static Argument opaque(std::string_view text);
  static Argument slice(Argument start, Argument stop, Argument step);

  Kind kind() const { return kind_; }
  bool isNone() const { return kind_ == Kind::None; }
  bool isNode() const { return kind_ == Kind::NodeRef; }
  bool isContainer() const {
    return kind_ == Kind::List || kind_ == Kind::Tuple || kind_ == Kind::Dict;
  }

  bool asBool() const;
  int64_t asInt() const;
  double asFloat() const;
  /// String, Layout, MemoryFormat, Opaque text.
  std::string_view asString() const;
  Node *asNode() const {
    assert(kind_ == Kind::NodeRef && "not a node argument");
    return const_cast<Node *>(static_cast<const Node *>(p_));
  }
  fxkit::DType asDType() const;
  Device asDevice() const;
  SymExpr asSym() const;

  /// Children of List/Tuple; for Dict, alternating keys (String) and values.
  const std::vector<Argument> &items() const { return items_; }
  std::vector<Argument> &items() { return items_; }
  size_t dictSize() const { return items_.size() / 2; }
  std::string_view dictKey(size_t i) const { return items_[2 * i].asString(); }
  const Argument &dictValue(size_t i) const { return items_[2 * i + 1]; }
  /// Value for key, or nullptr.
  const Argument *find(std::string_view key) const;

  /// Calls fn on every node reference in this tree, in printing order. Iterative, and
  /// allocation-free for the usual flat argument tuples (this runs on every node in every pass).
  template <typename Fn> void forEachNode(Fn &&fn) const {
    if (kind_ == Kind::NodeRef) {
      fn(asNode());
      return;
    }
    bool flat = true;
    for (const Argument &child : items_)
      flat = flat && child.items_.empty();
    if (flat) {
      for (const Argument &child : items_)
        if (child.kind_ == Kind::NodeRef)
          fn(child.asNode());
      return;
    }
    std::vector<const Argument *> stack{this};
    while (!stack.empty()) {
      const Argument *a = stack.back();
      stack.pop_back();
      if (a->kind_ == Kind::NodeRef)
        fn(a->asNode());
      for (size_t i = a->items_.size(); i-- > 0;)
        stack.push_back(&a->items_[i]);
    }
  }
  /// Rewrites node references in place (iteratively).
  void mapNodes(const std::function<Node *(Node *)> &fn);

  /// Structural equality; node references compare by name.
  bool equals(const Argument &other) const;

private:
  static Argument text(Kind kind, std::string_view v);

  Kind kind_ = Kind::None;
  int32_t aux_ = 0; ///< device index
  union {
    int64_t i_ = 0;
    double f_;
  };
  const void *p_ = nullptr; ///< Node*, SymNode*, interned string data
  uint32_t len_ = 0;        ///< interned string length
  std::vector<Argument> items_;
};

/// Python's repr of a float: shortest round-trip digits, `1e-05`, `0.0`, `inf`, `nan`.
std::string pyFloatRepr(double v);

} // namespace fxkit
