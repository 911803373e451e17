/** The page of a failed (non-API) request: any status app.ts's onError renders, 4xx or 5xx. */
import { ErrorPage, type ProblemData } from "../components/ErrorPage.tsx";
import type { PageProps } from "../lib/http/app_env.ts";

export default function ErrorShell({ data }: PageProps<ProblemData | undefined>) {
  return <ErrorPage problem={data} />;
}
