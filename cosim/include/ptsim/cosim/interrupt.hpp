#pragma once
// Ctrl-C and termination during a run: the signal only sets a flag; the control loop
// sees it at its next tick and stops the simulation, so the partial result file is
// removed by the normal error path instead of being left behind.
namespace ptsim::cosim {

/// Routes SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGPIPE to the flag. Call once, before the
/// run starts.
void install_interrupt_handlers();
/// The signal that asked the run to stop, or 0.
int interrupt_signal();
/// Throws simulation_error ("interrupted by signal N") when a signal asked the run to stop:
/// called where a run spends long outside the control loop (building, writing tables).
void stop_if_interrupted();

}  // namespace ptsim::cosim
