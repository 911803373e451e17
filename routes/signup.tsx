/** `/signup`: create an account (POST /api/auth/signup), with the captcha widget when configured. */
import { AuthPage, type AuthPageData } from "../components/AuthPage.tsx";
import { authPageHandlers } from "../lib/http/auth_page.ts";
import type { PageProps } from "../lib/http/app_env.ts";

export const handler = authPageHandlers;

export default function Signup({ data }: PageProps<AuthPageData>) {
  return <AuthPage mode="signup" data={data} />;
}
