# mimalloc in place of glibc's malloc for the executables that only run the reference
# (issue 30). A program's run makes and frees thousands of small objects (its modules'
# builtins, the parse tree, the graph), and glibc's allocator was about half of the
# instructions of a small program's run; mimalloc, linked as a shared library ahead of
# libc, takes over malloc for the whole process. Measured with `tdc_bench`
# (LD_PRELOAD, one run each): a small program 220 -> 136 us, parsing 1000 statements
# 1.97 -> 1.28 ms.
#
# Not with the sanitizers (ASan must own malloc), and not for executables that embed
# CPython or load a vendor's backend (tdconform): their allocator is the vendor's business.
option(TDC_MIMALLOC "Link the reference-only executables against mimalloc" ON)
if(TDC_SANITIZE OR TDC_BUILD_FUZZ)
  set(TDC_MIMALLOC OFF)
endif()
if(TDC_MIMALLOC)
  find_package(mimalloc 2.0 REQUIRED)  # Debian: libmimalloc-dev (ci/setup)
endif()

# tdc_use_mimalloc(target): links `target` against the shared mimalloc when TDC_MIMALLOC
# is on. --no-as-needed: the executable calls no mimalloc function by name, and the
# library must stay among its DT_NEEDED entries to interpose malloc.
function(tdc_use_mimalloc target)
  if(TDC_MIMALLOC)
    target_link_libraries(${target} PRIVATE -Wl,--no-as-needed mimalloc -Wl,--as-needed)
  endif()
endfunction()
