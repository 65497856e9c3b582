#include "ir/Node.h"

#include "ir/Graph.h"
#include "ir/StringPool.h"

#include <algorithm>
#include <array>

namespace fxkit {

namespace {
constexpr std::array<std::string_view, 6> kOpNames = {"placeholder", "call_function", "call_method",
                                                      "call_module", "get_attr",      "output"};
}

std::string_view opKindName(OpKind op) { return kOpNames[static_cast<size_t>(op)]; }

std::optional<OpKind> parseOpKind(std::string_view text) {
  for (size_t i = 0; i < kOpNames.size(); ++i)
    if (kOpNames[i] == text)
      return static_cast<OpKind>(i);
  return std::nullopt;
}

void Node::setTarget(std::string_view target) { target_ = intern(target); }
void Node::setPythonType(std::string_view type) {
  pythonType_ = type.empty() ? std::string_view() : intern(type);
}

void Node::setProvenance(NodeProvenance provenance) {
  provenance_ =
      provenance.empty() ? nullptr : std::make_shared<const NodeProvenance>(std::move(provenance));
}

std::vector<Node *> Node::inputs() const {
  std::vector<Node *> out;
  out.reserve(args_.items().size() + kwargs_.dictSize());
  auto add = [&out](Node *n) {
    if (std::find(out.begin(), out.end(), n) == out.end())
      out.push_back(n);
  };
  args_.forEachNode(add);
  kwargs_.forEachNode(add);
  return out;
}

void Node::dropUses() {
  for (Node *input : inputs()) {
    auto &u = input->users_;
    u.erase(std::remove(u.begin(), u.end(), this), u.end());
  }
}

void Node::addUses() {
  // dropUses() ran first, so this node can only be in an input's users list if this very loop
  // put it there, and then it is the last entry: a repeated input is skipped in O(1).
  auto add = [this](Node *input) {
    if (input->users_.empty() || input->users_.back() != this)
      input->users_.push_back(this);
  };
  args_.forEachNode(add);
  kwargs_.forEachNode(add);
}

void Node::setArgs(Argument args) {
  if (args.isNone())
    args = Argument::tuple({});
  assert(args.kind() == Argument::Kind::Tuple && "node args must be a tuple");
  dropUses();
  args_ = std::move(args);
  addUses();
}

void Node::setKwargs(Argument kwargs) {
  if (kwargs.isNone())
    kwargs = Argument::dict({});
  assert(kwargs.kind() == Argument::Kind::Dict && "node kwargs must be a dict");
  dropUses();
  kwargs_ = std::move(kwargs);
  addUses();
}

} // namespace fxkit
