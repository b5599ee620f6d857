#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/plot.py on fresh runs of collnet (docs/plots.md).

  kinds    every plot kind drawn from the JSON collnet writes: a PNG of the expected
           size that is not blank (several colours, no single colour over 97% of it),
           and an SVG
  refuses  a file of the wrong kind, a missing file, a bad output name: exit 2 and a
           message naming the problem

Usage: plot_test.py COLLNET_BINARY WORK_DIR {kinds|refuses}"""
import os
import pathlib
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
plot = root / "scripts" / "plot.py"
python = "/usr/bin/python3"  # Debian's, with python3-matplotlib


def check(cond, what):
    if not cond:
        sys.exit("FAIL: " + what)


def run(args, ok=True):
    # A clean environment but for the model cache the tests share (a preset with other
    # sizes, such as bgl, builds its node models there once).
    env = {"PATH": "/usr/bin:/bin", "CI": "1"}
    env.update({k: v for k, v in os.environ.items() if k.startswith("COLLNET_MODEL_")})
    r = subprocess.run(args, capture_output=True, text=True, env=env)
    if ok:
        check(r.returncode == 0, f"{' '.join(map(str, args))} exited {r.returncode}: {r.stdout}{r.stderr}")
    return r


def png_is_a_picture(path, min_w, min_h):
    import matplotlib.image
    img = matplotlib.image.imread(str(path))
    h, w = img.shape[0], img.shape[1]
    check(w >= min_w and h >= min_h, f"{path}: {w}x{h} pixels, expected at least {min_w}x{min_h}")
    flat = (img[:, :, :3] * 255).astype(int).reshape(-1, 3)
    keys = flat[:, 0] * 65536 + flat[:, 1] * 256 + flat[:, 2]
    import numpy
    values, counts = numpy.unique(keys, return_counts=True)
    top = counts.max() / keys.size
    check(len(values) >= 16, f"{path}: only {len(values)} colours: blank")
    check(top < 0.97, f"{path}: one colour covers {100 * top:.1f}% of it: blank")
    print(f"{path.name}: {w}x{h}, {len(values)} colours, the commonest {100 * top:.1f}%")


def kinds(collnet, work):
    jobs = {
        "links": [collnet, "traffic", "--torus", "4x4x2", "--cycles", "1500", "--rate", "0.3", "--seed", "2",
                  "--json", work / "links.json"],
        "tree": [collnet, "run", "allreduce", "--torus", "2x2x2", "--count", "512", "--json", work / "tree.json"],
        "latency": [collnet, "traffic", "--torus", "2x2x2", "--cycles", "800", "--sweep", "0.2:1.0:0.4",
                    "--json", work / "latency.json"],
        "compare": [collnet, "compare", "allreduce", "--torus", "2x2x2", "--sizes", "8,256",
                    "--algorithms", "tree,torus-ring", "--json", work / "compare.json"],
        "timeline": [collnet, "traffic", "--torus", "2x2x2", "--cycles", "2000", "--rate", "0.5",
                     "--sample-every", "200", "--json", work / "timeline.json"],
        # Two machines' timing, the default sizes: a sweep that builds no node models.
        "sweep": [collnet, "sweep", "--machines", "default,bgl", "--json", work / "sweep.json", "--", "traffic",
                  "--torus", "2x2x2", "--cycles", "800", "--sweep", "0.1:0.3:0.1"],
    }
    for name, args in jobs.items():
        run(args)
    for kind, data, size in (("links", "links", (900, 400)), ("links", "tree", (500, 400)),
                             ("latency", "latency", (1000, 400)), ("compare", "compare", (700, 450)),
                             ("timeline", "timeline", (800, 400)), ("sweep", "sweep", (700, 450))):
        out = work / f"{data}.png"
        run([python, plot, kind, work / f"{data}.json", "-o", out])
        png_is_a_picture(out, *size)
        svg = work / f"{data}.svg"
        run([python, plot, kind, work / f"{data}.json", "-o", svg])
        text = svg.read_text()
        check(text.lstrip().startswith("<?xml") and "<svg" in text and text.count("<path") > 10,
              f"{svg}: not an SVG drawing")


def refuses(collnet, work):
    run([collnet, "run", "allreduce", "--torus", "2x2x2", "--count", "8", "--json", work / "one.json"])
    cases = [
        (["latency", work / "one.json", "-o", work / "x.png"], "needs points"),
        (["timeline", work / "one.json", "-o", work / "x.png"], "needs samples"),
        (["sweep", work / "one.json", "-o", work / "x.png"], "needs variants"),
        (["links", work / "absent.json", "-o", work / "x.png"], "absent.json"),
        (["links", work / "one.json", "-o", work / "x.jpg"], "must end in .png or .svg"),
    ]
    (work / "bad.json").write_text("{ not json")
    cases.append((["links", work / "bad.json", "-o", work / "x.png"], "not JSON"))
    for args, names in cases:
        r = run([python, plot] + args, ok=False)
        check(r.returncode == 2, f"plot.py {args}: exit {r.returncode}, expected 2")
        check(names in r.stderr, f"plot.py {args}: '{r.stderr.strip()}' does not say '{names}'")
        check(not (work / "x.png").exists(), f"plot.py {args} wrote a picture")


def main():
    if len(sys.argv) != 4 or sys.argv[3] not in ("kinds", "refuses"):
        sys.exit(__doc__)
    collnet, work = sys.argv[1], pathlib.Path(sys.argv[2])
    work.mkdir(parents=True, exist_ok=True)
    {"kinds": kinds, "refuses": refuses}[sys.argv[3]](collnet, work)
    print("PASS")


if __name__ == "__main__":
    main()
