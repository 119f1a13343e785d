#include "chunk_codec.hpp"

#include <isa-l/igzip_lib.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <new>
#include <stdexcept>

// shuffle8 reads elements as little-endian words.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "chunk_codec assumes a little-endian host"
#endif

namespace ptsim::postproc {

namespace {

// Transposes an 8x8 byte matrix held as eight little-endian words: afterwards word b holds
// byte b of each of the eight input words, in their order (swaps of 4-, 2-, then 1-byte blocks).
inline void transpose8x8(std::uint64_t x[8]) {
  for (int i = 0; i < 4; ++i) {
    const std::uint64_t t = ((x[i] >> 32) ^ x[i + 4]) & 0x00000000ffffffffULL;
    x[i] ^= t << 32;
    x[i + 4] ^= t;
  }
  for (int i : {0, 1, 4, 5}) {
    const std::uint64_t t = ((x[i] >> 16) ^ x[i + 2]) & 0x0000ffff0000ffffULL;
    x[i] ^= t << 16;
    x[i + 2] ^= t;
  }
  for (int i : {0, 2, 4, 6}) {
    const std::uint64_t t = ((x[i] >> 8) ^ x[i + 1]) & 0x00ff00ff00ff00ffULL;
    x[i] ^= t << 8;
    x[i + 1] ^= t;
  }
}

void shuffle_generic(const unsigned char* in, std::size_t n, std::size_t size, std::size_t from,
                     unsigned char* out) {
  for (std::size_t i = from; i < n; ++i)
    for (std::size_t b = 0; b < size; ++b) out[b * n + i] = in[i * size + b];
}

#if defined(__SSE2__)
// Sixteen doubles (a 16 x 8 byte matrix in eight registers of two doubles each) into eight
// 16-byte planes: three rounds of byte and word interleaves, then one of halves.
inline void shuffle16x8(const unsigned char* in, std::size_t n, unsigned char* out) {
  __m128i r[8], t[8];
  for (int k = 0; k < 8; ++k) r[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16 * k));
  // t[2k]: bytes of elements 4k and 4k+2 alternating; t[2k+1]: of 4k+1 and 4k+3.
  for (int k = 0; k < 4; ++k) {
    t[2 * k] = _mm_unpacklo_epi8(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm_unpackhi_epi8(r[2 * k], r[2 * k + 1]);
  }
  // r[2k]: bytes 0-3 of elements 4k..4k+3, four at a time; r[2k+1]: bytes 4-7.
  for (int k = 0; k < 4; ++k) {
    r[2 * k] = _mm_unpacklo_epi8(t[2 * k], t[2 * k + 1]);
    r[2 * k + 1] = _mm_unpackhi_epi8(t[2 * k], t[2 * k + 1]);
  }
  // t: bytes (0,1), (2,3), (4,5), (6,7) of elements 0-7 in t[0..3], of elements 8-15 in t[4..7].
  for (int h = 0; h < 2; ++h) {
    const __m128i* u = r + 4 * h;  // elements 8h..8h+7
    t[4 * h + 0] = _mm_unpacklo_epi32(u[0], u[2]);
    t[4 * h + 1] = _mm_unpackhi_epi32(u[0], u[2]);
    t[4 * h + 2] = _mm_unpacklo_epi32(u[1], u[3]);
    t[4 * h + 3] = _mm_unpackhi_epi32(u[1], u[3]);
  }
  for (int p = 0; p < 4; ++p) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + (2 * p) * n), _mm_unpacklo_epi64(t[p], t[4 + p]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + (2 * p + 1) * n), _mm_unpackhi_epi64(t[p], t[4 + p]));
  }
}
#endif

// Doubles: sixteen at a time with SSE2, then eight at a time with one 8x8 transpose and eight
// 8-byte stores instead of 64 byte stores (byte by byte, the shuffle was a sixth of the
// writer thread's time).
void shuffle8(const unsigned char* in, std::size_t n, unsigned char* out) {
  std::size_t i = 0;
#if defined(__SSE2__)
  for (; i + 16 <= n; i += 16) shuffle16x8(in + i * 8, n, out + i);
#endif
  for (; i + 8 <= n; i += 8) {
    std::uint64_t x[8];
    std::memcpy(x, in + i * 8, sizeof x);
    transpose8x8(x);
    for (std::size_t b = 0; b < 8; ++b) std::memcpy(out + b * n + i, &x[b], 8);
  }
  shuffle_generic(in, n, 8, i, out);
}

}  // namespace

void byte_shuffle(const void* in, std::size_t n, std::size_t size, void* out) {
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  if (n <= 1 || size <= 1) {
    std::memcpy(dst, src, n * size);
    return;
  }
  if (size == 8) return shuffle8(src, n, dst);
  shuffle_generic(src, n, size, 0, dst);
}

