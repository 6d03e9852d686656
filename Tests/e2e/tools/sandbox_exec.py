#!/usr/bin/env python3
"""Runs a program under an emulation of systemd/tap-uinput.service.in's sandbox, for
scenarios/priv_sandbox.sh (the guest has no systemd to run the unit itself).

    unshare --mount --propagation private -- sandbox_exec.py --user NAME [--probe] -- PROGRAM ARGS...

Started as root inside a fresh mount namespace, it applies, in systemd's order:
  ProtectSystem=strict, ProtectHome=read-only  every mount except /dev, /proc, /sys (and below)
                                               remounted read-only (MS_BIND|MS_REMOUNT|MS_RDONLY)
  PrivateTmp=yes                               fresh tmpfs on /tmp and /var/tmp
  UMask=0077
  User=                                        setgroups(initgroups), setgid, setuid: every
                                               capability is gone, as for a user manager's unit
  NoNewPrivileges=yes                          prctl(PR_SET_NO_NEW_PRIVS)
  seccomp (libseccomp through ctypes), the rules systemd installs for:
    RestrictAddressFamilies=AF_UNIX AF_NETLINK socket(2) of any other family -> EAFNOSUPPORT
    MemoryDenyWriteExecute=yes                 mmap(PROT_WRITE|PROT_EXEC), mprotect/pkey_mprotect(
                                               PROT_EXEC), shmat(SHM_EXEC) -> EPERM
    RestrictNamespaces=yes                     unshare, setns, clone(CLONE_NEW*) -> EPERM, clone3 -> ENOSYS
    RestrictRealtime=yes                       sched_setscheduler(SCHED_FIFO|RR|DEADLINE), sched_setattr -> EPERM
    SystemCallArchitectures=native             the filter has the native arch only (others: killed)
Not emulated: LockPersonality, RestrictSUIDSGID (beyond NoNewPrivileges), the user manager's
cgroup. `--probe` runs self-checks instead of PROGRAM (`--probe-only`: the checks without applying anything, to
check a real unit's sandbox) and prints one `name ok|FAILED detail` line each.
"""
import argparse
import errno
import grp
import mmap
import os
import pwd
import socket
import sys

MS_RDONLY, MS_REMOUNT, MS_BIND = 1, 32, 4096
PR_SET_NO_NEW_PRIVS = 38


def remount_read_only():
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    points = []
    with open('/proc/self/mountinfo') as f:
        for line in f:
            mp = line.split()[4].encode().decode('unicode_escape')
            if mp in ('/dev', '/proc', '/sys') or mp.startswith(('/dev/', '/proc/', '/sys/')):
                continue
            points.append(mp)
    for mp in points:
        if libc.mount(None, mp.encode(), None, MS_BIND | MS_REMOUNT | MS_RDONLY, None) != 0:
            e = ctypes.get_errno()
            sys.exit(f'sandbox_exec: remount {mp} read-only: {os.strerror(e)}')
    for tmp in ('/tmp', '/var/tmp'):
        if libc.mount(b'tmpfs', tmp.encode(), b'tmpfs', 0, b'mode=1777') != 0:
            sys.exit(f'sandbox_exec: tmpfs on {tmp}: {os.strerror(ctypes.get_errno())}')


NE, LT, LE, EQ, GE, GT, MASKED_EQ = 1, 2, 3, 4, 5, 6, 7


