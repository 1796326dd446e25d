// What `npm run build` does once `next build` is done (Vercel's build included): the prerendered pages' CSS sent once
// (./css-once.ts), then the rules for what is below the fold moved out of the first paint's way (./css-later.ts). A
// page either step cannot read fails the build, naming it.
//   tsx scripts/build/after-next-build.ts [.next]
import { cssLaterInBuild } from './css-later';
import { cssOnceInBuild } from './css-once';

const distDir = process.argv[2] ?? '.next';
const pages = cssOnceInBuild(distDir);
const rewritten = pages.filter((page) => page.removedBytes > 0);
const bytes = rewritten.reduce((sum, page) => sum + page.removedBytes, 0);
console.log(
  `css-once: ${rewritten.length} of ${pages.length} prerendered pages carry their CSS once (${bytes} bytes less)`,
);
const moved = cssLaterInBuild(distDir).filter((page) => page.movedBytes > 0);
console.log(
  `css-later: ${moved.length} prerendered pages load the CSS below their fold after the first paint ` +
    `(${moved.map((page) => `${page.page} ${page.movedBytes} B`).join(', ') || 'none'})`,
);
