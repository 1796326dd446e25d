#!/usr/bin/env node
// Makes sure the end-to-end tests have a Chromium to drive. Playwright cannot
// download its own browsers on machines without general internet access, so
// on Debian/Ubuntu the distribution's package is installed when missing.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const custom = process.env.PLAYWRIGHT_CHROMIUM_PATH;
if (custom) {
  if (!existsSync(custom)) {
    console.error(`PLAYWRIGHT_CHROMIUM_PATH=${custom} does not exist.`);
    process.exit(1);
  }
  process.exit(0);
}
if (existsSync('/usr/bin/chromium')) process.exit(0);

const hasApt = existsSync('/usr/bin/apt-get');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (hasApt) {
  const sudo = isRoot ? '' : 'sudo ';
  console.log(`Installing Debian's chromium for the end-to-end tests (${sudo}apt-get)...`);
  try {
    execSync(`${sudo}apt-get update -qq && ${sudo}apt-get install -y -qq chromium`, { stdio: 'inherit' });
    process.exit(0);
  } catch {
    console.error('Could not install chromium with apt-get.');
  }
}
console.warn(
  'No /usr/bin/chromium: Playwright will use its own browser. If it is missing, run `npx playwright install chromium` ' +
    'or set PLAYWRIGHT_CHROMIUM_PATH to a Chromium or Chrome binary.',
);
