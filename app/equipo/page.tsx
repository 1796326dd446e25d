import { cookies } from 'next/headers';
import { notFound } from 'next/navigation';
import { LeadsView } from '@/components/staff/leads-view';
import { SignInForm } from '@/components/staff/sign-in-form';
import styles from '@/components/staff/staff.module.css';
import { getStaffConfig } from '@/lib/staff/config';
import { noticeText } from '@/lib/staff/notices';
import { staffSession } from '@/lib/staff/sign-in';
import { staffListNamed } from '@/lib/staff/leads/list';

// Per request, always: whether the area exists is read at run time (the build has no staff variables).
export const dynamic = 'force-dynamic';

type Search = Record<string, string | string[] | undefined>;
const one = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value.slice(0, 4096) : undefined;
// The engines' own cursors (a date and an id, a run's id): anything else starts from the first page.
const cursorOf = (value: string | undefined) =>
  value && /^[\w.:|+/=-]{1,512}$/.test(value) ? value : undefined;

// A Map, not an object: a word from the address such as __proto__ or toString finds nothing.
const LINK_TROUBLE = new Map([
  ['invalid', 'Ese enlace no sirve o ya caducó (dura 10 minutos). Pide otro.'],
  [
    'other-browser',
    'Abre el enlace en el mismo navegador donde lo pediste, o pide otro desde aquí.',
  ],
  ['used', 'Ese enlace ya se usó. Pide otro.'],
]);

/** The staff area: the sign-in form, or the lists once signed in. Rendered per request; never cached, never indexed. */
export default async function StaffPage({ searchParams }: { searchParams: Promise<Search> }) {
  if (!getStaffConfig()) notFound();
  const params = await searchParams;
  const session = await staffSession(await cookies());
  if (!session) {
    const trouble = LINK_TROUBLE.get(one(params.enlace) ?? '');
    return (
      <>
        <h1>Área del equipo</h1>
        {one(params.salida) ? <p role="status">Sesión cerrada.</p> : null}
        {trouble ? <p role="alert">{trouble}</p> : null}
        <p className={styles.muted}>Te enviamos un enlace para entrar; no hay contraseñas.</p>
        <SignInForm />
      </>
    );
  }
  const list = staffListNamed(one(params.lista));
  const notice = noticeText(one(params.aviso), one(params.clave));
  return (
    <LeadsView
      email={session.email}
      list={list}
      cursor={cursorOf(one(params.desde))}
      notice={notice}
    />
  );
}
