#pragma once
// HDF5's shuffle and deflate filters, applied here to whole chunks so that the writer can
// store them with H5Dwrite_chunk: libdeflate compresses several times faster than the zlib
// behind HDF5's deflate filter (bench/RESULTS.md, "Recording cost"), and the bytes are the
// ones those filters would decode, so stock readers (h5py, xarray, HDFView) read the
// datasets through the shuffle + deflate pipeline they declare.
#include <cstddef>
#include <vector>

struct libdeflate_compressor;

namespace ptsim::postproc {

/// HDF5's shuffle filter: byte 0 of every element, then byte 1 of every element, and so on
/// (`n` elements of `size` bytes). Like the filter, it copies unchanged when n or size is 1.
void byte_shuffle(const void* in, std::size_t n, std::size_t size, void* out);
/// The inverse (for tests and readers of raw chunks).
void byte_unshuffle(const void* in, std::size_t n, std::size_t size, void* out);

/// A dataset's last stored chunk: a chunk equal to it (a signal that held still, such as no
/// throttling or a pinned clock) is stored again without being compressed again.
struct last_chunk {
  std::vector<unsigned char> raw, stored;
};

/// Shuffle, then deflate in the zlib format (header, deflate stream, Adler-32), which is
/// what HDF5's deflate filter writes and inflates. One per thread: it keeps its buffers.
class chunk_compressor {
 public:
  explicit chunk_compressor(int level);
  ~chunk_compressor();
  chunk_compressor(const chunk_compressor&) = delete;
  chunk_compressor& operator=(const chunk_compressor&) = delete;

  /// The stored form of a chunk of `n` elements of `size` bytes; valid until the next call.
  /// With `memo`, a chunk equal to memo's is not compressed again, and memo takes this one.
  const std::vector<unsigned char>& compress(const void* data, std::size_t n, std::size_t size,
                                             last_chunk* memo = nullptr);

 private:
  libdeflate_compressor* c_;
  std::vector<unsigned char> shuffled_, out_;
};

}  // namespace ptsim::postproc
