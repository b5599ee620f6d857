# Helpers the bench scripts share (sourced, not run).

field() {  # field FILE KEY -> value of a top-level JSON number, bool or string (unquoted)
  grep -o "\"$2\": *[^,}]*" "$1" | head -1 | sed 's/.*: *//; s/"//g'
}
