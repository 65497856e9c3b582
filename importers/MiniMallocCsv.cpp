#include "importers/MiniMallocCsv.h"

#include "importers/Import.h"
#include "ir/Try.h"

#include <array>
#include <charconv>
#include <unordered_map>

namespace fxkit {
namespace {

/// The columns a problem file must have, in the order of BufferLifetime's fields.
constexpr std::array<std::string_view, 4> kColumns = {"id", "lower", "upper", "size"};

/// One comma-separated field: its text without padding and its 1-based column.
struct Field {
  std::string_view text;
  int col;
};

std::vector<Field> splitFields(std::string_view line) {
  std::vector<Field> fields;
  size_t begin = 0;
  while (true) {
    size_t end = line.find(',', begin);
    size_t stop = end == std::string_view::npos ? line.size() : end;
    size_t first = begin, last = stop;
    while (first < last && (line[first] == ' ' || line[first] == '\t'))
      ++first;
    while (last > first && (line[last - 1] == ' ' || line[last - 1] == '\t'))
      --last;
    fields.push_back({line.substr(first, last - first), static_cast<int>(first) + 1});
    if (end == std::string_view::npos)
      return fields;
    begin = end + 1;
  }
}

std::string expectedHeader() { return "expected the header 'id,lower,upper,size'"; }

} // namespace

Expected<MiniMallocProblem> parseMiniMallocCsv(std::string_view text, const std::string &fileName) {
  MiniMallocProblem problem;
  std::unordered_map<std::string_view, int> idLine; // id -> line it was defined on
  std::array<int, kColumns.size()> columnOf{};      // BufferLifetime field -> column index
  size_t columnCount = 0;
  bool haveHeader = false;
  int lineNo = 0;
  size_t pos = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") // a UTF-8 byte order mark
    pos = 3;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? nl : nl - pos);
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    ++lineNo;
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    auto error = [&](std::string msg, int col) {
      return Error(std::move(msg), SourceLoc{fileName, lineNo, col}, std::string(line));
    };
    if (line.find_first_not_of(" \t") == std::string_view::npos)
      continue; // blank line

    std::vector<Field> fields = splitFields(line);
    if (!haveHeader) {
      columnOf.fill(-1);
      for (size_t c = 0; c < fields.size(); ++c) {
        const Field &f = fields[c];
        size_t k = 0;
        while (k < kColumns.size() && kColumns[k] != f.text)
          ++k;
        if (k == kColumns.size()) {
          if (f.text == "offset")
            return error("column 'offset': this looks like a plan (solver output), not a "
                         "problem; remove the offsets to plan it again",
                         f.col);
          if (!f.text.empty() && (f.text[0] == '-' || (f.text[0] >= '0' && f.text[0] <= '9')))
            return error("missing header line: " + expectedHeader(), 1);
          return error("unknown column '" + std::string(f.text) + "': " + expectedHeader(), f.col);
        }
        if (columnOf[k] >= 0)
          return error("column '" + std::string(f.text) + "' appears twice", f.col);
        columnOf[k] = static_cast<int>(c);
      }
      for (size_t k = 0; k < kColumns.size(); ++k)
        if (columnOf[k] < 0)
          return error("missing column '" + std::string(kColumns[k]) + "': " + expectedHeader(),
                       static_cast<int>(line.size()) + 1);
      columnCount = fields.size();
      haveHeader = true;
      continue;
    }

    if (fields.size() > columnCount)
      return error("extra field: expected " + std::to_string(columnCount) +
                       " fields (id,lower,upper,size)",
                   fields[columnCount].col);
    std::array<int64_t, kColumns.size()> values{};
    std::array<int, kColumns.size()> cols{};
    for (size_t k = 0; k < kColumns.size(); ++k) {
      const size_t c = static_cast<size_t>(columnOf[k]);
      const std::string name(kColumns[k]);
      if (c >= fields.size())
        return error("missing field '" + name + "': expected " + std::to_string(columnCount) +
                         " fields (id,lower,upper,size)",
                     static_cast<int>(line.size()) + 1);
      const Field &f = fields[c];
      cols[k] = f.col;
      if (f.text.empty())
        return error("empty field '" + name + "'", f.col);
      if (k == 0)
        continue; // ids are names
      const char *first = f.text.data(), *last = f.text.data() + f.text.size();
      auto [end, ec] = std::from_chars(first, last, values[k]);
      if (ec == std::errc::result_out_of_range)
        return error("'" + std::string(f.text) + "' is out of range for '" + name + "'", f.col);
      if (ec != std::errc() || end != last)
        return error("'" + std::string(f.text) + "' is not an integer (column '" + name + "')",
                     f.col);
    }
    const std::string_view name = fields[static_cast<size_t>(columnOf[0])].text;
    BufferLifetime b{static_cast<int64_t>(problem.buffers.size()), values[1], values[2], values[3]};
    if (auto [it, inserted] = idLine.emplace(name, lineNo); !inserted)
      return error("duplicate id '" + std::string(name) + "' (first on line " +
                       std::to_string(it->second) + ")",
                   cols[0]);
    if (b.upper <= b.lower)
      return error("upper (" + std::to_string(b.upper) + ") must be greater than lower (" +
                       std::to_string(b.lower) + ")",
                   cols[2]);
    if (b.size < 0)
      return error("negative size " + std::to_string(b.size), cols[3]);
    problem.buffers.push_back(b);
    problem.names.emplace_back(name);
  }
  if (!haveHeader)
    return Error("empty input: " + expectedHeader(), SourceLoc{fileName, 1, 1});
  return problem;
}

Expected<MiniMallocProblem> readMiniMallocCsvFile(const std::string &path) {
  FXKIT_ASSIGN_OR_RETURN(auto text, readTextFile(path));
  return parseMiniMallocCsv(text, path == "-" ? "<stdin>" : path);
}

} // namespace fxkit
