// A bare Next.js page (one <h1>) with the very same next and react as this
// project: the baseline every speed figure is compared with, built and
// measured in the same run on the same machine.
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
