# Sourced by the scripts that start test servers on 127.0.0.1: whether a
# port answers, and a free one.
up() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
  local p
  for _ in $(seq 1 200); do
    p=$((20000 + RANDOM % 40000))
    if ! up "$p"; then echo "$p"; return; fi
  done
  echo "no free port found" >&2; exit 1
}
