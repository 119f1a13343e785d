// reflection_blocked_llt: per-symmetry-class Cholesky factors of a mirror-invariant matrix.
#include "reflection_blocked_llt.hpp"

#include <array>
#include <cmath>

namespace ptsim::thermal::detail {

namespace {

bool invariant(const Eigen::MatrixXd& s, const std::vector<Eigen::Index>& p) {
  const Eigen::Index n = s.rows();
  if (static_cast<Eigen::Index>(p.size()) != n) return false;
  for (Eigen::Index k = 0; k < n; ++k) {
    const Eigen::Index pk = p[static_cast<std::size_t>(k)];
    if (pk < 0 || pk >= n || p[static_cast<std::size_t>(pk)] != k) return false;
  }
  const double tol = 1e-9 * s.cwiseAbs().maxCoeff();
  for (Eigen::Index m = 0; m < n; ++m) {
    const Eigen::Index pm = p[static_cast<std::size_t>(m)];
    for (Eigen::Index k = 0; k < n; ++k)
      if (std::abs(s(p[static_cast<std::size_t>(k)], pm) - s(k, m)) > tol) return false;
  }
  return true;
}

}  // namespace

bool reflection_blocked_llt::compute(const Eigen::MatrixXd& s, std::vector<std::vector<index>> mirrors) {
  const index n = s.rows();
  if (mirrors.size() > 2) mirrors.resize(2);
  std::vector<std::vector<index>> kept;
  for (auto& p : mirrors)
    if (invariant(s, p)) kept.push_back(std::move(p));
  if (kept.size() == 2) {  // the two must commute for their classes to split S
    for (index k = 0; k < n; ++k) {
      const auto uk = static_cast<std::size_t>(k);
      if (kept[0][static_cast<std::size_t>(kept[1][uk])] != kept[1][static_cast<std::size_t>(kept[0][uk])]) {
        kept.pop_back();
        break;
      }
    }
  }
  const std::size_t nm = kept.size(), nc = std::size_t{1} << nm;
  blocks_.assign(nc, block{});
  // Each orbit {k, g1 k, g2 k, g1 g2 k} gives one column per class whose signed sum of its
  // images (the class's character) does not cancel.
  std::vector<char> seen(static_cast<std::size_t>(n), 0);
  std::vector<double> coef(static_cast<std::size_t>(n), 0.0);
  for (index k = 0; k < n; ++k) {
    if (seen[static_cast<std::size_t>(k)]) continue;
    std::array<index, 4> img{k, k, k, k};
    if (nm >= 1) img[1] = kept[0][static_cast<std::size_t>(k)];
    if (nm == 2) {
      img[2] = kept[1][static_cast<std::size_t>(k)];
      img[3] = kept[1][static_cast<std::size_t>(img[1])];
    }
    const std::size_t ni = std::size_t{1} << nm;
    for (std::size_t t = 0; t < ni; ++t) seen[static_cast<std::size_t>(img[t])] = 1;
    for (std::size_t c = 0; c < nc; ++c) {
      // Character of element t (bit b: mirror b applied) in class c (bit b: odd under mirror b).
      for (std::size_t t = 0; t < ni; ++t)
        coef[static_cast<std::size_t>(img[t])] += (__builtin_popcountll(t & c) % 2) ? -1.0 : 1.0;
      block& b = blocks_[c];
      double norm2 = 0;
      const std::size_t first = b.k.size();
      for (std::size_t t = 0; t < ni; ++t) {
        const auto u = static_cast<std::size_t>(img[t]);
        if (coef[u] != 0) {
          b.k.push_back(img[t]);
          b.a.push_back(coef[u]);
          norm2 += coef[u] * coef[u];
          coef[u] = 0;
        }
      }
      if (b.k.size() == first) continue;
      for (std::size_t q = first; q < b.k.size(); ++q) b.a[q] /= std::sqrt(norm2);
      b.start.push_back(static_cast<index>(b.k.size()));
    }
  }
  // S_c = B_c^T S B_c, factorised.
  for (block& b : blocks_) {
    const index m = static_cast<index>(b.start.size()) - 1;
    Eigen::MatrixXd sb = Eigen::MatrixXd::Zero(n, m), sc = Eigen::MatrixXd::Zero(m, m);
    for (index c = 0; c < m; ++c)
      for (index q = b.start[static_cast<std::size_t>(c)]; q < b.start[static_cast<std::size_t>(c + 1)]; ++q)
        sb.col(c) += b.a[static_cast<std::size_t>(q)] * s.col(b.k[static_cast<std::size_t>(q)]);
    for (index c = 0; c < m; ++c)
      for (index q = b.start[static_cast<std::size_t>(c)]; q < b.start[static_cast<std::size_t>(c + 1)]; ++q)
        sc.row(c) += b.a[static_cast<std::size_t>(q)] * sb.row(b.k[static_cast<std::size_t>(q)]);
    b.llt.compute(sc);
    if (b.llt.info() != Eigen::Success) return false;
    b.work.resize(m);
  }
  out_.resize(n);
  return true;
}

void reflection_blocked_llt::solve_in_place(Eigen::Ref<Eigen::VectorXd> r) const {
  out_.setZero();
  for (const block& b : blocks_) {
    const index m = b.work.size();
    for (index c = 0; c < m; ++c) {
      double v = 0;
      for (index q = b.start[static_cast<std::size_t>(c)]; q < b.start[static_cast<std::size_t>(c + 1)]; ++q)
        v += b.a[static_cast<std::size_t>(q)] * r[b.k[static_cast<std::size_t>(q)]];
      b.work[c] = v;
    }
    b.llt.solveInPlace(b.work);
    for (index c = 0; c < m; ++c)
      for (index q = b.start[static_cast<std::size_t>(c)]; q < b.start[static_cast<std::size_t>(c + 1)]; ++q)
        out_[b.k[static_cast<std::size_t>(q)]] += b.a[static_cast<std::size_t>(q)] * b.work[c];
  }
  r = out_;
}

void reflection_blocked_llt::solve_in_place(Eigen::MatrixXd& r) const {
  for (index c = 0; c < r.cols(); ++c) solve_in_place(r.col(c));
}

}  // namespace ptsim::thermal::detail
