#include "repl/ReplLexer.h"

namespace fxkit {

Expected<std::vector<ReplWords>> lexReplLine(std::string_view line) {
  std::vector<ReplWords> commands;
  ReplWords words;
  std::string word;
  // A quoted empty word ('') is still a word, so "in a word" is tracked apart from its text.
  bool inWord = false;
  auto endWord = [&] {
    if (inWord)
      words.push_back(std::move(word));
    word.clear();
    inWord = false;
  };
  auto endCommand = [&] {
    endWord();
    if (!words.empty())
      commands.push_back(std::move(words));
    words.clear();
  };
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      endWord();
    } else if (c == ';') {
      endCommand();
    } else if (c == '#' && !inWord) {
      break;
    } else if (c == '\\') {
      if (i + 1 == line.size())
        return Error("trailing backslash", SourceLoc{"", 1, static_cast<int>(i + 1)},
                     std::string(line));
      word += line[++i];
      inWord = true;
    } else if (c == '\'' || c == '"') {
      size_t close = line.find(c, i + 1);
      if (close == std::string_view::npos)
        return Error(std::string("unterminated ") + (c == '"' ? "double" : "single") + " quote",
                     SourceLoc{"", 1, static_cast<int>(i + 1)}, std::string(line));
      word.append(line.substr(i + 1, close - i - 1));
      inWord = true;
      i = close;
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return commands;
}

std::string quoteReplWord(std::string_view word) {
  bool plain = !word.empty();
  for (char c : word)
    plain = plain && c != ' ' && c != '\t' && c != ';' && c != '#' && c != '\\' && c != '\'' &&
            c != '"';
  if (plain)
    return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'')
      out += "'\\''"; // close the quote, an escaped quote, reopen
    else
      out += c;
  }
  return out + "'";
}

} // namespace fxkit
