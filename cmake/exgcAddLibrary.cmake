# exgcAddLibrary.cmake - exgc_add_library(), the build rule for .exg files.
#
#   exgc_add_library(<target> <file.exg>... [BACKEND cuda|cpp] [PROCS name...]
#                    [INCLUDE_DIRS dir...])
#
# Compiles each .exg file with exgc::exgc into <file>.cu (BACKEND cuda, the
# default) or the CPU reference <file>.cpp (BACKEND cpp), each with the
# header <file>.h of its extern "C" functions, and makes a static library of
# them whose include path has the headers. PROCS compiles only those procs
# (exgc -e); INCLUDE_DIRS are searched for imported modules (exgc -I) before
# the stdlib. exgc writes a dependency file (-MD) listing every module it
# read, so editing an imported .exg rebuilds the files that import it.
# BACKEND cuda needs the CUDA language enabled and builds for sm_90a.
include_guard(GLOBAL)

function(exgc_add_library target)
  cmake_parse_arguments(PARSE_ARGV 1 EXGC "" "BACKEND" "PROCS;INCLUDE_DIRS")
  if(NOT EXGC_BACKEND)
    set(EXGC_BACKEND cuda)
  endif()
  if(EXGC_BACKEND STREQUAL "cuda")
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

  set(flags ${emit})
  foreach(dir IN LISTS EXGC_INCLUDE_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND flags "-I${dir}")
  endforeach()
  foreach(proc IN LISTS EXGC_PROCS)
    list(APPEND flags -e "${proc}")
  endforeach()

  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/${target}.exgc")
  file(MAKE_DIRECTORY "${out_dir}")
  set(generated)
  foreach(src IN LISTS EXGC_UNPARSED_ARGUMENTS)
    get_filename_component(src "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(stem "${src}" NAME_WE)
    set(code "${out_dir}/${stem}.${ext}")
    set(header "${out_dir}/${stem}.h")
    set(depfile_args)
    if(CMAKE_GENERATOR MATCHES "Ninja|Makefiles")
      set(depfile_args DEPFILE "${code}.d")
    endif()
    add_custom_command(
      OUTPUT "${code}" "${header}"
      COMMAND exgc::exgc ${flags} -MD -MF "${code}.d" -o "${code}" "${src}"
      DEPENDS "${src}" exgc::exgc
      ${depfile_args}
      COMMENT "exgc ${EXGC_BACKEND}: ${stem}.exg"
      VERBATIM)
    list(APPEND generated "${code}" "${header}")
  endforeach()

  add_library(${target} STATIC ${generated})
  target_include_directories(${target} PUBLIC "${out_dir}")
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
