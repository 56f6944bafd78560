#!/usr/bin/env python3
"""CPU time per thread name of a command, read from /proc while it runs.

    thread-cpu.py NAME COMMAND [ARG...]

Starts COMMAND and, every 10 ms until it exits, reads the time on a CPU
(/proc/PID/task/TID/schedstat, nanoseconds) of its threads called NAME
(/proc/PID/task/TID/comm); then prints one line:

    <NAME's CPU s>\t<whole process's CPU s (wait4's rusage)>\t<wall s>

A thread's last 10 ms before the exit are not seen (the watchdog uses about
3 ms of CPU a second, so that is microseconds).
Used by stall-detector.sh's `watchdog` part: NAME is "StallDetector", the
watchdog thread, so the line says what the detector itself cost a run, a
figure that the machine's load does not change the way it changes wall time.
"""
import os
import subprocess
import sys
import time


def read(path):
    try:
        with open(path) as file:
            return file.read()
    except OSError:
        return None


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: thread-cpu.py NAME COMMAND [ARG...]")
    name, command = sys.argv[1], sys.argv[2:]
    start = time.monotonic()
    process = subprocess.Popen(command)
    named = {}  # tid -> the last reading of a thread called NAME, ns
    while True:
        pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            break
        try:
            tids = os.listdir(f"/proc/{process.pid}/task")
        except OSError:
            tids = []
        for tid in tids:
            if tid not in named and (read(f"/proc/{process.pid}/task/{tid}/comm") or "").strip() != name:
                continue
            stat = read(f"/proc/{process.pid}/task/{tid}/schedstat")
            if stat:
                named[tid] = int(stat.split()[0])
        time.sleep(0.01)
    wall = time.monotonic() - start
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        sys.exit(f"thread-cpu.py: the command failed ({status})")
    if not named:
        sys.exit(f"thread-cpu.py: no thread named {name!r} was seen")
    total = usage.ru_utime + usage.ru_stime
    print(f"{sum(named.values()) / 1e9:.6f}\t{total:.6f}\t{wall:.3f}")


if __name__ == "__main__":
    main()
