# shellcheck shell=bash
# Sourced by the scripts in scripts/: what each of them needs the same way.

# Print "scripts/<name>: <message>" on stderr and exit 1.
die() {
  echo "scripts/${0##*/}: $*" >&2
  exit 1
}

# Print the title of a step of a long run.
step() { printf '\n==> %s\n' "$*"; }

# A TCP port on 127.0.0.1 that nothing listens on now.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
