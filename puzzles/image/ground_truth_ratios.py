#!/usr/bin/env python3
"""Energy reached by `kiln image --denoise` divided by the exact minimum, for every entry
of a ground_truth.json (as in ../shared/data/image) with images of at most 256x256.

usage: ground_truth_ratios.py DATA_DIR [KILN_BINARY] [extra kiln flags...]
Not part of CI: it needs the shared data set and takes about a second per entry.
"""
import json
import subprocess
import sys
from pathlib import Path


def main():
    data = Path(sys.argv[1])
    kiln = sys.argv[2] if len(sys.argv) > 2 else "target/release/kiln"
    extra = sys.argv[3:]
    truth = json.loads((data / "ground_truth.json").read_text())
    worst = 0.0
    for inst in truth["instances"]:
        if inst["width"] > 256 or inst["height"] > 256:
            continue
        for r in inst["results"]:
            cmd = [kiln, "image", str(data / inst["noisy_file"]), "--denoise", "--headless",
                   "--lambda", str(r["lam"]), "--beta", str(r["beta"]),
                   "--neighbourhood", str(r["neighbourhood"]),
                   "--clean", str(data / inst["clean_file"])] + extra
            out = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
            ratio = out["energy"] / r["min_energy"]
            icm = (out["icm_energy"] or out["initial_energy"]) / r["min_energy"]
            worst = max(worst, ratio)
            print(f"{inst['name']:14} n{r['neighbourhood']} beta={r['beta']:<5} "
                  f"E*={r['min_energy']:<9} E={out['energy']:<9} ratio={ratio:.6f} "
                  f"icm={icm:.5f} steps={out['iterations']} err={out['pixel_error']} "
                  f"(exact-MAP err {r['map_pixel_errors_vs_clean']})")
    print(f"worst ratio {worst:.6f}")


if __name__ == "__main__":
    main()
