import path from 'node:path';
import type { FullConfig, Reporter } from '@playwright/test/reporter';
import { bypassSecret } from './bypass';
import { redactSecret } from './redact';

/**
 * Takes the bypass secret out of everything the run leaves: the traces and
 * attachments in the output folders when the run ends (listed before the HTML
 * reporter, which then copies them clean), and the HTML report once written.
 */
export default class RedactReporter implements Reporter {
  private outputDirs: string[] = [];
  private reportDir = '';

  onBegin(config: FullConfig): void {
    this.outputDirs = [...new Set(config.projects.map((project) => project.outputDir))];
    const html = config.reporter.find(([name]) => name === 'html')?.[1] as
      { outputFolder?: string } | undefined;
    const fromEnv = process.env.PLAYWRIGHT_HTML_OUTPUT_DIR || process.env.PLAYWRIGHT_HTML_REPORT;
    const configDir = config.configFile ? path.dirname(config.configFile) : process.cwd();
    this.reportDir = fromEnv
      ? path.resolve(fromEnv)
      : path.resolve(configDir, html?.outputFolder ?? 'playwright-report');
  }

  onEnd(): void {
    const secret = bypassSecret();
    if (secret) redactSecret(this.outputDirs, secret);
  }

  async onExit(): Promise<void> {
    const secret = bypassSecret();
    if (secret) redactSecret([this.reportDir, ...this.outputDirs], secret);
  }

  printsToStdio(): boolean {
    return false;
  }
}
