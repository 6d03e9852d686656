# The daemon benchmark (docs/benchmark.md) inside the VM, where /dev/uinput is real: our daemon
# and the Python peer both write every frame to the kernel and are stamped once the write
# returns. Under TCG the CPU is emulated, so absolute times mean little; this checks that the
# real-uinput path of the benchmark runs and loses nothing, and keeps the table (with ratios
# from the same run) in this scenario's log. Needs the release benchmark binary and the peer's
# venv, which scripts/test builds before the e2e run.
. "$E2E/lib/scenario.sh"

bench=$REPO/.build/release/tap-uinput-bench
[ -x "$bench" ] || fail "no $bench: build it with swift build -c release --static-swift-stdlib --product tap-uinput-bench"
[ -x "$REPO/.build/bench-venv/bin/python" ] || fail "no Python peer venv: run Bench/setup-peer"
[ -w /dev/uinput ] || fail "/dev/uinput not writable"

step "benchmark, quick, real uinput"
out=$(cd "$REPO" && "$bench" daemon --quick --seconds-idle 2 2>&1) || { echo "$out"; fail "the benchmark exited non-zero"; }
echo "$out"
grep -q '^output: /dev/uinput' <<<"$out" || fail "the benchmark did not write to /dev/uinput"
# Columns: floor socket, ours socket, floor signal, ours signal, python peer.
ours() { grep "^| $1 " <<<"$out" | awk -F'|' '{gsub(/ /, "", $4); gsub(/ /, "", $6); print $4 "/" $6}'; }
expect_eq "$(ours 'outputs lost')" "0/0" "no output lost by our daemon on either path"
expect_eq "$(ours 'wrong keys')" "0/0" "every key typed was the right one"
