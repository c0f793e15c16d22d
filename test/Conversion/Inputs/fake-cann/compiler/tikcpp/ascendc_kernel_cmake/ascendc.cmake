# A stand-in for CANN's ascendc.cmake (test/Conversion/ascendc-cmake.mlir): records what the
# generated project asks of the ascendc toolchain, without compiling for the NPU.
function(ascendc_library name type)
  message(STATUS "ascendc_library(${name} ${type} ${ARGN})")
  add_library(${name} INTERFACE)
endfunction()
function(ascendc_include_directories name)
  message(STATUS "ascendc_include_directories(${name} ${ARGN})")
endfunction()
