import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AlertConfig } from '@/lib/env/server';
import { errorName } from '@/lib/server/error-name';
import { withTimeout } from '@/lib/server/with-timeout';

// The agency's mail, through the alert SMTP (ALERT_SMTP_URL): one transport per server, short timeouts, a bounded wait.
export type Mail = { subject: string; text: string };
export const MAIL_TIMEOUT_MS = 12_000;

const transports = new Map<string, Transporter>();

export async function sendMail(
  config: AlertConfig,
  mail: Mail,
): Promise<{ sent: true } | { sent: false; why: string }> {
  let transport = transports.get(config.smtpUrl);
  if (!transport) {
    // A mail server that hangs must not hold the step.
    const timeouts = { connectionTimeout: 3000, greetingTimeout: 3000, socketTimeout: 5000 };
    transport = nodemailer.createTransport({ url: config.smtpUrl, ...timeouts });
    transports.set(config.smtpUrl, transport);
  }
  try {
    await withTimeout(
      transport.sendMail({ from: config.from, to: config.to, ...mail }),
      MAIL_TIMEOUT_MS,
    );
    return { sent: true };
  } catch (error) {
    return { sent: false, why: errorName(error) };
  }
}
