# Precompiled headers (docs/building.md): the third-party and standard headers that nearly every
# translation unit parses, compiled once per build instead of once per file.
option(SOFTSIM_PRECOMPILED_HEADERS "Precompile the heavy third-party headers (Eigen, TBB, fmt, JSON, GoogleTest)" ON)

set(SOFTSIM_PCH_HEADERS
    <algorithm> <array> <cmath> <cstdint> <cstdio> <filesystem> <fstream> <functional> <limits>
    <map> <memory> <optional> <set> <sstream> <stdexcept> <string> <string_view> <unordered_map>
    <utility> <vector>
    <Eigen/Core> <Eigen/Dense> <Eigen/Sparse>
    <tbb/parallel_for.h> <tbb/blocked_range.h> <tbb/parallel_reduce.h>
    <fmt/format.h> <nlohmann/json.hpp>)

# softsim_precompile_headers(target [extra headers...])
function(softsim_precompile_headers target)
  if(SOFTSIM_PRECOMPILED_HEADERS)
    target_precompile_headers(${target} PRIVATE ${SOFTSIM_PCH_HEADERS} ${ARGN})
  endif()
endfunction()
