#!/usr/bin/env python3
"""Host side of the systemd guest's suspend test (vm/launch.sh, E2E_VM=systemd).

A guest in s2idle under qemu has no wake-up of its own (its RTC alarm is routed to an ACPI event
that qemu raises only for S3, see README). Before it suspends, the scenario creates REQUEST in the
shared work tree; while that file exists this presses the ACPI power button (`system_powerdown`
on the qemu monitor) every PERIOD seconds, which wakes the guest (logind is told to ignore the
key), and logs each press to LOG. The scenario removes REQUEST once it is awake. Exits with qemu.
    monitor_waker.py SOCKET REQUEST LOG [PERIOD]
"""
import os
import socket
import sys
import time

path, request, log = sys.argv[1:4]
period = float(sys.argv[4]) if len(sys.argv) > 4 else 15
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
    seen = None
    while True:
        time.sleep(1)
        command('info status')  # notices qemu's exit (EOF) even when idle
        if not os.path.exists(request):
            seen = None
            continue
        seen = seen or time.monotonic()
        if time.monotonic() - seen >= period:
            command('system_powerdown')
            with open(log, 'a') as f:
                f.write(f'{time.strftime("%H:%M:%S")} power button pressed ({period:.0f} s after the request)\n')
            seen = time.monotonic()
except (EOFError, OSError):
    pass
