#pragma once
// Vectors for large per-call buffers that a parallel loop fills: sized without writing the
// elements, so that the threads that fill them are the first to touch their memory. A plain
// std::vector(n) zeroes every element on the calling thread first, a serial pass over fresh
// memory (page faults included) that caps the speed-up of a parallel kernel.
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace softsim {

// An allocator whose construct() without arguments default-initialises (trivial types are left
// unwritten) instead of value-initialising.
template <class T, class Base = std::allocator<T>>
class DefaultInitAllocator : public Base {
  using Traits = std::allocator_traits<Base>;

 public:
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U, typename Traits::template rebind_alloc<U>>;
  };
  using Base::Base;
  DefaultInitAllocator() = default;
  template <class U, class B>
  DefaultInitAllocator(const DefaultInitAllocator<U, B>& other) noexcept : Base(other) {}

  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    Traits::construct(static_cast<Base&>(*this), p, std::forward<Args>(args)...);
  }
};

// Sizing (the constructor from n, resize(n)) and emplace_back() leave trivially
// default-constructible elements uninitialised: write every one before reading it.
template <class T>
using ScratchVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace softsim
