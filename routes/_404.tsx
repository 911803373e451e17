/** The page of an unknown (non-API) URL. */
import { ErrorPage, type ProblemData } from "../components/ErrorPage.tsx";
import type { PageProps } from "../lib/http/app_env.ts";

export default function NotFound({ data }: PageProps<ProblemData | undefined>) {
  return <ErrorPage problem={{ status: 404, ...data }} />;
}
