#include "ir/StringPool.h"

#include <deque>
#include <mutex>
#include <string>
#include <unordered_set>

namespace fxkit {

std::string_view intern(std::string_view text) {
  struct Pool {
    std::mutex mutex;
    std::deque<std::string> storage;
    std::unordered_set<std::string_view> index;
  };
  static Pool *pool = new Pool(); // intentionally leaked: views must outlive static destructors
  std::lock_guard<std::mutex> lock(pool->mutex);
  auto it = pool->index.find(text);
  if (it != pool->index.end())
    return *it;
  pool->storage.emplace_back(text);
  std::string_view view = pool->storage.back();
  pool->index.insert(view);
  return view;
}

} // namespace fxkit
