// Iteration-level scheduling: every iteration composed by hand.
#include <doctest/doctest.h>

#include "approx.hpp"

#include "ptsim/tlm_config/llm_scheduler.hpp"

using tlm_test::near;
using namespace ptsim::tlm_config;

namespace {
llm_sequence seq(std::int64_t id, int prompt, int output) {
  llm_sequence s;
  s.id = id;
  s.prompt = prompt;
  s.output = output;
  return s;
}
}  // namespace

TEST_CASE("continuous batching: decodes first, then prompt chunks up to the token budget") {
  llm_limits lim;
  lim.max_batch = 8;
  lim.max_batched_tokens = 150;
  llm_scheduler s(lim);
  for (int i = 0; i < 3; ++i) s.enqueue(seq(i, 100, 3));
  decoder_batch b;
  // Iteration 1 at t = 0: seq0's whole prompt (100), then seq1's first 50.
  REQUIRE(s.next(0, b));
  CHECK(b.prefill_tokens == 150);
  CHECK(b.prefill_attended == near(5050 + 1275));  // 100*101/2 and 50*51/2
  CHECK(b.prefill_kv_read == near(150));
  CHECK(b.decode_seqs == 0);
  CHECK(b.logits_rows == 1);  // seq0's prefill ends: its first token
  CHECK(s.running() == 2);
  CHECK(s.waiting() == 1);
  CHECK(s.complete(1.0).empty());
  CHECK(s.tokens_generated() == 1);
  // Iteration 2 at t = 1: seq0 decodes (context 101); seq1's last 50; seq2's first 99.
  REQUIRE(s.next(1.0, b));
  CHECK(b.decode_seqs == 1);
  CHECK(b.decode_context == near(101));
  CHECK(b.prefill_tokens == 149);
  CHECK(b.prefill_attended == near((50 * 50 + 1275) + 99 * 100 / 2.0));
  CHECK(b.logits_rows == 2);
  CHECK(s.complete(2.0).empty());
  // Iteration 3 at t = 2: seq0 and seq1 decode (contexts 102 and 101), seq2's last token.
  REQUIRE(s.next(2.0, b));
  CHECK(b.decode_seqs == 2);
  CHECK(b.decode_context == near(203));
  CHECK(b.prefill_tokens == 1);
  CHECK(b.prefill_attended == near(100));
  const auto done = s.complete(3.0);
  REQUIRE(done.size() == 1);  // seq0 has its 3 tokens
  const llm_sequence& d = done.front();
  CHECK(d.id == 0);
  CHECK(d.start_s == 0);
  CHECK(d.first_token_s == 1.0);
  CHECK(d.generated == 3);
  // Its token share of each 1 s iteration: 100/150, then 1/150, then 1/3.
  CHECK(d.attributed_s == near(100.0 / 150 + 1.0 / 150 + 1.0 / 3));
  CHECK(s.tokens_generated() == 6);  // seq0 3, seq1 2, seq2 1
}

TEST_CASE("admission reserves each sequence's whole KV footprint") {
  llm_limits lim;
  lim.max_batched_tokens = 10000;
  lim.kv_capacity_tokens = 250;  // two of 100 + 3 fit, not three
  llm_scheduler s(lim);
  for (int i = 0; i < 3; ++i) s.enqueue(seq(i, 100, 3));
  decoder_batch b;
  REQUIRE(s.next(0, b));
  CHECK(s.running() == 2);
  CHECK(s.waiting() == 1);
  CHECK(s.kv_reserved_tokens() == 206);
}

TEST_CASE("static batching starts a new batch only when the last one is done") {
  llm_limits lim;
  lim.max_batch = 2;
  lim.continuous = false;
  llm_scheduler s(lim);
  s.enqueue(seq(0, 10, 1));
  s.enqueue(seq(1, 10, 2));
  s.enqueue(seq(2, 10, 1));
  decoder_batch b;
  REQUIRE(s.next(0, b));
  CHECK(b.prefill_tokens == 20);  // both prompts at once
  CHECK(s.complete(1).size() == 1);  // seq0 (one output token) is done
  REQUIRE(s.next(1, b));
  CHECK(b.decode_seqs == 1);  // seq1 decodes; seq2 waits although a slot is free
  CHECK(b.prefill_tokens == 0);
  CHECK(s.waiting() == 1);
  CHECK(s.complete(2).size() == 1);
  REQUIRE(s.next(2, b));
  CHECK(b.prefill_tokens == 10);  // the next batch
}

TEST_CASE("without chunking, whole prompts go first in iterations of their own") {
  llm_limits lim;
  lim.max_batched_tokens = 150;
  lim.chunked_prefill = false;
  llm_scheduler s(lim);
  s.enqueue(seq(0, 100, 5));
  s.enqueue(seq(1, 100, 5));
  decoder_batch b;
  REQUIRE(s.next(0, b));
  CHECK(b.prefill_tokens == 100);  // seq1's 100 do not fit in the 50 left
  s.complete(1);
  REQUIRE(s.next(1, b));
  CHECK(b.prefill_tokens == 100);  // seq1's prefill before any decode
  CHECK(b.decode_seqs == 0);
  s.complete(2);
  REQUIRE(s.next(2, b));
  CHECK(b.decode_seqs == 2);
}

