// The writer's own shuffle + deflate + Fletcher-32 (postproc/src/chunk_codec.hpp) produces
// what HDF5's filters decode: the shuffle is HDF5's byte order, zlib's inflate (the library
// behind HDF5's deflate filter) restores the exact bytes, and the checksum is the one HDF5's
// fletcher32 filter writes after a chunk of its own making, and checks when it reads ours.
#include <doctest/doctest.h>
#include <hdf5.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "chunk_codec.hpp"
#include "scratch.hpp"

using namespace ptsim::postproc;

TEST_CASE("byte_shuffle puts byte k of every element in plane k, as HDF5's shuffle filter does") {
  // Three 4-byte elements: plane 0 holds their first bytes, plane 1 their second, ...
  const unsigned char in[12] = {0x10, 0x11, 0x12, 0x13, 0x20, 0x21, 0x22, 0x23, 0x30, 0x31, 0x32, 0x33};
  const unsigned char want[12] = {0x10, 0x20, 0x30, 0x11, 0x21, 0x31, 0x12, 0x22, 0x32, 0x13, 0x23, 0x33};
  unsigned char out[12] = {};
  byte_shuffle(in, 3, 4, out);
  CHECK(std::memcmp(out, want, 12) == 0);
  unsigned char back[12] = {};
  byte_unshuffle(out, 3, 4, back);
  CHECK(std::memcmp(back, in, 12) == 0);

  // Doubles: plane 7 of little-endian 1.0, 2.0 and -2.0 holds their sign and exponent bytes.
  const double d[3] = {1.0, 2.0, -2.0};
  unsigned char planes[24] = {};
  byte_shuffle(d, 3, 8, planes);
  for (int b = 0; b < 18; ++b) CHECK(planes[b] == 0);  // mantissas are zero
  CHECK(planes[18] == 0xf0);  // 1.0 = 0x3ff0000000000000: byte 6 is 0xf0
  CHECK(planes[19] == 0x00);  // 2.0 = 0x4000000000000000
  CHECK(planes[20] == 0x00);
  CHECK(planes[21] == 0x3f);
  CHECK(planes[22] == 0x40);
  CHECK(planes[23] == 0xc0);  // -2.0 = 0xc000000000000000

  // One element, or one-byte elements: unchanged, as the filter leaves them.
  unsigned char one[8] = {};
  byte_shuffle(in, 1, 8, one);
  CHECK(std::memcmp(one, in, 8) == 0);
  byte_shuffle(in, 12, 1, out);
  CHECK(std::memcmp(out, in, 12) == 0);
}

TEST_CASE("byte_shuffle of many doubles (sixteen, eight at a time, then the rest) matches its definition") {
  std::mt19937 rng(3);
  // 16 at a time (SSE2), then 8 at a time, then one by one: every path and their seams.
  for (std::size_t n : {7, 8, 9, 16, 17, 24, 31, 1027}) {
    CAPTURE(n);
    std::vector<unsigned char> in(n * 8), out(n * 8), back(n * 8);
    for (auto& b : in) b = static_cast<unsigned char>(rng());
    byte_shuffle(in.data(), n, 8, out.data());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t b = 0; b < 8; ++b) wrong += out[b * n + i] != in[i * 8 + b];
    CHECK(wrong == 0);
    byte_unshuffle(out.data(), n, 8, back.data());
    CHECK(back == in);
  }
}

