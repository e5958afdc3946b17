#pragma once
// A scalar expression of t, x, y, z as PolyFEM scenes write boundary values ("4*t",
// "y*cos(0.4*pi*t)-z*sin(0.4*pi*t)-y") with the rules of PolyFEM's tinyexpr: numbers, pi,
// + - * / ^ (left-associative, a sign binding tighter: -2^2 = 4), parentheses and the functions
// sin cos tan asin acos atan exp log (base 10, as tinyexpr's default) log10 ln sqrt abs, min max pow. Parsed once into a
// small tree, evaluated many times. A syntax error or an unknown name throws InputError naming
// the text and the position.
#include <memory>
#include <string>

namespace softsim {

class Expression {
 public:
  // `where` names the expression in messages, e.g. "scene.json: boundary_conditions....value[0]".
  static Expression parse(const std::string& text, const std::string& where);
  double operator()(double t, double x = 0, double y = 0, double z = 0) const;
  // Whether the text names the variable ('t', 'x', 'y' or 'z').
  bool uses(char variable) const;
  const std::string& text() const { return text_; }

  struct Node;

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
  unsigned variables_ = 0;  // bit per variable used
};

}  // namespace softsim
