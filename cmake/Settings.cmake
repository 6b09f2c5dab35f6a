# Compiler settings linked only into podcrawl's own targets, never into dependencies.
add_library(podcrawl_settings INTERFACE)
target_compile_options(podcrawl_settings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Woverloaded-virtual
  -Wimplicit-fallthrough -Wformat=2)
if(PODCRAWL_WERROR)
  target_compile_options(podcrawl_settings INTERFACE -Werror)
endif()
target_compile_definitions(podcrawl_settings INTERFACE
  $<$<CONFIG:Debug>:_GLIBCXX_ASSERTIONS>
  PODCRAWL_VERSION="${PROJECT_VERSION}")
target_include_directories(podcrawl_settings INTERFACE "${PROJECT_SOURCE_DIR}/include")

if(PODCRAWL_SANITIZE)
  string(REPLACE "," ";" _podcrawl_sanitizers "${PODCRAWL_SANITIZE}")
  foreach(_s IN LISTS _podcrawl_sanitizers)
    target_compile_options(podcrawl_settings INTERFACE -fsanitize=${_s})
    target_link_options(podcrawl_settings INTERFACE -fsanitize=${_s})
  endforeach()
  target_compile_options(podcrawl_settings INTERFACE -fno-omit-frame-pointer -fno-sanitize-recover=all)
  # Sanitized programs reserve terabytes of address space, use several times the memory and
  # run slower: tests keep their safety checks but skip resource bounds under this definition.
  target_compile_definitions(podcrawl_settings INTERFACE PODCRAWL_SANITIZED)
endif()

# podcrawl_module(NAME SOURCES... DEPENDS ...): one static library per module, src/<name>/.
function(podcrawl_module name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
  add_library(podcrawl_${name} STATIC ${ARG_SOURCES})
  target_link_libraries(podcrawl_${name} PUBLIC podcrawl_settings ${ARG_DEPENDS})
  target_include_directories(podcrawl_${name} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
endfunction()
