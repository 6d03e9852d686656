#!/usr/bin/env python3
"""Browser render test of `tap-uinput cheatsheet` (run it through Tests/cheatsheet/run).

Renders cheat sheets with the real binary, draws them with headless Chromium and checks the
pictures:
  - SVG screenshots: the PNG has the SVG's size; at every finger circle the SVG declares, the pixel
    is dark for a tapped finger and light for a lifted one; every card has ink where its label is;
    every x2/x3 badge is drawn. Done for all layers at once and for each layer alone (--layer).
  - HTML printed to PDF: one A4 page per section (layer / gestures), every page has content, and
    each page's card grid keeps its left and right card borders (nothing cut off at the margins).
  - HTML on screen: the screenshot has the window's size and shows the first grid.
  - The command's failures: unknown --layer and a broken --keymap exit non-zero with a message.

Prints PASS/FAIL lines and a final "N passed, N failed" line; exits 1 if anything failed.
Usage: check.py TAP_UINPUT_BINARY [--docs-png PATH]
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
SVG_NS = "{http://www.w3.org/2000/svg}"
results = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    results["passed" if ok else "failed"] += 1
    print(f"{'PASS' if ok else 'FAIL'}: {name}" + (f" ({detail})" if detail and not ok else ""))
    return ok


def chromium_binary():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def chromium(args, workdir):
    """Runs headless Chromium once. --no-sandbox: the tests run as root in CI, where Chromium's
    sandbox refuses to start; the pages are our own output, with no script."""
    profile = tempfile.mkdtemp(prefix="chromium-", dir=workdir)
    cmd = [chromium_binary(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--no-first-run", "--force-device-scale-factor=1", f"--user-data-dir={profile}"] + args
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def render(binary, args):
    return subprocess.run([binary, "cheatsheet"] + args, capture_output=True, text=True, timeout=60)


def dark(pixel):
    return sum(pixel[:3]) / 3 < 110


def light(pixel):
    return sum(pixel[:3]) / 3 > 200


def mean_pixel(img, x, y, radius=1):
    pts = [img.getpixel((x + dx, y + dy)) for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)]
    return tuple(sum(p[i] for p in pts) / len(pts) for i in range(3))


def ink_in_box(img, x0, y0, x1, y1):
    """Number of dark pixels in a box (clipped to the image)."""
    x0, y0 = max(0, int(x0)), max(0, int(y0))
    x1, y1 = min(img.width, int(x1)), min(img.height, int(y1))
    return sum(img.crop((x0, y0, x1, y1)).convert("L").histogram()[:110])


def check_svg_picture(label, svg_text, png_path, expected_hands):
    """Checks a screenshot of a standalone SVG against the geometry the SVG itself declares."""
    root = ET.fromstring(svg_text)
    width, height = int(float(root.get("width"))), int(float(root.get("height")))
    img = Image.open(png_path).convert("RGB")
    check(f"{label}: PNG is {width}x{height} like the SVG", img.size == (width, height), f"got {img.size}")
    hands = root.findall(f".//{SVG_NS}g[@class='hand']")
    check(f"{label}: {expected_hands} hands drawn", len(hands) == expected_hands, f"found {len(hands)}")
    wrong = []
    for hand in hands:
        for circle in hand.findall(f"{SVG_NS}circle"):
            x, y = float(circle.get("cx")), float(circle.get("cy"))
            pixel = mean_pixel(img, round(x), round(y))
            down = "down" in circle.get("class")
            if (down and not dark(pixel)) or (not down and not light(pixel)):
                wrong.append(f"chord {hand.get('data-chord')} {circle.get('data-finger')} at ({x},{y}) {pixel}")
    check(f"{label}: every finger mark is filled or empty as its chord says", not wrong, "; ".join(wrong[:5]))
    blank_labels, missing_badges = [], []
    for card in root.iter(f"{SVG_NS}g"):
        if card.get("class") != "card":
            continue
        rect = card.find(f"{SVG_NS}rect")
        x, y = float(rect.get("x")), float(rect.get("y"))
        w = float(rect.get("width"))
        # The single-tap label sits between the hand (or gesture name) and the x2/x3 rows.
        if ink_in_box(img, x + 6, y + 56, x + w - 6, y + 90) < 15:
            blank_labels.append(f"card at ({x},{y})")
        for multi in card.findall(f"{SVG_NS}g"):
            if not multi.get("class", "").startswith("multi"):
                continue
            badge = multi.find(f"{SVG_NS}rect")
            bx = float(badge.get("x")) + 3
            by = float(badge.get("y")) + float(badge.get("height")) / 2
            # Left edge of the badge: dark fill beside the white x2 text.
            if not dark(mean_pixel(img, round(bx), round(by), 0)):
                missing_badges.append(f"{multi.get('class')} at ({bx},{by})")
    check(f"{label}: every card shows its label", not blank_labels, "; ".join(blank_labels[:5]))
    check(f"{label}: every x2/x3 badge is drawn", not missing_badges, "; ".join(missing_badges[:5]))


def screenshot_svg(label, binary, workdir, args, expected_hands, keep_png=None):
    out = render(binary, args + ["--format", "svg"])
    if not check(f"{label}: cheatsheet --format svg exits 0", out.returncode == 0, out.stderr.strip()):
        return
    svg_path = os.path.join(workdir, f"{label}.svg")
    png_path = os.path.join(workdir, f"{label}.png")
    with open(svg_path, "w") as f:
        f.write(out.stdout)
    root = ET.fromstring(out.stdout)
    size = f"{int(float(root.get('width')))},{int(float(root.get('height')))}"
    run = chromium([f"--screenshot={png_path}", f"--window-size={size}", f"file://{svg_path}"], workdir)
    if not check(f"{label}: chromium screenshots the SVG", os.path.exists(png_path), run.stderr[-400:]):
        return
    check_svg_picture(label, out.stdout, png_path, expected_hands)
    if keep_png:
        img = Image.open(png_path).convert("RGB")
        # A palette of 16 greys is plenty for a black-and-white chart and keeps the file small.
        img.quantize(colors=16, method=Image.Quantize.MEDIANCUT).save(keep_png, optimize=True)
        check(f"{label}: docs PNG under 300 KB", os.path.getsize(keep_png) < 300_000, f"{os.path.getsize(keep_png)} bytes")


def pdf_pages(pdf_path, workdir):
    info = subprocess.run(["pdfinfo", pdf_path], capture_output=True, text=True).stdout
    pages = int(next(l.split()[1] for l in info.splitlines() if l.startswith("Pages:")))
    size = next(l for l in info.splitlines() if l.startswith("Page size:"))
    prefix = os.path.join(workdir, os.path.basename(pdf_path) + "-page")
    subprocess.run(["pdftoppm", "-r", "50", "-png", pdf_path, prefix], check=True)
    images = sorted(p for p in os.listdir(workdir) if p.startswith(os.path.basename(prefix)))
    return pages, size, [Image.open(os.path.join(workdir, p)).convert("L") for p in images]


def grid_border_columns(page):
    """Left and right x of the content, and how much of those columns is ink (card borders)."""
    w, h = page.size
    px = page.load()
    cols = [sum(1 for y in range(h) if px[x, y] < 235) for x in range(w)]
    inked = [x for x in range(w) if cols[x] > 0]
    if not inked:
        return None
    left, right = inked[0], inked[-1]
    return left, right, max(cols[left:left + 3]), max(cols[right - 2:right + 1]), h


def print_html(label, binary, workdir, args, cards_per_section):
    sections = len(cards_per_section)
    out = render(binary, args)
    if not check(f"{label}: cheatsheet (html) exits 0", out.returncode == 0, out.stderr.strip()):
        return
    html_path = os.path.join(workdir, f"{label}.html")
    pdf_path = os.path.join(workdir, f"{label}.pdf")
    with open(html_path, "w") as f:
        f.write(out.stdout)
    run = chromium(["--no-pdf-header-footer", f"--print-to-pdf={pdf_path}", f"file://{html_path}"], workdir)
    if not check(f"{label}: chromium prints the HTML to PDF", os.path.exists(pdf_path), run.stderr[-400:]):
        return
    pages, size, images = pdf_pages(pdf_path, workdir)
    check(f"{label}: {sections} sections print on {sections} A4 pages", pages == sections, f"{pages} pages")
    check(f"{label}: page size is A4", "(A4)" in size, size)
    for i, (page, cards) in enumerate(zip(images, cards_per_section), 1):
        cols = grid_border_columns(page)
        if not check(f"{label}: page {i} has content", cols is not None):
            continue
        left, right, left_ink, right_ink, h = cols
        w = page.width
        # 12 mm margins: at 50 dpi about 24 px. Content must stay inside them, roughly centred, and
        # the outermost card borders must be there on both sides (a clipped grid loses one).
        check(f"{label}: page {i} content inside the margins", left >= 15 and right <= w - 15, f"x {left}..{right} of {w}")
        if cards < 5:
            continue    # no full row of cards, so nothing reaches the right margin
        check(f"{label}: page {i} grid is centred (not cut off)", abs(left - (w - 1 - right)) <= 4,
              f"left margin {left}, right margin {w - 1 - right}")
        check(f"{label}: page {i} left and right card borders visible", left_ink > h * 0.1 and right_ink > h * 0.1,
              f"border ink {left_ink} / {right_ink} of {h}")


def screen_html(label, binary, workdir):
    out = render(binary, [])
    html_path = os.path.join(workdir, f"{label}.html")
    png_path = os.path.join(workdir, f"{label}.png")
    with open(html_path, "w") as f:
        f.write(out.stdout)
    chromium([f"--screenshot={png_path}", "--window-size=1000,900", f"file://{html_path}"], workdir)
    if not check(f"{label}: chromium screenshots the HTML", os.path.exists(png_path)):
        return
    img = Image.open(png_path).convert("RGB")
    check(f"{label}: screenshot is 1000x900", img.size == (1000, 900), f"got {img.size}")
    # The first card row of the base layer: hands and labels well inside the window.
    check(f"{label}: first grid visible on screen", ink_in_box(img, 0, 150, 1000, 600) > 2000)


def command_failures(binary, workdir):
    out = render(binary, ["--layer", "nope"])
    check("unknown --layer exits non-zero and lists the layers",
          out.returncode != 0 and '"base", "numbers"' in out.stderr and not out.stdout, out.stderr.strip())
    bad = os.path.join(workdir, "bad.toml")
    with open(bad, "w") as f:
        f.write('[layers.base]\n"x...." = "entr"\n')
    out = render(binary, ["--keymap", bad])
    check("broken --keymap exits non-zero with a positioned error",
          out.returncode != 0 and f"{bad}:2:11: error" in out.stderr and not out.stdout, out.stderr.strip())


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    binary = os.path.abspath(sys.argv[1])
    docs_png = sys.argv[sys.argv.index("--docs-png") + 1] if "--docs-png" in sys.argv else None
    if not check("chromium is installed (scripts/deps test)", chromium_binary() is not None):
        print(f"{results['passed']} passed, {results['failed']} failed")
        return 1
    tricky = os.path.join(HERE, "tricky.toml")
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="cheatsheet-test-") as workdir:
        screenshot_svg("default-svg", binary, workdir, [], 31 + 20, keep_png=docs_png)
        screenshot_svg("base-only", binary, workdir, ["--layer", "base"], 31)
        screenshot_svg("numbers-only", binary, workdir, ["--layer", "numbers"], 20)
        screenshot_svg("tricky-svg", binary, workdir, ["--keymap", tricky], 31 + 20 + 21)
        print_html("default-pdf", binary, workdir, [], [31, 20])
        print_html("tricky-pdf", binary, workdir, ["--keymap", tricky], [31, 20, 21, 3])
        screen_html("default-screen", binary, workdir)
        command_failures(binary, workdir)
    print(f"browser checks took {time.monotonic() - start:.1f} s")
    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
