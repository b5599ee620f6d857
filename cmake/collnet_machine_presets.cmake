# SPDX-License-Identifier: Apache-2.0
# The machine presets (machines/*.json), built into collnet (cli/machine_file.hpp): each
# file's text as a raw string, so that `--machine bgl` needs no file beside the binary.
# Writes `out` (a C++ source) from cli/machine_presets.cpp.in; the main build and the fuzz
# build both call it.
function(collnet_machine_presets root out)
  file(GLOB files CONFIGURE_DEPENDS ${root}/machines/*.json)
  list(SORT files)
  set(COLLNET_MACHINE_PRESETS "")
  foreach(file ${files})
    get_filename_component(name ${file} NAME_WE)
    file(READ ${file} text)
    string(APPEND COLLNET_MACHINE_PRESETS "      {\"${name}\", R\"collnet_json(${text})collnet_json\"},\n")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${file})
  endforeach()
  configure_file(${root}/cli/machine_presets.cpp.in ${out} @ONLY)
endfunction()
