/** `/login`: sign in with email and password (the AuthForm island, through supabase-js). */
import { AuthPage, type AuthPageData } from "../components/AuthPage.tsx";
import { authPageHandlers } from "../lib/http/auth_page.ts";
import type { PageProps } from "../lib/http/app_env.ts";

export const handler = authPageHandlers;

export default function Login({ data }: PageProps<AuthPageData>) {
  return <AuthPage mode="login" data={data} />;
}
