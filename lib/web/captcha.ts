/** The sign-up captcha in the browser: the provider's own script, loaded once, renders its widget. */
import { useEffect, useRef } from "preact/hooks";

/** The captcha widget to show on sign-up. */
export interface CaptchaProps {
  provider: "turnstile" | "hcaptcha";
  siteKey: string;
}

const CAPTCHA_SCRIPTS = {
  turnstile: "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit",
  hcaptcha: "https://js.hcaptcha.com/1/api.js?render=explicit&recaptchacompat=off",
};

interface CaptchaApi {
  render(el: HTMLElement, options: Record<string, unknown>): string;
  reset(id?: string): void;
}

/** Loads the provider's script once and renders its widget into `el`; tokens go to `onToken`. */
export function useCaptcha(captcha: CaptchaProps | undefined, onToken: (token: string) => void) {
  const el = useRef<HTMLDivElement>(null);
  const widget = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!captcha || !el.current) return;
    const global = () =>
      (globalThis as unknown as Record<string, CaptchaApi | undefined>)[
        captcha.provider
      ];
    const render = () => {
      const provider = global();
      if (!provider || !el.current || widget.current !== undefined) return;
      widget.current = provider.render(el.current, {
        sitekey: captcha.siteKey,
        callback: onToken,
        "expired-callback": () => onToken(""),
        "error-callback": () => onToken(""),
      });
    };
    if (global()) return render();
    const script = document.createElement("script");
    script.src = CAPTCHA_SCRIPTS[captcha.provider];
    script.async = true;
    script.onload = render;
    document.head.append(script);
  }, [captcha?.provider, captcha?.siteKey]);
  const reset = () => {
    if (captcha && widget.current !== undefined) {
      (globalThis as unknown as Record<string, CaptchaApi | undefined>)[captcha.provider]?.reset(
        widget.current,
      );
    }
  };
  return { el, reset };
}
