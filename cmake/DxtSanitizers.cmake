# SPDX-License-Identifier: Apache-2.0
# dxt_apply_sanitizers(target): adds -fsanitize=${DXT_SANITIZE} when set.
function(dxt_apply_sanitizers target)
  if(DXT_SANITIZE)
    get_target_property(type ${target} TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY")
      return()
    endif()
    target_compile_options(${target} PRIVATE -fsanitize=${DXT_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
    target_link_options(${target} PUBLIC -fsanitize=${DXT_SANITIZE})
  endif()
endfunction()
