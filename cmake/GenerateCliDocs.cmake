# Build step: the man page and the bash completion, written from the CLI's own help, so that they
# say what the executable does and nothing else. Run by CMake after `threadlab` is linked:
#   cmake -DTHREADLAB=<exe> -DMAN_PAGE=<threadlab.1> -DCOMPLETION=<threadlab.bash>
#         -DVERSION=<x.y.z> -DDATE=<YYYY-MM-DD> -P GenerateCliDocs.cmake
# The help text is CLI11's: a "Subcommands:" section of "  name   description" lines, and
# "Options:" lines whose flags start with "-". Commands are read two levels deep (`lab check`).
cmake_minimum_required(VERSION 3.25)
foreach(var THREADLAB MAN_PAGE COMPLETION VERSION DATE)
  if(NOT ${var})
    message(FATAL_ERROR "GenerateCliDocs.cmake needs -D${var}")
  endif()
endforeach()

function(help_of out)
  execute_process(COMMAND "${THREADLAB}" ${ARGN} --help OUTPUT_VARIABLE text ERROR_VARIABLE error
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "threadlab ${ARGN} --help failed (${status}): ${error}")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The names under "Subcommands:" (lines "  name   description"), in order.
function(subcommands_of out text)
  set(names)
  set(in_section OFF)
  string(REPLACE ";" "\\;" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  foreach(line IN LISTS lines)
    if(line MATCHES "^Subcommands:")
      set(in_section ON)
    elseif(in_section AND line MATCHES "^  ([a-z][a-z0-9-]*)  ")
      list(APPEND names "${CMAKE_MATCH_1}")
    elseif(in_section AND NOT line MATCHES "^ ")
      set(in_section OFF)
    endif()
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

# Every long flag of a help text: "--lesson", "--no-check".
function(flags_of out text)
  string(REGEX MATCHALL "(^|[ ,\n])--[a-z][a-z0-9-]*" found "${text}")
  set(flags)
  foreach(f IN LISTS found)
    string(REGEX REPLACE "^[ ,\n]" "" f "${f}")
    list(APPEND flags "${f}")
  endforeach()
  list(REMOVE_DUPLICATES flags)
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

# Text as roff shows it verbatim: backslashes doubled as \e, a line starting with . or ' guarded.
function(roff out text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

help_of(top)
subcommands_of(commands "${top}")
roff(top_roff "${top}")
set(man ".TH THREADLAB 1 \"${DATE}\" \"ThreadLab ${VERSION}\" \"User Commands\"\n")
string(APPEND man ".SH NAME\nthreadlab \\- learn CUDA by running real kernels and seeing which thread computed what\n")
string(APPEND man ".SH SYNOPSIS\n.B threadlab\n[\\fIOPTIONS\\fR] [\\fICOMMAND\\fR [\\fIOPTIONS\\fR]]\n")
string(APPEND man ".SH DESCRIPTION\nWithout a command, the window opens: lessons that launch real CUDA kernels with the grid and block you choose and draw which thread computed which element, and the Kernel Lab, whose hidden checks judge your own kernels on an NVIDIA GPU or on the CPU emulator that runs the same source. Each command below is what its own \\fB\\-\\-help\\fR prints.\n")
string(APPEND man ".PP\n.nf\n${top_roff}.fi\n.SH COMMANDS\n")
set(completion_cases "")
foreach(command IN LISTS commands)
  help_of(text ${command})
  roff(text_roff "${text}")
  string(APPEND man ".SS threadlab ${command}\n.nf\n${text_roff}.fi\n")
  flags_of(flags "${text}")
  subcommands_of(children "${text}")
  list(JOIN flags " " flag_words)
  list(JOIN children " " child_words)
  string(APPEND completion_cases "    ${command}) words=\"${child_words} ${flag_words}\" ;;\n")
  foreach(child IN LISTS children)
    help_of(child_text ${command} ${child})
    roff(child_roff "${child_text}")
    string(APPEND man ".SS threadlab ${command} ${child}\n.nf\n${child_roff}.fi\n")
    flags_of(child_flags "${child_text}")
    list(JOIN child_flags " " child_flag_words)
    string(APPEND completion_cases "    \"${command} ${child}\") words=\"${child_flag_words}\" ;;\n")
  endforeach()
endforeach()
string(APPEND man ".SH EXIT STATUS\n0 success; 1 a failed check or a refused run (the reason on one line); 2 bad usage.\n")
string(APPEND man ".SH ENVIRONMENT\n.TP\n.B THREADLAB_FONT_DIR\nColon-separated folders searched first for the window's fonts.\n.TP\n.B XDG_DATA_HOME\nWhere the Kernel Lab keeps your files and progress (\\fI$XDG_DATA_HOME/threadlab/lab\\fR, else \\fI~/.local/share/threadlab/lab\\fR).\n")
string(APPEND man ".SH FILES\n.TP\n.I /usr/share/threadlab/demos\nThe demo scripts (\\fBthreadlab demo\\fR).\n")
string(APPEND man ".SH SEE ALSO\n\\fBnvcc\\fR(1), \\fBcompute-sanitizer\\fR(1)\n")
file(WRITE "${MAN_PAGE}" "${man}")

list(JOIN commands " " command_words)
file(WRITE "${COMPLETION}" "# bash completion for threadlab, generated from its own --help (cmake/GenerateCliDocs.cmake).
_threadlab() {
  local cur=\"\${COMP_WORDS[COMP_CWORD]}\" prev=\"\${COMP_WORDS[COMP_CWORD-1]}\" words=\"\"
  if [[ \"\${prev}\" == --lesson ]]; then
    COMPREPLY=(\$(compgen -W \"\$(threadlab lessons 2>/dev/null | awk '\$1 ~ /^[0-9]+[.]$/ { print \$2 }')\" -- \"\${cur}\"))
    return
  fi
  local command=\"\" sub=\"\" i
  for ((i = 1; i < COMP_CWORD; ++i)); do
    case \"\${COMP_WORDS[i]}\" in
      -*) ;;
      *) if [[ -z \"\${command}\" ]]; then command=\"\${COMP_WORDS[i]}\"; elif [[ -z \"\${sub}\" ]]; then sub=\"\${COMP_WORDS[i]}\"; fi ;;
    esac
  done
  local key=\"\${command}\"
  [[ -n \"\${sub}\" ]] && key=\"\${command} \${sub}\"
  case \"\${key}\" in
${completion_cases}    \"\") words=\"${command_words} --help --version\" ;;
    *) words=\"\" ;;
  esac
  COMPREPLY=(\$(compgen -W \"\${words}\" -- \"\${cur}\"))
}
complete -o default -F _threadlab threadlab
")
