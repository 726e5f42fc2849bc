#!/usr/bin/env python3
"""Unseen test images for `kiln image --denoise` and their exact minima by min-cut.

usage: scripts/denoise_truth.py OUT_DIR [--only NAME,...] [--check DATA_DIR]
                               [--solver maxflow|networkx]

Makes a family of binary images deterministically (each from its own seed): text in a
5x7 bitmap font at stroke widths 1-3, line art (circles, polylines, hatching), fine
stripes and checks, and blobs, at 64-256 px; adds bit-flip noise of 10 % and 20 %; and
computes the exact minimum of kiln's denoising energy (the same as ../shared/data/image's
README: lam * #disagreements + beta * #unequal unordered neighbour pairs, free edges,
diagonals weigh beta in the 8-neighbourhood) for n4 and n8 and several beta by s-t
min-cut with integer capacities 4 lam and 4 beta: PyMaxflow (Boykov-Kolmogorov, the
solver of the shared set; `pip install PyMaxflow==1.3.2`) when it is importable, else
networkx's boykov_kolmogorov (pure Python, about a minute a 256x256 cut on a quiet
machine; --solver networkx forces it).

Writes OUT_DIR/<name>_clean.pbm, <name>_noisy.pbm and OUT_DIR/ground_truth.json in the
shared set's layout (instances[].results[] with neighbourhood, lam, beta, min_energy), so
scripts/bench.py's image suite and puzzles/image/ground_truth_ratios.py read it as they
read the shared set. Every minimum is certified: the energy of the cut's labelling,
counted independently, equals the cut value / 4. With --check DATA_DIR it first recomputes
a few entries of DATA_DIR/ground_truth.json and stops if any differs.

Pure Python (no numpy): the noise comes from random.Random(noise seed), so the images are
the same on every machine with the same Python. A 256x256 n8 cut takes about half a
minute.
"""
import argparse
import json
import math
import random
import sys
from pathlib import Path

import networkx as nx
from networkx.algorithms.flow import boykov_kolmogorov

try:
    import maxflow  # noqa: F401  (PyMaxflow)
    SOLVER = "maxflow"
except ImportError:
    SOLVER = "networkx"

# A 5x7 font: each glyph is 7 rows of 5 bits, the high bit on the left.
FONT = {
    "A": "0E 11 11 1F 11 11 11", "B": "1E 11 11 1E 11 11 1E", "C": "0E 11 10 10 10 11 0E",
    "D": "1E 11 11 11 11 11 1E", "E": "1F 10 10 1E 10 10 1F", "F": "1F 10 10 1E 10 10 10",
    "G": "0E 11 10 17 11 11 0F", "H": "11 11 11 1F 11 11 11", "I": "0E 04 04 04 04 04 0E",
    "J": "07 02 02 02 02 12 0C", "K": "11 12 14 18 14 12 11", "L": "10 10 10 10 10 10 1F",
    "M": "11 1B 15 15 11 11 11", "N": "11 11 19 15 13 11 11", "O": "0E 11 11 11 11 11 0E",
    "P": "1E 11 11 1E 10 10 10", "Q": "0E 11 11 11 15 12 0D", "R": "1E 11 11 1E 14 12 11",
    "S": "0F 10 10 0E 01 01 1E", "T": "1F 04 04 04 04 04 04", "U": "11 11 11 11 11 11 0E",
    "V": "11 11 11 11 11 0A 04", "W": "11 11 11 15 15 15 0A", "X": "11 11 0A 04 0A 11 11",
    "Y": "11 11 0A 04 04 04 04", "Z": "1F 01 02 04 08 10 1F", " ": "00 00 00 00 00 00 00",
    "0": "0E 11 13 15 19 11 0E", "1": "04 0C 04 04 04 04 0E", "2": "0E 11 01 02 04 08 1F",
    "3": "1F 02 04 02 01 11 0E", "4": "02 06 0A 12 1F 02 02", "5": "1F 10 1E 01 01 11 0E",
    "7": "1F 01 02 04 08 08 08", "9": "0E 11 11 0F 01 02 0C", ".": "00 00 00 00 00 0C 0C",
}
WORDS = ("ANNEALING COOLS SLOWLY THE KILN FIRES CLAY MIN CUT GIVES THE EXACT MAP "
         "QUICK BROWN FOX JUMPS OVER LAZY DOGS 1729 2357 ISING MODEL BETA LAMBDA").split()


