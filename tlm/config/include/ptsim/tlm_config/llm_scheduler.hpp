#pragma once
// Iteration-level scheduling of LLM serving (Yu et al., Orca, OSDI 2022; chunked prefill
// as in Agrawal et al., Sarathi-Serve, OSDI 2024), plain C++. Each iteration runs one
// decode step for every sequence past its prefill and fills the rest of a token budget
// with prompt chunks, first of sequences already admitted, then of new ones in arrival
// order. KV cache, two policies: `reserve` admits a sequence only if its whole KV
// footprint (prompt + output tokens) fits beside those already running, and never evicts
// (TensorRT-LLM's GUARANTEED_NO_EVICT); `paged` gives each sequence blocks of the cache as
// its tokens are written (vLLM's PagedAttention, Kwon et al., SOSP 2023): a sequence is
// admitted when its next prompt chunk fits, and when a running one needs a block and none
// is free, the most recently admitted is preempted by recomputation (its blocks freed, back
// to the head of the queue, its prompt and generated tokens prefilled again when it
// returns: vLLM's default preemption mode). Static batching admits a new batch only when
// the previous one has finished, and runs each batch's prompts in one iteration.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "ptsim/tlm_config/decoder.hpp"

namespace ptsim::tlm_config {

struct llm_sequence {
  std::int64_t id = 0;
  int prompt = 0, output = 0;  ///< tokens in, tokens to generate (>= 1)
  double arrival_s = 0;
  int prefilled = 0;           ///< prompt tokens already in the KV cache
  int generated = 0;           ///< output tokens produced so far
  int recompute = 0;           ///< generated tokens to prefill again after a preemption
  int kv_tokens = 0;           ///< tokens it has written to the KV cache
  double kv_held = 0;          ///< paged: tokens of the blocks it holds (>= kv_tokens)
  int preemptions = 0;         ///< times it was preempted (paged)
  /// Tokens its (next) prefill covers: the prompt, plus after a preemption what it generated.
  int prefill_target() const { return prompt + recompute; }
  double start_s = -1;         ///< first iteration that worked on it
  double first_token_s = -1;   ///< end of the iteration that completed its prefill
  double attributed_s = 0;     ///< its token share of the iterations it was in (s per rank)
  double attributed_host_s = 0;  ///< its token share of those iterations' host work (s)
  /// The same by where the host work ran (complete's host_slot: a task's CPU), for energy.
  std::vector<double> attributed_host_by_slot;
  void* user = nullptr;        ///< opaque handle of the issuer
};

struct llm_limits {
  int max_batch = 64;            ///< sequences running at once
  int max_batched_tokens = 8192; ///< prefill + decode tokens per iteration (continuous)
  bool chunked_prefill = true;   ///< split prompts over iterations to fill the budget
  double kv_capacity_tokens = 1e18;
  bool continuous = true;        ///< false: static batching
  bool paged = false;            ///< KV blocks allocated as tokens are written, with preemption
  int kv_block_tokens = 16;      ///< paged: tokens per block (vLLM's default block_size, CUDA)
};

class llm_scheduler {
 public:
  explicit llm_scheduler(const llm_limits& l);
  void enqueue(const llm_sequence& s);
  std::size_t waiting() const { return waiting_.size(); }
  std::size_t running() const { return running_.size(); }
  bool idle() const { return waiting_.empty() && running_.empty(); }
  /// Tokens of KV cache reserved by running sequences (paged: held in their blocks).
  double kv_reserved_tokens() const { return reserved_; }
  /// Tokens the KV cache holds (the limit kv_reserved_tokens() stays within).
  double kv_capacity_tokens() const { return lim_.kv_capacity_tokens; }

  /// Composes the next iteration started at `now_s`, admitting waiting sequences as the
  /// limits allow. Returns false when there is nothing to run.
  bool next(double now_s, decoder_batch& out);
  /// The accelerators start the iteration at `now_s`, after host work they waited for: the
  /// busy time attributed to its sequences (attributed_s) runs from here, not from next().
  void ranks_started(double now_s) { iteration_start_ = now_s; }
  /// Ends the iteration composed by next() at `end_s`, which took `host_s` of host work
  /// (run at `host_slot`: the CPU of a task, else 0); returns the sequences that finished.
  std::vector<llm_sequence> complete(double end_s, double host_s = 0, std::size_t host_slot = 0);
  /// Sequences in the iteration composed by the last next() (decodes and prompt chunks).
  std::size_t iteration_sequences() const { return work_.size(); }
  /// Output tokens produced over all iterations so far.
  std::int64_t tokens_generated() const { return generated_; }
  /// Preemptions so far (paged KV cache).
  std::int64_t preemptions() const { return preemptions_; }

 private:
  struct slot_work {
    std::size_t slot;
    int prefill_chunk;  ///< 0: a decode step
  };
  bool admit_one(int first_chunk = 0);
  /// Tokens a sequence holding `kv` tokens occupies (paged: whole blocks).
  double held(double kv) const;
  /// Paged: room for `tokens` more of running_[i], preempting the most recently admitted
  /// (itself when it is the last) until there is. False when i itself was preempted.
  bool grow(std::size_t i, int tokens);
  void preempt_last();
  llm_limits lim_;
  std::deque<llm_sequence> waiting_;
  std::vector<llm_sequence> running_;
  std::vector<slot_work> work_;
  double iteration_start_ = 0;
  double reserved_ = 0;
  std::int64_t generated_ = 0;
  std::int64_t preemptions_ = 0;
};

}  // namespace ptsim::tlm_config
