import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail: SMTP (SMTP_URL) or nothing at all; wired once in identity's setup. */
export interface Mailer {
  /** False when no SMTP_URL is set: the caller shows the link instead of mailing it. */
  readonly enabled: boolean;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * The SMTP driver (nodemailer): one pooled transport per process, opened with the first mail, so
 * nodemailer (~0.4 MB of code) is not loaded at start-up (docs/architecture.md, "Start-up").
 */
export function smtpMailer(url: string, from: string): Mailer {
  let transport: Promise<Transporter> | undefined;
  const open = () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(url)));
  return {
    enabled: true,
    async send(message) {
      await (await open()).sendMail({ from, ...message });
    },
    close: () => void transport?.then((t) => t.close()).catch(() => {}),
  };
}

/** No SMTP configured: nothing is sent. */
export const noMailer: Mailer = {
  enabled: false,
  async send() {},
  close() {},
};

export function createMailer(config: { smtpUrl?: string; mailFrom: string }): Mailer {
  return config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : noMailer;
}
