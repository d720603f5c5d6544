# exgcAddLibrary.cmake - exgc_add_library(), the build rule for .exg files.
#
#   exgc_add_library(<target> <file.exg>... [BACKEND cuda|cpp] [PROCS name...]
#                    [INCLUDE_DIRS dir...] [CHECK_SIZES n]
#                    [FUNCTION_PREFIX prefix] [NAMESPACE ns] [DEFINES NAME=VALUE...])
#
# Compiles each .exg file with exgc::exgc into <file>.cu (BACKEND cuda, the
# default) or the CPU reference <file>.cpp (BACKEND cpp), each with the
# header <file>.h of its extern "C" functions, and makes a static library of
# them. The files go to <target>.exgc/<target>/ in the current binary
# folder, and the library's include path has both folders: a user includes
# "<target>/<file>.h", or "<file>.h" where no other library linked into the
# same target has a header of that name. PROCS compiles only those procs
# (exgc -e); INCLUDE_DIRS are searched for imported modules (exgc -I) before
# the stdlib. exgc writes a dependency file (-MD) listing every module it
# read, so editing an imported .exg rebuilds the files that import it.
# CHECK_SIZES n: the build also runs each file's differential test
# (exgc --emit=difftest: every schedule step against its input through the CPU
# reference) at n tuples of sizes per step, and fails when a step changed a
# result; the library is built only after it passed.
# Two libraries of one module (the app's BACKEND cuda and its test's BACKEND
# cpp) link into one program when their functions are named apart:
# FUNCTION_PREFIX p names each p<proc> (exgc --function-prefix), NAMESPACE ns
# declares them in the C++ namespace ns (`a` or `a::b`; exgc --namespace)
# instead of extern "C"; include each header as "<target>/<file>.h".
# DEFINES NAME=VALUE... sets top-level values of each file's schedules (exgc -D),
# for the code and its difftest alike.
# BACKEND cuda needs the CUDA language enabled and builds for sm_90a.
include_guard(GLOBAL)