def install_seccomp():
    import ctypes

    class Cmp(ctypes.Structure):
        _fields_ = [('arg', ctypes.c_uint), ('op', ctypes.c_int), ('a', ctypes.c_uint64), ('b', ctypes.c_uint64)]

    lib = ctypes.CDLL('libseccomp.so.2')
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint,
                                           ctypes.POINTER(Cmp)]
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    allow = 0x7fff0000
    ctx = lib.seccomp_init(allow)

    def deny(err, name, *cmps):
        nr = lib.seccomp_syscall_resolve_name(name.encode())
        if nr < 0:
            return
        arr = (Cmp * max(1, len(cmps)))(*[Cmp(*c) for c in cmps])
        rc = lib.seccomp_rule_add_array(ctx, 0x00050000 | err, nr, len(cmps), arr)
        if rc != 0:
            sys.exit(f'sandbox_exec: seccomp rule {name} {cmps}: {os.strerror(-rc)}')

    # RestrictAddressFamilies=AF_UNIX AF_NETLINK
    for af in range(0, 46):
        if af not in (socket.AF_UNIX, socket.AF_NETLINK):
            deny(errno.EAFNOSUPPORT, 'socket', (0, EQ, af, 0))
    deny(errno.EAFNOSUPPORT, 'socket', (0, GE, 46, 0))
    # MemoryDenyWriteExecute=yes
    wx = mmap.PROT_WRITE | mmap.PROT_EXEC
    deny(errno.EPERM, 'mmap', (2, MASKED_EQ, wx, wx))
    deny(errno.EPERM, 'mprotect', (2, MASKED_EQ, mmap.PROT_EXEC, mmap.PROT_EXEC))
    deny(errno.EPERM, 'pkey_mprotect', (2, MASKED_EQ, mmap.PROT_EXEC, mmap.PROT_EXEC))
    deny(errno.EPERM, 'shmat', (2, MASKED_EQ, 0o100000, 0o100000))
    # RestrictNamespaces=yes
    deny(errno.EPERM, 'unshare')
    deny(errno.EPERM, 'setns')
    for flag in (0x00020000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000, 0x02000000):
        deny(errno.EPERM, 'clone', (0, MASKED_EQ, flag, flag))
    deny(errno.ENOSYS, 'clone3')
    # RestrictRealtime=yes
    for policy in (1, 2, 6):
        deny(errno.EPERM, 'sched_setscheduler', (1, EQ, policy, 0))
    deny(errno.EPERM, 'sched_setattr')
    if lib.seccomp_load(ctx) != 0:
        sys.exit('sandbox_exec: seccomp_load failed')


def probe(user_home):
    def check(name, fn, expect):
        try:
            fn()
            print(f'{name} FAILED (allowed)', flush=True)
        except OSError as e:
            print(f'{name} {"ok" if e.errno in expect else "FAILED"} {errno.errorcode.get(e.errno, e.errno)}', flush=True)
    check('af_inet', lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM), (errno.EAFNOSUPPORT,))
    check('af_bluetooth', lambda: socket.socket(31, socket.SOCK_RAW, 1), (errno.EAFNOSUPPORT,))
    check('write_home', lambda: open(os.path.join(user_home, 'x'), 'w'), (errno.EROFS,))
    check('write_etc', lambda: open('/etc/tap-probe', 'w'), (errno.EROFS, errno.EACCES))
    check('write_run', lambda: open(f'/run/user/{os.getuid()}/x', 'w'), (errno.EROFS,))
    check('mmap_wx', lambda: mmap.mmap(-1, 4096, prot=mmap.PROT_WRITE | mmap.PROT_EXEC), (errno.EPERM,))
    check('unshare', lambda: os.unshare(os.CLONE_NEWNS) if hasattr(os, 'unshare') else (_ for _ in ()).throw(OSError(errno.EPERM, 'no os.unshare')), (errno.EPERM,))
    check('input_event0', lambda: open('/dev/input/event0', 'rb'), (errno.EACCES, errno.ENOENT))
    try:
        open('/tmp/private', 'w').write('x')
        print('private_tmp ok (writable)', flush=True)
    except OSError as e:
        print(f'private_tmp FAILED {e}', flush=True)
    with open('/proc/self/status') as f:
        status = {k: v.strip() for k, v in (l.split(':', 1) for l in f)}
    print(f'no_new_privs {"ok" if status["NoNewPrivs"] == "1" else "FAILED"} {status["NoNewPrivs"]}')
    print(f'caps {"ok" if int(status["CapEff"], 16) == 0 else "FAILED"} {status["CapEff"]}')
    print(f'umask {"ok" if os.umask(0o77) == 0o77 else "FAILED"}', flush=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--user', required=True)
    p.add_argument('--probe', action='store_true')
    p.add_argument('--probe-only', action='store_true',
                   help='apply nothing, only run the self-checks (inside a real systemd unit)')
    p.add_argument('argv', nargs='*')
    args = p.parse_args()
    user = pwd.getpwnam(args.user)
    if args.probe_only:
        probe(user.pw_dir)
        return
    remount_read_only()
    os.umask(0o077)
    os.setgroups([g.gr_gid for g in grp.getgrall() if args.user in g.gr_mem])
    os.setgid(user.pw_gid)
    os.setuid(user.pw_uid)
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        sys.exit('sandbox_exec: PR_SET_NO_NEW_PRIVS failed')
    install_seccomp()
    if args.probe:
        probe(user.pw_dir)
        return
    os.execv(args.argv[0], args.argv)


if __name__ == '__main__':
    main()
