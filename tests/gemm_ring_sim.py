"""A small simulator of one warp-specialised wgmma GEMM CTA's PTX, to check its ring
protocol and its sums without a GPU (tests/test_gemm_ring_sim.py).

It runs two threads against each other in random bursts: the producer's thread 0 (its TMA
loads: `cp.async.bulk.tensor`, their "full" barriers armed by `arrive.expect_tx`) and one
representative consumer thread (tid 128), with each mbarrier's phase and arrivals, the
consumer's wgmma groups in flight (`commit_group`, `wait_group N`), and every f32 register
as a symbolic value: a Counter of the stages' loads (their TMA coordinates) it holds. It
fails (`Fail`) where a stage is released while MMAs reading it are in flight, overwritten
while read, a barrier over-arrived, a non-wgmma instruction reads or writes a register that
MMAs in flight write, or the threads deadlock; `analyse` then checks that every fill was
waited for once, in order, and released once (locally, and on the peer in a cluster), no
barrier is left mid-phase, and at "the last MMAs" the registers added into hold each K
step of the tile, each of its four K-slices once. Integer arithmetic is modelled as far
as the ring's bookkeeping needs; anything else leaves its result unknown.
"""

from __future__ import annotations

import random
import re
from collections import Counter

class Fail(Exception):
    pass


def parse(ptx: str):
    body = ptx[ptx.index("{", ptx.index(".visible .entry")) + 1:]
    stmts, labels, cur = [], {}, ""
    for raw in body.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("//"):
            if not cur:
                stmts.append(("comment", line[2:].strip()))
            continue
        if not cur and re.match(r"^\$?[A-Za-z_][\w$]*:$", line):
            labels[line[:-1]] = len(stmts)
            continue
        if line.startswith(".reg") or line.startswith("}"):
            continue
        cur += " " + line
        if line.endswith(";"):
            stmts.append(("ins", cur.strip()[:-1].strip()))
            cur = ""
    return stmts, labels


def split_ops(s: str):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip()); cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


class Barrier:
    def __init__(self, count, sim):
        self.count, self.pending, self.phase, self.sim = count, 0, 0, sim

    def arrive(self, n):
        self.sim.version += 1  # a wait may pass now
        self.pending += n
        if self.pending > self.count:
            raise Fail(f"barrier over-arrived: {self.pending} > {self.count}")
        if self.pending == self.count:
            self.pending = 0
            self.phase ^= 1

    def done(self, parity):  # try_wait.parity: the phase of `parity` has completed
        return self.phase != parity


class Thread:
    def __init__(self, name, tid, sim):
        self.name, self.tid, self.sim = name, tid, sim
        self.pc, self.r, self.done = 0, {}, False
        self.groups = []  # committed wgmma groups in flight: (regs, stage)
        self.open = None  # the group being issued
        self.last_full = None
        self.log = []

    def val(self, x):
        x = x.strip()
        if x.startswith("%"):
            if x in self.sim.sregs:
                return self.sim.sregs[x](self)
            return self.r.get(x, 0)
        if x in ("smem",):
            return 0
        if re.match(r"^-?(0x[0-9a-fA-F]+|\d+)$", x):
            return int(x, 0)
        if re.match(r"^0f[0-9a-fA-F]{8}$", x):
            return Counter()
        return 0  # symbols (tensor maps, params)

    def addr(self, x):
        m = re.match(r"\[(%\w+)(?:\+(-?\d+))?\]", x.strip())
        if m:
            return self.val(m.group(1)) + int(m.group(2) or 0)
        m = re.match(r"\[(\d+)\]", x.strip())
        return int(m.group(1))


