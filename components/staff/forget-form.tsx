'use client';

import { useActionState } from 'react';
import { forgetPerson, type ForgetState } from '@/lib/staff/actions';
import styles from './staff.module.css';

/** A person's request to be forgotten: their e-mail, then what was erased and what is out of reach, said plainly. */
export function ForgetForm() {
  const [state, action, pending] = useActionState<ForgetState, FormData>(forgetPerson, {});
  return (
    <form action={action} className={styles.card}>
      <label htmlFor="olvidar">Correo de la persona</label>
      <input
        id="olvidar"
        name="correo"
        type="email"
        maxLength={254}
        required
        defaultValue={state.mail}
      />
      <button type="submit" disabled={pending}>
        {pending ? 'Olvidando…' : 'Olvidar'}
      </button>
      <div role="status" className={styles.status}>
        {state.lines?.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
    </form>
  );
}
