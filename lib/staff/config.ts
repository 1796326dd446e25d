import 'server-only';
import { publicEnv } from '@/lib/env/public';
import { getDeliveryConfig, staffEnv, type AlertConfig } from '@/lib/env/server';

export type StaffConfig = { emails: readonly string[]; secret: string; mail: AlertConfig; siteUrl: string };

/** What the staff area lacks to exist, for the start-up report; none: it exists. */
export function staffAreaMissing(): string[] {
  const { STAFF_EMAILS, STAFF_SESSION_SECRET } = staffEnv().env;
  return [
    ...(STAFF_EMAILS ? [] : ['STAFF_EMAILS']),
    ...(STAFF_SESSION_SECRET ? [] : ['STAFF_SESSION_SECRET']),
    ...(getDeliveryConfig().alert ? [] : ['ALERT_SMTP_URL, ALERT_EMAIL_TO y ALERT_EMAIL_FROM']),
  ];
}

/** The staff area's configuration, or undefined when it does not exist (a 404 everywhere in it). */
export function getStaffConfig(): StaffConfig | undefined {
  const { STAFF_EMAILS, STAFF_SESSION_SECRET: secret } = staffEnv().env;
  const mail = getDeliveryConfig().alert;
  const emails = (STAFF_EMAILS ?? '').split(',').flatMap((one) => (one.trim() ? [one.trim().toLowerCase()] : []));
  if (!emails.length || !secret || !mail) return undefined;
  return { emails, secret, mail, siteUrl: publicEnv.siteUrl };
}