class Sim:
    def __init__(self, ptx, ctaid=0, nctaid=1, seed=0, mc=None, params=None):
        self.params = params or {}
        self.stmts, self.labels = parse(ptx)
        self.rng = random.Random(seed); self.seed = seed
        self.bars = {}
        self.multicast = "mapa" in ptx if mc is None else mc
        self.stage_data = {}  # full barrier address -> data loaded
        self.reading = Counter()  # full barrier address (stage) -> groups in flight reading it
        self.sregs = {"%tid.x": lambda t: t.tid, "%ctaid.x": lambda t: ctaid, "%nctaid.x": lambda t: nctaid,
                      "%cluster_ctarank": lambda t: 0, "%ctaid.y": lambda t: 0, "%ctaid.z": lambda t: 0,
                      "%nctaid.y": lambda t: 1, "%nctaid.z": lambda t: 1, "%laneid": lambda t: t.tid & 31,
                      "%clusterid.x": lambda t: ctaid}
        self.checks = []  # (tile total registers values) at "the last MMAs"
        self.inited = False  # the barriers' init fenced: what bar.sync waits for
        self.version = 0  # bumped by whatever can let a blocked wait pass (an arrival, an init)
        self.armed = []

    def flush(self):
        for a in self.armed:
            self.bar(a).arrive(1)
        self.armed = []

    def bar(self, a):
        if a not in self.bars:
            raise Fail(f"unknown barrier at {a}")
        return self.bars[a]

    def run(self, max_steps=5_000_000):
        prod = Thread("producer", 0, self)
        cons = Thread("consumer", 128, self)
        threads = [prod, cons]
        steps = 0
        blocked_at: dict[str, int] = {}  # each thread's last failed wait: the version it saw
        while not all(t.done for t in threads):
            runnable = [t for t in threads if not t.done]
            t = self.rng.choice(runnable)
            # run a random burst
            for _ in range(self.rng.randint(1, 200 if self.seed % 2 == 0 else 3)):
                if t.done:
                    break
                blocked = self.step(t)
                steps += 1
                if blocked:
                    # a wait passes only after an arrival or init: every thread left blocked
                    # with none since is a deadlock, found now rather than after max_steps
                    blocked_at[t.name] = self.version
                    if all(blocked_at.get(x.name) == self.version for x in threads if not x.done):
                        raise Fail("deadlock: every thread waits and nothing can arrive " + " ".join(
                            f"{x.name}@{x.pc}:{self.stmts[x.pc] if x.pc < len(self.stmts) else ''}" for x in threads))
                    break
            if steps > max_steps:
                raise Fail("too many steps (deadlock?) " + " ".join(f"{x.name}@{x.pc}:{self.stmts[x.pc] if x.pc < len(self.stmts) else ''}" for x in threads))
        return prod, cons

    def step(self, t):
        if t.pc >= len(self.stmts):
            t.done = True
            return False
        kind, text = self.stmts[t.pc]
        t.pc += 1
        if kind == "comment":
            if text.startswith("the last MMAs"):
                t.log.append(("last_mmas",))
                self.checks.append(dict(t.r))
                if t.groups or t.open:
                    raise Fail("MMAs in flight at the last MMAs' comment end")
            return False
        m = re.match(r"^(@(!?)(%p\d+)\s+)?(\S+)\s*(.*)$", text)
        neg, pred, op, rest = m.group(2), m.group(3), m.group(4), m.group(5)
        if pred is not None:
            pv = bool(t.val(pred))
            if neg:
                pv = not pv
            if not pv:
                return False
        ops = split_ops(rest) if rest else []
        return self.exec(t, op, ops)

    def check_read(self, t, regs):
        for r in regs:
            for regs_in_flight, _ in t.groups + ([t.open] if t.open else []):
                if r in regs_in_flight:
                    raise Fail(f"{t.name}: {r} read/written by a non-wgmma instruction while its MMAs are in flight (pc {t.pc})")

    def exec(self, t, op, ops):
        parts = op.split(".")
        base = parts[0]
        if base in ("ret", "exit"):
            t.done = True
            if t.name == "producer":
                self.flush()
            return False
        if base == "bra":
            t.pc = self.labels[ops[0]]
            return False
        if base == "fence" and "mbarrier_init" in op:
            self.inited = True
            self.version += 1
        if (op.startswith("bar.sync") or op.startswith("barrier.cluster")) and not self.inited:
            if t.name == "producer" and t.tid == 0:
                raise Fail("producer at the barrier before init")
            t.pc -= 1
            return True
        f_srcs = [o for o in ops[1:] if re.match(r"^%f\d+$", o)]
        if op.startswith("wgmma"):
            return self.wgmma(t, op, ops)
        if base == "mbarrier":
            return self.mbarrier(t, op, ops)
        if base == "cp" and "bulk.tensor" in op and "shared::cluster.global" in op:
            # a TMA load: [dst], [tmap, {coords}], [bar] (maybe multicast mask)
            bar_a = t.addr(ops[2])
            coords = tuple(t.val(c) for c in ops[1][ops[1].index("{") + 1: ops[1].index("}")].split(","))
            if self.reading[bar_a]:
                raise Fail(f"producer overwrites stage {bar_a} while MMAs read it")
            self.stage_data.setdefault(bar_a, []).append(coords)
            return False
        if f_srcs:
            self.check_read(t, f_srcs)
        if ops and re.match(r"^%f\d+$", ops[0]):
            self.check_read(t, [ops[0]])
        if base == "ld" and ".param" in op:
            t.r[ops[0]] = self.params.get(ops[1].strip("[]"), 0)
            return False
        if base in ("mov", "cvt", "cvta") and len(ops) == 2:
            t.r[ops[0]] = t.val(ops[1])
            return False
        if base in ("add", "sub", "mul", "shl", "shr", "xor", "and", "or", "div", "rem", "min", "max") and len(ops) == 3:
            a, b = t.val(ops[1]), t.val(ops[2])
            if isinstance(a, Counter) or isinstance(b, Counter):
                if base == "add" and parts[-1] == "f32":
                    t.r[ops[0]] = (a if isinstance(a, Counter) else Counter()) + (b if isinstance(b, Counter) else Counter())
                else:
                    t.r[ops[0]] = None
                return False
            if a is None or b is None:
                t.r[ops[0]] = None
                return False
            bits = 64 if parts[-1].endswith("64") else 32
            mask = (1 << bits) - 1
            signed = parts[-1].startswith("s")
            if signed:
                a = a - (1 << bits) if a & (1 << (bits - 1)) else a
                b = b - (1 << bits) if b & (1 << (bits - 1)) else b
            r = {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b, "shl": lambda: a << b,
                 "shr": lambda: (a & mask) >> b, "xor": lambda: a ^ b, "and": lambda: a & b, "or": lambda: a | b,
                 "div": lambda: int(a / b) if b else 0, "rem": lambda: (a % b) if b else 0, "min": lambda: min(a, b),
                 "max": lambda: max(a, b)}[base]()
            t.r[ops[0]] = r & mask
            return False
        if base == "setp":
            cmp, ty = parts[1], parts[2]
            a, b = t.val(ops[1]), t.val(ops[2])
            if not isinstance(a, int) or not isinstance(b, int):
                t.r[ops[0]] = False
                return False
            if ty.startswith("s"):
                a = a - (1 << 32) if a & (1 << 31) else a
                b = b - (1 << 32) if b & (1 << 31) else b
            t.r[ops[0]] = {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b}[cmp]
            return False
        if base == "selp":
            t.r[ops[0]] = t.val(ops[1]) if t.val(ops[3]) else t.val(ops[2])
            return False
        if base == "mapa":
            t.r[ops[0]] = ("remote", t.val(ops[1]))
            return False
        # anything else writing a register: unknown
        if ops and re.match(r"^%\w+$", ops[0]) and base not in ("st", "stmatrix", "red", "atom", "cp", "fence", "bar", "barrier", "setmaxnreg"):
            t.r[ops[0]] = None
        return False

    def wgmma(self, t, op, ops):
        if ".fence" in op:
            return False
        if ".mma_async" in op:
            regs = [x.strip() for x in ops[0].strip("{}").split(",")]
            scale_d = int(t.val(ops[3])) if len(ops) > 3 else 1
            if t.last_full is None:
                raise Fail("MMA before any full wait")
            items = Counter({self.stage_item(t.last_full): 1})
            for r in regs:
                old = t.r.get(r, Counter())
                t.r[r] = (old if scale_d else Counter()) + items
            if t.open is None:
                t.open = (set(regs), t.last_full)
            else:
                t.open[0].update(regs)
            self.reading[t.last_full] += 1
            return False
        if ".commit_group" in op:
            if t.open:
                t.groups.append(t.open)
                t.open = None
            return False
        if ".wait_group" in op:
            n = int(op.split()[-1]) if " " in op else int(ops[0]) if ops else int(op.split(".")[-1])
            while len(t.groups) > n:
                regs, st = t.groups.pop(0)
                self.reading[st] = 0  # (one group per stage)
            return False
        raise Fail("wgmma op " + op)

    def stage_item(self, full_a):
        data = self.stage_data.get(full_a)
        if not data:
            raise Fail("MMA reads a stage never loaded")
        return tuple(data)

    def mbarrier(self, t, op, ops):
        if ".init" in op:
            a = t.addr(ops[0])
            self.bars[a] = Barrier(int(ops[1]), self)
            self.version += 1
            return False
        if ".try_wait" in op:
            if t.name == "producer":
                self.flush()
            a = t.addr(ops[1])
            parity = t.val(ops[2])
            ok = self.bar(a).done(parity & 1)
            t.r[ops[0]] = ok
            if ok and t.name == "consumer":
                t.last_full = a
                t.log.append(("wait", a, parity))
            if ok and t.name == "producer":
                t.log.append(("wait_empty", a, parity))
            return not ok
        if ".arrive.expect_tx" in op:
            self.flush()
            a = t.addr(ops[1])
            self.stage_data[a] = []
            self.armed.append(a)
            t.log.append(("fill", a))
            return False
        if ".arrive" in op:
            x = ops[1].strip()
            if x.startswith("[") and "remote" in str(t.val(x.strip("[]").split("+")[0])):
                rv = t.val(x.strip("[]").split("+")[0])
                a = rv[1] + int(x.strip("[]").split("+")[1]) if "+" in x else rv[1]
                kind = "remote"
            else:
                a = t.addr(x)
                kind = "local"
            b = self.bar(a)
            nst = len(self.bars) // 2
            full = a - 8 * nst
            for regs, st in t.groups + ([t.open] if t.open else []):
                if st == full:
                    raise Fail(f"stage {full} released while MMAs reading it are in flight")
            w = b.count // 2 if self.multicast else b.count
            b.arrive(w)
            t.log.append(("release", a, kind))
            return False
        raise Fail("mbarrier op " + op)

