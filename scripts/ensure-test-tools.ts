// Makes sure the tests have what they drive: a Chromium (Lighthouse) and
// its headless shell (Playwright), Java (the W3C Nu HTML checker), redis-server (the Redis
// store of the abuse limit, tested for real) and PostgreSQL (the Workflow
// SDK's Postgres world, tested for real). Playwright cannot download
// its own browsers on machines without general internet access, so on
// Debian/Ubuntu the distribution's packages are installed when missing.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { DEBIAN_CHROMIUM, DEBIAN_HEADLESS_SHELL } from '../test-support/chromium';
import { debianPostgresBin } from '../test-support/postgres';

const hasApt = existsSync('/usr/bin/apt-get');
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const sudo = isRoot ? '' : 'sudo ';
let updated = false;

function aptInstall(pkg: string): boolean {
  if (!hasApt) return false;
  try {
    if (!updated) execSync(`${sudo}apt-get update -qq`, { stdio: 'inherit' });
    updated = true;
    execSync(`${sudo}apt-get install -y -qq ${pkg}`, { stdio: 'inherit' });
    return true;
  } catch {
    console.error(`Could not install ${pkg} with apt-get.`);
    return false;
  }
}

if (spawnSync('redis-server', ['--version']).status !== 0) {
  console.log('Installing redis-server for the abuse-limit tests (apt-get)...');
  if (!aptInstall('redis-server'))
    console.warn('No redis-server: install Redis for the Redis-store tests.');
}

if (!debianPostgresBin()) {
  console.log('Installing PostgreSQL for the Postgres world tests (apt-get postgresql)...');
  if (!aptInstall('postgresql'))
    console.warn("No PostgreSQL: install Debian's postgresql for the Postgres world tests.");
}

if (spawnSync('java', ['-version']).status !== 0) {
  console.log('Installing Java for the W3C Nu HTML checker (apt-get default-jre-headless)...');
  if (!aptInstall('default-jre-headless'))
    console.warn('No Java: install a JRE (17 or newer) for the HTML check.');
}

const custom = process.env.PLAYWRIGHT_CHROMIUM_PATH;
if (custom) {
  if (!existsSync(custom)) {
    console.error(`PLAYWRIGHT_CHROMIUM_PATH=${custom} does not exist.`);
    process.exit(1);
  }
  process.exit(0);
}
const missing = [
  ...(existsSync(DEBIAN_CHROMIUM) ? [] : ['chromium']),
  ...(existsSync(DEBIAN_HEADLESS_SHELL) ? [] : ['chromium-headless-shell']),
];
if (missing.length === 0) process.exit(0);

console.log(
  `Installing Debian's ${missing.join(' and ')} for the browser tests (${sudo}apt-get)...`,
);
if (aptInstall(missing.join(' '))) process.exit(0);
console.warn(
  'No /usr/bin/chromium: Playwright will use its own browser. If it is missing, run `npx playwright install chromium` ' +
    'or set PLAYWRIGHT_CHROMIUM_PATH to a Chromium or Chrome binary.',
);
