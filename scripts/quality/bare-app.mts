// A bare Next.js page (one <h1>) with the very same next and react as this
// project: the baseline every speed figure is compared with, measured in the
// same run on the same machine. Its public/floor.html is the floor of the
// interaction budgets (flows.ts): the contact form's four fields with no
// JavaScript at all. Built by the harness like every other test build.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { appDir, type AppSpec } from '../../test-support/harness';

const NAME = 'bare';

/** The bare app's files (path inside the app, text); node_modules is the harness's hard-linked copy. */
function bareFiles(dir: string): Record<string, string> {
  return {
    // The app sits inside the project's .next: its own root, or Turbopack would take the project's.
    'next.config.mjs': `export default { turbopack: { root: ${JSON.stringify(dir)} } };\n`,
    'package.json': JSON.stringify({ name: 'bare', private: true }),
    'app/layout.tsx': `export const metadata = { title: 'Bare', description: 'A bare Next.js page for comparison.' };
export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (<html lang="en"><body>{children}</body></html>);
}
`,
    'public/floor.html': FLOOR_HTML,
    'app/page.tsx': `export default function Page() { return <h1>Hello</h1>; }\n`,
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        strict: true,
        jsx: 'react-jsx',
        module: 'esnext',
        moduleResolution: 'bundler',
        skipLibCheck: true,
        noEmit: true,
        esModuleInterop: true,
        isolatedModules: true,
        lib: ['dom', 'esnext'],
        plugins: [{ name: 'next' }],
      },
      include: ['**/*.ts', '**/*.tsx'],
    }),
  };
}

function writeBareApp(dir: string) {
  for (const [file, text] of Object.entries(bareFiles(dir))) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
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

/** The harness build of the bare app: rebuilt when its files' text changes (or the lockfile does). */
export const BARE_APP: AppSpec = {
  name: NAME,
  publicEnv: {},
  create: {
    id: createHash('sha256')
      .update(JSON.stringify(bareFiles(appDir(NAME))))
      .digest('hex'),
    run: writeBareApp,
  },
};
