/** The committed docs/screenshots/: refreshed only when a new screenshot really looks different. */
import type { Browser } from "playwright-core";

/** Base64 of `bytes`, in chunks small enough for String.fromCharCode. */
function base64(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(text);
}

/** The share of pixels that differ between two PNGs (1 when their sizes differ). */
async function pixelDifference(browser: Browser, a: Uint8Array, b: Uint8Array): Promise<number> {
  const page = await browser.newPage();
  try {
    return await page.evaluate(async ([x, y]) => {
      const load = (data: string) =>
        new Promise<HTMLImageElement>((resolve, reject) => {
          const img = new Image();
          img.onload = () => resolve(img);
          img.onerror = reject;
          img.src = `data:image/png;base64,${data}`;
        });
      const [one, two] = [await load(x), await load(y)];
      if (one.width !== two.width || one.height !== two.height) return 1;
      const canvas = document.createElement("canvas");
      canvas.width = one.width;
      canvas.height = one.height;
      const g = canvas.getContext("2d")!;
      g.drawImage(one, 0, 0);
      const p = g.getImageData(0, 0, one.width, one.height).data;
      g.drawImage(two, 0, 0);
      const q = g.getImageData(0, 0, one.width, one.height).data;
      let differ = 0;
      for (let i = 0; i < p.length; i += 4) {
        if (p[i] !== q[i] || p[i + 1] !== q[i + 1] || p[i + 2] !== q[i + 2]) differ++;
      }
      return differ / (p.length / 4);
    }, [base64(a), base64(b)]);
  } finally {
    await page.close();
  }
}

/**
 * Copies a screenshot to docs/screenshots/ when the committed one is missing or looks
 * different; a few anti-aliased pixels (Chromium's rasterising varies run to run) are not a
 * change, so the committed file does not churn.
 */
export async function updateDocsScreenshot(browser: Browser, shot: URL, docs: URL): Promise<void> {
  const fresh = await Deno.readFile(shot);
  const committed = await Deno.readFile(docs).catch(() => undefined);
  if (committed && await pixelDifference(browser, fresh, committed) < 0.001) return;
  await Deno.writeFile(docs, fresh);
}
