# Unity builds (docs/building.md): most of a translation unit's compile time is instantiating and
# generating the templates it shares with its neighbours (Eigen's kernels, nlohmann-json,
# GoogleTest's assertions), so the sources of one module are compiled in batches of a few files.
# A batch holds files of one top-level folder only, in name order, so adding a file reshuffles the
# batches of its own folder and nothing else. A file that must stand alone (it instantiates heavy
# templates that nothing else shares, and would hold up its batch) sets SKIP_UNITY_BUILD_INCLUSION.
option(SOFTSIM_UNITY_BUILD "Compile each module's sources in batches (unity build)" ON)
set(SOFTSIM_UNITY_BATCH_SIZE 8 CACHE STRING "Source files per unity batch of the library and the CLI")
set(SOFTSIM_TEST_UNITY_BATCH_SIZE 16 CACHE STRING "Source files per unity batch of the test programs")

# softsim_unity_batches(TARGET ROOT [SIZE]): batches TARGET's .cpp sources by their first folder
# below ROOT, SIZE files a batch (SOFTSIM_UNITY_BATCH_SIZE when not given).
function(softsim_unity_batches target root)
  if(NOT SOFTSIM_UNITY_BUILD)
    return()
  endif()
  set(batch_size ${SOFTSIM_UNITY_BATCH_SIZE})
  if(ARGC GREATER 2)
    set(batch_size ${ARGV2})
  endif()
  get_target_property(sources ${target} SOURCES)
  list(SORT sources)
  set(counts_keys)
  foreach(source ${sources})
    if(NOT source MATCHES "\\.cpp$")
      continue()
    endif()
    get_filename_component(path ${source} ABSOLUTE)
    file(RELATIVE_PATH relative ${root} ${path})
    string(REGEX REPLACE "/.*" "" folder "${relative}")
    if(folder STREQUAL relative)
      set(folder "top")
    endif()
    if(NOT DEFINED count_${folder})
      set(count_${folder} 0)
    endif()
    math(EXPR batch "${count_${folder}} / ${batch_size}")
    math(EXPR count_${folder} "${count_${folder}} + 1")
    set_property(SOURCE ${source} PROPERTY UNITY_GROUP "${folder}_${batch}")
  endforeach()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
endfunction()
