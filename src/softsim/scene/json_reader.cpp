#include "softsim/scene/json_reader.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "softsim/core/errors.hpp"

namespace softsim {

std::string describe_json(const nlohmann::json& value) {
  std::string text = value.dump();
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

JsonReader::JsonReader(const nlohmann::json& node, std::string path, std::string file)
    : node_(node), path_(std::move(path)), file_(std::move(file)) {
  if (!node_.is_object() && !node_.is_array())
    throw InputError(fmt::format("{}: {}: expected an object, got {}", file_, path_.empty() ? "(top level)" : path_,
                                 describe_json(node_)));
}

std::string JsonReader::key_path(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

void JsonReader::fail(const std::string& key, const std::string& message) const {
  throw InputError(fmt::format("{}: {}: {}", file_, key_path(key), message));
}

void JsonReader::fail_here(const std::string& message) const {
  throw InputError(fmt::format("{}: {}: {}", file_, path_.empty() ? "(top level)" : path_, message));
}

bool JsonReader::has(const std::string& key) const {
  used_.insert(key);
  return node_.is_object() && node_.contains(key);
}

JsonReader JsonReader::child(const std::string& key) const {
  used_.insert(key);
  const auto& value = node_.at(key);
  if (!value.is_object() && !value.is_array()) fail(key, "expected an object, got " + describe_json(value));
  return JsonReader(value, key_path(key), file_);
}

JsonReader JsonReader::element(std::size_t index) const {
  return JsonReader(node_.at(index), fmt::format("{}[{}]", path_, index), file_);
}

JsonReader JsonReader::object(const std::string& key) const {
  const JsonReader c = child(key);
  if (!c.node().is_object()) fail(key, "expected an object, got " + describe_json(c.node()));
  return c;
}

JsonReader JsonReader::object_element(std::size_t index) const {
  const JsonReader e = element(index);
  e.require_object();
  return e;
}

void JsonReader::require_object() const {
  if (!node_.is_object()) fail_here("expected an object, got " + describe_json(node_));
}

std::size_t JsonReader::array_size() const {
  if (!node_.is_array()) fail_here("expected an array, got " + describe_json(node_));
  return node_.size();
}

double JsonReader::number(const std::string& key, double fallback, double min, double max, bool exclusive_min) const {
  if (!has(key)) return fallback;
  const auto& v = node_.at(key);
  if (!v.is_number()) fail(key, "expected a number, got " + describe_json(v));
  const double x = v.get<double>();
  if (!std::isfinite(x)) fail(key, "expected a finite number, got " + describe_json(v));
  if (exclusive_min ? !(x > min) : !(x >= min)) {
    if (exclusive_min && min == 0.0) fail(key, "expected a positive number, got " + describe_json(v));
    fail(key, fmt::format("expected a number {} {:g}, got {}", exclusive_min ? ">" : ">=", min, describe_json(v)));
  }
  if (!(x <= max)) fail(key, fmt::format("expected a number <= {:g}, got {}", max, describe_json(v)));
  return x;
}

double JsonReader::positive(const std::string& key, double fallback) const {
  return number(key, fallback, 0.0, HUGE_VAL, true);
}

std::optional<double> JsonReader::optional_number(const std::string& key, double min, bool exclusive_min) const {
  if (!has(key)) return std::nullopt;
  return number(key, 0.0, min, HUGE_VAL, exclusive_min);
}

int JsonReader::integer(const std::string& key, int fallback, int min, int max) const {
  if (!has(key)) return fallback;
  const auto& v = node_.at(key);
  if (!v.is_number_integer()) fail(key, "expected an integer, got " + describe_json(v));
  const auto x = v.get<long long>();
  if (x < min || x > max) fail(key, fmt::format("expected an integer in [{}, {}], got {}", min, max, x));
  return static_cast<int>(x);
}

bool JsonReader::boolean(const std::string& key, bool fallback) const {
  if (!has(key)) return fallback;
  const auto& v = node_.at(key);
  if (!v.is_boolean()) fail(key, "expected true or false, got " + describe_json(v));
  return v.get<bool>();
}

std::string JsonReader::string(const std::string& key, const std::string& fallback,
                               const std::vector<std::string>& allowed) const {
  if (!has(key)) return fallback;
  const auto& v = node_.at(key);
  if (!v.is_string()) fail(key, "expected a string, got " + describe_json(v));
  std::string s = v.get<std::string>();
  if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), s) == allowed.end())
    fail(key, fmt::format("expected one of {}, got \"{}\"", fmt::join(allowed, ", "), s));
  return s;
}

VecX JsonReader::vector(const std::string& key, const VecX& fallback, int size) const {
  if (!has(key)) return fallback;
  const auto& v = node_.at(key);
  if (!v.is_array() || static_cast<int>(v.size()) != size)
    fail(key, fmt::format("expected an array of {} numbers, got {}", size, describe_json(v)));
  VecX out(size);
  for (int i = 0; i < size; ++i) {
    if (!v[i].is_number()) fail(key, fmt::format("expected an array of {} numbers, got {}", size, describe_json(v)));
    out[i] = v[i].get<double>();
    if (!std::isfinite(out[i])) fail(key, "expected finite numbers, got " + describe_json(v));
  }
  return out;
}

std::vector<int> JsonReader::int_list(const std::string& key) const {
  used_.insert(key);
  const auto& v = node_.at(key);
  if (!v.is_array()) fail(key, "expected an array of integers, got " + describe_json(v));
  std::vector<int> out;
  for (const auto& e : v) {
    if (!e.is_number_integer() || e.get<long long>() < 0 || e.get<long long>() > std::numeric_limits<int>::max())
      fail(key, "expected an array of non-negative integers (each at most 2^31 - 1), got " + describe_json(v));
    out.push_back(static_cast<int>(e.get<long long>()));
  }
  return out;
}

void JsonReader::finish() const {
  if (!node_.is_object()) return;
  for (const auto& [key, value] : node_.items())
    if (!used_.count(key)) fail(key, "unknown key");
}

}  // namespace softsim
