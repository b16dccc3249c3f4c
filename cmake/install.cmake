# `cmake --install`: the headers, the static libraries (the SPIR-V embedded in xreduce_shaders)
# and the package files find_package(xreduce) reads (cmake/xreduceConfig.cmake.in), all under the
# prefix and relative to it: the installed tree can be moved.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(XR_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/xreduce)

set_target_properties(xreduce_core PROPERTIES EXPORT_NAME core)
# Core's public headers alone (core/public_headers.txt): the rest are no API of the package. A
# change to the list configures again, so an existing build installs what it now names.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS core/public_headers.txt)
file(STRINGS core/public_headers.txt _xr_public REGEX "^[^#]")
list(TRANSFORM _xr_public PREPEND core/include/xreduce/)
install(FILES ${_xr_public} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/xreduce)
install(TARGETS xreduce_core EXPORT xreduceTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(XR_HAVE_VULKAN)
  set_target_properties(xreduce_shaders PROPERTIES EXPORT_NAME shaders)
  install(DIRECTORY vulkan_backend/library/include/xreduce
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(TARGETS xreduce_vulkan xreduce_shaders EXPORT xreduceTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
install(EXPORT xreduceTargets NAMESPACE xreduce:: DESTINATION ${XR_INSTALL_CMAKEDIR})

if(XR_HAVE_OPENCL)
  install(DIRECTORY opencl_backend/library/include/xreduce DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(TARGETS xreduce_opencl EXPORT xreduceOpenclTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT xreduceOpenclTargets NAMESPACE xreduce:: DESTINATION ${XR_INSTALL_CMAKEDIR})
endif()

if(XR_HAVE_CUDA)
  install(DIRECTORY cuda_backend/library/include/xreduce DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(TARGETS xreduce_cuda EXPORT xreduceCudaTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT xreduceCudaTargets NAMESPACE xreduce:: DESTINATION ${XR_INSTALL_CMAKEDIR})
endif()

configure_package_config_file(cmake/xreduceConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/xreduceConfig.cmake
                              INSTALL_DESTINATION ${XR_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the API (semantic versioning's rule before 1.0).
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/xreduceConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/xreduceConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/xreduceConfigVersion.cmake
        DESTINATION ${XR_INSTALL_CMAKEDIR})
