/**
 * A fake SMTP server on 127.0.0.1 (npm smtp-server) that takes every message with password
 * authentication and keeps it, with its plain-text part decoded, for the test to read.
 */
import { SMTPServer } from "smtp-server";

/** One message the fake received. */
interface ReceivedMail {
  from: string;
  to: string[];
  user: string;
  raw: string;
  /** The decoded text/plain part. */
  text: string;
  /** The decoded text/html part. */
  html: string;
}

/** A running fake; `url` is the SMTP_URL to configure. */
export interface FakeSmtp extends AsyncDisposable {
  url: string;
  mails: ReceivedMail[];
  /** Resolves with the `n`th message (1-based) once it has arrived (or rejects after 10 s). */
  waitFor(n: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function decode(body: string, encoding: string): string {
  if (/base64/i.test(encoding)) {
    const bytes = Uint8Array.from(atob(body.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  }
  if (/quoted-printable/i.test(encoding)) {
    const soft = body.replace(/=\r?\n/g, "");
    const bytes: number[] = [];
    for (let i = 0; i < soft.length; i++) {
      if (soft[i] === "=" && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
        bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(...new TextEncoder().encode(soft[i]));
    }
    return new TextDecoder().decode(new Uint8Array(bytes));
  }
  return body;
}

/** The decoded body of the first part of `type` in a raw (possibly multipart) message. */
function mimePart(raw: string, type: string): string {
  for (const part of raw.split(/\r?\n--[^\r\n]+\r?\n/)) {
    const [head, ...rest] = part.split(/\r?\n\r?\n/);
    if (!new RegExp(`content-type:\\s*${type}`, "i").test(head)) continue;
    const encoding = /content-transfer-encoding:\s*(\S+)/i.exec(head)?.[1] ?? "7bit";
    return decode(rest.join("\n\n").replace(/\r?\n--[^\r\n]*--\s*$/, ""), encoding);
  }
  return "";
}

/** Starts the fake SMTP server with one account (`user`/`pass`). */
export async function startFakeSmtp(): Promise<FakeSmtp> {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "mailer" && auth.password === "s3cret-smtp") {
        return callback(null, { user: auth.username });
      }
      callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => raw += chunk);
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          user: String(session.user ?? ""),
          raw,
          text: mimePart(raw, "text/plain"),
          html: mimePart(raw, "text/html"),
        });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    url: `smtp://mailer:s3cret-smtp@127.0.0.1:${port}`,
    mails,
    async waitFor(n) {
      const deadline = Date.now() + 10_000;
      while (mails.length < n) {
        if (Date.now() > deadline) throw new Error(`no mail #${n} within 10 s`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return mails[n - 1];
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
