#include "softsim/peer_scenes/expression.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "softsim/core/errors.hpp"

namespace softsim {
namespace {

TEST(Expression, EvaluatesPolyfemBoundaryValues) {
  const double pi = std::numbers::pi;
  EXPECT_DOUBLE_EQ(Expression::parse("4*t", "e")(0.25), 1.0);
  EXPECT_DOUBLE_EQ(Expression::parse("-10*t", "e")(0.5), -5.0);
  EXPECT_DOUBLE_EQ(Expression::parse("-min(t,0.28)", "e")(1.0), -0.28);
  EXPECT_DOUBLE_EQ(Expression::parse("max(t, 2) ^ 2", "e")(1.0), 4.0);
  const Expression twist = Expression::parse("y*cos((0.4*pi)*t)-z*sin((0.4*pi)*t)-y", "e");
  EXPECT_NEAR(twist(1.0, 0.0, 0.3, 0.2), 0.3 * std::cos(0.4 * pi) - 0.2 * std::sin(0.4 * pi) - 0.3, 1e-15);
  EXPECT_TRUE(twist.uses('y'));
  EXPECT_TRUE(twist.uses('t'));
  EXPECT_FALSE(twist.uses('x'));
  // tinyexpr's default rules, as PolyFEM builds it: '^' left-associative, the sign binding tighter.
  EXPECT_DOUBLE_EQ(Expression::parse("2^3^2", "e")(0), 64.0);
  EXPECT_DOUBLE_EQ(Expression::parse("-2^2", "e")(0), 4.0);
  EXPECT_DOUBLE_EQ(Expression::parse("2*3^2", "e")(0), 18.0);
  EXPECT_DOUBLE_EQ(Expression::parse("log(1000) + log10(100)", "e")(0), 5.0);  // base 10
  EXPECT_DOUBLE_EQ(Expression::parse("1 - 2 - 3", "e")(0), -4.0);  // left-associative
  EXPECT_DOUBLE_EQ(Expression::parse("8 / 4 / 2", "e")(0), 1.0);
  EXPECT_DOUBLE_EQ(Expression::parse("sqrt(abs(-16)) + ln(exp(2))", "e")(0), 6.0);
  EXPECT_DOUBLE_EQ(Expression::parse("1.5e-3", "e")(0), 1.5e-3);
}

TEST(Expression, NamesWhatItCannotRead) {
  for (const char* bad : {"4*", "(t", "foo(t)", "t $ 2", "min(t)", "", "sin t"}) {
    try {
      Expression::parse(bad, "scene.json: value[0]");
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("scene.json: value[0]: cannot read the expression"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace softsim
