#!/usr/bin/env python3
"""Write a puzzle of N random polycubes of K cells in an X x Y x Z box (N*K = X*Y*Z).

The hostile-input tests use one of these (random165.txt: 165 random 10-cell pieces in a
15x11x10 box, about 16 KB) because every piece is a distinct shape with up to 24
orientations at ~1000 translations: hundreds of thousands of images, a model and DLX matrix
of hundreds of megabytes, FILA tables past the WebAssembly heap, and minutes of setup.
The output is deterministic for a seed.

  python3 tests/hostile/make_random_pieces.py 165 10 15 11 10 1 > tests/hostile/random165.txt
"""
import random
import sys


def grow(rng, k):
    cells = {(0, 0, 0)}
    while len(cells) < k:
        x, y, z = rng.choice(sorted(cells))
        dx, dy, dz = rng.choice([(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)])
        cells.add((x + dx, y + dy, z + dz))
    mx = min(c[0] for c in cells)
    my = min(c[1] for c in cells)
    mz = min(c[2] for c in cells)
    return sorted((x - mx, y - my, z - mz) for x, y, z in cells)


def main():
    n, k, x, y, z, seed = (int(a) for a in sys.argv[1:7])
    assert n * k == x * y * z, "the pieces must fill the box"
    rng = random.Random(seed)
    print(f"# {n} random {k}-cell polycubes in a {x}x{y}x{z} box (tests/hostile/make_random_pieces.py, seed {seed})")
    print(f"D:xDim={x}:yDim={y}:zDim={z}")
    for i in range(n):
        layout = ", ".join(f"{a} {b} {c}" for a, b, c in grow(rng, k))
        print(f"C:name=P{i}:layout={layout}")
    print("~D")


main()
