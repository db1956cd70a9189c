#!/bin/sh
# The TUI on a GPU machine: the default demo shows measured cycles next to the prediction;
# '+' pads, and the new measurement replaces the old (never a stale one); the advisor measures
# every padding (m). Prints the screens.
command -v tmux >/dev/null 2>&1 || { echo "tmux not found: skipped"; exit 77; }
bin="$(pwd)/bankscope"
T() { tmux -L bankscope-gpu -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null' EXIT
T new-session -d -s g -x 160 -y 48 "env LANG=C.UTF-8 TERM=xterm-256color $bin; sleep 30"
wait_for() {
    i=0
    while [ $i -lt 300 ]; do
        T capture-pane -p -t g > /tmp/bankscope-gpu-screen
        grep -qF -- "$1" /tmp/bankscope-gpu-screen && return 0
        i=$((i + 1)); sleep 0.1
    done
    return 1
}
rc=0
if wait_for "(pred. 32.00)"; then echo "-- default: measured"; else echo "FAIL: no measurement"; rc=1; fi
cat /tmp/bankscope-gpu-screen
T send-keys -t g +
if wait_for "(pred. 1.00)"; then echo "-- after +: measured"; else echo "FAIL: no new measurement after +"; rc=1; fi
grep -E "cycles/access|block:|latency|MEASURED|NVIDIA" /tmp/bankscope-gpu-screen | cut -c100-160
# the advisor measures every padding of the default demo: measured beside predicted per row
T send-keys -t g - v m
if wait_for "beside the model's"; then
    echo "-- advisor: every padding measured"
    grep -E "cycles meas|[0-9]+\.[0-9]+/[0-9]+\.[0-9]+" /tmp/bankscope-gpu-screen | head -10 | cut -c30-130
else
    echo "FAIL: the advisor's sweep was not measured"; grep -E "measuring|GPU" /tmp/bankscope-gpu-screen; rc=1
fi
T send-keys -t g Escape q
# a kernel that fails to compile is reported in the result panel, and the TUI stays up
printf 'this is not CUDA @BODY@\n' > /tmp/bankscope-broken.cu
T new-session -d -s h -x 160 -y 48 "env LANG=C.UTF-8 BANKSCOPE_KERNEL_TEMPLATE=/tmp/bankscope-broken.cu $bin; sleep 30"
i=0
while [ $i -lt 200 ] && ! T capture-pane -p -t h | grep -q "GPU error"; do i=$((i + 1)); sleep 0.1; done
if T capture-pane -p -t h | grep -q "GPU error"; then
    echo "-- broken kernel: $(T capture-pane -p -t h | grep -o 'GPU error.*' | head -1 | cut -c1-60)"
else
    echo "FAIL: a compile error was not shown"; rc=1
fi
T send-keys -t h +
sleep 0.5
T capture-pane -p -t h | grep -q "conflict-free" && echo "-- still answering keys" || { echo "FAIL: keys"; rc=1; }
exit $rc
