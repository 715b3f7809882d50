# SPDX-License-Identifier: Apache-2.0
# Writes the manual page dxtext.1 from the command line's own help text, so
# that the page and `dxtext help` cannot drift apart. Run at build time by
# tools/CMakeLists.txt:
#
#   cmake -DDXTEXT=path/to/dxtext -DVERSION=x.y.z -DOUT=dxtext.1 -P DxtManPage.cmake
foreach(v DXTEXT VERSION OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "DxtManPage.cmake needs -D${v}=...")
  endif()
endforeach()

# roff: a backslash is written \e, and a line starting with '.' or "'"
# would be read as a request, so \& goes before it.
function(dxt_roff_escape text out)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

execute_process(COMMAND ${DXTEXT} help OUTPUT_VARIABLE usage RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR usage STREQUAL "")
  message(FATAL_ERROR "'${DXTEXT} help' failed (${rc}): no manual page")
endif()
# The first line ("usage: dxtext COMMAND [OPTIONS]") is the synopsis.
string(REGEX REPLACE "^usage: [^\n]*\n\n?" "" body "${usage}")
dxt_roff_escape("${body}" body)

set(page ".TH DXTEXT 1 \"\" \"dxtext ${VERSION}\" \"User Commands\"
.SH NAME
dxtext \\- privatise text under metric differential privacy
.SH SYNOPSIS
.B dxtext
.I COMMAND
[\\fIOPTIONS\\fR]
.SH DESCRIPTION
dxtext replaces each word of a text by a random nearby word under metric
differential privacy, before the text leaves the device, and can print the
release record: the guarantee given and what the output still reveals.
The commands and options below are those of
.BR \"dxtext help\" ;
.B dxtext help
.I COMMAND
prints one command's.
.SH COMMANDS AND OPTIONS
.nf
${body}.fi
.SH ENVIRONMENT
.TP
.B DXTEXT_MODEL
the model file used when no \\fB\\-\\-model\\fR is given.
.TP
.B XDG_DATA_DIRS
where the default models are looked for (under \\fIdxtext/models\\fR) by a
program that links the static library; default /usr/local/share:/usr/share.
.SH EXIT STATUS
0 on success, 2 for a usage mistake (an unknown or repeated option, a value
out of range), 1 for any other error; errors are one line on standard error.
.SH FILES
.TP
.I /usr/share/dxtext/models/
the default models (with the Debian package).
.TP
.I /usr/share/doc/dxtext/
README.md and docs/: the guarantees, the threat model, budgets (the ledger),
calibration, the options and the format specification.
.SH SEE ALSO
README.md and docs/ in /usr/share/doc/dxtext (with the Debian package) or in
the source tree.
")
file(WRITE "${OUT}" "${page}")
