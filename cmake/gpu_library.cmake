# xr_gpu_library(<target> <export name> <sources>...): one of the package's GPU libraries, as each
# backend's library/ lays it out: public headers in include/ (installed, the package's
# xreduce::<export name>), private ones beside the sources, over core. With it, <target>_internal:
# the private headers for the tool's backend and the white-box tests, never installed.
include_guard(GLOBAL)

function(xr_gpu_library target export_name)
  add_library(${target} STATIC ${ARGN})
  target_include_directories(
    ${target} PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
                     $<INSTALL_INTERFACE:include> PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${target} PUBLIC xreduce_core)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name}
                                             POSITION_INDEPENDENT_CODE ON)
  xr_unity(${target})

  add_library(${target}_internal INTERFACE)
  target_include_directories(${target}_internal INTERFACE ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${target}_internal INTERFACE ${target})
endfunction()
