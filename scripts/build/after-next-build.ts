// What `npm run build` does once `next build` is done (Vercel's build included): the prerendered pages' CSS sent once
// (./css-once.ts). A page it cannot read fails the build, naming it.
//   tsx scripts/build/after-next-build.ts [.next]
import { cssOnceInBuild } from './css-once';

const pages = cssOnceInBuild(process.argv[2] ?? '.next');
const rewritten = pages.filter((page) => page.removedBytes > 0);
const bytes = rewritten.reduce((sum, page) => sum + page.removedBytes, 0);
console.log(
  `css-once: ${rewritten.length} of ${pages.length} prerendered pages carry their CSS once (${bytes} bytes less)`,
);
