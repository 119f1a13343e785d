#pragma once
// HDF5's shuffle and deflate filters, applied here to whole chunks so that the writer can
// store them with H5Dwrite_chunk: ISA-L's deflate compresses these chunks several times faster
// than the zlib behind HDF5's deflate filter (bench/RESULTS.md, "Recording cost"), and the
// bytes are the ones those filters would decode, so stock readers (h5py, xarray, HDFView)
// read the datasets through the shuffle + deflate pipeline they declare.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace ptsim::postproc {

/// Allocates like std::allocator but leaves new elements uninitialised: the codec's buffers
/// grow to a bound and shrink to what was written on every chunk, and zero-filling the growth
/// each time cost more than the shuffle.
template <typename T>
struct uninitialized_allocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = uninitialized_allocator<U>;
  };
  using std::allocator<T>::allocator;
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using byte_buffer = std::vector<unsigned char, uninitialized_allocator<unsigned char>>;

/// HDF5's shuffle filter: byte 0 of every element, then byte 1 of every element, and so on
/// (`n` elements of `size` bytes). Like the filter, it copies unchanged when n or size is 1.
void byte_shuffle(const void* in, std::size_t n, std::size_t size, void* out);
/// The inverse (for tests and readers of raw chunks).
void byte_unshuffle(const void* in, std::size_t n, std::size_t size, void* out);

/// HDF5's Fletcher-32 checksum (its fletcher32 filter): 16-bit words read big-endian, an odd
/// last byte as the high byte of a word, both sums folded modulo 65535; (sum2 << 16) | sum1.
std::uint32_t fletcher32(const void* data, std::size_t bytes);
/// Appends fletcher32(`bytes` bytes at `data`) as HDF5's filter stores it after a chunk.
void append_fletcher32(byte_buffer& chunk);

/// A dataset's last steady chunk (every row the same: no throttling, a pinned clock, a
/// memory that never sleeps): the next steady chunk with the same row is stored again
/// without being compressed again.
struct steady_chunk {
  std::vector<unsigned char> row;
  byte_buffer stored;
  std::size_t bytes = 0;
};

/// Shuffle, then deflate in the zlib format (header, deflate stream, Adler-32), then the
/// Fletcher-32 checksum of that: what HDF5's shuffle, deflate and fletcher32 filters write and
/// decode, in that order. One per thread: it keeps its buffers.
class chunk_compressor {
 public:
  /// `level`: ISA-L's deflate level, 0 (fastest) to 3.
  explicit chunk_compressor(int level);
  ~chunk_compressor();
  chunk_compressor(const chunk_compressor&) = delete;
  chunk_compressor& operator=(const chunk_compressor&) = delete;

  /// The stored form of a chunk of `n` elements of `size` bytes; valid until the next call.
  /// With `memo`, a chunk whose rows (`row_elements` elements each) all equal the first is
  /// compared with memo's: equal, memo's stored bytes are returned; else memo takes this one.
  const byte_buffer& compress(const void* data, std::size_t n, std::size_t size,
                                             steady_chunk* memo = nullptr, std::size_t row_elements = 1);

 private:
  void deflate_zlib(const unsigned char* in, std::size_t bytes);  // into out_

  int level_;
  std::vector<unsigned char> level_buf_;
  byte_buffer shuffled_, out_;
};

}  // namespace ptsim::postproc
