/**
 * A bar chart drawn on the server as SVG (no JavaScript, prints as it shows), with the same
 * numbers in a table for screen readers: the SVG is hidden from them, the table from the eye.
 */

/** One bar: its label under it, its long name in the table, its value. */
export interface Bar {
  label: string;
  name: string;
  value: number;
}

const W = 36;
const GAP = 8;
const H = 140;

/** The chart; `caption` names it, and heads the table. */
export function BarChart({ bars, caption, unit }: { bars: Bar[]; caption: string; unit: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const width = bars.length * (W + GAP);
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${width} ${H + 36}`}
        role="presentation"
        aria-hidden="true"
        focusable="false"
      >
        {bars.map((b, i) => {
          const h = Math.round((b.value / max) * H);
          const x = i * (W + GAP) + GAP / 2;
          return (
            <g key={b.name}>
              <rect class="chart-bar" x={x} y={H - h + 14} width={W} height={h} rx="3" />
              {b.value > 0
                ? (
                  <text class="chart-value" x={x + W / 2} y={H - h + 10} text-anchor="middle">
                    {b.value}
                  </text>
                )
                : null}
              <text class="chart-label" x={x + W / 2} y={H + 30} text-anchor="middle">
                {b.label}
              </text>
            </g>
          );
        })}
      </svg>
      <table class="sr-only">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{caption.split(" by ")[1] ?? "Item"}</th>
            <th scope="col">{unit}</th>
          </tr>
        </thead>
        <tbody>
          {bars.map((b) => (
            <tr key={b.name}>
              <th scope="row">{b.name}</th>
              <td>{b.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <figcaption>{caption}</figcaption>
    </figure>
  );
}
