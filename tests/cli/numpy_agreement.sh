#!/bin/sh
# Runs numpy_agreement.py with the first python3 that has NumPy (a pyenv or venv python3 first on
# PATH often lacks it; Debian's /usr/bin/python3 has it with python3-numpy). 77: none has it.
for py in python3 /usr/bin/python3; do
  if "$py" -c "import numpy" >/dev/null 2>&1; then
    exec "$py" "$(dirname "$0")/numpy_agreement.py" "$@"
  fi
done
echo "skipped: no python3 with NumPy"
exit 77
