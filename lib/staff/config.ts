import 'server-only';
import { publicEnv } from '@/lib/env/public';
import { getDeliveryConfig, staffEnv, type AlertConfig } from '@/lib/env/server';
import { ledgerStore, type LedgerStore } from './ledger';
import { normalMail } from '@/lib/contact/fields';

export type StaffConfig = {
  emails: readonly string[];
  secret: string;
  mail: AlertConfig;
  siteUrl: string;
  /** Where the links spent and the sessions ended are noted (ledger.ts). */
  ledger: LedgerStore;
};

// Without a ledger every instance shares, "Salir" and a link's "once" would hold on one instance only.
const NO_LEDGER =
  'REDIS_URL (aquí pueden atender varias instancias sin nada en común, como en Vercel: «Salir» y los enlaces de un ' +
  'solo uso valdrían solo en la instancia que los vio)';

/** What the staff area lacks to exist, for the start-up report; none: it exists. */
export function staffAreaMissing(): string[] {
  const { STAFF_EMAILS, STAFF_SESSION_SECRET } = staffEnv().env;
  return [
    ...(STAFF_EMAILS ? [] : ['STAFF_EMAILS']),
    ...(STAFF_SESSION_SECRET ? [] : ['STAFF_SESSION_SECRET']),
    ...(getDeliveryConfig().alert ? [] : ['ALERT_SMTP_URL, ALERT_EMAIL_TO y ALERT_EMAIL_FROM']),
    ...(ledgerStore() ? [] : [NO_LEDGER]),
  ];
}

/** The staff area's configuration, or undefined when it does not exist (a 404 everywhere in it). */
export function getStaffConfig(): StaffConfig | undefined {
  const { STAFF_EMAILS, STAFF_SESSION_SECRET: secret } = staffEnv().env;
  const mail = getDeliveryConfig().alert;
  const emails = (STAFF_EMAILS ?? '')
    .split(',')
    .flatMap((one) => (one.trim() ? [normalMail(one)] : []));
  const ledger = ledgerStore();
  if (!emails.length || !secret || !mail || !ledger) return undefined;
  return { emails, secret, mail, siteUrl: publicEnv.siteUrl, ledger };
}
