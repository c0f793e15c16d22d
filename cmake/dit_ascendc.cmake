# dit_ascendc.cmake: builds the kernels that `dit-opt --emit=ascendc` generated.
#
# Set by the generated CMakeLists.txt: DIT_KERNEL_NAMES (kernels/<name>.cpp), DIT_UB_BYTES,
# DIT_CORE_NUM, DIT_HOST_OBJECT (host/model.o or empty), DIT_CPU_MODEL, SOC_VERSION,
# ASCEND_HOME_PATH, DIT_RUNTIME_LIB.
#
# CANN (default): the toolkit named by ASCEND_HOME_PATH (the variable, else the environment;
# `source <toolkit>/set_env.sh` sets it) compiles the kernels with its ascendc CMake support
# (ascendc_library from compiler/tikcpp/ascendc_kernel_cmake) for SOC_VERSION, and
# libdit_kernels.so launches them with ACLRT_LAUNCH_KERNEL.
#
# CPU model (-DDIT_CPU_MODEL=ON): the same kernel sources compile with the host C++ compiler
# against include/kernel_operator.h, a model of the Ascend C API that checks the UB size,
# alignment and queue rules, and libdit_kernels.so runs the kernels on the CPU.

set(_dit_dir ${CMAKE_CURRENT_SOURCE_DIR})
set(_dit_kernel_sources "")
foreach(_k IN LISTS DIT_KERNEL_NAMES)
  list(APPEND _dit_kernel_sources ${_dit_dir}/kernels/${_k}.cpp)
endforeach()
list(LENGTH DIT_KERNEL_NAMES _dit_count)

if(DIT_CPU_MODEL)
  message(STATUS "dit: ${_dit_count} kernel(s) for ${DIT_TARGET}, built against the CPU model of Ascend C (UB ${DIT_UB_BYTES} bytes)")
  add_library(dit_kernels SHARED ${_dit_kernel_sources} ${_dit_dir}/host/dit_kernels.cpp)
  target_compile_features(dit_kernels PRIVATE cxx_std_17)
  target_compile_definitions(dit_kernels PRIVATE DIT_CPU_MODEL DIT_UB_BYTES=${DIT_UB_BYTES} DIT_CORE_NUM=${DIT_CORE_NUM})
  target_include_directories(dit_kernels PRIVATE ${_dit_dir}/include ${_dit_dir}/kernels ${_dit_dir}/host)
else()
  if(NOT ASCEND_HOME_PATH)
    set(ASCEND_HOME_PATH "$ENV{ASCEND_HOME_PATH}")
  endif()
  if(NOT ASCEND_HOME_PATH)
    message(FATAL_ERROR
      "CANN toolkit not found: ASCEND_HOME_PATH is not set. Source the toolkit's environment "
      "(e.g. `source /usr/local/Ascend/ascend-toolkit/set_env.sh`) or pass "
      "-DASCEND_HOME_PATH=<toolkit>; to build the kernels here without CANN, configure with "
      "-DDIT_CPU_MODEL=ON (the CPU model of the Ascend C API).")
  endif()
  set(ASCEND_CANN_PACKAGE_PATH ${ASCEND_HOME_PATH})
  if(EXISTS ${ASCEND_CANN_PACKAGE_PATH}/compiler/tikcpp/ascendc_kernel_cmake)
    set(ASCENDC_CMAKE_DIR ${ASCEND_CANN_PACKAGE_PATH}/compiler/tikcpp/ascendc_kernel_cmake)
  elseif(EXISTS ${ASCEND_CANN_PACKAGE_PATH}/tools/tikcpp/ascendc_kernel_cmake)
    set(ASCENDC_CMAKE_DIR ${ASCEND_CANN_PACKAGE_PATH}/tools/tikcpp/ascendc_kernel_cmake)
  else()
    message(FATAL_ERROR
      "CANN toolkit without ascendc_kernel_cmake: neither "
      "${ASCEND_CANN_PACKAGE_PATH}/compiler/tikcpp nor ${ASCEND_CANN_PACKAGE_PATH}/tools/tikcpp "
      "has it; ASCEND_HOME_PATH must name the toolkit (ascend-toolkit/latest), not the runtime "
      "or the driver.")
  endif()
  set(RUN_MODE "npu" CACHE STRING "ascendc run mode")
  message(STATUS "dit: ${_dit_count} kernel(s) for ${DIT_TARGET}, built with ascendc for ${SOC_VERSION} (CANN at ${ASCEND_CANN_PACKAGE_PATH})")
  include(${ASCENDC_CMAKE_DIR}/ascendc.cmake)
  ascendc_library(dit_ascendc_kernels STATIC ${_dit_kernel_sources})
  ascendc_include_directories(dit_ascendc_kernels PRIVATE ${_dit_dir}/kernels)
  add_library(dit_kernels SHARED ${_dit_dir}/host/dit_kernels.cpp)
  target_compile_features(dit_kernels PRIVATE cxx_std_17)
  target_compile_definitions(dit_kernels PRIVATE DIT_UB_BYTES=${DIT_UB_BYTES} DIT_CORE_NUM=${DIT_CORE_NUM})
  target_include_directories(dit_kernels PRIVATE ${_dit_dir}/kernels ${_dit_dir}/host ${ASCEND_CANN_PACKAGE_PATH}/include)
  target_link_directories(dit_kernels PRIVATE ${ASCEND_CANN_PACKAGE_PATH}/lib64)
  target_link_libraries(dit_kernels PRIVATE dit_ascendc_kernels ascendcl)
endif()

# The lowered host code: its entry points call the dit runtime (dit_rt_*), whose dit.fused
# launches reach libdit_kernels.so.
if(DIT_HOST_OBJECT)
  add_library(dit_model SHARED ${_dit_dir}/${DIT_HOST_OBJECT})
  set_target_properties(dit_model PROPERTIES LINKER_LANGUAGE C)
  target_link_libraries(dit_model PRIVATE dit_kernels)
  if(DIT_RUNTIME_LIB)
    target_link_libraries(dit_model PRIVATE ${DIT_RUNTIME_LIB} pthread dl m)
  endif()
endif()
