import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/*
 * The last lines of a run, for whoever reads only those (CI keeps the tail of the log): every attempt that failed,
 * with the first lines of its error and where it was thrown, including the ones a retry then passed. The list
 * reporter prints the same errors, but hundreds of lines earlier.
 */
const ANSI = /\u001b\[[0-9;]*m/g;
const LINES_PER_ERROR = 6;

export default class FailureSummary implements Reporter {
  private readonly failures: string[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'passed' || result.status === 'skipped') return;
    const title = test.titlePath().filter(Boolean).slice(1).join(' › ');
    const errors = result.errors.map((error) => {
      const message = (error.message ?? error.value ?? '').replace(ANSI, '').trim().split('\n');
      const where = error.location ? `    at ${error.location.file}:${error.location.line}` : '';
      return [...message.slice(0, LINES_PER_ERROR).map((line) => `    ${line}`), where]
        .filter(Boolean)
        .join('\n');
    });
    this.failures.push(
      `  ${title} (attempt ${result.retry + 1}, ${result.status}, ${Math.round(result.duration / 1000)} s)\n${errors.join('\n')}`,
    );
  }

  onEnd(result: FullResult): void {
    if (this.failures.length === 0) return;
    console.log(
      `\nFailed attempts (${this.failures.length}), run ${result.status}:\n${this.failures.join('\n')}`,
    );
  }

  printsToStdio(): boolean {
    return true;
  }
}
