// A bare Next.js page (one <h1>) with the very same next and react as this
// project: the baseline every speed figure is compared with, built and
// measured in the same run on the same machine. Its public/floor.html is the
// floor of the interaction budgets (flows.mjs): the contact form's four fields
// with no JavaScript at all.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function makeBareApp(root) {
  const dir = mkdtempSync(path.join(tmpdir(), 'bare-next-'));
  mkdirSync(path.join(dir, 'app'));
  // Hard links to this project's node_modules (a copy where links are impossible).
  const linked = spawnSync('cp', ['-al', path.join(root, 'node_modules'), path.join(dir, 'node_modules')]);
  if (linked.status !== 0) {
    const copied = spawnSync('cp', ['-r', path.join(root, 'node_modules'), path.join(dir, 'node_modules')]);
    if (copied.status !== 0) throw new Error('Could not copy node_modules for the bare page');
  }
  writeFileSync(path.join(dir, 'next.config.mjs'), `export default { turbopack: { root: ${JSON.stringify(dir)} } };\n`);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bare', private: true }));
  writeFileSync(
    path.join(dir, 'app', 'layout.tsx'),
    `export const metadata = { title: 'Bare', description: 'A bare Next.js page for comparison.' };
export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (<html lang="en"><body>{children}</body></html>);
}
`,
  );
  mkdirSync(path.join(dir, 'public'));
  writeFileSync(path.join(dir, 'public', 'floor.html'), FLOOR_HTML);
  writeFileSync(path.join(dir, 'app', 'page.tsx'), `export default function Page() { return <h1>Hello</h1>; }\n`);
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { strict: true, jsx: 'react-jsx', module: 'esnext', moduleResolution: 'bundler', skipLibCheck: true, noEmit: true, esModuleInterop: true, isolatedModules: true, lib: ['dom', 'esnext'], plugins: [{ name: 'next' }] },
      include: ['**/*.ts', '**/*.tsx'],
    }),
  );
  return dir;
}

// The same fields, labels and limits as the contact form. Its "sending" must
// end in a visible thanks on the same page, as the island's does: the form sits
// in an open <dialog> and submits with method="dialog", which closes it (no
// navigation, no script), and CSS then shows the thanks.
const FLOOR_HTML = `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Floor</title>
<style>
  body { font-family: sans-serif; margin: 1rem; }
  dialog { position: static; border: 0; padding: 0; }
  label, input, textarea, button { display: block; width: 100%; margin-bottom: .5rem; font: inherit; }
  dialog[open] + [role="status"] h3 { display: none; }
</style>
</head>
<body>
<h1>Contacto</h1>
<dialog open>
<form method="dialog" data-floor="true">
<label for="contacto-name">Nombre</label><input id="contacto-name" name="name" type="text" autocomplete="name" maxlength="300" required>
<label for="contacto-mail">Correo electrónico</label><input id="contacto-mail" name="mail" type="email" inputmode="email" autocomplete="email" maxlength="300" required>
<label for="contacto-phone">Teléfono</label><input id="contacto-phone" name="phone" type="text" inputmode="tel" autocomplete="tel" maxlength="100" required>
<label for="contacto-reason">¿En qué podemos ayudarte?</label><textarea id="contacto-reason" name="reason" rows="4" maxlength="3000" required></textarea>
<button type="submit">Enviar</button>
</form>
</dialog>
<div role="status"><h3>¡Gracias por contactarnos!</h3></div>
</body>
</html>
`;