def blank(w, h):
    return [[0] * w for _ in range(h)]


def text(w, h, seed, scale):
    """Lines of random words from WORDS, each letter 5x7 cells of `scale` pixels."""
    rng = random.Random(seed)
    img = blank(w, h)
    y = rng.randrange(1, 3 * scale)
    while y + 7 * scale <= h:
        x = rng.randrange(1, 4 * scale)
        while True:
            word = rng.choice(WORDS)
            if x + 6 * scale * len(word) > w:
                break
            for ch in word:
                rows = [int(v, 16) for v in FONT[ch].split()]
                for r, bits in enumerate(rows):
                    for c in range(5):
                        if bits >> (4 - c) & 1:
                            for dy in range(scale):
                                for dx in range(scale):
                                    img[y + r * scale + dy][x + c * scale + dx] = 1
                x += 6 * scale
            x += 6 * scale
        y += 9 * scale + rng.randrange(0, 2 * scale)
    return img


def disc(img, cx, cy, r, value=1):
    h, w = len(img), len(img[0])
    for y in range(max(0, int(cy - r)), min(h, int(cy + r) + 2)):
        for x in range(max(0, int(cx - r)), min(w, int(cx + r) + 2)):
            if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
                img[y][x] = value


def line(img, x0, y0, x1, y1, width):
    n = int(max(abs(x1 - x0), abs(y1 - y0)) * 2) + 1
    for k in range(n + 1):
        t = k / n
        disc(img, x0 + t * (x1 - x0), y0 + t * (y1 - y0), width / 2)


