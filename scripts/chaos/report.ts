/** The outcome lines of `deno task chaos`: each check passes or fails with what it saw. */

/** One check's outcome. */
interface Outcome {
  name: string;
  ok: boolean;
  detail: string;
}

const outcomes: Outcome[] = [];

/** Records and prints an outcome. */
export function record(name: string, ok: boolean, detail: string): void {
  outcomes.push({ name, ok, detail });
  console.log(`${ok ? "PASS" : "FAIL"} ${name}: ${detail}`);
}

/** Every outcome so far. */
export function allOutcomes(): readonly Outcome[] {
  return outcomes;
}

/** Milliseconds since `start`. */
export const since = (start: number): number => Math.round(performance.now() - start);

/** Whether `res` is a problem document (docs/api.md); consumes the body. */
export async function problemCode(res: Response): Promise<string | undefined> {
  const text = await res.text();
  if (!(res.headers.get("content-type") ?? "").startsWith("application/problem+json")) return;
  try {
    const body = JSON.parse(text);
    return body.status === res.status && body.type && body.title && body.detail
      ? String(body.code)
      : undefined;
  } catch {
    return undefined;
  }
}
