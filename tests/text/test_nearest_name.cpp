// Edit distances computed by hand (the edits are named in each comment), and the
// suggestion rule: the first closest name, only within the allowed distance.
#include <doctest/doctest.h>

#include "ptsim/text/nearest_name.hpp"

using ptsim::text::edit_distance;
using ptsim::text::nearest_name;
using ptsim::text::suggestion_distance;

TEST_CASE("edit_distance: hand-computed Levenshtein distances") {
  // k->s, e->i, insert g.
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("sitting", "kitten") == 3);
  // Delete f, insert n.
  CHECK(edit_distance("flaw", "lawn") == 2);
  // One insertion, one deletion, one substitution; two substitutions (r->c, w->l).
  CHECK(edit_distance("ondmand", "ondemand") == 1);
  CHECK(edit_distance("ondemand", "ondmand") == 1);
  CHECK(edit_distance("ondemand", "ondemant") == 1);
  CHECK(edit_distance("grid_rows", "grid_cols") == 2);
  // A transposition is two edits (Levenshtein, not Damerau).
  CHECK(edit_distance("ab", "ba") == 2);
  // Nothing in common: substitute each of the shorter, insert the rest.
  CHECK(edit_distance("abc", "wxyz") == 4);
}

TEST_CASE("edit_distance: empty and equal strings") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("abc", "") == 3);
  CHECK(edit_distance("ondemand", "ondemand") == 0);
}

TEST_CASE("suggestion_distance: two edits, or a third of a longer name") {
  CHECK(suggestion_distance("") == 2);
  CHECK(suggestion_distance("abcdefgh") == 2);   // 8 / 3 = 2
  CHECK(suggestion_distance("abcdefghi") == 3);  // 9 / 3 = 3
  CHECK(suggestion_distance("up_treshold") == 3);
  CHECK(suggestion_distance("sampling_down_facto") == 6);
}

TEST_CASE("nearest_name: the closest name within the limit") {
  const std::vector<std::string> tunables{"up_threshold", "sampling_down_factor", "sampling_rate_us", "io_is_busy"};
  // up_treshold -> up_threshold: insert h (1); every other name is much further.
  CHECK(nearest_name("up_treshold", tunables) == "up_threshold");
  // A closer name later in the list beats a further one before it: distance 2 vs 1.
  CHECK(nearest_name("sampling_rate_u", {"sampling_rate", "sampling_rate_us"}) == "sampling_rate_us");
  // Equally close (1 each): the first wins.
  CHECK(nearest_name("ab", {"ax", "ay"}) == "ax");
  CHECK(nearest_name("ab", {"ay", "ax"}) == "ay");
  // Exactly at the limit (2 edits for a 4-character name) is suggested; one past is not.
  CHECK(nearest_name("abcd", {"abxy"}) == "abxy");
  CHECK(nearest_name("abc", {"xyz"}).empty());
  CHECK(nearest_name("anything", {}).empty());
}

TEST_CASE("nearest_name: an explicit limit") {
  // Limit 0: only the name itself.
  CHECK(nearest_name("c", {"cc", "c"}, 0) == "c");
  CHECK(nearest_name("x", {"c", "cc"}, 0).empty());
  // kitten -> sitting is 3: within 3, not within 2.
  CHECK(nearest_name("kitten", {"sitting"}, 3) == "sitting");
  CHECK(nearest_name("kitten", {"sitting"}, 2).empty());
}
