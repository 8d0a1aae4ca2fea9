# baton's client of a running `baton serve` (docs/serve.md), run by plugin/bin/baton as
#   bash serve-client.bash SERVE_JSON PATH WRAPPER ARGS...
# for a hook or the status line. bash alone: the request goes through bash's /dev/tcp and the answer
# is read with `read`, so no curl (about 9 ms of CPU to start); the only process it starts is the
# watchdog below (and, for a hook, one sha256sum). Whenever the server cannot give a believable
# answer (gone, killed, slow, out of shape, a port now held by another program, or a hook answer
# whose tag does not prove the server holds the key of src/serve/answer-key.ts), the wrapper runs
# again with BATON_SERVE_SKIP=1 and the same payload, and baton judges in process: a gated event is
# judged either way.
trap '' PIPE # a server that hangs up mid-request is a failed answer, never a killed hook
LC_ALL=C     # ${#payload} in bytes, as Content-Length wants
serve=$1 path=$2 wrapper=$3
shift 3
# Not $(</dev/stdin): hosts started by Node give stdin as a socket, which /dev/stdin cannot open.
# read -N (bash 4.1+) takes a pipe or socket in blocks, with no cat to fork and wait for; read -d ''
# would take a byte per read(2). Past 32 MiB + 1 it stops, and the rest is what baton's own bound
# refuses anyway (fs/bounded-read.ts).
blocks=
((BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1] >= 401)) && blocks=1
if [ -n "$blocks" ]; then IFS= read -r -N 33554433 payload; else payload=$(cat); fi
fallback() {
  # An alarm from here on must not start a second fallback (in disarm, with no arguments); once the
  # watchdog is gone, none can come, and the wrapper gets USR1 as it was.
  trap '' USR1
  disarm
  trap - USR1
  exec 3>&-
  # This very bash runs the wrapper ($BASH: its own path), never an `sh` looked up on a PATH that
  # may hold none: a failed exec would end the hook with nothing said, which lets a tool call through.
  BATON_SERVE_SKIP=1 exec "$BASH" "$wrapper" "$@" <<<"$payload"
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
# A server of another build (a rebuild, a plugin updated from git at the same version) would judge
# with other code: judged here instead. With BATON_SERVE (the plugin starts the server) a server of
# this build replaces it in the background, as a SessionStart would (`baton serve` stops one of
# another build): the hooks after it are answered by the new one. A serve.json with no build is
# another build's. One read of a 17-byte file (scripts/build-id.mjs writes it beside the bundle).
build=${line#*\"build\":\"} build=${build%%\"*}
dist=${BASH_SOURCE[0]%/*}/../dist
IFS= read -r own <"$dist/build-id" || own=
if [ -z "$own" ] || [ "$build" != "$own" ]; then
  [ -n "$BATON_SERVE" ] && command -v node >/dev/null 2>&1 && { node "$dist/cli.js" serve --detach </dev/null >/dev/null 2>&1 & }
  fallback "$@"
fi

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
  # The environment this session's `baton hook` would judge with, as src/harness/hooks/judged-env.ts
  # writes it: the server answers only when it judges with the same (else 409, and the fallback
  # judges here). Signed with the target, so no relay can swap it. Names bash cannot hold are not
  # in it; a variable so named makes Node's text differ, and the hook is judged in process.
  root=${serve%/.baton/serve.json}
  case $root in /*) ;; *) root=$PWD/$root ;; esac
  while [ "$root" != / ] && [ "${root%/}" != "$root" ]; do root=${root%/}; done
  envtext="ROOT=$root$RS"
  for name in ${!BATON_@} ${!STATE_@}; do
    case $name in BATON_SERVE | BATON_SERVE_SKIP | BATON_ROOT) ;; *) envtext+="$name=${!name}$RS" ;; esac
  done
  for name in CLAUDE_SCRATCHPAD_DIR CODEX_HOME GEMINI_CLI_TRUST_WORKSPACE HOME PATH TMPDIR TYPECHECK_DISABLE TYPECHECK_WARN_ONLY; do
    [ -n "${!name+set}" ] && envtext+="$name=${!name}$RS"
  done
  [ -n "$BATON_ROOT" ] && envtext+="BATON_ROOT$RS"
  [ -n "$CLAUDE_PROJECT_DIR" ] && envtext+="CLAUDE_PROJECT_DIR$RS"
  sum=$(exec sha256sum <<<"$envtext") || fallback "$@"
  path="$path&nonce=$nonce&env=${sum%% *}"
fi

# connect() has no timeout here: a live server that does not accept (stopped, its backlog full)
# holds it for the kernel's SYN retries (~2 min), past the host's hook timeout, and a timed-out
# PreToolUse hook lets the call through. An alarm from a watchdog after $limit runs the fallback
# from its trap, whichever of connect, write and read still blocks: bash installs the trap without
# SA_RESTART, so a blocked connect or write fails, and a read builtin, which retries read(2) after
# a trap, never returns, as the trap execs the wrapper. So the answer's read needs no -t of its
# own (which costs two sigprocmask calls per byte read). Its sleep is killed with it, and it holds
# none of the host's pipes, so nothing of it outlives the hook.
trap 'fallback "$@"' USR1
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
# 1: the server closed the connection after its answer (within 1 MiB); anything else is no answer.
if [ -n "$blocks" ]; then IFS= read -r -N 1048576 answer <&3; else IFS= read -r -d '' answer <&3; fi
[ $? = 1 ] || fallback "$@"
# Past here no alarm may run the fallback: the answer is in. The watchdog is not waited for, as
# this script ends before any alarm of a killed watchdog could matter (fallback still waits).
trap '' USR1
kill "$wd" 2>/dev/null
exec 3>&-
case $answer in "HTTP/1.1 200 "*) ;; *) fallback "$@" ;; esac
body=${answer#*$'\r\n\r\n'}

if [ "$1" = hook ]; then
  tag=${body: -64}
  case $tag in *[!0-9a-f]* | '') fallback "$@" ;; esac
  body=${body%"$tag"}
  # exec: the substitution's subshell becomes sha256sum, one fork, not two (with a redirection,
  # bash forks again by itself).
  sum=$(exec sha256sum <<<"$key$RS/$path$RS$payload$RS$body$key") || fallback "$@"
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
