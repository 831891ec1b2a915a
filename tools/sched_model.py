#!/usr/bin/env python3
"""A seeded model of an OS scheduler that writes an OS-only trace (trace text v1).

  sched_model.py OUT.txt [--seed N] [--events N] [--cpus N] [--tasks N] [--tick-ns N]

It simulates CPUs running tasks of three behaviours (compute-bound, I/O-bound
with a disk, interactive with a periodic timer), device interrupts, the soft
interrupts they raise, wakeups, context switches, and short-lived processes
that fork and exit. Each event becomes one OS record with the types that
`trc import-ftrace` uses: 1 sched_switch (next pid), 2 irq_handler_entry
(irq), 3 softirq_entry (vector), 4 sched_wakeup (pid), 5 sched_process_fork
(child pid), 6 sched_process_exit (pid). Event times are kept in nanoseconds
and written in ticks of --tick-ns (default 10), so the deltas carry no
quantization beyond the tick, as a hardware time-stamper's would. The same
seed gives the same trace, byte for byte (Python's own random module).
"""
import argparse
import heapq
import random
import sys

T_SWITCH, T_IRQ, T_SOFTIRQ, T_WAKEUP, T_FORK, T_EXIT = 1, 2, 3, 4, 5, 6
IRQ_DISK, IRQ_NET, IRQ_TIMER = 36, 41, 0
SOFT_TIMER, SOFT_NET_RX, SOFT_BLOCK, SOFT_SCHED, SOFT_RCU = 1, 3, 4, 7, 9


class Task:
    def __init__(self, pid, kind, rng):
        self.pid, self.kind = pid, kind
        # Each task keeps its own typical burst and wait, so that its events
        # repeat with similar (not equal) gaps, as real programs do.
        if kind == "cpu":
            self.burst, self.wait = rng.uniform(2e6, 8e6), 0.0
        elif kind == "io":
            self.burst, self.wait = rng.uniform(20e3, 150e3), rng.uniform(80e3, 400e3)
        elif kind == "interactive":
            self.burst, self.wait = rng.uniform(30e3, 90e3), rng.choice((1e6, 4e6, 10e6))
        else:  # a daemon: wakes now and then for a short while
            self.burst, self.wait = rng.uniform(10e3, 60e3), rng.choice((50e6, 100e6, 250e6, 1e9))
        self.left = 0.0
        self.exit_after = None


