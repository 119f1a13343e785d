// What else bounds an operator: io transfers over PCIe to NVMe, a stall while the clock
// switches, the exit from an idle state; and on-chip SRAM saving DRAM traffic.
//
// io: unit u_io reads 10 MiB and writes 4 MiB on an NVMe drive (reads 5 GB/s, writes
// 2 GB/s, 50 us) behind a PCIe link (10 GB/s each way, 1 us), in 1 MiB tiles. The drive
// is the slower: a read tile's bytes take 1 MiB / 5e9 = 209.715 us, a write tile's
// 1 MiB / 2e9 = 524.288 us; each transfer's tiles stream back to back, so it waits out the
// path's 1 us + 50 us once, with its first tile:
//   T_io = 5 us + (51 us + 10 x 209.715 us) + (51 us + 4 x 524.288 us) = 4.30130 ms
// (and a second launch, counted below).
// dvfs: u_dvfs (768 ops/cycle) runs 7.68e9 ops in 100 tiles from t = 0 at 1 GHz (10 ms of
// work); at t = 2 ms its domain is asked for 2 GHz, effective at 2.5 ms, with a 20 us
// stall per switch. Tiles start at 5 us + k x 100 us: the one starting at 2.405 ms runs
// at 1 GHz to 2.505 ms; the next stalls 20 us and the 75 left take 50 us each:
//   T_dvfs = 2.505 ms + 20 us + 3.75 ms = 6.275 ms.
// long: u_long, in the same domain (no stall), runs the same 7.68e9 ops with no bytes. A piece
// of work is at most a control period (1 ms) at the clock it starts at, so the operator runs in
// ten 1 ms pieces from 5 us: the one starting at 2.005 ms still at 1 GHz, the seven after it at
// 2 GHz in 0.5 ms each:
//   T_long = 3.005 ms + 7 x 0.5 ms = 6.505 ms (10.005 ms if the operator were one piece).
// idle: u_idle (one idle state: entry 50 us, exit 100 us, always chosen) serves 1.005 ms
// requests at 200 Hz: the first (t = 0) finds it just started; the next two (5, 10 ms)
// pay 100 us each. Resident from 50 us after each idle start: idle from 1.005 ms to 5 ms,
// from 6.105 to 10 ms and from 11.105 ms to the end (12 ms), less 50 us of entry each:
//   3.945 + 3.845 + 0.845 = 8.635 ms.
// sram: u_sram (1 MiB SRAM) and u_plain (none) run two elementwise operators, each
// reading 512 KiB and writing 512 KiB: with SRAM the first output stays on chip, so DRAM
// sees 512 KiB read and 512 KiB written instead of 1 MiB each.
#include "sc_test.hpp"

#include "ptsim/tlm_config/operators.hpp"

using namespace sc_test;

