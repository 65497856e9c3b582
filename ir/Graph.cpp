#include "ir/Graph.h"

#include "ir/StringPool.h"

#include <cassert>
#include <cstdio>
#include <cstdlib>

namespace fxkit {

Graph::~Graph() { deleteNodes(); }

void Graph::detachAttachments(bool sharedOnly) const {
  for (const auto &[key, attachment] : attachments)
    if (attachment && (!sharedOnly || attachment.use_count() > 1))
      attachment->detachFrom(*this);
}

void Graph::deleteNodes() {
  // An attachment that also lives on after this graph must not keep pointers into its nodes.
  if (!attachments.empty())
    detachAttachments(/*sharedOnly=*/true);
  Node *n = head_;
  while (n) {
    Node *next = n->next_;
    delete n;
    n = next;
  }
  head_ = tail_ = nullptr;
  size_ = 0;
}

Graph::Graph(Graph &&other) noexcept { *this = std::move(other); }

Graph &Graph::operator=(Graph &&other) noexcept {
  if (this == &other)
    return *this;
  // Not this->~Graph(): that would end the members' lifetimes before they are assigned.
  deleteNodes();
  head_ = other.head_;
  tail_ = other.tail_;
  size_ = other.size_;
  byName_ = std::move(other.byName_);
  moduleName = std::move(other.moduleName);
  attachments = std::move(other.attachments);
  submodules = std::move(other.submodules);
  other.head_ = other.tail_ = nullptr;
  other.size_ = 0;
  other.byName_.clear();
  for (Node *n = head_; n; n = n->next_)
    n->graph_ = this;
  return *this;
}

Node *Graph::create(OpKind op, std::string name, std::string_view target, Argument args,
                    Argument kwargs, Node *before) {
  assert(!find(name) && "node name already in use");
  Node *node = new Node(this, op, std::move(name), intern(target));
  link(node, before);
  byName_.emplace(node->name_, node);
  if (args.isNone())
    args = Argument::tuple({});
  if (kwargs.isNone())
    kwargs = Argument::dict({});
  assert(args.kind() == Argument::Kind::Tuple && "node args must be a tuple");
  assert(kwargs.kind() == Argument::Kind::Dict && "node kwargs must be a dict");
  node->args_ = std::move(args);
  node->kwargs_ = std::move(kwargs);
  node->addUses();
  return node;
}

void Graph::erase(Node *node) {
  assert(node->graph_ == this && "erasing a node of another graph");
  assert(node->users_.empty() && "erasing a node that still has users");
  if (!attachments.empty())
    detachAttachments(/*sharedOnly=*/false);
  node->dropUses();
  byName_.erase(node->name_);
  unlink(node);
  delete node;
}

void Graph::replaceAllUsesWith(Node *from, Node *to) {
  if (!attachments.empty())
    detachAttachments(/*sharedOnly=*/false);
  std::vector<Node *> users = from->users_;
  for (Node *user : users) {
    Argument args = user->args_;
    Argument kwargs = user->kwargs_;
    auto remap = [&](Node *n) { return n == from ? to : n; };
    args.mapNodes(remap);
    kwargs.mapNodes(remap);
    user->dropUses();
    user->args_ = std::move(args);
    user->kwargs_ = std::move(kwargs);
    user->addUses();
  }
}

void Graph::moveBefore(Node *node, Node *before) {
  if (node == before)
    return;
  unlink(node);
  link(node, before);
}

Node *Graph::find(std::string_view name) const {
  auto it = byName_.find(name);
  return it == byName_.end() ? nullptr : it->second;
}

const Graph *Graph::submodule(std::string_view name) const {
  for (const auto &child : submodules)
    if (child->moduleName == name)
      return child.get();
  return nullptr;
}

bool Graph::nameIndexMatchesNodes() const {
  // Keys are distinct, so entries that each name a node of this graph by its own name are
  // distinct nodes; as many as there are nodes means every node is indexed. (erase() drops
  // the entry before the node is deleted, so no entry points at a deleted node.)
  if (byName_.size() != size_)
    return false;
  for (const auto &[name, node] : byName_)
    if (node->graph_ != this || name.data() != node->name_.data() ||
        name.size() != node->name_.size())
      return false;
  return true;
}

std::string Graph::uniqueName(std::string_view base) const {
  if (!find(base))
    return std::string(base);
  for (size_t i = 1;; ++i) {
    std::string candidate = std::string(base) + "_" + std::to_string(i);
    if (!find(candidate))
      return candidate;
  }
}

Node *Graph::outputNode() const {
  for (Node *n = tail_; n; n = n->prev_)
    if (n->op() == OpKind::Output)
      return n;
  return nullptr;
}

void Graph::link(Node *node, Node *before) {
  ++size_;
  if (!before) {
    node->prev_ = tail_;
    node->next_ = nullptr;
    if (tail_)
      tail_->next_ = node;
    else
      head_ = node;
    tail_ = node;
    return;
  }
  node->next_ = before;
  node->prev_ = before->prev_;
  if (before->prev_)
    before->prev_->next_ = node;
  else
    head_ = node;
  before->prev_ = node;
}

void Graph::unlink(Node *node) {
  --size_;
  if (node->prev_)
    node->prev_->next_ = node->next_;
  else
    head_ = node->next_;
  if (node->next_)
    node->next_->prev_ = node->prev_;
  else
    tail_ = node->prev_;
  node->prev_ = node->next_ = nullptr;
}

Graph Graph::clone() const {
  // Before the attachments are shared: none may point into this graph's nodes afterwards.
  if (!attachments.empty())
    detachAttachments(/*sharedOnly=*/false);
  Graph out;
  out.moduleName = moduleName;
  out.attachments = attachments;
  out.submodules = submodules;
  // Sized up front: rehashing both tables as they grow was a tenth of cloning a large graph.
  out.reserve(size_);
  // Originals are numbered in their scratch slots (no hash map from original to copy); a
  // reference to a node outside this graph is an invariant violation the verifier reports.
  std::vector<const Node *> originals;
  std::vector<Node *> copies;
  originals.reserve(size_);
  copies.reserve(size_);
  for (Node *n : *this) {
    n->scratch_ = static_cast<uint32_t>(originals.size());
    originals.push_back(n);
  }
  auto remap = [&](Node *n) {
    uint32_t i = n->scratch_;
    if (i >= copies.size() || originals[i] != n) {
      // Checked in release builds too: the copy would otherwise point into this graph.
      std::fprintf(stderr,
                   "fxkit: Graph::clone: node '%s' is used before it is defined or "
                   "belongs to another graph\n",
                   n->name_.c_str());
      std::abort();
    }
    return copies[i];
  };
  // Nodes are built here rather than through create(): target and Python type are interned
  // already (no second pool lookup each), and each copy's users list is sized once.
  for (Node *n : *this) {
    Node *copy = new Node(&out, n->op_, n->name_, n->target_);
    out.link(copy, nullptr);
    out.byName_.emplace(copy->name_, copy);
    copy->args_ = n->args_;
    copy->kwargs_ = n->kwargs_;
    copy->args_.mapNodes(remap);
    copy->kwargs_.mapNodes(remap);
    copy->users_.reserve(n->users_.size());
    copy->addUses();
    copy->pythonType_ = n->pythonType_;
    copy->value_ = n->value_;
    copy->provenance_ = n->provenance_;
    copies.push_back(copy);
  }
  return out;
}

bool graphsEqual(const Graph &a, const Graph &b, std::string *why) {
  auto differ = [why](std::string msg) {
    if (why)
      *why = std::move(msg);
    return false;
  };
  if (a.size() != b.size())
    return differ("node counts differ: " + std::to_string(a.size()) + " vs " +
                  std::to_string(b.size()));
  Node *x = a.front();
  Node *y = b.front();
  for (; x && y; x = x->next(), y = y->next()) {
    if (x->name() != y->name())
      return differ("node names differ: " + x->name() + " vs " + y->name());
    const std::string where = "node '" + x->name() + "': ";
    if (x->op() != y->op())
      return differ(where + "op kinds differ");
    if (x->target() != y->target())
      return differ(where + "targets differ");
    if (!x->args().equals(y->args()))
      return differ(where + "args differ");
    if (!x->kwargs().equals(y->kwargs()))
      return differ(where + "kwargs differ");
    // FX's typed text (`%x : Tensor "f32[8]"`, `%s : Sym(s0)`) keeps the word `Tensor` (`Sym`)
    // as the node's Python type beside its value; the readable form annotates the value alone.
    // For a node whose value is a tensor (symbolic scalar) both say the same, so the word there
    // is spelling, not meaning.
    auto pythonTypeOf = [](const Node *n) {
      bool spelling = (n->pythonType() == "Tensor" && n->value().tensor()) ||
                      (n->pythonType() == "Sym" && n->value().sym());
      return spelling ? std::string_view() : n->pythonType();
    };
    if (pythonTypeOf(x) != pythonTypeOf(y))
      return differ(where + "Python types differ");
    if (!(x->value() == y->value()))
      return differ(where + "values (meta) differ");
    const NodeProvenance *px = x->provenance(), *py = y->provenance();
    if ((px == nullptr) != (py == nullptr) || (px && !(*px == *py)))
      return differ(where + "provenance differs");
  }
  if (a.submodules.size() != b.submodules.size())
    return differ("submodule counts differ: " + std::to_string(a.submodules.size()) + " vs " +
                  std::to_string(b.submodules.size()));
  for (size_t i = 0; i < a.submodules.size(); ++i) {
    const Graph &sa = *a.submodules[i], &sb = *b.submodules[i];
    if (sa.moduleName != sb.moduleName)
      return differ("submodule names differ: " + sa.moduleName + " vs " + sb.moduleName);
    std::string inner;
    if (!graphsEqual(sa, sb, why ? &inner : nullptr))
      return differ("submodule '" + sa.moduleName + "': " + inner);
  }
  return true;
}

} // namespace fxkit
