#pragma once
// The front end's allocation arena (arena.cpp says why and when).

namespace ptsim::app {

/// From now on, operator new serves from one 2 MiB transparent huge page (never freed)
/// until it is full, then from malloc. Does nothing where the kernel gives no huge pages.
void use_huge_page_arena();

}  // namespace ptsim::app
