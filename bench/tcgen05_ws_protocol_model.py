"""A model of the warp-specialised tcgen05 GEMM's barrier protocol
(passes/to_ptx/gemm/tcgen05_specialized.py), for want of a Blackwell GPU to run it.

    python bench/tcgen05_ws_protocol_model.py [interleavings]

It models the protocol, not the PTX: the three roles are generators written with the
lowering's formulas (stage s and phase p of the ring, buffer b and phase q of the
accumulator, the parities each wait uses). mbarriers complete phases by arrival counts.
TMA loads land in any order; the tensor core retires MMAs and commits in issue order (a
commit arrives once every earlier MMA of the thread is done). Interleavings are random.
Checks: no deadlock; TMA never overwrites a stage that an unfinished MMA reads; MMAs
never write a buffer the epilogue is reading; the epilogue reads a buffer only once all its
tile's MMAs are done. Each of these mutations makes it fail: the parity of the MMA
thread's "acc_empty" wait or of the producer's "empty" wait not flipped, that of the
epilogue's "acc_full" wait or of the MMA thread's "full" wait flipped, the epilogue's
arrival dropped, the "acc_full" commit ahead of the MMAs. A change to the lowering's formulas must be made here
too: nothing ties the two together but this docstring."""
from __future__ import annotations

import random
import sys
from collections.abc import Iterator


class Bar:
    """An mbarrier: a phase completes when `count` arrivals have come."""

    def __init__(self, count: int) -> None:
        self.count, self.pending, self.phase = count, count, 0

    def arrive(self) -> None:
        self.pending -= 1
        if self.pending == 0:
            self.phase += 1
            self.pending = self.count

    def done(self, parity: int) -> bool:
        """try_wait.parity: the latest phase of this parity has completed (before the
        first completion, parity 1 counts as done)."""
        return (self.phase & 1) != parity


def run(seed: int, stages: int, tiles: int, trips: int, buffers: int, ctas: int) -> None:
    rnd = random.Random(seed)
    full = [Bar(1) for _ in range(stages)]
    empty = [Bar(1) for _ in range(stages)]  # tcgen05.commit: one arrival
    acc_full = [Bar(1) for _ in range(buffers)]
    acc_empty = [Bar(1) for _ in range(buffers)]  # 128 epilogue threads, modelled as one
    stage_data: list[tuple[int, int] | None] = [None] * stages  # (tile, k step) in stage s
    stage_readers = [0] * stages  # issued MMAs reading stage s, not yet done
    buffer_tile: list[int | None] = [None] * buffers
    buffer_read = [False] * buffers
    tma: list[tuple[int, tuple[int, int]]] = []  # loads in flight
    tensor_core: list[tuple] = []  # MMAs and commits, retired in issue order
    my_tiles = list(range(0, tiles, ctas))  # this CTA's tiles: first, first + ctas, ...

    def producer() -> Iterator[None]:
        s = p = 0
        for t in my_tiles:
            for j in range(trips):
                while not empty[s].done(p ^ 1):
                    yield
                assert stage_readers[s] == 0, "TMA overwrites a stage being read"
                tma.append((s, (t, j)))
                s += 1
                if s == stages:
                    s, p = 0, p ^ 1

    def mma() -> Iterator[None]:
        s = p = b = q = 0
        for t in my_tiles:
            while not acc_empty[b].done(q ^ 1):
                yield
            assert not buffer_read[b], "MMAs write a buffer the epilogue reads"
            for i in range(trips):
                while not full[s].done(p):
                    yield
                assert stage_data[s] == (t, i), f"MMA reads stage {s} holding {stage_data[s]}, not {(t, i)}"
                stage_readers[s] += 1
                tensor_core.append(("mma", s, b, t))
                tensor_core.append(("commit", empty[s]))
                s += 1
                if s == stages:
                    s, p = 0, p ^ 1
                yield
            tensor_core.append(("commit", acc_full[b]))
            b += 1
            if b == buffers:
                b, q = 0, q ^ 1

    def epilogue() -> Iterator[None]:
        b = q = 0
        for t in my_tiles:
            while not acc_full[b].done(q):
                yield
            unfinished = any(e[0] == "mma" and e[2] == b for e in tensor_core)
            assert buffer_tile[b] == t and not unfinished, "the epilogue reads an unfinished buffer"
            buffer_read[b] = True
            for _ in range(rnd.randint(0, 3)):  # tcgen05.ld and the stores take a while
                yield
            buffer_read[b] = False
            buffer_tile[b] = None
            acc_empty[b].arrive()
            b += 1
            if b == buffers:
                b, q = 0, q ^ 1

    roles = {"producer": producer(), "mma": mma(), "epilogue": epilogue()}
    steps = 0
    while roles or tma or tensor_core:
        steps += 1
        assert steps < 200_000, "deadlock"
        choice = rnd.random()
        if choice < 0.2 and tma:  # a TMA load lands, in any order
            s, data = tma.pop(rnd.randrange(len(tma)))
            stage_data[s] = data
            full[s].arrive()
        elif choice < 0.4 and tensor_core:  # the tensor core retires in order
            event = tensor_core.pop(0)
            if event[0] == "mma":
                _, s, b, t = event
                stage_readers[s] -= 1
                assert buffer_tile[b] in (None, t), "MMAs of two tiles in one buffer"
                buffer_tile[b] = t
            else:
                event[1].arrive()
        elif roles:
            name = rnd.choice(list(roles))
            try:
                next(roles[name])
            except StopIteration:
                del roles[name]


def main(argv: list[str]) -> int:
    count = int(argv[0]) if argv else 3000
    for seed in range(count):
        r = random.Random(seed)
        run(seed, stages=r.choice([2, 3, 4]), tiles=r.choice([1, 2, 3, 7, 12]), trips=r.choice([1, 2, 3, 5, 16]),
            buffers=r.choice([1, 2]), ctas=r.choice([1, 2, 5]))
    print(f"{count} random interleavings: no deadlock, no race")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
