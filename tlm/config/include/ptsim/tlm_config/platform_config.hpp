#pragma once
// Resolved platform and workload descriptions (no SystemC here: plain data that the
// scenario loader fills and the platform builder elaborates).
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ptsim/tlm_config/cpu_scheduler.hpp"
#include "ptsim/tlm_config/decoder.hpp"
#include "ptsim/tlm_config/gemm_tiling.hpp"
#include "ptsim/tlm_config/host_work.hpp"
#include "ptsim/tlm_config/nvme_apst.hpp"
#include "ptsim/tlm_config/op.hpp"
#include "ptsim/tlm_config/op_profile.hpp"
#include "ptsim/units/quantities.hpp"

namespace ptsim::tlm_config {

/// What a component is to the platform: an initiator of operators (CPU cluster, GPU,
/// NPU, fixed-function block), an interconnect, or a target of transactions (memory,
/// storage, NIC).
enum class component_role { compute, interconnect, target };

/// Timing of one idle state of a compute unit. The unit is in the state from
/// entry_latency after it goes idle until woken; waking costs exit_latency (plus what is
/// left of the entry when woken earlier), paid by the next operator.
struct idle_state_timing {
  std::string name;
  double entry_latency_s = 0;
  double exit_latency_s = 0;
};

/// A compute unit: a CPU cluster, a GPU or an NPU. Runs one operator at a time across
/// its cores (SMs, engines).
struct compute_unit_config {
  std::string name;
  std::string kind;     ///< "cpu_cluster", "gpu", "npu", "video_encoder"
  /// May connect straight to its memory (a GPU's memory controllers sit next to its
  /// HBM); other units reach memory through a noc.
  bool direct_memory = false;
  std::string domain;   ///< DVFS domain clocking it
  std::string connect;  ///< first hop of its memory traffic (an interconnect or a memory)
  std::string fabric;   ///< first hop of its collectives ("" when it takes part in none)
  std::vector<std::string> io;  ///< first hops towards io targets (storage, NIC, host memory)
  int cores = 1;        ///< cores, SMs or engines
  std::map<precision, double> ops_per_cycle;         ///< tensor/MAC peak per core (a MAC = 2)
  std::map<precision, double> vector_ops_per_cycle;  ///< SIMD / CUDA-core peak per core; empty: ops_per_cycle
  double efficiency = 0.7;         ///< share of peak for tensor operators
  double vector_efficiency = 0.25; ///< share of peak for vector/scalar operators
  std::map<op_kind, double> op_efficiency;  ///< per operator kind, overriding the two above
  /// Per operator kind at one arithmetic precision (`gemm_fp8`), overriding op_efficiency
  /// there: FP8 tensor cores reach a smaller share of their doubled peak than 16-bit ones.
  std::map<std::pair<op_kind, precision>, double> op_precision_efficiency;
  /// Per operator kind under one fusion rule set (`conv_eager`), overriding op_efficiency
  /// (not op_precision_efficiency): a framework's kernels (eager PyTorch: cuDNN, training's
  /// backward convolutions too) and an inference compiler's (TensorRT) reach different shares.
  std::map<std::pair<op_kind, fusion_rules>, double> op_rules_efficiency;
  /// Per operator kind (and per kind at one precision, which wins), the share of its
  /// forward kernel's efficiency (at most 1) that a training step's backward kernel reaches;
  /// absent: 1.
  /// cuDNN's weight-gradient convolutions in FP32 on Volta's CUDA cores run well below
  /// the forward's share, its FP16 tensor-core ones nearly at it.
  std::map<op_kind, double> backward_efficiency;
  std::map<std::pair<op_kind, precision>, double> backward_precision_efficiency;
  /// Share of the memory's reachable bandwidth an operator kind's access pattern reaches
  /// (paged KV-cache gathers in attention, embedding gathers); absent: 1.
  std::map<op_kind, double> memory_efficiency;
  /// Per operator kind, the share of the shorter of a tile's arithmetic and memory times
  /// hidden under the longer; absent: 1, the roofline (the longer alone). Below 1 a kernel
  /// near the ridge point, where neither bound is clear (a decode GEMM of a few hundred
  /// rows streaming its weights), takes longer than either.
  std::map<op_kind, double> overlap;
  /// Per operator kind, the share of the unit's switched capacitance (c_eff) its kernels
  /// toggle while computing; absent: 1. Kernels differ in power at the same clock and busy
  /// time (which units they exercise, how many operands they move), so one c_eff cannot
  /// give every kind's power: an A40 draws less running BERT's GEMMs than ResNet-50's
  /// convolutions at the same clock (the Zeus sweep's lowest limit: 106 against 121 W).
  std::map<op_kind, double> op_activity;
  /// Per operator kind at one precision (`conv_fp32`), overriding op_activity there: a V100's
  /// FP32 convolutions run on the CUDA cores, not on the tensor cores its c_eff was fitted on.
  std::map<std::pair<op_kind, precision>, double> op_precision_activity;
  /// Per operator kind under one fusion rule set (`gemm_tensorrt`), between the two above
  /// (a precision's entry wins), as op_rules_efficiency: an engine's GEMMs that reach a
  /// higher share of peak do more work, and switch more, per cycle.
  std::map<std::pair<op_kind, fusion_rules>, double> op_rules_activity;
  /// The kernels the unit runs a graph as (fusion.hpp); stages may override it.
  fusion_rules fusion = fusion_rules::eager;
  units::seconds_t launch_overhead = units::seconds(5e-6);
  /// Host CPU time an eager framework spends issuing each kernel (Python dispatch, autocast,
  /// the launch call), pipelined with the unit: kernel i starts no earlier than i issue
  /// times after the job began, so the cost hides under kernels longer than it and the unit
  /// starves on shorter ones (a small batch). 0: kernels are issued ahead of the unit.
  units::seconds_t host_issue = units::seconds(0.0);
  /// Fixed cost of each collective call (library set-up and synchronisation), on top of
  /// the ring's per-step hop latencies; paid `repeat` times by a folded collective.
  units::seconds_t collective_latency = units::seconds(0.0);
  double tile_bytes = 256 * 1024;
  /// On-chip memory (NPU SRAM, GPU L2) that keeps an operator's output for the next one
  /// when it fits, so neither the write nor the next read goes to DRAM (0: none).
  double onchip_bytes = 0;
  /// Bytes the L2 moves per core clock cycle, the whole chip (0: no limit). A GPU's DRAM
  /// traffic passes its L2, which runs on the core clock: at a low clock (a tight power
  /// limit) the L2, not the DRAM, bounds a streaming kernel.
  double l2_bytes_per_cycle = 0;
  /// A GEMM's arithmetic time from its shape: tiles, waves, split-K (gemm_tiling.hpp); not
  /// enabled: its operations at op_efficiency's share of peak, whatever the shape.
  gemm_tiling tiling;
  /// Idle states, shallow to deep (cpuidle): which one an idle period uses is chosen by
  /// the unit's idle_selector; their power belongs to the power model.
  std::vector<idle_state_timing> idle_states;
  /// Stall of the unit while its domain's clock switches (PLL relock), per change.
  units::seconds_t dvfs_stall = units::seconds(0.0);
  /// Measured operator times that replace the roofline for the operators they hold
  /// (null: none; the roofline times everything).
  std::shared_ptr<const op_profile> profile;
  /// cpu_cluster: the device tree's capacity-dmips-mhz of its CPUs (the scheduler's
  /// capacity, cpu_scheduler.hpp); the kernel's default when a tree gives none: 1024.
  double capacity_dmips_mhz = 1024;
};

/// An interconnect: a NoC or bus, a PCIe or NVLink link, or a switch.
struct interconnect_config {
  std::string name;
  std::string kind;  ///< "noc", "pcie", "nvlink", "switch"
  /// The downstream component of a noc or link ("" with no ports: a terminal, a fabric
  /// that collectives cross and end in).
  std::string connect;
  std::vector<std::string> ports;  ///< a switch's downstream components
  /// Every downstream component, in port order (connect first).
  std::vector<std::string> downstream() const {
    std::vector<std::string> d;
    if (!connect.empty()) d.push_back(connect);
    d.insert(d.end(), ports.begin(), ports.end());
    return d;
  }
  double bandwidth_Bps = 0;  ///< per direction for duplex links, aggregate otherwise
  bool duplex = false;       ///< reads and writes have a path each (full-duplex links)
  bool point_to_point = false;  ///< exactly one upstream (a link); noc and switch take many
  bool needs_connect = false;   ///< must have a downstream memory (a noc)
  units::seconds_t latency = units::seconds(30e-9);
};

/// A target that stores or sinks bytes: DRAM (lpddr, lpddr5x, ddr5, hbm), NVMe storage
/// or a NIC.
struct memory_config {
  std::string name;
  std::string kind;  ///< "lpddr", "lpddr5x", "ddr5", "hbm", "nvme", "nic"
  bool dram = false; ///< a unit's working memory (where its model lives), not a device
  double bandwidth_Bps = 0;        ///< peak (reads and writes share it unless write_bandwidth_Bps > 0)
  double write_bandwidth_Bps = 0;  ///< separate write path (storage: read and write rates differ)
  double efficiency = 0.8;   ///< reachable share of peak
  units::seconds_t latency = units::seconds(100e-9);
  double capacity_B = 0;
  int channels = 1;          ///< for reporting; bandwidth is the channels' sum
  /// NVMe: non-operational power states under APST, shallow to deep (empty: PS0 only).
  std::vector<nvme_state_timing> power_states;
  /// Memory DVFS: the domain whose clock sets the bandwidth (empty: fixed). Peak bandwidth
  /// is bus width x data rate, and the data rate a fixed multiple of the clock, so the
  /// bandwidth at clock f is bandwidth_Bps x f / clock_max_hz.
  std::string domain;
  double clock_max_hz = 0;  ///< the domain's top clock, where bandwidth_Bps holds
};

struct platform_config {
  units::seconds_t quantum = units::seconds(50e-6);
  std::vector<compute_unit_config> units;
  std::vector<interconnect_config> interconnects;
  std::vector<memory_config> memories;
};

// --- workload ---------------------------------------------------------------------

/// How requests arrive. closed_loop: `users` each send a request, wait for its answer,
/// think, and send the next (offline throughput runs are a closed loop with no think
/// time). trace: times and token counts read from a file.
enum class arrival_kind { fixed_rate, poisson, closed_loop, trace };

struct trace_entry {
  double arrival_s = 0;
  int prompt_tokens = 0, output_tokens = 0;
};

/// A token count per request: an integer drawn uniformly from [min, max] (min == max:
/// fixed), or from a histogram (a published length distribution): bin i, [edges[i],
/// edges[i+1]), drawn with probability counts[i] / sum, then an integer uniformly within it
/// (the last bin includes its upper edge). With a histogram, min and max are the smallest
/// and largest integers it can give.
struct token_range {
  token_range() = default;
  token_range(int lo, int hi) : min(lo), max(hi) {}
  int min = 0, max = 0;
  std::vector<double> edges;       ///< bin edges, increasing (empty: uniform [min, max])
  std::vector<double> cumulative;  ///< running share of the bins, ending at 1
  /// The mean count drawn (the histogram's, with each bin's integers equally likely).
  double mean() const;
  /// The integers bin i holds: [lo, hi].
  std::pair<int, int> bin_integers(std::size_t i) const;
};

enum class batching_kind { none, static_batch, dynamic, continuous };

struct batching_config {
  batching_kind kind = batching_kind::none;
  int max_batch = 1;
  /// dynamic: how long the first request of a batch waits for more; static: 0 waits
  /// for a full batch forever.
  units::seconds_t timeout = units::seconds(0.0);
};

/// How a stage uses its list of units: one unit; the least loaded of several replicas;
/// every unit running the graph as one data-parallel group (collectives span them); each
/// request's task placed on one of several CPU clusters by energy-aware scheduling.
enum class parallel_kind { single, replicas, data, energy_aware };

struct stage_config {
  std::string unit;                ///< the stage's unit (the first of `units`)
  std::vector<std::string> units;  ///< replicas or the group; empty: just `unit`
  /// Every unit of the stage.
  std::vector<std::string> all_units() const { return units.empty() ? std::vector<std::string>{unit} : units; }
  parallel_kind parallel = parallel_kind::single;
  op_graph graph;  ///< for one request; batches scale it (op_graph batched)
  double per_request_batch = 1;  ///< inputs per request (for throughput)
  bool training = false;         ///< a training step: throughput counts samples
  host_work_config host;         ///< per-step host software (training loops); per_iteration_s per step
  bool has_uclamp = false;       ///< its own uclamp (else the stream's)
  uclamp_range uclamp;
};

/// A large-language-model serving stream: requests of prompt_tokens in, output_tokens
/// out, on instances of tensor_parallel GPUs each, with iteration-level (continuous) or
/// static batching, admission limited by the KV cache.
struct llm_config {
  decoder_shape shape;
  precision weights = precision::bf16;
  precision kv = precision::bf16;
  int tensor_parallel = 1;
  int pipeline_parallel = 1;       ///< consecutive stages of tensor_parallel units each
  std::vector<std::string> units;  ///< instances take consecutive runs of tensor_parallel x pipeline_parallel
  int max_batch = 64;              ///< sequences in flight per instance
  int max_batched_tokens = 8192;   ///< tokens per iteration (prefill chunks + decodes)
  bool chunked_prefill = true;
  double kv_cache_bytes = 0;       ///< per rank; resolved from memory capacity when 0
  /// When kv_cache_bytes is 0, the share of memory the weights and KV cache take. Serving
  /// engines size it two ways: vLLM's gpu_memory_utilization is a share of the whole memory
  /// (weights included); TensorRT-LLM's kv_cache_free_gpu_mem_fraction is a share of what is
  /// free once the weights are loaded (kv_share_of_free).
  double kv_share = 0.9;
  bool kv_share_of_free = false;
  /// Per rank, what the serving engine holds beside weights and KV cache: the activation peak
  /// of its profiling pass and communication buffers (both engines measure it before sizing).
  double reserved_bytes = 0;
  /// The KV cache of one micro-batch lane: a pipeline's lanes share the rank's cache evenly.
  double kv_cache_bytes_per_lane() const { return kv_cache_bytes / std::max(1, pipeline_parallel); }
  bool kv_paged = false;           ///< KV blocks as tokens are written, preemption (else whole footprint reserved)
  int kv_block_tokens = 16;        ///< paged: tokens per block
  int layer_groups = 1;            ///< layers simulated as this many folded groups
  fusion_rules fusion = fusion_rules::eager;  ///< the iteration's kernels (default: its first unit's)
  decode_attention_kernel decode_attention = decode_attention_kernel::grouped;  ///< decoder.hpp
  token_range prompt_tokens{128, 128}, output_tokens{128, 128};
  host_work_config host;           ///< the serving engine's host software per iteration
};

struct stream_config {
  std::string name;
  arrival_kind arrival = arrival_kind::fixed_rate;
  units::hertz_t rate = units::hertz(30.0);
  units::seconds_t start = units::seconds(0.0);
  int users = 1;                                        ///< closed_loop
  units::seconds_t think_time = units::seconds(0.0);    ///< closed_loop: mean think time
  bool think_exponential = false;
  std::vector<trace_entry> trace;                       ///< trace
  std::vector<stage_config> stages;                     ///< non-LLM streams
  batching_config batching;
  bool is_llm = false;
  llm_config llm;
  int queue_limit = 64;  ///< open-loop requests waiting or running before new ones are dropped
  uclamp_range uclamp;   ///< its stages' tasks' clamps unless a stage sets its own
};

struct workload_config {
  std::vector<stream_config> streams;
  /// policy.scheduler: eas: stages on CPU clusters run as tasks (cpu_scheduler.hpp).
  sched_config scheduler;
};

/// A task of the CPU scheduler: one per stage whose units are all runqueues of
/// `w.scheduler` (a single CPU cluster, pinned; or energy_aware over several), named
/// "<stream>/<stage index>:<graph name>".
struct sched_task_spec {
  std::string name;
  std::size_t stream = 0, stage = 0;
  bool llm_host = false;          ///< the stream's serving-engine host work (stage unused)
  std::vector<std::size_t> cpus;  ///< allowed runqueues, the stage's order (the first: where it forks)
  uclamp_range clamp;             ///< the stage's uclamp, else its stream's
};
/// The tasks of a workload, streams and stages in order (none when the scheduler is off).
std::vector<sched_task_spec> sched_tasks(const workload_config& w);

}  // namespace ptsim::tlm_config
