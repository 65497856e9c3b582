#pragma once
/// \file Tab completion for the REPL, independent of readline so that it can be tested: given
/// the line up to the word being typed and the word's beginning, the words it may become.

#include <string>
#include <string_view>
#include <vector>

namespace fxkit {

class ReplSession;

/// Candidates for `word` (which starts at the end of `before`, the text of the line before it):
/// command names for the first word of a command, then what the command's table entry says its
/// arguments are: node names, graph names, pass names, formats, file paths (folders end in
/// `/`), `after`/`before`, metadata keys, backends, `let` variables (`$NAME`) where nodes go,
/// the `--options` of the command's usage line; `find` terms complete their keys, op names
/// after `op=`, node names after `name=`, kinds after `kind=`; after `let NAME = ` the query
/// commands and then their arguments; in an `insert`'s node line, op targets for dotted words
/// and node names otherwise. Sorted, distinct, each starting with `word`.
std::vector<std::string> replCompletions(const ReplSession &session, std::string_view before,
                                         std::string_view word);

/// The characters that end the word being completed, given the line up to the cursor: blanks
/// and `;`, so that a `find` term (`op=aten.mu`), a `$variable` or `users>1` is one word; in an
/// `insert`'s node line, also Python's and FX text's punctuation (`target=torch.ops.aten.re`
/// completes from `torch`), as readline splits by default.
std::string_view replWordBreaks(std::string_view before);

} // namespace fxkit