TEST_CASE("a compressed chunk inflates with zlib and unshuffles to the exact doubles") {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> noise(0.0, 1.0);
  std::vector<double> chunk(1024 * 29);
  // What a timeseries chunk looks like: slow signals, step functions, noise, odd values.
  for (std::size_t i = 0; i < chunk.size(); ++i)
    chunk[i] = i % 3 == 0 ? 45.0 + 0.01 * static_cast<double>(i) : i % 3 == 1 ? 1.2e9 : noise(rng);
  chunk[5] = std::numeric_limits<double>::quiet_NaN();
  chunk[6] = -0.0;
  chunk[7] = std::numeric_limits<double>::denorm_min();
  chunk[8] = -std::numeric_limits<double>::infinity();

  chunk_compressor c(1);
  for (int pass = 0; pass < 2; ++pass) {  // the compressor reuses its buffers
    const byte_buffer stored = c.compress(chunk.data(), chunk.size(), sizeof(double));
    CHECK(stored.size() < chunk.size() * sizeof(double));
    std::vector<unsigned char> inflated(chunk.size() * sizeof(double));
    uLongf n = static_cast<uLongf>(inflated.size());
    REQUIRE(stored.size() > 4);
    const std::size_t body = stored.size() - 4;  // then the Fletcher-32, little-endian
    const std::uint32_t sum = fletcher32(stored.data(), body);
    for (int b = 0; b < 4; ++b) CHECK(stored[body + b] == static_cast<unsigned char>(sum >> (8 * b)));
    REQUIRE(uncompress(inflated.data(), &n, stored.data(), static_cast<uLong>(body)) == Z_OK);
    REQUIRE(n == inflated.size());
    std::vector<double> back(chunk.size());
    byte_unshuffle(inflated.data(), chunk.size(), sizeof(double), back.data());
    CHECK(std::memcmp(back.data(), chunk.data(), inflated.size()) == 0);  // bit for bit, NaN too
    chunk.resize(100);  // a smaller chunk the second time
  }
}

namespace {
std::vector<double> inflate_doubles(const byte_buffer& stored, std::size_t n) {
  std::vector<unsigned char> inflated(n * sizeof(double));
  uLongf len = static_cast<uLongf>(inflated.size());
  REQUIRE(stored.size() > 4);
  REQUIRE(uncompress(inflated.data(), &len, stored.data(), static_cast<uLong>(stored.size() - 4)) == Z_OK);
  REQUIRE(len == inflated.size());
  std::vector<double> back(n);
  byte_unshuffle(inflated.data(), n, sizeof(double), back.data());
  return back;
}
}  // namespace

TEST_CASE("a steady chunk equal to the dataset's last one is stored as before; others are compressed") {
  chunk_compressor c(1);
  steady_chunk memo;
  // 256 rows of 4 columns (a clock per domain), every row the same.
  std::vector<double> a(1024);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = 1e9 * static_cast<double>(1 + i % 4);
  std::vector<double> b = a;
  b[1001] = 0.25;  // one value differs: not steady
  const byte_buffer first = c.compress(a.data(), a.size(), 8, &memo, 4);
  CHECK(inflate_doubles(first, a.size()) == a);
  CHECK(memo.bytes == a.size() * 8);
  CHECK(inflate_doubles(c.compress(b.data(), b.size(), 8, &memo, 4), b.size()) == b);
  CHECK(memo.stored == first);  // a moving chunk leaves the memo as it was
  c.compress(b.data(), 1000, 8);  // without the memo: it neither reads nor changes it
  CHECK(c.compress(a.data(), a.size(), 8, &memo, 4) == first);
  // Steady with another row: compressed afresh, and the memo follows it.
  std::vector<double> z(1024, 0.0);
  const byte_buffer zeros = c.compress(z.data(), z.size(), 8, &memo, 4);
  CHECK(inflate_doubles(zeros, z.size()) == z);
  CHECK(zeros != first);
  CHECK(memo.stored == zeros);
  CHECK(inflate_doubles(c.compress(a.data(), a.size(), 8, &memo, 4), a.size()) == a);
}

