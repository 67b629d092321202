#!/usr/bin/env bash
# Start a real SMTP server (aiosmtpd) and a real IMAP server (dovecot) on
# 127.0.0.1 for the integration tests, both on one Maildir. Prints the
# environment the tests read; `source <(scripts/mailservers.sh start DIR)`.
#   scripts/mailservers.sh start DIR   start both and print exports
#   scripts/mailservers.sh stop DIR    stop both
# Ports: UMPIRE_SMTP_PORT and UMPIRE_IMAP_PORT (default: free ports found
# here), so servers left running elsewhere never answer for these tests.
set -euo pipefail
cmd=${1:-start}
dir=$(realpath -m "${2:-/tmp/umpire-mail}")
venv=${UMPIRE_VENV:-/opt/umpire-venv}

. "$(dirname "$0")/ports.sh"

if [ "$cmd" = stop ]; then
  [ -f "$dir/smtp.pid" ] && kill "$(cat "$dir/smtp.pid")" 2>/dev/null || true
  [ -f "$dir/run/master.pid" ] && kill "$(cat "$dir/run/master.pid")" 2>/dev/null || true
  exit 0
fi

smtp_port=${UMPIRE_SMTP_PORT:-$(free_port)}
imap_port=${UMPIRE_IMAP_PORT:-$(free_port)}
if up "$smtp_port" || up "$imap_port"; then
  echo "port $smtp_port or $imap_port is already taken; set UMPIRE_SMTP_PORT/UMPIRE_IMAP_PORT" >&2
  exit 1
fi

mkdir -p "$dir/Maildir/cur" "$dir/Maildir/new" "$dir/Maildir/tmp" "$dir/run" "$dir/state"
chmod -R a+rwX "$dir"
cat > "$dir/dovecot.conf" <<CONF
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
base_dir = $dir/run
state_dir = $dir/state
log_path = $dir/dovecot.log
default_internal_user = nobody
default_login_user = nobody
mail_location = maildir:$dir/Maildir
mail_uid = nobody
mail_gid = nogroup
first_valid_uid = 0
service anvil {
  chroot =
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = $imap_port
  }
}
passdb {
  driver = static
  args = password=secret
}
userdb {
  driver = static
  args = uid=nobody gid=nogroup home=$dir
}
CONF

dovecot -c "$dir/dovecot.conf"
nohup "$venv/bin/python" -m aiosmtpd -n -l "127.0.0.1:$smtp_port" \
  -c aiosmtpd.handlers.Mailbox "$dir/Maildir" >"$dir/smtp.log" 2>&1 &
echo $! > "$dir/smtp.pid"
for _ in $(seq 1 100); do
  if up "$imap_port" && up "$smtp_port"; then break; fi
  sleep 0.1
done
up "$imap_port" || { echo "dovecot did not start: see $dir/dovecot.log" >&2; exit 1; }
up "$smtp_port" || { echo "aiosmtpd did not start: see $dir/smtp.log" >&2; exit 1; }
echo "export UMPIRE_TEST_SMTP=127.0.0.1:$smtp_port"
echo "export UMPIRE_TEST_IMAP=127.0.0.1:$imap_port"
echo "export UMPIRE_TEST_MAILDIR=$dir/Maildir"
