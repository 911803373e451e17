/**
 * Draws the installable app's icons (static/icons/*.png) from the favicon's design: a gold
 * screen frame with a play mark on the site's dark ground. Plain code instead of an image
 * tool, so the icons can be made again on any machine with Deno: `deno run -A scripts/icons.ts`.
 *
 * The maskable icon fills its whole square (a launcher crops it to a circle or a squircle) and
 * keeps the mark inside the middle 80 %, the safe zone of the maskable icon format.
 */
import { ICONS } from "../lib/web/pwa/icons.ts";
import { encodePng } from "./icons/png.ts";
import { roundedRect, type Shape, triangle } from "./icons/shapes.ts";

const GROUND = [0x12, 0x15, 0x1c];
const GOLD = [0xf5, 0xc4, 0x51];

/** The favicon's drawing in its 32-unit square: the ground, then the frame, then the play mark. */
function mark(options: { maskable: boolean }): { shape: Shape; color: number[] }[] {
  // A maskable icon shrinks the mark to the safe zone and lets the ground fill the square.
  const k = options.maskable ? 0.72 : 1;
  const at = (v: number) => 16 + (v - 16) * k;
  const frameOuter = roundedRect(at(4.75), at(6.75), at(27.25), at(25.25), 3.25 * k);
  const frameInner = roundedRect(at(7.25), at(9.25), at(24.75), at(22.75), 0.75 * k);
  return [
    { shape: roundedRect(0, 0, 32, 32, options.maskable ? 0 : 7), color: GROUND },
    { shape: (x, y) => frameOuter(x, y) && !frameInner(x, y), color: GOLD },
    { shape: triangle([at(14), at(12.5)], [at(14), at(19.5)], [at(20), at(16)]), color: GOLD },
  ];
}

/** The RGBA pixels of the mark at `size` pixels, 4x4 samples per pixel for smooth edges. */
function drawIcon(size: number, options: { maskable: boolean }): Uint8Array {
  const layers = mark(options);
  const pixels = new Uint8Array(size * size * 4);
  const n = 4;
  const scale = 32 / size;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = (px + (sx + 0.5) / n) * scale;
          const y = (py + (sy + 0.5) / n) * scale;
          const top = layers.findLast((layer) => layer.shape(x, y));
          if (!top) continue;
          for (let i = 0; i < 3; i++) sum[i] += top.color[i];
          sum[3] += 255;
        }
      }
      const o = (py * size + px) * 4;
      const covered = sum[3] / 255;
      for (let i = 0; i < 3; i++) pixels[o + i] = covered ? Math.round(sum[i] / covered) : 0;
      pixels[o + 3] = Math.round(sum[3] / (n * n));
    }
  }
  return pixels;
}

if (import.meta.main) {
  const dir = new URL("../static/icons/", import.meta.url);
  await Deno.mkdir(dir, { recursive: true });
  for (const icon of ICONS) {
    const png = await encodePng(
      drawIcon(icon.size, { maskable: icon.purpose === "maskable" }),
      icon.size,
      icon.size,
    );
    await Deno.writeFile(new URL(icon.file, dir), png);
    console.log(`static/icons/${icon.file} (${png.length} bytes)`);
  }
}
