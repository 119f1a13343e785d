// Llama-family generation as one static graph: a prefill of `prompt` tokens for `batch`
// sequences, then output - 1 decode steps (the first output token comes from the
// prefill), folded into one set of operators. Decode attention grows linearly with the
// context, so the steps' sum equals output - 1 steps at the mean context. For request
// streams with continuous batching use an `llm:` stream instead, which builds every
// iteration from what is in flight.
#include "ptsim/tlm_config/decoder.hpp"
#include "layers.hpp"
#include "models.hpp"

namespace ptsim::tlm_config::models {

decoder_shape shape_from(const std::string& name, const model_params& p) {
  decoder_shape s;
  s.name = name;
  s.layers = static_cast<int>(p.at("layers"));
  s.hidden = static_cast<int>(p.at("hidden"));
  s.heads = static_cast<int>(p.at("heads"));
  s.kv_heads = static_cast<int>(p.at("kv_heads"));
  s.head_dim = static_cast<int>(p.at("head_dim"));
  s.ffn = static_cast<int>(p.at("ffn"));
  s.vocab = static_cast<int>(p.at("vocab"));
  s.tied_embeddings = p.at("tied_embeddings") != 0;
  s.experts = static_cast<int>(p.at("experts"));
  s.experts_per_token = static_cast<int>(p.at("experts_per_token"));
  return s;
}

op_graph llama_generate(const std::string& name, const model_params& p, precision prec) {
  const decoder_shape s = shape_from(name, p);
  const double batch = p.at("batch"), prompt = p.at("prompt"), out = p.at("output");
  decoder_options o;
  o.weights = prec;
  o.kv = prec;
  decoder_batch pre;
  add_prefill_chunk(pre, 0, prompt);  // one sequence, then `batch` of them
  pre.prefill_tokens *= batch;
  pre.prefill_attended *= batch;
  pre.prefill_kv_read *= batch;
  pre.logits_rows = batch;
  op_graph g = decoder_iteration(s, pre, o);
  g.name = name;
  // The decode steps re-read the prefill's weights (their weight_bytes count the traffic,
  // steps times over): what must fit is the model once.
  g.resident_weights = decoder_weight_bytes_per_rank(s, o);
  const double steps = out - 1;
  if (steps > 0) {
    decoder_batch dec;
    dec.decode_seqs = batch;
    dec.decode_context = batch * (prompt + 1 + steps / 2);  // mean context over the steps
    dec.logits_rows = batch;
    for (op x : decoder_iteration(s, dec, o).ops) g.ops.push_back(fold(x, steps));
  }
  return g;
}

}  // namespace ptsim::tlm_config::models
