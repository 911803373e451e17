/** Outgoing mail: the message, the mailer interface and the SMTP mailer of SMTP_URL. */
export { type Mailer, type MailMessage, smtpMailer } from "./smtp_mailer.ts";
