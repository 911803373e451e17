/** Point-in-shape tests for the icon drawing (coordinates in the favicon's 32-unit square). */

/** Whether the point (x, y) is inside the shape. */
export type Shape = (x: number, y: number) => boolean;

/** A rectangle from (x0, y0) to (x1, y1) with corners rounded by `r`. */
export function roundedRect(x0: number, y0: number, x1: number, y1: number, r: number): Shape {
  return (x, y) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const cx = Math.min(Math.max(x, x0 + r), x1 - r);
    const cy = Math.min(Math.max(y, y0 + r), y1 - r);
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
  };
}

/** The triangle a, b, c. */
export function triangle(a: number[], b: number[], c: number[]): Shape {
  const side = (p: number[], q: number[], x: number, y: number) =>
    (q[0] - p[0]) * (y - p[1]) - (q[1] - p[1]) * (x - p[0]);
  return (x, y) => {
    const d1 = side(a, b, x, y), d2 = side(b, c, x, y), d3 = side(c, a, x, y);
    return (d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0);
  };
}
