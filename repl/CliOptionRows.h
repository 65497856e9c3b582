#pragma once
/// \file A subcommand's plain options as rows of a table: {names, the field, help}. A bool field
/// is a flag (`!--no-x` sets it false), any other an option taking a value, a list one taking
/// every value that follows. The subcommands declare their fields this way instead of one
/// CLI11 call each, so declaring an option is one row and `--help` lists the rows in order.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace fxkit {

/// One option of a subcommand: CLI11's names ("-o,--output"), the field it sets, its help.
struct CliOptionRow {
  std::string names;
  std::variant<bool *, int *, uint64_t *, std::string *, std::optional<double> *,
               std::vector<std::string> *>
      field;
  std::string help;
};

/// Declares `rows` on `cmd`, in order.
inline void addOptionRows(CLI::App *cmd, std::initializer_list<CliOptionRow> rows) {
  for (const CliOptionRow &row : rows)
    std::visit(
        [&](auto *field) {
          using Field = std::remove_pointer_t<decltype(field)>;
          if constexpr (std::is_same_v<Field, bool>)
            cmd->add_flag(row.names, *field, row.help);
          else if constexpr (std::is_same_v<Field, std::vector<std::string>>)
            cmd->add_option(row.names, *field, row.help)->take_all();
          else
            cmd->add_option(row.names, *field, row.help);
        },
        row.field);
}

} // namespace fxkit
