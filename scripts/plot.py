#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Pictures of collnet's JSON (docs/plots.md): PNG or SVG, chosen by the output's suffix.

  plot.py links    RUN.json    -o F   torus link heat map, one panel per z-plane, and the
                                      tree's links by depth (collnet run/traffic --json)
  plot.py latency  SWEEP.json  -o F   latency and accepted load against offered load
                                      (collnet traffic --sweep ... --json)
  plot.py compare  TABLE.json  -o F   cycles against message size per algorithm
                                      (collnet compare --json)
  plot.py timeline RUN.json    -o F   link utilisation over time
                                      (collnet traffic or run --sample-every N --json)
  plot.py sweep    SWEEP.json  -o F   a hardware sweep's variants: accepted against offered
                                      load per variant (a traffic --sweep workload), or
                                      each variant's cycles or load, with its area when
                                      measured (collnet sweep --json)

Needs matplotlib (Debian: python3-matplotlib, which make deps installs); run it with the
system's /usr/bin/python3. Exits 2 naming what is wrong with a file it cannot draw.
"""
import argparse
import json
import math
import sys

DIRS = ["x+", "x-", "y+", "y-", "z+", "z-"]


class PlotError(Exception):
    pass


def load(path, kind, needs):
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise PlotError(f"{path}: {e.strerror}")
    except json.JSONDecodeError as e:
        raise PlotError(f"{path}: not JSON ({e})")
    if not isinstance(data, dict):
        raise PlotError(f"{path}: expected a JSON object from collnet")
    missing = [k for k in needs if k not in data]
    if missing:
        raise PlotError(f"{path}: a '{kind}' plot needs {', '.join(missing)} "
                        f"({'; '.join(HINTS[kind])})")
    return data


HINTS = {
    "links": ["write it with collnet run or traffic --json"],
    "latency": ["write it with collnet traffic --sweep FROM:TO:STEP --json"],
    "compare": ["write it with collnet compare --json"],
    "timeline": ["write it with collnet traffic (or run) --sample-every N --json"],
    "sweep": ["write it with collnet sweep --json"],
}


def pyplot():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def shape_of(text):
    try:
        dims = [int(v) for v in text.split("x")]
    except ValueError:
        dims = []
    if len(dims) != 3 or min(dims) < 1:
        raise PlotError(f"torus '{text}' is not XxYxZ")
    return dims


def plot_links(data, out, title):
    plt = pyplot()
    from matplotlib import cm, colors
    X, Y, Z = shape_of(data["torus"])
    cycles = data.get("simulated_cycles") or data.get("sim_cycles") or data.get("cycles")
    if not cycles:
        raise PlotError("the run has no simulated_cycles (or sim_cycles) to divide flits by")
    rows = data["links"].get("per_link", [])
    torus = {(r["node"], r["link"]): r["tx_flits"] / cycles for r in rows if r["network"] == "torus"}
    tree = [r for r in rows if r["network"] == "tree"]
    top = max(list(torus.values()) + [r["tx_flits"] / cycles for r in tree] + [1e-9])
    norm = colors.Normalize(vmin=0, vmax=max(top, 0.01))
    cmap = cm.get_cmap("inferno_r")

    if not torus and not tree:
        raise PlotError("no link carried anything (the run's links table is empty)")
    # A run that left one network idle (a tree collective, torus traffic) shows the other.
    planes = Z if torus else 0
    panels = planes + (1 if tree else 0)
    cols = min(panels, 4)
    nrows = math.ceil(panels / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols + 1, 4.0 * nrows), squeeze=False,
                             layout="constrained")
    for ax in axes.flat[panels:]:
        ax.axis("off")
    off = 0.12  # the + and - links of a pair are drawn side by side
    for z in range(planes):
        ax = axes.flat[z]
        ax.set_title(f"z = {z}")
        ax.set_aspect("equal")
        ax.set_xlim(-0.7, X - 0.3)
        ax.set_ylim(-0.7, Y - 0.3)
        ax.set_xticks(range(X))
        ax.set_yticks(range(Y))
        ax.set_xlabel("x")
        ax.set_ylabel("y")
        for y in range(Y):
            for x in range(X):
                node = x + X * (y + Y * z)
                for d, (dx, dy, shift) in enumerate([(1, 0, off), (-1, 0, -off), (0, 1, -off), (0, -1, off)]):
                    u = torus.get((node, DIRS[d]))
                    if u is None:
                        continue
                    # A link that wraps round is drawn as a stub off the panel's edge.
                    length = 0.5 if (x + dx) % X != x + dx or (y + dy) % Y != y + dy else 1.0
                    sx, sy = (0, shift) if dy == 0 else (shift, 0)
                    ax.plot([x + sx, x + sx + dx * length * 0.8], [y + sy, y + sy + dy * length * 0.8],
                            color=cmap(norm(u)), linewidth=3, solid_capstyle="butt")
                zu = [torus.get((node, "z+")), torus.get((node, "z-"))]
                zs = [v for v in zu if v is not None]
                ax.scatter([x], [y], s=60, color=cmap(norm(max(zs))) if zs else "lightgrey",
                           edgecolors="black", linewidths=0.6, zorder=3)
    if tree:
        ax = axes.flat[planes]
        ax.set_title("tree links by depth")
        for toward, marker, dx in (("parent", "^", -0.12), ("child", "v", 0.12)):
            pts = [(r["depth"] + dx, r["tx_flits"] / cycles) for r in tree if r.get("toward") == toward]
            if pts:
                ax.scatter([p[0] for p in pts], [p[1] for p in pts], marker=marker,
                           label=f"sent toward the {toward}", alpha=0.7)
        ax.set_xlabel("depth of the sending node")
        ax.set_xticks(range(max(r["depth"] for r in tree) + 1))
        ax.set_ylabel("flits per cycle")
        ax.set_ylim(0, max(1.0, top * 1.1))
        ax.legend(fontsize="small")
    if planes:
        fig.colorbar(cm.ScalarMappable(norm=norm, cmap=cmap), ax=list(axes.flat[:planes]),
                     label="flits sent per cycle (node dots: the busier z link)", shrink=0.8)
    fig.suptitle(title or f"{data.get('collective') or data.get('pattern', '')} on {data['torus']}: "
                 f"link utilisation over {cycles} cycles")
    fig.savefig(out, dpi=110)


def plot_latency(data, out, title):
    plt = pyplot()
    pts = sorted(data["points"], key=lambda p: p["offered_flits_per_node_cycle"])
    if not pts:
        raise PlotError("the sweep has no points")
    offered = [p["offered_flits_per_node_cycle"] for p in pts]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
    a1.plot(offered, [p["avg_latency"] for p in pts], "o-", label="average")
    a1.plot(offered, [p["p99_latency"] for p in pts], "s--", label="99th percentile")
    a1.set_xlabel("offered load (flits/node/cycle)")
    a1.set_ylabel("latency (cycles)")
    a1.set_yscale("log")
    a1.legend()
    a1.grid(alpha=0.3)
    a2.plot(offered, [p["accepted_flits_per_node_cycle"] for p in pts], "o-", label="accepted")
    a2.plot([0, max(offered)], [0, max(offered)], ":", color="grey", label="offered")
    a2.set_xlabel("offered load (flits/node/cycle)")
    a2.set_ylabel("accepted load (flits/node/cycle)")
    a2.legend()
    a2.grid(alpha=0.3)
    fig.suptitle(title or f"{data.get('pattern', '')} traffic on {data.get('torus', '')}, "
                 f"{data.get('routing', '')} routing")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def plot_compare(data, out, title):
    plt = pyplot()
    rows = data["rows"]
    if not rows:
        raise PlotError("the table has no rows")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    names = list(rows[0]["cycles"].keys())
    for name in names:
        pts = [(max(r["bytes"], 1), r["cycles"][name]) for r in rows if r["cycles"].get(name) is not None]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=name)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("bytes per rank")
    ax.set_ylabel("cycles")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize="small")
    ax.set_title(title or f"{data.get('collective', '')} on {data.get('torus', '')}")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def plot_timeline(data, out, title):
    plt = pyplot()
    s = data["samples"]
    if not s.get("cycle"):
        raise PlotError("the run has no samples")
    fig, ax = plt.subplots(figsize=(8, 4))
    # Each network that carried anything (a collective's tree, traffic's torus); the torus
    # when neither did.
    tree = any(s.get("tree_utilisation") or [])
    torus = any(s.get("torus_utilisation") or []) or not tree
    for net, show in (("tree", tree), ("torus", torus)):
        if not show:
            continue
        ax.plot(s["cycle"], s[net + "_utilisation"], label=f"{net} links, mean")
        if net + "_busiest" in s:
            ax.plot(s["cycle"], s[net + "_busiest"], label=f"busiest {net} link", alpha=0.7)
    marks = (("warmup ends", data.get("warmup")),
             ("measurement ends", (data.get("warmup") or 0) + (data.get("cycles") or 0)))
    for name, start in marks if "warmup" in data else ():
        if start:
            ax.axvline(start, color="grey", linestyle=":")
            ax.text(start, 1.05, name + " ", rotation=90, va="top", ha="right", fontsize="small", color="grey")
    ax.set_xlabel("cycle")
    ax.set_ylabel("flits per link per cycle")
    ax.set_ylim(0, 1.1)
    ax.grid(alpha=0.3)
    ax.legend(loc="center right")
    what = data.get("pattern") or data.get("collective", "")
    ax.set_title(title or f"link utilisation every {s.get('every', '?')} cycles, {what} on {data.get('torus', '')}")
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def plot_sweep(data, out, title):
    plt = pyplot()
    variants = [v for v in data["variants"] if v.get("result")]
    if not variants:
        raise PlotError("no variant of the sweep has results")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    what = " ".join(data.get("workload", []))
    if all("points" in v["result"] for v in variants):
        top = 0
        for v in variants:
            pts = sorted(v["result"]["points"], key=lambda p: p["offered_flits_per_node_cycle"])
            offered = [p["offered_flits_per_node_cycle"] for p in pts]
            top = max([top] + offered)
            label = v["label"]
            if v.get("area"):
                label += f" ({sum(a['cells'] for a in v['area'].values()):,} cells)"
            ax.plot(offered, [p["accepted_flits_per_node_cycle"] for p in pts], "o-", label=label)
        ax.plot([0, top], [0, top], ":", color="grey", label="offered")
        ax.set_xlabel("offered load (flits/node/cycle)")
        ax.set_ylabel("accepted load (flits/node/cycle)")
    else:
        key = "cycles" if all("cycles" in v["result"] for v in variants) else "accepted_flits_per_node_cycle"
        labels = [v["label"] for v in variants]
        ax.bar(range(len(variants)), [v["result"][key] for v in variants], color="C0", label=key.replace("_", " "))
        ax.set_xticks(range(len(variants)))
        ax.set_xticklabels(labels, rotation=20, ha="right", fontsize=8)
        ax.set_ylabel("cycles" if key == "cycles" else "accepted load (flits/node/cycle)")
        if all(v.get("area") for v in variants):
            a2 = ax.twinx()
            a2.plot(range(len(variants)), [sum(a["cells"] for a in v["area"].values()) for v in variants], "s-",
                    color="C1", label="cells (both sides)")
            a2.set_ylabel("cells, tree and torus sides")
            a2.legend(loc="upper right")
    ax.legend(fontsize=8, loc="upper left")
    ax.grid(alpha=0.3)
    ax.set_title(title or f"collnet {what}", fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


KINDS = {
    "links": (plot_links, ["torus", "links"]),
    "latency": (plot_latency, ["points"]),
    "compare": (plot_compare, ["rows"]),
    "timeline": (plot_timeline, ["samples"]),
    "sweep": (plot_sweep, ["variants"]),
}


def main(argv):
    p = argparse.ArgumentParser(prog="plot.py", description=__doc__.split("\n")[0])
    p.add_argument("kind", choices=sorted(KINDS))
    p.add_argument("json", help="collnet's --json output")
    p.add_argument("-o", "--output", required=True, help="the picture to write: .png or .svg")
    p.add_argument("--title", help="instead of the one made from the run")
    a = p.parse_args(argv)
    if not a.output.endswith((".png", ".svg")):
        print(f"plot.py: --output '{a.output}' must end in .png or .svg", file=sys.stderr)
        return 2
    fn, needs = KINDS[a.kind]
    try:
        fn(load(a.json, a.kind, needs), a.output, a.title)
    except PlotError as e:
        print(f"plot.py: {e}", file=sys.stderr)
        return 2
    except (KeyError, TypeError) as e:
        print(f"plot.py: {a.json}: not what collnet writes for a '{a.kind}' plot (missing or wrong {e})",
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