def analyse(ptx, ctaid=0, nctaid=1, seeds=(0, 1, 2), params=None):
    """Simulates CTA `ctaid` of `nctaid` under each seed's interleaving (`params`: the
    kernel's parameters by name, where sizes are known at launch) and checks that every
    stage's fill is waited for once, in order, and released once, no barrier is left
    mid-phase, and each tile's sums hold each K step's four K-slices once. Returns per seed
    (fills, releases, each tile's K steps)."""
    res = []
    for seed in seeds:
        sim = Sim(ptx, ctaid, nctaid, seed, params=params)
        prod, cons = sim.run()
        fills = [e for e in prod.log if e[0] == "fill"]
        waits = [e for e in cons.log if e[0] == "wait"]
        rel = [e for e in cons.log if e[0] == "release"]
        # every fill consumed, in order
        assert [w[1] for w in waits] == [f[1] for f in fills], ("full waits vs fills", len(waits), len(fills))
        # releases: per stage, local (and remote) count == uses
        uses = Counter(f[1] for f in fills)
        nst = len(sim.bars) // 2
        loc = Counter(r[1] - 8 * nst for r in rel if r[2] == "local")
        rem = Counter(r[1] - 8 * nst for r in rel if r[2] == "remote")
        assert loc == uses, ("local releases", loc, uses)
        if sim.multicast:
            assert rem == uses, ("remote releases", rem, uses)
        else:
            assert not rem
        # barrier states: no partial phases
        for a, b in sim.bars.items():
            assert b.pending == 0, ("partial phase", a, b.pending)
        # sums: at each check, the totals (the registers added into) hold each K step of one tile 4 times
        totals = sorted({int(m) for m in re.findall(r"add\.f32 %f\d+, %f(\d+), %f\d+;", ptx)})
        tiles = []
        for snap in sim.checks:
            vals = [snap.get(f"%f{r}") for r in totals]
            v0 = vals[0]
            assert all(v == v0 for v in vals), "registers differ"
            assert v0 and all(c == 4 for c in v0.values()), ("each step's 4 slices once", v0)
            tiles.append(sorted(v0))
        res.append((len(fills), len(rel), tiles))
    return res