TEST_CASE("fletcher32: known values, and the checksum HDF5's own filter stores after a chunk") {
  // Fletcher-32 over 16-bit big-endian words: "abcde" is 0x6162 0x6364 0x6500.
  const char* abcde = "abcde";
  std::uint32_t s1 = (0x6162 + 0x6364 + 0x6500) % 65535;
  std::uint32_t s2 = (0x6162 + (0x6162 + 0x6364) + (0x6162 + 0x6364 + 0x6500)) % 65535;
  CHECK(fletcher32(abcde, 5) == (s2 << 16 | s1));
  CHECK(fletcher32(abcde, 0) == 0);
  // Long inputs fold the sums (blocks of 360 words): compare with sums taken modulo 65535.
  std::vector<unsigned char> big(100001);
  std::mt19937 rng(5);
  for (auto& b : big) b = static_cast<unsigned char>(rng());
  std::uint64_t a = 0, c = 0;
  for (std::size_t i = 0; i < big.size(); i += 2) {
    const std::uint64_t w = static_cast<std::uint64_t>(big[i]) << 8 | (i + 1 < big.size() ? big[i + 1] : 0);
    a = (a + w) % 65535;
    c = (c + a) % 65535;
  }
  const std::uint32_t got = fletcher32(big.data(), big.size());
  // The folded sums may be 65535 where the modulus gives 0; both stand for the same residue.
  CHECK((got & 0xffff) % 65535 == a);
  CHECK((got >> 16) % 65535 == c);

  // HDF5 writes a chunk through shuffle, deflate and fletcher32; its last 4 bytes are the
  // checksum of the rest, as append_fletcher32 stores it.
  const auto dir = ptsim::postproc::test::scratch("fletcher32");
  const std::string path = (dir / "hdf5.h5").string();
  const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(f >= 0);
  const hsize_t n = 1000, chunk = 1000;
  const hid_t space = H5Screate_simple(1, &n, nullptr);
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, &chunk);
  H5Pset_shuffle(dcpl);
  H5Pset_deflate(dcpl, 1);
  H5Pset_fletcher32(dcpl);
  std::vector<double> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = 20.0 + 0.5 * std::sin(0.01 * static_cast<double>(i));
  const hid_t theirs = H5Dcreate2(f, "theirs", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  REQUIRE(H5Dwrite(theirs, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0);
  // Ours: the same values compressed by the codec and stored raw, to be read through the filters.
  const hid_t ours = H5Dcreate2(f, "ours", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  chunk_compressor codec(1);
  const byte_buffer mine = codec.compress(values.data(), n, sizeof(double));
  const hsize_t origin = 0;
  REQUIRE(H5Dwrite_chunk(ours, H5P_DEFAULT, 0, &origin, mine.size(), mine.data()) >= 0);
  H5Dclose(theirs);
  H5Dclose(ours);
  H5Pclose(dcpl);
  H5Sclose(space);
  H5Fclose(f);

  const hid_t r = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(r >= 0);
  const hid_t t = H5Dopen2(r, "theirs", H5P_DEFAULT);
  hsize_t stored_size = 0;
  REQUIRE(H5Dget_chunk_storage_size(t, &origin, &stored_size) >= 0);
  std::vector<unsigned char> raw(stored_size);
  std::uint32_t mask = 0;
  REQUIRE(H5Dread_chunk(t, H5P_DEFAULT, &origin, &mask, raw.data()) >= 0);
  CHECK(mask == 0);
  REQUIRE(raw.size() > 4);
  byte_buffer body(raw.begin(), raw.end() - 4);
  append_fletcher32(body);
  CHECK(std::equal(body.begin(), body.end(), raw.begin(), raw.end()));
  H5Dclose(t);
  const hid_t o = H5Dopen2(r, "ours", H5P_DEFAULT);
  std::vector<double> back(n);
  CHECK(H5Dread(o, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, back.data()) >= 0);
  CHECK(back == values);
  H5Dclose(o);
  H5Fclose(r);

  // One flipped bit in our stored chunk: HDF5 refuses to read it rather than return wrong values.
  {
    const hid_t w = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t d = H5Dopen2(w, "ours", H5P_DEFAULT);
    byte_buffer flipped = mine;
    flipped[flipped.size() / 2] ^= 0x10;
    REQUIRE(H5Dwrite_chunk(d, H5P_DEFAULT, 0, &origin, flipped.size(), flipped.data()) >= 0);
    H5Dclose(d);
    H5Fclose(w);
  }
  const hid_t r2 = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t d2 = H5Dopen2(r2, "ours", H5P_DEFAULT);
  H5E_BEGIN_TRY {
    CHECK(H5Dread(d2, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, back.data()) < 0);
  } H5E_END_TRY;
  H5Dclose(d2);
  H5Fclose(r2);
}
