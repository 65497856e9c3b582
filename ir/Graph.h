#pragma once
/// \file An FX-style graph: an ordered list of nodes with unique names.
///
/// Nodes are heap-allocated and linked in program order (like llvm::ilist), so insertion and
/// erasure anywhere are O(1) and node pointers stay valid.

#include "ir/Node.h"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace fxkit {

/// Something a compiler pass attaches to the graph it works on (the lowered loop program, the
/// kernels, the memory plan), so that every pass keeps one signature: graph in, changed flag
/// out. Attachments are not part of the graph's text forms; graphsEqual ignores them.
struct GraphAttachment {
  virtual ~GraphAttachment() = default;
  /// Called before `graph`, which holds this attachment, has its nodes copied (clone), freed
  /// (erase, destruction or assignment while another holder shares the attachment) or their
  /// uses rewritten (replaceAllUsesWith). An attachment that points into the graph's own nodes
  /// (the compilation state from lowering to the wrapper pass, which does not copy the graph)
  /// makes itself independent of them here; the default does nothing.
  virtual void detachFrom(const Graph &graph) { (void)graph; }
};

class Graph {
public:
  Graph() = default;
  ~Graph();
  Graph(const Graph &) = delete;
  Graph &operator=(const Graph &) = delete;
  Graph(Graph &&other) noexcept;
  Graph &operator=(Graph &&other) noexcept;

  /// Creates a node before `before` (at the end when null). The name must be unused.
  Node *create(OpKind op, std::string name, std::string_view target, Argument args = Argument(),
               Argument kwargs = Argument(), Node *before = nullptr);
  /// Removes a node that has no users.
  void erase(Node *node);
  /// Points every use of `from` at `to`.
  void replaceAllUsesWith(Node *from, Node *to);
  /// Moves `node` before `before` (to the end when null).
  void moveBefore(Node *node, Node *before);

  /// Prepares the name index for about `nodes` nodes (importers know the count up front).
  void reserve(size_t nodes) { byName_.reserve(nodes); }

  Node *find(std::string_view name) const;
  /// Whether the name index holds exactly this graph's nodes, each under its own name: what
  /// find(n->name()) == n for every node says, without a hash lookup per node.
  bool nameIndexMatchesNodes() const;
  /// `base`, or `base_1`, `base_2`, ... whichever is free (FX's naming).
  std::string uniqueName(std::string_view base) const;

  Node *front() const { return head_; }
  Node *back() const { return tail_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  /// The (first) output node, or null.
  Node *outputNode() const;

  class iterator {
  public:
    using value_type = Node *;
    using difference_type = std::ptrdiff_t;
    explicit iterator(Node *n = nullptr) : n_(n) {}
    Node *operator*() const { return n_; }
    iterator &operator++() {
      n_ = n_->next();
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    bool operator==(const iterator &o) const { return n_ == o.n_; }

  private:
    Node *n_;
  };
  iterator begin() const { return iterator(head_); }
  iterator end() const { return iterator(nullptr); }

  /// Name of the module class in the Python form (`GraphModule`, `<lambda>`).
  std::string moduleName = "GraphModule";

  /// The child GraphModules that `print_readable()` prints as nested classes after forward:
  /// the bodies of higher-order ops (cond's branches, wrap, checkpoint, invoke_subgraph,
  /// autograd_function_apply, flex_attention's score_mod, ...) and split_module's parts, in
  /// named_children() order. A child's moduleName is its attribute name here, the target of
  /// the get_attr or call_module nodes that use it. FX text (`str(graph)`) does not show them.
  /// Shared and immutable, like node provenance: copies of a graph share its children, and
  /// passes, which work on one graph, leave them alone.
  std::vector<std::shared_ptr<const Graph>> submodules;
  /// The child named `name`, or null.
  const Graph *submodule(std::string_view name) const;

  /// Pass results by name (see GraphAttachment); clone() shares them (after detachFrom).
  std::map<std::string, std::shared_ptr<GraphAttachment>, std::less<>> attachments;

  /// Deep copy (node references remapped).
  Graph clone() const;

private:
  void deleteNodes();
  /// GraphAttachment::detachFrom on every attachment (all of them, or only those another
  /// holder shares).
  void detachAttachments(bool sharedOnly) const;
  void link(Node *node, Node *before);
  void unlink(Node *node);

  Node *head_ = nullptr;
  Node *tail_ = nullptr;
  size_t size_ = 0;
  std::unordered_map<std::string_view, Node *> byName_;
};

/// Structural equality: same nodes in the same order with equal names, ops, targets, args,
/// kwargs, Python types, values and provenance, and equal submodules (by name, in order). On a
/// difference, `why` (if given) says where.
bool graphsEqual(const Graph &a, const Graph &b, std::string *why = nullptr);

} // namespace fxkit
