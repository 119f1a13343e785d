# ptsim_add_module(NAME SOURCES ... [HEADERS ...] [PUBLIC_DEPS ...] [PRIVATE_DEPS ...])
# One library per module: target ptsim_<NAME>, alias ptsim::<NAME>, public headers
# under <NAME>/include/ptsim/<NAME>/ installed as a file set and exported.
function(ptsim_add_module name)
  cmake_parse_arguments(M "" "" "SOURCES;HEADERS;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  set(target ptsim_${name})
  if(M_SOURCES)
    add_library(${target} STATIC ${M_SOURCES})
    set(scope PUBLIC)
  else()
    add_library(${target} INTERFACE)
    set(scope INTERFACE)
  endif()
  add_library(ptsim::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name})
  if(M_HEADERS)
    set(headers ${M_HEADERS})
  else()
    file(GLOB_RECURSE headers CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/include/*.hpp)
  endif()
  target_sources(${target} ${scope} FILE_SET HEADERS
                 BASE_DIRS ${CMAKE_CURRENT_SOURCE_DIR}/include FILES ${headers})
  target_compile_features(${target} ${scope} cxx_std_17)
  if(M_SOURCES)
    ptsim_warnings(${target})
    set_target_properties(${target} PROPERTIES UNITY_BUILD ${PTSIM_UNITY})
    if(PTSIM_UNITY AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      # A unity file is one translation unit, so a type of one source's anonymous namespace
      # inside another source's class is no linkage problem there: gcc warns all the same.
      target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
    endif()
  endif()
  if(M_PUBLIC_DEPS)
    target_link_libraries(${target} ${scope} ${M_PUBLIC_DEPS})
  endif()
  if(M_PRIVATE_DEPS)
    target_link_libraries(${target} PRIVATE ${M_PRIVATE_DEPS})
  endif()
  install(TARGETS ${target} EXPORT ptsimTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          FILE_SET HEADERS DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()

function(ptsim_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic)
  if(PTSIM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# ptsim_fuzz_coverage(TARGET [SOURCES file...]): libFuzzer's coverage hooks (with
# -DPTSIM_FUZZ=ON) on the code the harnesses of tests/fuzz feed: the whole target, or only
# the sources named (paths as in the target's own CMakeLists.txt). Only there: the hooks on
# every edge and comparison made the sanitizer pass's tests 2.4x slower when every library
# carried them, mostly in solvers and simulation code that no harness reaches.
function(ptsim_fuzz_coverage target)
  if(NOT PTSIM_FUZZ)
    return()
  endif()
  cmake_parse_arguments(F "" "" "SOURCES" ${ARGN})
  if(F_SOURCES)
    set_property(SOURCE ${F_SOURCES} APPEND PROPERTY COMPILE_OPTIONS -fsanitize=fuzzer-no-link)
  else()
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endfunction()
