# `cmake --install` / `make install PREFIX=...`: the library (libsoftsim.a), the CLI, the public
# headers and a CMake package, so that a downstream project's find_package(softsim) and
# target_link_libraries(app softsim::softsim) work (examples/cpp is such a project).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The headers a program needs to read a scene, build its model and run or step it, and every
# softsim header they include (followed through their #include lines), nothing else: solver,
# contact and element internals that no public header reaches stay out of the install.
set(SOFTSIM_PUBLIC_HEADERS
    softsim/core/errors.hpp
    softsim/scene/scene.hpp
    softsim/sim/simulation.hpp
    softsim/sim/steering.hpp
    softsim/integrate/stepper.hpp
    softsim/model/model.hpp
    softsim/io/read_mesh.hpp)

function(softsim_header_closure out)
  set(todo ${SOFTSIM_PUBLIC_HEADERS})
  set(seen)
  while(todo)
    list(POP_FRONT todo header)
    if(header IN_LIST seen)
      continue()
    endif()
    if(NOT EXISTS ${PROJECT_SOURCE_DIR}/src/${header})
      message(FATAL_ERROR "public header ${header} does not exist")
    endif()
    list(APPEND seen ${header})
    # Re-run the closure when a header's includes change (else a new include is not installed).
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${header})
    file(STRINGS ${PROJECT_SOURCE_DIR}/src/${header} includes REGEX "^#include \"softsim/")
    foreach(line ${includes})
      string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" included "${line}")
      list(APPEND todo ${included})
    endforeach()
  endwhile()
  list(SORT seen)
  set(${out} ${seen} PARENT_SCOPE)
endfunction()

softsim_header_closure(SOFTSIM_INSTALLED_HEADERS)
foreach(header ${SOFTSIM_INSTALLED_HEADERS})
  get_filename_component(dir ${header} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/src/${header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${dir})
endforeach()

set_target_properties(softsim_lib PROPERTIES OUTPUT_NAME softsim EXPORT_NAME softsim)
add_library(softsim::softsim ALIAS softsim_lib)
install(TARGETS softsim_lib EXPORT softsimTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS softsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
set(SOFTSIM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/softsim)
install(EXPORT softsimTargets NAMESPACE softsim:: DESTINATION ${SOFTSIM_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/softsimConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/softsimConfig.cmake INSTALL_DESTINATION ${SOFTSIM_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/softsimConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/softsimConfig.cmake ${PROJECT_BINARY_DIR}/softsimConfigVersion.cmake
        DESTINATION ${SOFTSIM_CMAKE_DIR})

# The Python tools behind softsim view and softsim plot, found by the CLI at <prefix>/share/softsim/tools.
install(FILES ${PROJECT_SOURCE_DIR}/python/softsim/view.py ${PROJECT_SOURCE_DIR}/python/softsim/plot.py
        DESTINATION ${CMAKE_INSTALL_DATADIR}/softsim/tools)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/softsim/web DESTINATION ${CMAKE_INSTALL_DATADIR}/softsim/tools)