TEST_CASE("paged KV cache: only whole blocks; a prompt chunk sized to the room never rounds past it") {
  // 45 tokens of cache in blocks of 16 hold two blocks (32 tokens). A 40-token prompt in
  // chunks of at most 30: 30 tokens (two blocks), then the 2 left in the second block;
  // with the fractional third block counted, the second chunk (room 15 -> 10 tokens) would
  // round up to a third block past the capacity and preempt the sequence it was for.
  llm_limits lim;
  lim.max_batch = 4;
  lim.max_batched_tokens = 30;
  lim.kv_capacity_tokens = 45;
  lim.paged = true;
  lim.kv_block_tokens = 16;
  llm_scheduler s(lim);
  s.enqueue(seq(0, 40, 4));
  decoder_batch b;
  REQUIRE(s.next(0, b));
  CHECK(b.prefill_tokens == 30);
  CHECK(s.complete(1).empty());
  REQUIRE(s.next(1, b));
  CHECK(b.prefill_tokens == 2);
  CHECK(s.kv_reserved_tokens() == 32);
  CHECK(s.preemptions() == 0);
  CHECK(s.running() == 1);
}

TEST_CASE("paged KV cache: blocks as tokens are written, the newest preempted and recomputed") {
  llm_limits lim;
  lim.max_batch = 8;
  lim.max_batched_tokens = 100;
  lim.kv_capacity_tokens = 64;  // four blocks of 16
  lim.paged = true;
  lim.kv_block_tokens = 16;
  llm_scheduler s(lim);
  s.enqueue(seq(0, 30, 10));
  s.enqueue(seq(1, 30, 10));
  decoder_batch b;
  // Iteration 1: both prompts (30 tokens = two blocks each): the cache is full.
  REQUIRE(s.next(0, b));
  CHECK(b.prefill_tokens == 60);
  CHECK(s.running() == 2);
  CHECK(s.kv_reserved_tokens() == 64);
  CHECK(s.complete(1).empty());
  // Iterations 2-3: tokens 31 and 32 of each fit in their second block.
  for (int t = 1; t < 3; ++t) {
    REQUIRE(s.next(t, b));
    CHECK(b.decode_seqs == 2);
    CHECK(b.decode_context == near(2 * (30 + t)));  // token t's KV written, 30 + t keys
    CHECK(s.complete(t + 1).empty());
  }
  CHECK(s.kv_reserved_tokens() == 64);
  // Iteration 4: seq0's 33rd token needs a third block: seq1 (admitted last) is preempted,
  // its two blocks freed; it cannot come back (33 tokens to recompute = 3 blocks, 2 free).
  REQUIRE(s.next(3, b));
  CHECK(s.preemptions() == 1);
  CHECK(b.decode_seqs == 1);
  CHECK(b.decode_context == near(33));
  CHECK(b.prefill_tokens == 0);
  CHECK(s.running() == 1);
  CHECK(s.waiting() == 1);
  CHECK(s.kv_reserved_tokens() == 48);
  CHECK(s.complete(4).empty());
  // Iterations 5-10: seq0 alone until its 10th token; then its blocks are free.
  for (int t = 4; t < 9; ++t) {
    REQUIRE(s.next(t, b));
    CHECK(b.decode_seqs == 1);
    CHECK(b.prefill_tokens == 0);
    CHECK(s.complete(t + 1).empty());
  }
  REQUIRE(s.next(9, b));
  const auto done = s.complete(10);
  REQUIRE(done.size() == 1);
  CHECK(done.front().generated == 10);
  CHECK(s.kv_reserved_tokens() == 0);
  // Iteration 11: seq1 returns and prefills its prompt and its 3 tokens again (33, causal),
  // which gives its 4th token; its first token stays the one of iteration 1.
  REQUIRE(s.next(10, b));
  CHECK(b.prefill_tokens == 33);
  CHECK(b.prefill_attended == near(33 * 34 / 2.0));
  CHECK(b.logits_rows == 1);
  CHECK(s.kv_reserved_tokens() == 48);
  CHECK(s.complete(11).empty());
  REQUIRE(s.next(11, b));
  CHECK(b.decode_context == near(30 + 4));  // its 4th token's KV written: 34 keys
  for (int t = 12; t < 18; ++t) {
    const auto d = s.complete(t);
    if (!d.empty()) {
      CHECK(d.front().id == 1);
      CHECK(d.front().generated == 10);
      CHECK(d.front().first_token_s == 1);
      CHECK(d.front().preemptions == 1);
      CHECK(t == 17);  // tokens 5..10 in iterations 12-17
      break;
    }
    REQUIRE(s.next(t, b));
  }
}