TEST_CASE("io transfers, DVFS stalls, idle exits and on-chip SRAM") {
  const double MiB = 1024.0 * 1024;
  const double t_io = 5e-6 + (51e-6 + 10 * MiB / 5e9) + (51e-6 + 4 * MiB / 2e9);
  const double t_dvfs = 2.505e-3 + 20e-6 + 75 * 50e-6;
  const double t_long = 3.005e-3 + 7 * 0.5e-3;

  platform_config pc = memory_system(1e12, 0, 1e12, 1.0, 0);
  compute_unit_config io = unit("u_io", "d_io", 4, 256, 0.75);
  io.io = {"pcie"};
  io.tile_bytes = MiB;
  compute_unit_config dv = unit("u_dvfs", "d_dvfs", 4, 256, 0.75);
  dv.dvfs_stall = pu::seconds(20e-6);
  compute_unit_config lng = unit("u_long", "d_dvfs", 4, 256, 0.75);
  compute_unit_config idle = unit("u_idle", "d_idle", 4, 256, 0.75);
  idle.idle_states = {{"sleep", 50e-6, 100e-6}};
  compute_unit_config sram = unit("u_sram", "d_sram", 4, 256, 0.75);
  sram.kind = "gpu";  // straight on its memory
  sram.direct_memory = true;
  sram.connect = "m_sram";
  sram.onchip_bytes = MiB;
  compute_unit_config plain = unit("u_plain", "d_plain", 4, 256, 0.75);
  plain.kind = "gpu";
  plain.direct_memory = true;
  plain.connect = "m_plain";
  pc.units = {io, dv, idle, sram, plain, lng};
  pc.interconnects.push_back(link("pcie", "pcie", {"ssd"}, 10e9, 1e-6));
  memory_config ssd = hbm("ssd", 5e9, 50e-6);
  ssd.kind = "nvme";
  ssd.dram = false;
  ssd.write_bandwidth_Bps = 2e9;
  pc.memories.push_back(ssd);
  pc.memories.push_back(hbm("m_sram", 1e12, 0));
  pc.memories.push_back(hbm("m_plain", 1e12, 0));

  op_graph io_graph;
  io_graph.name = "io";
  io_graph.ops = {transfer_op("read", "ssd", 10 * MiB, 0), transfer_op("write", "ssd", 0, 4 * MiB)};
  io_graph.ops[1].name = "write";
  // The two transfers as one graph: 5 us launch each; the closed form above has one
  // launch, so count the second.
  const op_graph dvfs_graph = one_op("gemm", op_class::tensor, 7.68e9, 100 * 256 * 1024.0, 0);
  op_graph two;
  two.name = "two";
  two.prec = precision::int8;
  two.ops = {elementwise_op("a", 512 * 1024.0, 1, 1, precision::int8), elementwise_op("b", 512 * 1024.0, 1, 1, precision::int8)};
  workload_config wc;
  wc.streams.push_back(stream("io", "u_io", io_graph, 1.0, 0.0));
  wc.streams.push_back(stream("dvfs", "u_dvfs", dvfs_graph, 1.0, 0.0));
  wc.streams.push_back(stream("long", "u_long", one_op("long", op_class::tensor, 7.68e9, 0, 0), 1.0, 0.0));
  wc.streams.push_back(stream("idle", "u_idle", one_op("w", op_class::tensor, 7.68e8, 0, 0), 200.0, 0.0));
  wc.streams.push_back(stream("sram", "u_sram", two, 1.0, 0.0));
  wc.streams.push_back(stream("plain", "u_plain", two, 1.0, 0.0));
  std::map<std::string, operating_point> init;
  for (const char* d : {"d_io", "d_dvfs", "d_idle", "d_sram", "d_plain"}) init[d] = {1e9, 0.8};
  platform plat(pc, wc, init, 1e-3, 1);
  struct always_sleep : idle_selector {
    int select() override { return 0; }
    void reflect(double) override {}
  } sleep;
  for (const auto& u : plat.units())
    if (u->basename() == std::string("u_idle")) u->set_idle_selector(&sleep);
  sc_core::sc_spawn([&plat] {
    sc_core::wait(sc_core::sc_time(2, sc_core::SC_MS));
    plat.clock("d_dvfs").request(2e-3, 2e9, 1.0, 2.5e-3);
  });

  sc_core::sc_start(sc_core::sc_time(12, sc_core::SC_MS));

  const auto& recs = plat.workload().finished();
  auto unit_named = [&](const char* n) {
    for (const auto& u : plat.units())
      if (u->basename() == std::string(n)) return u.get();
    return static_cast<compute_unit*>(nullptr);
  };
  // io: bound by the transfer, the drive's rates and latencies.
  const request_record* r_io = record_of(recs, "io");
  REQUIRE(r_io);
  CHECK(r_io->finish_s - r_io->start_s == near(t_io + 5e-6).epsilon(1e-4));
  CHECK(unit_named("u_io")->bound_seconds(bound_by::interconnect) == near(t_io + 5e-6).epsilon(1e-4));
  const auto drive = total(plat.memories()[1]->ledger(), 20);
  CHECK(drive.bytes_read == near(10 * MiB));
  CHECK(drive.bytes_written == near(4 * MiB));

  // dvfs: the switch costs its stall, then the work runs twice as fast.
  const request_record* r_dv = record_of(recs, "dvfs");
  REQUIRE(r_dv);
  CHECK(r_dv->finish_s - r_dv->start_s == near(t_dvfs).epsilon(2e-3));
  CHECK(unit_named("u_dvfs")->bound_seconds(bound_by::dvfs) == near(20e-6));
  // long: the change reaches an operator with no bytes within a control period.
  const request_record* r_long = record_of(recs, "long");
  REQUIRE(r_long);
  CHECK(r_long->finish_s - r_long->start_s == near(t_long).epsilon(2e-3));

  // idle: 1 ms + 5 us service; the 2nd and 3rd requests wake the unit first.
  for (std::size_t k = 0; k < 3; ++k) {
    CAPTURE(k);
    const request_record* r = record_of(recs, "idle", k);
    REQUIRE(r);
    CHECK(r->finish_s - r->arrival_s == near(1.005e-3 + (k ? 100e-6 : 0)).epsilon(1e-6));
  }
  CHECK(unit_named("u_idle")->bound_seconds(bound_by::idle_exit) == near(200e-6));
  CHECK(unit_named("u_idle")->idle_state_seconds(0, 12e-3) == near(8.635e-3).epsilon(1e-6));

  // sram: half the DRAM traffic.
  const auto with = total(plat.memories()[2]->ledger(), 20), without = total(plat.memories()[3]->ledger(), 20);
  CHECK(with.bytes_read == near(512 * 1024.0));
  CHECK(with.bytes_written == near(512 * 1024.0));
  CHECK(without.bytes_read == near(MiB));
  CHECK(without.bytes_written == near(MiB));
}