# One exgc run writing `output` (and `header` when not empty) from `src`, with
# a dependency file so that the imported modules are dependencies too.
function(_exgc_compile src output header comment)
  set(depfile_args)
  if(CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
    set(depfile_args DEPFILE "${output}.d")
  endif()
  add_custom_command(
    OUTPUT "${output}" ${header}
    COMMAND exgc::exgc ${ARGN} -MD -MF "${output}.d" -o "${output}" "${src}"
    DEPENDS "${src}" exgc::exgc
    ${depfile_args}
    COMMENT "${comment}"
    VERBATIM)
endfunction()

function(exgc_add_library target)
  cmake_parse_arguments(PARSE_ARGV 1 EXGC "" "BACKEND;CHECK_SIZES;FUNCTION_PREFIX;NAMESPACE"
                        "PROCS;INCLUDE_DIRS;DEFINES")
  if(NOT EXGC_BACKEND)
    set(EXGC_BACKEND cuda)
  endif()
  if(EXGC_BACKEND STREQUAL "cuda")
    # Without CUDA, CMake would only say it "can not determine linker language".
    get_property(enabled_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
    if(NOT "CUDA" IN_LIST enabled_languages)
      message(FATAL_ERROR "exgc_add_library(${target}): BACKEND cuda compiles .cu files, and "
                          "CUDA is not a language of this project: add it to project(... "
                          "LANGUAGES CXX CUDA) or call enable_language(CUDA) first (or use "
                          "BACKEND cpp for the CPU reference)")
    endif()
    set(ext cu)
    set(emit --emit=cu)
  elseif(EXGC_BACKEND STREQUAL "cpp")
    set(ext cpp)
    set(emit --emit=cpp)
  else()
    message(FATAL_ERROR "exgc_add_library(${target}): BACKEND must be cuda or cpp, "
                        "not '${EXGC_BACKEND}'")
  endif()
  if(NOT EXGC_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "exgc_add_library(${target}): no .exg file given")
  endif()

  if(DEFINED EXGC_CHECK_SIZES AND NOT EXGC_CHECK_SIZES MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "exgc_add_library(${target}): CHECK_SIZES takes a positive number "
                        "of size tuples per step, not '${EXGC_CHECK_SIZES}'")
  endif()
  set(module_flags)
  foreach(dir IN LISTS EXGC_INCLUDE_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND module_flags "-I${dir}")
  endforeach()
  foreach(define IN LISTS EXGC_DEFINES)
    if(NOT define MATCHES "^[A-Za-z_][A-Za-z0-9_]*=")
      message(FATAL_ERROR "exgc_add_library(${target}): DEFINES takes NAME=VALUE, not '${define}'")
    endif()
    list(APPEND module_flags -D "${define}")
  endforeach()
  set(flags ${emit} ${module_flags})
  foreach(proc IN LISTS EXGC_PROCS)
    list(APPEND flags -e "${proc}")
  endforeach()
  if(EXGC_FUNCTION_PREFIX)
    list(APPEND flags "--function-prefix=${EXGC_FUNCTION_PREFIX}")
  endif()
  if(EXGC_NAMESPACE)
    list(APPEND flags "--namespace=${EXGC_NAMESPACE}")
  endif()

  # Headers in a folder of the target's name: two libraries of one module
  # each have their own <file>.h, as "<target>/<file>.h".
  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}.exgc")
  set(code_dir "${out_dir}/${target}")
  file(MAKE_DIRECTORY "${code_dir}")
  set(generated)
  set(checks)
  foreach(src IN LISTS EXGC_UNPARSED_ARGUMENTS)
    get_filename_component(src "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(stem "${src}" NAME_WE)
    set(code "${code_dir}/${stem}.${ext}")
    set(header "${code_dir}/${stem}.h")
    _exgc_compile("${src}" "${code}" "${header}" "exgc ${EXGC_BACKEND}: ${stem}.exg" ${flags})
    list(APPEND generated "${code}" "${header}")
    if(EXGC_CHECK_SIZES)
      set(difftest "${out_dir}/${stem}_difftest.cpp")
      _exgc_compile("${src}" "${difftest}" "" "exgc difftest: ${stem}.exg"
                    --emit=difftest ${module_flags})
      add_executable(${target}_${stem}_difftest "${difftest}")
      set_target_properties(${target}_${stem}_difftest PROPERTIES CXX_STANDARD 17)
      set(stamp "${out_dir}/${stem}_difftest.passed")
      add_custom_command(
        OUTPUT "${stamp}"
        COMMAND ${target}_${stem}_difftest --sizes=${EXGC_CHECK_SIZES}
        COMMAND ${CMAKE_COMMAND} -E touch "${stamp}"
        DEPENDS ${target}_${stem}_difftest
        COMMENT "exgc difftest: every schedule step of ${stem}.exg at ${EXGC_CHECK_SIZES} sizes"
        VERBATIM)
      list(APPEND checks "${stamp}")
    endif()
  endforeach()

  add_library(${target} STATIC ${generated})
  target_include_directories(${target} PUBLIC "${out_dir}" "${code_dir}")
  if(checks)
    add_custom_target(${target}_difftests DEPENDS ${checks})
    add_dependencies(${target} ${target}_difftests)
  endif()
  if(EXGC_BACKEND STREQUAL "cuda")
    find_package(CUDAToolkit REQUIRED)
    target_include_directories(${target} PRIVATE "${EXGC_RUNTIME_INCLUDE_DIR}")
    # compute_90a, not sm_90: a plain sm_90 pass rejects wgmma (docs/cli.md).
    set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES OFF CUDA_STANDARD 17)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CUDA>:-gencode=arch=compute_90a,code=sm_90a>)
    target_link_libraries(${target} PUBLIC CUDA::cudart)
  else()
    set_target_properties(${target} PROPERTIES CXX_STANDARD 17)
  endif()
endfunction()
