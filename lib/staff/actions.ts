'use server';

import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { after } from 'next/server';
import { forget } from '@/lib/staff/leads/forget';
import { release } from '@/lib/staff/leads/release';
import { beyondReach, forgotLines } from '@/lib/staff/leads/words';
import { LEAD_KEY, releaseNoticeUrl } from './notices';
import { requestLink, requireStaff, signOut, staffAddress, type LinkAnswer } from './sign-in';

// The staff area's Server Actions. Each checks the session itself: an action is a door of its own, reachable by a
// POST with its id whatever page shows it. Next takes them only from the site's own Origin, and the session cookie is
// SameSite=Lax, so another site's form carries neither.

export type LinkState = { answer?: LinkAnswer; email?: string };
export type ForgetState = { mail?: string; lines?: string[] };

/** Asks for a sign-in link: the same answer for every address (see requestLink). */
export async function askForLink(_previous: LinkState, form: FormData): Promise<LinkState> {
  const typed = fieldOf(form, 'correo');
  const email = typeof typed === 'string' ? typed.slice(0, 254) : '';
  const answer = await requestLink(email, await headers(), await cookies(), (send) => after(send));
  return { answer, email };
}

/** Entregar: a suspected spam delivered like any lead, by resuming the hook its run waits on. */
export async function releaseSpam(form: FormData): Promise<void> {
  await requireStaff();
  const key = fieldOf(form, 'clave') ?? '';
  if (!LEAD_KEY.test(key)) redirect('/equipo?lista=spam');
  const answer = await release(key, { waitMs: 3000 });
  // The answer as a code: the page says it in its own words (notices.ts).
  redirect(releaseNoticeUrl(answer.result, key));
}

/** Olvidar: everything the project holds about a person, and what it could not reach. */
export async function forgetPerson(_previous: ForgetState, form: FormData): Promise<ForgetState> {
  await requireStaff();
  const mail = staffAddress(fieldOf(form, 'correo'));
  if (!mail) return { lines: ['Escribe el correo completo de la persona.'] };
  const report = await forget(mail);
  return { mail, lines: [...forgotLines(report), ...beyondReach(report)] };
}

/**
 * A text field of what was posted. An action is a door anyone can post to with arguments of any shape (a forged post
 * may send no form at all): anything else reads as nothing, never as a 500.
 */
function fieldOf(form: unknown, name: string): string | undefined {
  if (!(form instanceof FormData)) return undefined;
  const value = form.get(name);
  return typeof value === 'string' ? value : undefined;
}

export async function leave(): Promise<void> {
  await signOut(await cookies());
  redirect('/equipo?salida=1');
}
