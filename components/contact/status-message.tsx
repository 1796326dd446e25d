import type { ReactNode } from 'react';
import type { ContactState } from '@/lib/contact/state';
import { contactForm as copy } from '@/lib/island-copy';
import styles from './contact-form.module.css';

/** The one message the status region under the send button holds, if any. */
type StatusKind =
  | 'sending'
  | 'invalid'
  | 'confirm'
  | 'apiMessage'
  | 'staleResend'
  | 'stale'
  | 'rateLimited'
  | 'failed';

type Context = { mes?: string; whatsappUrl: string; submit: string; onReload: () => void };

function statusKind(
  state: ContactState,
  sending: boolean,
  browserAnswered: boolean,
): StatusKind | null {
  if (sending) return 'sending';
  if (state.status === 'invalid' || state.status === 'confirm') return state.status;
  if (state.status !== 'failed') return null;
  if (state.mes !== undefined) return 'apiMessage';
  // A form the browser posted itself is answered with the current form, filled in again: no reload needed.
  if (state.reason === 'stale') return browserAnswered ? 'staleResend' : 'stale';
  return state.reason === 'rate-limited' ? 'rateLimited' : 'failed';
}

/** A failure we word ourselves, with WhatsApp as the way round it. */
const withWhatsApp = (text: string, whatsappUrl: string) => (
  <p className={styles.statusError}>
    {text}{' '}
    <a href={whatsappUrl} target="_blank" rel="noopener noreferrer">
      {copy.failedLink}
    </a>
    .
  </p>
);

const MESSAGES: Record<StatusKind, (context: Context) => ReactNode> = {
  sending: () => <span className="visually-hidden">{copy.sending}</span>,
  invalid: () => <p className={styles.statusError}>{copy.invalid}</p>,
  confirm: ({ submit }) => <p className={styles.statusNote}>{copy.confirm(submit)}</p>,
  apiMessage: ({ mes }) => <p className={styles.statusError}>{mes}</p>,
  staleResend: () => <p className={styles.statusError}>{copy.staleResend}</p>,
  stale: ({ onReload }) => (
    <p className={styles.statusError}>
      {copy.stale}{' '}
      <button type="button" className={styles.reload} onClick={onReload}>
        {copy.reload}
      </button>
    </p>
  ),
  rateLimited: ({ whatsappUrl }) => withWhatsApp(copy.rateLimited, whatsappUrl),
  failed: ({ whatsappUrl }) => withWhatsApp(copy.failed, whatsappUrl),
};

type Props = {
  state: ContactState;
  sending: boolean;
  /** No answer of the island's own yet: the state is the one the browser's post was rendered from. */
  browserAnswered: boolean;
  whatsappUrl: string;
  /** The send button's words, which the confirmation names. */
  submit: string;
  /** Reloads keeping what was typed (a newer deployment is live). */
  onReload: () => void;
};

export function StatusMessage({
  state,
  sending,
  browserAnswered,
  whatsappUrl,
  submit,
  onReload,
}: Props) {
  const kind = statusKind(state, sending, browserAnswered);
  const mes = state.status === 'failed' ? state.mes : undefined;
  return kind ? MESSAGES[kind]({ mes, whatsappUrl, submit, onReload }) : null;
}
