#!/usr/bin/env python3
"""Runs a command and prints its peak resident memory and its peak number of open descriptors.

    Benchmarks/peaks.py [--stdout FILE] -- COMMAND [ARGS...]

Peak RSS comes from the kernel (wait4's ru_maxrss, the high-water mark: exact). Open
descriptors are sampled from /proc/PID/fd as fast as one core allows (a sample every few tens of
microseconds): a peak that lasts less than a sample can be missed, so several runs are needed.
Output: one line `rss_kib=N fds=N seconds=S status=N`.
"""
import os, sys, time

def main():
    args = sys.argv[1:]
    out = "/dev/null"
    if args[:1] == ["--stdout"]:
        out, args = args[1], args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    if not args:
        sys.exit(__doc__)
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1)
        os.close(fd)
        try:
            os.execvp(args[0], args)
        finally:
            os._exit(127)
    fddir = f"/proc/{pid}/fd"
    peak = 0
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done == pid:
            break
        try:
            n = len(os.listdir(fddir))
            if n > peak:
                peak = n
        except OSError:
            pass
    seconds = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    print(f"rss_kib={usage.ru_maxrss} fds={peak} seconds={seconds:.2f} status={code}")

if __name__ == "__main__":
    main()
