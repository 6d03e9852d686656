#!/usr/bin/env python3
"""Host side of the systemd guest's suspend test (vm/launch.sh, E2E_VM=systemd).

Watches the qemu monitor (HMP on a unix socket); when the guest has been suspended (S3) for
more than GRACE seconds, its own wake-up (the RTC alarm) has failed: wake it with
`system_wakeup`, so the run goes on, and append a line to LOG, so the scenario reports that it
was the harness, not the guest's alarm, that woke it. Exits when qemu goes away.
    monitor_waker.py SOCKET LOG [GRACE]
"""
import socket
import sys
import time

path, log = sys.argv[1], sys.argv[2]
grace = float(sys.argv[3]) if len(sys.argv) > 3 else 90
for _ in range(300):  # qemu creates the socket when it starts
    try:
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(path)
        break
    except OSError:
        time.sleep(0.1)
else:
    sys.exit(0)
sock.settimeout(10)


def command(line: str) -> str:
    sock.sendall(line.encode() + b'\n')
    reply = b''
    while not reply.rstrip().endswith(b'(qemu)'):
        chunk = sock.recv(4096)
        if not chunk:
            raise EOFError
        reply += chunk
    return reply.decode(errors='replace')


try:
    command('')  # the banner and first prompt
    since = None
    while True:
        time.sleep(2)
        suspended = 'suspended' in command('info status')
        if not suspended:
            since = None
        elif since is None:
            since = time.monotonic()
        elif time.monotonic() - since > grace:
            command('system_wakeup')
            with open(log, 'a') as f:
                f.write(f'{time.strftime("%H:%M:%S")} suspended for {grace:.0f} s: system_wakeup sent\n')
            since = None
except (EOFError, OSError):
    pass
