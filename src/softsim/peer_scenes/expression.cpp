#include "softsim/peer_scenes/expression.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <algorithm>
#include <cstdlib>
#include <numbers>
#include <vector>

#include "softsim/core/errors.hpp"

namespace softsim {

struct Expression::Node {
  enum Kind { constant, variable, negate, add, subtract, multiply, divide, power, function } kind;
  double value = 0.0;   // constant
  int index = 0;        // variable: 0 t, 1 x, 2 y, 3 z; function: the entry of kFunctions
  std::shared_ptr<const Node> a, b;
};

namespace {

using Node = Expression::Node;
using NodePtr = std::shared_ptr<const Node>;

// The functions by name, each with one or two arguments (the second ignored by the one-argument ones).
struct Function {
  const char* name;
  int arity;
  double (*apply)(double, double);
};
constexpr Function kFunctions[] = {
    {"sin", 1, [](double v, double) { return std::sin(v); }},
    {"cos", 1, [](double v, double) { return std::cos(v); }},
    {"tan", 1, [](double v, double) { return std::tan(v); }},
    {"asin", 1, [](double v, double) { return std::asin(v); }},
    {"acos", 1, [](double v, double) { return std::acos(v); }},
    {"atan", 1, [](double v, double) { return std::atan(v); }},
    {"exp", 1, [](double v, double) { return std::exp(v); }},
    {"log", 1, [](double v, double) { return std::log10(v); }},
    {"log10", 1, [](double v, double) { return std::log10(v); }},
    {"ln", 1, [](double v, double) { return std::log(v); }},
    {"sqrt", 1, [](double v, double) { return std::sqrt(v); }},
    {"abs", 1, [](double v, double) { return std::fabs(v); }},
    {"min", 2, [](double a, double b) { return std::min(a, b); }},
    {"max", 2, [](double a, double b) { return std::max(a, b); }},
    {"pow", 2, [](double a, double b) { return std::pow(a, b); }},
};
constexpr char kVariables[] = {'t', 'x', 'y', 'z'};

NodePtr make(Node::Kind kind, NodePtr a = nullptr, NodePtr b = nullptr, double value = 0.0, int index = 0) {
  auto n = std::make_shared<Node>();
  n->kind = kind;
  n->a = std::move(a);
  n->b = std::move(b);
  n->value = value;
  n->index = index;
  return n;
}

// Recursive descent: sum := product (('+'|'-') product)*; product := unary (('*'|'/') unary)*;
// unary := signed ('^' signed)*; signed := ('-'|'+') signed | atom; atom := number | name |
// name '(' sum ')' | '(' sum ')'.
class Parser {
 public:
  Parser(const std::string& text, const std::string& where) : s_(text), where_(where) {}

  NodePtr parse_all(unsigned& variables) {
    NodePtr root = sum();
    skip();
    if (i_ != s_.size()) fail(fmt::format("unexpected '{}'", s_[i_]));
    variables = variables_;
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(fmt::format("{}: cannot read the expression \"{}\": {} at character {}", where_, s_, what, i_ + 1));
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool take(char c) {
    skip();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  NodePtr sum() {
    NodePtr left = product();
    for (;;) {
      if (take('+')) left = make(Node::add, left, product());
      else if (take('-')) left = make(Node::subtract, left, product());
      else return left;
    }
  }
  NodePtr product() {
    NodePtr left = unary();
    for (;;) {
      if (take('*')) left = make(Node::multiply, left, unary());
      else if (take('/')) left = make(Node::divide, left, unary());
      else return left;
    }
  }
  // As PolyFEM's tinyexpr (built without TE_POW_FROM_RIGHT): powers group left to right and a
  // sign binds tighter than '^' (-2^2 = 4, 2^3^2 = 64).
  NodePtr unary() {
    NodePtr left = signed_atom();
    while (take('^')) left = make(Node::power, left, signed_atom());
    return left;
  }
  NodePtr signed_atom() {
    if (take('-')) return make(Node::negate, signed_atom());
    if (take('+')) return signed_atom();
    return atom();
  }
  NodePtr atom() {
    skip();
    if (i_ >= s_.size()) fail("unexpected end");
    if (take('(')) {
      NodePtr inner = sum();
      if (!take(')')) fail("missing ')'");
      return inner;
    }
    const char c = s_[i_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const char* begin = s_.c_str() + i_;
      char* end = nullptr;
      const double v = std::strtod(begin, &end);
      if (end == begin) fail("bad number");
      i_ += static_cast<std::size_t>(end - begin);
      return make(Node::constant, nullptr, nullptr, v);
    }
    if (std::isalpha(static_cast<unsigned char>(c))) {
      const std::size_t start = i_;
      while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
      const std::string name = s_.substr(start, i_ - start);
      if (name == "pi") return make(Node::constant, nullptr, nullptr, std::numbers::pi);
      for (int v = 0; v < 4; ++v)
        if (name.size() == 1 && name[0] == kVariables[v]) {
          variables_ |= 1u << v;
          return make(Node::variable, nullptr, nullptr, 0.0, v);
        }
      for (int f = 0; f < static_cast<int>(std::size(kFunctions)); ++f)
        if (name == kFunctions[f].name) {
          const int arity = kFunctions[f].arity;
          const char* arguments = arity == 1 ? "an argument" : "two arguments";
          if (!take('(')) fail(fmt::format("'{}' needs {} in parentheses", name, arguments));
          NodePtr first = sum(), second;
          if (arity == 2) {
            if (!take(',')) fail(fmt::format("'{}' needs two arguments", name));
            second = sum();
          }
          if (!take(')')) fail("missing ')'");
          return make(Node::function, first, second, 0.0, f);
        }
      i_ = start;
      fail(fmt::format("unknown name '{}' (known: t, x, y, z, pi, sin, cos, tan, asin, acos, atan, exp, log (base 10), log10, ln, sqrt, abs, min, max, pow)",
                       name));
    }
    fail(fmt::format("unexpected '{}'", c));
  }

  const std::string& s_;
  const std::string& where_;
  std::size_t i_ = 0;
  unsigned variables_ = 0;
};

double evaluate(const Node& n, const double vars[4]) {
  switch (n.kind) {
    case Node::constant: return n.value;
    case Node::variable: return vars[n.index];
    case Node::negate: return -evaluate(*n.a, vars);
    case Node::add: return evaluate(*n.a, vars) + evaluate(*n.b, vars);
    case Node::subtract: return evaluate(*n.a, vars) - evaluate(*n.b, vars);
    case Node::multiply: return evaluate(*n.a, vars) * evaluate(*n.b, vars);
    case Node::divide: return evaluate(*n.a, vars) / evaluate(*n.b, vars);
    case Node::power: return std::pow(evaluate(*n.a, vars), evaluate(*n.b, vars));
    case Node::function: return kFunctions[n.index].apply(evaluate(*n.a, vars), n.b ? evaluate(*n.b, vars) : 0.0);
  }
  return 0.0;
}

}  // namespace

Expression Expression::parse(const std::string& text, const std::string& where) {
  Expression e;
  e.text_ = text;
  e.root_ = Parser(text, where).parse_all(e.variables_);
  return e;
}

double Expression::operator()(double t, double x, double y, double z) const {
  const double vars[4] = {t, x, y, z};
  return evaluate(*root_, vars);
}

bool Expression::uses(char variable) const {
  for (int v = 0; v < 4; ++v)
    if (kVariables[v] == variable) return (variables_ >> v) & 1u;
  return false;
}

}  // namespace softsim
