#pragma once
// A non-owning reference to a callable, for callbacks that live only as long as the call that
// receives them (C++26's std::function_ref, in the small). Unlike std::function it never
// allocates: a lambda capturing a few references is stored on the heap by std::function, and the
// model's step hooks make one per term, several times a step (the small-scene fast path of
// Li & Jiang 2025's case studies, docs/book-cases.md).
#include <memory>
#include <type_traits>
#include <utility>

namespace softsim {

template <class Signature>
class FunctionRef;

template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  // Binds named callables only: a reference to a temporary would dangle as soon as the full
  // expression ends (a `const std::function&` member would have extended its life; this does not).
  template <class F>
    requires(!std::is_same_v<std::remove_cv_t<F>, FunctionRef> && std::is_invocable_r_v<R, F&, Args...>)
  FunctionRef(F& f) noexcept  // NOLINT: implicit, as a function parameter takes a lambda
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* object, Args... args) -> R {
          if constexpr (std::is_void_v<R>)
            (*static_cast<F*>(object))(std::forward<Args>(args)...);
          else
            return (*static_cast<F*>(object))(std::forward<Args>(args)...);
        }) {}

  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

}  // namespace softsim
