#pragma once
// Enumerations that scene files and the command line name (integrator types, body kinds, contact
// models, ...): each has one table of (value, name), specialised next to the enumeration, from
// which it is read, printed and listed, so no code compares the names themselves.
//   template <> struct EnumNames<Color> {
//     static constexpr std::pair<Color, const char*> table[] = {{Color::red, "red"}, ...};
//   };
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace softsim {

template <class E>
struct EnumNames;

template <class E>
const char* name_of(E value) {
  for (const auto& [v, name] : EnumNames<E>::table)
    if (v == value) return name;
  return "?";
}

template <class E>
std::optional<E> value_named(std::string_view name) {
  for (const auto& [v, n] : EnumNames<E>::table)
    if (name == n) return v;
  return std::nullopt;
}

template <class E>
std::vector<std::string> names_of() {
  std::vector<std::string> names;
  for (const auto& [v, name] : EnumNames<E>::table) names.emplace_back(name);
  return names;
}

}  // namespace softsim
