#pragma once
// ML operators as the workload engine issues them: arithmetic, memory traffic, and for
// collectives the message each rank exchanges over its fabric link.
#include <cstdint>
#include <string>
#include <vector>

namespace ptsim::tlm_config {

/// int4 is a weight-only format (w4a16: 4-bit weights read from memory, dequantised on the
/// fly; the arithmetic runs at the 16-bit activation precision): decoder GEMMs take their
/// weight bytes from it and their compute rate from decoder_gemm_precision().
enum class precision { fp32, fp16, bf16, fp8, int8, int4 };
const char* to_string(precision p);
/// Parses "fp32", "fp16", "bf16", "fp8", "int8", "int4"; throws std::invalid_argument otherwise.
precision parse_precision(const std::string& s);
/// Bytes per element (int4: 0.5, two weights per byte).
double element_bytes(precision p);

/// Which execution resource an operator mostly uses: tensor operators run on the MAC
/// array / tensor cores, vector and scalar ones on the SIMD or CUDA-core path.
enum class op_class { tensor, vector, scalar };
const char* to_string(op_class c);

/// What an operator is. Selects its efficiency (compute_unit_config::op_efficiency) and,
/// for collective and transfer, how it executes.
/// per_head_attention: decode steps' attention run one thread block per query head on the
/// vector units (decoder.hpp, decode_attention_kernel::per_head); its own kind so that its
/// efficiency is not attention's (a tensor-core kernel).
/// expert_gemm: a mixture of experts' grouped GEMM (one kernel over every expert's rows and
/// weights), which reaches its own share of peak; a unit without settings for it takes gemm's.
enum class op_kind { gemm, expert_gemm, conv, attention, per_head_attention, elementwise, norm, embedding, pool, collective, transfer, other };
const char* to_string(op_kind k);
/// The kind whose settings (efficiency, overlap, activity, memory efficiency) a kind takes
/// where a unit gives none for it: gemm for expert_gemm; the kind itself otherwise.
op_kind settings_fallback(op_kind k);
/// Attention of either kind: its size is the keys attended (shape n), summed over queries.
bool attends(op_kind k);
/// Parses the names printed by to_string; throws std::invalid_argument otherwise.
op_kind parse_op_kind(const std::string& s);
/// Every operator kind's name, comma-separated, for messages that list what is accepted.
std::string op_kind_names();
/// Every precision's name (parse_precision), comma-separated.
std::string precision_names();

/// Operator fusion rule sets (fusion.hpp says what each does). Here because an operator
/// records the one its graph was built with: efficiencies may depend on it
/// (compute_unit_config::op_rules_efficiency).
enum class fusion_rules { eager, none, tensorrt };

/// Collective communication pattern (ring algorithms, as NCCL uses for bandwidth).
/// send: point to point, each rank's message to its peer in the next pipeline stage.
enum class collective_kind { none, all_reduce, all_gather, reduce_scatter, send };
const char* to_string(collective_kind c);

struct op {
  std::string name;    ///< e.g. "conv2d_3x3", "qkv_proj", "all_reduce"
  op_kind kind = op_kind::other;
  op_class cls = op_class::tensor;
  precision prec = precision::int8;  ///< arithmetic precision (sets the unit's peak)
  double ops = 0;            ///< arithmetic operations (a MAC counts as 2), all repeats together
  double bytes_read = 0;     ///< weights + input activations (B), all repeats together
  double bytes_written = 0;  ///< output activations (B), all repeats together
  double weight_bytes = 0;   ///< resident parameters among bytes_read (B): what must fit in memory
  /// Identical kernels folded into this record (e.g. one per decoder layer): the launch
  /// overhead and a collective's latency terms are paid `repeat` times.
  double repeat = 1;
  /// True for work whose size does not depend on the batch (an optimiser step, a
  /// gradient all-reduce): batched() leaves such an operator as it is.
  bool batch_invariant = false;
  /// The rule set of the graph it belongs to: the kernels a framework (eager PyTorch's
  /// cuDNN calls) or an inference compiler (TensorRT's) runs reach different shares of peak.
  fusion_rules rules = fusion_rules::eager;
  /// The model's reference implementation applies dropout to this operator's output in
  /// training (BERT's hidden and attention-probability dropout, p = 0.1). An eager framework
  /// runs it as its own kernel, which training_step() adds; a fused attention kernel applies
  /// it inside (nothing added). Inference skips dropout.
  bool dropout = false;
  /// Launched by the library inside the previous operator's call (cuDNN's layout
  /// transposes, layout.hpp): no host issue of its own.
  bool same_call = false;
  /// A training step's backward kernel (training.hpp): the input and weight gradients of
  /// its forward operator, which may reach a different share of peak (backward_efficiency).
  bool backward = false;
  // collective only
  collective_kind collective = collective_kind::none;
  double message_bytes = 0;  ///< size S of one collective's buffer on each rank (B)
  // attention only (fusion.hpp runs it unfused from these; 0: not known)
  double scores = 0;       ///< score-matrix elements: attended keys summed over queries, times heads
  double value_bytes = 0;  ///< the V rows among bytes_read (B)
  /// Elementwise kernels an unfused implementation runs over the score matrix before its
  /// softmax, each a read and a write of it (fusion.hpp's `none` runs them as one operator,
  /// `<name>_scale_mask`): Hugging Face's BertSelfAttention scales and adds the mask, 2.
  double pre_softmax_passes = 0;
  // transfer only
  std::string target;  ///< component the bytes move to/from (an io target of the unit)
  // host software only (host_s > 0: a serving engine's scheduling, a training loop's
  // Python): busy for host_s seconds, all repeats together, no arithmetic, no bytes, no
  // kernel launch; it occupies host_share of the unit (one core of a many-core socket).
  double host_s = 0;
  double host_share = 1;
  /// > 0: host_s is the time at this clock, and the work takes host_s x host_ref_hz / f at
  /// the unit's clock f (host work run as a scheduler task: its time follows the clock the
  /// task finds where it is placed). 0: fixed seconds whatever the clock.
  double host_ref_hz = 0;
  /// Shape of one kernel (not all repeats), for looking its time up in a measured profile
  /// (op_profile.hpp); 0: unknown. gemm, conv: [m x k] x [k x n]. attention: m query
  /// tokens, n keys attended summed over the queries, k = heads x head_dim. Others: m rows
  /// of k elements (k = 1 when only the element count is known).
  double shape_m = 0, shape_n = 0, shape_k = 0;
};

/// A model as a sequence of operators run on one unit (or on every rank of a group).
struct op_graph {
  std::string name;
  precision prec = precision::int8;
  std::vector<op> ops;
  double total_ops() const;
  double total_bytes() const;
  /// Set (>= 0) by a builder whose operators re-read weights that other operators hold (a
  /// generation's decode steps, folded over the same layers as its prefill): the parameters
  /// resident, which weight_bytes() returns instead of the operators' sum.
  double resident_weights = -1;
  /// Resident parameters (B): the sum of the operators' weight_bytes, or resident_weights.
  double weight_bytes() const;
};

/// The graph for `batch` inputs of a graph built for one: arithmetic, activation traffic
/// and collective messages scale with the batch; weights are read once per batch; batch-
/// invariant operators stay as they are.
op_graph batched(const op_graph& one, double batch);

}  // namespace ptsim::tlm_config
