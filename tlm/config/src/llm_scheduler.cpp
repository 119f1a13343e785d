#include "ptsim/tlm_config/llm_scheduler.hpp"

#include <algorithm>
#include <cmath>

namespace ptsim::tlm_config {

llm_scheduler::llm_scheduler(const llm_limits& l) : lim_(l) {
  // Paged: the cache is whole blocks (vLLM's num_gpu_blocks = floor(bytes / block bytes)).
  // A fractional block would let a prompt chunk sized to the room round up past it.
  if (lim_.paged) {
    const double b = std::max(1, lim_.kv_block_tokens);
    lim_.kv_capacity_tokens = std::floor(lim_.kv_capacity_tokens / b) * b;
  }
}

void llm_scheduler::enqueue(const llm_sequence& s) { waiting_.push_back(s); }

double llm_scheduler::held(double kv) const {
  if (!lim_.paged) return kv;
  const double b = std::max(1, lim_.kv_block_tokens);
  return std::ceil(kv / b) * b;
}

bool llm_scheduler::admit_one(int first_chunk) {
  if (waiting_.empty() || static_cast<int>(running_.size()) >= lim_.max_batch) return false;
  const llm_sequence& head = waiting_.front();
  // Reserve: the whole footprint up front. Paged: room for the first chunk it will run.
  const double need = lim_.paged ? held(first_chunk > 0 ? first_chunk : head.prefill_target())
                                 : static_cast<double>(head.prompt) + head.output;
  if (reserved_ + need > lim_.kv_capacity_tokens) return false;  // first come, first served: no skipping
  reserved_ += need;
  running_.push_back(head);
  if (lim_.paged) running_.back().kv_held = need;
  waiting_.pop_front();
  return true;
}

void llm_scheduler::preempt_last() {
  llm_sequence s = running_.back();
  running_.pop_back();
  reserved_ -= s.kv_held;
  s.kv_held = 0;
  s.kv_tokens = 0;
  s.prefilled = 0;
  s.recompute = s.generated;  // its KV is recomputed from all its tokens when it returns
  ++s.preemptions;
  ++preemptions_;
  waiting_.push_front(s);
}

bool llm_scheduler::grow(std::size_t i, int tokens) {
  llm_sequence& s = running_[i];
  if (lim_.paged) {
    const double need = std::max(0.0, held(s.kv_tokens + tokens) - s.kv_held);
    while (reserved_ + need > lim_.kv_capacity_tokens) {
      const bool self = running_.size() - 1 == i;
      preempt_last();
      if (self) return false;
    }
    reserved_ += need;
    running_[i].kv_held += need;
  }
  running_[i].kv_tokens += tokens;
  return true;
}

bool llm_scheduler::next(double now_s, decoder_batch& out) {
  out = decoder_batch{};
  work_.clear();
  iteration_start_ = now_s;
  if (!lim_.continuous) {
    // Static: a new batch only when the last one is done; its prompts all at once.
    if (running_.empty())
      while (admit_one()) {
      }
    for (std::size_t i = 0; i < running_.size(); ++i) {
      const int left = running_[i].prefill_target() - running_[i].prefilled;
      if (!grow(i, left > 0 ? left : 1)) break;  // preempted itself: it was the last
      work_.push_back({i, left});
    }
  } else if (!lim_.chunked_prefill) {
    // Whole prompts only (vLLM's default before chunking): an iteration of prefills, up
    // to the token budget and at least one, takes priority over decoding.
    int budget = lim_.max_batched_tokens;
    auto take = [&](std::size_t i) {
      const int left = running_[i].prefill_target() - running_[i].prefilled;
      if (left <= 0 || (!work_.empty() && left > budget)) return false;
      if (lim_.paged && reserved_ + held(running_[i].kv_tokens + left) - running_[i].kv_held >
                            lim_.kv_capacity_tokens)
        return false;
      grow(i, left);
      work_.push_back({i, left});
      budget -= left;
      return true;
    };
    for (std::size_t i = 0; i < running_.size(); ++i) take(i);
    while (budget > 0 && admit_one())
      if (!take(running_.size() - 1)) break;
    if (work_.empty())
      for (std::size_t i = 0; i < running_.size(); ++i) {
        if (!grow(i, 1)) break;  // preempted itself: it was the last
        work_.push_back({i, 0});
      }
  } else {
    const std::int64_t preemptions_before = preemptions_;
    // Decode steps first: every sequence past its prefill generates one token.
    int budget = lim_.max_batched_tokens;
    // (Paged: one more token each; a sequence with no room preempts the most recently
    // admitted, none of which has work yet.)
    for (std::size_t i = 0; i < running_.size(); ++i)
      if (running_[i].prefilled == running_[i].prefill_target()) {
        if (!grow(i, 1)) break;  // preempted itself: it was the last
        work_.push_back({i, 0});
        --budget;
      }
    // Then prompt chunks: admitted sequences in order, then new admissions (paged: up to
    // the free room; no preemption for a prompt, and no admission in an iteration that
    // preempted, as vLLM's scheduler does: `if not preempted_reqs`, vllm/v1/core/sched/
    // scheduler.py; else the newcomers would be the next ones preempted).
    const bool preempted = preemptions_ > preemptions_before;
    for (std::size_t i = 0; budget > 0; ++i) {
      if (i == running_.size()) {
        const llm_sequence* head = waiting_.empty() || preempted ? nullptr : &waiting_.front();
        if (!head || !admit_one(std::min(head->prefill_target(), budget))) break;
      }
      llm_sequence& s = running_[i];
      const int left = s.prefill_target() - s.prefilled;
      if (left <= 0) continue;
      int chunk = std::min(left, budget);
      if (lim_.paged) {
        const double room = lim_.kv_capacity_tokens - reserved_ + s.kv_held - s.kv_tokens;
        chunk = std::min(chunk, static_cast<int>(std::max(0.0, std::floor(room))));
        if (chunk <= 0) break;
      }
      if (!grow(i, chunk)) break;  // cannot happen (the chunk fits the room): never a slot past the end
      work_.push_back({i, chunk});
      budget -= chunk;
    }
  }
  for (const auto& w : work_) {
    llm_sequence& s = running_[w.slot];
    if (s.start_s < 0) s.start_s = now_s;
    if (w.prefill_chunk > 0) {
      add_prefill_chunk(out, s.prefilled, w.prefill_chunk);
      if (s.prefilled + w.prefill_chunk == s.prefill_target()) out.logits_rows += 1;
    } else {
      out.decode_seqs += 1;
      out.decode_context += s.prompt + s.generated;
      out.logits_rows += 1;
    }
  }
  return !work_.empty();
}

std::vector<llm_sequence> llm_scheduler::complete(double end_s, double host_s, std::size_t host_slot) {
  const double span = end_s - iteration_start_;
  double tokens = 0;
  for (const auto& w : work_) tokens += w.prefill_chunk > 0 ? w.prefill_chunk : 1;
  for (const auto& w : work_) {
    llm_sequence& s = running_[w.slot];
    const double mine = w.prefill_chunk > 0 ? w.prefill_chunk : 1;
    s.attributed_s += tokens > 0 ? span * mine / tokens : 0;
    const double host_share = tokens > 0 ? host_s * mine / tokens : 0;
    s.attributed_host_s += host_share;
    if (host_share > 0) {
      if (s.attributed_host_by_slot.size() <= host_slot) s.attributed_host_by_slot.resize(host_slot + 1, 0.0);
      s.attributed_host_by_slot[host_slot] += host_share;
    }
    if (w.prefill_chunk > 0) {
      s.prefilled += w.prefill_chunk;
      if (s.prefilled == s.prefill_target()) {  // the prefill's last logits give its next token
        if (s.generated == 0) s.first_token_s = end_s;
        ++s.generated;
        ++generated_;
      }
    } else {
      ++s.generated;
      ++generated_;
    }
  }
  work_.clear();
  std::vector<llm_sequence> done;
  std::vector<llm_sequence> keep;
  keep.reserve(running_.size());
  for (auto& s : running_) {
    if (s.generated >= s.output) {
      reserved_ -= lim_.paged ? s.kv_held : static_cast<double>(s.prompt) + s.output;
      done.push_back(s);
    } else {
      keep.push_back(s);
    }
  }
  running_.swap(keep);
  return done;
}

}  // namespace ptsim::tlm_config