void byte_unshuffle(const void* in, std::size_t n, std::size_t size, void* out) {
  const auto* src = static_cast<const unsigned char*>(in);
  auto* dst = static_cast<unsigned char*>(out);
  if (n <= 1 || size <= 1) {
    std::memcpy(dst, src, n * size);
    return;
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t b = 0; b < size; ++b) dst[i * size + b] = src[b * n + i];
}

std::uint32_t fletcher32(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  std::uint32_t sum1 = 0, sum2 = 0;
  std::size_t words = bytes / 2;
  // 360 words at most between folds keep both sums within 32 bits.
  while (words > 0) {
    const std::size_t block = std::min<std::size_t>(words, 360);
    words -= block;
    for (std::size_t i = 0; i < block; ++i, p += 2) {
      sum1 += static_cast<std::uint32_t>(p[0]) << 8 | p[1];
      sum2 += sum1;
    }
    sum1 = (sum1 & 0xffff) + (sum1 >> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  }
  if (bytes % 2 != 0) {
    sum1 += static_cast<std::uint32_t>(p[0]) << 8;
    sum2 += sum1;
    sum1 = (sum1 & 0xffff) + (sum1 >> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  }
  sum1 = (sum1 & 0xffff) + (sum1 >> 16);
  sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  return sum2 << 16 | sum1;
}

void append_fletcher32(byte_buffer& chunk) {
  const std::uint32_t sum = fletcher32(chunk.data(), chunk.size());
  // HDF5's filter stores the checksum little-endian (UINT32ENCODE); tests/postproc checks a
  // chunk of HDF5's own making.
  for (int b = 0; b < 4; ++b) chunk.push_back(static_cast<unsigned char>(sum >> (8 * b)));
}

chunk_compressor::chunk_compressor(int level) : level_(level) {
  if (level < ISAL_DEF_MIN_LEVEL || level > ISAL_DEF_MAX_LEVEL)
    throw std::invalid_argument("deflate level " + std::to_string(level) + " is not one of ISA-L's (" +
                                std::to_string(ISAL_DEF_MIN_LEVEL) + " to " + std::to_string(ISAL_DEF_MAX_LEVEL) + ")");
  // Levels above 1 need a work buffer; at level 1 the one-shot compressor runs faster without.
  if (level > 1) level_buf_.resize(level == 2 ? ISAL_DEF_LVL2_DEFAULT : ISAL_DEF_LVL3_DEFAULT);
}

chunk_compressor::~chunk_compressor() = default;

void chunk_compressor::deflate_zlib(const unsigned char* in, std::size_t bytes) {
  // Worst case: stored blocks (5 bytes of header per 64 KiB), the zlib header and trailer,
  // and room for the checksum.
  out_.resize(bytes + 5 * (bytes / 65535 + 1) + ISAL_DEF_MAX_HDR_SIZE + 16 + 4);
  isal_zstream s;
  isal_deflate_stateless_init(&s);
  s.level = static_cast<std::uint32_t>(level_);
  s.level_buf = level_buf_.empty() ? nullptr : level_buf_.data();
  s.level_buf_size = static_cast<std::uint32_t>(level_buf_.size());
  s.gzip_flag = IGZIP_ZLIB;
  s.end_of_stream = 1;
  s.flush = NO_FLUSH;
  s.next_in = const_cast<unsigned char*>(in);  // ISA-L does not write through it
  s.avail_in = static_cast<std::uint32_t>(bytes);
  s.next_out = out_.data();
  s.avail_out = static_cast<std::uint32_t>(out_.size());
  const int rc = isal_deflate_stateless(&s);
  // The bound makes an overflow impossible; a short stream would store a chunk no reader inflates.
  if (rc != COMP_OK) throw std::runtime_error("deflate failed (ISA-L error " + std::to_string(rc) + ")");
  out_.resize(s.total_out);
  append_fletcher32(out_);
}

const byte_buffer& chunk_compressor::compress(const void* data, std::size_t n,
                                                            std::size_t size, steady_chunk* memo,
                                                            std::size_t row_elements) {
  const std::size_t bytes = n * size;
  const auto* raw = static_cast<const unsigned char*>(data);
  // Steady: every row equals the one before it (a memcmp that fails early on a moving signal).
  const std::size_t row = row_elements * size;
  const bool steady = memo && row > 0 && bytes >= row && bytes % row == 0 &&
                      std::memcmp(raw, raw + row, bytes - row) == 0;
  if (steady && memo->bytes == bytes && memo->row.size() == row &&
      std::memcmp(memo->row.data(), raw, row) == 0)
    return memo->stored;
  shuffled_.resize(bytes);
  byte_shuffle(data, n, size, shuffled_.data());
  deflate_zlib(shuffled_.data(), bytes);
  if (!steady) return out_;
  memo->row.assign(raw, raw + row);
  memo->bytes = bytes;
  memo->stored = out_;
  return memo->stored;
}

}  // namespace ptsim::postproc
