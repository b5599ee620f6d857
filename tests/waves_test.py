#!/usr/bin/python3
"""The .gtkw views collnet writes, opened in GTKWave on a virtual display (docs/waveforms.md).

  tree    a traced allreduce: the pair (FST and view) is moved to another directory and
          opened from a third; GTKWave loads it, runs collnet-wave-filter, and the
          screenshot shows waves in the wave area and decoded headers (yellow boxes)
  torus   traced torus traffic: the same, with the torus's headers (cyan boxes), and the
          view holds no tree link

A screenshot of each is kept beside the moved pair (WORK_DIR/moved/*.png) for a look.
Usage: waves_test.py COLLNET_BINARY WORK_DIR {tree|torus}"""
import os
import pathlib
import shutil
import subprocess
import sys
import time

SCREEN = (1600, 1000)


def check(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)


def run(args, cwd=None):
    r = subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd=cwd,
                       env={"PATH": "/usr/bin:/bin", "CI": "1"})
    check(r.returncode == 0, f"{' '.join(map(str, args))} exited {r.returncode}: {r.stdout}{r.stderr}")
    return r


# Opens `gtkw` in GTKWave under xvfb-run, waits until it has loaded the FST, grabs the
# screen into `png`, and returns what GTKWave printed. Fails if GTKWave exits by itself
# (it does when it cannot load the FST the view names).
SHOT = r'''
gtkwave -r "$2" "$0" > "$1.log" 2>&1 &
pid=$!
for i in $(seq 1 100); do
  sleep 0.2
  kill -0 $pid 2>/dev/null || { wait $pid; echo "gtkwave exited with status $?"; exit 3; }
  grep -q "FSTLOAD | Extracting\|GTKWAVE | Could not" "$1.log" && break
done
sleep 1.5
/usr/bin/python3 -c "import sys; from PIL import ImageGrab; ImageGrab.grab(xdisplay=sys.argv[1]).save(sys.argv[2])" "$DISPLAY" "$1"
kill -0 $pid 2>/dev/null || { echo "gtkwave exited while drawing"; exit 3; }
kill $pid; wait $pid 2>/dev/null; exit 0
'''


def screenshot(gtkw, png, cwd):
    rc = png.with_suffix(".rc")
    rc.write_text("splash_disable 1\n")
    r = subprocess.run(["xvfb-run", "-a", "-s", f"-screen 0 {SCREEN[0]}x{SCREEN[1]}x24", "bash", "-c", SHOT,
                        str(gtkw), str(png), str(rc)], capture_output=True, text=True, cwd=cwd, timeout=120)
    log = pathlib.Path(str(png) + ".log").read_text() if pathlib.Path(str(png) + ".log").exists() else ""
    check(r.returncode == 0, f"GTKWave on {gtkw}: {r.stdout}{r.stderr}\n{log}")
    check("Could not" not in log, f"GTKWave on {gtkw}: {log}")
    return log


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
