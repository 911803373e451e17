/** The installable app's icons under static/icons/ (drawn by scripts/icons.ts). */
export const ICONS = [
  { file: "icon-192.png", size: 192, purpose: "any" },
  { file: "icon-512.png", size: 512, purpose: "any" },
  { file: "icon-maskable-192.png", size: 192, purpose: "maskable" },
  { file: "icon-maskable-512.png", size: 512, purpose: "maskable" },
] as const;