def lineart(w, h, seed):
    """Circles, polylines and a hatched box drawn with 1-3 px pens."""
    rng = random.Random(seed)
    img = blank(w, h)
    for _ in range(4):
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(w / 10, w / 3)
        pen = rng.choice((1.0, 1.5, 2.5))
        steps = int(2 * math.pi * r)
        for k in range(steps):
            a = 2 * math.pi * k / steps
            disc(img, cx + r * math.cos(a), cy + r * math.sin(a), pen / 2)
    for _ in range(5):
        pen = rng.choice((1.0, 1.5, 2.5, 3.5))
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        for _ in range(4):
            nx_, ny = rng.uniform(0, w), rng.uniform(0, h)
            line(img, x, y, nx_, ny, pen)
            x, y = nx_, ny
    x0, y0 = rng.randrange(w // 2), rng.randrange(h // 2)
    for k in range(0, w // 3, 4):
        line(img, x0 + k, y0, x0, y0 + k, 1.0)
    return img


def stripes(w, h, seed):
    """Quadrants of fine stripes (period 2-6, several angles) and checks of 1-4 px."""
    rng = random.Random(seed)
    img = blank(w, h)
    for qy in range(2):
        for qx in range(2):
            kind = rng.choice(("h", "v", "d", "check"))
            period = rng.choice((2, 3, 4, 6))
            on = max(1, period // 2)
            for y in range(qy * h // 2, (qy + 1) * h // 2):
                for x in range(qx * w // 2, (qx + 1) * w // 2):
                    if kind == "h":
                        v = y % period < on
                    elif kind == "v":
                        v = x % period < on
                    elif kind == "d":
                        v = (x + y) % period < on
                    else:
                        v = (x // on + y // on) % 2 == 0
                    img[y][x] = int(v)
    return img


def blobs(w, h, seed):
    """Discs and holes of radius 2-20 px."""
    rng = random.Random(seed)
    img = blank(w, h)
    for k in range(40):
        disc(img, rng.uniform(0, w), rng.uniform(0, h), rng.uniform(2, 20), int(k % 4 != 3))
    return img


# name: (maker, width, height, image seed); every image gets 10 % and 20 % noise.
FAMILY = {
    "text1_256": (lambda w, h, s: text(w, h, s, 1), 256, 256, 11),
    "text2_256": (lambda w, h, s: text(w, h, s, 2), 256, 256, 12),
    "text3_192": (lambda w, h, s: text(w, h, s, 3), 192, 192, 13),
    "text2_64": (lambda w, h, s: text(w, h, s, 2), 64, 64, 14),
    "lineart_256": (lineart, 256, 256, 21),
    "lineart_128": (lineart, 128, 128, 22),
    "stripes_128": (stripes, 128, 128, 31),
    "stripes_256": (stripes, 256, 256, 32),
    "blobs_256": (blobs, 256, 256, 41),
}
NOISES = ((0.10, 1), (0.20, 2))
# (neighbourhood, beta) per image; lam = 1. The informative range of the shared README:
# n4 with beta 0.5-1.5, n8 with beta 0.25-0.75 (beyond, text vanishes at the minimum).
GRID = ((4, 0.5), (4, 0.75), (4, 1.0), (4, 1.5), (8, 0.25), (8, 0.5), (8, 0.75))


def noisy(img, p, seed):
    rng = random.Random(seed)
    return [[v ^ int(rng.random() < p) for v in row] for row in img]


def pairs(w, h, n):
    offsets = ((0, 1), (1, 0)) + (((1, 1), (1, -1)) if n == 8 else ())
    for y in range(h):
        for x in range(w):
            for dy, dx in offsets:
                if 0 <= y + dy < h and 0 <= x + dx < w:
                    yield (y, x), (y + dy, x + dx)


def energy(x, y, lam, beta, n):
    h, w = len(y), len(y[0])
    data = sum(x[r][c] != y[r][c] for r in range(h) for c in range(w))
    smooth = sum(x[a][b] != x[c][d] for (a, b), (c, d) in pairs(w, h, n))
    return lam * data + beta * smooth


def min_energy(y, lam, beta, n):
    """Exact minimum of the energy of observation `y`, and a labelling that attains it,
    checked against `energy` (the max-flow = min-cut certificate)."""
    cut, x = (cut_networkx if SOLVER == "networkx" else cut_maxflow)(y, lam, beta, n)
    e = energy(x, y, lam, beta, n)
    if abs(e - cut / 4) > 1e-9:
        sys.exit(f"certificate failed: cut {cut / 4} but the labelling's energy is {e}")
    return cut / 4, x


def cut_maxflow(y, lam, beta, n):
    """4 x the minimum and a minimiser, by PyMaxflow on the same graph as `cut_networkx`."""
    import maxflow
    import numpy as np
    h, w = len(y), len(y[0])
    arr = np.array(y, dtype=np.int64)
    g = maxflow.Graph[int]()
    nodes = g.add_grid_nodes((h, w))
    structure = np.zeros((3, 3), dtype=np.int64)
    structure[1, 2] = structure[2, 1] = 1
    if n == 8:
        structure[2, 2] = structure[2, 0] = 1
    g.add_grid_edges(nodes, weights=round(4 * beta), structure=structure, symmetric=True)
    L = round(4 * lam)
    # Source capacity: the cost of the sink side (black) where y is white, and back.
    g.add_grid_tedges(nodes, L * (1 - arr), L * arr)
    cut = g.maxflow()
    black = g.get_grid_segments(nodes)
    return cut, [[int(v) for v in row] for row in black]


def cut_networkx(y, lam, beta, n):
    """4 x the minimum by min-cut: the source side is white (0), the sink side black (1).
    Returns the minimum and a labelling that attains it, checked against `energy`."""
    h, w = len(y), len(y[0])
    g = nx.DiGraph()
    L, B = round(4 * lam), round(4 * beta)
    for r in range(h):
        for c in range(w):
            # Cutting s->p labels p black (costs lam where y is white), p->t white.
            if y[r][c]:
                g.add_edge((r, c), "t", capacity=L)
            else:
                g.add_edge("s", (r, c), capacity=L)
    for p, q in pairs(w, h, n):
        g.add_edge(p, q, capacity=B)
        g.add_edge(q, p, capacity=B)
    g.add_node("s")
    g.add_node("t")
    cut, (white, _) = nx.minimum_cut(g, "s", "t", flow_func=boykov_kolmogorov)
    x = [[1] * w for _ in range(h)]
    for p in white:
        if p != "s":
            x[p[0]][p[1]] = 0
    return cut, x


def read_pbm(path):
    tokens = [t for line in Path(path).read_text().splitlines()
              if not line.startswith("#") for t in line.split()]
    assert tokens[0] == "P1"
    w, h = int(tokens[1]), int(tokens[2])
    digits = "".join(tokens[3:])
    return [[int(digits[r * w + c]) for c in range(w)] for r in range(h)]


def write_pbm(path, img, comment):
    h, w = len(img), len(img[0])
    digits = "".join(str(v) for row in img for v in row)
    body = "\n".join(digits[k:k + 64] for k in range(0, len(digits), 64))
    Path(path).write_text(f"P1\n# {comment}\n{w} {h}\n{body}\n")


def check(data):
    """Recomputes shapes_128 n4 beta 0.75, n8 beta 0.5 and text_256_p20 n8 beta 0.5."""
    truth = json.loads((data / "ground_truth.json").read_text())
    wanted = {("shapes_128", 4, 0.75), ("shapes_128", 8, 0.5), ("text_256_p20", 8, 0.5)}
    for inst in truth["instances"]:
        y = None
        for r in inst["results"]:
            if (inst["name"], r["neighbourhood"], r["beta"]) not in wanted:
                continue
            y = y or read_pbm(data / inst["noisy_file"])
            mine, _ = min_energy(y, r["lam"], r["beta"], r["neighbourhood"])
            ok = abs(mine - r["min_energy"]) < 1e-9
            print(f"check {inst['name']} n{r['neighbourhood']} beta {r['beta']}: "
                  f"{mine} vs shipped {r['min_energy']} {'ok' if ok else 'DIFFERS'}", flush=True)
            if not ok:
                sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--only", help="comma-separated image names (default: all)")
    ap.add_argument("--check", type=Path, metavar="DATA_DIR")
    ap.add_argument("--solver", choices=("maxflow", "networkx"))
    args = ap.parse_args()
    global SOLVER
    SOLVER = args.solver or SOLVER
    if args.check:
        check(args.check)
    args.out.mkdir(parents=True, exist_ok=True)
    names = args.only.split(",") if args.only else list(FAMILY)
    truth_file = args.out / "ground_truth.json"
    truth = json.loads(truth_file.read_text()) if truth_file.exists() else {
        "set": "kiln scripts/denoise_truth.py", "energy": "as ../shared/data/image/README.md",
        "solver": SOLVER,
        "instances": []}
    done = {i["name"] for i in truth["instances"]}
    for name in names:
        maker, w, h, seed = FAMILY[name]
        clean = maker(w, h, seed)
        write_pbm(args.out / f"{name}_clean.pbm", clean, f"{name} clean, seed {seed}")
        for p, salt in NOISES:
            inst_name = f"{name}_p{round(100 * p)}"
            if inst_name in done:
                continue
            noise_seed = 1000 * seed + salt
            y = noisy(clean, p, noise_seed)
            write_pbm(args.out / f"{inst_name}_noisy.pbm", y,
                      f"{name} with {p} bit-flip noise, seed {noise_seed}")
            results = []
            for n, beta in GRID:
                e, _ = min_energy(y, 1.0, beta, n)
                results.append({"neighbourhood": n, "lam": 1.0, "beta": beta, "min_energy": e,
                                 "energy_of_noisy_image": energy(y, y, 1.0, beta, n),
                                 "energy_of_clean_image": energy(clean, y, 1.0, beta, n)})
                print(f"{inst_name} n{n} beta {beta}: {e}", flush=True)
            truth["instances"].append({
                "name": inst_name, "width": w, "height": h,
                "noise": {"model": "bit-flip", "p": p, "noise_seed": noise_seed,
                          "rng": "python random.Random(noise_seed).random() < p, row by row"},
                "clean_file": f"{name}_clean.pbm", "noisy_file": f"{inst_name}_noisy.pbm",
                "results": results})
            truth_file.write_text(json.dumps(truth, indent=1) + "\n")


if __name__ == "__main__":
    main()
