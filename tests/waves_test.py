#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The .gtkw views collnet writes, opened in GTKWave on a virtual display (docs/waveforms.md).

  tree    a traced allreduce: the pair (FST and view) is moved to another directory and
          opened from a third; GTKWave loads it, runs collnet-wave-filter, and the
          screenshot shows waves in the wave area and decoded headers (yellow boxes)
  torus   traced torus traffic: the same, with the torus's headers (cyan boxes), and the
          view holds no tree link

A screenshot of each is kept beside the moved pair (WORK_DIR/moved/*.png) for a look.
Usage: waves_test.py COLLNET_BINARY WORK_DIR {tree|torus}"""
import pathlib
import shutil
import subprocess
import sys

def check(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)


def run(args, cwd=None):
    r = subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd=cwd,
                       env={"PATH": "/usr/bin:/bin", "CI": "1"})
    check(r.returncode == 0, f"{' '.join(map(str, args))} exited {r.returncode}: {r.stdout}{r.stderr}")
    return r


SHOT = pathlib.Path(__file__).resolve().parent.parent / "scripts" / "gtkwave_shot.sh"


# Opens `gtkw` in GTKWave on a virtual display from `cwd`, saves a screenshot in `png`,
# and fails if GTKWave ends by itself or says it could not load something
# (scripts/gtkwave_shot.sh).
def screenshot(gtkw, png, cwd):
    r = subprocess.run([str(SHOT), str(gtkw), str(png)], capture_output=True, text=True, cwd=cwd, timeout=120)
    check(r.returncode == 0, f"GTKWave on {gtkw} (exit {r.returncode}): {r.stdout}{r.stderr}")


def colour_counts(png):
    from PIL import Image
    img = Image.open(png).convert("RGB")
    w, h = img.size
    # The wave area: right of the names pane (its right edge is near x = 460 in this layout).
    area = img.crop((480, 110, w - 30, h - 10))
    counts = {"trace": 0, "yellow": 0, "cyan": 0, "other": 0}
    for (r, g, b), n in ((c, n) for n, c in area.getcolors(maxcolors=1 << 20)):
        if r > 200 and g > 200 and b < 80:
            counts["yellow"] += n
        elif r < 80 and g > 200 and b > 200:
            counts["cyan"] += n
        elif g > 150 and r < 100 and b < 100:
            counts["trace"] += n
        elif r + g + b > 60:
            counts["other"] += n
    return counts


def trace_and_open(collnet, work, name, args, header_colour):
    made, moved, elsewhere = work / "made", work / "moved", work / "elsewhere"
    for d in (made, moved, elsewhere):
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
    run([collnet] + args + ["--trace", made / f"{name}.fst"])
    gtkw = (made / f"{name}.gtkw").read_text()
    check(f'[dumpfile] "{name}.fst"' in gtkw, f"the view names its FST beside itself:\n{gtkw[:400]}")
    filt = pathlib.Path(collnet).resolve().parent / "collnet-wave-filter"
    check(f"^>1 {filt}" in gtkw, f"the view runs {filt} as its filter")
    for f in (f"{name}.fst", f"{name}.gtkw"):
        shutil.move(made / f, moved / f)
    png = moved / f"{name}.png"
    screenshot(moved / f"{name}.gtkw", png, cwd=elsewhere)
    c = colour_counts(png)
    print(f"{name}: {c}")
    check(c["trace"] > 5000, f"{png}: only {c['trace']} pixels of waveform in the wave area: an empty view")
    check(c[header_colour] > 20, f"{png}: no {header_colour} header boxes: the headers were not decoded")
    return gtkw


def tree(collnet, work):
    g = trace_and_open(collnet, work, "allreduce", ["run", "allreduce", "--torus", "2x2x1", "--count", "64"],
                       "yellow")
    check("[markername] Aallreduce starts" in g and "[markername] Ballreduce ends" in g, "markers at the collective")
    check("nd_torus_net" not in g, "an allreduce on the tree shows no torus")


def torus(collnet, work):
    g = trace_and_open(collnet, work, "traffic", ["traffic", "--torus", "2x2x1", "--cycles", "60", "--warmup", "20",
                                                  "--rate", "0.3"], "cyan")
    check("#{node0 x+ out}" in g, "the torus links decoded")
    check("nd_tree_net" not in g, "torus traffic shows no tree")
    check("[markername] Awarmup ends" in g, "the measurement window marked")


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("tree", "torus"):
        sys.exit(__doc__)
    collnet, work = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]) / sys.argv[3]
    {"tree": tree, "torus": torus}[sys.argv[3]](collnet, work)
    print("PASS")


if __name__ == "__main__":
    main()
