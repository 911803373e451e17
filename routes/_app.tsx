/** The HTML shell of every page. */
import type { AppShellProps } from "../lib/http/env.ts";

export default function App({ children, title }: AppShellProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title ?? "Movies"}</title>
      </head>
      <body>
        <main id="main">{children}</main>
      </body>
    </html>
  );
}
