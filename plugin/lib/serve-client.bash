# baton's client of a running `baton serve` (docs/serve.md), run by plugin/bin/baton as
#   bash serve-client.bash SERVE_JSON PATH WRAPPER ARGS...
# for a hook or the status line. bash alone: the request goes through bash's /dev/tcp and the answer
# is read with `read`, so no curl (about 9 ms of CPU to start) and, for a status line, no fork at
# all. Whenever the server cannot give a believable answer (gone, killed, slow, out of shape, a port
# now held by another program, or a hook answer whose tag does not prove the server holds the key of
# src/serve/answer-key.ts), the wrapper runs again with BATON_SERVE_SKIP=1 and the same payload, and
# baton judges in process: a gated event is judged either way.
trap '' PIPE # a server that hangs up mid-request is a failed answer, never a killed hook
LC_ALL=C     # ${#payload} in bytes, as Content-Length wants
serve=$1 path=$2 wrapper=$3
shift 3
# cat, not $(</dev/stdin): hosts started by Node give stdin as a socket, which /dev/stdin cannot open.
payload=$(cat)
fallback() {
  disarm
  exec 3>&-
  BATON_SERVE_SKIP=1 exec sh "$wrapper" "$@" <<<"$payload"
}
RS=$'\x1e'
wd=
disarm() {
  # Waited for, so no alarm of its can reach this pid once the wrapper runs here in process.
  [ -n "$wd" ] && kill "$wd" 2>/dev/null && wait "$wd"
  wd=
}

IFS= read -r line <"$serve" || fallback "$@"
url=${line#*\"url\":\"} url=${url%%\"*}
token=${line#*\"token\":\"} token=${token%%\"*}
pid=${line#*\"pid\":} pid=${pid%%[!0-9]*}
port=${url#http://127.0.0.1:}
case $port in '' | *[!0-9]*) fallback "$@" ;; esac
# A dead pid: the port may be another program's now.
[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || fallback "$@"

# Within the host's hook timeout (plugin/hooks/hooks.json), leaving time to judge in process.
case $1:$2 in
statusline:*) limit=2 ;;
*:Stop | *:AfterAgent) limit=240 ;;
*:PreCompact) limit=12 ;;
*:SubagentStop) limit=7 ;;
*:SessionEnd) limit=1 ;;
*) limit=3 ;;
esac

if [ "$1" = hook ]; then
  # The key never leaves this machine's user: it is read here and hashed below, never sent.
  keyfile=${XDG_STATE_HOME:-$HOME/.local/state}/baton/serve.key
  IFS= read -r key <"$keyfile" || fallback "$@"
  case $key in '' | *[!A-Za-z0-9_-]*) fallback "$@" ;; esac
  # A payload holding the separator could shift the fields of the signed text; hosts send JSON, which never does.
  case $payload in *"$RS"*) fallback "$@" ;; esac
  if [ -n "$SRANDOM" ]; then
    printf -v nonce '%08x%08x%08x%08x' "$SRANDOM" "$SRANDOM" "$SRANDOM" "$SRANDOM"
  else
    nonce=$(od -An -N16 -tx1 /dev/urandom) nonce=${nonce//[!0-9a-f]/}
  fi
  path="$path&nonce=$nonce"
fi

# connect() has no timeout here: a live server that does not accept (stopped, its backlog full)
# holds it for the kernel's SYN retries (~2 min), past the host's hook timeout, and a timed-out
# PreToolUse hook lets the call through. An alarm from a watchdog interrupts whichever of connect,
# write and read still blocks after $limit (bash installs a trap without SA_RESTART), so that step
# fails and the wrapper judges in process. Its sleep is killed with it, and it holds none of the
# host's pipes, so nothing of it outlives the hook.
trap : USR1
{
  trap 'kill $! 2>/dev/null; exit' TERM # $! is this sleep's: the script starts no job before
  # The wait is a read on a new pty's master, which nothing ever writes: no sleep to exec (about
  # 1 ms of CPU per call); sleep only where no pty can be opened.
  read -r -t "$limit" </dev/ptmx
  [ $? -gt 128 ] || {
    sleep "$limit" &
    wait
  }
  kill -USR1 $$
} </dev/null >/dev/null 2>&1 &
wd=$!
# (A redirection on exec itself would stay for the whole script: the braces keep it to this line.)
{ exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || fallback "$@"
printf 'POST /%s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %s\r\nConnection: close\r\n\r\n%s' \
  "$path" "$port" "$token" "${#payload}" "$payload" >&3 2>/dev/null || fallback "$@"
IFS= read -r -d '' -t "$limit" answer <&3
# 1: the server closed the connection after its answer; anything else (a timeout: >128) is no answer.
[ $? = 1 ] || fallback "$@"
disarm
exec 3>&-
case $answer in "HTTP/1.1 200 "*) ;; *) fallback "$@" ;; esac
body=${answer#*$'\r\n\r\n'}

if [ "$1" = hook ]; then
  tag=${body: -64}
  case $tag in *[!0-9a-f]* | '') fallback "$@" ;; esac
  body=${body%"$tag"}
  sum=$(sha256sum <<<"$key$RS/$path$RS$payload$RS$body$key") || fallback "$@"
  [ "${sum%% *}" = "$tag" ] || fallback "$@"
fi

# stdout RS stderr RS code RS
case $body in *"$RS"*"$RS"*"$RS") ;; *) fallback "$@" ;; esac
rest=${body%"$RS"}
code=${rest##*"$RS"} rest=${rest%"$RS"*}
case $code in [0-9] | [0-9][0-9] | [0-9][0-9][0-9]) ;; *) fallback "$@" ;; esac
printf '%s' "${rest%%"$RS"*}"
printf '%s' "${rest#*"$RS"}" >&2
exit "$code"
