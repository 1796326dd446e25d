'use client';

import { useActionState } from 'react';
import { askForLink, type LinkState } from '@/lib/staff/actions';
import styles from './staff.module.css';

const ANSWERS = {
  sent: 'Si esa dirección es del equipo, le enviamos un enlace para entrar. Ábrelo en este navegador.',
  limited: 'Demasiadas solicitudes seguidas. Espera unos minutos antes de pedir otro enlace.',
  invalid: 'Escribe una dirección de correo completa, por ejemplo nombre@agencia.mx.',
} as const;

/** The e-mail form: one field, the same answer for any address; works as a plain form before scripts load. */
export function SignInForm() {
  const [state, action, pending] = useActionState<LinkState, FormData>(askForLink, {});
  return (
    <form action={action} className={styles.card} noValidate>
      <label htmlFor="correo">Correo del equipo</label>
      <input
        id="correo"
        name="correo"
        type="email"
        autoComplete="email"
        maxLength={254}
        required
        defaultValue={state.email}
        aria-describedby="correo-aviso"
        aria-invalid={state.answer === 'invalid' || undefined}
      />
      <button type="submit" disabled={pending}>
        {pending ? 'Enviando…' : 'Enviarme un enlace'}
      </button>
      <p id="correo-aviso" role="status" className={styles.status}>
        {state.answer ? ANSWERS[state.answer] : ''}
      </p>
    </form>
  );
}
