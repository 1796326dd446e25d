// Interactions: one Lighthouse user flow (mobile preset, applied throttling,
// 4x CPU) on the contact form and a carousel, reduced to each step's INP.
// The same steps run on a floor page with no JavaScript (bare-app.ts), so
// a step is budgeted against what the same clicks and keystrokes cost there.
import { startFlow, type Flags, type Result } from 'lighthouse';
import type { ElementHandle, Viewport } from 'puppeteer-core';
import { launchBrowser } from './browser.mjs';

// lighthouse:default is the mobile preset (moto g power screen, slow 4G, 4x CPU);
// 'devtools' applies that throttling while the steps really run.
const FLAGS: Flags = { throttlingMethod: 'devtools', onlyCategories: ['performance'] };
// The page is opened before the first step: the same screen as the preset's, so nothing reflows when the step starts.
const VIEWPORT: Viewport = { width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true };

export const FIELDS = [
  ['#contacto-name', 'Ana López'],
  ['#contacto-mail', 'ana@example.com'],
  ['#contacto-phone', '5512345678'],
  ['#contacto-reason', 'Quiero una página web para mi negocio.'],
] as const;
// lib/content.ts, carouselCopy (a changed label makes this step time out, naming the selector).
const CAROUSEL = 'section[aria-roledescription="carousel"]';
const NEXT = 'button[aria-label="Logotipo siguiente"]';
const PAUSE =
  'button[aria-label="Pausar el carrusel"], button[aria-label="Reproducir el carrusel"]';
const THANKS = '[role="status"] h3';
const SUBMIT = 'form:has(#contacto-name) button[type="submit"]';
const TIMEOUT = 30_000;

/** One timespan's figures; worst is the slowest interaction, for the log. */
export type StepFigures = { inpMs: number | null; tbtMs: number | null; worst: string };
export type FlowRun = {
  typing: StepFigures | undefined;
  carousel: StepFigures | null;
  sending: StepFigures | undefined;
  thanksMs: number;
  seconds: number;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;
const listOf = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter(isRecord) : [];

/** The slowest interaction's parts and target, for the log: "input 7 + processing 112 + presentation 16 ms on input#contacto-phone". */
function worstInteraction(insight: Result['audits'][string] | undefined): string {
  // A list of two parts: a table of the subparts' durations, and the node interacted with.
  const details: unknown = insight?.details;
  const parts = listOf(isRecord(details) ? details.items : undefined);
  const table = listOf(parts.find((part) => part.type === 'table')?.items);
  const node = parts.find((part) => part.type === 'node');
  if (table.length === 0) return '';
  const ms = (subpart: string) => {
    const duration = table.find((item) => item.subpart === subpart)?.duration;
    return Math.round(typeof duration === 'number' ? duration : 0);
  };
  const target =
    typeof node?.selector === 'string' ? (node.selector.split(' > ').pop() ?? '?') : '?';
  return `input ${ms('inputDelay')} + processing ${ms('processingDuration')} + presentation ${ms('presentationDelay')} ms on ${target}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The element `selector` finds, or an error that names it. */
async function must(
  handle: Promise<ElementHandle | null>,
  selector: string,
): Promise<ElementHandle> {
  const element = await handle;
  if (!element) throw new Error(`No element matches ${selector}`);
  return element;
}

/**
 * Runs the flow on `url` and returns { typing, carousel, sending }, each
 * { inpMs, tbtMs, worst } (carousel null when `carousel` is false), plus the
 * time from the submit click to the thanks (thanksMs, throttled network).
 */
export async function interactionFlow(
  url: string,
  { carousel }: { carousel: boolean },
): Promise<FlowRun> {
  const started = Date.now();
  const browser = await launchBrowser(VIEWPORT);
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(TIMEOUT);
    await page.goto(url, { waitUntil: 'networkidle0' });
    const [[firstField]] = FIELDS;
    await page.$eval(firstField, (input) => input.scrollIntoView({ block: 'center' }));
    // Hydrated: the island disables the empty form's button (the floor's never is).
    await page.waitForFunction(
      (name) => {
        const form = document.querySelector<HTMLInputElement>(name)?.form;
        return (
          form &&
          (form.dataset.floor === 'true' ||
            form.querySelector<HTMLButtonElement>('button[type="submit"]')?.disabled)
        );
      },
      {},
      firstField,
    );
    await sleep(500);

    const flow = await startFlow(page, { flags: FLAGS });

    await flow.startTimespan({ name: 'typing' });
    for (const [selector, value] of FIELDS) {
      await page.click(selector);
      await page.keyboard.type(value, { delay: 60 });
    }
    // Valid and the rules arrived: the button is enabled again.
    await page.waitForSelector(`${SUBMIT}:not([disabled])`);
    await sleep(500);
    await flow.endTimespan();

    if (carousel) {
      await flow.startTimespan({ name: 'carousel' });
      await page.$eval(CAROUSEL, (section) => section.scrollIntoView({ block: 'center' }));
      const ready = await must(page.waitForSelector(`${CAROUSEL}[data-ready="true"]`), CAROUSEL);
      await sleep(300);
      await (await must(ready.$(NEXT), NEXT)).click();
      await sleep(600);
      await (await must(ready.$(PAUSE), PAUSE)).click();
      await sleep(500);
      await flow.endTimespan();
    }

    await flow.startTimespan({ name: 'sending' });
    const clicked = Date.now();
    await (await must(page.$(SUBMIT), SUBMIT)).click();
    await page.waitForSelector(THANKS, { visible: true });
    const thanksMs = Date.now() - clicked;
    await sleep(300);
    await flow.endTimespan();

    const result = await flow.createFlowResult();
    const steps = new Map(
      result.steps.map((step): [string, StepFigures] => {
        const audit = (id: string) => step.lhr.audits[id];
        const value = (id: string) => {
          const numeric = audit(id)?.numericValue;
          return typeof numeric === 'number' ? Math.round(numeric) : null;
        };
        return [
          step.name,
          {
            inpMs: value('interaction-to-next-paint'),
            tbtMs: value('total-blocking-time'),
            worst: worstInteraction(audit('inp-breakdown-insight')),
          },
        ];
      }),
    );
    return {
      typing: steps.get('typing'),
      carousel: steps.get('carousel') ?? null,
      sending: steps.get('sending'),
      thanksMs,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  } finally {
    await browser.close();
  }
}
