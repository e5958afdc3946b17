#pragma once
// Reads a JSON scene with errors that name the file and the JSON path of the offending key, e.g.
// "scene.json: bodies[1].material.E: expected a positive number, got -3". Every object checks
// that it has no keys it does not know (finish()).
#include <nlohmann/json.hpp>

#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "softsim/core/enum_names.hpp"
#include "softsim/core/types.hpp"

namespace softsim {

class JsonReader {
 public:
  JsonReader(const nlohmann::json& node, std::string path, std::string file);

  const std::string& path() const { return path_; }
  const nlohmann::json& node() const { return node_; }
  bool has(const std::string& key) const;
  JsonReader child(const std::string& key) const;  // key must exist
  JsonReader element(std::size_t index) const;     // array element
  std::size_t array_size() const;                  // node must be an array
  // The object at key (key must exist) or array element i, or one clear message naming it: an
  // array or a number where an object belongs would otherwise have every key fall back to its
  // default. require_object() is the same check on this node.
  JsonReader object(const std::string& key) const;
  JsonReader object_element(std::size_t index) const;
  void require_object() const;

  // Typed getters; the defaulted ones return the default when the key is absent.
  double number(const std::string& key, double fallback, double min = -HUGE_VAL, double max = HUGE_VAL,
                bool exclusive_min = false) const;
  double positive(const std::string& key, double fallback) const;
  std::optional<double> optional_number(const std::string& key, double min = -HUGE_VAL, bool exclusive_min = false) const;
  int integer(const std::string& key, int fallback, int min, int max) const;
  bool boolean(const std::string& key, bool fallback) const;
  std::string string(const std::string& key, const std::string& fallback, const std::vector<std::string>& allowed = {}) const;
  // One of the names of enumeration E (core/enum_names.hpp); `allowed` narrows the choice.
  template <class E>
  E choice(const std::string& key, E fallback, const std::vector<E>& allowed = {}) const {
    std::vector<std::string> names;
    if (allowed.empty()) names = names_of<E>();
    for (E e : allowed) names.emplace_back(name_of(e));
    return *value_named<E>(string(key, name_of(fallback), names));
  }
  VecX vector(const std::string& key, const VecX& fallback, int size) const;  // size = required length
  std::vector<int> int_list(const std::string& key) const;
  // The elements of the array at key (none when the key is absent), each read by read_one.
  template <class ReadOne>
  auto list(const std::string& key, ReadOne&& read_one) const {
    std::vector<std::decay_t<decltype(read_one(std::declval<const JsonReader&>()))>> out;
    if (!has(key)) return out;
    const JsonReader array = child(key);
    for (std::size_t i = 0; i < array.array_size(); ++i) out.push_back(read_one(array.element(i)));
    return out;
  }

  // Throws for any key of this object that no getter asked for.
  void finish() const;
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;
  [[noreturn]] void fail_here(const std::string& message) const;

 private:
  std::string key_path(const std::string& key) const;
  const nlohmann::json& node_;
  std::string path_;
  std::string file_;
  mutable std::set<std::string> used_;
};

std::string describe_json(const nlohmann::json& value);

}  // namespace softsim
