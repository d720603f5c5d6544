// small_vec.h - a vector with inline storage for trivially copyable types -//
//
// The checker's hot sets (thread intervals, visibility segments, pending
// awaits, record lists) hold one to four entries almost always; keeping
// those inline removes most heap traffic from the engines' inner loops.
// Only what the engines use is provided. (llvm::SmallVector would do, but
// exgc_sync does not otherwise depend on LLVM.)
#ifndef EXGC_SYNC_SMALL_VEC_H
#define EXGC_SYNC_SMALL_VEC_H

#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>

namespace exgc::sync {

template <typename T, unsigned N> class SmallVec {
  static_assert(std::is_trivially_copyable<T>::value, "SmallVec holds trivially copyable types");

public:
  SmallVec() = default;
  SmallVec(const SmallVec &o) { assign(o.begin(), o.end()); }
  SmallVec(SmallVec &&o) noexcept { take(o); }
  SmallVec &operator=(const SmallVec &o) {
    if (this != &o)
      assign(o.begin(), o.end());
    return *this;
  }
  SmallVec &operator=(SmallVec &&o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~SmallVec() { release(); }

  T *begin() { return data(); }
  T *end() { return data() + size_; }
  const T *begin() const { return data(); }
  const T *end() const { return data() + size_; }
  T *data() { return heap_ ? heap_ : reinterpret_cast<T *>(inline_); }
  const T *data() const { return heap_ ? heap_ : reinterpret_cast<const T *>(inline_); }
  unsigned size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T &operator[](unsigned i) { return data()[i]; }
  const T &operator[](unsigned i) const { return data()[i]; }
  T &front() { return data()[0]; }
  const T &front() const { return data()[0]; }
  T &back() { return data()[size_ - 1]; }
  const T &back() const { return data()[size_ - 1]; }
  void clear() { size_ = 0; }
  void pop_back() { --size_; }
  void push_back(const T &v) {
    if (size_ == cap_) {
      T copy = v; // v may live in this vector
      grow(size_ + 1);
      data()[size_++] = copy;
      return;
    }
    data()[size_++] = v;
  }
  void reserve(unsigned n) {
    if (n > cap_)
      grow(n);
  }
  void resize(unsigned n) {
    reserve(n);
    size_ = n;
  }
  T *insert(T *pos, const T &v) {
    unsigned i = static_cast<unsigned>(pos - data());
    T copy = v;
    reserve(size_ + 1);
    T *d = data();
    std::memmove(d + i + 1, d + i, (size_ - i) * sizeof(T));
    d[i] = copy;
    ++size_;
    return d + i;
  }
  T *erase(T *pos) { return erase(pos, pos + 1); }
  T *erase(T *first, T *last) {
    T *d = data();
    unsigned i = static_cast<unsigned>(first - d), n = static_cast<unsigned>(last - first);
    std::memmove(d + i, d + i + n, (size_ - i - n) * sizeof(T));
    size_ -= n;
    return d + i;
  }
  void assign(const T *b, const T *e) {
    unsigned n = static_cast<unsigned>(e - b);
    size_ = 0;
    reserve(n);
    if (n)
      std::memcpy(data(), b, n * sizeof(T));
    size_ = n;
  }
  void swap(SmallVec &o) {
    SmallVec t(std::move(o));
    o = std::move(*this);
    *this = std::move(t);
  }
  bool operator==(const SmallVec &o) const {
    if (size_ != o.size_)
      return false;
    for (unsigned i = 0; i < size_; ++i)
      if (!(data()[i] == o.data()[i]))
        return false;
    return true;
  }
  bool operator!=(const SmallVec &o) const { return !(*this == o); }

private:
  void grow(unsigned n) {
    unsigned cap = cap_ * 2 > n ? cap_ * 2 : n;
    T *mem = static_cast<T *>(std::malloc(cap * sizeof(T)));
    if (!mem)
      throw std::bad_alloc();
    if (size_)
      std::memcpy(mem, data(), size_ * sizeof(T));
    if (heap_)
      std::free(heap_);
    heap_ = mem;
    cap_ = cap;
  }
  void release() {
    if (heap_)
      std::free(heap_);
    heap_ = nullptr;
    cap_ = N;
    size_ = 0;
  }
  void take(SmallVec &o) {
    if (o.heap_) {
      heap_ = o.heap_;
      cap_ = o.cap_;
      size_ = o.size_;
      o.heap_ = nullptr;
      o.cap_ = N;
      o.size_ = 0;
      return;
    }
    heap_ = nullptr;
    cap_ = N;
    size_ = o.size_;
    if (size_)
      std::memcpy(inline_, o.inline_, size_ * sizeof(T));
    o.size_ = 0;
  }

  T *heap_ = nullptr;
  unsigned size_ = 0, cap_ = N;
  alignas(T) unsigned char inline_[N * sizeof(T)];
};

/// A vector of at most N elements stored inline: trivially copyable, so
/// boxes copy with memcpy. Callers keep sizes <= N (tensor rank is checked).
template <typename T, unsigned N> class FixedVec {
public:
  T *begin() { return v_; }
  T *end() { return v_ + n_; }
  const T *begin() const { return v_; }
  const T *end() const { return v_ + n_; }
  T *data() { return v_; }
  const T *data() const { return v_; }
  unsigned size() const { return n_; }
  bool empty() const { return n_ == 0; }
  void resize(unsigned n) { n_ = n <= N ? n : N; }
  T &operator[](unsigned i) { return v_[i]; }
  const T &operator[](unsigned i) const { return v_[i]; }
  void assign(const T *b, const T *e) {
    resize(static_cast<unsigned>(e - b));
    for (unsigned i = 0; i < n_; ++i)
      v_[i] = b[i];
  }
  bool operator==(const FixedVec &o) const {
    if (n_ != o.n_)
      return false;
    for (unsigned i = 0; i < n_; ++i)
      if (v_[i] != o.v_[i])
        return false;
    return true;
  }

private:
  unsigned n_ = 0;
  T v_[N];
};

} // namespace exgc::sync

#endif