class Model:
    def __init__(self, args):
        self.rng = random.Random(args.seed)
        self.ncpu = args.cpus
        self.events = []          # (time ns, type, value)
        self.limit = args.events
        self.q = []               # (time, seq, action, args)
        self.seq = 0
        self.next_pid = 3000
        self.runq = []
        self.cur = [None] * self.ncpu
        self.slice_end = [0.0] * self.ncpu
        self.tasks = []
        # The workload is a few busy tasks (a pipeline of compute and I/O, an
        # interactive one); the rest are daemons that sleep most of the time.
        busy = max(3, args.tasks // 6)
        kinds = ["cpu"] * max(1, busy // 3) + ["interactive"] * max(1, busy // 4)
        kinds += ["io"] * max(1, busy - len(kinds))
        kinds += ["daemon"] * max(0, args.tasks - len(kinds))
        for k in kinds:
            t = self.spawn(k)
            self.runq.append(t)

    def spawn(self, kind):
        t = Task(self.next_pid, kind, self.rng)
        self.next_pid += self.rng.choice((1, 1, 1, 2, 3))
        self.tasks.append(t)
        return t

    def at(self, time, action, *a):
        self.seq += 1
        heapq.heappush(self.q, (time, self.seq, action, a))

    def emit(self, time, typ, val):
        self.events.append((time, typ, val & 0xFFFF))

    def jitter(self, x, rel=0.15):
        return max(50.0, x * self.rng.lognormvariate(0.0, rel))

    # -- scheduling -------------------------------------------------------
    def switch(self, now, cpu):
        """Pick the next task for cpu (idle = pid 0) and start its burst."""
        t = self.runq.pop(0) if self.runq else None
        self.cur[cpu] = t
        self.emit(now, T_SWITCH, t.pid if t else 0)
        if t is None:
            return
        if t.left <= 0:
            t.left = self.jitter(t.burst, 0.3)
        run = min(t.left, 4e6)  # the time slice
        self.slice_end[cpu] = now + run
        self.at(now + run, "burst_end", cpu, t)

    def wake(self, now, t, cpu_hint):
        self.emit(now, T_WAKEUP, t.pid)
        self.runq.append(t)
        idle = [c for c in range(self.ncpu) if self.cur[c] is None]
        if idle:
            c = cpu_hint if cpu_hint in idle else idle[0]
            self.at(now + self.jitter(4e3), "resched", c)

    def run(self):
        for c in range(self.ncpu):
            self.at(self.rng.uniform(0, 1e5), "resched", c)
            self.at(self.rng.uniform(0, 4e6), "tick", c)
        self.at(2e6, "net", 0)
        while self.q and len(self.events) < self.limit:
            now, _, action, a = heapq.heappop(self.q)
            getattr(self, "on_" + action)(now, *a)
        self.events.sort(key=lambda e: e[0])
        return self.events[: self.limit]

    def on_resched(self, now, cpu):
        if self.cur[cpu] is None:
            self.switch(now, cpu)

    def on_burst_end(self, now, cpu, t):
        if self.cur[cpu] is not t or abs(self.slice_end[cpu] - now) > 1.0:
            return  # preempted meanwhile
        t.left -= min(t.left, 4e6)
        if t.exit_after is not None:
            t.exit_after -= 1
            if t.exit_after <= 0:
                self.emit(now, T_EXIT, t.pid)
                self.tasks.remove(t)
                self.cur[cpu] = None
                self.switch(now + self.jitter(3e3), cpu)
                return
        if t.left > 0:            # slice used up: back to the run queue
            self.runq.append(t)
        elif t.kind == "io":      # block on the disk
            self.at(now + self.jitter(t.wait, 0.5), "disk", t, cpu)
        elif t.kind in ("interactive", "daemon"):
            self.at(now + self.jitter(t.wait, 0.02), "timer_wake", t, cpu)
        else:
            self.runq.append(t)
        if t.kind != "cpu" and self.rng.random() < 0.01:
            c = self.spawn("io")
            c.exit_after = self.rng.randint(1, 6)
            self.emit(now, T_FORK, c.pid)
            self.runq.append(c)
        self.cur[cpu] = None
        self.switch(now + self.jitter(2e3), cpu)

    def on_disk(self, now, t, cpu):
        self.emit(now, T_IRQ, IRQ_DISK)
        s = now + self.jitter(3e3)
        self.emit(s, T_SOFTIRQ, SOFT_BLOCK)
        self.wake(s + self.jitter(5e3), t, cpu)

    def on_timer_wake(self, now, t, cpu):
        self.emit(now, T_SOFTIRQ, SOFT_TIMER)
        self.wake(now + self.jitter(2e3), t, cpu)

    def on_net(self, now, cpu):
        self.emit(now, T_IRQ, IRQ_NET + cpu)
        self.emit(now + self.jitter(2500), T_SOFTIRQ, SOFT_NET_RX)
        if self.rng.random() < 0.3:
            waiting = [t for t in self.tasks if t.kind == "interactive" and t not in self.runq
                       and t not in self.cur]
            if waiting:
                self.wake(now + self.jitter(6e3), self.rng.choice(waiting), cpu)
        self.at(now + self.rng.expovariate(1 / 1.5e6), "net", self.rng.randrange(self.ncpu))

    def on_tick(self, now, cpu):
        self.emit(now, T_SOFTIRQ, SOFT_TIMER)
        if self.rng.random() < 0.25:
            self.emit(now + self.jitter(1500), T_SOFTIRQ, SOFT_RCU)
        t = self.cur[cpu]
        if t is not None and self.runq and now - (self.slice_end[cpu] - 4e6) > 3e6:
            self.emit(now + self.jitter(800), T_SOFTIRQ, SOFT_SCHED)
            t.left = max(t.left - (now - (self.slice_end[cpu] - 4e6)), 1e3)
            self.runq.append(t)
            self.cur[cpu] = None
            self.switch(now + self.jitter(2500), cpu)
        self.at(now + 4e6 + self.rng.uniform(-2e3, 2e3), "tick", cpu)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--events", type=int, default=200000)
    ap.add_argument("--cpus", type=int, default=2)
    ap.add_argument("--tasks", type=int, default=24)
    ap.add_argument("--tick-ns", type=int, default=10)
    args = ap.parse_args(argv[1:])
    if args.events < 1 or args.cpus < 1 or args.tasks < 3 or args.tick_ns < 1:
        ap.error("--events, --cpus, --tick-ns must be >= 1 and --tasks >= 3")
    events = Model(args).run()
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write("# trace text v1; sched_model.py --seed %d --events %d --cpus %d --tasks %d;"
                " tick %d ns\n" % (args.seed, args.events, args.cpus, args.tasks, args.tick_ns))
        last = 0
        for time, typ, val in events:
            tick = int(time) // args.tick_ns
            f.write("%d O %d %d\n" % (max(0, tick - last), typ, val))
            last = max(last, tick)
    import os
    os.replace(tmp, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
