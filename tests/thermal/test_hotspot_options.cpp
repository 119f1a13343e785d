// HotSpot option files and command lines: precedence, comments, origins in errors.
#include <doctest/doctest.h>

#include <functional>
#include <stdexcept>
#include <string>

#include "ptsim/thermal/hotspot_options.hpp"
#include "fixtures.hpp"

using namespace ptsim::thermal;

using test::error_of;

TEST_CASE("config text: comments, indentation, trailing words, first occurrence wins") {
  hotspot_options o;
  o.add_config_text(
      "# thermal model parameters\n"
      "\n"
      "\t\t-t_chip\t\t0.00015\n"
      "  # -k_chip 1 (commented out)\n"
      "-r_convec 0.35  # K/W, anything after the value is ignored\n"
      "-r_convec 9\n"
      "-init_file (null)\n"
      "-grid_map_mode avg\r\n",
      "my.config");
  CHECK(o.get_double("t_chip", 0) == 0.00015);
  CHECK_FALSE(o.has("k_chip"));
  CHECK(o.get_double("r_convec", 0) == 0.35);
  CHECK(o.find("r_convec")->origin == "my.config:5");
  CHECK(o.get_file("init_file").empty());  // "(null)" is HotSpot's "no file"
  CHECK(o.get_string("grid_map_mode", "") == "avg");
  CHECK(o.get_double("k_sink", 42.0) == 42.0);  // absent: the fallback
}

TEST_CASE("the command line overrides the file") {
  hotspot_options o;
  o.add_command_line({"-f", "a.flp", "-r_convec", "0.2", "-steady_file", "out.steady"});
  o.add_config_text("-r_convec 0.9\n-s_sink 0.05\n", "c.config");
  CHECK(o.get_double("r_convec", 0) == 0.2);
  CHECK(o.find("r_convec")->origin == "command line");
  CHECK(o.get_double("s_sink", 0) == 0.05);
  CHECK(o.get_file("steady_file") == "out.steady");
}

TEST_CASE("every HotSpot 7 option is accepted; unknown names are errors with file:line and a hint") {
  hotspot_options o;
  // A sample from each family: thermal, secondary path, package model, microchannels, floorplanner.
  CHECK_NOTHROW(o.add_config_text(
      "-model_secondary 0\n-n_c4 400\n-natural_convec 0\n-rpm 1000\n-htc 27132\n"
      "-wrap_l2 1\n-lambdaA 5e6\n-base_proc_freq 3e9\n-detailed_3D off\n-materials_file (null)\n",
      "all.config"));
  const std::string e = error_of([&] { o.add_config_text("\n-t_chp 0.1\n", "typo.config"); });
  CHECK(e.find("typo.config:2: unknown option '-t_chp'") != std::string::npos);
  CHECK(e.find("did you mean '-t_chip'") != std::string::npos);
  CHECK(error_of([&] { o.add_command_line({"-bogus_option", "1"}); }).find("command line: unknown option '-bogus_option'") !=
        std::string::npos);
}

TEST_CASE("malformed lines and values name their origin") {
  hotspot_options o;
  CHECK(error_of([&] { o.add_config_text("t_chip 0.1\n", "a.config"); }).find("a.config:1: expected '-name value'") !=
        std::string::npos);
  CHECK(error_of([&] { o.add_config_text("\n\n-t_chip\n", "b.config"); }).find("b.config:3: option '-t_chip' has no value") !=
        std::string::npos);
  CHECK(error_of([&] { o.add_command_line({"-p"}); }).find("has no value") != std::string::npos);
  CHECK(error_of([&] { o.add_command_line({"p", "x"}); }).find("expected an option -name") != std::string::npos);
  hotspot_options v;
  v.add_config_text("-k_chip 1O0\n-grid_rows 6.5\n", "v.config");
  CHECK(error_of([&] { v.get_double("k_chip", 0); }) == "v.config:1: -k_chip expects a number, found '1O0'");
  CHECK(error_of([&] { v.get_int("grid_rows", 0); }) == "v.config:2: -grid_rows expects an integer, found '6.5'");
}

TEST_CASE("option catalogue") {
  REQUIRE(find_option("sampling_intvl") != nullptr);
  CHECK(find_option("sampling_intvl")->support == option_support::modelled);
  CHECK(find_option("lambdaW")->support == option_support::no_effect);
  CHECK(find_option("use_microchannels")->support == option_support::modelled);
  CHECK(find_option("coolant_material")->support == option_support::modelled);
  CHECK(find_option("network_file")->support == option_support::no_effect);  // the layer file names networks
  CHECK(find_option("precision")->support == option_support::ptsim_only);
  CHECK(find_option("nonsense") == nullptr);
  CHECK(nearest_option("grid_row") == "grid_rows");
  CHECK(nearest_option("zzzzzzzzzzzzzz").empty());
}
